/*
 * con_inst_rewrite.c — builds an instrumented file from the original text
 * and the unit's edit list.
 *
 * Scheme: every inserted template is written on the line where it is
 * inserted (no newline inside), so every original line keeps its number
 * without further #line directives.  The only lines added are the
 * prologue, which ends with `#line 1 "FILE"`, and the type table after the
 * last original line:
 *
 *     #include "paravt_rt.h"
 *     static pvt_unit pvt__unit;
 *     #line 1 "foo.c"
 *     ...original text with in-line edits...
 *     (type table, td_table, pvt_unit definition)
 *
 * A unit without breakpoints has no type table and no pvt__unit (nothing
 * would use them, and compilers warn about unused statics).
 */
#include <stdlib.h>
#include <string.h>

#include "con_inst_int.h"

/* qsort order of edits: offset, then priority, then creation order. */
static int ci_edit_cmp(const void *a, const void *b)
{
	const ci_edit *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Adds an edit (text copied).  0 or -1 with the unit's error set. */
int ci_edit_add(ci_unit *u, size_t off, size_t del, int prio,
		const char *text)
{
	ci_edit *e;

	if (u->nedits == u->capedits) {
		size_t cap = u->capedits ? u->capedits * 2 : 64;

		e = realloc(u->edits, cap * sizeof *e);
		if (!e)
			return ci_fail(u, "out of memory");
		u->edits = e;
		u->capedits = cap;
	}
	e = &u->edits[u->nedits];
	e->text = strdup(text);
	if (!e->text)
		return ci_fail(u, "out of memory");
	e->off = off;
	e->del = del;
	e->prio = prio;
	e->seq = u->nedits++;
	return 0;
}

/* Offset of the first line of the source that is not blank, a comment
 * or a #define / #undef of a feature-test macro (_GNU_SOURCE,
 * _POSIX_C_SOURCE, ...): those must come before any system header, so
 * the runtime's header goes after them.  Its line goes into *line. */
static size_t ci_feature_end(const ci_unit *u, unsigned *line)
{
	const char *s = u->src, *e = s + u->srclen, *p = s, *q;
	size_t after = 0;
	unsigned n = 1, at = 1;

	while (p < e) {
		q = memchr(p, '\n', (size_t)(e - p));
		q = q ? q + 1 : e;
		while (p < q && (*p == ' ' || *p == '\t'))
			p++;
		if (!strncmp(p, "#define _", 9) || !strncmp(p, "#undef _", 8)) {
			after = (size_t)(q - s);
			at = n + 1;
		} else if (p < q && *p != '\n' && *p != '\r' &&
			   strncmp(p, "//", 2) && strncmp(p, "/*", 2) &&
			   *p != '*') {
			break;
		}
		p = q;
		n++;
	}
	*line = at;
	return after;
}

/* The runtime's header, the tentative unit and the #line of what
 * follows, into b. */
static int ci_header(ci_unit *u, wire_buf *b, unsigned line)
{
	int rc = ci_printf(b, "#include \"paravt_rt.h\"\n");

	if (u->nplaced || u->nprobes)
		rc |= ci_printf(b, "static pvt_unit pvt__unit;\n");
	rc |= ci_printf(b, "#line %u \"", line);
	rc |= ci_cstr(b, u->path);
	return rc | ci_printf(b, "\"\n");
}

/* Appends the prologue: the runtime's header before the source, or, when
 * the source starts with feature-test macros, #line 1 and an edit that
 * puts the header right after them. */
static int ci_prologue(ci_unit *u, wire_buf *out)
{
	unsigned line;
	size_t at = ci_feature_end(u, &line);
	wire_buf h;
	int rc;

	if (at == 0)
		return ci_header(u, out, 1);
	wire_buf_init(&h, 65536);
	rc = ci_header(u, &h, line);
	if (!rc)
		rc = ci_edit_add(u, at, 0, CI_PRIO_ENTER, wire_buf_head(&h));
	wire_buf_destroy(&h);
	rc |= ci_printf(out, "#line 1 \"");
	rc |= ci_cstr(out, u->path);
	return rc | ci_printf(out, "\"\n");
}

/* Appends the original text with the edits applied. */
static int ci_apply(ci_unit *u, wire_buf *out)
{
	size_t pos = 0, i;
	int rc = 0;

	qsort(u->edits, u->nedits, sizeof *u->edits, ci_edit_cmp);
	for (i = 0; i < u->nedits; i++) {
		const ci_edit *e = &u->edits[i];

		if (e->off < pos || e->off + e->del > u->srclen)
			return ci_fail(u, "%s: internal error: overlapping "
				       "edits at offset %zu", u->path, e->off);
		rc |= wire_buf_append(out, u->src + pos, e->off - pos);
		rc |= wire_buf_append(out, e->text, strlen(e->text));
		pos = e->off + e->del;
	}
	rc |= wire_buf_append(out, u->src + pos, u->srclen - pos);
	if (u->srclen && u->src[u->srclen - 1] != '\n')
		rc |= wire_buf_append(out, "\n", 1);
	return rc ? ci_fail(u, "out of memory") : 0;
}

/* Builds the whole instrumented file into out.  0 or -1. */
int ci_rewrite(ci_unit *u, wire_buf *out)
{
	if (ci_prologue(u, out) < 0)
		return ci_fail(u, "out of memory");
	if (ci_apply(u, out) < 0)
		return -1;
	if ((u->nplaced || u->nprobes) &&
	    ci_types_emit(&u->types, out, u->o->build_id, u->index) < 0)
		return ci_fail(u, "out of memory");
	return 0;
}
