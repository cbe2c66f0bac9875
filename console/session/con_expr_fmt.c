/*
 * con_expr_fmt.c — what con_expr.h says of paths and printing: whether an
 * expression is a plain value path (print shows it whole), and a value
 * in print's formats (/d /u /x /o /t /c /f).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "con_expr.h"

/* v as a double. */
static double cx_dbl(const con_xval *v)
{
	return v->kind == CON_X_FLT ? v->d :
	       v->kind == CON_X_INT ? (double)v->i : (double)v->u;
}

/* See con_expr.h. */
int con_expr_is_path(const char *expr)
{
	const char *p = expr;
	int depth = 0;

	while (*p == ' ' || *p == '*' || *p == '(')
		depth += *p++ == '(';
	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;
	while (*p != '\0') {
		if (*p == ' ' && p > expr &&
		    (isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
			const char *q = p;

			while (*q == ' ')
				q++;
			if (isalpha((unsigned char)*q) || *q == '_')
				return 0; /* "struct cell": a type, not a path */
			p = q;
		} else if (isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
			   *p == ' ') {
			p++;
		} else if (p[0] == '-' && p[1] == '>') {
			p += 2;
		} else if (*p == '[' || *p == '@') {
			p++;
			while (isdigit((unsigned char)*p) || *p == ' ')
				p++;
			if (p[-1] == '[' || (p[-1] == '@' && *p != '\0'))
				return 0;
			if (*p == ']')
				p++;
		} else if (*p == ')' && depth > 0) {
			depth--;
			p++;
		} else {
			return 0;
		}
	}
	return depth == 0;
}

/* Binary digits of x into buf. */
static void cx_binary(uint64_t x, char *buf, size_t n)
{
	char tmp[65];
	int k = 64;

	tmp[k] = '\0';
	do {
		tmp[--k] = (char)('0' + (x & 1));
		x >>= 1;
	} while (x != 0);
	snprintf(buf, n, "%s", tmp + k);
}

/* An integer (signed or not, by kind) in format fmt. */
static int cx_format_int(const con_xval *v, int fmt, char *buf, size_t n)
{
	uint64_t u = v->kind == CON_X_INT ? (uint64_t)v->i : v->u;

	switch (fmt) {
	case 'x':
		snprintf(buf, n, "0x%llx", (unsigned long long)u);
		return 0;
	case 'o':
		snprintf(buf, n, "0%llo", (unsigned long long)u);
		return 0;
	case 't':
		cx_binary(u, buf, n);
		return 0;
	case 'u':
		snprintf(buf, n, "%llu", (unsigned long long)u);
		return 0;
	case 'f':
		snprintf(buf, n, "%.17g", cx_dbl(v));
		return 0;
	}
	if (v->kind == CON_X_INT)
		snprintf(buf, n, "%lld", (long long)v->i);
	else
		snprintf(buf, n, "%llu", (unsigned long long)v->u);
	if ((fmt == 'c' || (fmt == 0 && v->is_char)) && u < 256) {
		size_t len = strlen(buf);

		snprintf(buf + len, n > len ? n - len : 0,
			 isprint((int)u) ? " '%c'" : " '\\%03o'", (int)u);
	}
	return 0;
}

/* See con_expr.h. */
int con_xval_format(const con_xval *v, int fmt, char *buf, size_t n)
{
	if (fmt != 0 && strchr("duxotcf", fmt) == NULL) {
		snprintf(buf, n, "unknown format '/%c' (d u x o t c f)", fmt);
		return -1;
	}
	switch (v->kind) {
	case CON_X_TEXT:
		if (fmt != 0) {
			snprintf(buf, n, "format '/%c' needs a number", fmt);
			return -1;
		}
		snprintf(buf, n, "%s", v->text != NULL ? v->text : "");
		return 0;
	case CON_X_FLT:
		if (fmt == 0 || fmt == 'f') {
			snprintf(buf, n, "%.17g", v->d);
			return 0;
		} else {
			con_xval t = {CON_X_INT, (int64_t)v->d, 0, 0, NULL, 0};

			return cx_format_int(&t, fmt, buf, n);
		}
	case CON_X_PTR:
		if (fmt == 0 || fmt == 'x') {
			snprintf(buf, n, "0x%llx", (unsigned long long)v->u);
			return 0;
		}
		return cx_format_int(v, fmt, buf, n);
	default:
		return cx_format_int(v, fmt, buf, n);
	}
}
