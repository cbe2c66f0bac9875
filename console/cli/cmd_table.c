/*
 * cmd_table.c — the console's command table: every top-level command
 * with its usage, one-line summary, help text, handler (the cmd_*.c
 * files) or subcommand table, and what completion offers after it.
 * Dispatch, help and completion over it are con_cmd.c's.
 */
#include <stddef.h>

#include "con_cmd.h"
#include "con_cmd_int.h"


/* Option words of run and continue, and of print (completion). */
static const char *const con_dbg_run_flags[] = {"--timeout", "--exec",
						NULL};
static const char *const con_dbg_cont_flags[] = {"--timeout", NULL};
static const char *const con_dbg_step_flags[] = {"-p", "--timeout", NULL};
static const char *const con_dbg_load_flags[] = {"--pvm", "--mpi", "--plain",
						 "--cflags", "--ldflags",
						 NULL};
static const char *const con_dbg_print_flags[] = {"-all", "/x", "/d", "/u",
						  "/o", "/t", "/c", "/f", NULL};

/* The top-level commands. */
const con_cmd con_cmds[] = {
	{"node", "node SUBCOMMAND [ARGS...]",
	 "manage the nodes (add, list, remove, reconnect, ping)",
	 "Nodes are the machines of the cluster, each reached through its\n"
	 "paravtd daemon over TCP or SSH.  Subcommands:",
	 NULL, con_node_cmds, CON_ARG_NONE, NULL},
	{"load", "load [--pvm|--mpi|--plain] [FLAG...] [--cflags[@PORT] "
	 "'FLAGS'] [--ldflags[@PORT] 'FLAGS'] FILE...",
	 "choose the program's C sources and the flags of its Makefile",
	 "Remembers the C sources of the program and its compiler and linker\n"
	 "flags; `build` instruments them and has every node compile them.\n"
	 "FLAGs as in a Makefile: -I DIR, -D NAME[=V], -U NAME, -l LIB,\n"
	 "-L DIR (absolute: read on the node), -std=, -O, -g, -W..., -f...,\n"
	 "-m..., -pthread, -Wl,OPTION...  -l, -L and -Wl, go to the link,\n"
	 "the others to every compile and the link.  --cflags 'FLAGS' and\n"
	 "--ldflags 'FLAGS' take more (one quoted word, split at blanks);\n"
	 "--cflags@PORT 'FLAGS' only for the nodes of that port (see node\n"
	 "list).  Flags that could write outside the build directory or run\n"
	 "other code (-o, -B, -fplugin, -Wl,-Map ...) are refused, saying\n"
	 "why.  The kind of program comes from the sources' includes\n"
	 "(pvm3.h: PVM, mpi.h: MPI) and load says so: \"prog.c: PVM program\n"
	 "(includes pvm3.h)\"; --pvm, --mpi or --plain overrides it.  In a\n"
	 "PVM or MPI program each source that defines main is a program of\n"
	 "its own (a master and its worker), built with the sources that do\n"
	 "not.",
	 con_cmd_dbg_load, NULL, CON_ARG_FILE, con_dbg_load_flags},
	{"break", "break FILE:LINE | FUNCTION [record [VAR[,VAR...]]] "
	 "[if EXPR]",
	 "set a breakpoint (or a record breakpoint)",
	 "Sets a breakpoint before the statement at FILE:LINE (or the next\n"
	 "line with code, said so) or at the start of FUNCTION.  Set before\n"
	 "`build`, it is compiled into the program; set after it, it takes\n"
	 "effect at once, also in processes that are running (live, marked\n"
	 "so by info breakpoints): every statement of the build can stop.\n"
	 "A `#pragma paravt break` line in the sources is a breakpoint too.\n"
	 "if EXPR: the process stops only when EXPR (a C expression as print\n"
	 "takes) is true there; otherwise it goes on and the pass is not a\n"
	 "hit.  At the first pass the console compiles EXPR for the\n"
	 "processes, which then decide every pass themselves (about 0.2 us);\n"
	 "what they cannot run (sizeof) the console decides at each pass.\n"
	 "info breakpoints says which.\n"
	 "b is short for break.\n"
	 "With record, a process that reaches it does not stop for you:\n"
	 "the console reads the VARs (any expression print takes; none:\n"
	 "every parameter and local), prints one line\n"
	 "  [p3 rec 2] worker.c:41 i = 3, sum = 17.5\n"
	 "writes the values into the trace file, and lets the process go\n"
	 "on; run and continue keep waiting.",
	 con_cmd_dbg_break, NULL, CON_ARG_LOC, NULL},
	{"tbreak", "tbreak FILE:LINE | FUNCTION [record [VAR[,VAR...]]] "
	 "[if EXPR]",
	 "set a breakpoint that stops each process once",
	 "Like break, but every process stops there only the first time it\n"
	 "passes; later passes do not stop.  In a parallel program each\n"
	 "process gets its one stop, not only the first to arrive.  With\n"
	 "record, each process records once.",
	 con_cmd_dbg_break, NULL, CON_ARG_LOC, NULL},
	{"delete", "delete [N...]",
	 "delete breakpoints (all without numbers)",
	 "Deletes the breakpoints numbered N.  A deleted breakpoint that is\n"
	 "still compiled in no longer stops: processes pass it at once.",
	 con_cmd_dbg_delete, NULL, CON_ARG_BP, NULL},
	{"watch", "watch VARIABLE",
	 "stop the current process when a value changes",
	 "A software watchpoint on VARIABLE (x, s.f, a[3], *p) of the\n"
	 "stopped current process: the process compares it at every\n"
	 "statement it executes (slower meanwhile) and stops when it\n"
	 "changed, telling the old value, the new one and the line that\n"
	 "changed it.  A local's watchpoint is deleted, with a stop, when\n"
	 "its function returns.  delete N removes it.",
	 con_cmd_dbg_watch, NULL, CON_ARG_EXPR, NULL},
	{"condition", "condition N [EXPR]",
	 "stop at breakpoint N only when EXPR is true",
	 "Sets the condition of breakpoint N (as break ... if EXPR); without\n"
	 "EXPR, N stops at every pass again.",
	 con_cmd_dbg_condition, NULL, CON_ARG_BP, NULL},
	{"disable", "disable [N...]",
	 "keep breakpoints but let processes pass them (all without numbers)",
	 "A disabled breakpoint stays in the list (info breakpoints: Enb n)\n"
	 "and stops nothing until enable; running processes see it at once.",
	 con_cmd_dbg_enable, NULL, CON_ARG_BP, NULL},
	{"enable", "enable [N...]",
	 "make disabled breakpoints stop again (all without numbers)",
	 "The opposite of disable.",
	 con_cmd_dbg_enable, NULL, CON_ARG_BP, NULL},
	{"ignore", "ignore N COUNT",
	 "pass breakpoint N COUNT times before it stops",
	 "The next COUNT times a process reaches breakpoint N it goes on;\n"
	 "each process counts its own passes (a live breakpoint's count is\n"
	 "kept by the processes).  ignore N 0 ends it.",
	 con_cmd_dbg_ignore, NULL, CON_ARG_BP, NULL},
	{"build", "build [NODE...]",
	 "instrument the program and build it on the nodes",
	 "Instruments the loaded sources with the breakpoints, ships them to\n"
	 "the nodes (default: every node that is up) and has each daemon\n"
	 "compile them with its own compiler.  Prints one line per node,\n"
	 "with the diagnostics of a failed build; the command fails if any\n"
	 "node failed, but the others still have their build.",
	 con_cmd_dbg_build, NULL, CON_ARG_NODES, NULL},
	{"run", "run [NODE...] [--timeout SECS] [--exec PATH] [-- ARGS...] "
	 "[< FILE] | "
	 "run pvm [NODE] [--timeout SECS] MASTER|--exec PATH [ARGS...] "
	 "[< FILE] | "
	 "run mpi [NODE] [--timeout SECS] [MPIRUN-OPTION...] -np N "
	 "[PROG|--exec PATH] [ARGS...] [< FILE]",
	 "start the program and wait until it stops or ends",
	 "Runs the last build on the nodes named (default: every node whose\n"
	 "build succeeded) with ARGS, one process each, named p1, p2, ...\n"
	 "Waits until every process has stopped at a breakpoint, exited or\n"
	 "crashed (at most SECS, default 60), printing what happens:\n"
	 "[p1 on big stopped at breakpoint 1, main () at prog.c:42],\n"
	 "[p1] program output, [p2 exited with status 0],\n"
	 "[p3 killed by signal SIGSEGV at prog.c:17 in f ()].\n"
	 "< FILE (last on the line): the first process (each plain one, the\n"
	 "PVM master, MPI rank 0) reads FILE's contents, then EOF; without\n"
	 "it standard input is at EOF.  --exec PATH runs a program that is\n"
	 "on the node instead of a build (MPI and PVM ones traced through\n"
	 "LD_PRELOAD; events without source lines).\n"
	 "run pvm starts MASTER (a program of a PVM build) under PVM on\n"
	 "NODE (default: the first node that built it); the other nodes with\n"
	 "a build join its virtual machine.  run mpi starts N ranks of PROG\n"
	 "(default: the first program) with mpirun and the MPIRUN-OPTIONs\n"
	 "(-x VAR, --map-by, --bind-to, --mca K V, -npernode ...; see\n"
	 "paravt(1)); with several nodes of the master's port the job spans\n"
	 "them.  A rank's output shows as [p3 r2] text.  A MASTER or PROG\n"
	 "that is not a program of the build is an error.  The processes\n"
	 "they start (workers, ranks) join the list as they appear, and the\n"
	 "wait covers them too.",
	 con_cmd_dbg_run, NULL, CON_ARG_NODES, con_dbg_run_flags},
	{"continue", "continue [PROC...|all] [--timeout SECS]",
	 "resume stopped processes and wait again",
	 "Resumes the current process (or those named, or every stopped one\n"
	 "with all) and waits as run does.  c is short for continue.",
	 con_cmd_dbg_continue, NULL, CON_ARG_PROC, con_dbg_cont_flags},
	{"step", "step [-p PROC] [COUNT] [--timeout SECS]",
	 "run the current process to its next statement (into calls)",
	 "Resumes the current process (or PROC) and stops it again at the\n"
	 "next statement it executes, inside a function it calls if that\n"
	 "one was built with paravt; COUNT times.  The other processes stay\n"
	 "as they are.  Prints where it stopped: [p1 on n stopped, f () at\n"
	 "prog.c:18].  s is short for step.",
	 con_cmd_dbg_step, NULL, CON_ARG_NONE, con_dbg_step_flags},
	{"next", "next [-p PROC] [COUNT] [--timeout SECS]",
	 "run the current process to its next statement here (over calls)",
	 "As step, but stops only in the same function or one of its\n"
	 "callers: calls run to their end.  n is short for next.",
	 con_cmd_dbg_step, NULL, CON_ARG_NONE, con_dbg_step_flags},
	{"finish", "finish [-p PROC] [--timeout SECS]",
	 "run the current process until its function returns",
	 "Stops the process at the first statement after the current\n"
	 "function returned (in its caller).",
	 con_cmd_dbg_step, NULL, CON_ARG_NONE, con_dbg_step_flags},
	{"until", "until [-p PROC] [COUNT] [--timeout SECS]",
	 "as next, but out of a loop: only past the current line",
	 "As next, but in the same function stops only at a line after the\n"
	 "current one, so a loop runs to its end.  u is short for until.",
	 con_cmd_dbg_step, NULL, CON_ARG_NONE, con_dbg_step_flags},
	{"advance", "advance FILE:LINE | FUNCTION [-p PROC] [--timeout SECS]",
	 "run the current process to a location",
	 "Sets a temporary breakpoint at the location (tbreak) and\n"
	 "continues the current process (or PROC).",
	 con_cmd_dbg_advance, NULL, CON_ARG_LOC, con_dbg_step_flags},
	{"interrupt", "interrupt [--timeout SECS]",
	 "stop every running process at its next statement",
	 "Asks every node to stop its running processes (those built with\n"
	 "paravt) before the next statement they execute; a process blocked\n"
	 "in a receive stops when the receive returns.  Waits as continue\n"
	 "does (default 10 s).",
	 con_cmd_dbg_interrupt, NULL, CON_ARG_NONE, con_dbg_cont_flags},
	{"wait", "wait [--timeout SECS]",
	 "wait until the running processes stop or end",
	 "Waits as run and continue do, without resuming anything: after a\n"
	 "breakpoint was set while the processes run, or after run or\n"
	 "continue gave up waiting.",
	 con_cmd_dbg_wait_cmd, NULL, CON_ARG_NONE, con_dbg_cont_flags},
	{"print", "print [-all] [/FMT] EXPR",
	 "show a value of the current (or every stopped) process",
	 "Evaluates EXPR where the current process stopped and prints it:\n"
	 "\"x = 5\".  EXPR is a value (x, s.f, p->f, a[3], *p, a[2]@10,\n"
	 "p->next->v: structs and arrays shown whole) or a C expression over\n"
	 "them: + - * / % << >> & | ^ ~ ! && || == != < > <= >= ?:, &x,\n"
	 "indexes computed (a[i + 1]), casts to arithmetic types and to the\n"
	 "program's own (a typedef, an enum, a pointer: ((struct cell *)vp)\n"
	 "->id), sizeof (the node's sizes); integers in 64 bits, the same on\n"
	 "every architecture.  In an outer frame (up) its variables.\n"
	 "/FMT: /d /u /x /o /t /c /f (also p/x EXPR).  With -all, asks every\n"
	 "stopped process and groups equal answers: \"x = 5  [p1 p3]\".\n"
	 "p is short for print.",
	 con_cmd_dbg_print, NULL, CON_ARG_EXPR, con_dbg_print_flags},
	{"set", "set var VARIABLE = EXPR | set stop-mode all|one",
	 "change a variable of the current process; the stop mode",
	 "Stores the value of EXPR (a C expression as print takes, or an\n"
	 "enum's constant) into VARIABLE (x, s.f, a[k + 1], *p, p->next->v) of\n"
	 "the stopped current process, converted to its type on the node\n"
	 "(size, signedness, byte order), and prints what it holds then.\n"
	 "Integers, chars, enums, floating point, a pointer set to 0; a value\n"
	 "that does not fit, a const variable, a struct or an array are\n"
	 "errors that say so.  set variable is the same.\n"
	 "set stop-mode all (the default): when a process stops at a\n"
	 "breakpoint, every other running process is stopped at its next\n"
	 "statement, and continue resumes them all.\n"
	 "set stop-mode one: the others run on (messages to a stopped\n"
	 "process wait in PVM's or MPI's queues) and continue resumes the\n"
	 "current process.",
	 con_cmd_dbg_set, NULL, CON_ARG_EXPR, NULL},
	{"up", "up [N]",
	 "select the frame N calls out (the caller)",
	 "Moves the selected frame of the current process N (1) frames\n"
	 "toward main and shows it; print, set var and info locals then\n"
	 "work on its variables (recorded at its call while the process was\n"
	 "armed: a frame that made its call before says it has none).",
	 con_cmd_dbg_frame, NULL, CON_ARG_NONE, NULL},
	{"down", "down [N]",
	 "select the frame N calls in",
	 "Moves the selected frame N (1) frames toward where the process\n"
	 "stopped.",
	 con_cmd_dbg_frame, NULL, CON_ARG_NONE, NULL},
	{"frame", "frame [N]",
	 "select frame N, or show the selected one",
	 "Selects frame N of the current process (0: where it stopped) and\n"
	 "shows it; without N, shows the selected one.",
	 con_cmd_dbg_frame, NULL, CON_ARG_NONE, NULL},
	{"whatis", "whatis VARIABLE",
	 "the type of a value",
	 "Prints \"type = struct cell *\" for a value path (x, s.f, a[3],\n"
	 "*p) where the current process stopped, as the node's table says.",
	 con_cmd_dbg_whatis, NULL, CON_ARG_EXPR, NULL},
	{"ptype", "ptype VARIABLE",
	 "the type of a value, with its members",
	 "As whatis, but a struct, union or enum is shown with its members\n"
	 "or constants.",
	 con_cmd_dbg_whatis, NULL, CON_ARG_EXPR, NULL},
	{"display", "display [EXPR]",
	 "show EXPR at every stop of the current process",
	 "Adds EXPR (anything print takes) to the displays, shown as\n"
	 "\"1: x = 5\" after every run, continue, step ... that leaves the\n"
	 "current process stopped; alone, shows them now.",
	 con_cmd_dbg_display, NULL, CON_ARG_EXPR, NULL},
	{"undisplay", "undisplay [N...]",
	 "stop showing displays (all without numbers)",
	 "Deletes the displays numbered N (info display lists them).",
	 con_cmd_dbg_undisplay, NULL, CON_ARG_NONE, NULL},
	{"pset", "pset [NAME = SPEC]",
	 "name a set of processes, or list the sets",
	 "SPEC is a list of processes, ranges and names: p3, p1-4,p7, @big\n"
	 "(the processes on node big), workers, all, stopped, running\n"
	 "(resolved when used, so processes started later join).  info\n"
	 "procs shows each set.",
	 con_cmd_dbg_pset, NULL, CON_ARG_NONE, NULL},
	{"focus", "focus [SPEC | none]",
	 "the processes continue, step, next, interrupt, print -all act on",
	 "Makes SPEC (see pset) the focus: continue and the step commands\n"
	 "resume each stopped process of it, interrupt stops each running\n"
	 "one, print -all asks its stopped ones.  none: back to the current\n"
	 "process.  A line [SPEC] COMMAND ... runs one command with that\n"
	 "focus ([workers] next); a command that moves processes takes it\n"
	 "behind too (continue [workers]).",
	 con_cmd_dbg_focus, NULL, CON_ARG_NONE, NULL},
	{"where", "where",
	 "the call stack of the current process",
	 "Prints the stack of the current process at its breakpoint,\n"
	 "innermost first: \"#0 f () at prog.c:17\".  bt is short for where.",
	 con_cmd_dbg_where, NULL, CON_ARG_NONE, NULL},
	{"proc", "proc [PROC]",
	 "select the current process, or show it",
	 "Makes PROC (pN) the process that print, where and info locals\n"
	 "look at; without an argument, shows the current one.  The last\n"
	 "process that stopped becomes current by itself.",
	 con_cmd_dbg_proc, NULL, CON_ARG_PROC, NULL},
	{"kill", "kill [PROC|all]",
	 "end processes (default: all)",
	 "Has the daemons kill one process, or every live process, and\n"
	 "waits until they are gone.",
	 con_cmd_dbg_kill, NULL, CON_ARG_PROC, NULL},
	{"trace", "trace on|off|filter|show|dump|keep|file|check|export",
	 "show the send/recv and other events of the processes",
	 "Events (sends, receives, group calls, spawns, program start and\n"
	 "exit, crashes) are stored as the nodes forward them.  Subcommands:",
	 NULL, con_trace_cmds, CON_ARG_NONE, NULL},
	{"stats", "stats",
	 "per-process message counts and bytes",
	 "One line per process: sends, receives (that got a message), bytes\n"
	 "sent and received, multicasts and group calls, events stored and\n"
	 "events the daemons reported lost; then the totals.  In a program\n"
	 "whose messages all arrived, total sends equal total receives.",
	 con_cmd_stats, NULL, CON_ARG_NONE, NULL},
	{"open", "open FILE",
	 "browse a trace file as if it were a live run",
	 "Reads a paravt trace file (written by `trace file` or `paravt\n"
	 "trace -o`) into the event store: info procs, stats, trace show,\n"
	 "trace check, info efficiency/matrix/balance/hang, report and\n"
	 "print of recorded variables then work on it.  A file cut short\n"
	 "is read up to its last whole record, with a note saying where.",
	 con_cmd_open, NULL, CON_ARG_FILE, NULL},
	{"report", "report [-o FILE] [--view comp|order|raw]",
	 "write a self-contained HTML report of the events so far",
	 "Writes one HTML file (inline SVG, no network; default\n"
	 "paravt-report.html): timeline with send -> receive lines, the\n"
	 "communication matrix as a heat map, the load-balance polygon and\n"
	 "the efficiency table.  Times are compensated unless --view says\n"
	 "otherwise.",
	 con_cmd_report, NULL, CON_ARG_FILE, NULL},
	{"info", "info SUBCOMMAND",
	 "show breakpoints, processes, variables",
	 "Subcommands:",
	 NULL, con_info_cmds, CON_ARG_NONE, NULL},
	{"help", "help [COMMAND [SUBCOMMAND]]",
	 "list the commands, or describe one",
	 "Without an argument, lists every command with a one-line summary.\n"
	 "With one, shows its usage and description.",
	 con_cmd_help, NULL, CON_ARG_CMD, NULL},
	{"sleep", "sleep SECONDS",
	 "pause for a while (scripts)",
	 "Waits SECONDS (a decimal number up to 86400) before the next\n"
	 "command; nodes that go down meanwhile are reported afterwards.",
	 con_cmd_sleep, NULL, CON_ARG_NONE, NULL},
	{"quit", "quit",
	 "leave the console (also: exit, Ctrl-D)",
	 "Says goodbye to every node and leaves.  In a script, the rest of\n"
	 "the script and of the command line is not run.",
	 con_cmd_quit, NULL, CON_ARG_NONE, NULL},
	{"exit", "exit", "same as quit", "Same as quit.",
	 con_cmd_quit, NULL, CON_ARG_NONE, NULL},
	{NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL}
};
