/*
 * wire_buf.c — growable byte buffer with a hard maximum (see wire_buf.h).
 */
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_buf.h"

void wire_buf_init(wire_buf *b, size_t max)
{
	memset(b, 0, sizeof *b);
	b->max = max;
}

void wire_buf_destroy(wire_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

/* Moves unconsumed bytes to the front when that frees enough room. */
static void wire_buf_compact(wire_buf *b)
{
	if (b->off == 0)
		return;
	memmove(b->data, b->data + b->off, b->len - b->off);
	b->len -= b->off;
	b->off = 0;
}

int wire_buf_reserve(wire_buf *b, size_t extra)
{
	size_t want, ncap;
	char *p;

	if (b->cap - b->len >= extra)
		return 0;
	if (b->off > 0 && b->cap - (b->len - b->off) >= extra) {
		wire_buf_compact(b);
		return 0;
	}
	want = b->len - b->off;
	if (extra > b->max || want > b->max - extra)
		return WIRE_ENOMEM;
	want += extra;
	ncap = b->cap ? b->cap : 256;
	while (ncap < want)
		ncap = ncap > b->max / 2 ? b->max : ncap * 2;
	if (ncap > b->max)
		ncap = b->max;
	wire_buf_compact(b);
	p = realloc(b->data, ncap);
	if (p == NULL)
		return WIRE_ENOMEM;
	b->data = p;
	b->cap = ncap;
	return 0;
}

int wire_buf_append(wire_buf *b, const void *p, size_t n)
{
	int rc = wire_buf_reserve(b, n);

	if (rc != 0)
		return rc;
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

void wire_buf_consume(wire_buf *b, size_t n)
{
	size_t used = b->len - b->off;

	if (n >= used) {
		b->off = b->len = 0;
		return;
	}
	b->off += n;
}

void wire_buf_reset(wire_buf *b)
{
	b->off = b->len = 0;
}

char *wire_buf_head(const wire_buf *b)
{
	return b->data ? b->data + b->off : NULL;
}

size_t wire_buf_used(const wire_buf *b)
{
	return b->len - b->off;
}

char *wire_buf_tail(const wire_buf *b)
{
	return b->data ? b->data + b->len : NULL;
}

void wire_buf_commit(wire_buf *b, size_t n)
{
	if (n > b->cap - b->len)
		n = b->cap - b->len;
	b->len += n;
}
