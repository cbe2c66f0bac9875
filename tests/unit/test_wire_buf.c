/*
 * test_wire_buf.c — unit tests of the growable buffer (wire_buf.h).
 *
 * Covers geometric growth with intact contents, refusal of requests over
 * the hard maximum without any change, consume/compact, reset, and the
 * tail/commit pair used by readers.  One registered list at the bottom.
 */
#include "unit_util.h"

/* Fills p with a recognisable pattern starting at seed. */
static void fill(unsigned char *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static void test_empty(void **state)
{
	wire_buf b;

	wire_buf_init(&b, 100);
	assert_null(wire_buf_head(&b));
	assert_int_equal(wire_buf_used(&b), 0);
	assert_int_equal(wire_buf_reserve(&b, 0), 0);
	assert_int_equal(wire_buf_append(&b, "", 0), 0);
	assert_int_equal(wire_buf_used(&b), 0);
	wire_buf_destroy(&b);
	wire_buf_destroy(&b); /* twice is harmless */
}

static void test_growth(void **state)
{
	unsigned char src[5000], chunk[1];
	wire_buf b;
	size_t i, lastcap = 0, grows = 0;

	fill(src, sizeof src, 3);
	wire_buf_init(&b, 1u << 20);
	for (i = 0; i < sizeof src; i++) {
		chunk[0] = src[i];
		assert_int_equal(wire_buf_append(&b, chunk, 1), 0);
		if (b.cap != lastcap) {
			assert_true(b.cap >= 2 * lastcap);
			lastcap = b.cap;
			grows++;
		}
	}
	assert_true(grows <= 6); /* geometric, not linear */
	assert_int_equal(wire_buf_used(&b), sizeof src);
	assert_memory_equal(wire_buf_head(&b), src, sizeof src);
	wire_buf_destroy(&b);
}

static void test_max_refused_unchanged(void **state)
{
	unsigned char src[300];
	wire_buf b;
	char *data;
	size_t cap;

	fill(src, sizeof src, 1);
	wire_buf_init(&b, 300);
	assert_int_equal(wire_buf_append(&b, src, 200), 0);
	data = b.data;
	cap = b.cap;
	assert_int_equal(wire_buf_append(&b, src, 101), WIRE_ENOMEM);
	assert_int_equal(wire_buf_reserve(&b, 101), WIRE_ENOMEM);
	assert_int_equal(wire_buf_reserve(&b, (size_t)-1), WIRE_ENOMEM);
	assert_ptr_equal(b.data, data);
	assert_int_equal(b.cap, cap);
	assert_int_equal(wire_buf_used(&b), 200);
	assert_memory_equal(wire_buf_head(&b), src, 200);
	/* exactly up to the maximum is fine */
	assert_int_equal(wire_buf_append(&b, src + 200, 100), 0);
	assert_int_equal(b.cap, 300);
	assert_memory_equal(wire_buf_head(&b), src, 300);
	assert_int_equal(wire_buf_append(&b, src, 1), WIRE_ENOMEM);
	wire_buf_destroy(&b);
}

static void test_small_max(void **state)
{
	wire_buf b;

	wire_buf_init(&b, 10);
	assert_int_equal(wire_buf_append(&b, "0123456789", 10), 0);
	assert_true(b.cap <= 10);
	assert_int_equal(wire_buf_append(&b, "x", 1), WIRE_ENOMEM);
	wire_buf_destroy(&b);
	wire_buf_init(&b, 0);
	assert_int_equal(wire_buf_append(&b, "x", 1), WIRE_ENOMEM);
	assert_null(b.data);
	wire_buf_destroy(&b);
}

static void test_consume_compact(void **state)
{
	unsigned char src[256];
	wire_buf b;
	char *data;

	fill(src, sizeof src, 9);
	wire_buf_init(&b, 256);
	assert_int_equal(wire_buf_append(&b, src, 200), 0);
	wire_buf_consume(&b, 150);
	assert_int_equal(wire_buf_used(&b), 50);
	assert_memory_equal(wire_buf_head(&b), src + 150, 50);
	data = b.data;
	/* 100 more bytes do not fit after len but do after compaction */
	assert_int_equal(wire_buf_append(&b, src, 100), 0);
	assert_ptr_equal(b.data, data);
	assert_int_equal(b.off, 0);
	assert_int_equal(wire_buf_used(&b), 150);
	assert_memory_equal(wire_buf_head(&b), src + 150, 50);
	assert_memory_equal(wire_buf_head(&b) + 50, src, 100);
	/* 107 more would exceed the maximum even compacted */
	assert_int_equal(wire_buf_append(&b, src, 107), WIRE_ENOMEM);
	assert_int_equal(wire_buf_used(&b), 150);
	wire_buf_consume(&b, 1000); /* clamped */
	assert_int_equal(wire_buf_used(&b), 0);
	assert_int_equal(b.off, 0);
	wire_buf_destroy(&b);
}

static void test_reset_keeps_block(void **state)
{
	wire_buf b;
	char *data;
	size_t cap;

	wire_buf_init(&b, 4096);
	assert_int_equal(wire_buf_append(&b, "hello", 5), 0);
	wire_buf_consume(&b, 2);
	data = b.data;
	cap = b.cap;
	wire_buf_reset(&b);
	assert_int_equal(wire_buf_used(&b), 0);
	assert_ptr_equal(b.data, data);
	assert_int_equal(b.cap, cap);
	assert_int_equal(wire_buf_append(&b, "ab", 2), 0);
	assert_memory_equal(wire_buf_head(&b), "ab", 2);
	wire_buf_destroy(&b);
}

static void test_tail_commit(void **state)
{
	wire_buf b;

	wire_buf_init(&b, 1024);
	assert_int_equal(wire_buf_reserve(&b, 10), 0);
	memcpy(wire_buf_tail(&b), "abcdefghij", 10);
	wire_buf_commit(&b, 4);
	assert_int_equal(wire_buf_used(&b), 4);
	assert_memory_equal(wire_buf_head(&b), "abcd", 4);
	wire_buf_commit(&b, 1u << 20); /* clamped to the capacity */
	assert_int_equal(wire_buf_used(&b), b.cap);
	wire_buf_destroy(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_max_refused_unchanged),
		cmocka_unit_test(test_small_max),
		cmocka_unit_test(test_consume_compact),
		cmocka_unit_test(test_reset_keeps_block),
		cmocka_unit_test(test_tail_commit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
