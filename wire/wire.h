/*
 * wire.h — the paravt wire protocol library: common definitions.
 *
 * The protocol carries every exchange between the console (paravt) and the
 * node daemons (paravtd).  A frame is a 4-byte big-endian payload length
 * followed by one MessagePack array [type, seq, field...].  This header holds
 * what every part of wire/ shares: the protocol version, the frame-size
 * limits and the error codes.  The other headers are
 *
 *   wire_buf.h    growable byte buffer with a hard maximum
 *   wire_frame.h  frame encoder (packer into a wire_buf) and streaming decoder
 *   wire_msg.h    the message catalog and typed encoders/decoders
 *   wire_peer.h   one connection: transport, input decoder, output queue
 *   wire_abi.h    description of the local C ABI (sizes, alignments, order)
 *
 * The library never prints and never exits: functions return 0 or a
 * negative WIRE_E* code, and may fill a caller's error buffer.
 * Node-side code: C99 + POSIX + msgpack-c only.
 */
#ifndef PARAVT_WIRE_H
#define PARAVT_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* Bump WIRE_PROTO_VERSION whenever a message's number or fields change. */
#define WIRE_PROTO_VERSION 7

#define PARAVT_VERSION "0.1.0"

/* Default and absolute upper limits of one frame's payload, in bytes. */
#define WIRE_FRAME_MAX_DEFAULT (16u * 1024 * 1024)
#define WIRE_FRAME_MAX_HARD (256u * 1024 * 1024)
#define WIRE_FRAME_HDR 4

/*
 * Error codes.  Negative in C; on the wire an ERROR frame carries the
 * positive value.  Never renumber: they are part of the protocol.
 */
enum wire_error {
	WIRE_OK = 0,
	WIRE_ENOMEM = -1,     /* out of memory or over a buffer's maximum */
	WIRE_ETOOBIG = -2,    /* frame larger than the negotiated limit */
	WIRE_EMALFORMED = -3, /* bytes are not a valid frame or message */
	WIRE_EVERSION = -4,   /* peer speaks another protocol version */
	WIRE_EAUTH = -5,      /* authentication failed */
	WIRE_EUNKNOWN = -6,   /* unknown message type */
	WIRE_EIO = -7,        /* read/write error on the transport */
	WIRE_EEOF = -8,       /* peer closed the connection */
	WIRE_EBUSY = -9,      /* session controlled by another console */
	WIRE_ETIMEOUT = -10,  /* no answer in time */
	WIRE_EPROTO = -11,    /* valid message at the wrong time */
	WIRE_EARG = -12,      /* bad argument from the caller */
	WIRE_ESTATE = -13     /* operation not allowed in this state */
};

/* Returns a static English description of a WIRE_E* code (or its negation). */
const char *wire_strerror(int err);

/* Short symbolic name of a code, e.g. "EVERSION"; static string. */
const char *wire_errname(int err);

#endif
