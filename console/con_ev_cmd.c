/*
 * con_ev_cmd.c — the tracing commands: `trace on|off`, `trace filter`,
 * `trace show`, the hidden `trace dump`, and `stats`; and the live
 * display of events while tracing is on (con_cmd.h).
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
 * by (process, index); the show index below finds the stored record of
 * each (by source and seq) so that the line is the one `trace on` prints,
 * with the view's time.  Receives the analysis flagged are marked: a
 * wildcard receive that took another path than the program would have
 * taken without paravt (every view), a receive moved by compensation
 * (--raw).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_ana.h"
#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "../wrappers/pvt_event.h"
#include "wire.h"

#define CON_EV_SHOW_DEFAULT 20  /* events trace show prints by default */

static int con_trace_on(int argc, char **argv, char *err, size_t errlen);
static int con_trace_filter(int argc, char **argv, char *err,
			    size_t errlen);
static int con_trace_show(int argc, char **argv, char *err, size_t errlen);
static int con_trace_dump(int argc, char **argv, char *err, size_t errlen);

/* The display's state. */
static struct {
	int on;                /* trace on */
	int raw;               /* trace on --raw */
	uint64_t cursor;       /* next arrival number to consider */
	con_ev_filter filter;  /* the display filter */
} con_trace;

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

/* Where each analysed event is in the store: per source, the arrival
 * numbers of its stored events in seq order. */
typedef struct con_show_index {
	size_t nsrcs;      /* sources */
	size_t *off;       /* [nsrcs + 1]: source i's slice of num */
	uint64_t *num;     /* arrival numbers */
	size_t *src_of;    /* [nprocs]: analysis process -> source */
	uint32_t nprocs;   /* entries in src_of */
} con_show_index;

/* The subcommands of `trace` ("dump" is meant for tests). */
const con_cmd con_trace_cmds[] = {
	{"on", "trace on [--raw]",
	 "print every event as it arrives",
	 "Prints one line per completed call (the *_END events), program\n"
	 "start and exit, crash and breakpoint stop, as events arrive:\n"
	 "[p2 s390x] +0.012345 send    -> t4000a tag 7  320 B  "
	 "pvm_master.c:57 main\n"
	 "Receives show the source actually received from (also for\n"
	 "wildcard receives).  Only events that pass `trace filter` print.\n"
	 "The live display is in arrival order with measured times (a\n"
	 "process's events may come late); trace show prints the global\n"
	 "order.  --raw prints them as trace show --raw does.",
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
	 "aux; receives moved by compensation end with \"[compensated: waited\n"
	 "for the send]\".",
	 con_trace_show, NULL, CON_ARG_NONE, con_trace_show_flags},
	{"dump", "trace dump",
	 "every stored event as NODE PROC SEQ KIND (for tests)",
	 "Prints one line per stored event, unfiltered: node, the daemon's\n"
	 "process number, sequence number and kind.",
	 con_trace_dump, NULL, CON_ARG_NONE, NULL},
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

/* Prints the events that arrived since the last call (when on). */
void con_ev_cmd_live(void)
{
	const con_ev_rec *e;
	uint64_t num, end = con_ev_next();
	char line[1024];

	if (con_trace.cursor < con_ev_oldest())
		con_trace.cursor = con_ev_oldest();
	for (num = con_trace.cursor; con_trace.on && num < end; num++) {
		e = con_ev_get(num);
		if (e != NULL &&
		    con_ev_match(&con_trace.filter, e, con_trace.raw))
			printf("%s\n", con_ev_format(e, con_trace.raw,
						     con_ev_t0(), line,
						     sizeof line));
	}
	con_trace.cursor = end;
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
	con_ev_cmd_live();
	con_trace.on = on;
	con_trace.raw = raw;
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

/* ---- show and dump ---------------------------------------------------- */

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

/* trace show [N] [--raw] */
static int con_trace_show(int argc, char **argv, char *err, size_t errlen)
{
	unsigned long long n = CON_EV_SHOW_DEFAULT;
	const con_ev_rec *e;
	uint64_t num;
	char line[1024], *end;
	int i, raw = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--raw") == 0) {
			raw = 1;
			continue;
		}
		n = strtoull(argv[i], &end, 10);
		if (*end != '\0' || end == argv[i] || n == 0) {
			snprintf(err, errlen, "usage: trace show [N] [--raw]");
			return WIRE_EARG;
		}
	}
	con_ev_cmd_live();
	if (con_ev_next() == 0) {
		printf("No events.\n");
		return 0;
	}
	for (num = con_trace_from(n, raw); num < con_ev_next(); num++) {
		e = con_ev_get(num);
		if (e != NULL && con_ev_match(&con_trace.filter, e, raw))
			printf("%s\n", con_ev_format(e, raw, con_ev_t0(), line,
						     sizeof line));
	}
	if (con_ev_dropped() > 0)
		printf("(%llu older events were dropped from the store)\n",
		       (unsigned long long)con_ev_dropped());
	return 0;
}

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

/* ---- stats ------------------------------------------------------------ */

/* Prints one line of the stats table. */
static void con_stats_line(const char *who, const char *node,
			   const char *tid, const con_ev_stats *st)
{
	printf("%-6s %-10s %-8s %7llu %7llu %11llu %11llu %5llu %8llu "
	       "%6llu\n", who, node, tid, (unsigned long long)st->sends,
	       (unsigned long long)st->recvs,
	       (unsigned long long)st->bytes_out,
	       (unsigned long long)st->bytes_in,
	       (unsigned long long)st->colls,
	       (unsigned long long)st->events, (unsigned long long)st->lost);
}

/* The Tid cell of source s: a PVM tid in PVM's hex form, an MPI rank
 * in decimal, "-" when unknown. */
static void con_ev_cmd_tid(const con_ev_src *s, char *buf, size_t n)
{
	if (s == NULL || !s->have_tid)
		snprintf(buf, n, "-");
	else if (con_dbg_mode() == CON_DBG_MPI)
		snprintf(buf, n, "%d", s->tid);
	else
		snprintf(buf, n, "t%x", (unsigned)s->tid);
}

/* qsort order of sources: by process number. */
static int con_stats_cmp(const void *a, const void *b)
{
	const con_ev_src *x = *(con_ev_src *const *)a;
	const con_ev_src *y = *(con_ev_src *const *)b;

	return (x->pid_id > y->pid_id) - (x->pid_id < y->pid_id);
}

/* stats: per process counts from the stored events (rows by process
 * number), and the total. */
int con_cmd_stats(int argc, char **argv, char *err, size_t errlen)
{
	con_ev_src **v, *s;
	con_ev_stats t;
	char who[16], tid[16];
	size_t i, n = con_ev_nsrcs();

	con_ev_cmd_live();
	n = con_ev_nsrcs();
	if (n == 0) {
		printf("No events.\n");
		return 0;
	}
	v = calloc(n, sizeof *v);
	if (v == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = con_ev_src_at(i);
	qsort(v, n, sizeof *v, con_stats_cmp);
	printf("%-6s %-10s %-8s %7s %7s %11s %11s %5s %8s %6s\n", "Proc",
	       "Node", "Tid", "Sends", "Recvs", "BytesOut", "BytesIn", "Coll",
	       "Events", "Lost");
	for (i = 0; i < n; i++) {
		s = v[i];
		snprintf(who, sizeof who, "p%d", s->pid_id);
		con_ev_cmd_tid(s, tid, sizeof tid);
		con_stats_line(who, s->node, tid, &s->st);
	}
	free(v);
	con_ev_totals(&t);
	con_stats_line("total", "", "", &t);
	if (t.dups > 0 || con_ev_dropped() > 0)
		printf("(%llu duplicate events ignored; %llu dropped from the "
		       "store)\n", (unsigned long long)t.dups,
		       (unsigned long long)con_ev_dropped());
	return 0;
}

/* The Tid, State and Where cells `info procs` takes from the events of
 * p (borrowed strings in the caller's buffers).  activity is set to -1
 * when nothing is known. */
void con_ev_cmd_proc(const con_proc *p, char *tid, size_t tidlen,
		     int *activity, char *where, size_t wlen)
{
	const con_ev_src *s = con_ev_src_find(p->node, p->proc);

	con_ev_cmd_tid(s, tid, tidlen);
	*activity = s != NULL ? con_ev_activity(s) : -1;
	where[0] = '\0';
	if (s != NULL && s->line > 0)
		snprintf(where, wlen, "%.300s:%d %.200s",
			 con_ev_str(s, s->file), s->line,
			 con_ev_str(s, s->func));
}
