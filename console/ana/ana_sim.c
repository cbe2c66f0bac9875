/*
 * ana_sim.c — the simulation of ana_sim.h: the recorded run replayed on
 * another machine.
 *
 * The replay is a walk of the trace in dependency order (ana_walk: a
 * receive END after its message's send START, a group END after the
 * STARTs of the members it waits for) that gives every event its
 * predicted time.  The recorded (compensated) times are parked in o_ns
 * for the walk and the predicted ones written into c_ns as they are made,
 * so that the group instances (ana_ginst, which reads one field of the
 * members' STARTs) can be asked for both, and so that ana_stats computes
 * the predicted figures from c_ns with the code `info efficiency` uses;
 * both are put back at the end.
 *
 * Per event e of process p (rec = recorded time, pred = predicted):
 *   pred(e) = pred(prev) + (rec(e) - rec(prev)) * cpu[p]
 * except for a matched receive END, START s, message sent at send START
 * ms (whose d = rec(e) - rec(s), x_rec = rec(e) - rec(ms)):
 *   - if the message was sent after the receive began (it waited for all
 *     of it): own = min(d, r_p), base = x_rec;
 *   - else: own = d, base = min(x_rec, traced model + the smallest
 *     residual of the waited messages) (x_rec may include time the
 *     message lay in the buffer);
 *   x = base + target model - traced model (residual) or the target
 *   model (pure), plus the wait for a free link of the level;
 *   pred(e) = max(pred(s) + own * cpu[p], pred(ms) + x);
 * and alike for a group END with the latest START it waits for in place
 * of ms and a tree of ceil(log2 P) steps (twice for all-to-all) of the
 * highest level among the members as the model.  r_p is the shortest
 * receive of p that did not wait for all of its message (the cost of a
 * receive itself), as in ana_comp.c.
 *
 * A send through a level with a transport buffer (when the machine gives
 * one) spends part of its time pushing the message's part beyond it:
 * that part changes by its time at the target's time per byte less at
 * the traced one's, or goes at the push speed the machine gives the two
 * nodes when that is slower (a CPU quota or an emulated CPU at either
 * end; the receive of its message is late by as much); the rest of the
 * call goes at the node's calls speed (own_time).  A push speed is
 * measured (ana_sim_speed.c) over all of a send's time from when its
 * receiver was in a call to its END, the library's and the kernel's
 * work with the message beside the model's part: on a level whose time
 * per byte is the traced one's (what slows the push is then the nodes,
 * not the network) all of that time goes at the push speed when that
 * is slower (over 280 kept validation cases: mean error 3.6% to 3.5%,
 * 11 beyond 10% to 9, PVM under the quota had been predicted short by
 * up to 16%).  Such a send returns
 * only as its receiver reads, which PVM does inside any communicating
 * call: when the receiver was inside one as the send ended in the
 * recorded run, the send's time waiting for that call is not its own, it
 * ends no sooner than the call's predicted START plus the push it had
 * left then (the walk visits that START first: ana_walk_dep), and the
 * receive no sooner than the send's END plus what it took after it
 * (rdv_find).  MPI's rendezvous sends are not modelled so (their level
 * has no buffer).  Links are granted in the walk's order, which is near
 * but not exactly the order of the predicted times; processes start when
 * they started in the recorded run, later by their node's start.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "ana_sim.h"
#include "ana_sim_int.h"
#include "ana_stats.h"
#include "pvt_event.h"

typedef struct sim {
	ana_ctx c;
	const ana_sim_machine *m;  /* target */
	const ana_sim_machine *t;  /* traced */
	int pure;
	uint32_t *tnode;   /* [nprocs]: node in m */
	uint32_t *rnode;   /* [nprocs]: node in t */
	double *cpu;       /* [nprocs]: CPU factor */
	double *callf;     /* [nprocs]: the same for the calls' own time */
	double *pushf;     /* [nnode * nnode] of m: push speed, 0: none */
	uint32_t *rdv;     /* [c.n]: of a send END, the receiver's event it
			      waited for (rdv_find), or ANA_NONE */
	int64_t *own_recv; /* [nprocs]: r_p */
	int64_t *own_grp;  /* [nprocs]: same for group calls */
	double res_min;    /* smallest recorded - traced model, waited msgs */
	double **link;     /* [m->nlv]: free time of each link, or NULL */
	ana_ginst *gp, *gr; /* group instances: predicted, recorded STARTs */
	uint64_t forced, link_waits;
} sim;

static int64_t val_pred(const ana_ev *s)
{
	return s->c_ns;
}

static int64_t val_rec(const ana_ev *s)
{
	return s->o_ns;
}

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static inline int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* A message of b bytes on level lv of machine m. */
static double model(const ana_sim_machine *m, uint32_t lv, int64_t b)
{
	return m->lv[lv].lat_ns + (double)b * m->lv[lv].byte_ns;
}

/* The bytes of receive END e whose send is m. */
static int64_t msg_bytes(const ana_ev *e, const ana_ev *m)
{
	return e->bytes >= 0 ? e->bytes : m->bytes > 0 ? m->bytes : 0;
}

/* ---- set-up -------------------------------------------------------------- */


/* tnode, rnode and cpu of every process.  0 or ANA_EARG with err. */
static int place(sim *k, char *err, size_t errlen)
{
	const ana_trace *tr = k->c.tr;
	uint32_t p, *load = calloc(k->m->nnode + 1, sizeof *load);
	int a, b;

	if (load == NULL)
		return ANA_ENOMEM;
	for (p = 0; p < tr->nprocs; p++) {
		a = ana_sim_proc_node(tr, k->m, p);
		b = ana_sim_proc_node(tr, k->t, p);
		if (a < 0 || b < 0) {
			snprintf(err, errlen, "process %s is not mapped to a "
				 "node of the %s machine (map %s NODE)",
				 tr->procs[p].name, a < 0 ? "target" : "traced",
				 tr->procs[p].name);
			free(load);
			return ANA_EARG;
		}
		k->tnode[p] = (uint32_t)a;
		k->rnode[p] = (uint32_t)b;
		load[a]++;
	}
	for (p = 0; p < tr->nprocs; p++) {
		const ana_sim_node *d = &k->m->node[k->tnode[p]];
		double over = (double)load[k->tnode[p]] / d->cores;

		k->cpu[p] = (over > 1 ? over : 1) / d->speed;
		k->callf[p] = (over > 1 ? over : 1) /
			      (d->calls > 0 ? d->calls : d->speed);
	}
	for (p = 0; p < k->m->npush; p++) {
		const ana_sim_push *x = &k->m->push[p];

		k->pushf[x->from * k->m->nnode + x->to] = x->speed;
	}
	free(load);
	return 0;
}

/* The shortest receive of p that did not wait for all of its message
 * (own_recv), the shortest group call (own_grp), and res_min, from the
 * recorded times (c_ns, before the walk). */
static void own_costs(sim *k)
{
	const ana_trace *tr = k->c.tr;
	int64_t best = INT64_MAX;
	uint32_t p, i;

	k->res_min = INFINITY;
	for (p = 0; p < tr->nprocs; p++) {
		k->own_recv[p] = k->own_grp[p] = INT64_MAX;
		for (i = 0; i < tr->procs[p].nev; i++) {
			const ana_ev *e = &tr->procs[p].ev[i], *m, *ms;
			const ana_ev *s = ana_ctx_start(&k->c, p, i);
			int64_t d;

			if (s == NULL || e->match.proc == ANA_NONE)
				continue;
			d = max64(0, e->c_ns - s->c_ns);
			if (ana_group_mode(e) != ANA_G_NONE)
				k->own_grp[p] = min64(k->own_grp[p], d);
			if (e->kind != PVT_EV_RECV_END)
				continue;
			m = ana_get(tr, e->match);
			ms = ana_ctx_start(&k->c, e->match.proc, e->match.idx);
			ms = ms ? ms : m;
			if (ms->c_ns < s->c_ns) {
				if (k->rdv[k->c.base[e->match.proc] +
					   e->match.idx] != ANA_NONE)
					continue; /* it took the push */
				k->own_recv[p] = min64(k->own_recv[p], d);
				continue;
			}
			double xt = model(k->t, ana_sim_level_of(k->t,
					  k->rnode[p], k->rnode[e->match.proc]),
					  msg_bytes(e, m));
			double res = (double)(e->c_ns - ms->c_ns) - xt;

			k->res_min = res < k->res_min ? res : k->res_min;
		}
		if (k->own_grp[p] == INT64_MAX)
			k->own_grp[p] = 0;
	}
	for (p = 0; p < tr->nprocs; p++)
		best = min64(best, k->own_recv[p]);
	for (p = 0; p < tr->nprocs; p++)
		if (k->own_recv[p] == INT64_MAX)
			k->own_recv[p] = best == INT64_MAX ? 0 : best;
	if (!isfinite(k->res_min))
		k->res_min = 0;
}

/* ---- pushes and rendezvous ------------------------------------------------ */

/* What a send of b bytes spends pushing its message through a transport
 * buffer of buf bytes (< 0: none) on level l: the part beyond the buffer
 * at the level's time per byte. */
static double push_ns(const ana_sim_level *l, double buf, int64_t b)
{
	double rest = (double)b - buf;

	return buf >= 0 && rest > 0 ? rest * l->byte_ns : 0;
}

/* A send's push through a transport buffer (send_push). */
typedef struct spush {
	double x;      /* the recorded push: as much of the send's recorded
			  time as the traced level's model gives it */
	double model;  /* x changed by the target's model less the traced
			  one's, as messages are in the residual model */
	double pred;   /* the predicted push: model, or x at the push
			  speed of the pair of nodes when that is slower */
	double whole;  /* the push speed for the whole of the send's
			  recorded push, when the level's time per byte
			  is the traced one's: 0 otherwise */
} spush;

/* Whether two times per byte are the same rate: equal to the 9
 * significant digits a machine file keeps (ana_sim_format), so that the
 * traced machine written out and read back is still the traced one's. */
static int same_rate(double a, double b)
{
	return fabs(a - b) <= 1e-8 * fmax(fabs(a), fabs(b));
}

/* A send END e (of process p, recorded length d) whose message crosses a
 * level with a transport buffer spends part of its recorded time pushing
 * the message beyond the buffer (the traced level's time for that part,
 * the same buffer on both: it is the library's, not the network's) and
 * will spend *o's pred on the target.  0 when there is no such part. */
static int send_push(const sim *k, uint32_t p, const ana_ev *e, double d,
		     spush *o)
{
	const ana_trace *tr = k->c.tr;
	uint32_t q, lt, lr;
	double pr, pt, f;
	int64_t b;

	if ((e->kind != PVT_EV_SEND_END && e->kind != PVT_EV_MCAST_END) ||
	    e->match.proc == ANA_NONE)
		return 0;
	q = e->match.proc;
	b = msg_bytes(ana_get(tr, e->match), e);
	lt = ana_sim_level_of(k->m, k->tnode[p], k->tnode[q]);
	lr = ana_sim_level_of(k->t, k->rnode[p], k->rnode[q]);
	pt = push_ns(&k->m->lv[lt], k->m->lv[lt].buf_bytes, b);
	pr = push_ns(&k->t->lv[lr], k->m->lv[lt].buf_bytes, b);
	if (pt <= 0 && pr <= 0)
		return 0;
	o->x = d < pr ? d : pr;
	o->model = fmax(0, o->x + pt - pr);
	f = k->pushf[k->tnode[p] * k->m->nnode + k->tnode[q]];
	o->pred = f > 0 ? fmax(o->model, o->x / f) : o->model;
	o->whole = same_rate(k->m->lv[lt].byte_ns, k->t->lv[lr].byte_ns) ? f
									 : 0;
	return 1;
}

/* For every send END that waited for its receiver (a rendezvous), the
 * receiver's event it waited for, into k->rdv (recorded times: before
 * park).  Such a send's message crosses a level with a transport buffer
 * (send_push: the send returns when all but the buffer has crossed, so
 * only as its receiver reads), and when it ended the receiver was inside
 * a communicating call (PVM reads what comes in during any of them: the
 * receive of the message, or a send of its own), or in calls less than
 * the push apart, that began no later: the first of those; when the
 * receiver was in no call, the transport held the message, and the send
 * did not wait. */
static void rdv_find(sim *k)
{
	const ana_trace *tr = k->c.tr;
	uint32_t p, i;
	spush sp;

	for (p = 0; p < tr->nprocs; p++)
		for (i = 0; i < tr->procs[p].nev; i++) {
			const ana_ev *e = &tr->procs[p].ev[i];
			uint32_t *r = &k->rdv[k->c.base[p] + i];

			*r = ANA_NONE;
			if (i == 0 || e->kind != PVT_EV_SEND_END ||
			    e->match.proc == ANA_NONE ||
			    !send_push(k, p, e, (double)(e->c_ns - e[-1].c_ns),
				       &sp))
				continue;
			*r = ana_sim_call_open_at(&tr->procs[e->match.proc],
						  e->c_ns, llround(sp.x));
		}
}

/* The receiver's event that send END e of p waited for (rdv_find), or
 * NULL. */
static const ana_ev *rdv_start(const sim *k, uint32_t p, const ana_ev *e)
{
	const ana_proc *pr = &k->c.tr->procs[p];
	uint32_t r = k->rdv[k->c.base[p] + (uint32_t)(e - pr->ev)];

	return r == ANA_NONE ? NULL : &k->c.tr->procs[e->match.proc].ev[r];
}

/* The send END of matched receive END e when that send waited for its
 * receiver (rdv_start) and, in the recorded run, ended no later than e
 * (recorded times in o_ns: during the walk); else NULL. */
static const ana_ev *rdv_send(const sim *k, const ana_ev *e)
{
	const ana_ev *m = ana_get(k->c.tr, e->match);

	return rdv_start(k, e->match.proc, m) != NULL && e->o_ns >= m->o_ns ?
	       m : NULL;
}

/* ---- links --------------------------------------------------------------- */

/* The wait for a free link of level lv of a transfer of bt ns that may
 * start at t; books the link. */
static double link_wait(sim *k, uint32_t lv, double t, double bt)
{
	double *f = k->link[lv], start;
	uint32_t j, best = 0, n = k->m->lv[lv].links;

	if (f == NULL || n == 0)
		return 0;
	for (j = 1; j < n; j++)
		if (f[j] < f[best])
			best = j;
	start = f[best] > t ? f[best] : t;
	f[best] = start + bt;
	if (start > t)
		k->link_waits++;
	return start - t;
}

/* ---- the walk ------------------------------------------------------------ */

/* The predicted time of matched receive END (p, i), whose time would be
 * base without its message. */
static int64_t recv_time(sim *k, uint32_t p, uint32_t i, int64_t base)
{
	const ana_trace *tr = k->c.tr;
	const ana_ev *e = &tr->procs[p].ev[i], *m = ana_get(tr, e->match);
	const ana_ev *s = ana_ctx_start(&k->c, p, i);
	const ana_ev *ms = ana_ctx_start(&k->c, e->match.proc, e->match.idx);
	uint32_t q = e->match.proc;
	uint32_t lt = ana_sim_level_of(k->m, k->tnode[p], k->tnode[q]);
	uint32_t lr = ana_sim_level_of(k->t, k->rnode[p], k->rnode[q]);
	int64_t b = msg_bytes(e, m), d, own, xrec;
	double xt = model(k->t, lr, b), xm = model(k->m, lt, b), x, start;
	spush sp;

	ms = ms ? ms : m;
	xrec = e->o_ns - ms->o_ns;
	if (s == NULL) {
		own = 0;
		start = (double)base;
	} else {
		d = max64(0, e->o_ns - s->o_ns);
		own = ms->o_ns >= s->o_ns || rdv_start(k, q, m) ?
		      min64(d, k->own_recv[p]) : d;
		start = (double)s->c_ns;
	}
	if (k->pure) {
		x = xm;
	} else {
		x = s == NULL || ms->o_ns >= s->o_ns ? (double)xrec :
		    fmin((double)xrec, xt + k->res_min);
		x += xm - xt;
	}
	x = x > 0 ? x : 0;
	if (ms != m && send_push(k, q, m, (double)max64(0, m->o_ns - ms->o_ns),
				 &sp))
		x += sp.pred - sp.model; /* a push slower than the model */
	x += link_wait(k, lt, (double)ms->c_ns,
		       (double)b * k->m->lv[lt].byte_ns);
	return max64(llround(start + (double)own * k->callf[p]),
		     llround((double)ms->c_ns + x));
}

/* What group_time learns of the members a group END waits for. */
typedef struct gmembers {
	const sim *k;
	uint32_t p;
	uint32_t n;       /* members */
	uint32_t lt, lr;  /* highest level to them: target, traced */
} gmembers;

static int note_member(void *arg, ana_ref r)
{
	gmembers *g = arg;
	uint32_t a = ana_sim_level_of(g->k->m, g->k->tnode[g->p],
				      g->k->tnode[r.proc]);
	uint32_t b = ana_sim_level_of(g->k->t, g->k->rnode[g->p],
				      g->k->rnode[r.proc]);

	g->n++;
	g->lt = a > g->lt ? a : g->lt;
	g->lr = b > g->lr ? b : g->lr;
	return 0;
}

/* A group call of P members, b bytes, on level lv of m, mode. */
static double group_model(const ana_sim_machine *m, uint32_t lv, uint32_t P,
			  int64_t b, int mode)
{
	double steps = P > 1 ? ceil(log2((double)P)) : 1;

	return (mode == ANA_G_ALL ? 2 : 1) * steps * model(m, lv, b);
}

/* The predicted time of group END (p, i) (base: without waiting). */
static int64_t group_time(sim *k, uint32_t p, uint32_t i, int64_t base)
{
	const ana_ev *e = &k->c.tr->procs[p].ev[i];
	const ana_ev *s = ana_ctx_start(&k->c, p, i);
	int64_t vp, vr, mp, mr, d, own, b = e->bytes > 0 ? e->bytes : 0;
	bool wp = ana_ginst_waits(k->gp, p, i, &vp, &mp);
	bool wr = ana_ginst_waits(k->gr, p, i, &vr, &mr);
	int mode = ana_group_mode(e);
	gmembers g = {k, p, 0, 0, 0};
	double x;

	if (!wp || !wr || s == NULL)
		return base;
	ana_group_waits(&k->c, p, i, NULL, note_member, &g);
	g.n = mode == ANA_G_FROM_ROOT ? k->c.tr->nprocs : g.n + 1;
	d = max64(0, e->o_ns - s->o_ns);
	own = vr > mr ? min64(d, k->own_grp[p]) : d;
	if (k->pure)
		x = group_model(k->m, g.lt, g.n, b, mode);
	else
		x = (double)(e->o_ns - vr) + group_model(k->m, g.lt, g.n, b,
							 mode) -
		    group_model(k->t, g.lr, g.n, b, mode);
	x = x > 0 ? x : 0;
	return max64(llround((double)s->c_ns + (double)own * k->callf[p]),
		     llround((double)vp + x));
}

/* ana_dep_fn of the walk: a rendezvous send END comes after the
 * receiver's START it waited for, and the receive of its message ends
 * after the send's END when it did so in the recorded run (rdv_find). */
static ana_ref sim_dep(void *arg, uint32_t p, uint32_t i)
{
	const sim *k = arg;
	const ana_ev *e = &k->c.tr->procs[p].ev[i], *rs;
	ana_ref none = {ANA_NONE, ANA_NONE}, r;

	if (e->match.proc == ANA_NONE)
		return none;
	if (e->kind == PVT_EV_RECV_END)
		return rdv_send(k, e) != NULL ? e->match : none;
	if ((rs = rdv_start(k, p, e)) == NULL)
		return none;
	r.proc = e->match.proc;
	r.idx = (uint32_t)(rs - k->c.tr->procs[r.proc].ev);
	return r;
}

/* The predicted time of event i of p when nothing but its own time
 * counts: the previous event's plus the recorded interval at the node's
 * speed (its calls' speed inside a communicating call); a send's push
 * through the transport's buffer takes its predicted time (send_push).
 * A rendezvous send (rdv_find) does not count the time it waited for
 * its receiver as its own: it ends no sooner than the predicted START
 * of the receiver's call it waited for plus the push it had left when
 * the receiver came. */
static int64_t own_time(const sim *k, uint32_t p, uint32_t i)
{
	const ana_ev *ev = k->c.tr->procs[p].ev, *e = &ev[i], *rs;
	double f = ana_stats_opens_comm(&ev[i - 1]) ? k->callf[p] : k->cpu[p];
	double d = (double)max64(0, e->o_ns - ev[i - 1].o_ns);
	double wait = 0, busy, part, len;
	spush sp;
	int64_t t;

	if (!send_push(k, p, e, d, &sp))
		return ev[i - 1].c_ns + llround(d * f);
	if ((rs = rdv_start(k, p, e)) != NULL)
		wait = fmin(fmax(0, (double)(rs->o_ns - ev[i - 1].o_ns)),
			    d - sp.x);
	busy = (d - sp.x - wait) * f + sp.pred;
	if (rs == NULL)
		return ev[i - 1].c_ns + llround(busy);
	/* the push's recorded length and its prediction: the model's part,
	   or all of it at the push speed (sp.whole) when that is slower */
	part = sp.pred;
	len = sp.x;
	if (sp.whole > 0 && (d - wait) / sp.whole > busy) {
		busy = part = (d - wait) / sp.whole;
		len = d - wait;
	}
	if (len > 0)
		part *= fmin(1, (double)(e->o_ns - rs->o_ns) / len);
	t = ev[i - 1].c_ns + llround(busy);
	return max64(t, rs->c_ns + llround(part));
}

/* The earliest predicted END of receive e whose message's send waited
 * for its receiver (rdv_find) and ended before it: the send's predicted
 * END plus what the receive took after it in the recorded run; 0 for
 * other receives, and in the pure model (which has no recorded part). */
static int64_t rdv_end(const sim *k, const ana_ev *e)
{
	const ana_ev *m = k->pure ? NULL : rdv_send(k, e);

	return m != NULL ? m->c_ns + (e->o_ns - m->o_ns) : 0;
}

static void visit(void *arg, uint32_t p, uint32_t i, int forced)
{
	sim *k = arg;
	ana_ev *ev = k->c.tr->procs[p].ev, *e = &ev[i];
	int grp = ana_group_mode(e) != ANA_G_NONE;
	int64_t t, base;

	if (i == 0) { /* later on a node that starts processes slower */
		e->c_ns = e->o_ns + llround(k->m->node[k->tnode[p]].start_ns);
		if (grp) {
			ana_ginst_pass(k->gp, p, i);
			ana_ginst_pass(k->gr, p, i);
		}
		return;
	}
	t = base = own_time(k, p, i);
	if (forced || e->match.proc == ANA_NONE) {
		if (grp) {
			ana_ginst_pass(k->gp, p, i);
			ana_ginst_pass(k->gr, p, i);
		}
		k->forced += forced != 0;
	} else if (e->kind == PVT_EV_RECV_END) {
		t = recv_time(k, p, i, base);
		t = max64(t, rdv_end(k, e));
	} else if (grp) {
		t = group_time(k, p, i, base);
	}
	e->c_ns = max64(t, ev[i - 1].c_ns);
}

/* ---- the run ------------------------------------------------------------- */

static void sim_free(sim *k)
{
	uint32_t l;

	free(k->tnode);
	free(k->rnode);
	free(k->cpu);
	free(k->callf);
	free(k->pushf);
	free(k->rdv);
	free(k->own_recv);
	free(k->own_grp);
	if (k->link != NULL)
		for (l = 0; l < k->m->nlv; l++)
			free(k->link[l]);
	free(k->link);
	ana_ginst_free(k->gp);
	ana_ginst_free(k->gr);
}

/* The arrays of k; 0 or ANA_ENOMEM. */
static int sim_alloc(sim *k)
{
	uint32_t np = k->c.tr->nprocs + 1, l;

	k->tnode = calloc(np, sizeof *k->tnode);
	k->rnode = calloc(np, sizeof *k->rnode);
	k->cpu = calloc(np, sizeof *k->cpu);
	k->callf = calloc(np, sizeof *k->callf);
	k->pushf = calloc((size_t)k->m->nnode * k->m->nnode + 1,
			  sizeof *k->pushf);
	k->rdv = calloc((size_t)k->c.n + 1, sizeof *k->rdv);
	k->own_recv = calloc(np, sizeof *k->own_recv);
	k->own_grp = calloc(np, sizeof *k->own_grp);
	k->link = calloc(k->m->nlv + 1, sizeof *k->link);
	k->gp = ana_ginst_new(&k->c, val_pred);
	k->gr = ana_ginst_new(&k->c, val_rec);
	if (!k->tnode || !k->rnode || !k->cpu || !k->callf || !k->pushf ||
	    !k->rdv || !k->own_recv ||
	    !k->own_grp || !k->link || !k->gp || !k->gr)
		return ANA_ENOMEM;
	for (l = 0; l < k->m->nlv; l++) {
		if (k->m->lv[l].links == 0)
			continue;
		k->link[l] = calloc(k->m->lv[l].links, sizeof **k->link);
		if (k->link[l] == NULL)
			return ANA_ENOMEM;
		for (uint32_t j = 0; j < k->m->lv[l].links; j++)
			k->link[l][j] = -INFINITY;
	}
	return 0;
}

/* Moves c_ns to o_ns (saving o_ns into save) before the walk, or puts
 * both back after it (predicted times into pred when not NULL). */
static void park(ana_trace *tr, int64_t *save, int64_t *pred, int back)
{
	uint64_t n = 0;
	uint32_t p, i;

	for (p = 0; p < tr->nprocs; p++) {
		for (i = 0; i < tr->procs[p].nev; i++, n++) {
			ana_ev *e = &tr->procs[p].ev[i];

			if (!back) {
				save[n] = e->o_ns;
				e->o_ns = e->c_ns;
				continue;
			}
			if (pred != NULL)
				pred[n] = e->c_ns;
			e->c_ns = e->o_ns;
			e->o_ns = save[n];
		}
	}
}

/* The walk and the predicted figures, between park and unpark. */
static int simulate(sim *k, ana_sim_result *r, int64_t *save, char *err,
		    size_t errlen)
{
	ana_trace *tr = k->c.tr;
	int rc;

	if ((rc = sim_alloc(k)) < 0 || (rc = place(k, err, errlen)) < 0)
		return rc;
	rdv_find(k);
	own_costs(k);
	park(tr, save, NULL, 0);
	rc = ana_walk_dep(&k->c, sim_dep, k, visit, k);
	if (rc == 0)
		rc = ana_stats_compute(tr, ANA_VIEW_COMP, &r->pred);
	park(tr, save, r->s_ns, 1);
	r->forced = k->forced;
	r->link_waits = k->link_waits;
	memcpy(r->node, k->tnode, tr->nprocs * sizeof *r->node);
	return rc;
}

int ana_sim_run(ana_trace *tr, const ana_sim_machine *m,
		const ana_sim_opts *o, ana_sim_result *r, char *err,
		size_t errlen)
{
	ana_sim_machine *traced = NULL;
	int64_t *save = NULL;
	sim k;
	int rc;

	memset(r, 0, sizeof *r);
	memset(&k, 0, sizeof k);
	snprintf(err, errlen, "out of memory");
	if (m->nlv == 0 || m->nnode == 0) {
		snprintf(err, errlen, "the machine has no %s",
			 m->nlv ? "node" : "level");
		return ANA_EARG;
	}
	if (tr->stage < 2 && (rc = ana_analyze(tr, NULL)) < 0)
		return rc;
	if (o == NULL || o->traced == NULL) {
		if ((rc = ana_sim_describe(tr, &traced)) < 0)
			return rc;
	}
	k.m = m;
	k.t = traced ? traced : o->traced;
	k.pure = o != NULL && o->pure;
	if ((rc = ana_ctx_init(&k.c, tr, 0)) < 0)
		goto out_traced;
	r->events = k.c.n;
	save = malloc((k.c.n + 1) * sizeof *save);
	r->s_ns = malloc((k.c.n + 1) * sizeof *r->s_ns);
	r->node = malloc((tr->nprocs + 1) * sizeof *r->node);
	rc = save && r->s_ns && r->node ? simulate(&k, r, save, err, errlen) : ANA_ENOMEM;
	if (rc == 0)
		rc = ana_stats_compute(tr, ANA_VIEW_COMP, &r->rec);
	if (rc == 0)
		rc = ana_sim_dvm_compute(&r->pred, &r->pdvm);
	if (rc == 0)
		rc = ana_sim_dvm_compute(&r->rec, &r->rdvm);
	free(save);
	sim_free(&k);
	ana_ctx_free(&k.c);
out_traced:
	ana_sim_machine_free(traced);
	if (rc < 0)
		ana_sim_result_free(r);
	return rc;
}

void ana_sim_result_free(ana_sim_result *r)
{
	if (r == NULL)
		return;
	ana_stats_free(&r->pred);
	ana_stats_free(&r->rec);
	ana_sim_dvm_free(&r->pdvm);
	ana_sim_dvm_free(&r->rdvm);
	free(r->s_ns);
	free(r->node);
	r->s_ns = NULL;
	r->node = NULL;
}

void ana_sim_swap(ana_trace *tr, ana_sim_result *r)
{
	uint64_t n = 0;
	uint32_t p, i;
	int64_t t;

	for (p = 0; p < tr->nprocs; p++) {
		for (i = 0; i < tr->procs[p].nev; i++, n++) {
			t = tr->procs[p].ev[i].c_ns;
			tr->procs[p].ev[i].c_ns = r->s_ns[n];
			r->s_ns[n] = t;
		}
	}
}

/* ---- DVM characteristics ------------------------------------------------- */

int ana_sim_dvm_compute(const ana_stats *st, ana_sim_dvm *d)
{
	uint32_t i, n = st->ntasks;
	int64_t maxc = 0, sumc = 0;

	memset(d, 0, sizeof *d);
	d->idle_ns = calloc(n + 1, sizeof *d->idle_ns);
	d->imb_ns = calloc(n + 1, sizeof *d->imb_ns);
	d->lost_ns = calloc(n + 1, sizeof *d->lost_ns);
	if (!d->idle_ns || !d->imb_ns || !d->lost_ns) {
		ana_sim_dvm_free(d);
		return ANA_ENOMEM;
	}
	d->time_ns = st->span_ns;
	for (i = 0; i < n; i++) {
		maxc = max64(maxc, st->task[i].comp_ns);
		sumc += st->task[i].comp_ns;
	}
	for (i = 0; i < n; i++) {
		d->idle_ns[i] = max64(0, d->time_ns - st->task[i].total_ns);
		d->imb_ns[i] = maxc - st->task[i].comp_ns;
		d->lost_ns[i] = max64(0, d->time_ns - st->task[i].comp_ns);
		d->idle_total += d->idle_ns[i];
		d->imb_total += d->imb_ns[i];
		d->lost_total += d->lost_ns[i];
	}
	d->par_eff = n > 0 && d->time_ns > 0 ?
		(double)sumc / ((double)n * (double)d->time_ns) : 1.0;
	return 0;
}

void ana_sim_dvm_free(ana_sim_dvm *d)
{
	if (d == NULL)
		return;
	free(d->idle_ns);
	free(d->imb_ns);
	free(d->lost_ns);
	d->idle_ns = d->imb_ns = d->lost_ns = NULL;
}
