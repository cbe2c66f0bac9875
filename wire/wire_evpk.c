/*
 * wire_evpk.c — packed batches of canonical events (wire_evpk.h): the
 * writer and the checking reader.
 */
#include <string.h>

#include "wire_evpk.h"

enum {
	EVPK_T, EVPK_DELTA, EVPK_KIND, EVPK_OP, EVPK_LINE, EVPK_BYTES,
	EVPK_SEQ, EVPK_FILE, EVPK_FUNC, EVPK_PEER, EVPK_TAG, EVPK_RESULT,
	EVPK_AUX, EVPK_COMM, EVPK_REF, EVPK_NFIELDS = WIRE_EVPK_NFIELDS
};

/* ---- varints -------------------------------------------------------------- */

static size_t evpk_uv(unsigned char *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (unsigned char)v;
	return n;
}

/* The zigzag code of d: 0, -1, 1, -2 ... as 0, 1, 2, 3 ... (without a
 * right shift of a negative number, which C leaves to the compiler). */
static uint64_t evpk_zz(int64_t d)
{
	return ((uint64_t)d << 1) ^ ((uint64_t)0 - (uint64_t)(d < 0));
}

static uint64_t evpk_unzz(uint64_t v)
{
	return (v >> 1) ^ (uint64_t)-(int64_t)(v & 1);
}

/* Reads a varint of at most 64 bits into *v: 0 or -1. */
static int evpk_get_uv(wire_evpk_dec *d, uint64_t *v)
{
	uint64_t r = 0;
	unsigned shift = 0;
	unsigned char b;

	if (d->p != d->end && *d->p < 0x80) {
		*v = *d->p++;
		return 0;
	}
	do {
		if (d->p == d->end || shift > 63)
			return -1;
		b = *d->p++;
		if (shift == 63 && (b & 0x7e) != 0)
			return -1; /* past 64 bits */
		r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*v = r;
	return 0;
}

/* The lowest set bit of m (not 0). */
static int evpk_low(uint32_t m)
{
#if defined(__GNUC__)
	return __builtin_ctz(m);
#else
	int i = 0;

	while (!(m & 1)) {
		m >>= 1;
		i++;
	}
	return i;
#endif
}

/* ---- fields --------------------------------------------------------------- */

/* The largest value of each field, by its bit in the mask. */
#define EVPK_M16 0xffffu
#define EVPK_M32 0xffffffffu
#define EVPK_M64 UINT64_MAX
static const uint64_t evpk_max[EVPK_NFIELDS] = {
	EVPK_M64, EVPK_M64, EVPK_M16, EVPK_M16, EVPK_M32, EVPK_M64, EVPK_M64,
	EVPK_M32, EVPK_M32, EVPK_M32, EVPK_M32, EVPK_M32, EVPK_M32, EVPK_M32,
	EVPK_M32
};

/* The fields of e by bit, each zero-extended from its width. */
static void evpk_fields(const wire_ev *e, uint64_t *f)
{
	f[EVPK_T] = e->t_ns;
	f[EVPK_DELTA] = e->delta_ns;
	f[EVPK_KIND] = e->kind;
	f[EVPK_OP] = e->op;
	f[EVPK_LINE] = (uint32_t)e->line;
	f[EVPK_BYTES] = (uint64_t)e->bytes;
	f[EVPK_SEQ] = e->seq;
	f[EVPK_FILE] = e->file;
	f[EVPK_FUNC] = e->func;
	f[EVPK_PEER] = (uint32_t)e->peer;
	f[EVPK_TAG] = (uint32_t)e->tag;
	f[EVPK_RESULT] = (uint32_t)e->result;
	f[EVPK_AUX] = (uint32_t)e->aux;
	f[EVPK_COMM] = e->comm;
	f[EVPK_REF] = e->ref;
}

/* The event whose fields by bit are f. */
static void evpk_event(const uint64_t *f, wire_ev *e)
{
	e->t_ns = f[EVPK_T];
	e->delta_ns = f[EVPK_DELTA];
	e->kind = (uint16_t)f[EVPK_KIND];
	e->op = (uint16_t)f[EVPK_OP];
	e->line = (int32_t)(uint32_t)f[EVPK_LINE];
	e->bytes = (int64_t)f[EVPK_BYTES];
	e->seq = f[EVPK_SEQ];
	e->file = (uint32_t)f[EVPK_FILE];
	e->func = (uint32_t)f[EVPK_FUNC];
	e->peer = (int32_t)(uint32_t)f[EVPK_PEER];
	e->tag = (int32_t)(uint32_t)f[EVPK_TAG];
	e->result = (int32_t)(uint32_t)f[EVPK_RESULT];
	e->aux = (int32_t)(uint32_t)f[EVPK_AUX];
	e->comm = (uint32_t)f[EVPK_COMM];
	e->ref = (uint32_t)f[EVPK_REF];
}

/* The state before a batch's first event: all zeros, seq 0 expected. */
static void evpk_reset(uint64_t *prev)
{
	memset(prev, 0, EVPK_NFIELDS * sizeof *prev);
}

/* ---- the writer ----------------------------------------------------------- */

size_t wire_evpk_begin(wire_evpk_enc *w, unsigned char *out, uint64_t n)
{
	evpk_reset(w->prev);
	out[0] = WIRE_EVPK_MARK;
	return 1 + evpk_uv(out + 1, n);
}

/* The zigzag codes of the differences of a field of 64, 32 or 16 bits
 * (modulo its width, sign-extended from it). */
#define EVPK_Z64(a, b) evpk_zz((int64_t)((uint64_t)(a) - (b)))
#define EVPK_Z32(a, b) evpk_zz((int32_t)(uint32_t)((uint64_t)(uint32_t)(a) - (b)))
#define EVPK_Z16(a, b) evpk_zz((int16_t)(uint16_t)((uint64_t)(a) - (b)))
/* Appends the varint of z at t[n] when z is not 0, with its bit i in
 * mask.  The fields go straight through, one branch each, so that
 * event after event of one kind takes the same way (a loop over the
 * mask's bits took twice as long: 20 against 12 ns an event). */
#define EVPK_PUT(i, z) do {                                                 \
	uint64_t z_ = (z);                                                  \
	if (z_ != 0) {                                                      \
		mask |= (uint32_t)1 << (i);                                 \
		if (z_ < 0x80)                                              \
			t[n++] = (unsigned char)z_;                         \
		else                                                        \
			n += evpk_uv(t + n, z_);                            \
	}                                                                   \
} while (0)

size_t wire_evpk_put(wire_evpk_enc *w, unsigned char *out, const wire_ev *e)
{
	uint64_t *p = w->prev;
	unsigned char t[WIRE_EVPK_MAX];
	uint32_t mask = 0;
	size_t n = 0, m;

	EVPK_PUT(EVPK_T, EVPK_Z64(e->t_ns, p[EVPK_T]));
	EVPK_PUT(EVPK_DELTA, EVPK_Z64(e->delta_ns, p[EVPK_DELTA]));
	EVPK_PUT(EVPK_KIND, EVPK_Z16(e->kind, p[EVPK_KIND]));
	EVPK_PUT(EVPK_OP, EVPK_Z16(e->op, p[EVPK_OP]));
	EVPK_PUT(EVPK_LINE, EVPK_Z32(e->line, p[EVPK_LINE]));
	EVPK_PUT(EVPK_BYTES, EVPK_Z64(e->bytes, p[EVPK_BYTES]));
	EVPK_PUT(EVPK_SEQ, EVPK_Z64(e->seq, p[EVPK_SEQ]));
	EVPK_PUT(EVPK_FILE, EVPK_Z32(e->file, p[EVPK_FILE]));
	EVPK_PUT(EVPK_FUNC, EVPK_Z32(e->func, p[EVPK_FUNC]));
	EVPK_PUT(EVPK_PEER, EVPK_Z32(e->peer, p[EVPK_PEER]));
	EVPK_PUT(EVPK_TAG, EVPK_Z32(e->tag, p[EVPK_TAG]));
	EVPK_PUT(EVPK_RESULT, EVPK_Z32(e->result, p[EVPK_RESULT]));
	EVPK_PUT(EVPK_AUX, EVPK_Z32(e->aux, p[EVPK_AUX]));
	EVPK_PUT(EVPK_COMM, EVPK_Z32(e->comm, p[EVPK_COMM]));
	EVPK_PUT(EVPK_REF, EVPK_Z32(e->ref, p[EVPK_REF]));
	evpk_fields(e, p);
	p[EVPK_SEQ]++;
	m = evpk_uv(out, mask);
	/* all of t, not n bytes: a copy of fixed size is a few moves, not a
	   call (out has room for WIRE_EVPK_MAX; what follows the event is
	   written over by the next) */
	memcpy(out + m, t, sizeof t - 3);
	return m + n;
}

/* ---- the reader ----------------------------------------------------------- */

int wire_evpk_is(const void *p, size_t n)
{
	return n > 0 && *(const unsigned char *)p == WIRE_EVPK_MARK;
}

int wire_evpk_open(wire_evpk_dec *d, const void *p, size_t n,
		   uint64_t *count)
{
	if (!wire_evpk_is(p, n))
		return -1;
	d->p = (const unsigned char *)p + 1;
	d->end = (const unsigned char *)p + n;
	evpk_reset(d->prev);
	/* an event takes at least its mask's byte */
	if (evpk_get_uv(d, &d->left) != 0 ||
	    d->left > (uint64_t)(d->end - d->p))
		return -1;
	*count = d->left;
	return 0;
}

int wire_evpk_next(wire_evpk_dec *d, wire_ev *e)
{
	uint64_t mask, v;
	int i;

	if (d->left == 0)
		return d->p == d->end ? 0 : -1;
	if (evpk_get_uv(d, &mask) != 0 || mask >> EVPK_NFIELDS != 0)
		return -1;
	while (mask != 0) {
		i = evpk_low((uint32_t)mask);
		mask &= mask - 1;
		/* varints of one or two bytes (below 2^14) fit every
		   field: the common cases, without a call */
		if (d->p != d->end && *d->p < 0x80) {
			v = *d->p++;
		} else if (d->end - d->p >= 2 && d->p[1] < 0x80) {
			v = (uint64_t)(d->p[0] & 0x7f) |
			    (uint64_t)d->p[1] << 7;
			d->p += 2;
		} else if (evpk_get_uv(d, &v) != 0 ||
			   (v & ~evpk_max[i]) != 0) {
			return -1;
		}
		d->prev[i] = (d->prev[i] + evpk_unzz(v)) & evpk_max[i];
	}
	evpk_event(d->prev, e);
	d->prev[EVPK_SEQ]++;
	d->left--;
	return 1;
}
