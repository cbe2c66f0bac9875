/*
 * para_vt_pvm.c — the PVM 3.4 wrappers (paravt_pvm.h), archived alone in
 * libparavt_pvm.a so that programs without PVM need no PVM headers, and
 * compiled a second time with PVT_PVM_PRELOAD into libparavt_pvm.so
 * (with pvt_pvm_preload.c), which traces a program that was not built
 * through paravt when it is preloaded.
 *
 * ParaVT's classes, each wrapper one probe of rt_event.h:
 *   send       pvm_send pvm_psend                       SEND_START/END
 *   receive    pvm_recv pvm_nrecv pvm_trecv pvm_precv    RECV_START/END
 *              pvm_probe
 *   mcast      pvm_mcast pvm_bcast                      MCAST_START/END,
 *              then one MCAST_DEST per destination pvm_mcast names
 *              (pvm_bcast: per member of the group but itself)
 *   group      pvm_joingroup pvm_lvgroup pvm_barrier    GROUP_START/END
 *              pvm_reduce pvm_gather pvm_scatter
 *   special    pvm_mytid pvm_parent pvm_spawn pvm_exit  SPECIAL_START/END
 *              pvm_kill pvm_addhosts pvm_delhosts
 *              pvm_initsend pvm_notify pvm_halt pvm_sendsig
 *              pvm_gettid pvm_getinst pvm_gsize pvm_freezegroup
 *              pvm_putinfo pvm_recvinfo pvm_delinfo pvm_getmboxinfo
 *              pvm_tasks pvm_config pvm_pstat pvm_mstat pvm_hostsync
 *              pvm_siblings pvm_recvf pvm_addmhf pvm_delmhf
 * Every record carries the task's message context (pvm_getcontext) in
 * comm: PVM matches a message by source, tag and context.  Built with
 * PVT_PVM_MYCTX (a port's PVM_WRAP_CFLAGS, where libpvm exports it, as
 * Debian's PVM 3.4.6 does; not the preloaded library), the wrappers
 * read it from libpvm's pvmmyctx, which is what pvm_getcontext
 * returns: one load instead of a call into libpvm at every traced call
 * (and no PVM trace event).  Calls that
 * name a group or a mailbox carry the name's string id in ref (interned
 * by content).  Sends record the destination, the tag and the bytes of
 * the active send buffer (pvm_bufinfo); receives record the source and
 * tag actually received (so wildcard receives are resolved) and the
 * message's bytes.  Calls that may block (blocking receives when nothing
 * has arrived yet, group operations) flush the event buffer before they
 * wait, so a task that hangs has told its daemon everything it did.
 *
 * pvm_spawn exports the session to the children through PVM_EXPORT
 * (PARAVT_SESSION, the PARAVT_TRACE, PARAVT_PROBE_BUSY_NS, PARAVT_RING*
 * and PARAVT_SHOW_COST settings and,
 * for a preloaded program, LD_PRELOAD), never PARAVT_SOCK nor
 * PARAVT_SESSION_DIR: a child on another host reports to its own node's
 * daemon at the session's well-known socket (rt_event.h), in the
 * directory that host's pvmd has from its daemon.
 *
 * Every call of a real PVM function goes through PVM_REAL: the function
 * itself here, the next definition in the link order when preloaded
 * (pvt_pvm_real.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <pvm3.h>

#define PARAVT_PVM_NO_MACROS
#include "paravt_pvm.h"
#include "pvt_pvm_real.h"
#include "rt_core.h"
#include "rt_event.h"

#define PVM_AT pvt__file, pvt__func, pvt__line

/* Variables passed to spawned tasks. */
static const char *const pvm_exports[] = {"PARAVT_SESSION", "PARAVT_TRACE",
                                          "PARAVT_PROBE_BUSY_NS",
                                          "PARAVT_RING", "PARAVT_RING_EVENTS",
                                          "PARAVT_RING_FULL",
                                          "PARAVT_SHOW_COST", "LD_PRELOAD"};

/* What a message buffer holds (pvm_bufinfo). */
typedef struct pvm_msg {
	int32_t src;   /* source (receive) or -1 */
	int32_t tag;   /* tag or -1 */
	int64_t bytes; /* length or -1 */
} pvm_msg;

/* The task's tid as PVM last gave it (pvm_self, pvm_mytid; < 0: not a
 * PVM task, or it left), and how many times pvm_self asked: almost
 * every PVM call tries to enrol a task that is not one, and each try
 * that fails prints libpvm's complaint, so the wrappers ask no more
 * often than the program does. */
static int32_t pvm_tid = -1;
static unsigned pvm_asks;

/* The task's own tid, for PROG_START (the first traced call: the
 * program's own enrolment). */
static int32_t pvm_self(void)
{
	pvm_asks++;
	pvm_tid = PVM_REAL(pvm_mytid)();
	return pvm_tid;
}

#ifdef PVT_PVM_MYCTX
extern int pvmmyctx; /* libpvm's: the task's context (top of the file) */
#define PVM_CTX_NOW() pvmmyctx
#else
#define PVM_CTX_NOW() PVM_REAL(pvm_getcontext)()
#endif

/* The task's message context now (comm of its records); 0 for a task
 * that is not enrolled (asking would try to enrol it). */
PVT__EV_HOT
static uint32_t pvm_ctx(void)
{
	int c;

	if (pvm_tid < 0)
		return 0;
	c = PVM_CTX_NOW();
	return c < 0 ? 0 : (uint32_t)c;
}

/* Once, at the first PVM call of a task that pvmd spawned (PVMEPID is
 * set; a process of the daemon's own has a number): if nobody catches
 * its output (PvmOutputTid 0: it would go to the pvmd's log file), its
 * stdout and stderr become the daemon's output FIFO (rt_core.h), so
 * that every line it writes reaches the console as its own.  A task whose
 * parent called pvm_catchout keeps PVM's route: the parent prints it. */
static void pvm_output_once(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	if (getenv("PVMEPID") == NULL || pvt__rt_peer() == NULL ||
	    pvt__rt_proc() != 0 || PVM_REAL(pvm_mytid)() < 0 ||
	    pvm_getopt(PvmOutputTid) != 0) /* (not wrapped) */
		return;
	(void)pvt__rt_output_fifo();
}

/* How the PVM probes account for the wrappers' own work around a call
 * (the message context, the send buffer's size, the received message's
 * source and size): pvm_calibrate times it once, at the first traced
 * call of an enrolled task, and a probe then adds that figure to Δ and
 * reads the clock twice, as an MPI probe does.  A probe that names a
 * group or a mailbox (the name interned, a broadcast's members looked
 * up: work that varies with them) is timed instead (pvt__ev_begin_at:
 * two clock reads more), and so is every probe until the work is timed,
 * or when it cannot be (no ring, busy probes). */
enum { PVM_CAL_NOT, PVM_CAL_RUNNING, PVM_CAL_DONE, PVM_CAL_CANNOT };
static int pvm_cal;          /* PVM_CAL_* */
static uint64_t pvm_wrap_ns; /* the wrappers' work a call (PVM_CAL_DONE) */

static void pvm_calibrate(void);

/* pvm_begin before the wrappers' work is timed, or for a call that
 * names a group or mailbox (name): initialises tracing (with the tid)
 * on first use, and times the wrappers' work once the task is
 * enrolled. */
PVT__EV_COLD
static int pvm_begin_slow(pvt__ev_probe *pr, int kind, int op, const char *file,
                          const char *func, int line, int32_t peer, int32_t tag,
                          int64_t bytes, int32_t aux, const char *name)
{
	int mode = pvt__ev_init(pvm_self); /* connects on first use */
	uint64_t t0;

	pvm_output_once();
	if (mode == PVT_TRACE_OFF)
		return 0;
	if (pvm_cal == PVM_CAL_NOT && pvm_tid > 0)
		pvm_calibrate();
	if (name == NULL &&
	    (pvm_cal == PVM_CAL_DONE || pvm_cal == PVM_CAL_RUNNING))
		return pvt__ev_begin_w(pr, pvm_wrap_ns, kind, op, file, func,
		                       line, peer, tag, bytes, aux, pvm_ctx(),
		                       0);
	t0 = pvt__ev_now(); /* the wrapper's own work from here is in Δ */
	return pvt__ev_begin_at(pr, t0, kind, op, file, func, line, peer, tag,
	                        bytes, aux, pvm_ctx(), pvt__ev_strid(name));
}

/* Starts a probe of a call that may name a group or mailbox (name, or
 * NULL).  1 if tracing.  Once the wrappers' work is timed, a call that
 * names none goes straight to the probe, with that work for Δ. */
static inline int pvm_begin(pvt__ev_probe *pr, int kind, int op,
                            const char *file, const char *func, int line,
                            int32_t peer, int32_t tag, int64_t bytes,
                            int32_t aux, const char *name)
{
	if (PVT__EV_LIKELY(pvm_cal == PVM_CAL_DONE) && name == NULL)
		return pvt__ev_begin_w(pr, pvm_wrap_ns, kind, op, file, func,
		                       line, peer, tag, bytes, aux, pvm_ctx(),
		                       0);
	return pvm_begin_slow(pr, kind, op, file, func, line, peer, tag,
	                      bytes, aux, name);
}

/* Describes buffer bufid (or nothing when bufid <= 0, or the task is
 * not enrolled: pvm_ctx). */
PVT__EV_HOT
static pvm_msg pvm_info(int bufid)
{
	pvm_msg m = {-1, -1, -1};
	int len = 0, tag = 0, src = 0;

	if (bufid > 0 && pvm_tid >= 0 &&
	    PVM_REAL(pvm_bufinfo)(bufid, &len, &tag, &src) >= 0) {
		m.src = src;
		m.tag = tag;
		m.bytes = len;
	}
	return m;
}

/* Bytes of the active send buffer, or -1 (not enrolled: pvm_ctx). */
PVT__EV_HOT
static int64_t pvm_sbytes(void)
{
	return pvm_tid < 0 ? -1 : pvm_info(PVM_REAL(pvm_getsbuf)()).bytes;
}

/* Bytes of count items of PVM data type type (psend/precv/reduce). */
PVT__EV_HOT
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
PVT__EV_HOT
static void pvm_flush_before(int tid, int tag)
{
	if (pvt__ev_pending() && PVM_REAL(pvm_probe)(tid, tag) <= 0)
		(void)pvt__ev_flush();
}

/* Ends a receive-class probe with what buffer bufid holds. */
PVT__EV_HOT
static int pvm_recv_end(pvt__ev_probe *pr, int bufid)
{
	pvm_msg m;

	pvt__ev_ret(pr); /* the end's time; pvm_info's in Δ */
	m = pvm_info(bufid);

	pvt__ev_end(pr, PVT_EV_RECV_END, m.src, m.tag, m.bytes, bufid, 0);
	return bufid;
}

/* A send's probe and wrapper work, with no send (pvm_calibrate). */
static void pvm_cal_send(void)
{
	pvt__ev_probe pr;
	int64_t bytes;

	if (!pvm_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_SEND, NULL, NULL, 0,
	               -1, 0, -1, 0, NULL))
		return;
	bytes = pvm_sbytes();
	pvt__ev_call(&pr);
	pvt__ev_end(&pr, PVT_EV_SEND_END, -1, 0, bytes, 0, 0);
}

/* A receive's, of the active send buffer (pvm_calibrate). */
static void pvm_cal_recv(void)
{
	pvt__ev_probe pr;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_RECV, NULL, NULL, 0,
	               -1, 0, -1, 0, NULL))
		return;
	pvt__ev_call(&pr);
	(void)pvm_recv_end(&pr, PVM_REAL(pvm_getsbuf)());
}

/* Nothing: what a wrapper's work is timed against. */
static void pvm_cal_none(void)
{
}

/* With PARAVT_SHOW_COST=1, says on stderr what the task's Δ adds a call
 * (pvm_calibrate's figures). */
static void pvm_show_cost(void)
{
	const char *show = getenv("PARAVT_SHOW_COST");

	if (show == NULL || strcmp(show, "1") != 0)
		return;
	if (pvm_cal == PVM_CAL_DONE)
		fprintf(stderr, "paravt: task t%x: a probe %llu ns, the "
		        "wrappers %llu ns a call\n", (unsigned)pvm_tid,
		        (unsigned long long)pvt__ev_probe_ns(),
		        (unsigned long long)pvm_wrap_ns);
	else
		fprintf(stderr, "paravt: task t%x: a probe %llu ns, the "
		        "wrappers not timed (no ring, or busy probes): the "
		        "probes time themselves\n", (unsigned)pvm_tid,
		        (unsigned long long)pvt__ev_probe_ns());
}

/* Times the wrappers' own work a call (the mean of a send's and a
 * receive's, less an empty probe's cost, pvt__ev_wrap_cost) on a message
 * buffer of its own, once; PVM_CAL_CANNOT when it cannot be timed. */
static void pvm_calibrate(void)
{
	int buf, old;

	pvm_cal = PVM_CAL_RUNNING; /* the probes timed are the untimed kind */
	buf = pvm_mkbuf(PvmDataDefault);
	old = buf > 0 ? pvm_setsbuf(buf) : -1;
	if (!pvt__ev_can_time() || buf <= 0 || old < 0) {
		pvm_cal = PVM_CAL_CANNOT;
	} else {
		pvm_wrap_ns = (pvt__ev_wrap_cost(pvm_cal_send, pvm_cal_none) +
		               pvt__ev_wrap_cost(pvm_cal_recv, pvm_cal_none)) /
		              2;
		pvm_cal = PVM_CAL_DONE;
	}
	if (old >= 0)
		(void)pvm_setsbuf(old);
	if (buf > 0)
		(void)pvm_freebuf(buf);
	pvm_show_cost();
}

/* ---- send ---------------------------------------------------------------- */

/* pvm_send (paravt_pvm.h). */
PVT__EV_HOT
int para_vt_pvm_send(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int rc;

	if (!pvm_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_SEND, PVM_AT, tid,
	               tag, -1, 0, NULL))
		return PVM_REAL(pvm_send)(tid, tag);
	bytes = pvm_sbytes();
	pvt__ev_call(&pr);
	rc = PVM_REAL(pvm_send)(tid, tag);
	pvt__ev_end(&pr, PVT_EV_SEND_END, tid, tag, bytes, rc, 0);
	return rc;
}

/* pvm_psend (paravt_pvm.h). */
PVT__EV_HOT
int para_vt_pvm_psend(PARAVT_PVM_ARGS, int tid, int tag, void *buf, int len,
                      int type)
{
	pvt__ev_probe pr;
	int64_t bytes = pvm_tbytes(len, type);
	int rc;

	if (!pvm_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_PSEND, PVM_AT, tid,
	               tag, bytes, 0, NULL))
		return PVM_REAL(pvm_psend)(tid, tag, buf, len, type);
	pvt__ev_call(&pr);
	rc = PVM_REAL(pvm_psend)(tid, tag, buf, len, type);
	pvt__ev_end(&pr, PVT_EV_SEND_END, tid, tag, bytes, rc, 0);
	return rc;
}

/* ---- receive ------------------------------------------------------------- */

/* pvm_recv (paravt_pvm.h). */
PVT__EV_HOT
int para_vt_pvm_recv(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_RECV, PVM_AT, tid,
	               tag, -1, 0, NULL))
		return PVM_REAL(pvm_recv)(tid, tag);
	pvm_flush_before(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, PVM_REAL(pvm_recv)(tid, tag));
}

/* pvm_nrecv (paravt_pvm.h): never waits, never flushes. */
PVT__EV_HOT
int para_vt_pvm_nrecv(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_NRECV, PVM_AT, tid,
	               tag, -1, 0, NULL))
		return PVM_REAL(pvm_nrecv)(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, PVM_REAL(pvm_nrecv)(tid, tag));
}

/* pvm_trecv (paravt_pvm.h): aux of the start is the timeout in ms (-1
 * for none). */
PVT__EV_HOT
int para_vt_pvm_trecv(PARAVT_PVM_ARGS, int tid, int tag, struct timeval *tmo)
{
	pvt__ev_probe pr;
	int32_t ms = tmo ? (int32_t)(tmo->tv_sec * 1000 + tmo->tv_usec / 1000)
	                 : -1;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_TRECV, PVM_AT, tid,
	               tag, -1, ms, NULL))
		return PVM_REAL(pvm_trecv)(tid, tag, tmo);
	if (tmo == NULL || tmo->tv_sec > 0 || tmo->tv_usec > 0)
		pvm_flush_before(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, PVM_REAL(pvm_trecv)(tid, tag, tmo));
}

/* pvm_precv (paravt_pvm.h): the source, tag and length (in bytes, as
 * pvm_precv gives it) come from its own outputs (there is no receive
 * buffer). */
PVT__EV_HOT
int para_vt_pvm_precv(PARAVT_PVM_ARGS, int tid, int tag, void *buf, int len,
                      int type, int *rtid, int *rtag, int *rlen)
{
	pvt__ev_probe pr;
	int st = -1, sg = -1, sl = -1, rc;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_PRECV, PVM_AT, tid,
	               tag, -1, 0, NULL))
		return PVM_REAL(pvm_precv)(tid, tag, buf, len, type, rtid, rtag,
		                           rlen);
	pvm_flush_before(tid, tag);
	pvt__ev_call(&pr);
	rc = PVM_REAL(pvm_precv)(tid, tag, buf, len, type, &st, &sg, &sl);
	if (rtid)
		*rtid = st;
	if (rtag)
		*rtag = sg;
	if (rlen)
		*rlen = sl;
	pvt__ev_end(&pr, PVT_EV_RECV_END, rc < 0 ? -1 : st, rc < 0 ? -1 : sg,
	            rc < 0 ? -1 : sl, rc, 0); /* sl: the message's bytes */
	return rc;
}

/* pvm_probe (paravt_pvm.h): RECV records with op pvm_probe; nothing is
 * received. */
PVT__EV_HOT
int para_vt_pvm_probe(PARAVT_PVM_ARGS, int tid, int tag)
{
	pvt__ev_probe pr;

	if (!pvm_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_PROBE, PVM_AT, tid,
	               tag, -1, 0, NULL))
		return PVM_REAL(pvm_probe)(tid, tag);
	pvt__ev_call(&pr);
	return pvm_recv_end(&pr, PVM_REAL(pvm_probe)(tid, tag));
}

/* ---- broadcast / multicast ----------------------------------------------- */

/* pvm_mcast (paravt_pvm.h): aux = number of destinations; after the END,
 * one MCAST_DEST per destination (aux = its index in tids). */
PVT__EV_HOT
int para_vt_pvm_mcast(PARAVT_PVM_ARGS, int *tids, int n, int tag)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int i, rc;

	if (!pvm_begin(&pr, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, PVM_AT, -1,
	               tag, -1, n, NULL))
		return PVM_REAL(pvm_mcast)(tids, n, tag);
	bytes = pvm_sbytes();
	pvt__ev_call(&pr);
	rc = PVM_REAL(pvm_mcast)(tids, n, tag);
	pvt__ev_end(&pr, PVT_EV_MCAST_END, -1, tag, bytes, rc, n);
	for (i = 0; rc >= 0 && tids != NULL && i < n; i++)
		pvt__ev_mark(PVT_EV_MCAST_DEST, PVT_OP_PVM_MCAST, tids[i], tag,
		             bytes, 0, i, pr.comm, 0);
	return rc;
}

/* The members of group but this task: the tasks pvm_bcast sends to, in
 * *tids (grown as needed; kept between calls).  Instances are looked up
 * up to gsize + 64 (a group with holes left by pvm_lvgroup).  Returns
 * how many, or -1 when memory ran out (then none are recorded, and the
 * analysis treats the broadcast as one to any receiver). */
static int pvm_bcast_dests(char *group, int **tids, int *cap)
{
	int size = PVM_REAL(pvm_gsize)(group), me = PVM_REAL(pvm_mytid)();
	int inst, found = 0, n = 0, tid, *v;

	if (size > *cap) {
		v = realloc(*tids, (size_t)size * sizeof *v);
		if (v == NULL)
			return -1;
		*tids = v;
		*cap = size;
	}
	for (inst = 0; size > 0 && found < size && inst < size + 64; inst++) {
		tid = PVM_REAL(pvm_gettid)(group, inst);
		if (tid <= 0)
			continue;
		found++;
		if (tid != me && n < *cap)
			(*tids)[n++] = tid;
	}
	return n;
}

/* pvm_bcast (paravt_pvm.h): ref = the group's name.  MCAST_START/END
 * like pvm_mcast (aux = the number of destinations), then one MCAST_DEST
 * per group member it sends to (all but itself, as the group is when the
 * call starts). */
int para_vt_pvm_bcast(PARAVT_PVM_ARGS, char *group, int tag)
{
	static int *tids, cap;
	pvt__ev_probe pr;
	int64_t bytes;
	int rc, i, n;

	if (!pvm_begin(&pr, PVT_EV_MCAST_START, PVT_OP_PVM_BCAST, PVM_AT, -1,
	               tag, -1, 0, group))
		return PVM_REAL(pvm_bcast)(group, tag);
	bytes = pvm_sbytes();
	n = group != NULL && pvm_tid >= 0 ? pvm_bcast_dests(group, &tids, &cap)
	                                   : 0;
	pvt__ev_call(&pr);
	rc = PVM_REAL(pvm_bcast)(group, tag);
	pvt__ev_end(&pr, PVT_EV_MCAST_END, -1, tag, bytes, rc, n);
	for (i = 0; rc >= 0 && i < n; i++)
		pvt__ev_mark(PVT_EV_MCAST_DEST, PVT_OP_PVM_BCAST, tids[i], tag,
		             bytes, 0, i, pr.comm, 0);
	return rc;
}

/* ---- group --------------------------------------------------------------- */

/* A group probe's start (ref = the group's name): flushes first if wait
 * is set (the call may block on other tasks).  1 if tracing. */
static int pvm_gbegin(pvt__ev_probe *pr, int op, const char *file,
                      const char *func, int line, const char *group,
                      int32_t peer, int32_t tag, int64_t bytes, int32_t aux,
                      int wait)
{
	if (!pvm_begin(pr, PVT_EV_GROUP_START, op, file, func, line, peer, tag,
	               bytes, aux, group))
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

	if (!pvm_gbegin(&pr, PVT_OP_PVM_JOINGROUP, PVM_AT, group, -1, -1, -1,
	                0, 0))
		return PVM_REAL(pvm_joingroup)(group);
	rc = PVM_REAL(pvm_joingroup)(group);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, -1, -1, -1, rc, 0);
	return rc;
}

/* pvm_lvgroup (paravt_pvm.h). */
int para_vt_pvm_lvgroup(PARAVT_PVM_ARGS, char *group)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_LVGROUP, PVM_AT, group, -1, -1, -1, 0,
	                0))
		return PVM_REAL(pvm_lvgroup)(group);
	rc = PVM_REAL(pvm_lvgroup)(group);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, -1, -1, -1, rc, 0);
	return rc;
}

/* pvm_barrier (paravt_pvm.h): aux = count. */
int para_vt_pvm_barrier(PARAVT_PVM_ARGS, char *group, int count)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_gbegin(&pr, PVT_OP_PVM_BARRIER, PVM_AT, group, -1, -1, -1,
	                count, 1))
		return PVM_REAL(pvm_barrier)(group, count);
	rc = PVM_REAL(pvm_barrier)(group, count);
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

	if (!pvm_gbegin(&pr, PVT_OP_PVM_REDUCE, PVM_AT, group, root, tag,
	                bytes, 0, 1))
		return PVM_REAL(pvm_reduce)(fn, data, count, type, tag, group,
		                            root);
	rc = PVM_REAL(pvm_reduce)(fn, data, count, type, tag, group, root);
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

	if (!pvm_gbegin(&pr, PVT_OP_PVM_GATHER, PVM_AT, group, root, tag,
	                bytes, 0, 1))
		return PVM_REAL(pvm_gather)(result, data, count, type, tag,
		                            group, root);
	rc = PVM_REAL(pvm_gather)(result, data, count, type, tag, group, root);
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

	if (!pvm_gbegin(&pr, PVT_OP_PVM_SCATTER, PVM_AT, group, root, tag,
	                bytes, 0, 1))
		return PVM_REAL(pvm_scatter)(result, data, count, type, tag,
		                             group, root);
	rc = PVM_REAL(pvm_scatter)(result, data, count, type, tag, group,
	                           root);
	pvt__ev_end(&pr, PVT_EV_GROUP_END, root, tag, bytes, rc, 0);
	return rc;
}

/* ---- special ------------------------------------------------------------- */

/* Ends a special probe. */
PVT__EV_HOT
static int pvm_send_end(pvt__ev_probe *pr, int32_t peer, int rc, int32_t aux)
{
	pvt__ev_end(pr, PVT_EV_SPECIAL_END, peer, -1, -1, rc, aux);
	return rc;
}

/* Starts a special probe (name: a group or mailbox, or NULL).  1 if
 * tracing. */
PVT__EV_HOT
static int pvm_sbegin(pvt__ev_probe *pr, int op, const char *file,
                      const char *func, int line, int32_t peer, int32_t aux,
                      const char *name)
{
	if (!pvm_begin(pr, PVT_EV_SPECIAL_START, op, file, func, line, peer,
	               -1, -1, aux, name))
		return 0;
	pvt__ev_call(pr);
	return 1;
}

/* t if it is a tid, else 0. */
static int32_t pvm_tid_or_0(int t)
{
	return t > 0 ? t : 0;
}

/* The task's tid: pvm_self's answer when tracing started in this very
 * call (PVM is asked once, as the program asked), else PVM's. */
static int pvm_mytid_once(unsigned asks)
{
	if (pvm_asks == asks)
		pvm_tid = PVM_REAL(pvm_mytid)();
	return pvm_tid;
}

/* pvm_mytid (paravt_pvm.h): result = tid. */
int para_vt_pvm_mytid(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;
	unsigned asks = pvm_asks;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_MYTID, PVM_AT, -1, 0, NULL))
		return pvm_mytid_once(asks);
	return pvm_send_end(&pr, -1, pvm_mytid_once(asks), 0);
}

/* pvm_parent (paravt_pvm.h): peer = result = parent's tid. */
int para_vt_pvm_parent(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_PARENT, PVM_AT, -1, 0, NULL))
		return PVM_REAL(pvm_parent)();
	rc = PVM_REAL(pvm_parent)();
	/* the call made the task a PVM task (unless PVM is not there):
	 * asking its tid now changes nothing, and a master whose first PVM
	 * call this is gets its tid recorded (aux) */
	if (rc != PvmSysErr)
		pvm_tid = PVM_REAL(pvm_mytid)();
	return pvm_send_end(&pr, rc, rc, rc == PvmSysErr ? 0
	                    : pvm_tid_or_0(pvm_tid));
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
 * there, nothing changes).  LD_PRELOAD goes only when it preloads this
 * library (a program traced without being built through paravt). */
static void pvm_export_session(void)
{
	const char *cur = getenv("PVM_EXPORT"), *pre = getenv("LD_PRELOAD");
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
		if (strcmp(pvm_exports[i], "LD_PRELOAD") == 0 &&
		    strstr(pre, "libparavt_pvm") == NULL)
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
	if (!pvm_sbegin(&pr, PVT_OP_PVM_SPAWN, PVM_AT, -1, n, NULL))
		return PVM_REAL(pvm_spawn)(task, argv, flag, where, n, tids);
	rc = PVM_REAL(pvm_spawn)(task, argv, flag, where, n, tids);
	return pvm_send_end(&pr, rc > 0 && tids ? tids[0] : -1, rc, n);
}

/* pvm_exit (paravt_pvm.h).  The records go out at once: a task that
 * leaves PVM often ends soon after, and may end by a signal no handler
 * sees (SIGKILL), which would lose what is buffered. */
int para_vt_pvm_exit(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_EXIT, PVM_AT, -1, 0, NULL))
		return PVM_REAL(pvm_exit)();
	rc = pvm_send_end(&pr, -1, PVM_REAL(pvm_exit)(), 0);
	pvm_tid = -1; /* no longer a PVM task */
	(void)pvt__ev_flush();
	return rc;
}

/* pvm_kill (paravt_pvm.h): peer = the victim. */
int para_vt_pvm_kill(PARAVT_PVM_ARGS, int tid)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_KILL, PVM_AT, tid, 0, NULL))
		return PVM_REAL(pvm_kill)(tid);
	return pvm_send_end(&pr, tid, PVM_REAL(pvm_kill)(tid), 0);
}

/* pvm_sendsig (paravt_pvm.h): peer = the task, aux = the signal. */
int para_vt_pvm_sendsig(PARAVT_PVM_ARGS, int tid, int sig)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_SENDSIG, PVM_AT, tid, sig, NULL))
		return PVM_REAL(pvm_sendsig)(tid, sig);
	return pvm_send_end(&pr, tid, PVM_REAL(pvm_sendsig)(tid, sig), sig);
}

/* pvm_addhosts (paravt_pvm.h): aux = hosts asked for. */
int para_vt_pvm_addhosts(PARAVT_PVM_ARGS, char **hosts, int n, int *infos)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_ADDHOSTS, PVM_AT, -1, n, NULL))
		return PVM_REAL(pvm_addhosts)(hosts, n, infos);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_addhosts)(hosts, n, infos),
	                    n);
}

/* pvm_delhosts (paravt_pvm.h): aux = hosts asked for. */
int para_vt_pvm_delhosts(PARAVT_PVM_ARGS, char **hosts, int n, int *infos)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_DELHOSTS, PVM_AT, -1, n, NULL))
		return PVM_REAL(pvm_delhosts)(hosts, n, infos);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_delhosts)(hosts, n, infos),
	                    n);
}

/* pvm_initsend (paravt_pvm.h): aux = encoding, result = buffer id. */
PVT__EV_HOT
int para_vt_pvm_initsend(PARAVT_PVM_ARGS, int encoding)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_INITSEND, PVM_AT, -1, encoding, NULL))
		return PVM_REAL(pvm_initsend)(encoding);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_initsend)(encoding),
	                    encoding);
}

/* pvm_notify (paravt_pvm.h): aux = what; the tag is the notify tag. */
int para_vt_pvm_notify(PARAVT_PVM_ARGS, int what, int tag, int n, int *tids)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_NOTIFY, PVM_AT, -1, what, NULL))
		return PVM_REAL(pvm_notify)(what, tag, n, tids);
	rc = PVM_REAL(pvm_notify)(what, tag, n, tids);
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, tag, -1, rc, what);
	return rc;
}

/* pvm_halt (paravt_pvm.h). */
int para_vt_pvm_halt(PARAVT_PVM_ARGS)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_HALT, PVM_AT, -1, 0, NULL))
		return PVM_REAL(pvm_halt)();
	(void)pvt__ev_flush(); /* the halt may kill this task */
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_halt)(), 0);
}

/* ---- groups: queries ----------------------------------------------------- */

/* pvm_gettid (paravt_pvm.h): aux = instance, peer = result = its tid. */
int para_vt_pvm_gettid(PARAVT_PVM_ARGS, char *group, int inst)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_GETTID, PVM_AT, -1, inst, group))
		return PVM_REAL(pvm_gettid)(group, inst);
	rc = PVM_REAL(pvm_gettid)(group, inst);
	return pvm_send_end(&pr, rc, rc, inst);
}

/* pvm_getinst (paravt_pvm.h): peer = the task, result = its instance. */
int para_vt_pvm_getinst(PARAVT_PVM_ARGS, char *group, int tid)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_GETINST, PVM_AT, tid, 0, group))
		return PVM_REAL(pvm_getinst)(group, tid);
	return pvm_send_end(&pr, tid, PVM_REAL(pvm_getinst)(group, tid), 0);
}

/* pvm_gsize (paravt_pvm.h): result = size. */
int para_vt_pvm_gsize(PARAVT_PVM_ARGS, char *group)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_GSIZE, PVM_AT, -1, 0, group))
		return PVM_REAL(pvm_gsize)(group);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_gsize)(group), 0);
}

/* pvm_freezegroup (paravt_pvm.h): aux = size asked for. */
int para_vt_pvm_freezegroup(PARAVT_PVM_ARGS, char *group, int size)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_FREEZEGROUP, PVM_AT, -1, size, group))
		return PVM_REAL(pvm_freezegroup)(group, size);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_freezegroup)(group, size),
	                    size);
}

/* ---- mailbox ------------------------------------------------------------- */

/* pvm_putinfo (paravt_pvm.h): ref = the name, bytes = the message's,
 * aux = flags, result = the index. */
int para_vt_pvm_putinfo(PARAVT_PVM_ARGS, char *name, int bufid, int flags)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_PUTINFO, PVM_AT, -1, flags, name))
		return PVM_REAL(pvm_putinfo)(name, bufid, flags);
	bytes = pvm_info(bufid).bytes;
	rc = PVM_REAL(pvm_putinfo)(name, bufid, flags);
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, bytes, rc, flags);
	return rc;
}

/* pvm_recvinfo (paravt_pvm.h): aux = index asked for, result = the
 * buffer, bytes and peer (the task that put it) from the buffer. */
int para_vt_pvm_recvinfo(PARAVT_PVM_ARGS, char *name, int index, int flags)
{
	pvt__ev_probe pr;
	pvm_msg m;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_RECVINFO, PVM_AT, -1, index, name))
		return PVM_REAL(pvm_recvinfo)(name, index, flags);
	rc = PVM_REAL(pvm_recvinfo)(name, index, flags);
	m = pvm_info(rc);
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, m.src, -1, m.bytes, rc, index);
	return rc;
}

/* pvm_delinfo (paravt_pvm.h): aux = index. */
int para_vt_pvm_delinfo(PARAVT_PVM_ARGS, char *name, int index, int flags)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_DELINFO, PVM_AT, -1, index, name))
		return PVM_REAL(pvm_delinfo)(name, index, flags);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_delinfo)(name, index, flags),
	                    index);
}

/* pvm_getmboxinfo (paravt_pvm.h): ref = the pattern, aux = classes
 * found. */
int para_vt_pvm_getmboxinfo(PARAVT_PVM_ARGS, char *pattern, int *nclasses,
                            struct pvmmboxinfo **classes)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_GETMBOXINFO, PVM_AT, -1, 0, pattern))
		return PVM_REAL(pvm_getmboxinfo)(pattern, nclasses, classes);
	rc = PVM_REAL(pvm_getmboxinfo)(pattern, nclasses, classes);
	return pvm_send_end(&pr, -1, rc, rc >= 0 && nclasses ? *nclasses : 0);
}

/* ---- the virtual machine --------------------------------------------- */

/* pvm_tasks (paravt_pvm.h): peer = where, aux = tasks found. */
int para_vt_pvm_tasks(PARAVT_PVM_ARGS, int where, int *ntask,
                      struct pvmtaskinfo **taskp)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_TASKS, PVM_AT, where, 0, NULL))
		return PVM_REAL(pvm_tasks)(where, ntask, taskp);
	rc = PVM_REAL(pvm_tasks)(where, ntask, taskp);
	return pvm_send_end(&pr, where, rc, rc >= 0 && ntask ? *ntask : 0);
}

/* pvm_config (paravt_pvm.h): aux = hosts. */
int para_vt_pvm_config(PARAVT_PVM_ARGS, int *nhost, int *narch,
                       struct pvmhostinfo **hostp)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_CONFIG, PVM_AT, -1, 0, NULL))
		return PVM_REAL(pvm_config)(nhost, narch, hostp);
	rc = PVM_REAL(pvm_config)(nhost, narch, hostp);
	return pvm_send_end(&pr, -1, rc, rc >= 0 && nhost ? *nhost : 0);
}

/* pvm_pstat (paravt_pvm.h): peer = the task. */
int para_vt_pvm_pstat(PARAVT_PVM_ARGS, int tid)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_PSTAT, PVM_AT, tid, 0, NULL))
		return PVM_REAL(pvm_pstat)(tid);
	return pvm_send_end(&pr, tid, PVM_REAL(pvm_pstat)(tid), 0);
}

/* pvm_mstat (paravt_pvm.h): ref = the host's name. */
int para_vt_pvm_mstat(PARAVT_PVM_ARGS, char *host)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_MSTAT, PVM_AT, -1, 0, host))
		return PVM_REAL(pvm_mstat)(host);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_mstat)(host), 0);
}

/* pvm_hostsync (paravt_pvm.h): peer = the host's pvmd tid. */
int para_vt_pvm_hostsync(PARAVT_PVM_ARGS, int host, struct timeval *clk,
                         struct timeval *delta)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_HOSTSYNC, PVM_AT, host, 0, NULL))
		return PVM_REAL(pvm_hostsync)(host, clk, delta);
	return pvm_send_end(&pr, host, PVM_REAL(pvm_hostsync)(host, clk, delta),
	                    0);
}

/* pvm_siblings (paravt_pvm.h): result = their number. */
int para_vt_pvm_siblings(PARAVT_PVM_ARGS, int **tids)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_SIBLINGS, PVM_AT, -1, 0, NULL))
		return PVM_REAL(pvm_siblings)(tids);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_siblings)(tids), 0);
}

/* pvm_recvf (paravt_pvm.h): a receive matching function other than
 * PVM's changes which message a receive takes; the record says so. */
para_vt_recvf_fn para_vt_pvm_recvf(PARAVT_PVM_ARGS, para_vt_recvf_fn fn)
{
	pvt__ev_probe pr;
	para_vt_recvf_fn old;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_RECVF, PVM_AT, -1, fn != NULL, NULL))
		return (para_vt_recvf_fn)(void (*)(void))PVM_REAL(pvm_recvf)(fn);
	old = (para_vt_recvf_fn)(void (*)(void))PVM_REAL(pvm_recvf)(fn);
	(void)pvm_send_end(&pr, -1, 0, fn != NULL);
	return old;
}

/* pvm_addmhf (paravt_pvm.h): peer = source, tag, result = handler id. */
int para_vt_pvm_addmhf(PARAVT_PVM_ARGS, int src, int tag, int ctx,
                       int (*fn)(int))
{
	pvt__ev_probe pr;
	int rc;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_ADDMHF, PVM_AT, src, ctx, NULL))
		return PVM_REAL(pvm_addmhf)(src, tag, ctx, fn);
	rc = PVM_REAL(pvm_addmhf)(src, tag, ctx, fn);
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, src, tag, -1, rc, ctx);
	return rc;
}

/* pvm_delmhf (paravt_pvm.h): aux = handler id. */
int para_vt_pvm_delmhf(PARAVT_PVM_ARGS, int id)
{
	pvt__ev_probe pr;

	if (!pvm_sbegin(&pr, PVT_OP_PVM_DELMHF, PVM_AT, -1, id, NULL))
		return PVM_REAL(pvm_delmhf)(id);
	return pvm_send_end(&pr, -1, PVM_REAL(pvm_delmhf)(id), id);
}
