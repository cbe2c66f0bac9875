/*
 * bench_sim.c — speed of performance prediction (issue 15): ana_sim_run
 * on a synthetic analysed trace, in events simulated per second of CPU
 * time on one core (goal: over 2 M/s; LogGOPSim reports about 1 M/s).
 *
 *   bench_sim [EVENTS] [PROCS]      (defaults 4000000 and 64)
 *
 * The trace: PROCS PVM tasks on PROCS / 8 nodes, rounds of a ring (each
 * task sends 4 KiB to the next, then receives from the previous, odd
 * tasks with a wildcard) with pseudo-random computation between, and a
 * barrier of all every 20 rounds.  It is analysed first (not timed:
 * bench_ana measures that), then predicted twice for a machine of three
 * levels (4-core nodes in racks of 4, links limited on the upper two),
 * with half the nodes half as fast: once in the residual model (against
 * the traced machine, which is estimated from the trace: that is timed
 * too), once in the pure one.  The predicted run time is printed so that
 * a change of the model shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ana.h"
#include "ana_sim.h"
#include "pvt_event.h"

typedef struct gen {
	ana_trace *tr;
	uint32_t np, seed;
	int64_t *now;     /* real time of each task */
	int64_t *sent;    /* per task: its send's START this round */
	uint64_t n;
} gen;

static double cpu_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint32_t rnd(gen *g)
{
	g->seed = g->seed * 1103515245u + 12345u;
	return (g->seed >> 8) & 0xffffff;
}

static int32_t tid(uint32_t p)
{
	return (int32_t)(0x40001 + p);
}

static void emit(gen *g, uint32_t p, uint16_t kind, uint16_t op, int64_t t,
		 int32_t peer, int32_t tag, int32_t result, int64_t bytes)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = t;
	e.bytes = bytes;
	e.seq = g->tr->procs[p].nev;
	e.peer = peer;
	e.tag = tag;
	e.result = result;
	e.kind = kind;
	e.op = op;
	if (ana_add_event(g->tr, p, &e) < 0) {
		fprintf(stderr, "bench_sim: out of memory building the trace\n");
		exit(1);
	}
	g->n++;
}

/* Each task computes, sends 4 KiB to the next, receives from the
 * previous (latency 5 us + 1 ns a byte). */
static void ring(gen *g)
{
	uint32_t p, src;
	int64_t t, arr;

	for (p = 0; p < g->np; p++) {
		t = g->now[p] + 2000 + rnd(g) % 8000;
		g->sent[p] = t;
		emit(g, p, PVT_EV_SEND_START, PVT_OP_PVM_SEND, t,
		     tid((p + 1) % g->np), 1, 0, -1);
		emit(g, p, PVT_EV_SEND_END, PVT_OP_PVM_SEND, t + 800,
		     tid((p + 1) % g->np), 1, 0, 4096);
		g->now[p] = t + 800;
	}
	for (p = 0; p < g->np; p++) {
		src = (p + g->np - 1) % g->np;
		t = g->now[p] + 100;
		emit(g, p, PVT_EV_RECV_START, PVT_OP_PVM_RECV, t,
		     p & 1 ? -1 : tid(src), 1, 0, -1);
		arr = g->sent[src] + 5000 + 4096;
		t = t + 500 > arr ? t + 500 : arr;
		emit(g, p, PVT_EV_RECV_END, PVT_OP_PVM_RECV, t, tid(src), 1, 5,
		     4096);
		g->now[p] = t;
	}
}

/* A barrier of all tasks: everyone leaves 20 us after the last came. */
static void barrier(gen *g)
{
	int64_t last = 0;
	uint32_t p;

	for (p = 0; p < g->np; p++) {
		emit(g, p, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, g->now[p],
		     -1, -1, 0, -1);
		last = g->now[p] > last ? g->now[p] : last;
	}
	for (p = 0; p < g->np; p++) {
		g->now[p] = last + 20000 + p;
		emit(g, p, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, g->now[p], -1,
		     -1, 0, -1);
	}
}

static ana_trace *build(uint64_t n, uint32_t np)
{
	gen g = {.np = np, .seed = 11};
	char name[ANA_NAME_MAX];
	uint32_t p, round;

	g.tr = ana_new();
	g.now = calloc(np, sizeof *g.now);
	g.sent = calloc(np, sizeof *g.sent);
	if (!g.tr || !g.now || !g.sent)
		return NULL;
	for (p = 0; p < (np + 7) / 8; p++) {
		snprintf(name, sizeof name, "node%u", p);
		ana_add_node(g.tr, name, "linux-x86_64", NULL);
	}
	for (p = 0; p < np; p++) {
		snprintf(name, sizeof name, "p%u", p);
		ana_add_proc(g.tr, name, p / 8);
		emit(&g, p, PVT_EV_PROG_START, PVT_OP_NONE, 0, tid(p), -1, 0,
		     -1);
	}
	for (round = 1; g.n < n; round++) {
		ring(&g);
		if (round % 20 == 0)
			barrier(&g);
	}
	free(g.now);
	free(g.sent);
	return g.tr;
}

/* The target: np / 4 nodes of 4 cores in racks of 4, odd racks half as
 * fast; levels core, rack (links 8), top (links 2). */
static ana_sim_machine *target(uint32_t np)
{
	size_t cap = 256 + (size_t)np * 96, k = 0;
	char *text = malloc(cap), err[300];
	ana_sim_machine *m = NULL;
	uint32_t i;

	if (text == NULL)
		return NULL;
	k += (size_t)snprintf(text + k, cap - k,
		"level core latency 1us bandwidth 10GB/s\n"
		"level rack latency 5us bandwidth 1GB/s links 8\n"
		"level top latency 20us bandwidth 100MB/s links 2\n");
	for (i = 0; i < (np + 3) / 4; i++)
		k += (size_t)snprintf(text + k, cap - k,
				      "node n%u speed %s cores 4 group r%u\n",
				      i, i / 4 % 2 ? "0.5" : "1", i / 4);
	for (i = 0; i < np; i++)
		k += (size_t)snprintf(text + k, cap - k, "map p%u n%u\n", i,
				      i / 4);
	if (ana_sim_parse(text, k, "bench", &m, err, sizeof err) != 0)
		fprintf(stderr, "bench_sim: %s\n", err);
	free(text);
	return m;
}

/* One timed prediction; its events/s or -1. */
static double timed(ana_trace *tr, const ana_sim_machine *m, int pure,
		    const char *what)
{
	ana_sim_opts o = {pure, NULL};
	ana_sim_result r;
	char err[300];
	double t0, t1;

	t0 = cpu_secs();
	if (ana_sim_run(tr, m, &o, &r, err, sizeof err) != 0) {
		fprintf(stderr, "bench_sim: %s\n", err);
		return -1;
	}
	t1 = cpu_secs();
	printf("prediction: %s model: %.3f s CPU = %.0f events/s (goal > "
	       "2000000); predicted %.3f ms, recorded %.3f ms, E %.3f, %llu "
	       "link waits\n", what, t1 - t0, (double)r.events / (t1 - t0),
	       r.pred.span_ns / 1e6, r.rec.span_ns / 1e6, r.pred.eff,
	       (unsigned long long)r.link_waits);
	ana_sim_result_free(&r);
	return (double)tr->sum.events / (t1 - t0);
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 4000000;
	uint32_t np = argc > 2 ? (uint32_t)atoi(argv[2]) : 64;
	ana_sim_machine *m;
	ana_trace *tr;
	double t0, a, b;

	if (np < 2 || n < np) {
		fprintf(stderr, "usage: bench_sim [EVENTS] [PROCS>=2]\n");
		return 2;
	}
	tr = build(n, np);
	m = target(np);
	if (tr == NULL || m == NULL) {
		fprintf(stderr, "bench_sim: out of memory\n");
		return 1;
	}
	t0 = cpu_secs();
	if (ana_analyze(tr, NULL) != 0) {
		fprintf(stderr, "bench_sim: analysis failed\n");
		return 1;
	}
	printf("prediction: %llu events, %u tasks, %llu pairs, %llu groups "
	       "(analysed in %.2f s CPU, not counted)\n",
	       (unsigned long long)tr->sum.events, np,
	       (unsigned long long)tr->sum.pairs,
	       (unsigned long long)tr->sum.groups, cpu_secs() - t0);
	a = timed(tr, m, 0, "residual");
	b = timed(tr, m, 1, "pure");
	ana_sim_machine_free(m);
	ana_free(tr);
	return a > 0 && b > 0 ? 0 : 1;
}
