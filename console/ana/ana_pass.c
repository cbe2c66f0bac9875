/*
 * ana_pass.c — internals shared by the analysis passes (ana_pass.h):
 * classification of END events, the per-run context (global numbering,
 * START of every END, tid map, PVM group instances) and the traversal in
 * a send-before-receive order.
 *
 * START/END pairing (what the wrappers record, wrappers/para_vt_pvm.c and
 * pvt_mpi.c): an END of kind K closes the most recent open START of kind
 * K-1 with the same op, except the completion of an MPI_Irecv, which is a
 * RECV_END with op MPI_Wait/Waitall/Test (or MPI_Irecv itself when the
 * post failed) carrying the request id in aux, like its START.  Calls may
 * nest or interleave (MPI_Sendrecv: SEND_START, RECV_START, SEND_END,
 * RECV_END; MPI_Wait: SPECIAL_START, RECV_END, SPECIAL_END), hence the
 * small per-process stack of open STARTs.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ana_pass.h"
#include "pvt_event.h"

/* ---- classification ---------------------------------------------------- */

/* A PVM call's result says success (PvmOk or more), an MPI call's is
 * MPI_SUCCESS. */
static bool call_ok(const ana_ev *e)
{
	return e->op < PVT_OP_MPI_INIT ? e->result >= 0 : e->result == 0;
}

bool ana_is_send(const ana_ev *e)
{
	if ((e->kind != PVT_EV_SEND_END && e->kind != PVT_EV_MCAST_DEST) ||
	    e->peer < 0)
		return false;
	return e->kind == PVT_EV_MCAST_DEST || call_ok(e);
}

bool ana_is_recv(const ana_ev *e)
{
	if (e->kind != PVT_EV_RECV_END || e->peer < 0 ||
	    pvt_op_class(e->op) == PVT_C_PROBE)
		return false;
	switch (e->op) {
	case PVT_OP_PVM_RECV:
	case PVT_OP_PVM_NRECV:
	case PVT_OP_PVM_TRECV:
		return e->result > 0; /* a buffer id; 0: nothing came */
	default:
		return call_ok(e);
	}
}

bool ana_is_mcast(const ana_ev *e)
{
	return e->kind == PVT_EV_MCAST_END && call_ok(e) &&
	       pvt_op_class(e->op) == PVT_C_MCAST;
}

int ana_group_mode(const ana_ev *e)
{
	if ((e->kind != PVT_EV_GROUP_END && e->kind != PVT_EV_MCAST_END) ||
	    !call_ok(e))
		return ANA_G_NONE;
	switch (pvt_op_class(e->op)) {
	case PVT_C_ALL:
		return ANA_G_ALL;
	case PVT_C_TO_ROOT:
		return ANA_G_TO_ROOT;
	case PVT_C_FROM_ROOT: /* (MPI_Bcast was a MCAST END in version 1) */
		return ANA_G_FROM_ROOT;
	default:
		return ANA_G_NONE; /* scans, creations, joins: no modelled wait */
	}
}

ana_ref ana_send_start(const ana_trace *tr, ana_ref send)
{
	const ana_proc *pr = &tr->procs[send.proc];
	const ana_ev *e = &pr->ev[send.idx];
	uint32_t i = send.idx, k;
	uint16_t kind = e->kind;

	while (kind == PVT_EV_MCAST_DEST && i > 0) /* back to its END */
		kind = pr->ev[--i].kind;
	if (kind != PVT_EV_SEND_END && kind != PVT_EV_MCAST_END)
		return send;
	for (k = 0; k < ANA_START_SCAN && i > 0; k++) {
		const ana_ev *s = &pr->ev[--i];

		if (s->kind + 1u == kind && s->op == pr->ev[send.idx].op)
			return (ana_ref){send.proc, i};
	}
	return send;
}

uint64_t ana_group_key(const ana_ev *e)
{
	uint32_t ctx = e->op < PVT_OP_MPI_INIT ? e->ref : e->comm;

	return (uint64_t)e->op << 32 | ctx;
}

bool ana_is_comm(const ana_ev *e)
{
	switch (e->kind) {
	case PVT_EV_SEND_END:
	case PVT_EV_RECV_END:
	case PVT_EV_MCAST_START:
	case PVT_EV_MCAST_END:
	case PVT_EV_GROUP_START:
	case PVT_EV_GROUP_END:
		return true;
	default:
		return false;
	}
}

void ana_big_hint(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = 2u << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t b = ((uintptr_t)p + n) & ~(huge - 1);

	if (p != NULL && b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

/* ---- context ----------------------------------------------------------- */

static bool is_start(uint16_t kind)
{
	return kind >= PVT_EV_SEND_START && kind <= PVT_EV_BREAK_END &&
	       (kind & 1u);
}

static bool is_end(uint16_t kind)
{
	return kind >= PVT_EV_SEND_START && kind <= PVT_EV_BREAK_END &&
	       !(kind & 1u);
}

/* Whether START s is the one END e closes: same op, and for an MPI
 * call whose START names a request (ref), the same request.  (Layout 1
 * closed an MPI_Irecv with a RECV_END of op Wait, Waitall or Test and the
 * request id in aux.) */
static bool closes(const ana_ev *s, const ana_ev *e)
{
	if (s->kind + 1 != e->kind)
		return false;
	if (s->op == PVT_OP_MPI_IRECV && s->ref == 0)
		return (e->op == PVT_OP_MPI_IRECV || e->op == PVT_OP_MPI_WAIT ||
			e->op == PVT_OP_MPI_WAITALL ||
			e->op == PVT_OP_MPI_TEST) &&
		       s->aux == e->aux;
	if (s->op != e->op)
		return false;
	return s->op < PVT_OP_MPI_INIT || s->ref == 0 || s->ref == e->ref;
}

/* A growable stack of open START indices. */
typedef struct open_stack {
	uint32_t *v;
	uint32_t n, cap;
} open_stack;

static int stack_push(open_stack *st, uint32_t i)
{
	uint32_t *v;
	uint32_t cap;

	if (st->n == st->cap) {
		cap = st->cap ? st->cap * 2 : 64;
		v = realloc(st->v, cap * sizeof *v);
		if (v == NULL)
			return ANA_ENOMEM;
		st->v = v;
		st->cap = cap;
	}
	st->v[st->n++] = i;
	return 0;
}

/* Notes that process p joined PVM group ref as instance inst. */
static int note_join(ana_ctx *c, uint32_t p, uint32_t ref, int32_t inst)
{
	ana_join *v;
	uint32_t cap;

	if (c->njoins == c->jcap) {
		cap = c->jcap ? c->jcap * 2 : 16;
		v = realloc(c->joins, cap * sizeof *v);
		if (v == NULL)
			return ANA_ENOMEM;
		c->joins = v;
		c->jcap = cap;
	}
	c->joins[c->njoins++] = (ana_join){ref, inst, p};
	return 0;
}

/* Pairs the ENDs of process p with their STARTs into out (indexed by
 * event); a MCAST_DEST gets the START of the multicast it follows.  Notes
 * the PVM groups p joined (pvm_joingroup's result is its instance).
 * With reset, every event's flags and match are cleared first and
 * leftover STARTs get ANA_F_OPEN. */
static int pair_proc(ana_ctx *c, uint32_t p, uint32_t *out, open_stack *st,
		     int reset)
{
	ana_proc *pr = &c->tr->procs[p];
	uint32_t i, k, mcast = ANA_NONE;

	st->n = 0;
	for (i = 0; i < pr->nev; i++) {
		ana_ev *e = &pr->ev[i];

		out[i] = ANA_NONE;
		if (e->kind == PVT_EV_GROUP_END &&
		    e->op == PVT_OP_PVM_JOINGROUP && e->result >= 0 &&
		    note_join(c, p, e->ref, e->result) < 0)
			return ANA_ENOMEM;
		if (reset && (e->flags || e->match.proc != ANA_NONE)) {
			e->flags = 0; /* written only if needed: no dirty line */
			e->match = (ana_ref){ANA_NONE, ANA_NONE};
		}
		if (e->kind == PVT_EV_MCAST_DEST) {
			out[i] = mcast;
		} else if (is_start(e->kind)) {
			if (stack_push(st, i) < 0)
				return ANA_ENOMEM;
		} else if (is_end(e->kind)) {
			for (k = st->n; k-- > 0;)
				if (closes(&pr->ev[st->v[k]], e))
					break;
			if (k == (uint32_t)-1)
				continue;
			out[i] = st->v[k];
			if (e->kind == PVT_EV_MCAST_END)
				mcast = out[i];
			memmove(&st->v[k], &st->v[k + 1],
				(st->n - k - 1) * sizeof *st->v);
			st->n--;
		}
	}
	if (reset)
		for (k = 0; k < st->n; k++)
			pr->ev[st->v[k]].flags |= ANA_F_OPEN;
	return 0;
}

static int join_cmp(const void *a, const void *b)
{
	const ana_join *x = a, *y = b;

	if (x->ref != y->ref)
		return x->ref < y->ref ? -1 : 1;
	return (x->inst > y->inst) - (x->inst < y->inst);
}

static int tid_cmp(const void *a, const void *b)
{
	const ana_tidp *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The tid map. */
static int map_procs(ana_ctx *c)
{
	ana_trace *tr = c->tr;
	uint32_t p;

	c->tids = malloc((tr->nprocs + 1) * sizeof *c->tids);
	if (c->tids == NULL)
		return ANA_ENOMEM;
	for (p = 0; p < tr->nprocs; p++)
		if (tr->procs[p].have_tid)
			c->tids[c->ntids++] =
				(ana_tidp){tr->procs[p].tid, p};
	qsort(c->tids, c->ntids, sizeof *c->tids, tid_cmp);
	return 0;
}

int ana_ctx_init(ana_ctx *c, ana_trace *tr, int reset)
{
	open_stack st = {0};
	uint32_t p;
	int rc = ANA_ENOMEM;

	memset(c, 0, sizeof *c);
	c->tr = tr;
	c->base = malloc((tr->nprocs + 1) * sizeof *c->base);
	if (c->base == NULL)
		goto out_free;
	for (p = 0; p < tr->nprocs; p++) {
		c->base[p] = c->n;
		c->n += tr->procs[p].nev;
	}
	c->base[tr->nprocs] = c->n;
	c->start_of = malloc((c->n + 1) * sizeof *c->start_of);
	ana_big_hint(c->start_of, (c->n + 1) * sizeof *c->start_of);
	if (c->start_of == NULL)
		goto out_free;
	for (p = 0; p < tr->nprocs; p++)
		if (pair_proc(c, p, c->start_of + c->base[p], &st, reset) < 0)
			goto out_free;
	if (c->njoins > 1)
		qsort(c->joins, c->njoins, sizeof *c->joins, join_cmp);
	if (map_procs(c) < 0)
		goto out_free;
	free(st.v);
	return 0;
out_free:
	free(st.v);
	ana_ctx_free(c);
	return rc;
}

void ana_ctx_free(ana_ctx *c)
{
	free(c->base);
	free(c->start_of);
	free(c->tids);
	free(c->joins);
	memset(c, 0, sizeof *c);
}

uint32_t ana_ctx_proc(const ana_ctx *c, int32_t tid)
{
	uint32_t lo = 0, hi = c->ntids;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->tids[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ntids && c->tids[lo].tid == tid ? c->tids[lo].proc
						       : ANA_NONE;
}

uint32_t ana_ctx_root(const ana_ctx *c, const ana_ev *e)
{
	ana_join key = {e->ref, e->peer, 0}, *j;

	if (e->peer < 0)
		return ANA_NONE;
	if (e->op >= PVT_OP_MPI_INIT)
		return ana_ctx_proc(c, e->peer);
	/* PVM: the root is an instance of the group (e->ref); traces of
	 * layout 1 name no group (ref 0 everywhere), which works for one */
	j = c->njoins ? bsearch(&key, c->joins, c->njoins, sizeof *c->joins,
				join_cmp)
		      : NULL;
	return j != NULL ? j->proc : ANA_NONE;
}

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

/* ---- key map ----------------------------------------------------------- */

/* The home slot of key in a table of cap slots. */
static uint32_t kmap_home(uint64_t key, uint32_t cap)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(key >> 32) & (cap - 1);
}

/* Doubles the table.  0 or ANA_ENOMEM. */
static int kmap_grow(ana_kmap *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 64, i, j;
	uint64_t *key = malloc(cap * sizeof *key);
	uint32_t *val = malloc(cap * sizeof *val);

	if (key == NULL || val == NULL) {
		free(key);
		free(val);
		return ANA_ENOMEM;
	}
	memset(val, 0xff, cap * sizeof *val);
	for (i = 0; i < m->cap; i++) {
		if (m->val[i] == ANA_NONE)
			continue;
		for (j = kmap_home(m->key[i], cap); val[j] != ANA_NONE;
		     j = (j + 1) & (cap - 1))
			;
		key[j] = m->key[i];
		val[j] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = key;
	m->val = val;
	m->cap = cap;
	return 0;
}

int ana_kmap_get(ana_kmap *m, uint64_t key, uint32_t next, uint32_t *idx)
{
	uint32_t i;

	if ((m->n + 1) * 2 > m->cap && kmap_grow(m) < 0)
		return ANA_ENOMEM;
	for (i = kmap_home(key, m->cap); m->val[i] != ANA_NONE;
	     i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key) {
			*idx = m->val[i];
			return 0;
		}
	m->key[i] = key;
	m->val[i] = next;
	m->last = i;
	m->n++;
	*idx = next;
	return 0;
}

void ana_kmap_del_last(ana_kmap *m)
{
	/* The newest key is the last of its probe run: removing it leaves
	 * every other key reachable. */
	if (m->n > 0 && m->last < m->cap) {
		m->val[m->last] = ANA_NONE;
		m->n--;
		m->last = m->cap;
	}
}

void ana_kmap_free(ana_kmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
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
	uint32_t np = c->tr->nprocs, p;
	walk w = {.c = c};
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
