/*
 * wire_msg.h — the message catalog and the typed encoders and decoders.
 *
 * WIRE_MESSAGES below is the one table of message types: number, name and
 * fields.  Both sides, the tests and man/paravt-protocol.5 follow it (a test
 * checks that the man page lists every entry).  Numbers live in ranges by
 * purpose and are never reused:
 *
 *     1..15   connection: handshake, authentication, errors, goodbye
 *    16..31   clock: ping/pong, link probes
 *    32..47   session control
 *    48..     reserved for build, run, events, breakpoints (later issues)
 *
 * Bump WIRE_PROTO_VERSION (wire.h) if anything in this table changes.
 *
 * Rules every decoder follows: the field count must be at least what the
 * message defines (extra trailing fields are ignored, for compatibility
 * within a version); each field's msgpack type is checked; strings are
 * copied with their length limit and NUL-terminated.  A decoder returns 0 or
 * WIRE_EMALFORMED and says which field was wrong in err.
 */
#ifndef PARAVT_WIRE_MSG_H
#define PARAVT_WIRE_MSG_H

#include <stdbool.h>
#include <stdint.h>

#include "wire.h"
#include "wire_abi.h"
#include "wire_frame.h"

/* X(number, NAME, "field:type ...").  The letter after each field name is
 * its type for the generic codec (wire_pack / wire_unpack, wire_fmt.h):
 *   u unsigned int   i signed int   b bool   s short string (<= 512 bytes)
 *   d data (str or bin, any length up to the frame limit)
 *   A array of strings   o any msgpack object (checked by its user)
 * Bump WIRE_PROTO_VERSION (wire.h) when anything here changes. */
#define WIRE_MESSAGES(X)                                                       \
	X(1, HELLO,                                                            \
	  "version:u role:s node:s os:s os_release:s arch:s byte_order:s "    \
	  "abi:o port:s caps:A software:s host:s")                             \
	X(2, AUTH, "token:s")                                                  \
	X(3, AUTH_OK, "how:s")                                                 \
	X(4, ERROR, "code:u ref_seq:u message:s")                              \
	X(5, BYE, "reason:s")                                                  \
	X(16, PING, "t_console:u")                                             \
	X(17, PONG, "t_console:u t_recv:u t_send:u")                           \
	X(18, LINK_PROBE, "t_console:u want:u pad:d")                          \
	X(19, LINK_ECHO, "t_console:u t_recv:u t_send:u pad:d")                \
	X(32, SESSION_OPEN, "console:s")                                       \
	X(33, SESSION_OK, "session:u")                                         \
	X(34, SESSION_ATTACH, "console:s session:u")                           \
	X(35, SESSION_LIST, "")                                                \
	X(36, SESSIONS, "sessions:o")                                          \
	X(48, FILE_PUT, "build:u name:s mode:u data:d")                        \
	X(49, BUILD, "build:u program:s sources:A cflags:A ldflags:A")         \
	X(50, BUILD_RESULT, "build:u ok:b program:s diagnostics:d")            \
	X(64, RUN,                                                             \
	  "run:u build:u kind:s program:s args:A launch:A exec:s stdin:d "    \
	  "env:A")                                                             \
	X(65, PROC_START, "run:u proc:u pid:u")                                \
	X(66, PROC_EXIT, "proc:u status:i signal:i last:s")                    \
	X(67, OUTPUT, "proc:u stream:u data:d")                                \
	X(68, KILL, "proc:u")                                                  \
	X(69, PVM_HOST, "run:u name:s addr:s build:u")                         \
	X(70, REXEC, "req:u argv:A env:A")                                     \
	X(71, REXEC_IO, "req:u stream:u data:d")                               \
	X(72, REXEC_EXIT, "req:u status:i")                                    \
	X(80, TASK_HELLO, "proc:u pid:u")                                      \
	X(81, TASK_CRASH, "proc:u signal:i file:s line:u func:s stack:o")     \
	X(96, TYPE_TABLE, "proc:u table:u data:o")                             \
	X(97, BP_HIT,                                                          \
	  "proc:u bp:u file:s line:u func:s table:u vars:o stack:o")           \
	X(98, INSPECT, "proc:u req:u table:u request:o")                       \
	X(99, VALUE, "proc:u req:u ok:b value:o")                              \
	X(100, RESUME, "proc:u")                                               \
	X(101, CTL_PAGE, "proc:u path:s")                                      \
	X(102, BP_SET, "gen:u bps:o")                                          \
	X(103, BP_TABLE_GET, "proc:u")                                         \
	X(104, BP_TABLE, "proc:u gen:u bps:o")                                 \
	X(105, STOP, "proc:u")                                                 \
	X(106, STEP, "proc:u mode:u arg:u")                                    \
	X(107, SET, "proc:u req:u table:u request:o value:o")                  \
	X(108, WATCH, "proc:u req:u table:u request:o id:u frame:b")           \
	X(109, WATCH_HIT, "proc:u id:u why:u at:u")                            \
	X(112, EVENTS, "proc:u first:u count:u records:d")                     \
	X(113, EVENT_STRINGS, "proc:u first:u strings:A")                      \
	X(114, EVENT_RING, "proc:u path:s records:u names:u")                  \
	X(115, EVENTS_KICK, "proc:u")                                          \
	X(128, NODE_EVENTS, "batch:u proc:u events:o")                         \
	X(129, EVENTS_ACK, "batch:u")                                          \
	X(130, EVENTS_LOST, "proc:u count:u reason:s")                         \
	X(131, EVENTS_WAITED, "proc:u waits:u us:u")                          \
	X(132, CONSOLE_CPU, "ns:u")

enum wire_type {
#define WIRE_ENUM_(n, name, fields) WIRE_##name = n,
	WIRE_MESSAGES(WIRE_ENUM_)
#undef WIRE_ENUM_
};

/* Name of a message type ("HELLO"), or NULL if the number is unknown. */
const char *wire_type_name(uint32_t type);
/* Field list of a message type as in the table, or NULL. */
const char *wire_type_fields(uint32_t type);
/* Number of entries in the table, and the i-th type number (for tests). */
int wire_type_count(void);
uint32_t wire_type_at(int i);

/* Limits of the fixed-size string fields below (bytes, with the NUL). */
#define WIRE_NAME_MAX 64
#define WIRE_TOKEN_MAX 128
#define WIRE_TEXT_MAX 512
#define WIRE_CAPS_MAX 16

/* HELLO: who is speaking, and the C ABI of its machine. */
typedef struct wire_hello {
	uint32_t version;                 /* WIRE_PROTO_VERSION of the sender */
	char role[16];                    /* "console" or "daemon" */
	char node[WIRE_NAME_MAX];         /* node or console host name */
	char os[WIRE_NAME_MAX];           /* uname sysname, e.g. "Linux" */
	char os_release[WIRE_NAME_MAX];   /* uname release */
	char arch[WIRE_NAME_MAX];         /* uname machine, e.g. "s390x" */
	wire_abi abi;                     /* byte order, sizes, alignments */
	char port[WIRE_NAME_MAX];         /* ports/ name the sender was built for */
	uint32_t ncaps;                   /* entries used in caps */
	char caps[WIRE_CAPS_MAX][32];     /* capability words */
	char software[WIRE_NAME_MAX];     /* "paravt 0.1.0" */
	char host[WIRE_NAME_MAX];         /* wire_host_id: "" unknown */
} wire_hello;

/* Names this boot of this machine's kernel (Linux: its boot id), the same
 * for every process of the machine whatever its namespaces, so that two
 * peers with the same text share the machine's processors; "" where the
 * system does not say (then no peer is taken for a local one). */
void wire_host_id(char *buf, size_t n);

/* Whether the peer that sent HELLO h runs on this machine: both host ids
 * known and equal. */
int wire_hello_local_peer(const wire_hello *me, const wire_hello *h);

/* Fills h with this process's identity: version, role, uname, ABI, port
 * and host id.  node may be NULL (host name is used). */
void wire_hello_local(wire_hello *h, const char *role, const char *node,
		      const char *port);

int wire_pack_hello(wire_buf *out, uint32_t seq, const wire_hello *h,
		    size_t max);
/* Decodes HELLO.  The version is read first and stored even when the rest
 * does not decode, so the caller can report a version mismatch. */
int wire_unpack_hello(const wire_msg *m, wire_hello *h, char *err,
		      size_t errlen);

/* Checks a peer's HELLO: same protocol version, expected role.  0, or
 * WIRE_EVERSION / WIRE_EPROTO with a sentence for the user in err. */
int wire_hello_check(const wire_hello *peer, const char *want_role, char *err,
		     size_t errlen);

/* AUTH: the shared secret token (console -> daemon). */
int wire_pack_auth(wire_buf *out, uint32_t seq, const char *token,
		   size_t max);
int wire_unpack_auth(const wire_msg *m, char token[WIRE_TOKEN_MAX],
		     char *err, size_t errlen);

/* AUTH_OK: how the peer was authenticated ("token", "transport"). */
int wire_pack_auth_ok(wire_buf *out, uint32_t seq, const char *how,
		      size_t max);
int wire_unpack_auth_ok(const wire_msg *m, char how[WIRE_NAME_MAX],
			char *err, size_t errlen);

/* ERROR: code is a positive WIRE_E* value; ref_seq the seq of the frame it
 * answers (0 if none). */
typedef struct wire_error_msg {
	uint32_t code;
	uint32_t ref_seq;
	char message[WIRE_TEXT_MAX];
} wire_error_msg;

int wire_pack_error(wire_buf *out, uint32_t seq, int code, uint32_t ref_seq,
		    const char *message, size_t max);
int wire_unpack_error(const wire_msg *m, wire_error_msg *e, char *err,
		      size_t errlen);

/* BYE: the sender is closing the connection, and why. */
int wire_pack_bye(wire_buf *out, uint32_t seq, const char *reason,
		  size_t max);
int wire_unpack_bye(const wire_msg *m, char reason[WIRE_TEXT_MAX], char *err,
		    size_t errlen);

/* PING / PONG: clock samples, monotonic nanoseconds of each side.  The
 * daemon echoes t_console and adds its own receive and send times. */
typedef struct wire_pong {
	uint64_t t_console; /* console's send time, echoed */
	uint64_t t_recv;    /* daemon clock when PING arrived */
	uint64_t t_send;    /* daemon clock when PONG left */
} wire_pong;

int wire_pack_ping(wire_buf *out, uint32_t seq, uint64_t t_console,
		   size_t max);
int wire_unpack_ping(const wire_msg *m, uint64_t *t_console, char *err,
		     size_t errlen);
int wire_pack_pong(wire_buf *out, uint32_t seq, const wire_pong *p,
		   size_t max);
int wire_unpack_pong(const wire_msg *m, wire_pong *p, char *err,
		     size_t errlen);

/* SESSION_OPEN: a console asks to control the node's session.
 * SESSION_OK: granted, with the session id.  Refusal is ERROR EBUSY. */
int wire_pack_session_open(wire_buf *out, uint32_t seq, const char *console,
			   size_t max);
int wire_unpack_session_open(const wire_msg *m, char console[WIRE_NAME_MAX],
			     char *err, size_t errlen);
int wire_pack_session_ok(wire_buf *out, uint32_t seq, uint64_t session,
			 size_t max);
int wire_unpack_session_ok(const wire_msg *m, uint64_t *session, char *err,
			   size_t errlen);

/* Monotonic clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t wire_now_ns(void);

/* Compares two NUL-terminated secrets in time independent of where they
 * differ.  true if equal. */
bool wire_token_equal(const char *a, const char *b);

#endif
