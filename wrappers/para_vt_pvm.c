/*
 * para_vt_pvm.c — the PVM 3.4 wrappers (paravt_pvm.h), archived alone in
 * libparavt_pvm.a so that programs without PVM need no PVM headers.
 *
 * ParaVT's five classes, each wrapper one probe of rt_event.h:
 *   send       pvm_send pvm_psend                       SEND_START/END
 *   receive    pvm_recv pvm_nrecv pvm_trecv pvm_precv    RECV_START/END
 *              pvm_probe
 *   mcast      pvm_mcast pvm_bcast                      MCAST_START/END
 *   group      pvm_joingroup pvm_lvgroup pvm_barrier    GROUP_START/END
 *              pvm_reduce pvm_gather pvm_scatter
 *   special    pvm_mytid pvm_parent pvm_spawn pvm_exit  SPECIAL_START/END
 *              pvm_kill pvm_addhosts pvm_delhosts
 *              pvm_initsend pvm_notify pvm_halt
 * Sends record the destination, the tag and the bytes of the active send
 * buffer (pvm_bufinfo); receives record the source and tag actually
 * received (so wildcard receives are resolved) and the message's bytes.
 * Calls that may block (blocking receives when nothing has arrived yet,
 * group operations) flush the event buffer before they wait, so a task
 * that hangs has told its daemon everything it did.
 *
 * pvm_spawn exports the session to the children through PVM_EXPORT
 * (PARAVT_SESSION and the PARAVT_TRACE / PARAVT_PROBE_BUSY_NS
 * settings), never PARAVT_SOCK nor PARAVT_SESSION_DIR: a child on
 * another host reports to its own node's daemon at the session's
 * well-known socket (rt_event.h), in the directory that host's pvmd has
 * from its daemon.
 */
#include <stdlib.h>
#include <string.h>

#define PARAVT_PVM_NO_MACROS
#include "paravt_pvm.h"
#include "rt_event.h"

#define PVM_AT pvt__file, pvt__func, pvt__line

/* Variables passed to spawned tasks. */
static const char *const pvm_exports[] = {"PARAVT_SESSION", "PARAVT_TRACE",
                                          "PARAVT_PROBE_BUSY_NS"};

/* What a message buffer holds (pvm_bufinfo). */
typedef struct pvm_msg {
	int32_t src;   /* source (receive) or -1 */
	int32_t tag;   /* tag or -1 */
	int64_t bytes; /* length or -1 */
} pvm_msg;

/* The task's own tid, for PROG_START. */
static int32_t pvm_self(void)
{
	return pvm_mytid();
}

/* Starts a probe, initialising tracing (with the tid) on first use. */
static int pvm_begin(pvt__ev_probe *pr, int kind, int op, const char *file,
                     const char *func, int line, int32_t peer, int32_t tag,
                     int64_t bytes, int32_t aux)
{
	if (pvt__ev_init(pvm_self) == PVT_TRACE_OFF)
		return 0;
	return pvt__ev_begin(pr, kind, op, file, func, line, peer, tag, bytes,
	                     aux);
}

/* Describes buffer bufid (or nothing when bufid <= 0). */
static pvm_msg pvm_info(int bufid)
{
	pvm_msg m = {-1, -1, -1};
	int len = 0, tag = 0, src = 0;

	if (bufid > 0 && pvm_bufinfo(bufid, &len, &tag, &src) >= 0) {
		m.src = src;
		m.tag = tag;
		m.bytes = len;
	}
	return m;
}

/* Bytes of the active send buffer, or -1. */
static int64_t pvm_sbytes(void)
{
	return pvm_info(pvm_getsbuf()).bytes;
}

/* Bytes of count items of PVM data type type (psend/precv/reduce). */
static int64_t pvm_tbytes(int count, int type)
{
	static const int size[] = {1, 1, sizeof(short), sizeof(int),
	                           sizeof(float), 2 * sizeof(float),
	                           sizeof(double), 2 * sizeof(double),
	                           sizeof(long), sizeof(short), sizeof(int),
	                           sizeof(long)};

	if (type < 0 || type > 11 || count < 0)
		return -1;
	return (int64_t)count * size[type];
}

/* Flushes before a receive of (tid, tag) that would wait: when records
 * are pending and no such message has arrived. */
static void pvm_flush_before(int tid, int tag)
{
	if (pvt__ev_pending() && pvm_probe(tid, tag) <= 0)
		(void)pvt__ev_flush();
}

/* Ends a receive-class probe with what buffer bufid holds. */
static int pvm_recv_end(pvt__ev_probe *pr, int bufid)
{
	pvm_msg m = pvm_info(bufid);

	pvt__ev_end(pr, PVT_EV_RECV_END, m.src, m.tag, m.bytes, bufid, 0);
	return bufid;
}

/* ---- send ---------------------------------------------------------------- */

/* pvm_send (paravt_pvm.h). */
int para_vt_pvm_send(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int rc;

	if (!pvm_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_SEND, PVM_AT, tid,
	               tag, -1, 0))
		return pvm_send(tid, tag);
	bytes = pvm_sbytes();
	pvt__ev_call(&pr);
	rc = pvm_send(tid, tag);
	pvt__ev_end(&pr, PVT_EV_SEND_END, tid, tag, bytes, rc, 0);
	return rc;
}

/* pvm_psend (paravt_pvm.h). */
int para_vt_pvm_psend(PARAVT_PVM_ARGS, int tid, int tag, void *buf, int len,
                      int type)
{
	pvt__ev_probe pr;
	int64_t bytes = pvm_tbytes(len, type);
	int rc;

	if (!pvm_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_PSEND, PVM_AT, tid,
	               tag, bytes, 0))
		return pvm_psend(tid, tag, buf, len, type);
	pvt__ev_call(&pr);
	rc = pvm_psend(tid, tag, buf, len, type);
	pvt__ev_end(&pr, PVT_EV_SEND_END, tid, tag, bytes, rc, 0);
	return rc;
}

/* ---- receive ------------------------------------------------------------- */

/* pvm_recv (paravt_pvm.h). */
int para_vt_pvm_recv(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_RECV, PVM_AT, tid,
	               tag, -1, 0))
		return pvm_recv(tid, tag);
	pvm_flush_before(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, pvm_recv(tid, tag));
}

/* pvm_nrecv (paravt_pvm.h): never waits, never flushes. */
int para_vt_pvm_nrecv(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_NRECV, PVM_AT, tid,
	               tag, -1, 0))
		return pvm_nrecv(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, pvm_nrecv(tid, tag));
}

/* pvm_trecv (paravt_pvm.h): aux of the start is the timeout in ms (-1
 * for none). */
int para_vt_pvm_trecv(PARAVT_PVM_ARGS, int tid, int tag, struct timeval *tmo)
{
	pvt__ev_probe pr;
	int32_t ms = tmo ? (int32_t)(tmo->tv_sec * 1000 + tmo->tv_usec / 1000)
	                 : -1;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_TRECV, PVM_AT, tid,
	               tag, -1, ms))
		return pvm_trecv(tid, tag, tmo);
	if (tmo == NULL || tmo->tv_sec > 0 || tmo->tv_usec > 0)
		pvm_flush_before(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, pvm_trecv(tid, tag, tmo));
}

/* pvm_precv (paravt_pvm.h): the source, tag and length come from its
 * own outputs (there is no receive buffer). */
int para_vt_pvm_precv(PARAVT_PVM_ARGS, int tid, int tag, void *buf, int len,
                      int type, int *rtid, int *rtag, int *rlen)
{
	pvt__ev_probe pr;
	int st = -1, sg = -1, sl = -1, rc;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_PRECV, PVM_AT, tid,
	               tag, -1, 0))
		return pvm_precv(tid, tag, buf, len, type, rtid, rtag, rlen);
	pvm_flush_before(tid, tag);
	pvt__ev_call(&pr);
	rc = pvm_precv(tid, tag, buf, len, type, &st, &sg, &sl);
	if (rtid)
		*rtid = st;
	if (rtag)
		*rtag = sg;
	if (rlen)
		*rlen = sl;
	pvt__ev_end(&pr, PVT_EV_RECV_END, rc < 0 ? -1 : st, rc < 0 ? -1 : sg,
	            rc < 0 ? -1 : pvm_tbytes(sl, type), rc, 0);
	return rc;
}

/* pvm_probe (paravt_pvm.h): RECV records with op pvm_probe; nothing is
 * received. */
int para_vt_pvm_probe(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_PROBE, PVM_AT, tid,
	               tag, -1, 0))
		return pvm_probe(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, pvm_probe(tid, tag));
}

/* ---- broadcast / multicast ----------------------------------------------- */

/* pvm_mcast (paravt_pvm.h): aux = number of destinations. */
int para_vt_pvm_mcast(PARAVT_PVM_ARGS, int *tids, int n, int tag)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int rc;

	if (!pvm_begin(&pr, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, PVM_AT, -1,
	               tag, -1, n))
		return pvm_mcast(tids, n, tag);
	bytes = pvm_sbytes();
	pvt__ev_call(&pr);
	rc = pvm_mcast(tids, n, tag);
	pvt__ev_end(&pr, PVT_EV_MCAST_END, -1, tag, bytes, rc, n);
	return rc;
}

/* pvm_bcast (paravt_pvm.h). */
int para_vt_pvm_bcast(PARAVT_PVM_ARGS, char *group, int tag)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int rc;

	if (!pvm_begin(&pr, PVT_EV_MCAST_START, PVT_OP_PVM_BCAST, PVM_AT, -1,
	               tag, -1, 0))
		return pvm_bcast(group, tag);
	bytes = pvm_sbytes();
	pvt__ev_call(&pr);
	rc = pvm_bcast(group, tag);
	pvt__ev_end(&pr, PVT_EV_MCAST_END, -1, tag, bytes, rc, 0);
	return rc;
}

/* ---- group --------------------------------------------------------------- */

/* A group probe's start: flushes first if wait is set (the call may
 * block on other tasks).  1 if tracing. */
static int pvm_gbegin(pvt__ev_probe *pr, int op, const char *file,
                      const char *func, int line, int32_t peer, int32_t tag,
                      int64_t bytes, int32_t aux, int wait)
{
	if (!pvm_begin(pr, PVT_EV_GROUP_START, op, file, func, line, peer, tag,
	               bytes, aux))
		return 0;
	if (wait && pvt__ev_pending())
		(void)pvt__ev_flush();
	pvt__ev_call(pr);
	return 1;
}

/* pvm_joingroup (paravt_pvm.h): result = instance number. */
int para_vt_pvm_joingroup(PARAVT_PVM_ARGS, char *group)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_JOINGROUP, PVM_AT, -1, -1, -1, 0, 0))
		return pvm_joingroup(group);
	rc = pvm_joingroup(group);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, -1, -1, -1, rc, 0);
	return rc;
}

/* pvm_lvgroup (paravt_pvm.h). */
int para_vt_pvm_lvgroup(PARAVT_PVM_ARGS, char *group)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_LVGROUP, PVM_AT, -1, -1, -1, 0, 0))
		return pvm_lvgroup(group);
	rc = pvm_lvgroup(group);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, -1, -1, -1, rc, 0);
	return rc;
}

/* pvm_barrier (paravt_pvm.h): aux = count. */
int para_vt_pvm_barrier(PARAVT_PVM_ARGS, char *group, int count)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_BARRIER, PVM_AT, -1, -1, -1, count,
	                1))
		return pvm_barrier(group, count);
	rc = pvm_barrier(group, count);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, -1, -1, -1, rc, count);
	return rc;
}

/* pvm_reduce (paravt_pvm.h): peer = root instance. */
int para_vt_pvm_reduce(PARAVT_PVM_ARGS,
                       void (*fn)(int *, void *, void *, int *, int *),
                       void *data, int count, int type, int tag, char *group,
                       int root)
{
	pvt__ev_probe pr;
	int64_t bytes = pvm_tbytes(count, type);
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_REDUCE, PVM_AT, root, tag, bytes, 0,
	                1))
		return pvm_reduce(fn, data, count, type, tag, group, root);
	rc = pvm_reduce(fn, data, count, type, tag, group, root);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, root, tag, bytes, rc, 0);
	return rc;
}

/* pvm_gather (paravt_pvm.h): peer = root instance. */
int para_vt_pvm_gather(PARAVT_PVM_ARGS, void *result, void *data, int count,
                       int type, int tag, char *group, int root)
{
	pvt__ev_probe pr;
	int64_t bytes = pvm_tbytes(count, type);
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_GATHER, PVM_AT, root, tag, bytes, 0,
	                1))
		return pvm_gather(result, data, count, type, tag, group, root);
	rc = pvm_gather(result, data, count, type, tag, group, root);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, root, tag, bytes, rc, 0);
	return rc;
}

/* pvm_scatter (paravt_pvm.h): peer = root instance. */
int para_vt_pvm_scatter(PARAVT_PVM_ARGS, void *result, void *data, int count,
                        int type, int tag, char *group, int root)
{
	pvt__ev_probe pr;
	int64_t bytes = pvm_tbytes(count, type);
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_SCATTER, PVM_AT, root, tag, bytes, 0,
	                1))
		return pvm_scatter(result, data, count, type, tag, group,
		                   root);
	rc = pvm_scatter(result, data, count, type, tag, group, root);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, root, tag, bytes, rc, 0);
	return rc;
}

/* ---- special ------------------------------------------------------------- */

/* Ends a special probe. */
static int pvm_send_end(pvt__ev_probe *pr, int32_t peer, int rc, int32_t aux)
{
	pvt__ev_end(pr, PVT_EV_SPECIAL_END, peer, -1, -1, rc, aux);
	return rc;
}

/* Starts a special probe.  1 if tracing. */
static int pvm_sbegin(pvt__ev_probe *pr, int op, const char *file,
                      const char *func, int line, int32_t peer, int32_t aux)
{
	if (!pvm_begin(pr, PVT_EV_SPECIAL_START, op, file, func, line, peer,
	               -1, -1, aux))
		return 0;
	pvt__ev_call(pr);
	return 1;
}

/* pvm_mytid (paravt_pvm.h): result = tid. */
int para_vt_pvm_mytid(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_MYTID, PVM_AT, -1, 0))
		return pvm_mytid();
	return pvm_send_end(&pr, -1, pvm_mytid(), 0);
}

/* pvm_parent (paravt_pvm.h): peer = result = parent's tid. */
int para_vt_pvm_parent(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_PARENT, PVM_AT, -1, 0))
		return pvm_parent();
	rc = pvm_parent();
	return pvm_send_end(&pr, rc, rc, 0);
}

/* True if name is one of the colon-separated words of list. */
static int pvm_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, n) == 0 && (p[n] == ':' || p[n] == '\0'))
			return 1;
		p = strchr(p, ':');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* Adds the session variables that are set to PVM_EXPORT (once they are
 * there, nothing changes). */
static void pvm_export_session(void)
{
	const char *cur = getenv("PVM_EXPORT");
	char list[1024];
	size_t i;

	if (getenv("PARAVT_SESSION") == NULL)
		return;
	list[0] = '\0';
	if (cur != NULL && strlen(cur) < sizeof list / 2)
		strcpy(list, cur);
	else if (cur != NULL)
		return; /* an odd PVM_EXPORT: leave it alone */
	for (i = 0; i < sizeof pvm_exports / sizeof pvm_exports[0]; i++) {
		if (getenv(pvm_exports[i]) == NULL ||
		    pvm_listed(list, pvm_exports[i]))
			continue;
		if (list[0] != '\0')
			strcat(list, ":");
		strcat(list, pvm_exports[i]);
	}
	if (cur == NULL || strcmp(cur, list) != 0)
		(void)setenv("PVM_EXPORT", list, 1);
}

/* pvm_spawn (paravt_pvm.h): aux = tasks asked for, result = started,
 * peer = the first tid started.  Exports the session, traced or not
 * (children of an untraced parent may still be wanted). */
int para_vt_pvm_spawn(PARAVT_PVM_ARGS, char *task, char **argv, int flag,
                      char *where, int n, int *tids)
{
	pvt__ev_probe pr;
	int rc;

	pvm_export_session();
	if (!pvm_sbegin(&pr, PVT_OP_PVM_SPAWN, PVM_AT, -1, n))
		return pvm_spawn(task, argv, flag, where, n, tids);
	rc = pvm_spawn(task, argv, flag, where, n, tids);
	return pvm_send_end(&pr, rc > 0 && tids ? tids[0] : -1, rc, n);
}

/* pvm_exit (paravt_pvm.h).  The records go out at para_vt_exit. */
int para_vt_pvm_exit(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_EXIT, PVM_AT, -1, 0))
		return pvm_exit();
	return pvm_send_end(&pr, -1, pvm_exit(), 0);
}

/* pvm_kill (paravt_pvm.h): peer = the victim. */
int para_vt_pvm_kill(PARAVT_PVM_ARGS, int tid)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_KILL, PVM_AT, tid, 0))
		return pvm_kill(tid);
	return pvm_send_end(&pr, tid, pvm_kill(tid), 0);
}

/* pvm_addhosts (paravt_pvm.h): aux = hosts asked for. */
int para_vt_pvm_addhosts(PARAVT_PVM_ARGS, char **hosts, int n, int *infos)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_ADDHOSTS, PVM_AT, -1, n))
		return pvm_addhosts(hosts, n, infos);
	return pvm_send_end(&pr, -1, pvm_addhosts(hosts, n, infos), n);
}

/* pvm_delhosts (paravt_pvm.h): aux = hosts asked for. */
int para_vt_pvm_delhosts(PARAVT_PVM_ARGS, char **hosts, int n, int *infos)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_DELHOSTS, PVM_AT, -1, n))
		return pvm_delhosts(hosts, n, infos);
	return pvm_send_end(&pr, -1, pvm_delhosts(hosts, n, infos), n);
}

/* pvm_initsend (paravt_pvm.h): aux = encoding, result = buffer id. */
int para_vt_pvm_initsend(PARAVT_PVM_ARGS, int encoding)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_INITSEND, PVM_AT, -1, encoding))
		return pvm_initsend(encoding);
	return pvm_send_end(&pr, -1, pvm_initsend(encoding), encoding);
}

/* pvm_notify (paravt_pvm.h): aux = what; the tag is the notify tag. */
int para_vt_pvm_notify(PARAVT_PVM_ARGS, int what, int tag, int n, int *tids)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_NOTIFY, PVM_AT, -1, what))
		return pvm_notify(what, tag, n, tids);
	rc = pvm_notify(what, tag, n, tids);
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, tag, -1, rc, what);
	return rc;
}

/* pvm_halt (paravt_pvm.h). */
int para_vt_pvm_halt(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_HALT, PVM_AT, -1, 0))
		return pvm_halt();
	(void)pvt__ev_flush(); /* the halt may kill this task */
	return pvm_send_end(&pr, -1, pvm_halt(), 0);
}
