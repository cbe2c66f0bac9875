/*
 * wire_peer.h — one protocol connection over any byte transport.
 *
 * A wire_peer joins a transport (wire_io: a socket, a pipe pair, an SSH
 * channel), an input decoder and an output queue.  Writers encode frames
 * straight into the queue with the wire_pack_* functions on
 * wire_peer_out(); wire_peer_flush() writes as much as the transport takes
 * without blocking.  Readers call wire_peer_fill() when the transport is
 * readable, then wire_peer_next() until it returns 0.  wire_peer_wait()
 * is a small blocking helper (poll with a deadline) for request/answer use.
 *
 * Both sides keep the peer's sequence counter here: wire_peer_seq() hands
 * out the next number for an outgoing frame.
 */
#ifndef PARAVT_WIRE_PEER_H
#define PARAVT_WIRE_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire_buf.h"
#include "wire_frame.h"

/* A byte transport.  read/write return bytes moved, 0 for EOF (read only),
 * or -1 with errno set (EAGAIN/EWOULDBLOCK when nothing can move now). */
typedef struct wire_io {
	void *ctx;                                            /* transport state */
	ssize_t (*read)(void *ctx, void *buf, size_t n);
	ssize_t (*write)(void *ctx, const void *buf, size_t n);
	/* fd to poll; sets *events to POLLIN/POLLOUT the transport needs now
	 * (an SSH channel may need POLLOUT to read).  -1 if none. */
	int (*pollfd)(void *ctx, short *events);
	void (*close)(void *ctx);                             /* frees ctx too */
} wire_io;

/* Transports over plain file descriptors (sockets, pipes).  rfd and wfd may
 * be equal; they are set non-blocking and closed by io.close. */
void wire_io_fd(wire_io *io, int rfd, int wfd);

typedef struct wire_peer {
	wire_io io;          /* transport; owned */
	wire_dec dec;        /* input decoder */
	wire_buf in;         /* bytes read but not yet decoded */
	wire_buf out;        /* encoded frames not yet written */
	size_t max_frame;    /* payload limit, both directions */
	uint32_t seq;        /* last sequence number used */
	int eof;             /* transport reported EOF */
	int err;             /* sticky error (WIRE_E*), 0 if healthy */
	char errmsg[256];    /* sentence describing err */
} wire_peer;

/* Takes ownership of io.  0 or WIRE_ENOMEM. */
int wire_peer_init(wire_peer *p, const wire_io *io, size_t max_frame);
/* Closes the transport and frees the buffers. */
void wire_peer_destroy(wire_peer *p);

/* Output queue to pack frames into; borrowed. */
wire_buf *wire_peer_out(wire_peer *p);
/* Next outgoing sequence number. */
uint32_t wire_peer_seq(wire_peer *p);

/* Writes queued bytes without blocking.  0 (maybe with bytes left), or a
 * WIRE_E* error (also stored in p->err). */
int wire_peer_flush(wire_peer *p);
/* True if bytes are waiting to be written. */
int wire_peer_pending(const wire_peer *p);

/* Reads what the transport has now.  0, WIRE_EEOF, or an error. */
int wire_peer_fill(wire_peer *p);

/* Decodes the next buffered frame: 1 with *m (borrowed until the next
 * call), 0 if none is complete, or an error (also stored in p->err). */
int wire_peer_next(wire_peer *p, wire_msg *m);

/* Blocks until a frame arrives or deadline_ns (wire_now_ns clock) passes;
 * flushes output meanwhile.  1 with *m, or WIRE_ETIMEOUT, WIRE_EEOF, error. */
int wire_peer_wait(wire_peer *p, wire_msg *m, uint64_t deadline_ns);

/* Blocks until the output queue is empty or the deadline passes. */
int wire_peer_drain(wire_peer *p, uint64_t deadline_ns);

/* Queues an ERROR frame answering ref_seq and records nothing else. */
int wire_peer_send_error(wire_peer *p, int code, uint32_t ref_seq,
			 const char *message);

#endif
