/*
 * ana_sim_best.c — the search for the mapping of processes to nodes with
 * the smallest predicted run time (ana_sim.h, paravt predict --best),
 * after section 2 of Klinov's paper on DVM programs: configurations are
 * taken in classes whose members differ in one dimension only (here: the
 * node of one process), a local minimum is found in each class, the best
 * of them is taken and the search goes on from there until no class has
 * a better member.  Like the paper's first heuristic, configurations
 * known beforehand to be no different are not simulated: moving a
 * process to an empty node that has the same speed, calls speed, cores
 * and groups (and no push speeds) as an empty node already tried in the
 * class.
 *
 * Every mapping is one full ana_sim_run; the traced machine is estimated
 * once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_sim.h"

typedef struct bst {
	ana_trace *tr;
	ana_sim_machine *m;    /* working copy: map[i] is process i's */
	ana_sim_opts o;        /* traced set */
	double min_eff;
	ana_sim_choice *best;  /* [nbest] */
	uint32_t nbest, nfound;
	ana_sim_search *s;
	uint32_t *cur;         /* [nprocs]: the mapping searched from */
	uint32_t *tried;       /* [nnode]: empty nodes tried in a class */
	char *err;
	size_t errlen;
} bst;


/* The working machine: m with one map line per process, in process
 * order, and cur.  0, ANA_EARG (with err) or ANA_ENOMEM. */
static int setup(bst *b, const ana_sim_machine *m)
{
	ana_trace *tr = b->tr;
	uint32_t p;
	int k;

	b->m = ana_sim_machine_dup(m);
	b->cur = calloc(tr->nprocs + 1, sizeof *b->cur);
	b->tried = calloc(m->nnode + 1, sizeof *b->tried);
	if (b->m == NULL || b->cur == NULL || b->tried == NULL)
		return ANA_ENOMEM;
	free(b->m->map);
	b->m->map = calloc(tr->nprocs + 1, sizeof *b->m->map);
	if (b->m->map == NULL)
		return ANA_ENOMEM;
	b->m->nmap = b->m->map_cap = tr->nprocs;
	for (p = 0; p < tr->nprocs; p++) {
		if ((k = ana_sim_proc_node(tr, m, p)) < 0) {
			snprintf(b->err, b->errlen, "process %s is not mapped "
				 "to a node (map %s NODE): the search starts "
				 "from the machine's mapping",
				 tr->procs[p].name, tr->procs[p].name);
			return ANA_EARG;
		}
		snprintf(b->m->map[p].proc, ANA_NAME_MAX, "%s",
			 tr->procs[p].name);
		b->m->map[p].node = b->cur[p] = (uint32_t)k;
	}
	return 0;
}

void ana_sim_choice_free(ana_sim_choice *c)
{
	if (c == NULL)
		return;
	free(c->node);
	c->node = NULL;
}

/* Keeps mapping map (time t, E eff, parallel efficiency pe) among the
 * best if it is one of them and not there yet.  0 or ANA_ENOMEM. */
static int keep(bst *b, const uint32_t *map, int64_t t, double eff,
		double pe)
{
	size_t sz = b->tr->nprocs * sizeof *map;
	uint32_t i, at;

	for (i = 0; i < b->nfound; i++)
		if (memcmp(b->best[i].node, map, sz) == 0)
			return 0;
	for (at = 0; at < b->nfound && b->best[at].time_ns <= t; at++)
		;
	if (at >= b->nbest)
		return 0;
	if (b->nfound == b->nbest)
		ana_sim_choice_free(&b->best[--b->nfound]);
	memmove(&b->best[at + 1], &b->best[at],
		(b->nfound - at) * sizeof *b->best);
	b->best[at].node = malloc(sz + 1);
	if (b->best[at].node == NULL) {
		memmove(&b->best[at], &b->best[at + 1],
			(b->nfound - at) * sizeof *b->best);
		return ANA_ENOMEM;
	}
	memcpy(b->best[at].node, map, sz);
	b->best[at].time_ns = t;
	b->best[at].eff = eff;
	b->best[at].par_eff = pe;
	b->nfound++;
	return 0;
}

/* Simulates the mapping cur; *t its run time, INT64_MAX when its E is
 * below the bound.  0 or a code. */
static int eval(bst *b, int64_t *t)
{
	ana_sim_result r;
	uint32_t p;
	int rc;

	for (p = 0; p < b->tr->nprocs; p++)
		b->m->map[p].node = b->cur[p];
	rc = ana_sim_run(b->tr, b->m, &b->o, &r, b->err, b->errlen);
	if (rc < 0)
		return rc;
	b->s->evaluated++;
	*t = r.pred.eff >= b->min_eff ? r.pred.span_ns : INT64_MAX;
	if (*t != INT64_MAX)
		rc = keep(b, b->cur, r.pred.span_ns, r.pred.eff,
			  r.pdvm.par_eff);
	ana_sim_result_free(&r);
	return rc;
}

/* Whether node a of m has a push speed to or from any node. */
static int has_push(const ana_sim_machine *m, uint32_t a)
{
	uint32_t k;

	for (k = 0; k < m->npush; k++)
		if (m->push[k].from == a || m->push[k].to == a)
			return 1;
	return 0;
}

/* Whether nodes a and b of m cannot differ to a process (both empty is
 * checked by the caller); a node with push speeds may. */
static int same_kind(const ana_sim_machine *m, uint32_t a, uint32_t b)
{
	const ana_sim_node *x = &m->node[a], *y = &m->node[b];
	uint32_t k;

	if (x->speed != y->speed || x->calls != y->calls ||
	    x->cores != y->cores || x->ngroups != y->ngroups ||
	    has_push(m, a) || has_push(m, b))
		return 0;
	for (k = 0; k < x->ngroups; k++)
		if (strcmp(x->group[k], y->group[k]) != 0)
			return 0;
	return 1;
}

/* Whether no process but p is on node a. */
static int empty_but(const bst *b, uint32_t a, uint32_t p)
{
	uint32_t q;

	for (q = 0; q < b->tr->nprocs; q++)
		if (q != p && b->cur[q] == a)
			return 0;
	return 1;
}

/* Whether moving p to a repeats an empty node tried in this class
 * (ntried of them in b->tried); else notes a if it is empty. */
static int pruned(bst *b, uint32_t p, uint32_t a, uint32_t *ntried)
{
	uint32_t j;

	if (!empty_but(b, a, p))
		return 0;
	for (j = 0; j < *ntried; j++)
		if (same_kind(b->m, b->tried[j], a))
			return 1;
	b->tried[(*ntried)++] = a;
	return 0;
}

/* The best member of the class of process p (its node changed): *bt and
 * *bn updated when one beats *bt.  0 or a code. */
static int best_in_class(bst *b, uint32_t p, int64_t *bt, uint32_t *bp,
			 uint32_t *bn)
{
	uint32_t a, home = b->cur[p], ntried = 0;
	int64_t t;
	int rc;

	for (a = 0; a < b->m->nnode; a++) {
		if (a == home)
			continue;
		if (pruned(b, p, a, &ntried)) {
			b->s->pruned++;
			continue;
		}
		b->cur[p] = a;
		rc = eval(b, &t);
		b->cur[p] = home;
		if (rc < 0)
			return rc;
		if (t < *bt) {
			*bt = t;
			*bp = p;
			*bn = a;
		}
	}
	return 0;
}

static int search(bst *b)
{
	int64_t t, bt;
	uint32_t p, bp, bn;
	int rc;

	if ((rc = eval(b, &t)) < 0)
		return rc;
	for (;;) {
		bt = t;
		bp = bn = ANA_NONE;
		for (p = 0; p < b->tr->nprocs; p++)
			if ((rc = best_in_class(b, p, &bt, &bp, &bn)) < 0)
				return rc;
		if (bp == ANA_NONE)
			return 0;
		b->cur[bp] = bn;
		t = bt;
		b->s->rounds++;
	}
}

int ana_sim_best(ana_trace *tr, const ana_sim_machine *m,
		 const ana_sim_opts *o, double min_eff, uint32_t nbest,
		 ana_sim_choice *best, uint32_t *nfound, ana_sim_search *s,
		 char *err, size_t errlen)
{
	ana_sim_machine *traced = NULL;
	bst b;
	uint32_t p;
	int rc;

	memset(&b, 0, sizeof b);
	memset(s, 0, sizeof *s);
	*nfound = 0;
	snprintf(err, errlen, "out of memory");
	if (nbest == 0 || m->nnode == 0 || m->nlv == 0) {
		snprintf(err, errlen, "nothing to search (%s)", nbest == 0 ?
			 "no mapping asked for" : "a machine without nodes "
			 "or levels");
		return ANA_EARG;
	}
	if (tr->stage < 2 && (rc = ana_analyze(tr, NULL)) < 0)
		return rc;
	if ((o == NULL || o->traced == NULL) &&
	    (rc = ana_sim_describe(tr, &traced)) < 0)
		return rc;
	b.tr = tr;
	b.o.pure = o != NULL && o->pure;
	b.o.traced = traced ? traced : o->traced;
	b.min_eff = min_eff;
	b.best = best;
	b.nbest = nbest;
	b.s = s;
	b.err = err;
	b.errlen = errlen;
	s->space = 1;
	for (p = 0; p < tr->nprocs; p++)
		s->space *= m->nnode;
	if ((rc = setup(&b, m)) == 0)
		rc = search(&b);
	*nfound = b.nfound;
	if (rc < 0)
		while (b.nfound > 0)
			ana_sim_choice_free(&best[--b.nfound]);
	if (rc < 0)
		*nfound = 0;
	ana_sim_machine_free(b.m);
	ana_sim_machine_free(traced);
	free(b.cur);
	free(b.tried);
	return rc;
}
