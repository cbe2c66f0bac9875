/*
 * wire_fmt.c — generic message codec driven by the type letters of the
 * message table (see wire_fmt.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wire_fmt.h"

#define WIRE_FMT_MAX 32 /* fields per message */

/* Fills fmt with the letters of fields ("a:u b:s" -> "us").  0 or -1. */
static int wire_fmt_parse(const char *fields, char fmt[WIRE_FMT_MAX + 1])
{
	size_t n = 0;
	const char *p;

	for (p = fields; *p != '\0'; p++) {
		if (*p != ':')
			continue;
		if (n == WIRE_FMT_MAX || p[1] == '\0')
			return -1;
		fmt[n++] = p[1];
	}
	fmt[n] = '\0';
	return 0;
}

const char *wire_type_format(uint32_t type)
{
	/* One slot per table row (the table is small and fixed). */
	static char cache[64][WIRE_FMT_MAX + 1];
	static unsigned char done[64];
	int i, n = wire_type_count();

	for (i = 0; i < n && i < 64; i++) {
		if (wire_type_at(i) != type)
			continue;
		if (!done[i]) {
			if (wire_fmt_parse(wire_type_fields(type), cache[i]) != 0)
				return NULL;
			done[i] = 1;
		}
		return cache[i];
	}
	return NULL;
}

/* ---- encoding --------------------------------------------------------- */

/* Appends one field of letter c, taking its arguments from ap. */
static int wire_pack_field(msgpack_packer *pk, char c, va_list *ap)
{
	const char *s, *const *v;
	const void *raw;
	size_t n;
	uint32_t i, k;

	switch (c) {
	case 'u':
		return msgpack_pack_uint64(pk, va_arg(*ap, uint64_t));
	case 'i':
		return msgpack_pack_int64(pk, va_arg(*ap, int64_t));
	case 'b':
		return va_arg(*ap, int) ? msgpack_pack_true(pk)
					: msgpack_pack_false(pk);
	case 's':
		s = va_arg(*ap, const char *);
		n = strlen(s);
		return msgpack_pack_str_with_body(pk, s, n);
	case 'd':
		raw = va_arg(*ap, const void *);
		n = va_arg(*ap, size_t);
		return msgpack_pack_bin_with_body(pk, raw, n);
	case 'A':
		v = va_arg(*ap, const char *const *);
		k = va_arg(*ap, uint32_t);
		msgpack_pack_array(pk, k);
		for (i = 0; i < k; i++)
			msgpack_pack_str_with_body(pk, v[i], strlen(v[i]));
		return 0;
	case 'o':
		raw = va_arg(*ap, const void *);
		n = va_arg(*ap, size_t);
		if (wire_msgpack_check(raw, n) != (long)n)
			return WIRE_EARG;
		return pk->callback(pk->data, raw, n);
	default:
		return WIRE_EARG;
	}
}

int wire_pack(wire_buf *out, uint32_t type, uint32_t seq, size_t max, ...)
{
	const char *fmt = wire_type_format(type);
	wire_enc e;
	va_list ap;
	int rc = 0;
	size_t i;

	if (fmt == NULL)
		return WIRE_EUNKNOWN;
	if (wire_enc_begin(&e, out, type, seq, (uint32_t)strlen(fmt)) != 0)
		return wire_enc_end(&e, max);
	va_start(ap, max);
	for (i = 0; fmt[i] != '\0' && rc == 0; i++)
		if (wire_pack_field(wire_enc_packer(&e), fmt[i], &ap) ==
		    WIRE_EARG)
			rc = WIRE_EARG;
	va_end(ap);
	if (rc != 0) {
		e.err = rc; /* makes wire_enc_end roll the frame back */
		wire_enc_end(&e, max);
		return rc;
	}
	return wire_enc_end(&e, max);
}

int wire_relay(wire_buf *out, const wire_msg *m, uint32_t seq, size_t max)
{
	wire_enc e;
	uint32_t i;

	if (wire_enc_begin(&e, out, m->type, seq, m->nf) == 0)
		for (i = 0; i < m->nf; i++)
			msgpack_pack_object(wire_enc_packer(&e), m->f[i]);
	return wire_enc_end(&e, max);
}

/* ---- decoding --------------------------------------------------------- */

/* Reports field i of m as wrong: why. */
static int wire_field_bad(const wire_msg *m, uint32_t i, const char *why,
			  char *err, size_t errlen)
{
	const char *fields = wire_type_fields(m->type), *p = fields;
	char name[48] = "?";
	uint32_t k;
	size_t n;

	for (k = 0; p != NULL && k < i; k++) { /* skip to field i */
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
	}
	if (p != NULL) {
		n = strcspn(p, ":");
		if (n >= sizeof name)
			n = sizeof name - 1;
		memcpy(name, p, n);
		name[n] = '\0';
	}
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s: field %s %s",
			 wire_type_name(m->type), name, why);
	return WIRE_EMALFORMED;
}

/* Checks that every item of an array object is a string. */
static int wire_is_strv(const msgpack_object *o)
{
	uint32_t i;

	if (o->type != MSGPACK_OBJECT_ARRAY)
		return 0;
	for (i = 0; i < o->via.array.size; i++)
		if (o->via.array.ptr[i].type != MSGPACK_OBJECT_STR)
			return 0;
	return 1;
}

/* Copies a str object into dst; refuses long strings and NUL bytes. */
static int wire_copy_str(const msgpack_object *o, char *dst, size_t cap)
{
	uint32_t n = o->via.str.size;

	if (o->type != MSGPACK_OBJECT_STR || n >= cap ||
	    (n > 0 && memchr(o->via.str.ptr, '\0', n) != NULL))
		return -1;
	if (n > 0)
		memcpy(dst, o->via.str.ptr, n);
	dst[n] = '\0';
	return 0;
}

/* Checks and stores field i of letter c. */
static int wire_unpack_field(const wire_msg *m, uint32_t i, char c,
			     va_list *ap, char *err, size_t errlen)
{
	const msgpack_object *o = &m->f[i];
	char *dst;
	size_t cap;
	const char **pp;

	switch (c) {
	case 'u':
		if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
			return wire_field_bad(m, i, "is not an unsigned "
					      "integer", err, errlen);
		*va_arg(*ap, uint64_t *) = o->via.u64;
		return 0;
	case 'i':
		if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
			*va_arg(*ap, int64_t *) = o->via.i64;
			return 0;
		}
		if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
		    o->via.u64 > (uint64_t)INT64_MAX)
			return wire_field_bad(m, i, "is not a signed integer",
					      err, errlen);
		*va_arg(*ap, int64_t *) = (int64_t)o->via.u64;
		return 0;
	case 'b':
		if (o->type != MSGPACK_OBJECT_BOOLEAN)
			return wire_field_bad(m, i, "is not a boolean", err,
					      errlen);
		*va_arg(*ap, int *) = o->via.boolean ? 1 : 0;
		return 0;
	case 's':
		dst = va_arg(*ap, char *);
		cap = va_arg(*ap, size_t);
		if (wire_copy_str(o, dst, cap) != 0)
			return wire_field_bad(m, i, "is not a string, is too "
					      "long or has a NUL byte", err,
					      errlen);
		return 0;
	case 'd':
		pp = va_arg(*ap, const char **);
		if (o->type == MSGPACK_OBJECT_STR) {
			*pp = o->via.str.ptr;
			*va_arg(*ap, size_t *) = o->via.str.size;
		} else if (o->type == MSGPACK_OBJECT_BIN) {
			*pp = o->via.bin.ptr;
			*va_arg(*ap, size_t *) = o->via.bin.size;
		} else {
			return wire_field_bad(m, i, "is not str or bin data",
					      err, errlen);
		}
		if (*pp == NULL)
			*pp = "";
		return 0;
	case 'A':
		if (!wire_is_strv(o))
			return wire_field_bad(m, i, "is not an array of "
					      "strings", err, errlen);
		*va_arg(*ap, const msgpack_object **) = o;
		return 0;
	case 'o':
		*va_arg(*ap, const msgpack_object **) = o;
		return 0;
	default:
		return wire_field_bad(m, i, "has an unknown type letter", err,
				      errlen);
	}
}

int wire_unpack(const wire_msg *m, char *err, size_t errlen, ...)
{
	const char *fmt = wire_type_format(m->type);
	va_list ap;
	uint32_t i, n;
	int rc = 0;

	if (fmt == NULL) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "unknown message type %u",
				 m->type);
		return WIRE_EUNKNOWN;
	}
	n = (uint32_t)strlen(fmt);
	if (m->nf < n) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: has %u fields, needs %u",
				 wire_type_name(m->type), m->nf, n);
		return WIRE_EMALFORMED;
	}
	va_start(ap, errlen);
	for (i = 0; i < n && rc == 0; i++)
		rc = wire_unpack_field(m, i, fmt[i], &ap, err, errlen);
	va_end(ap);
	return rc;
}

int wire_strv_get(const msgpack_object *arr, uint32_t i, char *dst,
		  size_t cap)
{
	if (arr->type != MSGPACK_OBJECT_ARRAY || i >= arr->via.array.size ||
	    wire_copy_str(&arr->via.array.ptr[i], dst, cap) != 0)
		return WIRE_EMALFORMED;
	return 0;
}
