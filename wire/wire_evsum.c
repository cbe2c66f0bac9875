/*
 * wire_evsum.c — folding events into counters and a process's state, and
 * the summary a daemon sends with each batch (wire_evsum.h).
 */
#include <stdio.h>
#include <string.h>

#include "../wrappers/pvt_event.h"
#include "wire_evsum.h"

/* Largest time a summary may carry, ns: 2^60, as for events (the
 * console's analysis sums and subtracts a few of them). */
#define EVSUM_T_MAX ((int64_t)1 << 60)

void wire_evstate_init(wire_evstate *s)
{
	memset(s, 0, sizeof *s);
	s->cpu_wait_ns = s->wait_start_ns = -1;
	s->share_ns = -1;
}

/* True if a receive END e got a message of another task (PVM: a buffer
 * id > 0; MPI: MPI_SUCCESS).  Probes never count (they leave the message
 * queued), nor do PVM messages from a pvmd (pvm_notify's, whose source
 * tid has the pvmd bit, the sign bit, set): no task sent them. */
static int evsum_got_message(const wire_ev *e)
{
	if (pvt_op_class(e->op) == PVT_C_PROBE)
		return 0;
	if (e->op < PVT_OP_MPI_INIT)
		return e->result > 0 && e->peer >= 0;
	return e->result == 0 && e->peer >= 0; /* not PROC_NULL, not failed */
}

/* Counts e.  An MPI_Isend counts when it is posted (its SEND_END carries
 * the bytes); a nonblocking receive counts at the wait or test whose
 * RECV_END names the source, not at its MPI_Irecv; each destination of a
 * pvm_mcast counts as a send. */
static void evsum_count(wire_evcnt *c, const wire_ev *e)
{
	uint64_t b = e->bytes > 0 ? (uint64_t)e->bytes : 0;

	c->events++;
	if ((e->kind == PVT_EV_SEND_END && e->result >= 0 &&
	     e->peer != PVT_PEER_NULL) || e->kind == PVT_EV_MCAST_DEST) {
		c->sends++;
		c->bytes_out += b;
	} else if (e->kind == PVT_EV_RECV_END && evsum_got_message(e)) {
		c->recvs++;
		c->bytes_in += b;
	} else if (e->kind == PVT_EV_MCAST_END ||
		   e->kind == PVT_EV_GROUP_END) {
		c->colls++;
	}
}

/* Updates what s is doing, its tid and its last location for e. */
static void evsum_track(wire_evstate *s, const wire_ev *e)
{
	if (pvt_op_is_mpi(e->op))
		s->mpi = 1;
	switch (e->kind) {
	case PVT_EV_PROG_START:
		s->have_tid = e->peer >= 0;
		s->tid = e->peer;
		s->prog = e->func;
		s->t_start_ns = e->t_ns;
		s->wait_start_ns = e->bytes;
		return; /* (its func is the program, not a location) */
	case PVT_EV_SPECIAL_END:
		/* a PVM master has its tid only from its first pvm_mytid
		   or pvm_parent */
		if (!s->have_tid &&
		    pvt_own_tid(e->op, e->result, e->aux) > 0) {
			s->have_tid = 1;
			s->tid = pvt_own_tid(e->op, e->result, e->aux);
		}
		break;
	case PVT_EV_SEND_START: case PVT_EV_RECV_START:
	case PVT_EV_MCAST_START: case PVT_EV_GROUP_START:
		s->open_kind = e->kind;
		break;
	case PVT_EV_PROG_EXIT: case PVT_EV_CRASH:
		if (e->kind == PVT_EV_PROG_EXIT && e->bytes >= 0) {
			s->cpu_wait_ns = pvt_run_wait(s->wait_start_ns,
			                              e->bytes);
			s->run_ns = e->t_ns - s->t_start_ns;
			s->share_ns = e->tag >= 0 ? (int64_t)e->tag * 1000
						  : -1;
		}
		s->ended = 1;
		/* fall through */
	default:
		if (e->kind == s->open_kind + 1)
			s->open_kind = 0;
	}
	if (e->line > 0) {
		s->file = e->file;
		s->func = e->func;
		s->line = e->line;
	}
}

void wire_evsum_add(wire_evcnt *c, wire_evstate *s, const wire_ev *e)
{
	evsum_count(c, e);
	evsum_track(s, e);
}

void wire_evcnt_add(wire_evcnt *a, const wire_evcnt *b)
{
	a->events += b->events;
	a->sends += b->sends;
	a->recvs += b->recvs;
	a->bytes_out += b->bytes_out;
	a->bytes_in += b->bytes_in;
	a->colls += b->colls;
}

int wire_evsum_pack(msgpack_packer *pk, uint64_t first, const wire_evcnt *c,
		    const wire_evstate *s)
{
	return msgpack_pack_array(pk, WIRE_EVSUM_FIELDS) ||
	       msgpack_pack_uint64(pk, first) ||
	       msgpack_pack_uint64(pk, c->events) ||
	       msgpack_pack_uint64(pk, c->sends) ||
	       msgpack_pack_uint64(pk, c->recvs) ||
	       msgpack_pack_uint64(pk, c->bytes_out) ||
	       msgpack_pack_uint64(pk, c->bytes_in) ||
	       msgpack_pack_uint64(pk, c->colls) ||
	       msgpack_pack_int64(pk, s->have_tid) ||
	       msgpack_pack_int64(pk, s->tid) ||
	       msgpack_pack_int64(pk, s->open_kind) ||
	       msgpack_pack_uint64(pk, s->file) ||
	       msgpack_pack_uint64(pk, s->func) ||
	       msgpack_pack_int64(pk, s->line) ||
	       msgpack_pack_int64(pk, s->ended) ||
	       msgpack_pack_int64(pk, s->mpi) ||
	       msgpack_pack_uint64(pk, s->prog) ||
	       msgpack_pack_uint64(pk, s->t_start_ns) ||
	       msgpack_pack_int64(pk, s->cpu_wait_ns) ||
	       msgpack_pack_uint64(pk, s->run_ns) ||
	       msgpack_pack_int64(pk, s->share_ns) ? -1 : 0;
}

/* Field i of o as an integer within [lo, hi] into *v.  0 or -1. */
static int evsum_int(const msgpack_object *o, uint32_t i, int64_t lo,
		     uint64_t hi, int64_t *v)
{
	const msgpack_object *f = &o->via.array.ptr[i];

	if (f->type == MSGPACK_OBJECT_POSITIVE_INTEGER && f->via.u64 <= hi &&
	    f->via.u64 <= (uint64_t)INT64_MAX) {
		*v = (int64_t)f->via.u64;
		return 0;
	}
	if (f->type == MSGPACK_OBJECT_NEGATIVE_INTEGER && f->via.i64 >= lo) {
		*v = f->via.i64;
		return 0;
	}
	return -1;
}

int wire_evsum_unpack(const msgpack_object *o, uint64_t n, uint64_t *first,
		      wire_evcnt *c, wire_evstate *s, char *err,
		      size_t errlen)
{
	/* the range of each field, in order */
	static const struct {
		int64_t lo;
		uint64_t hi;
	} r[WIRE_EVSUM_FIELDS] = {
		{0, (uint64_t)INT64_MAX}, {0, UINT32_MAX}, {0, UINT32_MAX},
		{0, UINT32_MAX}, {0, UINT64_MAX}, {0, UINT64_MAX},
		{0, UINT32_MAX}, {0, 1}, {INT32_MIN, INT32_MAX},
		{0, PVT_EV_KIND_MAX}, {0, UINT32_MAX}, {0, UINT32_MAX},
		{INT32_MIN, INT32_MAX}, {0, 1}, {0, 1}, {0, UINT32_MAX},
		{0, EVSUM_T_MAX}, {-1, EVSUM_T_MAX}, {0, EVSUM_T_MAX},
		{-1, EVSUM_T_MAX}
	};
	int64_t v[WIRE_EVSUM_FIELDS];
	uint32_t i, nf;

	if (o->type != MSGPACK_OBJECT_ARRAY ||
	    o->via.array.size < WIRE_EVSUM_MIN) {
		snprintf(err, errlen, "NODE_EVENTS: the summary is not an "
			 "array of %d integers or more", WIRE_EVSUM_MIN);
		return -1;
	}
	nf = o->via.array.size < WIRE_EVSUM_FIELDS ? o->via.array.size
						   : WIRE_EVSUM_FIELDS;
	v[WIRE_EVSUM_FIELDS - 1] = -1; /* share_ns, when not there */
	for (i = 0; i < nf; i++)
		if (evsum_int(o, i, r[i].lo, r[i].hi, &v[i]) != 0) {
			snprintf(err, errlen, "NODE_EVENTS: summary field %u "
				 "is not an integer in its range", i);
			return -1;
		}
	/* a batch's events number n, and each send, receive or group call
	   is one of them */
	if ((uint64_t)v[1] != n || v[2] > v[1] || v[3] > v[1] ||
	    v[6] > v[1] || (uint64_t)v[0] > (uint64_t)INT64_MAX - n) {
		snprintf(err, errlen, "NODE_EVENTS: the summary counts %lld "
			 "events of a batch of %llu", (long long)v[1],
			 (unsigned long long)n);
		return -1;
	}
	*first = (uint64_t)v[0];
	c->events = (uint64_t)v[1];
	c->sends = (uint64_t)v[2];
	c->recvs = (uint64_t)v[3];
	c->bytes_out = (uint64_t)v[4];
	c->bytes_in = (uint64_t)v[5];
	c->colls = (uint64_t)v[6];
	s->have_tid = (int)v[7];
	s->tid = (int32_t)v[8];
	s->open_kind = (int)v[9];
	s->file = (uint32_t)v[10];
	s->func = (uint32_t)v[11];
	s->line = (int32_t)v[12];
	s->ended = (int)v[13];
	s->mpi = (int)v[14];
	s->prog = (uint32_t)v[15];
	s->t_start_ns = (uint64_t)v[16];
	s->wait_start_ns = -1; /* (not in the summary) */
	s->cpu_wait_ns = v[17];
	s->run_ns = (uint64_t)v[18];
	s->share_ns = v[19];
	return 0;
}
