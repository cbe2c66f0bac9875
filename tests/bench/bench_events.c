/*
 * bench_events.c — cost of recording an event (rt_event.c): the hot path
 * of the shared-memory ring, beside the cost of the clock read it
 * contains.
 *
 *   bench_events [PROBES]        (default 2000000)
 *
 * Must run attached (PARAVT_SOCK set, to `ev_sink -q -r` for the ring, or
 * `ev_sink -q` for the socket path; run.sh does both).  Prints: the cost
 * of one clock read (median of back-to-back reads); ns per probe (a start
 * and an end record, as every wrapper writes) and per record; the time
 * waiting for a full ring (the sink drains every 10 ms: a burst of
 * millions of records fills any ring) or flushing to the socket, and the
 * hot path without it; Δ per record as calibrated.
 */
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

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000, i;
	pvt__ev_stat a, b;
	pvt__ev_probe pr;
	uint64_t t0, t1;
	double ns, rec, stall, clk;

	if (pvt__ev_init(NULL) == PVT_TRACE_OFF) {
		fprintf(stderr, "bench_events: not attached (set PARAVT_SOCK)\n");
		return 1;
	}
	clk = clock_read_ns();
	pvt__ev_stats(&a);
	t0 = pvt__ev_now();
	for (i = 0; i < n; i++) {
		(void)pvt__ev_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_SEND,
		                    __FILE__, __func__, __LINE__, 5, 7, 64, 0, 0, 0);
		pvt__ev_call(&pr);
		pvt__ev_end(&pr, PVT_EV_SEND_END, 5, 7, 64, 0, 0);
	}
	t1 = pvt__ev_now();
	pvt__ev_stats(&b);
	rec = (double)(b.records - a.records);
	ns = (double)(t1 - t0);
	stall = (double)(b.flush_ns - a.flush_ns) +
	        (double)(b.ring_wait_ns - a.ring_wait_ns);
	printf("events (%s): clock read %.1f ns; per probe (2 records) "
	       "%.1f ns\n", b.ring ? "ring" : "socket", clk, ns / n);
	printf("events (%s): per record, hot path %.1f ns (%.1f M records/s); "
	       "with %s %.1f ns\n", b.ring ? "ring" : "socket",
	       (ns - stall) / rec, rec / (ns - stall) * 1e3,
	       b.ring ? "waits for the drain" : "flushes", ns / rec);
	printf("events (%s): %llu waits, %llu flushes, %.1f ms stalled of "
	       "%.1f ms; delta per record %llu ns\n",
	       b.ring ? "ring" : "socket",
	       (unsigned long long)(b.ring_waits - a.ring_waits),
	       (unsigned long long)(b.flushes - a.flushes), stall / 1e6,
	       ns / 1e6, (unsigned long long)b.record_ns);
	para_vt_exit(0);
	return 0;
}
