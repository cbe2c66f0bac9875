/*
 * unit_util.h — helpers shared by the cmocka unit tests of wire/.
 *
 * Everything here is static inline so that each test binary includes only
 * what it uses without "unused function" warnings.  The helpers build raw
 * MessagePack payloads (msgpack_sbuffer), wrap them into frames, decode one
 * frame through a wire_dec, and call the typed decoder of any message type.
 */
#ifndef PARAVT_UNIT_UTIL_H
#define PARAVT_UNIT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <msgpack.h>

#include "wire.h"
#include "wire_buf.h"
#include "wire_frame.h"
#include "wire_msg.h"

/* Appends a 4-byte big-endian length and the payload to out. */
static inline void ut_frame(wire_buf *out, const void *payload, size_t n)
{
	unsigned char h[4];

	h[0] = (unsigned char)(n >> 24);
	h[1] = (unsigned char)(n >> 16);
	h[2] = (unsigned char)(n >> 8);
	h[3] = (unsigned char)n;
	assert_int_equal(wire_buf_append(out, h, 4), 0);
	assert_int_equal(wire_buf_append(out, payload, n), 0);
}

/* Packs a string (length from strlen). */
static inline void ut_pk_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

/*
 * Feeds bytes p[0..n) to a fresh decoder with limit max, all at once.
 * Returns wire_dec_step's result; on 1 the message in *m stays valid until
 * the caller destroys *d.  err receives the decoder's sentence.
 */
static inline int ut_decode(wire_dec *d, const void *p, size_t n, size_t max,
			    wire_msg *m, char *err, size_t errlen)
{
	size_t used = 0;

	assert_int_equal(wire_dec_init(d, max), 0);
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	return wire_dec_step(d, p, n, &used, m, err, errlen);
}

/* Frames the payload held in sb and decodes it (see ut_decode). */
static inline int ut_decode_sb(wire_dec *d, const msgpack_sbuffer *sb,
			       wire_msg *m, char *err, size_t errlen)
{
	wire_buf b;
	int rc;

	wire_buf_init(&b, 1u << 24);
	ut_frame(&b, sb->data, sb->size);
	rc = ut_decode(d, wire_buf_head(&b), wire_buf_used(&b), 1u << 20, m,
		       err, errlen);
	wire_buf_destroy(&b);
	return rc;
}

/* Storage for the output of any typed decoder. */
typedef union ut_out {
	wire_hello hello;
	char str[WIRE_TEXT_MAX];
	wire_error_msg error;
	uint64_t u64;
	wire_pong pong;
} ut_out;

/* Calls the typed decoder for message type `type` on m (whatever m's own
 * type says).  Returns the decoder's result, or WIRE_EUNKNOWN. */
static inline int ut_unpack_as(uint32_t type, const wire_msg *m, ut_out *o,
			       char *err, size_t errlen)
{
	wire_msg c = *m;

	c.type = type;
	memset(o, 0, sizeof *o);
	switch (type) {
	case WIRE_HELLO: return wire_unpack_hello(&c, &o->hello, err, errlen);
	case WIRE_AUTH: return wire_unpack_auth(&c, o->str, err, errlen);
	case WIRE_AUTH_OK: return wire_unpack_auth_ok(&c, o->str, err, errlen);
	case WIRE_ERROR: return wire_unpack_error(&c, &o->error, err, errlen);
	case WIRE_BYE: return wire_unpack_bye(&c, o->str, err, errlen);
	case WIRE_PING: return wire_unpack_ping(&c, &o->u64, err, errlen);
	case WIRE_PONG: return wire_unpack_pong(&c, &o->pong, err, errlen);
	case WIRE_SESSION_OPEN:
		return wire_unpack_session_open(&c, o->str, err, errlen);
	case WIRE_SESSION_OK:
		return wire_unpack_session_ok(&c, &o->u64, err, errlen);
	default: return WIRE_EUNKNOWN;
	}
}

/* A HELLO as a big-endian ILP32 machine (AIX-like) would send it. */
static inline void ut_hello_foreign(wire_hello *h)
{
	static const uint8_t size[WIRE_CT_COUNT] = {1, 2, 4, 4, 8, 4, 4, 8, 16};
	static const uint8_t align[WIRE_CT_COUNT] = {1, 2, 4, 4, 8, 4, 4, 8, 8};

	memset(h, 0, sizeof *h);
	h->version = WIRE_PROTO_VERSION;
	strcpy(h->role, "daemon");
	strcpy(h->node, "aixbox");
	strcpy(h->os, "AIX");
	strcpy(h->os_release, "7.3");
	strcpy(h->arch, "powerpc");
	strcpy(h->abi.byte_order, "big");
	memcpy(h->abi.size, size, sizeof size);
	memcpy(h->abi.align, align, sizeof align);
	strcpy(h->port, "aix-xlc");
	h->ncaps = 3;
	strcpy(h->caps[0], "ping");
	strcpy(h->caps[1], "session");
	strcpy(h->caps[2], "x");
	strcpy(h->software, "paravt 0.1.0");
}

#endif
