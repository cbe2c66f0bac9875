/*
 * bench_events.c — overhead of the paravt event runtime (rt_event.c).
 *
 *   bench_events [PROBES]        (default 2000000)
 *
 * Must run attached (PARAVT_SOCK set, e.g. to `ev_sink -q`; run.sh does
 * that).  Prints: the calibrated probe constant; ns per probe (a start
 * and an end record, as every wrapper writes) and per record, and
 * records/s, flushes included; the number and mean cost of the flushes
 * (one EVENTS frame of up to 4096 records); and the hot path alone
 * (records/s minus the time spent in flushes).
 */
#include <stdio.h>
#include <stdlib.h>

#include "paravt_rt.h"
#include "rt_event.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000, i;
	pvt__ev_stat a, b;
	pvt__ev_probe pr;
	uint64_t t0, t1;
	double ns, rec, fl;

	if (pvt__ev_init(NULL) == PVT_TRACE_OFF) {
		fprintf(stderr, "bench_events: not attached (set PARAVT_SOCK)\n");
		return 1;
	}
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
	fl = (double)(b.flush_ns - a.flush_ns);
	printf("events: calibrated probe constant   %8llu ns\n",
	       (unsigned long long)b.probe_c_ns);
	printf("events: per probe (2 records)       %8.1f ns\n", ns / n);
	printf("events: per record, flushes incl.   %8.1f ns  (%.1f M records/s)\n",
	       ns / rec, rec / ns * 1e3);
	printf("events: per record, hot path only   %8.1f ns  (%.1f M records/s)\n",
	       (ns - fl) / rec, rec / (ns - fl) * 1e3);
	printf("events: flushes %llu, mean %.1f us per flush of up to 4096 records\n",
	       (unsigned long long)(b.flushes - a.flushes),
	       b.flushes > a.flushes ? fl / (double)(b.flushes - a.flushes) / 1e3
	                             : 0.0);
	printf("events: delta accounted %.1f ms of %.1f ms run\n",
	       (double)(b.delta_ns - a.delta_ns) / 1e6, ns / 1e6);
	para_vt_exit(0);
	return 0;
}
