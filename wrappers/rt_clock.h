/*
 * rt_clock.h — the clock the runtime stamps records with: the node's
 * CLOCK_MONOTONIC in nanoseconds (the daemon's clock, which the console's
 * clock model relates to its own), read through the processor's
 * time-stamp counter where that is safe, as the vDSO itself reads it.
 *
 * By default (PARAVT_CLOCK=gettime: never), on x86-64 Linux whose
 * clocksource is "tsc", pvt__clk_now reads the counter and scales it
 * from the last anchor, a (counter, clock_gettime) pair taken at most a
 * window of counter ago; past that it takes a new anchor with
 * clock_gettime and refines the rate over everything since start-up.
 * The window is a 16th of the time since start-up (0.1 ms to 20 ms), so
 * a stamp is off CLOCK_MONOTONIC by about a 16th of one anchor's jitter
 * (nanoseconds) and the order of events of processes that each read
 * their own clock holds.  A new anchor is the clock itself: the last
 * rate's error is never carried past its window (it once was, and
 * after a sleep of seconds receives came before their sends in MPICH's
 * bsendpending and sendflood); stamps never go back (a floor: where the
 * last window got).  The first rate is measured over 1 ms at
 * pvt__clk_init.  Otherwise (another processor or system, another
 * clocksource, a program whose threads record at once) every stamp is
 * clock_gettime.  The state is the process's; one thread records at a
 * time (rt_event.c).
 */
#ifndef PARAVT_RT_CLOCK_H
#define PARAVT_RT_CLOCK_H

#include <stdint.h>

#if defined(__x86_64__) && defined(__linux__) && \
	(defined(__GNUC__) || defined(__clang__))
#define PVT__CLK_TSC 1
#endif

/* The state pvt__clk_now reads (rt_clock.c keeps the rest). */
typedef struct pvt__clk_state {
	int on;             /* stamps come from the counter */
	uint64_t tsc1;      /* the last anchor: counter ... */
	uint64_t ns1;       /* ... and clock (ns) */
	uint64_t mult;      /* ns per tick, 32.32 fixed point */
	uint64_t span;      /* ticks after tsc1 it extrapolates over */
	uint64_t floor;     /* no stamp below: where the last window got */
} pvt__clk_state;

extern pvt__clk_state pvt__clk;

/* Decides whether the counter is used (allow = 0: never) and measures its
 * first rate (1 ms of clock reads).  Called once at start-up. */
void pvt__clk_init(int allow);

/* Stops using the counter (threads that record at once). */
void pvt__clk_off(void);

/* Stamps from CLOCK_MONOTONIC_COARSE (Linux: a tick's resolution, a few
 * ms; PARAVT_CLOCK=coarse), not the counter; elsewhere CLOCK_MONOTONIC. */
void pvt__clk_coarse(void);

/* clock_gettime, and a new anchor when the counter is in use. */
uint64_t pvt__clk_slow(void);

/* The node's monotonic clock in ns. */
static inline uint64_t pvt__clk_now(void)
{
#ifdef PVT__CLK_TSC
	if (pvt__clk.on) {
		uint64_t d = __builtin_ia32_rdtsc() - pvt__clk.tsc1;

		if (d < pvt__clk.span) {
			uint64_t ns = pvt__clk.ns1 + ((d * pvt__clk.mult) >> 32);

			return ns > pvt__clk.floor ? ns : pvt__clk.floor;
		}
	}
#endif
	return pvt__clk_slow();
}

#endif
