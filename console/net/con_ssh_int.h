/*
 * con_ssh_int.h — what the files of the con_ssh module share (con_ssh.c:
 * connect, authenticate, channel, transport, open; con_ssh_hostkey.c: the
 * host key step).  Not for use outside console/net/con_ssh*.c.
 */
#ifndef PARAVT_CON_SSH_INT_H
#define PARAVT_CON_SSH_INT_H

#include <stddef.h>
#include <stdint.h>

#include <libssh2.h>

#include "con_ssh.h"

/* State of one open connection, the ctx of its wire_io. */
typedef struct con_ssh_conn {
	int sock;              /* TCP socket to the SSH server */
	LIBSSH2_SESSION *sess; /* SSH session (non-blocking once open) */
	LIBSSH2_CHANNEL *chan; /* exec or direct-tcpip channel */
	char errline[256];     /* last complete line of remote stderr */
	char errpart[256];     /* stderr line being assembled */
	size_t errpart_len;    /* bytes used in errpart */
} con_ssh_conn;

/* Everything con_ssh_open needs while it works through the steps. */
typedef struct con_ssh_job {
	const con_ssh_opts *o; /* caller's options */
	con_ssh_conn *c;       /* connection being built */
	uint64_t deadline_ms;  /* monotonic time the whole open must end */
	char where[300];       /* "ssh HOST:PORT" prefix for errors */
	char user[64];         /* user name actually used */
	char *err;             /* caller's error buffer */
	size_t errlen;         /* its size */
} con_ssh_job;

/* Milliseconds left before the job's deadline, at least 1. */
long con_ssh_left_ms(const con_ssh_job *j);

/* Formats "WHERE: " + message into the job's error buffer; returns -1. */
int con_ssh_fail(con_ssh_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* libssh2's last error message for the session (borrowed from libssh2
 * until its next call), or a fixed sentence. */
const char *con_ssh_lasterr(LIBSSH2_SESSION *s);

/* The user's home directory: $HOME, else the password database
 * (borrowed, static storage). */
const char *con_ssh_home(void);

/* Runs the SSH handshake on j->c->sock with known_hosts loaded first, then
 * checks the server's key (con_ssh_hostkey.c).  0, or -1 with the job's
 * error filled. */
int con_ssh_handshake(con_ssh_job *j);

#endif
