/*
 * td_path.c — value paths: parser and evaluator (console side).
 *
 * Grammar (gdb's precedence: postfix binds tighter than unary '*', '@'
 * is lowest):
 *
 *   path    := unary [ '@' number ]
 *   unary   := '*' unary | postfix
 *   postfix := primary { '.' name | '->' name | '[' number ']' }
 *   primary := name | '(' unary ')'
 *
 * Evaluation happens while parsing: each operator is checked against the
 * table (member names, array bounds, pointer-ness) and appended as a step
 * of a td_request that the node serves with td_serve.  Every error is one
 * sentence naming the sub-expression ("cannot index 'g_all.i': it is int,
 * not an array or pointer").
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_con.h"

/* Longest sub-expression text kept for messages. */
#define TD_EXPR_MAX 256

/* Parser and evaluator state. */
typedef struct td_ps {
	const td_table *t;         /* types */
	const td_scope_var *scope; /* variables */
	uint32_t nvars;            /* their number */
	const char *s;             /* the path */
	size_t pos;                /* next character */
	td_path_result *res;       /* output */
	char expr[TD_EXPR_MAX];    /* text of what is evaluated so far */
	int bitfield;              /* current value is a bit-field */
	int last_index;            /* last step indexed an array */
	uint64_t last_count;       /* that array's element count */
	char *err;                 /* caller's error buffer */
	size_t errlen;             /* its size */
} td_ps;

static int td_ps_unary(td_ps *ps);

/* Formats the error sentence; returns TD_EPATH. */
static int td_ps_fail(td_ps *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->err != NULL && ps->errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(ps->err, ps->errlen, fmt, ap);
		va_end(ap);
	}
	return TD_EPATH;
}

/* Skips blanks; returns the next character (0 at the end). */
static char td_ps_peek(td_ps *ps)
{
	while (ps->s[ps->pos] == ' ' || ps->s[ps->pos] == '\t')
		ps->pos++;
	return ps->s[ps->pos];
}

/* The current type, typedefs looked through. */
static const td_type *td_ps_type(td_ps *ps)
{
	return td_type_strip(ps->t, ps->res->type);
}

/* Sets the sub-expression text to pre + txt + post, cut to fit. */
static void td_ps_text(td_ps *ps, const char *pre, const char *txt,
                       const char *post)
{
	const char *parts[3] = {pre, txt, post};
	char tmp[TD_EXPR_MAX];
	size_t n = 0, k;
	int i;

	for (i = 0; i < 3; i++) {
		k = strlen(parts[i]);
		if (k > sizeof tmp - 1 - n)
			k = sizeof tmp - 1 - n;
		memcpy(tmp + n, parts[i], k);
		n += k;
	}
	tmp[n] = 0;
	memcpy(ps->expr, tmp, n + 1);
}

/* Appends a step to the request. */
static int td_ps_step(td_ps *ps, int op, uint64_t arg)
{
	td_request *r = &ps->res->req;

	if (r->nsteps >= TD_MAX_STEPS)
		return td_ps_fail(ps, "path is too long (at most %u steps)",
		                  TD_MAX_STEPS);
	r->steps[r->nsteps].op = (uint8_t)op;
	r->steps[r->nsteps].arg = arg;
	r->nsteps++;
	ps->last_index = 0;
	return 0;
}

/* Reads an identifier into buf; 0 or TD_EPATH. */
static int td_ps_name(td_ps *ps, char *buf, size_t len, const char *after)
{
	size_t n = 0;

	td_ps_peek(ps);
	if (!isalpha((unsigned char)ps->s[ps->pos]) && ps->s[ps->pos] != '_')
		return td_ps_fail(ps,
		                  "syntax error at column %zu: expected a "
		                  "name%s",
		                  ps->pos + 1, after);
	while (isalnum((unsigned char)ps->s[ps->pos]) ||
	       ps->s[ps->pos] == '_') {
		if (n + 1 >= len)
			return td_ps_fail(ps, "name too long at column %zu",
			                  ps->pos + 1);
		buf[n++] = ps->s[ps->pos++];
	}
	buf[n] = 0;
	return 0;
}

/* Reads a non-negative decimal or 0x number. */
static int td_ps_number(td_ps *ps, uint64_t *v, const char *what)
{
	const char *start;
	char *end;

	td_ps_peek(ps);
	start = ps->s + ps->pos;
	if (!isdigit((unsigned char)*start))
		return td_ps_fail(ps, "syntax error at column %zu: expected %s",
		                  ps->pos + 1, what);
	*v = strtoull(start, &end, 0);
	ps->pos += (size_t)(end - start);
	return 0;
}

/* Refuses any operator on a bit-field. */
static int td_ps_not_bitfield(td_ps *ps, const char *op)
{
	if (ps->bitfield)
		return td_ps_fail(ps, "cannot %s '%s': it is a bit-field", op,
		                  ps->expr);
	return 0;
}

/* Looks up a variable. */
static int td_ps_primary_name(td_ps *ps)
{
	char name[TD_MAX_NAME];
	uint32_t i;
	int rc = td_ps_name(ps, name, sizeof name, "");

	if (rc)
		return rc;
	for (i = 0; i < ps->nvars; i++)
		if (strcmp(ps->scope[i].name, name) == 0)
			break;
	if (i == ps->nvars)
		return td_ps_fail(ps, "no variable named '%s' here", name);
	if (td_type_strip(ps->t, ps->scope[i].type) == NULL)
		return td_ps_fail(ps, "variable '%s' has an unknown type",
		                  name);
	ps->res->req.type = ps->scope[i].type;
	ps->res->req.addr = ps->scope[i].addr;
	ps->res->type = ps->scope[i].type;
	td_ps_text(ps, "", name, "");
	return 0;
}

/* name | '(' unary ')' */
static int td_ps_primary(td_ps *ps)
{
	int rc;

	if (td_ps_peek(ps) != '(')
		return td_ps_primary_name(ps);
	ps->pos++;
	rc = td_ps_unary(ps);
	if (rc)
		return rc;
	if (td_ps_peek(ps) != ')')
		return td_ps_fail(ps,
		                  "syntax error at column %zu: expected ')'",
		                  ps->pos + 1);
	ps->pos++;
	td_ps_text(ps, "(", ps->expr, ")");
	return 0;
}

/* Member name of the current struct/union: appends a MEMBER step. */
static int td_ps_member(td_ps *ps, const char *name)
{
	const td_type *ty = td_ps_type(ps);
	uint32_t i;

	for (i = 0; i < ty->nmembers; i++)
		if (strcmp(ty->members[i].name, name) == 0)
			break;
	if (i == ty->nmembers)
		return td_ps_fail(ps, "no member named '%s' in %s", name,
		                  ty->name);
	ps->res->type = ty->members[i].type;
	ps->bitfield = ty->members[i].bit_width != 0;
	return td_ps_step(ps, TD_STEP_MEMBER, i);
}

/* '.' name or '->' name. */
static int td_ps_dot(td_ps *ps, int arrow)
{
	const td_type *ty = td_ps_type(ps);
	char name[TD_MAX_NAME];
	int rc = td_ps_not_bitfield(ps, "take a member of");

	if (rc == 0)
		rc = td_ps_name(ps, name, sizeof name,
		                arrow ? " after '->'" : " after '.'");
	if (rc)
		return rc;
	if (arrow) {
		if (ty->kind != TD_POINTER)
			return td_ps_fail(ps,
			                  "cannot use '->' on '%s': it is "
			                  "%s, not a pointer",
			                  ps->expr, ty->name);
		ps->res->type = ty->base;
		ty = td_ps_type(ps);
		if ((rc = td_ps_step(ps, TD_STEP_DEREF, 0)))
			return rc;
	}
	if (ty->kind != TD_STRUCT && ty->kind != TD_UNION)
		return td_ps_fail(
		    ps,
		    "cannot take member '%s' of '%s': it is "
		    "%s, not a struct or union%s",
		    name, ps->expr, ty->name,
		    !arrow && ty->kind == TD_POINTER ? " (use '->')" : "");
	rc = td_ps_member(ps, name);
	td_ps_text(ps, ps->expr, arrow ? "->" : ".", name);
	return rc;
}

/* '[' number ']' on an array (bounds checked) or a pointer. */
static int td_ps_index(td_ps *ps)
{
	const td_type *ty = td_ps_type(ps), *el;
	char num[32];
	uint64_t i;
	int rc = td_ps_not_bitfield(ps, "index");

	if (rc == 0)
		rc = td_ps_number(ps, &i, "an index after '['");
	if (rc == 0 && td_ps_peek(ps) != ']')
		return td_ps_fail(ps,
		                  "syntax error at column %zu: expected ']'",
		                  ps->pos + 1);
	if (rc)
		return rc;
	ps->pos++;
	el = td_type_strip(ps->t, ty->base);
	if (ty->kind == TD_ARRAY && i >= ty->count)
		return td_ps_fail(ps,
		                  "index %llu is out of bounds for '%s' "
		                  "(%s: %llu elements)",
		                  (unsigned long long)i, ps->expr, ty->name,
		                  (unsigned long long)ty->count);
	if (ty->kind != TD_ARRAY && ty->kind != TD_POINTER)
		return td_ps_fail(ps,
		                  "cannot index '%s': it is %s, not an "
		                  "array or pointer",
		                  ps->expr, ty->name);
	if (el == NULL || el->kind == TD_VOID)
		return td_ps_fail(ps, "cannot index '%s': it points to void",
		                  ps->expr);
	ps->res->type = ty->base;
	rc = td_ps_step(ps, TD_STEP_INDEX, i);
	ps->last_index = ty->kind == TD_ARRAY;
	ps->last_count = ty->count - i;
	snprintf(num, sizeof num, "[%llu]", (unsigned long long)i);
	td_ps_text(ps, ps->expr, num, "");
	return rc;
}

/* primary { '.' name | '->' name | '[' number ']' } */
static int td_ps_postfix(td_ps *ps)
{
	int rc = td_ps_primary(ps);
	char c;

	while (rc == 0) {
		c = td_ps_peek(ps);
		if (c == '.') {
			ps->pos++;
			rc = td_ps_dot(ps, 0);
		} else if (c == '-' && ps->s[ps->pos + 1] == '>') {
			ps->pos += 2;
			rc = td_ps_dot(ps, 1);
		} else if (c == '[') {
			ps->pos++;
			rc = td_ps_index(ps);
		} else {
			break;
		}
	}
	return rc;
}

/* '*' unary: dereference a pointer (or take a[0] of an array). */
static int td_ps_deref(td_ps *ps)
{
	const td_type *ty = td_ps_type(ps), *el;
	int rc = td_ps_not_bitfield(ps, "dereference");

	if (rc)
		return rc;
	if (ty->kind == TD_FUNCPTR)
		return td_ps_fail(ps,
		                  "cannot dereference '%s': it is a "
		                  "function pointer",
		                  ps->expr);
	if (ty->kind != TD_POINTER && ty->kind != TD_ARRAY)
		return td_ps_fail(ps,
		                  "cannot dereference '%s': it is %s, not "
		                  "a pointer",
		                  ps->expr, ty->name);
	el = td_type_strip(ps->t, ty->base);
	if (el == NULL || el->kind == TD_VOID)
		return td_ps_fail(ps,
		                  "cannot dereference '%s': it points to "
		                  "void",
		                  ps->expr);
	ps->res->type = ty->base;
	rc = td_ps_step(ps, TD_STEP_DEREF, 0);
	td_ps_text(ps, "*", ps->expr, "");
	return rc;
}

/* '*' unary | postfix */
static int td_ps_unary(td_ps *ps)
{
	int rc;

	if (td_ps_peek(ps) != '*')
		return td_ps_postfix(ps);
	ps->pos++;
	rc = td_ps_unary(ps);
	return rc ? rc : td_ps_deref(ps);
}

/* The final '@' count: a slice starting at the current value. */
static int td_ps_slice(td_ps *ps)
{
	uint64_t n;
	int rc = td_ps_not_bitfield(ps, "slice");

	if (rc == 0)
		rc = td_ps_number(ps, &n, "a count after '@'");
	if (rc)
		return rc;
	if (n == 0 || n > 1000000)
		return td_ps_fail(ps,
		                  "slice count must be 1 to 1000000, not "
		                  "%llu",
		                  (unsigned long long)n);
	if (ps->last_index && n > ps->last_count)
		return td_ps_fail(ps,
		                  "slice '%s@%llu' runs past the end of the "
		                  "array (%llu elements left)",
		                  ps->expr, (unsigned long long)n,
		                  (unsigned long long)ps->last_count);
	ps->res->slice = n;
	return td_ps_step(ps, TD_STEP_SLICE, n);
}

int td_path_eval(const td_table *t, const td_scope_var *scope, uint32_t nvars,
                 const char *path, td_path_result *res, char *err,
                 size_t errlen)
{
	td_ps ps;
	int rc;

	memset(&ps, 0, sizeof ps);
	memset(res, 0, sizeof *res);
	ps.t = t;
	ps.scope = scope;
	ps.nvars = nvars;
	ps.s = path;
	ps.res = res;
	ps.err = err;
	ps.errlen = errlen;
	rc = td_ps_unary(&ps);
	if (rc == 0 && td_ps_peek(&ps) == '@') {
		ps.pos++;
		rc = td_ps_slice(&ps);
	}
	if (rc == 0 && td_ps_peek(&ps) != 0)
		rc = td_ps_fail(&ps,
		                "syntax error at column %zu: unexpected "
		                "'%c'",
		                ps.pos + 1, ps.s[ps.pos]);
	return rc;
}
