/*
 * con_inst_loop.c — a probe-free copy of plain innermost loops
 * (con_inst_int.h: ci_loop_version).
 *
 * A line probe costs one load and a branch per statement, which a tight
 * loop body of one statement feels (a 2-D stencil runs twice as long).
 * A loop whose body calls nothing, holds no loop, label, case, return,
 * goto, asm or static variable is emitted twice:
 *
 *     if (!*pvt__armp) {
 *     #line L "file"
 *     for (...) body;               (the source as written)
 *     } else
 *     #line L "file"
 *     for (...) { probes; body; }   (the instrumented loop)
 *
 * so a program that is not being debugged runs the loop as written.  A
 * breakpoint set or a step begun while the copy runs takes effect when
 * the loop is entered again (such a loop calls nothing, so it ends or
 * spins on memory); the statement line of a crash inside it is the
 * loop's.
 *
 * The probes take the address of every local, which keeps them in memory
 * in the whole function (a 2-D stencil ran 1.5 times as long as plain).
 * So the copy works on shadows: each local scalar or pointer the loop
 * uses (not volatile, its address not taken by the program itself, a
 * type that can be spelled "T name") is copied into a new variable of
 * the same name in a block around the copy, and copied back after it:
 *
 *     if (!*pvt__armp) { int pvt__s0 = i; { int i = pvt__s0;
 *     for (...) body;
 *     pvt__s0 = i; } i = pvt__s0; } else ...
 *
 * The loop calls nothing and no pointer of the program points to a
 * shadowed variable, so nothing else can see the difference.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "con_inst_int.h"

/* Whether a loop may be copied: set to 0 by the visitor. */
typedef struct ci_plain {
	int ok;
} ci_plain;

/* Visitor: anything that makes the copy unsafe or useless. */
static enum CXChildVisitResult ci_plain_visit(CXCursor c, CXCursor parent,
					      CXClientData d)
{
	ci_plain *p = d;

	(void)parent;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CallExpr:
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_LabelStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
	case CXCursor_ReturnStmt:
	case CXCursor_AsmStmt:
	case CXCursor_MSAsmStmt:
	case CXCursor_StmtExpr:
		p->ok = 0;
		return CXChildVisit_Break;
	case CXCursor_VarDecl:
		if (clang_Cursor_getStorageClass(c) == CX_SC_Static) {
			p->ok = 0;
			return CXChildVisit_Break;
		}
		break;
	default:
		break;
	}
	return CXChildVisit_Recurse;
}

#define CI_SHADOW_MAX 64 /* locals shadowed in one copy (more: not) */

/* The locals a loop copy shadows. */
typedef struct ci_shadow {
	ci_fn *f;
	size_t loop_off, loop_end; /* the loop's text */
	CXCursor v[CI_SHADOW_MAX];
	size_t n;
} ci_shadow;

/* 1 if the function's own text takes the address of name: a '&' (not
 * '&&') before it, through parentheses (a bitwise and counts too: the
 * safe side). */
static int ci_addr_taken(const ci_fn *f, const char *name)
{
	const char *src = f->u->src;
	size_t len = strlen(name), k, b;

	for (k = f->body_off; k + len <= f->body_end; k++) {
		if (strncmp(src + k, name, len) != 0 ||
		    isalnum((unsigned char)src[k + len]) || src[k + len] == '_' ||
		    (k > 0 && (isalnum((unsigned char)src[k - 1]) ||
			       src[k - 1] == '_')))
			continue;
		b = k;
		while (b > f->body_off &&
		       (isspace((unsigned char)src[b - 1]) || src[b - 1] == '('))
			b--;
		if (b > f->body_off && src[b - 1] == '&' &&
		    !(b > f->body_off + 1 && src[b - 2] == '&'))
			return 1;
	}
	return 0;
}

/* 1 if local decl may be shadowed (see the top of the file). */
static int ci_shadowable(ci_shadow *sh, CXCursor decl)
{
	CXType t = clang_getCursorType(decl);
	CXType ct = clang_getCanonicalType(t);
	CXString sp = clang_getTypeSpelling(t), nm;
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
	unsigned line;
	size_t off;
	int ok;

	ok = (ct.kind == CXType_Pointer || ct.kind == CXType_Enum ||
	      (ct.kind >= CXType_Bool && ct.kind <= CXType_LongDouble)) &&
	     !clang_isVolatileQualifiedType(t) &&
	     strpbrk(clang_getCString(sp), "([") == NULL &&
	     (sc == CX_SC_None || sc == CX_SC_Auto || sc == CX_SC_Register) &&
	     !clang_Cursor_hasVarDeclGlobalStorage(decl) &&
	     clang_equalCursors(clang_getCursorSemanticParent(decl),
				sh->f->fn) &&
	     ci_loc(sh->f->u, clang_getCursorLocation(decl), &line, &off) &&
	     (off < sh->loop_off || off >= sh->loop_end);
	clang_disposeString(sp);
	if (!ok)
		return 0;
	nm = clang_getCursorSpelling(decl);
	ok = !ci_addr_taken(sh->f, clang_getCString(nm));
	clang_disposeString(nm);
	return ok;
}

/* Visitor: the locals the loop names that may be shadowed. */
static enum CXChildVisitResult ci_shadow_visit(CXCursor c, CXCursor parent,
					       CXClientData d)
{
	ci_shadow *sh = d;
	CXCursor r;
	size_t i;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	r = clang_getCursorReferenced(c);
	if (clang_getCursorKind(r) != CXCursor_VarDecl &&
	    clang_getCursorKind(r) != CXCursor_ParmDecl)
		return CXChildVisit_Continue;
	for (i = 0; i < sh->n; i++)
		if (clang_equalCursors(sh->v[i], r))
			return CXChildVisit_Continue;
	if (sh->n < CI_SHADOW_MAX && ci_shadowable(sh, r))
		sh->v[sh->n++] = r;
	return CXChildVisit_Continue;
}

/* Appends the shadows' opening (before the copy: "T pvt__sK = v; ...
 * { T v = pvt__sK; ...") or closing (after: "pvt__sK = v; ... } v =
 * pvt__sK; ..."; const ones are not copied back) to b. */
static int ci_shadow_text(const ci_shadow *sh, wire_buf *b, int open)
{
	size_t i, pass;
	int rc = 0;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < sh->n; i++) {
			CXType t = clang_getCursorType(sh->v[i]);
			CXString ts = clang_getTypeSpelling(t);
			CXString nm = clang_getCursorSpelling(sh->v[i]);
			const char *ty = clang_getCString(ts);
			const char *n = clang_getCString(nm);
			int back = !clang_isConstQualifiedType(t);

			if (open && pass == 0)
				rc |= ci_printf(b, "%s pvt__s%zu = %s; ", ty, i,
						n);
			else if (open)
				rc |= ci_printf(b, "%s %s = pvt__s%zu; ", ty, n,
						i);
			else if (back && pass == 0)
				rc |= ci_printf(b, "pvt__s%zu = %s; ", i, n);
			else if (back)
				rc |= ci_printf(b, "%s = pvt__s%zu; ", n, i);
			clang_disposeString(ts);
			clang_disposeString(nm);
		}
		if (pass == 0)
			rc |= ci_printf(b, open ? "{ " : "} ");
	}
	return rc;
}

/* See con_inst_int.h. */
int ci_loop_version(ci_fn *f, CXCursor s)
{
	ci_unit *u = f->u;
	ci_plain p = {1};
	ci_shadow sh;
	unsigned line;
	size_t off, end;
	wire_buf b;
	int rc = 0;

	clang_visitChildren(s, ci_plain_visit, &p);
	if (!p.ok ||
	    !ci_loc(u, clang_getRangeStart(clang_getCursorExtent(s)), &line,
		    &off) ||
	    off <= f->body_off || off >= f->body_end ||
	    (end = ci_stmt_end(f, s)) <= off || end > f->body_end)
		return 0;
	sh.f = f;
	sh.loop_off = off;
	sh.loop_end = end;
	sh.n = 0;
	clang_visitChildren(s, ci_shadow_visit, &sh);
	wire_buf_init(&b, CI_BUF_MAX);
	rc |= ci_printf(&b, "if (!*pvt__armp) { ");
	rc |= ci_shadow_text(&sh, &b, 1);
	rc |= ci_printf(&b, "\n#line %u \"", line);
	rc |= ci_cstr(&b, u->path);
	rc |= ci_printf(&b, "\"\n");
	rc |= wire_buf_append(&b, u->src + off, end - off);
	rc |= ci_printf(&b, "\n");
	rc |= ci_shadow_text(&sh, &b, 0);
	rc |= ci_printf(&b, "} else\n#line %u \"", line);
	rc |= ci_cstr(&b, u->path);
	rc |= ci_printf(&b, "\"\n");
	if (rc || ci_edit_add(u, off, 0, CI_PRIO_STMT, wire_buf_head(&b)) < 0)
		rc = ci_fail(u, "out of memory");
	wire_buf_destroy(&b);
	return rc ? -1 : 0;
}
