/*
 * wire_frame.c — frame encoder and streaming decoder (see wire_frame.h).
 */
#include <stdio.h>
#include <string.h>

#include "wire.h"
#include "wire_frame.h"

/* msgpack_packer write callback: appends to the frame's buffer. */
static int wire_enc_write(void *data, const char *buf, size_t len)
{
	wire_enc *e = data;
	int rc;

	if (e->err != 0)
		return -1;
	rc = wire_buf_append(e->out, buf, len);
	if (rc != 0) {
		e->err = rc;
		return -1;
	}
	return 0;
}

int wire_enc_begin(wire_enc *e, wire_buf *out, uint32_t type, uint32_t seq,
		   uint32_t nfields)
{
	static const char zero[WIRE_FRAME_HDR];

	e->out = out;
	e->start = wire_buf_used(out);
	e->err = wire_buf_append(out, zero, sizeof zero);
	if (e->err != 0)
		return e->err;
	msgpack_packer_init(&e->pk, e, wire_enc_write);
	msgpack_pack_array(&e->pk, 2 + nfields);
	msgpack_pack_uint32(&e->pk, type);
	msgpack_pack_uint32(&e->pk, seq);
	return e->err;
}

msgpack_packer *wire_enc_packer(wire_enc *e)
{
	return &e->pk;
}

int wire_enc_end(wire_enc *e, size_t max)
{
	wire_buf *b = e->out;
	unsigned char *h;
	size_t payload;

	if (e->err == 0) {
		payload = wire_buf_used(b) - e->start - WIRE_FRAME_HDR;
		if (payload > max || payload > WIRE_FRAME_MAX_HARD) {
			e->err = WIRE_ETOOBIG;
		} else {
			h = (unsigned char *)wire_buf_head(b) + e->start;
			h[0] = (unsigned char)(payload >> 24);
			h[1] = (unsigned char)(payload >> 16);
			h[2] = (unsigned char)(payload >> 8);
			h[3] = (unsigned char)payload;
		}
	}
	if (e->err != 0)
		b->len = b->off + e->start; /* roll back the partial frame */
	return e->err;
}

int wire_dec_init(wire_dec *d, size_t max)
{
	memset(d, 0, sizeof *d);
	d->max = max > WIRE_FRAME_MAX_HARD ? WIRE_FRAME_MAX_HARD : max;
	if (!msgpack_unpacker_init(&d->up, 4096))
		return WIRE_ENOMEM;
	msgpack_unpacked_init(&d->res);
	return 0;
}

void wire_dec_destroy(wire_dec *d)
{
	msgpack_unpacked_destroy(&d->res);
	msgpack_unpacker_destroy(&d->up);
	memset(d, 0, sizeof *d);
}

/* Length in bytes of the fixed part and of the variable part that follows
 * a msgpack type byte, plus how many child objects it opens.  Returns -1
 * for the never-used byte 0xc1.  *lenbytes > 0 means the variable length
 * (or count) is read from that many big-endian bytes after the type byte. */
static int wire_mp_shape(unsigned char c, size_t *fixed, int *lenbytes,
			 int *is_count, int *count_mul)
{
	*fixed = 0;
	*lenbytes = 0;
	*is_count = 0;
	*count_mul = 1;
	if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3)
		return 0;
	if (c >= 0x80 && c <= 0x8f) {
		*is_count = 1;
		*count_mul = 2;
		return 0;
	}
	if (c >= 0x90 && c <= 0x9f) {
		*is_count = 1;
		return 0;
	}
	if (c >= 0xa0 && c <= 0xbf) {
		*fixed = c & 0x1f;
		return 0;
	}
	switch (c) {
	case 0xc4: case 0xd9: *lenbytes = 1; return 0;
	case 0xc5: case 0xda: *lenbytes = 2; return 0;
	case 0xc6: case 0xdb: *lenbytes = 4; return 0;
	case 0xc7: *lenbytes = 1; *fixed = 1; return 0;
	case 0xc8: *lenbytes = 2; *fixed = 1; return 0;
	case 0xc9: *lenbytes = 4; *fixed = 1; return 0;
	case 0xca: *fixed = 4; return 0;
	case 0xcb: *fixed = 8; return 0;
	case 0xcc: case 0xd0: *fixed = 1; return 0;
	case 0xcd: case 0xd1: *fixed = 2; return 0;
	case 0xce: case 0xd2: *fixed = 4; return 0;
	case 0xcf: case 0xd3: *fixed = 8; return 0;
	case 0xd4: *fixed = 2; return 0;
	case 0xd5: *fixed = 3; return 0;
	case 0xd6: *fixed = 5; return 0;
	case 0xd7: *fixed = 9; return 0;
	case 0xd8: *fixed = 17; return 0;
	case 0xdc: *lenbytes = 2; *is_count = 1; return 0;
	case 0xdd: *lenbytes = 4; *is_count = 1; return 0;
	case 0xde: *lenbytes = 2; *is_count = 1; *count_mul = 2; return 0;
	case 0xdf: *lenbytes = 4; *is_count = 1; *count_mul = 2; return 0;
	default: return -1; /* 0xc1 */
	}
}

long wire_msgpack_measure(const unsigned char *p, size_t n, int *cut)
{
	uint64_t pending = 1, v;
	size_t pos = 0, fixed;
	int lenbytes, is_count, mul, i;
	unsigned char c;

	*cut = 1; /* every failure but an invalid byte is "bytes missing" */
	while (pending > 0) {
		if (pos >= n || pending > n - pos)
			return WIRE_EMALFORMED; /* each object needs a byte */
		c = p[pos++];
		pending--;
		if (wire_mp_shape(c, &fixed, &lenbytes, &is_count, &mul) < 0) {
			*cut = 0;
			return WIRE_EMALFORMED;
		}
		v = (c >= 0x80 && c <= 0x9f) ? (uint64_t)(c & 0x0f) : 0;
		if (lenbytes > 0) {
			if ((size_t)lenbytes > n - pos)
				return WIRE_EMALFORMED;
			for (i = 0; i < lenbytes; i++)
				v = (v << 8) | p[pos++];
		}
		if (is_count) {
			pending += v * (uint64_t)mul;
			continue;
		}
		v += fixed;
		if (v > n - pos)
			return WIRE_EMALFORMED;
		pos += (size_t)v;
	}
	*cut = 0;
	return (long)pos;
}

long wire_msgpack_check(const unsigned char *p, size_t n)
{
	int cut;

	return wire_msgpack_measure(p, n, &cut);
}

/* Reports an error once and makes it sticky. */
static int wire_dec_fail(wire_dec *d, int code, char *err, size_t errlen,
			 const char *what)
{
	d->broken = code;
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s", what);
	return code;
}

/* Gathers the 4 length bytes; checks the limit as soon as they are in. */
static int wire_dec_header(wire_dec *d, const unsigned char *p, size_t n,
			   size_t *used, char *err, size_t errlen)
{
	size_t take = WIRE_FRAME_HDR - d->hdr_have;

	if (take > n)
		take = n;
	if (take > 0)
		memcpy(d->hdr + d->hdr_have, p, take);
	d->hdr_have += take;
	*used += take;
	if (d->hdr_have < WIRE_FRAME_HDR)
		return 0;
	d->need = ((size_t)d->hdr[0] << 24) | ((size_t)d->hdr[1] << 16) |
		  ((size_t)d->hdr[2] << 8) | d->hdr[3];
	if (d->need > d->max) {
		char msg[128];

		snprintf(msg, sizeof msg, "frame of %zu bytes exceeds the limit "
			 "of %zu bytes", d->need, d->max);
		return wire_dec_fail(d, WIRE_ETOOBIG, err, errlen, msg);
	}
	if (d->need == 0)
		return wire_dec_fail(d, WIRE_EMALFORMED, err, errlen,
				     "empty frame");
	if (!msgpack_unpacker_reserve_buffer(&d->up, d->need))
		return wire_dec_fail(d, WIRE_ENOMEM, err, errlen,
				     "out of memory for frame payload");
	return 0;
}

/* Unpacks the complete payload and checks the [type, seq, ...] shape. */
static int wire_dec_finish(wire_dec *d, wire_msg *m, char *err, size_t errlen)
{
	const unsigned char *pl;
	const msgpack_object *o;
	long len;

	/* Only this frame's bytes are unparsed: they start at up.off. */
	pl = (const unsigned char *)d->up.buffer + d->up.off;
	len = wire_msgpack_check(pl, d->need);
	if (len < 0)
		return wire_dec_fail(d, WIRE_EMALFORMED, err, errlen,
				     "payload is not valid MessagePack");
	if ((size_t)len != d->need)
		return wire_dec_fail(d, WIRE_EMALFORMED, err, errlen,
				     "trailing bytes after the message");
	if (msgpack_unpacker_next(&d->up, &d->res) != MSGPACK_UNPACK_SUCCESS)
		return wire_dec_fail(d, WIRE_EMALFORMED, err, errlen,
				     "payload could not be unpacked");
	o = &d->res.data;
	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 2)
		return wire_dec_fail(d, WIRE_EMALFORMED, err, errlen,
				     "frame is not an array [type, seq, ...]");
	if (o->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    o->via.array.ptr[0].via.u64 > UINT32_MAX ||
	    o->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    o->via.array.ptr[1].via.u64 > UINT32_MAX)
		return wire_dec_fail(d, WIRE_EMALFORMED, err, errlen,
				     "frame type or seq is not a 32-bit "
				     "unsigned integer");
	m->type = (uint32_t)o->via.array.ptr[0].via.u64;
	m->seq = (uint32_t)o->via.array.ptr[1].via.u64;
	m->nf = o->via.array.size - 2;
	m->f = o->via.array.ptr + 2;
	m->size = d->need;
	d->hdr_have = 0;
	d->need = d->have = 0;
	return 1;
}

int wire_dec_step(wire_dec *d, const void *p, size_t n, size_t *used,
		  wire_msg *m, char *err, size_t errlen)
{
	const unsigned char *b = p;
	size_t take;
	int rc;

	*used = 0;
	if (d->broken != 0)
		return wire_dec_fail(d, d->broken, err, errlen,
				     "stream already failed");
	if (d->hdr_have < WIRE_FRAME_HDR) {
		rc = wire_dec_header(d, b, n, used, err, errlen);
		if (rc < 0 || d->hdr_have < WIRE_FRAME_HDR)
			return rc;
	}
	take = d->need - d->have;
	if (take > n - *used)
		take = n - *used;
	if (take > 0) {
		memcpy(msgpack_unpacker_buffer(&d->up), b + *used, take);
		msgpack_unpacker_buffer_consumed(&d->up, take);
	}
	d->have += take;
	*used += take;
	if (d->have < d->need)
		return 0;
	return wire_dec_finish(d, m, err, errlen);
}
