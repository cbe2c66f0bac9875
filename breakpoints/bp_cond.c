/*
 * bp_cond.c — breakpoint conditions run by the task (bp_cond.h): the
 * code of bp_code.h, decoded once when the breakpoint table arrives and
 * run at every pass over the site's pvt_var array.
 *
 * Paths are followed by typedesc's td_locate_own: inside the variable
 * (members, elements of arrays) with the table's offsets and no check,
 * the variable being there; through a pointer with every address probed
 * first (td_readable), so a wild pointer in a condition is reported,
 * never a crash; that costs a system call per page, so such conditions
 * are slower.  The arithmetic is bp_num.c's,
 * the console's own.  Not thread-safe, like the rest of the runtime.
 */
#include <stdlib.h>
#include <string.h>

#include "bp_code.h"
#include "bp_cond.h"
#include "bp_num.h"
#include "td_node.h"

/* One decoded instruction. */
typedef struct bc_ins {
	uint8_t ins;       /* BP_C_* */
	int32_t arg;       /* operator, cast type or instructions skipped */
	bp_num num;        /* PUSH */
	uint32_t var;      /* LOAD, ADDR: index in the site's variables */
	uint32_t type;     /* ... its type id */
	char *name;        /* ... its name (owned) */
	const char *seen;  /* ... the name pointer found to match */
	uint32_t nsteps;   /* ... steps from it */
	td_step *steps;    /* ... (owned) */
	uint32_t ndyn;     /* ... steps whose index is popped */
	uint32_t *dyn;     /* ... their positions (owned) */
} bc_ins;

struct bp_cond {
	bc_ins *ins; /* instructions (owned) */
	uint32_t n;  /* their number */
};

/* See bp_cond.h. */
void bp_cond_free(bp_cond *c)
{
	uint32_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++) {
		free(c->ins[i].name);
		free(c->ins[i].steps);
		free(c->ins[i].dyn);
	}
	free(c->ins);
	free(c);
}

/* An unsigned integer field no larger than max into *v.  0 or -1. */
static int bc_uint(const msgpack_object *o, uint64_t max, uint64_t *v)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
		return -1;
	*v = o->via.u64;
	return 0;
}

/* PUSH's [kind, value]. */
static int bc_dec_push(bc_ins *in, const msgpack_object *f)
{
	uint64_t k;

	if (bc_uint(&f[0], BP_NUM_PTR, &k) != 0)
		return -1;
	memset(&in->num, 0, sizeof in->num);
	in->num.kind = (int)k;
	if (f[1].type == MSGPACK_OBJECT_FLOAT64 ||
	    f[1].type == MSGPACK_OBJECT_FLOAT32)
		in->num.d = f[1].via.f64;
	else if (f[1].type == MSGPACK_OBJECT_POSITIVE_INTEGER)
		in->num.u = f[1].via.u64;
	else if (f[1].type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		in->num.u = (uint64_t)f[1].via.i64;
	else
		return -1;
	if (in->num.kind == BP_NUM_FLT && f[1].type != MSGPACK_OBJECT_FLOAT64 &&
	    f[1].type != MSGPACK_OBJECT_FLOAT32)
		return -1;
	in->num.i = (int64_t)in->num.u;
	return 0;
}

/* LOAD's and ADDR's [var, name, type, steps, dyn]. */
static int bc_dec_path(bc_ins *in, const msgpack_object *f)
{
	const msgpack_object *st = &f[3], *dy = &f[4], *s;
	uint64_t v, t, op, arg;
	uint32_t i;

	if (bc_uint(&f[0], UINT32_MAX, &v) != 0 || f[1].type !=
	    MSGPACK_OBJECT_STR || bc_uint(&f[2], UINT32_MAX, &t) != 0 ||
	    st->type != MSGPACK_OBJECT_ARRAY || dy->type != MSGPACK_OBJECT_ARRAY ||
	    st->via.array.size > TD_MAX_STEPS ||
	    dy->via.array.size > st->via.array.size)
		return -1;
	in->var = (uint32_t)v;
	in->type = (uint32_t)t;
	in->name = malloc(f[1].via.str.size + 1);
	in->nsteps = st->via.array.size;
	in->ndyn = dy->via.array.size;
	in->steps = calloc(in->nsteps + 1, sizeof *in->steps);
	in->dyn = calloc(in->ndyn + 1, sizeof *in->dyn);
	if (in->name == NULL || in->steps == NULL || in->dyn == NULL)
		return -1;
	memcpy(in->name, f[1].via.str.ptr, f[1].via.str.size);
	in->name[f[1].via.str.size] = '\0';
	for (i = 0; i < in->nsteps; i++) {
		s = &st->via.array.ptr[i];
		if (s->type != MSGPACK_OBJECT_ARRAY || s->via.array.size != 2 ||
		    bc_uint(&s->via.array.ptr[0], TD_STEP_DEREF, &op) != 0 ||
		    op < TD_STEP_MEMBER ||
		    bc_uint(&s->via.array.ptr[1], UINT64_MAX, &arg) != 0)
			return -1;
		in->steps[i].op = (uint8_t)op;
		in->steps[i].arg = arg;
	}
	for (i = 0; i < in->ndyn; i++) {
		if (bc_uint(&dy->via.array.ptr[i], in->nsteps - 1, &v) != 0 ||
		    in->steps[v].op != TD_STEP_INDEX)
			return -1;
		in->dyn[i] = (uint32_t)v;
	}
	return 0;
}

/* One instruction o at pc of n. */
static int bc_dec_one(bc_ins *in, const msgpack_object *o, uint32_t pc,
		      uint32_t n)
{
	const msgpack_object *f;
	uint32_t nf;
	uint64_t ins, a = 0;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size == 0)
		return -1;
	f = o->via.array.ptr;
	nf = o->via.array.size;
	if (bc_uint(&f[0], BP_C_JMP, &ins) != 0 || ins == 0)
		return -1;
	in->ins = (uint8_t)ins;
	switch (ins) {
	case BP_C_PUSH:
		return nf == 3 ? bc_dec_push(in, f + 1) : -1;
	case BP_C_LOAD:
	case BP_C_ADDR:
		return nf == 6 ? bc_dec_path(in, f + 1) : -1;
	case BP_C_BOOL:
		return nf == 1 ? 0 : -1;
	case BP_C_BIN:
		a = BP_OP_COUNT - 1;
		break;
	case BP_C_UN:
		a = BP_UN_PLUS;
		break;
	case BP_C_CAST:
		a = BP_CT_COUNT - 1;
		break;
	default: /* a skip: stays inside the code */
		a = n - pc - 1;
		break;
	}
	if (nf != 2 || bc_uint(&f[1], a, &a) != 0)
		return -1;
	in->arg = (int32_t)a;
	return 0;
}

/* See bp_cond.h. */
bp_cond *bp_cond_decode(const msgpack_object *o)
{
	bp_cond *c;
	uint32_t i;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size == 0 ||
	    o->via.array.size > BP_CODE_MAX)
		return NULL;
	c = calloc(1, sizeof *c);
	if (c == NULL)
		return NULL;
	c->ins = calloc(o->via.array.size, sizeof *c->ins);
	if (c->ins == NULL) {
		free(c);
		return NULL;
	}
	c->n = o->via.array.size;
	for (i = 0; i < c->n; i++)
		if (bc_dec_one(&c->ins[i], &o->via.array.ptr[i], i, c->n) != 0) {
			bp_cond_free(c);
			return NULL;
		}
	return c;
}

/* Reads the scalar of type id at p as a number.  0 or -1. */
static int bc_read(const td_table *t, uint32_t id, const void *p, bp_num *v)
{
	const td_type *ty = td_type_strip(t, id);
	int ptr;
	float f;
	double d;
	long double ld;

	if (ty == NULL || ty->size == 0)
		return -1;
	memset(v, 0, sizeof *v);
	if (ty->kind == TD_FLOAT || ty->kind == TD_DOUBLE ||
	    ty->kind == TD_LDOUBLE) {
		if (ty->kind == TD_FLOAT && ty->size == sizeof f)
			memcpy(&f, p, sizeof f), v->d = f;
		else if (ty->kind == TD_DOUBLE && ty->size == sizeof d)
			memcpy(&d, p, sizeof d), v->d = d;
		else if (ty->size == sizeof ld)
			memcpy(&ld, p, sizeof ld), v->d = (double)ld;
		else
			return -1;
		v->kind = BP_NUM_FLT;
		return 0;
	}
	ptr = ty->kind == TD_POINTER || ty->kind == TD_FUNCPTR;
	if ((!td_kind_is_int(ty->kind) && ty->kind != TD_ENUM && !ptr) ||
	    td_read_int(p, ty->size, ty->is_signed && !ptr, &v->u) != 0)
		return -1;
	v->i = (int64_t)v->u;
	if (ptr)
		v->kind = BP_NUM_PTR;
	else
		v->kind = ty->is_signed || ((ty->kind == TD_ENUM ||
					     ty->kind == TD_BOOL) && v->i >= 0) ?
			  BP_NUM_INT : BP_NUM_UINT;
	v->is_char = ty->kind >= TD_CHAR && ty->kind <= TD_UCHAR;
	return 0;
}

/* LOAD or ADDR: pushes the value or the address of in's path. */
static int bc_path(bc_ins *in, const td_table *t, const pvt_var *vars,
		   uint32_t nvars, bp_num *st, int *sp)
{
	td_request req;
	uint32_t k, type;
	void *a;

	if (in->var >= nvars || vars[in->var].type != in->type ||
	    *sp < (int)in->ndyn)
		return -1;
	if (vars[in->var].name != in->seen) {
		if (vars[in->var].name == NULL ||
		    strcmp(vars[in->var].name, in->name) != 0)
			return -1;
		in->seen = vars[in->var].name;
	}
	req.type = in->type;
	req.addr = (uint64_t)(uintptr_t)vars[in->var].addr;
	req.nsteps = in->nsteps;
	memcpy(req.steps, in->steps, in->nsteps * sizeof *in->steps);
	for (k = in->ndyn; k-- > 0;) {
		bp_num *ix = &st[--*sp];

		if (ix->kind == BP_NUM_FLT || ix->kind == BP_NUM_PTR ||
		    (ix->kind == BP_NUM_INT && ix->i < 0))
			return -1;
		req.steps[in->dyn[k]].arg = ix->u;
	}
	if (td_locate_own(t, &req, &type, &a) != 0)
		return -1;
	if (in->ins == BP_C_ADDR) {
		memset(&st[*sp], 0, sizeof st[*sp]);
		st[*sp].kind = BP_NUM_PTR;
		st[*sp].u = (uint64_t)(uintptr_t)a;
		st[*sp].i = (int64_t)st[*sp].u;
	} else if (bc_read(t, type, a, &st[*sp]) != 0) {
		return -1;
	}
	(*sp)++;
	return 0;
}

/* Runs instruction in (the stack has room for one more number).  The
 * instructions to skip after it (0 usually), or -1. */
static int bc_step(bc_ins *in, const td_table *t, const pvt_var *vars,
		   uint32_t nvars, bp_num *st, int *sp)
{
	int truth;

	if (in->ins == BP_C_PUSH) {
		st[(*sp)++] = in->num;
		return 0;
	}
	if (in->ins == BP_C_LOAD || in->ins == BP_C_ADDR)
		return bc_path(in, t, vars, nvars, st, sp);
	if (in->ins == BP_C_JMP)
		return in->arg;
	if (*sp < (in->ins == BP_C_BIN ? 2 : 1))
		return -1;
	switch (in->ins) {
	case BP_C_BIN:
		--*sp;
		return bp_num_binary(in->arg, &st[*sp - 1], &st[*sp], NULL, 0);
	case BP_C_UN:
		return bp_num_unary(in->arg, &st[*sp - 1], NULL, 0);
	case BP_C_CAST:
		bp_num_cast_ctype(&st[*sp - 1], in->arg);
		return 0;
	case BP_C_BOOL:
		bp_num_set_int(&st[*sp - 1], bp_num_truth(&st[*sp - 1]));
		return 0;
	default:
		break;
	}
	truth = bp_num_truth(&st[--*sp]);
	if (in->ins == BP_C_JZ)
		return truth ? 0 : in->arg;
	if (truth == (in->ins == BP_C_ORELSE)) {
		bp_num_set_int(&st[(*sp)++], truth);
		return in->arg;
	}
	return 0;
}

/* See bp_cond.h. */
int bp_cond_run(bp_cond *c, const td_table *t, const pvt_var *vars,
		uint32_t nvars)
{
	bp_num st[BP_CODE_STACK];
	uint32_t pc;
	int sp = 0, skip;

	if (c == NULL || t == NULL)
		return -1;
	for (pc = 0; pc < c->n; pc += 1 + (uint32_t)skip) {
		if (sp >= BP_CODE_STACK)
			return -1;
		skip = bc_step(&c->ins[pc], t, vars, nvars, st, &sp);
		if (skip < 0)
			return -1;
	}
	return sp == 1 ? bp_num_truth(&st[0]) : -1;
}
