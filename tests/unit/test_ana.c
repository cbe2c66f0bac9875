/*
 * test_ana.c — unit tests of the analysis passes of issue 5 (ana.h):
 * the clock model, the matching, local and cross-message compensation,
 * the figure-2 divergence, the controlled logical clock with its
 * amortization, and the global sort.
 *
 * Every trace is built by hand with the ana.h builder (ut_* helpers
 * below); the expected numbers are worked out in the comments.  PVM tids
 * are 0x40001 + process index, MPI ranks the process index.
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
#include "../../wrappers/pvt_event.h"

#define TID(p) ((int32_t)(0x40001 + (p)))

/* Δ given to the next events of each process (tests set it). */
static int64_t ut_delta[8];

/* The tid or rank of process p in trace tr (1: MPI ranks). */
static int ut_mpi;

static int32_t ut_tid(uint32_t p)
{
	return ut_mpi ? (int32_t)p : TID(p);
}

/* Appends an event to process p; returns its index. */
static uint32_t ut_ev(ana_trace *tr, uint32_t p, uint16_t kind, uint16_t op,
		      int64_t t, int32_t peer, int32_t tag, int32_t result,
		      int32_t aux)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = t;
	e.delta_ns = ut_delta[p];
	e.kind = kind;
	e.op = op;
	e.bytes = -1;
	e.peer = peer;
	e.tag = tag;
	e.result = result;
	e.aux = aux;
	e.seq = tr->procs[p].nev;
	assert_int_equal(ana_add_event(tr, p, &e), 0);
	return tr->procs[p].nev - 1;
}

/* A trace with one node and n processes, each with its PROG_START at 0
 * (Δ reset to 0). */
static ana_trace *ut_trace(uint32_t n, int mpi)
{
	ana_trace *tr = ana_new();
	char name[ANA_NAME_MAX];
	uint32_t i;

	assert_non_null(tr);
	ut_mpi = mpi;
	assert_int_equal(ana_add_node(tr, "nat", "linux-x86_64", NULL), 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "p%u", i);
		assert_int_equal(ana_add_proc(tr, name, 0), (int)i);
		ut_delta[i] = 0;
		ut_ev(tr, i, PVT_EV_PROG_START, PVT_OP_NONE, 0, ut_tid(i), -1,
		      0, PVT_EVENT_VERSION);
	}
	return tr;
}

/* pvm_send from p to q (tag) at t0..t1; the END's index. */
static uint32_t ut_send(ana_trace *tr, uint32_t p, int64_t t0, int64_t t1,
			uint32_t q, int32_t tag)
{
	ut_ev(tr, p, PVT_EV_SEND_START, PVT_OP_PVM_SEND, t0, ut_tid(q), tag, 0,
	      0);
	return ut_ev(tr, p, PVT_EV_SEND_END, PVT_OP_PVM_SEND, t1, ut_tid(q),
		     tag, 0, 0);
}

/* pvm_recv by p asking for `ask` (a process, or -1 for any) and tag,
 * that got a message from `got` at t0..t1; the END's index. */
static uint32_t ut_recv(ana_trace *tr, uint32_t p, int64_t t0, int64_t t1,
			int ask, uint32_t got, int32_t tag)
{
	ut_ev(tr, p, PVT_EV_RECV_START, PVT_OP_PVM_RECV, t0,
	      ask < 0 ? -1 : ut_tid((uint32_t)ask), tag, 0, 0);
	return ut_ev(tr, p, PVT_EV_RECV_END, PVT_OP_PVM_RECV, t1, ut_tid(got),
		     tag, 7, 0);
}

static ana_ev *ut_get(ana_trace *tr, uint32_t p, uint32_t i)
{
	return &tr->procs[p].ev[i];
}

/* Whether END (p, i) is matched to (q, j). */
static void ut_matched(ana_trace *tr, uint32_t p, uint32_t i, uint32_t q,
		       uint32_t j)
{
	ana_ev *e = ut_get(tr, p, i);

	assert_int_equal(e->match.proc, q);
	assert_int_equal(e->match.idx, j);
}

/* Options with a fixed latency. */
static ana_opts ut_opts(int64_t l)
{
	ana_opts o;

	ana_opts_default(&o);
	o.l_min_ns = l;
	return o;
}

/* ---- clock ------------------------------------------------------------- */

/* A small deterministic generator (the noise of the round trips). */
static uint32_t ut_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

/* Node time of console time c: 5 ms ahead plus 20 ppm. */
static int64_t ut_node(int64_t c)
{
	return c + 5000000 + (c - 1000000000) / 50000;
}

/* n samples, 5 per second over n/5 seconds from console time 1 s; the
 * network delays are 150 µs plus up to 200 µs of noise each way, except
 * the first of each second, which has fwd / back µs exactly (the one the
 * fit keeps). */
static void ut_samples(ana_clock_sample *s, size_t n, int64_t fwd,
		       int64_t back)
{
	uint32_t seed = 42;
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t c0 = 1000000000 + (int64_t)i * 200000000;
		int64_t d1 = 150000 + ut_rand(&seed) % 200000;
		int64_t d2 = 150000 + ut_rand(&seed) % 200000;

		if (i % 5 == 0) {
			d1 = fwd * 1000;
			d2 = back * 1000;
		}
		s[i].t0 = c0;
		s[i].t1 = ut_node(c0 + d1);
		s[i].t2 = s[i].t1 + 10000;
		/* back on the console: node t2 is console t2' with
		 * ut_node(t2') = t2, then d2 more */
		s[i].t3 = c0 + d1 + 10000 + d2 -
			  (s[i].t2 - ut_node(c0 + d1 + 10000));
	}
}

/* Symmetric best samples: offset and drift recovered exactly (drift per
 * node ns: 20e-6 / (1 + 20e-6)); the model maps node to console time
 * within a few ns over the run. */
static void test_clock_exact(void **state)
{
	ana_clock_sample s[50];
	ana_clock c;
	int64_t t;

	ut_samples(s, 50, 50, 50);
	assert_int_equal(ana_clock_fit(s, 50, &c), 0);
	assert_true(c.valid);
	assert_int_equal(c.nsamples, 10); /* one per 1 s window */
	assert_float_equal(c.drift, 20e-6 / (1 + 20e-6), 1e-9);
	assert_int_equal(c.err_ns, 50000); /* rtt 100 µs / 2 */
	for (t = 1000000000; t < 11000000000; t += 700000000)
		assert_true(llabs(ana_clock_to_console(&c, ut_node(t)) - t) <=
			    3);
}

/* Asymmetric best samples (50 µs out, 150 µs back): the offset is wrong
 * by (150 - 50) / 2 = 50 µs, within the bound err = 100 µs. */
static void test_clock_bound(void **state)
{
	ana_clock_sample s[50];
	ana_clock c;
	int64_t t, e;

	ut_samples(s, 50, 50, 150);
	assert_int_equal(ana_clock_fit(s, 50, &c), 0);
	assert_int_equal(c.err_ns, 100000);
	for (t = 1000000000; t < 11000000000; t += 700000000) {
		e = llabs(ana_clock_to_console(&c, ut_node(t)) - t);
		assert_true(e <= c.err_ns);
		assert_true(e >= 49000); /* the asymmetry is really there */
	}
}

/* Few samples over a short run (issue 11: a loopback node read "drift
 * +42158.869 ppm, error 783.688 ms"): a burst of 8 good samples (node 5
 * ms ahead, 20 µs round trips) and 2 s later one that took 1.5 s, 1.4 s
 * of it on the way back.  The slow one is left out, the drift is not
 * fitted (too short a span), the offset is the best sample's within its
 * 10 µs bound.  Good samples over 3 s: still not fitted; over 10 s with
 * a 20 ppm drift: fitted. */
static void test_clock_short_run(void **state)
{
	ana_clock_sample s[40];
	ana_clock c;
	int i;

	for (i = 0; i < 8; i++) {
		s[i].t0 = 1000000000 + i * 1000000;
		s[i].t1 = s[i].t0 + 10000 + 5000000;
		s[i].t2 = s[i].t1 + 1000;
		s[i].t3 = s[i].t0 + 21000;
	}
	s[8].t0 = 3000000000;
	s[8].t1 = s[8].t0 + 100000000 + 5000000;
	s[8].t2 = s[8].t1 + 1000;
	s[8].t3 = s[8].t0 + 1500001000;
	assert_int_equal(ana_clock_fit(s, 9, &c), 0);
	assert_true(c.valid);
	assert_false(c.drift_fitted);
	assert_float_equal(c.drift, 0, 0);
	assert_int_equal(c.nsamples, 1); /* the slow window is out */
	assert_true(llabs(c.offset_ns - 5000000) <= c.err_ns);
	assert_true(c.err_ns <= 10000);
	/* good samples, one a second over 3 s: not fitted */
	for (i = 0; i < 4; i++) {
		s[i].t0 = 1000000000 + (int64_t)i * 1000000000;
		s[i].t1 = s[i].t0 + 10000 + 5000000 + i * 20000;
		s[i].t2 = s[i].t1 + 1000;
		s[i].t3 = s[i].t0 + 21000;
	}
	assert_int_equal(ana_clock_fit(s, 4, &c), 0);
	assert_false(c.drift_fitted);
	assert_int_equal(c.nsamples, 4);
	assert_true(c.span_ns >= 2900000000LL && c.span_ns < 5000000000LL);
	/* over 10 s, 20 ppm: fitted */
	for (i = 0; i < 11; i++) {
		s[i].t0 = 1000000000 + (int64_t)i * 1000000000;
		s[i].t1 = s[i].t0 + 10000 + 5000000 + i * 20000;
		s[i].t2 = s[i].t1 + 1000;
		s[i].t3 = s[i].t0 + 21000;
	}
	assert_int_equal(ana_clock_fit(s, 11, &c), 0);
	assert_true(c.drift_fitted);
	assert_float_equal(c.drift, 20e-6, 1e-7);
}

/* One window: drift 0, offset of the best sample; no usable sample:
 * ANA_EARG; an invalid model is the identity. */
static void test_clock_one_window(void **state)
{
	ana_clock_sample s[3] = {
		{1000, 6000 + 300, 6000 + 310, 1700}, /* rtt 690 */
		{2000, 7000 + 50, 7000 + 60, 2110},   /* rtt 100: kept */
		{3000, 8000 + 400, 8000 + 420, 4000}, /* rtt 980 */
	};
	ana_clock_sample bad = {100, 50, 40, 90};
	ana_clock c;

	assert_int_equal(ana_clock_fit(s, 3, &c), 0);
	assert_int_equal(c.nsamples, 1);
	assert_float_equal(c.drift, 0, 0);
	/* ((7050 - 2000) + (7060 - 2110)) / 2 = 5000 at (7050 + 7060) / 2 */
	assert_int_equal(c.offset_ns, 5000);
	assert_int_equal(c.ref_ns, 7055);
	assert_int_equal(c.err_ns, 50);
	assert_int_equal(ana_clock_to_console(&c, 7055), 2055);
	assert_int_equal(ana_clock_fit(s, 0, &c), ANA_EARG);
	assert_int_equal(ana_clock_fit(&bad, 1, &c), ANA_EARG);
	assert_false(c.valid);
	assert_int_equal(ana_clock_to_console(&c, 12345), 12345);
	assert_int_equal(ana_clock_to_console(NULL, 12345), 12345);
}

/* ---- matching ---------------------------------------------------------- */

/* FIFO per channel, wildcards by actual source, arrival out of order
 * across channels and tags:
 *   p0: A = send(p1, tag 1), B = send(p1, tag 1), D = send(p1, tag 2)
 *   p2: C = send(p1, tag 1)
 *   p1: recv(any, 1) got p2's C; recv(p0, 2) got D; recv(p0, 1) got A;
 *       recv(any, 1) got p0's B */
static void test_match_fifo_wildcard(void **state)
{
	ana_trace *tr = ut_trace(3, 0);
	uint32_t a, b, c, d, r1, r2, r3, r4;

	a = ut_send(tr, 0, 10, 20, 1, 1);
	b = ut_send(tr, 0, 30, 40, 1, 1);
	d = ut_send(tr, 0, 50, 60, 1, 2);
	c = ut_send(tr, 2, 5, 8, 1, 1);
	r1 = ut_recv(tr, 1, 1, 30, -1, 2, 1);
	r2 = ut_recv(tr, 1, 31, 70, 0, 0, 2);
	r3 = ut_recv(tr, 1, 71, 80, 0, 0, 1);
	r4 = ut_recv(tr, 1, 81, 90, -1, 0, 1);
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->stage, 1);
	assert_int_equal(tr->sum.pairs, 4);
	assert_int_equal(tr->sum.unmatched_sends + tr->sum.unmatched_recvs,
			 0);
	ut_matched(tr, 1, r1, 2, c);
	ut_matched(tr, 2, c, 1, r1);
	ut_matched(tr, 1, r2, 0, d);
	ut_matched(tr, 1, r3, 0, a);
	ut_matched(tr, 0, a, 1, r3);
	ut_matched(tr, 1, r4, 0, b);
	ut_matched(tr, 0, b, 1, r4);
	assert_true(ut_get(tr, 1, r1)->flags & ANA_F_WILDCARD);
	assert_false(ut_get(tr, 1, r2)->flags & ANA_F_WILDCARD);
	assert_false(ut_get(tr, 1, r3)->flags & ANA_F_WILDCARD);
	assert_true(ut_get(tr, 1, r4)->flags & ANA_F_WILDCARD);
	/* idempotent */
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.pairs, 4);
	ut_matched(tr, 1, r4, 0, b);
	ana_free(tr);
}

/* A multicast to three receivers, then a point-to-point send on one of
 * the same channels, then a second multicast:
 *   p0: M1 = mcast(tag 5, 3 tids), S = send(p1, 5), M2 = mcast(tag 5)
 *   p1: recv(p0, 5) -> M1, recv(p0, 5) -> S, recv(p0, 5) -> M2
 *   p2: recv(p0, 5) -> M1, recv(any, 5) -> M2
 *   p3: recv(p0, 5) -> M1 */
static void test_match_mcast(void **state)
{
	ana_trace *tr = ut_trace(4, 0);
	uint32_t m1, s, m2, r[7];

	ut_ev(tr, 0, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, 10, -1, 5, 0, 3);
	m1 = ut_ev(tr, 0, PVT_EV_MCAST_END, PVT_OP_PVM_MCAST, 20, -1, 5, 0, 3);
	s = ut_send(tr, 0, 30, 40, 1, 5);
	ut_ev(tr, 0, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, 50, -1, 5, 0, 2);
	m2 = ut_ev(tr, 0, PVT_EV_MCAST_END, PVT_OP_PVM_MCAST, 60, -1, 5, 0, 2);
	r[0] = ut_recv(tr, 1, 5, 25, 0, 0, 5);
	r[1] = ut_recv(tr, 1, 26, 45, 0, 0, 5);
	r[2] = ut_recv(tr, 1, 46, 65, 0, 0, 5);
	r[3] = ut_recv(tr, 2, 5, 25, 0, 0, 5);
	r[4] = ut_recv(tr, 2, 26, 66, -1, 0, 5);
	r[5] = ut_recv(tr, 3, 5, 25, 0, 0, 5);
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.pairs, 1);
	assert_int_equal(tr->sum.mcast_pairs, 5);
	assert_int_equal(tr->sum.unmatched_sends + tr->sum.unmatched_recvs,
			 0);
	ut_matched(tr, 1, r[0], 0, m1);
	ut_matched(tr, 1, r[1], 0, s);
	ut_matched(tr, 1, r[2], 0, m2);
	ut_matched(tr, 2, r[3], 0, m1);
	ut_matched(tr, 2, r[4], 0, m2);
	ut_matched(tr, 3, r[5], 0, m1);
	ut_matched(tr, 0, s, 1, r[1]);
	/* a multicast's match is one of its receivers */
	assert_int_equal(ana_get(tr, ut_get(tr, 0, m1)->match)->match.idx, m1);
	ana_free(tr);
}

/* Group instances: p0..p2 call pvm_barrier twice, p0 a third time alone
 * (no instance); pvm_joingroup is not a synchronising call. */
static void test_match_barrier(void **state)
{
	ana_trace *tr = ut_trace(3, 0);
	uint32_t e[3][3], p, k, n;
	ana_ref r;

	for (p = 0; p < 3; p++) {
		ut_ev(tr, p, PVT_EV_GROUP_START, PVT_OP_PVM_JOINGROUP, 1, -1,
		      -1, 0, 0);
		ut_ev(tr, p, PVT_EV_GROUP_END, PVT_OP_PVM_JOINGROUP, 2, -1, -1,
		      (int32_t)p, 0);
		for (k = 0; k < (p == 0 ? 3u : 2u); k++) {
			ut_ev(tr, p, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER,
			      10 + 20 * k + p, -1, -1, 0, 3);
			e[p][k] = ut_ev(tr, p, PVT_EV_GROUP_END,
					PVT_OP_PVM_BARRIER, 20 + 20 * k, -1,
					-1, 0, 3);
		}
	}
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.groups, 2);
	for (k = 0; k < 2; k++) {
		/* the ring visits the three members and comes back */
		r = (ana_ref){0, e[0][k]};
		for (n = 0; n < 3; n++) {
			r = ana_get(tr, r)->match;
			assert_int_not_equal(r.proc, ANA_NONE);
			assert_int_equal(r.idx, e[r.proc][k]);
		}
		assert_int_equal(r.proc, 0);
	}
	assert_int_equal(ut_get(tr, 0, e[0][2])->match.proc, ANA_NONE);
	assert_int_equal(ut_get(tr, 0, 2)->match.proc, ANA_NONE); /* join */
	ana_free(tr);
}

/* Unmatched sends and receives, a START without END, a probe, an empty
 * pvm_nrecv and a send to a task outside the trace. */
static void test_match_unmatched_open(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	uint32_t s, r, pr, nr, out, open;

	s = ut_send(tr, 0, 10, 20, 1, 9);
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 30, 0x7777, 1, 0, 0);
	out = ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 31, 0x7777, 1, 0,
		    0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_PROBE, 5, -1, 9, 0, 0);
	pr = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_PROBE, 6, TID(0), 9, 3,
		   0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_NRECV, 7, -1, -1, 0, 0);
	nr = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_NRECV, 8, -1, -1, 0, 0);
	r = ut_recv(tr, 1, 40, 50, 0, 0, 8);
	open = ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 60, -1, -1, 0,
		     0);
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.pairs, 0);
	assert_int_equal(tr->sum.unmatched_sends, 2);
	assert_int_equal(tr->sum.unmatched_recvs, 1);
	assert_true(ut_get(tr, 0, s)->flags & ANA_F_UNMATCHED);
	assert_true(ut_get(tr, 0, out)->flags & ANA_F_UNMATCHED);
	assert_true(ut_get(tr, 1, r)->flags & ANA_F_UNMATCHED);
	assert_int_equal(ut_get(tr, 1, pr)->flags, 0);
	assert_int_equal(ut_get(tr, 1, nr)->flags, 0);
	assert_int_equal(ut_get(tr, 1, open)->flags, ANA_F_OPEN);
	assert_int_equal(ut_get(tr, 1, r - 1)->flags, 0); /* closed START */
	/* a second run counts the same */
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.unmatched_sends, 2);
	assert_int_equal(tr->sum.unmatched_recvs, 1);
	ana_free(tr);
}

/* MPI: a wildcard MPI_Irecv completed in MPI_Wait (its END carries the
 * request id of the START), a MPI_Recv from MPI_PROC_NULL (no message). */
static void test_match_mpi_irecv(void **state)
{
	ana_trace *tr = ut_trace(2, 1);
	uint32_t s, r;

	s = ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_MPI_SEND, 10, 1, 3, 0, 0);
	s = ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_MPI_SEND, 20, 1, 3, 0, 0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, 5, -1, 3, 0, 1);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_MPI_RECV, 6, -2, 3, 0, 0);
	ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_MPI_RECV, 7, -1, -1, 0, 0);
	ut_ev(tr, 1, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAIT, 8, -1, -1, 0, 1);
	r = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_MPI_WAIT, 25, 0, 3, 0, 1);
	ut_ev(tr, 1, PVT_EV_SPECIAL_END, PVT_OP_MPI_WAIT, 26, -1, -1, 0, 1);
	assert_int_equal(ana_match(tr), 0);
	assert_int_equal(tr->sum.pairs, 1);
	assert_int_equal(tr->sum.unmatched_recvs, 0);
	ut_matched(tr, 1, r, 0, s);
	assert_int_equal(ut_get(tr, 1, r)->flags, ANA_F_WILDCARD);
	assert_int_equal(ut_get(tr, 1, 1)->flags, 0); /* not open */
	ana_free(tr);
}

/* ---- compensation ------------------------------------------------------ */

/* Local compensation alone: LT = t - Δ. */
static void test_comp_local(void **state)
{
	ana_trace *tr = ut_trace(1, 0);
	ana_opts o = ut_opts(0);

	ut_delta[0] = 30;
	ut_ev(tr, 0, PVT_EV_FN_ENTER, PVT_OP_RT_FUNC, 200, -1, -1, 0, 0);
	ut_delta[0] = 70;
	ut_ev(tr, 0, PVT_EV_FN_EXIT, PVT_OP_RT_FUNC, 300, -1, -1, 0, 0);
	assert_int_equal(ana_compensate(tr, &o), 0);
	assert_int_equal(tr->stage, 2);
	assert_int_equal(ut_get(tr, 0, 0)->c_ns, 0);
	assert_int_equal(ut_get(tr, 0, 1)->c_ns, 170);
	assert_int_equal(ut_get(tr, 0, 2)->c_ns, 230);
	assert_int_equal(tr->sum.moved, 0);
	ana_free(tr);
}

/* A receiver that waited for a slow (heavily instrumented) sender, l = 20:
 *   p2: send to p1 at 5..10, Δ 0                  -> cs' = 10
 *   p1: recv(p2) 50..80, Δ 5 / 10: LT 45..70, d = 25; the message was
 *       there (10 <= 50): not waited, r_p1 = 25; end' = max(45 + 25,
 *       10 + 20) = 70, unchanged
 *   p0: send to p1 at 1000..1100, Δ 400 / 450    -> cs' = 650
 *   p1: recv(p0) 100..1200, Δ 10 / 20: LT 90..1180, waited (1100 > 100):
 *       own = min(1090, 25) = 25; the message took 1200 - 1100 = 100,
 *       less p1's extra time in the receive (its Δ grew by 10, 5 more
 *       than in its first receive): 95 (> l): end' = max(90 + 25,
 *       650 + 95) = 745, MOVED, shift -435; exit at 1300, Δ 20:
 *       1280 - 435 = 845. */
static void test_comp_slow_sender(void **state)
{
	ana_trace *tr = ut_trace(3, 0);
	ana_opts o = ut_opts(20);
	uint32_t r1, r2, s0, x;

	ut_send(tr, 2, 5, 10, 1, 1);
	ut_delta[0] = 400;
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1000, TID(1), 1, 0,
	      0);
	ut_delta[0] = 450;
	s0 = ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1100, TID(1), 1,
		   0, 0);
	ut_delta[1] = 5;
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 50, TID(2), 1, 0, 0);
	ut_delta[1] = 10;
	r1 = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 80, TID(2), 1, 7,
		   0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 100, TID(0), 1, 0, 0);
	ut_delta[1] = 20;
	r2 = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 1200, TID(0), 1, 7,
		   0);
	x = ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, 1300, -1, -1, 0, 0);
	assert_int_equal(ana_compensate(tr, &o), 0); /* matches first */
	assert_int_equal(tr->sum.pairs, 2);
	assert_int_equal(tr->sum.l_min_ns, 20);
	assert_int_equal(ut_get(tr, 0, s0)->c_ns, 650);
	assert_int_equal(ut_get(tr, 1, r1)->c_ns, 70);
	assert_false(ut_get(tr, 1, r1)->flags & ANA_F_MOVED);
	assert_int_equal(ut_get(tr, 1, r2 - 1)->c_ns, 90);
	assert_int_equal(ut_get(tr, 1, r2)->c_ns, 745);
	assert_true(ut_get(tr, 1, r2)->flags & ANA_F_MOVED);
	assert_int_equal(ut_get(tr, 1, x)->c_ns, 845);
	assert_int_equal(tr->sum.moved, 1);
	/* the guarantee: receive >= send + l */
	assert_true(ut_get(tr, 1, r2)->c_ns >=
		    ut_get(tr, 0, s0)->c_ns + 20);
	ana_free(tr);
}

/* A receiver that stood still for paravt while it waited (the daemon
 * charged it CPU wait inside the receive, in its Δ), l = 20:
 *   p0: send at 10..20, p1 receives it at 30..40 (it was there: not
 *       waited; Δ growth 0, the smallest of p1's; r_p1 = 10)
 *   p0: send at 100..110 (Δ 0: cs' = 100)
 *   p1: recv 50..1110, Δ 0 / 1000: LT 50..110; waited; own = min(60, 10);
 *       the message took 1110 - 100 = 1010, less the extra 1000 = 10,
 *       at least l: end' = max(50 + 10, 100 + 20) = 120 (1110 without
 *       the extra rule), MOVED, shift +10
 *   p0: send at 1500..1510
 *   p1: recv 1300..1700, Δ 1000 / 1000 + g: the message took 200, less
 *       g: g = 300: end' = max(310 + 10, 1500 + 20) = 1520; g = 100:
 *       1500 + 100 = 1600; its exit 100 later in both. */
static void test_comp_cpu_stall(void **state)
{
	int64_t grow[2] = {300, 100}, want[2] = {1520, 1600};
	ana_trace *tr;
	ana_opts o = ut_opts(20);
	uint32_t r1, r2, x;
	int k;

	for (k = 0; k < 2; k++) {
		tr = ut_trace(2, 0);
		ut_send(tr, 0, 10, 20, 1, 1);
		ut_send(tr, 0, 100, 110, 1, 1);
		ut_send(tr, 0, 1500, 1510, 1, 1);
		ut_recv(tr, 1, 30, 40, 0, 0, 1);
		ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 50, TID(0), 1,
		      0, 0);
		ut_delta[1] = 1000;
		r1 = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 1110,
			   TID(0), 1, 7, 0);
		ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 1300, TID(0),
		      1, 0, 0);
		ut_delta[1] = 1000 + grow[k];
		r2 = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 1700,
			   TID(0), 1, 7, 0);
		x = ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, 1800, -1, -1, 0,
			  0);
		assert_int_equal(ana_compensate(tr, &o), 0);
		assert_int_equal(tr->sum.pairs, 3);
		assert_int_equal(ut_get(tr, 1, r1)->c_ns, 120);
		assert_true(ut_get(tr, 1, r1)->flags & ANA_F_MOVED);
		assert_int_equal(ut_get(tr, 1, r2)->c_ns, want[k]);
		assert_int_equal(ut_get(tr, 1, x)->c_ns, want[k] + 100);
		ana_free(tr);
	}
}

/* l estimated from the run is the smallest latency less paravt's own
 * time on the way, not the measured one (which holds the probes):
 *   (a) p0 sends to itself at 1000..1100 (Δ 0 / 20) and receives it at
 *       1150..1250 (Δ 40 / 60): the probes took 60 of the 250 measured:
 *       l = 190; the message was there: end' = max(1110 + 80, 1000 +
 *       190) = 1190, its LT, not moved (with l = 250: 1250, moved);
 *   (b) p0 sends to p1 at 100..130 (Δ 0 / 20), p1 receives 50..300: the
 *       send's own Δ (20) is out of the 200 measured: l = 180. */
static void test_comp_latency_estimate(void **state)
{
	ana_trace *tr = ut_trace(1, 0);
	ana_opts o = ut_opts(-1);
	uint32_t r;

	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1000, TID(0), 1, 0,
	      0);
	ut_delta[0] = 20;
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1100, TID(0), 1, 0, 0);
	ut_delta[0] = 40;
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 1150, TID(0), 1, 0,
	      0);
	ut_delta[0] = 60;
	r = ut_ev(tr, 0, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 1250, TID(0), 1, 7,
		  0);
	assert_int_equal(ana_compensate(tr, &o), 0);
	assert_int_equal(tr->sum.pairs, 1);
	assert_int_equal(tr->sum.l_min_ns, 190);
	assert_int_equal(ut_get(tr, 0, r)->c_ns, 1190);
	assert_false(ut_get(tr, 0, r)->flags & ANA_F_MOVED);
	ana_free(tr);

	tr = ut_trace(2, 0);
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 100, TID(1), 1, 0, 0);
	ut_delta[0] = 20;
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 130, TID(1), 1, 0, 0);
	ut_recv(tr, 1, 50, 300, 0, 0, 1);
	assert_int_equal(ana_compensate(tr, &o), 0);
	assert_int_equal(tr->sum.pairs, 1);
	assert_int_equal(tr->sum.l_min_ns, 180);
	ana_free(tr);
}

/* The other way: a receiver with more overhead removed than its sender
 * cannot end before the send: p0 sends at 100..110 (Δ 0); p1 receives
 * 0..120 with Δ 0 / 100: LT 0..20 < 110; l = 5, but the message took
 * 120 - 110 = 10: end' = 120. */
static void test_comp_not_before_send(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(5);
	uint32_t s, r;

	s = ut_send(tr, 0, 100, 110, 1, 1);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 1, TID(0), 1, 0, 0);
	ut_delta[1] = 100;
	r = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 120, TID(0), 1, 7,
		  0);
	assert_int_equal(ana_compensate(tr, &o), 0);
	assert_int_equal(ut_get(tr, 0, s)->c_ns, 110);
	assert_int_equal(ut_get(tr, 1, r)->c_ns, 120);
	ana_free(tr);
}

/* A send START raised to the event before it (its LT came out 5 ns
 * earlier: a coarse clock, Δ's rounding) carries its own LT into the
 * message's recomputed arrival, not the raised time, l = 5:
 *   p0: a function at 100 (Δ 0), send START 110 (Δ 15: LT 95, shown at
 *       100), END 120 (Δ 15: 105)
 *   p1: recv 50..200, Δ 0: waited; the message took 200 - 110 = 90:
 *       end' = 95 + 90 = 185 (190 from the raised START), at least the
 *       shown START + l = 105. */
static void test_comp_send_raised(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(5);
	uint32_t s, r;

	ut_ev(tr, 0, PVT_EV_FN_ENTER, PVT_OP_RT_FUNC, 100, -1, -1, 0, 0);
	ut_delta[0] = 15;
	s = ut_send(tr, 0, 110, 120, 1, 1);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 50, TID(0), 1, 0, 0);
	r = ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 200, TID(0), 1, 7,
		  0);
	assert_int_equal(ana_compensate(tr, &o), 0);
	assert_int_equal(ut_get(tr, 0, s - 1)->c_ns, 100);
	assert_int_equal(ut_get(tr, 0, s)->c_ns, 105);
	assert_int_equal(ut_get(tr, 1, r)->c_ns, 185);
	assert_true(ut_get(tr, 1, r)->flags & ANA_F_MOVED);
	ana_free(tr);
}

/* A barrier: p0 starts late because of its overhead; after compensation
 * nobody leaves before the last compensated start + l:
 *   p0: START 100 (Δ 80 -> 20), END 110 (Δ 85 -> 25): the last to start
 *   p1: START 10, END 111 (Δ 0): waited; own = its smallest barrier that
 *       did not wait (none: min of all = 101) -> min(101, 101) = 101;
 *       end' = max(10 + 101, 20 + 2) = 111, and p0: max(20 + 5, 10 + 2)
 *       = 25 unchanged. */
static void test_comp_barrier(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(2);
	uint32_t e0, e1;

	ut_delta[0] = 80;
	ut_ev(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 100, -1, -1, 0,
	      2);
	ut_delta[0] = 85;
	e0 = ut_ev(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 110, -1, -1, 0,
		   2);
	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 10, -1, -1, 0, 2);
	e1 = ut_ev(tr, 1, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 111, -1, -1, 0,
		   2);
	assert_int_equal(ana_compensate(tr, &o), 0);
	assert_int_equal(tr->sum.groups, 1);
	assert_int_equal(ut_get(tr, 0, e0)->c_ns, 25);
	assert_int_equal(ut_get(tr, 1, e1)->c_ns, 111);
	ana_free(tr);
	/* two barriers: in the first each is last once over the run, so
	 * the own costs come from a barrier that did not wait */
	tr = ut_trace(2, 0);
	ut_ev(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 10, -1, -1, 0, 2);
	ut_ev(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 30, -1, -1, 0, 2);
	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 20, -1, -1, 0, 2);
	ut_ev(tr, 1, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 25, -1, -1, 0, 2);
	/* barrier 2: p0 starts at 200 with Δ 150 (LT 50), p1 at 40 */
	ut_delta[0] = 150;
	ut_ev(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 200, -1, -1, 0,
	      2);
	ut_ev(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 210, -1, -1, 0, 2);
	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 40, -1, -1, 0, 2);
	e1 = ut_ev(tr, 1, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 211, -1, -1, 0,
		   2);
	assert_int_equal(ana_compensate(tr, &o), 0);
	assert_int_equal(tr->sum.groups, 2);
	/* barrier 1: p1 started last (own 5, unchanged at 25); p0 waited:
	 * its own cost is that of barrier 2, where it started last (10):
	 * end' = max(10 + 10, 20 + 2) = 22 instead of 30, shift -8, so its
	 * second START is at 200 - 150 - 8 = 42.  Barrier 2: p1 waited:
	 * end' = max(40 + 5, 42 + 2) = 45 instead of 211; p0 did not:
	 * max(42 + 10, 40 + 2) = 52. */
	assert_int_equal(ut_get(tr, 1, 2)->c_ns, 25);
	assert_int_equal(ut_get(tr, 0, 2)->c_ns, 22);
	assert_int_equal(ut_get(tr, 0, 3)->c_ns, 42);
	assert_int_equal(ut_get(tr, 1, e1)->c_ns, 45);
	assert_int_equal(ut_get(tr, 0, 4)->c_ns, 52);
	ana_free(tr);
}

/* Rooted collectives (MPI ranks 0..2, root 0, l = 10, Δ 0):
 *   MPI_Reduce: r0 (root) 100..105, r1 50..60, r2 200..220: only the root
 *   waits, for the last START (200):
 *     order: o(r0 END) = 200 + 10 = 210; r1, r2 unchanged;
 *     compensation: r0 waited (its START is not the last); own group cost
 *     of r0 = its bcast (did not wait: a root waits for nobody) = 10;
 *     end' = max(100 + min(5, 10), 200 + 10) = 210, shift +105.
 *   MPI_Bcast (MCAST records): r0 300..310, r1 250..290 (measured before
 *   the root started), r2 320..330: the others wait for the root's START:
 *     order: o(r1 END) = 300 + 10 = 310; r2 stays at 330;
 *     compensation: r0's START is at 300 + 105 = 405, its END 415; r1
 *     waited: max(250 + min(40, 10), 405 + 10) = 415; r2 did not wait
 *     (its START is after the root's): max(320 + 10, 415) = 415. */
static void test_rooted_groups(void **state)
{
	ana_trace *tr = ut_trace(3, 1);
	ana_opts o = ut_opts(10);
	static const int64_t red[3][2] = {{100, 105}, {50, 60}, {200, 220}};
	static const int64_t bc[3][2] = {{300, 310}, {250, 290}, {320, 330}};
	uint32_t p;

	for (p = 0; p < 3; p++) {
		ut_ev(tr, p, PVT_EV_GROUP_START, PVT_OP_MPI_REDUCE, red[p][0], 0,
		      -1, 0, 3);
		ut_ev(tr, p, PVT_EV_GROUP_END, PVT_OP_MPI_REDUCE, red[p][1], 0,
		      -1, 0, 3);
		ut_ev(tr, p, PVT_EV_MCAST_START, PVT_OP_MPI_BCAST, bc[p][0], 0,
		      -1, 0, 3);
		ut_ev(tr, p, PVT_EV_MCAST_END, PVT_OP_MPI_BCAST, bc[p][1], 0,
		      -1, 0, 3);
	}
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.groups, 2);
	assert_int_equal(tr->sum.mcast_pairs, 0);
	assert_int_equal(ut_get(tr, 0, 2)->o_ns, 210);
	assert_int_equal(ut_get(tr, 1, 2)->o_ns, 60);
	assert_int_equal(ut_get(tr, 2, 2)->o_ns, 220);
	assert_int_equal(ut_get(tr, 1, 4)->o_ns, 310);
	assert_int_equal(ut_get(tr, 2, 4)->o_ns, 330);
	assert_int_equal(ut_get(tr, 0, 4)->o_ns, 310);
	assert_int_equal(ut_get(tr, 0, 2)->c_ns, 210);
	assert_int_equal(ut_get(tr, 1, 2)->c_ns, 60);
	assert_int_equal(ut_get(tr, 0, 3)->c_ns, 405);
	assert_int_equal(ut_get(tr, 0, 4)->c_ns, 415);
	assert_int_equal(ut_get(tr, 1, 4)->c_ns, 415);
	assert_int_equal(ut_get(tr, 2, 4)->c_ns, 415);
	ana_free(tr);
}

/* ParJava figure 2: p0 receives twice with a wildcard; p1 is slowed by
 * its instrumentation, so p2's message came first in the run:
 *   p2: send at 480..500, Δ 10                 -> cs' = 490
 *   p1: send at 990..1000, Δ 800                -> cs' = 200
 *   p0: recv(any) 100..520 got p2's, recv(any) 530..1010 got p1's
 * p1's message was sent 290 ns earlier in compensated time (> l = 5):
 * the first receive took another path. */
static void test_comp_diverged(void **state)
{
	ana_trace *tr = ut_trace(3, 0);
	ana_opts o = ut_opts(5);
	uint32_t r1, r2;

	ut_delta[2] = 10;
	ut_send(tr, 2, 480, 500, 0, 1);
	ut_delta[1] = 800;
	ut_send(tr, 1, 990, 1000, 0, 1);
	r1 = ut_recv(tr, 0, 100, 520, -1, 2, 1);
	r2 = ut_recv(tr, 0, 530, 1010, -1, 1, 1);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_true(ut_get(tr, 0, r1)->flags & ANA_F_DIVERGED);
	assert_false(ut_get(tr, 0, r2)->flags & ANA_F_DIVERGED);
	assert_int_equal(tr->sum.diverged, 1);
	/* without the heavy probes of p1 nothing diverges */
	ut_get(tr, 1, 1)->delta_ns = ut_get(tr, 1, 2)->delta_ns = 0;
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.diverged, 0);
	assert_false(ut_get(tr, 0, r1)->flags & ANA_F_DIVERGED);
	ana_free(tr);
}

/* An inconsistent trace (what a wrong clock model or a lost event can
 * give): p0 leaves a barrier, then sends to p1; p1 receives that message
 * before it enters the barrier.  The dependencies form a cycle; the walk
 * breaks it (p0's barrier END goes first, as if unmatched) and every pass
 * still visits every event once, keeping each process's order. */
static void test_walk_cycle(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(10);
	uint32_t p, i;

	ut_ev(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 10, -1, -1, 0, 2);
	ut_ev(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 20, -1, -1, 0, 2);
	ut_send(tr, 0, 30, 40, 1, 1);
	ut_recv(tr, 1, 5, 50, 0, 0, 1);
	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 60, -1, -1, 0, 2);
	ut_ev(tr, 1, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 70, -1, -1, 0, 2);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->sum.pairs, 1);
	assert_int_equal(tr->sum.groups, 1);
	/* the receive still comes after its send in both views */
	assert_true(ut_get(tr, 1, 2)->c_ns >= ut_get(tr, 0, 4)->c_ns + 10);
	assert_true(ut_get(tr, 1, 2)->o_ns >= ut_get(tr, 0, 4)->o_ns + 10);
	for (p = 0; p < 2; p++)
		for (i = 1; i < tr->procs[p].nev; i++) {
			assert_true(ut_get(tr, p, i)->c_ns >=
				    ut_get(tr, p, i - 1)->c_ns);
			assert_true(ut_get(tr, p, i)->o_ns >
				    ut_get(tr, p, i - 1)->o_ns);
		}
	assert_int_equal(ana_sort(tr, ANA_VIEW_ORDER), 0);
	assert_int_equal(tr->norder, 10);
	assert_int_equal(ana_count_inversions(tr), 0);
	ana_free(tr);
}

/* ---- order ------------------------------------------------------------- */

/* p1's clock is behind: its receive ends at 5010, 5 µs before the send
 * START (10000).  l = 100, δ = 1:
 *   forward: o(RECV_END) = 10000 + 100 = 10100, jump 5090; exit at 6000
 *   -> 10101.
 *   amortization since p1's first event (t = 0): o = t + 5090 t / 5010:
 *   1000 -> 2015, 2000 -> 4031, 3000 -> 6047, RECV_START 4000 -> 8063. */
static ana_trace *ut_skewed(void)
{
	ana_trace *tr = ut_trace(2, 0);
	int64_t t;

	ut_send(tr, 0, 10000, 10010, 1, 1);
	for (t = 1000; t <= 3000; t += 1000) {
		ut_ev(tr, 1, PVT_EV_FN_ENTER, PVT_OP_RT_FUNC, t, -1, -1, 0, 0);
	}
	ut_recv(tr, 1, 4000, 5010, 0, 0, 1);
	ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, 6000, -1, -1, 0, 0);
	return tr;
}

static void test_order_repair(void **state)
{
	ana_trace *tr = ut_skewed();
	ana_opts o = ut_opts(100);
	static const int64_t want[] = {0, 2015, 4031, 6047, 8063, 10100,
				       10101};
	uint32_t i;

	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(tr->stage, 3);
	assert_int_equal(tr->sum.violations, 1);
	for (i = 0; i < 7; i++)
		assert_int_equal(ut_get(tr, 1, i)->o_ns, want[i]);
	assert_int_equal(tr->sum.repairs, 6);
	assert_int_equal(tr->sum.max_repair_ns, 5090);
	assert_false(ut_get(tr, 1, 0)->flags & ANA_F_REPAIRED);
	assert_true(ut_get(tr, 1, 5)->flags & ANA_F_REPAIRED);
	for (i = 0; i < 3; i++) /* the sender is untouched */
		assert_int_equal(ut_get(tr, 0, i)->o_ns,
				 ut_get(tr, 0, i)->t_ns);
	/* without amortization only the receive and what follows move */
	o.amortize = 0;
	assert_int_equal(ana_order(tr, &o), 0);
	assert_int_equal(tr->sum.repairs, 2);
	assert_int_equal(ut_get(tr, 1, 4)->o_ns, 4000);
	assert_int_equal(ut_get(tr, 1, 5)->o_ns, 10100);
	ana_free(tr);
}

/* The raw view shows the receive before its send; the compensated and
 * the repaired views never do. */
static void test_sort_inversions(void **state)
{
	ana_trace *tr = ut_skewed();
	ana_opts o = ut_opts(100);

	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(ana_sort(tr, ANA_VIEW_RAW), 0);
	assert_int_equal(tr->norder, 10);
	assert_int_equal(tr->order_view, ANA_VIEW_RAW);
	assert_int_equal(ana_count_inversions(tr), 1);
	assert_int_equal(ana_sort(tr, ANA_VIEW_ORDER), 0);
	assert_int_equal(ana_count_inversions(tr), 0);
	assert_int_equal(ana_sort(tr, ANA_VIEW_COMP), 0);
	assert_int_equal(ana_count_inversions(tr), 0);
	assert_int_equal(ana_sort(tr, 7), ANA_EARG);
	ana_free(tr);
}

/* Ties: with l = 0 the receive END of p0 and the send START of p1 are
 * both at 60; the send comes first although p1 > p0; other ties go by
 * process index (both PROG_STARTs at 0).  The send call returns at 100,
 * after the receive ended: no inversion. */
static void test_sort_ties(void **state)
{
	ana_trace *tr = ut_trace(2, 0);
	ana_opts o = ut_opts(0);
	static const ana_ref want[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1},
				       {0, 2}, {1, 2}};
	uint32_t i;

	ut_recv(tr, 0, 50, 60, 1, 1, 1);
	ut_send(tr, 1, 60, 100, 0, 1);
	assert_int_equal(ana_analyze(tr, &o), 0);
	assert_int_equal(ut_get(tr, 0, 2)->c_ns, 60);
	assert_int_equal(ana_sort(tr, ANA_VIEW_COMP), 0);
	assert_int_equal(tr->norder, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(tr->order[i].proc, want[i].proc);
		assert_int_equal(tr->order[i].idx, want[i].idx);
	}
	assert_int_equal(ana_time(ut_get(tr, 0, 2), ANA_VIEW_RAW), 60);
	assert_int_equal(ana_count_inversions(tr), 0);
	assert_int_equal(tr->sum.violations, 0);
	assert_int_equal(tr->sum.repairs, 0);
	ana_free(tr);
}

/* Nothing to analyse: a trace without processes, one with a process
 * without events; NULL is refused. */
static void test_empty(void **state)
{
	ana_trace *tr = ana_new();

	assert_non_null(tr);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	assert_int_equal(ana_sort(tr, ANA_VIEW_COMP), 0);
	assert_int_equal(tr->norder, 0);
	assert_int_equal(ana_count_inversions(tr), 0);
	assert_int_equal(ana_add_node(tr, "n", "", NULL), 0);
	assert_int_equal(ana_add_proc(tr, "p0", 0), 0);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	assert_int_equal(tr->stage, 3);
	assert_int_equal(ana_sort(tr, ANA_VIEW_RAW), 0);
	assert_int_equal(tr->norder, 0);
	assert_int_equal(ana_analyze(NULL, NULL), ANA_EARG);
	assert_int_equal(ana_match(NULL), ANA_EARG);
	assert_int_equal(ana_sort(NULL, ANA_VIEW_COMP), ANA_EARG);
	ana_free(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_exact),
		cmocka_unit_test(test_clock_bound),
		cmocka_unit_test(test_clock_one_window),
		cmocka_unit_test(test_clock_short_run),
		cmocka_unit_test(test_match_fifo_wildcard),
		cmocka_unit_test(test_match_mcast),
		cmocka_unit_test(test_match_barrier),
		cmocka_unit_test(test_match_unmatched_open),
		cmocka_unit_test(test_match_mpi_irecv),
		cmocka_unit_test(test_comp_local),
		cmocka_unit_test(test_comp_slow_sender),
		cmocka_unit_test(test_comp_cpu_stall),
		cmocka_unit_test(test_comp_latency_estimate),
		cmocka_unit_test(test_comp_not_before_send),
		cmocka_unit_test(test_comp_send_raised),
		cmocka_unit_test(test_comp_barrier),
		cmocka_unit_test(test_rooted_groups),
		cmocka_unit_test(test_comp_diverged),
		cmocka_unit_test(test_walk_cycle),
		cmocka_unit_test(test_order_repair),
		cmocka_unit_test(test_sort_inversions),
		cmocka_unit_test(test_sort_ties),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
