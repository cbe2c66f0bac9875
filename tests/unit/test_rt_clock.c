/*
 * test_rt_clock.c — unit tests of the runtime's clock (wrappers/rt_clock.h):
 * without the counter every stamp lies between two clock_gettime reads
 * around it; with it (x86-64 Linux whose clocksource is tsc) stamps taken
 * over about 300 ms of spins and sleeps, across more than ten 20-ms
 * windows, stay within 2 us of CLOCK_MONOTONIC read around them and never
 * go back; after a sleep far longer than a window, with the last rate
 * made 100 ppm fast, the first stamps are still within 2 us (the new
 * anchor is the clock, not the old rate extrapolated over the sleep);
 * pvt__clk_off goes back to clock_gettime.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "rt_clock.h"

static uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* n stamps, each between two clock reads (within slack ns), none before
 * the one before it; spins and sleeps of up to 0.2 ms between them. */
static void stamps_follow(int n, uint64_t slack)
{
	uint64_t last = 0, a, t, b;
	struct timespec nap = {0, 50000};
	int i;

	for (i = 0; i < n; i++) {
		a = mono();
		t = pvt__clk_now();
		b = mono();
		if (t + slack < a || t > b + slack)
			fail_msg("stamp %d: %llu not within %llu ns of [%llu, "
				 "%llu]", i, (unsigned long long)t,
				 (unsigned long long)slack,
				 (unsigned long long)a, (unsigned long long)b);
		assert_true(t >= last);
		last = t;
		if (i % 3 == 0)
			nanosleep(&nap, NULL);
		else
			while (mono() - b < 100000u)
				;
	}
}

static void test_gettime(void **state)
{
	(void)state;
	pvt__clk_init(0);
	assert_int_equal(pvt__clk.on, 0);
	stamps_follow(200, 0);
}

static int kernel_tsc(void)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/"
			"current_clocksource", "r");

	if (f == NULL)
		return 0;
	if (fgets(buf, sizeof buf, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	return strcmp(buf, "tsc\n") == 0;
}

static void test_counter(void **state)
{
	uint64_t first;

	(void)state;
	pvt__clk_init(1);
#ifdef PVT__CLK_TSC
	if (!kernel_tsc()) {
		assert_int_equal(pvt__clk.on, 0);
		skip();
	}
	assert_int_equal(pvt__clk.on, 1);
	first = pvt__clk.tsc1;
	stamps_follow(3000, 2000); /* about 300 ms: windows of up to 20 ms */
	assert_int_equal(pvt__clk.on, 1);
	assert_true(pvt__clk.tsc1 != first); /* new anchors were taken */
	pvt__clk_off();
	assert_int_equal(pvt__clk.on, 0);
	stamps_follow(50, 0);
#else
	(void)first;
	assert_int_equal(pvt__clk.on, 0);
	skip();
#endif
}

static void test_sleep(void **state)
{
	struct timespec nap = {0, 300000000};
	int k;

	(void)state;
	pvt__clk_init(1);
#ifdef PVT__CLK_TSC
	if (!kernel_tsc())
		skip();
	stamps_follow(100, 2000);
	for (k = 0; k < 3; k++) {
		/* a rate 100 ppm fast: 30 us over the sleep if it were
		   carried across it */
		pvt__clk.mult += pvt__clk.mult / 10000;
		nanosleep(&nap, NULL);
		stamps_follow(20, 2000);
	}
	assert_int_equal(pvt__clk.on, 1);
#else
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gettime),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_sleep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
