/*
 * test_wire_ev.c — unit tests of the canonical event record (wire_ev.h):
 * the bytes at each offset are big-endian whatever the host, extremes of
 * every field survive a round trip, and nothing outside the 72 bytes is
 * written.
 */
#include "unit_util.h"
#include "wire_ev.h"

/* An event whose every field is distinct and uses its high bytes. */
static void ut_sample(wire_ev *e)
{
	memset(e, 0, sizeof *e);
	e->seq = 0x0102030405060708ull;
	e->t_ns = 0x1112131415161718ull;
	e->delta_ns = 0x2122232425262728ull;
	e->bytes = -2;
	e->kind = 0x3132;
	e->op = 0x3334;
	e->file = 0x35363738u;
	e->func = 0x393a3b3cu;
	e->line = -3;
	e->peer = INT32_MIN;
	e->tag = INT32_MAX;
	e->result = -1;
	e->aux = 0x41424344;
	e->comm = UINT32_MAX;
	e->ref = 0x45464748u;
}

static void test_layout(void **state)
{
	unsigned char b[WIRE_EV_SIZE + 2];
	wire_ev e;

	(void)state;
	ut_sample(&e);
	memset(b, 0xee, sizeof b);
	wire_ev_put(b + 1, &e);
	assert_int_equal(b[0], 0xee);
	assert_int_equal(b[WIRE_EV_SIZE + 1], 0xee);
	assert_memory_equal(b + 1, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	assert_memory_equal(b + 1 + 8, "\x11\x12\x13\x14\x15\x16\x17\x18", 8);
	assert_memory_equal(b + 1 + 16, "\x21\x22\x23\x24\x25\x26\x27\x28", 8);
	assert_memory_equal(b + 1 + 24, "\xff\xff\xff\xff\xff\xff\xff\xfe", 8);
	assert_memory_equal(b + 1 + 32, "\x31\x32\x33\x34", 4);
	assert_memory_equal(b + 1 + 36, "\x35\x36\x37\x38\x39\x3a\x3b\x3c", 8);
	assert_memory_equal(b + 1 + 44, "\xff\xff\xff\xfd\x80\x00\x00\x00", 8);
	assert_memory_equal(b + 1 + 52, "\x7f\xff\xff\xff\xff\xff\xff\xff", 8);
	assert_memory_equal(b + 1 + 60, "\x41\x42\x43\x44", 4);
	assert_memory_equal(b + 1 + 64, "\xff\xff\xff\xff\x45\x46\x47\x48", 8);
}

static void test_roundtrip(void **state)
{
	unsigned char b[WIRE_EV_SIZE];
	wire_ev e, f;

	(void)state;
	ut_sample(&e);
	wire_ev_put(b, &e);
	memset(&f, 0x5a, sizeof f);
	wire_ev_get(b, &f);
	assert_true(f.seq == e.seq && f.t_ns == e.t_ns &&
		    f.delta_ns == e.delta_ns && f.bytes == e.bytes);
	assert_int_equal(f.kind, e.kind);
	assert_int_equal(f.op, e.op);
	assert_int_equal(f.file, e.file);
	assert_int_equal(f.func, e.func);
	assert_int_equal(f.line, e.line);
	assert_int_equal(f.peer, e.peer);
	assert_int_equal(f.tag, e.tag);
	assert_int_equal(f.result, e.result);
	assert_int_equal(f.aux, e.aux);
	assert_int_equal(f.comm, e.comm);
	assert_int_equal(f.ref, e.ref);
	/* the other extremes */
	memset(&e, 0, sizeof e);
	e.bytes = INT64_MIN;
	e.seq = UINT64_MAX;
	wire_ev_put(b, &e);
	wire_ev_get(b, &f);
	assert_true(f.bytes == INT64_MIN && f.seq == UINT64_MAX);
	assert_int_equal(f.line, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
