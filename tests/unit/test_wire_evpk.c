/*
 * test_wire_evpk.c — unit tests of packed event batches (wire_evpk.h):
 * every field's extremes and wrap-arounds survive a round trip, a call's
 * events take the few bytes promised, the first byte tells packed from
 * fixed records, and every way of cutting or corrupting a batch is
 * refused rather than read past its end.
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

/* A call's enter and exit, as a ping-pong makes them: a few bytes. */
static void test_small(void **state)
{
	unsigned char b[WIRE_EVPK_HEAD + 200 * WIRE_EVPK_MAX];
	wire_ev e[200];
	size_t len;
	int i;

	(void)state;
	memset(e, 0, sizeof e);
	for (i = 0; i < 200; i++) {
		e[i].seq = 5000 + (uint64_t)i;
		e[i].t_ns = 123456789012ull + (uint64_t)i * 700;
		e[i].delta_ns = 40000 + (uint64_t)i * 30;
		e[i].kind = (uint16_t)(3 + i % 2);
		e[i].op = (uint16_t)(10 + i / 2 % 2);
		e[i].line = 40 + i / 2 % 2 * 3;
		e[i].bytes = 4;
		e[i].peer = 1;
		e[i].file = e[i].func = 1;
	}
	len = ut_pack(b, e, 200);
	/* after the first: mask 1, t 2, delta 1, kind 1, op 1, line 1 */
	assert_true(len < 1 + 2 + 60 + 199 * 8);
	assert_int_equal(ut_unpack(b, len, e, 200), 200);
	assert_true(e[199].seq == 5199 && e[199].t_ns == 123456789012ull + 199 * 700);
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
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(ut_unpack((const unsigned char *)bad[i].b,
					   bad[i].n, f, UT_N), -1);
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
		cmocka_unit_test(test_mark),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
