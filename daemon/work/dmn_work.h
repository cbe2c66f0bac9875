/*
 * dmn_work.h — what a session does on the node: its work directory, remote
 * builds, the programs it runs and their task connections.
 *
 * A console that takes control (SESSION_OPEN) gets a session; its work
 * directory $TMPDIR/paravtd-<uid>/<pid>-s<session>/ (mode 0700) is made
 * on first use and holds one directory per build (b<build>/) and the Unix
 * socket the started programs connect to (task.sock).  Processes are
 * numbered across the daemon (proc 1, 2, ...), so a console that takes
 * control later can still reach the tasks an earlier one left stopped.  A
 * session ends when its console has gone and nothing of it runs any more;
 * its directory is removed then, and all of them at daemon shutdown.
 *
 * Children (compilers, programs) are reaped by a 50 ms timer with
 * waitpid(WNOHANG) while any runs, so the loop never blocks on them.
 *
 * Files: dmn_work.c (sessions, directories, the reaper, dispatch),
 * dmn_build.c (FILE_PUT, BUILD), dmn_run.c (RUN, KILL, output, exits),
 * dmn_task.c (the task socket and the relays), dmn_pvm.c and dmn_rexec.c
 * (PVM's daemons), dmn_rsh.c (its rsh), dmn_port.c (the port's settings
 * and paths), dmn_spawn.c (starting children).  The event relay above is
 * called through dmn_relay_ops; the connections below call this room
 * through dmn_work_ops.
 */
#ifndef PARAVT_DMN_WORK_H
#define PARAVT_DMN_WORK_H

#include <stdint.h>
#include <sys/types.h>

#include "dmn_conn.h"
#include "dmn_port.h"
#include "dmn_spawn.h"
#include "wire_buf.h"

#define DMN_MAX_SESS 16             /* sessions alive at once */
#define DMN_MAX_BUILDS 64           /* builds per session */
#define DMN_PROCS_START 64          /* process slots to start with (the
                                       table grows) */
#define DMN_MAX_JOBS 8              /* builds compiling at once */
#define DMN_BUILD_FILES 256         /* files per build */
#define DMN_BUILD_BYTES (64u << 20) /* bytes per build */
#define DMN_NAME_MAX 255            /* longest file name in a build */
#define DMN_DIAG_MAX (256u * 1024)  /* compiler output kept per build */
#define DMN_BUILD_SECONDS 120       /* a build is killed after this */
#define DMN_REAP_MS 500             /* the reaper's period: an exit is
				       told by SIGCHLD (dmn_work_child),
				       the rest (deadlines, a slave
				       pvmd's group) is looked at this
				       often; every wake-up of the daemon
				       wakes the machine (paravtd(8)) */
#define DMN_REAP_HELD_MS 50         /* ... while a process's output is
				       held back (the console's backlog) */
#define DMN_OUTPUT_CHUNK 16384      /* bytes per OUTPUT frame */
#define DMN_HELD_MAX (8u << 20)     /* frames held for a detached session */

typedef struct dmn_sess dmn_sess;
typedef struct dmn_job dmn_job;
typedef struct dmn_pvmd dmn_pvmd;
typedef struct dmn_evq dmn_evq;
typedef struct dmn_proc dmn_proc;

/* The event relay above this room (daemon/relay: dmn_event.h) as the
 * work calls it; main hands dmn_ev_relay to dmn_work_new. */
typedef struct dmn_relay_ops {
	/* Makes s->evq (0 or -1); frees it (NULL-safe). */
	int (*sess_new)(dmn_work *w, dmn_sess *s);
	void (*sess_free)(dmn_sess *s);
	/* Batches of s not yet acknowledged. */
	uint64_t (*pending)(const dmn_sess *s);
	/* EVENTS_ACK from the controller c. */
	void (*ack)(dmn_work *w, dmn_conn *c, const wire_msg *m);
	/* CONSOLE_CPU from the controller c. */
	void (*console_cpu)(dmn_work *w, dmn_conn *c, const wire_msg *m);
	/* A console took control of w->cur: its unacknowledged events again. */
	void (*controller)(dmn_work *w);
	/* What p's ring holds, into the queue now; p ended. */
	void (*drain)(dmn_work *w, dmn_proc *p);
	void (*proc_gone)(dmn_work *w, dmn_proc *p);
	/* EVENTS or EVENT_STRINGS from p's task: 0, or a WIRE_E* code with
	 * err. */
	int (*task)(dmn_work *w, dmn_proc *p, const wire_msg *m, char *err,
	            size_t errlen);
} dmn_relay_ops;

/* A pvmd this daemon started: the session's own (RUN pvm, the master
 * host), or, started by REXEC, the pvmd of this host in another host's
 * virtual machine (slave). */
struct dmn_pvmd {
	pid_t pid;              /* the pvmd: our child, process group leader */
	int fd;                 /* its stdout (+stderr) pipe, or -1 */
	char tmp[DMN_PATH_MAX]; /* its PVM_TMP */
	uint64_t build;         /* the build its ep= names */
	uint64_t halt_at;       /* wire_now_ns() for SIGKILL; 0 running */
	uint64_t idle_at;       /* wire_now_ns() to halt at when this host
	                           has nothing running but other hosts'
	                           tasks may still be ending; 0 none */
	dmn_sess *sess;         /* its session */
	int slave;              /* started by REXEC (dmn_rexec.c) */
	int efd;                /* slave: its stderr pipe, or -1 */
	int infd;               /* slave: its stdin pipe, or -1 */
	dmn_conn *rx;           /* slave: the REXEC connection, or NULL */
	uint64_t req;           /* slave: REXEC's req */
	int exit_sent;          /* slave: REXEC_EXIT went out */
	pid_t pgid;             /* slave after pvmd's fork (pid 0): its
	                           process group, alive while it has members */
};

/* An extra host of a session's PVM virtual machine (PVM_HOST). */
typedef struct dmn_pvmhost {
	uint64_t run;              /* the run it is for */
	char name[WIRE_NAME_MAX];  /* the console's node name */
	char ip[64];               /* its daemon's address: the PVM host */
	char addr[80];             /* "ip:port" of its daemon */
	uint64_t build;            /* the build there */
} dmn_pvmhost;

#define DMN_PVM_HOSTS 16 /* extra hosts of one virtual machine */

/* One build directory of a session. */
typedef struct dmn_build {
	uint64_t id;            /* the console's build number */
	char dir[DMN_PATH_MAX]; /* absolute path of b<id>/ */
	unsigned nfiles;        /* files written by FILE_PUT */
	uint64_t bytes;         /* bytes written by FILE_PUT */
	dmn_job *job;           /* compile in progress, or NULL */
} dmn_build;

struct dmn_sess {
	struct dmn_work *work;             /* the daemon's work state */
	uint64_t id;                       /* session number */
	char dir[DMN_PATH_MAX];            /* work directory, "" until made */
	char sock[DMN_PATH_MAX];           /* task socket path */
	int lfd;                           /* task socket, -1 until made */
	char token[48];                    /* PARAVT_SESSION: "<pid>-<id>" */
	char ssock[DMN_PATH_MAX];          /* session socket, "" if none */
	int slfd;                          /* session socket, -1 if none */
	dmn_pvmd *pvmd;                    /* pvmd started for it, or NULL */
	uint64_t run;                      /* run of the last pvm/mpi RUN */
	dmn_pvmhost hosts[DMN_PVM_HOSTS];  /* PVM_HOST of the next RUN pvm */
	int nhosts;                        /* entries used in hosts */
	dmn_build *builds[DMN_MAX_BUILDS]; /* builds, NULL = free */
	int nprocs;                        /* live processes started here */
	int njobs;                         /* builds compiling */
	int detached;                      /* its console is gone */
	char console[WIRE_NAME_MAX];       /* the console that opened it */
	uint64_t detached_ns;              /* when (wire_now_ns) */
	long orphan_timer;                 /* ends it when detached too
	                                      long (--orphan-timeout), or 0 */
	int orphaned;                      /* that time has passed */
	uint64_t out_lost;                 /* output bytes nobody saw */
	wire_peer held;                    /* frames for its console while
	                                      detached (output, exits, stops;
	                                      only .out and .seq used) */
	int held_ready;                    /* held.out is initialised */
	dmn_evq *evq;                      /* its events until acknowledged;
	                                      owned */
	char *bps;                         /* live breakpoint table, packed
	                                      (BP_SET's bps; dmn_ctl.c), or
	                                      NULL; owned */
	size_t bps_len;                    /* its bytes */
	uint32_t nbps;                     /* its entries */
	uint64_t bps_gen;                  /* its generation */
};

/* A build in progress: compile each source, then link. */
struct dmn_job {
	struct dmn_work *work; /* the daemon's work state; borrowed */
	dmn_sess *sess;        /* owning session */
	dmn_build *build;      /* its build */
	uint32_t ref_seq;      /* seq of the BUILD message */
	char **srcs;           /* source names (owned, with the array) */
	uint32_t nsrcs;        /* entries in srcs */
	char **cflags;         /* checked extra compiler flags (owned) */
	uint32_t ncflags;      /* entries in cflags */
	char **ldflags;        /* checked extra linker flags (owned) */
	uint32_t nldflags;     /* entries in ldflags */
	char program[DMN_NAME_MAX + 1]; /* output name */
	uint32_t step;     /* next source to compile; nsrcs = link */
	pid_t pid;         /* running step, or 0 */
	int fd;            /* its output pipe, or -1 */
	wire_buf diag;     /* collected compiler output */
	int failed;        /* a step failed */
	int truncated;     /* diag hit DMN_DIAG_MAX */
	uint64_t deadline; /* wire_now_ns() when it is killed */
	int timed_out;     /* killed for the deadline */
	int pvm;           /* a cflag was -DPARAVT_PVM=1: PVM wrappers */
	int mpi;           /* a cflag was -DPARAVT_MPI=1: mpicc, PMPI lib */
};

/* A RUN, checked (dmn_run.c); strings and objects borrowed from the
 * message. */
typedef struct dmn_runreq {
	uint64_t run;                  /* the console's run number */
	uint64_t build;                /* its build (0 with exec) */
	char kind[32];                 /* "plain", "pvm", "mpi" */
	char prog[WIRE_TEXT_MAX];      /* program name */
	const msgpack_object *args;    /* the program's arguments */
	const msgpack_object *launch;  /* mpi: mpirun's options (checked) */
	const msgpack_object *env;     /* PARAVT_* settings (checked) */
	char exec[DMN_PATH_MAX];       /* a program of this node, or "" */
	const char *in;                /* the first process's stdin bytes */
	size_t inlen;                  /* how many (0: /dev/null) */
	dmn_build *b;                  /* the build (NULL with exec) */
	char path[DMN_PATH_MAX];       /* the program to start */
	char dir[DMN_PATH_MAX];        /* its working directory */
	int in_fd;                     /* stdin file (unlinked), or -1 */
} dmn_runreq;

#define DMN_RUN_ENV 64 /* PARAVT_* settings in one RUN */

/* A program started by RUN. */
struct dmn_proc {
	struct dmn_work *work;    /* the daemon's work state; borrowed */
	uint64_t num;             /* process number (PARAVT_PROC) */
	uint64_t run;             /* the console's run number */
	pid_t pid;                /* process (group leader) id */
	dmn_sess *sess;           /* session that started it */
	int fd[2];                /* stdout, stderr pipes, -1 when closed */
	dmn_conn *task;           /* its task connection, or NULL */
	int exited;               /* waitpid reported it */
	char last[WIRE_TEXT_MAX]; /* "file:line func" of the last BP/crash */
	int foreign;              /* a proc-0 task (pvmd or mpirun started
	                             it): no pipes, not our child */
	int64_t ev_status;        /* foreign: PROG_EXIT status, or -1 */
	int64_t ev_signal;        /* foreign: CRASH signal, or 0 */
	int hold;                 /* foreign PVM task: our own write end of
	                             its output FIFO (fd[0] reads it), so
	                             that it shows no EOF before the task
	                             opens it; -1 when none */
	char fifo[DMN_PATH_MAX];  /* its path, "" none */
	struct pvt_ctl *ctl;      /* its control page (dmn_ctl.c), or NULL */
	int stop_early;           /* a STOP came before the page: applied
	                             when it is mapped */
	int held;                 /* its pipes are not read (the console's
	                             backlog is full: dmn_run_throttle) */
	char mpidir[DMN_PATH_MAX];/* mpirun: its job's files (dmn_mpidir.c),
	                             "" none */
};

/* The daemon-wide state, srv->work. */
struct dmn_work {
	dmn_server *srv;                /* owner; borrowed */
	dmn_port port;                  /* compiler and runtime settings */
	char base[DMN_PATH_MAX];        /* $TMPDIR/paravtd-<uid> */
	dmn_sess *sess[DMN_MAX_SESS];   /* sessions, NULL = free */
	dmn_sess *cur;                  /* the controller's session, or NULL */
	dmn_job *jobs[DMN_MAX_JOBS];    /* builds compiling, NULL = free */
	dmn_proc **procs;               /* programs, NULL = free; owned */
	int cap_procs;                  /* slots in procs */
	uint64_t next_proc;             /* last process number handed out */
	long reaper;                    /* reaper timer id, or 0 */
	unsigned reaper_ms;             /* the period it was armed with */
	const dmn_relay_ops *relay;     /* the event relay; borrowed */
};

/* ---- what the connections call (dmn_work_ops; dmn_work.c, dmn_task.c,
 * dmn_rexec.c) ----------------------------------------------------------- */

/* Makes srv->work and sets srv->ops: port settings, runtime location
 * (argv0 and runtime_dir of srv's config); relay is the event relay
 * (borrowed for the daemon's life).  0, or -1 with a sentence in err. */
int dmn_work_new(dmn_server *srv, const dmn_relay_ops *relay, char *err,
                 size_t errlen);
/* Kills every started program and build, removes the work directories,
 * frees srv->work.  NULL work is a no-op. */
void dmn_work_free(dmn_server *srv);
/* A console took control: session id is now the current one. */
void dmn_work_session(dmn_server *srv, uint64_t id);
/* The controller is gone (its stopped tasks stay stopped). */
void dmn_work_release(dmn_server *srv);
/* SESSION_ATTACH: the detached session want (0: the one detached last)
 * is the current one again.  Its id, or 0 with a sentence in err. */
uint64_t dmn_work_attach(dmn_server *srv, uint64_t want, char *err,
                         size_t errlen);
/* SESSION_LIST from c: answers SESSIONS, the detached sessions a console
 * may take back, each [id, console, seconds detached, processes,
 * unacknowledged batches]. */
void dmn_work_sessions(dmn_server *srv, dmn_conn *c, const wire_msg *m);
/* After SESSION_OK of an attach: what the session held while detached
 * (output, exits, stops) goes to the controller, then its events. */
void dmn_work_replay(dmn_server *srv);
/* A session message (FILE_PUT ... RESUME) from the controller c. */
void dmn_work_console(dmn_server *srv, dmn_conn *c, const wire_msg *m);
/* TASK_HELLO on task connection c: 0, or a WIRE_E* code with a sentence
 * in err (the connection is then refused). */
int dmn_work_task_hello(dmn_server *srv, dmn_conn *c, const wire_msg *m,
			char *err, size_t errlen);
/* A child ended (SIGCHLD): the reaper runs at the loop's next turn. */
void dmn_work_child(dmn_server *srv);
/* A message from an accepted task (relayed to the controller). */
void dmn_work_task_msg(dmn_server *srv, dmn_conn *c, const wire_msg *m);
/* Task connection c is being freed. */
void dmn_work_task_gone(dmn_server *srv, dmn_conn *c);
/* REXEC and REXEC_IO from an authenticated console connection c
 * (dmn_rexec.c); c is closing: forget it as a REXEC peer. */
void dmn_rexec_msg(dmn_server *srv, dmn_conn *c, const wire_msg *m);
void dmn_rexec_conn_gone(dmn_server *srv, dmn_conn *c);


/* ---- dmn_work.c ---------------------------------------------------------- */

/* Where a frame for session s goes: its console's connection if s is
 * the session the controller has; while s is detached, s's held queue
 * (DMN_HELD_MAX bytes, replayed to a console that attaches); else NULL.
 * What a session's processes say reaches its own console only. */
wire_peer *dmn_work_ctl_of(dmn_work *w, dmn_sess *s);
/* True if out is a session's held queue (no connection to kick). */
int dmn_work_is_held(const dmn_sess *s, const wire_peer *out);
/* Asks the loop to flush the controller's connection, if there is one. */
void dmn_work_kick(dmn_work *w);

/* The controller's session with its directory and task socket made.
 * NULL with a sentence in err. */
dmn_sess *dmn_work_cur(dmn_work *w, char *err, size_t errlen);
/* Arms the reaper timer if children run and it is not armed (or armed
 * for later than a held process's output needs). */
void dmn_work_reap_soon(dmn_work *w);
/* Ends s if it is detached and nothing of it runs. */
void dmn_work_sess_check(dmn_work *w, dmn_sess *s);
/* Removes a directory tree (no links followed).  0 or -1. */
int dmn_rmtree(const char *path);
/* Output queue of the controller, or NULL if there is none. */
wire_peer *dmn_work_ctl(dmn_work *w);
/* Answers c with ERROR code (not fatal). */
void dmn_work_err(dmn_conn *c, int code, uint32_t ref, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- dmn_build.c --------------------------------------------------------- */

/* FILE_PUT and BUILD from the controller c. */
void dmn_build_file_put(dmn_work *w, dmn_conn *c, const wire_msg *m);
void dmn_build_start(dmn_work *w, dmn_conn *c, const wire_msg *m);
/* Reaper: polls one job (may finish and free it). */
void dmn_build_poll(dmn_work *w, dmn_job *j);
/* Kills and frees every job (shutdown). */
void dmn_build_kill_all(dmn_work *w);
/* Checks a relative name inside a build.  0, or -1 with the reason (a
 * phrase: "escapes the build directory") in err. */
int dmn_build_name_ok(const char *name, int allow_dot, char *err,
                      size_t errlen);
/* The build of s numbered id, made if make != 0.  NULL with err. */
dmn_build *dmn_build_get(dmn_sess *s, uint64_t id, int make, char *err,
                         size_t errlen);

/* ---- dmn_run.c ----------------------------------------------------------- */

/* RUN and KILL from the controller c. */
void dmn_run_start(dmn_work *w, dmn_conn *c, const wire_msg *m);
void dmn_run_kill(dmn_work *w, dmn_conn *c, const wire_msg *m);
/* Reaper: polls one process (may finish and free it). */
void dmn_run_poll(dmn_work *w, dmn_proc *p);
/* Turns pipe reading on or off by the controller's backlog. */
void dmn_run_throttle(dmn_work *w, dmn_proc *p);
/* SIGKILLs every process group and reaps (shutdown). */
void dmn_run_kill_all(dmn_work *w);
/* SIGKILLs the processes of session s (the reaper frees them).  How
 * many. */
int dmn_run_kill_sess(dmn_work *w, dmn_sess *s);
/* Appends q's PARAVT_* settings to e, and (if env is not NULL) their
 * pointers to env from *k on (at most DMN_RUN_ENV).  0, or -1 when e is
 * full. */
int dmn_run_env(const dmn_runreq *q, dmn_argv *e, char **env, int *k);
/* Process numbered num, or NULL. */
dmn_proc *dmn_run_find(dmn_work *w, uint64_t num);
/* The same, only if it belongs to the controller's session. */
dmn_proc *dmn_run_find_own(dmn_work *w, uint64_t num);
/* A new process entry in a free slot, numbered, or NULL. */
dmn_proc *dmn_proc_new(dmn_work *w);
/* Frees p: pipes, table slot, its session's count (may end the session
 * and halt its pvmd). */
void dmn_proc_free(dmn_work *w, dmn_proc *p);
/* Sends PROC_EXIT for a foreign process (status from its events), after
 * what its output FIFO still holds. */
void dmn_run_foreign_exit(dmn_work *w, dmn_proc *p);
/* Makes the output FIFO path of foreign process p and reads it as a
 * child's stdout pipe: a PVM task spawned by pvmd whose output nobody
 * catches opens it as its stdout and stderr (one pipe for both, as the
 * pvmd gives its tasks; wrappers/rt_chan.c), so every line it writes
 * goes to the controller as its own OUTPUT, in the order written.  0, or
 * -1 (errno; nothing is left open). */
int dmn_run_output_fifo(dmn_work *w, dmn_proc *p, const char *path);

/* ---- dmn_task.c ---------------------------------------------------------- */

/* Opens s's task socket and watches it.  0, or -1 with err. */
int dmn_task_listen(dmn_work *w, dmn_sess *s, char *err, size_t errlen);
/* Stops watching and closes s's task socket. */
void dmn_task_unlisten(dmn_work *w, dmn_sess *s);
/* INSPECT and RESUME from the controller: relay to the task. */
void dmn_task_to_task(dmn_work *w, dmn_conn *c, const wire_msg *m);
/* Makes s's session token (unless REXEC set it) and opens its session
 * socket ${PARAVT_SESSION_DIR:-/tmp/paravtd-<uid>/d<pid>}/
 * session-<token>.sock, where
 * tasks the daemon did not start (PVM, MPI) connect as proc 0.  Idempotent.
 * 0, or -1 with err. */
int dmn_task_session_listen(dmn_work *w, dmn_sess *s, char *err,
                            size_t errlen);
/* The directory of session sockets (PARAVT_SESSION_DIR or the default). */
const char *dmn_task_session_dir(char *buf, size_t cap);

/* ---- dmn_pvm.c ----------------------------------------------------------- */

/* RUN kinds "pvm" and "mpi" (dmn_run.c checked the fields into q and
 * made p).  0, or -1 with err. */
int dmn_pvm_run(dmn_work *w, dmn_proc *p, const dmn_runreq *q, char *err,
                size_t errlen);
/* Reaper: polls s's pvmd (may free it). */
void dmn_pvm_poll(dmn_work *w, dmn_sess *s);
/* Nothing of s runs any more: halts its pvmd (SIGTERM, then the reaper). */
void dmn_pvm_idle(dmn_work *w, dmn_sess *s);
/* Halts s's pvmd now (bounded wait) and kills what is left of it. */
void dmn_pvm_stop(dmn_work *w, dmn_sess *s);
/* PVM_HOST from the controller: one more host for the next RUN pvm. */
void dmn_pvm_host(dmn_work *w, dmn_conn *c, const wire_msg *m);
/* Fills env (at most DMN_PVM_ENV - 1 entries, NULL-terminated, owned by
 * a) with the PVM variables for s's pvmd.  Returns the count. */
int dmn_pvm_env(dmn_work *w, dmn_sess *s, dmn_argv *a, char **env);
/* Waits (bounded) until d's pvmd has written PVM_TMP/pvmd.<uid>.  0, or
 * -1 with err. */
int dmn_pvm_wait_up(dmn_pvmd *d, char *err, size_t errlen);

/* The pvmd's ep= (PVM_PATH) for a native port's build in dir: the build
 * directory, then PVM_ROOT/lib where PVM's group server pvmgs lives (the
 * first group call spawns it by name).  Writes into ep (cap bytes). */
void dmn_pvm_native_ep(char *ep, size_t cap, const char *dir);

#define DMN_PVM_ENV 12 /* variables added for a PVM program */

/* ---- dmn_rexec.c --------------------------------------------------------- */

/* dmn_rexec_msg and dmn_rexec_conn_gone: dmn_conn.h. */
/* Slave d's pvmd exited with wait status st (reaper): REXEC_EXIT. */
void dmn_rexec_exited(dmn_work *w, dmn_pvmd *d, int st);

/* ---- dmn_rsh.c ----------------------------------------------------------- */

/* paravtd --pvm-rsh HOST [-l USER] [-n] COMMAND...: the exit status. */
int dmn_rsh_main(int argc, char **argv);

/* ---- dmn_ctl.c ----------------------------------------------------------- */

/*
 * the daemon's side of live breakpoints: the tasks' control
 * pages (wrappers/pvt_ctl.h) and the session's breakpoint table.
 *
 * The controller sends the session's whole table at every change
 * (BP_SET gen [[id, file, line, flags, ignore]...]); the daemon keeps it,
 * arms the page of every process of the session that has one (its byte
 * of `armed`, set while the table is not empty or a stop is pending) and
 * bumps the page's `gen`, so that each running task fetches the table
 * at its next statement (BP_TABLE_GET -> BP_TABLE).  A task that names
 * its page later (CTL_PAGE at start-up) is armed at once.  STOP proc
 * (0: every process of the session) bumps `stop`: the task stops at its
 * next statement, as at a breakpoint.  Nothing here prints to the
 * console: refusals are ERRORs to the peer that asked.
 *
 */
/* CTL_PAGE from p's task: maps and checks its page, removes the file,
 * arms it if the session has a table.  0, or a WIRE_E* code with a
 * sentence in err (the task goes on without live breakpoints). */
int dmn_ctl_page(dmn_work *w, dmn_proc *p, const wire_msg *m, char *err,
                 size_t errlen);
/* Unmaps p's page (the process is gone).  NULL-safe. */
void dmn_ctl_forget(dmn_proc *p);
/* BP_TABLE_GET from p's task c: answers BP_TABLE with the session's
 * table. */
void dmn_ctl_table(dmn_work *w, dmn_proc *p, dmn_conn *c, const wire_msg *m);
/* BP_SET and STOP from the controller c (for its session). */
void dmn_ctl_bp_set(dmn_work *w, dmn_conn *c, const wire_msg *m);
void dmn_ctl_stop(dmn_work *w, dmn_conn *c, const wire_msg *m);
/* A RESUME or STEP went to p: its pending stop is over, the daemon's
 * byte follows the table again. */
void dmn_ctl_resumed(dmn_proc *p);
/* Frees s's table (the session ends). */
void dmn_ctl_sess_free(dmn_sess *s);

/* ---- dmn_shm.c ----------------------------------------------------------- */

/*
 * mapping a file a task made in its session's directory to
 * share memory with it (its event ring, relay/dmn_ring.c; its control
 * page, dmn_ctl.c).
 *
 * The file must be named PREFIX... directly in the directory of one of
 * the session's sockets (the task socket, the session socket), no link,
 * a regular file of the daemon's user of exactly the expected size;
 * anything else is refused with a sentence.  The caller checks the
 * mapping's header and then removes the file: the mapping outlives it.
 *
 */
/* Maps path (len bytes, read-write, shared) for process p, checked as
 * above; what names the file in sentences is what ("event ring").  The
 * mapping, or NULL with a sentence in err. */
void *dmn_shm_map(const dmn_proc *p, const char *path, const char *prefix,
                  size_t len, const char *what, char *err, size_t errlen);
/* The same in the directory made of the first dirlen bytes of dir. */
void *dmn_shm_file(const char *path, const char *dir, size_t dirlen,
                   const char *prefix, size_t len, const char *what,
                   char *err, size_t errlen);
/* Removes a file refused above that is named PREFIX... directly in
 * that directory and is a regular file of ours (not a link): nobody
 * else would (in memory, it would hold its room until a reboot).  0, or
 * -1 when it is not such a file or cannot be removed. */
int dmn_shm_drop(const char *path, const char *dir, size_t dirlen,
                 const char *prefix);
/* Removes from dir the files PREFIX<pid>-... of ours whose process
 * <pid> has ended and that were last changed at least min_age seconds
 * ago: a task killed before the daemon mapped its file (the daemon
 * removes the name once it maps one) left it there, and in memory it
 * holds its room until a reboot.  The age keeps the file of a task
 * that runs in another pid namespace (its pid means nothing here), which
 * its own daemon maps within moments.  The number removed (their bytes
 * added to *bytes), or -1 when dir cannot be read. */
int dmn_shm_sweep(const char *dir, const char *prefix, unsigned min_age,
                  uint64_t *bytes);
/* Removes path: a file, or a directory of ours with everything in it
 * (links are removed, never followed).  The entries removed, path
 * itself included (their regular files' bytes added to *bytes when
 * bytes is not NULL), or -1 (errno) with what could be removed gone. */
int dmn_shm_rmtree(const char *path, uint64_t *bytes);

/* ---- dmn_mpidir.c -------------------------------------------------------- */

/*
 * An MPI run on this host alone keeps Open MPI's session directory and
 * its ranks' shared-memory segments in a directory of its own in memory,
 * removed when mpirun ends: a killed job leaves nothing behind.
 */
/* For p, mpirun about to start: removes the directories of daemons of
 * this pid namespace that no longer run, makes p->mpidir and adds the
 * variables that name it to Open MPI to e.  p->mpidir stays "" where
 * Open MPI keeps its own places (the daemon's environment names them,
 * there is no memory file system or it has too little room). */
void dmn_mpidir_use(dmn_proc *p, dmn_argv *e);
/* p ended: removes p->mpidir with what the job left in it. */
void dmn_mpidir_done(dmn_proc *p);

#endif
