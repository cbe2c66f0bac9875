/*
 * wire_ev.h — the canonical event record as it travels from a daemon to a
 * console (NODE_EVENTS) and is kept in trace files: 72 bytes, big-endian,
 * the same on every node whatever its byte order or word size.
 *
 *   offset  0 seq       u64     32 kind   u16     44 line    i32
 *           8 t_ns      u64     34 op     u16     48 peer    i32
 *          16 delta_ns  u64     36 file   u32     52 tag     i32
 *          24 bytes     i64     40 func   u32     56 result  i32
 *                                                 60 aux     i32
 *                                                 64 comm    u32
 *                                                 68 ref     u32
 *
 * A batch is a msgpack bin of n * WIRE_EV_SIZE bytes.  Fixed records cost
 * a daemon a few stores per event and a console a few loads, where a
 * msgpack array of 15 integers costs each side about a hundred ns.
 */
#ifndef PARAVT_WIRE_EV_H
#define PARAVT_WIRE_EV_H

#include <stdint.h>

#define WIRE_EV_SIZE 72

typedef struct wire_ev {
	uint64_t seq;       /* event number in its process, from 0 */
	uint64_t t_ns;      /* the node's monotonic clock, ns */
	uint64_t delta_ns;  /* time spent inside paravt so far */
	int64_t bytes;      /* message bytes, -1 unknown */
	uint16_t kind;      /* enum pvt_ev_kind */
	uint16_t op;        /* enum pvt_op */
	uint32_t file;      /* string id of the source file */
	uint32_t func;      /* string id of the function */
	int32_t line;
	int32_t peer;
	int32_t tag;
	int32_t result;
	int32_t aux;
	uint32_t comm;
	uint32_t ref;
} wire_ev;

/* Writes e as WIRE_EV_SIZE bytes at p. */
void wire_ev_put(unsigned char *p, const wire_ev *e);

/* Reads the record at p (WIRE_EV_SIZE bytes) into *e. */
void wire_ev_get(const unsigned char *p, wire_ev *e);

#endif
