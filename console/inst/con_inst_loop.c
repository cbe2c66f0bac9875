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
 */
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

/* See con_inst_int.h. */
int ci_loop_version(ci_fn *f, CXCursor s)
{
	ci_unit *u = f->u;
	ci_plain p = {1};
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
	wire_buf_init(&b, CI_BUF_MAX);
	rc |= ci_printf(&b, "if (!*pvt__armp) {\n#line %u \"", line);
	rc |= ci_cstr(&b, u->path);
	rc |= ci_printf(&b, "\"\n");
	rc |= wire_buf_append(&b, u->src + off, end - off);
	rc |= ci_printf(&b, "\n} else\n#line %u \"", line);
	rc |= ci_cstr(&b, u->path);
	rc |= ci_printf(&b, "\"\n");
	if (rc || ci_edit_add(u, off, 0, CI_PRIO_STMT, wire_buf_head(&b)) < 0)
		rc = ci_fail(u, "out of memory");
	wire_buf_destroy(&b);
	return rc ? -1 : 0;
}
