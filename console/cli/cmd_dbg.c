/*
 * cmd_dbg.c — what the debugger's commands share: the `info` subcommand
 * table, the printing of asynchronous debugger events, the wait that
 * prints them, and completion of the commands' arguments.  The commands
 * themselves live one family a file: cmd_build.c (load, build),
 * cmd_break.c (break, tbreak, delete, info breakpoints), cmd_run.c (run,
 * continue, kill), cmd_print.c (proc, where, print, info procs, locals,
 * globals).
 *
 * Each body parses its words, calls con_dbg.c and prints the result on
 * stdout; errors go back to con_cmd_exec() as a sentence.  Commands that
 * wait (build, run, continue, print, kill) print the events that arrive
 * meanwhile, in order, through con_cmd_dbg_events() (which also prints
 * the traced events when `trace on` is in effect).
 */
#include <poll.h>
#include <signal.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"

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
	{"args", "info args",
	 "parameters of the current process's function, with values",
	 "Prints \"name = value\" for the parameters recorded where the\n"
	 "current process stopped.",
	 con_info_args, NULL, CON_ARG_NONE, NULL},
	{"frame", "info frame",
	 "the selected frame of the current process",
	 "Where the selected frame (up, down, frame) is, who called it, and\n"
	 "whether its variables were recorded (an outer frame's: at its call,\n"
	 "while the process was armed).",
	 con_info_frame, NULL, CON_ARG_NONE, NULL},
	{"display", "info display",
	 "the expressions shown at every stop",
	 "Lists the displays with their numbers (display, undisplay).",
	 con_info_display, NULL, CON_ARG_NONE, NULL},
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

/* True if breakpoint id is a watchpoint. */
static int con_cmd_bp_is_watch(int id)
{
	const bp *b = bp_find(con_dbg_bps(), id);

	return b != NULL && b->watch != NULL;
}

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
		if (e->bp == 0) /* a step ended, or an interrupt */
			printf("[p%d on %s stopped, %s]\n", e->proc, e->node,
			       e->text);
		else
			printf("[p%d on %s stopped at %s%s %d, %s]\n",
			       e->proc, e->node, e->temp ? "temporary " : "",
			       con_cmd_bp_is_watch(e->bp) ? "watchpoint" :
			       "breakpoint", e->bp, e->text);
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
int con_cmd_dbg_wait(con_dbg_cond *cond, void *ctx, double secs)
{
	con_dbg_init();
	return con_dbg_wait(cond, ctx, secs, con_cmd_announce,
			    con_cmd_dbg_tick, NULL);
}

/* See con_cmd_int.h. */
int con_cmd_number(const char *cmd, const char *what, const char *word,
		   long min, long max, long *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*out = strtol(word, &end, 10);
	if (errno != 0 || *end != '\0' || end == word || *out < min ||
	    *out > max) {
		snprintf(err, errlen, "%s: bad %s '%s' (%ld to %ld)", cmd, what,
			 word, min, max);
		return -1;
	}
	return 0;
}

/* Joins argv[from..] with spaces into buf.  0 or -1 if empty or long. */
int con_cmd_dbg_join(int argc, char **argv, int from, char *buf,
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
