/*
 * td_node.c — target-side serialiser: the evaluated table, the generic
 * value walker and the request server.
 *
 * The walker reads memory only with memcpy (no alignment assumptions) and
 * only where it is known readable: the caller's variable for td_pack_value,
 * and after a td_readable probe for anything reached through a pointer or
 * named by a request.  Sizes, offsets and signedness come from the table
 * the target compiler evaluated; nothing depends on the console's ABI.
 * Layout: packing helpers, scalars, strings, pointers, aggregates, the
 * dispatcher, the table serialiser, the request server.
 */
#include <string.h>

#include "td_node.h"

/* State of one walk. */
typedef struct td_walk {
	msgpack_packer *pk;   /* output */
	const td_table *t;    /* the table */
	const td_limits *lim; /* limits of this walk */
	uint32_t follow;      /* pointer levels still followed automatically */
} td_walk;

static int td_walk_value(td_walk *w, uint32_t id, const unsigned char *p,
                         uint32_t depth, int trusted);

/* msgpack-c returns non-zero on a failed write. */
#define TD_PK(call) ((call) ? TD_EWRITE : 0)

/* Packs an ext of type code with payload n bytes. */
static int td_pack_ext(msgpack_packer *pk, int8_t code, const void *b, size_t n)
{
	if (msgpack_pack_ext(pk, n, code) || msgpack_pack_ext_body(pk, b, n))
		return TD_EWRITE;
	return 0;
}

/* Packs an address-only ext (TD_EXT_UNREADABLE or TD_EXT_MORE). */
static int td_pack_addr_ext(msgpack_packer *pk, int8_t code, uint64_t a)
{
	unsigned char b[8];

	td_put_be64(b, a);
	return td_pack_ext(pk, code, b, sizeof b);
}

/* Packs a pointer value with its validity byte. */
static int td_pack_ptr(msgpack_packer *pk, uint64_t a, int state)
{
	unsigned char b[9];

	td_put_be64(b, a);
	b[8] = (unsigned char)state;
	return td_pack_ext(pk, TD_EXT_PTR, b, sizeof b);
}

/* See td_node.h. */
int td_read_int(const void *p, uint64_t n, int sgn, uint64_t *v)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;

	switch (n) {
	case 1:
		memcpy(&u8, p, 1);
		*v = sgn ? (uint64_t)(int64_t)(int8_t)u8 : u8;
		return 0;
	case 2:
		memcpy(&u16, p, 2);
		*v = sgn ? (uint64_t)(int64_t)(int16_t)u16 : u16;
		return 0;
	case 4:
		memcpy(&u32, p, 4);
		*v = sgn ? (uint64_t)(int64_t)(int32_t)u32 : u32;
		return 0;
	case 8:
		memcpy(v, p, 8);
		return 0;
	}
	return TD_ETYPE;
}

/* Packs v as a signed or unsigned msgpack integer. */
static int td_pack_int(msgpack_packer *pk, uint64_t v, int sgn)
{
	if (sgn)
		return TD_PK(msgpack_pack_int64(pk, (int64_t)v));
	return TD_PK(msgpack_pack_uint64(pk, v));
}

/* Long double: float64 approximation (big-endian) + the native bytes. */
static int td_pack_ldouble(msgpack_packer *pk, const unsigned char *p,
                           uint64_t size)
{
	unsigned char b[8 + 32];
	long double ld;
	double d;
	uint64_t bits;

	if (size != sizeof ld || size > 32)
		return TD_ETYPE;
	memcpy(&ld, p, sizeof ld);
	d = (double)ld;
	memcpy(&bits, &d, 8);
	td_put_be64(b, bits);
	memcpy(b + 8, p, sizeof ld);
	return td_pack_ext(pk, TD_EXT_LDOUBLE, b, 8 + sizeof ld);
}

/* Scalars: integers, enums, bool, floating point, void. */
static int td_walk_scalar(td_walk *w, const td_type *ty, const unsigned char *p)
{
	uint64_t v;
	float f;
	double d;

	if (ty->kind == TD_VOID)
		return TD_PK(msgpack_pack_nil(w->pk));
	if (ty->kind == TD_FLOAT || ty->kind == TD_DOUBLE) {
		if (ty->size != (ty->kind == TD_FLOAT ? sizeof f : sizeof d))
			return TD_ETYPE;
		if (ty->kind == TD_FLOAT) {
			memcpy(&f, p, sizeof f);
			d = f;
		} else {
			memcpy(&d, p, sizeof d);
		}
		return TD_PK(msgpack_pack_double(w->pk, d));
	}
	if (ty->kind == TD_LDOUBLE)
		return td_pack_ldouble(w->pk, p, ty->size);
	if (td_read_int(p, ty->size, ty->is_signed, &v))
		return TD_ETYPE;
	if (ty->kind == TD_BOOL)
		return TD_PK(v ? msgpack_pack_true(w->pk)
		               : msgpack_pack_false(w->pk));
	return td_pack_int(w->pk, v, ty->is_signed);
}

/* Packs n string bytes, as str, or as TD_EXT_STRCUT when cut. */
static int td_pack_strbytes(msgpack_packer *pk, const void *s, size_t n,
                            int cut)
{
	if (cut)
		return td_pack_ext(pk, TD_EXT_STRCUT, s, n);
	if (msgpack_pack_str(pk, n) || msgpack_pack_str_body(pk, s, n))
		return TD_EWRITE;
	return 0;
}

/* A char array: bytes up to the first NUL, the array's end or the cap. */
static int td_walk_chararray(td_walk *w, const td_type *ty,
                             const unsigned char *p)
{
	uint64_t cap =
	    ty->count < w->lim->max_string ? ty->count : w->lim->max_string;
	const unsigned char *nul = memchr(p, 0, (size_t)cap);

	if (nul != NULL)
		return td_pack_strbytes(w->pk, p, (size_t)(nul - p), 0);
	return td_pack_strbytes(w->pk, p, (size_t)cap, cap < ty->count);
}

/* The string a char * points to; checked page by page as it is read.
 * Packs str, TD_EXT_STRCUT (cap reached or unreadable before the NUL) or
 * nil when even the first byte cannot be read. */
static int td_walk_cstring(td_walk *w, const unsigned char *s)
{
	size_t cap = w->lim->max_string, n = 0, chunk;
	const unsigned char *nul;

	while (n < cap) {
		chunk = 64 - ((uintptr_t)(s + n) % 64);
		if (chunk > cap - n)
			chunk = cap - n;
		if (!td_readable(s + n, chunk))
			break;
		nul = memchr(s + n, 0, chunk);
		if (nul != NULL)
			return td_pack_strbytes(w->pk, s, (size_t)(nul - s), 0);
		n += chunk;
	}
	if (n == 0 && cap > 0)
		return TD_PK(msgpack_pack_nil(w->pk));
	return td_pack_strbytes(w->pk, s, n, 1);
}

/* State of the pointer value a pointing to type tgt. */
static int td_ptr_state(td_walk *w, uint64_t a, const td_type *tgt)
{
	if (a == 0)
		return TD_PTR_NULL;
	if (!w->lim->check_ptrs || tgt == NULL || tgt->kind == TD_VOID ||
	    tgt->size == 0)
		return TD_PTR_UNCHECKED;
	if (tgt->align > 1 && a % tgt->align != 0)
		return TD_PTR_MISALIGNED;
	if (a > (uint64_t)UINTPTR_MAX)
		return TD_PTR_UNREADABLE;
	return td_readable((const void *)(uintptr_t)a, (size_t)tgt->size)
	           ? TD_PTR_OK
	           : TD_PTR_UNREADABLE;
}

/* Pointers: the address; char * with its string; followed levels as
 * [ptr, value]. */
static int td_walk_pointer(td_walk *w, const td_type *ty,
                           const unsigned char *p, uint32_t depth)
{
	const td_type *tgt = td_type_strip(w->t, ty->base);
	uint64_t a;
	int st, rc;

	if (td_read_int(p, ty->size, 0, &a))
		return TD_ETYPE;
	if (ty->kind == TD_FUNCPTR)
		return td_pack_ptr(w->pk, a,
		                   a ? TD_PTR_UNCHECKED : TD_PTR_NULL);
	if (tgt != NULL && w->lim->strings && tgt->size == 1 &&
	    (tgt->kind == TD_CHAR || tgt->kind == TD_SCHAR ||
	     tgt->kind == TD_UCHAR)) {
		st = td_ptr_state(w, a, tgt);
		if (msgpack_pack_array(w->pk, 2) || td_pack_ptr(w->pk, a, st))
			return TD_EWRITE;
		if (st != TD_PTR_OK)
			return TD_PK(msgpack_pack_nil(w->pk));
		return td_walk_cstring(w, (const unsigned char *)(uintptr_t)a);
	}
	st = td_ptr_state(w, a, tgt);
	if (w->follow == 0 || st != TD_PTR_OK)
		return td_pack_ptr(w->pk, a, st);
	if (msgpack_pack_array(w->pk, 2) || td_pack_ptr(w->pk, a, st))
		return TD_EWRITE;
	w->follow--;
	rc = td_walk_value(w, ty->base, (const unsigned char *)(uintptr_t)a,
	                   depth + 1, 1);
	w->follow++;
	return rc;
}

/* Arrays: str for char arrays, else elements (cut at max_elems with a
 * TD_EXT_MORE marker). */
static int td_walk_array(td_walk *w, const td_type *ty, const unsigned char *p,
                         uint32_t depth)
{
	const td_type *el = td_type_get(w->t, ty->base);
	const td_type *sel = td_type_strip(w->t, ty->base);
	uint64_t n, i;
	int rc;

	if (el == NULL || sel == NULL)
		return TD_ETYPE;
	if (sel->size == 1 && (sel->kind == TD_CHAR || sel->kind == TD_SCHAR ||
	                       sel->kind == TD_UCHAR))
		return td_walk_chararray(w, ty, p);
	n = ty->count < w->lim->max_elems ? ty->count : w->lim->max_elems;
	if (msgpack_pack_array(w->pk, (uint32_t)(n + (n < ty->count))))
		return TD_EWRITE;
	for (i = 0; i < n; i++) {
		rc = td_walk_value(w, ty->base, p + i * el->size, depth + 1, 1);
		if (rc)
			return rc;
	}
	if (n < ty->count)
		return td_pack_addr_ext(w->pk, TD_EXT_MORE, ty->count - n);
	return 0;
}

/* A bit-field through its generated accessor, as int or bool. */
static int td_walk_bitfield(td_walk *w, const td_member *m,
                            const unsigned char *obj)
{
	const td_type *mt = td_type_strip(w->t, m->type);
	uint64_t v;

	if (mt == NULL || m->get == NULL)
		return TD_ETYPE;
	v = m->get(obj);
	if (mt->kind == TD_BOOL)
		return TD_PK(v ? msgpack_pack_true(w->pk)
		               : msgpack_pack_false(w->pk));
	return td_pack_int(w->pk, v, mt->is_signed);
}

/* Structs and unions: every member, in order, as one array. */
static int td_walk_record(td_walk *w, const td_type *ty, const unsigned char *p,
                          uint32_t depth)
{
	const td_member *m;
	uint32_t i;
	int rc;

	if (msgpack_pack_array(w->pk, ty->nmembers))
		return TD_EWRITE;
	for (i = 0; i < ty->nmembers; i++) {
		m = &ty->members[i];
		if (m->bit_width)
			rc = td_walk_bitfield(w, m, p);
		else
			rc = td_walk_value(w, m->type, p + m->offset, depth + 1,
			                   1);
		if (rc)
			return rc;
	}
	return 0;
}

/* Dispatcher.  Untrusted objects are probed first and packed as
 * TD_EXT_UNREADABLE when they cannot be read. */
static int td_walk_value(td_walk *w, uint32_t id, const unsigned char *p,
                         uint32_t depth, int trusted)
{
	const td_type *ty = td_type_get(w->t, id);

	if (ty == NULL)
		return TD_ETYPE;
	if (depth > w->lim->max_depth)
		return TD_EDEPTH;
	if (!trusted && !td_readable(p, (size_t)ty->size))
		return td_pack_addr_ext(w->pk, TD_EXT_UNREADABLE,
		                        (uint64_t)(uintptr_t)p);
	switch (ty->kind) {
	case TD_TYPEDEF:
		return td_walk_value(w, ty->base, p, depth + 1, 1);
	case TD_STRUCT:
	case TD_UNION:
		return td_walk_record(w, ty, p, depth);
	case TD_ARRAY:
		return td_walk_array(w, ty, p, depth);
	case TD_POINTER:
	case TD_FUNCPTR:
		return td_walk_pointer(w, ty, p, depth);
	default:
		if (ty->kind >= TD_KIND_COUNT)
			return TD_ETYPE;
		return td_walk_scalar(w, ty, p);
	}
}

int td_pack_value(msgpack_packer *pk, const td_table *t, uint32_t id,
                  const void *addr, const td_limits *lim)
{
	td_limits def;
	td_walk w;

	if (pk == NULL || t == NULL || addr == NULL)
		return TD_EARG;
	if (lim == NULL) {
		td_limits_default(&def);
		lim = &def;
	}
	w.pk = pk;
	w.t = t;
	w.lim = lim;
	w.follow = lim->follow;
	td_probe_begin();
	return td_walk_value(&w, id, addr, 0, 1);
}

/* Packs a string or nil for a NULL name. */
static int td_pack_name(msgpack_packer *pk, const char *s)
{
	size_t n;

	if (s == NULL)
		return TD_PK(msgpack_pack_nil(pk));
	n = strlen(s);
	return TD_PK(msgpack_pack_str(pk, n) ||
	             msgpack_pack_str_body(pk, s, n));
}

/* [[name, type, offset, bit_width]...] */
static int td_pack_members(msgpack_packer *pk, const td_type *ty)
{
	const td_member *m;
	uint32_t i;

	if (msgpack_pack_array(pk, ty->nmembers))
		return TD_EWRITE;
	for (i = 0; i < ty->nmembers; i++) {
		m = &ty->members[i];
		if (msgpack_pack_array(pk, 4) || td_pack_name(pk, m->name) ||
		    msgpack_pack_uint32(pk, m->type) ||
		    msgpack_pack_uint64(pk, m->offset) ||
		    msgpack_pack_uint32(pk, m->bit_width))
			return TD_EWRITE;
	}
	return 0;
}

/* [[name, value]...] */
static int td_pack_consts(msgpack_packer *pk, const td_type *ty)
{
	uint32_t i;

	if (msgpack_pack_array(pk, ty->nconsts))
		return TD_EWRITE;
	for (i = 0; i < ty->nconsts; i++) {
		if (msgpack_pack_array(pk, 2) ||
		    td_pack_name(pk, ty->consts[i].name) ||
		    msgpack_pack_int64(pk, ty->consts[i].value))
			return TD_EWRITE;
	}
	return 0;
}

/* One entry of the table. */
static int td_pack_type(msgpack_packer *pk, const td_type *ty)
{
	if (msgpack_pack_array(pk, 11) || msgpack_pack_uint32(pk, ty->id) ||
	    msgpack_pack_uint8(pk, ty->kind) ||
	    msgpack_pack_uint8(pk, ty->quals) ||
	    msgpack_pack_uint8(pk, ty->is_signed) ||
	    td_pack_name(pk, ty->name) || msgpack_pack_uint64(pk, ty->size) ||
	    msgpack_pack_uint32(pk, ty->align) ||
	    msgpack_pack_uint32(pk, ty->base) ||
	    msgpack_pack_uint64(pk, ty->count))
		return TD_EWRITE;
	if (td_pack_members(pk, ty) || td_pack_consts(pk, ty))
		return TD_EWRITE;
	return 0;
}

/* Header, then every entry in id order (see td_node.h). */
int td_table_pack(msgpack_packer *pk, const td_table *t)
{
	uint32_t i;

	if (msgpack_pack_array(pk, 4) || td_pack_name(pk, "paravt-td") ||
	    msgpack_pack_uint32(pk, TD_FORMAT_VERSION) ||
	    td_pack_name(pk, t->build) || msgpack_pack_array(pk, t->ntypes))
		return TD_EWRITE;
	for (i = 0; i < t->ntypes; i++)
		if (td_pack_type(pk, &t->types[i]))
			return TD_EWRITE;
	return 0;
}
