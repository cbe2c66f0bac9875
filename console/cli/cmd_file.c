/*
 * cmd_file.c — the trace file commands: `trace file FILE [--force] |
 * off` (write), `open FILE` (read into the event store, then browse with
 * the commands of a live run), the loaded trace's process table for `info
 * procs`, and the one-shot `paravt trace-info FILE` (a summary).
 *
 * While a file is written a wait watcher (con_dbg_watch) flushes it and
 * prints a write error once; at console exit a file still open gets its
 * end record ("console exit").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "con_ana.h"
#include "con_clk.h"
#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "con_sub.h"
#include "con_tfile.h"
#include "wire.h"

#define CON_TFILE_INFO_USAGE "usage: paravt trace-info [-h] FILE"

/* ---- writing ---------------------------------------------------------- */

/* Prints a write error of the trace file once. */
static void con_tfile_cmd_tell(void)
{
	const char *e = con_tfile_take_error();

	if (e != NULL)
		fprintf(stderr, "[%s]\n", e);
}

/* The wait watcher: flushes, tells a write error, never ends a wait. */
static int con_tfile_cmd_watch(void *ctx, char *why, size_t whylen)
{
	(void)ctx;
	(void)why;
	(void)whylen;
	con_tfile_flush();
	con_tfile_cmd_tell();
	if (!con_tfile_active())
		con_dbg_unwatch(con_tfile_cmd_watch, NULL);
	return 0;
}

/* At exit: a file still being written gets its end record. */
static void con_tfile_cmd_atexit(void)
{
	char err[600];

	if (con_tfile_active() &&
	    con_tfile_close("console exit", 0, err, sizeof err) < 0)
		fprintf(stderr, "paravt: %s\n", err);
	con_tfile_cmd_tell();
}

/* The header's command of an interactive trace file: the programs
 * loaded ("console: pvm_master pvm_worker"). */
static void con_tfile_cmd_what(char *buf, size_t n)
{
	char **prog;
	size_t i, k, np;

	prog = con_dbg_programs(&np);
	k = (size_t)snprintf(buf, n, "console%s", np > 0 ? ":" : "");
	for (i = 0; i < np && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, " %s", prog[i]);
}

/* trace file off */
static int con_trace_file_off(char *err, size_t errlen)
{
	char path[1024];

	if (!con_tfile_active()) {
		con_tfile_cmd_tell();
		snprintf(err, errlen, "no trace file is being written");
		return WIRE_ESTATE;
	}
	snprintf(path, sizeof path, "%s", con_tfile_path());
	if (con_tfile_close("off", 0, err, errlen) < 0)
		return WIRE_EIO;
	con_dbg_unwatch(con_tfile_cmd_watch, NULL);
	printf("Trace file %s closed.\n", path);
	return 0;
}

/* The FILE and --force (either order) of trace file.  0, or WIRE_EARG
 * with err. */
static int con_trace_file_args(int argc, char **argv, const char **file,
			       int *force, char *err, size_t errlen)
{
	int i;

	*file = NULL;
	*force = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--force") == 0 && !*force)
			*force = 1;
		else if (*file == NULL && argv[i][0] != '-' &&
			 argv[i][0] != '\0')
			*file = argv[i];
		else
			break;
	}
	if (i < argc || *file == NULL) {
		snprintf(err, errlen, "usage: trace file FILE [--force] | off");
		return WIRE_EARG;
	}
	return 0;
}

/* trace file FILE [--force] | off; without words, says which file. */
int con_trace_file(int argc, char **argv, char *err, size_t errlen)
{
	static int atexit_set;
	const char *file;
	char what[512];
	int force, rc;

	if (argc == 1) {
		con_tfile_cmd_tell();
		if (con_tfile_active())
			printf("Writing the trace file %s.\n", con_tfile_path());
		else
			printf("No trace file is being written.\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "off") == 0)
		return con_trace_file_off(err, errlen);
	if (con_trace_file_args(argc, argv, &file, &force, err, errlen) < 0)
		return WIRE_EARG;
	con_tfile_cmd_what(what, sizeof what);
	rc = con_tfile_open(file, what, force, con_dbg_tfile_procs, err, errlen);
	if (rc < 0)
		return rc;
	if (!atexit_set)
		atexit_set = atexit(con_tfile_cmd_atexit) == 0;
	con_dbg_watch(con_tfile_cmd_watch, NULL);
	printf("Writing the trace file %s (%llu events stored so far "
	       "included).\n", file, (unsigned long long)(con_ev_next() -
							 con_ev_oldest()));
	return 0;
}

/* ---- reading ---------------------------------------------------------- */

/* The loaded process entry pN, or NULL. */
static const con_tfile_proc_info *con_tfile_cmd_proc(int pid_id)
{
	const con_tfile_meta *m = con_tfile_loaded();
	size_t i;

	for (i = 0; i < m->nprocs; i++)
		if (m->procs[i].pid_id == pid_id)
			return &m->procs[i];
	return NULL;
}

/* How a loaded process ended, as "exited", "ended" (status unknown),
 * "crashed" (a fault) or "killed" (a signal sent to it) and a Where text
 * ("status 0", "SIGSEGV"); state NULL when no exit record says. */
static void con_tfile_cmd_end(const con_tfile_proc_info *p,
			      const char **state, char *where, size_t n)
{
	char sig[32];

	*state = NULL;
	if (p == NULL || !p->ended)
		return;
	if (strcmp(p->how, "exit") == 0 && p->code == CON_STATUS_UNKNOWN) {
		*state = "ended";
		snprintf(where, n, "status unknown");
	} else if (strcmp(p->how, "exit") == 0) {
		*state = "exited";
		snprintf(where, n, "status %lld", (long long)p->code);
	} else {
		*state = con_dbg_sig_fault(p->code) ? "crashed" : "killed";
		snprintf(where, n, "%s", con_dbg_signame(p->code, sig,
							 sizeof sig));
	}
}

/* The Tid cell of source s ("-" when unknown). */
static void con_tfile_cmd_tid(const con_ev_src *s, char *buf, size_t n)
{
	if (!s->state.have_tid)
		snprintf(buf, n, "-");
	else if (s->state.mpi) /* an MPI rank */
		snprintf(buf, n, "%d", s->state.tid);
	else
		snprintf(buf, n, "t%x", (unsigned)s->state.tid);
}

/* One row of the loaded process table. */
static void con_tfile_cmd_row(const con_ev_src *s)
{
	char id[16], tid[16], where[WIRE_TEXT_MAX];
	const char *state;

	snprintf(id, sizeof id, "p%d", s->pid_id);
	con_tfile_cmd_tid(s, tid, sizeof tid);
	where[0] = '\0';
	con_tfile_cmd_end(con_tfile_cmd_proc(s->pid_id), &state, where,
			  sizeof where);
	if (state == NULL)
		state = s->state.ended ? "exited" :
			con_ev_activity_name(con_ev_activity(s));
	if (where[0] == '\0' && s->state.line > 0)
		snprintf(where, sizeof where, "%.300s:%d %.200s",
			 con_ev_str(s, s->state.file), s->state.line,
			 con_ev_str(s, s->state.func));
	printf("  %-5s %-12s %-8s %-8s %-13s %s\n", id, s->node, "-", tid,
	       state, where);
}

/* The event store's processes (a trace read with open): info procs when
 * the debugger has none.  State is how the trace says each ended, else
 * what it was doing at the end of the trace. */
int con_tfile_cmd_info_procs(void)
{
	size_t i;

	printf("  %-5s %-12s %-8s %-8s %-13s %s\n", "Id", "Node", "Pid", "Tid",
	       "State", "Where");
	for (i = 0; i < con_ev_nsrcs(); i++)
		con_tfile_cmd_row(con_ev_src_at(i));
	return 0;
}

/* "2026-11-22 18:02:11 UTC" */
static void con_tfile_cmd_date(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, n, "%lld", (long long)t);
}

/* Reads path into the store: records (>= 0, note filled when cut
 * short) or a code with err. */
static long con_tfile_cmd_load(const char *path, int analysed, char *note,
			       size_t nn, char *err, size_t errlen)
{
	long r = analysed ? con_tfile_load_analysed(path, note, nn, err,
						    errlen)
			  : con_tfile_load(path, note, nn, err, errlen);

	if (r == 0 && note[0] != '\0') {
		snprintf(err, errlen, "%s: %s: not even the header is whole",
			 path, note);
		return WIRE_EMALFORMED;
	}
	return r;
}

/* open FILE */
int con_cmd_open(int argc, char **argv, char *err, size_t errlen)
{
	const con_tfile_meta *m;
	char note[200], date[64];
	con_ev_stats t;
	long r;

	if (argc != 2) {
		snprintf(err, errlen, "usage: open FILE");
		return WIRE_EARG;
	}
	r = con_tfile_cmd_load(argv[1], 0, note, sizeof note, err, errlen);
	if (r < 0)
		return (int)r;
	m = con_tfile_loaded();
	con_ev_totals(&t);
	con_tfile_cmd_date(m->created, date, sizeof date);
	printf("Opened %s: %llu events of %zu processes on %zu nodes "
	       "(created %s on %s).\n", argv[1], (unsigned long long)t.n.events,
	       con_ev_nsrcs(), m->nnodes, date, m->host);
	if (note[0] != '\0')
		printf("[note: %s: %s]\n", argv[1], note);
	if (m->skipped > 0)
		printf("[note: %llu records skipped (unknown or malformed)]\n",
		       (unsigned long long)m->skipped);
	if (m->nvars > 0)
		printf("%zu recorded variable values (print NAME shows "
		       "them).\n", m->nvars);
	return 0;
}

/* The names of the recorded variables, each once, into buf. */
static void con_tfile_cmd_varnames(char *buf, size_t n)
{
	const con_tfile_meta *m = con_tfile_loaded();
	size_t i, k, used = 0;
	int w;

	buf[0] = '\0';
	for (i = 0; i < m->nvars && used < n; i++) {
		for (k = 0; k < i; k++)
			if (strcmp(m->vars[k].name, m->vars[i].name) == 0)
				break;
		if (k < i)
			continue;
		w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
			     m->vars[i].name);
		used += w > 0 ? (size_t)w : 0;
	}
}

/* print EXPR on an opened trace: its recorded values. */
int con_tfile_cmd_print_var(const char *expr, char *err, size_t errlen)
{
	const con_tfile_meta *m = con_tfile_loaded();
	const con_tfile_var_info *v;
	const char *base;
	char names[512];
	size_t i, k = 0;

	for (i = 0; i < m->nvars; i++) {
		v = &m->vars[i];
		if (strcmp(v->name, expr) != 0)
			continue;
		base = strrchr(v->file, '/');
		printf("p%d %s:%d (breakpoint %d, hit %llu): %s = %s\n",
		       v->pid_id, base != NULL ? base + 1 : v->file, v->line,
		       v->bp, (unsigned long long)v->hit, v->name, v->value);
		k++;
	}
	if (k > 0)
		return 0;
	con_tfile_cmd_varnames(names, sizeof names);
	snprintf(err, errlen, "the trace recorded no value of %s (recorded: "
		 "%s)", expr, names[0] != '\0' ? names : "nothing");
	return WIRE_EARG;
}

/* ---- paravt trace-info ------------------------------------------------ */

/* The header and the nodes with their clock models and measured paths. */
static void con_tfile_info_head(const char *path)
{
	const con_tfile_meta *m = con_tfile_loaded();
	const con_tfile_node_info *nd;
	char date[64], text[200];
	ana_link l;
	ana_clock c;
	size_t i;

	con_tfile_cmd_date(m->created, date, sizeof date);
	printf("trace file: %s\n", path);
	printf("format:     paravt-trace version %u, %llu bytes, %llu "
	       "records\n", m->version, (unsigned long long)m->size,
	       (unsigned long long)m->records);
	printf("created:    %s on %s\n", date, m->host);
	printf("command:    %s\n", m->command);
	printf("nodes:      %zu\n", m->nnodes);
	for (i = 0; i < m->nnodes; i++) {
		nd = &m->nodes[i];
		printf("  %-12s %s%s%s%s\n", nd->name, nd->arch,
		       nd->port[0] != '\0' ? " [" : "", nd->port,
		       nd->port[0] != '\0' ? "]" : "");
		if (con_clk_model(nd->name, &c) == 0 && c.valid &&
		    c.drift_fitted)
			printf("  %-12s clock: offset %+.3f ms, drift %+.3f "
			       "ppm, error %.3f ms (%u samples)\n", "",
			       (double)c.offset_ns / 1e6, c.drift * 1e6,
			       (double)c.err_ns / 1e6, c.nsamples);
		else if (con_clk_model(nd->name, &c) == 0 && c.valid)
			printf("  %-12s clock: offset %+.3f ms, drift 0 (not "
			       "fitted: the samples span %.1f s, %s), error "
			       "%.3f ms (%u samples)\n", "",
			       (double)c.offset_ns / 1e6,
			       (double)c.span_ns / 1e9,
			       c.span_ns < ANA_CLOCK_DRIFT_SPAN_NS ?
			       "5 s needed" : "too little for their error",
			       (double)c.err_ns / 1e6, c.nsamples);
		else
			printf("  %-12s clock: no model (%llu samples)\n", "",
			       (unsigned long long)nd->clocks);
		if (con_clk_link(nd->name, &l) == 0) {
			con_clk_link_text(&l, text, sizeof text);
			printf("  %-12s link:  %s\n", "", text);
		}
	}
}

/* One process line of trace-info. */
static void con_tfile_info_proc(const con_ev_src *s)
{
	const con_tfile_proc_info *p = con_tfile_cmd_proc(s->pid_id);
	char tid[16], where[64] = "", id[16];
	const char *state;

	snprintf(id, sizeof id, "p%d", s->pid_id);
	con_tfile_cmd_tid(s, tid, sizeof tid);
	con_tfile_cmd_end(p, &state, where, sizeof where);
	if (state == NULL)
		state = s->state.ended ? "ended" : "no end";
	/* the run's own program, else the one its PROG_START names (a task
	   that pvmd or mpirun started) */
	printf("  %-5s %-12s %-8s %-14s %8llu %6llu %6llu %6llu  %s%s%s\n",
	       id, s->node, tid, p != NULL && p->program[0] != '\0' ?
	       p->program : s->state.prog != 0 ?
	       con_ev_str(s, s->state.prog) : "-",
	       (unsigned long long)s->st.n.events,
	       (unsigned long long)s->st.n.sends,
	       (unsigned long long)s->st.n.recvs,
	       (unsigned long long)s->st.lost, state, where[0] ? " " : "",
	       where);
}

/* Time between the first and the last event (console clock), s. */
static double con_tfile_info_span(void)
{
	int64_t lo, hi;

	con_ev_span(&lo, &hi);
	return hi >= lo ? (double)(hi - lo) / 1e9 : 0.0;
}

/* Processes, totals, matched pairs and how the trace ended. */
static void con_tfile_info_body(void)
{
	const con_tfile_meta *m = con_tfile_loaded();
	ana_trace *tr;
	con_ev_stats t;
	char err[200], names[512];
	size_t i;

	printf("processes:  %zu\n", con_ev_nsrcs());
	printf("  %-5s %-12s %-8s %-14s %8s %6s %6s %6s  %s\n", "Id", "Node",
	       "Tid", "Program", "Events", "Sends", "Recvs", "Lost", "End");
	for (i = 0; i < con_ev_nsrcs(); i++)
		con_tfile_info_proc(con_ev_src_at(i));
	con_ev_totals(&t);
	printf("events:     %llu (%llu sends, %llu receives, %llu "
	       "collective; %llu lost)\n", (unsigned long long)t.n.events,
	       (unsigned long long)t.n.sends, (unsigned long long)t.n.recvs,
	       (unsigned long long)t.n.colls, (unsigned long long)t.lost);
	printf("time span:  %.6f s\n", con_tfile_info_span());
	tr = t.n.events > 0 ? con_ana_get(err, sizeof err) : NULL;
	if (tr != NULL)
		printf("matched:    %llu send/recv pairs, %llu multicast "
		       "receives, %llu group instances; unmatched %llu sends, "
		       "%llu receives\n", (unsigned long long)tr->sum.pairs,
		       (unsigned long long)tr->sum.mcast_pairs,
		       (unsigned long long)tr->sum.groups,
		       (unsigned long long)tr->sum.unmatched_sends,
		       (unsigned long long)tr->sum.unmatched_recvs);
	if (m->nvars > 0) {
		con_tfile_cmd_varnames(names, sizeof names);
		printf("variables:  %zu recorded values of %s\n", m->nvars,
		       names);
	}
	if (m->ntypes > 0)
		printf("types:      %llu breakpoint type tables\n",
		       (unsigned long long)m->ntypes);
	if (m->ended)
		printf("ended:      %s, status %lld\n", m->end_how,
		       (long long)m->end_status);
	else
		printf("ended:      no end record (the console was killed, "
		       "or the file is still being written)\n");
	if (m->skipped > 0)
		printf("skipped:    %llu records (unknown or malformed)\n",
		       (unsigned long long)m->skipped);
}

/* paravt trace-info [-h] FILE */
int con_sub_trace_info(int argc, char **argv)
{
	char note[200], err[1200];
	long r;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		printf("%s\n\nPrints a summary of a paravt trace file: "
		       "header, nodes (arch, clock model),\nprocesses with "
		       "their event counts, totals, time span, matched pairs,\n"
		       "how the run ended.  A file cut short is read up to "
		       "its last whole record\n(exit status 0, with a note); "
		       "an unreadable file gives exit status 1.\nSee "
		       "paravt(1) and paravt-trace(5).\n",
		       CON_TFILE_INFO_USAGE);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "%s\n", CON_TFILE_INFO_USAGE);
		return 2;
	}
	r = con_tfile_cmd_load(argv[1], 1, note, sizeof note, err,
			       sizeof err);
	if (r < 0) {
		fprintf(stderr, "paravt: %s\n", err);
		return 1;
	}
	con_tfile_info_head(argv[1]);
	con_tfile_info_body();
	if (note[0] != '\0')
		printf("note:       %s\n", note);
	return 0;
}
