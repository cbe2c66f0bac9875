/*
 * paravt_pvm.h — the PVM wrappers of paravt (libparavt_pvm.a), reached
 * through macros: the instrumenter injects this header into the sources
 * of a PVM program (or `cc -include paravt_pvm.h` does), and every call
 * pvm_send(t, g) becomes para_vt_pvm_send(__FILE__, __func__, __LINE__,
 * t, g): the user's source is not edited by hand.
 *
 * The header includes no system header, so with -include it does not
 * come before the program's feature-test macros (#define _GNU_SOURCE at
 * the top of a source; a header included first would fix the library's
 * feature set without them).  The structures its prototypes name are
 * declared here as incomplete types, the same ones <pvm3.h> and
 * <sys/time.h> complete.  The macros are function-like, so the
 * prototypes in <pvm3.h> ("int pvm_send __ProtoGlarp__((int, int))"),
 * included after them, and uses of the names without a call (&pvm_send)
 * are left alone; they are variadic, so an argument with a comma of its
 * own (a compound literal such as &(struct timeval){0, 10000}) passes
 * through whole.  Define PARAVT_PVM_NO_MACROS to get the prototypes only.
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

struct timeval;
struct pvmhostinfo;
struct pvmtaskinfo;
struct pvmmboxinfo;

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
#define pvm_send(...) para_vt_pvm_send(PVT__AT, __VA_ARGS__)
#define pvm_psend(...) para_vt_pvm_psend(PVT__AT, __VA_ARGS__)
#define pvm_recv(...) para_vt_pvm_recv(PVT__AT, __VA_ARGS__)
#define pvm_nrecv(...) para_vt_pvm_nrecv(PVT__AT, __VA_ARGS__)
#define pvm_trecv(...) para_vt_pvm_trecv(PVT__AT, __VA_ARGS__)
#define pvm_precv(...) para_vt_pvm_precv(PVT__AT, __VA_ARGS__)
#define pvm_probe(...) para_vt_pvm_probe(PVT__AT, __VA_ARGS__)
#define pvm_mcast(...) para_vt_pvm_mcast(PVT__AT, __VA_ARGS__)
#define pvm_bcast(...) para_vt_pvm_bcast(PVT__AT, __VA_ARGS__)
#define pvm_joingroup(...) para_vt_pvm_joingroup(PVT__AT, __VA_ARGS__)
#define pvm_lvgroup(...) para_vt_pvm_lvgroup(PVT__AT, __VA_ARGS__)
#define pvm_barrier(...) para_vt_pvm_barrier(PVT__AT, __VA_ARGS__)
#define pvm_reduce(...) para_vt_pvm_reduce(PVT__AT, __VA_ARGS__)
#define pvm_gather(...) para_vt_pvm_gather(PVT__AT, __VA_ARGS__)
#define pvm_scatter(...) para_vt_pvm_scatter(PVT__AT, __VA_ARGS__)
#define pvm_mytid() para_vt_pvm_mytid(PVT__AT)
#define pvm_parent() para_vt_pvm_parent(PVT__AT)
#define pvm_spawn(...) para_vt_pvm_spawn(PVT__AT, __VA_ARGS__)
#define pvm_exit() para_vt_pvm_exit(PVT__AT)
#define pvm_kill(...) para_vt_pvm_kill(PVT__AT, __VA_ARGS__)
#define pvm_addhosts(...) para_vt_pvm_addhosts(PVT__AT, __VA_ARGS__)
#define pvm_delhosts(...) para_vt_pvm_delhosts(PVT__AT, __VA_ARGS__)
#define pvm_initsend(...) para_vt_pvm_initsend(PVT__AT, __VA_ARGS__)
#define pvm_notify(...) para_vt_pvm_notify(PVT__AT, __VA_ARGS__)
#define pvm_halt() para_vt_pvm_halt(PVT__AT)
#define pvm_sendsig(...) para_vt_pvm_sendsig(PVT__AT, __VA_ARGS__)
#define pvm_gettid(...) para_vt_pvm_gettid(PVT__AT, __VA_ARGS__)
#define pvm_getinst(...) para_vt_pvm_getinst(PVT__AT, __VA_ARGS__)
#define pvm_gsize(...) para_vt_pvm_gsize(PVT__AT, __VA_ARGS__)
#define pvm_freezegroup(...) para_vt_pvm_freezegroup(PVT__AT, __VA_ARGS__)
#define pvm_putinfo(...) para_vt_pvm_putinfo(PVT__AT, __VA_ARGS__)
#define pvm_recvinfo(...) para_vt_pvm_recvinfo(PVT__AT, __VA_ARGS__)
#define pvm_delinfo(...) para_vt_pvm_delinfo(PVT__AT, __VA_ARGS__)
#define pvm_getmboxinfo(...) para_vt_pvm_getmboxinfo(PVT__AT, __VA_ARGS__)
#define pvm_tasks(...) para_vt_pvm_tasks(PVT__AT, __VA_ARGS__)
#define pvm_config(...) para_vt_pvm_config(PVT__AT, __VA_ARGS__)
#define pvm_pstat(...) para_vt_pvm_pstat(PVT__AT, __VA_ARGS__)
#define pvm_mstat(...) para_vt_pvm_mstat(PVT__AT, __VA_ARGS__)
#define pvm_hostsync(...) para_vt_pvm_hostsync(PVT__AT, __VA_ARGS__)
#define pvm_siblings(...) para_vt_pvm_siblings(PVT__AT, __VA_ARGS__)
#define pvm_recvf(...) para_vt_pvm_recvf(PVT__AT, __VA_ARGS__)
#define pvm_addmhf(...) para_vt_pvm_addmhf(PVT__AT, __VA_ARGS__)
#define pvm_delmhf(...) para_vt_pvm_delmhf(PVT__AT, __VA_ARGS__)
#endif

#endif
