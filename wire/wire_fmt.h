/*
 * wire_fmt.h — generic, table-driven encoding and decoding of messages.
 *
 * Every field in WIRE_MESSAGES (wire_msg.h) carries a type letter
 * ("build:u name:s data:d").  wire_pack() writes a message from C values
 * in field order; wire_unpack() checks a received message against the same
 * letters and hands the values out.  So a new message needs one table row
 * and no codec of its own, and every message is checked the same way
 * (STYLE rule 9).  wire_relay() forwards a received message unchanged but
 * for its sequence number (the daemon's relay between tasks and console).
 *
 * Arguments, by letter:
 *   letter  wire_pack takes              wire_unpack stores into
 *   u       uint64_t                     uint64_t *
 *   i       int64_t                      int64_t *
 *   b       int (0 or 1)                 int *
 *   s       const char *                 char *dst, size_t cap (copied,
 *                                        NUL-terminated; refused if longer
 *                                        or with a NUL byte)
 *   d       const void *, size_t         const char **, size_t * (str or
 *                                        bin; borrowed from the message)
 *   A       const char *const *, uint32_t  const msgpack_object ** (an
 *                                        array whose items are all str;
 *                                        borrowed)
 *   o       const void *raw, size_t n    const msgpack_object ** (borrowed)
 *           (one complete msgpack object, packed by the caller)
 * Borrowed values live as long as the wire_msg they came from.
 */
#ifndef PARAVT_WIRE_FMT_H
#define PARAVT_WIRE_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "wire_msg.h"

/* The type letters of a message ("usud"), or NULL for an unknown type.
 * Static storage. */
const char *wire_type_format(uint32_t type);

/* Encodes one message of the given type into out.  0, WIRE_EUNKNOWN (type
 * not in the table), WIRE_EARG (an 'o' argument that is not exactly one
 * msgpack object), WIRE_ENOMEM or WIRE_ETOOBIG (frame rolled back). */
int wire_pack(wire_buf *out, uint32_t type, uint32_t seq, size_t max, ...);

/* Checks m against its table row and stores the fields (see the table
 * above).  0, WIRE_EUNKNOWN, or WIRE_EMALFORMED with a sentence naming the
 * field in err. */
int wire_unpack(const wire_msg *m, char *err, size_t errlen, ...);

/* Re-encodes m with a new sequence number (fields copied as they are). */
int wire_relay(wire_buf *out, const wire_msg *m, uint32_t seq, size_t max);

/* Copies item i of a string array checked by wire_unpack ('A') into dst.
 * 0, or WIRE_EMALFORMED if it does not fit. */
int wire_strv_get(const msgpack_object *arr, uint32_t i, char *dst,
		  size_t cap);

#endif
