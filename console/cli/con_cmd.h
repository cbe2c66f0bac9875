/*
 * con_cmd.h — the console's commands: table, parsing, help and completion.
 *
 * A command line is split into words (quotes and backslashes as in the
 * shell; a word starting with # begins a comment), the first word is looked
 * up in the command table, and a command with subcommands ("node add")
 * looks the second word up in its own table.  Every command returns 0, a
 * negative code with a sentence in err, or CON_CMD_QUIT.  This is the one
 * layer that prints errors: con_cmd_exec() writes "paravt: WHERE: error:
 * ..." to stderr.  The same tables drive `help` and tab completion, so a
 * new command is described in one place.
 */
#ifndef PARAVT_CON_CMD_H
#define PARAVT_CON_CMD_H

#include <stddef.h>

#include "con_node.h"

#define CON_CMD_QUIT 1      /* a command asked the console to leave */
#define CON_CMD_ARGS 64     /* most words in one command line */
#define CON_CMD_LINE 8192   /* longest command line, bytes */
#define CON_CMD_ERR 1024    /* size of error sentences */

/* A command's body: argv[0] is the (sub)command word.  Returns 0, a
 * negative WIRE_E* code with err filled, or CON_CMD_QUIT. */
typedef int con_cmd_fn(int argc, char **argv, char *err, size_t errlen);

/* What the words after a command complete to. */
enum con_cmd_arg {
	CON_ARG_NONE,  /* nothing known */
	CON_ARG_NODE,  /* the first argument is a node name */
	CON_ARG_CMD,   /* command words (for help) */
	CON_ARG_FILE,  /* file names (load) */
	CON_ARG_NODES, /* every argument is a node name (build, run) */
	CON_ARG_PROC,  /* process names pN and "all" */
	CON_ARG_BP,    /* breakpoint numbers */
	CON_ARG_LOC,   /* breakpoint locations FILE:LINE, FUNCTION */
	CON_ARG_EXPR   /* variables of the current process */
};

/* One entry of a command table; tables end with a NULL name. */
typedef struct con_cmd {
	const char *name;            /* the word typed */
	const char *usage;           /* full usage, starting with the words */
	const char *summary;         /* one line for `help` */
	const char *help;            /* description for `help CMD` */
	con_cmd_fn *run;             /* body, NULL if subs is set */
	const struct con_cmd *subs;  /* subcommand table, or NULL */
	int arg;                     /* enum con_cmd_arg for completion */
	const char *const *flags;    /* option words (completion), or NULL */
} con_cmd;

/* The subcommands of `node` (cmd_node.c). */
extern const con_cmd con_node_cmds[];

/* Fills spec from the words of `node add` (argv[0] is "add"; also each
 * line of a nodes file, paravt trace --nodes).  Parses only: nothing is
 * connected.  0 or -1 with err. */
int con_node_cmd_parse_add(int argc, char **argv, con_node_spec *spec,
			   char *err, size_t errlen);

/* The subcommands of `info` (cmd_dbg.c). */
extern const con_cmd con_info_cmds[];

/* info breakpoints (cmd_break.c); info procs, locals, globals
 * (cmd_print.c). */
con_cmd_fn con_info_breakpoints, con_info_procs, con_info_locals,
	con_info_globals, con_info_args, con_info_frame, con_info_display;

/* The subcommands of `trace` (cmd_trace.c). */
extern const con_cmd con_trace_cmds[];

/* stats (cmd_stats.c). */
con_cmd_fn con_cmd_stats;

/* Prints what `trace on` shows since the last call: with --raw every
 * record as it arrived, else the events in the compensated global order
 * as far as it is final (cmd_trace.c). */
void con_ev_cmd_live(void);

/* Prints what the ordered live display still holds back (called when
 * run or continue returns). */
void con_ev_cmd_live_flush(void);

/* The Tid cell, activity (enum con_ev_activity, -1 unknown) and last
 * event location of p, from its events, into the caller's buffers. */
struct con_proc;
void con_ev_cmd_proc(const struct con_proc *p, char *tid, size_t tidlen,
		     int *activity, char *where, size_t wlen);

/* The debugger's commands: load, build (cmd_build.c); break, delete,
 * enable, disable, ignore (cmd_break.c); run, continue, kill
 * (cmd_run.c); step, next, finish, until, advance, interrupt, wait
 * (cmd_step.c); proc, where, print, set var (cmd_print.c); up, down,
 * frame, whatis, ptype, display, undisplay (cmd_frame.c); focus, pset
 * (cmd_pset.c). */
con_cmd_fn con_cmd_dbg_load, con_cmd_dbg_break, con_cmd_dbg_delete,
	con_cmd_dbg_enable, con_cmd_dbg_ignore, con_cmd_dbg_step,
	con_cmd_dbg_advance, con_cmd_dbg_interrupt, con_cmd_dbg_wait_cmd,
	con_cmd_dbg_set, con_cmd_dbg_frame, con_cmd_dbg_whatis,
	con_cmd_dbg_display, con_cmd_dbg_undisplay, con_cmd_dbg_focus,
	con_cmd_dbg_pset, con_cmd_dbg_condition, con_cmd_dbg_watch,
	con_cmd_dbg_build, con_cmd_dbg_run, con_cmd_dbg_continue,
	con_cmd_dbg_kill, con_cmd_dbg_proc, con_cmd_dbg_where,
	con_cmd_dbg_print;

/* Reads "--timeout SECS" at argv[*i] into *secs: 1 if it was there, 0
 * if not, -1 with err (cmd_run.c). */
int con_cmd_dbg_timeout(int argc, char **argv, int *i, double *secs,
			char *err, size_t errlen);

/* Waits (at most secs) until the processes of a run settle, printing
 * what happens, and says how the wait ended (cmd_run.c). */
void con_cmd_dbg_settle(double secs);

/* How the wait of the last run or continue ended: 0 (settled),
 * WIRE_ETIMEOUT, WIRE_ESTATE (interrupted) or CON_DBG_EWATCH (a watcher,
 * con_dbg.h). */
int con_cmd_dbg_last_settle(void);

/* Commands of the analysis and trace-file layer, each in its module:
 * open, trace file (cmd_file.c); trace check (cmd_order.c);
 * trace export (cmd_export.c); report, info efficiency/matrix/balance
 * (cmd_report.c); info hang (cmd_hang.c). */
con_cmd_fn con_cmd_open, con_trace_file, con_trace_check, con_trace_export,
	con_cmd_report, con_info_efficiency, con_info_matrix, con_info_balance,
	con_info_hang;

/* info procs of a trace read with open (cmd_file.c): the event store's
 * processes with how the trace says they ended.  Returns 0. */
int con_tfile_cmd_info_procs(void);

/* print EXPR on a trace read with open (cmd_file.c): every value of
 * EXPR that `record` breakpoints captured, one line each ("p3
 * pvm_worker.c:81 (breakpoint 1, hit 2): n = 5").  0, or WIRE_EARG with
 * err when the trace has none of EXPR. */
int con_tfile_cmd_print_var(const char *expr, char *err, size_t errlen);

/* The hang watchdog (cmd_hang.c): on (run and continue, while they
 * wait) reports a run with no event for PARAVT_HANG_TIMEOUT seconds
 * whose running processes are all blocked, and ends the wait on a
 * deadlock; off removes it. */
void con_hang_watchdog(int on);

/* Prints the debugger events (stops, output, exits) queued so far. */
void con_cmd_dbg_events(void);

/* The run's time limit passed (paravt trace; may be called from a signal
 * handler): from now on a line of program output is printed only when
 * stdout takes it without waiting, else it is counted and the count
 * said, so that a reader that stopped reading cannot hold the run past
 * its limit. */
void con_cmd_dbg_past_limit(void);
/* The wait is over (stdout blocks again): says how many lines were not
 * shown, if any. */
void con_cmd_dbg_limit_over(void);

/* Offers completions of text for an argument kind >= CON_ARG_NODES. */
void con_cmd_dbg_complete(int arg, const char *text,
			  void (*add)(const char *word, void *ctx), void *ctx);

/* True if the word being completed after argv[0..argc-1] is a file
 * name (load's sources, --token-file and the like). */
int con_cmd_wants_file(int argc, char **argv);

/* True if a completed word after argv[0..argc-1] is usually continued
 * at once (an expression, "FILE:"): no space should follow it. */
int con_cmd_wants_glue(int argc, char **argv);

/* Runs one command line.  where ("SCRIPT:LINE" or NULL) prefixes error
 * messages.  First reads what the nodes sent (announcing nodes that went
 * down).  Returns 0 (also for a blank line), -1 after printing an error,
 * or CON_CMD_QUIT. */
int con_cmd_exec(const char *line, const char *where);

/* Prints an error line "paravt: [WHERE: ]error: MSG" to stderr. */
void con_cmd_error(const char *where, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The con_node_event_fn that announces node happenings on stderr:
 * "[node n2 is down: REASON]". */
void con_cmd_announce(const con_node *n, int kind, const char *text,
		      void *ctx);

/* Splits line into at most max words stored in buf (size buflen), with
 * argv pointing into buf.  With partial != 0 an unterminated quote is
 * accepted (for completion).  Returns the word count, or -1 with err. */
int con_cmd_split(const char *line, char *buf, size_t buflen, char **argv,
		  int max, int partial, char *err, size_t errlen);

/* Calls add(word, ctx) for every completion of the word text when it is
 * word number argc of a line whose earlier words are argv[0..argc-1]. */
void con_cmd_complete(int argc, char **argv, const char *text,
		      void (*add)(const char *word, void *ctx), void *ctx);

/* Writes "did you mean 'X'?" for the entry of tab nearest to word, or
 * "try 'help'" when none is close, into buf. */
void con_cmd_suggest(const con_cmd *tab, const char *word, char *buf,
		     size_t buflen);

#endif
