/*
 * test_wire_evpk.c — unit tests of packed event batches (wire_evpk.h):
 * every field's extremes and wrap-arounds survive a round trip, a call's
 * events take the few bytes promised, each field is read against the
 * right event (the one before, or the last of its kind; kinds from 31
 * up share one), the first form (mark 0xff) is still read, the first
 * byte tells packed from fixed records, and every way of cutting or
 * corrupting a batch is refused rather than read past its end.
 */
#include "unit_util.h"
#include "wire_evpk.h"

#define UT_N 6

/* Events that move every field both ways, past its sign and its ends. */
static void ut_events(wire_ev *e)
{
	int i;

	memset(e, 0, UT_N * sizeof *e);
	for (i = 0; i < UT_N; i++) {
		e[i].seq = (uint64_t)i;
		e[i].t_ns = 1000u + (uint64_t)i * 250;
		e[i].kind = (uint16_t)(1 + i % 2);
	}
	e[1].seq = UINT64_MAX;          /* a jump back and forth */
	e[1].t_ns = UINT64_MAX;
	e[1].delta_ns = UINT64_MAX;
	e[1].bytes = INT64_MIN;
	e[1].kind = UINT16_MAX;
	e[1].op = UINT16_MAX;
	e[1].file = UINT32_MAX;
	e[1].func = 0x80000000u;
	e[1].line = INT32_MIN;
	e[1].peer = INT32_MAX;
	e[1].tag = -1;
	e[1].result = INT32_MIN;
	e[1].aux = INT32_MAX;
	e[1].comm = UINT32_MAX;
	e[1].ref = 1;
	e[2].bytes = INT64_MAX;
	e[2].line = INT32_MAX;
	e[2].peer = INT32_MIN;
	e[3].bytes = -1;
	e[3].op = 7;
	e[5].seq = 1u << 20;            /* a gap */
}

static void ut_same(const wire_ev *a, const wire_ev *b)
{
	assert_true(a->seq == b->seq && a->t_ns == b->t_ns &&
		    a->delta_ns == b->delta_ns && a->bytes == b->bytes);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->op, b->op);
	assert_int_equal(a->file, b->file);
	assert_int_equal(a->func, b->func);
	assert_int_equal(a->line, b->line);
	assert_int_equal(a->peer, b->peer);
	assert_int_equal(a->tag, b->tag);
	assert_int_equal(a->result, b->result);
	assert_int_equal(a->aux, b->aux);
	assert_int_equal(a->comm, b->comm);
	assert_int_equal(a->ref, b->ref);
}

/* Packs n events of e into b: the bytes used. */
static size_t ut_pack(unsigned char *b, const wire_ev *e, int n)
{
	wire_evpk_enc w;
	size_t len;
	int i;

	len = wire_evpk_begin(&w, b, (uint64_t)n);
	for (i = 0; i < n; i++) {
		size_t k = wire_evpk_put(&w, b + len, &e[i]);

		assert_true(k >= 1 && k <= WIRE_EVPK_MAX);
		len += k;
	}
	return len;
}

/* Reads the batch of len bytes at b: the events read, or -1 at an
 * error. */
static int ut_unpack(const unsigned char *b, size_t len, wire_ev *out,
		     int max)
{
	wire_evpk_dec d;
	uint64_t count;
	int n = 0, r;

	if (wire_evpk_open(&d, b, len, &count) != 0)
		return -1;
	while ((r = wire_evpk_next(&d, &out[n < max ? n : max - 1])) == 1)
		n++;
	return r < 0 || (uint64_t)n != count ? -1 : n;
}

static void test_roundtrip(void **state)
{
	unsigned char b[WIRE_EVPK_HEAD + UT_N * WIRE_EVPK_MAX];
	wire_ev e[UT_N], f[UT_N];
	size_t len;
	int i;

	(void)state;
	ut_events(e);
	len = ut_pack(b, e, UT_N);
	assert_true(wire_evpk_is(b, len));
	assert_int_equal(ut_unpack(b, len, f, UT_N), UT_N);
	for (i = 0; i < UT_N; i++)
		ut_same(&e[i], &f[i]);
}

/* A ping-pong's calls, a receive and a send, each an enter and an exit:
 * after the first of each kind, 4-5 bytes an event. */
static void test_small(void **state)
{
	unsigned char b[WIRE_EVPK_HEAD + 200 * WIRE_EVPK_MAX];
	wire_ev e[200], f[200];
	size_t len, first;
	int i;

	(void)state;
	memset(e, 0, sizeof e);
	for (i = 0; i < 200; i++) {
		e[i].seq = 5000 + (uint64_t)i;
		e[i].t_ns = 123456789012ull + (uint64_t)i * 700;
		e[i].delta_ns = 40000 + (uint64_t)i * 30;
		e[i].kind = (uint16_t)(5 + i % 4);
		e[i].op = (uint16_t)(10 + i / 2 % 2);
		e[i].line = 40 + i / 2 % 2 * 3;
		e[i].bytes = i % 4 == 2 ? -1 : 4;
		e[i].peer = i % 4 == 2 ? -1 : 1;
		e[i].tag = 1 + i / 2 % 2;
		e[i].file = e[i].func = 1;
	}
	first = ut_pack(b, e, 4);
	len = ut_pack(b, e, 200);
	/* mask 1, t 2, delta 1, kind 1; the count of 200 takes a byte more */
	assert_true(len - first <= 196 * 5 + 1);
	assert_int_equal(ut_unpack(b, len, f, 200), 200);
	for (i = 0; i < 200; i++)
		ut_same(&e[i], &f[i]);
}

/* Kinds from 31 up share one reference event; kinds below have one each. */
static void test_kinds(void **state)
{
	static const uint16_t kind[] = {40, 41, 40, 31, 30, 30, 65535, 41};
	unsigned char b[WIRE_EVPK_HEAD + 8 * WIRE_EVPK_MAX];
	wire_ev e[8], f[8];
	size_t len;
	int i;

	(void)state;
	memset(e, 0, sizeof e);
	for (i = 0; i < 8; i++) {
		e[i].seq = (uint64_t)i;
		e[i].t_ns = 100u * (uint64_t)i;
		e[i].kind = kind[i];
		e[i].op = (uint16_t)(i % 3);
		e[i].line = 10 * i;
		e[i].peer = i % 2 ? 7 : -1;
		e[i].ref = (uint32_t)(i * i);
	}
	len = ut_pack(b, e, 8);
	assert_int_equal(ut_unpack(b, len, f, 8), 8);
	for (i = 0; i < 8; i++)
		ut_same(&e[i], &f[i]);
}

/* The same bytes read in both forms: kinds 5, 6, 5, op 3 given once.  In
 * the first form (0xff) every event has op 3, the one before's; in the
 * current one (0xfe) kind 6's first event has 0 and kind 5's second the
 * 3 of kind 5's first. */
static void test_forms(void **state)
{
	unsigned char b[] = "\xfe\x03\x0c\x0a\x06\x04\x02\x04\x01";
	wire_ev f[3];
	int i;

	(void)state;
	assert_int_equal(ut_unpack(b, sizeof b - 1, f, 3), 3);
	for (i = 0; i < 3; i++)
		assert_true(f[i].seq == (uint64_t)i);
	assert_int_equal(f[0].kind, 5);
	assert_int_equal(f[1].kind, 6);
	assert_int_equal(f[2].kind, 5);
	assert_int_equal(f[0].op, 3);
	assert_int_equal(f[1].op, 0);
	assert_int_equal(f[2].op, 3);
	b[0] = 0xff;
	assert_int_equal(ut_unpack(b, sizeof b - 1, f, 3), 3);
	assert_int_equal(f[1].kind, 6);
	assert_int_equal(f[1].op, 3);
	assert_int_equal(f[2].op, 3);
}

/* A fixed record's first byte is its seq's highest: at most 0x7f. */
static void test_mark(void **state)
{
	unsigned char fixed[WIRE_EV_SIZE];
	wire_evpk_dec d;
	uint64_t count;
	wire_ev e;

	(void)state;
	memset(&e, 0, sizeof e);
	e.seq = INT64_MAX;
	wire_ev_put(fixed, &e);
	assert_false(wire_evpk_is(fixed, sizeof fixed));
	assert_int_equal(wire_evpk_open(&d, fixed, sizeof fixed, &count), -1);
	assert_false(wire_evpk_is(fixed, 0));
	assert_true(wire_evpk_is("\xfe", 1) && wire_evpk_is("\xff", 1));
	assert_false(wire_evpk_is("\xfd", 1));
}

/* Batches of one event each refused: by what is wrong with it. */
static const struct {
	const char *b;
	size_t n;
} bad[] = {
	{"\xff\x05\x00\x00", 4},         /* more events than bytes */
	{"\xff\x01\x80\x80\x02", 5},     /* a mask bit past the 15 fields */
	{"\xff\x01\x04\x80\x80\x04", 6}, /* kind (bit 2) wider than 16 bits */
	{"\xff\x01\x10\x80\x80\x80\x80\x10", 8}, /* line (4) past 32 bits */
	/* t (bit 0): an 11-byte varint, and a 10th byte past 64 bits */
	{"\xff\x01\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00", 14},
	{"\xff\x01\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02", 13},
};

static void test_bad(void **state)
{
	unsigned char b[WIRE_EVPK_HEAD + UT_N * WIRE_EVPK_MAX + 1], c[64];
	wire_ev e[UT_N], f[UT_N];
	size_t len, cut, i;

	(void)state;
	ut_events(e);
	len = ut_pack(b, e, UT_N);
	/* cut anywhere: refused, never read past */
	for (cut = 0; cut < len; cut++)
		assert_int_equal(ut_unpack(b, cut, f, UT_N), -1);
	/* a byte left after the last event */
	b[len] = 0;
	assert_int_equal(ut_unpack(b, len + 1, f, UT_N), -1);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(ut_unpack((const unsigned char *)bad[i].b,
					   bad[i].n, f, UT_N), -1);
		memcpy(c, bad[i].b, bad[i].n); /* in the current form */
		c[0] = WIRE_EVPK_MARK;
		assert_int_equal(ut_unpack(c, bad[i].n, f, UT_N), -1);
	}
	/* a field of a kind's block (line) past 32 bits, current form */
	memcpy(c, "\xfe\x01\x14\x0a\x80\x80\x80\x80\x10", 9);
	assert_int_equal(ut_unpack(c, 9, f, UT_N), -1);
	/* the largest 64-bit difference is taken: 2^64 - 1 */
	memcpy(c, "\xff\x01\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 13);
	assert_int_equal(ut_unpack(c, 13, f, UT_N), 1);
	assert_true(f[0].t_ns == (uint64_t)INT64_MIN && f[0].seq == 0);
	/* an empty batch */
	assert_int_equal(ut_unpack((const unsigned char *)"\xff\x00", 2, f, UT_N), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_mark),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
