/*
 * dmn_conn_int.h — internals of the connection engine shared by
 * dmn_conn.c (the protocol) and dmn_conn_room.c (the table and its
 * limits).  Not for other modules.
 */
#ifndef PARAVT_DMN_CONN_INT_H
#define PARAVT_DMN_CONN_INT_H

#include <stdint.h>

#include "dmn_conn.h"

enum dmn_state {
	DMN_ST_HELLO, /* waiting for the peer's HELLO */
	DMN_ST_AUTH,  /* waiting for AUTH */
	DMN_ST_TASK,  /* task: waiting for TASK_HELLO */
	DMN_ST_READY  /* authenticated (console) or accepted (task) */
};

struct dmn_conn {
	dmn_server *srv;             /* owner */
	wire_peer peer;              /* transport, decoder, output queue */
	int rfd;                     /* fd polled for input */
	int wfd;                     /* fd polled for output (may be rfd) */
	int slot;                    /* index in srv->conns */
	uint64_t id;                 /* connection number, for the log */
	enum dmn_state state;        /* handshake progress */
	int closing;                 /* close once the output is flushed */
	long timer;                  /* handshake or linger timer id, or 0 */
	char addr[64];               /* peer address, for the log */
	char host[64];               /* addr without its port */
	char console[WIRE_NAME_MAX]; /* peer's node name from its HELLO */
	int task;                    /* a started program, not a console */
	int local;                   /* its HELLO names this machine */
	void *via;                   /* task: session of the socket it used */
};

/* Frees c at once: loop registration, timer, transport, slot
 * (dmn_conn.c). */
void dmn_conn_drop(dmn_conn *c, const char *why);

/* A free slot in srv->conns (the table doubles when full), or -1 out of
 * memory (dmn_conn_room.c). */
int dmn_server_slot(dmn_server *srv);

/* Makes room for a new unauthenticated connection from host within
 * DMN_MAX_PREAUTH_ADDR and DMN_MAX_PREAUTH (dmn_conn_room.c). */
void dmn_server_make_room(dmn_server *srv, const char *host);

#endif
