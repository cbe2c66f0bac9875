/*
 * test_wire_frame.c — unit tests of the frame encoder and the streaming
 * decoder (wire_frame.h).
 *
 * Layout: a malloc interposer (to prove that count bombs are refused
 * without allocating), small payload helpers, then the tests: round trips,
 * chunking, the size limit, every kind of malformed payload, sticky errors,
 * encoder rollback, and wire_msgpack_check itself.  One registered list at
 * the bottom.
 */
#include <stdlib.h>

#include "unit_util.h"

/* ---- malloc interposer: records the largest single request ----------- */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t s);
extern void *__libc_realloc(void *p, size_t n);
static size_t largest_alloc; /* biggest request since the last reset */

/* Remembers a request size. */
static void note_alloc(size_t n)
{
	if (n > largest_alloc)
		largest_alloc = n;
}

void *malloc(size_t n)
{
	note_alloc(n);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t s)
{
	note_alloc(n * s);
	return __libc_calloc(n, s);
}

void *realloc(void *p, size_t n)
{
	note_alloc(n);
	return __libc_realloc(p, n);
}

/* ---- helpers ---------------------------------------------------------- */

/* Decodes a raw payload given as bytes, framed, with limit 4096. */
static int dec_payload(const void *pl, size_t n, char *err, size_t errlen)
{
	wire_dec d;
	wire_msg m;
	wire_buf b;
	int rc;

	wire_buf_init(&b, 1u << 20);
	ut_frame(&b, pl, n);
	rc = ut_decode(&d, wire_buf_head(&b), wire_buf_used(&b), 4096, &m,
		       err, errlen);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
	return rc;
}

/* Queues one frame of every message type into out, seq = 100 + i. */
static void pack_all(wire_buf *out)
{
	wire_hello h;
	wire_pong p = {1, 2, UINT64_MAX};

	ut_hello_foreign(&h);
	assert_int_equal(wire_pack_hello(out, 100, &h, 4096), 0);
	assert_int_equal(wire_pack_auth(out, 101, "secret", 4096), 0);
	assert_int_equal(wire_pack_auth_ok(out, 102, "token", 4096), 0);
	assert_int_equal(wire_pack_error(out, 103, WIRE_EBUSY, 7, "busy",
					 4096), 0);
	assert_int_equal(wire_pack_bye(out, 104, "done", 4096), 0);
	assert_int_equal(wire_pack_ping(out, 105, 42, 4096), 0);
	assert_int_equal(wire_pack_pong(out, 106, &p, 4096), 0);
	assert_int_equal(wire_pack_session_open(out, 107, "me", 4096), 0);
	assert_int_equal(wire_pack_session_ok(out, 108, 1ull << 40, 4096), 0);
}

static const uint32_t all_types[] = {
	WIRE_HELLO, WIRE_AUTH, WIRE_AUTH_OK, WIRE_ERROR, WIRE_BYE,
	WIRE_PING, WIRE_PONG, WIRE_SESSION_OPEN, WIRE_SESSION_OK,
};
#define NALL (sizeof all_types / sizeof all_types[0])

/* Checks the i-th frame produced by pack_all and decodes its fields. */
static void check_nth(const wire_msg *m, size_t i)
{
	ut_out o;
	char err[128];

	assert_int_equal(m->type, all_types[i]);
	assert_int_equal(m->seq, 100 + i);
	assert_int_equal(ut_unpack_as(m->type, m, &o, err, sizeof err), 0);
	if (m->type == WIRE_PONG)
		assert_true(o.pong.t_send == UINT64_MAX);
	if (m->type == WIRE_SESSION_OK)
		assert_true(o.u64 == 1ull << 40);
	if (m->type == WIRE_ERROR)
		assert_int_equal(o.error.code, -WIRE_EBUSY);
}

/* Feeds data in chunks of `chunk` bytes; returns the number of frames. */
static size_t feed_chunks(const char *p, size_t n, size_t chunk)
{
	wire_dec d;
	wire_msg m;
	size_t off = 0, used, got = 0, len;
	int rc;

	assert_int_equal(wire_dec_init(&d, 4096), 0);
	while (off < n) {
		len = n - off < chunk ? n - off : chunk;
		rc = wire_dec_step(&d, p + off, len, &used, &m, NULL, 0);
		assert_true(rc == 0 || rc == 1);
		assert_true(used <= len);
		if (rc == 0)
			assert_int_equal(used, len);
		if (rc == 1)
			check_nth(&m, got++);
		off += used;
	}
	wire_dec_destroy(&d);
	return got;
}

/* ---- round trips and chunking ----------------------------------------- */

static void test_round_trip_all(void **state)
{
	wire_buf b;

	wire_buf_init(&b, 1u << 20);
	pack_all(&b);
	assert_int_equal(feed_chunks(wire_buf_head(&b), wire_buf_used(&b),
				     1u << 20), NALL);
	wire_buf_destroy(&b);
}

static void test_byte_at_a_time(void **state)
{
	wire_buf b;

	wire_buf_init(&b, 1u << 20);
	pack_all(&b);
	assert_int_equal(feed_chunks(wire_buf_head(&b), wire_buf_used(&b), 1),
			 NALL);
	assert_int_equal(feed_chunks(wire_buf_head(&b), wire_buf_used(&b), 3),
			 NALL);
	assert_int_equal(feed_chunks(wire_buf_head(&b), wire_buf_used(&b), 5),
			 NALL);
	wire_buf_destroy(&b);
}

static void test_several_in_one_chunk(void **state)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;
	size_t used, off = 0, i;

	wire_buf_init(&b, 1u << 20);
	pack_all(&b);
	assert_int_equal(wire_dec_init(&d, 4096), 0);
	for (i = 0; i < NALL; i++) {
		/* always offer everything that is left */
		assert_int_equal(wire_dec_step(&d, wire_buf_head(&b) + off,
					       wire_buf_used(&b) - off, &used,
					       &m, NULL, 0), 1);
		assert_int_equal(used, 4 + m.size); /* never past the frame */
		check_nth(&m, i);
		off += used;
	}
	assert_int_equal(off, wire_buf_used(&b));
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

static void test_header_big_endian(void **state)
{
	wire_buf b;
	unsigned char *h;
	size_t n;

	wire_buf_init(&b, 4096);
	assert_int_equal(wire_pack_ping(&b, 1, 0, 4096), 0);
	h = (unsigned char *)wire_buf_head(&b);
	n = wire_buf_used(&b) - 4;
	assert_int_equal(h[0], 0);
	assert_int_equal(h[1], 0);
	assert_int_equal(h[2], (n >> 8) & 0xff);
	assert_int_equal(h[3], n & 0xff);
	assert_int_equal(h[4], 0x93); /* fixarray of 3: type, seq, t */
	wire_buf_destroy(&b);
}

/* ---- the size limit --------------------------------------------------- */

/* Builds a frame [1, 1, bin] whose payload is exactly `size` bytes. */
static void frame_of_size(wire_buf *b, size_t size)
{
	wire_enc e;
	char *body = calloc(1, size);

	assert_non_null(body);
	/* 0x93 0x01 0x01 + bin32 header (5 bytes) = 8 bytes of overhead */
	assert_int_equal(wire_enc_begin(&e, b, 1, 1, 1), 0);
	msgpack_pack_bin(wire_enc_packer(&e), size - 8);
	msgpack_pack_bin_body(wire_enc_packer(&e), body, size - 8);
	assert_int_equal(wire_enc_end(&e, 1u << 20), 0);
	assert_int_equal(wire_buf_used(b), 4 + size);
	free(body);
}

static void test_limit_exact_accepted(void **state)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;

	wire_buf_init(&b, 1u << 20);
	frame_of_size(&b, 70000);
	assert_int_equal(ut_decode(&d, wire_buf_head(&b), wire_buf_used(&b),
				   70000, &m, NULL, 0), 1);
	assert_int_equal(m.size, 70000);
	assert_int_equal(m.nf, 1);
	assert_int_equal(m.f[0].type, MSGPACK_OBJECT_BIN);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

static void test_limit_plus_one_refused_early(void **state)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;
	size_t used;
	char err[128];

	wire_buf_init(&b, 1u << 20);
	frame_of_size(&b, 70001);
	assert_int_equal(wire_dec_init(&d, 70000), 0);
	largest_alloc = 0;
	/* only the header so far: refused at once */
	assert_int_equal(wire_dec_step(&d, wire_buf_head(&b), 4, &used, &m,
				       err, sizeof err), WIRE_ETOOBIG);
	assert_int_equal(used, 4);
	assert_true(largest_alloc < 70001);
	assert_non_null(strstr(err, "70001"));
	wire_dec_destroy(&d);
	/* whole frame offered: still only the 4 header bytes are consumed */
	assert_int_equal(wire_dec_init(&d, 70000), 0);
	assert_int_equal(wire_dec_step(&d, wire_buf_head(&b), wire_buf_used(&b),
				       &used, &m, err, sizeof err),
			 WIRE_ETOOBIG);
	assert_int_equal(used, 4);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

static void test_max_clamped_to_hard(void **state)
{
	wire_dec d;

	assert_int_equal(wire_dec_init(&d, (size_t)-1), 0);
	assert_int_equal(d.max, WIRE_FRAME_MAX_HARD);
	wire_dec_destroy(&d);
}

static void test_huge_length_refused(void **state)
{
	static const unsigned char h[4] = {0xff, 0xff, 0xff, 0xff};
	wire_dec d;
	wire_msg m;
	size_t used;

	largest_alloc = 0;
	assert_int_equal(wire_dec_init(&d, (size_t)-1), 0);
	assert_int_equal(wire_dec_step(&d, h, 4, &used, &m, NULL, 0),
			 WIRE_ETOOBIG);
	assert_true(largest_alloc < (1u << 20));
	wire_dec_destroy(&d);
}

/* ---- malformed payloads ----------------------------------------------- */

static void test_zero_length(void **state)
{
	char err[128];

	assert_int_equal(dec_payload("", 0, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "empty"));
}

static void test_garbage(void **state)
{
	static const unsigned char g1[] = {0xc1};
	static const unsigned char g2[] = {0x93, 0x01, 0x01, 0xc1};
	static const unsigned char g3[] = {0x93, 0x01}; /* truncated */
	static const unsigned char g4[] = {0xdb, 0xff, 0xff, 0xff, 0xff, 0};
	char err[128];

	assert_int_equal(dec_payload(g1, sizeof g1, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_true(strlen(err) > 0);
	assert_int_equal(dec_payload(g2, sizeof g2, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(dec_payload(g3, sizeof g3, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(dec_payload(g4, sizeof g4, err, sizeof err),
			 WIRE_EMALFORMED);
}

static void test_not_an_array(void **state)
{
	static const unsigned char p1[] = {0x05};
	static const unsigned char p2[] = {0x82, 0x01, 0x01, 0x02, 0x02};
	static const unsigned char p3[] = {0xa2, 'h', 'i'};
	static const unsigned char p4[] = {0xc0};
	char err[128];

	assert_int_equal(dec_payload(p1, 1, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "array"));
	assert_int_equal(dec_payload(p2, sizeof p2, NULL, 0), WIRE_EMALFORMED);
	assert_int_equal(dec_payload(p3, sizeof p3, NULL, 0), WIRE_EMALFORMED);
	assert_int_equal(dec_payload(p4, sizeof p4, NULL, 0), WIRE_EMALFORMED);
}

static void test_array_too_short(void **state)
{
	static const unsigned char p0[] = {0x90};
	static const unsigned char p1[] = {0x91, 0x01};
	static const unsigned char p2[] = {0x92, 0x01, 0x02};

	assert_int_equal(dec_payload(p0, sizeof p0, NULL, 0), WIRE_EMALFORMED);
	assert_int_equal(dec_payload(p1, sizeof p1, NULL, 0), WIRE_EMALFORMED);
	assert_int_equal(dec_payload(p2, sizeof p2, NULL, 0), 1);
}

static void test_type_seq_not_u32(void **state)
{
	static const unsigned char bad[][12] = {
		{0x92, 0xff, 0x01},                    /* type -1 */
		{0x92, 0x01, 0xff},                    /* seq -1 */
		{0x92, 0xa1, 'x', 0x01},               /* type "x" */
		{0x92, 0x01, 0xc0},                    /* seq nil */
		{0x92, 0xc3, 0x01},                    /* type true */
		{0x92, 0xca, 0x3f, 0x80, 0, 0, 0x01},  /* type 1.0f */
		{0x92, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0, 0x01}, /* type 2^32 */
		{0x92, 0x01, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0}, /* seq 2^32 */
		{0x92, 0x90, 0x01},                    /* type [] */
	};
	static const size_t len[] = {3, 3, 4, 3, 3, 7, 11, 11, 3};
	static const unsigned char ok[] = {0x92, 0xce, 0xff, 0xff, 0xff, 0xff,
					   0xce, 0xff, 0xff, 0xff, 0xff};
	char err[128];
	size_t i;

	for (i = 0; i < sizeof len / sizeof len[0]; i++) {
		assert_int_equal(dec_payload(bad[i], len[i], err, sizeof err),
				 WIRE_EMALFORMED);
		assert_true(strlen(err) > 0);
	}
	assert_int_equal(dec_payload(ok, sizeof ok, NULL, 0), 1);
}

static void test_trailing_bytes(void **state)
{
	static const unsigned char p[] = {0x92, 0x01, 0x01, 0xc0};
	char err[128];

	assert_int_equal(dec_payload(p, sizeof p, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_non_null(strstr(err, "trailing"));
}

static void test_count_bombs(void **state)
{
	static const unsigned char arr[] = {0xdd, 0xff, 0xff, 0xff, 0xff};
	static const unsigned char map[] = {0xdf, 0xff, 0xff, 0xff, 0xff};
	static const unsigned char arr16[] = {0xdc, 0xff, 0xff, 0x01};
	static const unsigned char inner[] = {0x93, 0x01, 0x01, 0xdf, 0xff,
					      0xff, 0xff, 0xff};
	static const unsigned char fix[] = {0x93, 0x01, 0x01, 0x8f, 0x01};

	largest_alloc = 0;
	assert_int_equal(dec_payload(arr, sizeof arr, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(dec_payload(map, sizeof map, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(dec_payload(arr16, sizeof arr16, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(dec_payload(inner, sizeof inner, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(dec_payload(fix, sizeof fix, NULL, 0),
			 WIRE_EMALFORMED);
	/* the 1 MB frame buffer of dec_payload is the biggest allocation */
	assert_true(largest_alloc <= (1u << 20));
}

/* Payload [1, 1, [[[...depth...]]]]. */
static int dec_nested(int depth)
{
	unsigned char p[2100];
	int i, n = 0;

	p[n++] = 0x93;
	p[n++] = 0x01;
	p[n++] = 0x01;
	for (i = 0; i < depth - 1; i++)
		p[n++] = 0x91;
	p[n++] = 0x90;
	return dec_payload(p, (size_t)n, NULL, 0);
}

static void test_deep_nesting(void **state)
{
	assert_int_equal(dec_nested(20), 1);
	assert_int_equal(dec_nested(2000), WIRE_EMALFORMED);
}

static void test_errors_sticky(void **state)
{
	static const unsigned char bad[] = {0, 0, 0, 1, 0xc1};
	wire_buf b;
	wire_dec d;
	wire_msg m;
	size_t used;
	char err[128];

	wire_buf_init(&b, 4096);
	assert_int_equal(wire_pack_ping(&b, 1, 2, 4096), 0);
	assert_int_equal(ut_decode(&d, bad, sizeof bad, 4096, &m, err,
				   sizeof err), WIRE_EMALFORMED);
	err[0] = '\0';
	assert_int_equal(wire_dec_step(&d, wire_buf_head(&b), wire_buf_used(&b),
				       &used, &m, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(used, 0);
	assert_true(strlen(err) > 0);
	assert_int_equal(wire_dec_step(&d, wire_buf_head(&b), 1, &used, &m,
				       NULL, 0), WIRE_EMALFORMED);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

/* ---- encoder rollback ------------------------------------------------- */

static void test_enc_rollback_buf_max(void **state)
{
	wire_buf b;
	wire_hello h;
	char before[64];
	size_t used;

	ut_hello_foreign(&h);
	wire_buf_init(&b, 64);
	assert_int_equal(wire_pack_ping(&b, 1, 2, 4096), 0);
	wire_buf_consume(&b, 3); /* an offset to honour on rollback */
	used = wire_buf_used(&b);
	memcpy(before, wire_buf_head(&b), used);
	assert_int_equal(wire_pack_hello(&b, 2, &h, 4096), WIRE_ENOMEM);
	assert_int_equal(wire_buf_used(&b), used);
	assert_memory_equal(wire_buf_head(&b), before, used);
	/* the buffer still works for a frame that fits */
	assert_int_equal(wire_pack_auth(&b, 3, "t", 4096), 0);
	wire_buf_destroy(&b);
}

static void test_enc_rollback_too_big(void **state)
{
	wire_buf b;
	wire_hello h;
	wire_dec d;
	wire_msg m;
	size_t used;

	ut_hello_foreign(&h);
	wire_buf_init(&b, 1u << 20);
	assert_int_equal(wire_pack_auth(&b, 1, "first", 4096), 0);
	used = wire_buf_used(&b);
	assert_int_equal(wire_pack_hello(&b, 2, &h, 50), WIRE_ETOOBIG);
	assert_int_equal(wire_buf_used(&b), used);
	assert_int_equal(wire_pack_bye(&b, 3, "x", 2), WIRE_ETOOBIG);
	assert_int_equal(wire_buf_used(&b), used);
	assert_int_equal(ut_decode(&d, wire_buf_head(&b), used, 4096, &m, NULL,
				   0), 1);
	assert_int_equal(m.type, WIRE_AUTH);
	assert_int_equal(m.size + 4, used); /* nothing after the first frame */
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

/* ---- wire_msgpack_check ----------------------------------------------- */

static void test_check(void **state)
{
	static const unsigned char ext8[] = {0xc7, 0x02, 0x05, 'a', 'b'};
	static const unsigned char fext[] = {0xd8, 1, 0, 0, 0, 0, 0, 0, 0, 0,
					     0, 0, 0, 0, 0, 0, 0, 0};
	static const unsigned char str8[] = {0xd9, 0x03, 'a', 'b', 'c', 0xc0};
	static const unsigned char map[] = {0x81, 0x01, 0x92, 0x02, 0x03};

	assert_int_equal(wire_msgpack_check(ext8, sizeof ext8), 5);
	assert_int_equal(wire_msgpack_check(ext8, 4), WIRE_EMALFORMED);
	assert_int_equal(wire_msgpack_check(fext, sizeof fext), 18);
	assert_int_equal(wire_msgpack_check(str8, sizeof str8), 5);
	assert_int_equal(wire_msgpack_check(map, sizeof map), 5);
	assert_int_equal(wire_msgpack_check(map, 4), WIRE_EMALFORMED);
	assert_int_equal(wire_msgpack_check(map, 0), WIRE_EMALFORMED);
	assert_int_equal(wire_msgpack_check((const unsigned char *)"\xc1", 1),
			 WIRE_EMALFORMED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_all),
		cmocka_unit_test(test_byte_at_a_time),
		cmocka_unit_test(test_several_in_one_chunk),
		cmocka_unit_test(test_header_big_endian),
		cmocka_unit_test(test_limit_exact_accepted),
		cmocka_unit_test(test_limit_plus_one_refused_early),
		cmocka_unit_test(test_max_clamped_to_hard),
		cmocka_unit_test(test_huge_length_refused),
		cmocka_unit_test(test_zero_length),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_not_an_array),
		cmocka_unit_test(test_array_too_short),
		cmocka_unit_test(test_type_seq_not_u32),
		cmocka_unit_test(test_trailing_bytes),
		cmocka_unit_test(test_count_bombs),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_errors_sticky),
		cmocka_unit_test(test_enc_rollback_buf_max),
		cmocka_unit_test(test_enc_rollback_too_big),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
