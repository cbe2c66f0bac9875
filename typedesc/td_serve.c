/*
 * td_serve.c — serving a value request on the node.
 *
 * A request names a variable (type id, address) and a list of steps
 * (member, index, deref, final slice).  The steps are applied here again,
 * with every index checked against the table and every address probed
 * before memory is read: the console's request is input, not trust.  The
 * path is resolved first, so nothing is packed when a step is invalid;
 * memory that turns out unreadable is packed as TD_EXT_UNREADABLE.
 */
#include <string.h>

#include "td_node.h"

/* Where a walk along the steps stands. */
typedef struct td_pos {
	uint32_t type;         /* type id of the object at addr */
	uint64_t addr;         /* its address */
	int bad;               /* 1: memory on the way was unreadable at addr */
	const td_member *bitf; /* final bit-field member, else NULL */
	uint64_t slice;        /* elements of a final slice; 0 if none */
	int sliced;            /* 1 if the last step is a slice */
	int own;               /* the request's variable is the process's
	                          own (td_locate_own): trusted */
	int loads;             /* pointers followed so far */
} td_pos;

/* Loads the pointer stored at pos into pos->addr, moving to its target.
 * Returns 0 (pos->bad set if unreadable) or TD_ETYPE. */
static int td_serve_load(const td_table *t, const td_type *pt, td_pos *pos)
{
	unsigned char b[8];
	uint32_t a32;
	uint64_t a;

	if (pt->size != 4 && pt->size != 8)
		return TD_ETYPE;
	if (pos->own && pos->loads == 0)
		td_probe_begin(); /* no page checked on an earlier call counts */
	pos->loads++;
	if (pos->addr > (uint64_t)UINTPTR_MAX ||
	    !td_readable((const void *)(uintptr_t)pos->addr, pt->size)) {
		pos->bad = 1;
		return 0;
	}
	memcpy(b, (const void *)(uintptr_t)pos->addr, pt->size);
	if (pt->size == 4) {
		memcpy(&a32, b, 4);
		a = a32;
	} else {
		memcpy(&a, b, 8);
	}
	pos->addr = a;
	pos->type = pt->base;
	return td_type_get(t, pt->base) ? 0 : TD_ETYPE;
}

/* Size of the element type of an array or pointer; 0 if unknown/void. */
static uint64_t td_elem_size(const td_table *t, const td_type *ty)
{
	const td_type *el = td_type_get(t, ty->base);

	return el != NULL ? el->size : 0;
}

/* MEMBER step. */
static int td_step_member(const td_table *t, const td_type *ty, uint64_t k,
                          td_pos *pos, int last)
{
	const td_member *m;

	if (ty->kind != TD_STRUCT && ty->kind != TD_UNION)
		return TD_ETYPE;
	if (k >= ty->nmembers)
		return TD_ERANGE;
	m = &ty->members[k];
	if (m->bit_width) {
		if (!last)
			return TD_EARG;
		pos->bitf = m;
		return 0;
	}
	pos->addr += m->offset;
	pos->type = m->type;
	return td_type_get(t, m->type) ? 0 : TD_ETYPE;
}

/* INDEX and DEREF steps (deref is index 0). */
static int td_step_index(const td_table *t, const td_type *ty, uint64_t i,
                         td_pos *pos)
{
	uint64_t es = td_elem_size(t, ty);
	int rc;

	if (ty->kind == TD_ARRAY) {
		if (i >= ty->count)
			return TD_ERANGE;
		pos->addr += i * es;
		pos->type = ty->base;
		return 0;
	}
	if (ty->kind != TD_POINTER || es == 0)
		return TD_ETYPE;
	rc = td_serve_load(t, ty, pos);
	if (rc == 0 && !pos->bad)
		pos->addr += i * es;
	return rc;
}

/* Applies every step to pos. */
static int td_serve_walk(const td_table *t, const td_request *req, td_pos *pos)
{
	const td_type *ty;
	const td_step *s;
	uint32_t k;
	int rc = 0, last;

	for (k = 0; k < req->nsteps && !pos->bad; k++) {
		s = &req->steps[k];
		last = k + 1 == req->nsteps;
		ty = td_type_strip(t, pos->type);
		if (ty == NULL)
			return TD_ETYPE;
		if (s->op == TD_STEP_MEMBER)
			rc = td_step_member(t, ty, s->arg, pos, last);
		else if (s->op == TD_STEP_INDEX)
			rc = td_step_index(t, ty, s->arg, pos);
		else if (s->op == TD_STEP_DEREF)
			rc = td_step_index(t, ty, 0, pos);
		else if (s->op == TD_STEP_SLICE && last && s->arg > 0)
			pos->sliced = 1, pos->slice = s->arg;
		else
			return TD_EARG;
		if (rc)
			return rc;
	}
	return 0;
}

/* Packs the unreadable marker for address a. */
static int td_serve_unreadable(msgpack_packer *pk, uint64_t a)
{
	unsigned char b[8];

	td_put_be64(b, a);
	if (msgpack_pack_ext(pk, 8, TD_EXT_UNREADABLE) ||
	    msgpack_pack_ext_body(pk, b, 8))
		return TD_EWRITE;
	return 0;
}

/* Packs a final slice of n elements of type id at a. */
static int td_serve_slice(msgpack_packer *pk, const td_table *t,
                          const td_pos *pos, const td_limits *lim)
{
	const td_type *el = td_type_get(t, pos->type);
	uint64_t n = pos->slice, i;
	const unsigned char *p = (const unsigned char *)(uintptr_t)pos->addr;
	int rc;

	if (el == NULL || el->size == 0)
		return TD_ETYPE;
	if (n > lim->max_elems)
		n = lim->max_elems;
	if (n > (uint64_t)SIZE_MAX / el->size ||
	    !td_readable(p, (size_t)(n * el->size)))
		return td_serve_unreadable(pk, pos->addr);
	if (msgpack_pack_array(pk, (uint32_t)(n + (n < pos->slice))))
		return TD_EWRITE;
	for (i = 0; i < n; i++) {
		rc = td_pack_value(pk, t, pos->type, p + i * el->size, lim);
		if (rc)
			return rc;
	}
	if (n < pos->slice) {
		unsigned char b[8];
		td_put_be64(b, pos->slice - n);
		if (msgpack_pack_ext(pk, 8, TD_EXT_MORE) ||
		    msgpack_pack_ext_body(pk, b, 8))
			return TD_EWRITE;
	}
	return 0;
}

/* Packs the value at the end of the path (probed first). */
static int td_serve_final(msgpack_packer *pk, const td_table *t,
                          const td_pos *pos, const td_limits *lim)
{
	const td_type *ty = td_type_get(t, pos->type);
	const void *p = (const void *)(uintptr_t)pos->addr;
	const td_type *pt;
	uint64_t v;

	if (ty == NULL)
		return TD_ETYPE;
	if (pos->sliced)
		return td_serve_slice(pk, t, pos, lim);
	if (!td_readable(p, (size_t)ty->size))
		return td_serve_unreadable(pk, pos->addr);
	if (pos->bitf == NULL)
		return td_pack_value(pk, t, pos->type, p, lim);
	pt = td_type_strip(t, pos->bitf->type);
	if (pt == NULL || pos->bitf->get == NULL)
		return TD_ETYPE;
	v = pos->bitf->get(p);
	if (pt->kind == TD_BOOL)
		return (v ? msgpack_pack_true(pk) : msgpack_pack_false(pk))
		           ? TD_EWRITE
		           : 0;
	if (pt->is_signed)
		return msgpack_pack_int64(pk, (int64_t)v) ? TD_EWRITE : 0;
	return msgpack_pack_uint64(pk, v) ? TD_EWRITE : 0;
}

/* Follows req's steps from its variable into *pos (pos->bad when memory
 * on the way is unreadable); own: the variable is the process's own, and
 * the page cache is reset only if a pointer is followed.  0, or TD_EARG,
 * TD_ETYPE, TD_ERANGE. */
static int td_serve_find(const td_table *t, const td_request *req,
                         td_pos *pos, int own)
{
	if (t == NULL || req == NULL || req->nsteps > TD_MAX_STEPS)
		return TD_EARG;
	if (!own)
		td_probe_begin();
	memset(pos, 0, sizeof *pos);
	pos->own = own;
	pos->type = req->type;
	pos->addr = req->addr;
	if (td_type_get(t, pos->type) == NULL)
		return TD_ETYPE;
	if (pos->addr > (uint64_t)UINTPTR_MAX)
		pos->bad = 1;
	return td_serve_walk(t, req, pos);
}

int td_serve(msgpack_packer *pk, const td_table *t, const td_request *req,
             const td_limits *lim)
{
	td_limits def;
	td_pos pos;
	int rc;

	if (pk == NULL)
		return TD_EARG;
	if (lim == NULL) {
		td_limits_default(&def);
		lim = &def;
	}
	rc = td_serve_find(t, req, &pos, 0);
	if (rc)
		return rc;
	if (pos.bad)
		return td_serve_unreadable(pk, pos.addr);
	return td_serve_final(pk, t, &pos, lim);
}

/* ---- storing a value (td_store) ------------------------------------- */

/* v as a signed and an unsigned 64-bit integer (floats truncated);
 * 0, or TD_ETYPE when v is not a number. */
static int td_store_int(const msgpack_object *v, int64_t *s, uint64_t *u,
                        int *neg)
{
	*neg = 0;
	if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		*u = v->via.u64;
		*s = (int64_t)*u;
	} else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*s = v->via.i64;
		*u = (uint64_t)*s;
		*neg = 1;
	} else if (v->type == MSGPACK_OBJECT_BOOLEAN) {
		*s = v->via.boolean;
		*u = (uint64_t)*s;
	} else {
		return TD_ETYPE;
	}
	return 0;
}

/* Whether an integer fits size bytes of that signedness. */
static int td_store_fits(int64_t s, uint64_t u, int neg, uint64_t size,
                         int is_signed)
{
	if (size >= 8)
		return is_signed ? !( !neg && u > (uint64_t)INT64_MAX) : !neg;
	if (is_signed)
		return s >= -((int64_t)1 << (8 * size - 1)) &&
		       s < ((int64_t)1 << (8 * size - 1)) &&
		       !(!neg && u > (uint64_t)INT64_MAX);
	return !neg && u < ((uint64_t)1 << (8 * size));
}

/* Writes the low size bytes of x at p in the node's byte order. */
static void td_store_bytes(void *p, uint64_t x, uint64_t size)
{
	uint8_t b1 = (uint8_t)x;
	uint16_t b2 = (uint16_t)x;
	uint32_t b4 = (uint32_t)x;

	if (size == 1)
		memcpy(p, &b1, 1);
	else if (size == 2)
		memcpy(p, &b2, 2);
	else if (size == 4)
		memcpy(p, &b4, 4);
	else
		memcpy(p, &x, 8);
}

/* Stores v into the scalar object ty at p. */
static int td_store_scalar(const td_type *ty, void *p,
                           const msgpack_object *v)
{
	int64_t s;
	uint64_t u;
	int neg;

	if (ty->kind == TD_FLOAT || ty->kind == TD_DOUBLE) {
		double d;
		float f;

		if (v->type == MSGPACK_OBJECT_FLOAT64 ||
		    v->type == MSGPACK_OBJECT_FLOAT32)
			d = v->via.f64;
		else if (td_store_int(v, &s, &u, &neg) == 0)
			d = neg ? (double)s : (double)u;
		else
			return TD_ETYPE;
		if (ty->kind == TD_FLOAT && ty->size == sizeof f) {
			f = (float)d;
			memcpy(p, &f, sizeof f);
		} else if (ty->size == sizeof d) {
			memcpy(p, &d, sizeof d);
		} else {
			return TD_ETYPE;
		}
		return 0;
	}
	if (td_store_int(v, &s, &u, &neg) != 0)
		return TD_ETYPE;
	if (ty->kind == TD_POINTER || ty->kind == TD_FUNCPTR) {
		if (u != 0 || (ty->size != 4 && ty->size != 8))
			return TD_EARG;
	} else if (ty->kind == TD_BOOL) {
		u = u != 0;
	} else if (ty->kind < TD_CHAR || (ty->kind > TD_ULLONG &&
	                                    ty->kind != TD_ENUM)) {
		return TD_ETYPE;
	} else if (ty->size > 8 ||
	           !td_store_fits(s, u, neg, ty->size, ty->is_signed)) {
		return TD_ERANGE;
	}
	td_store_bytes(p, u, ty->size);
	return 0;
}

/* True if the type id, or a typedef it goes through, is const. */
static int td_store_const(const td_table *t, uint32_t id)
{
	const td_type *ty = td_type_get(t, id);
	int guard = 64;

	while (ty != NULL && guard-- > 0) {
		if (ty->quals & TD_Q_CONST)
			return 1;
		if (ty->kind != TD_TYPEDEF)
			return 0;
		ty = td_type_get(t, ty->base);
	}
	return 0;
}

/* td_locate and td_locate_own: own skips the probe of an object reached
 * without following a pointer (inside the process's own variable). */
static int td_locate_pos(const td_table *t, const td_request *req,
                         uint32_t *type, void **addr, int own)
{
	const td_type *ty;
	td_pos pos;
	int rc;

	rc = td_serve_find(t, req, &pos, own);
	if (rc)
		return rc;
	if (pos.bad)
		return TD_EUNREADABLE;
	if (pos.bitf != NULL || pos.sliced)
		return TD_ETYPE;
	ty = td_type_get(t, pos.type);
	if (ty == NULL || ty->size == 0)
		return TD_ETYPE;
	if ((!own || pos.loads > 0) &&
	    !td_readable((const void *)(uintptr_t)pos.addr, (size_t)ty->size))
		return TD_EUNREADABLE;
	*type = pos.type;
	*addr = (void *)(uintptr_t)pos.addr;
	return 0;
}

int td_locate(const td_table *t, const td_request *req, uint32_t *type,
              void **addr)
{
	return td_locate_pos(t, req, type, addr, 0);
}

int td_locate_own(const td_table *t, const td_request *req, uint32_t *type,
                  void **addr)
{
	return td_locate_pos(t, req, type, addr, 1);
}

int td_store(const td_table *t, const td_request *req,
             const msgpack_object *v)
{
	const td_type *ty;
	uint32_t type;
	void *p;
	int rc;

	if (v == NULL)
		return TD_EARG;
	rc = td_locate(t, req, &type, &p);
	if (rc)
		return rc;
	if (td_store_const(t, type))
		return TD_EARG;
	ty = td_type_strip(t, type);
	if (ty == NULL)
		return TD_ETYPE;
	if (!td_writable(p, (size_t)ty->size))
		return TD_EUNREADABLE;
	return td_store_scalar(ty, p, v);
}
