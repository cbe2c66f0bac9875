/*
 * ana_trace.c — building the trace model of ana.h: nodes, processes,
 * their events in seq order, and the trace-wide string table (an
 * open-addressing hash from string to id).  The passes (ana_match.c,
 * ana_comp.c, ana_order.c) and every reader work on what is built here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "../../wrappers/pvt_event.h"

/* The intern hash: slots hold id + 1 (0 = empty). */
typedef struct ana_strhash {
	uint32_t *slot;
	uint32_t cap; /* power of two */
} ana_strhash;

/* The tid index: open addressing, slots hold proc + 1 (0 = empty);
 * rebuilt when the processes or their tids changed (gen). */
typedef struct ana_tidhash {
	uint32_t *slot;
	uint32_t cap;
	uint64_t gen; /* tr->tid_gen it was built for */
} ana_tidhash;

/* FNV-1a of s. */
static uint32_t ana_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Grows *arr (elements of size sz) so that it holds at least need. */
static int ana_grow(void **arr, uint32_t *cap, uint32_t need, size_t sz)
{
	uint32_t n = *cap ? *cap : 8;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > UINT32_MAX / 2)
			return ANA_ENOMEM;
		n *= 2;
	}
	p = realloc(*arr, (size_t)n * sz);
	if (p == NULL)
		return ANA_ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

/* Puts id into the hash h (no growth). */
static void ana_hash_put(ana_strhash *h, const char *s, uint32_t id)
{
	uint32_t i = ana_hash(s) & (h->cap - 1);

	while (h->slot[i] != 0)
		i = (i + 1) & (h->cap - 1);
	h->slot[i] = id + 1;
}

/* Doubles the hash of tr and re-inserts every string. */
static int ana_hash_rehash(ana_trace *tr)
{
	ana_strhash *h = tr->str_index;
	uint32_t cap = h->cap ? h->cap * 2 : 64, *slot, id;

	slot = calloc(cap, sizeof *slot);
	if (slot == NULL)
		return ANA_ENOMEM;
	free(h->slot);
	h->slot = slot;
	h->cap = cap;
	for (id = 1; id < tr->nstrs; id++)
		ana_hash_put(h, tr->strs[id], id);
	return 0;
}

ana_trace *ana_new(void)
{
	ana_trace *tr = calloc(1, sizeof *tr);

	if (tr == NULL)
		return NULL;
	tr->str_index = calloc(1, sizeof(ana_strhash));
	tr->tid_index = calloc(1, sizeof(ana_tidhash));
	tr->strs = malloc(8 * sizeof *tr->strs);
	if (tr->str_index == NULL || tr->tid_index == NULL || tr->strs == NULL ||
	    (tr->strs[0] = strdup("?")) == NULL) {
		free(tr->strs);
		free(tr->str_index);
		free(tr->tid_index);
		free(tr);
		return NULL;
	}
	tr->strs_cap = 8;
	tr->nstrs = 1;
	tr->order_view = -1;
	return tr;
}

void ana_free(ana_trace *tr)
{
	ana_strhash *h;
	uint32_t i;

	if (tr == NULL)
		return;
	for (i = 0; i < tr->nprocs; i++)
		free(tr->procs[i].ev);
	for (i = 0; i < tr->nstrs; i++)
		free(tr->strs[i]);
	h = tr->str_index;
	if (h != NULL)
		free(h->slot);
	free(h);
	if (tr->tid_index != NULL)
		free(((ana_tidhash *)tr->tid_index)->slot);
	free(tr->tid_index);
	free(tr->strs);
	free(tr->procs);
	free(tr->nodes);
	free(tr->order);
	free(tr);
}

uint32_t ana_intern(ana_trace *tr, const char *s)
{
	ana_strhash *h = tr->str_index;
	uint32_t i, id;
	char *copy;

	if (s == NULL || s[0] == '\0' || strcmp(s, "?") == 0)
		return 0;
	if (h->cap != 0) {
		for (i = ana_hash(s) & (h->cap - 1); h->slot[i] != 0;
		     i = (i + 1) & (h->cap - 1))
			if (strcmp(tr->strs[h->slot[i] - 1], s) == 0)
				return h->slot[i] - 1;
	}
	if ((uint64_t)(tr->nstrs + 1) * 2 > h->cap && ana_hash_rehash(tr) != 0)
		return ANA_NONE;
	if (ana_grow((void **)&tr->strs, &tr->strs_cap, tr->nstrs + 1,
		     sizeof *tr->strs) != 0 || (copy = strdup(s)) == NULL)
		return ANA_NONE;
	id = tr->nstrs++;
	tr->strs[id] = copy;
	ana_hash_put(h, copy, id);
	return id;
}

const char *ana_str(const ana_trace *tr, uint32_t id)
{
	return id < tr->nstrs ? tr->strs[id] : "?";
}

int ana_add_node(ana_trace *tr, const char *name, const char *arch,
		 const ana_clock *clock)
{
	ana_node *n;

	if (name == NULL)
		return ANA_EARG;
	if (tr->nnodes >= (uint32_t)INT32_MAX ||
	    ana_grow((void **)&tr->nodes, &tr->nodes_cap, tr->nnodes + 1,
		     sizeof *tr->nodes) != 0)
		return ANA_ENOMEM;
	n = &tr->nodes[tr->nnodes];
	memset(n, 0, sizeof *n);
	strncpy(n->name, name, sizeof n->name - 1);
	if (arch != NULL)
		strncpy(n->arch, arch, sizeof n->arch - 1);
	if (clock != NULL)
		n->clock = *clock;
	return (int)tr->nnodes++;
}

int ana_add_proc(ana_trace *tr, const char *name, uint32_t node)
{
	ana_proc *p;

	if (name == NULL || node >= tr->nnodes)
		return ANA_EARG;
	if (tr->nprocs >= (uint32_t)INT32_MAX ||
	    ana_grow((void **)&tr->procs, &tr->procs_cap, tr->nprocs + 1,
		     sizeof *tr->procs) != 0)
		return ANA_ENOMEM;
	p = &tr->procs[tr->nprocs];
	memset(p, 0, sizeof *p);
	strncpy(p->name, name, sizeof p->name - 1);
	p->node = node;
	p->tid = -1;
	tr->tid_gen++;
	return (int)tr->nprocs++;
}

int ana_add_event(ana_trace *tr, uint32_t proc, const ana_ev *e)
{
	ana_proc *p;
	ana_ev *d;

	if (proc >= tr->nprocs || e == NULL)
		return ANA_EARG;
	p = &tr->procs[proc];
	if (p->nev == UINT32_MAX - 1 ||
	    ana_grow((void **)&p->ev, &p->cap, p->nev + 1, sizeof *p->ev) != 0)
		return ANA_ENOMEM;
	d = &p->ev[p->nev++];
	*d = *e;
	d->c_ns = e->t_ns;
	d->o_ns = e->t_ns;
	d->flags = 0;
	d->match.proc = ANA_NONE;
	d->match.idx = 0;
	if (e->kind == PVT_EV_PROG_START && e->peer >= 0) {
		p->have_tid = 1;
		p->tid = e->peer;
		tr->tid_gen++;
	} else if (e->kind == PVT_EV_SPECIAL_END && !p->have_tid &&
		   pvt_own_tid(e->op, e->result, e->aux) > 0) {
		/* a PVM master started before PVM: its first pvm_mytid or
		   pvm_parent */
		p->have_tid = 1;
		p->tid = pvt_own_tid(e->op, e->result, e->aux);
		tr->tid_gen++;
	}
	tr->sum.events++;
	tr->stage = 0;
	return 0;
}

ana_ev *ana_get(const ana_trace *tr, ana_ref r)
{
	if (r.proc >= tr->nprocs || r.idx >= tr->procs[r.proc].nev)
		return NULL;
	return &tr->procs[r.proc].ev[r.idx];
}

/* Slot of tid in a table of cap slots. */
static uint32_t ana_tid_slot(int32_t tid, uint32_t cap)
{
	return ((uint32_t)tid * 2654435761u) & (cap - 1);
}

/* Rebuilds the tid index of tr; 0 or ANA_ENOMEM. */
static int ana_tid_rebuild(const ana_trace *tr, ana_tidhash *h)
{
	uint32_t cap = 16, i, j;

	while (cap < tr->nprocs * 2u + 2u)
		cap *= 2;
	free(h->slot);
	h->slot = calloc(cap, sizeof *h->slot);
	if (h->slot == NULL) {
		h->cap = 0;
		return ANA_ENOMEM;
	}
	h->cap = cap;
	for (i = 0; i < tr->nprocs; i++) {
		if (!tr->procs[i].have_tid)
			continue;
		for (j = ana_tid_slot(tr->procs[i].tid, cap); h->slot[j] != 0;
		     j = (j + 1) & (cap - 1))
			if (tr->procs[h->slot[j] - 1].tid == tr->procs[i].tid)
				break;
		if (h->slot[j] == 0)
			h->slot[j] = i + 1; /* the first process wins */
	}
	h->gen = tr->tid_gen;
	return 0;
}

uint32_t ana_proc_by_tid(const ana_trace *tr, int32_t tid)
{
	ana_tidhash *h = tr->tid_index;
	uint32_t i;

	if (h == NULL || h->gen != tr->tid_gen || h->cap == 0) {
		if (h == NULL || ana_tid_rebuild(tr, h) != 0) {
			for (i = 0; i < tr->nprocs; i++)
				if (tr->procs[i].have_tid &&
				    tr->procs[i].tid == tid)
					return i;
			return ANA_NONE;
		}
	}
	for (i = ana_tid_slot(tid, h->cap); h->slot[i] != 0;
	     i = (i + 1) & (h->cap - 1))
		if (tr->procs[h->slot[i] - 1].tid == tid)
			return h->slot[i] - 1;
	return ANA_NONE;
}
