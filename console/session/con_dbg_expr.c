/*
 * con_dbg_expr.c — print's C expressions on a stopped process
 * (con_dbg.h: con_dbg_eval): every value path the expression needs is
 * asked of the process as print asks for one (INSPECT, waiting for the
 * VALUE), its canonical value turned into a number here
 * (con_dbg_scalar); sizeof comes from the process's type table, so it
 * is the node's.  The arithmetic itself is con_expr.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bp_code.h"
#include "con_dbg_int.h"
#include "paravt_rt.h"
#include "td_con.h"
#include "wire.h"

/* The type id behind typedefs. */
static const td_type *con_dbg_untypedef(const td_table *t, uint32_t id)
{
	const td_type *ty = id < t->ntypes ? &t->types[id] : NULL;
	int guard = 64;

	while (ty != NULL && ty->kind == TD_TYPEDEF && guard-- > 0)
		ty = ty->base < t->ntypes ? &t->types[ty->base] : NULL;
	return ty;
}

/* See con_dbg_int.h. */
void con_dbg_scalar(const td_table *t, const td_path_result *res,
		    const msgpack_object *v, const char *text, con_xval *out)
{
	const td_type *ty = res->slice ? NULL : con_dbg_untypedef(t, res->type);
	const msgpack_object *pv = v;

	memset(out, 0, sizeof *out);
	out->kind = CON_X_TEXT;
	if (ty == NULL)
		goto text;
	if (ty->kind == TD_POINTER && v->type == MSGPACK_OBJECT_ARRAY &&
	    v->via.array.size > 0)
		pv = &v->via.array.ptr[0]; /* char *: [ptr, string] */
	if ((ty->kind == TD_POINTER || ty->kind == TD_FUNCPTR) &&
	    pv->type == MSGPACK_OBJECT_EXT && pv->via.ext.type == TD_EXT_PTR &&
	    pv->via.ext.size == 9) {
		out->kind = CON_X_PTR;
		out->u = td_get_be64((const unsigned char *)pv->via.ext.ptr);
		return;
	}
	if ((ty->kind == TD_FLOAT || ty->kind == TD_DOUBLE) &&
	    (v->type == MSGPACK_OBJECT_FLOAT64 ||
	     v->type == MSGPACK_OBJECT_FLOAT32)) {
		out->kind = CON_X_FLT;
		out->d = v->via.f64;
		return;
	}
	if (ty->kind >= TD_BOOL && ty->kind <= TD_ULLONG) {
		out->is_char = ty->kind >= TD_CHAR && ty->kind <= TD_UCHAR;
	} else if (ty->kind != TD_ENUM) {
		goto text;
	}
	if (v->type == MSGPACK_OBJECT_BOOLEAN) {
		out->kind = CON_X_INT;
		out->i = v->via.boolean;
	} else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		out->kind = CON_X_INT;
		out->i = v->via.i64;
	} else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		out->kind = ty->is_signed || v->via.u64 <= INT64_MAX ?
			    CON_X_INT : CON_X_UINT;
		out->i = (int64_t)v->via.u64;
		out->u = v->via.u64;
		if (!ty->is_signed && ty->kind != TD_ENUM && ty->kind != TD_BOOL)
			out->kind = CON_X_UINT;
	} else {
		goto text;
	}
	return;
text:
	out->kind = CON_X_TEXT;
	out->text = text != NULL ? strdup(text) : NULL;
}

/* The process an evaluation runs on. */
typedef struct con_eval_ctx {
	con_proc *p;
	const td_table *t;
} con_eval_ctx;

/* con_expr_fetch_fn: asks p for path and waits for the answer. */
static int con_eval_fetch(void *ctx, const char *path, con_xval *out,
			  char *err, size_t errlen)
{
	con_eval_ctx *e = ctx;
	con_inspect q;
	con_inspect_set s = {&q, 1};
	int rc, ok;

	if (con_dbg_inspect(e->p, path, NULL, &q, err, errlen) < 0)
		return -1;
	rc = con_dbg_wait(con_dbg_inspect_all_done, &s, CON_DBG_VALUE_SECS,
			  NULL, NULL, NULL);
	ok = rc == 0 && q.ok;
	if (rc != 0)
		snprintf(err, errlen, "p%d did not answer for '%s'", e->p->id,
			 path);
	else if (!q.ok)
		snprintf(err, errlen, "%s", q.text != NULL ? q.text :
			 "no value");
	if (ok) {
		*out = q.val;
		memset(&q.val, 0, sizeof q.val);
	}
	con_dbg_inspect_done(&q);
	return ok ? 0 : -1;
}

/* con_expr_size_fn: sizes from p's type table (the node's sizes). */
static int con_eval_size(void *ctx, const char *name, int is_type,
			 uint64_t *out, char *err, size_t errlen)
{
	con_eval_ctx *e = ctx;
	const td_type *ty = NULL;
	td_path_result res;
	uint32_t i;

	if (is_type) {
		for (i = 0; i < e->t->ntypes && ty == NULL; i++)
			if (strcmp(e->t->types[i].name, name) == 0)
				ty = &e->t->types[i];
		if (ty == NULL) {
			snprintf(err, errlen, "sizeof(%s): the program uses no "
				 "%s here, so its size on the node is not "
				 "known", name, name);
			return -1;
		}
		*out = ty->size;
		return 0;
	}
	if (con_dbg_resolve(e->p, e->t, name, &res, err, errlen) < 0)
		return -1;
	ty = res.type < e->t->ntypes ? &e->t->types[res.type] : NULL;
	*out = ty == NULL ? 0 : ty->size * (res.slice ? res.slice : 1);
	return 0;
}

/* con_expr_addr_fn: the address of path from the variable's and the
 * table's offsets, as long as no step reads memory (through a pointer). */
static int con_eval_addr(void *ctx, const char *path, uint64_t *out,
			 char *err, size_t errlen)
{
	con_eval_ctx *e = ctx;
	const td_type *ty;
	td_path_result res;
	uint64_t a;
	uint32_t type, k;

	if (con_dbg_resolve(e->p, e->t, path, &res, err, errlen) < 0)
		return -1;
	a = res.req.addr;
	type = res.req.type;
	for (k = 0; k < res.req.nsteps; k++) {
		const td_step *s = &res.req.steps[k];

		ty = td_type_strip(e->t, type);
		if (ty == NULL)
			goto bad;
		if (s->op == TD_STEP_MEMBER && s->arg < ty->nmembers &&
		    !ty->members[s->arg].bit_width) {
			a += ty->members[s->arg].offset;
			type = ty->members[s->arg].type;
		} else if (s->op == TD_STEP_INDEX && ty->kind == TD_ARRAY &&
			   ty->base < e->t->ntypes) {
			a += s->arg * e->t->types[ty->base].size;
			type = ty->base;
		} else {
			goto bad;
		}
	}
	*out = a;
	return 0;
bad:
	snprintf(err, errlen, "&%s: only a variable, its members and its "
		 "array elements have an address here (not through a pointer "
		 "or of a bit-field)", path);
	return -1;
}

/* True if type name a, as the table spells it, is b as con_expr.c
 * writes a cast's type (single blanks, a blank before the first '*'). */
static int con_eval_same_type(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (isspace((unsigned char)*a) && isspace((unsigned char)*b)) {
			while (isspace((unsigned char)*a))
				a++;
			b++;
		} else if (*a == *b) {
			a++, b++;
		} else if (*b == ' ' && *a == '*') {
			b++;
		} else {
			return 0;
		}
	}
	return *a == '\0' && *b == '\0';
}

/* Records path's object (pointer-sized, with an address here) as an
 * object of pointer type ty: a new cast variable of p, named into out. */
static int con_eval_repoint(con_eval_ctx *e, const td_type *ty,
			    const char *path, char *out, size_t n, char *err,
			    size_t errlen)
{
	con_proc *p = e->p;
	const td_type *was;
	td_path_result res;
	uint64_t a;
	con_var *nv;

	if (con_dbg_resolve(p, e->t, path, &res, err, errlen) < 0 ||
	    con_eval_addr(e, path, &a, err, errlen) != 0)
		return -1;
	was = td_type_get(e->t, res.type);
	if (res.slice || was == NULL || was->size != ty->size) {
		snprintf(err, errlen, "(%s) %s: not an object of the size of a "
			 "pointer", ty->name, path);
		return -1;
	}
	nv = realloc(p->casts, (p->ncasts + 1) * sizeof *nv);
	if (nv == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->casts = nv;
	snprintf(out, n, "pvt__cast%zu", p->ncasts);
	nv[p->ncasts].name = strdup(out);
	nv[p->ncasts].type = ty->id;
	nv[p->ncasts].addr = a;
	nv[p->ncasts].scope = PVT_LOCAL;
	if (nv[p->ncasts].name == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->ncasts++;
	return 0;
}

/* con_expr_ptype_fn: casts to the types of p's table. */
static int con_eval_ptype(void *ctx, const char *name, const char *path,
			  uint64_t *size, int *uns, int *flt, char *out,
			  size_t outlen, char *err, size_t errlen)
{
	con_eval_ctx *e = ctx;
	const td_type *ty = NULL, *st;
	uint32_t i;

	for (i = 0; i < e->t->ntypes && ty == NULL; i++)
		if (con_eval_same_type(e->t->types[i].name, name))
			ty = &e->t->types[i];
	if (ty == NULL) {
		if (strchr(name, '*') == NULL && strncmp(name, "struct ", 7) &&
		    strncmp(name, "union ", 6) && strncmp(name, "enum ", 5))
			return 0; /* a parenthesised expression, maybe */
		snprintf(err, errlen, "(%s): the program uses no such type "
			 "here", name);
		return -1;
	}
	st = td_type_strip(e->t, ty->id);
	if (st != NULL && (td_kind_is_int(st->kind) || st->kind == TD_ENUM ||
			   st->kind == TD_FLOAT || st->kind == TD_DOUBLE ||
			   st->kind == TD_LDOUBLE)) {
		*size = st->size;
		*uns = !st->is_signed && st->kind != TD_FLOAT &&
		       st->kind != TD_DOUBLE && st->kind != TD_LDOUBLE;
		*flt = st->kind == TD_FLOAT || st->kind == TD_DOUBLE ||
		       st->kind == TD_LDOUBLE;
		return 1;
	}
	if (st == NULL || st->kind != TD_POINTER) {
		snprintf(err, errlen, "(%s): a cast to a %s is not supported "
			 "(to arithmetic and pointer types it is)", name,
			 st != NULL ? td_kind_name(st->kind) : "type");
		return -1;
	}
	if (path == NULL)
		return 2;
	return con_eval_repoint(e, ty, path, out, outlen, err, errlen) < 0 ?
	       -1 : 2;
}

/* See con_dbg.h. */
int con_dbg_eval(con_proc *p, const char *expr, con_xval *out, char *err,
		 size_t errlen)
{
	con_expr_env env = {con_eval_fetch, con_eval_size, con_eval_addr, NULL,
			    NULL, con_eval_ptype};
	con_eval_ctx e;

	e.p = p;
	e.t = con_dbg_table(p, err, errlen);
	if (e.t == NULL)
		return WIRE_ESTATE;
	env.ctx = &e;
	if (con_expr_eval(expr, &env, out, err, errlen) != 0)
		return WIRE_EARG;
	return 0;
}

/* con_expr_load_fn: the LOAD (ADDR) of path among the variables p
 * stopped with; index steps of dynmask are taken from the stack. */
static int con_eval_load(void *ctx, const char *path, int addr,
			 uint64_t dynmask, con_xcode *code, int *kind,
			 char *err, size_t errlen)
{
	con_eval_ctx *e = ctx;
	uint64_t steps[TD_MAX_STEPS][2];
	uint32_t dyn[TD_MAX_STEPS], nd = 0, k, j = 0;
	const td_type *ty;
	td_path_result res;
	size_t v;

	if (con_dbg_resolve(e->p, e->t, path, &res, err, errlen) < 0)
		return -1;
	for (v = 0; v < e->p->nvars; v++)
		if (e->p->vars[v].addr == res.req.addr &&
		    e->p->vars[v].type == res.req.type)
			break;
	ty = td_type_strip(e->t, res.type);
	if (v == e->p->nvars || res.slice || ty == NULL) {
		snprintf(err, errlen, "'%s' is not a number the process can "
			 "read by itself", path);
		return -1;
	}
	for (k = 0; k < res.req.nsteps; k++) {
		steps[k][0] = res.req.steps[k].op;
		steps[k][1] = res.req.steps[k].arg;
		if (res.req.steps[k].op == TD_STEP_INDEX && j < 64 &&
		    ((dynmask >> j++) & 1))
			dyn[nd++] = k;
	}
	if (addr)
		*kind = CON_X_PTR;
	else if (ty->kind == TD_FLOAT || ty->kind == TD_DOUBLE ||
		 ty->kind == TD_LDOUBLE)
		*kind = CON_X_FLT;
	else if (ty->kind == TD_POINTER || ty->kind == TD_FUNCPTR)
		*kind = CON_X_PTR;
	else if (td_kind_is_int(ty->kind) || ty->kind == TD_ENUM)
		*kind = ty->is_signed || ty->kind == TD_ENUM ||
			ty->kind == TD_BOOL ? CON_X_INT : CON_X_UINT;
	else {
		snprintf(err, errlen, "'%s' is a %s, not a number", path,
			 ty->name);
		return -1;
	}
	if (con_xcode_path(code, addr ? BP_C_ADDR : BP_C_LOAD, (uint32_t)v,
			   e->p->vars[v].name, e->p->vars[v].type,
			   (const uint64_t(*)[2])steps, res.req.nsteps, dyn,
			   nd) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* See con_dbg_int.h. */
int con_dbg_compile(con_proc *p, const char *expr, unsigned char **code,
		    size_t *len, char *err, size_t errlen)
{
	con_expr_env env = {con_eval_fetch, con_eval_size, con_eval_addr, NULL,
			    con_eval_load};
	con_xcode c;
	con_eval_ctx e;
	int rc;

	e.p = p;
	e.t = con_dbg_table(p, err, errlen);
	if (e.t == NULL)
		return -1;
	env.ctx = &e;
	if (con_expr_compile(expr, &env, &c, err, errlen) != 0)
		return -1;
	rc = con_xcode_wrap(&c, code, len);
	con_xcode_free(&c);
	if (rc != 0)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* The value of enum type ty called name, into *out.  1 if found. */
static int con_dbg_enum_const(const td_type *ty, const char *name,
			      con_xval *out)
{
	uint32_t i;

	for (i = 0; ty->kind == TD_ENUM && i < ty->nconsts; i++)
		if (strcmp(ty->consts[i].name, name) == 0) {
			memset(out, 0, sizeof *out);
			out->kind = CON_X_INT;
			out->i = ty->consts[i].value;
			return 1;
		}
	return 0;
}

/* True if type id is const, itself or through its typedefs. */
static int con_dbg_is_const(const td_table *t, uint32_t id)
{
	const td_type *ty = id < t->ntypes ? &t->types[id] : NULL;
	int guard = 64;

	while (ty != NULL && guard-- > 0) {
		if (ty->quals & TD_Q_CONST)
			return 1;
		if (ty->kind != TD_TYPEDEF)
			return 0;
		ty = ty->base < t->ntypes ? &t->types[ty->base] : NULL;
	}
	return 0;
}

/* Converts v to what an object of type ty holds; a sentence in err when
 * it cannot (path names the object).  0 or -1. */
static int con_dbg_convert(const td_type *ty, const char *path, con_xval *v,
			   char *err, size_t errlen)
{
	int64_t lo = 0;
	uint64_t hi;
	unsigned bits = (unsigned)(ty->size * 8);
	char val[64];

	con_xval_format(v, 0, val, sizeof val);
	if (v->kind == CON_X_TEXT) {
		snprintf(err, errlen, "the value is not a number");
		return -1;
	}
	if (ty->kind == TD_FLOAT || ty->kind == TD_DOUBLE) {
		v->d = v->kind == CON_X_FLT ? v->d : v->kind == CON_X_INT ?
		       (double)v->i : (double)v->u;
		v->kind = CON_X_FLT;
		return 0;
	}
	if (ty->kind == TD_POINTER || ty->kind == TD_FUNCPTR) {
		if ((v->kind == CON_X_FLT ? v->d != 0 : v->u != 0 || v->i != 0)) {
			snprintf(err, errlen, "%s is a pointer: it can be set "
				 "to 0 only", path);
			return -1;
		}
		v->kind = CON_X_UINT;
		v->u = 0;
		return 0;
	}
	if (ty->kind < TD_BOOL || (ty->kind > TD_ULLONG && ty->kind != TD_ENUM) ||
	    bits == 0 || bits > 64) {
		snprintf(err, errlen, "%s is a %s: only numbers, chars, enums "
			 "and pointers can be set", path, ty->name);
		return -1;
	}
	if (v->kind == CON_X_FLT && !(v->d > -9.2e18 && v->d < 1.8e19)) {
		snprintf(err, errlen, "%s does not fit in %s %s", val, path,
			 ty->name);
		return -1;
	}
	if (v->kind == CON_X_FLT) { /* as C converts: toward zero */
		v->i = (int64_t)v->d;
		v->u = (uint64_t)v->i;
		v->kind = v->d < 0 ? CON_X_INT : CON_X_UINT;
	}
	if (ty->kind == TD_BOOL) {
		v->u = v->kind == CON_X_INT ? v->i != 0 : v->u != 0;
		v->kind = CON_X_UINT;
		return 0;
	}
	if (ty->is_signed) {
		lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
		hi = bits == 64 ? (uint64_t)INT64_MAX :
		     ((uint64_t)1 << (bits - 1)) - 1;
	} else {
		hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	}
	if ((v->kind == CON_X_INT && (v->i < lo || (v->i >= 0 &&
					   (uint64_t)v->i > hi))) ||
	    (v->kind == CON_X_UINT && v->u > hi)) {
		snprintf(err, errlen, "%s does not fit in %s %s (%lld to %llu)",
			 val, path, ty->name, (long long)lo,
			 (unsigned long long)hi);
		return -1;
	}
	return 0;
}

/* path with each index that is an expression ("a[k + 1]") replaced by
 * its value on p ("a[6]"), into out.  0, or -1 with err. */
static int con_dbg_fix_indexes(con_proc *p, const char *path, char *out,
			       size_t n, char *err, size_t errlen)
{
	size_t i = 0, o = 0, j, depth;
	char inner[512];
	con_xval v;
	int w;

	while (path[i] != '\0') {
		if (path[i] != '[') {
			if (o + 1 >= n)
				goto long_;
			out[o++] = path[i++];
			continue;
		}
		for (j = i + 1, depth = 1; path[j] != '\0' && depth > 0; j++)
			depth += path[j] == '[' ? 1 : path[j] == ']' ? -1 : 0;
		if (depth > 0 || j - i - 2 >= sizeof inner) {
			snprintf(err, errlen, "'%s': a '[' without its ']'", path);
			return -1;
		}
		snprintf(inner, sizeof inner, "%.*s", (int)(j - i - 2),
			 path + i + 1);
		if (con_dbg_eval(p, inner, &v, err, errlen) < 0)
			return -1;
		if (v.kind != CON_X_INT && v.kind != CON_X_UINT) {
			con_xval_free(&v);
			snprintf(err, errlen, "'%s': an index must be an integer",
				 inner);
			return -1;
		}
		w = snprintf(out + o, n - o, "[%lld]", (long long)v.i);
		if (w < 0 || (size_t)w >= n - o)
			goto long_;
		o += (size_t)w;
		i = j;
	}
	out[o] = '\0';
	return 0;
long_:
	snprintf(err, errlen, "'%s' is too long", path);
	return -1;
}

/* See con_dbg.h. */
int con_dbg_set_var(con_proc *p, const char *given, const char *expr,
		    con_inspect *q, char *err, size_t errlen)
{
	const td_table *t = con_dbg_table(p, err, errlen);
	const td_type *ty;
	td_path_result res;
	char path[1024];
	con_xval v;
	int rc;

	if (t == NULL)
		return WIRE_ESTATE;
	if (con_dbg_fix_indexes(p, given, path, sizeof path, err, errlen) < 0)
		return WIRE_EARG;
	if (!con_expr_is_path(path) ||
	    con_dbg_resolve(p, t, path, &res, err, errlen) < 0) {
		if (!con_expr_is_path(path))
			snprintf(err, errlen, "'%s' is not a variable, a member "
				 "or an element", path);
		return WIRE_EARG;
	}
	ty = res.slice ? NULL : con_dbg_untypedef(t, res.type);
	if (ty == NULL) {
		snprintf(err, errlen, "%s: a slice cannot be set", path);
		return WIRE_EARG;
	}
	if (con_dbg_is_const(t, res.type)) {
		snprintf(err, errlen, "%s is const", path);
		return WIRE_EARG;
	}
	if (!con_dbg_enum_const(ty, expr, &v) &&
	    (rc = con_dbg_eval(p, expr, &v, err, errlen)) < 0)
		return rc;
	rc = con_dbg_convert(ty, path, &v, err, errlen);
	if (rc == 0)
		rc = con_dbg_set(p, path, &v, q, err, errlen);
	con_xval_free(&v);
	return rc < 0 ? (rc == -1 ? WIRE_EARG : rc) : 0;
}

/* See con_dbg.h. */
int con_dbg_type_of(con_proc *p, const char *path, const td_table **t,
		    uint32_t *type, uint64_t *slice, char *err, size_t errlen)
{
	td_path_result res;

	*t = con_dbg_table(p, err, errlen);
	if (*t == NULL)
		return WIRE_ESTATE;
	if (con_dbg_resolve(p, *t, path, &res, err, errlen) < 0)
		return WIRE_EARG;
	*type = res.type;
	*slice = res.slice;
	return 0;
}
