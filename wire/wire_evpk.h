/*
 * wire_evpk.h — a batch of canonical events (wire_ev.h) in few bytes: the
 * packed form a daemon sends in NODE_EVENTS and a trace file keeps.
 *
 * A packed batch is a msgpack bin whose first byte is WIRE_EVPK_MARK
 * (never the first byte of a 72-byte record, whose seq is at most
 * INT64_MAX), then the number of events as a varint, then each event
 * against what came before it:
 *
 *   MASK     varint, bit i set when field i differs from what is expected
 *   values   for each set bit, in bit order, the difference as a zigzag
 *            varint, modulo the field's width (64, 32 or 16 bits)
 *
 * Fields by bit: 0 t_ns, 1 delta_ns, 2 kind, 3 op, 4 line, 5 bytes,
 * 6 seq, 7 file, 8 func, 9 peer, 10 tag, 11 result, 12 aux, 13 comm,
 * 14 ref.  Expected for t_ns, delta_ns and kind is the previous event's
 * value, for seq the previous one plus 1 (the first event's are zeros);
 * for the other fields it is the value of the last event of the same
 * kind in the batch (zeros for a kind's first), kinds from 31 up
 * sharing one such event.  A loop's calls repeat their kinds, each
 * with the same call, line, peer and tag, so an event of a call's
 * enter or exit takes 4-6 bytes (mask, t, delta, kind), where the
 * fixed record takes 72.  Varints are little-endian base 128 (7 bits a
 * byte, the high bit set on every byte but the last).
 *
 * WIRE_EVPK_MARK1 marks the first form (protocol version 6 and trace
 * files written before it), where every field's expected value is the
 * previous event's; the reader takes both.  Writing an event costs
 * about 10 ns and reading one about 12 ns here, more than the fixed
 * record's few loads and stores, but far less than copying 72 bytes
 * through a socket and into the page cache; the reader checks every
 * byte.
 */
#ifndef PARAVT_WIRE_EVPK_H
#define PARAVT_WIRE_EVPK_H

#include <stddef.h>
#include <stdint.h>

#include "wire_ev.h"

#define WIRE_EVPK_MARK 0xfeu
#define WIRE_EVPK_MARK1 0xffu /* the first form */
/* The most bytes one packed event takes: a 3-byte mask, 4 fields of 64
 * bits, 9 of 32 and 2 of 16 bits. */
#define WIRE_EVPK_MAX (3 + 4 * 10 + 9 * 5 + 2 * 3)
/* The most bytes of a batch's start: the mark and the count. */
#define WIRE_EVPK_HEAD (1 + 10)

#define WIRE_EVPK_NFIELDS 15
/* Kinds with a reference event of their own: 0-30; 31 is every other. */
#define WIRE_EVPK_SLOTS 32

/* The writer's state: the fields of the event before the next one, by
 * bit (seq as the next one's expected). */
typedef struct wire_evpk_enc {
	uint64_t prev[WIRE_EVPK_NFIELDS];
	wire_ev ref[WIRE_EVPK_SLOTS]; /* the last event of each kind */
	uint64_t valid; /* bit s: ref[s] holds an event of this batch */
} wire_evpk_enc;

/* Starts a batch of n events at out (at least WIRE_EVPK_HEAD bytes):
 * resets *w, returns the bytes written. */
size_t wire_evpk_begin(wire_evpk_enc *w, unsigned char *out, uint64_t n);

/* Writes e after the previous event at out (at least WIRE_EVPK_MAX
 * bytes): returns the bytes written. */
size_t wire_evpk_put(wire_evpk_enc *w, unsigned char *out, const wire_ev *e);

/* The reader's state over one batch. */
typedef struct wire_evpk_dec {
	const unsigned char *p, *end; /* what is left to read */
	uint64_t left;                /* events left */
	uint64_t prev[WIRE_EVPK_NFIELDS]; /* as in wire_evpk_enc */
	wire_ev ref[WIRE_EVPK_SLOTS];
	uint64_t valid;
	int by_kind;                  /* 0: the first form (MARK1) */
} wire_evpk_dec;

/* True when the n bytes at p are a packed batch (by its first byte). */
int wire_evpk_is(const void *p, size_t n);

/* Starts reading the packed batch of n bytes at p: 0 and the number of
 * events in *count, or -1 (no mark, a bad count, or more events than
 * the bytes could hold). */
int wire_evpk_open(wire_evpk_dec *d, const void *p, size_t n,
		   uint64_t *count);

/* The next event into *e: 1, 0 after the last one (when every byte was
 * read), or -1 when the bytes are cut, a varint is too long or a value
 * is wider than its field, or bytes are left after the last event. */
int wire_evpk_next(wire_evpk_dec *d, wire_ev *e);

#endif
