/*
 * con_expr.c — C expressions for print (con_expr.h).
 *
 * A recursive-descent parser with C's precedence that evaluates while it
 * parses.  An operand is either a value or a value path not fetched yet:
 * a name, then .f, ->f and [INDEX] (the index evaluated at once), '*' in
 * front, '@' N behind, grow the path; the path is fetched only when an
 * operator needs its value, so `a[i + 1]` asks the node for one element
 * and `print s` alone is still a path.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_expr.h"

#define CX_PATH_MAX 512 /* longest value path built */

/* An operand: a value, or a path not fetched yet. */
typedef struct cx_op {
	int is_path;
	char path[CX_PATH_MAX];
	con_xval v;
} cx_op;

/* The parser. */
typedef struct cx {
	const char *s;          /* the expression */
	size_t pos;             /* next character */
	const con_expr_env *env; /* the caller's answers */
	char *err;
	size_t errlen;
	int failed;
} cx;

static int cx_expr(cx *c, cx_op *o);
static int cx_unary(cx *c, cx_op *o);

/* Sets the error sentence once; returns -1. */
static int cx_fail(cx *c, const char *fmt, ...)
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
static int cx_peek(cx *c)
{
	while (isspace((unsigned char)c->s[c->pos]))
		c->pos++;
	return c->s[c->pos];
}

/* Takes the operator tok if it comes next (and not a longer one that
 * starts with it, given in not: "=" after "<" makes "<="). */
static int cx_take(cx *c, const char *tok, const char *not)
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
static size_t cx_ident(cx *c, char *buf, size_t n)
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

/* The value of o, fetching a path.  0 or -1. */
static int cx_value(cx *c, cx_op *o)
{
	char e[400];

	if (!o->is_path)
		return 0;
	memset(&o->v, 0, sizeof o->v);
	if (c->env->fetch(c->env->ctx, o->path, &o->v, e, sizeof e) != 0)
		return cx_fail(c, "%s", e);
	o->is_path = 0;
	return 0;
}

/* The value of o as a number (not text).  0 or -1. */
static int cx_number(cx *c, cx_op *o, const char *what)
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

/* o's value as double, signed and unsigned 64-bit integers. */
static double cx_dbl(const con_xval *v)
{
	return v->kind == CON_X_FLT ? v->d :
	       v->kind == CON_X_INT ? (double)v->i : (double)v->u;
}

static int64_t cx_i64(const con_xval *v)
{
	return v->kind == CON_X_FLT ? (int64_t)v->d :
	       v->kind == CON_X_INT ? v->i : (int64_t)v->u;
}

static uint64_t cx_u64(const con_xval *v)
{
	return v->kind == CON_X_FLT ? (uint64_t)v->d :
	       v->kind == CON_X_INT ? (uint64_t)v->i : v->u;
}

/* Makes o the integer value x (signed). */
static void cx_set_int(cx_op *o, int64_t x)
{
	memset(o, 0, sizeof *o);
	o->v.kind = CON_X_INT;
	o->v.i = x;
}

/* ---- binary operators --------------------------------------------------- */

/* Applies an integer-only operator (% << >> & | ^) to a and b into a. */
static int cx_int_op(cx *c, const char *op, cx_op *a, cx_op *b)
{
	int uns = a->v.kind == CON_X_UINT || b->v.kind == CON_X_UINT;
	uint64_t x = cx_u64(&a->v), y = cx_u64(&b->v), r = 0;

	if (a->v.kind == CON_X_FLT || b->v.kind == CON_X_FLT ||
	    a->v.kind == CON_X_PTR || b->v.kind == CON_X_PTR)
		return cx_fail(c, "operator '%s' needs integers", op);
	if (strcmp(op, "%") == 0) {
		if (y == 0)
			return cx_fail(c, "division by zero (%%)");
		r = uns ? x % y : (uint64_t)(cx_i64(&a->v) % cx_i64(&b->v));
	} else if (op[0] == '<' || op[0] == '>') {
		if (y >= 64)
			return cx_fail(c, "shift by %llu bits (0 to 63)",
				       (unsigned long long)y);
		r = op[0] == '<' ? x << y :
		    uns ? x >> y : (uint64_t)(cx_i64(&a->v) >> y);
	} else {
		r = op[0] == '&' ? x & y : op[0] == '|' ? x | y : x ^ y;
	}
	a->v.kind = uns ? CON_X_UINT : CON_X_INT;
	a->v.u = r;
	a->v.i = (int64_t)r;
	a->v.is_char = 0;
	return 0;
}

/* Applies + - * / to a and b into a (double if either is; unsigned if
 * either is; pointers only compare). */
static int cx_arith(cx *c, int op, cx_op *a, cx_op *b)
{
	if (a->v.kind == CON_X_PTR || b->v.kind == CON_X_PTR)
		return cx_fail(c, "arithmetic on addresses is not supported");
	if (a->v.kind == CON_X_FLT || b->v.kind == CON_X_FLT) {
		double x = cx_dbl(&a->v), y = cx_dbl(&b->v);

		a->v.d = op == '+' ? x + y : op == '-' ? x - y :
			 op == '*' ? x * y : x / y;
		a->v.kind = CON_X_FLT;
	} else if (op == '/' && cx_u64(&b->v) == 0) {
		return cx_fail(c, "division by zero");
	} else if (a->v.kind == CON_X_UINT || b->v.kind == CON_X_UINT) {
		uint64_t x = cx_u64(&a->v), y = cx_u64(&b->v);

		a->v.u = op == '+' ? x + y : op == '-' ? x - y :
			 op == '*' ? x * y : x / y;
		a->v.kind = CON_X_UINT;
	} else {
		uint64_t x = (uint64_t)a->v.i, y = (uint64_t)b->v.i;

		if (op == '/' && b->v.i == -1 && a->v.i == INT64_MIN)
			return cx_fail(c, "integer overflow in a division");
		/* wrapping in unsigned, as C's hardware does */
		a->v.i = op == '+' ? (int64_t)(x + y) :
			 op == '-' ? (int64_t)(x - y) :
			 op == '*' ? (int64_t)(x * y) : a->v.i / b->v.i;
	}
	a->v.is_char = 0;
	return 0;
}

/* Compares a and b with op (== != < > <= >=) into a (0 or 1). */
static void cx_compare(const char *op, cx_op *a, cx_op *b)
{
	int r, lt, eq;

	if (a->v.kind == CON_X_FLT || b->v.kind == CON_X_FLT) {
		double x = cx_dbl(&a->v), y = cx_dbl(&b->v);

		lt = x < y;
		eq = x == y;
	} else if (a->v.kind == CON_X_INT && b->v.kind == CON_X_INT) {
		lt = a->v.i < b->v.i;
		eq = a->v.i == b->v.i;
	} else {
		lt = cx_u64(&a->v) < cx_u64(&b->v);
		eq = cx_u64(&a->v) == cx_u64(&b->v);
	}
	r = op[0] == '=' ? eq : op[0] == '!' ? !eq :
	    op[0] == '<' ? (op[1] == '=' ? lt || eq : lt) :
	    (op[1] == '=' ? !lt : !lt && !eq);
	cx_set_int(a, r);
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

/* The arithmetic types a cast or sizeof may name: "unsigned long". */
static int cx_type_name(cx *c, char *buf, size_t n)
{
	static const char *const words[] = {"unsigned", "signed", "char",
		"short", "int", "long", "float", "double", "_Bool", NULL};
	size_t save = c->pos, len = 0;
	char w[64];
	int i, any = 0;

	buf[0] = '\0';
	while (cx_ident(c, w, sizeof w) > 0) {
		for (i = 0; words[i] != NULL && strcmp(words[i], w) != 0; i++)
			;
		if (words[i] == NULL)
			break;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0,
					"%s%s", any ? " " : "", w);
		any = 1;
		save = c->pos;
	}
	c->pos = save;
	return any;
}

/* A cast of o to the arithmetic type called type. */
static int cx_cast(cx *c, const char *type, cx_op *o)
{
	uint64_t size = 8;
	char e[200];
	int uns = strstr(type, "unsigned") != NULL || strcmp(type, "_Bool") == 0;

	if (cx_number(c, o, "a cast") != 0)
		return -1;
	if (strstr(type, "float") != NULL || strstr(type, "double") != NULL) {
		o->v.d = strcmp(type, "float") == 0 ? (double)(float)cx_dbl(&o->v)
						    : cx_dbl(&o->v);
		o->v.kind = CON_X_FLT;
		return 0;
	}
	if (c->env->size(c->env->ctx, type, 1, &size, e, sizeof e) != 0)
		size = strstr(type, "char") ? 1 : strstr(type, "short") ? 2 :
		       strstr(type, "long") ? 8 : 4;
	if (strcmp(type, "_Bool") == 0) {
		cx_set_int(o, cx_dbl(&o->v) != 0);
		return 0;
	}
	o->v.u = cx_u64(&o->v);
	if (size < 8)
		o->v.u &= ((uint64_t)1 << (8 * size)) - 1;
	if (!uns && size < 8 && (o->v.u >> (8 * size - 1)) != 0)
		o->v.u |= ~(((uint64_t)1 << (8 * size)) - 1);
	o->v.kind = uns ? CON_X_UINT : CON_X_INT;
	o->v.i = (int64_t)o->v.u;
	o->v.is_char = size == 1 && strstr(type, "char") != NULL;
	return 0;
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

/* postfix := primary { '[' expr ']' | '.' name | '->' name } ['@' unary] */
static int cx_postfix(cx *c, cx_op *o)
{
	char name[128];
	cx_op idx;

	for (;;) {
		if (cx_take(c, "[", NULL)) {
			if (cx_expr(c, &idx) != 0 ||
			    cx_number(c, &idx, "an index") != 0)
				return -1;
			if (!cx_take(c, "]", NULL))
				return cx_fail(c, "missing ']'");
			if (idx.v.kind == CON_X_FLT)
				return cx_fail(c, "an index must be an "
					       "integer");
			if (cx_path_add(c, o, "[%lld]",
					(long long)cx_i64(&idx.v)) != 0)
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
	if (cx_take(c, "@", NULL)) {
		if (cx_unary(c, &idx) != 0 || cx_number(c, &idx, "'@'") != 0)
			return -1;
		return cx_path_add(c, o, "@%llu",
				   (unsigned long long)cx_u64(&idx.v));
	}
	return 0;
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
static int cx_unary(cx *c, cx_op *o)
{
	char type[128];
	size_t save;

	if (cx_take(c, "sizeof", NULL))
		return cx_sizeof(c, o);
	if (cx_take(c, "!", "=") || cx_take(c, "~", NULL) ||
	    cx_take(c, "-", "-=>") || cx_take(c, "+", "+=")) {
		char op = c->s[c->pos - 1];

		if (cx_unary(c, o) != 0 || cx_number(c, o, "a unary operator"))
			return -1;
		if (op == '!') {
			cx_set_int(o, cx_dbl(&o->v) == 0 &&
				      (o->v.kind != CON_X_PTR || o->v.u == 0));
		} else if (op == '~') {
			if (o->v.kind == CON_X_FLT || o->v.kind == CON_X_PTR)
				return cx_fail(c, "'~' needs an integer");
			o->v.u = ~o->v.u;
			o->v.i = ~o->v.i;
		} else if (op == '-') {
			o->v.d = -o->v.d;
			o->v.i = (int64_t)(0 - (uint64_t)o->v.i);
			o->v.u = 0 - o->v.u;
		}
		o->v.is_char = 0;
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
	cx_op b;
	int rc;

	if (next(c, &b) != 0 || cx_number(c, o, op) != 0 ||
	    cx_number(c, &b, op) != 0) {
		con_xval_free(&b.v);
		return -1;
	}
	if (strchr("+-*/", op[0]) != NULL && op[1] == '\0')
		rc = cx_arith(c, op[0], o, &b);
	else if (strchr("=!<>", op[0]) != NULL &&
		 (op[1] == '=' || op[1] == '\0'))
		cx_compare(op, o, &b), rc = 0;
	else
		rc = cx_int_op(c, op, o, &b);
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

/* land/lor := next { ('&&' | '||') next } (both sides evaluated: the
 * values are read, not run) */
static int cx_logic(cx *c, cx_op *o, const char *op, cx_level_fn *next)
{
	cx_op b;
	int x;

	if (next(c, o) != 0)
		return -1;
	while (cx_take(c, op, NULL)) {
		if (cx_number(c, o, op) != 0 || next(c, &b) != 0 ||
		    cx_number(c, &b, op) != 0)
			return -1;
		x = cx_dbl(&o->v) != 0 || (o->v.kind == CON_X_PTR && o->v.u);
		if (op[0] == '&')
			x = x && (cx_dbl(&b.v) != 0 ||
				  (b.v.kind == CON_X_PTR && b.v.u));
		else
			x = x || cx_dbl(&b.v) != 0 ||
			    (b.v.kind == CON_X_PTR && b.v.u);
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
	int cond;

	if (cx_lor(c, o) != 0)
		return -1;
	if (!cx_take(c, "?", NULL))
		return 0;
	if (cx_number(c, o, "'?:'") != 0 || cx_expr(c, &a) != 0 ||
	    !cx_take(c, ":", NULL) || cx_expr(c, &b) != 0)
		return c->failed ? -1 : cx_fail(c, "missing ':' of '?:'");
	cond = cx_dbl(&o->v) != 0 || (o->v.kind == CON_X_PTR && o->v.u);
	*o = cond ? a : b;
	con_xval_free(cond ? &b.v : &a.v);
	return 0;
}

/* See con_expr.h. */
int con_expr_eval(const char *expr, const con_expr_env *env, con_xval *out,
		  char *err, size_t errlen)
{
	cx c = {expr, 0, env, err, errlen, 0};
	cx_op o;

	memset(out, 0, sizeof *out);
	memset(&o, 0, sizeof o);
	if (cx_expr(&c, &o) != 0 || cx_value(&c, &o) != 0) {
		con_xval_free(&o.v);
		return -1;
	}
	if (cx_peek(&c) != '\0') {
		con_xval_free(&o.v);
		return cx_fail(&c, "unexpected '%s' after the expression",
			       c.s + c.pos);
	}
	*out = o.v;
	return 0;
}
