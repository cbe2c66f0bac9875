/*
 * test_ana_stats.c — unit tests of the figures of a trace (ana_stats.h):
 * STK's efficiency per task and for the job, the communication matrix,
 * multicasts, overlapping calls, calls left open, the views, and traces
 * with nothing in them.
 *
 * Every trace is built by hand with the ana.h builder; the partners that
 * ana_match would find are set by hand (ut_link), so that these tests
 * check the figures alone against answers worked out on paper.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ana.h"
#include "ana_stats.h"
#include "../../wrappers/pvt_event.h"

/* Appends an event of kind/op at time t (ns) with bytes to process p;
 * returns its index. */
static uint32_t ut_ev(ana_trace *tr, uint32_t p, uint16_t kind, uint16_t op,
		      int64_t t, int64_t bytes)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = t;
	e.kind = kind;
	e.op = op;
	e.bytes = bytes;
	e.peer = kind == PVT_EV_PROG_START ? (int32_t)(0x40001 + p) : -1;
	e.tag = -1;
	e.seq = tr->procs[p].nev;
	assert_int_equal(ana_add_event(tr, p, &e), 0);
	return tr->procs[p].nev - 1;
}

/* Makes the send-side END (sp, si) and the receive END (rp, ri)
 * partners, as ana_match would. */
static void ut_link(ana_trace *tr, uint32_t sp, uint32_t si, uint32_t rp,
		    uint32_t ri)
{
	tr->procs[sp].ev[si].match = (ana_ref){rp, ri};
	tr->procs[rp].ev[ri].match = (ana_ref){sp, si};
}

/* A trace with one node and n processes p1..pn. */
static ana_trace *ut_trace(uint32_t n)
{
	ana_trace *tr = ana_new();
	char name[ANA_NAME_MAX];
	uint32_t i;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "linux-x86_64", NULL), 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "p%u", i + 1);
		assert_int_equal(ana_add_proc(tr, name, 0), (int)i);
	}
	return tr;
}

/* Two tasks exchanging one message each way:
 *   p1: start 0, send 10-20 (100 B), recv 50-80, exit 100
 *       T 100, C 40, W 30, computing 60, E 0.6
 *   p2: start 0, recv 5-25, send 30-35 (8 B), exit 200
 *       T 200, C 25, W 20, computing 175, E 0.875
 *   job: E = 235 / 300, E_min 0.6, E_max 0.875. */
static ana_trace *ut_pingpong(void)
{
	ana_trace *tr = ut_trace(2);
	uint32_t s1, r1, s2, r2;

	ut_ev(tr, 0, PVT_EV_PROG_START, PVT_OP_NONE, 0, -1);
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 10, -1);
	s1 = ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 20, 100);
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 50, -1);
	r2 = ut_ev(tr, 0, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 80, 8);
	ut_ev(tr, 0, PVT_EV_PROG_EXIT, PVT_OP_NONE, 100, -1);
	ut_ev(tr, 1, PVT_EV_PROG_START, PVT_OP_NONE, 0, -1);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 5, -1);
	r1 = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 25, 100);
	ut_ev(tr, 1, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 30, -1);
	s2 = ut_ev(tr, 1, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 35, 8);
	ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, 200, -1);
	ut_link(tr, 0, s1, 1, r1);
	ut_link(tr, 1, s2, 0, r2);
	return tr;
}

static void test_pingpong_efficiency(void **state)
{
	ana_trace *tr = ut_pingpong();
	ana_stats st;

	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_RAW, &st), 0);
	assert_int_equal(st.view, ANA_VIEW_RAW);
	assert_int_equal(st.ntasks, 2);
	assert_int_equal(st.task[0].total_ns, 100);
	assert_int_equal(st.task[0].comm_ns, 40);
	assert_int_equal(st.task[0].wait_ns, 30);
	assert_int_equal(st.task[0].comp_ns, 60);
	assert_float_equal(st.task[0].eff, 0.6, 1e-12);
	assert_int_equal(st.task[1].total_ns, 200);
	assert_int_equal(st.task[1].comm_ns, 25);
	assert_int_equal(st.task[1].wait_ns, 20);
	assert_int_equal(st.task[1].comp_ns, 175);
	assert_float_equal(st.task[1].eff, 0.875, 1e-12);
	assert_float_equal(st.eff, 235.0 / 300.0, 1e-12);
	assert_float_equal(st.eff_min, 0.6, 1e-12);
	assert_float_equal(st.eff_max, 0.875, 1e-12);
	assert_int_equal(st.span_ns, 200);
	ana_stats_free(&st);
	ana_free(tr);
}

static void test_pingpong_matrix(void **state)
{
	ana_trace *tr = ut_pingpong();
	ana_stats st;

	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_RAW, &st), 0);
	assert_int_equal(st.msgs[0 * 2 + 0], 0);
	assert_int_equal(st.msgs[0 * 2 + 1], 1);
	assert_int_equal(st.msgs[1 * 2 + 0], 1);
	assert_int_equal(st.msgs[1 * 2 + 1], 0);
	assert_int_equal(st.bytes[0 * 2 + 1], 100);
	assert_int_equal(st.bytes[1 * 2 + 0], 8);
	assert_int_equal(st.task[0].sends, 1);
	assert_int_equal(st.task[0].recvs, 1);
	assert_int_equal(st.task[0].bytes_out, 100);
	assert_int_equal(st.task[0].bytes_in, 8);
	assert_int_equal(st.task[1].bytes_out, 8);
	assert_int_equal(st.task[1].bytes_in, 100);
	ana_stats_free(&st);
	ana_free(tr);
}

/* The views take their own times: compensated times set to half the
 * measured ones halve every figure; order times a third. */
static void test_views(void **state)
{
	ana_trace *tr = ut_pingpong();
	ana_stats st;
	uint32_t p, i;

	for (p = 0; p < tr->nprocs; p++)
		for (i = 0; i < tr->procs[p].nev; i++) {
			tr->procs[p].ev[i].c_ns = tr->procs[p].ev[i].t_ns / 2;
			tr->procs[p].ev[i].o_ns = tr->procs[p].ev[i].t_ns * 3;
		}
	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_COMP, &st), 0);
	assert_int_equal(st.task[0].total_ns, 50);
	assert_int_equal(st.task[0].comm_ns, 20);
	assert_int_equal(st.task[1].comm_ns, 12); /* 2-12 and 15-17 */
	assert_int_equal(st.span_ns, 100);
	ana_stats_free(&st);
	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_ORDER, &st), 0);
	assert_int_equal(st.task[0].total_ns, 300);
	assert_int_equal(st.task[1].wait_ns, 60);
	assert_int_equal(st.span_ns, 600);
	ana_stats_free(&st);
	assert_int_equal(ana_stats_compute(tr, 7, &st), ANA_EARG);
	assert_null(st.task);
	ana_free(tr);
}

/* A multicast from p1 to p2, p3 and p4 (48 B each) is three messages; a
 * receive with no partner and a probe count nothing. */
static void test_multicast(void **state)
{
	ana_trace *tr = ut_trace(4);
	uint32_t m, r, i;
	ana_stats st;

	ut_ev(tr, 0, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, 0, -1);
	m = ut_ev(tr, 0, PVT_EV_MCAST_END, PVT_OP_PVM_MCAST, 4, 48);
	for (i = 1; i < 4; i++) {
		ut_ev(tr, i, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 1, -1);
		r = ut_ev(tr, i, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 9, -1);
		tr->procs[i].ev[r].match = (ana_ref){0, m};
	}
	tr->procs[0].ev[m].match = (ana_ref){1, 1};
	ut_ev(tr, 3, PVT_EV_RECV_START, PVT_OP_PVM_PROBE, 10, -1);
	ut_ev(tr, 3, PVT_EV_RECV_END, PVT_OP_PVM_PROBE, 12, 48);
	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_RAW, &st), 0);
	for (i = 1; i < 4; i++) {
		assert_int_equal(st.msgs[0 * 4 + i], 1);
		assert_int_equal(st.bytes[0 * 4 + i], 48); /* the sender's */
		assert_int_equal(st.msgs[i * 4 + 0], 0);
		assert_int_equal(st.task[i].recvs, 1);
	}
	assert_int_equal(st.task[0].sends, 1);
	assert_int_equal(st.task[0].bytes_out, 3 * 48);
	assert_int_equal(st.task[3].comm_ns, 10); /* 1-9 and 10-12 */
	assert_int_equal(st.task[3].total_ns, 11);
	ana_stats_free(&st);
	ana_free(tr);
}

/* Overlapping halves (MPI_Sendrecv) count once; an END whose START was
 * lost counts nothing; a START left open counts to the last event; group
 * calls and MPI_Wait are waiting, a spawn is not communication. */
static void test_overlap_open(void **state)
{
	ana_trace *tr = ut_trace(3);
	ana_stats st;

	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_MPI_SENDRECV, 10, -1);
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_MPI_SENDRECV, 12, -1);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_MPI_SENDRECV, 15, 4);
	ut_ev(tr, 0, PVT_EV_RECV_END, PVT_OP_MPI_SENDRECV, 30, 4);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_MPI_SEND, 40, 4);
	ut_ev(tr, 0, PVT_EV_SPECIAL_START, PVT_OP_PVM_SPAWN, 50, -1);
	ut_ev(tr, 0, PVT_EV_SPECIAL_END, PVT_OP_PVM_SPAWN, 60, -1);
	ut_ev(tr, 0, PVT_EV_PROG_EXIT, PVT_OP_NONE, 110, -1);
	ut_ev(tr, 1, PVT_EV_PROG_START, PVT_OP_NONE, 0, -1);
	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_MPI_BARRIER, 10, -1);
	ut_ev(tr, 1, PVT_EV_GROUP_END, PVT_OP_MPI_BARRIER, 20, -1);
	ut_ev(tr, 1, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAIT, 30, -1);
	ut_ev(tr, 1, PVT_EV_SPECIAL_END, PVT_OP_MPI_WAIT, 35, -1);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_MPI_RECV, 40, -1);
	ut_ev(tr, 1, PVT_EV_BREAK_START, PVT_OP_RT_BREAK, 70, -1);
	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_RAW, &st), 0);
	assert_int_equal(st.task[0].total_ns, 100);
	assert_int_equal(st.task[0].comm_ns, 20);
	assert_int_equal(st.task[0].wait_ns, 18);
	assert_int_equal(st.task[0].sends, 2);
	assert_float_equal(st.task[0].eff, 0.8, 1e-12);
	assert_int_equal(st.task[1].total_ns, 70);
	assert_int_equal(st.task[1].comm_ns, 10 + 5 + 30);
	assert_int_equal(st.task[1].wait_ns, 45);
	assert_int_equal(st.task[1].colls, 1);
	/* p3 has no events: E_i 1, left out of E, E_min and E_max */
	assert_int_equal(st.task[2].total_ns, 0);
	assert_float_equal(st.task[2].eff, 1.0, 1e-12);
	assert_float_equal(st.eff, (80.0 + 25.0) / 170.0, 1e-12);
	assert_float_equal(st.eff_min, 25.0 / 70.0, 1e-12);
	assert_float_equal(st.eff_max, 0.8, 1e-12);
	assert_int_equal(st.span_ns, 110);
	ana_stats_free(&st);
	ana_free(tr);
}

/* Nothing to count: no processes, or one event each. */
static void test_empty(void **state)
{
	ana_trace *tr = ut_trace(0);
	ana_stats st;

	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_COMP, &st), 0);
	assert_int_equal(st.ntasks, 0);
	assert_float_equal(st.eff, 1.0, 1e-12);
	assert_int_equal(st.span_ns, 0);
	ana_stats_free(&st);
	ana_stats_free(&st); /* twice is harmless */
	ana_free(tr);
	tr = ut_trace(1);
	ut_ev(tr, 0, PVT_EV_PROG_START, PVT_OP_NONE, 1000, -1);
	assert_int_equal(ana_stats_compute(tr, ANA_VIEW_COMP, &st), 0);
	assert_int_equal(st.task[0].total_ns, 0);
	assert_float_equal(st.eff, 1.0, 1e-12);
	assert_float_equal(st.eff_min, 1.0, 1e-12);
	ana_stats_free(&st);
	assert_int_equal(ana_stats_compute(NULL, ANA_VIEW_COMP, &st),
			 ANA_EARG);
	ana_free(tr);
}

/* The wait for a CPU an exit tells: the exit's, less what PROG_START
 * says was waited before it; all of it where PROG_START says nothing
 * (an older trace); -1 with no exit or an exit that says nothing. */
static void test_cpu_wait(void **state)
{
	ana_trace *tr = ut_trace(3);
	int64_t run, paravt;
	uint32_t x;

	(void)state;
	ut_ev(tr, 0, PVT_EV_PROG_START, PVT_OP_NONE, 1000, 3000);
	x = ut_ev(tr, 0, PVT_EV_PROG_EXIT, PVT_OP_NONE, 9000, 5000);
	tr->procs[0].ev[x].tag = 1;
	assert_int_equal(ana_stats_cpu_wait(&tr->procs[0], &run, &paravt),
			 2000);
	assert_int_equal(run, 8000);
	assert_int_equal(paravt, 1000);
	ut_ev(tr, 1, PVT_EV_PROG_START, PVT_OP_NONE, 1000, -1);
	ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, 9000, 5000);
	assert_int_equal(ana_stats_cpu_wait(&tr->procs[1], &run, &paravt),
			 5000);
	assert_int_equal(paravt, -1);
	ut_ev(tr, 2, PVT_EV_PROG_START, PVT_OP_NONE, 1000, 3000);
	assert_int_equal(ana_stats_cpu_wait(&tr->procs[2], &run, &paravt),
			 -1);
	ana_free(tr);
}

/* Tables show p2 before p10, names without a number first. */
static void test_order(void **state)
{
	static const char *const names[] = {"p10", "p2", "p1", "x", "p9"};
	ana_trace *tr = ana_new();
	uint32_t i, *o;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "", NULL), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(ana_add_proc(tr, names[i], 0), (int)i);
	o = ana_stats_order(tr);
	assert_non_null(o);
	assert_int_equal(o[0], 3); /* x */
	assert_int_equal(o[1], 2); /* p1 */
	assert_int_equal(o[2], 1); /* p2 */
	assert_int_equal(o[3], 4); /* p9 */
	assert_int_equal(o[4], 0); /* p10 */
	free(o);
	ana_free(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong_efficiency),
		cmocka_unit_test(test_pingpong_matrix),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_multicast),
		cmocka_unit_test(test_overlap_open),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_cpu_wait),
		cmocka_unit_test(test_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
