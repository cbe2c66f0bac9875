/*
 * dmn_conn.h — the daemon's protocol engine: the server state shared by all
 * connections, and one connection's handshake and message handling.
 *
 * A connection walks HELLO -> AUTH -> READY.  We send our HELLO at once; the
 * peer's first frame must be a HELLO of our protocol version, its second an
 * AUTH with the token; then PING, SESSION_OPEN and BYE are served.  Errors
 * that end the connection queue an ERROR frame and close after it is
 * flushed (bounded by a linger timer); errors in one message are answered
 * and the message skipped.  Only one connection at a time controls the
 * node's session (the "controller"); the others get EBUSY.
 *
 * The same engine serves the programs the daemon started ("tasks") on the
 * session's Unix socket: their HELLO has role "task", and TASK_HELLO takes
 * the place of AUTH.  What the controller and the tasks ask for beyond the
 * handshake (build, run, relays) is handed to the work above through
 * srv->ops (dmn_work_ops, which daemon/work fills).
 */
#ifndef PARAVT_DMN_CONN_H
#define PARAVT_DMN_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "dmn_loop.h"
#include "wire_msg.h"
#include "wire_peer.h"

#define DMN_MAX_CONSOLES 64         /* authenticated consoles at once */
#define DMN_MAX_PREAUTH 32          /* unauthenticated TCP connections */
#define DMN_MAX_PREAUTH_ADDR 8      /* ... of them from one address */
#define DMN_CONNS_START 64          /* conns slots to start with (grows) */
#define DMN_EVICT_LOG_MS 10000      /* one summary of drops per period */
#define DMN_ORPHAN_DEFAULT 600      /* s a detached session waits */
#define DMN_HANDSHAKE_MS 10000      /* HELLO + AUTH must finish by then */
#define DMN_LINGER_MS 2000          /* flushing time for a closing peer */
#define DMN_PREAUTH_FRAME 65536     /* frame limit before AUTH_OK */
#define DMN_OUT_HIGH (256u * 1024)  /* stop reading above this backlog */

typedef struct dmn_conn dmn_conn;
typedef struct dmn_work dmn_work;
typedef struct dmn_server dmn_server;

/* What the connections hand to the session work above them
 * (daemon/work, which sets srv->ops in dmn_work_new); each gets srv. */
typedef struct dmn_work_ops {
	/* A console took control: session id is now the current one. */
	void (*session)(dmn_server *srv, uint64_t id);
	/* The controller is gone (its stopped tasks stay stopped). */
	void (*release)(dmn_server *srv);
	/* SESSION_ATTACH: the detached session want (0: the one detached
	 * last) is the current one again.  Its id, or 0 with err. */
	uint64_t (*attach)(dmn_server *srv, uint64_t want, char *err,
	                   size_t errlen);
	/* SESSION_LIST from c: answers SESSIONS. */
	void (*sessions)(dmn_server *srv, dmn_conn *c, const wire_msg *m);
	/* After SESSION_OK of an attach: what the session held while
	 * detached goes to the controller, then its events. */
	void (*replay)(dmn_server *srv);
	/* A session message (FILE_PUT ... RESUME) from the controller c. */
	void (*console)(dmn_server *srv, dmn_conn *c, const wire_msg *m);
	/* TASK_HELLO on task connection c: 0, or a WIRE_E* code with a
	 * sentence in err (the connection is then refused). */
	int (*task_hello)(dmn_server *srv, dmn_conn *c, const wire_msg *m,
	                  char *err, size_t errlen);
	/* A message from an accepted task. */
	void (*task_msg)(dmn_server *srv, dmn_conn *c, const wire_msg *m);
	/* Task connection c is being freed. */
	void (*task_gone)(dmn_server *srv, dmn_conn *c);
	/* REXEC and REXEC_IO from an authenticated console connection c;
	 * c is closing: forget it as a REXEC peer. */
	void (*rexec_msg)(dmn_server *srv, dmn_conn *c, const wire_msg *m);
	void (*rexec_gone)(dmn_server *srv, dmn_conn *c);
} dmn_work_ops;

/* What main decided from the command line; read-only for the engine. */
typedef struct dmn_config {
	const char *name;           /* node name for HELLO, or NULL (host) */
	unsigned proto_version;     /* version announced in our HELLO */
	size_t max_frame;           /* frame limit after authentication */
	int check_token;            /* AUTH must carry token */
	char token[WIRE_TOKEN_MAX]; /* the secret, when check_token */
	char token_file[1024];      /* its file (absolute), "" if none */
	const char *argv0;          /* how we were started (runtime lookup) */
	const char *runtime_dir;    /* --runtime-dir, or NULL */
	size_t events_mem;          /* --events-mem: pending events in memory */
	uint64_t events_spill;      /* --events-spill: spill file cap */
	int no_cpu_share;           /* --no-cpu-share: Δ without the
	                               daemon's share of the CPU wait
	                               (dmn_share.h) */
	unsigned orphan_timeout;    /* --orphan-timeout: seconds a session
	                               waits for a console to attach */
} dmn_config;

struct dmn_server {
	dmn_loop *loop;                  /* the event loop; borrowed */
	const dmn_config *cfg;           /* settings; borrowed */
	wire_hello hello;                /* our HELLO, built once */
	dmn_conn **conns;                /* live connections, NULL = free */
	int cap_conns;                   /* slots in conns (grows) */
	int nconns;                      /* entries used in conns */
	uint64_t evicted;                /* unauthenticated peers dropped
	                                    since the last summary */
	uint64_t evict_log_ns;           /* when that summary was logged */
	dmn_conn *controller;            /* connection in control, or NULL */
	char ctl_console[WIRE_NAME_MAX]; /* its console name */
	char ctl_since[16];              /* "HH:MM:SS" it took control */
	uint64_t next_session;           /* last session id handed out */
	uint64_t ctl_session;            /* the controller's session */
	uint64_t next_id;                /* last connection id handed out */
	int stop_when_idle;              /* --stdio: stop when conns empty */
	dmn_work *work;                  /* builds, programs, tasks; owned
	                                    by the work room */
	const dmn_work_ops *ops;         /* its entry points (set with it) */
};

/* Prepares srv over loop and cfg (both borrowed for srv's lifetime). */
void dmn_server_init(dmn_server *srv, dmn_loop *loop, const dmn_config *cfg);

/*
 * Serves a new connection reading rfd and writing wfd (equal for sockets;
 * both owned from now on, closed on every path).  addr names the peer in
 * the log.  Queues our HELLO and arms the handshake timer.  0 or
 * WIRE_ENOMEM.
 *
 * Limits that keep the owner in (as sshd's MaxStartups): at most
 * DMN_MAX_PREAUTH connections that have not authenticated yet, at most
 * DMN_MAX_PREAUTH_ADDR of them from one address.  A new connection over
 * either limit is served; the oldest unauthenticated connection from its
 * own address (or, over the total, from the address holding the most) is
 * dropped with ERROR EBUSY instead, so a console that authenticates
 * promptly always gets in.  At most DMN_MAX_CONSOLES authenticated
 * consoles: one more is refused at AUTH with EBUSY.  Task connections
 * (the session's Unix socket) have no limit but memory and descriptors.
 */
int dmn_conn_open(dmn_server *srv, int rfd, int wfd, const char *addr);

/* Serves a task that connected to a session's Unix socket fd (owned).
 * via is the session (checked against the task's process).  0 or an
 * error as dmn_conn_open. */
int dmn_conn_open_task(dmn_server *srv, int fd, const char *addr, void *via);

/* The session whose socket task connection c came in on, or NULL. */
void *dmn_conn_via(const dmn_conn *c);
/* Connection number (for the log). */
unsigned long long dmn_conn_id(const dmn_conn *c);
/* Whether c's peer runs on this machine (its HELLO's host id is this
 * daemon's: wire_hello_local_peer). */
int dmn_conn_local(const dmn_conn *c);
/* c's protocol peer to queue frames on, or NULL when c is closing.
 * Borrowed; call dmn_conn_kick after queueing. */
wire_peer *dmn_conn_peer(dmn_conn *c);
/* Gets queued output of c written soon (from the loop, never here, so c
 * is not freed under the caller). */
void dmn_conn_kick(dmn_conn *c);
/* The local IPv4 address of c's socket, as text.  0, or -1. */
int dmn_conn_local_ip(dmn_conn *c, char *buf, size_t n);
/* Queues ERROR code (negative WIRE_E*) answering ref on c and logs it;
 * with fatal, c closes after it. */
void dmn_conn_fail(dmn_conn *c, int code, uint32_t ref, const char *text,
		   int fatal);

/* Sends BYE with reason to every connection, flushes for at most ms
 * milliseconds in all, and closes them. */
void dmn_server_shutdown(dmn_server *srv, const char *reason, unsigned ms);

#endif
