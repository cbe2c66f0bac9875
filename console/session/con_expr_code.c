/*
 * con_expr_code.c — building the code of a condition (con_expr.h,
 * con_xcode_*): msgpack-encoded instructions of breakpoints/bp_code.h
 * appended to a growing buffer, so that code for sub-expressions can be
 * joined in any order the compiler needs; and the compiler's side of the
 * parser (con_expr_int.h): a variable becomes the value its code loads,
 * an operator on such values joins its operands' code and its own
 * instruction.
 */
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "bp_code.h"
#include "con_expr.h"
#include "con_expr_int.h"

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

/* ---- compiling (con_expr_int.h) ----------------------------------------- */

/* Compiling: o, a path, becomes the value its code loads (its address
 * for addr).  0 or -1. */
int cx_load(cx *c, cx_op *o, int addr)
{
	con_xcode ld;
	char e[400];
	int kind = CON_X_INT;

	if (c->env->load == NULL)
		return cx_fail(c, "variables cannot be compiled here");
	memset(&ld, 0, sizeof ld);
	if (c->env->load(c->env->ctx, o->path, addr, o->dynmask, &ld, &kind,
			 e, sizeof e) != 0) {
		con_xcode_free(&ld);
		return cx_fail(c, "%s", e);
	}
	if (con_xcode_cat(&o->idx, &ld) != 0) {
		con_xcode_free(&ld);
		return cx_fail(c, "out of memory");
	}
	con_xcode_free(&ld);
	con_xcode_free(&o->code);
	o->code = o->idx;
	memset(&o->idx, 0, sizeof o->idx);
	con_xval_free(&o->v);
	memset(&o->v, 0, sizeof o->v);
	o->v.kind = kind;
	o->is_path = 0;
	o->dyn = 1;
	return 0;
}

/* Moves o's code into out: its own, or a PUSH of its constant. */
int cx_frag(cx *c, cx_op *o, con_xcode *out)
{
	memset(out, 0, sizeof *out);
	if (o->dyn) {
		*out = o->code;
		memset(&o->code, 0, sizeof o->code);
		return 0;
	}
	if (con_xcode_push(out, &o->v) != 0) {
		con_xcode_free(out);
		return cx_fail(c, "out of memory");
	}
	return 0;
}

/* One instruction as code. */
static int cx_ins(cx *c, con_xcode *out, int ins, int has_arg, int64_t arg)
{
	memset(out, 0, sizeof *out);
	if (con_xcode_ins(out, ins, has_arg, arg) != 0) {
		con_xcode_free(out);
		return cx_fail(c, "out of memory");
	}
	return 0;
}

/* Makes o the value of parts[0..n) run one after the other (freed), a
 * number of kind kind. */
static int cx_join(cx *c, cx_op *o, int kind, con_xcode *parts, int n)
{
	con_xcode all;
	int i, rc = 0;

	memset(&all, 0, sizeof all);
	for (i = 0; i < n; i++) {
		if (rc == 0)
			rc = con_xcode_cat(&all, &parts[i]);
		con_xcode_free(&parts[i]);
	}
	cx_op_free(o);
	memset(o, 0, sizeof *o);
	o->dyn = 1;
	o->v.kind = kind;
	o->code = all;
	return rc != 0 ? cx_fail(c, "out of memory") : 0;
}

/* o = o INS(arg) b as code (b may be NULL for a unary one). */
int cx_emit(cx *c, cx_op *o, cx_op *b, int ins, int64_t arg, int kind)
{
	con_xcode p[3];
	int n = 0;

	memset(p, 0, sizeof p);
	if (cx_frag(c, o, &p[n++]) != 0 ||
	    (b != NULL && cx_frag(c, b, &p[n++]) != 0) ||
	    cx_ins(c, &p[n++], ins, 1, arg) != 0) {
		while (n-- > 0)
			con_xcode_free(&p[n]);
		return -1;
	}
	return cx_join(c, o, kind, p, n);
}

/* Compiling a && b or a || b (and: which): the task skips b when a
 * decides. */
int cx_emit_logic(cx *c, cx_op *a, cx_op *b, int and)
{
	con_xcode p[4]; /* a, the skip, b, BOOL */
	int k;

	memset(p, 0, sizeof p);
	if (!a->dyn && cx_truth(a) != and) { /* decided here */
		cx_op_free(a);
		cx_set_int(a, !and);
		return 0;
	}
	if (cx_frag(c, b, &p[2]) != 0 ||
	    (a->dyn && (cx_frag(c, a, &p[0]) != 0 ||
			cx_ins(c, &p[1], and ? BP_C_ANDTHEN : BP_C_ORELSE, 1,
			       (int64_t)p[2].n + 1) != 0)) ||
	    cx_ins(c, &p[3], BP_C_BOOL, 0, 0) != 0) {
		for (k = 0; k < 4; k++)
			con_xcode_free(&p[k]);
		return -1;
	}
	return cx_join(c, a, CON_X_INT, p, 4);
}

/* Compiling cond ? a : b with cond known in the task only. */
int cx_emit_cond(cx *c, cx_op *o, cx_op *a, cx_op *b)
{
	con_xcode p[5];
	int kind = a->v.kind;

	memset(p, 0, sizeof p);
	if (cx_number(c, a, "'?:'") != 0 || cx_number(c, b, "'?:'") != 0 ||
	    cx_frag(c, o, &p[0]) != 0 || cx_frag(c, a, &p[2]) != 0 ||
	    cx_frag(c, b, &p[4]) != 0 ||
	    cx_ins(c, &p[1], BP_C_JZ, 1, (int64_t)p[2].n + 1) != 0 ||
	    cx_ins(c, &p[3], BP_C_JMP, 1, (int64_t)p[4].n) != 0) {
		for (kind = 0; kind < 5; kind++)
			con_xcode_free(&p[kind]);
		return -1;
	}
	return cx_join(c, o, kind, p, 5);
}
