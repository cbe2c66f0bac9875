/*
 * con_batch_int.h — what the files of `paravt trace` share (con_batch.c:
 * set-up, run, end; con_batch_opts.c: the options; con_batch_progress.c:
 * the progress line, the time limit and the signals).  Not for the rest
 * of the console: the subcommand's entry is con_sub_trace (con_sub.h).
 */
#ifndef PARAVT_CON_BATCH_INT_H
#define PARAVT_CON_BATCH_INT_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses (paravt(1), EXIT STATUS of paravt trace). */
enum con_batch_status {
	CON_BATCH_OK = 0,       /* every process exited 0; trace complete */
	CON_BATCH_FAILED = 1,   /* a process exited non-zero or crashed */
	CON_BATCH_USAGE = 2,    /* usage, set-up or trace-writing error */
	CON_BATCH_TIMEOUT = 3,  /* time limit: processes killed, trace kept */
	CON_BATCH_HANG = 4,     /* a watcher (hang watchdog) ended the run */
	CON_BATCH_INTR = 5      /* SIGINT/SIGTERM: processes killed, kept */
};

/* The usage lines (con_batch_opts.c prints them; paravt(1) has them). */
#define CON_BATCH_USAGE_TEXT \
	"usage: paravt trace -o FILE [--nodes FILE] [--node NAME=ADDR]...\n" \
	"                    [--token-file FILE] [-x SCRIPT] [--break SPEC]...\n" \
	"                    [--timeout SECS] [--hang SECS] [--no-progress]\n" \
	"                    [--output-cap BYTES]\n" \
	"                    [--stdin FILE] [--exec PATH] [--pvm | --mpi | --plain]\n" \
	"                    [LOAD-FLAG...] [SOURCES...] -- COMMAND...\n" \
	"       paravt trace -o FILE --attach[=SESSION] [--nodes FILE]\n" \
	"                    [--node NAME=ADDR]... [--token-file FILE]\n" \
	"                    [--timeout SECS] [--hang SECS] [--no-progress]\n"

/* What the command line asked for (strings borrowed from argv). */
typedef struct con_batch_opts {
	const char *out;          /* -o: the trace file */
	const char *nodes_file;   /* --nodes FILE, or NULL */
	const char *token;        /* --token-file, or NULL */
	const char *script;       /* -x SCRIPT, or NULL */
	char **nodes;             /* --node NAME=ADDR, in order */
	int nnodes;               /* entries in nodes */
	char **breaks;            /* --break SPEC, in order */
	int nbreaks;              /* entries in breaks */
	char **load;              /* load's words: options and sources */
	int nload;                /* entries in load */
	int nsources;             /* of them, sources */
	char **cmd;               /* COMMAND after -- */
	int ncmd;                 /* entries in cmd */
	const char *in_file;      /* --stdin FILE, or NULL */
	const char *exec;         /* --exec PATH, or NULL */
	double limit;             /* --timeout SECS, 0: none */
	int no_progress;          /* --no-progress */
	const char *attach;       /* --attach[=N]: that word, or NULL */
} con_batch_opts;

/* The state of one capture (one per process). */
typedef struct con_batch_state {
	uint64_t t0;                   /* start of the run, wire_now_ns */
	double cpu0;                   /* the console's CPU seconds then */
	double limit;                  /* time limit, s (0: none) */
	int timed_out;                 /* the limit fired */
	int progress;                  /* draw the progress line */
	int drawn;                     /* it is on the terminal now */
	uint64_t last_draw;            /* when it was drawn */
	FILE *out, *err;               /* the real stdout and stderr while
					  wrapped, else NULL */
	volatile sig_atomic_t intr;    /* Ctrl-C flag the waits clear */
	volatile sig_atomic_t signal;  /* a SIGINT/SIGTERM came */
	volatile sig_atomic_t timed_alarm; /* SIGALRM: the time limit */
	int out_pipe;                  /* stdout is no terminal (may be a
					  pipe nobody reads) */
	volatile sig_atomic_t out_nb;  /* we made stdout non-blocking */
	int out_flags;                 /* its flags before */
	char why[512];                 /* why a watcher ended the run */
} con_batch_state;

/* The capture's state (con_batch.c). */
extern con_batch_state con_batch;

/* ---- con_batch_opts.c ---- */

/* Parses argv (argv[0] is "trace") into o (its arrays are the caller's
 * to free with con_batch_opts_free, also on failure).  0 when o is
 * ready, else the exit status to return (-1 for a --help that
 * succeeded). */
int con_batch_parse(int argc, char **argv, con_batch_opts *o);

/* Frees what con_batch_parse allocated. */
void con_batch_opts_free(con_batch_opts *o);

/* Splits --break SPEC into its location and record list (buffers of
 * CON_CMD_LINE bytes).  0, or -1 when SPEC is not of that form. */
int con_batch_break_split(const char *spec, char *loc, char *list);

/* ---- con_batch_progress.c ---- */

/* Number of processes the console knows. */
int con_batch_nprocs(void);

/* Seconds since the run started. */
double con_batch_elapsed(void);

/* The watcher (con_dbg_watch): redraws the progress line, flushes the
 * trace file, and ends the wait once when the time limit passes. */
int con_batch_watch(void *ctx, char *why, size_t whylen);

/* Turns the progress line on when stderr is a terminal (and it was not
 * refused), with stdout and stderr wrapped; off erases it and puts the
 * real streams back. */
void con_batch_progress_on(int no_progress);
void con_batch_progress_off(void);

/* Installs the SIGINT/SIGTERM handlers and the interrupt flag. */
void con_batch_signals(void);

/* Arms the one SIGALRM at limit seconds from now (0: none). */
void con_batch_alarm(double limit);

/* Puts stdout's flags back (after the time limit made it non-blocking). */
void con_batch_output_restore(void);

#endif
