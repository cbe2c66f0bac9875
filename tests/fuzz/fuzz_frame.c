/*
 * fuzz_frame.c — libFuzzer target for the frame decoder and every message
 * decoder of wire/.
 *
 * Input layout: byte 0 gives k = byte & 7, the next k bytes are a chunk
 * schedule (chunk i has sched[i % k] + 1 bytes; k = 0 offers everything
 * at once), and the rest is the byte stream.  The stream goes through
 * wire_dec_step with a 4096-byte limit.  Every decoded frame is handed to
 * the decoder of every message type (whatever its own type says); whatever
 * decodes is encoded again and must decode to the same value.  Invariants
 * of wire_dec_step (never consumes past the offer, consumes all of it when
 * it needs more, sticky errors) are checked with abort().
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_frame.h"
#include "wire_msg.h"

#define FZ_MAX 4096

/* Decoded value of any message type. */
typedef union fz_out {
	wire_hello hello;
	char str[WIRE_TEXT_MAX];
	wire_error_msg error;
	uint64_t u64;
	wire_pong pong;
} fz_out;

/* Calls the decoder of `type` on m, with m's type overridden. */
static int fz_unpack(uint32_t type, const wire_msg *m, fz_out *o)
{
	wire_msg c = *m;
	char err[256];

	c.type = type;
	memset(o, 0, sizeof *o);
	switch (type) {
	case WIRE_HELLO: return wire_unpack_hello(&c, &o->hello, err, sizeof err);
	case WIRE_AUTH: return wire_unpack_auth(&c, o->str, err, sizeof err);
	case WIRE_AUTH_OK: return wire_unpack_auth_ok(&c, o->str, err, sizeof err);
	case WIRE_ERROR: return wire_unpack_error(&c, &o->error, err, sizeof err);
	case WIRE_BYE: return wire_unpack_bye(&c, o->str, err, sizeof err);
	case WIRE_PING: return wire_unpack_ping(&c, &o->u64, err, sizeof err);
	case WIRE_PONG: return wire_unpack_pong(&c, &o->pong, err, sizeof err);
	case WIRE_SESSION_OPEN:
		return wire_unpack_session_open(&c, o->str, err, sizeof err);
	case WIRE_SESSION_OK:
		return wire_unpack_session_ok(&c, &o->u64, err, sizeof err);
	default: return WIRE_EUNKNOWN;
	}
}

/* Encodes o as a message of `type`; 0, or 1 when it cannot be expressed
 * through the encoder's API (an ERROR code above INT_MAX). */
static int fz_pack(wire_buf *b, uint32_t type, const fz_out *o)
{
	switch (type) {
	case WIRE_HELLO: return wire_pack_hello(b, 1, &o->hello, 1u << 16);
	case WIRE_AUTH: return wire_pack_auth(b, 1, o->str, 1u << 16);
	case WIRE_AUTH_OK: return wire_pack_auth_ok(b, 1, o->str, 1u << 16);
	case WIRE_ERROR:
		if (o->error.code > INT_MAX)
			return 1;
		return wire_pack_error(b, 1, (int)o->error.code,
				       o->error.ref_seq, o->error.message,
				       1u << 16);
	case WIRE_BYE: return wire_pack_bye(b, 1, o->str, 1u << 16);
	case WIRE_PING: return wire_pack_ping(b, 1, o->u64, 1u << 16);
	case WIRE_PONG: return wire_pack_pong(b, 1, &o->pong, 1u << 16);
	case WIRE_SESSION_OPEN:
		return wire_pack_session_open(b, 1, o->str, 1u << 16);
	default: return wire_pack_session_ok(b, 1, o->u64, 1u << 16);
	}
}

/* Re-encodes a decoded value and checks it decodes to the same bytes. */
static void fz_round_trip(uint32_t type, const fz_out *o)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;
	fz_out again;
	size_t used;
	int rc;

	wire_buf_init(&b, 1u << 17);
	rc = fz_pack(&b, type, o);
	if (rc == 1)
		goto out_buf;
	if (rc != 0 || wire_dec_init(&d, 1u << 16) != 0)
		abort();
	if (wire_dec_step(&d, wire_buf_head(&b), wire_buf_used(&b), &used, &m,
			  NULL, 0) != 1 || used != wire_buf_used(&b) ||
	    m.type != type || fz_unpack(type, &m, &again) != 0 ||
	    memcmp(o, &again, sizeof again) != 0)
		abort();
	wire_dec_destroy(&d);
out_buf:
	wire_buf_destroy(&b);
}

/* Runs every message decoder on one frame. */
static void fz_frame(const wire_msg *m)
{
	static const uint32_t types[] = {
		WIRE_HELLO, WIRE_AUTH, WIRE_AUTH_OK, WIRE_ERROR, WIRE_BYE,
		WIRE_PING, WIRE_PONG, WIRE_SESSION_OPEN, WIRE_SESSION_OK,
	};
	fz_out o;
	size_t i;

	if (m->size == 0 || m->size > FZ_MAX || (m->nf > 0 && m->f == NULL))
		abort();
	(void)wire_type_name(m->type);
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		if (fz_unpack(types[i], m, &o) == 0)
			fz_round_trip(types[i], &o);
	}
}

/* Checks that a failed decoder keeps failing with the same code. */
static void fz_sticky(wire_dec *d, int rc, const uint8_t *p, size_t n)
{
	wire_msg m;
	size_t used = 7;

	if (wire_dec_step(d, p, n, &used, &m, NULL, 0) != rc || used != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sched, *p;
	size_t k, n, off = 0, i = 0, len, used;
	wire_dec d;
	wire_msg m;
	char err[200];
	int rc;

	if (size < 1)
		return 0;
	k = data[0] & 7;
	if (size < 1 + k)
		return 0;
	sched = data + 1;
	p = data + 1 + k;
	n = size - 1 - k;
	if (wire_dec_init(&d, FZ_MAX) != 0)
		abort();
	while (off < n) {
		len = k == 0 ? n - off : (size_t)sched[i++ % k] + 1;
		if (len > n - off)
			len = n - off;
		rc = wire_dec_step(&d, p + off, len, &used, &m, err, sizeof err);
		if (used > len || (rc == 0 && used != len))
			abort();
		off += used;
		if (rc < 0) {
			if (err[0] == '\0')
				abort();
			fz_sticky(&d, rc, p, n);
			break;
		}
		if (rc == 1)
			fz_frame(&m);
	}
	wire_dec_destroy(&d);
	return 0;
}
