/*
 * test_wire_fmt.c — the generic, table-driven codec (wire_fmt.h): every
 * type letter round-trips, every letter refuses the wrong msgpack type,
 * short messages and unknown types are refused, raw objects are checked,
 * and relaying keeps the fields while changing the sequence number.
 */
#include "unit_util.h"
#include "wire_fmt.h"

#define MAX (1u << 20)

/* Decodes the single frame in b into *m (decoder kept alive in *d). */
static void decode_one(wire_dec *d, wire_buf *b, wire_msg *m)
{
	char err[160];

	assert_int_equal(ut_decode(d, wire_buf_head(b), wire_buf_used(b), MAX,
				   m, err, sizeof err),
			 1);
}

static void test_format_letters(void **state)
{
	(void)state;
	assert_string_equal(wire_type_format(WIRE_FILE_PUT), "usud");
	assert_string_equal(wire_type_format(WIRE_BP_HIT), "uususuoo");
	assert_string_equal(wire_type_format(WIRE_HELLO), "ussssssosAss");
	assert_string_equal(wire_type_format(WIRE_NODE_EVENTS), "uuo");
	assert_string_equal(wire_type_format(WIRE_EVENTS_LOST), "uus");
	assert_null(wire_type_format(9999));
	assert_null(wire_type_format(7));
}

static void test_roundtrip_all_letters(void **state)
{
	static const char *const srcs[] = {"a.c", "dir/b.c"};
	const char *data;
	size_t n;
	uint64_t build, mode;
	char name[64], src[32];
	const msgpack_object *arr, *cf, *lf;
	wire_buf b;
	wire_dec d;
	wire_msg m;

	(void)state;
	wire_buf_init(&b, MAX);
	assert_int_equal(wire_pack(&b, WIRE_FILE_PUT, 5, MAX, (uint64_t)7,
				   "src/x.c", (uint64_t)0644, "int x;\n",
				   (size_t)7),
			 0);
	decode_one(&d, &b, &m);
	assert_int_equal(m.type, WIRE_FILE_PUT);
	assert_int_equal(m.seq, 5);
	assert_int_equal(wire_unpack(&m, NULL, 0, &build, name, sizeof name,
				     &mode, &data, &n),
			 0);
	assert_int_equal(build, 7);
	assert_string_equal(name, "src/x.c");
	assert_int_equal(mode, 0644);
	assert_int_equal(n, 7);
	assert_memory_equal(data, "int x;\n", 7);
	wire_dec_destroy(&d);

	wire_buf_reset(&b);
	assert_int_equal(wire_pack(&b, WIRE_BUILD, 6, MAX, (uint64_t)1, "prog",
				   srcs, (uint32_t)2, srcs, (uint32_t)0, srcs,
				   (uint32_t)1),
			 0);
	decode_one(&d, &b, &m);
	assert_int_equal(wire_unpack(&m, NULL, 0, &build, name, sizeof name,
				     &arr, &cf, &lf),
			 0);
	assert_int_equal(lf->via.array.size, 1);
	assert_int_equal(arr->via.array.size, 2);
	assert_int_equal(wire_strv_get(arr, 1, src, sizeof src), 0);
	assert_string_equal(src, "dir/b.c");
	assert_int_not_equal(wire_strv_get(arr, 2, src, sizeof src), 0);
	assert_int_not_equal(wire_strv_get(arr, 1, src, 4), 0);
	assert_int_equal(cf->via.array.size, 0);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

static void test_signed_and_bool(void **state)
{
	int64_t st, sig;
	uint64_t proc;
	char last[64];
	wire_buf b;
	wire_dec d;
	wire_msg m;

	(void)state;
	wire_buf_init(&b, MAX);
	assert_int_equal(wire_pack(&b, WIRE_PROC_EXIT, 1, MAX, (uint64_t)3,
				   (int64_t)-1, (int64_t)11, "x.c:12 main"),
			 0);
	decode_one(&d, &b, &m);
	assert_int_equal(wire_unpack(&m, NULL, 0, &proc, &st, &sig, last,
				     sizeof last),
			 0);
	assert_int_equal(st, -1);
	assert_int_equal(sig, 11);
	assert_string_equal(last, "x.c:12 main");
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

/* A frame of the given type whose every field is nil: each letter must
 * refuse it with a sentence naming the first field. */
static void test_wrong_types_refused(void **state)
{
	int i;
	char err[160];

	(void)state;
	for (i = 0; i < wire_type_count(); i++) {
		uint32_t t = wire_type_at(i);
		const char *fmt = wire_type_format(t);
		msgpack_sbuffer sb;
		msgpack_packer pk;
		wire_buf b;
		wire_dec d;
		wire_msg m;
		size_t k;
		uint64_t u;
		char s[8];

		if (fmt[0] == 'o' || fmt[0] == '\0')
			continue; /* any object is acceptable there; no field */
		msgpack_sbuffer_init(&sb);
		msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
		msgpack_pack_array(&pk, 2 + strlen(fmt));
		msgpack_pack_uint32(&pk, t);
		msgpack_pack_uint32(&pk, 1);
		for (k = 0; k < strlen(fmt); k++)
			msgpack_pack_nil(&pk);
		wire_buf_init(&b, MAX);
		ut_frame(&b, sb.data, sb.size);
		decode_one(&d, &b, &m);
		/* Only the first field is reached: give it a matching slot. */
		if (fmt[0] == 's')
			assert_int_equal(wire_unpack(&m, err, sizeof err, s,
						     sizeof s),
					 WIRE_EMALFORMED);
		else
			assert_int_equal(wire_unpack(&m, err, sizeof err, &u),
					 WIRE_EMALFORMED);
		assert_non_null(strstr(err, wire_type_name(t)));
		assert_non_null(strstr(err, "field"));
		wire_dec_destroy(&d);
		wire_buf_destroy(&b);
		msgpack_sbuffer_destroy(&sb);
	}
}

static void test_too_few_and_unknown(void **state)
{
	char err[160];
	wire_buf b;
	wire_dec d;
	wire_msg m;

	(void)state;
	wire_buf_init(&b, MAX);
	assert_int_equal(wire_pack(&b, 77, 1, MAX), WIRE_EUNKNOWN);
	assert_int_equal(wire_buf_used(&b), 0);
	assert_int_equal(wire_pack_ping(&b, 1, 5, MAX), 0);
	decode_one(&d, &b, &m);
	m.type = WIRE_PONG; /* PONG needs three fields, PING has one */
	assert_int_equal(wire_unpack(&m, err, sizeof err, NULL),
			 WIRE_EMALFORMED);
	assert_non_null(strstr(err, "needs 3"));
	m.type = 77;
	assert_int_equal(wire_unpack(&m, err, sizeof err), WIRE_EUNKNOWN);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

static void test_raw_object_checked(void **state)
{
	static const unsigned char ok[] = {0x92, 0x01, 0xa1, 'x'};
	static const unsigned char bad[] = {0x92, 0x01};
	const msgpack_object *o;
	uint64_t proc, req;
	int okf;
	wire_buf b;
	wire_dec d;
	wire_msg m;

	(void)state;
	wire_buf_init(&b, MAX);
	assert_int_equal(wire_pack(&b, WIRE_VALUE, 1, MAX, (uint64_t)1,
				   (uint64_t)2, 1, bad, sizeof bad),
			 WIRE_EARG);
	assert_int_equal(wire_buf_used(&b), 0); /* rolled back */
	assert_int_equal(wire_pack(&b, WIRE_VALUE, 1, MAX, (uint64_t)1,
				   (uint64_t)2, 1, ok, sizeof ok),
			 0);
	decode_one(&d, &b, &m);
	assert_int_equal(wire_unpack(&m, NULL, 0, &proc, &req, &okf, &o), 0);
	assert_int_equal(okf, 1);
	assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
	assert_int_equal(o->via.array.size, 2);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

static void test_relay_keeps_fields(void **state)
{
	static const unsigned char vars[] = {0x90};
	static const unsigned char stack[] = {0x91, 0xa4, 'm', 'a', 'i', 'n'};
	wire_buf b, r;
	wire_dec d, d2;
	wire_msg m, m2;

	(void)state;
	wire_buf_init(&b, MAX);
	wire_buf_init(&r, MAX);
	assert_int_equal(wire_pack(&b, WIRE_BP_HIT, 3, MAX, (uint64_t)1,
				   (uint64_t)2, "a.c", (uint64_t)10, "main",
				   (uint64_t)0, vars, sizeof vars, stack,
				   sizeof stack),
			 0);
	decode_one(&d, &b, &m);
	assert_int_equal(wire_relay(&r, &m, 99, MAX), 0);
	decode_one(&d2, &r, &m2);
	assert_int_equal(m2.type, WIRE_BP_HIT);
	assert_int_equal(m2.seq, 99);
	assert_int_equal(wire_buf_used(&r), wire_buf_used(&b));
	/* Same bytes after the 4-byte header, but for the seq byte. */
	assert_memory_equal(wire_buf_head(&r) + 7, wire_buf_head(&b) + 7,
			    wire_buf_used(&b) - 7);
	wire_dec_destroy(&d);
	wire_dec_destroy(&d2);
	wire_buf_destroy(&b);
	wire_buf_destroy(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_format_letters),
	    cmocka_unit_test(test_roundtrip_all_letters),
	    cmocka_unit_test(test_signed_and_bool),
	    cmocka_unit_test(test_wrong_types_refused),
	    cmocka_unit_test(test_too_few_and_unknown),
	    cmocka_unit_test(test_raw_object_checked),
	    cmocka_unit_test(test_relay_keeps_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
