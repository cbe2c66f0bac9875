/*
 * con_batch.c — `paravt trace`: unattended capture of one run into a trace
 * file (con_sub.h).
 *
 *   paravt trace -o OUT [--nodes FILE] [--node NAME=ADDR]... [-x SCRIPT]
 *                [--break SPEC]... [--timeout SECS] [--hang SECS]
 *                [--no-progress] [--stdin FILE] [--exec PATH]
 *                [--pvm|--mpi|--plain] [LOAD-FLAG...] SOURCES...
 *                -- run pvm MASTER ARGS...
 *
 * The subcommand adds no logic of its own to the debugger: it turns its
 * options into the console commands a user would type (node add, load,
 * break ... record, build, then the COMMAND after --, then continue while
 * something stops at a #pragma breakpoint) and runs them through
 * con_cmd_exec, with the trace file (con_tfile.h) open from just before
 * the run to the end.  What it adds is what an unattended run needs: one
 * watcher (con_dbg_watch) that draws a progress line on a terminal and
 * ends the run's wait at the time limit; the end of the run (kill what is
 * left, wait for the last events, close the trace with how it ended); and
 * an exit status that says how program and capture ended (see the table
 * in con_batch_help, con_batch_opts.c, and paravt(1)).
 *
 * The progress line lives on the last line of the terminal.  So that
 * program output and messages do not run into it, stderr and (when it
 * is a terminal too) stdout are replaced, for the run, by streams that
 * first erase the line; the next refresh draws it again.
 *
 * Layout: the options are read in con_batch_opts.c; the progress line,
 * the time limit and the signals are in con_batch_progress.c; here the
 * command lines, the set-up, the run and its end.  What they share is
 * in con_batch_int.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ana_stats.h"
#include "con_batch_int.h"
#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "con_node.h"
#include "con_script.h"
#include "con_sub.h"
#include "con_tfile.h"
#include "wire.h"

#define CON_BATCH_FOREVER "86400"  /* run's own wait: the longest */
#define CON_BATCH_QUIET_NS 300000000ull  /* last events are in after this */
#define CON_BATCH_QUIET_SECS 3.0         /* longest wait for them */
#define CON_BATCH_KEEP 65536u            /* events kept in memory (the
					    file has them all) */
#define CON_BATCH_CONTINUES 10000        /* #pragma stops continued */
#define CON_BATCH_DEFAULT_NODE "local 127.0.0.1:7420"
#define CON_BATCH_CPU_WAIT_PCT 5.0       /* a wait for a CPU worth a note,
					    percent of a process's run */
#define CON_BATCH_CPU_WAIT_RUN 10000000u /* of a run of at least (ns): a
					    shorter one is its start-up */

/* The capture's state (con_batch_int.h). */
con_batch_state con_batch;

/* ---- command lines ------------------------------------------------------ */

/* Appends word w to buf (used bytes *used), quoted for con_cmd_split:
 * 'w' with each ' written '\''.  0 or -1 when it does not fit. */
static int con_batch_quote(char *buf, size_t n, size_t *used, const char *w)
{
	size_t u = *used;

	if (u + 3 >= n)
		return -1;
	if (u > 0)
		buf[u++] = ' ';
	buf[u++] = '\'';
	for (; *w != '\0'; w++) {
		if (u + 6 >= n)
			return -1;
		if (*w == '\'') {
			memcpy(buf + u, "'\\''", 4);
			u += 4;
		} else {
			buf[u++] = *w;
		}
	}
	buf[u++] = '\'';
	buf[u] = '\0';
	*used = u;
	return 0;
}

/* Runs the console command made of the plain words head (may be "",
 * written as is), the quoted words w[0..nw) and, with in_file, the
 * redirection "< 'IN_FILE'".  where prefixes errors.  0, or -1
 * (reported). */
static int con_batch_exec_in(const char *head, char **w, int nw,
			     const char *in_file, const char *where)
{
	char line[CON_CMD_LINE];
	size_t used;
	int i;

	used = (size_t)snprintf(line, sizeof line, "%s", head);
	for (i = 0; i < nw && used < sizeof line; i++)
		if (con_batch_quote(line, sizeof line, &used, w[i]) < 0)
			break;
	if (in_file != NULL && i == nw && used + 2 < sizeof line) {
		used += (size_t)snprintf(line + used, sizeof line - used,
					 " <");
		if (con_batch_quote(line, sizeof line, &used, in_file) < 0)
			used = sizeof line;
	}
	if (used >= sizeof line || i < nw) {
		con_cmd_error(where, "%s ...: command line too long", head);
		return -1;
	}
	return con_cmd_exec(line, where) < 0 ? -1 : 0;
}

/* con_batch_exec_in without a redirection. */
static int con_batch_exec(const char *head, char **w, int nw,
			  const char *where)
{
	return con_batch_exec_in(head, w, nw, NULL, where);
}

/* ---- set-up: nodes, script, load, breakpoints, build -------------------- */

/* Runs `node add LINE [ATTACH]` for each node line of path (blank lines
 * and # comments skipped).  0 or -1 (reported). */
static int con_batch_nodes_file(const char *path, const char *attach)
{
	char head[CON_CMD_LINE], where[512];
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, k;
	ssize_t len;
	int lineno = 0, rc = 0, n = 0;

	if (f == NULL) {
		fprintf(stderr, "paravt trace: cannot read the nodes file "
			"%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
				   line[len - 1] == '\r'))
			line[--len] = '\0';
		for (k = 0; line[k] == ' ' || line[k] == '\t'; k++)
			;
		if (line[k] == '\0' || line[k] == '#')
			continue;
		snprintf(where, sizeof where, "%s:%d", path, lineno);
		snprintf(head, sizeof head, "node add %s%s%s", line + k,
			 attach != NULL ? " " : "", attach ? attach : "");
		rc = con_cmd_exec(head, where) < 0 ? -1 : 0;
		n++;
	}
	if (rc == 0 && ferror(f)) {
		fprintf(stderr, "paravt trace: cannot read the nodes file "
			"%s: %s\n", path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc == 0 && n == 0) {
		fprintf(stderr, "paravt trace: the nodes file %s names no "
			"node\n", path);
		rc = -1;
	}
	return rc;
}

/* --node NAME=ADDR: node add NAME ADDR. */
static int con_batch_node(const char *spec, const char *attach)
{
	const char *eq = strchr(spec, '=');
	char name[CON_CMD_LINE];
	char *w[3];

	snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
	w[0] = name;
	w[1] = (char *)(eq + 1);
	w[2] = (char *)attach;
	return con_batch_exec("node add", w, attach != NULL ? 3 : 2, NULL);
}

/* Adds the nodes: --nodes, --node, or the default one. */
static int con_batch_add_nodes(const con_batch_opts *o)
{
	int i;

	char head[CON_CMD_LINE];

	if (o->nodes_file != NULL &&
	    con_batch_nodes_file(o->nodes_file, o->attach) < 0)
		return -1;
	for (i = 0; i < o->nnodes; i++)
		if (con_batch_node(o->nodes[i], o->attach) < 0)
			return -1;
	if (o->nodes_file == NULL && o->nnodes == 0 && o->script == NULL) {
		snprintf(head, sizeof head, "node add %s%s%s",
			 CON_BATCH_DEFAULT_NODE, o->attach ? " " : "",
			 o->attach ? o->attach : "");
		return con_cmd_exec(head, NULL) < 0 ? -1 : 0;
	}
	return 0;
}

/* --break SPEC as `break LOCATION record [LIST]`.  0 or -1 (reported). */
static int con_batch_break(const char *spec)
{
	char loc[CON_CMD_LINE], list[CON_CMD_LINE];
	char *w[3] = {loc, "record", list};

	if (con_batch_break_split(spec, loc, list) < 0)
		return -1; /* checked by con_batch_check */
	return con_batch_exec("break", w, list[0] != '\0' ? 3 : 2, NULL);
}

/* Everything before the run.  0, or -1 (reported). */
static int con_batch_setup(const con_batch_opts *o)
{
	char err[CON_CMD_ERR];
	int i, quit = 0, failed;

	con_node_set_token_file(o->token);
	/* every event goes to the file; memory keeps the newest for the
	   hang watchdog's report (a script's `trace keep N` overrides):
	   a store that grew with the run cost the console a page fault
	   every 40 events */
	con_ev_set_max(CON_BATCH_KEEP);
	if (con_batch_add_nodes(o) < 0)
		return -1;
	if (o->script != NULL) {
		failed = con_script_run_file(o->script, 0, &quit, err,
					     sizeof err);
		if (failed < 0)
			fprintf(stderr, "paravt trace: %s\n", err);
		if (failed != 0 || quit)
			return -1;
	}
	if (o->nsources == 0)
		return 0;
	if (con_batch_exec("load", o->load, o->nload, NULL) < 0)
		return -1;
	for (i = 0; i < o->nbreaks; i++)
		if (con_batch_break(o->breaks[i]) < 0)
			return -1;
	con_dbg_set_probes(0); /* no live debugging here: no line probes */
	return con_cmd_exec("build", NULL) < 0 ? -1 : 0;
}


/* ---- the run and its end ------------------------------------------------ */

/* True if some process is in state. */
static int con_batch_any(int state)
{
	con_proc *p;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->state == state)
			return 1;
	return 0;
}

/* Continues processes stopped at a #pragma breakpoint until the run
 * settles otherwise.  0, or -1 when a continue was refused. */
static int con_batch_continue_stops(void)
{
	int i;

	for (i = 0; i < CON_BATCH_CONTINUES && !con_batch.signal &&
	     con_cmd_dbg_last_settle() == 0 &&
	     con_batch_any(CON_PROC_STOPPED); i++)
		if (con_cmd_exec("continue all --timeout " CON_BATCH_FOREVER,
				 NULL) < 0)
			return -1;
	return 0;
}

/* The console's own processor time since start-up, seconds (user and
 * system). */
static double con_batch_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Runs COMMAND with the run's wait made unlimited (the watcher holds the
 * time limit), then continues processes stopped at a #pragma
 * breakpoint until the run settles otherwise.  0, or -1 when the
 * command failed (reported). */
static int con_batch_run(const con_batch_opts *o)
{
	char head[CON_CMD_LINE];
	size_t used;
	int skip = 1;

	if (o->ncmd > 1 && (strcmp(o->cmd[1], "pvm") == 0 ||
			    strcmp(o->cmd[1], "mpi") == 0))
		skip = 2;
	used = (size_t)snprintf(head, sizeof head, "run%s%s --timeout "
				CON_BATCH_FOREVER, skip == 2 ? " " : "",
				skip == 2 ? o->cmd[1] : "");
	if (o->exec != NULL) { /* --exec 'PATH' among the run's options */
		used += (size_t)snprintf(head + used, sizeof head - used,
					 " --exec");
		if (con_batch_quote(head, sizeof head, &used, o->exec) < 0) {
			con_cmd_error(NULL, "--exec: path too long");
			return -1;
		}
	}
	con_batch.t0 = wire_now_ns();
	con_batch.cpu0 = con_batch_cpu();
	con_batch_alarm(o->limit);
	if (con_batch_exec_in(head, o->cmd + (o->ncmd ? skip : 0),
			      o->ncmd ? o->ncmd - skip : 0, o->in_file,
			      NULL) < 0)
		return -1;
	return con_batch_continue_stops();
}

/* Wait condition: no event batch for CON_BATCH_QUIET_NS. */
static int con_batch_quiet(void *ctx)
{
	(void)ctx;
	return wire_now_ns() - con_ev_last_arrival() > CON_BATCH_QUIET_NS;
}

/* con_dbg_wait's tick: prints what arrived. */
static void con_batch_tick(void *ctx)
{
	(void)ctx;
	con_cmd_dbg_events();
}

/* Kills what is left and waits for the last events. */
static void con_batch_kill(void)
{
	if (con_batch_any(CON_PROC_RUNNING) ||
	    con_batch_any(CON_PROC_STOPPED))
		con_cmd_exec("kill all", NULL);
	con_dbg_wait(con_batch_quiet, NULL, CON_BATCH_QUIET_SECS,
		     con_cmd_announce, con_batch_tick, NULL);
	con_cmd_dbg_events();
}

/* How the program ended, from its processes: CON_BATCH_OK, _FAILED, or
 * _USAGE when none started.  *code: the first failure's exit status
 * (128 + signal for a crash), else 0; con_batch.why says which process
 * failed and how. */
static int con_batch_outcome(int64_t *code)
{
	char sig[32];
	con_proc *p;

	*code = 0;
	if (con_dbg_proc_first() == NULL)
		return CON_BATCH_USAGE;
	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		if (p->state == CON_PROC_CRASHED) {
			*code = 128 + (p->sig > 0 ? p->sig : 0);
			snprintf(con_batch.why, sizeof con_batch.why,
				 "p%d %s%.300s", p->id, p->sig > 0 ?
				 "killed by " : "", p->sig > 0 ?
				 con_dbg_signame(p->sig, sig, sizeof sig) :
				 p->where);
			return CON_BATCH_FAILED;
		}
		if (p->state == CON_PROC_EXITED && p->status != 0 &&
		    p->status != CON_STATUS_UNKNOWN) {
			*code = p->status;
			snprintf(con_batch.why, sizeof con_batch.why,
				 "p%d exited with status %lld", p->id,
				 (long long)p->status);
			return CON_BATCH_FAILED;
		}
	}
	return CON_BATCH_OK;
}

/* The status of a run that came back: the time limit, a watcher (hang),
 * a signal, or how the program ended; *how gets the words for the trace
 * file and the summary. */
static int con_batch_status(int64_t *code, const char **how)
{
	int settle = con_cmd_dbg_last_settle(), st;

	*code = 0;
	if (con_batch.signal) {
		*how = "interrupted";
		return CON_BATCH_INTR;
	}
	if (con_batch.timed_out || settle == WIRE_ETIMEOUT) {
		*how = "time limit";
		return CON_BATCH_TIMEOUT;
	}
	if (settle == CON_DBG_EWATCH) {
		snprintf(con_batch.why, sizeof con_batch.why, "%s",
			 con_dbg_watch_why());
		*how = "hang";
		return CON_BATCH_HANG;
	}
	st = con_batch_outcome(code);
	*how = st == CON_BATCH_OK ? "exited" : st == CON_BATCH_FAILED ?
	       "failed" : "no process";
	return st;
}

/* One line on stderr: where the trace is and how the run ended
 * (status st; a failure or hang is said in con_batch.why). */
static void con_batch_summary(const char *out, int st)
{
	static const char *const what[] = {
		"every process exited with status 0",
		"the program failed",
		"no process started",
		"time limit reached",
		"ended as hung",
		"interrupted"
	};
	int n = con_batch_nprocs();

	fprintf(stderr, "paravt trace: %s: %llu events, %d process%s, %.1f s "
		"(console CPU %.3f s); %s", out,
		(unsigned long long)con_ev_next(), n, n == 1 ? "" : "es",
		con_batch_elapsed(), con_batch_cpu() - con_batch.cpu0, what[st]);
	if (st == CON_BATCH_FAILED || st == CON_BATCH_HANG)
		fprintf(stderr, " (%s)", con_batch.why);
	if (st >= CON_BATCH_TIMEOUT)
		fprintf(stderr, ", processes killed");
	fprintf(stderr, "\n");
}

/* A note on stderr when a process that ran CON_BATCH_CPU_WAIT_RUN or
 * longer waited for a CPU while it could run (its exit said so:
 * con_ev_src.cpu_wait_ns) for CON_BATCH_CPU_WAIT_PCT of its run or more:
 * the one that waited most. */
static void con_batch_cpu_wait(void)
{
	const con_ev_src *s, *worst = NULL;
	double share, most = 0;
	size_t i;

	for (i = 0; i < con_ev_nsrcs(); i++) {
		s = con_ev_src_at(i);
		if (s->state.cpu_wait_ns < 0 ||
		    s->state.run_ns < CON_BATCH_CPU_WAIT_RUN)
			continue;
		share = ana_stats_cpu_share(s->state.cpu_wait_ns,
					    (int64_t)s->state.run_ns);
		if (share > most) {
			most = share;
			worst = s;
		}
	}
	if (worst == NULL || most < CON_BATCH_CPU_WAIT_PCT)
		return;
	fprintf(stderr, "paravt trace: note: p%d waited for a CPU for %.0f%% "
		"of its run while it could run: other processes had it",
		worst->pid_id, most);
	if (worst->state.share_ns >= 0)
		fprintf(stderr, "; paravt caused %.0f%% "
			"(compensation takes that out), the rest is in its "
			"times", ana_stats_cpu_share(worst->state.share_ns,
						     (int64_t)worst->state.run_ns));
	else
		fprintf(stderr, " (paravtd and the console may be among "
			"them); its times include that wait, which "
			"compensation cannot take out");
	fprintf(stderr, " (`info efficiency` shows every process's)\n");
}

/* Opens the trace, runs, ends the run and closes the trace.  Returns the
 * exit status. */
static int con_batch_finish(const con_batch_opts *o, int rc);

static int con_batch_capture(const con_batch_opts *o, const char *command)
{
	char err[CON_CMD_ERR];

	if (con_tfile_open(o->out, command, 1, con_dbg_tfile_procs, err,
			   sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s: %s\n", o->out, err);
		return CON_BATCH_USAGE;
	}
	con_batch.limit = o->limit;
	return con_batch_finish(o, con_batch_run(o));
}

/* Ends a capture whose run returned rc: kills what is left after a time
 * limit, hang or failure, closes the trace file, prints the summary.
 * The exit status. */
static int con_batch_finish(const con_batch_opts *o, int rc)
{
	char err[CON_CMD_ERR];
	const char *how, *werr;
	int64_t code;
	int st;

	st = con_batch_status(&code, &how);
	if (rc < 0 && st != CON_BATCH_INTR) {
		st = CON_BATCH_USAGE;
		how = "not started";
	}
	if (st >= CON_BATCH_TIMEOUT || rc < 0)
		con_batch_kill();
	werr = con_tfile_take_error();
	if (werr != NULL)
		fprintf(stderr, "paravt trace: %s: %s\n", o->out, werr);
	/* the end record's status is this run's exit status (the program's
	   own statuses are in the exit records) */
	if (con_tfile_close(how, st, err, sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s: %s\n", o->out, err);
		werr = err;
	}
	con_batch_progress_off();
	con_batch_summary(o->out, st);
	con_batch_cpu_wait();
	return werr != NULL && st < CON_BATCH_USAGE ? CON_BATCH_USAGE : st;
}

/* --attach: when FILE exists (the killed run's trace), reads it and
 * enters its processes with their numbers, then goes on writing it after
 * its last whole record; else starts it.  0, or an exit status. */
static int con_batch_attach_file(const con_batch_opts *o,
				 const char *command)
{
	const con_tfile_meta *m;
	char note[300], err[CON_CMD_ERR];
	size_t i;

	if (access(o->out, F_OK) != 0)
		return con_tfile_open(o->out, command, 0, con_dbg_tfile_procs,
				      err, sizeof err) < 0
		       ? (fprintf(stderr, "paravt trace: %s\n", err),
			  CON_BATCH_USAGE) : 0;
	if (con_tfile_load(o->out, note, sizeof note, err, sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s\n", err);
		return CON_BATCH_USAGE;
	}
	m = con_tfile_loaded();
	if (m->ended) {
		fprintf(stderr, "paravt trace: %s is complete (its run ended: "
			"%s); --attach continues the trace of a run whose "
			"console was killed\n", o->out, m->end_how);
		return CON_BATCH_USAGE;
	}
	for (i = 0; i < m->nprocs; i++)
		if (m->procs[i].node[0] != '\0' &&
		    con_dbg_proc_seed(m->procs[i].node, m->procs[i].proc,
				      m->procs[i].pid_id,
				      m->procs[i].ended) < 0) {
			fprintf(stderr, "paravt trace: %s: process p%d twice\n",
				o->out, m->procs[i].pid_id);
			return CON_BATCH_USAGE;
		}
	if (con_tfile_open_append(o->out, m->cut_at, err, sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s\n", err);
		return CON_BATCH_USAGE;
	}
	printf("continuing %s after byte %llu (%zu process%s%s%s)\n", o->out,
	       (unsigned long long)m->cut_at, m->nprocs,
	       m->nprocs == 1 ? "" : "es", note[0] != '\0' ? "; " : "", note);
	return 0;
}

/* paravt trace --attach: takes the detached sessions back, traces their
 * processes until they end (or the limit), closes the file. */
static int con_batch_attach(const con_batch_opts *o, const char *command)
{
	char err[CON_CMD_ERR];
	int st;

	con_node_set_token_file(o->token);
	st = con_batch_attach_file(o, command);
	if (st != 0)
		return st;
	if (con_batch_add_nodes(o) < 0) {
		con_tfile_close("not attached", CON_BATCH_USAGE, err,
				sizeof err);
		return CON_BATCH_USAGE;
	}
	con_batch.limit = o->limit;
	con_batch.t0 = wire_now_ns();
	con_batch.cpu0 = con_batch_cpu();
	con_batch_alarm(o->limit);
	con_cmd_dbg_settle(atof(CON_BATCH_FOREVER));
	return con_batch_finish(o, con_batch_continue_stops());
}

/* The command line as one string (for the trace file's header). */
static char *con_batch_command(int argc, char **argv)
{
	char buf[CON_CMD_LINE];
	size_t used;
	int i;

	used = (size_t)snprintf(buf, sizeof buf, "paravt");
	for (i = 0; i < argc; i++)
		if (con_batch_quote(buf, sizeof buf, &used, argv[i]) < 0)
			break;
	return strdup(buf);
}

/* paravt trace ... (con_sub.h). */
int con_sub_trace(int argc, char **argv)
{
	con_batch_opts o;
	char *command;
	int st;

	st = con_batch_parse(argc, argv, &o);
	if (st != 0) {
		con_batch_opts_free(&o);
		return st < 0 ? CON_BATCH_OK : st;
	}
	command = con_batch_command(argc, argv);
	con_batch_signals();
	if (con_dbg_watch(con_batch_watch, NULL) < 0 || command == NULL) {
		fprintf(stderr, "paravt trace: out of memory\n");
		st = CON_BATCH_USAGE;
	} else if (o.attach != NULL) {
		con_batch_progress_on(o.no_progress);
		st = con_batch_attach(&o, command);
	} else if (con_batch_setup(&o) < 0) {
		st = con_batch.signal ? CON_BATCH_INTR : CON_BATCH_USAGE;
	} else {
		con_batch_progress_on(o.no_progress);
		st = con_batch_capture(&o, command);
	}
	con_batch_progress_off();
	con_batch_output_restore();
	con_cmd_dbg_limit_over();
	con_dbg_unwatch(con_batch_watch, NULL);
	free(command);
	con_batch_opts_free(&o);
	return st;
}
