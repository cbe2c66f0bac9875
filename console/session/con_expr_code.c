/*
 * con_expr_code.c — building the code of a condition (con_expr.h,
 * con_xcode_*): msgpack-encoded instructions of breakpoints/bp_code.h
 * appended to a growing buffer, so that code for sub-expressions can be
 * joined in any order the compiler needs.
 */
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "bp_code.h"
#include "con_expr.h"

/* msgpack write callback into a con_xcode. */
static int con_xcode_write(void *data, const char *buf, size_t len)
{
	con_xcode *c = data;
	unsigned char *nb;
	size_t cap;

	if (c->len + len > c->cap) {
		cap = c->cap ? 2 * c->cap : 64;
		while (cap < c->len + len)
			cap *= 2;
		if ((nb = realloc(c->buf, cap)) == NULL)
			return -1;
		c->buf = nb;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, buf, len);
	c->len += len;
	return 0;
}

/* See con_expr.h. */
void con_xcode_free(con_xcode *c)
{
	free(c->buf);
	memset(c, 0, sizeof *c);
}

/* See con_expr.h. */
int con_xcode_push(con_xcode *c, const con_xval *v)
{
	msgpack_packer pk;
	int rc;

	msgpack_packer_init(&pk, c, con_xcode_write);
	rc = msgpack_pack_array(&pk, 3) | msgpack_pack_int(&pk, BP_C_PUSH) |
	     msgpack_pack_int(&pk, v->kind);
	if (v->kind == CON_X_FLT)
		rc |= msgpack_pack_double(&pk, v->d);
	else if (v->kind == CON_X_INT)
		rc |= msgpack_pack_int64(&pk, v->i);
	else
		rc |= msgpack_pack_uint64(&pk, v->u);
	c->n++;
	return rc != 0 ? -1 : 0;
}

/* See con_expr.h. */
int con_xcode_ins(con_xcode *c, int ins, int has_arg, int64_t arg)
{
	msgpack_packer pk;
	int rc;

	msgpack_packer_init(&pk, c, con_xcode_write);
	rc = msgpack_pack_array(&pk, has_arg ? 2 : 1) |
	     msgpack_pack_int(&pk, ins);
	if (has_arg)
		rc |= msgpack_pack_int64(&pk, arg);
	c->n++;
	return rc != 0 ? -1 : 0;
}

/* See con_expr.h. */
int con_xcode_cat(con_xcode *c, const con_xcode *more)
{
	if (more->len > 0 && con_xcode_write(c, (const char *)more->buf,
					     more->len) != 0)
		return -1;
	c->n += more->n;
	return 0;
}

/* See con_expr.h. */
int con_xcode_path(con_xcode *c, int ins, uint32_t var, const char *name,
		   uint32_t type, const uint64_t (*steps)[2], uint32_t nsteps,
		   const uint32_t *dyn, uint32_t ndyn)
{
	msgpack_packer pk;
	uint32_t k;
	int rc;

	msgpack_packer_init(&pk, c, con_xcode_write);
	rc = msgpack_pack_array(&pk, 6) | msgpack_pack_int(&pk, ins) |
	     msgpack_pack_uint32(&pk, var) |
	     msgpack_pack_str_with_body(&pk, name, strlen(name)) |
	     msgpack_pack_uint32(&pk, type) | msgpack_pack_array(&pk, nsteps);
	for (k = 0; k < nsteps; k++)
		rc |= msgpack_pack_array(&pk, 2) |
		      msgpack_pack_uint64(&pk, steps[k][0]) |
		      msgpack_pack_uint64(&pk, steps[k][1]);
	rc |= msgpack_pack_array(&pk, ndyn);
	for (k = 0; k < ndyn; k++)
		rc |= msgpack_pack_uint32(&pk, dyn[k]);
	c->n++;
	return rc != 0 ? -1 : 0;
}

/* See con_expr.h. */
int con_xcode_wrap(const con_xcode *c, unsigned char **out, size_t *len)
{
	con_xcode w;
	msgpack_packer pk;

	memset(&w, 0, sizeof w);
	msgpack_packer_init(&pk, &w, con_xcode_write);
	if (msgpack_pack_array(&pk, c->n) != 0 || con_xcode_cat(&w, c) != 0) {
		con_xcode_free(&w);
		return -1;
	}
	*out = w.buf;
	*len = w.len;
	return 0;
}
