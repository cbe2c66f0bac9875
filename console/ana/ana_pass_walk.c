/*
 * ana_pass_walk.c — the traversal of ana_pass.h (ana_walk): every event
 * of the run visited once, a receive END after the START of its matched
 * send or multicast, a group END after the STARTs of the members it waits
 * for.  Per-process cursors and a ready list: a process blocked on
 * another is woken when that one advances, a blocked group END's check
 * resumes where it stopped, and a cycle (an inconsistent trace) is broken
 * by visiting one blocked event with forced = 1.  ana_walk_dep adds the
 * caller's own dependencies to these.
 */
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "pvt_event.h"

/* ---- traversal --------------------------------------------------------- */

typedef struct walk {
	const ana_ctx *c;
	uint32_t *cur;       /* [nprocs]: next event to visit */
	uint32_t *wnext;     /* [nprocs]: next in the waiter list, or NONE */
	uint32_t *whead;     /* [nprocs]: first process waiting on it */
	uint32_t *ready;     /* [nprocs]: stack of runnable processes */
	uint8_t *queued;     /* [nprocs]: in ready */
	uint32_t nready;
	ana_ref *resume;     /* [nprocs]: where a blocked group END's check
				of its members goes on */
	uint32_t blocked_on; /* set by deps_done */
	ana_dep_fn dep;      /* the caller's dependencies, or NULL */
	void *dep_arg;
} walk;

/* Whether event idx of process q was visited; if not, notes q. */
static bool visited(walk *w, ana_ref r)
{
	if (w->cur[r.proc] > r.idx)
		return true;
	w->blocked_on = r.proc;
	return false;
}

/* ana_member_fn for deps_done: stops at a member whose START was not
 * visited yet. */
static int member_dep(void *arg, ana_ref m)
{
	walk *w = arg;
	uint32_t s = w->c->start_of[w->c->base[m.proc] + m.idx];

	if (s == ANA_NONE || w->cur[m.proc] > s)
		return 0;
	w->blocked_on = m.proc;
	return 1;
}

/* Whether the dependencies of (p, i) were visited (else blocked_on says
 * which process is awaited). */
static bool deps_done(walk *w, uint32_t p, uint32_t i)
{
	const ana_ev *e = &w->c->tr->procs[p].ev[i];

	w->blocked_on = ANA_NONE;
	if (w->dep != NULL) {
		ana_ref r = w->dep(w->dep_arg, p, i);

		if (r.proc != ANA_NONE && !visited(w, r))
			return false;
	}
	if (e->kind == PVT_EV_RECV_END && e->match.proc != ANA_NONE) {
		ana_ref m = e->match; /* the send's START is what counts */
		uint32_t s = w->c->start_of[w->c->base[m.proc] + m.idx];

		if (s != ANA_NONE)
			m.idx = s;
		return visited(w, m);
	}
	if (e->match.proc != ANA_NONE && ana_group_mode(e) != ANA_G_NONE) {
		/* members already seen started stay started: go on from
		 * the one that blocked the last check */
		ana_group_waits(w->c, p, i, &w->resume[p], member_dep, w);
		return w->blocked_on == ANA_NONE;
	}
	return true;
}

static void make_ready(walk *w, uint32_t p)
{
	if (!w->queued[p]) {
		w->queued[p] = 1;
		w->ready[w->nready++] = p;
	}
}

/* Runs process p as far as it can; registers it as a waiter when blocked
 * and wakes the processes that wait on it. */
static void run_proc(walk *w, uint32_t p, ana_visit_fn visit, void *arg)
{
	const ana_proc *pr = &w->c->tr->procs[p];
	uint32_t q, start = w->cur[p];

	while (w->cur[p] < pr->nev) {
		if (!deps_done(w, p, w->cur[p])) {
			q = w->blocked_on;
			w->wnext[p] = w->whead[q];
			w->whead[q] = p;
			break;
		}
		visit(arg, p, w->cur[p], 0);
		w->cur[p]++;
	}
	if (w->cur[p] == start)
		return;
	while ((q = w->whead[p]) != ANA_NONE) {
		w->whead[p] = w->wnext[q];
		make_ready(w, q);
	}
}

/* Breaks a cycle: visits the awaited event of the first unfinished
 * process as if it had no dependency.  False when all are finished. */
static bool force_one(walk *w, ana_visit_fn visit, void *arg)
{
	const ana_trace *tr = w->c->tr;
	uint32_t p, q;

	for (p = 0; p < tr->nprocs; p++)
		if (w->cur[p] < tr->procs[p].nev)
			break;
	if (p == tr->nprocs)
		return false;
	for (q = 0; q < tr->nprocs; q++) { /* forget every waiter list */
		w->whead[q] = ANA_NONE;
		make_ready(w, q);
	}
	visit(arg, p, w->cur[p], 1);
	w->cur[p]++;
	w->resume[p] = (ana_ref){ANA_NONE, ANA_NONE};
	return true;
}

int ana_walk(const ana_ctx *c, ana_visit_fn visit, void *arg)
{
	return ana_walk_dep(c, NULL, NULL, visit, arg);
}

int ana_walk_dep(const ana_ctx *c, ana_dep_fn dep, void *dep_arg,
		 ana_visit_fn visit, void *arg)
{
	uint32_t np = c->tr->nprocs, p;
	walk w = {.c = c, .dep = dep, .dep_arg = dep_arg};
	int rc = ANA_ENOMEM;

	w.cur = calloc(np + 1, sizeof *w.cur);
	w.wnext = malloc((np + 1) * sizeof *w.wnext);
	w.whead = malloc((np + 1) * sizeof *w.whead);
	w.ready = malloc((np + 1) * sizeof *w.ready);
	w.queued = calloc(np + 1, 1);
	w.resume = malloc((np + 1) * sizeof *w.resume);
	if (!w.cur || !w.wnext || !w.whead || !w.ready || !w.queued ||
	    !w.resume)
		goto out_free;
	for (p = 0; p < np; p++) {
		w.resume[p] = (ana_ref){ANA_NONE, ANA_NONE};
		w.whead[p] = ANA_NONE;
		w.queued[p] = 1;
		w.ready[w.nready++] = np - 1 - p; /* process 0 first */
	}
	do {
		while (w.nready > 0) {
			p = w.ready[--w.nready];
			w.queued[p] = 0;
			run_proc(&w, p, visit, arg);
		}
	} while (force_one(&w, visit, arg));
	rc = 0;
out_free:
	free(w.cur);
	free(w.wnext);
	free(w.whead);
	free(w.ready);
	free(w.queued);
	free(w.resume);
	return rc;
}
