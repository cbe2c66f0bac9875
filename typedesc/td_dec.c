/*
 * td_dec.c — console-side decoder of a node's type table.
 *
 * The table arrives as ["paravt-td", version, build, [type...]] (see
 * td_table_pack in td_node.h).  Every field is checked: msgpack types,
 * array lengths, string lengths, ranges of kinds and type ids, limits on
 * counts.  The result is a heap td_table that owns all its strings and
 * arrays; td_table_free releases it.  Errors name the entry and field.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_con.h"

/* Writes a formatted sentence into err (if any) and returns code. */
static int td_dec_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

/* Unsigned integer <= max; 0 or -1. */
static int td_dec_uint(const msgpack_object *o, uint64_t max, uint64_t *v)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
		return -1;
	*v = o->via.u64;
	return 0;
}

/* Copies a str object (<= TD_MAX_NAME bytes, no NUL inside) to a new C
 * string; nil gives "" if nil_ok.  NULL on error. */
static char *td_dec_str(const msgpack_object *o, int nil_ok)
{
	char *s;

	if (o->type == MSGPACK_OBJECT_NIL && nil_ok)
		return strdup("");
	if (o->type != MSGPACK_OBJECT_STR || o->via.str.size > TD_MAX_NAME ||
	    memchr(o->via.str.ptr, 0, o->via.str.size) != NULL)
		return NULL;
	s = malloc(o->via.str.size + 1);
	if (s != NULL) {
		memcpy(s, o->via.str.ptr, o->via.str.size);
		s[o->via.str.size] = 0;
	}
	return s;
}

/* Decodes [[name, type, offset, bit_width]...] into ty. */
static int td_dec_members(const msgpack_object *o, td_type *ty, uint32_t nt,
                          char *err, size_t errlen)
{
	td_member *ms;
	const msgpack_object *f;
	uint64_t v[3];
	uint32_t i;

	if (o->type != MSGPACK_OBJECT_ARRAY ||
	    o->via.array.size > TD_MAX_MEMBERS)
		return td_dec_fail(err, errlen, TD_EMALFORMED,
		                   "type %u: members are not a list", ty->id);
	ms = calloc(o->via.array.size + 1, sizeof *ms);
	if (ms == NULL)
		return td_dec_fail(err, errlen, TD_ENOMEM, "out of memory");
	ty->members = ms;
	for (i = 0; i < o->via.array.size; i++) {
		f = o->via.array.ptr[i].via.array.ptr;
		ty->nmembers = i + 1;
		if (o->via.array.ptr[i].type != MSGPACK_OBJECT_ARRAY ||
		    o->via.array.ptr[i].via.array.size != 4 ||
		    (ms[i].name = td_dec_str(&f[0], 1)) == NULL ||
		    td_dec_uint(&f[1], nt - 1, &v[0]) ||
		    td_dec_uint(&f[2], UINT64_MAX, &v[1]) ||
		    td_dec_uint(&f[3], 64, &v[2]))
			return td_dec_fail(err, errlen, TD_EMALFORMED,
			                   "type %u: member %u is malformed",
			                   ty->id, i);
		ms[i].type = (uint32_t)v[0];
		ms[i].offset = v[1];
		ms[i].bit_width = (uint32_t)v[2];
	}
	return 0;
}

/* Decodes [[name, value]...] into ty. */
static int td_dec_consts(const msgpack_object *o, td_type *ty, char *err,
                         size_t errlen)
{
	td_const *cs;
	const msgpack_object *f;
	uint32_t i;

	if (o->type != MSGPACK_OBJECT_ARRAY ||
	    o->via.array.size > TD_MAX_CONSTS)
		return td_dec_fail(err, errlen, TD_EMALFORMED,
		                   "type %u: constants are not a list", ty->id);
	cs = calloc(o->via.array.size + 1, sizeof *cs);
	if (cs == NULL)
		return td_dec_fail(err, errlen, TD_ENOMEM, "out of memory");
	ty->consts = cs;
	for (i = 0; i < o->via.array.size; i++) {
		f = o->via.array.ptr[i].via.array.ptr;
		ty->nconsts = i + 1;
		if (o->via.array.ptr[i].type != MSGPACK_OBJECT_ARRAY ||
		    o->via.array.ptr[i].via.array.size != 2 ||
		    (cs[i].name = td_dec_str(&f[0], 0)) == NULL ||
		    (f[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER &&
		     f[1].type != MSGPACK_OBJECT_NEGATIVE_INTEGER) ||
		    (f[1].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
		     f[1].via.u64 > INT64_MAX))
			return td_dec_fail(err, errlen, TD_EMALFORMED,
			                   "type %u: enum constant %u is "
			                   "malformed",
			                   ty->id, i);
		cs[i].value = f[1].via.i64;
	}
	return 0;
}

/* Decodes the scalar fields 0..8 of one entry. */
static int td_dec_head(const msgpack_object *f, td_type *ty, uint32_t idx,
                       uint32_t nt)
{
	uint64_t v[8];

	if (td_dec_uint(&f[0], UINT32_MAX, &v[0]) || v[0] != idx ||
	    td_dec_uint(&f[1], TD_KIND_COUNT - 1, &v[1]) ||
	    td_dec_uint(&f[2], TD_Q_CONST | TD_Q_VOLATILE, &v[2]) ||
	    td_dec_uint(&f[3], 1, &v[3]) ||
	    td_dec_uint(&f[5], UINT64_MAX, &v[4]) ||
	    td_dec_uint(&f[6], UINT32_MAX, &v[5]) ||
	    td_dec_uint(&f[7], nt - 1, &v[6]) ||
	    td_dec_uint(&f[8], UINT64_MAX, &v[7]))
		return -1;
	ty->id = idx;
	ty->kind = (uint8_t)v[1];
	ty->quals = (uint8_t)v[2];
	ty->is_signed = (uint8_t)v[3];
	ty->size = v[4];
	ty->align = (uint32_t)v[5];
	ty->base = (uint32_t)v[6];
	ty->count = v[7];
	ty->name = td_dec_str(&f[4], 1);
	return ty->name == NULL ? -1 : 0;
}

/* Decodes entry idx of nt. */
static int td_dec_type(const msgpack_object *o, td_type *ty, uint32_t idx,
                       uint32_t nt, char *err, size_t errlen)
{
	const msgpack_object *f = o->via.array.ptr;
	int rc;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 11 ||
	    td_dec_head(f, ty, idx, nt))
		return td_dec_fail(err, errlen, TD_EMALFORMED,
		                   "type %u: malformed entry", idx);
	rc = td_dec_members(&f[9], ty, nt, err, errlen);
	if (rc == 0)
		rc = td_dec_consts(&f[10], ty, err, errlen);
	if (rc == 0 && ty->kind != TD_STRUCT && ty->kind != TD_UNION &&
	    ty->nmembers > 0)
		return td_dec_fail(err, errlen, TD_EMALFORMED,
		                   "type %u: a %s cannot have members", idx,
		                   td_kind_name(ty->kind));
	return rc;
}

/* Checks what needs the whole table: typedef chains end. */
static int td_dec_check(const td_table *t, char *err, size_t errlen)
{
	uint32_t i;

	for (i = 0; i < t->ntypes; i++)
		if (td_type_strip(t, i) == NULL)
			return td_dec_fail(err, errlen, TD_EMALFORMED,
			                   "type %u: typedef chain loops", i);
	return 0;
}

/* Decodes the header and allocates the entries. */
static int td_dec_top(const msgpack_object *o, td_table *t, char *err,
                      size_t errlen)
{
	const msgpack_object *f = o->via.array.ptr;
	uint64_t ver;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 4 ||
	    f[0].type != MSGPACK_OBJECT_STR || f[0].via.str.size != 9 ||
	    memcmp(f[0].via.str.ptr, "paravt-td", 9) != 0)
		return td_dec_fail(err, errlen, TD_EMALFORMED,
		                   "not a paravt type table");
	if (td_dec_uint(&f[1], UINT32_MAX, &ver) || ver != TD_FORMAT_VERSION)
		return td_dec_fail(err, errlen, TD_EMALFORMED,
		                   "type table format is not version %d",
		                   TD_FORMAT_VERSION);
	t->build = td_dec_str(&f[2], 1);
	if (t->build == NULL || f[3].type != MSGPACK_OBJECT_ARRAY ||
	    f[3].via.array.size == 0 || f[3].via.array.size > TD_MAX_TYPES)
		return td_dec_fail(err, errlen, TD_EMALFORMED,
		                   "type table header is malformed");
	t->types = calloc(f[3].via.array.size, sizeof(td_type));
	if (t->types == NULL)
		return td_dec_fail(err, errlen, TD_ENOMEM, "out of memory");
	return 0;
}

int td_table_decode(const msgpack_object *o, td_table **out, char *err,
                    size_t errlen)
{
	const msgpack_object *types;
	td_table *t = calloc(1, sizeof *t);
	uint32_t i, n;
	int rc;

	*out = NULL;
	if (t == NULL)
		return td_dec_fail(err, errlen, TD_ENOMEM, "out of memory");
	rc = td_dec_top(o, t, err, errlen);
	if (rc)
		goto out_free;
	types = &o->via.array.ptr[3];
	n = types->via.array.size;
	for (i = 0; i < n && rc == 0; i++) {
		rc = td_dec_type(&types->via.array.ptr[i],
		                 (td_type *)&t->types[i], i, n, err, errlen);
		t->ntypes = i + 1;
	}
	if (rc == 0)
		rc = td_dec_check(t, err, errlen);
	if (rc == 0) {
		*out = t;
		return 0;
	}
out_free:
	td_table_free(t);
	return rc;
}

int td_table_decode_buf(const char *buf, size_t len, td_table **out, char *err,
                        size_t errlen)
{
	msgpack_unpacked u;
	size_t off = 0, used = 0;
	int rc;

	*out = NULL;
	msgpack_unpacked_init(&u);
	if (td_msgpack_check(buf, len, &used) || used != len ||
	    msgpack_unpack_next(&u, buf, len, &off) != MSGPACK_UNPACK_SUCCESS)
		rc = td_dec_fail(err, errlen, TD_EMALFORMED,
		                 "type table is not one msgpack object");
	else
		rc = td_table_decode(&u.data, out, err, errlen);
	msgpack_unpacked_destroy(&u);
	return rc;
}

/* Frees one entry's strings and arrays. */
static void td_type_release(td_type *ty)
{
	uint32_t i;

	for (i = 0; i < ty->nmembers; i++)
		free((char *)ty->members[i].name);
	for (i = 0; i < ty->nconsts; i++)
		free((char *)ty->consts[i].name);
	free((td_member *)ty->members);
	free((td_const *)ty->consts);
	free((char *)ty->name);
}

/* Frees every entry, then the table (see td_con.h). */
void td_table_free(td_table *t)
{
	uint32_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->ntypes; i++)
		td_type_release((td_type *)&t->types[i]);
	free((td_type *)t->types);
	free((char *)t->build);
	free(t);
}
