/*
 * ana_order.c — the repaired measured order (ana.h, pass 4), the options
 * and the driver of all passes.
 *
 * Controlled logical clock (Becker, Rabenseifner, Wolf, "Timestamp
 * synchronization for event traces of large-scale message-passing
 * applications"): events are visited in a send-before-receive order
 * (ana_walk) and get
 *
 *     o = max(t, o(previous event of the process) + δ,
 *             o(START of the matched send or multicast) + l
 *                                                     for a receive END,
 *             max o(START of the members it waits for) + lg
 *                                                     for a group END)
 *
 * (a message may be received before its send call returns, never before
 * it started: Scalasca's and Score-P's condition).  A receive END
 * measured before its send's START is a violation.  l and lg are the
 * smallest latencies of messages and of group calls measured in the run
 * (ana_comp.c), so on one clock no event needs repair.  Backward
 * amortization: when a receive (or group) END jumps by j = o - t because
 * of another process, the events of its process since its previous
 * communication event a (ana_is_comm; the process's first event if none)
 * are moved forward linearly, o(e) = t(e) + j (t(e) - t(a)) / (t(r) -
 * t(a)), never back, never past r minus δ per event in between, so the
 * jump is spread instead of piling up just before r.  Only events no
 * other process's constraint refers to lie in that interval, so the
 * forward constraints stay true.  Events with o != t are REPAIRED.
 *
 * ana_analyze runs matching, then compensation and the logical clock in
 * one walk (the same send-before-receive order serves both), on one
 * context.  The global sort of a view is in ana_sort.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "pvt_event.h"

void ana_opts_default(ana_opts *o)
{
	o->l_min_ns = -1;
	o->delta_min_ns = 1;
	o->amortize = 1;
}

int64_t ana_time(const ana_ev *e, int view)
{
	switch (view) {
	case ANA_VIEW_ORDER:
		return e->o_ns;
	case ANA_VIEW_RAW:
		return e->t_ns;
	default:
		return e->c_ns;
	}
}

/* ---- controlled logical clock ---------------------------------------- */

typedef struct clc {
	ana_ctx c;           /* a copy of the caller's (not freed here) */
	int64_t l, lg, delta; /* latencies of messages, group calls; δ */
	int amortize;
	uint32_t *last_comm; /* [nprocs]: previous comm event, ANA_NONE */
	ana_ginst *go;       /* group instances: START o */
} clc;

static int64_t val_o(const ana_ev *s)
{
	return s->o_ns;
}

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Sets the repaired time o of event e and counts it. */
static void set_o(ana_trace *tr, ana_ev *e, int64_t o)
{
	if (e->o_ns != e->t_ns && (e->flags & ANA_F_REPAIRED))
		tr->sum.repairs--; /* counted before: count it anew */
	e->flags &= ~ANA_F_REPAIRED;
	e->o_ns = o;
	if (o == e->t_ns)
		return;
	e->flags |= ANA_F_REPAIRED;
	tr->sum.repairs++;
	if (o - e->t_ns > tr->sum.max_repair_ns)
		tr->sum.max_repair_ns = o - e->t_ns;
}

/* Spreads the jump of END r over the events after a (exclusive) of the
 * process's array ev. */
static void amortize(const clc *k, ana_ev *ev, uint32_t a, uint32_t r)
{
	int64_t ta = ev[a].t_ns, tr = ev[r].t_ns, j = ev[r].o_ns - tr;
	int64_t span = tr - ta, lo, hi, x;
	uint32_t e;

	if (span <= 0 || j <= 0 || r - a < 2)
		return;
	lo = ev[a].o_ns;
	for (e = a + 1; e < r; e++) {
		x = ev[e].t_ns - ta;
		x = x <= 0 ? 0 : x >= span ? j : (int64_t)((__int128)j * x / span);
		x += ev[e].t_ns;
		hi = ev[r].o_ns - k->delta * (int64_t)(r - e);
		if (x > hi)
			x = hi;
		x = max64(x, ev[e].o_ns);
		x = max64(x, lo + k->delta);
		if (x != ev[e].o_ns)
			set_o(k->c.tr, &ev[e], x);
		lo = x;
	}
}

static void clc_visit(void *arg, uint32_t p, uint32_t i, int forced)
{
	clc *k = arg;
	ana_trace *tr = k->c.tr;
	ana_ev *ev = tr->procs[p].ev, *e = &ev[i];
	int64_t o = e->t_ns, need = INT64_MIN, v, mine;

	if (i > 0)
		o = max64(o, ev[i - 1].o_ns + k->delta);
	if (ana_group_mode(e) != ANA_G_NONE) {
		if (forced)
			ana_ginst_pass(k->go, p, i);
		else if (ana_ginst_waits(k->go, p, i, &v, &mine))
			need = v + k->lg;
	} else if (!forced && e->kind == PVT_EV_RECV_END &&
		   e->match.proc != ANA_NONE) {
		const ana_ev *s = ana_ctx_start(&k->c, e->match.proc,
						e->match.idx);

		if (s == NULL)
			s = ana_get(tr, e->match);
		if (e->t_ns < s->t_ns)
			tr->sum.violations++;
		need = s->o_ns + k->l;
	}
	e->flags &= ~ANA_F_REPAIRED; /* of an earlier run */
	set_o(tr, e, max64(o, need));
	if (ana_is_comm(e)) {
		if (k->amortize && need > o)
			amortize(k, ev, k->last_comm[p] == ANA_NONE
					    ? 0 : k->last_comm[p], i);
		k->last_comm[p] = i;
	}
}

/* ana_pass.h: the logical clock's state, before the walk. */
int ana_order_begin(ana_ctx *c, const ana_opts *o, void **state)
{
	ana_trace *tr = c->tr;
	clc *k = calloc(1, sizeof *k);
	uint32_t p;

	*state = k;
	if (k == NULL)
		return ANA_ENOMEM;
	k->c = *c;
	k->l = o->l_min_ns >= 0 ? o->l_min_ns : tr->sum.l_min_ns;
	k->lg = o->l_min_ns >= 0 ? o->l_min_ns : tr->sum.l_group_ns;
	k->delta = o->delta_min_ns > 0 ? o->delta_min_ns : 0;
	k->amortize = o->amortize;
	k->last_comm = malloc((tr->nprocs + 1) * sizeof *k->last_comm);
	k->go = ana_ginst_new(&k->c, val_o);
	if (k->last_comm == NULL || k->go == NULL) {
		free(k->last_comm);
		ana_ginst_free(k->go);
		free(k);
		*state = NULL;
		return ANA_ENOMEM;
	}
	for (p = 0; p < tr->nprocs; p++)
		k->last_comm[p] = ANA_NONE;
	tr->sum.violations = tr->sum.repairs = 0;
	tr->sum.max_repair_ns = 0;
	return 0;
}

void ana_order_visit(void *state, uint32_t p, uint32_t i, int forced)
{
	clc_visit(state, p, i, forced);
}

void ana_order_end(void *state, int ok)
{
	clc *k = state;

	if (k == NULL)
		return;
	if (ok)
		k->c.tr->stage = 3;
	free(k->last_comm);
	ana_ginst_free(k->go);
	free(k);
}

int ana_order_run(ana_ctx *c, const ana_opts *o)
{
	void *k;
	int rc;

	if ((rc = ana_order_begin(c, o, &k)) < 0)
		return rc;
	rc = ana_walk(c, ana_order_visit, k);
	ana_order_end(k, rc == 0);
	return rc;
}

/* Both passes' states, visited in one walk (ana_analyze). */
typedef struct both {
	void *comp, *clc;
} both;

static void both_visit(void *arg, uint32_t p, uint32_t i, int forced)
{
	both *b = arg;

	ana_comp_visit(b->comp, p, i, forced);
	ana_order_visit(b->clc, p, i, forced);
}

/* Compensation and the logical clock in one walk (they need the same
 * order and nothing from each other but the latency). */
static int comp_and_order(ana_ctx *c, const ana_opts *o)
{
	both b = {NULL, NULL};
	int rc;

	if ((rc = ana_comp_begin(c, o, &b.comp)) == 0 &&
	    (rc = ana_order_begin(c, o, &b.clc)) == 0)
		rc = ana_walk(c, both_visit, &b);
	ana_comp_end(b.comp, rc == 0);
	ana_order_end(b.clc, rc == 0);
	return rc;
}

/* o, or the defaults in *def. */
static const ana_opts *opts_or(const ana_opts *o, ana_opts *def)
{
	if (o != NULL)
		return o;
	ana_opts_default(def);
	return def;
}

int ana_order(ana_trace *tr, const ana_opts *o)
{
	ana_opts def;
	ana_ctx c;
	int rc;

	if (tr == NULL)
		return ANA_EARG;
	o = opts_or(o, &def);
	if (tr->stage < 2 && (rc = ana_compensate(tr, o)) < 0)
		return rc;
	rc = ana_ctx_init(&c, tr, 0);
	if (rc < 0)
		return rc;
	rc = ana_order_run(&c, o);
	ana_ctx_free(&c);
	return rc;
}

/* All passes on one context. */
int ana_analyze(ana_trace *tr, const ana_opts *o)
{
	ana_opts def;
	ana_ctx c;
	int rc;

	if (tr == NULL)
		return ANA_EARG;
	o = opts_or(o, &def);
	ana_clear_results(tr);
	rc = ana_ctx_init(&c, tr, 1);
	if (rc < 0)
		return rc;
	if ((rc = ana_match_run(&c)) == 0)
		rc = comp_and_order(&c, o);
	ana_ctx_free(&c);
	return rc;
}
