/*
 * cmd_trace.c — the tracing commands: `trace on|off`, `trace filter`,
 * `trace show`, the hidden `trace dump`, `trace keep`; and the live
 * display of events while tracing is on (con_cmd.h).  `stats` is in
 * cmd_stats.c.
 *
 * Like the rest of the command layer, this prints on stdout and returns
 * errors as sentences.  The live display keeps a cursor (the arrival
 * number of the next event to consider): con_ev_cmd_live() runs wherever
 * the debugger's events are printed (before each command and at every
 * tick of a wait), prints the new events that pass the filter, and moves
 * the cursor; with tracing off it only moves the cursor, so turning
 * tracing on never floods the screen with the past (`trace show` is for
 * that).  The live display is in arrival order: the global order needs
 * every process's events, which come later.
 *
 * `trace show` prints the stored events in the global order of the
 * analysis (con_ana.h): compensated times by default, measured times
 * repaired by the logical clock with --measured, every record in arrival
 * order with the node's own times with --raw.  The analysis names events
 * by (process, index); the show index (cmd_trace_index.c) finds the
 * stored record of each (by source and seq) so that the line is the one
 * `trace on` prints, with the view's time.  Receives the analysis
 * flagged are marked (cmd_trace_index.c too): a
 * wildcard receive that took another path than the program would have
 * taken without paravt (every view), a receive moved by compensation
 * (--raw).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_ana.h"
#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_ev.h"
#include "../wrappers/pvt_event.h"
#include "wire.h"

#define CON_EV_SHOW_DEFAULT 20  /* events trace show prints by default */

static int con_trace_on(int argc, char **argv, char *err, size_t errlen);
static int con_trace_filter(int argc, char **argv, char *err,
			    size_t errlen);
static int con_trace_show(int argc, char **argv, char *err, size_t errlen);
static int con_trace_dump(int argc, char **argv, char *err, size_t errlen);
static int con_trace_keep(int argc, char **argv, char *err, size_t errlen);

/* The display's state. */
static struct {
	int on;                /* trace on */
	int raw;               /* trace on --raw */
	uint64_t cursor;       /* next arrival number to consider */
	con_ev_filter filter;  /* the display filter */
	uint32_t *done;        /* per analysis process: events the ordered
				  live display has passed */
	uint32_t ndone;        /* entries of done */
	uint64_t last_ns;      /* when the ordered display last looked */
} con_trace;

/* The ordered live display looks at most this often (it re-analyses
 * the events; run and continue flush it when they return). */
#define CON_LIVE_PERIOD_NS 500000000ull

/* Option words of trace on and trace show (completion). */
static const char *const con_trace_on_flags[] = {"--raw", NULL};
static const char *const con_trace_show_flags[] = {"--raw", "--measured",
						   NULL};

/* What trace show prints. */
enum con_show_mode {
	CON_SHOW_COMP,     /* global order, compensated times */
	CON_SHOW_MEASURED, /* global order, measured times repaired */
	CON_SHOW_RAW       /* every record, arrival order, node times */
};

/* The subcommands of `trace` ("dump" is meant for tests). */
const con_cmd con_trace_cmds[] = {
	{"on", "trace on [--raw]",
	 "print the events in global order as the run goes on",
	 "Prints one line per completed call (the *_END events), program\n"
	 "start and exit, crash and breakpoint stop:\n"
	 "[p2 s390x] +0.012345 send    -> t4000a tag 7  320 B  "
	 "pvm_master.c:57 main\n"
	 "Receives show the source actually received from (also for\n"
	 "wildcard receives).  Only events that pass `trace filter` print.\n"
	 "The display is in the compensated global order (as trace show):\n"
	 "every half second it prints the events up to the earliest last\n"
	 "event of the running processes, and all that is held back when\n"
	 "run or continue returns.  --raw prints every record at once, in\n"
	 "arrival order, as trace show --raw does.",
	 con_trace_on, NULL, CON_ARG_NONE, con_trace_on_flags},
	{"off", "trace off",
	 "stop printing events (they are still stored)",
	 "Stops the live display.  Events are still stored and counted:\n"
	 "see trace show and stats.",
	 con_trace_on, NULL, CON_ARG_NONE, NULL},
	{"filter", "trace filter [proc=pN,...] [kind=K,...] | clear",
	 "choose which events trace on and trace show print",
	 "proc= keeps the processes named; kind= keeps the classes named:\n"
	 "start exit func send recv mcast group special break crash (all:\n"
	 "every class, START events included).  Without kind=, completed\n"
	 "calls, start, exit, crash and breakpoint stops print.  `trace\n"
	 "filter clear` removes the filter; without words, shows it.",
	 con_trace_filter, NULL, CON_ARG_NONE, NULL},
	{"show", "trace show [N] [--raw|--measured]",
	 "print the last N stored events (default 20) in global order",
	 "Prints the last N stored events that pass the filter in the\n"
	 "global order, as trace on does, with compensated times: paravt's\n"
	 "own time taken out of every process and carried along its\n"
	 "messages, so the order and the times are those of the program\n"
	 "without paravt, and no receive comes before its send.  A wildcard\n"
	 "receive that got another message than it would have without\n"
	 "paravt ends with \"[other path: without paravt t4000c's message\n"
	 "came first]\".  --measured: the measured times, repaired by the\n"
	 "logical clock where a receive would come before its send.  --raw:\n"
	 "every record (START halves too) in arrival order with every field:\n"
	 "sequence number, the node's own time and delta in ns, op, result,\n"
	 "aux; a receive whose wait compensation recomputed from its send\n"
	 "ends with \"[moved: wait recomputed from the send]\".  An MPI\n"
	 "receive the program freed while active (MPI_Request_free) is\n"
	 "recorded when MPI_Finalize completed it and ends with \"[request\n"
	 "freed: completed by MPI_Finalize]\".",
	 con_trace_show, NULL, CON_ARG_NONE, con_trace_show_flags},
	{"dump", "trace dump",
	 "every stored event as NODE PROC SEQ KIND (for tests)",
	 "Prints one line per stored event, unfiltered: node, the daemon's\n"
	 "process number, sequence number and kind.",
	 con_trace_dump, NULL, CON_ARG_NONE, NULL},
	{"keep", "trace keep [N]",
	 "how many events the console keeps in memory during a run",
	 "The console keeps the last N events of a live run in memory\n"
	 "(default 1048576, about 90 bytes each) for trace show, stats and\n"
	 "the analysis; older ones are forgotten, and every command that\n"
	 "reads them says how many.  A trace file (`trace file`, `paravt\n"
	 "trace`) has every event, and a trace file read back (`open`,\n"
	 "`paravt trace-info`, `export`, `report`) is kept whole.  Without\n"
	 "N, prints the setting and how many events were forgotten.",
	 con_trace_keep, NULL, CON_ARG_NONE, NULL},
	{"file", "trace file FILE [--force] | off",
	 "write every event from now on to a trace file",
	 "Starts writing a paravt trace file: the nodes, their clock\n"
	 "samples, the string tables, then every event batch as it arrives\n"
	 "(events already stored are written first).  The file is flushed\n"
	 "after each batch, so a killed console leaves a readable trace.\n"
	 "--force overwrites an existing file.  `trace file off` ends it;\n"
	 "without words, says which file is being written.",
	 con_trace_file, NULL, CON_ARG_FILE, NULL},
	{"check", "trace check",
	 "global order: matched pairs, clock repairs, compensation",
	 "Runs the analysis on the events so far and prints what it found,\n"
	 "in a fixed wording for scripts (N: counts):\n"
	 "  clock of node NAME: offset OFFms \xc2\xb1" "ERRms, drift Dppm, N samples\n"
	 "  events: N\n"
	 "  matched pairs: N, multicast pairs: N, group instances: N\n"
	 "  unmatched: N sends, N receives\n"
	 "  measured order: N receives before their send; logical clock\n"
	 "    repaired N events (largest move X \xc2\xb5s)   [one line]\n"
	 "  compensated: N receives moved, N wildcard receives took another\n"
	 "    path   [one line]\n"
	 "  inversions in the global order: N\n"
	 "  inversions in the repaired measured order: N\n"
	 "The clock model maps node time to console time (offset at its\n"
	 "reference time); measured order counts receives that end before\n"
	 "their send in measured time and the events the logical clock\n"
	 "moved to repair that; compensated counts receives moved by the\n"
	 "compensation of paravt's overhead and wildcard receives that,\n"
	 "without paravt, would have got another message first.  Both\n"
	 "inversion counts are 0 in a consistent analysis.",
	 con_trace_check, NULL, CON_ARG_NONE, NULL},
	{"export", "trace export otf2 DIR | chrome FILE [--view V] [--force]",
	 "write the events so far as OTF2 or Chrome trace JSON",
	 "otf2 DIR writes an OTF2 archive DIR/paravt.otf2 (read it with\n"
	 "otf2-print or Vampir): one location per task, a region per op\n"
	 "and per function, MPI_SEND/MPI_RECV records for every matched\n"
	 "message.  DIR is created; an archive already there is refused.\n"
	 "chrome FILE writes trace-event JSON that Perfetto\n"
	 "(ui.perfetto.dev) and chrome://tracing load: a row per task, a\n"
	 "block per call, an arrow from every send to its receive (FILE -\n"
	 "is standard output; an existing FILE needs --force).  Times are\n"
	 "compensated unless --view order (measured, repaired) or raw.",
	 con_trace_export, NULL, CON_ARG_FILE, NULL},
	{NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL}
};

/* ---- live display ----------------------------------------------------- */

/* Prints, in arrival order, the events that arrived since the last
 * call (trace on --raw). */
static void con_ev_cmd_live_raw(void)
{
	const con_ev_rec *e;
	uint64_t num, end = con_ev_next();
	char line[1024];

	if (con_trace.cursor < con_ev_oldest())
		con_trace.cursor = con_ev_oldest();
	for (num = con_trace.cursor; con_trace.on && num < end; num++) {
		e = con_ev_get(num);
		if (e != NULL && con_ev_match(&con_trace.filter, e, 1))
			printf("%s\n", con_ev_format(e, 1, con_ev_t0(), line,
						     sizeof line));
	}
	con_trace.cursor = end;
}

/* Makes done[] fit tr: new processes start at 0; a store that was
 * reset (fewer processes or events than passed) starts over.  0 or -1. */
static int con_live_fit(const ana_trace *tr)
{
	uint32_t *d, p;

	for (p = 0; p < tr->nprocs && p < con_trace.ndone; p++)
		if (con_trace.done[p] > tr->procs[p].nev)
			break;
	if (tr->nprocs < con_trace.ndone || p < con_trace.ndone)
		con_trace.ndone = 0;
	if (tr->nprocs <= con_trace.ndone)
		return 0;
	d = realloc(con_trace.done, (tr->nprocs + 1) * sizeof *d);
	if (d == NULL)
		return -1;
	memset(d + con_trace.ndone, 0,
	       (tr->nprocs - con_trace.ndone) * sizeof *d);
	con_trace.done = d;
	con_trace.ndone = tr->nprocs;
	return 0;
}

/* The compensated time up to which the global order is final: no live
 * process has an event after it yet, so later events of theirs come
 * after it (a process's times never decrease).  Ended processes do not
 * count. */
static int64_t con_live_mark(const ana_trace *tr)
{
	int64_t mark = INT64_MAX;
	const ana_ev *e;
	uint32_t p;

	for (p = 0; p < tr->nprocs; p++) {
		if (tr->procs[p].nev == 0)
			continue;
		e = &tr->procs[p].ev[tr->procs[p].nev - 1];
		if (e->kind != PVT_EV_PROG_EXIT && e->kind != PVT_EV_CRASH &&
		    e->c_ns < mark)
			mark = e->c_ns;
	}
	return mark;
}

/* Prints, in the compensated global order, the events not shown yet up
 * to the mark (everything with all). */
static void con_ev_cmd_live_order(int all)
{
	char err[200], line[1400];
	con_show_index x;
	ana_trace *tr;
	con_ev_rec rec;
	int64_t mark;
	uint64_t k;
	ana_ref r;

	con_trace.last_ns = wire_now_ns();
	tr = con_ana_get(err, sizeof err);
	if (tr == NULL || con_live_fit(tr) != 0 ||
	    con_show_index_build(&x, tr) != 0)
		return;
	mark = all ? INT64_MAX : con_live_mark(tr);
	for (k = 0; k < tr->norder; k++) {
		r = tr->order[k];
		if (r.idx < con_trace.done[r.proc])
			continue;
		if (ana_get(tr, r)->c_ns > mark)
			break;
		con_trace.done[r.proc] = r.idx + 1;
		if (con_show_at(tr, &x, k, ANA_VIEW_COMP, &rec) == NULL ||
		    !con_ev_match(&con_trace.filter, &rec, 0))
			continue;
		con_ev_format(&rec, 0, con_ev_t0(), line, sizeof line);
		con_show_marks(tr, r.proc, r.idx, 0, line, sizeof line);
		printf("%s\n", line);
	}
	con_show_index_free(&x);
}

/* Marks every stored event as shown (trace on: only what comes next). */
static void con_live_skip_stored(void)
{
	char err[200];
	ana_trace *tr = con_ev_next() > 0 ? con_ana_get(err, sizeof err)
					  : NULL;
	uint32_t p;

	con_trace.cursor = con_ev_next();
	con_trace.ndone = 0;
	if (tr == NULL || con_live_fit(tr) != 0)
		return;
	for (p = 0; p < tr->nprocs; p++)
		con_trace.done[p] = tr->procs[p].nev;
}

/* Prints what trace on shows since the last call: --raw in arrival
 * order at once, else in the global order, every half second, up to the
 * point no live process can still precede. */
void con_ev_cmd_live(void)
{
	if (!con_trace.on)
		return;
	if (con_trace.raw)
		con_ev_cmd_live_raw();
	else if (wire_now_ns() - con_trace.last_ns >= CON_LIVE_PERIOD_NS)
		con_ev_cmd_live_order(0);
}

/* Prints everything trace on has held back (run or continue returned). */
void con_ev_cmd_live_flush(void)
{
	if (con_trace.on && !con_trace.raw)
		con_ev_cmd_live_order(1);
}

/* trace on [--raw], trace off */
static int con_trace_on(int argc, char **argv, char *err, size_t errlen)
{
	int on = strcmp(argv[0], "on") == 0;
	int raw = argc == 2 && on && strcmp(argv[1], "--raw") == 0;

	if (argc != 1 && !raw) {
		snprintf(err, errlen, "usage: trace %s", on ? "on [--raw]" :
			 "off");
		return WIRE_EARG;
	}
	con_ev_cmd_live_flush();
	con_trace.on = on;
	con_trace.raw = raw;
	if (on)
		con_live_skip_stored();
	printf("tracing is %s\n", on ? "on" : "off");
	return 0;
}

/* trace filter [proc=...] [kind=...] | clear */
static int con_trace_filter(int argc, char **argv, char *err,
			    size_t errlen)
{
	con_ev_filter f;
	char text[1024];

	if (argc == 2 && strcmp(argv[1], "clear") == 0) {
		memset(&con_trace.filter, 0, sizeof con_trace.filter);
	} else if (argc > 1) {
		if (con_ev_filter_parse(argc - 1, argv + 1, &f, err,
					errlen) < 0)
			return WIRE_EARG;
		con_trace.filter = f;
	}
	con_ev_filter_text(&con_trace.filter, text, sizeof text);
	printf("trace filter: %s\n", text[0] != '\0' ? text : "none");
	return 0;
}

/* ---- show ------------------------------------------------------------- */

/* The arrival number from which the last n matching events start. */
static uint64_t con_trace_from(uint64_t n, int raw)
{
	uint64_t num = con_ev_next(), got = 0;
	const con_ev_rec *e;

	while (num > con_ev_oldest() && got < n) {
		e = con_ev_get(--num);
		got += e != NULL && con_ev_match(&con_trace.filter, e, raw);
	}
	return num;
}

/* trace show --raw: the last n records in arrival order, node times,
 * with the analysis's marks when there is one (tr may be NULL). */
static void con_trace_show_raw(uint64_t n, const ana_trace *tr)
{
	const con_ev_rec *e;
	uint64_t num;
	uint32_t p, i;
	char line[1400];

	for (num = con_trace_from(n, 1); num < con_ev_next(); num++) {
		e = con_ev_get(num);
		if (e == NULL || !con_ev_match(&con_trace.filter, e, 1))
			continue;
		con_ev_format(e, 1, con_ev_t0(), line, sizeof line);
		i = con_show_ana_idx(tr, e, &p);
		if (i != ANA_NONE)
			con_show_marks(tr, p, i, 1, line, sizeof line);
		printf("%s\n", line);
	}
}

/* Prints the last n events of tr->order (sorted in view) that pass the
 * filter, with the view's times counted from the earlier of the first
 * stored event and the first event of the order. */
static void con_trace_show_order(uint64_t n, const ana_trace *tr,
				 const con_show_index *x, int view)
{
	int64_t t0 = con_ev_t0();
	uint64_t k = tr->norder, got = 0;
	con_ev_rec rec;
	char line[1400];

	if (tr->norder > 0 && ana_time(ana_get(tr, tr->order[0]), view) < t0)
		t0 = ana_time(ana_get(tr, tr->order[0]), view);
	while (k > 0 && got < n)
		if (con_show_at(tr, x, --k, view, &rec) != NULL)
			got += con_ev_match(&con_trace.filter, &rec, 0);
	for (; k < tr->norder; k++) {
		if (con_show_at(tr, x, k, view, &rec) == NULL ||
		    !con_ev_match(&con_trace.filter, &rec, 0))
			continue;
		con_ev_format(&rec, 0, t0, line, sizeof line);
		con_show_marks(tr, tr->order[k].proc, tr->order[k].idx, 0,
			       line, sizeof line);
		printf("%s\n", line);
	}
}

/* trace show in the global order of view (ANA_VIEW_COMP or
 * ANA_VIEW_ORDER); tr is left sorted in ANA_VIEW_COMP, as con_ana_get
 * gives it.  0 or a code with err. */
static int con_trace_show_view(uint64_t n, ana_trace *tr, int view,
			       char *err, size_t errlen)
{
	con_show_index x;
	int rc = 0;

	if ((tr->order_view != view && ana_sort(tr, view) != 0) ||
	    con_show_index_build(&x, tr) != 0) {
		snprintf(err, errlen, "trace show: out of memory");
		rc = WIRE_ENOMEM;
	} else {
		con_trace_show_order(n, tr, &x, view);
		con_show_index_free(&x);
	}
	if (tr->order_view != ANA_VIEW_COMP && ana_sort(tr, ANA_VIEW_COMP) != 0)
		tr->order_view = -1;
	return rc;
}

/* Reads trace show's words: N, --raw, --measured.  0 or WIRE_EARG. */
static int con_trace_show_args(int argc, char **argv, uint64_t *n,
			       int *mode, char *err, size_t errlen)
{
	char *end;
	int i;

	*n = CON_EV_SHOW_DEFAULT;
	*mode = CON_SHOW_COMP;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--raw") == 0 && *mode == CON_SHOW_COMP) {
			*mode = CON_SHOW_RAW;
		} else if (strcmp(argv[i], "--measured") == 0 &&
			   *mode == CON_SHOW_COMP) {
			*mode = CON_SHOW_MEASURED;
		} else {
			*n = strtoull(argv[i], &end, 10);
			if (*end == '\0' && end != argv[i] && *n > 0)
				continue;
			snprintf(err, errlen, "usage: trace show [N] "
				 "[--raw|--measured]");
			return WIRE_EARG;
		}
	}
	return 0;
}

/* trace show [N] [--raw|--measured] */
static int con_trace_show(int argc, char **argv, char *err, size_t errlen)
{
	uint64_t n;
	ana_trace *tr;
	int mode, rc = 0;
	char aerr[256];

	if (con_trace_show_args(argc, argv, &n, &mode, err, errlen) != 0)
		return WIRE_EARG;
	con_ev_cmd_live();
	if (con_ev_next() == 0) {
		printf("No events.\n");
		return 0;
	}
	tr = con_ana_get(aerr, sizeof aerr);
	if (mode == CON_SHOW_RAW) {
		con_trace_show_raw(n, tr);
	} else if (tr == NULL) {
		snprintf(err, errlen, "trace show: %s (trace show --raw works "
			 "without the analysis)", aerr);
		return WIRE_ENOMEM;
	} else {
		rc = con_trace_show_view(n, tr, mode == CON_SHOW_COMP ?
					 ANA_VIEW_COMP : ANA_VIEW_ORDER, err,
					 errlen);
	}
	if (rc == 0 && con_ev_dropped() > 0)
		printf("(%llu older events were dropped from the store)\n",
		       (unsigned long long)con_ev_dropped());
	return rc;
}

/* ---- dump ------------------------------------------------------------- */

/* trace dump: NODE PROC SEQ KIND per stored event. */
static int con_trace_dump(int argc, char **argv, char *err, size_t errlen)
{
	const con_ev_rec *e;
	con_ev_src *s;
	uint64_t num;

	con_ev_cmd_live();
	for (num = con_ev_oldest(); num < con_ev_next(); num++) {
		e = con_ev_get(num);
		s = e != NULL ? con_ev_src_at(e->src) : NULL;
		if (s != NULL)
			printf("event %s %u %llu %u\n", s->node, s->proc,
			       (unsigned long long)e->seq, e->kind);
	}
	return 0;
}

/* trace keep [N]: the live store's maximum. */
static int con_trace_keep(int argc, char **argv, char *err, size_t errlen)
{
	unsigned long long n;
	char *end;

	if (argc > 2) {
		snprintf(err, errlen, "usage: trace keep [N]");
		return WIRE_EARG;
	}
	if (argc == 2) {
		n = strtoull(argv[1], &end, 10);
		if (argv[1][0] < '0' || argv[1][0] > '9' || *end != '\0' ||
		    n < 16 || n > (unsigned long long)(SIZE_MAX /
						       CON_EV_REC_BYTES)) {
			snprintf(err, errlen, "trace keep: '%s' is not a "
				 "number of events from 16 up", argv[1]);
			return WIRE_EARG;
		}
		con_ev_set_max((size_t)n);
	}
	if (con_ev_get_max() == CON_EV_UNBOUNDED)
		printf("trace keep: every event (a trace file read back)");
	else
		printf("trace keep: %zu events in memory", con_ev_get_max());
	printf(" (%llu stored, %llu forgotten)\n",
	       (unsigned long long)(con_ev_next() - con_ev_oldest()),
	       (unsigned long long)con_ev_dropped());
	return 0;
}
