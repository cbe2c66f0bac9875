/*
 * td_req.c — the wire form of a value request, shared by both sides.
 *
 * The console turns a value path (p->next->v, a[2]@10) into a td_request;
 * the node serves it with td_serve.  On the wire a request is
 * [type, addr, [[op, arg]...]]; DEREF steps carry arg 0.  The decoder checks
 * every field, as anything from the wire must be.
 */
#include "td_node.h"

/* Packs one unsigned value; 0 or TD_EWRITE. */
static int td_req_u64(msgpack_packer *pk, uint64_t v)
{
	return msgpack_pack_uint64(pk, v) ? TD_EWRITE : 0;
}

/* [type, addr, [[op, arg]...]]; 0, TD_EARG or TD_EWRITE. */
int td_request_pack(msgpack_packer *pk, const td_request *req)
{
	uint32_t i;

	if (req->nsteps > TD_MAX_STEPS)
		return TD_EARG;
	if (msgpack_pack_array(pk, 3) || td_req_u64(pk, req->type) ||
	    td_req_u64(pk, req->addr) || msgpack_pack_array(pk, req->nsteps))
		return TD_EWRITE;
	for (i = 0; i < req->nsteps; i++) {
		if (msgpack_pack_array(pk, 2) ||
		    td_req_u64(pk, req->steps[i].op) ||
		    td_req_u64(pk, req->steps[i].arg))
			return TD_EWRITE;
	}
	return 0;
}

/* Reads an unsigned integer object into *v; 0 or TD_EMALFORMED. */
static int td_req_uint(const msgpack_object *o, uint64_t max, uint64_t *v)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
		return TD_EMALFORMED;
	*v = o->via.u64;
	return 0;
}

/* Reads one [op, arg] step. */
static int td_req_step(const msgpack_object *o, td_step *s)
{
	uint64_t op, arg;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 2)
		return TD_EMALFORMED;
	if (td_req_uint(&o->via.array.ptr[0], TD_STEP_SLICE, &op) ||
	    td_req_uint(&o->via.array.ptr[1], UINT64_MAX, &arg) ||
	    op < TD_STEP_MEMBER)
		return TD_EMALFORMED;
	s->op = (uint8_t)op;
	s->arg = arg;
	return 0;
}

/* Checks arity, ranges and the step count; 0 or TD_EMALFORMED. */
int td_request_unpack(const msgpack_object *o, td_request *req)
{
	const msgpack_object *steps;
	uint64_t v;
	uint32_t i;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 3)
		return TD_EMALFORMED;
	if (td_req_uint(&o->via.array.ptr[0], UINT32_MAX, &v))
		return TD_EMALFORMED;
	req->type = (uint32_t)v;
	if (td_req_uint(&o->via.array.ptr[1], UINT64_MAX, &req->addr))
		return TD_EMALFORMED;
	steps = &o->via.array.ptr[2];
	if (steps->type != MSGPACK_OBJECT_ARRAY ||
	    steps->via.array.size > TD_MAX_STEPS)
		return TD_EMALFORMED;
	req->nsteps = steps->via.array.size;
	for (i = 0; i < req->nsteps; i++)
		if (td_req_step(&steps->via.array.ptr[i], &req->steps[i]))
			return TD_EMALFORMED;
	return 0;
}
