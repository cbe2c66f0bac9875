/*
 * ana_comp.c — compensation of the measurement overhead (ana.h, pass 3):
 * ev.c_ns of every event, the MOVED and DIVERGED flags.
 *
 * Local (ParJava 3.4): LT = t - Δ, Δ being the time the process spent
 * inside paravt up to the event (as recorded).
 *
 * Across messages (Malony and Shende, "Compensation of measurement
 * overhead in parallel performance profiling"): overhead removed in a
 * sender travels with its messages.  Each process carries a shift; an
 * event's compensated time is c = LT + shift (never before the previous
 * event of the process).  Events are visited in a send-before-receive
 * order (ana_walk); at a matched receive END, with rs' its START's c, cs'
 * the c of the matched send's (or multicast's) START (before it was
 * raised to the event before it: send_unraised) and l the minimum
 * latency:
 *
 *     own  = its measured duration d (LT END - LT START) if the message
 *            was there when the receive started (measured send END <=
 *            receive START), else min(d, r_p), r_p = the smallest duration
 *            of the receives of that process that did not wait (if none
 *            did: the smallest r_q of the other processes, 0 if no
 *            process has one — see own_recv_fallback);
 *     end' = max(rs' + own, cs' + lat)
 *
 * where lat is the message's own measured latency (receive END - send
 * START, less paravt's time inside the send call and the receiver's
 * extra time inside the receive) if the receive waited for it, at least
 * l, and l if it was there before the receive started (see recv_floor).
 * The receiver's extra time is its Δ growth from the receive's START to
 * its END beyond the smallest growth of any receive of the process (the
 * probes' fixed cost, which LT already takes out): the CPU wait the
 * daemon charged to paravt (paravtd's processor time on the process's
 * cores, added to Δ) or a probe that took longer
 * than usual; while a receive spins, a stall of its process delays the
 * moment it sees the message.
 *
 * so a receive that waited has its wait recomputed from the compensated
 * send, and none ends before its send plus l.  If end' differs from LT +
 * shift the receive is MOVED and the shift changes by the difference for
 * every later event of the process.  A group END is treated alike, with
 * cs' + l replaced by the latest compensated START of the members it
 * waits for (ana_group_waits: all, the root, or nobody) plus lg (the
 * smallest time from the last such START to a member's END in the run,
 * the group calls' own minimum latency), and "did not wait" meaning "was
 * the last to start".
 *
 * l is ana_opts.l_min_ns, or if negative estimated from the run: the
 * smallest latency of the matched pairs, at least 0: receive END - send
 * START less paravt's own time on the way (the smallest Δ growth of the
 * sender's send calls, its probes' cost: a send's own growth may hold a
 * stall after its message left; on one process all the growth between
 * them).
 *
 * Divergence (ParJava figure 2): for two consecutive wildcard receives of
 * a process asking for the same tag, r1 then r2, that got messages from
 * different processes, r1 is DIVERGED when r2's message was sent, in
 * compensated time, earlier than r1's by more than max(l, the clock error
 * bounds of both senders' nodes): without paravt r2's message would have
 * been there first and r1 would have received it.
 *
 * Guarantees: every matched receive END has c_ns >= its send START's
 * c_ns + l, and c_ns never decreases within a process.
 */
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "pvt_event.h"

typedef struct comp {
	ana_ctx c;          /* a copy of the caller's (not freed here) */
	int64_t l;          /* latency used */
	int64_t lg;         /* group calls' latency used */
	int64_t *shift;     /* [nprocs] */
	int64_t *own_recv;  /* [nprocs]: r_p, INT64_MAX none */
	int64_t *own_group; /* [nprocs]: same for group calls */
	int64_t *min_all;   /* [2 nprocs]: scratch */
	uint32_t *last_wild;/* [nprocs]: last matched wildcard receive END */
	int64_t *min_send;  /* [nprocs]: smallest Δ growth of a matched
			       send call, INT64_MAX none */
	int64_t *min_grow;  /* [nprocs]: smallest Δ growth of a receive,
			       INT64_MAX none */
	int64_t *moved_at;  /* [nprocs]: index of the last event that
			       changed the shift, -1 none */
	ana_ginst *gt, *gc; /* group instances: START t, START c */
} comp;

static int64_t val_t(const ana_ev *s)
{
	return s->t_ns;
}

static int64_t val_c(const ana_ev *s)
{
	return s->c_ns;
}

/* Local compensated time. */
static inline int64_t lt_of(const ana_ev *e)
{
	return e->t_ns - e->delta_ns;
}

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Δ growth from START s to END e. */
static inline int64_t grow_of(const ana_ev *s, const ana_ev *e)
{
	return max64(0, e->delta_ns - s->delta_ns);
}

static inline int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* ---- latency and own costs ------------------------------------------- */

/* The latency of the message received by END e of process p: from its
 * send's START ms (END m) to e, less paravt's own time on the way, which
 * the probes between them measured (as compensation takes it out): on
 * one process all the Δ growth from ms to e, else the send call's own
 * (the receiver's probes on the way are its END's, counted after it). */
static int64_t msg_latency(uint32_t p, const ana_ev *ms, const ana_ev *m,
			   const ana_ev *e)
{
	return e->t_ns - ms->t_ns -
	       (e->match.proc == p ? grow_of(ms, e) : grow_of(ms, m));
}

/* The compensated time of send START ms of process q before it was
 * raised to the time of the event before it (visit: c never
 * goes back; a local time a few ns before the last one is the clock's
 * resolution or Δ's rounding): LT + shift, while q's shift has not
 * changed since ms was visited; else its c.  A message's recomputed
 * arrival starts there, so that raising the send, which keeps the order
 * of q's own events, does not add its few ns to every recomputed wait
 * (a ping-pong traced on a clock of 10 ns steps got 3.5 ns a round trip
 * that way). */
static int64_t send_unraised(const comp *k, uint32_t q, const ana_ev *ms)
{
	if (k->moved_at[q] >= ms - k->c.tr->procs[q].ev)
		return ms->c_ns;
	return min64(ms->c_ns, lt_of(ms) + k->shift[q]);
}

/* The START of the send matched by receive END e (its END when it has
 * none). */
static const ana_ev *send_start(const comp *k, const ana_ev *e)
{
	const ana_ev *s = ana_ctx_start(&k->c, e->match.proc, e->match.idx);

	return s != NULL ? s : ana_get(k->c.tr, e->match);
}

/* Notes in *best the latency of the message received by END e of
 * process p (the estimate of the minimum latency).  Of the sender's
 * time inside its send call only its sends' smallest Δ growth is taken
 * out (the probes' own cost): more is a stall charged at the send's
 * END, which may have come after the message left (a sender that the
 * woken receiver put in the run queue), and would bring the estimate
 * to 0. */
static void note_latency(const comp *k, uint32_t p, const ana_ev *e,
			 int64_t *best)
{
	const ana_ev *ms = send_start(k, e);
	int64_t least = k->min_send[e->match.proc];

	if (e->match.proc == p || least == INT64_MAX)
		*best = min64(*best, msg_latency(p, ms,
						 ana_get(k->c.tr, e->match), e));
	else
		*best = min64(*best, e->t_ns - ms->t_ns - least);
}

/* min_send of every process: the smallest Δ growth of its send calls
 * that a receive of another process matched. */
static void min_sends(comp *k)
{
	const ana_trace *tr = k->c.tr;
	const ana_ev *e, *ms;
	int64_t *least;
	uint32_t p, i;

	for (p = 0; p < tr->nprocs; p++)
		k->min_send[p] = INT64_MAX;
	for (p = 0; p < tr->nprocs; p++)
		for (i = 0; i < tr->procs[p].nev; i++) {
			e = &tr->procs[p].ev[i];
			if (e->kind != PVT_EV_RECV_END ||
			    e->match.proc == ANA_NONE || e->match.proc == p ||
			    (ms = ana_ctx_start(&k->c, e->match.proc,
			                        e->match.idx)) == NULL)
				continue;
			least = &k->min_send[e->match.proc];
			*least = min64(*least,
			               grow_of(ms, ana_get(tr, e->match)));
		}
}

/* Whether receive END e, START s, waited in measured time: its message
 * was sent after the receive started. */
static bool waited(const comp *k, const ana_ev *e, const ana_ev *s)
{
	return ana_get(k->c.tr, e->match)->t_ns > s->t_ns;
}

/* Whether group END (p, i) waited in measured time (another member it
 * waits for started later); passes it in k->gt.  *gap (may be NULL): the
 * END's measured time less the latest START it waits for, INT64_MAX when
 * it waits for none. */
static bool group_waited_gap(comp *k, uint32_t p, uint32_t i, int64_t *gap)
{
	int64_t v, mine;
	bool w = ana_ginst_waits(k->gt, p, i, &v, &mine);

	if (gap != NULL)
		*gap = w ? k->c.tr->procs[p].ev[i].t_ns - v
			 : INT64_MAX;
	return w && v > mine;
}

static bool group_waited(comp *k, uint32_t p, uint32_t i)
{
	return group_waited_gap(k, p, i, NULL);
}

/* r_p of a process none of whose receives found its message already
 * there: the smallest r_q of the other processes (0 if none has one).
 * The smallest of its own durations would be a wait, not the cost of a
 * receive, and would keep every compensated wait of the process at least
 * that long (a ring's master, whose receives all wait, kept waits as long
 * as the heavy probes made them: 20% too long in 87-compensation). */
static void own_recv_fallback(comp *k)
{
	int64_t best = INT64_MAX;
	uint32_t p;

	for (p = 0; p < k->c.tr->nprocs; p++)
		best = min64(best, k->own_recv[p]);
	for (p = 0; p < k->c.tr->nprocs; p++)
		if (k->own_recv[p] == INT64_MAX)
			k->own_recv[p] = best == INT64_MAX ? 0 : best;
}

/* r_p of every process, for receives and for group calls; *lat and
 * *glat: the estimated minimum latencies of messages and of group calls
 * (>= 0). */
static void own_costs(comp *k, int64_t *lat, int64_t *glat)
{
	const ana_trace *tr = k->c.tr;
	int64_t *gall = k->min_all + tr->nprocs, d, best = INT64_MAX;
	int64_t gbest = INT64_MAX, gap;
	uint32_t p, i;

	min_sends(k);
	for (p = 0; p < tr->nprocs; p++) {
		k->own_recv[p] = k->own_group[p] = INT64_MAX;
		k->min_grow[p] = INT64_MAX;
		k->min_all[p] = gall[p] = INT64_MAX;
		for (i = 0; i < tr->procs[p].nev; i++) {
			const ana_ev *e = &tr->procs[p].ev[i], *s;
			int grp = ana_group_mode(e) != ANA_G_NONE;
			bool w = grp && group_waited_gap(k, p, i, &gap);
			int64_t *own, *all;

			if (grp)
				gbest = min64(gbest, gap);

			if (e->match.proc == ANA_NONE ||
			    (!grp && e->kind != PVT_EV_RECV_END))
				continue;
			if (!grp)
				note_latency(k, p, e, &best);
			if ((s = ana_ctx_start(&k->c, p, i)) == NULL)
				continue;
			own = grp ? &k->own_group[p] : &k->own_recv[p];
			all = grp ? &gall[p] : &k->min_all[p];
			d = max64(0, lt_of(e) - lt_of(s));
			*all = min64(*all, d);
			if (!grp)
				k->min_grow[p] = min64(k->min_grow[p],
						       grow_of(s, e));
			if (!(grp ? w : waited(k, e, s)))
				*own = min64(*own, d);
		}
		if (k->own_group[p] == INT64_MAX)
			k->own_group[p] = gall[p];
	}
	own_recv_fallback(k);
	ana_ginst_rewind(k->gt); /* the walk passes the group ENDs again */
	*lat = best == INT64_MAX || best < 0 ? 0 : best;
	*glat = gbest == INT64_MAX || gbest < 0 ? 0 : gbest;
}

/* ---- divergence -------------------------------------------------------- */

/* The clock error bound of the node of process p. */
static int64_t clock_err(const ana_trace *tr, uint32_t p)
{
	uint32_t n = tr->procs[p].node;

	if (n >= tr->nnodes || !tr->nodes[n].clock.valid)
		return 0;
	return tr->nodes[n].clock.err_ns;
}

/* Flags r1 (a wildcard receive END) if r2's message came first in
 * compensated time. */
static void check_pair(comp *k, uint32_t p, uint32_t r1, uint32_t r2)
{
	ana_trace *tr = k->c.tr;
	ana_ev *e1 = &tr->procs[p].ev[r1], *e2 = &tr->procs[p].ev[r2];
	const ana_ev *s1 = ana_ctx_start(&k->c, p, r1);
	const ana_ev *s2 = ana_ctx_start(&k->c, p, r2);
	const ana_ev *m1 = ana_get(tr, e1->match), *m2 = ana_get(tr, e2->match);
	int64_t margin;

	if (s1->tag != s2->tag || e1->match.proc == e2->match.proc)
		return;
	margin = max64(k->l, clock_err(tr, e1->match.proc) +
				     clock_err(tr, e2->match.proc));
	if (m2->c_ns + margin < m1->c_ns && !(e1->flags & ANA_F_DIVERGED)) {
		e1->flags |= ANA_F_DIVERGED;
		tr->sum.diverged++;
	}
}

/* At a matched wildcard receive END (p, i): compares it with the
 * previous one of the process (both messages' sends were visited). */
static void note_wildcard(comp *k, uint32_t p, uint32_t i)
{
	if (k->last_wild[p] != ANA_NONE)
		check_pair(k, p, k->last_wild[p], i);
	k->last_wild[p] = i;
}

/* ---- the walk ---------------------------------------------------------- */

/* The compensated END of a receive or group END e whose START is s (or
 * NULL), that waited (in measured time) or not, and whose earliest end
 * from the others is floor; c: its time before, own_min: r_p. */
static int64_t new_end(const ana_ev *e, const ana_ev *s, bool w,
		       int64_t floor, int64_t own_min, int64_t c)
{
	int64_t d, own;

	if (s == NULL)
		return max64(c, floor);
	d = max64(0, lt_of(e) - lt_of(s));
	own = w ? min64(d, own_min) : d;
	return max64(s->c_ns + own, floor);
}

/* The earliest compensated end of receive END e (START s, or NULL) of
 * process p: its message's compensated send START plus the latency the
 * message had, if the receive waited for it (the time from the send's
 * START to the receive's end less paravt's own time inside the send call
 * and p's extra time inside the receive, at least l), else plus l.  A message cannot be received before its send started,
 * but it may be before the send call returned.  l alone, the smallest
 * latency of the run, would shorten every recomputed wait by the typical
 * latency's excess over it (0.1 ms a message between tasks of one host:
 * 12% of a pipeline stage's waiting in 87-compensation). */
static int64_t recv_floor(const comp *k, uint32_t p, const ana_ev *s,
			  const ana_ev *e)
{
	const ana_ev *m = ana_get(k->c.tr, e->match);
	const ana_ev *ms = send_start(k, e);
	int64_t extra;

	if (s == NULL || m->t_ns <= s->t_ns)
		return ms->c_ns + k->l;
	extra = e->match.proc == p ? 0 /* in msg_latency's growth */
		: max64(0, grow_of(s, e) - k->min_grow[p]);
	return max64(ms->c_ns + k->l, send_unraised(k, e->match.proc, ms) +
	             max64(k->l, msg_latency(p, ms, m, e) - extra));
}

/* The compensated end of group END (p, i), START s, or c if it waits for
 * nobody; passes it in both instance sets. */
static int64_t group_end(comp *k, uint32_t p, uint32_t i, const ana_ev *s,
			 int64_t c)
{
	const ana_ev *e = &k->c.tr->procs[p].ev[i];
	bool w = group_waited(k, p, i);
	int64_t v, mine;

	if (!ana_ginst_waits(k->gc, p, i, &v, &mine))
		return c;
	return new_end(e, s, w, v + k->lg, k->own_group[p], c);
}

static void visit(void *arg, uint32_t p, uint32_t i, int forced)
{
	comp *k = arg;
	ana_ev *ev = k->c.tr->procs[p].ev, *e = &ev[i];
	const ana_ev *s = ana_ctx_start(&k->c, p, i);
	int64_t prev = i ? ev[i - 1].c_ns : INT64_MIN;
	int64_t c = max64(lt_of(e) + k->shift[p], prev), ne = c;
	int grp = ana_group_mode(e) != ANA_G_NONE;

	e->flags &= ~(ANA_F_MOVED | ANA_F_DIVERGED); /* of an earlier run */
	if (forced || e->match.proc == ANA_NONE) {
		if (grp) {
			ana_ginst_pass(k->gt, p, i);
			ana_ginst_pass(k->gc, p, i);
		}
		e->c_ns = c;
		return;
	}
	if (e->kind == PVT_EV_RECV_END) {
		ne = new_end(e, s, s != NULL && waited(k, e, s),
			     recv_floor(k, p, s, e), k->own_recv[p], c);
		if (e->flags & ANA_F_WILDCARD)
			note_wildcard(k, p, i);
	} else if (grp) {
		ne = group_end(k, p, i, s, c);
	}
	ne = max64(ne, prev);
	if (ne != c) {
		if (e->kind == PVT_EV_RECV_END) {
			e->flags |= ANA_F_MOVED;
			k->c.tr->sum.moved++;
		}
		k->shift[p] += ne - c;
		k->moved_at[p] = i;
	}
	e->c_ns = ne;
}

/* ---- the pass ---------------------------------------------------------- */

static void comp_free(comp *k)
{
	if (k == NULL)
		return;
	free(k->shift);
	free(k->own_recv);
	free(k->own_group);
	free(k->min_all);
	free(k->last_wild);
	free(k->min_grow);
	free(k->min_send);
	free(k->moved_at);
	ana_ginst_free(k->gt);
	ana_ginst_free(k->gc);
	free(k);
}

/* ana_pass.h: the costs and the latency, before the walk. */
int ana_comp_begin(ana_ctx *c, const ana_opts *o, void **state)
{
	ana_trace *tr = c->tr;
	uint32_t np = tr->nprocs + 1;
	comp *k = calloc(1, sizeof *k);

	*state = k;
	if (k == NULL)
		return ANA_ENOMEM;
	k->c = *c;
	tr->sum.moved = tr->sum.diverged = 0;
	k->shift = calloc(np, sizeof *k->shift);
	k->own_recv = malloc(np * sizeof *k->own_recv);
	k->own_group = malloc(np * sizeof *k->own_group);
	k->min_all = malloc(2 * np * sizeof *k->min_all);
	k->last_wild = malloc(np * sizeof *k->last_wild);
	k->min_grow = malloc(np * sizeof *k->min_grow);
	k->min_send = malloc(np * sizeof *k->min_send);
	k->moved_at = malloc(np * sizeof *k->moved_at);
	k->gt = ana_ginst_new(&k->c, val_t);
	k->gc = ana_ginst_new(&k->c, val_c);
	if (!k->shift || !k->own_recv || !k->own_group || !k->min_all ||
	    !k->last_wild || !k->min_grow || !k->min_send || !k->moved_at ||
	    !k->gt || !k->gc) {
		comp_free(k);
		*state = NULL;
		return ANA_ENOMEM;
	}
	own_costs(k, &k->l, &k->lg);
	if (o->l_min_ns >= 0)
		k->l = k->lg = o->l_min_ns;
	tr->sum.l_min_ns = k->l;
	tr->sum.l_group_ns = k->lg;
	memset(k->last_wild, 0xff, np * sizeof *k->last_wild); /* NONE */
	memset(k->moved_at, 0xff, np * sizeof *k->moved_at);   /* -1 */
	return 0;
}

void ana_comp_visit(void *state, uint32_t p, uint32_t i, int forced)
{
	visit(state, p, i, forced);
}

void ana_comp_end(void *state, int ok)
{
	comp *k = state;

	if (k != NULL && ok)
		k->c.tr->stage = 2;
	comp_free(k);
}

int ana_comp_run(ana_ctx *c, const ana_opts *o)
{
	void *k;
	int rc;

	if ((rc = ana_comp_begin(c, o, &k)) < 0)
		return rc;
	rc = ana_walk(c, ana_comp_visit, k);
	ana_comp_end(k, rc == 0);
	return rc;
}

int ana_compensate(ana_trace *tr, const ana_opts *o)
{
	ana_opts def;
	ana_ctx c;
	int rc;

	if (tr == NULL)
		return ANA_EARG;
	if (o == NULL) {
		ana_opts_default(&def);
		o = &def;
	}
	if (tr->stage < 1 && (rc = ana_match(tr)) < 0)
		return rc;
	rc = ana_ctx_init(&c, tr, 0);
	if (rc < 0)
		return rc;
	rc = ana_comp_run(&c, o);
	ana_ctx_free(&c);
	return rc;
}
