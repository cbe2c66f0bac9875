/*
 * test_dmn_share.c — unit tests of paravt's share of the CPU wait
 * (daemon/relay/dmn_share.c): the fraction, the charge, where the planned
 * charge goes, reading real schedstat files and the daemon's processor
 * time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "dmn_share.h"

/* Charges s as if its wait had grown by w since the last sample. */
static void charge(dmn_share *s, uint64_t w, double f, uint64_t now)
{
	s->now = s->wait + w;
	dmn_share_charge(s, f, now);
}

static void test_fraction(void **state)
{
	(void)state;
	assert_true(dmn_share_fraction(0, 100) == 0.0);
	assert_true(dmn_share_fraction(100, 0) == 0.0);
	assert_true(dmn_share_fraction(50, 200) == 0.25);
	/* the daemon used more than the processes waited: all, no more */
	assert_true(dmn_share_fraction(300, 200) == 1.0);
}

/* Without a plan the charge grows linearly between two samples, and a
 * share never goes back. */
static void test_linear(void **state)
{
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	assert_int_equal(dmn_share_at(&s, 500), 0); /* nothing sampled */
	charge(&s, 0, 1.0, 1000);   /* the first sample: the base */
	charge(&s, 400, 0.5, 2000); /* 200 charged over (1000, 2000] */
	assert_int_equal(s.x1, 200);
	assert_int_equal(dmn_share_at(&s, 1000), 0);
	assert_int_equal(dmn_share_at(&s, 1500), 100);
	assert_int_equal(dmn_share_at(&s, 2000), 200);
	assert_int_equal(dmn_share_at(&s, 2600), 200); /* after the sample */
	/* an event from before, read late, gets no less than the last */
	assert_int_equal(dmn_share_at(&s, 1200), 200);
	dmn_share_close(&s);
}

/* A plan puts the charge in the gaps longer than DMN_SHARE_GAP_NS, in
 * proportion to their excess: events 100 ns apart, one gap of 2000 +
 * 30000 and one of 2000 + 10000 ns; 4000 ns charged. */
static void test_plan(void **state)
{
	uint64_t t[] = {10100, 10200, 42200, 42300, 54300, 54400};
	uint64_t want[] = {0, 0, 3000, 3000, 4000, 4000};
	dmn_share s;
	size_t i;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 10000);
	assert_int_equal(dmn_share_at(&s, 10000), 0); /* the last before */
	charge(&s, 4000, 1.0, 60000);
	dmn_share_plan_begin(&s);
	for (i = 0; i < 6; i++)
		dmn_share_plan_add(&s, t[i]);
	dmn_share_plan_add(&s, 70000); /* after the sample: not planned */
	assert_int_equal(s.plan_w, 40000);
	for (i = 0; i < 6; i++)
		assert_int_equal(dmn_share_at(&s, t[i]), want[i]);
	assert_int_equal(dmn_share_at(&s, 70000), 4000);
	/* a new sample drops the plan: linear again */
	charge(&s, 1000, 1.0, 80000);
	assert_int_equal(s.plan_w, 0);
	assert_int_equal(dmn_share_at(&s, 75000), 4750);
	dmn_share_close(&s);
}

/* Reading: this process's own schedstat (Linux), a process that does not
 * exist, and pid 0 (ended). */
static void test_read(void **state)
{
	dmn_share s;
	struct timespec d = {0, 20000000};

	(void)state;
	dmn_share_init(&s);
	assert_int_equal(dmn_share_read(&s, 0), 0);
	assert_int_equal(s.fd, -1);
	dmn_share_init(&s);
	assert_int_equal(dmn_share_read(&s, 999999999), 0);
	assert_int_equal(s.fd, -1);
	dmn_share_init(&s);
	(void)dmn_share_read(&s, (long)getpid());
	if (s.fd < 0) {
		skip(); /* no schedstat here */
		return;
	}
	dmn_share_charge(&s, 1.0, 1);
	nanosleep(&d, NULL);
	(void)dmn_share_read(&s, (long)getpid()); /* a wait only grows */
	assert_true(s.now >= s.wait);
	(void)dmn_share_read(&s, 0);
	assert_int_equal(s.fd, -1);
}

/* The daemon's processor time: this process's since the last call, 0
 * the first time. */
static void test_daemon_ns(void **state)
{
	volatile unsigned long x = 0;
	unsigned long i;

	(void)state;
	(void)dmn_share_daemon_ns();
	for (i = 0; i < 20000000; i++)
		x += i;
	assert_true(dmn_share_daemon_ns() > 1000000); /* more than 1 ms */
	assert_true(dmn_share_daemon_ns() < 1000000); /* nothing since */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fraction),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_daemon_ns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
