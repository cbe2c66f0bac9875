/*
 * wire_buf.h — the one growable byte buffer of paravt (STYLE rule 7).
 *
 * A wire_buf owns a heap block that grows geometrically up to a hard
 * maximum fixed at init time; any request beyond it fails with WIRE_ENOMEM
 * instead of allocating.  Data is appended at the end and consumed from the
 * front (an offset, compacted lazily), so the same type serves as an output
 * queue, an input accumulator and a message builder.
 */
#ifndef PARAVT_WIRE_BUF_H
#define PARAVT_WIRE_BUF_H

#include <stddef.h>

typedef struct wire_buf {
	char *data; /* heap block, NULL until first use; owned */
	size_t off; /* start of unconsumed data */
	size_t len; /* end of data (bytes used from data[0]) */
	size_t cap; /* allocated size of data */
	size_t max; /* hard limit for cap */
} wire_buf;

/* Prepares an empty buffer that will never hold more than max bytes. */
void wire_buf_init(wire_buf *b, size_t max);

/* Frees the block; the buffer may be re-initialised. */
void wire_buf_destroy(wire_buf *b);

/* Makes room for extra more bytes at the end.  0 or WIRE_ENOMEM. */
int wire_buf_reserve(wire_buf *b, size_t extra);

/* Appends n bytes.  0 or WIRE_ENOMEM (buffer unchanged). */
int wire_buf_append(wire_buf *b, const void *p, size_t n);

/* Drops n bytes from the front (n is clamped to what is there). */
void wire_buf_consume(wire_buf *b, size_t n);

/* Drops everything; keeps the block. */
void wire_buf_reset(wire_buf *b);

/* Unconsumed data: pointer (borrowed until the next change) and length. */
char *wire_buf_head(const wire_buf *b);
size_t wire_buf_used(const wire_buf *b);

/* Free space at the end after wire_buf_reserve; used by readers that fill
 * the buffer directly, followed by wire_buf_commit(n). */
char *wire_buf_tail(const wire_buf *b);
void wire_buf_commit(wire_buf *b, size_t n);

#endif
