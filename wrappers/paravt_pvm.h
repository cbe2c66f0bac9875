/*
 * paravt_pvm.h — the PVM wrappers of paravt (libparavt_pvm.a), reached
 * through macros: the instrumenter injects this header into the sources
 * of a PVM program (or `cc -include paravt_pvm.h` does), and every call
 * pvm_send(t, g) becomes para_vt_pvm_send(__FILE__, __func__, __LINE__,
 * t, g): the user's source is not edited by hand.
 *
 * The header includes <pvm3.h> itself, so it works before or after the
 * program's own #include <pvm3.h>.  The macros are function-like, so the
 * prototypes in <pvm3.h> ("int pvm_send __ProtoGlarp__((int, int))") and
 * uses of the names without a call (&pvm_send) are left alone.  Define
 * PARAVT_PVM_NO_MACROS to get the prototypes only.
 *
 * Each wrapper follows ParaVT's template: notify start (a *_START
 * record), take time, call the real pvm_* function, take time, record
 * peer, tag, bytes (pvm_bufinfo; for receives the source and tag actually
 * received) and result (a *_END record).  See pvt_event.h for the record
 * and ../wrappers/README for the classes.  When the task is not run
 * under paravt the wrappers only call the real functions.
 *
 * Link: libparavt_pvm.a libparavt.a $(MSGPACK_LIBS) $(PVM_LIBS).
 * C99.
 */
#ifndef PARAVT_PVM_H
#define PARAVT_PVM_H

/* <stdio.h> first: pvm3.h declares pvm_catchout(FILE *) only when EOF is
 * defined, and with -include this header comes before the program's own
 * includes. */
#include <stdio.h>
#include <sys/time.h>

#include <pvm3.h>

#define PARAVT_PVM_ARGS const char *pvt__file, const char *pvt__func, int pvt__line

/* send */
int para_vt_pvm_send(PARAVT_PVM_ARGS, int tid, int tag);
int para_vt_pvm_psend(PARAVT_PVM_ARGS, int tid, int tag, void *buf, int len,
		      int type);
/* receive */
int para_vt_pvm_recv(PARAVT_PVM_ARGS, int tid, int tag);
int para_vt_pvm_nrecv(PARAVT_PVM_ARGS, int tid, int tag);
int para_vt_pvm_trecv(PARAVT_PVM_ARGS, int tid, int tag, struct timeval *tmo);
int para_vt_pvm_precv(PARAVT_PVM_ARGS, int tid, int tag, void *buf, int len,
		      int type, int *rtid, int *rtag, int *rlen);
int para_vt_pvm_probe(PARAVT_PVM_ARGS, int tid, int tag);
/* broadcast / multicast */
int para_vt_pvm_mcast(PARAVT_PVM_ARGS, int *tids, int n, int tag);
int para_vt_pvm_bcast(PARAVT_PVM_ARGS, char *group, int tag);
/* group */
int para_vt_pvm_joingroup(PARAVT_PVM_ARGS, char *group);
int para_vt_pvm_lvgroup(PARAVT_PVM_ARGS, char *group);
int para_vt_pvm_barrier(PARAVT_PVM_ARGS, char *group, int count);
int para_vt_pvm_reduce(PARAVT_PVM_ARGS,
		       void (*fn)(int *, void *, void *, int *, int *),
		       void *data, int count, int type, int tag, char *group,
		       int root);
int para_vt_pvm_gather(PARAVT_PVM_ARGS, void *result, void *data, int count,
		       int type, int tag, char *group, int root);
int para_vt_pvm_scatter(PARAVT_PVM_ARGS, void *result, void *data, int count,
			int type, int tag, char *group, int root);
/* special */
int para_vt_pvm_mytid(PARAVT_PVM_ARGS);
int para_vt_pvm_parent(PARAVT_PVM_ARGS);
int para_vt_pvm_spawn(PARAVT_PVM_ARGS, char *task, char **argv, int flag,
		      char *where, int n, int *tids);
int para_vt_pvm_exit(PARAVT_PVM_ARGS);
int para_vt_pvm_kill(PARAVT_PVM_ARGS, int tid);
int para_vt_pvm_addhosts(PARAVT_PVM_ARGS, char **hosts, int n, int *infos);
int para_vt_pvm_delhosts(PARAVT_PVM_ARGS, char **hosts, int n, int *infos);
int para_vt_pvm_initsend(PARAVT_PVM_ARGS, int encoding);
int para_vt_pvm_notify(PARAVT_PVM_ARGS, int what, int tag, int n, int *tids);
int para_vt_pvm_halt(PARAVT_PVM_ARGS);
int para_vt_pvm_sendsig(PARAVT_PVM_ARGS, int tid, int sig);
/* group queries */
int para_vt_pvm_gettid(PARAVT_PVM_ARGS, char *group, int inst);
int para_vt_pvm_getinst(PARAVT_PVM_ARGS, char *group, int tid);
int para_vt_pvm_gsize(PARAVT_PVM_ARGS, char *group);
int para_vt_pvm_freezegroup(PARAVT_PVM_ARGS, char *group, int size);
/* mailbox */
int para_vt_pvm_putinfo(PARAVT_PVM_ARGS, char *name, int bufid, int flags);
int para_vt_pvm_recvinfo(PARAVT_PVM_ARGS, char *name, int index, int flags);
int para_vt_pvm_delinfo(PARAVT_PVM_ARGS, char *name, int index, int flags);
int para_vt_pvm_getmboxinfo(PARAVT_PVM_ARGS, char *pattern, int *nclasses,
			    struct pvmmboxinfo **classes);
/* the virtual machine, message handlers */
int para_vt_pvm_tasks(PARAVT_PVM_ARGS, int where, int *ntask,
		      struct pvmtaskinfo **taskp);
int para_vt_pvm_config(PARAVT_PVM_ARGS, int *nhost, int *narch,
		       struct pvmhostinfo **hostp);
int para_vt_pvm_pstat(PARAVT_PVM_ARGS, int tid);
int para_vt_pvm_mstat(PARAVT_PVM_ARGS, char *host);
int para_vt_pvm_hostsync(PARAVT_PVM_ARGS, int host, struct timeval *clk,
			 struct timeval *delta);
int para_vt_pvm_siblings(PARAVT_PVM_ARGS, int **tids);
/* The type of a receive matching function (pvm_recvf). */
typedef int (*para_vt_recvf_fn)(int, int, int);
para_vt_recvf_fn para_vt_pvm_recvf(PARAVT_PVM_ARGS, para_vt_recvf_fn fn);
int para_vt_pvm_addmhf(PARAVT_PVM_ARGS, int src, int tag, int ctx,
		       int (*fn)(int));
int para_vt_pvm_delmhf(PARAVT_PVM_ARGS, int id);

#ifndef PARAVT_PVM_NO_MACROS
#define PVT__AT __FILE__, __func__, __LINE__
#define pvm_send(t, g) para_vt_pvm_send(PVT__AT, (t), (g))
#define pvm_psend(t, g, b, l, y) para_vt_pvm_psend(PVT__AT, (t), (g), (b), (l), (y))
#define pvm_recv(t, g) para_vt_pvm_recv(PVT__AT, (t), (g))
#define pvm_nrecv(t, g) para_vt_pvm_nrecv(PVT__AT, (t), (g))
#define pvm_trecv(t, g, o) para_vt_pvm_trecv(PVT__AT, (t), (g), (o))
#define pvm_precv(t, g, b, l, y, rt, rg, rl) \
	para_vt_pvm_precv(PVT__AT, (t), (g), (b), (l), (y), (rt), (rg), (rl))
#define pvm_probe(t, g) para_vt_pvm_probe(PVT__AT, (t), (g))
#define pvm_mcast(ts, n, g) para_vt_pvm_mcast(PVT__AT, (ts), (n), (g))
#define pvm_bcast(gr, g) para_vt_pvm_bcast(PVT__AT, (gr), (g))
#define pvm_joingroup(gr) para_vt_pvm_joingroup(PVT__AT, (gr))
#define pvm_lvgroup(gr) para_vt_pvm_lvgroup(PVT__AT, (gr))
#define pvm_barrier(gr, c) para_vt_pvm_barrier(PVT__AT, (gr), (c))
#define pvm_reduce(f, d, c, y, g, gr, r) \
	para_vt_pvm_reduce(PVT__AT, (f), (d), (c), (y), (g), (gr), (r))
#define pvm_gather(res, d, c, y, g, gr, r) \
	para_vt_pvm_gather(PVT__AT, (res), (d), (c), (y), (g), (gr), (r))
#define pvm_scatter(res, d, c, y, g, gr, r) \
	para_vt_pvm_scatter(PVT__AT, (res), (d), (c), (y), (g), (gr), (r))
#define pvm_mytid() para_vt_pvm_mytid(PVT__AT)
#define pvm_parent() para_vt_pvm_parent(PVT__AT)
#define pvm_spawn(tk, av, f, w, n, ts) \
	para_vt_pvm_spawn(PVT__AT, (tk), (av), (f), (w), (n), (ts))
#define pvm_exit() para_vt_pvm_exit(PVT__AT)
#define pvm_kill(t) para_vt_pvm_kill(PVT__AT, (t))
#define pvm_addhosts(h, n, i) para_vt_pvm_addhosts(PVT__AT, (h), (n), (i))
#define pvm_delhosts(h, n, i) para_vt_pvm_delhosts(PVT__AT, (h), (n), (i))
#define pvm_initsend(e) para_vt_pvm_initsend(PVT__AT, (e))
#define pvm_notify(w, g, n, ts) para_vt_pvm_notify(PVT__AT, (w), (g), (n), (ts))
#define pvm_halt() para_vt_pvm_halt(PVT__AT)
#define pvm_sendsig(t, s) para_vt_pvm_sendsig(PVT__AT, (t), (s))
#define pvm_gettid(gr, i) para_vt_pvm_gettid(PVT__AT, (gr), (i))
#define pvm_getinst(gr, t) para_vt_pvm_getinst(PVT__AT, (gr), (t))
#define pvm_gsize(gr) para_vt_pvm_gsize(PVT__AT, (gr))
#define pvm_freezegroup(gr, n) para_vt_pvm_freezegroup(PVT__AT, (gr), (n))
#define pvm_putinfo(nm, b, f) para_vt_pvm_putinfo(PVT__AT, (nm), (b), (f))
#define pvm_recvinfo(nm, i, f) para_vt_pvm_recvinfo(PVT__AT, (nm), (i), (f))
#define pvm_delinfo(nm, i, f) para_vt_pvm_delinfo(PVT__AT, (nm), (i), (f))
#define pvm_getmboxinfo(p, n, c) \
	para_vt_pvm_getmboxinfo(PVT__AT, (p), (n), (c))
#define pvm_tasks(w, n, t) para_vt_pvm_tasks(PVT__AT, (w), (n), (t))
#define pvm_config(n, a, h) para_vt_pvm_config(PVT__AT, (n), (a), (h))
#define pvm_pstat(t) para_vt_pvm_pstat(PVT__AT, (t))
#define pvm_mstat(h) para_vt_pvm_mstat(PVT__AT, (h))
#define pvm_hostsync(h, c, d) para_vt_pvm_hostsync(PVT__AT, (h), (c), (d))
#define pvm_siblings(t) para_vt_pvm_siblings(PVT__AT, (t))
#define pvm_recvf(f) para_vt_pvm_recvf(PVT__AT, (f))
#define pvm_addmhf(s, g, c, f) para_vt_pvm_addmhf(PVT__AT, (s), (g), (c), (f))
#define pvm_delmhf(i) para_vt_pvm_delmhf(PVT__AT, (i))
#endif

#endif
