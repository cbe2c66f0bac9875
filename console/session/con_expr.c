/*
 * con_expr.c — C expressions for print (con_expr.h).
 *
 * A recursive-descent parser with C's precedence that evaluates while it
 * parses.  An operand is either a value or a value path not fetched yet:
 * a name, then .f, ->f and [INDEX] (the index evaluated at once), '*' in
 * front, '@' N behind, grow the path; the path is fetched only when an
 * operator needs its value, so `a[i + 1]` asks the node for one element
 * and `print s` alone is still a path.  The arithmetic is bp_num.c's,
 * which the task shares.
 *
 * Compiling (con_expr_compile, a condition the task runs) parses the
 * same way; a variable becomes a value whose code loads it in the task
 * (env->load), and an operator on such a value joins its operands' code
 * and its own instruction (bp_code.h), while constants are still folded
 * here.  An index computed from a variable stays a step of the path
 * whose argument the task pops.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bp_code.h"
#include "bp_num.h"
#include "con_expr.h"
#include "con_expr_int.h"

static int cx_expr(cx *c, cx_op *o);

/* Sets the error sentence once; returns -1. */
int cx_fail(cx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->failed && c->errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	c->failed = 1;
	return -1;
}

/* Skips blanks; the next character (0 at the end). */
int cx_peek(cx *c)
{
	while (isspace((unsigned char)c->s[c->pos]))
		c->pos++;
	return c->s[c->pos];
}

/* Takes the operator tok if it comes next (and not a longer one that
 * starts with it, given in not: "=" after "<" makes "<="). */
int cx_take(cx *c, const char *tok, const char *not)
{
	size_t n = strlen(tok);

	cx_peek(c);
	if (strncmp(c->s + c->pos, tok, n) != 0 ||
	    (not != NULL && c->s[c->pos + n] != '\0' &&
	     strchr(not, c->s[c->pos + n]) != NULL))
		return 0;
	c->pos += n;
	return 1;
}

/* Reads an identifier into buf.  Its length (0 if none). */
size_t cx_ident(cx *c, char *buf, size_t n)
{
	size_t k = 0;

	cx_peek(c);
	if (!isalpha((unsigned char)c->s[c->pos]) && c->s[c->pos] != '_')
		return 0;
	while ((isalnum((unsigned char)c->s[c->pos]) || c->s[c->pos] == '_') &&
	       k + 1 < n)
		buf[k++] = c->s[c->pos++];
	buf[k] = '\0';
	return k;
}

/* ---- values ----------------------------------------------------------- */

/* Frees what v owns (con_expr.h). */
void con_xval_free(con_xval *v)
{
	free(v->text);
	v->text = NULL;
}

/* Frees what o owns. */
void cx_op_free(cx_op *o)
{
	con_xval_free(&o->v);
	con_xcode_free(&o->code);
	con_xcode_free(&o->idx);
}

/* The value of o, fetching a path.  0 or -1. */
static int cx_value(cx *c, cx_op *o)
{
	char e[400];

	if (!o->is_path)
		return 0;
	if (c->compile)
		return cx_load(c, o, 0);
	memset(&o->v, 0, sizeof o->v);
	if (c->env->fetch(c->env->ctx, o->path, &o->v, e, sizeof e) != 0)
		return cx_fail(c, "%s", e);
	o->is_path = 0;
	return 0;
}

/* The value of o as a number (not text).  0 or -1. */
int cx_number(cx *c, cx_op *o, const char *what)
{
	char path[CX_PATH_MAX];

	snprintf(path, sizeof path, "%s", o->is_path ? o->path : "value");
	if (cx_value(c, o) != 0)
		return -1;
	if (o->v.kind == CON_X_TEXT)
		return cx_fail(c, "'%s' is not a number (%s needs one)", path,
			       what);
	return 0;
}

/* v as bp_num's number; compiling a dyn value, a sample of its kind
 * (1), to check an operator on it. */
bp_num cx_num(const cx_op *o)
{
	bp_num n;

	n.kind = o->v.kind;
	n.i = o->dyn ? 1 : o->v.i;
	n.u = o->dyn ? 1 : o->v.u;
	n.d = o->dyn ? 1 : o->v.d;
	n.is_char = o->v.is_char;
	return n;
}

/* Makes v the number n. */
void cx_from_num(con_xval *v, const bp_num *n)
{
	con_xval_free(v);
	v->kind = n->kind;
	v->i = n->i;
	v->u = n->u;
	v->d = n->d;
	v->is_char = n->is_char;
}

/* True if o's value is true in C. */
int cx_truth(const cx_op *o)
{
	bp_num n = cx_num(o);

	return bp_num_truth(&n);
}

/* Makes o the integer value x (signed). */
void cx_set_int(cx_op *o, int64_t x)
{
	memset(o, 0, sizeof *o);
	o->v.kind = CON_X_INT;
	o->v.i = x;
}

/* ---- the grammar -------------------------------------------------------- */

/* A number or character literal into o.  1 if there was one, 0, -1. */
static int cx_literal(cx *c, cx_op *o)
{
	const char *p = c->s + c->pos;
	char *end;

	memset(o, 0, sizeof *o);
	if (*p == '\'') {
		if (p[1] == '\\' && p[2] != '\0' && p[3] == '\'') {
			static const char esc[] = "n\nt\tr\r0\0\\\\''";
			const char *e = strchr(esc, p[2]);

			if (e == NULL || (e - esc) % 2 != 0)
				return cx_fail(c, "unknown escape '\\%c'", p[2]);
			o->v.i = (unsigned char)e[1];
			c->pos += 4;
		} else if (p[1] != '\0' && p[2] == '\'') {
			o->v.i = (unsigned char)p[1];
			c->pos += 3;
		} else {
			return cx_fail(c, "bad character literal");
		}
		o->v.kind = CON_X_INT;
		o->v.is_char = 1;
		return 1;
	}
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return 0;
	errno = 0;
	if (strpbrk(p, ".eE") != NULL &&
	    strspn(p, "0123456789.eE+-") > strspn(p, "0123456789") &&
	    strncmp(p, "0x", 2) != 0 && strncmp(p, "0X", 2) != 0) {
		o->v.kind = CON_X_FLT;
		o->v.d = strtod(p, &end);
	} else {
		o->v.u = strtoull(p, &end, 0);
		o->v.kind = CON_X_INT;
		o->v.i = (int64_t)o->v.u;
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			if (*end++ == 'u' || end[-1] == 'U')
				o->v.kind = CON_X_UINT;
		if (o->v.kind == CON_X_INT && o->v.u > (uint64_t)INT64_MAX)
			o->v.kind = CON_X_UINT;
	}
	if (errno != 0 || isalnum((unsigned char)*end) || *end == '_')
		return cx_fail(c, "bad number '%.*s'", (int)(end - p + 1), p);
	c->pos += (size_t)(end - p);
	return 1;
}

/* Appends text to o's path; o must be a path. */
static int cx_path_add(cx *c, cx_op *o, const char *fmt, ...)
{
	size_t used = strlen(o->path);
	va_list ap;
	int n;

	if (!o->is_path)
		return cx_fail(c, "only a variable can be indexed or have "
			       "members here");
	va_start(ap, fmt);
	n = vsnprintf(o->path + used, sizeof o->path - used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof o->path - used)
		return cx_fail(c, "expression too long");
	return 0;
}

/* Puts pre before and post after o's path. */
static int cx_path_wrap(cx *c, cx_op *o, const char *pre, const char *post)
{
	char tmp[CX_PATH_MAX];
	size_t n = strlen(pre) + strlen(o->path) + strlen(post);

	if (n >= sizeof tmp)
		return cx_fail(c, "expression too long");
	memcpy(tmp, pre, strlen(pre) + 1);
	strcat(tmp, o->path);
	strcat(tmp, post);
	memcpy(o->path, tmp, n + 1);
	return 0;
}

/* '[' expr ']' after o: the index goes into o's path; compiling, an
 * index known only in the task is a 0 there, its code kept in o. */
static int cx_index(cx *c, cx_op *o)
{
	cx_op idx;
	int rc;

	memset(&idx, 0, sizeof idx);
	if (cx_expr(c, &idx) != 0 || cx_number(c, &idx, "an index") != 0)
		goto fail;
	if (!cx_take(c, "]", NULL)) {
		cx_fail(c, "missing ']'");
		goto fail;
	}
	if (idx.v.kind == CON_X_FLT) {
		cx_fail(c, "an index must be an integer");
		goto fail;
	}
	if (idx.dyn && o->nbr >= 64) {
		cx_fail(c, "too many indexes");
		goto fail;
	}
	rc = cx_path_add(c, o, "[%lld]", idx.dyn ? 0LL : (long long)idx.v.i);
	if (rc == 0 && idx.dyn) {
		o->dynmask |= (uint64_t)1 << o->nbr;
		if (con_xcode_cat(&o->idx, &idx.code) != 0)
			rc = cx_fail(c, "out of memory");
	}
	o->nbr++;
	cx_op_free(&idx);
	return rc;
fail:
	cx_op_free(&idx);
	return -1;
}

/* postfix := primary { '[' expr ']' | '.' name | '->' name } ['@' unary] */
static int cx_postfix(cx *c, cx_op *o)
{
	char name[128];
	cx_op idx;

	for (;;) {
		if (cx_take(c, "[", NULL)) {
			if (cx_index(c, o) != 0)
				return -1;
		} else if (cx_take(c, "->", NULL) || cx_take(c, ".", NULL)) {
			const char *op = c->s[c->pos - 1] == '>' ? "->" : ".";

			if (cx_ident(c, name, sizeof name) == 0)
				return cx_fail(c, "a member name after '%s'",
					       op);
			if (cx_path_add(c, o, "%s%s", op, name) != 0)
				return -1;
		} else {
			break;
		}
	}
	if (!cx_take(c, "@", NULL))
		return 0;
	memset(&idx, 0, sizeof idx);
	if (cx_unary(c, &idx) != 0 || cx_number(c, &idx, "'@'") != 0 ||
	    (idx.dyn && cx_fail(c, "a slice is not a number")) != 0) {
		cx_op_free(&idx);
		return -1;
	}
	return cx_path_add(c, o, "@%llu", idx.v.kind == CON_X_INT ?
			   (unsigned long long)idx.v.i :
			   (unsigned long long)idx.v.u);
}

/* primary := number | 'c' | name | '(' expr ')' */
static int cx_primary(cx *c, cx_op *o)
{
	char name[128];
	int r;

	memset(o, 0, sizeof *o);
	if (cx_peek(c) == '\0')
		return cx_fail(c, "an operand is missing at the end");
	if ((r = cx_literal(c, o)) != 0)
		return r < 0 ? -1 : 0;
	if (cx_take(c, "(", NULL)) {
		if (cx_expr(c, o) != 0)
			return -1;
		if (!cx_take(c, ")", NULL))
			return cx_fail(c, "missing ')'");
		return o->is_path ? cx_path_wrap(c, o, "(", ")") : 0;
	}
	if (cx_ident(c, name, sizeof name) == 0)
		return cx_fail(c, "unexpected '%c'", c->s[c->pos]);
	o->is_path = 1;
	snprintf(o->path, sizeof o->path, "%s", name);
	return 0;
}

/* sizeof ( TYPE ) | sizeof unary */
static int cx_sizeof(cx *c, cx_op *o)
{
	char type[128], e[300];
	size_t save = c->pos;
	uint64_t n;
	cx_op v;

	if (c->compile)
		return cx_fail(c, "sizeof is not run in the task");
	if (cx_take(c, "(", NULL) && cx_type_name(c, type, sizeof type) &&
	    cx_take(c, ")", NULL)) {
		if (c->env->size(c->env->ctx, type, 1, &n, e, sizeof e) != 0)
			return cx_fail(c, "%s", e);
	} else {
		c->pos = save;
		if (cx_unary(c, &v) != 0)
			return -1;
		if (!v.is_path)
			return cx_fail(c, "sizeof of a value is not supported: "
				       "name a variable or a type");
		if (c->env->size(c->env->ctx, v.path, 0, &n, e, sizeof e) != 0)
			return cx_fail(c, "%s", e);
	}
	cx_set_int(o, (int64_t)n);
	o->v.kind = CON_X_UINT;
	o->v.u = n;
	return 0;
}

/* unary := ('-'|'+'|'!'|'~') unary | '*' unary | sizeof | cast | postfix */
int cx_unary(cx *c, cx_op *o)
{
	char type[128];
	size_t save;

	if (cx_take(c, "sizeof", NULL))
		return cx_sizeof(c, o);
	if (cx_take(c, "!", "=") || cx_take(c, "~", NULL) ||
	    cx_take(c, "-", "-=>") || cx_take(c, "+", "+=")) {
		char op = c->s[c->pos - 1], e[120];
		int k = op == '!' ? BP_UN_NOT : op == '~' ? BP_UN_BNOT :
			op == '-' ? BP_UN_NEG : BP_UN_PLUS;
		bp_num x;

		if (cx_unary(c, o) != 0 || cx_number(c, o, "a unary operator"))
			return -1;
		x = cx_num(o);
		if (bp_num_unary(k, &x, e, sizeof e) != 0)
			return cx_fail(c, "%s", e);
		if (o->dyn)
			return k == BP_UN_PLUS ? 0 :
			       cx_emit(c, o, NULL, BP_C_UN, k, x.kind);
		cx_from_num(&o->v, &x);
		return 0;
	}
	if (cx_take(c, "*", "=")) {
		if (cx_unary(c, o) != 0)
			return -1;
		if (!o->is_path)
			return cx_fail(c, "'*' needs a pointer variable");
		return cx_path_wrap(c, o, "*(", ")");
	}
	if (cx_take(c, "&", "&=")) {
		char e[300];

		if (cx_unary(c, o) != 0)
			return -1;
		if (!o->is_path)
			return cx_fail(c, "'&' needs a variable, a member or an "
				       "element");
		if (c->compile)
			return cx_load(c, o, 1);
		if (c->env->addr(c->env->ctx, o->path, &o->v.u, e,
				 sizeof e) != 0)
			return cx_fail(c, "%s", e);
		o->is_path = 0;
		o->v.kind = CON_X_PTR;
		return 0;
	}
	save = c->pos;
	if (cx_take(c, "(", NULL) && cx_type_name(c, type, sizeof type) &&
	    cx_take(c, ")", NULL))
		return cx_unary(c, o) != 0 ? -1 : cx_cast(c, type, o);
	c->pos = save;
	if (cx_take(c, "(", NULL)) {
		int r = cx_program_cast(c, o);

		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	c->pos = save;
	return cx_primary(c, o) != 0 ? -1 : cx_postfix(c, o);
}

/* One binary level: the operators ops (space-separated) over operands
 * of next; each operator's longer neighbours in not. */
typedef int cx_level_fn(cx *c, cx_op *o);

static int cx_mul(cx *c, cx_op *o);
static int cx_add(cx *c, cx_op *o);
static int cx_shift(cx *c, cx_op *o);
static int cx_rel(cx *c, cx_op *o);
static int cx_eq(cx *c, cx_op *o);
static int cx_band(cx *c, cx_op *o);
static int cx_bxor(cx *c, cx_op *o);
static int cx_bor(cx *c, cx_op *o);

/* Applies op to o and the next operand of level next. */
static int cx_apply(cx *c, const char *op, cx_level_fn *next, cx_op *o)
{
	int k = bp_num_op_of(op), rc;
	bp_num x, y;
	char e[120];
	cx_op b;

	memset(&b, 0, sizeof b);
	if (next(c, &b) != 0 || cx_number(c, o, op) != 0 ||
	    cx_number(c, &b, op) != 0) {
		cx_op_free(&b);
		return -1;
	}
	x = cx_num(o);
	y = cx_num(&b);
	rc = bp_num_binary(k, &x, &y, e, sizeof e);
	if (rc != 0)
		rc = cx_fail(c, "%s", e);
	else if (o->dyn || b.dyn)
		rc = cx_emit(c, o, &b, BP_C_BIN, k, x.kind);
	else
		cx_from_num(&o->v, &x);
	cx_op_free(&b);
	return rc;
}

/* A left-associative level with operators ops[] (longest first). */
static int cx_level(cx *c, cx_op *o, const char *const *ops,
		    const char *const *nots, cx_level_fn *next)
{
	int i;

	if (next(c, o) != 0)
		return -1;
	for (;;) {
		for (i = 0; ops[i] != NULL && !cx_take(c, ops[i], nots[i]); i++)
			;
		if (ops[i] == NULL)
			return 0;
		if (cx_apply(c, ops[i], next, o) != 0)
			return -1;
	}
}

static int cx_mul(cx *c, cx_op *o)
{
	static const char *const ops[] = {"*", "/", "%", NULL};
	static const char *const nots[] = {"=", "=", "=", NULL};

	return cx_level(c, o, ops, nots, cx_unary);
}

static int cx_add(cx *c, cx_op *o)
{
	static const char *const ops[] = {"+", "-", NULL};
	static const char *const nots[] = {"=+", "=->", NULL};

	return cx_level(c, o, ops, nots, cx_mul);
}

static int cx_shift(cx *c, cx_op *o)
{
	static const char *const ops[] = {"<<", ">>", NULL};
	static const char *const nots[] = {"=", "=", NULL};

	return cx_level(c, o, ops, nots, cx_add);
}

static int cx_rel(cx *c, cx_op *o)
{
	static const char *const ops[] = {"<=", ">=", "<", ">", NULL};
	static const char *const nots[] = {NULL, NULL, "<=", ">=", NULL};

	return cx_level(c, o, ops, nots, cx_shift);
}

static int cx_eq(cx *c, cx_op *o)
{
	static const char *const ops[] = {"==", "!=", NULL};
	static const char *const nots[] = {NULL, NULL, NULL};

	return cx_level(c, o, ops, nots, cx_rel);
}

static int cx_band(cx *c, cx_op *o)
{
	static const char *const ops[] = {"&", NULL};
	static const char *const nots[] = {"&=", NULL};

	return cx_level(c, o, ops, nots, cx_eq);
}

static int cx_bxor(cx *c, cx_op *o)
{
	static const char *const ops[] = {"^", NULL};
	static const char *const nots[] = {"=", NULL};

	return cx_level(c, o, ops, nots, cx_band);
}

static int cx_bor(cx *c, cx_op *o)
{
	static const char *const ops[] = {"|", NULL};
	static const char *const nots[] = {"|=", NULL};

	return cx_level(c, o, ops, nots, cx_bxor);
}

/* land/lor := next { ('&&' | '||') next } (printing, both sides are
 * evaluated: the values are read, not run; compiled, the task skips the
 * right side when the left decides) */
static int cx_logic(cx *c, cx_op *o, const char *op, cx_level_fn *next)
{
	int and = op[0] == '&', x;
	cx_op b;

	if (next(c, o) != 0)
		return -1;
	while (cx_take(c, op, NULL)) {
		memset(&b, 0, sizeof b);
		if (cx_number(c, o, op) != 0 || next(c, &b) != 0 ||
		    cx_number(c, &b, op) != 0) {
			cx_op_free(&b);
			return -1;
		}
		if (o->dyn || b.dyn) {
			x = cx_emit_logic(c, o, &b, and);
			cx_op_free(&b);
			if (x != 0)
				return -1;
			continue;
		}
		x = and ? cx_truth(o) && cx_truth(&b) :
			  cx_truth(o) || cx_truth(&b);
		cx_op_free(&b);
		cx_op_free(o);
		cx_set_int(o, x);
	}
	return 0;
}

static int cx_land(cx *c, cx_op *o)
{
	return cx_logic(c, o, "&&", cx_bor);
}

static int cx_lor(cx *c, cx_op *o)
{
	return cx_logic(c, o, "||", cx_land);
}

/* expr := lor [ '?' expr ':' expr ] */
static int cx_expr(cx *c, cx_op *o)
{
	cx_op a, b;
	int cond, rc = 0;

	if (cx_lor(c, o) != 0)
		return -1;
	if (!cx_take(c, "?", NULL))
		return 0;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	if (cx_number(c, o, "'?:'") != 0 || cx_expr(c, &a) != 0 ||
	    !cx_take(c, ":", NULL) || cx_expr(c, &b) != 0) {
		rc = c->failed ? -1 : cx_fail(c, "missing ':' of '?:'");
	} else if (o->dyn) {
		rc = cx_emit_cond(c, o, &a, &b);
	} else {
		cond = cx_truth(o);
		cx_op_free(o);
		*o = cond ? a : b;
		memset(cond ? &a : &b, 0, sizeof a);
	}
	cx_op_free(&a);
	cx_op_free(&b);
	return rc;
}

/* See con_expr.h. */
int con_expr_eval(const char *expr, const con_expr_env *env, con_xval *out,
		  char *err, size_t errlen)
{
	cx c = {expr, 0, env, err, errlen, 0, 0};
	cx_op o;

	memset(out, 0, sizeof *out);
	memset(&o, 0, sizeof o);
	if (cx_expr(&c, &o) != 0 || cx_value(&c, &o) != 0) {
		cx_op_free(&o);
		return -1;
	}
	if (cx_peek(&c) != '\0') {
		cx_op_free(&o);
		return cx_fail(&c, "unexpected '%s' after the expression",
			       c.s + c.pos);
	}
	*out = o.v;
	memset(&o.v, 0, sizeof o.v);
	cx_op_free(&o);
	return 0;
}

/* See con_expr.h. */
int con_expr_compile(const char *expr, const con_expr_env *env,
		     con_xcode *out, char *err, size_t errlen)
{
	cx c = {expr, 0, env, err, errlen, 0, 1};
	cx_op o;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&o, 0, sizeof o);
	rc = cx_expr(&c, &o) != 0 || cx_number(&c, &o, "a condition") != 0;
	if (rc == 0 && cx_peek(&c) != '\0')
		rc = cx_fail(&c, "unexpected '%s' after the expression",
			     c.s + c.pos);
	if (rc == 0)
		rc = cx_frag(&c, &o, out);
	cx_op_free(&o);
	return rc != 0 ? -1 : 0;
}
