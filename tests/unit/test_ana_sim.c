/*
 * test_ana_sim.c — unit tests of performance prediction (ana_sim.h): the
 * machine file (good files, bad files with their line and column, the
 * writer read back, one parameter changed), and the simulation on traces
 * built by hand whose predicted times are worked out in the comments:
 * one message between two nodes (pure model), a faster CPU, the traced
 * machine itself (the recorded times back), a slower network in the
 * residual model, a barrier, links that make a message wait, and the DVM
 * characteristics.
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
#include "ana_sim.h"
#include "../../wrappers/pvt_event.h"

#define TID(p) ((int32_t)(0x40001 + (p)))

/* ---- the machine file ---------------------------------------------------- */

static ana_sim_machine *ut_parse(const char *text)
{
	ana_sim_machine *m = NULL;
	char err[512] = "";

	if (ana_sim_parse(text, strlen(text), "m.conf", &m, err,
			  sizeof err) != 0)
		fail_msg("parse failed: %s", err);
	return m;
}

static const char *ut_good =
	"# two racks\n"
	"level core latency 1us bandwidth 1GB/s\n"
	"level rack latency 10us per-byte 10ns links 2   # in a rack\n"
	"level top  latency 0.1ms bandwidth 100Mbit/s buffer 64KiB\n"
	"\n"
	"node a speed 2 cores 4 group r1\n"
	"node b group r1\n"
	"node c speed 0.5 calls 0.25 cores 2 start 3ms group r2\n"
	"map p0 a\n"
	"map p1 c\n"
	"push a c 0.5\n";

static void test_parse_good(void **state)
{
	ana_sim_machine *m = ut_parse(ut_good);

	(void)state;
	assert_int_equal(m->nlv, 3);
	assert_string_equal(m->lv[0].name, "core");
	assert_float_equal(m->lv[0].lat_ns, 1000, 1e-9);
	assert_float_equal(m->lv[0].byte_ns, 1, 1e-12);
	assert_int_equal(m->lv[0].links, 0);
	assert_float_equal(m->lv[1].lat_ns, 10000, 1e-9);
	assert_float_equal(m->lv[1].byte_ns, 10, 1e-12);
	assert_int_equal(m->lv[1].links, 2);
	assert_float_equal(m->lv[2].lat_ns, 100000, 1e-6);
	assert_float_equal(m->lv[2].byte_ns, 80, 1e-9); /* 12.5 MB/s */
	assert_float_equal(m->lv[2].buf_bytes, 65536, 0);
	assert_float_equal(m->lv[0].buf_bytes, -1, 0); /* unlimited */
	assert_int_equal(m->nnode, 3);
	assert_float_equal(m->node[0].speed, 2, 0);
	assert_int_equal(m->node[0].cores, 4);
	assert_float_equal(m->node[2].calls, 0.25, 0);
	assert_float_equal(m->node[0].calls, 0, 0); /* as speed */
	assert_float_equal(m->node[1].speed, 1, 0); /* defaults */
	assert_int_equal(m->node[1].cores, 1);
	assert_int_equal(m->nmap, 2);
	assert_int_equal(m->map[1].node, 2);
	/* levels: same node 0, same rack 1, else the top */
	assert_int_equal(ana_sim_level_of(m, 0, 0), 0);
	assert_int_equal(ana_sim_level_of(m, 0, 1), 1);
	assert_int_equal(ana_sim_level_of(m, 0, 2), 2);
	ana_sim_machine_free(m);
}

/* Each bad file and the start of its error: file, line, column. */
static void test_parse_bad(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{"level l latency 1us bandwidth 1GB/s\nnode a\nnod b\n",
		 "m.conf:3:1: unknown statement 'nod'"},
		{"level l latency 1xs bandwidth 1GB/s\nnode a\n",
		 "m.conf:1:17: '1xs': unknown unit 'xs'"},
		{"level l latency 5 bandwidth 1GB/s\nnode a\n",
		 "m.conf:1:17: '5': no unit"},
		{"level l latency 1us bandwidth 1GB/s buffer 5\nnode a\n",
		 "m.conf:1:44: '5': no unit '' (use B, KB"},
		{"level l latency 1us\nnode a\n",
		 "m.conf:1:1: level 'l' needs a bandwidth"},
		{"level l latency 1us bandwidth 1GB/s per-byte 1ns\nnode a\n",
		 "m.conf:1:37: give bandwidth or per-byte once"},
		{"level l latency 1us bandwidth 0GB/s\nnode a\n",
		 "m.conf:1:31: bandwidth '0GB/s' must be above 0"},
		{"level l latency 1us bandwidth 1GB/s\n  node a speed 0\n",
		 "m.conf:2:16: speed '0' must be above 0"},
		{"level l latency 1us bandwidth 1GB/s\nnode a cores 0\n",
		 "m.conf:2:14: '0' is not a number of cores"},
		{"level l latency 1us bandwidth 1GB/s\nnode a colour red\n",
		 "m.conf:2:8: unknown node setting 'colour'"},
		{"level l latency 1us bandwidth 1GB/s\nnode a\nnode a\n",
		 "m.conf:3:6: node 'a' is defined twice"},
		{"level l latency 1us bandwidth 1GB/s\nmap p0 zz\nnode a\n",
		 "m.conf:2:8: no node 'zz'"},
		{"level l latency 1us bandwidth 1GB/s\nnode a\nmap p0\n",
		 "m.conf:3:5: map needs a process and a node"},
		{"level l latency 1us bandwidth 1GB/s\nnode a\nmap p0 a\n"
		 "map p0 a\n", "m.conf:4:5: process 'p0' is mapped twice"},
		{"node a\n", "m.conf:1:1: no level"},
		{"level l latency 1us bandwidth 1GB/s\n", "m.conf:1:1: no node"},
		{"level l latency\nnode a\n",
		 "m.conf:1:9: 'latency' needs a value"},
		{"level l latency 1us bandwidth 1GB/s links -1\nnode a\n",
		 "m.conf:1:43: '-1' is not a number of links"},
		{"level l latency 1us bandwidth 1GB/s\nnode a group 1 2 3 4 5 "
		 "6 7 8 9\n", "m.conf:2:30: more than 8 groups"},
		{"level l latency 1us bandwidth 1GB/s\nnode a start -1ms\n",
		 "m.conf:2:14: '-1ms' is not a time"},
		{"level l latency 1us bandwidth 1GB/s\nnode a\npush a a\n",
		 "m.conf:3:8: push needs two nodes and a speed"},
		{"level l latency 1us bandwidth 1GB/s\nnode a\npush a a 1 2\n",
		 "m.conf:3:12: push takes two nodes and a speed, nothing more"},
		{"level l latency 1us bandwidth 1GB/s\nnode a\npush a a 0\n",
		 "m.conf:3:10: push '0' must be above 0"},
		{"level l latency 1us bandwidth 1GB/s\npush a zz 2\nnode a\n",
		 "m.conf:2:8: no node 'zz'"},
		{"level l latency 1us bandwidth 1GB/s\nnode a\nnode b\n"
		 "push a b 2\npush a b 3\n",
		 "m.conf:5:6: push from 'a' to 'b' is given twice"},
	};
	ana_sim_machine *m;
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		m = (ana_sim_machine *)1;
		err[0] = '\0';
		assert_int_equal(ana_sim_parse(bad[i].text, strlen(bad[i].text),
					       "m.conf", &m, err, sizeof err),
				 ANA_EARG);
		assert_null(m);
		if (strncmp(err, bad[i].want, strlen(bad[i].want)) != 0)
			fail_msg("case %zu: got '%s', want '%s...'", i, err,
				 bad[i].want);
	}
}

/* The writer's text reads back to the same machine. */
static void test_format_roundtrip(void **state)
{
	ana_sim_machine *m = ut_parse(ut_good), *m2;
	char *text = ana_sim_format(m);

	(void)state;
	assert_non_null(text);
	m2 = ut_parse(text);
	assert_int_equal(m2->nlv, m->nlv);
	for (uint32_t i = 0; i < m->nlv; i++) {
		assert_float_equal(m2->lv[i].lat_ns, m->lv[i].lat_ns, 1e-6);
		assert_float_equal(m2->lv[i].byte_ns, m->lv[i].byte_ns, 1e-9);
		assert_int_equal(m2->lv[i].links, m->lv[i].links);
	}
	assert_int_equal(m2->nnode, 3);
	assert_string_equal(m2->node[2].group[0], "r2");
	assert_float_equal(m2->node[2].speed, 0.5, 0);
	assert_float_equal(m2->lv[2].buf_bytes, 65536, 0);
	assert_float_equal(m2->lv[1].buf_bytes, -1, 0);
	assert_float_equal(m2->node[2].calls, 0.25, 0);
	assert_float_equal(m2->node[0].calls, 0, 0);
	assert_float_equal(m2->node[2].start_ns, 3e6, 0);
	assert_float_equal(m2->node[0].start_ns, 0, 0);
	assert_int_equal(m2->nmap, 2);
	assert_int_equal(m2->map[1].node, 2);
	assert_int_equal(m2->npush, 1);
	assert_int_equal(m2->push[0].from, 0);
	assert_int_equal(m2->push[0].to, 2);
	assert_float_equal(m2->push[0].speed, 0.5, 0);
	free(text);
	ana_sim_machine_free(m);
	ana_sim_machine_free(m2);
}

static void test_set(void **state)
{
	ana_sim_machine *m = ut_parse(ut_good);
	char err[300];

	(void)state;
	assert_int_equal(ana_sim_set(m, "latency", "5us", err, sizeof err), 0);
	assert_float_equal(m->lv[0].lat_ns, 1000, 0); /* not level 0 */
	assert_float_equal(m->lv[1].lat_ns, 5000, 0);
	assert_float_equal(m->lv[2].lat_ns, 5000, 0);
	assert_int_equal(ana_sim_set(m, "core.bandwidth", "2GB/s", err,
				     sizeof err), 0);
	assert_float_equal(m->lv[0].byte_ns, 0.5, 1e-12);
	assert_int_equal(ana_sim_set(m, "c.speed", "3", err, sizeof err), 0);
	assert_float_equal(m->node[2].speed, 3, 0);
	assert_int_equal(ana_sim_set(m, "p1.node", "b", err, sizeof err), 0);
	assert_int_equal(m->map[1].node, 1);
	assert_int_equal(ana_sim_set(m, "zz.speed", "1", err, sizeof err),
			 ANA_EARG);
	assert_string_equal(err, "zz.speed=1: no level, node or mapped "
			    "process 'zz'");
	assert_int_equal(ana_sim_set(m, "latency", "fast", err, sizeof err),
			 ANA_EARG);
	assert_int_equal(ana_sim_set(m, "p1.node", "zz", err, sizeof err),
			 ANA_EARG);
	ana_sim_machine_free(m);
}

/* ---- traces -------------------------------------------------------------- */

static uint32_t ut_ev(ana_trace *tr, uint32_t p, uint16_t kind, uint16_t op,
		      int64_t t, int32_t peer, int32_t result, int64_t bytes,
		      int32_t aux)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = t;
	e.kind = kind;
	e.op = op;
	e.bytes = bytes;
	e.peer = peer;
	e.tag = kind == PVT_EV_GROUP_START || kind == PVT_EV_GROUP_END ?
		-1 : 1;
	e.result = result;
	e.aux = aux;
	e.seq = tr->procs[p].nev;
	assert_int_equal(ana_add_event(tr, p, &e), 0);
	return tr->procs[p].nev - 1;
}

/* Processes p0 (node a) and p1 (node second, of port port), PROG_START
 * at 0. */
static ana_trace *ut_two_on(const char *second, const char *port)
{
	ana_trace *tr = ana_new();

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "a", "linux-x86_64", NULL), 0);
	assert_int_equal(ana_add_node(tr, second, port, NULL), 1);
	assert_int_equal(ana_add_proc(tr, "p0", 0), 0);
	assert_int_equal(ana_add_proc(tr, "p1", 1), 1);
	ut_ev(tr, 0, PVT_EV_PROG_START, PVT_OP_NONE, 0, TID(0), 0, -1,
	      PVT_EVENT_VERSION);
	ut_ev(tr, 1, PVT_EV_PROG_START, PVT_OP_NONE, 0, TID(1), 0, -1,
	      PVT_EVENT_VERSION);
	return tr;
}

/* Processes p0 (node a) and p1 (node b), PROG_START at 0. */
static ana_trace *ut_two(void)
{
	return ut_two_on("b", "linux-x86_64");
}

/* One message of 1000 bytes:
 *   p0: send 1000-1100, exit 1200
 *   p1: recv 100-60000 (it waited: sent at 1000), exit 61000
 * Compensation changes nothing (no Δ; the receive ends 59000 after the
 * send START, the latency it had). */
static ana_trace *ut_message(void)
{
	ana_trace *tr = ut_two();

	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1000, TID(1), 0, -1,
	      0);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1100, TID(1), 0, 1000,
	      0);
	ut_ev(tr, 0, PVT_EV_PROG_EXIT, PVT_OP_NONE, 1200, -1, 0, -1, 0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 100, TID(0), 0, -1,
	      0);
	ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 60000, TID(0), 7, 1000,
	      0);
	ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, 61000, -1, 0, -1, 0);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	assert_int_equal(tr->sum.pairs, 1);
	assert_int_equal(tr->procs[1].ev[2].c_ns, 60000);
	return tr;
}

static const char *ut_net =
	"level core latency 1us bandwidth 1GB/s\n"
	"level net latency 10us bandwidth 100MB/s\n"
	"node a\nnode b\nmap p0 a\nmap p1 b\n";

/* The prediction of tr on m, traced being the traced machine (NULL: the
 * trace's own description). */
static ana_sim_result ut_run_on(ana_trace *tr, const ana_sim_machine *m,
				const ana_sim_machine *traced, int pure)
{
	ana_sim_opts o = {pure, traced};
	ana_sim_result r;
	char err[300] = "";

	if (ana_sim_run(tr, m, &o, &r, err, sizeof err) != 0)
		fail_msg("simulation failed: %s", err);
	return r;
}

static ana_sim_result ut_run(ana_trace *tr, const ana_sim_machine *m,
			     int pure)
{
	return ut_run_on(tr, m, NULL, pure);
}

/* Pure model, net level: 10 us + 1000 B * 10 ns = 20 us.  The receive
 * ends at max(100 + own, 1000 + 20000) = 21000 (own: p1's only receive
 * waited, nobody has one that did not: 0); p1 exits 1000 later: 22000,
 * the predicted run time.  p1: T 22000, inside the receive 100..21000
 * = 20900 (communication and waiting), computing 1100. */
static void test_message_pure(void **state)
{
	ana_trace *tr = ut_message();
	ana_sim_machine *m = ut_parse(ut_net);
	ana_sim_result r = ut_run(tr, m, 1);

	(void)state;
	assert_int_equal(r.events, 8);
	assert_int_equal(r.s_ns[6], 21000);  /* p1's RECV_END */
	assert_int_equal(r.pred.span_ns, 22000);
	assert_int_equal(r.pdvm.time_ns, 22000);
	assert_int_equal(r.pred.task[1].total_ns, 22000);
	assert_int_equal(r.pred.task[1].comm_ns, 20900);
	assert_int_equal(r.pred.task[1].wait_ns, 20900);
	assert_int_equal(r.pred.task[1].comp_ns, 1100);
	assert_int_equal(r.rec.span_ns, 61000); /* recorded, untouched */
	assert_int_equal(tr->procs[1].ev[2].c_ns, 60000); /* put back */
	/* p0: T 1200 (C 100) -> idle 20800, imbalance 1100 - 1100 = 0,
	 * lost 22000 - 1100 */
	assert_int_equal(r.pdvm.idle_ns[0], 20800);
	assert_int_equal(r.pdvm.imb_ns[0], 0);
	assert_int_equal(r.pdvm.lost_ns[0], 20900);
	assert_float_equal(r.pdvm.par_eff, 2200.0 / 44000.0, 1e-12);
	ana_sim_result_free(&r);
	/* a transport buffer of 200 B on the net: p0's send returns when
	 * the other 800 B have gone, at 10 ns a byte (the traced machine,
	 * one message, has no time per byte): SEND_END 1100 + 8000, exit
	 * 9200; the receive is as before */
	assert_int_equal(ana_sim_set(m, "net.buffer", "200B", NULL, 0), 0);
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[2], 9100);
	assert_int_equal(r.s_ns[3], 9200);
	assert_int_equal(r.s_ns[6], 21000);
	ana_sim_result_free(&r);
	assert_int_equal(ana_sim_set(m, "net.buffer", "inf", NULL, 0), 0);
	/* both on node a: level core, 1 us + 1000 B * 1 ns = 2 us */
	ana_sim_set(m, "p1.node", "a", NULL, 0);
	m->node[0].cores = 2;
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[6], 3000);
	assert_int_equal(r.pred.span_ns, 4000);
	ana_sim_result_free(&r);
	ana_sim_machine_free(m);
	ana_free(tr);
}

/* Node a twice as fast: p0's send starts at 500, the receive ends at
 * 500 + 20000, p1 exits at 21500; sharing one core with p1 (cores 1, two
 * processes) makes it as slow as before: 1000 + 20000 and 22000.  Calls
 * at another speed than the computation (calls 0.5): see below. */
static void test_message_speed(void **state)
{
	ana_trace *tr = ut_message();
	ana_sim_machine *m = ut_parse(ut_net);
	ana_sim_result r;

	(void)state;
	m->node[0].speed = 2;
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[1], 500);
	assert_int_equal(r.s_ns[6], 20500);
	assert_int_equal(r.pred.span_ns, 21500);
	ana_sim_result_free(&r);
	m->map[1].node = 0; /* p1 on a too: level core 2000, a shared */
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[1], 1000);
	assert_int_equal(r.s_ns[6], 3000);
	ana_sim_result_free(&r);
	/* a as fast as traced but its calls half as fast: p0's send takes
	 * 200, not 100 (SEND_END 1200, exit 1300); p1's receive took its
	 * whole time waiting, so only its message counts */
	m->map[1].node = 1;
	m->node[0].speed = 1;
	m->node[0].calls = 0.5;
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[1], 1000);
	assert_int_equal(r.s_ns[2], 1200);
	assert_int_equal(r.s_ns[3], 1300);
	assert_int_equal(r.s_ns[6], 21000);
	ana_sim_result_free(&r);
	ana_sim_machine_free(m);
	ana_free(tr);
}

/* The traced machine (ana_sim_describe) in the residual model gives the
 * recorded times back; 10 us more latency on the net adds 10 us to the
 * message: 60000 -> 70000, run 71000.  The description: two nodes, one
 * process each, a level between them whose latency is the one message's
 * 59 us. */
static void test_message_residual(void **state)
{
	ana_trace *tr = ut_message();
	ana_sim_machine *m = NULL;
	ana_sim_result r;
	uint64_t k;

	(void)state;
	assert_int_equal(ana_sim_describe(tr, &m), 0);
	assert_int_equal(m->nnode, 2);
	assert_int_equal(m->nlv, 2);
	assert_int_equal(m->nmap, 2);
	assert_int_equal(m->node[1].cores, 1);
	assert_float_equal(m->lv[1].lat_ns, 59000, 1e-6);
	r = ut_run(tr, m, 0);
	k = 0;
	for (uint32_t p = 0; p < tr->nprocs; p++)
		for (uint32_t i = 0; i < tr->procs[p].nev; i++, k++)
			assert_int_equal(r.s_ns[k], tr->procs[p].ev[i].c_ns);
	assert_int_equal(r.pred.span_ns, r.rec.span_ns);
	ana_sim_result_free(&r);
	m->lv[1].lat_ns += 10000;
	r = ut_run(tr, m, 0);
	assert_int_equal(r.s_ns[6], 70000);
	assert_int_equal(r.pred.span_ns, 71000);
	ana_sim_result_free(&r);
	/* node a starts its processes 10 us later: p0 sends at 11000, the
	 * message (69 us now) arrives at 80000, p1 exits at 81000 */
	m->node[0].start_ns = 10000;
	r = ut_run(tr, m, 0);
	assert_int_equal(r.s_ns[0], 10000);
	assert_int_equal(r.s_ns[1], 11000);
	assert_int_equal(r.s_ns[6], 80000);
	assert_int_equal(r.pred.span_ns, 81000);
	ana_sim_result_free(&r);
	ana_sim_machine_free(m);
	ana_free(tr);
}

/* A PVM message of 100000 B from p0 (send START ss, END se) to p1
 * (receive START rs, END re); both exit 1000 after. */
static ana_trace *ut_big(int64_t ss, int64_t se, int64_t rs, int64_t re)
{
	ana_trace *tr = ut_two();

	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, ss, TID(1), 0, -1, 0);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, se, TID(1), 0, 100000,
	      0);
	ut_ev(tr, 0, PVT_EV_PROG_EXIT, PVT_OP_NONE, se + 1000, -1, 0, -1, 0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, rs, TID(0), 0, -1, 0);
	ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, re, TID(0), 7, 100000,
	      0);
	ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, re + 1000, -1, 0, -1, 0);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	assert_int_equal(tr->sum.pairs, 1);
	return tr;
}

/* The traced machine of ut_big: PVM's transport (buffer 0B) at 1 GB/s
 * and no latency: a send pushes its 100000 B in 100000 ns. */
static const char *ut_pvm_net =
	"level core latency 0ns bandwidth 1GB/s\n"
	"level net latency 0ns bandwidth 1GB/s buffer 0B\n"
	"node a\nnode b\nmap p0 a\nmap p1 b\n";

/* A push at half the traced speed (push a b 0.5): p1 receives from 500,
 * p0 sends 1000..101000, all of it the push of its 100000 B, and p1's
 * receive ends 101500.  The push takes 200000: the send ends at 201000
 * (p0 exits 202000), the receive 500 after it (the message is late by
 * as much), 201500, and p1 exits 202500.  The traced machine itself
 * gives the recorded times back; a push faster than the model changes
 * nothing (the level's bandwidth is the floor). */
static void test_push(void **state)
{
	ana_trace *tr = ut_big(1000, 101000, 500, 101500);
	ana_sim_machine *t = ut_parse(ut_pvm_net);
	ana_sim_machine *m = ut_parse(ut_pvm_net);
	ana_sim_result r;
	char err[200];

	(void)state;
	r = ut_run_on(tr, t, t, 0);
	assert_int_equal(r.s_ns[2], 101000);
	assert_int_equal(r.s_ns[6], 101500);
	assert_int_equal(r.pred.span_ns, 102500);
	ana_sim_result_free(&r);
	assert_int_equal(ana_sim_set_push(m, "a", "b", 0.5, err, sizeof err),
			 0);
	r = ut_run_on(tr, m, t, 0);
	assert_int_equal(r.s_ns[2], 201000);
	assert_int_equal(r.s_ns[3], 202000);
	assert_int_equal(r.s_ns[6], 201500);
	assert_int_equal(r.pred.span_ns, 202500);
	ana_sim_result_free(&r);
	assert_int_equal(ana_sim_set_push(m, "a", "b", 4, err, sizeof err), 0);
	assert_int_equal(m->npush, 1);
	r = ut_run_on(tr, m, t, 0);
	assert_int_equal(r.pred.span_ns, 102500);
	ana_sim_result_free(&r);
	assert_int_equal(ana_sim_set_push(m, "a", "zz", 1, err, sizeof err),
			 ANA_EARG);
	assert_string_equal(err, "push: no node 'zz'");
	assert_int_equal(ana_sim_set_push(m, "a", "b", 0, err, sizeof err),
			 ANA_EARG);
	ana_sim_machine_free(m);
	ana_sim_machine_free(t);
	ana_free(tr);
}

/* A send that waited for its receiver: p1 computes until 50000 and
 * receives 50000..150500; p0's send began at 1000 and could push its
 * message only once p1 was there: it ended at 150000 (49000 of waiting,
 * 100000 of push).  Node b half as fast: p1's receive begins at 100000,
 * so the send ends at 100000 + 100000 = 200000 (not 150000: its wait
 * is the receiver's, not its own), the receive 500 after it, 200500,
 * and p1 exits 2000 later, 202500.  The traced machine gives the
 * recorded times back. */
static void test_rendezvous(void **state)
{
	ana_trace *tr = ut_big(1000, 150000, 50000, 150500);
	ana_sim_machine *t = ut_parse(ut_pvm_net);
	ana_sim_machine *m = ut_parse(ut_pvm_net);
	ana_sim_result r;

	(void)state;
	r = ut_run_on(tr, t, t, 0);
	assert_int_equal(r.s_ns[2], 150000);
	assert_int_equal(r.s_ns[6], 150500);
	ana_sim_result_free(&r);
	m->node[1].speed = 0.5;
	r = ut_run_on(tr, m, t, 0);
	assert_int_equal(r.s_ns[5], 100000);
	assert_int_equal(r.s_ns[2], 200000);
	assert_int_equal(r.s_ns[6], 200500);
	assert_int_equal(r.pred.span_ns, 202500);
	assert_int_equal(r.forced, 0);
	ana_sim_result_free(&r);
	ana_sim_machine_free(m);
	ana_sim_machine_free(t);
	ana_free(tr);
}

/* tr predicted on ut_pvm_net with push a b at speed f and, unless 0, the
 * net level's time per byte changed to byte_ns. */
static ana_sim_result ut_push_run(ana_trace *tr, double f, double byte_ns)
{
	ana_sim_machine *t = ut_parse(ut_pvm_net);
	ana_sim_machine *m = ut_parse(ut_pvm_net);
	ana_sim_result r;
	char err[200];

	assert_int_equal(ana_sim_set_push(m, "a", "b", f, err, sizeof err), 0);
	if (byte_ns > 0)
		m->lv[1].byte_ns = byte_ns;
	r = ut_run_on(tr, m, t, 0);
	ana_sim_machine_free(m);
	ana_sim_machine_free(t);
	return r;
}

/* A push measured over more than the model's part: p0's send waited for
 * p1 from 1000 to 50000, then took 200000 to END at 250000, of which the
 * model's push of 100000 B is 100000 (the rest is the library's and the
 * kernel's).  push a b 0.5, measured as a sample measures it (from when
 * both were in their calls to the END), on the traced network: all of
 * the 200000 at half speed, the send ends at 50000 + 400000 = 450000,
 * the receive 500 after it.  With the level's bandwidth changed, its
 * model governs the push part (100000 to 200000) and the rest keeps its
 * time: the send ends at 301000 (its start plus its 100000 of its own
 * time plus the 200000 push).  A level whose time per byte is the traced
 * one's but for the 10th significant digit (the traced machine written
 * to a file with 9 and read back) is the traced network: 450000 again. */
static void test_push_whole(void **state)
{
	ana_trace *tr = ut_big(1000, 250000, 50000, 250500);
	ana_sim_machine *t = ut_parse(ut_pvm_net);
	ana_sim_result r;
	double bn = t->lv[1].byte_ns;

	(void)state;
	ana_sim_machine_free(t);
	r = ut_push_run(tr, 0.5, 0);
	assert_int_equal(r.s_ns[2], 450000);
	assert_int_equal(r.s_ns[6], 450500);
	ana_sim_result_free(&r);
	r = ut_push_run(tr, 0.5, bn * (1 + 3e-10));
	assert_int_equal(r.s_ns[2], 450000);
	ana_sim_result_free(&r);
	r = ut_push_run(tr, 0.5, 2);
	assert_int_equal(r.s_ns[2], 301000);
	ana_sim_result_free(&r);
	ana_free(tr);
}

/* The level between nodes from the measured paths: node a's 20 us round
 * trip at 1 GB/s up and 500 MB/s down, node b's 60 us at 200 MB/s up:
 * the larger half round trip, 30 us, and the lowest rate, 5 ns a byte;
 * ana_sim_describe takes them.  With b not measured, the fit again. */
static void test_link_level(void **state)
{
	ana_trace *tr = ut_message();
	ana_sim_machine *m = NULL;
	ana_link la = {1, 20000, 1e9, 5e8, 4194304, 4194304};
	ana_link lb = {1, 60000, 2e8, 1e9, 1048576, 4194304};
	double lat = 0, byte_ns = 0;
	char note[400];

	(void)state;
	tr->nodes[0].link = la;
	tr->nodes[1].link = lb;
	assert_int_equal(ana_sim_link_level(tr, &lat, &byte_ns, note,
					    sizeof note), 1);
	assert_float_equal(lat, 30000, 1e-6);
	assert_float_equal(byte_ns, 5, 1e-9);
	assert_non_null(strstr(note, "latency 30.0 us and bandwidth 200.0 MB/s"));
	assert_int_equal(ana_sim_describe(tr, &m), 0);
	assert_float_equal(m->lv[1].lat_ns, 30000, 1e-6);
	assert_float_equal(m->lv[1].byte_ns, 5, 1e-9);
	ana_sim_machine_free(m);
	tr->nodes[1].link.valid = 0;
	assert_int_equal(ana_sim_link_level(tr, &lat, &byte_ns, note,
					    sizeof note), 0);
	assert_int_equal(ana_sim_describe(tr, &m), 0);
	assert_float_equal(m->lv[1].lat_ns, 59000, 1e-6);
	ana_sim_machine_free(m);
	ana_free(tr);
}

/* A barrier of the two (PVM, count 2): p0 starts it at 100, p1 at 500,
 * both leave at 600.  Pure model, net 10 us, no bytes: a tree of
 * ceil(log2 2) = 1 step, twice (everyone waits for everyone): 20 us.
 * p0 leaves at max(100 + own, 500 + 20000) = 20500 (own: its shortest
 * barrier, 500); p1 at max(500 + 100, 100 + 20000) = 20100. */
static void test_barrier(void **state)
{
	ana_trace *tr = ut_two();
	ana_sim_machine *m = ut_parse(ut_net);
	ana_sim_result r;

	(void)state;
	ut_ev(tr, 0, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 100, -1, 0, -1,
	      2);
	ut_ev(tr, 0, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 600, -1, 0, -1, 2);
	ut_ev(tr, 1, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, 500, -1, 0, -1,
	      2);
	ut_ev(tr, 1, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, 600, -1, 0, -1, 2);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	assert_int_equal(tr->sum.groups, 1);
	assert_int_equal(tr->procs[0].ev[2].c_ns, 600);
	assert_int_equal(tr->procs[1].ev[2].c_ns, 600);
	m->lv[1].byte_ns = 0;
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[2], 20500);
	assert_int_equal(r.s_ns[5], 20100);
	ana_sim_result_free(&r);
	ana_sim_machine_free(m);
	ana_free(tr);
}

/* Two messages from p0 to p1 sent at once (1000 B each, sends START at
 * 1000 and 1010) over one link of 10 ns a byte: the second waits for the
 * first's 10 us on the link.  Pure model: the first arrives at 1000 +
 * 20000 = 21000, the second at 1010 + 9990 (wait) + 20000 = 31000. */
static void test_links(void **state)
{
	ana_trace *tr = ut_two();
	ana_sim_machine *m = ut_parse(ut_net);
	ana_sim_result r;

	(void)state;
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1000, TID(1), 0, -1,
	      0);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1005, TID(1), 0, 1000,
	      0);
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1010, TID(1), 0, -1,
	      0);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1015, TID(1), 0, 1000,
	      0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 100, TID(0), 0, -1,
	      0);
	ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 50000, TID(0), 7, 1000,
	      0);
	ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 50100, TID(0), 0, -1,
	      0);
	ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 50200, TID(0), 7, 1000,
	      0);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	assert_int_equal(tr->sum.pairs, 2);
	/* unlimited links: the second arrives at 21010, before its receive
	 * starts (21100) and takes what it took (100) */
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[7], 21000);
	assert_int_equal(r.s_ns[9], 21200); /* 21100 + own 100 */
	assert_int_equal(r.link_waits, 0);
	ana_sim_result_free(&r);
	m->lv[1].links = 1;
	r = ut_run(tr, m, 1);
	assert_int_equal(r.s_ns[7], 21000);
	assert_int_equal(r.s_ns[9], 31000);
	assert_int_equal(r.link_waits, 1);
	ana_sim_result_free(&r);
	ana_sim_machine_free(m);
	ana_free(tr);
}

/* The message of ut_message as a sample run on nodes a and c, p1's
 * computation taking twice as long (k = 2) or p1 calling something the
 * base never did (k = 0: a barrier instead of the receive); p1 starts at
 * start1. */
static ana_trace *ut_sample_at(int k, int64_t start1)
{
	ana_trace *tr = ut_two_on("c", "linux-s390x-qemu");

	tr->procs[1].ev[0].t_ns = start1; /* p1's PROG_START */
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 1000, TID(1), 0, -1,
	      0);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1100, TID(1), 0, 1000,
	      0);
	ut_ev(tr, 0, PVT_EV_PROG_EXIT, PVT_OP_NONE, 1200, -1, 0, -1, 0);
	ut_ev(tr, 1, k ? PVT_EV_RECV_START : PVT_EV_GROUP_START,
	      k ? PVT_OP_PVM_RECV : PVT_OP_PVM_BARRIER, 200, TID(0), 0, -1, 0);
	ut_ev(tr, 1, k ? PVT_EV_RECV_END : PVT_EV_GROUP_END,
	      k ? PVT_OP_PVM_RECV : PVT_OP_PVM_BARRIER, 60000, TID(0), 7,
	      k ? 1000 : -1, 0);
	ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, 60000 + 1000 * k, -1, 0,
	      -1, 0);
	assert_int_equal(ana_analyze(tr, NULL), 0);
	return tr;
}

/* ut_sample_at with p1 starting with p0, at 0. */
static ana_trace *ut_sample(int k)
{
	return ut_sample_at(k, 0);
}

/* Node speeds from a sample (ana_sim_speeds).  Base (ut_message): p0
 * computes 1000 before its send and 100 after, p1 100 before its
 * receive and 1000 after.  The sample runs p0 on a as fast and p1 on c
 * twice as slow: a 1100 / 1100 = 1, c 1100 / 2200 = 0.5.  The base as
 * its own sample: 1 everywhere.  A sample whose p1 runs other code: an
 * error naming node c; the speed of a set in a machine and c added. */
static void test_speeds(void **state)
{
	ana_trace *base = ut_message(), *smp = ut_sample(2);
	ana_sim_speed *sp = NULL;
	ana_sim_machine *m = ut_parse(ut_net);
	char err[400] = "";
	uint32_t n = 0;

	(void)state;
	assert_int_equal(ana_sim_speeds(base, &smp, 1, &sp, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(sp[0].node, "a");
	assert_float_equal(sp[0].comp.speed, 1.0, 1e-12);
	assert_int_equal(sp[0].comp.matched, 2);
	/* sends are not measured (the network's when buffers are small) */
	assert_float_equal(sp[0].calls.speed, 0, 0);
	assert_int_equal(sp[0].calls.matched, 0);
	assert_string_equal(sp[1].node, "c");
	assert_float_equal(sp[1].comp.speed, 0.5, 1e-12);
	assert_int_equal(sp[1].comp.sample_ns, 2200);
	assert_int_equal(sp[1].comp.base_ns, 1100);
	assert_int_equal(sp[1].comp.unmatched, 0);
	/* p1's receive waited: no call to measure, calls as speed */
	assert_int_equal(sp[1].calls.matched, 0);
	assert_float_equal(sp[1].calls.speed, 0, 0);
	assert_int_equal(ana_sim_set_node(m, "c", "0.5", NULL, err,
					  sizeof err), 0);
	assert_int_equal(m->nnode, 3);
	assert_float_equal(m->node[2].speed, 0.5, 0);
	assert_float_equal(m->node[2].calls, 0, 0);
	assert_int_equal(m->node[2].cores, 1);
	assert_int_equal(ana_sim_set_node(m, "a", "2", "0.25", err,
					  sizeof err), 0);
	assert_float_equal(m->node[0].speed, 2, 0);
	assert_float_equal(m->node[0].calls, 0.25, 0);
	assert_int_equal(m->nnode, 3);
	assert_int_equal(ana_sim_set_node(m, "b", "fast", NULL, err,
					  sizeof err), ANA_EARG);
	ana_sim_speeds_free(sp, n);
	assert_int_equal(ana_sim_speeds(base, &base, 1, &sp, &n, err, sizeof err),
			 0);
	assert_int_equal(n, 2);
	assert_float_equal(sp[0].comp.speed, 1.0, 1e-12);
	assert_float_equal(sp[1].comp.speed, 1.0, 1e-12);
	assert_int_equal(sp[0].starts, 0); /* both first: not measured */
	assert_int_equal(sp[1].starts, 0);
	ana_sim_speeds_free(sp, n);
	ana_free(smp);
	/* p1 starting 150 after p0 (with it in the base): c's start 150 */
	smp = ut_sample_at(2, 150);
	assert_int_equal(ana_sim_speeds(base, &smp, 1, &sp, &n, err, sizeof err),
			 0);
	assert_int_equal(sp[1].starts, 1);
	assert_float_equal(sp[1].start_ns, 150, 0);
	assert_int_equal(sp[0].starts, 0);
	ana_sim_speeds_free(sp, n);
	ana_free(smp);
	smp = ut_sample(0);
	assert_int_equal(ana_sim_speeds(base, &smp, 1, &sp, &n, err, sizeof err),
			 ANA_EARG);
	assert_null(sp);
	assert_non_null(strstr(err, "node c"));
	ana_sim_machine_free(m);
	ana_free(smp);
	ana_free(base);
}

/* Both processes of tr exit at t; tr analysed. */
static void ut_end(ana_trace *tr, int64_t t)
{
	ut_ev(tr, 0, PVT_EV_PROG_EXIT, PVT_OP_NONE, t, -1, 0, -1, 0);
	ut_ev(tr, 1, PVT_EV_PROG_EXIT, PVT_OP_NONE, t, -1, 0, -1, 0);
	assert_int_equal(ana_analyze(tr, NULL), 0);
}

/* ana_sim_speeds of smp against base, which must succeed; *n entries
 * (free with ana_sim_speeds_free). */
static ana_sim_speed *ut_speeds(ana_trace *base, ana_trace *smp,
				uint32_t *n)
{
	ana_sim_speed *sp = NULL;
	char err[400] = "";

	if (ana_sim_speeds(base, &smp, 1, &sp, n, err, sizeof err) != 0)
		fail_msg("%s", err);
	return sp;
}

/* n PVM messages of 100000 B from p0 (node a) to p1 (node second), a
 * millisecond apart: p1's receive begins first, p0's send 1000 later
 * takes push, the receive ends 500 after it. */
static ana_trace *ut_pushes(const char *second, const char *port, int n,
			    int64_t push)
{
	ana_trace *tr = ut_two_on(second, port);
	int64_t t0;
	int j;

	for (j = 0; j < n; j++) {
		t0 = (j + 1) * 1000000LL;
		ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, t0, TID(0), 0,
		      -1, 0);
		ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, t0 + 1000,
		      TID(1), 0, -1, 0);
		ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, t0 + 1000 + push,
		      TID(1), 0, 100000, 0);
		ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV,
		      t0 + 1500 + push, TID(0), 7, 100000, 0);
	}
	ut_end(tr, (n + 1) * 1000000LL);
	assert_int_equal(tr->sum.pairs, (uint64_t)n);
	return tr;
}

/* Push speeds from a sample: 5 sends from a to c, each pushing its
 * message in twice the base's 300 us (its receiver already in its
 * receive), give a -> c 0.5, from 5 sends; nothing the other way.  With
 * 4 sends, too few: 0 (not measured). */
static void test_push_speeds(void **state)
{
	ana_trace *base = ut_pushes("b", "linux-x86_64", 5, 300000);
	ana_trace *smp = ut_pushes("c", "linux-s390x-qemu", 5, 600000);
	uint32_t n = 0;
	ana_sim_speed *sp = ut_speeds(base, smp, &n);

	(void)state;
	assert_int_equal(n, 2);
	assert_string_equal(sp[1].node, "c");
	assert_float_equal(sp[0].push[1].speed, 0.5, 1e-12);
	assert_int_equal(sp[0].push[1].matched, 5);
	assert_float_equal(sp[1].push[0].speed, 0, 0);
	ana_sim_speeds_free(sp, n);
	ana_free(smp);
	smp = ut_pushes("c", "linux-s390x-qemu", 4, 600000);
	sp = ut_speeds(base, smp, &n);
	assert_int_equal(sp[0].push[1].matched, 4);
	assert_float_equal(sp[0].push[1].speed, 0, 0);
	ana_sim_speeds_free(sp, n);
	ana_free(smp);
	ana_free(base);
}

/* Two samples count as one longer run: c's computation 50 + 2000 (p1
 * starts at 150, receives at 200, computes twice as long after) and
 * 150 + 1000 against the base's 1100 twice (speed 2200 / 3200, not the
 * mean of the two), starts 150 and 50 later (100), and a push that neither
 * sample shows often enough alone (3 and 2 sends, 5 needed) measured
 * from the two: 0.5 over 5 sends. */
static void test_two_samples(void **state)
{
	ana_trace *base = ut_message(), *two[2];
	ana_sim_speed *sp = NULL;
	char err[400] = "";
	uint32_t n = 0;

	(void)state;
	two[0] = ut_sample_at(2, 150);
	two[1] = ut_sample_at(1, 50);
	assert_int_equal(ana_sim_speeds(base, two, 2, &sp, &n, err,
					sizeof err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(sp[1].node, "c");
	assert_float_equal(sp[1].comp.speed, 2200.0 / 3200.0, 1e-12);
	assert_int_equal(sp[1].comp.matched, 4);
	assert_int_equal(sp[1].procs, 2);
	assert_int_equal(sp[1].starts, 2);
	assert_float_equal(sp[1].start_ns, 100, 1e-9);
	assert_float_equal(sp[0].comp.speed, 1.0, 1e-12);
	ana_sim_speeds_free(sp, n);
	ana_free(two[0]);
	ana_free(two[1]);
	ana_free(base);
	base = ut_pushes("b", "linux-x86_64", 5, 300000);
	two[0] = ut_pushes("c", "linux-s390x-qemu", 3, 600000);
	two[1] = ut_pushes("c", "linux-s390x-qemu", 2, 600000);
	assert_int_equal(ana_sim_speeds(base, two, 1, &sp, &n, err,
					sizeof err), 0);
	assert_float_equal(sp[0].push[1].speed, 0, 0); /* 3: too few */
	ana_sim_speeds_free(sp, n);
	assert_int_equal(ana_sim_speeds(base, two, 2, &sp, &n, err,
					sizeof err), 0);
	assert_int_equal(sp[0].push[1].matched, 5);
	assert_float_equal(sp[0].push[1].speed, 0.5, 1e-12);
	ana_sim_speeds_free(sp, n);
	ana_free(two[0]);
	ana_free(two[1]);
	ana_free(base);
}

/* ana_sim_sample_odd over samples of k = ks[0..n-1] (ut_sample: node c
 * at 1100 / (200 + 1000 k)); the number left out. */
static int ut_odd(const int *ks, uint32_t n, ana_sim_odd *odd)
{
	ana_trace *base = ut_message(), *smp[4];
	uint32_t i;
	int left;

	for (i = 0; i < n; i++)
		smp[i] = ut_sample(ks[i]);
	left = ana_sim_sample_odd(base, smp, n, odd);
	for (i = 0; i < n; i++)
		ana_free(smp[i]);
	ana_free(base);
	return left;
}

/* Samples that disagree: of c's speeds 0.5, 0.5 and 0.34 the third is
 * 31% off the median 0.5 and left out (a agrees: 1 in all); of 0.92,
 * 0.5 and 0.34 the first and the last, keeping the median; two samples
 * are never judged; four that split evenly, 0.92 twice and 0.34 twice,
 * all off their median: none left out; a sample with no computation in
 * common (k 0) is not judged, and then c has two speeds: none left
 * out. */
static void test_odd_samples(void **state)
{
	static const int a[] = {2, 2, 3}, b[] = {1, 2, 3}, c[] = {2, 3},
			 d[] = {1, 1, 3, 3}, e[] = {2, 3, 0};
	ana_sim_odd odd[4];

	(void)state;
	assert_int_equal(ut_odd(a, 3, odd), 1);
	assert_false(odd[0].left_out);
	assert_false(odd[1].left_out);
	assert_true(odd[2].left_out);
	assert_string_equal(odd[2].node, "c");
	assert_float_equal(odd[2].speed, 1100.0 / 3200.0, 1e-12);
	assert_float_equal(odd[2].median, 0.5, 1e-12);
	assert_int_equal(ut_odd(b, 3, odd), 2);
	assert_true(odd[0].left_out);
	assert_false(odd[1].left_out);
	assert_true(odd[2].left_out);
	assert_float_equal(odd[0].speed, 1100.0 / 1200.0, 1e-12);
	assert_int_equal(ut_odd(c, 2, odd), 0);
	assert_false(odd[0].left_out || odd[1].left_out);
	assert_int_equal(ut_odd(d, 4, odd), 0);
	assert_false(odd[0].left_out || odd[3].left_out);
	assert_int_equal(ut_odd(e, 3, odd), 0);
	assert_false(odd[0].left_out || odd[1].left_out || odd[2].left_out);
}

/* n rounds of p0 (node a) computing 1000 ns (the second round extra
 * more) and sending 8 B to p1 (node second, of port port), which waits
 * in its receive from 5 ns before each send to 20 after. */
static ana_trace *ut_loop(const char *second, const char *port, int n,
			  int64_t extra)
{
	ana_trace *tr = ut_two_on(second, port);
	int64_t t = 0;
	int j;

	for (j = 0; j < n; j++) {
		t += 1000 + (j == 1 ? extra : 0);
		ut_ev(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, t - 5, TID(0),
		      0, -1, 0);
		ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, t, TID(1), 0,
		      -1, 0);
		ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, t + 10, TID(1),
		      0, 8, 0);
		ut_ev(tr, 1, PVT_EV_RECV_END, PVT_OP_PVM_RECV, t + 20, TID(0),
		      7, 8, 0);
		t += 10;
	}
	ut_end(tr, t + 1000);
	return tr;
}

/* Warm-up: a sample whose second round took 5000 ns more (the first of
 * the rounds' computation: each process's first segment of that kind)
 * leaves those segments out of the speeds (1, as the others are as fast
 * as the base's) and gives each node's processes 5000 ns of warm-up. */
static void test_warmup(void **state)
{
	ana_trace *base = ut_loop("b", "linux-x86_64", 5, 0);
	ana_trace *smp = ut_loop("c", "linux-s390x-qemu", 5, 5000);
	uint32_t n = 0;
	ana_sim_speed *sp = ut_speeds(base, smp, &n);

	(void)state;
	assert_int_equal(n, 2);
	assert_float_equal(sp[0].comp.speed, 1, 1e-12);
	assert_float_equal(sp[1].comp.speed, 1, 1e-12);
	assert_int_equal(sp[0].comp.warmup, 1);
	assert_float_equal(sp[0].warmup_ns, 5000, 1e-6);
	assert_float_equal(sp[1].warmup_ns, 5000, 1e-6);
	ana_sim_speeds_free(sp, n);
	ana_free(smp);
	ana_free(base);
}

/* A process with no node in the machine is an error that names it. */
static void test_unmapped(void **state)
{
	ana_trace *tr = ut_message();
	ana_sim_machine *m = ut_parse("level l latency 1us bandwidth inf\n"
				      "node x\nmap p0 x\n");
	ana_sim_result r;
	ana_sim_opts o = {1, NULL};
	char err[300];

	(void)state;
	assert_int_equal(ana_sim_run(tr, m, &o, &r, err, sizeof err),
			 ANA_EARG);
	assert_string_equal(err, "process p1 is not mapped to a node of the "
			    "target machine (map p1 NODE)");
	ana_sim_machine_free(m);
	ana_free(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_message_pure),
		cmocka_unit_test(test_message_speed),
		cmocka_unit_test(test_message_residual),
		cmocka_unit_test(test_push),
		cmocka_unit_test(test_rendezvous),
		cmocka_unit_test(test_push_whole),
		cmocka_unit_test(test_link_level),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_unmapped),
		cmocka_unit_test(test_speeds),
		cmocka_unit_test(test_push_speeds),
		cmocka_unit_test(test_two_samples),
		cmocka_unit_test(test_odd_samples),
		cmocka_unit_test(test_warmup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
