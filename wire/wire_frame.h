/*
 * wire_frame.h — frames: the encoder and the streaming decoder.
 *
 * Encoding: wire_enc_begin() reserves the 4-byte length, opens the array and
 * writes type and seq; the caller packs the fields with the msgpack_packer
 * from wire_enc_packer(); wire_enc_end() patches the length and checks the
 * limit (on any error the buffer is rolled back to where the frame began,
 * so a half-written frame never reaches a peer).
 *
 * Decoding: wire_dec_step() takes whatever bytes the transport delivered,
 * consumes at most one frame's worth, and reports a whole frame when it has
 * one.  The length is checked against the limit as soon as the 4 header
 * bytes are in, before any payload is stored.  The payload goes into
 * msgpack-c's streaming unpacker; before it is unpacked a bounds pass checks
 * that every array and map count fits in the bytes that remain, so a tiny
 * frame claiming 4 G elements is refused instead of allocating.
 */
#ifndef PARAVT_WIRE_FRAME_H
#define PARAVT_WIRE_FRAME_H

#include <stdint.h>
#include <msgpack.h>

#include "wire.h"
#include "wire_buf.h"

typedef struct wire_enc {
	wire_buf *out;      /* destination; borrowed */
	size_t start;       /* offset of this frame's header in out */
	msgpack_packer pk;  /* writes into out */
	int err;            /* first append error, or 0 */
} wire_enc;

/* Starts a frame of nfields fields after type and seq.  0 or WIRE_ENOMEM. */
int wire_enc_begin(wire_enc *e, wire_buf *out, uint32_t type, uint32_t seq,
		   uint32_t nfields);

/* The packer for the fields; borrowed, valid until wire_enc_end. */
msgpack_packer *wire_enc_packer(wire_enc *e);

/* Finishes the frame.  0, WIRE_ENOMEM or WIRE_ETOOBIG (payload > max);
 * on error the frame is removed from out. */
int wire_enc_end(wire_enc *e, size_t max);

/* A decoded frame.  Fields point into the decoder: borrowed until the next
 * wire_dec_step or wire_dec_destroy. */
typedef struct wire_msg {
	uint32_t type;               /* message number (wire_msg.h) */
	uint32_t seq;                /* sender's sequence number */
	uint32_t nf;                 /* number of fields after type and seq */
	const msgpack_object *f;     /* the fields */
	size_t size;                 /* payload size in bytes */
} wire_msg;

typedef struct wire_dec {
	size_t max;                 /* largest payload accepted */
	unsigned char hdr[WIRE_FRAME_HDR]; /* length bytes gathered so far */
	size_t hdr_have;            /* how many of hdr are in */
	size_t need;                /* payload length of the current frame */
	size_t have;                /* payload bytes in the unpacker */
	int broken;                 /* sticky error once the stream is lost */
	msgpack_unpacker up;        /* streaming unpacker holding the payload */
	msgpack_unpacked res;       /* last decoded object */
} wire_dec;

/* 0 or WIRE_ENOMEM.  max is clamped to WIRE_FRAME_MAX_HARD. */
int wire_dec_init(wire_dec *d, size_t max);
void wire_dec_destroy(wire_dec *d);

/*
 * Offers n bytes at p.  Sets *used to how many were consumed (never past
 * the end of the current frame).  Returns 1 with *m filled when a frame is
 * complete, 0 when more bytes are needed, or an error: WIRE_ETOOBIG (length
 * over the limit), WIRE_EMALFORMED (payload not one msgpack array starting
 * with two unsigned integers, trailing bytes, or absurd counts).  After an
 * error the stream cannot be resynchronised: every later call returns the
 * same error.  err (may be NULL) receives a sentence for the log.
 */
int wire_dec_step(wire_dec *d, const void *p, size_t n, size_t *used,
		  wire_msg *m, char *err, size_t errlen);

/* Checks that a msgpack byte string is one complete object whose array and
 * map counts all fit in the bytes given.  Returns the object's length in
 * bytes, or WIRE_EMALFORMED.  Exposed for the fuzzer and tests. */
long wire_msgpack_check(const unsigned char *p, size_t n);

/* The same; on failure *cut says why: 1 if the bytes end before the
 * object does (or its counts claim more objects than bytes remain: a
 * truncated stream or a lie), 0 for a byte that is never valid msgpack. */
long wire_msgpack_measure(const unsigned char *p, size_t n, int *cut);

#endif
