/*
 * ana_walk.c — a process's events as nested calls, the matched pairs of
 * a trace, and op / process names (ana_walk.h).
 *
 * The walker keeps a stack of open calls.  A closing event pops the
 * innermost call of its class (START kind = END kind - 1, FN_ENTER for
 * FN_EXIT); calls above it that never closed are closed at the same time
 * first, so what the callbacks see is always properly nested.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_walk.h"
#include "../../wrappers/pvt_event.h"

/* The stack of open calls of one walk. */
typedef struct ana_stack {
	ana_call *c;
	uint32_t n, cap;
} ana_stack;

int ana_kind_opens(unsigned kind)
{
	switch (kind) {
	case PVT_EV_FN_ENTER: case PVT_EV_SEND_START: case PVT_EV_RECV_START:
	case PVT_EV_MCAST_START: case PVT_EV_GROUP_START:
	case PVT_EV_SPECIAL_START: case PVT_EV_BREAK_START:
		return 1;
	default:
		return 0;
	}
}

int ana_kind_closes(unsigned kind)
{
	switch (kind) {
	case PVT_EV_FN_EXIT: case PVT_EV_SEND_END: case PVT_EV_RECV_END:
	case PVT_EV_MCAST_END: case PVT_EV_GROUP_END: case PVT_EV_SPECIAL_END:
	case PVT_EV_BREAK_END:
		return 1;
	default:
		return 0;
	}
}

/* Pushes c onto st.  0 or ANA_ENOMEM. */
static int ana_stack_push(ana_stack *st, const ana_call *c)
{
	uint32_t cap = st->cap ? st->cap * 2 : 16;
	ana_call *p;

	if (st->n == st->cap) {
		p = realloc(st->c, (size_t)cap * sizeof *p);
		if (p == NULL)
			return ANA_ENOMEM;
		st->c = p;
		st->cap = cap;
	}
	st->c[st->n++] = *c;
	return 0;
}

/* Closes the innermost open call at time t with end event e (NULL: it
 * never ended). */
static int ana_stack_close(ana_stack *st, const ana_walk_ops *ops,
			   const ana_ev *e, uint32_t e_idx, int64_t t)
{
	ana_call *c = &st->c[--st->n];

	c->e = e;
	c->e_idx = e != NULL ? e_idx : ANA_NONE;
	c->te = t;
	return ops->leave != NULL ? ops->leave(ops->ctx, c) : 0;
}

/* True when START s opens what END e closes. */
static int ana_closes(const ana_ev *s, const ana_ev *e)
{
	if (e->kind == PVT_EV_FN_EXIT)
		return s->kind == PVT_EV_FN_ENTER;
	return s->kind + 1u == e->kind && s->op == e->op;
}

/* Position in st of the innermost open call that e closes, or -1. */
static long ana_stack_find(const ana_stack *st, const ana_ev *e)
{
	long i;

	for (i = (long)st->n - 1; i >= 0; i--)
		if (ana_closes(st->c[i].s, e) ||
		    (st->c[i].s2 != NULL && ana_closes(st->c[i].s2, e)))
			return i;
	return -1;
}

/* A call of zero length: e opens and closes it (an END without START, an
 * MPI_Irecv post). */
static int ana_walk_point_call(ana_stack *st, const ana_walk_ops *ops,
			       uint32_t proc, const ana_ev *e, uint32_t idx,
			       int64_t t)
{
	ana_call c = {.proc = proc, .s = e, .s_idx = idx, .e_idx = ANA_NONE,
		      .ts = t, .te = t, .depth = st->n};
	int rc = ops->enter != NULL ? ops->enter(ops->ctx, &c) : 0;

	if (rc == 0 && ops->leave != NULL) {
		c.e = e;
		c.e_idx = idx;
		rc = ops->leave(ops->ctx, &c);
	}
	return rc;
}

/* True when START e posts a request whose END comes later inside a wait
 * (MPI_Irecv, a persistent receive's start, a nonblocking collective):
 * the post is a call of its own, of zero length. */
static int ana_is_post(const ana_ev *e)
{
	if (e->kind == PVT_EV_RECV_START)
		return e->op == PVT_OP_MPI_IRECV ||
		       e->op == PVT_OP_MPI_RECV_INIT;
	return e->kind == PVT_EV_GROUP_START && pvt_op_is_mpi(e->op) &&
	       e->ref != 0;
}

/* True when END e, closing no open call, completes a request inside the
 * innermost open call c: a wait or test (or, in layout 1, an END of the
 * wait's own op). */
static int ana_is_inner(const ana_call *c, const ana_ev *e)
{
	if (e->kind == PVT_EV_FN_EXIT)
		return 0;
	return c->s->op == e->op ||
	       (pvt_op_class(c->s->op) == PVT_C_WAIT && pvt_op_is_mpi(e->op) &&
		e->ref != 0);
}

/* Handles one closing event e (index idx) at time t. */
static int ana_walk_close(ana_stack *st, const ana_walk_ops *ops,
			  uint32_t proc, const ana_ev *e, uint32_t idx,
			  int64_t t)
{
	long at = ana_stack_find(st, e);
	ana_call *c;
	int rc;

	if (at < 0 && ops->inner != NULL && st->n > 0 &&
	    ana_is_inner(&st->c[st->n - 1], e))
		return ops->inner(ops->ctx, &st->c[st->n - 1], idx, e, t);
	if (at < 0)
		return ana_walk_point_call(st, ops, proc, e, idx, t);
	c = &st->c[at];
	if (c->s2 != NULL && c->half == NULL) {
		/* The first END of a two-halved call: keep it. */
		c->half = e;
		c->half_idx = idx;
		c->th = t;
		return 0;
	}
	while (st->n > (uint32_t)at + 1)
		if ((rc = ana_stack_close(st, ops, NULL, 0, t)) != 0)
			return rc;
	return ana_stack_close(st, ops, e, idx, t);
}

/* True when START e is the second half of the innermost open call. */
static int ana_is_second_half(const ana_stack *st, const ana_ev *e)
{
	const ana_call *top = st->n > 0 ? &st->c[st->n - 1] : NULL;

	return top != NULL && top->s2 == NULL && top->half == NULL &&
		e->kind != PVT_EV_FN_ENTER && top->s->kind != PVT_EV_FN_ENTER &&
		top->s->kind != e->kind && top->s->op == e->op &&
		ana_kind_opens(top->s->kind);
}

/* Handles one opening event e (index idx) at time t. */
static int ana_walk_open(ana_stack *st, const ana_walk_ops *ops,
			 uint32_t proc, const ana_ev *e, uint32_t idx,
			 int64_t t)
{
	ana_call c = {.proc = proc, .s = e, .s_idx = idx, .e_idx = ANA_NONE,
		      .ts = t, .te = t, .depth = st->n};
	int rc;

	if (ana_is_post(e))
		return ana_walk_point_call(st, ops, proc, e, idx, t);
	if (ana_is_second_half(st, e)) {
		st->c[st->n - 1].s2 = e;
		return 0;
	}
	rc = ops->enter != NULL ? ops->enter(ops->ctx, &c) : 0;
	return rc != 0 ? rc : ana_stack_push(st, &c);
}

int ana_walk_calls(const ana_trace *tr, uint32_t proc, int view,
		   const ana_walk_ops *ops)
{
	const ana_proc *p;
	const ana_ev *e;
	ana_stack st = {NULL, 0, 0};
	int64_t t = INT64_MIN;
	uint32_t i;
	int rc = 0;

	if (proc >= tr->nprocs)
		return ANA_EARG;
	p = &tr->procs[proc];
	for (i = 0; i < p->nev && rc == 0; i++) {
		e = &p->ev[i];
		if (ana_time(e, view) > t)
			t = ana_time(e, view);
		if (ana_kind_opens(e->kind))
			rc = ana_walk_open(&st, ops, proc, e, i, t);
		else if (ana_kind_closes(e->kind))
			rc = ana_walk_close(&st, ops, proc, e, i, t);
		else if (ops->point != NULL)
			rc = ops->point(ops->ctx, proc, i, e, t);
	}
	while (rc == 0 && st.n > 0)
		rc = ana_stack_close(&st, ops, NULL, 0, t);
	free(st.c);
	return rc;
}

/* ---- pairs ------------------------------------------------------------ */

/* Order of two references: process, then index. */
static int ana_ref_cmp(ana_ref a, ana_ref b)
{
	if (a.proc != b.proc)
		return a.proc < b.proc ? -1 : 1;
	if (a.idx != b.idx)
		return a.idx < b.idx ? -1 : 1;
	return 0;
}

/* qsort order of pairs: send, then receive. */
static int ana_pair_cmp(const void *a, const void *b)
{
	const ana_pair *x = a, *y = b;
	int c = ana_ref_cmp(x->send, y->send);

	return c != 0 ? c : ana_ref_cmp(x->recv, y->recv);
}

ana_ref ana_msg_end(const ana_trace *tr, ana_ref send)
{
	const ana_proc *pr = &tr->procs[send.proc];
	uint32_t i = send.idx;

	while (i > 0 && pr->ev[i].kind == PVT_EV_MCAST_DEST)
		i--;
	return (ana_ref){send.proc, i};
}

int ana_pairs(const ana_trace *tr, ana_pair **out, size_t *n)
{
	const ana_ev *e;
	ana_pair *p = NULL, *q;
	size_t cnt = 0, cap = 0;
	uint32_t i, j;

	for (i = 0; i < tr->nprocs; i++) {
		for (j = 0; j < tr->procs[i].nev; j++) {
			e = &tr->procs[i].ev[j];
			if (e->kind != PVT_EV_RECV_END ||
			    e->match.proc == ANA_NONE ||
			    ana_get(tr, e->match) == NULL)
				continue;
			if (cnt == cap) {
				cap = cap ? cap * 2 : 64;
				q = realloc(p, cap * sizeof *p);
				if (q == NULL) {
					free(p);
					return ANA_ENOMEM;
				}
				p = q;
			}
			p[cnt].send = ana_msg_end(tr, e->match);
			p[cnt++].recv = (ana_ref){i, j};
		}
	}
	if (cnt > 1)
		qsort(p, cnt, sizeof *p, ana_pair_cmp);
	*out = p;
	*n = cnt;
	return 0;
}

size_t ana_pairs_find_send(const ana_pair *p, size_t n, ana_ref r)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ana_ref_cmp(p[mid].send, r) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ana_ref_cmp(p[lo].send, r) == 0 ? lo : n;
}

size_t ana_pairs_find(const ana_pair *p, size_t n, ana_ref send, ana_ref r)
{
	size_t i = ana_pairs_find_send(p, n, send);

	for (; i < n && ana_ref_cmp(p[i].send, send) == 0; i++)
		if (ana_ref_cmp(p[i].recv, r) == 0)
			return i;
	return n;
}

/* ---- names ------------------------------------------------------------ */

const char *ana_op_name(unsigned op)
{
	return pvt_op_name(op);
}

int ana_op_is_mpi(unsigned op)
{
	return pvt_op_is_mpi(op);
}

int ana_proc_is_mpi(const ana_trace *tr, uint32_t proc)
{
	const ana_proc *p;
	uint32_t i;

	if (proc >= tr->nprocs)
		return 0;
	p = &tr->procs[proc];
	for (i = 0; i < p->nev; i++)
		if (ana_op_is_mpi(p->ev[i].op))
			return 1;
	return 0;
}

char *ana_peer_fmt(int mpi, int32_t peer, char *buf, size_t n)
{
	if (peer < 0)
		snprintf(buf, n, "-");
	else if (mpi)
		snprintf(buf, n, "r%d", (int)peer);
	else
		snprintf(buf, n, "t%x", (unsigned)peer);
	return buf;
}

char *ana_peer_label(const ana_trace *tr, uint32_t proc, int32_t peer,
		     char *buf, size_t n)
{
	return ana_peer_fmt(ana_proc_is_mpi(tr, proc), peer, buf, n);
}

char *ana_proc_label(const ana_trace *tr, uint32_t proc, char *buf,
		     size_t n)
{
	const ana_proc *p = &tr->procs[proc];
	char peer[16];

	if (!p->have_tid)
		snprintf(buf, n, "%s", p->name);
	else
		snprintf(buf, n, "%s %s", p->name,
			 ana_peer_label(tr, proc, p->tid, peer, sizeof peer));
	return buf;
}

void ana_time_span(const ana_trace *tr, int view, int64_t *first,
		   int64_t *last)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, t;
	uint32_t i, j;

	for (i = 0; i < tr->nprocs; i++)
		for (j = 0; j < tr->procs[i].nev; j++) {
			t = ana_time(&tr->procs[i].ev[j], view);
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
	*first = lo <= hi ? lo : 0;
	*last = lo <= hi ? hi : 0;
}
