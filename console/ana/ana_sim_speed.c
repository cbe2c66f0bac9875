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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_sim.h"
#include "ana_sim_int.h"
#include "ana_stats.h"

/* One segment, or (after seg_merge) one key of the base. */
typedef struct seg {
	char *key;
	int64_t ns;     /* length; merged: the sum */
	uint64_t n;     /* merged: how many */
} seg;

typedef struct segset {
	const ana_trace *tr;
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

static void segset_free(segset *s)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].key);
	free(s->v);
}

/* The segments of process p of s->tr added to s.  0 or ANA_ENOMEM. */
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

/* Adds the sample process p's segments to its node's entry. */
static int speed_proc(const segset *base, const ana_trace *sample,
		      uint32_t p, ana_sim_speed *sp, double *base_ns)
{
	segset s = {sample, NULL, 0, 0};
	uint32_t i;
	int rc = segs_of(&s, p);

	for (i = 0; rc == 0 && i < s.n; i++) {
		const seg *b = bsearch(&s.v[i], base->v, base->n,
				       sizeof *base->v, seg_cmp);

		if (b == NULL) {
			sp->unmatched++;
			sp->unmatched_ns += s.v[i].ns;
			continue;
		}
		sp->matched++;
		sp->sample_ns += s.v[i].ns;
		*base_ns += (double)b->ns / (double)b->n;
	}
	segset_free(&s);
	sp->procs++;
	return rc;
}

int ana_sim_speeds(ana_trace *base, ana_trace *sample, ana_sim_speed **out,
		   uint32_t *nout, char *err, size_t errlen)
{
	segset b = {base, NULL, 0, 0};
	double *bsum = NULL;
	uint32_t p, i, cap = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if ((base->stage < 2 && (rc = ana_analyze(base, NULL)) < 0) ||
	    (sample->stage < 2 && (rc = ana_analyze(sample, NULL)) < 0))
		return rc;
	for (p = 0; rc == 0 && p < base->nprocs; p++)
		rc = segs_of(&b, p);
	if (rc == 0)
		seg_merge(&b);
	if (rc == 0 && (bsum = calloc(sample->nnodes + 1, sizeof *bsum)) ==
			       NULL)
		rc = ANA_ENOMEM;
	for (p = 0; rc == 0 && p < sample->nprocs; p++) {
		uint32_t nd = sample->procs[p].node;
		const char *name = nd < sample->nnodes ?
				   sample->nodes[nd].name : "?";
		ana_sim_speed *sp = speed_of(out, nout, &cap, name);

		rc = sp == NULL ? ANA_ENOMEM :
		     speed_proc(&b, sample, p, sp, &bsum[sp - *out]);
	}
	for (i = 0; rc == 0 && i < *nout; i++) {
		ana_sim_speed *sp = &(*out)[i];

		if (sp->matched == 0 || sp->sample_ns <= 0 || bsum[i] <= 0) {
			snprintf(err, errlen, "no computation of the sample on "
				 "node %s is also in the traced run (%llu "
				 "segments, none from the same source lines: "
				 "another program, or no line information?)",
				 sp->node, (unsigned long long)sp->unmatched);
			rc = ANA_EARG;
			break;
		}
		sp->base_ns = (int64_t)bsum[i];
		sp->speed = bsum[i] / (double)sp->sample_ns;
	}
	segset_free(&b);
	free(bsum);
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*nout = 0;
	}
	return rc;
}
