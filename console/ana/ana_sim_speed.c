/*
 * ana_sim_speed.c — a node's CPU speed measured with the program itself
 * (ana_sim.h: ana_sim_speeds): the computation a short sample run did on
 * that node, against the time the traced run took for the same
 * computation.
 *
 * A computation segment (ana_stats_segments, outside every call: MPI_Init
 * and MPI_Finalize take their time whatever the CPU) is known by where it starts
 * and ends: the source file, line, kind and op of its two events.  The
 * base trace gives every such key its mean length; each segment of the
 * sample whose key the base has counts its own length and the base's
 * mean, and a node's speed is the base's sum over the sample's: 0.5 when
 * the node took twice as long for the same code.  Segments the base does
 * not have are counted apart and play no part.  Lengths are compensated
 * (c_ns: paravt's own time removed) in both traces.
 *
 * The communicating calls' own time is measured the same way, apart (a
 * CPU emulated by qemu may run the library's integer code at another rate
 * than the program's floating point; a CPU quota throttles a call in the
 * middle of a message's protocol): the START-to-END intervals of calls
 * that do not wait for another process — sends, multicasts, and receives
 * whose message was sent before the receive began (not MPI_Wait* or group
 * calls, which wait; not process-state calls such as MPI_Init, which
 * the simulation scales as computation).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "ana_sim.h"
#include "ana_sim_int.h"
#include "ana_stats.h"
#include "pvt_event.h"

/* One segment, or (after seg_merge) one key of the base. */
typedef struct seg {
	char *key;
	int64_t ns;     /* length; merged: the sum */
	uint64_t n;     /* merged: how many */
} seg;

typedef struct segset {
	const ana_trace *tr;
	const ana_ctx *c;  /* for the calls: a receive's message */
	seg *v;
	uint32_t n, cap;
} segset;

/* "FILE:LINE:KIND:OP" of e, into buf. */
static void end_key(const ana_trace *tr, const ana_ev *e, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%s:%d:%u:%u", e->file ? ana_str(tr, e->file) : "",
		 e->line, e->kind, e->op);
}

static int seg_add(const ana_ev *from, const ana_ev *to, void *arg)
{
	segset *s = arg;
	char a[512], b[512];
	size_t la, lb;

	if (ana_sim_grow((void **)&s->v, s->n, &s->cap, sizeof *s->v) < 0)
		return ANA_ENOMEM;
	end_key(s->tr, from, a, sizeof a);
	end_key(s->tr, to, b, sizeof b);
	la = strlen(a);
	lb = strlen(b);
	if ((s->v[s->n].key = malloc(la + lb + 2)) == NULL)
		return ANA_ENOMEM;
	memcpy(s->v[s->n].key, a, la);
	s->v[s->n].key[la] = '>';
	memcpy(s->v[s->n].key + la + 1, b, lb + 1);
	s->v[s->n].ns = to->c_ns > from->c_ns ? to->c_ns - from->c_ns : 0;
	s->v[s->n++].n = 1;
	return 0;
}

/* True when END (p, i) closes a communicating call that did not wait
 * for another process (see the top). */
static int own_call(const segset *s, uint32_t p, uint32_t i)
{
	const ana_ev *e = &s->tr->procs[p].ev[i], *st, *ms;

	switch (e->kind) {
	case PVT_EV_SEND_END: case PVT_EV_MCAST_END:
		return 1;
	case PVT_EV_RECV_END:
		if (e->match.proc == ANA_NONE ||
		    (st = ana_ctx_start(s->c, p, i)) == NULL)
			return 0;
		ms = ana_ctx_start(s->c, e->match.proc, e->match.idx);
		return ms != NULL && ms->c_ns < st->c_ns;
	default:
		return 0;
	}
}

/* The own calls of process p of s->tr added to s.  0 or ANA_ENOMEM. */
static int calls_of(segset *s, uint32_t p)
{
	const ana_proc *pr = &s->tr->procs[p];
	const ana_ev *st;
	uint32_t i;
	int rc;

	for (i = 1; i < pr->nev; i++) {
		st = ana_ctx_start(s->c, p, i);
		if (st == NULL || st != &pr->ev[i - 1] || !own_call(s, p, i))
			continue;
		if ((rc = seg_add(st, &pr->ev[i], s)) != 0)
			return rc;
	}
	return 0;
}

static void segset_free(segset *s)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
}

/* The computation segments of process p of s->tr added to s.  0 or
 * ANA_ENOMEM. */
static int segs_of(segset *s, uint32_t p)
{
	return ana_stats_segments(&s->tr->procs[p], 1, seg_add, s);
}

static int seg_cmp(const void *a, const void *b)
{
	return strcmp(((const seg *)a)->key, ((const seg *)b)->key);
}

/* Sorts s and merges equal keys (sum of lengths, count). */
static void seg_merge(segset *s)
{
	uint32_t i, k = 0;

	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof *s->v, seg_cmp);
	for (i = 1; i < s->n; i++) {
		if (strcmp(s->v[i].key, s->v[k].key) == 0) {
			s->v[k].ns += s->v[i].ns;
			s->v[k].n += s->v[i].n;
			free(s->v[i].key);
		} else {
			s->v[++k] = s->v[i];
		}
	}
	s->n = k + 1;
}

/* The entry of node name in *out (added when new).  NULL: no memory. */
static ana_sim_speed *speed_of(ana_sim_speed **out, uint32_t *n,
			       uint32_t *cap, const char *name)
{
	uint32_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*out)[i].node, name) == 0)
			return &(*out)[i];
	if (ana_sim_grow((void **)out, *n, cap, sizeof **out) < 0)
		return NULL;
	memset(&(*out)[*n], 0, sizeof **out);
	snprintf((*out)[*n].node, ANA_NAME_MAX, "%s", name);
	return &(*out)[(*n)++];
}

typedef int (*collect_fn)(segset *s, uint32_t p);

/* Adds what collect finds of sample process p to rate r. */
static int rate_proc(const segset *base, segset *smp, collect_fn collect,
		     uint32_t p, ana_sim_rate *r, double *base_ns)
{
	uint32_t i;
	int rc;

	smp->n = 0;
	if ((rc = collect(smp, p)) != 0)
		return rc;
	for (i = 0; i < smp->n; i++) {
		const seg *b = bsearch(&smp->v[i], base->v, base->n,
				       sizeof *base->v, seg_cmp);

		if (b == NULL) {
			r->unmatched++;
			r->unmatched_ns += smp->v[i].ns;
		} else {
			r->matched++;
			r->sample_ns += smp->v[i].ns;
			*base_ns += (double)b->ns / (double)b->n;
		}
		free(smp->v[i].key);
	}
	smp->n = 0;
	return 0;
}

/* The base's keys and mean lengths for collect. */
static int base_keys(segset *b, collect_fn collect)
{
	uint32_t p;
	int rc = 0;

	for (p = 0; rc == 0 && p < b->tr->nprocs; p++)
		rc = collect(b, p);
	if (rc == 0)
		seg_merge(b);
	return rc;
}

/* Adds the sample process p to its node's entry. */
static int speed_proc(segset b[2], segset *smp, uint32_t p,
		      ana_sim_speed *sp, double bsum[2])
{
	int rc = rate_proc(&b[0], smp, segs_of, p, &sp->comp, &bsum[0]);

	if (rc == 0)
		rc = rate_proc(&b[1], smp, calls_of, p, &sp->calls, &bsum[1]);
	sp->procs++;
	return rc;
}

/* Each entry's rates from its sums; ANA_EARG with err when a node had no
 * computation in common with the base. */
static int speed_finish(ana_sim_speed *sp, uint32_t n, const double *bsum,
			char *err, size_t errlen)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		ana_sim_rate *c = &sp[i].comp, *k = &sp[i].calls;

		if (c->matched == 0 || c->sample_ns <= 0 || bsum[2 * i] <= 0) {
			snprintf(err, errlen, "no computation of the sample on "
				 "node %s is also in the traced run (%llu "
				 "segments, none from the same source lines: "
				 "another program, or no line information?)",
				 sp[i].node, (unsigned long long)c->unmatched);
			return ANA_EARG;
		}
		c->base_ns = (int64_t)bsum[2 * i];
		c->speed = bsum[2 * i] / (double)c->sample_ns;
		k->base_ns = (int64_t)bsum[2 * i + 1];
		k->speed = k->sample_ns > 0 && k->base_ns > 0 ?
			   bsum[2 * i + 1] / (double)k->sample_ns : 0;
	}
	return 0;
}

int ana_sim_speeds(ana_trace *base, ana_trace *sample, ana_sim_speed **out,
		   uint32_t *nout, char *err, size_t errlen)
{
	ana_ctx cb, cs;
	segset b[2], smp;
	double *bsum = NULL;
	uint32_t p, cap = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if ((base->stage < 2 && (rc = ana_analyze(base, NULL)) < 0) ||
	    (sample->stage < 2 && (rc = ana_analyze(sample, NULL)) < 0))
		return rc;
	if ((rc = ana_ctx_init(&cb, base, 0)) < 0)
		return rc;
	if ((rc = ana_ctx_init(&cs, sample, 0)) < 0) {
		ana_ctx_free(&cb);
		return rc;
	}
	b[0] = b[1] = (segset){base, &cb, NULL, 0, 0};
	smp = (segset){sample, &cs, NULL, 0, 0};
	rc = base_keys(&b[0], segs_of);
	if (rc == 0)
		rc = base_keys(&b[1], calls_of);
	if (rc == 0 && (bsum = calloc(2 * (size_t)sample->nnodes + 2,
				      sizeof *bsum)) == NULL)
		rc = ANA_ENOMEM;
	for (p = 0; rc == 0 && p < sample->nprocs; p++) {
		uint32_t nd = sample->procs[p].node;
		const char *name = nd < sample->nnodes ?
				   sample->nodes[nd].name : "?";
		ana_sim_speed *sp = speed_of(out, nout, &cap, name);

		rc = sp == NULL ? ANA_ENOMEM :
		     speed_proc(b, &smp, p, sp, &bsum[2 * (sp - *out)]);
	}
	if (rc == 0)
		rc = speed_finish(*out, *nout, bsum, err, errlen);
	segset_free(&b[0]);
	segset_free(&b[1]);
	free(smp.v);
	ana_ctx_free(&cb);
	ana_ctx_free(&cs);
	free(bsum);
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*nout = 0;
	}
	return rc;
}
