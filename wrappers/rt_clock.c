/*
 * rt_clock.c — the runtime's clock (rt_clock.h): anchors of the
 * time-stamp counter to CLOCK_MONOTONIC, and the plain clock_gettime
 * where the counter is not used.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_clock.h"

#define CLK_WINDOW_NS 20000000.0 /* a new anchor every 20 ms at most, */
#define CLK_WINDOW_MIN_NS 100000.0 /* 0.1 ms at least, */
#define CLK_WINDOW_DIV 16.0     /* else a 16th of the time since the first */
#define CLK_FIRST_NS 1000000u    /* the first rate: over 1 ms */

pvt__clk_state pvt__clk;


/* The clock read: CLOCK_MONOTONIC, or its coarse form (pvt__clk_coarse). */
static clockid_t clk_id = CLOCK_MONOTONIC;

static uint64_t clk_gettime(void)
{
	struct timespec ts;

	clock_gettime(clk_id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#ifdef PVT__CLK_TSC
/* The first anchor: the rate is measured from it. */
static uint64_t clk_tsc0, clk_ns0;

/* True when the kernel's clocksource is the time-stamp counter. */
static int clk_kernel_tsc(void)
{
	char buf[32];
	ssize_t n;
	int fd = open("/sys/devices/system/clocksource/clocksource0/"
		      "current_clocksource", O_RDONLY);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strcmp(buf, "tsc\n") == 0 || strcmp(buf, "tsc") == 0;
}

/* A (counter, clock) pair read together: the counter around the clock
 * read, the closest of four tries (an interrupt between the two would
 * move the anchor by up to half their distance), the counter at the
 * middle. */
static void clk_pair(uint64_t *t, uint64_t *ns)
{
	uint64_t a, b, c, best = UINT64_MAX;
	int i;

	for (i = 0; i < 4; i++) {
		a = __builtin_ia32_rdtsc();
		c = clk_gettime();
		b = __builtin_ia32_rdtsc();
		if (b - a < best) {
			best = b - a;
			*t = a + (b - a) / 2;
			*ns = c;
		}
	}
}

/* A new anchor at counter t, clock ns: the rate over everything since the
 * first anchor.  The anchor is the clock itself, never moved: stamps
 * before it reached at most the end of the last window at the last
 * window's rate, and that is the floor stamps do not go below until the
 * clock passes it (moving the anchor there instead would carry the last
 * rate's error along for ever, and over a long sleep extrapolate it:
 * 2 us after a 2 s sleep, receives before their sends). */
static void clk_anchor(uint64_t t, uint64_t ns)
{
	double per, w;

	if (t <= clk_tsc0 || ns <= clk_ns0) {
		pvt__clk.on = 0;
		return;
	}
	per = (double)(ns - clk_ns0) / (double)(t - clk_tsc0);
	if (per < 0.01 || per > 100) { /* not a counter of this machine */
		pvt__clk.on = 0;
		return;
	}
	if (pvt__clk.on) {
		uint64_t d = t > pvt__clk.tsc1 ? t - pvt__clk.tsc1 : 0, e;

		if (d > pvt__clk.span)
			d = pvt__clk.span;
		e = pvt__clk.ns1 + ((d * pvt__clk.mult) >> 32);
		pvt__clk.floor = e > pvt__clk.floor ? e : pvt__clk.floor;
	}
	pvt__clk.tsc1 = t;
	pvt__clk.ns1 = ns;
	pvt__clk.mult = (uint64_t)(per * 4294967296.0);
	/* the rate's error is about one anchor's jitter over the time since
	 * the first, so a window of a 16th of that keeps a stamp within
	 * about a 16th of the jitter of the clock (other processes read
	 * clock_gettime or their own anchors: their order must hold) */
	w = (double)(ns - clk_ns0) / CLK_WINDOW_DIV;
	w = w < CLK_WINDOW_MIN_NS ? CLK_WINDOW_MIN_NS :
	    w > CLK_WINDOW_NS ? CLK_WINDOW_NS : w;
	pvt__clk.span = (uint64_t)(w / per);
	pvt__clk.on = 1;
}
#endif

uint64_t pvt__clk_slow(void)
{
#ifdef PVT__CLK_TSC
	if (pvt__clk.on) {
		uint64_t t, ns;

		clk_pair(&t, &ns);
		clk_anchor(t, ns);
		if (pvt__clk.on)
			return pvt__clk.ns1 > pvt__clk.floor ? pvt__clk.ns1
			                                     : pvt__clk.floor;
	}
#endif
	return clk_gettime();
}

void pvt__clk_init(int allow)
{
	memset(&pvt__clk, 0, sizeof pvt__clk);
	clk_id = CLOCK_MONOTONIC;
#ifdef PVT__CLK_TSC
	if (!allow || !clk_kernel_tsc())
		return;
	clk_pair(&clk_tsc0, &clk_ns0);
	{
		uint64_t t, ns;

		while (clk_gettime() - clk_ns0 < CLK_FIRST_NS)
			;
		clk_pair(&t, &ns);
		clk_anchor(t, ns);
	}
#else
	(void)allow;
#endif
}

void pvt__clk_off(void)
{
	pvt__clk.on = 0;
}

void pvt__clk_coarse(void)
{
	pvt__clk.on = 0;
#ifdef CLOCK_MONOTONIC_COARSE
	clk_id = CLOCK_MONOTONIC_COARSE;
#endif
}
