/*
 * wire_evpk.c — packed batches of canonical events (wire_evpk.h): the
 * writer and the checking reader.
 */
#include <stddef.h>
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
	w->valid = 0;
	out[0] = WIRE_EVPK_MARK;
	return 1 + evpk_uv(out + 1, n);
}

/* The last event of kind k in this batch (zeros before the first), the
 * base of the next one's fields but t, delta, kind and seq: a slot of
 * refs, cleared the first time (valid: the slots in use). */
static wire_ev *evpk_base(wire_ev *refs, uint64_t *valid, uint64_t k)
{
	unsigned s = k < WIRE_EVPK_SLOTS - 1 ? (unsigned)k : WIRE_EVPK_SLOTS - 1;

	if (!(*valid >> s & 1)) {
		memset(&refs[s], 0, sizeof refs[s]);
		*valid |= (uint64_t)1 << s;
	}
	return &refs[s];
}

/* The fields compared as one block (bytes to ref: no padding in it). */
#define EVPK_BLOCK offsetof(wire_ev, bytes)
#define EVPK_BLOCK_LEN (sizeof(wire_ev) - EVPK_BLOCK)
typedef char evpk_no_padding[sizeof(wire_ev) == 72 &&
                             EVPK_BLOCK_LEN == 48 ? 1 : -1];

/* True when a and b agree in every field but seq, t, delta and kind. */
static inline int evpk_same_block(const wire_ev *a, const wire_ev *b)
{
	return memcmp((const char *)a + EVPK_BLOCK, (const char *)b + EVPK_BLOCK,
	              EVPK_BLOCK_LEN) == 0;
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
	wire_ev *b = evpk_base(w->ref, &w->valid, e->kind);
	unsigned char t[WIRE_EVPK_MAX];
	uint32_t mask = 0;
	size_t n = 0, m;

	EVPK_PUT(EVPK_T, EVPK_Z64(e->t_ns, p[EVPK_T]));
	EVPK_PUT(EVPK_DELTA, EVPK_Z64(e->delta_ns, p[EVPK_DELTA]));
	EVPK_PUT(EVPK_KIND, EVPK_Z16(e->kind, p[EVPK_KIND]));
	if (evpk_same_block(e, b)) { /* a call made again: the common case */
		EVPK_PUT(EVPK_SEQ, EVPK_Z64(e->seq, p[EVPK_SEQ]));
	} else {
		EVPK_PUT(EVPK_OP, EVPK_Z16(e->op, b->op));
		EVPK_PUT(EVPK_LINE, EVPK_Z32(e->line, (uint32_t)b->line));
		EVPK_PUT(EVPK_BYTES, EVPK_Z64(e->bytes, (uint64_t)b->bytes));
		EVPK_PUT(EVPK_SEQ, EVPK_Z64(e->seq, p[EVPK_SEQ]));
		EVPK_PUT(EVPK_FILE, EVPK_Z32(e->file, b->file));
		EVPK_PUT(EVPK_FUNC, EVPK_Z32(e->func, b->func));
		EVPK_PUT(EVPK_PEER, EVPK_Z32(e->peer, (uint32_t)b->peer));
		EVPK_PUT(EVPK_TAG, EVPK_Z32(e->tag, (uint32_t)b->tag));
		EVPK_PUT(EVPK_RESULT, EVPK_Z32(e->result, (uint32_t)b->result));
		EVPK_PUT(EVPK_AUX, EVPK_Z32(e->aux, (uint32_t)b->aux));
		EVPK_PUT(EVPK_COMM, EVPK_Z32(e->comm, b->comm));
		EVPK_PUT(EVPK_REF, EVPK_Z32(e->ref, b->ref));
		*b = *e;
	}
	p[EVPK_T] = e->t_ns;
	p[EVPK_DELTA] = e->delta_ns;
	p[EVPK_KIND] = e->kind;
	p[EVPK_SEQ] = e->seq + 1;
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
	return n > 0 && (*(const unsigned char *)p == WIRE_EVPK_MARK ||
	                 *(const unsigned char *)p == WIRE_EVPK_MARK1);
}

int wire_evpk_open(wire_evpk_dec *d, const void *p, size_t n,
		   uint64_t *count)
{
	if (!wire_evpk_is(p, n))
		return -1;
	d->by_kind = *(const unsigned char *)p == WIRE_EVPK_MARK;
	d->p = (const unsigned char *)p + 1;
	d->end = (const unsigned char *)p + n;
	evpk_reset(d->prev);
	d->valid = 0;
	/* an event takes at least its mask's byte */
	if (evpk_get_uv(d, &d->left) != 0 ||
	    d->left > (uint64_t)(d->end - d->p))
		return -1;
	*count = d->left;
	return 0;
}

/* Adds the difference of field i that comes next to f[i]: 0 or -1. */
static inline int evpk_add(wire_evpk_dec *d, int i, uint64_t *f)
{
	uint64_t v;

	/* varints of one or two bytes (below 2^14) fit every field: the
	   common cases, without a call */
	if (d->p != d->end && *d->p < 0x80) {
		v = *d->p++;
	} else if (d->end - d->p >= 2 && d->p[1] < 0x80) {
		v = (uint64_t)(d->p[0] & 0x7f) | (uint64_t)d->p[1] << 7;
		d->p += 2;
	} else if (evpk_get_uv(d, &v) != 0 || (v & ~evpk_max[i]) != 0) {
		return -1;
	}
	f[i] = (f[i] + evpk_unzz(v)) & evpk_max[i];
	return 0;
}

/* The fields of the bits of mask, each added to its base f[i]. */
static int evpk_adds(wire_evpk_dec *d, uint32_t mask, uint64_t *f)
{
	int i;

	while (mask != 0) {
		i = evpk_low(mask);
		mask &= mask - 1;
		if (evpk_add(d, i, f) != 0)
			return -1;
	}
	return 0;
}

/* The bits of the fields read against the previous event in either
 * form (the others are, by kind, against the last of the same kind). */
#define EVPK_HEAD_BITS ((1u << EVPK_T) | (1u << EVPK_DELTA) | \
                        (1u << EVPK_KIND)) /* bits 0-2: read first */
#define EVPK_SEQUENTIAL (EVPK_HEAD_BITS | (1u << EVPK_SEQ))

/* The fields of an event of the current form from mask into *e, those
 * of its kind's block against d's reference event of the kind. */
static int evpk_next_by_kind(wire_evpk_dec *d, uint32_t mask, wire_ev *e)
{
	uint64_t f[EVPK_NFIELDS];
	wire_ev *b;

	/* t, delta and kind come first: then the base is known */
	if (evpk_adds(d, mask & EVPK_HEAD_BITS, d->prev) != 0)
		return -1;
	b = evpk_base(d->ref, &d->valid, d->prev[EVPK_KIND]);
	if ((mask & ~EVPK_SEQUENTIAL) == 0) {
		if (evpk_adds(d, mask & ~EVPK_HEAD_BITS, d->prev) != 0)
			return -1;
	} else {
		evpk_fields(b, f);
		f[EVPK_SEQ] = d->prev[EVPK_SEQ];
		if (evpk_adds(d, mask & ~EVPK_HEAD_BITS, f) != 0)
			return -1;
		d->prev[EVPK_SEQ] = f[EVPK_SEQ];
		evpk_event(f, b);
	}
	*e = *b;
	e->t_ns = d->prev[EVPK_T];
	e->delta_ns = d->prev[EVPK_DELTA];
	e->kind = (uint16_t)d->prev[EVPK_KIND];
	e->seq = d->prev[EVPK_SEQ];
	return 0;
}

int wire_evpk_next(wire_evpk_dec *d, wire_ev *e)
{
	uint64_t mask;

	if (d->left == 0)
		return d->p == d->end ? 0 : -1;
	if (evpk_get_uv(d, &mask) != 0 || mask >> EVPK_NFIELDS != 0)
		return -1;
	if (d->by_kind) {
		if (evpk_next_by_kind(d, (uint32_t)mask, e) != 0)
			return -1;
	} else {
		if (evpk_adds(d, (uint32_t)mask, d->prev) != 0)
			return -1;
		evpk_event(d->prev, e);
	}
	d->prev[EVPK_SEQ]++;
	d->left--;
	return 1;
}
