/*
 * cmd_trace_index.c — what `trace show` and the ordered live display of
 * `trace on` (cmd_trace.c) use to print analysed events: the index that
 * finds the stored record of each event of the analysis (by source and
 * seq), so that a line is the one `trace on` prints with the view's
 * time; and the marks of the receives the analysis flagged (a wildcard
 * receive that took another path than without paravt, a receive the
 * program freed, a receive moved by compensation).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_ana.h"
#include "con_cmd_int.h"
#include "con_ev.h"
#include "../wrappers/pvt_event.h"

/* ---- the store's index of analysed events ----------------------------- */

/* Frees what x holds and zeroes it. */
void con_show_index_free(con_show_index *x)
{
	free(x->off);
	free(x->num);
	free(x->src_of);
	memset(x, 0, sizeof *x);
}

/* Fills the arrival numbers of every source's events into x->num, in
 * arrival (= seq) order, sliced by x->off.  0 or -1 (memory). */
static int con_show_index_nums(con_show_index *x)
{
	uint64_t num, first = con_ev_oldest(), end = con_ev_next();
	const con_ev_rec *e;
	size_t *at, i;

	x->off = calloc(x->nsrcs + 1, sizeof *x->off);
	x->num = malloc((size_t)(end - first + 1) * sizeof *x->num);
	at = calloc(x->nsrcs + 1, sizeof *at);
	if (x->off == NULL || x->num == NULL || at == NULL) {
		free(at);
		return -1;
	}
	for (num = first; num < end; num++)
		if ((e = con_ev_get(num)) != NULL && e->src < x->nsrcs)
			x->off[e->src + 1]++;
	for (i = 0; i < x->nsrcs; i++)
		x->off[i + 1] += x->off[i];
	memcpy(at, x->off, x->nsrcs * sizeof *at);
	for (num = first; num < end; num++)
		if ((e = con_ev_get(num)) != NULL && e->src < x->nsrcs)
			x->num[at[e->src]++] = num;
	free(at);
	return 0;
}

/* Builds the index of the store for the analysis tr.  0 or -1. */
int con_show_index_build(con_show_index *x, const ana_trace *tr)
{
	uint32_t p;

	memset(x, 0, sizeof *x);
	x->nsrcs = con_ev_nsrcs();
	x->nprocs = tr->nprocs;
	x->src_of = calloc(tr->nprocs + 1, sizeof *x->src_of);
	if (x->src_of == NULL || con_show_index_nums(x) != 0) {
		con_show_index_free(x);
		return -1;
	}
	for (p = 0; p < tr->nprocs; p++)
		x->src_of[p] = con_ana_src_of(p);
	return 0;
}

/* The stored record of event e of analysis process p, or NULL. */
static const con_ev_rec *con_show_rec(const con_show_index *x, uint32_t p,
				      const ana_ev *e)
{
	size_t src = p < x->nprocs ? x->src_of[p] : (size_t)-1;
	size_t lo, hi, mid;
	const con_ev_rec *r;

	if (src >= x->nsrcs)
		return NULL;
	lo = x->off[src];
	hi = x->off[src + 1];
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = con_ev_get(x->num[mid]);
		if (r == NULL)
			return NULL;
		if (r->seq == e->seq)
			return r;
		if (r->seq < e->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The index in its process of the analysed event of stored record r
 * (its process in *p), or ANA_NONE. */
uint32_t con_show_ana_idx(const ana_trace *tr, const con_ev_rec *r,
			  uint32_t *p)
{
	const ana_proc *pr;
	uint32_t lo = 0, hi, mid;

	*p = con_ana_proc_of(r->src);
	if (tr == NULL || *p >= tr->nprocs)
		return ANA_NONE;
	pr = &tr->procs[*p];
	hi = pr->nev;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pr->ev[mid].seq == r->seq)
			return mid;
		if (pr->ev[mid].seq < r->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ANA_NONE;
}

/* The stored record of tr->order[k] with the view's time in t_con_ns
 * (into *out), or NULL when it is not in the store. */
const con_ev_rec *con_show_at(const ana_trace *tr,
			      const con_show_index *x, uint64_t k,
			      int view, con_ev_rec *out)
{
	const ana_ev *a = ana_get(tr, tr->order[k]);
	const con_ev_rec *r = a ? con_show_rec(x, tr->order[k].proc, a) : NULL;

	if (r == NULL)
		return NULL;
	*out = *r;
	out->t_con_ns = ana_time(a, view);
	return out;
}

/* ---- marks ------------------------------------------------------------ */

/* The sender the diverged wildcard receive (p, i) would have got first
 * without paravt: the source of the process's next wildcard receive
 * (ana_comp.c compares consecutive ones), or -1. */
static int32_t con_show_other_src(const ana_trace *tr, uint32_t p,
				  uint32_t i)
{
	const ana_proc *pr = &tr->procs[p];
	uint32_t j;

	for (j = i + 1; j < pr->nev; j++)
		if ((pr->ev[j].flags & ANA_F_WILDCARD) &&
		    pr->ev[j].match.proc != ANA_NONE)
			return pr->ev[j].peer;
	return -1;
}

/* Appends the marks of analysed event i of process p to line: a diverged
 * wildcard receive and a receive the program freed always, a moved
 * receive when raw. */
void con_show_marks(const ana_trace *tr, uint32_t p, uint32_t i,
		    int raw, char *line, size_t n)
{
	const ana_ev *e = &tr->procs[p].ev[i];
	size_t len = strlen(line);
	int32_t other;
	char who[32];

	if (e->kind != PVT_EV_RECV_END)
		return;
	if (e->op >= PVT_OP_MPI_INIT && e->aux == PVT_RECV_FREED && len < n)
		len += (size_t)snprintf(line + len, n - len,
					"  [request freed: completed by "
					"MPI_Finalize]");
	if (raw && (e->flags & ANA_F_MOVED) && len < n)
		len += (size_t)snprintf(line + len, n - len,
					"  [moved: wait recomputed from the "
					"send]");
	if (!(e->flags & ANA_F_DIVERGED) || len >= n)
		return;
	other = con_show_other_src(tr, p, i);
	if (other < 0)
		snprintf(who, sizeof who, "another task");
	else if (e->op < PVT_OP_MPI_INIT)
		snprintf(who, sizeof who, "t%x", (unsigned)other);
	else
		snprintf(who, sizeof who, "rank %d", other);
	snprintf(line + len, n - len, "  [other path: without paravt %s's "
		 "message came first]", who);
}
