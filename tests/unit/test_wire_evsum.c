/*
 * test_wire_evsum.c — unit tests of the event fold and the batch summary
 * (wire_evsum.h): a hand-made run of an MPI rank's events gives the
 * counters and the state worked out by hand at every step that changes
 * them; a summary packs and reads back field for field; a summary that
 * is not an array of its integers, has one out of its range, or counts
 * other than its batch's events is refused with a sentence.
 */
#include "unit_util.h"
#include "../wrappers/pvt_event.h"
#include "wire_evsum.h"

/* An event of kind and op at t_ns, line (0: none), peer, result, bytes. */
static wire_ev ut_ev(int kind, int op, uint64_t t_ns, int line, int peer,
		     int result, int64_t bytes)
{
	wire_ev e;

	memset(&e, 0, sizeof e);
	e.kind = (uint16_t)kind;
	e.op = (uint16_t)op;
	e.t_ns = t_ns;
	e.line = line;
	e.file = line > 0 ? 1 : 0;
	e.func = line > 0 ? 2 : 0;
	e.peer = peer;
	e.result = result;
	e.bytes = bytes;
	return e;
}

/* The fold, step by step. */
static void test_fold(void **state)
{
	wire_evcnt c = {0};
	wire_evstate s;
	wire_ev e;

	(void)state;
	wire_evstate_init(&s);
	assert_int_equal(s.cpu_wait_ns, -1);
	e = ut_ev(PVT_EV_PROG_START, 0, 1000, 0, 3, 0, -1);
	e.func = 5; /* the program's name */
	wire_evsum_add(&c, &s, &e);
	assert_true(s.have_tid && s.tid == 3 && s.prog == 5 &&
		    s.t_start_ns == 1000 && s.line == 0);
	e = ut_ev(PVT_EV_SEND_START, PVT_OP_MPI_SEND, 2000, 40, 1, 0, 100);
	wire_evsum_add(&c, &s, &e);
	assert_int_equal(s.open_kind, PVT_EV_SEND_START);
	assert_true(s.mpi && s.line == 40);
	e.kind = PVT_EV_SEND_END;
	wire_evsum_add(&c, &s, &e);
	assert_int_equal(s.open_kind, 0);
	assert_true(c.sends == 1 && c.bytes_out == 100);
	/* a receive that got 50 bytes, a probe, one to MPI_PROC_NULL */
	e = ut_ev(PVT_EV_RECV_START, PVT_OP_MPI_RECV, 3000, 41, -1, 0, -1);
	wire_evsum_add(&c, &s, &e);
	assert_int_equal(s.open_kind, PVT_EV_RECV_START);
	e = ut_ev(PVT_EV_RECV_END, PVT_OP_MPI_RECV, 3500, 41, 1, 0, 50);
	wire_evsum_add(&c, &s, &e);
	e = ut_ev(PVT_EV_RECV_END, PVT_OP_MPI_IPROBE, 3600, 42, 1, 0, 50);
	wire_evsum_add(&c, &s, &e);
	e = ut_ev(PVT_EV_RECV_END, PVT_OP_MPI_RECV, 3700, 43, PVT_PEER_NULL,
		  0, 0);
	wire_evsum_add(&c, &s, &e);
	assert_true(c.recvs == 1 && c.bytes_in == 50 && s.line == 43);
	/* a PVM multicast to two: two sends; a barrier: one group call */
	e = ut_ev(PVT_EV_MCAST_DEST, PVT_OP_PVM_MCAST, 4000, 0, 7, 0, 8);
	wire_evsum_add(&c, &s, &e);
	wire_evsum_add(&c, &s, &e);
	e = ut_ev(PVT_EV_GROUP_END, PVT_OP_MPI_BARRIER, 5000, 44, -1, 0, 0);
	wire_evsum_add(&c, &s, &e);
	assert_true(c.sends == 3 && c.bytes_out == 116 && c.colls == 1);
	/* the end: its wait for a CPU, its run, and the part its daemon
	   charged to paravt (tag, us; -1 none) */
	e = ut_ev(PVT_EV_PROG_EXIT, 0, 9000, 0, -1, 0, 777);
	e.tag = -1;
	wire_evsum_add(&c, &s, &e);
	assert_true(s.ended && s.cpu_wait_ns == 777 && s.run_ns == 8000);
	assert_int_equal(s.share_ns, -1);
	e.tag = 2;
	c.events--;
	wire_evsum_add(&c, &s, &e);
	assert_int_equal(s.share_ns, 2000);
	assert_int_equal(c.events, 11);
	assert_true(s.line == 44 && s.file == 1 && s.func == 2);
	/* a PROG_START that says its wait before it: the wait is the run's */
	wire_evstate_init(&s);
	e = ut_ev(PVT_EV_PROG_START, 0, 1000, 0, 3, 0, 300);
	wire_evsum_add(&c, &s, &e);
	assert_int_equal(s.wait_start_ns, 300);
	e = ut_ev(PVT_EV_PROG_EXIT, 0, 9000, 0, -1, 0, 777);
	wire_evsum_add(&c, &s, &e);
	assert_int_equal(s.cpu_wait_ns, 477);
	/* a counter that went back (not one process): the exit's as it is */
	s.wait_start_ns = 900;
	wire_evsum_add(&c, &s, &e);
	assert_int_equal(s.cpu_wait_ns, 777);
}

/* Packs a summary of first, c, s into sb and unpacks it into u. */
static const msgpack_object *ut_pack(msgpack_sbuffer *sb, msgpack_unpacked *u,
				     uint64_t first, const wire_evcnt *c,
				     const wire_evstate *s)
{
	msgpack_packer pk;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	assert_int_equal(wire_evsum_pack(&pk, first, c, s), 0);
	msgpack_unpacked_init(u);
	assert_int_equal(msgpack_unpack_next(u, sb->data, sb->size, NULL),
			 MSGPACK_UNPACK_SUCCESS);
	return &u->data;
}

/* Asserts that two states are equal field for field (not byte for
 * byte: the padding after prog is anything). */
static void ut_same_state(const wire_evstate *a, const wire_evstate *b)
{
	assert_true(a->have_tid == b->have_tid && a->tid == b->tid &&
		    a->open_kind == b->open_kind && a->file == b->file &&
		    a->func == b->func && a->line == b->line &&
		    a->ended == b->ended && a->mpi == b->mpi &&
		    a->prog == b->prog && a->t_start_ns == b->t_start_ns &&
		    a->cpu_wait_ns == b->cpu_wait_ns &&
		    a->run_ns == b->run_ns && a->share_ns == b->share_ns);
}

/* A summary reads back field for field. */
static void test_roundtrip(void **state)
{
	wire_evcnt c = {9, 4, 3, (uint64_t)1 << 40, 77, 2}, c2;
	wire_evstate s = {1, -7, PVT_EV_GROUP_START, 3, 4, 99, 1, 1, 6,
			  123456789, 4567, 1000, 3000}, s2;
	msgpack_object *o;
	msgpack_sbuffer sb;
	msgpack_unpacked u;
	uint64_t first;
	char err[200];

	(void)state;
	assert_int_equal(wire_evsum_unpack(ut_pack(&sb, &u, 500, &c, &s), 9,
					   &first, &c2, &s2, err,
					   sizeof err), 0);
	assert_int_equal(first, 500);
	assert_memory_equal(&c, &c2, sizeof c);
	ut_same_state(&s, &s2);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	/* a daemon that sent the first 19 fields only: share unknown */
	o = (msgpack_object *)ut_pack(&sb, &u, 500, &c, &s);
	o->via.array.size = WIRE_EVSUM_MIN;
	assert_int_equal(wire_evsum_unpack(o, 9, &first, &c2, &s2, err,
					   sizeof err), 0);
	assert_int_equal(s2.run_ns, 1000);
	assert_int_equal(s2.share_ns, -1);
	o->via.array.size = WIRE_EVSUM_MIN - 1;
	assert_int_equal(wire_evsum_unpack(o, 9, &first, &c2, &s2, err,
					   sizeof err), -1);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
}

/* Refusals, each with its sentence. */
static void test_refusals(void **state)
{
	wire_evcnt c = {4, 1, 1, 10, 10, 0}, c2;
	wire_evstate s, s2;
	msgpack_sbuffer sb;
	msgpack_unpacked u;
	msgpack_object o;
	uint64_t first;
	char err[200];

	(void)state;
	wire_evstate_init(&s);
	/* counts other than the batch's */
	assert_int_equal(wire_evsum_unpack(ut_pack(&sb, &u, 0, &c, &s), 5,
					   &first, &c2, &s2, err,
					   sizeof err), -1);
	assert_non_null(strstr(err, "counts 4 events of a batch of 5"));
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	/* more sends than events */
	c.sends = 5;
	assert_int_equal(wire_evsum_unpack(ut_pack(&sb, &u, 0, &c, &s), 4,
					   &first, &c2, &s2, err,
					   sizeof err), -1);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	/* an open kind past the last kind (field 9) */
	c.sends = 1;
	s.open_kind = PVT_EV_KIND_MAX + 1;
	assert_int_equal(wire_evsum_unpack(ut_pack(&sb, &u, 0, &c, &s), 4,
					   &first, &c2, &s2, err,
					   sizeof err), -1);
	assert_non_null(strstr(err, "summary field 9 is not an integer in "
			       "its range"));
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	/* not an array */
	memset(&o, 0, sizeof o);
	o.type = MSGPACK_OBJECT_POSITIVE_INTEGER;
	assert_int_equal(wire_evsum_unpack(&o, 4, &first, &c2, &s2, err,
					   sizeof err), -1);
	assert_non_null(strstr(err, "not an array of 19 integers or more"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
