/*
 * ana_pass_group.c — whom a group call waits for (ana_pass.h):
 * ana_group_waits goes round the ring of a group instance that ana_match
 * made and names the members an END waits for under its mode (all, the
 * root, or nobody; on an MPI intercommunicator a member waits for the
 * other group only), and ana_ginst works out the value of the members'
 * STARTs once per instance instead of once per member.
 */
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "pvt_event.h"

/* ---- group waits ------------------------------------------------------- */

/* The group of an intercommunicator an MPI collective's member is in (its
 * tag, pvt_event.h: 0 or 1), or -1 (an intracommunicator, PVM, or a
 * trace that does not say). */
static int32_t inter_side(const ana_ev *m)
{
	return m->op >= PVT_OP_MPI_INIT && m->tag >= 0 ? (m->tag & 1) : -1;
}

/* Whether group END e is an MPI collective with nothing to wait for.
 * MPI 3.1 section 5.1: "the completion of a collective operation ... does
 * not indicate that other processes in the group have completed or even
 * started the operation (unless otherwise implied by the description of
 * the operation)": only the data a member receives orders it after the
 * members that send it (and a barrier, section 5.3, orders everyone).
 * So these wait for nobody:
 * - a member that gets no data: bytes 0 of a broadcast or scatter; peer
 *   PVT_PEER_NULL of an all-to-all (the wrappers' mark of a member whose
 *   receive counts are all 0);
 * - MPI_Ibarrier on an intercommunicator: section 5.3 says a member
 *   returns "only after all members of the other group have entered",
 *   but Open MPI 4.1's (libnbc) completes a member's request once the
 *   other group's root has entered (MPICH's test nbicbarrier: a member's
 *   MPI_Wait returned 5 us before a member of the other group called
 *   MPI_Ibarrier, on one clock); the model keeps to what holds. */
static bool gets_nothing(int mode, const ana_ev *e)
{
	if (e->op < PVT_OP_MPI_INIT)
		return false;
	if (e->op == PVT_OP_MPI_IBARRIER && inter_side(e) >= 0)
		return true;
	if (mode == ANA_G_ALL)
		return e->peer == PVT_PEER_NULL;
	return mode == ANA_G_FROM_ROOT && e->bytes == 0;
}

/* Whether group END e of process p (mode, its root's process or
 * ANA_NONE) waits for nobody: a non-root of reduce or gather, the root of
 * a broadcast or scatter, a rooted call whose root is unknown, a
 * member of an intercommunicator's root group that is not the root
 * (peer MPI_PROC_NULL: it takes no part), or a member that gets no
 * data (gets_nothing). */
static bool waits_for_nobody(int mode, uint32_t root, uint32_t p,
			     const ana_ev *e)
{
	if (mode == ANA_G_NONE || gets_nothing(mode, e))
		return true;
	if (mode == ANA_G_ALL)
		return false;
	if (e->peer == PVT_PEER_NULL || root == ANA_NONE)
		return true;
	return (mode == ANA_G_TO_ROOT) != (root == p);
}

/* Whether the member m of a group instance of that mode is one that END
 * e waits for when it waits for the others:
 * - the MPI_PROC_NULL members of an intercommunicator's root group take
 *   no part;
 * - on an intercommunicator, a member waits for the other group only
 *   (MPI 3.1 section 5.2.2: "the data movement ... is from one group to
 *   the other"; section 5.3: a barrier returns in one group "only after
 *   all members of the other group have entered the call");
 * - an MPI member that contributes no data (bytes 0: a zero count or
 *   zero-size types, MPI_Gather(v) and MPI_Allgather(v) with count 0, an
 *   MPI_Alltoallw that sends nothing) orders nobody after it (MPI 3.1
 *   section 5.1, see gets_nothing).  Barriers record bytes -1. */
static bool waited_for(int mode, const ana_ev *e, const ana_ev *m)
{
	int32_t se = inter_side(e), sm = inter_side(m);

	if (mode != ANA_G_ALL && m->peer == PVT_PEER_NULL)
		return false;
	if (se >= 0 && sm >= 0 && se == sm)
		return false;
	return !(m->op >= PVT_OP_MPI_INIT && mode != ANA_G_FROM_ROOT &&
		 m->bytes == 0);
}

uint32_t ana_group_waits(const ana_ctx *c, uint32_t p, uint32_t i,
			 ana_ref *resume, ana_member_fn fn, void *arg)
{
	const ana_ev *e = &c->tr->procs[p].ev[i];
	int mode = ana_group_mode(e);
	uint32_t root, n = 0;
	ana_ref r;

	if (mode == ANA_G_NONE || e->match.proc == ANA_NONE)
		return 0;
	root = mode == ANA_G_ALL ? ANA_NONE : ana_ctx_root(c, e);
	if (waits_for_nobody(mode, root, p, e))
		return 0;
	r = resume && resume->proc != ANA_NONE ? *resume : e->match;
	for (; r.proc != p || r.idx != i;
	     r = c->tr->procs[r.proc].ev[r.idx].match) {
		if (r.proc == ANA_NONE)
			break; /* a broken ring: stop */
		if (mode == ANA_G_FROM_ROOT && r.proc != root)
			continue;
		if (!waited_for(mode, e, &c->tr->procs[r.proc].ev[r.idx]))
			continue;
		n++;
		if (fn(arg, r)) {
			if (resume)
				*resume = r;
			return n;
		}
	}
	if (resume)
		resume->proc = ANA_NONE;
	return n;
}
/* ---- group instances --------------------------------------------------- */

/* What one instance's members' STARTs hold. */
typedef struct gagg {
	int64_t max1[2], max2[2]; /* largest and second largest value of the
			     members others wait for, by group (an
			     intracommunicator's all in [0]) */
	uint32_t who1[2];    /* process of max1 */
	int64_t root_v;      /* the root's START's value, INT64_MIN */
	int done;            /* worked out */
} gagg;

/* The instances of one group key (ana_group_key). */
typedef struct gkey {
	uint32_t *k;         /* [nprocs]: instances each process passed */
	gagg *agg;           /* by instance */
	uint32_t cap;        /* slots in agg */
} gkey;

struct ana_ginst {
	const ana_ctx *c;
	ana_val_fn val;
	ana_kmap map;        /* group key -> index in keys */
	gkey *keys;
	uint32_t nkeys, kcap;
};

ana_ginst *ana_ginst_new(const ana_ctx *c, ana_val_fn val)
{
	ana_ginst *g = calloc(1, sizeof *g);

	if (g == NULL)
		return NULL;
	g->c = c;
	g->val = val;
	return g;
}

void ana_ginst_free(ana_ginst *g)
{
	uint32_t j;

	if (g == NULL)
		return;
	for (j = 0; j < g->nkeys; j++) {
		free(g->keys[j].k);
		free(g->keys[j].agg);
	}
	free(g->keys);
	ana_kmap_free(&g->map);
	free(g);
}

/* The value of the START of member END r (the END itself if none). */
static int64_t start_val(const ana_ginst *g, ana_ref r)
{
	uint32_t s = g->c->start_of[g->c->base[r.proc] + r.idx];

	return g->val(&g->c->tr->procs[r.proc].ev[s == ANA_NONE ? r.idx : s]);
}

/* Works out a for the instance of END (p, i), whose root is root (or
 * ANA_NONE): one trip round the ring.  Members nobody waits for
 * (waited_for with a waiter of the other group) are left out. */
static void gagg_fill(const ana_ginst *g, uint32_t p, uint32_t i,
		      uint32_t root, int mode, gagg *a)
{
	ana_ref r = {p, i};
	int64_t v;
	int b;

	a->max1[0] = a->max2[0] = a->max1[1] = a->max2[1] = INT64_MIN;
	a->root_v = INT64_MIN;
	a->who1[0] = a->who1[1] = ANA_NONE;
	do {
		const ana_ev *m = &g->c->tr->procs[r.proc].ev[r.idx];
		ana_ev other = *m;

		b = inter_side(m) > 0;
		other.tag = b ? 0 : 1; /* a waiter of the other group */
		if (r.proc == root)
			a->root_v = start_val(g, r);
		if (!waited_for(mode, &other, m)) {
			r = m->match;
			continue;
		}
		v = start_val(g, r);
		if (v > a->max1[b] || a->who1[b] == ANA_NONE) {
			a->max2[b] = a->max1[b];
			a->max1[b] = v;
			a->who1[b] = r.proc;
		} else if (v > a->max2[b]) {
			a->max2[b] = v;
		}
		r = m->match;
	} while (r.proc != ANA_NONE && (r.proc != p || r.idx != i));
	a->done = 1;
}

/* The aggregate slot of instance k of key x (NULL: out of memory). */
static gagg *gagg_slot(gkey *x, uint32_t k)
{
	uint32_t cap = x->cap;
	gagg *a;

	if (k >= cap) {
		while (cap <= k)
			cap = cap ? cap * 2 : 64;
		a = realloc(x->agg, cap * sizeof *a);
		if (a == NULL)
			return NULL;
		memset(a + x->cap, 0, (cap - x->cap) * sizeof *a);
		x->agg = a;
		x->cap = cap;
	}
	return &x->agg[k];
}

/* The instances of e's group key, made on first use; NULL when out of
 * memory. */
static gkey *ginst_key(ana_ginst *g, const ana_ev *e)
{
	uint32_t j, np = g->c->tr->nprocs + 1, cap;
	gkey *v;

	if (ana_kmap_get(&g->map, ana_group_key(e), g->nkeys, &j) < 0)
		return NULL;
	if (j < g->nkeys)
		return &g->keys[j];
	if (g->nkeys == g->kcap) {
		cap = g->kcap ? g->kcap * 2 : 16;
		v = realloc(g->keys, cap * sizeof *v);
		if (v == NULL)
			goto out_unmap;
		g->keys = v;
		g->kcap = cap;
	}
	v = &g->keys[g->nkeys];
	memset(v, 0, sizeof *v);
	if ((v->k = calloc(np, sizeof *v->k)) == NULL)
		goto out_unmap;
	g->nkeys++;
	return v;
out_unmap:
	ana_kmap_del_last(&g->map);
	return NULL;
}

/* Advances p's count of e's group key; the slot of e's instance, or
 * NULL. */
static gagg *ginst_next(ana_ginst *g, uint32_t p, const ana_ev *e)
{
	gkey *x = ginst_key(g, e);

	return x != NULL ? gagg_slot(x, x->k[p]++) : NULL;
}

void ana_ginst_pass(ana_ginst *g, uint32_t p, uint32_t i)
{
	const ana_ev *e = &g->c->tr->procs[p].ev[i];

	if (ana_group_mode(e) != ANA_G_NONE)
		(void)ginst_next(g, p, e);
}

void ana_ginst_rewind(ana_ginst *g)
{
	uint32_t j;

	for (j = 0; j < g->nkeys; j++)
		memset(g->keys[j].k, 0,
		       (g->c->tr->nprocs + 1) * sizeof *g->keys[j].k);
}

bool ana_ginst_waits(ana_ginst *g, uint32_t p, uint32_t i, int64_t *v,
		     int64_t *mine)
{
	const ana_ev *e = &g->c->tr->procs[p].ev[i];
	int mode = ana_group_mode(e);
	gagg local = {0}, *a;
	uint32_t root;

	if (mode == ANA_G_NONE)
		return false;
	a = ginst_next(g, p, e);
	*mine = start_val(g, (ana_ref){p, i});
	root = mode == ANA_G_ALL ? ANA_NONE : ana_ctx_root(g->c, e);
	if (e->match.proc == ANA_NONE || waits_for_nobody(mode, root, p, e))
		return false; /* alone; a non-root of reduce; bcast's root */
	if (a == NULL) /* out of memory: no caching */
		a = &local;
	if (!a->done) /* the first member that waits: values are final */
		gagg_fill(g, p, i, root, mode, a);
	if (mode == ANA_G_FROM_ROOT)
		*v = a->root_v; /* INT64_MIN if the root is not a member */
	else if (inter_side(e) >= 0)
		*v = a->max1[inter_side(e) > 0 ? 0 : 1]; /* the other group */
	else
		*v = a->who1[0] == p ? a->max2[0] : a->max1[0];
	return *v != INT64_MIN;
}
