/*
 * td_common.c — helpers of the type-description model used by both sides:
 * error sentences, default limits, type lookup through typedef chains, the
 * big-endian fields of the ext payloads.  C99, no allocation, no I/O.
 */
#include "td.h"
#include "wire_frame.h"

/* Sentences for td_strerror, indexed by -code. */
static const char *const td_errors[] = {
    "success",
    "out of memory",
    "malformed input (not a valid table, value or request)",
    "bad argument",
    "unknown type id or type of the wrong kind",
    "index or slice outside the array",
    "nesting deeper than the limit",
    "could not write the serialised output",
    "invalid value path",
    "memory on the way to the value is not readable",
};

/* Names of the kinds, indexed by enum td_kind. */
static const char *const td_kinds[TD_KIND_COUNT] = {
    "void",
    "_Bool",
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "float",
    "double",
    "long double",
    "enum",
    "struct",
    "union",
    "array",
    "pointer",
    "function pointer",
    "typedef",
};

/* Defaults chosen for interactive printing. */
void td_limits_default(td_limits *l)
{
	l->max_elems = 200;
	l->max_string = 200;
	l->max_depth = 32;
	l->follow = 0;
	l->check_ptrs = 1;
	l->strings = 1;
}

/* Sentence of a code; codes are negative, positive values are accepted. */
const char *td_strerror(int err)
{
	int i = err < 0 ? -err : err;

	if (i >= (int)(sizeof td_errors / sizeof td_errors[0]))
		return "unknown error";
	return td_errors[i];
}

/* Bounds-checked lookup: ids are indexes. */
const td_type *td_type_get(const td_table *t, uint32_t id)
{
	if (t == NULL || id >= t->ntypes)
		return NULL;
	return &t->types[id];
}

/* At most ntypes hops: a longer chain must contain a loop. */
const td_type *td_type_strip(const td_table *t, uint32_t id)
{
	const td_type *ty = td_type_get(t, id);
	uint32_t hops = 0;

	while (ty != NULL && ty->kind == TD_TYPEDEF) {
		if (++hops > t->ntypes)
			return NULL;
		ty = td_type_get(t, ty->base);
	}
	return ty;
}

/* Static name of a kind. */
const char *td_kind_name(int kind)
{
	if (kind < 0 || kind >= TD_KIND_COUNT)
		return "?";
	return td_kinds[kind];
}

/* Integer-like scalar kinds (enum is separate: it has names). */
int td_kind_is_int(int kind)
{
	return kind >= TD_BOOL && kind <= TD_ULLONG;
}

/* Writes v as 8 big-endian bytes. */
void td_put_be64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char)(v & 0xff);
		v >>= 8;
	}
}

/* Reads 8 big-endian bytes. */
uint64_t td_get_be64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

/* Checks, without allocating, that buf starts with one complete msgpack
 * object whose container counts are plausible, so that msgpack-c never
 * allocates for counts the bytes cannot hold.  The scan itself is the wire
 * library's (wire_msgpack_check).  0 with *used = its length, or
 * TD_EMALFORMED. */
int td_msgpack_check(const void *buf, size_t len, size_t *used)
{
	long n = wire_msgpack_check(buf, len);

	if (n < 0)
		return TD_EMALFORMED;
	*used = (size_t)n;
	return 0;
}
