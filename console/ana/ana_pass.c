/*
 * ana_pass.c — internals shared by the analysis passes (ana_pass.h):
 * classification of END events, the per-run context (global numbering,
 * START of every END, tid map, PVM group instances) and the key map.
 * Whom a group call waits for is ana_pass_group.c, the traversal in a
 * send-before-receive order ana_pass_walk.c.
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
