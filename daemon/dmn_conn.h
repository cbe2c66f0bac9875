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
 */
#ifndef PARAVT_DMN_CONN_H
#define PARAVT_DMN_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "dmn_loop.h"
#include "wire_msg.h"

#define DMN_MAX_CONNS 64            /* connections served at once */
#define DMN_HANDSHAKE_MS 10000      /* HELLO + AUTH must finish by then */
#define DMN_LINGER_MS 2000          /* flushing time for a closing peer */
#define DMN_PREAUTH_FRAME 65536     /* frame limit before AUTH_OK */
#define DMN_OUT_HIGH (256u * 1024)  /* stop reading above this backlog */

typedef struct dmn_conn dmn_conn;

/* What main decided from the command line; read-only for the engine. */
typedef struct dmn_config {
	const char *name;           /* node name for HELLO, or NULL (host) */
	unsigned proto_version;     /* version announced in our HELLO */
	size_t max_frame;           /* frame limit after authentication */
	int check_token;            /* AUTH must carry token */
	char token[WIRE_TOKEN_MAX]; /* the secret, when check_token */
} dmn_config;

typedef struct dmn_server {
	dmn_loop *loop;                  /* the event loop; borrowed */
	const dmn_config *cfg;           /* settings; borrowed */
	wire_hello hello;                /* our HELLO, built once */
	dmn_conn *conns[DMN_MAX_CONNS];  /* live connections, NULL = free */
	int nconns;                      /* entries used in conns */
	dmn_conn *controller;            /* connection in control, or NULL */
	char ctl_console[WIRE_NAME_MAX]; /* its console name */
	char ctl_since[16];              /* "HH:MM:SS" it took control */
	uint64_t next_session;           /* last session id handed out */
	uint64_t next_id;                /* last connection id handed out */
	int stop_when_idle;              /* --stdio: stop when conns empty */
} dmn_server;

/* Prepares srv over loop and cfg (both borrowed for srv's lifetime). */
void dmn_server_init(dmn_server *srv, dmn_loop *loop, const dmn_config *cfg);

/*
 * Serves a new connection reading rfd and writing wfd (equal for sockets;
 * both owned from now on, closed on every path).  addr names the peer in
 * the log.  Queues our HELLO and arms the handshake timer.  0, or
 * WIRE_EBUSY (too many connections: the peer got an ERROR) or WIRE_ENOMEM.
 */
int dmn_conn_open(dmn_server *srv, int rfd, int wfd, const char *addr);

/* Sends BYE with reason to every connection, flushes for at most ms
 * milliseconds in all, and closes them. */
void dmn_server_shutdown(dmn_server *srv, const char *reason, unsigned ms);

#endif
