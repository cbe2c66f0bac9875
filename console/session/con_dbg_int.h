/*
 * con_dbg_int.h — what the con_dbg*.c files share (not for other modules).
 *
 *   con_dbg.c        state, events, processes
 *   con_dbg_hook.c   the frame hook and the task and run messages
 *   con_dbg_wait.c   settling, resume, kill, the wait loop
 *   con_dbg_load.c   load: options and flags, PVM/MPI detection
 *   con_dbg_build.c  instrumentation, shipping and BUILD
 *   con_dbg_insp.c   INSPECT requests and VALUE answers
 */
#ifndef PARAVT_CON_DBG_INT_H
#define PARAVT_CON_DBG_INT_H

#include "con_dbg.h"
#include "con_inst.h"
#include "wire_fmt.h"

/* A RUN sent to one node, until its PROC_START (or refusal). */
typedef struct con_runreq {
	char node[CON_NODE_NAME_MAX];  /* node */
	uint32_t run;                  /* run number */
	uint32_t seq;                  /* seq of the RUN frame */
	int pending;                   /* no answer yet */
	char program[WIRE_TEXT_MAX];   /* program run (trace file) */
	int nranks;                    /* run mpi: ranks mpirun starts */
	struct con_runreq *next;       /* next, or NULL */
} con_runreq;

/* A flag of `load --cflags@PORT` / `--ldflags@PORT`: for one port. */
typedef struct con_pflag {
	char *port;  /* the port name (HELLO port of a node); owned */
	int link;    /* a linker flag (else a compiler flag) */
	char *flag;  /* the flag; owned */
} con_pflag;

/* A line of mpirun's output held until its rank's process is known. */
typedef struct con_held {
	int rank;               /* the rank that wrote it */
	char *text;             /* the line without the tag; owned */
	uint64_t t_ns;          /* when it came (wire_now_ns) */
	struct con_held *next;  /* next line, or NULL */
} con_held;

/* The whole debugging session (one per console). */
typedef struct con_dbg_state {
	int inited;                 /* hook installed */
	char **sources;             /* loaded .c files; owned */
	size_t nsources;            /* entries in sources */
	char **cflags;              /* their compiler options; owned */
	size_t ncflags;             /* entries in cflags */
	char **ldflags;             /* their linker options; owned */
	size_t nldflags;            /* entries in ldflags */
	con_pflag *pflags;          /* options for one port only; owned */
	size_t npflags;             /* entries in pflags */
	char load_note[1024];       /* what load detected or was told */
	bp_model bps;               /* the breakpoints */
	uint32_t build_no;          /* last instrumentation, 0 if none */
	con_inst_result inst;       /* its files and landings */
	int have_inst;              /* inst is filled */
	int no_probes;              /* builds without line probes
				       (con_dbg_set_probes) */
	char program[WIRE_TEXT_MAX]; /* program name sent with BUILD */
	int mode;                   /* enum con_dbg_mode of the load */
	char **programs;            /* programs of the last build; owned */
	size_t nprograms;           /* entries in programs */
	size_t *prog_main;          /* per program: index in inst.files of
				       its main source, or (size_t)-1 when
				       every source makes the one program;
				       owned */
	con_nodebuild *builds;      /* nodes of the last build sent */
	con_proc *procs;            /* processes, oldest first */
	int next_proc;              /* number of the next process */
	con_proc *current;          /* current process, or NULL */
	uint32_t next_run;          /* last run number used */
	con_runreq *runs;           /* RUNs of the last run command */
	uint32_t next_req;          /* last INSPECT number used */
	con_inspect *pend[256];     /* INSPECTs waiting for VALUE */
	uint32_t pend_seq[256];     /* seq of each INSPECT frame */
	con_dbg_event *ev_head;     /* queued events, oldest first */
	con_dbg_event **ev_tail;    /* where the next one goes */
	uint64_t ev_cpu, ev_wall;   /* this process's processor time and
				       the clock when the last event batch
				       was stored (CONSOLE_CPU), 0 none */
} con_dbg_state;

extern con_dbg_state con_dbg;

/* con_dbg_build.c: string vectors (NULL-terminated; con_strv_add 0 or
 * -1 when out of memory). */
void con_strv_free(char **v, size_t n);
int con_strv_add(char ***v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* con_dbg.c: drops the processes that ended (before a new run). */
void con_dbg_forget_ended(void);

/* con_dbg.c: processes.  con_proc_known: the process (node, proc), or
 * NULL; con_proc_get: the same, created when unknown (borrowed; NULL if
 * out of memory); con_proc_clear_stop frees what a stop recorded
 * (variables and stack); con_proc_set_where writes "f () at prog.c:17"
 * into p->where. */
con_proc *con_proc_known(const con_node *n, uint64_t proc);
con_proc *con_proc_get(const con_node *n, uint64_t proc);
void con_proc_clear_stop(con_proc *p);
void con_proc_set_where(con_proc *p, const char *func, const char *file,
			uint64_t line);

/* con_dbg_hook.c: the frame hook con_dbg_init installs (con_node.h):
 * takes the frames of the session's messages.  1 if consumed. */
int con_dbg_on_msg(con_node *n, const wire_msg *m, void *ctx);

/* con_dbg_run.c: mpirun (a launcher) and its ranks.
 * con_dbg_launcher_line takes one line of l's output (queued as its
 * rank's output, held until that process is known, or l's own);
 * con_dbg_launchers_poll releases held lines (all of them with force, or
 * of a launcher that ended); con_dbg_launcher_idle is true when every
 * rank of l has started and one at least is alive: then whether the run
 * has settled is for the ranks to say (con_dbg_settled). */
void con_dbg_launcher_line(con_proc *l, const char *line);
void con_dbg_launchers_poll(int force);
int con_dbg_launcher_idle(const con_proc *l);

/* con_dbg_load.c: frees n per-port flags and the array. */
void con_pflags_free(con_pflag *v, size_t n);

/* con_dbg_load.c: the load's compiler (link 0) or linker (link 1) flags
 * for a node of port, the common ones first; caller frees
 * (con_strv_free); NULL when out of memory. */
char **con_dbg_port_flags(const char *port, int link, size_t *n);

/* Queues an event for p (may be NULL) with a copy of text.  Returns it
 * (borrowed, to set more fields), or NULL when out of memory. */
con_dbg_event *con_dbg_event_add(int kind, const con_proc *p, const char *node,
		       const char *text);

/* True if name is one of the nnodes names (or nnodes is 0). */
int con_dbg_named_node(char **nodes, int nnodes, const char *name);

/* The up node called name, or NULL. */
con_node *con_dbg_node_up(const char *name);

/* Writes what was packed for n (after wire_pack on its peer) and turns
 * a failure into a sentence.  rc is wire_pack's result.  0 or a code. */
int con_dbg_flush(con_node *n, int rc, char *err, size_t errlen);

/* con_dbg_insp.c: the type table of p's current unit (p must be
 * stopped), and path resolved against p's variables and t.  NULL / a
 * code with err. */
const td_table *con_dbg_table(const con_proc *p, char *err, size_t errlen);
int con_dbg_resolve(const con_proc *p, const td_table *t, const char *path,
		    td_path_result *res, char *err, size_t errlen);

/* con_dbg_expr.c: compiles expr, a condition, into the code the
 * processes run (breakpoints/bp_code.h) over the variables p stopped
 * with, in a new buffer *code of *len bytes (free()).  0, or -1 with
 * the reason it is left to the console. */
int con_dbg_compile(con_proc *p, const char *expr, unsigned char **code,
		    size_t *len, char *err, size_t errlen);

/* con_dbg_live.c: decides the stops at conditional breakpoints (a
 * process with cond_bp set): the condition is evaluated where it
 * stopped; true makes the stop the user's (event, current process,
 * stop-mode all), false resumes it and takes the hit back; an error
 * stops it with a note.  Called on every round of a wait. */
void con_dbg_cond_poll(void);

/* con_dbg_live.c: in stop-mode all, asks every other running process to
 * stop (a process stopped at a breakpoint or after a step). */
void con_dbg_stop_others(const con_proc *stopped);

/* con_dbg_expr.c: the answer v to res as a number for expressions
 * (integers, enums, chars, floating point, pointers), or as text (a
 * copy of text) for what is not a number. */
void con_dbg_scalar(const td_table *t, const td_path_result *res,
		    const msgpack_object *v, const char *text, con_xval *out);

/* con_dbg_insp.c: VALUE and ERROR answers.  1 if consumed. */
int con_dbg_on_value(con_node *n, const wire_msg *m);
int con_dbg_insp_error(con_node *n, uint32_t ref_seq, const char *text);

/* con_dbg_build.c: BUILD_RESULT and ERROR answers.  1 if consumed. */
int con_dbg_on_build_result(con_node *n, const wire_msg *m);
int con_dbg_build_error(con_node *n, uint32_t ref_seq, const char *text);

/* con_dbg_build.c: marks builds of nodes that went down as failed. */
void con_dbg_build_reap(void);

/* con_dbg_rec.c: record breakpoints.  con_dbg_rec_start serves a stop of
 * p at record breakpoint b (values read, line queued, p resumed; 0 or -1
 * when it could not start and p was resumed at once); con_dbg_rec_busy
 * tells whether p (NULL: any process) is held by one; con_dbg_rec_poll
 * moves the jobs on (after answers, and on every round of a wait). */
int con_dbg_rec_start(con_proc *p, const bp *b, const char *file, int line);
int con_dbg_rec_busy(const con_proc *p);
void con_dbg_rec_poll(void);

#endif
