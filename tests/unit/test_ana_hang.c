/*
 * test_ana_hang.c — unit tests of the wait-for graph and deadlock
 * detection (ana_hang.h) on traces built by hand: a 2-cycle and a
 * 3-cycle of receives, a wildcard receive that a live task can still
 * release, a receive from a task that exited (a hang, not a deadlock), a
 * barrier that waits for a member, a task held by a deadlock it is not
 * part of, timed and non-blocking receives, MPI_Wait on posted receives,
 * messages sent and not yet received, and the report's lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ana.h"
#include "ana_hang.h"
#include "../../wrappers/pvt_event.h"

#define UT_TID(p) ((int32_t)(0x40001 + (p))) /* tid of process index p */

/* A trace with one node and n processes p1..pn, each started (its
 * PROG_START gives it tid UT_TID(index)); source file "dl.c". */
static ana_trace *ut_trace(uint32_t n)
{
	ana_trace *tr = ana_new();
	char name[ANA_NAME_MAX];
	ana_ev e;
	uint32_t i;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "linux-x86_64", NULL), 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "p%u", i + 1);
		assert_int_equal(ana_add_proc(tr, name, 0), (int)i);
		memset(&e, 0, sizeof e);
		e.kind = PVT_EV_PROG_START;
		e.peer = UT_TID(i);
		e.tag = -1;
		assert_int_equal(ana_add_event(tr, i, &e), 0);
	}
	return tr;
}

/* Appends an event of kind/op with peer (a process index, or -1), tag,
 * aux and source line to process p. */
static void ut_ev(ana_trace *tr, uint32_t p, uint16_t kind, uint16_t op,
		  int32_t peer, int32_t tag, int32_t aux, int32_t line)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = (int64_t)tr->procs[p].nev * 1000;
	e.kind = kind;
	e.op = op;
	e.peer = peer < 0 ? -1 : UT_TID(peer);
	e.tag = tag;
	e.aux = aux;
	e.line = line;
	e.file = ana_intern(tr, "dl.c");
	e.func = ana_intern(tr, "main");
	e.seq = tr->procs[p].nev;
	assert_int_equal(ana_add_event(tr, p, &e), 0);
}

/* p blocks in pvm_recv from process peer (-1: any) with tag at line. */
static void ut_recv(ana_trace *tr, uint32_t p, int32_t peer, int32_t tag,
		    int32_t line)
{
	ut_ev(tr, p, PVT_EV_RECV_START, PVT_OP_PVM_RECV, peer, tag, 0, line);
}

/* p exits. */
static void ut_exit(ana_trace *tr, uint32_t p)
{
	ut_ev(tr, p, PVT_EV_PROG_EXIT, PVT_OP_NONE, -1, -1, 0, 0);
}

/* The report of h into a static buffer. */
static const char *ut_text(const ana_trace *tr, const ana_hang *h)
{
	static char buf[4096];

	ana_hang_text(tr, h, buf, sizeof buf);
	return buf;
}

/* p1 receives from p2 first, p2 from p1: a deadlock named as a 2-cycle
 * with both lines. */
static void test_two_cycle(void **state)
{
	ana_trace *tr = ut_trace(2);
	ana_hang h;
	const char *t;

	ut_recv(tr, 0, 1, 1, 21);
	ut_recv(tr, 1, 0, 2, 30);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.nblocked, 2);
	assert_true(h.deadlock);
	assert_int_equal(h.ncycle, 2);
	assert_true(h.p[0].deadlocked && h.p[1].deadlocked);
	assert_int_equal(h.p[0].nwaits, 1);
	assert_int_equal(h.p[0].waits[0], 1);
	assert_int_equal(h.p[0].want_tid, UT_TID(1));
	assert_int_equal(h.p[0].want_tag, 1);
	t = ut_text(tr, &h);
	assert_non_null(strstr(t, "deadlock: p1 and p2 wait for each other\n"));
	assert_non_null(strstr(t, "  p1 (t40001) pvm_recv from p2 tag 1 at "
				  "dl.c:21 in main\n"));
	assert_non_null(strstr(t, "  p2 (t40002) pvm_recv from p1 tag 2 at "
				  "dl.c:30 in main\n"));
	ana_hang_free(&h);
	ana_hang_free(&h); /* twice is harmless */
	ana_free(tr);
}

/* p1 -> p2 -> p3 -> p1; p4 computes, p5 waits for p1 (held by the
 * deadlock, not on the cycle). */
static void test_three_cycle(void **state)
{
	ana_trace *tr = ut_trace(5);
	ana_hang h;
	const char *t;

	ut_recv(tr, 0, 1, 7, 10);
	ut_recv(tr, 1, 2, 7, 11);
	ut_recv(tr, 2, 0, 7, 12);
	ut_recv(tr, 4, 0, 9, 14);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_true(h.deadlock);
	assert_int_equal(h.ncycle, 3);
	assert_int_equal(h.cycle[0], 0);
	assert_int_equal(h.cycle[1], 1);
	assert_int_equal(h.cycle[2], 2);
	assert_int_equal(h.p[3].state, ANA_HANG_RUNNING);
	assert_false(h.p[3].deadlocked);
	assert_true(h.p[4].deadlocked);
	t = ut_text(tr, &h);
	assert_non_null(strstr(t, "deadlock: p1 waits for p2, p2 waits for "
				  "p3, p3 waits for p1\n"));
	assert_non_null(strstr(t, "held by the deadlock"));
	assert_non_null(strstr(t, "p5 (t40005) pvm_recv from p1 tag 9 at "
				  "dl.c:14"));
	ana_hang_free(&h);
	ana_free(tr);
}

/* p1 receives from any task; p2 receives from p1 but p3 computes: p3 may
 * still send to p1, so nothing is deadlocked.  Once p3 blocks on p2
 * too, the three are. */
static void test_wildcard(void **state)
{
	ana_trace *tr = ut_trace(3);
	ana_hang h;
	const char *t;

	ut_recv(tr, 0, -1, -1, 40);
	ut_recv(tr, 1, 0, 3, 41);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_false(h.deadlock);
	assert_int_equal(h.p[0].join, ANA_HANG_ANY);
	assert_int_equal(h.p[0].nwaits, 2);
	assert_false(h.p[0].stuck);
	assert_false(h.p[1].stuck);
	t = ut_text(tr, &h);
	assert_null(strstr(t, "deadlock:"));
	assert_non_null(strstr(t, "waiting (no deadlock):\n"));
	assert_non_null(strstr(t, "p1 (t40001) pvm_recv from any task any "
				  "tag at dl.c:40 in main\n"));
	ana_hang_free(&h);
	ut_recv(tr, 2, 1, 3, 42);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_true(h.deadlock);
	assert_true(h.p[0].deadlocked && h.p[1].deadlocked &&
		    h.p[2].deadlocked);
	ana_hang_free(&h);
	ana_free(tr);
}

/* p2 receives from p3, which exited: stuck for good, but a hang, not a
 * deadlock.  p1 waiting for p2 is stuck with it. */
static void test_ended_peer(void **state)
{
	ana_trace *tr = ut_trace(3);
	ana_hang h;
	const char *t;

	ut_exit(tr, 2);
	ut_recv(tr, 1, 2, 5, 50);
	ut_recv(tr, 0, 1, 5, 51);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.nended, 1);
	assert_int_equal(h.p[2].state, ANA_HANG_ENDED);
	assert_false(h.deadlock);
	assert_null(h.cycle);
	assert_true(h.p[1].stuck && h.p[0].stuck);
	t = ut_text(tr, &h);
	assert_null(strstr(t, "deadlock"));
	assert_non_null(strstr(t, "hang: p2 waits for p3 which has exited\n"));
	assert_non_null(strstr(t, "hang: p1 waits for p2 which never "
				  "returns\n"));
	assert_non_null(strstr(t, "pvm_recv from p3 (exited) tag 5 at "
				  "dl.c:50"));
	ana_hang_free(&h);
	ana_free(tr);
}

/* A wildcard receive with every other task exited: stuck, no deadlock. */
static void test_wildcard_alone(void **state)
{
	ana_trace *tr = ut_trace(2);
	ana_hang h;

	ut_exit(tr, 1);
	ut_recv(tr, 0, -1, -1, 60);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_true(h.p[0].stuck);
	assert_false(h.deadlock);
	assert_non_null(strstr(ut_text(tr, &h), "hang: p1 waits for any "
				  "task and none is left\n"));
	ana_hang_free(&h);
	ana_free(tr);
}

/* Three members joined a group; p1 and p2 are in barrier instance 0, p3
 * is not there: with p3 computing they wait; with p3 blocked on p1 it is
 * a deadlock (p1 waits for p3, p3 for p1); with p3 exited a hang.  p4
 * never joined and is not waited for. */
static void test_barrier(void **state)
{
	ana_trace *tr = ut_trace(4);
	ana_hang h;
	uint32_t i;

	for (i = 0; i < 3; i++) {
		ut_ev(tr, i, PVT_EV_GROUP_START, PVT_OP_PVM_JOINGROUP, -1, -1,
		      0, 5);
		ut_ev(tr, i, PVT_EV_GROUP_END, PVT_OP_PVM_JOINGROUP, -1, -1,
		      0, 5);
	}
	ut_recv(tr, 3, 0, 1, 80);
	for (i = 0; i < 2; i++)
		ut_ev(tr, i, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, -1, -1,
		      3, 70);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.p[0].nwaits, 1);
	assert_int_equal(h.p[0].waits[0], 2);
	assert_int_equal(h.p[0].join, ANA_HANG_ALL);
	assert_false(h.deadlock);
	assert_false(h.p[0].stuck);
	assert_non_null(strstr(ut_text(tr, &h), "p1 (t40001) pvm_barrier "
				  "waiting for p3 at dl.c:70 in main\n"));
	ana_hang_free(&h);
	ut_recv(tr, 2, 0, 4, 71);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_true(h.deadlock);
	assert_true(h.p[0].deadlocked && h.p[1].deadlocked &&
		    h.p[2].deadlocked && h.p[3].deadlocked);
	assert_int_equal(h.ncycle, 2);
	assert_non_null(strstr(ut_text(tr, &h), "deadlock: p1 and p3 wait "
				  "for each other\n"));
	ana_hang_free(&h);
	ut_ev(tr, 2, PVT_EV_CRASH, PVT_OP_RT_SIGNAL, -1, -1, 11, 71);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_false(h.deadlock);
	assert_true(h.p[0].stuck && h.p[1].stuck);
	assert_non_null(strstr(ut_text(tr, &h), "hang: p1 waits for p3 which "
				  "has exited\n"));
	ana_hang_free(&h);
	ana_free(tr);
}

/* A member that has passed the instance is not waited for: p2 finished
 * barrier 0 and blocks in barrier 1 while p1 is still in barrier 0. */
static void test_barrier_instances(void **state)
{
	ana_trace *tr = ut_trace(2);
	ana_hang h;

	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_MPI_BARRIER, -1, -1, 2, 9);
	ut_ev(tr, 1, PVT_EV_GROUP_END, PVT_OP_MPI_BARRIER, -1, -1, 2, 9);
	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_MPI_BARRIER, -1, -1, 2, 9);
	ut_ev(tr, 0, PVT_EV_GROUP_START, PVT_OP_MPI_BARRIER, -1, -1, 2, 8);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.p[0].nwaits, 0); /* p2 reached instance 0 */
	assert_int_equal(h.p[1].nwaits, 1);
	assert_int_equal(h.p[1].waits[0], 0);
	assert_false(h.deadlock);
	assert_false(h.p[0].stuck || h.p[1].stuck);
	assert_non_null(strstr(ut_text(tr, &h), "p1 (rank 262145) MPI_Barrier "
				  "at dl.c:8 in main\n"));
	ana_hang_free(&h);
	ana_free(tr);
}

/* Not blocked: pvm_nrecv, pvm_probe, a breakpoint stop, nothing yet.
 * A pvm_trecv with a timeout waits but returns by itself. */
static void test_not_blocked(void **state)
{
	ana_trace *tr = ut_trace(5);
	ana_hang h;

	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_PVM_NRECV, 1, 1, 0, 1);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_PROBE, 0, 1, 0, 2);
	ut_ev(tr, 2, PVT_EV_BREAK_START, PVT_OP_RT_BREAK, -1, -1, 1, 3);
	ut_ev(tr, 4, PVT_EV_RECV_START, PVT_OP_PVM_TRECV, 4, 1, 500, 4);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.nblocked, 1);
	assert_int_equal(h.p[4].state, ANA_HANG_BLOCKED);
	assert_int_equal(h.p[4].join, ANA_HANG_TIMED);
	assert_false(h.p[4].stuck); /* waits for itself, but times out */
	assert_false(h.deadlock);
	ana_hang_free(&h);
	ana_free(tr);
	tr = ut_trace(0);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_string_equal(ut_text(tr, &h), "no process is blocked\n");
	ana_hang_free(&h);
	ana_free(tr);
	assert_int_equal(ana_hang_compute(NULL, &h), ANA_EARG);
}

/* A receive from oneself is a deadlock of one; a receive from a tid
 * that is no traced process is assumed able to come. */
static void test_self_and_unknown(void **state)
{
	ana_trace *tr = ut_trace(2);
	ana_hang h;
	ana_ev e;

	ut_recv(tr, 0, 0, 1, 90);
	memset(&e, 0, sizeof e);
	e.kind = PVT_EV_RECV_START;
	e.op = PVT_OP_PVM_RECV;
	e.peer = 0x7777;
	e.seq = 1;
	assert_int_equal(ana_add_event(tr, 1, &e), 0);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_true(h.deadlock);
	assert_int_equal(h.ncycle, 1);
	assert_false(h.p[1].stuck);
	assert_non_null(strstr(ut_text(tr, &h), "deadlock: p1 waits for "
				  "itself\n"));
	assert_non_null(strstr(ut_text(tr, &h), "from t7777 (none of its "
				  "events has arrived: it computes, or is "
				  "not traced)"));
	ana_hang_free(&h);
	ana_free(tr);
}

/* MPI (issue 11): rank 1 receives from rank 0, which computes (its
 * events have not arrived): it waits, is not stuck, and the report names
 * rank 0 as a rank, never "t0"; a rank whose last event is an END is
 * computing, not blocked. */
static void test_mpi_rank_computing(void **state)
{
	ana_trace *tr = ana_new();
	ana_hang h;
	ana_ev e;
	const char *t;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "linux-x86_64", NULL), 0);
	assert_int_equal(ana_add_proc(tr, "p3", 0), 0);
	assert_int_equal(ana_add_proc(tr, "p2", 0), 1);
	memset(&e, 0, sizeof e);
	e.kind = PVT_EV_PROG_START;
	e.peer = 1; /* rank 1 */
	assert_int_equal(ana_add_event(tr, 0, &e), 0);
	e.kind = PVT_EV_SPECIAL_START;
	e.op = PVT_OP_MPI_INIT;
	e.seq = 1;
	assert_int_equal(ana_add_event(tr, 0, &e), 0);
	e.kind = PVT_EV_SPECIAL_END;
	e.seq = 2;
	assert_int_equal(ana_add_event(tr, 0, &e), 0);
	e.kind = PVT_EV_RECV_START;
	e.op = PVT_OP_MPI_RECV;
	e.peer = 0; /* from rank 0 */
	e.tag = 3;
	e.line = 13;
	e.seq = 3;
	assert_int_equal(ana_add_event(tr, 0, &e), 0);
	/* p2 is rank 0 with only MPI_Init's END so far: computing */
	memset(&e, 0, sizeof e);
	e.kind = PVT_EV_PROG_START;
	e.peer = 0;
	assert_int_equal(ana_add_event(tr, 1, &e), 0);
	e.kind = PVT_EV_SPECIAL_START;
	e.op = PVT_OP_MPI_INIT;
	e.seq = 1;
	assert_int_equal(ana_add_event(tr, 1, &e), 0);
	e.kind = PVT_EV_SPECIAL_END;
	e.seq = 2;
	assert_int_equal(ana_add_event(tr, 1, &e), 0);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.p[1].state, ANA_HANG_RUNNING);
	assert_int_equal(h.p[0].state, ANA_HANG_BLOCKED);
	assert_false(h.p[0].stuck);
	assert_false(h.deadlock);
	t = ut_text(tr, &h);
	assert_non_null(strstr(t, "p3 (rank 1) MPI_Recv from p2 tag 3"));
	ana_hang_free(&h);
	/* rank 0 unknown (no events at all): named as a rank */
	ana_free(tr);
	tr = ana_new();
	assert_int_equal(ana_add_node(tr, "nat", "linux-x86_64", NULL), 0);
	assert_int_equal(ana_add_proc(tr, "p3", 0), 0);
	memset(&e, 0, sizeof e);
	e.kind = PVT_EV_PROG_START;
	e.peer = 1;
	assert_int_equal(ana_add_event(tr, 0, &e), 0);
	e.kind = PVT_EV_RECV_START;
	e.op = PVT_OP_MPI_RECV;
	e.peer = 0;
	e.tag = 3;
	e.seq = 1;
	assert_int_equal(ana_add_event(tr, 0, &e), 0);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_false(h.p[0].stuck);
	t = ut_text(tr, &h);
	assert_non_null(strstr(t, "p3 (rank 1) MPI_Recv from rank 0 (none of "
			       "its events has arrived"));
	assert_null(strstr(t, "t0"));
	ana_hang_free(&h);
	ana_free(tr);
}

/* MPI_Wait waits for the senders of the receives posted and not
 * completed: p1 posted two MPI_Irecvs (from p2, id 1; from p3, id 2), the
 * first completed in an MPI_Test; blocked in MPI_Wait it waits for p3
 * only, which waits for p1: a deadlock.  A wildcard receive posted too
 * makes it wait for any live task. */
static void test_mpi_wait(void **state)
{
	ana_trace *tr = ut_trace(3);
	ana_hang h;

	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, 1, 3, 1, 20);
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, 2, 3, 2, 21);
	ut_ev(tr, 0, PVT_EV_SPECIAL_START, PVT_OP_MPI_TEST, -1, -1, 1, 22);
	ut_ev(tr, 0, PVT_EV_RECV_END, PVT_OP_MPI_TEST, 1, 3, 1, 0);
	ut_ev(tr, 0, PVT_EV_SPECIAL_END, PVT_OP_MPI_TEST, -1, -1, 1, 22);
	ut_ev(tr, 0, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAIT, -1, -1, 1, 23);
	ut_ev(tr, 2, PVT_EV_RECV_START, PVT_OP_MPI_RECV, 0, 4, 0, 30);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.p[0].state, ANA_HANG_BLOCKED);
	assert_int_equal(h.p[0].join, ANA_HANG_ANY);
	assert_int_equal(h.p[0].nwaits, 1);
	assert_int_equal(h.p[0].waits[0], 2);
	assert_true(h.deadlock);
	assert_false(h.p[1].deadlocked);
	assert_non_null(strstr(ut_text(tr, &h), "MPI_Wait waiting for p3 at "
				  "dl.c:23 in main\n"));
	ana_hang_free(&h);
	ana_free(tr);
	tr = ut_trace(3);
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, -1, -1, 1, 20);
	ut_ev(tr, 0, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAITALL, -1, -1, 1, 23);
	ut_ev(tr, 2, PVT_EV_RECV_START, PVT_OP_MPI_RECV, 0, 4, 0, 30);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.p[0].nwaits, 2); /* p2 computes: may send */
	assert_false(h.deadlock);
	assert_false(h.p[0].stuck);
	ana_hang_free(&h);
	ana_free(tr);
}

/* A message sent and not received releases its receiver, whatever its
 * events say: p1 sent p2 a message with tag 2, then blocked on p2; p2's
 * receive of tag 2 from p1 shows no END yet (still in its buffer, or on
 * its way): no deadlock, p2 is ready.  A message with another tag does
 * not release it; one that p2 has received (matched) neither.  A
 * multicast of p1 that p2 has not taken does. */
static void test_in_flight(void **state)
{
	ana_trace *tr = ut_trace(2);
	ana_hang h;

	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1, 2, 0, 10);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1, 2, 0, 10);
	ut_recv(tr, 0, 1, 1, 11);
	ut_recv(tr, 1, 0, 2, 20);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.p[1].join, ANA_HANG_READY);
	assert_false(h.deadlock);
	assert_false(h.p[0].stuck || h.p[1].stuck);
	assert_non_null(strstr(ut_text(tr, &h), "p2 (t40002) pvm_recv from p1 "
				  "tag 2 at dl.c:20 in main (a message it can "
				  "take was sent)\n"));
	ana_hang_free(&h);
	ana_free(tr);

	tr = ut_trace(2); /* another tag */
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1, 3, 0, 10);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1, 3, 0, 10);
	ut_recv(tr, 0, 1, 1, 11);
	ut_recv(tr, 1, 0, 2, 20);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_true(h.deadlock);
	ana_hang_free(&h);
	ana_free(tr);

	tr = ut_trace(2); /* received already */
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1, 2, 0, 10);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1, 2, 0, 10);
	ut_recv(tr, 0, 1, 1, 11);
	ut_recv(tr, 1, 0, 2, 19);
	ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 0, 2, 0, 19);
	tr->procs[1].ev[tr->procs[1].nev - 1].result = 7; /* a bufid */
	ut_recv(tr, 1, 0, 2, 20);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_true(h.deadlock);
	ana_hang_free(&h);
	ana_free(tr);

	tr = ut_trace(2); /* a multicast not taken */
	ut_ev(tr, 0, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, -1, 2, 1, 10);
	ut_ev(tr, 0, PVT_EV_MCAST_END, PVT_OP_PVM_MCAST, -1, 2, 1, 10);
	ut_recv(tr, 0, 1, 1, 11);
	ut_recv(tr, 1, -1, 2, 20);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	assert_int_equal(h.p[1].join, ANA_HANG_READY);
	assert_false(h.deadlock);
	ana_hang_free(&h);
	ana_free(tr);
}

/* The report is truncated to the buffer, always terminated. */
static void test_truncated(void **state)
{
	ana_trace *tr = ut_trace(2);
	ana_hang h;
	char buf[16];

	ut_recv(tr, 0, 1, 1, 21);
	ut_recv(tr, 1, 0, 2, 30);
	assert_int_equal(ana_hang_compute(tr, &h), 0);
	ana_hang_text(tr, &h, buf, sizeof buf);
	assert_int_equal(strlen(buf), sizeof buf - 1);
	assert_memory_equal(buf, "deadlock: p1 an", sizeof buf);
	ana_hang_free(&h);
	ana_free(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cycle),
		cmocka_unit_test(test_three_cycle),
		cmocka_unit_test(test_wildcard),
		cmocka_unit_test(test_ended_peer),
		cmocka_unit_test(test_wildcard_alone),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_barrier_instances),
		cmocka_unit_test(test_not_blocked),
		cmocka_unit_test(test_self_and_unknown),
		cmocka_unit_test(test_mpi_rank_computing),
		cmocka_unit_test(test_mpi_wait),
		cmocka_unit_test(test_in_flight),
		cmocka_unit_test(test_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
