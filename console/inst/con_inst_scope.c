/*
 * con_inst_scope.c — the walk of every function defined in a unit's main
 * file: function entry/exit templates, return rewriting, breakpoint
 * landing and the variables recorded at each breakpoint.
 *
 * Per function, pass 1 visits the whole body once: global and file-static
 * variables referenced (DeclRefExpr to a file-scope VarDecl), and every
 * return statement (rewritten in place).  Pass 2 is a scoped walk: each
 * compound statement pushes the variables of its declarations as they are
 * passed (a for statement pushes its init declarations), and pops them at
 * its end.  A "candidate" is a statement that is a direct child of a
 * compound statement (a labelled statement stands for the statement after
 * its labels): a breakpoint block can be inserted before it.  Candidates
 * come in source order, so a file:line breakpoint lands on the first
 * candidate whose line is >= the requested line.
 *
 * Recorded variables at a breakpoint: parameters, then locals of the
 * enclosing blocks (outer to inner; function-scope statics and block-scope
 * externs among them, in declaration order), then the globals and file
 * statics the function references.  A name shadowed by an inner one is
 * recorded once (the visible one).  Placing the breakpoint blocks on the
 * candidates is con_inst_break.c; the walk state (ci_fn) is shared with it
 * through con_inst_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_inst_int.h"
#include "paravt_rt.h"

/* Pushes a variable onto list (name copied).  0 or -1. */
static int ci_push(ci_local **v, size_t *n, size_t *cap, CXCursor c,
		   int scope)
{
	char *name = ci_cxdup(clang_getCursorSpelling(c));

	if (!name)
		return -1;
	if (!*name) {
		free(name);
		return 0;
	}
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		ci_local *nv = realloc(*v, nc * sizeof *nv);

		if (!nv) {
			free(name);
			return -1;
		}
		*v = nv;
		*cap = nc;
	}
	(*v)[*n].c = c;
	(*v)[*n].name = name;
	(*v)[*n].scope = scope;
	(*n)++;
	return 0;
}

/* Pops the locals above mark. */
static void ci_pop(ci_fn *f, size_t mark)
{
	while (f->nloc > mark)
		free(f->loc[--f->nloc].name);
}

/* Scope of a local declaration from its storage class. */
static int ci_local_scope(CXCursor c)
{
	switch (clang_Cursor_getStorageClass(c)) {
	case CX_SC_Static: return PVT_STATIC;
	case CX_SC_Extern: return PVT_GLOBAL;
	default: return PVT_LOCAL;
	}
}

/* The function's name, quoted, and the unit's path, quoted, into b as
 * "\"f\", \"foo.c\"". */
static int ci_fn_where(ci_fn *f, wire_buf *b)
{
	int rc = ci_printf(b, "\"");

	rc |= ci_cstr(b, f->name);
	rc |= ci_printf(b, "\", \"");
	rc |= ci_cstr(b, f->u->path);
	return rc | ci_printf(b, "\"");
}

/* Appends the exit template(s) for line to b (main also says
 * para_vt_exit(status)). */
static int ci_exit_text(ci_fn *f, wire_buf *b, unsigned line,
			const char *status)
{
	int rc = ci_printf(b, "para_vt_fn_exit(");

	rc |= ci_fn_where(f, b);
	rc |= ci_printf(b, ", %u); ", line);
	if (f->is_main)
		rc |= ci_printf(b, "para_vt_exit(%s); ", status);
	return rc;
}

/* Offset of the ';' that ends a statement, scanning from p: the first
 * ';' outside brackets, literals and comments.  -1 if none. */
static long ci_find_semi(const char *s, size_t len, size_t p)
{
	int depth = 0;

	for (; p < len; p++) {
		char ch = s[p];

		if (ch == '"' || ch == '\'') {
			for (p++; p < len && s[p] != ch; p++)
				if (s[p] == '\\')
					p++;
		} else if (ch == '/' && p + 1 < len && s[p + 1] == '*') {
			char *e = memmem(s + p + 2, len - p - 2, "*/", 2);

			if (!e)
				return -1;
			p = (size_t)(e - s) + 1;
		} else if (ch == '/' && p + 1 < len && s[p + 1] == '/') {
			while (p < len && s[p] != '\n')
				p++;
		} else if (ch == '(' || ch == '[' || ch == '{') {
			depth++;
		} else if (ch == ')' || ch == ']' || ch == '}') {
			if (--depth < 0)
				return -1;
		} else if (ch == ';' && depth == 0) {
			return (long)p;
		}
	}
	return -1;
}

/* First child cursor of c (for a return's expression). */
static enum CXChildVisitResult ci_first_child(CXCursor c, CXCursor p,
					      CXClientData d)
{
	*(CXCursor *)d = c;
	return CXChildVisit_Break;
}

/* 1 if c can continue an identifier. */
static int ci_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Rewrites one return statement with the exit template(s). */
static int ci_return(ci_fn *f, CXCursor r)
{
	ci_unit *u = f->u;
	CXSourceRange ext = clang_getCursorExtent(r);
	CXCursor e = clang_getNullCursor();
	unsigned line, eline;
	size_t off, eoff;
	long semi;
	wire_buf a, b;
	int rc = 0, has_expr;

	if (!ci_loc(u, clang_getRangeStart(ext), &line, &off))
		return 0;
	if (off + 6 > u->srclen || memcmp(u->src + off, "return", 6) ||
	    (off + 6 < u->srclen && ci_ident_char(u->src[off + 6])))
		return ci_printf(u->notes, "note: %s:%u: return inside a macro: "
				 "exit of %s() not recorded there\n",
				 u->path, line, f->name);
	clang_visitChildren(r, ci_first_child, &e);
	has_expr = !clang_Cursor_isNull(e);
	if (!ci_loc(u, clang_getRangeEnd(ext), &eline, &eoff) || eoff < off)
		eoff = off + 6;
	semi = ci_find_semi(u->src, u->srclen, has_expr ? eoff : off + 6);
	if (semi < 0)
		return ci_printf(u->notes, "note: %s:%u: return statement not "
				 "understood: exit of %s() not recorded there\n",
				 u->path, line, f->name);
	wire_buf_init(&a, 65536);
	wire_buf_init(&b, 65536);
	if (!has_expr) {
		rc |= ci_printf(&a, "{ ");
		rc |= ci_exit_text(f, &a, line, "0");
		rc |= ci_edit_add(u, off, 0, CI_PRIO_STMT, wire_buf_head(&a));
		rc |= ci_edit_add(u, (size_t)semi + 1, 0, CI_PRIO_STMT, " }");
		goto out;
	}
	if (f->is_void) {
		rc |= ci_printf(&a, "{ (void)(");
		rc |= ci_printf(&b, "); ");
		rc |= ci_exit_text(f, &b, line, "0");
		rc |= ci_printf(&b, "return; }");
	} else if (f->rtype) {
		rc |= ci_printf(&a, "{ %s pvt__r = (", f->rtype);
		rc |= ci_printf(&b, "); ");
		rc |= ci_exit_text(f, &b, line, "pvt__r");
		rc |= ci_printf(&b, "return pvt__r; }");
	} else {
		rc |= ci_printf(&a, "return (");
		rc |= ci_exit_text(f, &a, line, "0");
		a.len -= 2; /* "; " -> ", " below */
		rc |= ci_printf(&a, ", (");
		rc |= ci_printf(&b, "));");
	}
	rc |= ci_edit_add(u, off, 6, CI_PRIO_STMT, wire_buf_head(&a));
	rc |= ci_edit_add(u, (size_t)semi, 1, CI_PRIO_STMT, wire_buf_head(&b));
out:
	wire_buf_destroy(&a);
	wire_buf_destroy(&b);
	return rc ? -1 : 0;
}

/* Adds a referenced file-scope variable to the function's globals. */
static int ci_add_global(ci_fn *f, CXCursor v)
{
	size_t i;
	CXCursor p = clang_getCursorSemanticParent(v);

	if (clang_getCursorKind(p) != CXCursor_TranslationUnit ||
	    !clang_Cursor_hasVarDeclGlobalStorage(v) ||
	    clang_Location_isInSystemHeader(clang_getCursorLocation(v)))
		return 0;
	v = clang_getCanonicalCursor(v);
	for (i = 0; i < f->nglob; i++)
		if (clang_equalCursors(f->glob[i].c, v))
			return 0;
	return ci_push(&f->glob, &f->nglob, &f->capglob, v,
		       clang_getCursorLinkage(v) == CXLinkage_External
			   ? PVT_GLOBAL
			   : PVT_STATIC);
}

/* Pass 1 visitor: referenced globals and return statements. */
static enum CXChildVisitResult ci_pass1(CXCursor c, CXCursor parent,
					CXClientData data)
{
	ci_fn *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);

		if (clang_getCursorKind(d) == CXCursor_VarDecl &&
		    ci_add_global(f, d) < 0)
			f->failed = 1;
	} else if (k == CXCursor_ReturnStmt) {
		if (ci_return(f, c) < 0)
			f->failed = 1;
	}
	return f->failed ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int ci_stmt(ci_fn *f, CXCursor s);

/* Collects the direct children of a cursor. */
typedef struct ci_kids {
	CXCursor *v;    /* children */
	size_t n, cap;  /* used, allocated */
	int failed;     /* out of memory */
} ci_kids;

/* clang_visitChildren callback that fills a ci_kids. */
static enum CXChildVisitResult ci_kid(CXCursor c, CXCursor p, CXClientData d)
{
	ci_kids *k = d;

	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 16;
		CXCursor *v = realloc(k->v, cap * sizeof *v);

		if (!v) {
			k->failed = 1;
			return CXChildVisit_Break;
		}
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

/* Pushes the variables declared by a DeclStmt. */
static int ci_push_decls(ci_fn *f, CXCursor d)
{
	ci_kids k = {NULL, 0, 0, 0};
	size_t i;
	int rc = 0;

	clang_visitChildren(d, ci_kid, &k);
	for (i = 0; i < k.n && !rc; i++)
		if (clang_getCursorKind(k.v[i]) == CXCursor_VarDecl)
			rc = ci_push(&f->loc, &f->nloc, &f->caploc, k.v[i],
				     ci_local_scope(k.v[i]));
	free(k.v);
	return k.failed || rc ? -1 : 0;
}

/* The statement a labelled statement stands for (its last child, a
 * statement or an expression statement), or s itself. */
static CXCursor ci_unlabel(CXCursor s)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(s);
		ci_kids kids = {NULL, 0, 0, 0};
		CXCursor last;

		if (k != CXCursor_LabelStmt && k != CXCursor_CaseStmt &&
		    k != CXCursor_DefaultStmt)
			return s;
		clang_visitChildren(s, ci_kid, &kids);
		if (!kids.n || kids.failed) {
			free(kids.v);
			return s;
		}
		last = kids.v[kids.n - 1];
		free(kids.v);
		if (!clang_isStatement(clang_getCursorKind(last)) &&
		    !clang_isExpression(clang_getCursorKind(last)))
			return s;
		s = last;
	}
}

/* Visitor of ci_makes_call: stops at the first call. */
static enum CXChildVisitResult ci_call_visit(CXCursor c, CXCursor parent,
					     CXClientData d)
{
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	*(int *)d = 1;
	return CXChildVisit_Break;
}

/* 1 if statement s makes a call (its probe records the variables for
 * the callee's stops: `up`). */
static int ci_makes_call(CXCursor s)
{
	int found = 0;

	if (clang_getCursorKind(s) == CXCursor_CallExpr)
		return 1;
	clang_visitChildren(s, ci_call_visit, &found);
	return found;
}

/* Puts the statement line template before statement s of a block (not a
 * declaration: they may precede it in C89; not an empty statement), so
 * that a crash is reported at its line (paravt_rt.h: pvt__line). */
static int ci_line_mark(ci_fn *f, CXCursor s)
{
	enum CXCursorKind k = clang_getCursorKind(s);
	char text[48];
	unsigned line;
	size_t off;

	if (k == CXCursor_DeclStmt || k == CXCursor_NullStmt ||
	    (!clang_isStatement(k) && !clang_isExpression(k)) ||
	    !ci_loc(f->u, clang_getRangeStart(clang_getCursorExtent(s)), &line,
		    &off) ||
	    off <= f->body_off || off >= f->body_end)
		return 0;
	snprintf(text, sizeof text, "pvt__line = %u; ", line);
	if (ci_edit_add(f->u, off, 0, CI_PRIO_LINE, text) < 0)
		return -1;
	return f->u->o->no_probes ? 0 :
	       ci_probe(f, off, line, ci_makes_call(s));
}

/* Walks a compound statement: candidates, nested statements, scope. */
static int ci_compound(ci_fn *f, CXCursor c, int is_body)
{
	ci_kids k = {NULL, 0, 0, 0};
	size_t mark = f->nloc, i, off;
	unsigned line;
	int rc = 0;

	if (!ci_loc(f->u, clang_getRangeStart(clang_getCursorExtent(c)), &line,
		    &off) ||
	    f->u->src[off] != '{')
		return 0;
	clang_visitChildren(c, ci_kid, &k);
	if (k.failed)
		rc = -1;
	for (i = 0; i < k.n && !rc; i++) {
		rc = ci_line_mark(f, ci_unlabel(k.v[i]));
		if (!rc)
			rc = ci_candidate(f, ci_unlabel(k.v[i]), is_body);
		if (!rc && clang_getCursorKind(k.v[i]) == CXCursor_DeclStmt)
			rc = ci_push_decls(f, k.v[i]);
		else if (!rc)
			rc = ci_stmt(f, k.v[i]);
	}
	free(k.v);
	ci_pop(f, mark);
	return rc;
}

/* See con_inst_int.h. */
size_t ci_stmt_end(ci_fn *f, CXCursor s)
{
	enum CXCursorKind k = clang_getCursorKind(s);
	ci_kids kids = {NULL, 0, 0, 0};
	unsigned line;
	size_t end = 0;
	long semi;

	if (k == CXCursor_IfStmt || k == CXCursor_ForStmt ||
	    k == CXCursor_WhileStmt || k == CXCursor_SwitchStmt ||
	    k == CXCursor_LabelStmt || k == CXCursor_CaseStmt ||
	    k == CXCursor_DefaultStmt) {
		clang_visitChildren(s, ci_kid, &kids);
		if (kids.n && !kids.failed)
			end = ci_stmt_end(f, kids.v[kids.n - 1]);
		free(kids.v);
		return end;
	}
	if (!ci_loc(f->u, clang_getRangeEnd(clang_getCursorExtent(s)), &line,
		    &end))
		return 0;
	if (k == CXCursor_CompoundStmt)
		return end;
	semi = ci_find_semi(f->u->src, f->u->srclen, end);
	return semi < 0 ? 0 : (size_t)semi + 1;
}

/* 1 if child i of n of a kind statement is one of its bodies. */
static int ci_is_body(enum CXCursorKind kind, size_t i, size_t n)
{
	if (kind == CXCursor_IfStmt)
		return i >= 1;
	if (kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt)
		return i == n - 1;
	return kind == CXCursor_DoStmt && i == 0;
}

/* A body written without braces ("for (...) x++;") gets them, with the
 * line template and probe inside, so that every statement can be
 * stopped at; it is a candidate for breakpoints too. */
static int ci_wrap_body(ci_fn *f, CXCursor b)
{
	enum CXCursorKind k = clang_getCursorKind(b);
	unsigned line;
	size_t off, end;

	if (k == CXCursor_CompoundStmt || k == CXCursor_NullStmt ||
	    (!clang_isStatement(k) && !clang_isExpression(k)) ||
	    !ci_loc(f->u, clang_getRangeStart(clang_getCursorExtent(b)), &line,
		    &off) ||
	    off <= f->body_off || off >= f->body_end ||
	    (end = ci_stmt_end(f, b)) <= off || end > f->body_end)
		return 0;
	if (ci_edit_add(f->u, off, 0, CI_PRIO_ENTER, "{ ") < 0 ||
	    ci_edit_add(f->u, end, 0, CI_PRIO_ENTER, " }") < 0 ||
	    ci_line_mark(f, b) < 0)
		return -1;
	return ci_candidate(f, b, 0);
}

/* Walks a statement that is not a compound's candidate: descends into
 * the statements it contains (a for statement scopes its init), and
 * gives a body without braces its own. */
static int ci_stmt(ci_fn *f, CXCursor s)
{
	enum CXCursorKind kind = clang_getCursorKind(s);
	ci_kids k = {NULL, 0, 0, 0};
	size_t mark = f->nloc, i;
	int rc = 0;

	if (kind == CXCursor_CompoundStmt)
		return ci_compound(f, s, 0);
	if (!clang_isStatement(kind) || kind == CXCursor_DeclStmt)
		return 0;
	if ((kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt ||
	     kind == CXCursor_DoStmt) && !f->u->o->no_probes &&
	    ci_loop_version(f, s) < 0)
		return -1;
	clang_visitChildren(s, ci_kid, &k);
	if (k.failed)
		rc = -1;
	for (i = 0; i < k.n && !rc; i++) {
		enum CXCursorKind ck = clang_getCursorKind(k.v[i]);

		if (ck == CXCursor_DeclStmt && kind == CXCursor_ForStmt) {
			rc = ci_push_decls(f, k.v[i]);
			continue;
		}
		if (ci_is_body(kind, i, k.n))
			rc = ci_wrap_body(f, k.v[i]);
		if (!rc && clang_isStatement(ck))
			rc = ci_stmt(f, k.v[i]);
	}
	free(k.v);
	ci_pop(f, mark);
	return rc;
}

/* Fills name, return type and flags of f from its definition. */
static int ci_fn_info(ci_fn *f)
{
	CXType rt = clang_getResultType(clang_getCursorType(f->fn));
	CXType rc = clang_getCanonicalType(rt);

	f->name = ci_cxdup(clang_getCursorSpelling(f->fn));
	f->rtype = ci_cxdup(clang_getTypeSpelling(rt));
	if (!f->name || !f->rtype)
		return -1;
	f->is_main = !strcmp(f->name, "main");
	f->is_void = rc.kind == CXType_Void;
	if (f->is_main) {
		free(f->rtype);
		f->rtype = strdup("int");
		if (!f->rtype)
			return -1;
	} else if (strpbrk(f->rtype, "([")) {
		free(f->rtype);
		f->rtype = NULL;
	}
	return 0;
}

/* Finds the body (last CompoundStmt child) of a function definition. */
static enum CXChildVisitResult ci_body(CXCursor c, CXCursor p, CXClientData d)
{
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)d = c;
	return CXChildVisit_Continue;
}

/* Locates the braces of f's body; 0 if they are not plain text of the
 * main file (a body made by a macro is not instrumented). */
static int ci_fn_body(ci_fn *f, CXCursor body)
{
	ci_unit *u = f->u;
	CXSourceRange r = clang_getCursorExtent(body);
	unsigned line;
	size_t end;

	if (!ci_loc(u, clang_getRangeStart(clang_getCursorExtent(f->fn)),
		    &f->first_line, &end) ||
	    !ci_loc(u, clang_getRangeStart(r), &line, &f->body_off) ||
	    !ci_loc(u, clang_getRangeEnd(r), &f->end_line, &end) || end == 0 ||
	    u->src[f->body_off] != '{' || u->src[end - 1] != '}')
		return 0;
	f->body_end = end - 1;
	return 1;
}

/* Adds the entry template after '{' and the exit template before '}'. */
static int ci_fn_templates(ci_fn *f)
{
	CXSourceLocation l = clang_getCursorLocation(f->fn);
	unsigned line;
	size_t off;
	wire_buf b;
	int rc = 0;

	if (!ci_loc(f->u, l, &line, &off))
		line = f->first_line;
	wire_buf_init(&b, 65536);
	if (f->is_main)
		rc |= ci_printf(&b, " para_vt_start();");
	rc |= ci_printf(&b, " para_vt_fn_enter(");
	rc |= ci_fn_where(f, &b);
	rc |= ci_printf(&b, ", %u); ", line);
	rc |= ci_edit_add(f->u, f->body_off + 1, 0, CI_PRIO_ENTER,
			  wire_buf_head(&b));
	if (!rc && (f->is_void || f->is_main)) {
		wire_buf_reset(&b);
		rc |= ci_exit_text(f, &b, f->end_line, "0");
		rc |= ci_edit_add(f->u, f->body_end, 0, CI_PRIO_STMT,
				  wire_buf_head(&b));
	}
	wire_buf_destroy(&b);
	return rc ? -1 : 0;
}

/* After the walk: requests inside f that found no statement. */
static int ci_fn_leftovers(ci_fn *f)
{
	ci_unit *u = f->u;
	size_t i;

	for (i = 0; i < u->nreqs; i++) {
		ci_req *r = &u->reqs[i];

		if (r->placed || !ci_req_in_fn(f, r))
			continue;
		r->in_func = 1;
		if (r->kind == CI_REQ_LINE)
			return ci_fail(u, "breakpoint %d at %s:%d is after the "
				       "last statement of %s()", r->id,
				       u->path, r->line, f->name);
		return ci_fail(u, "#pragma paravt break at %s:%d has no "
			       "statement after it in %s()", u->path,
			       r->line, f->name);
	}
	for (i = 0; i < u->nreqs; i++)
		if (u->reqs[i].kind == CI_REQ_FUNC && !u->reqs[i].placed &&
		    !strcmp(u->reqs[i].func, f->name))
			return ci_fail(u, "breakpoint %d: function %s() has no "
				       "statement to stop at", u->reqs[i].id,
				       f->name);
	return 0;
}

/* Instruments one function definition. */
static int ci_function(ci_unit *u, CXCursor fn)
{
	ci_fn f;
	CXCursor body = clang_getNullCursor();
	int i, n, rc = -1;

	memset(&f, 0, sizeof f);
	f.u = u;
	f.fn = fn;
	f.func_ix = -1;
	clang_visitChildren(fn, ci_body, &body);
	if (ci_fn_info(&f) < 0)
		goto nomem;
	if (clang_Cursor_isNull(body) || !ci_fn_body(&f, body)) {
		rc = 0;
		goto out;
	}
	n = clang_Cursor_getNumArguments(fn);
	for (i = 0; i < n; i++)
		if (ci_push(&f.loc, &f.nloc, &f.caploc,
			    clang_Cursor_getArgument(fn, (unsigned)i),
			    PVT_PARAM) < 0)
			goto nomem;
	clang_visitChildren(body, ci_pass1, &f);
	if (f.failed || u->failed || ci_fn_templates(&f) < 0)
		goto nomem;
	if (ci_compound(&f, body, 1) < 0 || ci_fn_leftovers(&f) < 0)
		goto out;
	rc = 0;
	goto out;
nomem:
	rc = ci_fail(u, "out of memory");
out:
	ci_pop(&f, 0);
	free(f.loc);
	while (f.nglob)
		free(f.glob[--f.nglob].name);
	free(f.glob);
	free(f.name);
	free(f.rtype);
	return rc;
}

/* Top-level visitor: every function defined in the main file. */
static enum CXChildVisitResult ci_top(CXCursor c, CXCursor p, CXClientData d)
{
	ci_unit *u = d;

	if (clang_getCursorKind(c) == CXCursor_FunctionDecl &&
	    clang_isCursorDefinition(c) &&
	    clang_Location_isFromMainFile(clang_getCursorLocation(c)) &&
	    ci_function(u, c) < 0)
		return CXChildVisit_Break;
	return CXChildVisit_Continue;
}

/* Walks every function of the unit; then checks that every line request
 * was inside some function. */
int ci_scope_walk(ci_unit *u)
{
	size_t i;

	clang_visitChildren(clang_getTranslationUnitCursor(u->tu), ci_top, u);
	if (u->failed)
		return -1;
	for (i = 0; i < u->nreqs; i++) {
		ci_req *r = &u->reqs[i];

		if (r->placed || r->kind == CI_REQ_FUNC)
			continue;
		if (r->kind == CI_REQ_LINE)
			return ci_fail(u, "breakpoint %d at %s:%d is not inside "
				       "a function", r->id, u->path, r->line);
		return ci_fail(u, "#pragma paravt break at %s:%d is not inside "
			       "a function", u->path, r->line);
	}
	return 0;
}
