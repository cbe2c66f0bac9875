/*
 * ana_out_otf2.c — the OTF2 export (ana_out.h) through Debian's libotf2:
 * an archive DIR/NAME.otf2 (with DIR/NAME.def and DIR/NAME/) that
 * otf2-print, Vampir and Scalasca read.
 *
 * Layout of the archive:
 *   - clock: resolution 1e9 (ns), global offset = the first event's time
 *     in the view, length = last - first + 1;
 *   - system tree: "paravt" (machine) with one child per node; one
 *     location group (a process) per task under its node, holding one
 *     location (a CPU thread) named "p3 t40003"; location id = the task's
 *     index in the trace; one communicator "paravt tasks" of every task
 *     (group 0: the locations in rank order, group 1: ranks 0..n-1) in
 *     which a task's rank is its MPI rank when every task is an MPI rank
 *     (so that readers see MPI_COMM_WORLD), else its index;
 *   - regions: one per op (pvm_send, MPI_Recv, ...; paradigm MPI for
 *     every message-passing call, PVM included, since OTF2 has no PVM
 *     paradigm), one per user function (paradigm user, its file and line)
 *     and "breakpoint" (measurement system);
 *   - events per location: Enter at each call's START, Leave at its END
 *     (a call that never ended leaves at the task's last time; the
 *     receives an MPI_Wait completes are inside the wait); MpiSend
 *     at a send's END, one per receiver that got it (receiver = that
 *     task's rank), MpiRecv at the receive's END (sender = the source's
 *     rank), both with the tag received and the message length, so that
 *     readers pair them; for MPI requests MpiIrecvRequest at the post,
 *     MpiIrecv where a wait completed it and MpiIsend (with
 *     MpiIsendComplete at once: a send request's completion is not
 *     recorded), each with the request's id.  Only matched messages are written: an unmatched
 *     send or receive is its region alone.  MPI collectives over every
 *     task (communicator size = tasks) that ended get MpiCollectiveBegin
 *     and MpiCollectiveEnd (op, root's rank, bytes); PVM group calls are
 *     regions only (their groups are not in the trace).
 *
 * Libraries do not print: libotf2's error callback is replaced during
 * the export by one that keeps the last message for err.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "ana_out.h"
#include "ana_walk.h"
#include "../../wrappers/pvt_event.h"

#define ANA_OTF2_COMM 0        /* the communicator of every message */
#define ANA_OTF2_GROUP_LOCS 0  /* group: every location */
#define ANA_OTF2_GROUP_RANKS 1 /* group: ranks of the communicator */
#define ANA_OTF2_NOP 256       /* ops (uint16 kept below 256 by pvt_op) */

/* State of one export. */
typedef struct ana_otf2 {
	const ana_trace *tr;
	OTF2_Archive *ar;
	OTF2_EvtWriter *w;        /* writer of the location being written */
	OTF2_GlobalDefWriter *gw; /* global definitions (at the end) */
	int64_t t0;               /* first view time */
	uint64_t base;            /* OTF2 time of t0 */
	const ana_pair *pairs;    /* matched messages, sorted by send */
	size_t npairs;
	uint32_t op_region[ANA_OTF2_NOP]; /* region per op, ANA_NONE */
	uint32_t *fn_region;      /* region per function string id */
	const ana_ev **region_ev; /* per region: an event that uses it */
	uint32_t nregions, regions_cap;
	uint64_t *nevents;        /* events written per location */
	uint32_t *rank;           /* per task: its rank in the communicator */
	uint64_t *by_rank;        /* per rank: its location */
	uint32_t nextstr;         /* next free string id */
	OTF2_ErrorCode rc;        /* first failure */
	char msg[256];            /* libotf2's last error message */
} ana_otf2;

/* libotf2's error callback while an export runs: keeps the message. */
static OTF2_ErrorCode ana_otf2_error_cb(void *ud, const char *file,
					uint64_t line, const char *func,
					OTF2_ErrorCode code, const char *fmt,
					va_list va)
{
	ana_otf2 *cx = ud;

	(void)file;
	(void)line;
	(void)func;
	if (fmt != NULL)
		vsnprintf(cx->msg, sizeof cx->msg, fmt, va);
	return code;
}

/* Records the first failing libotf2 call. */
static void ana_otf2_ok(ana_otf2 *cx, OTF2_ErrorCode rc)
{
	if (rc != OTF2_SUCCESS && cx->rc == OTF2_SUCCESS)
		cx->rc = rc;
}

/* OTF2 time of view time t. */
static OTF2_TimeStamp ana_otf2_ts(const ana_otf2 *cx, int64_t t)
{
	return cx->base + (uint64_t)(t - cx->t0);
}

/* ---- regions ------------------------------------------------------------ */

/* The region of call start s, allocated on first use (ANA_NONE on
 * ENOMEM). */
static uint32_t ana_otf2_region(ana_otf2 *cx, const ana_ev *s)
{
	int fn = s->kind == PVT_EV_FN_ENTER || s->kind == PVT_EV_FN_EXIT;
	uint32_t *slot = fn ? &cx->fn_region[s->func < cx->tr->nstrs ?
					     s->func : 0] :
		&cx->op_region[s->op % ANA_OTF2_NOP];
	const ana_ev **p;
	uint32_t cap;

	if (*slot != ANA_NONE)
		return *slot;
	if (cx->nregions == cx->regions_cap) {
		cap = cx->regions_cap ? cx->regions_cap * 2 : 32;
		p = realloc(cx->region_ev, cap * sizeof *p);
		if (p == NULL)
			return ANA_NONE;
		cx->region_ev = p;
		cx->regions_cap = cap;
	}
	cx->region_ev[cx->nregions] = s;
	*slot = cx->nregions++;
	return *slot;
}

/* The OTF2 role of the calls of kind (a START or END) and op. */
static OTF2_RegionRole ana_otf2_role(const ana_ev *s)
{
	switch (s->kind) {
	case PVT_EV_SEND_START: case PVT_EV_SEND_END:
	case PVT_EV_RECV_START: case PVT_EV_RECV_END:
		return OTF2_REGION_ROLE_POINT2POINT;
	case PVT_EV_MCAST_START: case PVT_EV_MCAST_END:
		return OTF2_REGION_ROLE_COLL_ONE2ALL;
	case PVT_EV_GROUP_START: case PVT_EV_GROUP_END:
		return s->op == PVT_OP_PVM_BARRIER || s->op == PVT_OP_MPI_BARRIER ?
			OTF2_REGION_ROLE_BARRIER : OTF2_REGION_ROLE_COLL_OTHER;
	case PVT_EV_BREAK_START: case PVT_EV_BREAK_END:
		return OTF2_REGION_ROLE_ARTIFICIAL;
	default:
		return OTF2_REGION_ROLE_FUNCTION;
	}
}

/* ---- events ------------------------------------------------------------- */

/* Tag and length of pair i, the same on both sides: the tag received
 * and the bytes sent (else received, else 0). */
static void ana_otf2_msg(const ana_otf2 *cx, size_t i, uint32_t *tag,
			 uint64_t *len)
{
	const ana_ev *s = ana_get(cx->tr, cx->pairs[i].send);
	const ana_ev *r = ana_get(cx->tr, cx->pairs[i].recv);

	*tag = (uint32_t)(r->tag >= 0 ? r->tag : s->tag >= 0 ? s->tag : 0);
	*len = (uint64_t)(s->bytes >= 0 ? s->bytes : r->bytes >= 0 ?
			  r->bytes : 0);
}

/* Whether e belongs to a nonblocking or persistent MPI request (its
 * ref is the request's id): a post, a started persistent send, or the
 * END that completes a receive. */
static int ana_otf2_nonblocking(const ana_ev *e)
{
	return pvt_op_is_mpi(e->op) && e->ref != 0 &&
	       (pvt_op_class(e->op) == PVT_C_SEND ||
		pvt_op_class(e->op) == PVT_C_RECV ||
		e->op == PVT_OP_MPI_SEND_INIT ||
		e->op == PVT_OP_MPI_BSEND_INIT ||
		e->op == PVT_OP_MPI_SSEND_INIT ||
		e->op == PVT_OP_MPI_RSEND_INIT);
}

/* The message records of END e (index idx of process proc) at t:
 * MpiRecv / MpiSend, or for a request MpiIrecv / MpiIsend with the
 * request's id (a send's completion is not recorded: MpiIsendComplete
 * follows at once). */
static void ana_otf2_msgs(ana_otf2 *cx, uint32_t proc, uint32_t idx,
			  const ana_ev *e, OTF2_TimeStamp t)
{
	ana_ref me = {proc, idx};
	int nb = ana_otf2_nonblocking(e);
	uint64_t len;
	uint32_t tag, peer;
	size_t i;

	if (e->kind == PVT_EV_RECV_END) {
		if (e->match.proc == ANA_NONE)
			return;
		i = ana_pairs_find(cx->pairs, cx->npairs,
				       ana_msg_end(cx->tr, e->match), me);
		if (i == cx->npairs)
			return;
		ana_otf2_msg(cx, i, &tag, &len);
		peer = cx->rank[cx->pairs[i].send.proc];
		ana_otf2_ok(cx, nb ? OTF2_EvtWriter_MpiIrecv(cx->w, NULL, t,
				peer, ANA_OTF2_COMM, tag, len, e->ref)
			: OTF2_EvtWriter_MpiRecv(cx->w, NULL, t, peer,
				ANA_OTF2_COMM, tag, len));
		return;
	}
	if (e->kind != PVT_EV_SEND_END && e->kind != PVT_EV_MCAST_END)
		return;
	for (i = ana_pairs_find_send(cx->pairs, cx->npairs, me);
	     i < cx->npairs && cx->pairs[i].send.proc == proc &&
	     cx->pairs[i].send.idx == idx; i++) {
		ana_otf2_msg(cx, i, &tag, &len);
		peer = cx->rank[cx->pairs[i].recv.proc];
		if (!nb) {
			ana_otf2_ok(cx, OTF2_EvtWriter_MpiSend(cx->w, NULL, t,
				peer, ANA_OTF2_COMM, tag, len));
			continue;
		}
		ana_otf2_ok(cx, OTF2_EvtWriter_MpiIsend(cx->w, NULL, t, peer,
			ANA_OTF2_COMM, tag, len, e->ref));
		ana_otf2_ok(cx, OTF2_EvtWriter_MpiIsendComplete(cx->w, NULL, t,
								e->ref));
	}
}

/* The OTF2 operation of an MPI collective over every task that ended
 * (START s), or -1 when s is none. */
static int ana_otf2_coll_op(const ana_otf2 *cx, const ana_ev *s)
{
	if ((s->kind != PVT_EV_GROUP_START && s->kind != PVT_EV_MCAST_START) ||
	    (s->flags & ANA_F_OPEN) || s->aux != (int32_t)cx->tr->nprocs)
		return -1;
	switch (s->op) {
	case PVT_OP_MPI_BARRIER: return OTF2_COLLECTIVE_OP_BARRIER;
	case PVT_OP_MPI_BCAST: return OTF2_COLLECTIVE_OP_BCAST;
	case PVT_OP_MPI_REDUCE: return OTF2_COLLECTIVE_OP_REDUCE;
	case PVT_OP_MPI_ALLREDUCE: return OTF2_COLLECTIVE_OP_ALLREDUCE;
	case PVT_OP_MPI_GATHER: return OTF2_COLLECTIVE_OP_GATHER;
	case PVT_OP_MPI_GATHERV: return OTF2_COLLECTIVE_OP_GATHERV;
	case PVT_OP_MPI_SCATTER: return OTF2_COLLECTIVE_OP_SCATTER;
	case PVT_OP_MPI_SCATTERV: return OTF2_COLLECTIVE_OP_SCATTERV;
	case PVT_OP_MPI_ALLGATHER: return OTF2_COLLECTIVE_OP_ALLGATHER;
	case PVT_OP_MPI_ALLGATHERV: return OTF2_COLLECTIVE_OP_ALLGATHERV;
	case PVT_OP_MPI_ALLTOALL: return OTF2_COLLECTIVE_OP_ALLTOALL;
	case PVT_OP_MPI_ALLTOALLV: return OTF2_COLLECTIVE_OP_ALLTOALLV;
	case PVT_OP_MPI_ALLTOALLW: return OTF2_COLLECTIVE_OP_ALLTOALLW;
	case PVT_OP_MPI_REDUCE_SCATTER:
		return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
	case PVT_OP_MPI_REDUCE_SCATTER_BLOCK:
		return OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
	case PVT_OP_MPI_SCAN: return OTF2_COLLECTIVE_OP_SCAN;
	case PVT_OP_MPI_EXSCAN: return OTF2_COLLECTIVE_OP_EXSCAN;
	default: return -1; /* nonblocking ones: regions only */
	}
}

/* MpiCollectiveEnd of call c (operation op): the root's rank (NONE when
 * the call has none) and the bytes this task gave and got, from its own
 * share as the wrapper recorded it (what it sends; Scatter: what it
 * receives), the root moving it for every rank. */
static void ana_otf2_coll_end(ana_otf2 *cx, const ana_call *c, int op,
			      OTF2_TimeStamp t)
{
	const ana_ev *e = c->e;
	uint64_t b = e->bytes > 0 ? (uint64_t)e->bytes : 0;
	uint64_t n = cx->tr->nprocs, sent = b, got = b;
	uint32_t root = OTF2_COLLECTIVE_ROOT_NONE, rp;
	int is_root = 0;

	if (e->peer >= 0 && op != OTF2_COLLECTIVE_OP_BARRIER &&
	    op != OTF2_COLLECTIVE_OP_ALLREDUCE &&
	    op != OTF2_COLLECTIVE_OP_ALLTOALL) {
		rp = ana_proc_by_tid(cx->tr, e->peer);
		is_root = rp == c->proc;
		if (rp != ANA_NONE)
			root = cx->rank[rp];
	}
	switch (op) {
	case OTF2_COLLECTIVE_OP_BARRIER:
		sent = got = 0;
		break;
	case OTF2_COLLECTIVE_OP_BCAST:
		sent = is_root ? b * n : 0;
		break;
	case OTF2_COLLECTIVE_OP_REDUCE: case OTF2_COLLECTIVE_OP_GATHER:
		got = is_root ? b * n : 0;
		break;
	case OTF2_COLLECTIVE_OP_SCATTER:
		sent = is_root ? b * n : 0;
		break;
	default:
		break;
	}
	ana_otf2_ok(cx, OTF2_EvtWriter_MpiCollectiveEnd(cx->w, NULL, t,
		(OTF2_CollectiveOp)op, ANA_OTF2_COMM, root, sent, got));
}

/* walk: Enter (and MpiCollectiveBegin). */
static int ana_otf2_enter(void *ctx, const ana_call *c)
{
	ana_otf2 *cx = ctx;
	uint32_t r = ana_otf2_region(cx, c->s);
	OTF2_TimeStamp t = ana_otf2_ts(cx, c->ts);

	if (r == ANA_NONE)
		return ANA_ENOMEM;
	ana_otf2_ok(cx, OTF2_EvtWriter_Enter(cx->w, NULL, t, r));
	if (c->s->kind == PVT_EV_RECV_START && ana_otf2_nonblocking(c->s))
		ana_otf2_ok(cx, OTF2_EvtWriter_MpiIrecvRequest(cx->w, NULL, t,
							       c->s->ref));
	if (ana_otf2_coll_op(cx, c->s) >= 0)
		ana_otf2_ok(cx, OTF2_EvtWriter_MpiCollectiveBegin(cx->w, NULL,
								  t));
	return cx->rc == OTF2_SUCCESS ? 0 : ANA_EIO;
}

/* walk: the call's messages or collective end, then Leave. */
static int ana_otf2_leave(void *ctx, const ana_call *c)
{
	ana_otf2 *cx = ctx;
	OTF2_TimeStamp t = ana_otf2_ts(cx, c->te);
	int op = ana_otf2_coll_op(cx, c->s);

	if (c->half != NULL)
		ana_otf2_msgs(cx, c->proc, c->half_idx, c->half,
			      ana_otf2_ts(cx, c->th));
	if (c->e != NULL && op >= 0)
		ana_otf2_coll_end(cx, c, op, t);
	else if (c->e != NULL)
		ana_otf2_msgs(cx, c->proc, c->e_idx, c->e, t);
	ana_otf2_ok(cx, OTF2_EvtWriter_Leave(cx->w, NULL, t,
					     ana_otf2_region(cx, c->s)));
	return cx->rc == OTF2_SUCCESS ? 0 : ANA_EIO;
}

/* walk: the messages of an END inside a wait, where it came. */
static int ana_otf2_inner(void *ctx, const ana_call *c, uint32_t idx,
			  const ana_ev *e, int64_t t)
{
	ana_otf2 *cx = ctx;

	ana_otf2_msgs(cx, c->proc, idx, e, ana_otf2_ts(cx, t));
	return cx->rc == OTF2_SUCCESS ? 0 : ANA_EIO;
}

/* Writes the events of every location.  0 or a code. */
static int ana_otf2_events(ana_otf2 *cx, int view)
{
	ana_walk_ops ops = {cx, ana_otf2_enter, ana_otf2_leave, NULL,
			    ana_otf2_inner};
	uint32_t i;
	int rc = 0;

	ana_otf2_ok(cx, OTF2_Archive_OpenEvtFiles(cx->ar));
	for (i = 0; i < cx->tr->nprocs && rc == 0 &&
	     cx->rc == OTF2_SUCCESS; i++) {
		cx->w = OTF2_Archive_GetEvtWriter(cx->ar, i);
		if (cx->w == NULL) {
			ana_otf2_ok(cx, OTF2_ERROR_INVALID);
			break;
		}
		rc = ana_walk_calls(cx->tr, i, view, &ops);
		ana_otf2_ok(cx, OTF2_EvtWriter_GetNumberOfEvents(cx->w,
							 &cx->nevents[i]));
		ana_otf2_ok(cx, OTF2_Archive_CloseEvtWriter(cx->ar, cx->w));
	}
	ana_otf2_ok(cx, OTF2_Archive_CloseEvtFiles(cx->ar));
	return rc;
}

/* Every location's (empty) local definitions, as readers expect. */
static void ana_otf2_local_defs(ana_otf2 *cx)
{
	OTF2_DefWriter *dw;
	uint32_t i;

	ana_otf2_ok(cx, OTF2_Archive_OpenDefFiles(cx->ar));
	for (i = 0; i < cx->tr->nprocs; i++) {
		dw = OTF2_Archive_GetDefWriter(cx->ar, i);
		if (dw == NULL) {
			ana_otf2_ok(cx, OTF2_ERROR_INVALID);
			break;
		}
		ana_otf2_ok(cx, OTF2_Archive_CloseDefWriter(cx->ar, dw));
	}
	ana_otf2_ok(cx, OTF2_Archive_CloseDefFiles(cx->ar));
}

/* ---- global definitions -------------------------------------------------- */

/* Defines string s; returns its id. */
static OTF2_StringRef ana_otf2_str(ana_otf2 *cx, const char *s)
{
	ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteString(cx->gw, cx->nextstr,
							 s));
	return cx->nextstr++;
}

/* The regions used by the events. */
static void ana_otf2_def_regions(ana_otf2 *cx)
{
	const ana_ev *s;
	OTF2_StringRef name, file;
	OTF2_Paradigm para;
	int fn;
	uint32_t r;

	for (r = 0; r < cx->nregions; r++) {
		s = cx->region_ev[r];
		fn = s->kind == PVT_EV_FN_ENTER || s->kind == PVT_EV_FN_EXIT;
		para = fn ? OTF2_PARADIGM_USER :
			s->op == PVT_OP_RT_BREAK ? OTF2_PARADIGM_MEASUREMENT_SYSTEM :
			OTF2_PARADIGM_MPI;
		name = ana_otf2_str(cx, fn ? ana_str(cx->tr, s->func) :
				    ana_op_name(s->op));
		file = fn ? ana_otf2_str(cx, ana_str(cx->tr, s->file)) : 0;
		ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteRegion(cx->gw, r,
			name, name, 0, ana_otf2_role(s), para,
			OTF2_REGION_FLAG_NONE, file,
			fn && s->line > 0 ? (uint32_t)s->line : 0, 0));
	}
}

/* System tree, location groups and locations. */
static void ana_otf2_def_locations(ana_otf2 *cx)
{
	const ana_trace *tr = cx->tr;
	OTF2_StringRef cls;
	char buf[ANA_NAME_MAX + 80];
	uint32_t i;

	ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteSystemTreeNode(cx->gw, 0,
		ana_otf2_str(cx, "paravt"), ana_otf2_str(cx, "machine"),
		OTF2_UNDEFINED_SYSTEM_TREE_NODE));
	cls = ana_otf2_str(cx, "node");
	for (i = 0; i < tr->nnodes; i++) {
		if (tr->nodes[i].arch[0] != '\0')
			snprintf(buf, sizeof buf, "%s (%s)", tr->nodes[i].name,
				 tr->nodes[i].arch);
		else
			snprintf(buf, sizeof buf, "%s", tr->nodes[i].name);
		ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteSystemTreeNode(
			cx->gw, i + 1, ana_otf2_str(cx, buf), cls, 0));
	}
	for (i = 0; i < tr->nprocs; i++) {
		OTF2_StringRef name = ana_otf2_str(cx,
			ana_proc_label(tr, i, buf, sizeof buf));

		ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteLocationGroup(cx->gw,
			i, name, OTF2_LOCATION_GROUP_TYPE_PROCESS,
			tr->procs[i].node < tr->nnodes ? tr->procs[i].node + 1 :
			0, OTF2_UNDEFINED_LOCATION_GROUP));
		ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteLocation(cx->gw, i,
			name, OTF2_LOCATION_TYPE_CPU_THREAD, cx->nevents[i],
			i));
	}
}

/* The one communicator every message goes through. */
static int ana_otf2_def_comm(ana_otf2 *cx)
{
	uint32_t i, n = cx->tr->nprocs;
	uint64_t *m = malloc((n ? n : 1) * sizeof *m);

	if (m == NULL)
		return ANA_ENOMEM;
	ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteGroup(cx->gw,
		ANA_OTF2_GROUP_LOCS, ana_otf2_str(cx, "tasks"),
		OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
		OTF2_GROUP_FLAG_NONE, n, cx->by_rank));
	for (i = 0; i < n; i++)
		m[i] = i;
	ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteGroup(cx->gw,
		ANA_OTF2_GROUP_RANKS, 0, OTF2_GROUP_TYPE_COMM_GROUP,
		OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n, m));
	ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteComm(cx->gw, ANA_OTF2_COMM,
		ana_otf2_str(cx, "paravt tasks"), ANA_OTF2_GROUP_RANKS,
		OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
	free(m);
	return 0;
}

/* Every global definition.  0 or a code. */
static int ana_otf2_defs(ana_otf2 *cx, int view)
{
	int64_t first, last;
	int rc;

	cx->gw = OTF2_Archive_GetGlobalDefWriter(cx->ar);
	if (cx->gw == NULL) {
		ana_otf2_ok(cx, OTF2_ERROR_INVALID);
		return ANA_EIO;
	}
	ana_time_span(cx->tr, view, &first, &last);
	ana_otf2_ok(cx, OTF2_GlobalDefWriter_WriteClockProperties(cx->gw,
		1000000000u, cx->base, (uint64_t)(last - first) + 1,
		OTF2_UNDEFINED_TIMESTAMP));
	cx->nextstr = 0;
	ana_otf2_str(cx, "");
	ana_otf2_def_regions(cx);
	ana_otf2_def_locations(cx);
	rc = ana_otf2_def_comm(cx);
	ana_otf2_ok(cx, OTF2_Archive_CloseGlobalDefWriter(cx->ar, cx->gw));
	return rc;
}

/* ---- the archive ----------------------------------------------------------- */

/* DIR made and writable, DIR/NAME(.otf2) free.  0 or a code with err. */
static int ana_otf2_check_dir(const char *dir, const char *name, char *err,
			      size_t errlen)
{
	char path[4096];
	struct stat st;

	if (name[0] == '\0' || strchr(name, '/') != NULL) {
		snprintf(err, errlen, "otf2 export: bad archive name '%s'",
			 name);
		return ANA_EARG;
	}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "otf2 export: cannot create %s: %s", dir,
			 strerror(errno));
		return ANA_EIO;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "otf2 export: %s is not a directory",
			 dir);
		return ANA_EIO;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "otf2 export: cannot write in %s: %s",
			 dir, strerror(errno));
		return ANA_EIO;
	}
	snprintf(path, sizeof path, "%s/%s.otf2", dir, name);
	if (lstat(path, &st) == 0) {
		snprintf(err, errlen, "otf2 export: %s exists already (remove "
			 "it with %s.def and %s/, or choose another directory)",
			 path, name, name);
		return ANA_EARG;
	}
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (lstat(path, &st) == 0) {
		snprintf(err, errlen, "otf2 export: %s exists already", path);
		return ANA_EARG;
	}
	return 0;
}

/* Removes what a failed export may have left (known names only). */
static void ana_otf2_remove(const char *dir, const char *name,
			    uint32_t nlocs)
{
	char path[4096];
	uint32_t i;

	for (i = 0; i < nlocs; i++) {
		snprintf(path, sizeof path, "%s/%s/%u.evt", dir, name, i);
		unlink(path);
		snprintf(path, sizeof path, "%s/%s/%u.def", dir, name, i);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/%s", dir, name);
	rmdir(path);
	snprintf(path, sizeof path, "%s/%s.def", dir, name);
	unlink(path);
	snprintf(path, sizeof path, "%s/%s.otf2", dir, name);
	unlink(path);
}

/* pre-flush callback: always write the buffer out. */
static OTF2_FlushType ana_otf2_pre_flush(void *ud, OTF2_FileType type,
					 OTF2_LocationRef loc, void *caller,
					 bool final)
{
	(void)ud;
	(void)type;
	(void)loc;
	(void)caller;
	(void)final;
	return OTF2_FLUSH;
}

/* Opens the archive for serial writing.  NULL on failure (cx->rc). */
static OTF2_Archive *ana_otf2_open(ana_otf2 *cx, const char *dir,
				   const char *name)
{
	static const OTF2_FlushCallbacks flush = {ana_otf2_pre_flush, NULL};
	OTF2_Archive *ar;

	ar = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1024 * 1024,
			       4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
			       OTF2_COMPRESSION_NONE);
	if (ar == NULL) {
		ana_otf2_ok(cx, OTF2_ERROR_FILE_CAN_NOT_OPEN);
		return NULL;
	}
	ana_otf2_ok(cx, OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL));
	ana_otf2_ok(cx, OTF2_Archive_SetSerialCollectiveCallbacks(ar));
	ana_otf2_ok(cx, OTF2_Archive_SetCreator(ar, "paravt"));
	ana_otf2_ok(cx, OTF2_Archive_SetDescription(ar,
		"paravt trace: PVM/MPI calls and matched messages"));
	return ar;
}

/* Writes the whole archive into cx (open, events, definitions, close). */
static int ana_otf2_write(ana_otf2 *cx, int view, const char *dir,
			  const char *name)
{
	int rc;

	cx->ar = ana_otf2_open(cx, dir, name);
	if (cx->ar == NULL)
		return ANA_EIO;
	rc = ana_otf2_events(cx, view);
	if (rc == 0 && cx->rc == OTF2_SUCCESS)
		ana_otf2_local_defs(cx);
	if (rc == 0 && cx->rc == OTF2_SUCCESS)
		rc = ana_otf2_defs(cx, view);
	ana_otf2_ok(cx, OTF2_Archive_Close(cx->ar));
	return rc;
}

/* The ranks of the communicator: the MPI ranks when every task is an MPI
 * rank and they are 0..n-1 each once, else the task indexes. */
static void ana_otf2_ranks(ana_otf2 *cx)
{
	const ana_trace *tr = cx->tr;
	uint32_t i, n = tr->nprocs;
	int mpi = 1;

	for (i = 0; i < n; i++)
		cx->by_rank[i] = ANA_NONE;
	for (i = 0; i < n && mpi; i++) {
		const ana_proc *p = &tr->procs[i];

		mpi = p->have_tid && p->tid >= 0 && (uint32_t)p->tid < n &&
			cx->by_rank[p->tid] == ANA_NONE &&
			ana_proc_is_mpi(tr, i);
		if (mpi)
			cx->by_rank[p->tid] = i;
	}
	for (i = 0; i < n; i++) {
		cx->rank[i] = mpi ? (uint32_t)tr->procs[i].tid : i;
		cx->by_rank[cx->rank[i]] = i;
	}
}

/* Allocates the tables of cx.  0 or ANA_ENOMEM. */
static int ana_otf2_init(ana_otf2 *cx, const ana_trace *tr, int view)
{
	int64_t last;
	uint32_t i;

	memset(cx, 0, sizeof *cx);
	cx->tr = tr;
	for (i = 0; i < ANA_OTF2_NOP; i++)
		cx->op_region[i] = ANA_NONE;
	cx->fn_region = malloc((tr->nstrs ? tr->nstrs : 1) *
			       sizeof *cx->fn_region);
	cx->nevents = calloc(tr->nprocs, sizeof *cx->nevents);
	cx->rank = malloc((tr->nprocs ? tr->nprocs : 1) * sizeof *cx->rank);
	cx->by_rank = malloc((tr->nprocs ? tr->nprocs : 1) *
			     sizeof *cx->by_rank);
	if (cx->fn_region == NULL || cx->nevents == NULL || cx->rank == NULL ||
	    cx->by_rank == NULL)
		return ANA_ENOMEM;
	ana_otf2_ranks(cx);
	for (i = 0; i < tr->nstrs; i++)
		cx->fn_region[i] = ANA_NONE;
	ana_time_span(tr, view, &cx->t0, &last);
	cx->base = cx->t0 >= 0 ? (uint64_t)cx->t0 : 0;
	if (ana_pairs(tr, (ana_pair **)&cx->pairs, &cx->npairs) < 0)
		return ANA_ENOMEM;
	return 0;
}

/* Frees the tables of cx. */
static void ana_otf2_fini(ana_otf2 *cx)
{
	free(cx->fn_region);
	free(cx->nevents);
	free(cx->rank);
	free(cx->by_rank);
	free(cx->region_ev);
	free((void *)cx->pairs);
}

/* Events in tr. */
static uint64_t ana_count_events(const ana_trace *tr)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < tr->nprocs; i++)
		n += tr->procs[i].nev;
	return n;
}

int ana_out_otf2(const ana_trace *tr, int view, const char *dir,
		 const char *name, char *err, size_t errlen)
{
	OTF2_ErrorCallback prev;
	ana_otf2 cx;
	int rc;

	if (view < ANA_VIEW_COMP || view > ANA_VIEW_RAW) {
		snprintf(err, errlen, "otf2 export: unknown view %d", view);
		return ANA_EARG;
	}
	if (ana_count_events(tr) == 0) {
		snprintf(err, errlen, "otf2 export: no events to export");
		return ANA_EARG;
	}
	rc = ana_otf2_check_dir(dir, name, err, errlen);
	if (rc < 0)
		return rc;
	rc = ana_otf2_init(&cx, tr, view);
	if (rc < 0) {
		ana_otf2_fini(&cx);
		snprintf(err, errlen, "otf2 export: out of memory");
		return rc;
	}
	prev = OTF2_Error_RegisterCallback(ana_otf2_error_cb, &cx);
	rc = ana_otf2_write(&cx, view, dir, name);
	OTF2_Error_RegisterCallback(prev, NULL);
	if (rc == ANA_ENOMEM)
		snprintf(err, errlen, "otf2 export: out of memory");
	else if (rc < 0 || cx.rc != OTF2_SUCCESS)
		snprintf(err, errlen, "otf2 export: %s/%s.otf2: %s%s%s", dir,
			 name, OTF2_Error_GetDescription(cx.rc),
			 cx.msg[0] != '\0' ? ": " : "", cx.msg);
	if (rc == 0 && cx.rc != OTF2_SUCCESS)
		rc = ANA_EIO;
	if (rc < 0)
		ana_otf2_remove(dir, name, tr->nprocs);
	ana_otf2_fini(&cx);
	return rc;
}
