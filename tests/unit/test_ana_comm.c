/*
 * test_ana_comm.c — unit tests of the analysis (ana.h) on what real MPI
 * and PVM programs do beyond one communicator and one group:
 *   - a message counts from its send's START: a receive that ends while
 *     the send call is still running is no violation and is not
 *     repaired; one that ends before the send started is;
 *   - messages match per communicator (MPI) or context (PVM): the same
 *     source, destination and tag on two communicators are two FIFOs;
 *   - collective instances are per communicator: barriers on two disjoint
 *     halves and on the whole are told apart, and a rooted collective
 *     waits for its own root only; on an intercommunicator the root
 *     group's other members (MPI_PROC_NULL) take no part;
 *   - a collective's member waits only for the members whose data it
 *     gets: on an intercommunicator the other group (tag), not a member
 *     that contributes no data (bytes 0), nobody when it gets nothing
 *     (an all-to-all's peer MPI_PROC_NULL); a barrier waits for all;
 *   - nonblocking receives and collectives close by request id (ref);
 *   - MPI_PROC_NULL moves no message;
 *   - pvm_mcast's destinations (MCAST_DEST) are its channels' sends;
 *   - PVM group roots are instances of the named group.
 * Traces are built by hand; MPI ranks are process indices, PVM tids
 * 0x40001 + index.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ana.h"
#include "../../wrappers/pvt_event.h"

#define TID(p) ((int32_t)(0x40001 + (p)))
#define COMM_A 0x1234u
#define COMM_B 0x5678u

/* The event being built: everything but kind, op and time. */
typedef struct ut_what {
	int32_t peer, tag, result, aux;
	uint32_t comm, ref;
} ut_what;

/* Appends an event to process p; returns its index. */
static uint32_t ut_add(ana_trace *tr, uint32_t p, uint16_t kind, uint16_t op,
		       int64_t t, ut_what w)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = t;
	e.kind = kind;
	e.op = op;
	e.bytes = 8;
	e.peer = w.peer;
	e.tag = w.tag;
	e.result = w.result;
	e.aux = w.aux;
	e.comm = w.comm;
	e.ref = w.ref;
	e.seq = tr->procs[p].nev;
	assert_int_equal(ana_add_event(tr, p, &e), 0);
	return tr->procs[p].nev - 1;
}

/* A trace of n processes with PROG_START at 0 (peer: rank or tid). */
static ana_trace *ut_trace(uint32_t n, int pvm)
{
	ana_trace *tr = ana_new();
	char name[ANA_NAME_MAX];
	uint32_t i;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "linux-x86_64", NULL), 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "p%u", i);
		assert_int_equal(ana_add_proc(tr, name, 0), (int)i);
		ut_add(tr, i, PVT_EV_PROG_START, PVT_OP_NONE, 0,
		       (ut_what){pvm ? TID(i) : (int32_t)i, -1, 0, 2, 0, 0});
	}
	return tr;
}

/* MPI_Send from p to q on comm at t0..t1; the END's index. */
static uint32_t ut_send(ana_trace *tr, uint32_t p, int64_t t0, int64_t t1,
			uint32_t q, int32_t tag, uint32_t comm)
{
	ut_what w = {(int32_t)q, tag, 0, 0, comm, 0};

	ut_add(tr, p, PVT_EV_SEND_START, PVT_OP_MPI_SEND, t0, w);
	return ut_add(tr, p, PVT_EV_SEND_END, PVT_OP_MPI_SEND, t1, w);
}

/* MPI_Recv by p from q on comm at t0..t1; the END's index. */
static uint32_t ut_recv(ana_trace *tr, uint32_t p, int64_t t0, int64_t t1,
			uint32_t q, int32_t tag, uint32_t comm)
{
	ut_what w = {(int32_t)q, tag, 0, 0, comm, 0};

	ut_add(tr, p, PVT_EV_RECV_START, PVT_OP_MPI_RECV, t0, w);
	return ut_add(tr, p, PVT_EV_RECV_END, PVT_OP_MPI_RECV, t1, w);
}

/* A collective op by p on comm (root: world rank or -1) at t0..t1. */
static uint32_t ut_coll(ana_trace *tr, uint32_t p, uint16_t op, int64_t t0,
			int64_t t1, int32_t root, uint32_t comm)
{
	ut_what w = {root, -1, 0, 2, comm, 0};

	ut_add(tr, p, PVT_EV_GROUP_START, op, t0, w);
	return ut_add(tr, p, PVT_EV_GROUP_END, op, t1, w);
}

static ana_ev *ut_get(ana_trace *tr, uint32_t p, uint32_t i)
{
	return &tr->procs[p].ev[i];
}

static ana_opts ut_opts(int64_t l)
{
	ana_opts o;

	ana_opts_default(&o);
	o.l_min_ns = l;
	return o;
}

/* A rendezvous: the receive ends (300) before the send call returns
 * (400) but after it started (100): matched, no violation, no repair,
 * also with the latency estimated from the run (then 200). */
static void test_send_start_ok(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(-1);
	uint32_t s, r;

	s = ut_send(tr, 0, 100, 400, 1, 5, 0);
	r = ut_recv(tr, 1, 50, 300, 0, 5, 0);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(ut_get(tr, 1, r)->match.proc, 0);
	assert_int_equal(ut_get(tr, 1, r)->match.idx, s);
	assert_int_equal(tr->sum.violations, 0);
	assert_int_equal(tr->sum.repairs, 0);
	assert_int_equal(tr->sum.l_min_ns, 200);
	assert_true(ut_get(tr, 1, r)->c_ns >= ut_get(tr, 0, s - 1)->c_ns);
	ana_free(tr);
}

/* A receive that ends (90) before its send started (100) is a violation
 * and is repaired to 100 + l. */
static void test_send_start_violation(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(10);
	uint32_t r;

	ut_send(tr, 0, 100, 400, 1, 5, 0);
	r = ut_recv(tr, 1, 50, 90, 0, 5, 0);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.violations, 1);
	assert_int_equal(ut_get(tr, 1, r)->o_ns, 110);
	ana_free(tr);
}

/* p0 sends tag 1 to p1 on comm A, then on comm B; p1 receives on B first,
 * then on A.  Per communicator each is first of its FIFO. */
static void test_match_per_comm(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	uint32_t sa, sb, rb, ra;

	sa = ut_send(tr, 0, 100, 110, 1, 1, COMM_A);
	sb = ut_send(tr, 0, 200, 210, 1, 1, COMM_B);
	rb = ut_recv(tr, 1, 150, 250, 0, 1, COMM_B);
	ra = ut_recv(tr, 1, 260, 270, 0, 1, COMM_A);
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.pairs, 2);
	assert_int_equal(tr->sum.unmatched_sends, 0);
	assert_int_equal(ut_get(tr, 1, rb)->match.idx, sb);
	assert_int_equal(ut_get(tr, 1, ra)->match.idx, sa);
	ana_free(tr);
}

/* Four ranks: {0,1} barrier twice on A, {2,3} once on B, then everyone
 * on the world.  Keyed by op alone, the first barrier of every rank would
 * be one instance; per communicator there are four instances, and the
 * world barrier's members are p0's and p1's third, p2's and p3's second.
 * On one clock nothing is repaired. */
static void test_groups_per_comm(void **state)
{
	ana_trace *tr = ut_trace(4, 0);
	ana_opts o = ut_opts(-1);
	uint32_t w[4], p;

	for (p = 0; p < 2; p++) {
		ut_coll(tr, p, PVT_OP_MPI_BARRIER, 100, 200, -1, COMM_A);
		ut_coll(tr, p, PVT_OP_MPI_BARRIER, 300, 400, -1, COMM_A);
	}
	for (p = 2; p < 4; p++)
		ut_coll(tr, p, PVT_OP_MPI_BARRIER, 1000, 1100, -1, COMM_B);
	for (p = 0; p < 4; p++)
		w[p] = ut_coll(tr, p, PVT_OP_MPI_BARRIER, 2000 + 10 * p, 2100,
			       -1, 0);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.groups, 4);
	assert_int_equal(tr->sum.repairs, 0);
	assert_int_equal(tr->sum.violations, 0);
	/* the world instance is one ring of the four world ENDs */
	for (p = 0; p < 4; p++) {
		ana_ev *e = ut_get(tr, p, w[p]);

		assert_int_equal(e->match.idx, w[(e->match.proc)]);
	}
	ana_free(tr);
}

/* A broadcast rooted at rank 2 on comm B ({2,3}) while ranks 0 and 1
 * broadcast from 0 on A: rank 3 (START 50) waits for rank 2's START
 * (500), not for rank 0's; ranks whose measured times respect their own
 * root need no repair. */
static void test_rooted_per_comm(void **state)
{
	ana_trace *tr = ut_trace(4, 0);
	ana_opts o = ut_opts(-1);
	uint32_t e3;

	ut_coll(tr, 0, PVT_OP_MPI_BCAST, 10, 20, 0, COMM_A);
	ut_coll(tr, 1, PVT_OP_MPI_BCAST, 5, 30, 0, COMM_A);
	ut_coll(tr, 2, PVT_OP_MPI_BCAST, 500, 510, 2, COMM_B);
	e3 = ut_coll(tr, 3, PVT_OP_MPI_BCAST, 50, 520, 2, COMM_B);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.groups, 2);
	assert_int_equal(tr->sum.repairs, 0);
	assert_int_equal(ut_get(tr, 3, e3)->match.proc, 2);
	ana_free(tr);
}

/* MPI_Bcast on an intercommunicator: rank 0 is the root (MPI_ROOT: its
 * own rank), rank 1 the other member of the root group (MPI_PROC_NULL:
 * it takes no part and returns at once, at 20, before the root starts),
 * ranks 2 and 3 receive from rank 0.  Nobody waits for rank 1: nothing
 * is repaired; the receivers wait for the root only. */
static void test_intercomm_bcast(void **state)
{
	ana_trace *tr = ut_trace(4, 0);
	ana_opts o = ut_opts(-1);

	ut_coll(tr, 0, PVT_OP_MPI_BCAST, 100, 110, 0, COMM_A);
	ut_coll(tr, 1, PVT_OP_MPI_BCAST, 10, 20, PVT_PEER_NULL, COMM_A);
	ut_coll(tr, 2, PVT_OP_MPI_BCAST, 50, 130, 0, COMM_A);
	ut_coll(tr, 3, PVT_OP_MPI_BCAST, 60, 140, 0, COMM_A);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.groups, 1);
	assert_int_equal(tr->sum.repairs, 0);
	assert_int_equal(tr->sum.l_group_ns, 30);
	ana_free(tr);
}

/* A collective op by p on comm at t0..t1 with tag (an intercommunicator's
 * group, or -1) and bytes, peer -1 or peer. */
static uint32_t ut_coll_tb(ana_trace *tr, uint32_t p, uint16_t op,
			   int64_t t0, int64_t t1, int32_t peer, int32_t tag,
			   int64_t bytes)
{
	ut_what w = {peer, tag, 0, 2, COMM_A, 0};
	uint32_t i;

	ut_add(tr, p, PVT_EV_GROUP_START, op, t0, w);
	i = ut_add(tr, p, PVT_EV_GROUP_END, op, t1, w);
	ut_get(tr, p, i - 1)->bytes = bytes;
	ut_get(tr, p, i)->bytes = bytes;
	return i;
}

/* MPI_Allgather on an intercommunicator of {0,1} (tag 0) and {2,3} (tag
 * 1): rank 1 starts late (500); rank 0 ends at 200, after {2,3} started
 * (100) but before rank 1: it needs {2,3}'s data only, so nothing is
 * repaired.  The same with rank 2 ending at 300, before rank 1 of the
 * other group started: a real violation, repaired. */
static void test_intercomm_allgather(void **state)
{
	int64_t end2;

	for (end2 = 600; end2 >= 300; end2 -= 300) {
		ana_trace *tr = ut_trace(4, 0);
		ana_opts o = ut_opts(0);

		ut_coll_tb(tr, 0, PVT_OP_MPI_ALLGATHER, 50, 200, -1, 0, 8);
		ut_coll_tb(tr, 1, PVT_OP_MPI_ALLGATHER, 500, 650, -1, 0, 8);
		ut_coll_tb(tr, 2, PVT_OP_MPI_ALLGATHER, 100, end2, -1, 1, 8);
		ut_coll_tb(tr, 3, PVT_OP_MPI_ALLGATHER, 100, 640, -1, 1, 8);
		assert_int_equal(ana_analyze(tr, &o), 0);
		assert_int_equal(tr->sum.groups, 1);
		if (end2 == 600)
			assert_int_equal(tr->sum.repairs, 0);
		else
			assert_true(tr->sum.repairs > 0);
		ana_free(tr);
	}
	(void)state;
}

/* MPI_Gather to rank 0 and MPI_Allgather in which the late rank 3
 * (START 500) contributes nothing (bytes 0): the root and the others end
 * before it started, and nobody needs its data: no repair.  With 8 bytes
 * from rank 3 the same times are a violation.  A barrier (bytes -1)
 * always waits for everyone. */
static void test_zero_contribution(void **state)
{
	static const uint16_t ops[] = {PVT_OP_MPI_GATHER, PVT_OP_MPI_ALLGATHER,
				       PVT_OP_MPI_BARRIER};
	int64_t b3;
	unsigned k;
	uint32_t p;

	for (k = 0; k < 3; k++)
		for (b3 = 0; b3 <= 8; b3 += 8) {
			ana_trace *tr = ut_trace(4, 0);
			ana_opts o = ut_opts(0);
			int32_t root = ops[k] == PVT_OP_MPI_GATHER ? 0 : -1;
			int64_t b = ops[k] == PVT_OP_MPI_BARRIER ? -1 : 8;

			for (p = 0; p < 3; p++)
				ut_coll_tb(tr, p, ops[k], 10 + 10 * p, 100, root,
					   -1, b);
			ut_coll_tb(tr, 3, ops[k], 500, 600, root, -1,
				   ops[k] == PVT_OP_MPI_BARRIER ? -1 : b3);
			assert_int_equal(ana_analyze(tr, &o), 0);
			if (b3 == 0 && ops[k] != PVT_OP_MPI_BARRIER)
				assert_int_equal(tr->sum.repairs, 0);
			else
				assert_true(tr->sum.repairs > 0);
			ana_free(tr);
		}
	(void)state;
}

/* MPI_Alltoallv in which rank 0 receives nothing (peer MPI_PROC_NULL):
 * it ends at 100, before the late rank 3 starts (500), with no repair;
 * rank 1, which receives, ending at 100 too is a violation. */
static void test_alltoallv_gets_nothing(void **state)
{
	int32_t peer1;

	for (peer1 = PVT_PEER_NULL; peer1 <= -1; peer1++) {
		ana_trace *tr = ut_trace(4, 0);
		ana_opts o = ut_opts(0);

		ut_coll_tb(tr, 0, PVT_OP_MPI_ALLTOALLV, 10, 100, PVT_PEER_NULL,
			   -1, 24);
		ut_coll_tb(tr, 1, PVT_OP_MPI_ALLTOALLV, 10, 100, peer1, -1, 24);
		ut_coll_tb(tr, 2, PVT_OP_MPI_ALLTOALLV, 10, 600, -1, -1, 24);
		ut_coll_tb(tr, 3, PVT_OP_MPI_ALLTOALLV, 500, 600, -1, -1, 24);
		assert_int_equal(ana_analyze(tr, &o), 0);
		if (peer1 == PVT_PEER_NULL)
			assert_int_equal(tr->sum.repairs, 0);
		else
			assert_true(tr->sum.repairs > 0);
		ana_free(tr);
	}
	(void)state;
}

/* MPI_Irecv (ref 7) completed inside MPI_Waitall with another request
 * (ref 8, an Ibarrier): each END closes the START with its ref, the
 * receive matches the send. */
static void test_nonblocking_refs(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(-1);
	ut_what rq = {0, 3, 0, 0, 0, 7}, bq = {-1, -1, 0, 2, 0, 8};
	ut_what wt = {-1, -1, 0, 2, 0, 0};
	uint32_t r, b, s;

	ut_add(tr, 1, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, 100, rq);
	ut_add(tr, 1, PVT_EV_GROUP_START, PVT_OP_MPI_IBARRIER, 110, bq);
	ut_add(tr, 1, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAITALL, 120, wt);
	b = ut_add(tr, 1, PVT_EV_GROUP_END, PVT_OP_MPI_IBARRIER, 400, bq);
	r = ut_add(tr, 1, PVT_EV_RECV_END, PVT_OP_MPI_IRECV, 401, rq);
	ut_add(tr, 1, PVT_EV_SPECIAL_END, PVT_OP_MPI_WAITALL, 402, wt);
	s = ut_send(tr, 0, 200, 210, 1, 3, 0);
	bq.ref = 1;
	ut_add(tr, 0, PVT_EV_GROUP_START, PVT_OP_MPI_IBARRIER, 300, bq);
	ut_add(tr, 0, PVT_EV_GROUP_END, PVT_OP_MPI_IBARRIER, 350, bq);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.pairs, 1);
	assert_int_equal(tr->sum.groups, 1);
	assert_int_equal(ut_get(tr, 1, r)->match.idx, s);
	assert_false(ut_get(tr, 1, 1)->flags & ANA_F_OPEN);
	assert_false(ut_get(tr, 1, 2)->flags & ANA_F_OPEN);
	assert_int_equal(ut_get(tr, 1, b)->match.proc, 0);
	assert_int_equal(tr->sum.repairs, 0);
	ana_free(tr);
}

/* Sends and receives on MPI_PROC_NULL are neither matched nor
 * unmatched. */
static void test_proc_null(void **state)
{
	ana_trace *tr = ut_trace(1, 0);

	ut_add(tr, 0, PVT_EV_SEND_START, PVT_OP_MPI_SEND, 10,
	       (ut_what){PVT_PEER_NULL, 1, 0, 0, 0, 0});
	ut_add(tr, 0, PVT_EV_SEND_END, PVT_OP_MPI_SEND, 20,
	       (ut_what){PVT_PEER_NULL, 1, 0, 0, 0, 0});
	ut_add(tr, 0, PVT_EV_RECV_START, PVT_OP_MPI_RECV, 30,
	       (ut_what){PVT_PEER_NULL, 1, 0, 0, 0, 0});
	ut_add(tr, 0, PVT_EV_RECV_END, PVT_OP_MPI_RECV, 40,
	       (ut_what){PVT_PEER_NULL, -1, 0, 1, 0, 0});
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.pairs, 0);
	assert_int_equal(tr->sum.unmatched_sends, 0);
	assert_int_equal(tr->sum.unmatched_recvs, 0);
	ana_free(tr);
}

/* pvm_mcast from p0 to p2 then p1 (two MCAST_DEST records); p1 and p2
 * each receive it, p2 also a later pvm_send of the same tag.  Every
 * receive matches its own send; no multicast heuristic is used. */
static void test_mcast_dests(void **state)
{
	ana_trace *tr = ut_trace(3, 1);
	ut_what m = {-1, 4, 0, 2, 0, 0}, d;
	uint32_t d2, d1, s, r1, r2a, r2b;

	ut_add(tr, 0, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, 100, m);
	ut_add(tr, 0, PVT_EV_MCAST_END, PVT_OP_PVM_MCAST, 110, m);
	d = m;
	d.peer = TID(2);
	d2 = ut_add(tr, 0, PVT_EV_MCAST_DEST, PVT_OP_PVM_MCAST, 111, d);
	d.peer = TID(1);
	d1 = ut_add(tr, 0, PVT_EV_MCAST_DEST, PVT_OP_PVM_MCAST, 112, d);
	d.peer = TID(2);
	ut_add(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 200, d);
	s = ut_add(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 210, d);
	d.result = 5;
	d.peer = TID(0);
	ut_add(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 50, d);
	r1 = ut_add(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 150, d);
	ut_add(tr, 2, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 50, d);
	r2a = ut_add(tr, 2, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 150, d);
	ut_add(tr, 2, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 160, d);
	r2b = ut_add(tr, 2, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 250, d);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	assert_int_equal(tr->sum.pairs, 3);
	assert_int_equal(tr->sum.mcast_pairs, 0);
	assert_int_equal(tr->sum.unmatched_sends, 0);
	assert_int_equal(ut_get(tr, 1, r1)->match.idx, d1);
	assert_int_equal(ut_get(tr, 2, r2a)->match.idx, d2);
	assert_int_equal(ut_get(tr, 2, r2b)->match.idx, s);
	assert_int_equal(tr->sum.repairs, 0);
	ana_free(tr);
}

/* PVM: two groups; pvm_reduce in group "g" (ref 3) rooted at instance 0,
 * which is p1 there (p0 is instance 0 of group "h", ref 4).  The root of
 * the reduce is p1: it waits for everyone, p0 does not. */
static void test_pvm_group_root(void **state)
{
	ana_trace *tr = ut_trace(2, 1);
	ana_opts o = ut_opts(1);
	ut_what j = {-1, -1, 0, 0, 0, 4}, r = {0, 9, 0, 0, 0, 3};
	uint32_t e0, e1;

	j.result = 0;
	ut_add(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_JOINGROUP, 10, j);
	ut_add(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_JOINGROUP, 11, j);
	j.ref = 3;
	j.result = 1;
	ut_add(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_JOINGROUP, 12, j);
	ut_add(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_JOINGROUP, 13, j);
	j.result = 0;
	ut_add(tr, 1, PVT_EV_GROUP_START, PVT_OP_PVM_JOINGROUP, 10, j);
	ut_add(tr, 1, PVT_EV_GROUP_END, PVT_OP_PVM_JOINGROUP, 11, j);
	ut_add(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_REDUCE, 500, r);
	e0 = ut_add(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_REDUCE, 510, r);
	ut_add(tr, 1, PVT_EV_GROUP_START, PVT_OP_PVM_REDUCE, 100, r);
	e1 = ut_add(tr, 1, PVT_EV_GROUP_END, PVT_OP_PVM_REDUCE, 200, r);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.groups, 1);
	/* the root (p1) ended at 200, before p0 started (500): repaired */
	assert_int_equal(ut_get(tr, 1, e1)->o_ns, 501);
	assert_int_equal(ut_get(tr, 0, e0)->o_ns, 510);
	ana_free(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send_start_ok),
		cmocka_unit_test(test_send_start_violation),
		cmocka_unit_test(test_match_per_comm),
		cmocka_unit_test(test_groups_per_comm),
		cmocka_unit_test(test_rooted_per_comm),
		cmocka_unit_test(test_intercomm_bcast),
		cmocka_unit_test(test_intercomm_allgather),
		cmocka_unit_test(test_zero_contribution),
		cmocka_unit_test(test_alltoallv_gets_nothing),
		cmocka_unit_test(test_nonblocking_refs),
		cmocka_unit_test(test_proc_null),
		cmocka_unit_test(test_mcast_dests),
		cmocka_unit_test(test_pvm_group_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
