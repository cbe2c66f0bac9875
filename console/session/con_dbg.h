/*
 * con_dbg.h — the console's debugging session: loaded sources, the
 * breakpoint model, builds on the nodes, the processes they run, and
 * inspection of stopped processes.
 *
 * This module talks to the nodes and keeps state; it never prints.  The
 * frames it cares about (BUILD_RESULT, PROC_START, OUTPUT, PROC_EXIT,
 * TYPE_TABLE, BP_HIT, VALUE, TASK_CRASH, and ERROR answers to its own
 * requests) reach it whenever they arrive, through the node layer's frame
 * hook (con_dbg_init installs it).  What the user should hear about —
 * a process stopped, wrote output, exited, crashed — is queued as events
 * that the command layer takes with con_dbg_event_next() and prints.
 *
 * Commands that wait (build, run, continue, print, kill) start something
 * here, then call con_dbg_wait() with a condition; the wait polls the
 * nodes, lets the command layer print events as they come (tick), and
 * ends when the condition holds or the deadline passes.
 *
 * Processes are named globally p1, p2, ... in the order they started;
 * each maps to (node, the daemon's process number).
 *
 * Functions return 0 or a negative WIRE_E* code with a sentence in err.
 */
#ifndef PARAVT_CON_DBG_H
#define PARAVT_CON_DBG_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bp_model.h"
#include "con_expr.h"
#include "con_node.h"
#include "con_out.h"
#include "td_con.h"

#define CON_DBG_BUILD_SECS 180.0  /* build deadline (emulated nodes) */
#define CON_DBG_RUN_SECS 60.0     /* default wait of run / continue */
#define CON_DBG_VALUE_SECS 30.0   /* one inspection's deadline */
#define CON_DBG_KILL_SECS 10.0    /* wait for killed processes */

/* States of a process (info procs). */
enum con_proc_state {
	CON_PROC_RUNNING,  /* started, not stopped */
	CON_PROC_STOPPED,  /* waiting at a breakpoint */
	CON_PROC_EXITED,   /* ended by exit or return from main */
	CON_PROC_CRASHED   /* ended by a signal */
};

/* A frame of a stopped process's stack. */
typedef struct con_frame {
	char *func;  /* function; owned */
	char *file;  /* source file; owned */
	int line;    /* line */
	int has_vars;   /* its variables were recorded (frame #0: those of
			   the stop; outer ones: at their call) */
	struct con_var *vars; /* an outer frame's; owned (while the frame
			   is selected, the process's own: see
			   con_dbg_frame_select) */
	size_t nvars;   /* entries */
	uint32_t unit;  /* the unit (type table) they belong to */
} con_frame;

/* A variable recorded at the breakpoint a process stopped at. */
typedef struct con_var {
	char *name;     /* identifier; owned */
	uint32_t type;  /* type id in the unit's table */
	uint64_t addr;  /* address in the process */
	int scope;      /* enum pvt_scope */
} con_var;

/* One process started by `run`. */
#define CON_TEMP_SEEN 32 /* tbreaks remembered per process */

typedef struct con_proc {
	int id;                        /* global number: p<id> */
	char node[CON_NODE_NAME_MAX];  /* node it runs on */
	uint32_t proc;                 /* the daemon's process number */
	uint32_t run;                  /* run it belongs to */
	uint64_t pid;                  /* process id on the node */
	int state;                     /* enum con_proc_state */
	char where[WIRE_TEXT_MAX];     /* "f () at prog.c:17", or "" */
	int bp;                        /* breakpoint it stopped at */
	uint32_t unit;                 /* table (unit) of that breakpoint */
	con_var *vars;                 /* its variables; owned */
	size_t nvars;                  /* entries in vars */
	con_var *casts;                /* objects read as another pointer
					  type at this stop (pvt__castN:
					  print ((T *)p)->f); owned */
	size_t ncasts;                 /* entries in casts */
	con_frame *stack;              /* innermost first; owned */
	size_t nstack;                 /* entries in stack */
	int frame;                     /* frame up, down, frame selected
					  (0: where it stopped) */
	int watch_why;                 /* WATCH_HIT before the stop:
					  PVT_WATCH_*, or 0 */
	int watch_at;                  /* ... the line that changed it */
	int cond_bp;                   /* stopped at this breakpoint, whose
					  condition is being evaluated (not
					  shown stopped yet), or 0 */
	int stop_asked;                /* a STOP of stop-mode all is on its
					  way: its stop does not make it
					  the current process */
	td_table **tables;             /* by unit; owned */
	size_t ntables;                /* entries in tables */
	int64_t status;                /* exit status */
	int64_t sig;                   /* signal that ended it, or 0 */
	int crash_told;                /* TASK_CRASH already queued */
	int launcher;                  /* mpirun of a run mpi: the number of
					  ranks it starts (else 0); its
					  output is the ranks', and it is
					  not waited for while they are
					  stopped or blocked */
	struct con_held *held;         /* launcher: ranks' lines waiting for
					  their process; owned */
	int temp_seen[CON_TEMP_SEEN];  /* tbreaks this process has stopped at */
	int ntemp_seen;                /* entries used in temp_seen */
	char *partial[2];              /* unterminated output of stdout and
					  of stderr, each its own (a piece
					  of one is never joined to the
					  other's text); owned */
	con_out out;                   /* what it printed (the cap) */
	struct con_proc *next;         /* next process, or NULL */
} con_proc;

/* Makes frame n (0: where p stopped) the selected one: p->vars,
 * p->nvars and p->unit are then that frame's, so print, set var and the
 * rest work on its variables.  0, or -1 if n is not a frame. */
int con_dbg_frame_select(con_proc *p, int n);

/* Kinds of events for the user. */
enum con_dbg_ev_kind {
	CON_EV_START,   /* text: "" ; status: pid */
	CON_EV_STOP,    /* bp, temp; text: where */
	CON_EV_OUTPUT,  /* text: one line without its newline */
	CON_EV_EXIT,    /* status */
	CON_EV_CRASH,   /* sig; text: last known location */
	CON_EV_NOTE,    /* text: a sentence (e.g. a run refused) */
	CON_EV_RECORD   /* bp; status: its hit number; text: "prog.c:41
			   i = 3, sum = 17.5" (a record breakpoint passed) */
};

/* One event. */
typedef struct con_dbg_event {
	int kind;                      /* enum con_dbg_ev_kind */
	int proc;                      /* global process number, 0 if none */
	char node[CON_NODE_NAME_MAX];  /* node */
	int bp;                        /* breakpoint (STOP) */
	int temp;                      /* STOP at a tbreak */
	int64_t status;                /* EXIT status, START pid */
	int64_t sig;                   /* CRASH signal */
	int rank;                      /* OUTPUT of an MPI rank: its rank
					  (mpirun's tag), else -1 */
	char *text;                    /* see the kinds; owned */
	struct con_dbg_event *next;    /* queue link */
} con_dbg_event;

/* State of a node's part in a build. */
enum con_nb_state {
	CON_NB_PENDING,  /* sent, no answer yet */
	CON_NB_OK,       /* built */
	CON_NB_FAILED    /* compile error, refusal or node lost */
};

/* One node's part in the last build. */
typedef struct con_nodebuild {
	char node[CON_NODE_NAME_MAX];  /* node name */
	uint32_t build;                /* build number */
	int state;                     /* enum con_nb_state */
	char program[WIRE_TEXT_MAX];   /* program name the node built */
	int prog;                      /* its index among the build's
					  programs (0: the first) */
	int sent;                      /* its BUILD was sent */
	char *diag;                    /* diagnostics or reason; owned */
	uint32_t seq_lo, seq_hi;       /* seqs of our frames (ERROR match) */
	struct con_nodebuild *next;    /* next node, or NULL */
} con_nodebuild;

/* Installs the frame hook (idempotent). */
void con_dbg_init(void);

/* ---- load and breakpoints ---- */

/* load: the source files and their compiler and linker flags (argv
 * after the command word; con_dbg_load.c describes them).  Detects PVM
 * and MPI programs from their includes unless --pvm, --mpi or --plain
 * says.  Replaces what was loaded.  0 or WIRE_EARG. */
int con_dbg_load(int argc, char **argv, char *err, size_t errlen);

/* What the last load decided about the program and why ("prog.c: PVM
 * program (includes pvm3.h)"); borrowed. */
const char *con_dbg_load_note(void);

/* The loaded sources (borrowed), *n set. */
char **con_dbg_sources(size_t *n);

/* The breakpoint model (borrowed, editable by the command layer). */
bp_model *con_dbg_bps(void);

/* Number of the last successful instrumentation, 0 if none. */
uint32_t con_dbg_build_number(void);

/* ---- build ---- */

/* Instruments the loaded sources with the breakpoints and records where
 * each landed.  *notes (caller frees; may be NULL) holds the
 * instrumenter's lines.  0 or a code with err. */
int con_dbg_instrument(char **notes, char *err, size_t errlen);

/* Checks that the named nodes (or, with nnodes 0, at least one node)
 * are up, before instrumenting.  0 or a code with err. */
int con_dbg_build_check(char **nodes, int nnodes, char *err, size_t errlen);

/* Ships the instrumented files and BUILD to the named nodes (all up nodes
 * when nnodes is 0).  0 or a code with err (nothing sent then). */
int con_dbg_build_send(char **nodes, int nnodes, char *err, size_t errlen);

/* Wait condition: every node of the current build answered. */
int con_dbg_build_done(void *ctx);

/* The nodes of the current build, in the order they were sent to. */
con_nodebuild *con_dbg_build_first(void);

/* ---- processes ---- */

/* What a run asks besides its kind, nodes and program arguments (all
 * borrowed for the call). */
typedef struct con_run_opts {
	const char *exec;      /* --exec: a program on the node (absolute
				  path), run instead of the build's; NULL */
	const char *in_data;   /* the first process's standard input, or NULL
				  (then it reads EOF) */
	size_t in_len;         /* bytes of in_data */
	char **launch;         /* run mpi: mpirun options, -np N among them
				  (checked, wire_flags.h) */
	int nlaunch;           /* entries in launch */
	int nranks;            /* run mpi: N of -np */
} con_run_opts;

/* RUNs the last build (or o->exec) on the named nodes (nnodes 0: every
 * node whose last build succeeded; with exec every up node) with args.
 * o may be NULL.  0 or a code with err. */
int con_dbg_run(char **nodes, int nnodes, char **args, int nargs,
		const con_run_opts *o, char *err, size_t errlen);

/* RUNs program of the last build (or o->exec) with kind "pvm" (args: the
 * master's arguments) or "mpi" (o->launch holds mpirun's options) on node
 * (NULL: the first up node whose build of program succeeded; with exec
 * the first up node).  The processes that start later (PVM workers, MPI
 * ranks) join the process list as their PROC_START arrives.  run mpi with
 * several up nodes of the master's port (each with a build of program,
 * unless exec) spans them all: they are sent to the master's daemon as
 * PVM_HOST, which makes mpirun's hostfile of them.  0 or a code with
 * err. */
int con_dbg_run_kind(const char *kind, const char *node, const char *program,
		     char **args, int nargs, const con_run_opts *o, char *err,
		     size_t errlen);

/* The settings of the runtime in the console's environment that every
 * RUN carries to the program (PARAVT_TRACE, PARAVT_PROBE_BUSY_NS and any
 * other PARAVT_* but the console's own and the ones the daemon sets), as
 * NAME=VALUE words; caller frees (con_strv_free-like: each word and the
 * array).  NULL when out of memory. */
char **con_dbg_run_env(size_t *n);

/* Kinds of programs `load` marks (what build tells the daemons). */
enum con_dbg_mode {
	CON_DBG_PLAIN,  /* a plain program */
	CON_DBG_PVM,    /* PVM: BUILD gets -DPARAVT_PVM=1 */
	CON_DBG_MPI     /* MPI: BUILD gets -DPARAVT_MPI=1 */
};

/* The mode of what was loaded (enum con_dbg_mode). */
int con_dbg_mode(void);

/* The names of the programs the last build makes (borrowed), *n set:
 * one per source that defines main in PVM and MPI mode, else one. */
char **con_dbg_programs(size_t *n);

/* Wait condition for run/continue: every process started by the last
 * run has answered, and no process of the watched set is running — or
 * some are stopped at breakpoints and every running one has been blocked
 * in a receive, probe or group call, with no event, for 2 s. */
int con_dbg_settled(void *ctx);

/* First process (follow ->next), or NULL. */
con_proc *con_dbg_proc_first(void);

/* The process "pN" or "N", or NULL with err. */
con_proc *con_dbg_proc_find(const char *name, char *err, size_t errlen);

/* Enters process (node, proc) as pid_id id (running, or exited when
 * ended) before anything of it arrives: paravt trace --attach continues
 * a trace file with the numbers it has.  0, or -1 when the id or the
 * process is taken or out of memory. */
int con_dbg_proc_seed(const char *node, uint32_t proc, int id, int ended);

/* The current process (last stopped, or selected), or NULL. */
con_proc *con_dbg_current(void);

/* Selects the current process. */
void con_dbg_select(con_proc *p);

/* Sends RESUME to a stopped process; it is running again.  0 or code. */
int con_dbg_resume(con_proc *p, char *err, size_t errlen);

/* Sends STEP mode (enum pvt_step, paravt_rt.h) to a stopped process: it
 * runs to the next statement the mode names and stops there again
 * (breakpoint 0).  0 or a code with err. */
int con_dbg_step(con_proc *p, int mode, char *err, size_t errlen);

/* Sends KILL for one process (p) or every process of every node (p
 * NULL).  0 or a code with err. */
int con_dbg_kill(con_proc *p, char *err, size_t errlen);

/* Wait condition: no process is running or stopped among those killed. */
int con_dbg_killed(void *ctx);

/* ---- inspection ---- */

/* One inspection request and its answer. */
typedef struct con_inspect {
	con_xval val;         /* the value as a number, when it is one
				 (con_expr.h); owned */
	con_proc *proc;       /* process asked (borrowed) */
	uint32_t req;         /* request number */
	td_path_result res;   /* what was asked, for printing */
	int done;             /* answered (or failed) */
	int ok;               /* text is a value; else an error sentence */
	char *text;           /* the printed value or the error; owned */
} con_inspect;

/* Evaluates path at p's breakpoint and sends INSPECT; with path NULL,
 * asks for variable var of p instead.  Fills *q (caller storage; free
 * with con_dbg_inspect_done).  0, or a code with err (unknown name, bad
 * path, process not stopped). */
int con_dbg_inspect(con_proc *p, const char *path, const con_var *var,
		    con_inspect *q, char *err, size_t errlen);

/* Sends SET of value v (an integer or a float: con_dbg_set_value
 * converts) to what path names at p's stop; q gets the answer, the new
 * value, as for con_dbg_inspect.  0 or a code with err. */
int con_dbg_set(con_proc *p, const char *path, const con_xval *v,
		con_inspect *q, char *err, size_t errlen);

/* Sends WATCH: path at p's stop becomes watchpoint id in p (a local's
 * lives as long as its frame); q gets the value it has now.  0 or a code
 * with err. */
int con_dbg_watch_set(con_proc *p, const char *path, int id, con_inspect *q,
		      char *err, size_t errlen);

/* set var PATH = EXPR at p's stop: EXPR evaluated (an enum's constant
 * name too), converted to PATH's type and checked to fit (a sentence
 * naming the range when not), stored by the process; *q gets the new
 * value (wait with con_dbg_inspect_all_done).  0 or a code with err. */
int con_dbg_set_var(con_proc *p, const char *path, const char *expr,
		    con_inspect *q, char *err, size_t errlen);

/* The type of value path path at p's stop: the table it is in, its id,
 * and the count of a slice (0 if none).  0 or a code with err. */
int con_dbg_type_of(con_proc *p, const char *path, const td_table **t,
		    uint32_t *type, uint64_t *slice, char *err, size_t errlen);

/* Evaluates the C expression expr at p's stop (con_expr.h): each value
 * it needs is asked of p and waited for.  0 with *out (free with
 * con_xval_free), or a code with err. */
int con_dbg_eval(con_proc *p, const char *expr, con_xval *out, char *err,
		 size_t errlen);

/* Wait condition over an array: ctx is a con_inspect_set. */
typedef struct con_inspect_set {
	con_inspect *q;  /* requests */
	size_t n;        /* how many */
} con_inspect_set;
int con_dbg_inspect_all_done(void *ctx);

/* Forgets q (frees its text); marks a late answer to be dropped. */
void con_dbg_inspect_done(con_inspect *q);

/* ---- events and waiting ---- */

/* True if events are queued. */
int con_dbg_event_pending(void);

/* Takes the oldest event (caller frees with con_dbg_event_free), or
 * NULL. */
con_dbg_event *con_dbg_event_next(void);
void con_dbg_event_free(con_dbg_event *e);

/* A wait condition: 1 when the wait is over. */
typedef int con_dbg_cond(void *ctx);

/* Lets waits end early when *flag becomes nonzero (the REPL's Ctrl-C);
 * the wait clears it.  NULL: waits run to their end. */
void con_dbg_set_interrupt(volatile sig_atomic_t *flag);

/* Reads the nodes until cond(ctx) holds or seconds pass; announce gets
 * node happenings, tick(tctx) runs after each read (to print events).
 * 0, WIRE_ETIMEOUT, WIRE_ESTATE when interrupted, or CON_DBG_EWATCH
 * when a watcher ended it. */
int con_dbg_wait(con_dbg_cond *cond, void *ctx, double seconds,
		 con_node_event_fn *announce, void (*tick)(void *),
		 void *tctx);

/* A watcher: called by every con_dbg_wait about five times a second
 * (clock re-sampling, the hang watchdog, the batch progress line and time
 * limit, trace file flushes).  Returns 0 to let the wait go on, or
 * nonzero with a sentence in why to end it: the wait then returns
 * CON_DBG_EWATCH and con_dbg_watch_why() gives the sentence. */
typedef int con_dbg_watch_fn(void *ctx, char *why, size_t whylen);

#define CON_DBG_EWATCH (-40) /* a watcher ended the wait */

/* Adds / removes a watcher (a pair already present is not added twice).
 * 0, or WIRE_ENOMEM when 8 are installed. */
int con_dbg_watch(con_dbg_watch_fn *fn, void *ctx);
void con_dbg_unwatch(con_dbg_watch_fn *fn, void *ctx);

/* The sentence of the watcher that ended the last wait. */
const char *con_dbg_watch_why(void);

/* Text of a signal number: "SIGSEGV" (static or in buf). */
const char *con_dbg_signame(int64_t sig, char *buf, size_t buflen);

/* True for the signals of a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT: "crashed"); false for signals sent to a process ("killed"). */
int con_dbg_sig_fault(int64_t sig);

/* PROC_EXIT status of a process whose exit status is unknown (spawned by
 * pvmd or mpirun, so not the daemon's child, and killed by SIGKILL or
 * ended without telling it); never a process's own status (0..255). */
#define CON_STATUS_UNKNOWN (-1)

/* A proc record of every process (ended 0), then the end of those that
 * ended (ended 1): what con_tfile_open asks for (con_tfile_procs_fn). */
void con_dbg_tfile_procs(int ended);

/* ---- live breakpoints (con_dbg_live.c) ---- */

/* Whether the next builds carry line probes (on by default): without
 * them a breakpoint must be set before the build and nothing can be
 * stepped, but a tight loop runs as fast as without paravt's lines
 * (paravt trace builds without them). */
void con_dbg_set_probes(int on);

/* Lands b, set after the build, on a line probe of that build: the first
 * statement at or after its line (a sentence for the user in note when
 * it moved), or its function's first statement.  0, or WIRE_ESTATE (no
 * build) / WIRE_EARG (no code there) with err. */
int con_dbg_live_land(bp *b, char *note, size_t notelen, char *err,
		      size_t errlen);

/* Sends the table of live breakpoints (enabled, ignore counts) to every
 * up node (BP_SET).  0, or the first sending error with err. */
int con_dbg_live_sync(char *err, size_t errlen);

/* Asks every up node to stop its running processes at their next
 * statement (STOP); *nodes gets how many were asked.  0 or an error. */
int con_dbg_interrupt(int *nodes, char *err, size_t errlen);

/* The same for one running process.  0 or a code with err. */
int con_dbg_stop_proc(con_proc *p, char *err, size_t errlen);

/* set stop-mode all|one: whether a process that stops at a breakpoint
 * stops every other running process too (all, the default; the end of a
 * step does not: the processes of a stepped set each end their own)
 * or lets them run on (one: messages to a stopped process wait in PVM's
 * or MPI's own queues). */
void con_dbg_set_stop_all(int all);
int con_dbg_stop_all(void);

#endif
