/*
 * con_expr_cast.c — casts in C expressions (con_expr_int.h): to the
 * arithmetic types by their words ("unsigned long", the node's sizes),
 * and to the types the program knows (a typedef or an enum converts the
 * value; a pointer type reads a variable, member or element as that
 * pointer, env->ptype).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bp_code.h"
#include "bp_num.h"
#include "con_expr.h"
#include "con_expr_int.h"

/* The arithmetic types a cast or sizeof may name: "unsigned long". */
int cx_type_name(cx *c, char *buf, size_t n)
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
int cx_cast(cx *c, const char *type, cx_op *o)
{
	uint64_t size = 8;
	char e[200];
	int uns = strstr(type, "unsigned") != NULL || strcmp(type, "_Bool") == 0;
	int flt = strstr(type, "float") != NULL || strstr(type, "double") != NULL;
	int ct = bp_num_ctype_of(type);
	bp_num x;

	if (cx_number(c, o, "a cast") != 0)
		return -1;
	x = cx_num(o);
	if (o->dyn) { /* the task casts with its own sizes */
		if (ct == 0)
			return cx_fail(c, "cannot cast to %s here", type);
		bp_num_cast_ctype(&x, ct);
		return cx_emit(c, o, NULL, BP_C_CAST, ct, x.kind);
	}
	if (flt)
		size = strcmp(type, "float") == 0 ? 4 : 8;
	else if (c->env->size(c->env->ctx, type, 1, &size, e, sizeof e) != 0)
		size = strstr(type, "char") ? 1 : strstr(type, "short") ? 2 :
		       strstr(type, "long") ? 8 : 4;
	bp_num_cast(&x, size, uns, flt, strcmp(type, "_Bool") == 0,
		    strstr(type, "char") != NULL);
	cx_from_num(&o->v, &x);
	return 0;
}

/* Reads "TYPE)" after a '(' when TYPE is a type the program knows: its
 * text, blanks made single, into buf.  1 if it is one, else 0 (the
 * parenthesis is an expression's). */
static int cx_program_type(cx *c, char *buf, size_t n)
{
	const char *s = c->s + c->pos, *end = strchr(s, ')');
	size_t k = 0, i;

	if (end == NULL || c->env->ptype == NULL ||
	    !(isalpha((unsigned char)*s) || *s == '_' ||
	      isspace((unsigned char)*s)))
		return 0;
	for (i = 0; s + i < end && k + 2 < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '*' &&
		    !isspace((unsigned char)s[i]))
			return 0;
		if (isspace((unsigned char)s[i]) && (k == 0 || buf[k - 1] == ' '))
			continue;
		if (s[i] == '*' && k > 0 && buf[k - 1] != ' ' && buf[k - 1] != '*')
			buf[k++] = ' ';
		buf[k++] = s[i];
	}
	while (k > 0 && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
	return k > 0 && s + i == end;
}

/* '(' TYPE ')' unary with TYPE the program's: an arithmetic one
 * converts the value, a pointer one reads the operand's object as that
 * pointer.  1 done, 0 not such a cast, -1 error. */
int cx_program_cast(cx *c, cx_op *o)
{
	char type[200], out[CX_PATH_MAX], e[300];
	uint64_t size = 8;
	int uns = 0, flt = 0, r;
	size_t at = c->pos;
	bp_num x;

	if (!cx_program_type(c, type, sizeof type))
		return 0;
	r = c->env->ptype(c->env->ctx, type, NULL, &size, &uns, &flt, out,
			  sizeof out, e, sizeof e);
	if (r <= 0) {
		c->pos = at;
		return r < 0 ? cx_fail(c, "%s", e) : 0;
	}
	c->pos = (size_t)(strchr(c->s + c->pos, ')') - c->s) + 1;
	if (cx_unary(c, o) != 0)
		return -1;
	if (c->compile)
		return cx_fail(c, "a cast to %s is not run in the task", type);
	if (r == 2) {
		if (!o->is_path)
			return cx_fail(c, "(%s): only a variable, a member or an "
				       "element can be read as a pointer", type);
		if (c->env->ptype(c->env->ctx, type, o->path, &size, &uns, &flt,
				  out, sizeof out, e, sizeof e) != 2)
			return cx_fail(c, "%s", e);
		snprintf(o->path, sizeof o->path, "%s", out);
		return 1;
	}
	if (cx_number(c, o, "a cast") != 0)
		return -1;
	x = cx_num(o);
	bp_num_cast(&x, size, uns, flt, 0, 0);
	cx_from_num(&o->v, &x);
	return 1;
}
