/*
 * ana_sort.c — the global order of a view (ana_sort) and its check
 * (ana_count_inversions), ana.h.
 *
 * A k-way merge of the processes' event arrays with a binary heap of
 * processes keyed by (time of the next event, process index): O(n log k)
 * with k the number of processes, one pass, no per-event allocation.  The
 * arrays are in time order in the compensated and the repaired views
 * (ana_compensate and ana_order guarantee it); in the raw view a process
 * whose measured times go backwards gets a sorted index first.
 *
 * Ties: a receive END at the head of its process whose matched send's (or
 * multicast's) START is not out yet, and not later in the view, leaves
 * the heap and waits on the sender's process; it comes back as soon as
 * that process emits an event.  So equal times show the send first, and
 * the raw view still shows a receive measured before its send as it was.
 * (A receive may end before its send call returns.)
 */
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "pvt_event.h"

typedef struct merger {
	ana_trace *tr;
	int view;
	uint32_t **perm;  /* [nprocs]: order of a process, NULL = seq order */
	uint32_t **inv;   /* [nprocs]: position of each event in perm */
	uint32_t *pos;    /* [nprocs]: next position in the process's order */
	int64_t *key;     /* [nprocs]: time of the next event */
	uint32_t *heap;   /* processes, min-heap on (key, index) */
	uint32_t nheap;
	uint8_t *in_heap; /* [nprocs] */
	uint32_t *whead;  /* [nprocs]: processes waiting on this one */
	uint32_t *wnext;  /* [nprocs]: next in the waiter list */
} merger;

/* ana_time, inlined here (the merge's inner loop). */
static inline int64_t vtime(const ana_ev *e, int view)
{
	return view == ANA_VIEW_COMP    ? e->c_ns
	       : view == ANA_VIEW_ORDER ? e->o_ns
					: e->t_ns;
}

/* The event index at position k of process p's order. */
static inline uint32_t at(const merger *m, uint32_t p, uint32_t k)
{
	return m->perm[p] ? m->perm[p][k] : k;
}

/* Whether event r was emitted already. */
static inline bool emitted(const merger *m, ana_ref r)
{
	uint32_t k = m->inv[r.proc] ? m->inv[r.proc][r.idx] : r.idx;

	return k < m->pos[r.proc];
}

static inline bool less(const merger *m, uint32_t a, uint32_t b)
{
	return m->key[a] < m->key[b] || (m->key[a] == m->key[b] && a < b);
}

static void sift_down(merger *m, uint32_t k)
{
	uint32_t *h = m->heap, n = m->nheap, c, x = h[k];

	while ((c = 2 * k + 1) < n) {
		if (c + 1 < n && less(m, h[c + 1], h[c]))
			c++;
		if (!less(m, h[c], x))
			break;
		h[k] = h[c];
		k = c;
	}
	h[k] = x;
}

static void heap_push(merger *m, uint32_t p)
{
	uint32_t *h = m->heap, k = m->nheap++, up;

	m->key[p] = vtime(&m->tr->procs[p].ev[at(m, p, m->pos[p])],
			     m->view);
	while (k > 0 && less(m, p, h[up = (k - 1) / 2])) {
		h[k] = h[up];
		k = up;
	}
	h[k] = p;
	m->in_heap[p] = 1;
}

static void heap_pop(merger *m)
{
	m->in_heap[m->heap[0]] = 0;
	m->heap[0] = m->heap[--m->nheap];
	if (m->nheap > 0)
		sift_down(m, 0);
}

/* ---- per-process order in the raw view -------------------------------- */

static int cmp_raw(const void *a, const void *b, void *arg)
{
	const ana_ev *ev = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (ev[x].t_ns != ev[y].t_ns)
		return ev[x].t_ns < ev[y].t_ns ? -1 : 1;
	return (x > y) - (x < y);
}

/* Builds perm/inv for the processes whose times are out of order. */
static int sort_procs(merger *m)
{
	uint32_t p, i;

	for (p = 0; p < m->tr->nprocs; p++) {
		const ana_proc *pr = &m->tr->procs[p];

		for (i = 1; i < pr->nev; i++)
			if (vtime(&pr->ev[i], m->view) <
			    vtime(&pr->ev[i - 1], m->view))
				break;
		if (i >= pr->nev)
			continue;
		m->perm[p] = malloc(pr->nev * sizeof **m->perm);
		m->inv[p] = malloc(pr->nev * sizeof **m->inv);
		if (m->perm[p] == NULL || m->inv[p] == NULL)
			return ANA_ENOMEM;
		for (i = 0; i < pr->nev; i++)
			m->perm[p][i] = i;
		qsort_r(m->perm[p], pr->nev, sizeof **m->perm, cmp_raw,
			pr->ev);
		for (i = 0; i < pr->nev; i++)
			m->inv[p][m->perm[p][i]] = i;
	}
	return 0;
}

/* ---- the merge --------------------------------------------------------- */

/* Whether head event e of process p must wait for its send's START. */
static bool must_wait(const merger *m, uint32_t p, const ana_ev *e)
{
	ana_ref sr;
	const ana_ev *s;

	if (e->kind != PVT_EV_RECV_END || e->match.proc == ANA_NONE)
		return false;
	sr = ana_send_start(m->tr, e->match);
	if (emitted(m, sr))
		return false;
	s = ana_get(m->tr, sr);
	return vtime(s, m->view) <= vtime(e, m->view);
}

/* Puts back every process waiting on q. */
static void wake(merger *m, uint32_t q)
{
	uint32_t w;

	while ((w = m->whead[q]) != ANA_NONE) {
		m->whead[q] = m->wnext[w];
		heap_push(m, w);
	}
}

/* Puts back every waiting process (only an inconsistent trace gets here:
 * a cycle of receives at equal times).  Returns how many. */
static uint32_t wake_all(merger *m)
{
	uint32_t p, n = 0;

	for (p = 0; p < m->tr->nprocs; p++) {
		m->whead[p] = ANA_NONE;
		if (!m->in_heap[p] && m->pos[p] < m->tr->procs[p].nev) {
			heap_push(m, p);
			n++;
		}
	}
	return n;
}

static void merge(merger *m)
{
	ana_trace *tr = m->tr;
	uint64_t out = 0;
	uint32_t p, i;
	int force = 0;

	for (p = 0; p < tr->nprocs; p++)
		if (tr->procs[p].nev > 0)
			heap_push(m, p);
	for (;;) {
		if (m->nheap == 0) {
			if (wake_all(m) == 0)
				break;
			force = 1;
		}
		p = m->heap[0];
		i = at(m, p, m->pos[p]);
		if (!force && must_wait(m, p, &tr->procs[p].ev[i])) {
			heap_pop(m);
			m->wnext[p] = m->whead[tr->procs[p].ev[i].match.proc];
			m->whead[tr->procs[p].ev[i].match.proc] = p;
			continue;
		}
		force = 0;
		tr->order[out++] = (ana_ref){p, i};
		if (++m->pos[p] < tr->procs[p].nev) {
			m->key[p] = vtime(&tr->procs[p].ev[at(m, p,
								 m->pos[p])],
					     m->view);
			if (m->pos[p] + 4 < tr->procs[p].nev) /* k streams:
				too many for the hardware to guess */
				__builtin_prefetch(&tr->procs[p].ev[at(
					m, p, m->pos[p] + 4)]);
			sift_down(m, 0);
		} else {
			heap_pop(m);
		}
		if (m->whead[p] != ANA_NONE)
			wake(m, p);
	}
	tr->norder = out;
}

static void merger_free(merger *m)
{
	uint32_t p;

	if (m->perm)
		for (p = 0; p < m->tr->nprocs; p++) {
			free(m->perm[p]);
			free(m->inv[p]);
		}
	free(m->perm);
	free(m->inv);
	free(m->pos);
	free(m->key);
	free(m->heap);
	free(m->in_heap);
	free(m->whead);
	free(m->wnext);
}

int ana_sort(ana_trace *tr, int view)
{
	merger m = {.tr = tr, .view = view};
	uint64_t n = 0;
	uint32_t np, p;
	ana_ref *o;
	int rc = ANA_ENOMEM;

	if (tr == NULL || view < ANA_VIEW_COMP || view > ANA_VIEW_RAW)
		return ANA_EARG;
	np = tr->nprocs + 1;
	for (p = 0; p < tr->nprocs; p++)
		n += tr->procs[p].nev;
	o = realloc(tr->order, (n + 1) * sizeof *o);
	if (o == NULL)
		return ANA_ENOMEM;
	tr->order = o;
	ana_big_hint(o, (n + 1) * sizeof *o);
	tr->norder = 0;
	tr->order_view = -1;
	m.perm = calloc(np, sizeof *m.perm);
	m.inv = calloc(np, sizeof *m.inv);
	m.pos = calloc(np, sizeof *m.pos);
	m.key = malloc(np * sizeof *m.key);
	m.heap = malloc(np * sizeof *m.heap);
	m.in_heap = calloc(np, 1);
	m.whead = malloc(np * sizeof *m.whead);
	m.wnext = malloc(np * sizeof *m.wnext);
	if (!m.perm || !m.inv || !m.pos || !m.key || !m.heap || !m.in_heap ||
	    !m.whead || !m.wnext)
		goto out_free;
	for (p = 0; p < np; p++)
		m.whead[p] = ANA_NONE;
	if ((rc = sort_procs(&m)) < 0)
		goto out_free;
	merge(&m);
	tr->order_view = view;
	rc = 0;
out_free:
	merger_free(&m);
	return rc;
}

/* ---- check ------------------------------------------------------------- */

uint64_t ana_count_inversions(const ana_trace *tr)
{
	uint64_t *base, n = 0, k, inv = 0, g;
	uint8_t *seen;
	uint32_t p;

	if (tr == NULL || tr->order == NULL)
		return 0;
	base = malloc((tr->nprocs + 1) * sizeof *base);
	for (p = 0; base && p < tr->nprocs; p++) {
		base[p] = n;
		n += tr->procs[p].nev;
	}
	seen = calloc(n / 8 + 1, 1);
	if (base == NULL || seen == NULL) { /* cannot tell: none found */
		free(base);
		free(seen);
		return 0;
	}
	for (k = 0; k < tr->norder; k++) {
		ana_ref r = tr->order[k];
		const ana_ev *e = ana_get(tr, r);

		if (e == NULL)
			continue;
		if (e->kind == PVT_EV_RECV_END && e->match.proc != ANA_NONE) {
			ana_ref sr = ana_send_start(tr, e->match);

			g = base[sr.proc] + sr.idx;
			if (!(seen[g / 8] & (1u << g % 8)))
				inv++;
		}
		g = base[r.proc] + r.idx;
		seen[g / 8] |= (uint8_t)(1u << g % 8);
	}
	free(base);
	free(seen);
	return inv;
}
