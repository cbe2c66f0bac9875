/*
 * bench_events.c — cost of recording an event (rt_event.c): the hot path
 * of the shared-memory ring, beside the cost of the clock read it
 * contains.
 *
 *   bench_events [PROBES [BURSTS]]   (default 2000000 probes in 5 bursts)
 *
 * Must run attached (PARAVT_SOCK set, to `ev_sink -q -r` for the ring, or
 * `ev_sink -q` for the socket path; run.sh does both).  Prints: the cost
 * of one clock read (median of back-to-back reads); ns per probe (a start
 * and an end record, as every wrapper writes) and per record; the time
 * waiting for a full ring (the sink drains every 10 ms: a burst of
 * millions of records fills any ring) or flushing to the socket, and the
 * hot path without it; Δ per record as calibrated.  The probes run in
 * BURSTS bursts; the figures are those of the median burst (by its hot
 * path), with the range of the bursts' hot paths beside them: a burst
 * that the machine slowed (this virtual machine has a slow mode, in
 * which one burst took three times as long) does not make the figure.
 * Those bursts fill the ring many times over, so the sink drains it
 * from another processor while they run.  Then QUIET_BURSTS bursts of
 * half a ring's records, each after a pause of QUIET_PAUSE_MS (the sink
 * drains every 10 ms: the ring is empty when each starts, and the burst
 * fills half of it): the hot path with the reader idle, median and
 * range.
 */
#include <time.h>
#include <stdio.h>
#include <stdlib.h>

#include "paravt_rt.h"
#include "rt_event.h"

/* Median cost of a clock read, ns. */
static double clock_read_ns(void)
{
	static uint64_t d[10001];
	uint64_t a, x;
	int i, j;

	for (i = 0; i < 10001; i++) {
		a = pvt__ev_now();
		d[i] = pvt__ev_now() - a;
	}
	for (i = 1; i < 10001; i++) { /* insertion sort: small, once */
		x = d[i];
		for (j = i; j > 0 && d[j - 1] > x; j--)
			d[j] = d[j - 1];
		d[j] = x;
	}
	return (double)d[5000];
}

/* One burst of n probes. */
typedef struct burst {
	pvt__ev_stat a, b; /* the runtime's counters before and after */
	double ns;         /* its time */
	double rec;        /* records written */
	double stall;      /* of ns, waiting for the drain or flushing */
	double hot;        /* ns a record without the stall */
} burst;

static void run_burst(long n, burst *u)
{
	pvt__ev_probe pr;
	uint64_t t0, t1;
	long i;

	pvt__ev_stats(&u->a);
	t0 = pvt__ev_now();
	for (i = 0; i < n; i++) {
		(void)pvt__ev_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_SEND,
		                    __FILE__, __func__, __LINE__, 5, 7, 64, 0, 0, 0);
		pvt__ev_call(&pr);
		pvt__ev_end(&pr, PVT_EV_SEND_END, 5, 7, 64, 0, 0);
	}
	t1 = pvt__ev_now();
	pvt__ev_stats(&u->b);
	u->rec = (double)(u->b.records - u->a.records);
	u->ns = (double)(t1 - t0);
	u->stall = (double)(u->b.flush_ns - u->a.flush_ns) +
	           (double)(u->b.ring_wait_ns - u->a.ring_wait_ns);
	u->hot = u->rec > 0 ? (u->ns - u->stall) / u->rec : 0;
}

static int by_hot(const void *x, const void *y)
{
	const burst *a = x, *b = y;

	return (a->hot > b->hot) - (a->hot < b->hot);
}

#define BURSTS_MAX 64
#define QUIET_BURSTS 9
#define QUIET_PROBES 16384 /* without a ring: 32768 records */
#define QUIET_PAUSE_MS 30

/* The probes of a quiet burst: half a ring's records (cap of them). */
static long quiet_probes(uint32_t cap)
{
	return cap >= 4 ? (long)cap / 4 : QUIET_PROBES;
}

/* QUIET_BURSTS bursts of n probes after pauses into u, sorted by hot
 * path. */
static void quiet_bursts(burst *u, long n)
{
	struct timespec ts = {0, QUIET_PAUSE_MS * 1000000L};
	int j;

	for (j = 0; j < QUIET_BURSTS; j++) {
		(void)nanosleep(&ts, NULL);
		run_burst(n, &u[j]);
	}
	qsort(u, QUIET_BURSTS, sizeof u[0], by_hot);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	int k = argc > 2 ? atoi(argv[2]) : 5, j;
	static burst u[BURSTS_MAX], q[QUIET_BURSTS];
	const burst *m;
	double clk;
	long nq;

	if (n < 1 || k < 1 || k > BURSTS_MAX) {
		fprintf(stderr, "usage: bench_events [PROBES [BURSTS (1-%d)]]\n",
		        BURSTS_MAX);
		return 2;
	}
	if (pvt__ev_init(NULL) == PVT_TRACE_OFF) {
		fprintf(stderr, "bench_events: not attached (set PARAVT_SOCK)\n");
		return 1;
	}
	clk = clock_read_ns();
	for (j = 0; j < k; j++)
		run_burst(n / k > 0 ? n / k : 1, &u[j]);
	qsort(u, (size_t)k, sizeof u[0], by_hot);
	m = &u[k / 2];
	printf("events (%s): clock read %.1f ns; per probe (2 records) "
	       "%.1f ns\n", m->b.ring ? "ring" : "socket", clk,
	       m->ns / (m->rec / 2));
	printf("events (%s): per record, hot path %.1f ns (%.1f M records/s; "
	       "median of %d bursts, %.1f..%.1f); with %s %.1f ns\n",
	       m->b.ring ? "ring" : "socket", m->hot, 1e3 / m->hot, k,
	       u[0].hot, u[k - 1].hot,
	       m->b.ring ? "waits for the drain" : "flushes", m->ns / m->rec);
	printf("events (%s): %llu waits, %llu flushes, %.1f ms stalled of "
	       "%.1f ms; delta per record %llu ns\n",
	       m->b.ring ? "ring" : "socket",
	       (unsigned long long)(m->b.ring_waits - m->a.ring_waits),
	       (unsigned long long)(m->b.flushes - m->a.flushes),
	       m->stall / 1e6, m->ns / 1e6,
	       (unsigned long long)m->b.record_ns);
	nq = quiet_probes(m->b.ring_cap);
	quiet_bursts(q, nq);
	printf("events (%s): per record, hot path with the reader idle "
	       "%.1f ns (median of %d bursts of %ld records after %d ms "
	       "pauses, %.1f..%.1f)\n", m->b.ring ? "ring" : "socket",
	       q[QUIET_BURSTS / 2].hot, QUIET_BURSTS, 2 * nq,
	       QUIET_PAUSE_MS, q[0].hot, q[QUIET_BURSTS - 1].hot);
	para_vt_exit(0);
	return 0;
}
