/*
 * con_node.h — the console's table of nodes and its conversations with them.
 *
 * Each node is one paravtd reached over TCP ("HOST:PORT") or SSH
 * ("ssh://..."), kept in a list in the order it was added.  Connecting runs
 * the whole opening of the protocol: HELLO both ways (version and role
 * checked), AUTH with the token, SESSION_OPEN, then a clock estimate from
 * timed pings (Cristian's algorithm: the sample with the smallest round trip
 * wins).  Every ping's four times also go to the clock registry (con_clk.h),
 * which fits each node's offset and drift; while a run goes on, a watcher
 * of the waits (con_dbg_watch, installed when the first node is added)
 * takes a burst of CON_NODE_BURST pings to every up node every
 * PARAVT_CLOCK_INTERVAL seconds (default CON_NODE_CLOCK_SECS; 0: never).
 * A node whose connection breaks, or whose daemon says BYE, is
 * marked down with the reason and its transport is closed; its spec stays so
 * that con_node_reconnect() can redo the connection.
 *
 * This module never prints.  Errors come back as a negative WIRE_E* code
 * with a sentence that starts "node NAME: "; asynchronous happenings (a node
 * going down, an ERROR frame nobody waited for) are handed to a callback.
 */
#ifndef PARAVT_CON_NODE_H
#define PARAVT_CON_NODE_H

#include <poll.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "con_ssh.h"
#include "wire_msg.h"
#include "wire_peer.h"

#define CON_NODE_NAME_MAX 33  /* 32 characters and the NUL */
#define CON_NODE_PATH_MAX 1024
#define CON_NODE_PINGS 8      /* clock samples taken at connect time */
#define CON_NODE_BURST 4      /* clock samples taken at each re-sampling */
#define CON_NODE_CLOCK_SECS 2.0 /* default re-sampling interval */

/* How to reach a node: what `node add` was given, kept for reconnect. */
typedef struct con_node_spec {
	char name[CON_NODE_NAME_MAX];        /* user's name, [A-Za-z0-9_.-] */
	char addr[CON_NODE_PATH_MAX];        /* "HOST:PORT" or the ssh URL */
	char token_file[CON_NODE_PATH_MAX];  /* --token-file, or "" */
	int is_ssh;                          /* addr is an ssh:// URL */
	con_ssh_opts ssh;                    /* SSH options when is_ssh */
	int attach;                          /* --attach: take back a
						detached session */
	uint64_t attach_id;                  /* --attach=N: that one; 0 the
						one detached last */
} con_node_spec;

/* The clock estimate of a node relative to the console. */
typedef struct con_clock {
	int valid;          /* at least one sample was taken */
	int64_t rtt_ns;     /* round trip minus the daemon's own time */
	int64_t offset_ns;  /* daemon clock minus console clock */
	int64_t err_ns;     /* bound on the offset's error: rtt / 2 */
} con_clock;

/* One node of the table. */
typedef struct con_node {
	con_node_spec spec;          /* how to reach it */
	wire_peer peer;              /* the connection, valid while up */
	int up;                      /* connected and in session */
	char reason[WIRE_TEXT_MAX];  /* why it is down ("" while up) */
	int have_hello;              /* hello below is filled */
	wire_hello hello;            /* the daemon's last HELLO */
	int local;                   /* the daemon runs on this machine */
	uint64_t cpu_ns;             /* this console's processor time for
					the node's events (CONSOLE_CPU) */
	uint64_t session;            /* session id from SESSION_OK */
	con_clock clock;             /* best clock sample so far */
	char token_path[CON_NODE_PATH_MAX]; /* token file used ("" if none) */
	int untold;                  /* a re-sampling ping's happening waits
					for con_node_check_all to announce */
	int untold_kind;             /* its enum con_node_event */
	char untold_text[WIRE_TEXT_MAX]; /* its text */
	struct con_node *next;       /* next node in the table, or NULL */
} con_node;

/* Kinds of asynchronous happenings reported to a con_node_event_fn. */
enum con_node_event {
	CON_NODE_EV_DOWN,   /* text: the reason */
	CON_NODE_EV_ERROR   /* text: an ERROR frame's sentence */
};

/* Called by con_node_check_all for each happening; text is borrowed. */
typedef void con_node_event_fn(const con_node *n, int kind, const char *text,
			       void *ctx);

/* Called for every frame a node sends that the node layer does not handle
 * itself (everything but BYE and the answer a request waits for; ERROR
 * frames too).  m is borrowed until the hook returns.  Returns 1 if it
 * consumed the frame (an ERROR is then not announced), else 0. */
typedef int con_node_msg_fn(con_node *n, const wire_msg *m, void *ctx);

/* Installs the frame hook (NULL: frames are dropped, as before). */
void con_node_set_msg_hook(con_node_msg_fn *fn, void *ctx);

/* Sets the token file used when `node add` has no --token-file ("" or
 * NULL: $HOME/.paravt/token).  The string is copied. */
void con_node_set_token_file(const char *path);

/* True if name is a valid node name: [A-Za-z0-9_.-]{1,32}. */
int con_node_name_ok(const char *name);

/* Connects a new node described by spec and adds it to the table.  0, or a
 * WIRE_E* code with err filled; on failure the table is unchanged. */
int con_node_add(const con_node_spec *spec, char *err, size_t errlen);

/* Connects to spec's daemon without taking a session and prints to out,
 * one line each, the detached sessions a console may take back (paravt
 * attach).  0, or a code with err. */
int con_node_sessions(const con_node_spec *spec, FILE *out, char *err,
		      size_t errlen);

/* Closes the node's connection (if up) and connects again with its stored
 * spec.  0, or a code with err filled; the node then stays down with the
 * failure as its reason. */
int con_node_reconnect(con_node *n, char *err, size_t errlen);

/* Says BYE, closes and removes the node and its clock samples; n is
 * freed. */
void con_node_remove(con_node *n);

/* The node called name, or NULL.  Borrowed until it is removed. */
con_node *con_node_find(const char *name);

/* First node of the table (follow ->next), or NULL when empty. */
con_node *con_node_first(void);

/* Sends one PING to an up node and waits for its PONG (frames that come
 * meanwhile go to the frame hook as usual).  Fills *sample with that round
 * trip's estimate, keeps it as the node's clock if its round trip is the
 * smallest so far, and adds the four times to the clock registry
 * (con_clk_add).  0 or a code with err filled. */
int con_node_ping(con_node *n, con_clock *sample, char *err, size_t errlen);

/* Reads, without blocking, whatever every up node has sent, handles BYE,
 * ERROR and broken connections, and calls fn for each happening (fn may
 * be NULL), also for those a re-sampling ping met.  Returns the number of
 * nodes that went down. */
int con_node_check_all(con_node_event_fn *fn, void *ctx);

/* Re-samples the clocks: once every PARAVT_CLOCK_INTERVAL seconds (read
 * when the first node is added), a burst of CON_NODE_BURST pings to every
 * up node.  Called by every wait loop; cheap when nothing is due. */
void con_node_clock_poll(void);

/* Fills up to max poll entries with the transports of the up nodes.
 * Returns how many were filled. */
int con_node_pollfds(struct pollfd *pfd, int max);

/* Says BYE to every up node, waits briefly for the bytes to leave, and
 * frees the whole table. */
void con_node_close_all(void);

#endif
