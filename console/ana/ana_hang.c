/*
 * ana_hang.c — the wait-for graph of a trace's last state and deadlock
 * detection (ana_hang.h).
 *
 * State of a process, from its events:
 *   ended    it has a PROG_EXIT or CRASH event;
 *   blocked  its last event is the START of a call that waits for other
 *            tasks: a blocking receive (pvm_recv, pvm_trecv, pvm_precv,
 *            MPI_Recv, MPI_Sendrecv; not pvm_nrecv, pvm_probe nor
 *            MPI_Irecv, which return at once), a group call (pvm_barrier,
 *            pvm_reduce, ..., MPI collectives and MPI_Bcast; not
 *            pvm_joingroup/pvm_lvgroup, which only talk to the group
 *            server), or MPI_Wait/MPI_Waitall with receives posted;
 *   running  anything else (computing, inside a send, stopped at a
 *            breakpoint: the user can continue it).
 *
 * What a blocked process waits for:
 *   receive from a tid      AND {that process} (nothing when the tid is no
 *                           process of the trace: unknown, assumed able
 *                           to come);
 *   receive from any task   OR {every live process but itself};
 *   group call, instance k  AND {members that have not reached instance
 *                           k: their count of STARTs of the same op is at
 *                           most k} — the k-th call of an op in each
 *                           process is instance k, as in ana_match.  The
 *                           members are every process for MPI, and for
 *                           PVM the processes that called pvm_joingroup
 *                           or the same op (a task that has not joined
 *                           yet is not waited for: no false deadlock);
 *   MPI_Wait(all)           OR {senders of the receives posted and not
 *                           completed} (any live process if one of them
 *                           is a wildcard; which request the call waits
 *                           for is not recorded, so OR is the safe side);
 *   pvm_trecv with a timeout returns by itself.
 * A receive (or MPI wait) for which a message it can take was sent and
 * not received returns too (ANA_HANG_READY): an unmatched send to it
 * (ana_match), or a multicast of the source it has not taken.  This also
 * keeps stale events from looking like a deadlock: a task records the
 * END of a receive in its buffer and may compute long before it flushes,
 * but the send that released it is always seen with or before the
 * sender's own blocking START (a task flushes before it blocks).
 * Exited processes stay in the AND sets (the report says "which has
 * exited") but never in an OR set.
 *
 * Who can still progress (least fixpoint): running processes; timed
 * and ready receives; an AND process whose every awaited process can
 * progress (an empty AND set included); an OR process with one awaited
 * process that can.  Ended processes cannot.  The blocked processes left over are
 * stuck for good.  Among them the deadlocked set is the greatest set D in
 * which every member is held by D itself: an AND member waits for one
 * member of D, an OR member waits only for members of D (and for some).
 * A stuck process outside D waits, directly or through others, for a
 * task that exited: a hang, not a deadlock.  Every member of D has an
 * edge into D, so walking those edges from any member reaches a cycle:
 * that cycle names the deadlock.
 *
 * The report of the graph is ana_hang_text.c (what the two share is in
 * ana_hang_int.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ana_hang_int.h"
#include "../../wrappers/pvt_event.h"

/* Working state of ana_hang_compute (one entry per process). */
typedef struct hang_work {
	int call;      /* enum hang_call */
	int mpi;       /* the process made MPI calls (names: rank N) */
	int joined;    /* PVM: it called pvm_joingroup */
	char progress; /* can still progress */
	char in_d;     /* in the deadlocked set */
} hang_work;

/* Name of op ("pvm_recv"; "-" unknown). */
const char *ana_hang_op_name(unsigned op)
{
	return pvt_op_name(op);
}

/* True if op is an MPI call. */
static int hang_op_mpi(unsigned op)
{
	return pvt_op_is_mpi(op);
}

/* True if process i made MPI calls (its tid is a rank). */
int ana_hang_is_mpi(const ana_trace *tr, uint32_t i)
{
	const ana_proc *p = &tr->procs[i];
	uint32_t k;

	for (k = 0; k < p->nev; k++)
		if (hang_op_mpi(p->ev[k].op))
			return 1;
	return 0;
}

/* The call an open START e blocks in (enum hang_call), or -1 when it
 * does not wait for other tasks. */
int ana_hang_call_of(const ana_ev *e)
{
	switch (e->kind) {
	case PVT_EV_RECV_START: /* posts and looks that do not wait */
		if (e->op == PVT_OP_PVM_NRECV || e->op == PVT_OP_PVM_PROBE ||
		    e->op == PVT_OP_MPI_IRECV || e->op == PVT_OP_MPI_IPROBE ||
		    e->op == PVT_OP_MPI_IMPROBE || e->op == PVT_OP_MPI_RECV_INIT)
			return -1;
		return HANG_RECV;
	case PVT_EV_GROUP_START: /* a nonblocking one names its request */
		if (e->op == PVT_OP_PVM_JOINGROUP ||
		    e->op == PVT_OP_PVM_LVGROUP ||
		    (pvt_op_is_mpi(e->op) && e->ref != 0))
			return -1;
		return HANG_GROUP;
	case PVT_EV_MCAST_START:
		return e->op == PVT_OP_MPI_BCAST ? HANG_GROUP : -1;
	case PVT_EV_SPECIAL_START:
		if (e->op == PVT_OP_MPI_WAIT || e->op == PVT_OP_MPI_WAITALL ||
		    e->op == PVT_OP_MPI_WAITANY || e->op == PVT_OP_MPI_WAITSOME)
			return HANG_MPIWAIT;
		return -1;
	default:
		return -1;
	}
}

/* True if event e starts op (a group instance of it). */
static int hang_starts(const ana_ev *e, uint16_t op)
{
	return e->op == op && (e->kind == PVT_EV_GROUP_START ||
			       e->kind == PVT_EV_MCAST_START);
}

/* Number of STARTs of group op in process p. */
static uint32_t hang_count_op(const ana_proc *p, uint16_t op)
{
	uint32_t i, n = 0;

	for (i = 0; i < p->nev; i++)
		n += hang_starts(&p->ev[i], op);
	return n;
}

/* Fills the state of process i (ended, blocked or running) and the
 * per-process facts of w. */
static void hang_state(const ana_trace *tr, uint32_t i, ana_hang_proc *hp,
		       hang_work *w)
{
	const ana_proc *p = &tr->procs[i];
	const ana_ev *e;
	uint32_t k;
	int call;

	hp->state = ANA_HANG_RUNNING;
	hp->at.proc = ANA_NONE;
	hp->want_tid = -1;
	hp->want_tag = -1;
	for (k = 0; k < p->nev; k++) {
		e = &p->ev[k];
		if (e->kind == PVT_EV_PROG_EXIT || e->kind == PVT_EV_CRASH)
			hp->state = ANA_HANG_ENDED;
		if (e->op == PVT_OP_PVM_JOINGROUP)
			w->joined = 1;
	}
	w->mpi = ana_hang_is_mpi(tr, i);
	if (hp->state == ANA_HANG_ENDED || p->nev == 0)
		return;
	e = &p->ev[p->nev - 1];
	call = ana_hang_call_of(e);
	if (call < 0)
		return;
	hp->state = ANA_HANG_BLOCKED;
	hp->at.proc = i;
	hp->at.idx = p->nev - 1;
	w->call = call;
	if (call == HANG_RECV) {
		hp->want_tid = e->peer;
		hp->want_tag = e->tag;
	}
}

/* Appends q to hp's waits (cap: nprocs, allocated by the caller). */
static void hang_add(ana_hang_proc *hp, uint32_t q)
{
	hp->waits[hp->nwaits++] = q;
}

/* OR over every live process but i. */
static void hang_any_live(const ana_hang *h, uint32_t i, ana_hang_proc *hp)
{
	uint32_t q;

	for (q = 0; q < h->nprocs; q++)
		if (q != i && h->p[q].state != ANA_HANG_ENDED)
			hang_add(hp, q);
}

/* True if tag matches a receive's wanted tag (-1: any). */
static int hang_tag_ok(int32_t want, int32_t tag)
{
	return want < 0 || tag == want;
}

/* True if process q sent process p a message with a tag matching want
 * that p has not received: an unmatched successful send to p's tid
 * (ana_match), or more multicasts of q than receives of p matched to
 * them (their destinations are not recorded: counted as sent to all). */
static int hang_sent_to(const ana_trace *tr, uint32_t q, uint32_t p,
			int32_t want)
{
	const ana_proc *sq = &tr->procs[q], *rp = &tr->procs[p];
	uint32_t k, nm = 0, nc = 0;

	for (k = 0; k < sq->nev; k++) {
		const ana_ev *e = &sq->ev[k];

		if (!hang_tag_ok(want, e->tag) || e->result < 0)
			continue;
		if (e->kind == PVT_EV_SEND_END && rp->have_tid &&
		    e->peer == rp->tid && (e->flags & ANA_F_UNMATCHED))
			return 1;
		nm += e->kind == PVT_EV_MCAST_END &&
		      e->op != PVT_OP_MPI_BCAST;
	}
	for (k = 0; k < rp->nev && nm > 0; k++) {
		const ana_ev *e = &rp->ev[k], *m;

		if (e->kind != PVT_EV_RECV_END || e->match.proc != q)
			continue;
		m = ana_get(tr, e->match);
		nc += m != NULL && m->kind == PVT_EV_MCAST_END &&
		      hang_tag_ok(want, m->tag);
	}
	return nm > nc;
}

/* True if a message receive START e of process p can take has been sent
 * and not received (from its source, or from anyone for a wildcard):
 * the receive returns, whatever its events say so far (its END may
 * still be in the task's buffer). */
static int hang_msg_ready(const ana_trace *tr, uint32_t p, const ana_ev *e)
{
	uint32_t q;

	if (e->peer >= 0) {
		q = ana_proc_by_tid(tr, e->peer);
		return q != ANA_NONE && hang_sent_to(tr, q, p, e->tag);
	}
	for (q = 0; q < tr->nprocs; q++)
		if (q != p && hang_sent_to(tr, q, p, e->tag))
			return 1;
	return 0;
}

/* Waits of a blocked receive of process i. */
static void hang_recv_waits(const ana_trace *tr, const ana_hang *h,
			    uint32_t i)
{
	ana_hang_proc *hp = &h->p[i];
	const ana_ev *e = ana_get(tr, hp->at);
	uint32_t q;

	if (e->peer < 0) {
		hp->join = ANA_HANG_ANY;
		hang_any_live(h, i, hp);
	} else if ((q = ana_proc_by_tid(tr, e->peer)) != ANA_NONE) {
		hang_add(hp, q);
	}
	if (e->op == PVT_OP_PVM_TRECV && e->aux >= 0)
		hp->join = ANA_HANG_TIMED;
	else if (hang_msg_ready(tr, i, e))
		hp->join = ANA_HANG_READY;
}

/* True if process q takes part in group op of process i's kind. */
static int hang_member(const ana_trace *tr, const hang_work *wk, uint32_t q,
		       uint16_t op)
{
	if (hang_op_mpi(op))
		return wk[q].mpi;
	return wk[q].joined || hang_count_op(&tr->procs[q], op) > 0;
}

/* Waits of a blocked group call of process i: the members that have not
 * reached its instance. */
static void hang_group_waits(const ana_trace *tr, const ana_hang *h,
			     uint32_t i, const hang_work *wk)
{
	ana_hang_proc *hp = &h->p[i];
	uint16_t op = ana_get(tr, hp->at)->op;
	uint32_t inst = hang_count_op(&tr->procs[i], op) - 1, q;

	for (q = 0; q < h->nprocs; q++)
		if (q != i && hang_member(tr, wk, q, op) &&
		    hang_count_op(&tr->procs[q], op) <= inst)
			hang_add(hp, q);
}

/* Orders request ids. */
static int hang_cmp_id(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* True if event e completes an MPI_Irecv (its RECV_END from a wait, a
 * test or a failed post: op MPI_Irecv and ref = request id; in layout 1
 * op was the wait's and aux the request id). */
static int hang_irecv_end(const ana_ev *e)
{
	if (e->kind != PVT_EV_RECV_END || !pvt_op_is_mpi(e->op))
		return 0;
	if (e->ref != 0)
		return e->op == PVT_OP_MPI_IRECV;
	return e->op == PVT_OP_MPI_IRECV || e->op == PVT_OP_MPI_WAIT ||
	       e->op == PVT_OP_MPI_WAITALL || e->op == PVT_OP_MPI_TEST;
}

/* The request id of an MPI_Irecv's START or completion. */
static int32_t hang_req_id(const ana_ev *e)
{
	return e->ref != 0 ? (int32_t)e->ref : e->aux;
}

/* The sorted request ids of p's completed MPI_Irecvs into *ids (caller
 * frees), *n set.  0 or ANA_ENOMEM. */
static int hang_done_ids(const ana_proc *p, int32_t **ids, uint32_t *n)
{
	uint32_t k;

	*n = 0;
	*ids = malloc((p->nev ? p->nev : 1) * sizeof **ids);
	if (*ids == NULL)
		return ANA_ENOMEM;
	for (k = 0; k < p->nev; k++)
		if (hang_irecv_end(&p->ev[k]))
			(*ids)[(*n)++] = hang_req_id(&p->ev[k]);
	qsort(*ids, *n, sizeof **ids, hang_cmp_id);
	return 0;
}

/* Adds the sender of pending receive e to hp's waits (once: mark) and
 * tells whether it is a wildcard. */
static int hang_add_sender(const ana_trace *tr, const ana_hang *h,
			   ana_hang_proc *hp, const ana_ev *e, char *mark)
{
	uint32_t q;

	if (e->peer < 0)
		return 1;
	q = ana_proc_by_tid(tr, e->peer);
	if (q != ANA_NONE && !mark[q] && h->p[q].state != ANA_HANG_ENDED) {
		mark[q] = 1;
		hang_add(hp, q);
	}
	return 0;
}

/* Waits of MPI_Wait/Waitall in process i: OR over the senders of its
 * pending receives (posted, not completed).  0 or ANA_ENOMEM. */
static int hang_mpiwait_waits(const ana_trace *tr, const ana_hang *h,
			      uint32_t i)
{
	const ana_proc *p = &tr->procs[i];
	ana_hang_proc *hp = &h->p[i];
	char *mark = calloc(h->nprocs ? h->nprocs : 1, 1);
	int32_t *ids = NULL;
	uint32_t k, nids;
	int any = 0, pending = 0, ready = 0;

	if (mark == NULL || hang_done_ids(p, &ids, &nids) != 0) {
		free(mark);
		return ANA_ENOMEM;
	}
	for (k = 0; k < p->nev; k++) {
		const ana_ev *e = &p->ev[k];

		int32_t id = hang_req_id(e);

		if (e->kind != PVT_EV_RECV_START || e->op != PVT_OP_MPI_IRECV ||
		    bsearch(&id, ids, nids, sizeof *ids, hang_cmp_id))
			continue;
		pending = 1;
		any |= hang_add_sender(tr, h, hp, e, mark);
		ready |= hang_msg_ready(tr, i, e);
	}
	free(ids);
	free(mark);
	if (!pending)
		return 0; /* waits for a send request: AND of nothing */
	hp->join = ready ? ANA_HANG_READY : ANA_HANG_ANY;
	if (any) {
		hp->nwaits = 0;
		hang_any_live(h, i, hp);
	}
	return 0;
}

/* True if blocked process i can progress given the progress flags. */
static int hang_can_progress(const ana_hang *h, const hang_work *wk,
			     uint32_t i)
{
	const ana_hang_proc *hp = &h->p[i];
	uint32_t j;

	if (hp->join == ANA_HANG_TIMED || hp->join == ANA_HANG_READY)
		return 1;
	for (j = 0; j < hp->nwaits; j++) {
		int ok = wk[hp->waits[j]].progress;

		if (hp->join == ANA_HANG_ANY && ok)
			return 1;
		if (hp->join == ANA_HANG_ALL && !ok)
			return 0;
	}
	return hp->join == ANA_HANG_ALL;
}

/* Least fixpoint of "can progress"; sets stuck. */
static void hang_progress(ana_hang *h, hang_work *wk)
{
	uint32_t i;
	int changed = 1;

	for (i = 0; i < h->nprocs; i++)
		wk[i].progress = h->p[i].state == ANA_HANG_RUNNING;
	while (changed) {
		changed = 0;
		for (i = 0; i < h->nprocs; i++)
			if (h->p[i].state == ANA_HANG_BLOCKED &&
			    !wk[i].progress && hang_can_progress(h, wk, i)) {
				wk[i].progress = 1;
				changed = 1;
			}
	}
	for (i = 0; i < h->nprocs; i++)
		h->p[i].stuck = h->p[i].state == ANA_HANG_BLOCKED &&
				!wk[i].progress;
}

/* True if stuck process i is held by the set in_d (see the top). */
static int hang_held(const ana_hang *h, const hang_work *wk, uint32_t i)
{
	const ana_hang_proc *hp = &h->p[i];
	uint32_t j;

	if (hp->join == ANA_HANG_ANY && hp->nwaits == 0)
		return 0;
	for (j = 0; j < hp->nwaits; j++) {
		int in = wk[hp->waits[j]].in_d;

		if (hp->join == ANA_HANG_ALL && in)
			return 1;
		if (hp->join == ANA_HANG_ANY && !in)
			return 0;
	}
	return hp->join == ANA_HANG_ANY;
}

/* Greatest fixpoint: the deadlocked set among the stuck processes. */
static void hang_deadlocked(ana_hang *h, hang_work *wk)
{
	uint32_t i;
	int changed = 1;

	for (i = 0; i < h->nprocs; i++)
		wk[i].in_d = h->p[i].stuck;
	while (changed) {
		changed = 0;
		for (i = 0; i < h->nprocs; i++)
			if (wk[i].in_d && !hang_held(h, wk, i)) {
				wk[i].in_d = 0;
				changed = 1;
			}
	}
	for (i = 0; i < h->nprocs; i++) {
		h->p[i].deadlocked = wk[i].in_d;
		h->deadlock |= wk[i].in_d;
	}
}

/* The first process of D that i waits for. */
static uint32_t hang_next_in_d(const ana_hang *h, uint32_t i)
{
	uint32_t j;

	for (j = 0; j < h->p[i].nwaits; j++)
		if (h->p[h->p[i].waits[j]].deadlocked)
			return h->p[i].waits[j];
	return ANA_NONE; /* not reached: members of D have an edge in D */
}

/* Walks edges inside D from its first member until a process repeats;
 * the loop is the cycle.  0 or ANA_ENOMEM. */
static int hang_cycle(ana_hang *h)
{
	uint32_t *pos, *walk, i, n = 0, start = ANA_NONE;

	for (i = 0; i < h->nprocs && start == ANA_NONE; i++)
		if (h->p[i].deadlocked)
			start = i;
	if (start == ANA_NONE)
		return 0;
	pos = malloc(h->nprocs * sizeof *pos);
	walk = malloc(h->nprocs * sizeof *walk);
	if (pos == NULL || walk == NULL) {
		free(pos);
		free(walk);
		return ANA_ENOMEM;
	}
	for (i = 0; i < h->nprocs; i++)
		pos[i] = ANA_NONE;
	for (i = start; i != ANA_NONE && pos[i] == ANA_NONE;
	     i = hang_next_in_d(h, i)) {
		pos[i] = n;
		walk[n++] = i;
	}
	if (i != ANA_NONE) {
		h->ncycle = n - pos[i];
		memmove(walk, walk + pos[i], h->ncycle * sizeof *walk);
		h->cycle = walk;
	} else {
		free(walk);
	}
	free(pos);
	return 0;
}

/* Fills every blocked process's waits.  0 or ANA_ENOMEM. */
static int hang_waits(const ana_trace *tr, ana_hang *h, hang_work *wk)
{
	uint32_t i;

	for (i = 0; i < h->nprocs; i++) {
		if (h->p[i].state != ANA_HANG_BLOCKED)
			continue;
		if (wk[i].call == HANG_RECV)
			hang_recv_waits(tr, h, i);
		else if (wk[i].call == HANG_GROUP)
			hang_group_waits(tr, h, i, wk);
		else if (hang_mpiwait_waits(tr, h, i) != 0)
			return ANA_ENOMEM;
	}
	return 0;
}

int ana_hang_compute(ana_trace *tr, ana_hang *h)
{
	hang_work *wk;
	uint32_t i, n;
	int rc = ANA_ENOMEM;

	memset(h, 0, sizeof *h);
	if (tr == NULL)
		return ANA_EARG;
	if (tr->stage < 1 && (rc = ana_match(tr)) != 0)
		return rc;
	rc = ANA_ENOMEM;
	n = tr->nprocs;
	h->nprocs = n;
	h->p = calloc(n ? n : 1, sizeof *h->p);
	wk = calloc(n ? n : 1, sizeof *wk);
	if (h->p == NULL || wk == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		h->p[i].waits = malloc((n ? n : 1) * sizeof *h->p[i].waits);
		if (h->p[i].waits == NULL)
			goto out;
		hang_state(tr, i, &h->p[i], &wk[i]);
		h->nblocked += h->p[i].state == ANA_HANG_BLOCKED;
		h->nended += h->p[i].state == ANA_HANG_ENDED;
	}
	if (hang_waits(tr, h, wk) != 0)
		goto out;
	hang_progress(h, wk);
	hang_deadlocked(h, wk);
	rc = hang_cycle(h);
out:
	free(wk);
	if (rc != 0)
		ana_hang_free(h);
	return rc;
}

void ana_hang_free(ana_hang *h)
{
	uint32_t i;

	if (h == NULL)
		return;
	for (i = 0; h->p != NULL && i < h->nprocs; i++)
		free(h->p[i].waits);
	free(h->p);
	free(h->cycle);
	memset(h, 0, sizeof *h);
}
