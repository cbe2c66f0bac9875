/*
 * con_ana.c — the analysis of what the console holds (con_ana.h): turns
 * the event store (every source, its string table and its events in seq
 * order) and the clock registry into an ana_trace, runs the passes once
 * and keeps the result until something new arrives.
 *
 * Node time becomes console time through the node's fitted clock model.
 * A node without clock samples (an event source whose node was never
 * pinged) gets a constant model from its events: the offset the store
 * used when the events arrived (t_ns - t_con_ns of its first event).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_ana.h"
#include "con_clk.h"
#include "con_ev.h"
#include "con_node.h"
#include "pvt_event.h"

static struct {
	ana_trace *tr;       /* the cached analysis, or NULL */
	uint64_t next;       /* con_ev_next() it was built at */
	size_t nsrcs;        /* sources then */
	uint64_t lost;       /* losses then */
	uint64_t clk;        /* clock samples then */
	uint32_t *proc_of;   /* source index -> process */
	size_t nproc_of;
} con_ana;

static void con_ana_st_free(void);

void con_ana_reset(void)
{
	con_ana_st_free();
	ana_free(con_ana.tr);
	free(con_ana.proc_of);
	memset(&con_ana, 0, sizeof con_ana);
}

ana_trace *con_ana_take(void)
{
	ana_trace *tr = con_ana.tr;

	con_ana.tr = NULL;
	con_ana_reset();
	return tr;
}

/* Total clock samples of the nodes the sources name (a change means
 * the models changed). */
static uint64_t con_ana_clock_count(void)
{
	const ana_clock_sample *s;
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < con_ev_nsrcs(); i++)
		total += con_clk_samples(con_ev_src_at(i)->node, &s);
	return total;
}

static con_ana_arch_fn *con_ana_arch_of; /* nodes not up */

void con_ana_set_arch_fn(con_ana_arch_fn *fn)
{
	con_ana_arch_of = fn;
}

/* The arch text of a live node, else of con_ana_arch_of's ("" when
 * unknown). */
static void con_ana_arch(const char *node, char *buf, size_t n)
{
	con_node *nd = con_node_find(node);

	buf[0] = '\0';
	if (nd != NULL && nd->have_hello)
		snprintf(buf, n, "%s %s", nd->hello.port, nd->hello.arch);
	else if (con_ana_arch_of != NULL)
		con_ana_arch_of(node, buf, n);
}

/* The index of node in tr, adding it with its clock model; first is the
 * node's first stored event (for a constant model), or NULL. */
static int con_ana_node(ana_trace *tr, const char *node,
			const con_ev_rec *first)
{
	ana_clock c;
	char arch[160];
	uint32_t i;
	int k;

	for (i = 0; i < tr->nnodes; i++)
		if (strcmp(tr->nodes[i].name, node) == 0)
			return (int)i;
	if (con_clk_model(node, &c) != 0 || !c.valid) {
		memset(&c, 0, sizeof c);
		if (first != NULL) {
			c.valid = 1;
			c.ref_ns = (int64_t)first->t_ns;
			c.offset_ns = (int64_t)first->t_ns - first->t_con_ns;
		}
	}
	con_ana_arch(node, arch, sizeof arch);
	k = ana_add_node(tr, node, arch, &c);
	if (k >= 0)
		(void)con_clk_link(node, &tr->nodes[k].link);
	return k;
}

/* The first stored event of each source (NULL for none) into first[]. */
static void con_ana_firsts(const con_ev_rec **first, size_t nsrcs)
{
	uint64_t num, end = con_ev_next();
	const con_ev_rec *e;
	size_t left = nsrcs;

	for (num = con_ev_oldest(); num < end && left > 0; num++) {
		e = con_ev_get(num);
		if (e != NULL && e->src < nsrcs && first[e->src] == NULL) {
			first[e->src] = e;
			left--;
		}
	}
}

/* Adds a process for every source.  0 or a code. */
static int con_ana_procs(ana_trace *tr, const con_ev_rec **first)
{
	size_t i, n = con_ev_nsrcs();
	con_ev_src *s;
	char name[ANA_NAME_MAX];
	int node, proc;

	for (i = 0; i < n; i++) {
		s = con_ev_src_at(i);
		node = con_ana_node(tr, s->node, first[i]);
		if (node < 0)
			return node;
		snprintf(name, sizeof name, "p%d", s->pid_id);
		proc = ana_add_proc(tr, name, (uint32_t)node);
		if (proc < 0)
			return proc;
		tr->procs[proc].lost = s->st.lost;
		if (s->state.have_tid) {
			/* the store knows it even when it forgot the
			   PROG_START (a live run beyond trace keep) */
			tr->procs[proc].have_tid = 1;
			tr->procs[proc].tid = s->state.tid;
			tr->tid_gen++;
		}
		con_ana.proc_of[i] = (uint32_t)proc;
	}
	return 0;
}

/* One stored event as an ana_ev of process proc (strings interned);
 * raw: t_ns stays the node's time (streaming: the clock models are known
 * at the end), else it is put on the console clock. */
static int con_ana_event(ana_trace *tr, uint32_t proc, const con_ev_rec *r,
			 int raw)
{
	const con_ev_src *s = con_ev_src_at(r->src);
	const ana_node *nd = &tr->nodes[tr->procs[proc].node];
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = raw ? (int64_t)r->t_ns :
		 ana_clock_to_console(&nd->clock, (int64_t)r->t_ns);
	e.delta_ns = (int64_t)r->delta_ns;
	e.bytes = r->bytes;
	e.seq = r->seq;
	e.file = r->file ? ana_intern(tr, con_ev_str(s, r->file)) : 0;
	/* (PROG_START's func names the program, not a function) */
	e.func = r->func && r->kind != PVT_EV_PROG_START ?
		 ana_intern(tr, con_ev_str(s, r->func)) : 0;
	if (e.file == ANA_NONE || e.func == ANA_NONE)
		return ANA_ENOMEM;
	e.line = r->line;
	e.peer = r->peer;
	e.tag = r->tag;
	e.result = r->result;
	e.aux = r->aux;
	e.comm = r->comm;
	e.ref = r->ref; /* PVM: a name of the process's table */
	if (r->op < PVT_OP_MPI_INIT && r->ref != 0 &&
	    (e.ref = ana_intern(tr, con_ev_str(s, r->ref))) == ANA_NONE)
		return ANA_ENOMEM;
	e.kind = r->kind;
	e.op = r->op;
	return ana_add_event(tr, proc, &e);
}

/* Builds and analyses a new trace of the store.  0 or a code. */
static int con_ana_build(ana_trace **out)
{
	size_t n = con_ev_nsrcs();
	const con_ev_rec **first = calloc(n ? n : 1, sizeof *first);
	uint64_t num, end = con_ev_next();
	const con_ev_rec *e;
	ana_trace *tr = ana_new();
	int rc = ANA_ENOMEM;

	free(con_ana.proc_of);
	con_ana.proc_of = calloc(n ? n : 1, sizeof *con_ana.proc_of);
	con_ana.nproc_of = n;
	if (first == NULL || tr == NULL || con_ana.proc_of == NULL)
		goto out;
	con_ana_firsts(first, n);
	rc = con_ana_procs(tr, first);
	for (num = con_ev_oldest(); rc == 0 && num < end; num++) {
		e = con_ev_get(num);
		if (e != NULL && e->src < n)
			rc = con_ana_event(tr, con_ana.proc_of[e->src], e, 0);
	}
	if (rc == 0)
		rc = ana_analyze(tr, NULL);
	if (rc == 0)
		rc = ana_sort(tr, ANA_VIEW_COMP);
out:
	free(first);
	if (rc != 0) {
		ana_free(tr);
		tr = NULL;
	}
	*out = tr;
	return rc;
}

ana_trace *con_ana_get(char *err, size_t errlen)
{
	con_ev_stats tot;
	uint64_t clk = con_ana_clock_count();
	ana_trace *tr;

	con_ev_totals(&tot);
	if (con_ev_next() == 0) {
		snprintf(err, errlen, "no events are stored (run a program "
			 "with tracing, or open a trace file)");
		return NULL;
	}
	if (con_ana.tr != NULL && con_ana.next == con_ev_next() &&
	    con_ana.nsrcs == con_ev_nsrcs() && con_ana.lost == tot.lost &&
	    con_ana.clk == clk)
		return con_ana.tr;
	con_ana_reset();
	if (con_ana_build(&tr) != 0) {
		snprintf(err, errlen, "out of memory analysing %llu events",
			 (unsigned long long)con_ev_next());
		return NULL;
	}
	if (con_ev_dropped() > 0)
		printf("note: the analysis covers the last %llu events; the "
		       "console forgot the %llu before them (it keeps %zu "
		       "during a run: `trace keep N`; a trace file keeps "
		       "all)\n", (unsigned long long)(con_ev_next() -
						     con_ev_oldest()),
		       (unsigned long long)con_ev_dropped(),
		       con_ev_get_max());
	con_ana.tr = tr;
	con_ana.next = con_ev_next();
	con_ana.nsrcs = con_ev_nsrcs();
	con_ana.lost = tot.lost;
	con_ana.clk = clk;
	return tr;
}

/* ---- streaming: a trace file read straight into the analysis ---------- */

/* The trace being built and, per node of it, its first event's times (a
 * constant clock model when the node has no samples). */
static struct {
	ana_trace *tr;        /* being built, or NULL */
	int64_t *first_t;     /* per node: t_ns of its first event */
	int64_t *first_off;   /* per node: t_ns - t_con_ns of it */
} con_ana_st;

/* Frees the streaming state (not a trace handed over). */
static void con_ana_st_free(void)
{
	ana_free(con_ana_st.tr);
	free(con_ana_st.first_t);
	free(con_ana_st.first_off);
	memset(&con_ana_st, 0, sizeof con_ana_st);
}

/* The index of the node called name in the streamed trace, added (with a
 * model set at the end) when new; e is its first event.  Or a code. */
static int con_ana_st_node(const char *name, const con_ev_rec *e)
{
	ana_trace *tr = con_ana_st.tr;
	int64_t *t, *o;
	uint32_t i;
	int n;

	for (i = 0; i < tr->nnodes; i++)
		if (strcmp(tr->nodes[i].name, name) == 0)
			return (int)i;
	t = realloc(con_ana_st.first_t, (tr->nnodes + 1) * sizeof *t);
	if (t != NULL)
		con_ana_st.first_t = t;
	o = realloc(con_ana_st.first_off, (tr->nnodes + 1) * sizeof *o);
	if (o != NULL)
		con_ana_st.first_off = o;
	if (t == NULL || o == NULL ||
	    (n = ana_add_node(tr, name, "", NULL)) < 0)
		return ANA_ENOMEM;
	t[n] = (int64_t)e->t_ns;
	o[n] = (int64_t)e->t_ns - e->t_con_ns;
	return n;
}

/* The analysis process of source src, added when new (e: its first
 * event, or NULL for a source without events).  Or a code. */
static int con_ana_st_proc(size_t src, const con_ev_rec *e)
{
	static const con_ev_rec none; /* a node without events: offset 0 */
	const con_ev_src *s = con_ev_src_at(src);
	char name[ANA_NAME_MAX];
	uint32_t *v;
	size_t i;
	int node, proc;

	if (src >= con_ana.nproc_of) {
		v = realloc(con_ana.proc_of, (src + 1) * sizeof *v);
		if (v == NULL)
			return ANA_ENOMEM;
		for (i = con_ana.nproc_of; i <= src; i++)
			v[i] = ANA_NONE;
		con_ana.proc_of = v;
		con_ana.nproc_of = src + 1;
	}
	if (con_ana.proc_of[src] != ANA_NONE)
		return (int)con_ana.proc_of[src];
	node = con_ana_st_node(s->node, e != NULL ? e : &none);
	if (node < 0)
		return node;
	snprintf(name, sizeof name, "p%d", s->pid_id);
	proc = ana_add_proc(con_ana_st.tr, name, (uint32_t)node);
	if (proc >= 0)
		con_ana.proc_of[src] = (uint32_t)proc;
	return proc;
}

/* The event sink (con_ev_set_sink): one more event of its process. */
static int con_ana_st_sink(const con_ev_rec *e, void *ctx)
{
	int proc = con_ana_st_proc(e->src, e);

	(void)ctx;
	if (proc < 0)
		return proc;
	return con_ana_event(con_ana_st.tr, (uint32_t)proc, e, 1);
}

int con_ana_stream_begin(void)
{
	con_ana_reset();
	con_ana_st_free();
	con_ana_st.tr = ana_new();
	if (con_ana_st.tr == NULL)
		return ANA_ENOMEM;
	con_ev_set_sink(con_ana_st_sink, NULL);
	return 0;
}

/* Puts every event of the streamed trace on the console clock: each
 * node's fitted model, else the offset its first event arrived with. */
static void con_ana_st_clocks(ana_trace *tr)
{
	ana_clock c;
	uint32_t i, p, k;

	for (i = 0; i < tr->nnodes; i++) {
		if (con_clk_model(tr->nodes[i].name, &c) != 0 || !c.valid) {
			memset(&c, 0, sizeof c);
			c.valid = 1; /* (every node has its first entry) */
			c.ref_ns = con_ana_st.first_t[i];
			c.offset_ns = con_ana_st.first_off[i];
		}
		tr->nodes[i].clock = c;
		con_ana_arch(tr->nodes[i].name, tr->nodes[i].arch,
			     sizeof tr->nodes[i].arch);
		(void)con_clk_link(tr->nodes[i].name, &tr->nodes[i].link);
	}
	for (p = 0; p < tr->nprocs; p++)
		for (k = 0; k < tr->procs[p].nev; k++)
			tr->procs[p].ev[k].t_ns = ana_clock_to_console(
				&tr->nodes[tr->procs[p].node].clock,
				tr->procs[p].ev[k].t_ns);
}

int con_ana_stream_end(char *err, size_t errlen)
{
	ana_trace *tr = con_ana_st.tr;
	con_ev_stats tot;
	con_ev_src *s;
	size_t i, n = con_ev_nsrcs();
	int rc = 0, proc;

	con_ev_set_sink(NULL, NULL);
	if (tr == NULL)
		return ANA_EARG;
	for (i = 0; i < n && rc == 0; i++) { /* sources without events too */
		proc = con_ana_st_proc(i, NULL);
		if (proc < 0) {
			rc = proc;
			break;
		}
		s = con_ev_src_at(i);
		tr->procs[proc].lost = s->st.lost;
		if (s->state.have_tid) {
			tr->procs[proc].have_tid = 1;
			tr->procs[proc].tid = s->state.tid;
			tr->tid_gen++;
		}
	}
	if (rc == 0) {
		con_ana_st_clocks(tr);
		rc = ana_analyze(tr, NULL);
	}
	if (rc == 0)
		rc = ana_sort(tr, ANA_VIEW_COMP);
	if (rc != 0) {
		snprintf(err, errlen, "out of memory analysing %llu events",
			 (unsigned long long)con_ev_next());
		con_ana_st_free();
		con_ana_reset();
		return rc;
	}
	con_ana_st.tr = NULL; /* handed over */
	con_ana_st_free();
	con_ev_totals(&tot);
	con_ana.tr = tr;
	con_ana.next = con_ev_next();
	con_ana.nsrcs = n;
	con_ana.lost = tot.lost;
	con_ana.clk = con_ana_clock_count();
	return 0;
}

size_t con_ana_src_of(uint32_t proc)
{
	size_t i;

	for (i = 0; i < con_ana.nproc_of; i++)
		if (con_ana.proc_of[i] == proc)
			return i;
	return (size_t)ANA_NONE;
}

uint32_t con_ana_proc_of(size_t src)
{
	return src < con_ana.nproc_of ? con_ana.proc_of[src] : ANA_NONE;
}

int con_ana_view_arg(int argc, char **argv, char *err, size_t errlen)
{
	static const char *const names[] = {"comp", "order", "raw"};
	int i, v;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--view") != 0)
			continue;
		if (i + 1 >= argc) {
			snprintf(err, errlen, "--view needs comp, order or raw");
			return -1;
		}
		for (v = 0; v < 3; v++)
			if (strcmp(argv[i + 1], names[v]) == 0)
				return v;
		snprintf(err, errlen, "unknown view '%s' (comp, order or raw)",
			 argv[i + 1]);
		return -1;
	}
	return ANA_VIEW_COMP;
}
