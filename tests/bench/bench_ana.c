/*
 * bench_ana.c — throughput of the analysis of a recorded run (issue 5):
 * ana_analyze (matching, compensation, controlled logical clock) plus
 * ana_sort of the compensated view, on a synthetic trace.
 *
 *   bench_ana [EVENTS] [PROCS]      (defaults 10000000 and 64)
 *
 * The trace: PROCS PVM tasks on PROCS / 8 nodes whose clocks are skewed
 * (offsets of up to ±24 µs and drifts of up to ±4 ppm, so that some
 * receives are measured before their sends), each event costing 100 ns of
 * Δ.  Rounds of: a ring (each task sends to the next and receives from
 * the previous, odd tasks with a wildcard), master/worker (every worker
 * sends a result to task 0, which receives them with wildcards in arrival
 * order) and, every 50 rounds, a barrier of all tasks.  Message latency 3
 * µs, compute times pseudo-random.
 *
 * Prints events/s of analyze + sort in CPU time of the process (goal:
 * over 2 M/s on one core; the wall time is printed too), the time of each
 * part, what the passes found (pairs, violations, repairs,
 * inversions left, which must be 0), and memory: peak RSS after building
 * the trace and after the analysis (getrusage), as bytes per event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ana.h"
#include "pvt_event.h"

#define LAT 3000      /* ns, message latency */
#define PROBE 100     /* ns of Δ per event */

typedef struct gen {
	ana_trace *tr;
	uint32_t np;
	int64_t *now;     /* real time of each task */
	int64_t *delta;   /* Δ of each task */
	int64_t *mark;    /* per task: send END time / arrival of the round */
	uint32_t *order;  /* scratch: workers by arrival */
	uint32_t seed;
	uint64_t n;
} gen;

/* Seconds on clock id (CPU time of this process, or wall time). */
static double secs(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long peak_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
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

/* Task p's measured time of real time t: its node's offset and drift. */
static int64_t measured(uint32_t p, int64_t t)
{
	int64_t k = (int64_t)(p / 8 % 8) - 4;

	return t + k * 6000 + t / 1000000 * k;
}

/* Appends an event of task p at real time t. */
static void emit(gen *g, uint32_t p, uint16_t kind, uint16_t op, int64_t t,
		 int32_t peer, int32_t tag, int32_t result)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = measured(p, t);
	e.delta_ns = g->delta[p];
	e.bytes = kind == PVT_EV_SEND_END || kind == PVT_EV_RECV_END ? 64 : -1;
	e.seq = g->tr->procs[p].nev;
	e.peer = peer;
	e.tag = tag;
	e.result = result;
	e.kind = kind;
	e.op = op;
	if (ana_add_event(g->tr, p, &e) < 0) {
		fprintf(stderr, "bench_ana: out of memory building the trace\n");
		exit(1);
	}
	g->delta[p] += PROBE;
	g->n++;
}

/* Each task sends to the next one, then receives from the previous. */
static void ring(gen *g)
{
	uint32_t p, src;
	int64_t t;

	for (p = 0; p < g->np; p++) {
		t = g->now[p] + 1000 + rnd(g) % 2000;
		emit(g, p, PVT_EV_SEND_START, PVT_OP_PVM_SEND, t,
		     tid((p + 1) % g->np), 1, 0);
		g->mark[p] = t + 500;
		emit(g, p, PVT_EV_SEND_END, PVT_OP_PVM_SEND, t + 500,
		     tid((p + 1) % g->np), 1, 0);
		g->now[p] = t + 600;
	}
	for (p = 0; p < g->np; p++) {
		src = (p + g->np - 1) % g->np;
		t = g->now[p] + 100;
		emit(g, p, PVT_EV_RECV_START, PVT_OP_PVM_RECV, t,
		     p & 1 ? -1 : tid(src), 1, 0);
		t = t + 600 > g->mark[src] + LAT ? t + 600 : g->mark[src] + LAT;
		emit(g, p, PVT_EV_RECV_END, PVT_OP_PVM_RECV, t, tid(src), 1, 5);
		g->now[p] = t + 100;
	}
}

static gen *cmp_gen; /* the generator qsort compares arrivals in */

static int by_arrival(const void *a, const void *b)
{
	int64_t x = cmp_gen->mark[*(const uint32_t *)a];
	int64_t y = cmp_gen->mark[*(const uint32_t *)b];

	return (x > y) - (x < y);
}

/* Workers send to task 0, which takes them with wildcards as they come. */
static void master_worker(gen *g)
{
	uint32_t p, k;
	int64_t t;

	for (p = 1; p < g->np; p++) {
		t = g->now[p] + rnd(g) % 20000;
		emit(g, p, PVT_EV_SEND_START, PVT_OP_PVM_SEND, t, tid(0), 2, 0);
		emit(g, p, PVT_EV_SEND_END, PVT_OP_PVM_SEND, t + 500, tid(0), 2,
		     0);
		g->mark[p] = t + 500 + LAT;
		g->now[p] = t + 600;
		g->order[p - 1] = p;
	}
	cmp_gen = g;
	qsort(g->order, g->np - 1, sizeof *g->order, by_arrival);
	for (k = 0; k + 1 < g->np; k++) {
		p = g->order[k];
		t = g->now[0] + 100;
		emit(g, 0, PVT_EV_RECV_START, PVT_OP_PVM_RECV, t, -1, 2, 0);
		t = t + 600 > g->mark[p] ? t + 600 : g->mark[p];
		emit(g, 0, PVT_EV_RECV_END, PVT_OP_PVM_RECV, t, tid(p), 2, 5);
		g->now[0] = t + 100;
	}
}

/* A barrier of all tasks: everyone leaves 2 µs after the last arrives. */
static void barrier(gen *g)
{
	int64_t last = 0;
	uint32_t p;

	for (p = 0; p < g->np; p++) {
		emit(g, p, PVT_EV_GROUP_START, PVT_OP_PVM_BARRIER, g->now[p],
		     -1, -1, 0);
		if (g->now[p] > last)
			last = g->now[p];
	}
	for (p = 0; p < g->np; p++) {
		g->now[p] = last + 2000 + p;
		emit(g, p, PVT_EV_GROUP_END, PVT_OP_PVM_BARRIER, g->now[p], -1,
		     -1, 0);
	}
}

/* Builds the trace of about n events over np tasks. */
static ana_trace *build(uint64_t n, uint32_t np)
{
	gen g = {.np = np, .seed = 7};
	char name[ANA_NAME_MAX];
	uint32_t p, round;

	g.tr = ana_new();
	g.now = calloc(np, sizeof *g.now);
	g.delta = calloc(np, sizeof *g.delta);
	g.mark = calloc(np, sizeof *g.mark);
	g.order = calloc(np, sizeof *g.order);
	if (!g.tr || !g.now || !g.delta || !g.mark || !g.order)
		return NULL;
	for (p = 0; p < (np + 7) / 8; p++) {
		snprintf(name, sizeof name, "node%u", p);
		ana_add_node(g.tr, name, "linux-x86_64", NULL);
	}
	for (p = 0; p < np; p++) {
		snprintf(name, sizeof name, "p%u", p);
		ana_add_proc(g.tr, name, p / 8);
		emit(&g, p, PVT_EV_PROG_START, PVT_OP_NONE, 0, tid(p), -1, 0);
	}
	for (round = 1; g.n < n; round++) {
		ring(&g);
		master_worker(&g);
		if (round % 50 == 0)
			barrier(&g);
	}
	free(g.now);
	free(g.delta);
	free(g.mark);
	free(g.order);
	return g.tr;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	uint32_t np = argc > 2 ? (uint32_t)atoi(argv[2]) : 64;
	double t0, t1, t2, t3, w1, w3;
	long kb0, kb1;
	uint64_t inv;
	ana_trace *tr;
	int rc;

	if (np < 2 || n < np) {
		fprintf(stderr, "usage: bench_ana [EVENTS] [PROCS>=2]\n");
		return 2;
	}
	t0 = secs(CLOCK_PROCESS_CPUTIME_ID);
	tr = build(n, np);
	if (tr == NULL) {
		fprintf(stderr, "bench_ana: out of memory\n");
		return 1;
	}
	kb0 = peak_kb();
	w1 = secs(CLOCK_MONOTONIC);
	t1 = secs(CLOCK_PROCESS_CPUTIME_ID);
	rc = ana_analyze(tr, NULL);
	t2 = secs(CLOCK_PROCESS_CPUTIME_ID);
	if (rc == 0)
		rc = ana_sort(tr, ANA_VIEW_COMP);
	t3 = secs(CLOCK_PROCESS_CPUTIME_ID);
	w3 = secs(CLOCK_MONOTONIC);
	kb1 = peak_kb();
	if (rc < 0) {
		fprintf(stderr, "bench_ana: analysis failed (%d)\n", rc);
		return 1;
	}
	inv = ana_count_inversions(tr);
	printf("analysis: %llu events, %u tasks (built in %.2f s CPU)\n",
	       (unsigned long long)tr->sum.events, np, t1 - t0);
	printf("analysis: analyze %.3f s + sort %.3f s (CPU) = %.0f events/s "
	       "(goal > 2000000); wall %.3f s\n",
	       t2 - t1, t3 - t2, (double)tr->sum.events / (t3 - t1), w3 - w1);
	printf("analysis: %llu pairs, %llu groups, %llu violations, %llu "
	       "repairs (max %lld ns), %llu moved, %llu diverged, l_min %lld "
	       "ns, %llu inversions left\n",
	       (unsigned long long)tr->sum.pairs,
	       (unsigned long long)tr->sum.groups,
	       (unsigned long long)tr->sum.violations,
	       (unsigned long long)tr->sum.repairs,
	       (long long)tr->sum.max_repair_ns,
	       (unsigned long long)tr->sum.moved,
	       (unsigned long long)tr->sum.diverged,
	       (long long)tr->sum.l_min_ns, (unsigned long long)inv);
	printf("analysis: memory: event %zu B; peak RSS %ld MB after "
	       "building (%.0f B/event), %ld MB after the analysis "
	       "(%.0f B/event)\n",
	       sizeof(ana_ev), kb0 / 1024, kb0 * 1024.0 / tr->sum.events,
	       kb1 / 1024, kb1 * 1024.0 / tr->sum.events);
	rc = inv == 0 ? 0 : 1;
	ana_free(tr);
	return rc;
}
