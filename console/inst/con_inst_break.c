/*
 * con_inst_break.c — breakpoint landing (con_inst_int.h): the scoped walk of
 * con_inst_scope.c hands every candidate statement here; each request
 * that lands on it gets a block inserted before the statement that
 * records the variables visible there (parameters and locals outer to
 * inner, then the globals the function references; a shadowed name once,
 * the visible one) and calls para_vt_break.  Variables that cannot be
 * described are left out with a note.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_inst_int.h"

/* Appends one recorded variable to the block text and to the bp's list;
 * variables that cannot be recorded are said so in the notes. */
static int ci_record_var(ci_fn *f, con_inst_bp *bp, const ci_local *l,
			 wire_buf *blk)
{
	ci_unit *u = f->u;
	CXType ty = clang_getCursorType(l->c);
	con_inst_var *v = &bp->vars[bp->nvars];
	wire_buf why;
	int tid, rc = 0;

	wire_buf_init(&why, 4096);
	if (clang_Cursor_getStorageClass(l->c) == CX_SC_Register) {
		ci_printf(&why, "it is a register variable");
		tid = -1;
	} else {
		tid = ci_type_id(&u->types, ty, &why);
	}
	if (u->types.failed)
		goto nomem;
	if (tid < 0 && bp->id == 0) {
		goto out; /* a line probe: said at the breakpoints only */
	} else if (tid < 0) {
		rc = ci_printf(u->notes, "note: breakpoint %d at %s:%d: "
			       "variable '%s' not recorded: %s\n", bp->id,
			       u->path, bp->line, l->name,
			       why.len ? wire_buf_head(&why) : "unsupported");
		goto out;
	}
	v->name = strdup(l->name);
	v->type = ci_cxdup(clang_getTypeSpelling(ty));
	v->scope = l->scope;
	if (!v->name || !v->type) {
		free(v->name);
		free(v->type);
		goto nomem;
	}
	bp->nvars++;
	rc |= ci_printf(blk, "%s{\"%s\", %d, (const void *)&%s, %d}",
			bp->nvars > 1 ? ", " : "", l->name, tid, l->name,
			l->scope);
out:
	wire_buf_destroy(&why);
	return rc;
nomem:
	wire_buf_destroy(&why);
	return -1;
}

/* 1 if name is also the name of a later entry of v (from i + 1 on). */
static int ci_shadowed(const ci_local *v, size_t n, size_t i,
		       const char *name)
{
	for (i++; i < n; i++)
		if (!strcmp(v[i].name, name))
			return 1;
	return 0;
}

/* 1 if name is among the locals. */
static int ci_is_local(const ci_fn *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nloc; i++)
		if (!strcmp(f->loc[i].name, name))
			return 1;
	return 0;
}

/* Appends the variables visible here to the bp and the block text. */
static int ci_record_vars(ci_fn *f, con_inst_bp *bp, wire_buf *blk)
{
	size_t i;

	bp->vars = calloc(f->nloc + f->nglob + 1, sizeof *bp->vars);
	if (!bp->vars)
		return -1;
	for (i = 0; i < f->nloc; i++)
		if (!ci_shadowed(f->loc, f->nloc, i, f->loc[i].name) &&
		    ci_record_var(f, bp, &f->loc[i], blk) < 0)
			return -1;
	for (i = 0; i < f->nglob; i++)
		if (!ci_is_local(f, f->glob[i].name) &&
		    ci_record_var(f, bp, &f->glob[i], blk) < 0)
			return -1;
	return 0;
}

/* Grows the result's breakpoint array by one zeroed entry. */
static con_inst_bp *ci_new_bp(con_inst_result *res)
{
	con_inst_bp *v = realloc(res->bps, (res->nbps + 1) * sizeof *v);

	if (!v)
		return NULL;
	res->bps = v;
	memset(&v[res->nbps], 0, sizeof *v);
	return &v[res->nbps++];
}

/* The block that stops at line: the variables visible there and
 * para_vt_break(&pvt__unit, ID, file, line, func, vars, n), ID as text;
 * with bp->id 0 nothing is kept of the variables (a line probe).  With
 * frame (a line probe of a statement that makes a call), the block
 * first records the variables for the callee's stops (para_vt_frame)
 * and asks para_vt_line itself. */
static int ci_break_block(ci_fn *f, con_inst_bp *bp, const char *id,
			  unsigned line, wire_buf *blk, int frame)
{
	ci_unit *u = f->u;
	size_t start = wire_buf_used(blk);
	int rc = 0;

	rc |= ci_printf(blk, "{ pvt_var pvt__v[] = {");
	if (ci_record_vars(f, bp, blk) < 0)
		return -1;
	if (!bp->nvars)
		blk->len = start, rc |= ci_printf(blk, "{ ");
	else
		rc |= ci_printf(blk, "}; ");
	if (frame) {
		rc |= ci_printf(blk, "para_vt_frame(&pvt__unit, %u, %s, %zu); "
				"if (para_vt_line(&pvt__unit, \"", line,
				bp->nvars ? "pvt__v" : "0", bp->nvars);
		rc |= ci_cstr(blk, u->path);
		rc |= ci_printf(blk, "\", %u)) ", line);
	}
	rc |= ci_printf(blk, "para_vt_break(&pvt__unit, %s, \"", id);
	rc |= ci_cstr(blk, u->path);
	rc |= ci_printf(blk, "\", %u, \"", line);
	rc |= ci_cstr(blk, f->name);
	rc |= ci_printf(blk, "\", %s, %zu); } ", bp->nvars ? "pvt__v" : "0",
			bp->nvars);
	return rc ? -1 : 0;
}

/* Places request r before the candidate at off (line). */
static int ci_place(ci_fn *f, ci_req *r, size_t off, unsigned line)
{
	ci_unit *u = f->u;
	con_inst_bp *bp = ci_new_bp(u->res);
	char id[24];
	wire_buf blk;
	int rc = 0;

	if (!bp)
		return ci_fail(u, "out of memory");
	bp->id = r->id;
	bp->line = (int)line;
	bp->req_line = r->kind == CI_REQ_FUNC ? 0 : r->line;
	bp->unit = u->index;
	bp->temp = r->temp;
	bp->from_pragma = r->kind == CI_REQ_PRAGMA;
	bp->file = strdup(u->path);
	bp->func = strdup(f->name);
	wire_buf_init(&blk, CI_BUF_MAX);
	snprintf(id, sizeof id, "%d", r->id);
	if (!bp->file || !bp->func ||
	    ci_break_block(f, bp, id, line, &blk, 0) < 0 ||
	    ci_edit_add(u, off, 0, CI_PRIO_BREAK, wire_buf_head(&blk)) < 0)
		rc = ci_fail(u, "out of memory");
	if (!rc && r->kind == CI_REQ_LINE && (int)line != r->line)
		rc = ci_printf(u->notes, "breakpoint %d at %s:%d moved to %s:%u "
			       "(no code on line %d)\n", r->id, u->path,
			       r->line, u->path, line, r->line);
	wire_buf_destroy(&blk);
	r->placed = 1;
	u->nplaced++;
	return rc;
}

/* Appends s (copied) to *v of *n entries.  The new index, or -1. */
static int ci_res_push(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof *nv);

	if (!nv)
		return -1;
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return -1;
	return (int)(*n)++;
}

/* See con_inst_int.h. */
int ci_res_unit(con_inst_result *res, const char *file)
{
	return ci_res_push(&res->units, &res->nunits, file);
}

/* See con_inst_int.h. */
int ci_res_func(con_inst_result *res, const char *name)
{
	return ci_res_push(&res->funcs, &res->nfuncs, name);
}

/* Records the site (unit, line, f's function) in the result. */
static int ci_site(ci_fn *f, unsigned line)
{
	con_inst_result *res = f->u->res;
	con_inst_site *v;

	if (f->func_ix < 0 &&
	    (f->func_ix = ci_res_func(res, f->name)) < 0)
		return -1;
	v = realloc(res->sites, (res->nsites + 1) * sizeof *v);
	if (!v)
		return -1;
	res->sites = v;
	v[res->nsites].unit = f->u->index;
	v[res->nsites].line = (int)line;
	v[res->nsites].func = f->func_ix;
	res->nsites++;
	return 0;
}

/* See con_inst_int.h. */
int ci_probe(ci_fn *f, size_t off, unsigned line, int frame)
{
	ci_unit *u = f->u;
	con_inst_bp tmp;
	wire_buf blk;
	int rc = 0;

	memset(&tmp, 0, sizeof tmp);
	wire_buf_init(&blk, CI_BUF_MAX);
	if (frame) {
		rc |= ci_printf(&blk, "if (*pvt__armp) ");
	} else {
		rc |= ci_printf(&blk, "if (*pvt__armp && para_vt_line("
				"&pvt__unit, \"");
		rc |= ci_cstr(&blk, u->path);
		rc |= ci_printf(&blk, "\", %u)) ", line);
	}
	if (rc ||
	    ci_break_block(f, &tmp, "PVT_BP_LIVE", line, &blk, frame) < 0 ||
	    ci_edit_add(u, off, 0, CI_PRIO_LINE, wire_buf_head(&blk)) < 0 ||
	    ci_site(f, line) < 0)
		rc = ci_fail(u, "out of memory");
	u->nprobes++;
	ci_bp_free(&tmp);
	wire_buf_destroy(&blk);
	return rc;
}

/* 1 if request r is for a line inside function f. */
int ci_req_in_fn(const ci_fn *f, const ci_req *r)
{
	if (r->kind == CI_REQ_LINE)
		return (unsigned)r->line >= f->first_line &&
		       (unsigned)r->line <= f->end_line;
	if (r->kind == CI_REQ_PRAGMA)
		return r->off > f->body_off && r->off < f->body_end;
	return 0;
}

/* Handles a candidate statement: places every request that lands here. */
int ci_candidate(ci_fn *f, CXCursor s, int body_child)
{
	ci_unit *u = f->u;
	unsigned line;
	size_t off, i;
	int is_decl = clang_getCursorKind(s) == CXCursor_DeclStmt;

	if (!ci_loc(u, clang_getRangeStart(clang_getCursorExtent(s)), &line,
		    &off) ||
	    off < f->last_cand || off <= f->body_off || off >= f->body_end)
		return 0;
	f->last_cand = off + 1;
	for (i = 0; i < u->nreqs; i++) {
		ci_req *r = &u->reqs[i];
		int hit = 0;

		if (r->placed)
			continue;
		if (r->kind == CI_REQ_LINE)
			hit = ci_req_in_fn(f, r) && line >= (unsigned)r->line;
		else if (r->kind == CI_REQ_PRAGMA)
			hit = ci_req_in_fn(f, r) && off > r->off;
		else
			hit = body_child && !is_decl && !strcmp(r->func, f->name);
		if (hit && ci_place(f, r, off, line) < 0)
			return -1;
	}
	return 0;
}
