/*
 * con_cmd_dbg.c — the debugger's commands: load, break, tbreak, delete,
 * build, run, continue, print, where, kill, proc and the `info`
 * subcommands (breakpoints, procs, locals, globals); the printing of
 * asynchronous debugger events; completion of their arguments.
 *
 * Each body parses its words, calls con_dbg.c and prints the result on
 * stdout; errors go back to con_cmd_exec() as a sentence.  Commands that
 * wait (build, run, continue, print, kill) print the events that arrive
 * meanwhile, in order, through con_cmd_dbg_events() (which also prints
 * the traced events when `trace on` is in effect).
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "con_tfile.h"
#include "paravt_rt.h"
#include "wire.h"

#define CON_DBG_EXPR 4096  /* longest expression, bytes */
#define CON_DBG_QUIET_SECS 0.2  /* events are over after this silence */
#define CON_DBG_QUIET_MAX 3.0   /* longest wait for that silence */

static int con_info_breakpoints(int argc, char **argv, char *err,
				size_t errlen);
static int con_info_procs(int argc, char **argv, char *err, size_t errlen);
static int con_info_locals(int argc, char **argv, char *err, size_t errlen);
static int con_info_globals(int argc, char **argv, char *err,
			    size_t errlen);

/* The subcommands of `info`. */
const con_cmd con_info_cmds[] = {
	{"breakpoints", "info breakpoints",
	 "list the breakpoints and where they landed",
	 "One line per breakpoint: number, type, disposition (keep, or once\n"
	 "for a tbreak), enabled, the place asked for, hits, and after a\n"
	 "build the line it landed on (\"moved from\" when the line asked\n"
	 "for had no code) or that it is not compiled in yet.  A record\n"
	 "breakpoint has type record and a second line with what it\n"
	 "records (\"records i, sum, then goes on\").",
	 con_info_breakpoints, NULL, CON_ARG_NONE, NULL},
	{"procs", "info procs",
	 "list the processes started by run",
	 "One line per process: id (pN; * marks the current one), node,\n"
	 "pid, tid (PVM task id or MPI rank, from its events), state and\n"
	 "where it is.  A running process is computing, communicating\n"
	 "(inside a send or multicast) or waiting (inside a receive or a\n"
	 "group call), as its events tell; else stopped, exited, crashed\n"
	 "(a fault: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or killed (a\n"
	 "signal sent to it: SIGTERM of pvm_kill, SIGKILL, ...).  Where:\n"
	 "the breakpoint it is stopped at, how it ended (\"status unknown\"\n"
	 "for a task pvmd or mpirun started that could not say), or the\n"
	 "source line of its last event.",
	 con_info_procs, NULL, CON_ARG_NONE, NULL},
	{"locals", "info locals",
	 "parameters and locals of the current process, with values",
	 "Prints \"name = value\" for every parameter and local variable\n"
	 "recorded at the breakpoint the current process is stopped at.",
	 con_info_locals, NULL, CON_ARG_NONE, NULL},
	{"globals", "info globals",
	 "globals and statics used at the breakpoint, with values",
	 "Prints \"name = value\" for every global and static variable\n"
	 "recorded at the breakpoint the current process is stopped at.",
	 con_info_globals, NULL, CON_ARG_NONE, NULL},
	{"hang", "info hang",
	 "who waits for whom; names a deadlock",
	 "Shows every blocked process (inside a receive, probe, barrier or\n"
	 "group call), what it waits for (a task and tag, any task, the\n"
	 "other members) and its file:line, as a wait-for graph.  A set of\n"
	 "processes that can only be released by each other is reported\n"
	 "as a deadlock, with the cycle and every member's source line;\n"
	 "waiting for a task that exited is a hang.  In a live run, how\n"
	 "long each has been blocked.  While run/continue wait, the same\n"
	 "report comes by itself after PARAVT_HANG_TIMEOUT s (default 10)\n"
	 "without events, and a deadlock ends the wait.",
	 con_info_hang, NULL, CON_ARG_NONE, NULL},
	{"efficiency", "info efficiency [--view comp|order|raw]",
	 "STK's efficiency table: computing vs communication per task",
	 "Per task: total time T, communication time C (inside sends,\n"
	 "receives, multicasts and group calls), of it waiting W, and the\n"
	 "efficiency E_i = (T - C) / T; then the job's E = sum(T - C) /\n"
	 "sum(T), E_min and E_max.  Times are compensated by default.",
	 con_info_efficiency, NULL, CON_ARG_NONE, NULL},
	{"matrix", "info matrix [--bytes]",
	 "messages (or bytes) between every pair of tasks",
	 "The communication matrix: row = sender, column = receiver, one\n"
	 "cell per pair of tasks with the number of matched messages, or\n"
	 "with --bytes their bytes.",
	 con_info_matrix, NULL, CON_ARG_NONE, NULL},
	{"balance", "info balance [--view comp|order|raw]",
	 "load balance: computing time per task against the mean",
	 "Per task: computing time, its share of the total and its\n"
	 "distance from the mean (ParaVT's load-balance polygon as text).\n"
	 "Times are compensated by default.",
	 con_info_balance, NULL, CON_ARG_NONE, NULL},
	{NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL}
};

/* ---- events ----------------------------------------------------------- */

/* Prints one event as a bracketed line. */
static void con_cmd_dbg_event(const con_dbg_event *e)
{
	char sig[32];

	switch (e->kind) {
	case CON_EV_START:
		printf("[p%d started on %s, pid %lld]\n", e->proc, e->node,
		       (long long)e->status);
		break;
	case CON_EV_STOP:
		printf("[p%d on %s stopped at %sbreakpoint %d, %s]\n",
		       e->proc, e->node, e->temp ? "temporary " : "", e->bp,
		       e->text);
		break;
	case CON_EV_OUTPUT:
		if (e->rank >= 0) /* an MPI rank's, through mpirun */
			printf("[p%d r%d] %s\n", e->proc, e->rank, e->text);
		else
			printf("[p%d] %s\n", e->proc, e->text);
		break;
	case CON_EV_EXIT:
		if (e->status == CON_STATUS_UNKNOWN)
			printf("[p%d ended, exit status unknown (not paravtd's "
			       "child, and it could not say: SIGKILL?)]\n",
			       e->proc);
		else
			printf("[p%d exited with status %lld]\n", e->proc,
			       (long long)e->status);
		break;
	case CON_EV_CRASH:
		printf("[p%d killed by signal %s%s%s]\n", e->proc,
		       con_dbg_signame(e->sig, sig, sizeof sig),
		       e->text[0] != '\0' ? " at " : "", e->text);
		break;
	case CON_EV_RECORD:
		printf("[p%d rec %d] %s\n", e->proc, e->bp, e->text);
		break;
	default:
		if (e->proc != 0)
			printf("[p%d on %s: %s]\n", e->proc, e->node, e->text);
		else
			printf("[node %s: %s]\n", e->node, e->text);
	}
}

/* Set once the run's time limit passed (con_cmd_dbg_past_limit). */
static volatile sig_atomic_t con_cmd_dbg_late;

void con_cmd_dbg_past_limit(void)
{
	con_cmd_dbg_late = 1;
}

/* True if stdout takes more without waiting (always before the limit). */
static int con_cmd_dbg_out_ready(void)
{
	struct pollfd p;

	if (!con_cmd_dbg_late)
		return 1;
	p.fd = fileno(stdout);
	p.events = POLLOUT;
	p.revents = 0;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLOUT);
}

/* Lines of output not shown since the limit passed. */
static unsigned long con_cmd_dbg_skipped;

void con_cmd_dbg_limit_over(void)
{
	con_cmd_dbg_late = 0;
	clearerr(stdout);
	if (con_cmd_dbg_skipped > 0)
		printf("\n[%lu lines of output not shown: the console's output "
		       "did not take them by the time limit]\n",
		       con_cmd_dbg_skipped);
	con_cmd_dbg_skipped = 0;
	fflush(stdout);
}

/* Prints every queued event. */
void con_cmd_dbg_events(void)
{
	unsigned long skipped = con_cmd_dbg_skipped;
	con_dbg_event *e;

	con_ev_cmd_live();
	while ((e = con_dbg_event_next()) != NULL) {
		if (e->kind == CON_EV_OUTPUT && !con_cmd_dbg_out_ready())
			skipped++;
		else
			con_cmd_dbg_event(e);
		con_dbg_event_free(e);
	}
	con_cmd_dbg_skipped = skipped;
	if (con_cmd_dbg_out_ready())
		fflush(stdout);
}

/* con_dbg_wait's tick: prints what arrived. */
static void con_cmd_dbg_tick(void *ctx)
{
	con_cmd_dbg_events();
}

/* Waits for cond, printing events; node happenings are announced. */
static int con_cmd_dbg_wait(con_dbg_cond *cond, void *ctx, double secs)
{
	con_dbg_init();
	return con_dbg_wait(cond, ctx, secs, con_cmd_announce,
			    con_cmd_dbg_tick, NULL);
}

/* ---- load and breakpoints --------------------------------------------- */

/* load [--pvm|--mpi|--plain] [FLAG...] [--cflags[@PORT] 'FLAGS']
 * [--ldflags[@PORT] 'FLAGS'] FILE... (con_dbg_load.c) */
int con_cmd_dbg_load(int argc, char **argv, char *err, size_t errlen)
{
	char **src;
	size_t n, i;
	int rc;

	con_dbg_init();
	rc = con_dbg_load(argc, argv, err, errlen);
	if (rc < 0)
		return rc;
	src = con_dbg_sources(&n);
	printf("loaded %zu source file%s:", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		printf(" %s", src[i]);
	printf("\n%s\n", con_dbg_load_note());
	return 0;
}

/* The words after `record` (argv[from..]) joined with blanks into buf
 * ("i, sum"), for bp_set_record.  0 or -1 when too long. */
static int con_cmd_dbg_join(int argc, char **argv, int from, char *buf,
			    size_t n);

/* Makes b a record breakpoint from `record [VAR[,VAR...]]` at argv[2].
 * 0 or WIRE_EARG with err (b is deleted then). */
static int con_cmd_dbg_record(bp *b, int argc, char **argv, char *err,
			      size_t errlen)
{
	char list[CON_DBG_EXPR];

	list[0] = '\0';
	if (strcmp(argv[2], "record") != 0) {
		snprintf(err, errlen, "%s: expected 'record' after the "
			 "location, not '%s'", argv[0], argv[2]);
	} else if (argc > 3 &&
		   con_cmd_dbg_join(argc, argv, 3, list, sizeof list) < 0) {
		snprintf(err, errlen, "%s: record list too long", argv[0]);
	} else if (bp_set_record(b, list, err, errlen) == 0) {
		return 0;
	}
	bp_delete(con_dbg_bps(), b->id, list, sizeof list);
	return WIRE_EARG;
}

/* break / tbreak LOCATION [record [VAR[,VAR...]]] */
int con_cmd_dbg_break(int argc, char **argv, char *err, size_t errlen)
{
	int temp = strcmp(argv[0], "tbreak") == 0;
	char where[1100], rec[CON_DBG_EXPR];
	bp *b;

	con_dbg_init();
	if (argc < 2) {
		snprintf(err, errlen, "usage: %s FILE:LINE | FUNCTION "
			 "[record [VAR[,VAR...]]]", argv[0]);
		return WIRE_EARG;
	}
	if (bp_add(con_dbg_bps(), argv[1], temp, &b, err, errlen) < 0)
		return WIRE_EARG;
	if (argc > 2 && con_cmd_dbg_record(b, argc, argv, err, errlen) < 0)
		return WIRE_EARG;
	bp_where(b, where, sizeof where);
	bp_record_text(b, rec, sizeof rec);
	printf("%s %d at %s%s%s%s\n", temp ? "Temporary breakpoint" :
	       "Breakpoint", b->id, b->func != NULL ? "function " : "",
	       where, b->record ? ", recording " : "", rec);
	if (con_dbg_build_number() > 0)
		printf("note: breakpoints are compiled in: rebuild with "
		       "`build` for this one to take effect\n");
	return 0;
}

/* delete [N...]: without numbers, every breakpoint. */
int con_cmd_dbg_delete(int argc, char **argv, char *err, size_t errlen)
{
	bp_model *m;
	char *end;
	long id;
	int i;

	con_dbg_init();
	m = con_dbg_bps();
	if (argc == 1) {
		bp_model_destroy(m);
		printf("deleted every breakpoint\n");
		return 0;
	}
	for (i = 1; i < argc; i++) {
		id = strtol(argv[i], &end, 10);
		if (*end != '\0' || end == argv[i] || id < 1 || id > 1000000) {
			snprintf(err, errlen, "delete: bad breakpoint number "
				 "'%s'", argv[i]);
			return WIRE_EARG;
		}
		if (bp_delete(m, (int)id, err, errlen) < 0)
			return WIRE_EARG;
	}
	return 0;
}

/* The "Landed" cell of a breakpoint. */
static void con_cmd_dbg_landed(const bp *b, char *buf, size_t n)
{
	if (con_dbg_build_number() == 0)
		snprintf(buf, n, "-");
	else if (!b->landed)
		snprintf(buf, n, "not compiled in: rebuild with `build`");
	else if (b->line != 0 && b->line != b->at_line)
		snprintf(buf, n, "%s:%d in %s (moved from line %d)",
			 b->at_file, b->at_line, b->at_func, b->line);
	else
		snprintf(buf, n, "%s:%d in %s%s", b->at_file, b->at_line,
			 b->at_func, b->from_pragma ? " (#pragma)" : "");
}

/* info breakpoints */
static int con_info_breakpoints(int argc, char **argv, char *err,
				size_t errlen)
{
	char where[1100], landed[1200], rec[CON_DBG_EXPR];
	bp *b;

	con_dbg_init();
	b = con_dbg_bps()->head;
	if (b == NULL) {
		printf("No breakpoints.\n");
		return 0;
	}
	printf("%-4s %-10s %-4s %-3s %-24s %-4s %s\n", "Num", "Type", "Disp",
	       "Enb", "Where", "Hits", "Landed");
	for (; b != NULL; b = b->next) {
		bp_where(b, where, sizeof where);
		con_cmd_dbg_landed(b, landed, sizeof landed);
		printf("%-4d %-10s %-4s %-3s %-24s %-4u %s\n", b->id,
		       b->record ? "record" : "breakpoint",
		       b->temp ? "once" : "keep", b->enabled ? "y" : "n",
		       where, b->hits, landed);
		if (b->record) {
			bp_record_text(b, rec, sizeof rec);
			printf("     records %s, then goes on\n", rec);
		}
	}
	return 0;
}

/* ---- build ------------------------------------------------------------ */

/* Prints text with every line indented by two spaces. */
static void con_cmd_dbg_indent(const char *text)
{
	const char *nl;

	while (text != NULL && *text != '\0') {
		nl = strchr(text, '\n');
		if (nl == NULL)
			nl = text + strlen(text);
		printf("  %.*s\n", (int)(nl - text), text);
		text = *nl != '\0' ? nl + 1 : nl;
	}
}

/* Prints the per-node results ("build of PROG on NODE" when the build
 * makes several programs); returns how many failed. */
static int con_cmd_dbg_build_report(char *failed, size_t flen)
{
	char what[WIRE_TEXT_MAX + 64];
	const char *last = "";
	con_nodebuild *b;
	size_t nprogs;
	int nfail = 0;

	failed[0] = '\0';
	con_dbg_programs(&nprogs);
	for (b = con_dbg_build_first(); b != NULL; b = b->next) {
		if (nprogs > 1)
			snprintf(what, sizeof what, "build of %s on %s",
				 b->program, b->node);
		else
			snprintf(what, sizeof what, "build on %s", b->node);
		if (b->state == CON_NB_OK) {
			printf("%s: ok\n", what);
			continue;
		}
		printf("%s: failed%s\n", what,
		       b->state == CON_NB_PENDING ? ": no answer in time" :
		       "");
		con_cmd_dbg_indent(b->diag);
		if (nfail++ == 0 || strcmp(b->node, last) != 0)
			snprintf(failed + strlen(failed),
				 flen - strlen(failed), " %s", b->node);
		last = b->node;
	}
	return nfail;
}

/* build [NODE...] */
int con_cmd_dbg_build(int argc, char **argv, char *err, size_t errlen)
{
	char *notes = NULL, failed[512];
	int rc, nfail;

	con_dbg_init();
	rc = con_dbg_build_check(argv + 1, argc - 1, err, errlen);
	if (rc == 0)
		rc = con_dbg_instrument(&notes, err, errlen);
	if (rc < 0)
		return rc;
	printf("build %u: instrumented %s\n", con_dbg_build_number(),
	       con_dbg_sources(&(size_t){0})[0]);
	if (notes != NULL)
		printf("%s%s", notes, notes[0] != '\0' &&
		       notes[strlen(notes) - 1] != '\n' ? "\n" : "");
	free(notes);
	rc = con_dbg_build_send(argv + 1, argc - 1, err, errlen);
	if (rc < 0)
		return rc;
	fflush(stdout);
	con_cmd_dbg_wait(con_dbg_build_done, NULL, CON_DBG_BUILD_SECS);
	nfail = con_cmd_dbg_build_report(failed, sizeof failed);
	if (nfail > 0) {
		snprintf(err, errlen, "build failed on%s", failed);
		return WIRE_EARG;
	}
	return 0;
}

/* ---- run, continue, kill ---------------------------------------------- */

/* Reads "--timeout SECS" at argv[*i] into *secs.  1 if it was there, 0
 * if not, -1 with err. */
int con_cmd_dbg_timeout(int argc, char **argv, int *i, double *secs,
			char *err, size_t errlen)
{
	char *end;

	if (strcmp(argv[*i], "--timeout") != 0)
		return 0;
	if (*i + 1 >= argc || (*secs = strtod(argv[*i + 1], &end), *end) ||
	    !(*secs > 0 && *secs <= 86400)) {
		snprintf(err, errlen, "%s: --timeout needs 0 < SECS <= 86400",
			 argv[0]);
		return -1;
	}
	++*i;
	return 1;
}

/* Says which processes are still running after a wait that timed out. */
static void con_cmd_dbg_still_running(double secs)
{
	con_proc *p;

	printf("[still running after %g s:", secs);
	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->state == CON_PROC_RUNNING)
			printf(" p%d", p->id);
	printf("; use continue to wait more, or kill]\n");
}

/* Wait condition: no event batch arrived for CON_DBG_QUIET_SECS (the
 * last batches of processes that just ended are in). */
static int con_cmd_dbg_quiet(void *ctx)
{
	uint64_t last = con_ev_last_arrival(), now = wire_now_ns();

	return now - last > (uint64_t)(CON_DBG_QUIET_SECS * 1e9);
}

/* True if some process is stopped at a breakpoint. */
static int con_cmd_dbg_any_stopped(void)
{
	con_proc *p;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->state == CON_PROC_STOPPED)
			return 1;
	return 0;
}

/* Waits until the processes settle and reports a timeout or Ctrl-C.
 * When every process ended and events arrived, waits on a little for
 * the last batches, and again for processes that started meanwhile (PVM
 * workers, MPI ranks whose PROC_START came late).  A stop at a
 * breakpoint gives the prompt back at once. */
static int con_cmd_dbg_settled_rc; /* how the last settle ended */

void con_cmd_dbg_settle(double secs)
{
	int rc;

	con_hang_watchdog(1);
	rc = con_cmd_dbg_wait(con_dbg_settled, NULL, secs);
	if (rc == 0 && con_ev_last_arrival() != 0 &&
	    !con_cmd_dbg_any_stopped()) {
		con_cmd_dbg_wait(con_cmd_dbg_quiet, NULL, CON_DBG_QUIET_MAX);
		rc = con_cmd_dbg_wait(con_dbg_settled, NULL, secs);
	}
	con_hang_watchdog(0);
	if (rc == WIRE_ETIMEOUT)
		con_cmd_dbg_still_running(secs);
	if (rc == WIRE_ESTATE)
		printf("[interrupted: processes go on; see info procs]\n");
	con_ev_cmd_live_flush();
	if (rc == CON_DBG_EWATCH)
		printf("[stopped waiting: %s]\n", con_dbg_watch_why());
	con_cmd_dbg_settled_rc = rc;
}

/* How the wait of the last run or continue ended: 0 (settled),
 * WIRE_ETIMEOUT, WIRE_ESTATE (interrupted) or CON_DBG_EWATCH. */
int con_cmd_dbg_last_settle(void)
{
	return con_cmd_dbg_settled_rc;
}

/* continue [PROC...|all] [--timeout SECS] */
int con_cmd_dbg_continue(int argc, char **argv, char *err, size_t errlen)
{
	double secs = CON_DBG_RUN_SECS;
	int i, r, any = 0, all = 0;
	con_proc *p;

	con_dbg_init();
	for (i = 1; i < argc; i++) {
		r = con_cmd_dbg_timeout(argc, argv, &i, &secs, err, errlen);
		if (r < 0)
			return WIRE_EARG;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "all") == 0) {
			all = 1;
			continue;
		}
		p = con_dbg_proc_find(argv[i], err, errlen);
		if (p == NULL || con_dbg_resume(p, err, errlen) < 0)
			return WIRE_EARG;
		any = 1;
	}
	for (p = con_dbg_proc_first(); all && p != NULL; p = p->next)
		if (p->state == CON_PROC_STOPPED) {
			if (con_dbg_resume(p, err, errlen) < 0)
				return WIRE_EIO;
			any = 1;
		}
	if (!any && !all) {
		p = con_dbg_current();
		if (p == NULL) {
			snprintf(err, errlen, "no current process (run first)");
			return WIRE_ESTATE;
		}
		if (con_dbg_resume(p, err, errlen) < 0)
			return WIRE_ESTATE;
	} else if (!any) {
		snprintf(err, errlen, "no process is stopped");
		return WIRE_ESTATE;
	}
	con_cmd_dbg_settle(secs);
	return 0;
}

/* kill [PROC|all] */
int con_cmd_dbg_kill(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p = NULL;
	int rc;

	con_dbg_init();
	if (argc > 2) {
		snprintf(err, errlen, "usage: kill [PROC|all]");
		return WIRE_EARG;
	}
	if (argc == 2 && strcmp(argv[1], "all") != 0) {
		p = con_dbg_proc_find(argv[1], err, errlen);
		if (p == NULL)
			return WIRE_EARG;
	}
	rc = con_dbg_kill(p, err, errlen);
	if (rc < 0)
		return rc;
	if (con_cmd_dbg_wait(con_dbg_killed, p, CON_DBG_KILL_SECS) < 0) {
		snprintf(err, errlen, "kill: processes still alive after %g s",
			 CON_DBG_KILL_SECS);
		return WIRE_ETIMEOUT;
	}
	return 0;
}

/* ---- processes -------------------------------------------------------- */

/* The state of p as a word ("killed" for a signal sent to it). */
static const char *con_cmd_dbg_state(const con_proc *p)
{
	static const char *const w[] = {"running", "stopped", "exited",
					"crashed"};

	if (p->state == CON_PROC_CRASHED && p->sig != 0 &&
	    !con_dbg_sig_fault(p->sig))
		return "killed";
	return p->state >= 0 && p->state <= CON_PROC_CRASHED ? w[p->state] :
	       "?";
}

/* The Where cell of p: location, exit status or crash. */
static void con_cmd_dbg_proc_where(const con_proc *p, char *buf, size_t n)
{
	char sig[32];

	if (p->state == CON_PROC_EXITED && p->status == CON_STATUS_UNKNOWN)
		snprintf(buf, n, "status unknown");
	else if (p->state == CON_PROC_EXITED)
		snprintf(buf, n, "status %lld", (long long)p->status);
	else if (p->state == CON_PROC_CRASHED && p->sig != 0)
		snprintf(buf, n, "%s%s%s", con_dbg_signame(p->sig, sig,
							   sizeof sig),
			 p->where[0] != '\0' ? " at " : "", p->where);
	else
		snprintf(buf, n, "%s", p->where);
}

/* The Tid, State and Where cells of p.  A running process's state is
 * what its events say (computing, communicating, waiting); Where is the
 * breakpoint, crash or exit, else the last location of its events. */
static void con_cmd_dbg_proc_row(const con_proc *p, char *tid, size_t tn,
				 const char **state, char *where, size_t wn)
{
	char evwhere[WIRE_TEXT_MAX];
	int act;

	con_ev_cmd_proc(p, tid, tn, &act, evwhere, sizeof evwhere);
	con_cmd_dbg_proc_where(p, where, wn);
	*state = con_cmd_dbg_state(p);
	if (p->state == CON_PROC_RUNNING && act >= 0)
		*state = con_ev_activity_name(act);
	if (where[0] == '\0' || (p->state == CON_PROC_RUNNING &&
				 evwhere[0] != '\0'))
		snprintf(where, wn, "%s", evwhere);
}

/* True if some process has a tid (PVM) or rank (MPI): only then does
 * info procs show the Tid column. */
static int con_cmd_dbg_any_tid(void)
{
	char tid[16], where[8];
	con_proc *p;
	int act;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		con_ev_cmd_proc(p, tid, sizeof tid, &act, where, sizeof where);
		if (strcmp(tid, "-") != 0)
			return 1;
	}
	return 0;
}

/* info procs */
static int con_info_procs(int argc, char **argv, char *err, size_t errlen)
{
	char id[16], tid[16], where[WIRE_TEXT_MAX + 64];
	const char *state;
	con_proc *p;
	int tids;

	con_dbg_init();
	if (con_dbg_proc_first() == NULL && con_ev_nsrcs() > 0)
		return con_tfile_info_procs(); /* a trace read with open */
	if (con_dbg_proc_first() == NULL) {
		printf("No processes.\n");
		return 0;
	}
	tids = con_cmd_dbg_any_tid();
	printf("  %-5s %-12s %-8s %s%-13s %s\n", "Id", "Node", "Pid",
	       tids ? "Tid      " : "", "State", "Where");
	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		snprintf(id, sizeof id, "p%d", p->id);
		con_cmd_dbg_proc_row(p, tid, sizeof tid, &state, where,
				     sizeof where);
		printf("%c %-5s %-12s %-8llu %-*s%s%-13s %s\n",
		       p == con_dbg_current() ? '*' : ' ', id, p->node,
		       (unsigned long long)p->pid, tids ? 8 : 0,
		       tids ? tid : "", tids ? " " : "", state, where);
	}
	return 0;
}

/* proc [PROC]: selects the current process, or shows it. */
int con_cmd_dbg_proc(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p;

	con_dbg_init();
	if (argc > 2) {
		snprintf(err, errlen, "usage: proc [PROC]");
		return WIRE_EARG;
	}
	p = argc == 2 ? con_dbg_proc_find(argv[1], err, errlen) :
	    con_dbg_current();
	if (p == NULL) {
		if (argc == 1)
			snprintf(err, errlen, "no current process");
		return WIRE_EARG;
	}
	con_dbg_select(p);
	printf("[current process p%d on %s, %s%s%s]\n", p->id, p->node,
	       con_cmd_dbg_state(p), p->where[0] != '\0' ? ", " : "",
	       p->where);
	return 0;
}

/* The current process if it is stopped, else NULL with err. */
static con_proc *con_cmd_dbg_stopped(char *err, size_t errlen)
{
	con_proc *p = con_dbg_current();

	if (p == NULL) {
		snprintf(err, errlen, "no current process (run first, or "
			 "select one with 'proc pN')");
		return NULL;
	}
	if (p->state != CON_PROC_STOPPED) {
		snprintf(err, errlen, "p%d is %s, not stopped at a breakpoint",
			 p->id, con_cmd_dbg_state(p));
		return NULL;
	}
	return p;
}

/* where: the stack of the current process, innermost first. */
int con_cmd_dbg_where(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p;
	size_t i;

	con_dbg_init();
	p = con_cmd_dbg_stopped(err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	if (p->nstack == 0)
		printf("#0 %s\n", p->where);
	for (i = 0; i < p->nstack; i++)
		printf("#%zu %s () at %s:%d\n", i, p->stack[i].func,
		       p->stack[i].file, p->stack[i].line);
	return 0;
}

/* ---- print and info locals/globals ------------------------------------ */

/* Joins argv[from..] with spaces into buf.  0 or -1 if empty or long. */
static int con_cmd_dbg_join(int argc, char **argv, int from, char *buf,
			    size_t n)
{
	size_t used = 0;
	int i, w;

	buf[0] = '\0';
	for (i = from; i < argc; i++) {
		w = snprintf(buf + used, n - used, "%s%s", i > from ? " " : "",
			     argv[i]);
		if (w < 0 || (size_t)w >= n - used)
			return -1;
		used += (size_t)w;
	}
	return used > 0 ? 0 : -1;
}

/* print on one process: ask, wait, print.  0 or a code with err. */
static int con_cmd_dbg_print_one(con_proc *p, const char *expr, char *err,
				 size_t errlen)
{
	con_inspect q;
	con_inspect_set s = {&q, 1};
	int rc;

	rc = con_dbg_inspect(p, expr, NULL, &q, err, errlen);
	if (rc == 0)
		rc = con_cmd_dbg_wait(con_dbg_inspect_all_done, &s,
				      CON_DBG_VALUE_SECS);
	if (rc == WIRE_ETIMEOUT || rc == WIRE_ESTATE) {
		snprintf(err, errlen, rc == WIRE_ESTATE ? "interrupted" :
			 "p%d did not answer within %g s", p->id,
			 CON_DBG_VALUE_SECS);
	} else if (rc == 0 && !q.ok) {
		snprintf(err, errlen, "%s: %s", expr,
			 q.text != NULL ? q.text : "no value");
		rc = WIRE_EARG;
	} else if (rc == 0) {
		printf("%s = %s\n", expr, q.text);
	}
	con_dbg_inspect_done(&q);
	return rc;
}

/* The line print -all shows for request q (or its error err). */
static char *con_cmd_dbg_all_line(const char *expr, const con_inspect *q,
				  const char *err)
{
	char *line = NULL;
	int rc;

	if (err != NULL)
		rc = asprintf(&line, "%s: error: %s", expr, err);
	else if (q->ok)
		rc = asprintf(&line, "%s = %s", expr, q->text);
	else
		rc = asprintf(&line, "%s: error: %s", expr,
			      q->text != NULL ? q->text : "no answer");
	return rc < 0 ? NULL : line;
}

/* Prints the lines of print -all grouped by equal text, in the order of
 * first appearance: "x = 5  [p1 p3]". */
static void con_cmd_dbg_groups(char **lines, con_proc **procs, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (lines[i] == NULL)
			continue;
		printf("%s  [p%d", lines[i], procs[i]->id);
		for (j = i + 1; j < n; j++)
			if (lines[j] != NULL && strcmp(lines[i], lines[j]) == 0) {
				printf(" p%d", procs[j]->id);
				free(lines[j]);
				lines[j] = NULL;
			}
		printf("]\n");
		free(lines[i]);
		lines[i] = NULL;
	}
}

/* Number of stopped processes. */
static size_t con_cmd_dbg_nstopped(void)
{
	con_proc *p;
	size_t n = 0;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		n += p->state == CON_PROC_STOPPED;
	return n;
}

/* print -all EXPR: asks every stopped process at once, then groups. */
static int con_cmd_dbg_print_all(const char *expr, char *err, size_t errlen)
{
	size_t n = con_cmd_dbg_nstopped(), k = 0, i;
	con_inspect *q = calloc(n + 1, sizeof *q);
	char **lines = calloc(n + 1, sizeof *lines), **errs;
	con_proc **procs = calloc(n + 1, sizeof *procs), *p;
	con_inspect_set s;
	char e[CON_CMD_ERR];

	errs = calloc(n + 1, sizeof *errs);
	if (n == 0 || q == NULL || lines == NULL || procs == NULL ||
	    errs == NULL) {
		snprintf(err, errlen, n == 0 ? "no process is stopped" :
			 "out of memory");
		free(q), free(lines), free(procs), free(errs);
		return n == 0 ? WIRE_ESTATE : WIRE_ENOMEM;
	}
	for (p = con_dbg_proc_first(); p != NULL && k < n; p = p->next) {
		if (p->state != CON_PROC_STOPPED)
			continue;
		procs[k] = p;
		if (con_dbg_inspect(p, expr, NULL, &q[k], e, sizeof e) < 0)
			errs[k] = strdup(e);
		k++;
	}
	s.q = q;
	s.n = k;
	con_cmd_dbg_wait(con_dbg_inspect_all_done, &s, CON_DBG_VALUE_SECS);
	for (i = 0; i < k; i++) {
		lines[i] = con_cmd_dbg_all_line(expr, &q[i], errs[i] != NULL ?
						errs[i] : q[i].done ? NULL :
						"no answer in time");
		con_dbg_inspect_done(&q[i]);
		free(errs[i]);
	}
	con_cmd_dbg_groups(lines, procs, k);
	free(q), free(lines), free(procs), free(errs);
	return 0;
}

/* print [-all] EXPR */
int con_cmd_dbg_print(int argc, char **argv, char *err, size_t errlen)
{
	char expr[CON_DBG_EXPR];
	int all = argc > 1 && strcmp(argv[1], "-all") == 0;
	con_proc *p;

	con_dbg_init();
	if (con_cmd_dbg_join(argc, argv, 1 + all, expr, sizeof expr) < 0) {
		snprintf(err, errlen, "usage: print [-all] EXPR");
		return WIRE_EARG;
	}
	if (con_dbg_proc_first() == NULL && con_tfile_loaded()->nvars > 0)
		return con_tfile_print_var(expr, err, errlen); /* opened */
	if (all)
		return con_cmd_dbg_print_all(expr, err, errlen);
	p = con_cmd_dbg_stopped(err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	return con_cmd_dbg_print_one(p, expr, err, errlen);
}

/* Prints "name = value" for every variable of the current process whose
 * scope is a or b; none says so. */
static int con_cmd_dbg_vars(int a, int b, const char *none, char *err,
			    size_t errlen)
{
	con_proc *p = con_cmd_dbg_stopped(err, errlen);
	con_inspect *q;
	con_inspect_set s;
	size_t i, k = 0;
	char e[CON_CMD_ERR];

	if (p == NULL)
		return WIRE_ESTATE;
	q = calloc(p->nvars + 1, sizeof *q);
	if (q == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	for (i = 0; i < p->nvars; i++)
		if ((p->vars[i].scope == a || p->vars[i].scope == b) &&
		    con_dbg_inspect(p, NULL, &p->vars[i], &q[k++], e,
				    sizeof e) < 0)
			q[k - 1].done = 1;
	s.q = q;
	s.n = k;
	con_cmd_dbg_wait(con_dbg_inspect_all_done, &s, CON_DBG_VALUE_SECS);
	for (i = 0, k = 0; i < p->nvars; i++) {
		if (p->vars[i].scope != a && p->vars[i].scope != b)
			continue;
		if (q[k].ok)
			printf("%s = %s\n", p->vars[i].name, q[k].text);
		else
			printf("%s: error: %s\n", p->vars[i].name,
			       q[k].text != NULL ? q[k].text : "no answer");
		con_dbg_inspect_done(&q[k++]);
	}
	if (k == 0)
		printf("%s\n", none);
	free(q);
	return 0;
}

/* info locals */
static int con_info_locals(int argc, char **argv, char *err, size_t errlen)
{
	con_dbg_init();
	return con_cmd_dbg_vars(PVT_PARAM, PVT_LOCAL, "No locals.", err,
				errlen);
}

/* info globals */
static int con_info_globals(int argc, char **argv, char *err,
			    size_t errlen)
{
	con_dbg_init();
	return con_cmd_dbg_vars(PVT_GLOBAL, PVT_STATIC, "No globals.", err,
				errlen);
}

/* ---- completion ------------------------------------------------------- */

/* Offers word if it starts with text. */
static void con_cmd_dbg_offer(const char *word, const char *text,
			      void (*add)(const char *, void *), void *ctx)
{
	if (strncmp(word, text, strlen(text)) == 0)
		add(word, ctx);
}

/* Completes the arguments of the debugger's commands (enum con_cmd_arg). */
void con_cmd_dbg_complete(int arg, const char *text,
			  void (*add)(const char *, void *), void *ctx)
{
	char word[1100];
	con_proc *p;
	con_node *n;
	size_t i, ns;
	char **src;
	bp *b;

	con_dbg_init();
	if (arg == CON_ARG_NODES)
		for (n = con_node_first(); n != NULL; n = n->next)
			con_cmd_dbg_offer(n->spec.name, text, add, ctx);
	if (arg == CON_ARG_PROC) {
		con_cmd_dbg_offer("all", text, add, ctx);
		for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
			snprintf(word, sizeof word, "p%d", p->id);
			con_cmd_dbg_offer(word, text, add, ctx);
		}
	}
	if (arg == CON_ARG_BP)
		for (b = con_dbg_bps()->head; b != NULL; b = b->next) {
			snprintf(word, sizeof word, "%d", b->id);
			con_cmd_dbg_offer(word, text, add, ctx);
		}
	if (arg == CON_ARG_LOC)
		for (src = con_dbg_sources(&ns), i = 0; i < ns; i++) {
			snprintf(word, sizeof word, "%s:", src[i]);
			con_cmd_dbg_offer(word, text, add, ctx);
		}
	p = con_dbg_current();
	if (arg == CON_ARG_EXPR && p != NULL)
		for (i = 0; i < p->nvars; i++)
			con_cmd_dbg_offer(p->vars[i].name, text, add, ctx);
}
