/*
 * td_print.c — decodes a canonical value against its type and prints it
 * the way gdb does:
 *
 *   {v = 1, next = 0x4c6f20}      struct (pointers inside without prefix)
 *   (struct cell *) 0x4c6f20      pointer at the top
 *   {1, 2, 3...}                  array cut by the node's element limit
 *   RED                           enum constant (number if no name fits)
 *   {i = 1078530011, f = 3.14159274}   union: every member view
 *   0x6b4010 "hello"              char *; "abc" for char arrays
 *   0xdead0 <unreadable>          pointer that failed the node's probe
 *   0.10000000000000001 <long double, 16 bytes>
 *
 * The value comes from the network: every msgpack type and length is
 * checked against the type before use, and a mismatch is TD_EMALFORMED.
 * Layout: output helpers, scalars, strings, pointers, aggregates,
 * dispatcher, slices.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "td_con.h"

/* One print: output, table, error buffer. */
typedef struct td_pr {
	wire_buf *out;     /* text goes here */
	const td_table *t; /* types */
	char *err;         /* caller's error buffer */
	size_t errlen;     /* its size */
} td_pr;

/* Deepest value nesting printed (the msgpack decoder bounds it too). */
#define TD_PRINT_DEPTH 64

static int td_pr_value(td_pr *p, uint32_t id, const msgpack_object *v, int top,
                       int depth);

/* Appends formatted text.  0 or TD_ENOMEM. */
static int td_out(td_pr *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return TD_ENOMEM;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	return wire_buf_append(p->out, buf, (size_t)n) ? TD_ENOMEM : 0;
}

/* Records a mismatch between value and type. */
static int td_bad(td_pr *p, const td_type *ty, const char *what)
{
	if (p->err != NULL && p->errlen > 0)
		snprintf(p->err, p->errlen,
		         "value does not fit type %s (%s): %s", ty->name,
		         td_kind_name(ty->kind), what);
	return TD_EMALFORMED;
}

/* Ext object of code with exactly n bytes (n 0: at least 8)? */
static int td_is_ext(const msgpack_object *v, int code, uint32_t n)
{
	if (v->type != MSGPACK_OBJECT_EXT || v->via.ext.type != code)
		return 0;
	return n ? v->via.ext.size == n : v->via.ext.size >= 8;
}

/* One char of a string or char literal, escaped as C does. */
static int td_out_char(td_pr *p, unsigned char c, char quote)
{
	switch (c) {
	case '\n':
		return td_out(p, "\\n");
	case '\t':
		return td_out(p, "\\t");
	case '\r':
		return td_out(p, "\\r");
	case '\\':
		return td_out(p, "\\\\");
	}
	if (c == (unsigned char)quote)
		return td_out(p, "\\%c", quote);
	if (c < 32 || c >= 127)
		return td_out(p, "\\%03o", c);
	return td_out(p, "%c", c);
}

/* "bytes" (quoted, escaped), with "..." after it when cut. */
static int td_out_str(td_pr *p, const char *s, uint32_t n, int cut)
{
	uint32_t i;
	int rc = td_out(p, "\"");

	for (i = 0; i < n && rc == 0; i++)
		rc = td_out_char(p, (unsigned char)s[i], '"');
	if (rc == 0)
		rc = td_out(p, cut ? "\"..." : "\"");
	return rc;
}

/* Reads an integer object for type ty (signedness checked). */
static int td_get_int(td_pr *p, const td_type *ty, const msgpack_object *v,
                      int64_t *s, uint64_t *u)
{
	if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		*u = v->via.u64;
		*s = (int64_t)v->via.u64;
		if (ty->is_signed && v->via.u64 > INT64_MAX)
			return td_bad(p, ty, "signed value out of range");
		return 0;
	}
	if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER && ty->is_signed) {
		*s = v->via.i64;
		*u = (uint64_t)v->via.i64;
		return 0;
	}
	return td_bad(p, ty, "expected an integer of the right sign");
}

/* Integers, chars (65 'A'), enums (by name), _Bool. */
static int td_pr_int(td_pr *p, const td_type *ty, const msgpack_object *v)
{
	int64_t s;
	uint64_t u;
	uint32_t i;
	int rc;

	if (ty->kind == TD_BOOL) {
		if (v->type != MSGPACK_OBJECT_BOOLEAN)
			return td_bad(p, ty, "expected a boolean");
		return td_out(p, v->via.boolean ? "true" : "false");
	}
	rc = td_get_int(p, ty, v, &s, &u);
	if (rc)
		return rc;
	if (ty->kind == TD_ENUM)
		for (i = 0; i < ty->nconsts; i++)
			if (ty->consts[i].value == s)
				return td_out(p, "%s", ty->consts[i].name);
	rc = ty->is_signed ? td_out(p, "%lld", (long long)s)
	                   : td_out(p, "%llu", (unsigned long long)u);
	if (rc == 0 && ty->size == 1 && ty->kind >= TD_CHAR &&
	    ty->kind <= TD_UCHAR) {
		rc = td_out(p, " '");
		if (rc == 0)
			rc = td_out_char(p, (unsigned char)u, '\'');
		if (rc == 0)
			rc = td_out(p, "'");
	}
	return rc;
}

/* A double printed like gdb: %g with enough digits to round-trip. */
static int td_out_double(td_pr *p, double d, int digits)
{
	if (isnan(d))
		return td_out(p, "nan");
	if (isinf(d))
		return td_out(p, d < 0 ? "-inf" : "inf");
	return td_out(p, "%.*g", digits, d);
}

/* float, double, long double. */
static int td_pr_float(td_pr *p, const td_type *ty, const msgpack_object *v)
{
	uint64_t bits;
	double d;
	int rc;

	if (ty->kind == TD_LDOUBLE) {
		if (!td_is_ext(v, TD_EXT_LDOUBLE, 0))
			return td_bad(p, ty, "expected a long double ext");
		bits = td_get_be64((const unsigned char *)v->via.ext.ptr);
		memcpy(&d, &bits, sizeof d);
		rc = td_out_double(p, d, 17);
		if (rc == 0)
			rc = td_out(p, " <long double, %u bytes>",
			            v->via.ext.size - 8);
		return rc;
	}
	if (v->type != MSGPACK_OBJECT_FLOAT64 &&
	    v->type != MSGPACK_OBJECT_FLOAT32)
		return td_bad(p, ty, "expected a float");
	if (ty->kind == TD_FLOAT)
		return td_out_double(p, (float)v->via.f64, 9);
	return td_out_double(p, v->via.f64, 17);
}

/* Prints "0x..." and the state note of a pointer ext. */
static int td_pr_ptrext(td_pr *p, const td_type *ty, const msgpack_object *v)
{
	static const char *const note[] = {"", "", " <unreadable>", "",
	                                   " <misaligned>"};
	const unsigned char *b = (const unsigned char *)v->via.ext.ptr;

	if (!td_is_ext(v, TD_EXT_PTR, 9) || b[8] > TD_PTR_MISALIGNED)
		return td_bad(p, ty, "expected a pointer ext");
	return td_out(p, "0x%llx%s", (unsigned long long)td_get_be64(b),
	              note[b[8]]);
}

/* char *: [ptr, str | strcut | nil]. */
static int td_pr_cstr(td_pr *p, const td_type *ty, const msgpack_object *v)
{
	const msgpack_object *s = &v->via.array.ptr[1];
	int rc = td_pr_ptrext(p, ty, &v->via.array.ptr[0]);

	if (rc || s->type == MSGPACK_OBJECT_NIL)
		return rc;
	if (s->type == MSGPACK_OBJECT_STR) {
		rc = td_out(p, " ");
		return rc ? rc
		          : td_out_str(p, s->via.str.ptr, s->via.str.size, 0);
	}
	if (td_is_ext(s, TD_EXT_STRCUT, s->via.ext.size)) {
		rc = td_out(p, " ");
		return rc ? rc
		          : td_out_str(p, s->via.ext.ptr, s->via.ext.size, 1);
	}
	return td_bad(p, ty, "expected a string after a char pointer");
}

/* Pointers and function pointers, with "(T) " at the top. */
static int td_pr_pointer(td_pr *p, const td_type *ty, const msgpack_object *v,
                         int top, int depth)
{
	const td_type *tgt = td_type_strip(p->t, ty->base);
	int is_str = ty->kind == TD_POINTER && tgt != NULL && tgt->size == 1 &&
	             tgt->kind >= TD_CHAR && tgt->kind <= TD_UCHAR;
	int rc = 0;

	if (top && !(is_str && v->type == MSGPACK_OBJECT_ARRAY))
		rc = td_out(p, "(%s) ", ty->name);
	if (rc)
		return rc;
	if (v->type != MSGPACK_OBJECT_ARRAY)
		return td_pr_ptrext(p, ty, v);
	if (v->via.array.size != 2)
		return td_bad(p, ty, "expected [pointer, target]");
	if (is_str)
		return td_pr_cstr(p, ty, v);
	rc = td_pr_ptrext(p, ty, &v->via.array.ptr[0]);
	if (rc == 0)
		rc = td_out(p, " -> ");
	if (rc == 0)
		rc = td_pr_value(p, ty->base, &v->via.array.ptr[1], 0,
		                 depth + 1);
	return rc;
}

/* Elements of an array object (maybe ending in a TD_EXT_MORE marker)
 * between braces; max: how many elements the type allows. */
static int td_pr_elems(td_pr *p, uint32_t el, const td_type *ty,
                       const msgpack_object *v, uint64_t max, int depth)
{
	uint32_t n, i;
	int more, rc = td_out(p, "{");

	if (v->type != MSGPACK_OBJECT_ARRAY)
		return td_bad(p, ty, "expected an array");
	n = v->via.array.size;
	more = n > 0 && td_is_ext(&v->via.array.ptr[n - 1], TD_EXT_MORE, 8);
	if (more)
		n--;
	if (n > max)
		return td_bad(p, ty, "more elements than the array has");
	for (i = 0; i < n && rc == 0; i++) {
		if (i > 0)
			rc = td_out(p, ", ");
		if (rc == 0)
			rc = td_pr_value(p, el, &v->via.array.ptr[i], 0,
			                 depth + 1);
	}
	if (rc == 0)
		rc = td_out(p, more ? "...}" : "}");
	return rc;
}

/* Arrays: strings for char arrays, else {e, e, ...}. */
static int td_pr_array(td_pr *p, const td_type *ty, const msgpack_object *v,
                       int depth)
{
	const td_type *el = td_type_strip(p->t, ty->base);

	if (el != NULL && el->size == 1 && el->kind >= TD_CHAR &&
	    el->kind <= TD_UCHAR) {
		if (v->type == MSGPACK_OBJECT_STR &&
		    v->via.str.size <= ty->count)
			return td_out_str(p, v->via.str.ptr, v->via.str.size,
			                  0);
		if (td_is_ext(v, TD_EXT_STRCUT, v->via.ext.size) &&
		    v->via.ext.size <= ty->count)
			return td_out_str(p, v->via.ext.ptr, v->via.ext.size,
			                  1);
		return td_bad(p, ty, "expected a string");
	}
	return td_pr_elems(p, ty->base, ty, v, ty->count, depth);
}

/* Structs and unions: {name = value, ...} in member order. */
static int td_pr_record(td_pr *p, const td_type *ty, const msgpack_object *v,
                        int depth)
{
	uint32_t i;
	int rc;

	if (v->type != MSGPACK_OBJECT_ARRAY ||
	    v->via.array.size != ty->nmembers)
		return td_bad(p, ty, "expected one value per member");
	rc = td_out(p, "{");
	for (i = 0; i < ty->nmembers && rc == 0; i++) {
		rc = td_out(p, "%s%s = ", i ? ", " : "", ty->members[i].name);
		if (rc == 0)
			rc = td_pr_value(p, ty->members[i].type,
			                 &v->via.array.ptr[i], 0, depth + 1);
	}
	return rc ? rc : td_out(p, "}");
}

/* Dispatcher: typedefs are looked through; unreadable memory is valid
 * for any type. */
static int td_pr_value(td_pr *p, uint32_t id, const msgpack_object *v, int top,
                       int depth)
{
	const td_type *ty = td_type_strip(p->t, id);

	if (ty == NULL)
		return TD_ETYPE;
	if (depth > TD_PRINT_DEPTH)
		return td_bad(p, ty, "nested too deeply");
	if (td_is_ext(v, TD_EXT_UNREADABLE, 8))
		return td_out(p, "<unreadable at 0x%llx>",
		              (unsigned long long)td_get_be64(
		                  (const unsigned char *)v->via.ext.ptr));
	switch (ty->kind) {
	case TD_VOID:
		return td_out(p, "void");
	case TD_FLOAT:
	case TD_DOUBLE:
	case TD_LDOUBLE:
		return td_pr_float(p, ty, v);
	case TD_STRUCT:
	case TD_UNION:
		return td_pr_record(p, ty, v, depth);
	case TD_ARRAY:
		return td_pr_array(p, ty, v, depth);
	case TD_POINTER:
	case TD_FUNCPTR:
		return td_pr_pointer(p, ty, v, top, depth);
	default:
		return td_pr_int(p, ty, v);
	}
}

int td_value_print(wire_buf *out, const td_table *t, uint32_t id,
                   const msgpack_object *v, int top, char *err, size_t errlen)
{
	td_pr p = {out, t, err, errlen};
	int rc = td_pr_value(&p, id, v, top, 0);

	if (rc == TD_ETYPE && err != NULL && errlen > 0)
		snprintf(err, errlen, "type id %u is not in the table", id);
	if (rc == TD_ENOMEM && err != NULL && errlen > 0)
		snprintf(err, errlen, "printed value too long");
	return rc;
}

int td_result_print(wire_buf *out, const td_table *t, const td_path_result *res,
                    const msgpack_object *v, char *err, size_t errlen)
{
	td_pr p = {out, t, err, errlen};
	const td_type *ty = td_type_strip(t, res->type);

	if (res->slice == 0)
		return td_value_print(out, t, res->type, v, 1, err, errlen);
	if (ty == NULL)
		return TD_ETYPE;
	if (td_is_ext(v, TD_EXT_UNREADABLE, 8))
		return td_pr_value(&p, res->type, v, 1, 0);
	return td_pr_elems(&p, res->type, ty, v, res->slice, 0);
}
