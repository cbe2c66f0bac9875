/*
 * test_con_clk.c — unit tests of the console's clock registry
 * (console/net/con_clk.c) with the real clock fit (libpvtana.a): samples
 * kept per node in order, the model of a node whose clock runs a known
 * offset ahead, a model fitted again after new samples, the cap on
 * samples that keeps the first ones, forget and reset, and the listener
 * (the trace file writer's place, con_clk_listen) told once per sample.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "con_clk.h"
#include "wire.h"

static int ut_tfile_calls; /* listener calls seen */

/* Stand-in for the trace file writer: counts the samples it is given. */
static void ut_listener(const char *node, const ana_clock_sample *s)
{
	(void)node;
	(void)s;
	ut_tfile_calls++;
}

/* A sample taken at console time t0 of a node offset ns ahead, with a
 * round trip rtt (split evenly) and 1 µs spent in the daemon. */
static ana_clock_sample ut_sample(int64_t t0, int64_t offset, int64_t rtt)
{
	ana_clock_sample s;

	s.t0 = t0;
	s.t1 = t0 + rtt / 2 + offset;
	s.t2 = s.t1 + 1000;
	s.t3 = t0 + rtt + 1000;
	return s;
}

static int ut_setup(void **state)
{
	(void)state;
	con_clk_reset();
	con_clk_listen(ut_listener);
	ut_tfile_calls = 0;
	return 0;
}

/* Samples stay per node, oldest first; each one reaches the listener. */
static void test_samples_per_node(void **state)
{
	const ana_clock_sample *s;
	ana_clock_sample x;
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		x = ut_sample(1000000 * i, 7, 40000);
		assert_int_equal(con_clk_add("a", &x), 0);
	}
	x = ut_sample(5, 9, 40000);
	assert_int_equal(con_clk_add("b", &x), 0);
	assert_int_equal(con_clk_samples("a", &s), 5);
	assert_int_equal(s[0].t0, 0);
	assert_int_equal(s[4].t0, 4000000);
	assert_int_equal(con_clk_samples("b", &s), 1);
	assert_int_equal(s[0].t0, 5);
	assert_int_equal(con_clk_samples("c", &s), 0);
	assert_null(s);
	assert_int_equal(ut_tfile_calls, 6);
}

/* A node 4600 s ahead: the model's offset is within its bound, and the
 * bound is half a round trip. */
static void test_model_offset(void **state)
{
	const int64_t off = 4600000000000LL;
	ana_clock_sample x;
	ana_clock m;
	int64_t d;
	int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		x = ut_sample(100000000 + 200000 * i, off, 30000 + 1000 * i);
		assert_int_equal(con_clk_add("b", &x), 0);
	}
	assert_int_equal(con_clk_model("b", &m), 0);
	assert_true(m.valid);
	d = m.offset_ns - off;
	assert_true(d <= m.err_ns && -d <= m.err_ns);
	assert_true(m.err_ns >= 15000 && m.err_ns <= 20000);
	/* mapping a node time back to the console's */
	d = ana_clock_to_console(&m, 100000000 + off) - 100000000;
	assert_true(d <= m.err_ns && -d <= m.err_ns);
}

/* A node without samples has no model: WIRE_EARG and the identity. */
static void test_model_none(void **state)
{
	ana_clock m;

	(void)state;
	memset(&m, 0x55, sizeof m);
	assert_int_equal(con_clk_model("nobody", &m), WIRE_EARG);
	assert_false(m.valid);
	assert_int_equal(ana_clock_to_console(&m, 1234), 1234);
}

/* The model follows new samples: a better sample in the same window
 * replaces the first one's estimate (the cached fit is not reused). */
static void test_model_refit(void **state)
{
	ana_clock_sample x;
	ana_clock m1, m2;

	(void)state;
	x = ut_sample(1000000, 500000, 400000); /* rtt 0.4 ms */
	assert_int_equal(con_clk_add("a", &x), 0);
	assert_int_equal(con_clk_model("a", &m1), 0);
	x = ut_sample(1100000, 900000, 20000);  /* rtt 20 µs, 0.9 ms ahead */
	assert_int_equal(con_clk_add("a", &x), 0);
	assert_int_equal(con_clk_model("a", &m2), 0);
	assert_true(m2.err_ns < m1.err_ns);
	assert_true(m2.offset_ns > 890000 && m2.offset_ns < 910000);
}

/* Past CON_CLK_SAMPLES_MAX the oldest samples after the first 16 go. */
static void test_cap_keeps_first(void **state)
{
	const ana_clock_sample *s;
	ana_clock_sample x;
	size_t n;
	int i;

	(void)state;
	for (i = 0; i < CON_CLK_SAMPLES_MAX + 10; i++) {
		x = ut_sample(i, 0, 1000);
		assert_int_equal(con_clk_add("a", &x), 0);
	}
	n = con_clk_samples("a", &s);
	assert_int_equal(n, CON_CLK_SAMPLES_MAX);
	for (i = 0; i < 16; i++)
		assert_int_equal(s[i].t0, i);
	assert_int_equal(s[16].t0, 26);  /* 16..25 dropped */
	assert_int_equal(s[n - 1].t0, CON_CLK_SAMPLES_MAX + 9);
	for (i = 1; i < (int)n; i++)
		assert_true(s[i].t0 > s[i - 1].t0);
}

/* forget drops one node, reset all. */
static void test_forget_reset(void **state)
{
	const ana_clock_sample *s;
	ana_clock_sample x = ut_sample(0, 0, 1000);
	ana_clock m;

	(void)state;
	assert_int_equal(con_clk_add("a", &x), 0);
	assert_int_equal(con_clk_add("b", &x), 0);
	con_clk_forget("a");
	con_clk_forget("zz"); /* unknown: nothing happens */
	assert_int_equal(con_clk_samples("a", &s), 0);
	assert_int_equal(con_clk_model("a", &m), WIRE_EARG);
	assert_int_equal(con_clk_samples("b", &s), 1);
	con_clk_reset();
	assert_int_equal(con_clk_samples("b", &s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_samples_per_node, ut_setup),
		cmocka_unit_test_setup(test_model_offset, ut_setup),
		cmocka_unit_test_setup(test_model_none, ut_setup),
		cmocka_unit_test_setup(test_model_refit, ut_setup),
		cmocka_unit_test_setup(test_cap_keeps_first, ut_setup),
		cmocka_unit_test_setup(test_forget_reset, ut_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
