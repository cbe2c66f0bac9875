/*
 * ana_sim_speed.c — what a node is like, measured with the program itself
 * (ana_sim.h: ana_sim_speeds): its CPU speed (the computation a short
 * sample run did on that node, against the time the traced run took for
 * the same computation), its calls' speed, the push speed of sends
 * between two nodes, and how much later it starts processes.
 *
 * A computation segment (ana_stats_segments, outside every call: MPI_Init
 * and MPI_Finalize take their time whatever the CPU) is known by its
 * process (an MPI rank, or the name of a PVM task, which follows the
 * order the tasks started in) and where it starts and ends: the source
 * file, line, kind and op of its two events, since code shared by a
 * master and its workers may do different work in each.  The base trace
 * gives every such key its mean length, and every key without the
 * process too, for a sample whose processes are other; each segment of the
 * sample whose key the base has counts its own length and the base's
 * mean, and a node's speed is the base's sum over the sample's: 0.5 when
 * the node took twice as long for the same code.  Segments the base does
 * not have are counted apart and play no part.  The first segment of a
 * key that the sample has more than once is its warm-up (an emulated
 * CPU translates code the first time it runs it; caches are cold): it
 * does not count for the speed, which a short sample would bias (nor do
 * the base's own first ones count in its means, so that a trace is its
 * own sample at speed 1), but what it took beyond the base's first one
 * of the key at that speed is a one-time cost of each process on the
 * node (warmup_ns, part of its start: ana_sim.h; the replay keeps the
 * base's own warm-up).  Lengths are compensated
 * (c_ns: paravt's own time removed) in both traces.
 *
 * The communicating calls' own time is measured the same way, apart (a
 * CPU emulated by qemu may run the library's integer code at another rate
 * than the program's floating point; a CPU quota throttles a call in the
 * middle of a message's protocol): the START-to-END intervals of
 * receives whose message's send had ended before the receive began,
 * which wait for no other process and no network (not sends, whose time
 * may be the network's when the transport's buffers are small: the
 * machine's buffer; nor receives of messages still being sent; not MPI_Wait*
 * or group calls, which wait; not process-state calls such as MPI_Init,
 * which the simulation scales as computation).
 *
 * Sends push their message through PVM's transport at a speed of their
 * own (ana_sim_push), measured per pair of the sample's nodes the same
 * way: sends of 4 KiB or more to a process on another node that was
 * inside a communicating call (its receive, or a send of its own: PVM
 * reads during any) when the send ended, from when both were in their
 * calls to the send's END (what the simulation's rendezvous leaves to
 * the push: ana_sim.c); keyed also by their bytes.
 *
 * Several samples count together, as one longer run; with three or more,
 * one whose speed on a node is far off the others' median is left out
 * first (ana_sim_sample_odd: each sample measured alone).
 *
 * A node may also start processes later: an emulated CPU loads a program
 * slowly, a quota throttles its start (a PVM worker spawned under the
 * validation's quota began 13.6 ms later than in the base).  Each sample
 * process but the first to start is timed from that first start and
 * compared with the same process of the base.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "ana_sim.h"
#include "ana_sim_int.h"
#include "ana_stats.h"
#include "ana_walk.h"
#include "pvt_event.h"

/* Least evidence for a calls speed: so many receives and so much of the
 * base's time in them; with less, the calls go at the node's speed. */
#define SPEED_CALLS_MIN 10
#define SPEED_CALLS_MIN_NS 1000000
/* The same for a push speed: so many sends, so much of the base's time;
 * and the smallest message counted. */
#define SPEED_PUSH_MIN 5
#define SPEED_PUSH_MIN_NS 1000000
#define SPEED_PUSH_BYTES 4096

/* One segment, or (after seg_merge) one key of the base. */
typedef struct seg {
	char *key;
	int64_t ns;     /* length; merged: the sum */
	uint64_t n;     /* merged: how many */
	uint32_t ord;   /* the order it was found in */
	int64_t first;  /* merged with warm-up: the first one's length,
			   left out of ns and n; else -1 */
} seg;

typedef struct segset {
	const ana_trace *tr;
	const ana_ctx *c;  /* for the calls: a receive's message */
	seg *v;
	uint32_t n, cap;
	char id[ANA_NAME_MAX + 16]; /* the process's, for the keys */
	int pooled;        /* the base: also a key without the process */
	uint32_t to_node;  /* sends: only to this node, ANA_NONE: any */
} segset;

/* The identity of process p in keys: its MPI rank, or else the console's
 * name, which PVM tasks get in the order they start ("p2": the first
 * task spawned). */
static void proc_id(const ana_trace *tr, uint32_t p, char *buf, size_t n)
{
	const ana_proc *pr = &tr->procs[p];

	if (pr->have_tid && ana_proc_is_mpi(tr, p))
		snprintf(buf, n, "r%d", (int)pr->tid);
	else
		snprintf(buf, n, "%s", pr->name);
}

/* "FILE:LINE:KIND:OP" of e, into buf. */
static void end_key(const ana_trace *tr, const ana_ev *e, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%s:%d:%u:%u", e->file ? ana_str(tr, e->file) : "",
		 e->line, e->kind, e->op);
}

/* Adds a segment of length ns under "ID|ENDS".  0 or ANA_ENOMEM. */
static int seg_push(segset *s, const char *id, const char *ends, int64_t ns)
{
	size_t len = strlen(id) + strlen(ends) + 2;

	if (ana_sim_grow((void **)&s->v, s->n, &s->cap, sizeof *s->v) < 0 ||
	    (s->v[s->n].key = malloc(len)) == NULL)
		return ANA_ENOMEM;
	snprintf(s->v[s->n].key, len, "%s|%s", id, ends);
	s->v[s->n].ns = ns;
	s->v[s->n].ord = s->n;
	s->v[s->n].first = -1;
	s->v[s->n++].n = 1;
	return 0;
}

/* The interval from..to (ns long) of the current process: under its own
 * key and, in the base, under the key of any process ("*").  A send's
 * key holds its bytes too. */
static int seg_interval(segset *s, const ana_ev *from, const ana_ev *to,
			int64_t ns)
{
	char a[512], b[512], ends[1060];
	int rc;

	end_key(s->tr, from, a, sizeof a);
	end_key(s->tr, to, b, sizeof b);
	if (to->kind == PVT_EV_SEND_END)
		snprintf(ends, sizeof ends, "%s>%s#%lld", a, b,
			 (long long)to->bytes);
	else
		snprintf(ends, sizeof ends, "%s>%s", a, b);
	rc = seg_push(s, s->id, ends, ns);
	return rc == 0 && s->pooled ? seg_push(s, "*", ends, ns) : rc;
}

/* A computation segment (ana_seg_fn). */
static int seg_add(const ana_ev *from, const ana_ev *to, void *arg)
{
	return seg_interval(arg, from, to,
			    to->c_ns > from->c_ns ? to->c_ns - from->c_ns : 0);
}

/* The own time of the call that END (p, i) closes, or -1 when it is not
 * one measured: a receive whose message's send had ended before it
 * began (see the top). */
static int64_t own_call(const segset *s, uint32_t p, uint32_t i)
{
	const ana_proc *pr = &s->tr->procs[p];
	const ana_ev *e = &pr->ev[i], *st = ana_ctx_start(s->c, p, i);

	if (st == NULL || st != &pr->ev[i - 1] || e->match.proc == ANA_NONE ||
	    e->kind != PVT_EV_RECV_END ||
	    ana_get(s->tr, e->match)->c_ns >= st->c_ns)
		return -1;
	return e->c_ns > st->c_ns ? e->c_ns - st->c_ns : 0;
}

/* The push of the send that END (p, i) closes, or -1 when it is not one
 * measured: a send of SPEED_PUSH_BYTES or more to a process on another
 * node (s->to_node unless ANA_NONE) that was inside a communicating call
 * when the send ended (ana_sim_call_open_at, calls less than the send's
 * length apart taken as one: the send went as they read), from when both
 * were in their calls to the send's END (see the top). */
static int64_t push_call(const segset *s, uint32_t p, uint32_t i)
{
	const ana_proc *pr = &s->tr->procs[p];
	const ana_ev *e = &pr->ev[i], *st = ana_ctx_start(s->c, p, i);
	uint32_t q = e->match.proc, r;
	int64_t from;

	if (st == NULL || st != &pr->ev[i - 1] || q == ANA_NONE ||
	    e->kind != PVT_EV_SEND_END || e->bytes < SPEED_PUSH_BYTES ||
	    s->tr->procs[q].node == pr->node ||
	    (s->to_node != ANA_NONE && s->tr->procs[q].node != s->to_node) ||
	    (r = ana_sim_call_open_at(&s->tr->procs[q], e->c_ns,
				      e->c_ns - st->c_ns)) == ANA_NONE)
		return -1;
	from = st->c_ns > s->tr->procs[q].ev[r].c_ns ? st->c_ns :
	       s->tr->procs[q].ev[r].c_ns;
	return e->c_ns > from ? e->c_ns - from : 0;
}

typedef int64_t (*call_len_fn)(const segset *s, uint32_t p, uint32_t i);

/* The calls of process p of s->tr that len measures, added to s.  0 or
 * ANA_ENOMEM. */
static int intervals_of(segset *s, uint32_t p, call_len_fn len)
{
	const ana_proc *pr = &s->tr->procs[p];
	uint32_t i;
	int64_t d;
	int rc;

	proc_id(s->tr, p, s->id, sizeof s->id);
	for (i = 1; i < pr->nev; i++) {
		if ((d = len(s, p, i)) < 0)
			continue;
		if ((rc = seg_interval(s, &pr->ev[i - 1], &pr->ev[i], d)) != 0)
			return rc;
	}
	return 0;
}

/* The own calls of process p (own_call). */
static int calls_of(segset *s, uint32_t p)
{
	return intervals_of(s, p, own_call);
}

/* The sends of process p that measure a push (push_call). */
static int sends_of(segset *s, uint32_t p)
{
	return intervals_of(s, p, push_call);
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
	proc_id(s->tr, p, s->id, sizeof s->id);
	return ana_stats_segments(&s->tr->procs[p], 1, seg_add, s);
}

static int seg_cmp(const void *a, const void *b)
{
	return strcmp(((const seg *)a)->key, ((const seg *)b)->key);
}

/* By key, then in the order found. */
static int seg_cmp_ord(const void *a, const void *b)
{
	const seg *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : (x->ord > y->ord) - (x->ord < y->ord);
}

/* Whether segment i of the sorted s is the first of a key s has more
 * than once. */
static int seg_first_of_many(const segset *s, uint32_t i)
{
	return i + 1 < s->n && strcmp(s->v[i + 1].key, s->v[i].key) == 0 &&
	       (i == 0 || strcmp(s->v[i - 1].key, s->v[i].key) != 0);
}

/* Sorts s and merges equal keys (sum of lengths, count); with warm, the
 * first of a key s has more than once is left out, as the sample's
 * warm-up is (see the top). */
static void seg_merge(segset *s, int warm)
{
	uint32_t i, k = 0;
	int64_t first = -1;

	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof *s->v, seg_cmp_ord);
	for (i = 0; warm && i < s->n; i++)
		if (seg_first_of_many(s, i))
			s->v[i].n = 0; /* left out */
	for (i = 0; i < s->n; i++) {
		if (s->v[i].n == 0) {
			first = s->v[i].ns; /* the next one's group's */
			free(s->v[i].key);
		} else if (k > 0 && strcmp(s->v[i].key, s->v[k - 1].key) == 0) {
			s->v[k - 1].ns += s->v[i].ns;
			s->v[k - 1].n += s->v[i].n;
			free(s->v[i].key);
		} else {
			s->v[k] = s->v[i];
			s->v[k++].first = first;
			first = -1;
		}
	}
	s->n = k;
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

/* The base's key of sample segment v: the same process's, else any
 * process's (a sample with other processes); NULL when neither. */
static const seg *base_find(const segset *base, const seg *v)
{
	const char *bar = strchr(v->key, '|');
	const seg *b = bsearch(v, base->v, base->n, sizeof *base->v, seg_cmp);
	seg any;
	size_t len;

	if (b != NULL || bar == NULL)
		return b;
	len = strlen(bar) + 2;
	if ((any.key = malloc(len)) == NULL)
		return NULL;
	snprintf(any.key, len, "*%s", bar);
	b = bsearch(&any, base->v, base->n, sizeof *base->v, seg_cmp);
	free(any.key);
	return b;
}

/* Adds what collect finds of sample process p to rate r; with warm, the
 * first of a key the sample has more than once goes to r's warm-up
 * instead (see the top). */
static int rate_proc(const segset *base, segset *smp, collect_fn collect,
		     uint32_t p, ana_sim_rate *r, double *base_ns, int warm)
{
	uint32_t i;
	int rc;

	smp->n = 0;
	if ((rc = collect(smp, p)) != 0)
		return rc;
	qsort(smp->v, smp->n, sizeof *smp->v, seg_cmp_ord);
	for (i = 0; i < smp->n; i++) {
		const seg *b = base_find(base, &smp->v[i]);

		if (b == NULL) {
			r->unmatched++;
			r->unmatched_ns += smp->v[i].ns;
		} else if (warm && seg_first_of_many(smp, i)) {
			r->warmup++;
			r->warmup_ns += smp->v[i].ns;
			r->warmup_base_ns += b->first >= 0 ? (double)b->first :
					     (double)b->ns / (double)b->n;
		} else {
			r->matched++;
			r->sample_ns += smp->v[i].ns;
			*base_ns += (double)b->ns / (double)b->n;
		}
	}
	for (i = 0; i < smp->n; i++)
		free(smp->v[i].key);
	smp->n = 0;
	return 0;
}

/* The base's keys and mean lengths for collect (warm: without their
 * warm-up, seg_merge). */
static int base_keys(segset *b, collect_fn collect, int warm)
{
	uint32_t p;
	int rc = 0;

	for (p = 0; rc == 0 && p < b->tr->nprocs; p++)
		rc = collect(b, p);
	if (rc == 0)
		seg_merge(b, warm);
	return rc;
}

/* Adds the sample process p to its node's entry. */
static int speed_proc(segset b[2], segset *smp, uint32_t p,
		      ana_sim_speed *sp, double bsum[2])
{
	int rc = rate_proc(&b[0], smp, segs_of, p, &sp->comp, &bsum[0], 1);

	if (rc == 0)
		rc = rate_proc(&b[1], smp, calls_of, p, &sp->calls, &bsum[1],
			       0);
	sp->procs++;
	return rc;
}

/* The rate of r from its base sum: 0 (not measured) with fewer than
 * min intervals or less than min_ns of the base's time in them. */
static void rate_finish(ana_sim_rate *r, double bsum, uint64_t min,
			int64_t min_ns)
{
	r->base_ns = (int64_t)bsum;
	r->speed = r->sample_ns > 0 && r->matched >= min &&
		   r->base_ns >= min_ns ? bsum / (double)r->sample_ns : 0;
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
		if (sp[i].procs > 0)
			sp[i].warmup_ns = ((double)c->warmup_ns -
					   c->warmup_base_ns / c->speed) /
					  sp[i].procs;
		rate_finish(k, bsum[2 * i + 1], SPEED_CALLS_MIN,
			    SPEED_CALLS_MIN_NS);
	}
	return 0;
}

/* Adds the sends of smp's processes on entry i's node to entry k's node
 * (nd: the entries' nodes in smp, ANA_NONE where it has none) to
 * out[i].push[k], the base's time for them to psum[i * n + k], for every
 * pair of the n entries (base keys in b). */
static int push_add(const segset *b, segset *smp, ana_sim_speed *out,
		    uint32_t n, const uint32_t *nd, double *psum)
{
	const ana_trace *tr = smp->tr;
	uint32_t i, k, p;
	int rc = 0;

	for (i = 0; rc == 0 && i < n; i++)
		for (k = 0; rc == 0 && k < n; k++) {
			if (k == i || nd[i] == ANA_NONE || nd[k] == ANA_NONE)
				continue;
			smp->to_node = nd[k];
			for (p = 0; rc == 0 && p < tr->nprocs; p++)
				if (tr->procs[p].node == nd[i])
					rc = rate_proc(b, smp, sends_of, p,
						       &out[i].push[k],
						       &psum[i * n + k], 0);
		}
	smp->to_node = ANA_NONE;
	return rc;
}

/* Each pair's push rate from its base sum (push_add). */
static void push_finish(ana_sim_speed *out, uint32_t n, const double *psum)
{
	uint32_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++)
			if (k != i)
				rate_finish(&out[i].push[k], psum[i * n + k],
					    SPEED_PUSH_MIN, SPEED_PUSH_MIN_NS);
}

/* The sample's node of each of the n entries of out, into *nd (the
 * caller frees).  0 or ANA_ENOMEM. */
static int entry_nodes(const ana_trace *tr, const ana_sim_speed *out,
		       uint32_t n, uint32_t **nd)
{
	uint32_t i, j;

	if ((*nd = calloc(n + 1, sizeof **nd)) == NULL)
		return ANA_ENOMEM;
	for (i = 0; i < n; i++) {
		(*nd)[i] = ANA_NONE;
		for (j = 0; j < tr->nnodes; j++)
			if (strcmp(tr->nodes[j].name, out[i].node) == 0)
				(*nd)[i] = j;
	}
	return 0;
}

/* When process p of tr started (c_ns of its first event) after the
 * first of tr's processes did (t0); -1 for a process without events. */
static int64_t proc_start(const ana_trace *tr, uint32_t p, int64_t t0)
{
	return tr->procs[p].nev > 0 ? tr->procs[p].ev[0].c_ns - t0 : -1;
}

/* The first start of tr's processes (INT64_MAX when none has events). */
static int64_t first_start(const ana_trace *tr)
{
	int64_t t0 = INT64_MAX;
	uint32_t q;

	for (q = 0; q < tr->nprocs; q++)
		if (tr->procs[q].nev > 0 && tr->procs[q].ev[0].c_ns < t0)
			t0 = tr->procs[q].ev[0].c_ns;
	return t0;
}

/* The base's process known as id (proc_id), or ANA_NONE. */
static uint32_t base_proc(const ana_trace *base, const char *id)
{
	char bid[ANA_NAME_MAX + 16];
	uint32_t q;

	for (q = 0; q < base->nprocs; q++) {
		proc_id(base, q, bid, sizeof bid);
		if (strcmp(bid, id) == 0)
			return q;
	}
	return ANA_NONE;
}

/* Each entry's start_ns (see ana_sim.h): the sample's processes on its
 * node (nd: the entries' nodes), each against the same process of the
 * base, both from the first start of their trace. */
static void start_delays(const ana_trace *base, const ana_trace *smp,
			 ana_sim_speed *out, uint32_t n, const uint32_t *nd)
{
	char id[ANA_NAME_MAX + 16];
	int64_t s, b, s0 = first_start(smp), b0 = first_start(base);
	uint32_t p, q, i;

	for (p = 0; p < smp->nprocs; p++) {
		proc_id(smp, p, id, sizeof id);
		q = base_proc(base, id);
		s = proc_start(smp, p, s0);
		if (q == ANA_NONE || s <= 0 || (b = proc_start(base, q, b0)) < 0)
			continue; /* the first to start, or not in the base */
		for (i = 0; i < n && nd[i] != smp->procs[p].node; i++)
			;
		if (i == n)
			continue;
		out[i].start_ns += ((double)s - (double)b - out[i].start_ns) /
				   ++out[i].starts;
	}
}

void ana_sim_speeds_free(ana_sim_speed *sp, uint32_t n)
{
	uint32_t i;

	if (sp == NULL)
		return;
	for (i = 0; i < n; i++)
		free(sp[i].push);
	free(sp);
}

/* The entries of every node the samples ran on, into *out (*n of them,
 * capacity *cap), each with room for its push rates; and *bsum (2 a
 * node) and *psum (n * n), zeroed.  0 or ANA_ENOMEM. */
static int speed_entries(ana_trace *const *samples, uint32_t nsamples,
			 ana_sim_speed **out, uint32_t *n, double **bsum,
			 double **psum)
{
	uint32_t s, p, cap = 0;

	for (s = 0; s < nsamples; s++)
		for (p = 0; p < samples[s]->nprocs; p++) {
			uint32_t nd = samples[s]->procs[p].node;

			if (speed_of(out, n, &cap, nd < samples[s]->nnodes ?
				     samples[s]->nodes[nd].name : "?") == NULL)
				return ANA_ENOMEM;
		}
	for (p = 0; p < *n; p++)
		if (((*out)[p].push = calloc(*n, sizeof *(*out)[p].push)) ==
		    NULL)
			return ANA_ENOMEM;
	*bsum = calloc(2 * (size_t)*n + 2, sizeof **bsum);
	*psum = calloc((size_t)*n * *n + 1, sizeof **psum);
	return *bsum == NULL || *psum == NULL ? ANA_ENOMEM : 0;
}

/* Adds what sample shows of every node to the n entries of out (base
 * keys in b, sums in bsum and psum). */
static int speed_sample(const ana_trace *base, segset b[3],
			ana_trace *sample, ana_sim_speed *out, uint32_t n,
			double *bsum, double *psum)
{
	uint32_t p, i, *nd = NULL;
	segset smp;
	ana_ctx cs;
	int rc;

	if ((rc = ana_ctx_init(&cs, sample, 0)) < 0)
		return rc;
	memset(&smp, 0, sizeof smp);
	smp.tr = sample;
	smp.c = &cs;
	smp.to_node = ANA_NONE;
	rc = entry_nodes(sample, out, n, &nd);
	for (p = 0; rc == 0 && p < sample->nprocs; p++) {
		for (i = 0; i < n && nd[i] != sample->procs[p].node; i++)
			;
		if (i < n)
			rc = speed_proc(b, &smp, p, &out[i], &bsum[2 * i]);
	}
	if (rc == 0)
		rc = push_add(&b[2], &smp, out, n, nd, psum);
	if (rc == 0)
		start_delays(base, sample, out, n, nd);
	free(nd);
	free(smp.v);
	ana_ctx_free(&cs);
	return rc;
}

/* The base's keys, made once for any number of samples (base_open). */
typedef struct speed_base {
	ana_ctx cb;
	segset b[3]; /* computation, calls, sends */
} speed_base;

static void base_close(speed_base *sb)
{
	uint32_t p;

	for (p = 0; p < 3; p++)
		segset_free(&sb->b[p]);
	ana_ctx_free(&sb->cb);
}

/* Analyses base if it is not and makes its keys into *sb (base_close
 * frees them).  0 or a code. */
static int base_open(ana_trace *base, speed_base *sb)
{
	uint32_t p;
	int rc;

	if (base->stage < 2 && (rc = ana_analyze(base, NULL)) < 0)
		return rc;
	if ((rc = ana_ctx_init(&sb->cb, base, 0)) < 0)
		return rc;
	memset(sb->b, 0, sizeof sb->b);
	for (p = 0; p < 3; p++) {
		sb->b[p].tr = base;
		sb->b[p].c = &sb->cb;
		sb->b[p].pooled = 1;
		sb->b[p].to_node = ANA_NONE;
	}
	rc = base_keys(&sb->b[0], segs_of, 1);
	if (rc == 0)
		rc = base_keys(&sb->b[1], calls_of, 0);
	if (rc == 0)
		rc = base_keys(&sb->b[2], sends_of, 0);
	if (rc != 0)
		base_close(sb);
	return rc;
}

/* ana_sim_speeds against the keys of base in sb. */
static int speeds_from(const ana_trace *base, speed_base *sb,
		       ana_trace *const *samples, uint32_t nsamples,
		       ana_sim_speed **out, uint32_t *nout, char *err,
		       size_t errlen)
{
	double *bsum = NULL, *psum = NULL;
	uint32_t p;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	for (p = 0; p < nsamples; p++)
		if (samples[p]->stage < 2 &&
		    (rc = ana_analyze(samples[p], NULL)) < 0)
			return rc;
	rc = speed_entries(samples, nsamples, out, nout, &bsum, &psum);
	for (p = 0; rc == 0 && p < nsamples; p++)
		rc = speed_sample(base, sb->b, samples[p], *out, *nout, bsum,
				  psum);
	if (rc == 0)
		rc = speed_finish(*out, *nout, bsum, err, errlen);
	if (rc == 0)
		push_finish(*out, *nout, psum);
	free(bsum);
	free(psum);
	if (rc < 0) {
		ana_sim_speeds_free(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	return rc;
}

int ana_sim_speeds(ana_trace *base, ana_trace *const *samples,
		   uint32_t nsamples, ana_sim_speed **out, uint32_t *nout,
		   char *err, size_t errlen)
{
	speed_base sb;
	int rc;

	*out = NULL;
	*nout = 0;
	if ((rc = base_open(base, &sb)) < 0)
		return rc;
	rc = speeds_from(base, &sb, samples, nsamples, out, nout, err,
			 errlen);
	base_close(&sb);
	return rc;
}

/* ---- samples that disagree ---------------------------------------------- */

/* The median of the n values v (sorted in place). */
static double odd_median(double *v, uint32_t n)
{
	uint32_t i, j;
	double x;

	for (i = 1; i < n; i++) { /* insertion sort: a few samples */
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The computation speed of sample s alone on node name, or 0 when it
 * has none there (sp[s]: its entries, n[s] of them). */
static double odd_speed(ana_sim_speed *const *sp, const uint32_t *n,
			uint32_t s, const char *name)
{
	uint32_t i;

	for (i = 0; i < n[s]; i++)
		if (strcmp(sp[s][i].node, name) == 0)
			return sp[s][i].comp.speed;
	return 0;
}

/* Marks in odd the samples whose speed on node name is off the median
 * of the samples' (at least 3) by more than ANA_SIM_SAMPLE_SPREAD, each
 * where it is furthest off.  v: room for ns speeds. */
static void odd_node(ana_sim_speed *const *sp, const uint32_t *n,
		     uint32_t ns, const char *name, double *v,
		     ana_sim_odd *odd, double *worst)
{
	uint32_t s, k = 0;
	double med, x, off;

	for (s = 0; s < ns; s++)
		if ((x = odd_speed(sp, n, s, name)) > 0)
			v[k++] = x;
	if (k < 3 || (med = odd_median(v, k)) <= 0)
		return;
	for (s = 0; s < ns; s++) {
		if ((x = odd_speed(sp, n, s, name)) <= 0)
			continue;
		off = (x > med ? x - med : med - x) / med;
		if (off > ANA_SIM_SAMPLE_SPREAD && off > worst[s]) {
			worst[s] = off;
			odd[s].left_out = 1;
			snprintf(odd[s].node, sizeof odd[s].node, "%s", name);
			odd[s].speed = x;
			odd[s].median = med;
		}
	}
}

int ana_sim_sample_odd(ana_trace *base, ana_trace *const *samples,
		       uint32_t nsamples, ana_sim_odd *odd)
{
	ana_sim_speed **sp = calloc(nsamples + 1, sizeof *sp);
	uint32_t *n = calloc(nsamples + 1, sizeof *n), s, i, left = 0;
	double *v = calloc(nsamples + 1, sizeof *v);
	double *worst = calloc(nsamples + 1, sizeof *worst);
	char err[400];
	speed_base sb;
	int rc = 0;

	memset(odd, 0, nsamples * sizeof *odd);
	if (sp == NULL || n == NULL || v == NULL || worst == NULL)
		rc = ANA_ENOMEM;
	if (rc == 0 && nsamples >= 3 && (rc = base_open(base, &sb)) == 0) {
		/* the base's keys once for all */
		for (s = 0; rc == 0 && s < nsamples; s++)
			if (speeds_from(base, &sb, &samples[s], 1, &sp[s],
					&n[s], err, sizeof err) == ANA_ENOMEM)
				rc = ANA_ENOMEM; /* (ANA_EARG: not judged) */
		base_close(&sb);
	}
	for (s = 0; rc == 0 && nsamples >= 3 && s < nsamples; s++)
		for (i = 0; i < n[s]; i++)
			odd_node(sp, n, nsamples, sp[s][i].node, v, odd, worst);
	for (s = 0; rc == 0 && s < nsamples; s++)
		left += odd[s].left_out != 0;
	if (rc == 0 && left == nsamples) { /* nothing agrees: keep all */
		memset(odd, 0, nsamples * sizeof *odd);
		left = 0;
	}
	for (s = 0; sp != NULL && s < nsamples; s++)
		ana_sim_speeds_free(sp[s], n[s]);
	free(sp);
	free(n);
	free(v);
	free(worst);
	return rc < 0 ? rc : (int)left;
}
