/*
 * test_td_bad.c — bad input is refused with an error, never a crash:
 * malformed tables (hand-made and mutated bytes), values that do not fit
 * their type, malformed requests, requests the node must refuse, and wild
 * addresses in requests (reported unreadable).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "td_testutil.h"

/* Packs the fixture's table into sb. */
static void pack_table(msgpack_sbuffer *sb)
{
	msgpack_packer pk;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	assert_int_equal(td_table_pack(&pk, &td_probe_table), 0);
}

/* Decodes buf; expects an error with a sentence, returns the code. */
static int decode_fails(const char *buf, size_t len)
{
	td_table *t = (td_table *)1;
	char err[256] = "";
	int rc = td_table_decode_buf(buf, len, &t, err, sizeof err);

	assert_true(rc < 0);
	assert_null(t);
	assert_true(strlen(err) > 0);
	return rc;
}

/* Garbage, truncation, trailing bytes. */
static void test_table_garbage(void **state)
{
	msgpack_sbuffer sb;
	size_t cut;

	(void)state;
	decode_fails("", 0);
	decode_fails("\xc1", 1);
	decode_fails("\x93\x01\x02\x03", 4);
	decode_fails("\xdd\xff\xff\xff\xff", 5); /* array of 2^32-1, no data */
	pack_table(&sb);
	for (cut = 0; cut < sb.size; cut += 7)
		decode_fails(sb.data, cut);
	msgpack_sbuffer_write(&sb, "\x00", 1);
	decode_fails(sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
}

/* Packs a one-entry table whose entry is given as raw fields. */
static void pack_one(msgpack_sbuffer *sb, uint64_t id, uint64_t kind,
                     uint64_t base, int with_member, uint64_t mtype)
{
	msgpack_packer pk;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 4);
	msgpack_pack_str_with_body(&pk, "paravt-td", 9);
	msgpack_pack_uint32(&pk, TD_FORMAT_VERSION);
	msgpack_pack_nil(&pk);
	msgpack_pack_array(&pk, 1);
	msgpack_pack_array(&pk, 11);
	msgpack_pack_uint64(&pk, id);
	msgpack_pack_uint64(&pk, kind);
	msgpack_pack_uint8(&pk, 0);
	msgpack_pack_uint8(&pk, 0);
	msgpack_pack_str_with_body(&pk, "t", 1);
	msgpack_pack_uint8(&pk, 4);
	msgpack_pack_uint8(&pk, 4);
	msgpack_pack_uint64(&pk, base);
	msgpack_pack_uint8(&pk, 0);
	msgpack_pack_array(&pk, with_member ? 1 : 0);
	if (with_member) {
		msgpack_pack_array(&pk, 4);
		msgpack_pack_str_with_body(&pk, "m", 1);
		msgpack_pack_uint64(&pk, mtype);
		msgpack_pack_uint8(&pk, 0);
		msgpack_pack_uint8(&pk, 0);
	}
	msgpack_pack_array(&pk, 0);
}

/* Entries that break the model's rules. */
static void test_table_rules(void **state)
{
	msgpack_sbuffer sb;
	td_table *t;
	char err[256];

	(void)state;
	pack_one(&sb, 0, TD_STRUCT, 0, 1, 0); /* valid: struct with a member */
	assert_int_equal(
	    td_table_decode_buf(sb.data, sb.size, &t, err, sizeof err), 0);
	td_table_free(t);
	msgpack_sbuffer_destroy(&sb);
	pack_one(&sb, 1, TD_INT, 0, 0, 0); /* id is not the index */
	assert_int_equal(decode_fails(sb.data, sb.size), TD_EMALFORMED);
	msgpack_sbuffer_destroy(&sb);
	pack_one(&sb, 0, TD_KIND_COUNT, 0, 0, 0); /* unknown kind */
	decode_fails(sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
	pack_one(&sb, 0, TD_POINTER, 5, 0, 0); /* base out of range */
	decode_fails(sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
	pack_one(&sb, 0, TD_STRUCT, 0, 1, 9); /* member type out of range */
	decode_fails(sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
	pack_one(&sb, 0, TD_TYPEDEF, 0, 0, 0); /* typedef of itself */
	decode_fails(sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
	pack_one(&sb, 0, TD_INT, 0, 1, 0); /* an int with members */
	decode_fails(sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
}

/* Every byte of a valid table flipped in turn: decode or refuse, and a
 * table that decodes must print values without crashing. */
static void test_table_mutations(void **state)
{
	msgpack_sbuffer sb;
	td_table *t;
	char err[256];
	size_t i;
	int bit, ok = 0, bad = 0;

	(void)state;
	pack_table(&sb);
	for (i = 0; i < sb.size; i++)
		for (bit = 0; bit < 8; bit += 3) {
			sb.data[i] ^= (char)(1 << bit);
			if (td_table_decode_buf(sb.data, sb.size, &t, err,
			                        sizeof err) == 0) {
				ok++;
				td_table_free(t);
			} else {
				bad++;
			}
			sb.data[i] ^= (char)(1 << bit);
		}
	assert_true(bad > 0);
	msgpack_sbuffer_destroy(&sb);
	(void)ok;
}

/* Prints v (packed by fn) as type id and expects an error. */
static void value_fails(uint32_t id, void (*fn)(msgpack_packer *))
{
	td_path_result res;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	char *s;

	memset(&res, 0, sizeof res);
	res.type = id;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	fn(&pk);
	s = tu_print_bytes(&res, sb.data, sb.size, 0);
	assert_true(strncmp(s, "ERR: ", 5) == 0);
	free(s);
	msgpack_sbuffer_destroy(&sb);
}

/* Packers of values that do not fit their type: a string. */
static void v_str(msgpack_packer *pk)
{
	msgpack_pack_str_with_body(pk, "x", 1);
}

/* A negative integer. */
static void v_neg(msgpack_packer *pk)
{
	msgpack_pack_int(pk, -1);
}

/* A one-element array. */
static void v_arr1(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	msgpack_pack_int(pk, 1);
}

/* Eleven elements (for an int [10]). */
static void v_arr11(msgpack_packer *pk)
{
	int i;

	msgpack_pack_array(pk, 11);
	for (i = 0; i < 11; i++)
		msgpack_pack_int(pk, i);
}

/* A pointer ext of 4 bytes instead of 9. */
static void v_shortptr(msgpack_packer *pk)
{
	msgpack_pack_ext_with_body(pk, "\0\0\0\1", 4, TD_EXT_PTR);
}

/* A string longer than a char [16]. */
static void v_longstr(msgpack_packer *pk)
{
	msgpack_pack_str_with_body(pk, "0123456789abcdefXYZ", 19);
}

/* A plain integer. */
static void v_int(msgpack_packer *pk)
{
	msgpack_pack_int(pk, 5);
}

/* Values that do not fit their type. */
static void test_value_mismatch(void **state)
{
	(void)state;
	value_fails(TID_INT, v_str);
	value_fails(TID_UINT, v_neg);
	value_fails(TID_CELL, v_arr1);
	value_fails(TID_INT10, v_arr11);
	value_fails(TID_CELLP, v_shortptr);
	value_fails(TID_NAME16, v_longstr);
	value_fails(TID_BOOL, v_int);
	value_fails(TID_LDOUBLE, v_int);
	value_fails(TID_COUNT + 5, v_int);
}

/* A valid value with bytes flipped: printed or refused, no crash. */
static void test_value_mutations(void **state)
{
	const td_var *v = tu_var("g_all");
	td_path_result res;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	size_t i;
	char *s;

	(void)state;
	memset(&res, 0, sizeof res);
	res.type = v->type;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	assert_int_equal(
	    td_pack_value(&pk, &td_probe_table, v->type, v->addr, NULL), 0);
	for (i = 0; i < sb.size; i++) {
		sb.data[i] ^= 0x21;
		s = tu_print_bytes(&res, sb.data, sb.size, 0);
		free(s);
		sb.data[i] ^= 0x21;
	}
	msgpack_sbuffer_destroy(&sb);
}

/* Unpacks bytes as a request; returns td_request_unpack's code. */
static int unpack_req(void (*fn)(msgpack_packer *))
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_unpacked u;
	td_request req;
	size_t off = 0;
	int rc;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	fn(&pk);
	msgpack_unpacked_init(&u);
	assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, &off),
	                 MSGPACK_UNPACK_SUCCESS);
	rc = td_request_unpack(&u.data, &req);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* Malformed requests: two fields instead of three. */
static void r_short(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 2);
	msgpack_pack_int(pk, 1);
	msgpack_pack_int(pk, 2);
}

/* A step with an unknown op. */
static void r_badop(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 3);
	msgpack_pack_int(pk, 1);
	msgpack_pack_int(pk, 2);
	msgpack_pack_array(pk, 1);
	msgpack_pack_array(pk, 2);
	msgpack_pack_int(pk, 9);
	msgpack_pack_int(pk, 0);
}

/* A negative address. */
static void r_negaddr(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 3);
	msgpack_pack_int(pk, 1);
	msgpack_pack_int(pk, -2);
	msgpack_pack_array(pk, 0);
}

/* One step more than TD_MAX_STEPS. */
static void r_toolong(msgpack_packer *pk)
{
	uint32_t i;

	msgpack_pack_array(pk, 3);
	msgpack_pack_int(pk, 1);
	msgpack_pack_int(pk, 2);
	msgpack_pack_array(pk, TD_MAX_STEPS + 1);
	for (i = 0; i <= TD_MAX_STEPS; i++) {
		msgpack_pack_array(pk, 2);
		msgpack_pack_int(pk, TD_STEP_DEREF);
		msgpack_pack_int(pk, 0);
	}
}

/* Malformed requests. */
static void test_request_malformed(void **state)
{
	(void)state;
	assert_int_equal(unpack_req(r_short), TD_EMALFORMED);
	assert_int_equal(unpack_req(r_badop), TD_EMALFORMED);
	assert_int_equal(unpack_req(r_negaddr), TD_EMALFORMED);
	assert_int_equal(unpack_req(r_toolong), TD_EMALFORMED);
}

/* Serves req; returns the code; output must be empty on error. */
static int serve(td_request *req, char *text, size_t len)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	td_path_result res;
	char *s;
	int rc;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	rc = td_serve(&pk, &td_probe_table, req, NULL);
	if (rc)
		assert_int_equal(sb.size, 0);
	if (rc == 0 && text != NULL) {
		memset(&res, 0, sizeof res);
		res.type = TID_INT;
		s = tu_print_bytes(&res, sb.data, sb.size, 0);
		snprintf(text, len, "%s", s);
		free(s);
	}
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* Requests the node must refuse, and wild addresses. */
static void test_serve_refuses(void **state)
{
	td_request req;
	char text[128];

	(void)state;
	memset(&req, 0, sizeof req);
	req.type = TID_COUNT;
	req.addr = (uint64_t)(uintptr_t)tu_var("g_arr")->addr;
	assert_int_equal(serve(&req, NULL, 0), TD_ETYPE);
	req.type = TID_INT10;
	req.nsteps = 1;
	req.steps[0].op = TD_STEP_INDEX;
	req.steps[0].arg = 10;
	assert_int_equal(serve(&req, NULL, 0), TD_ERANGE);
	req.steps[0].op = TD_STEP_MEMBER;
	req.steps[0].arg = 0;
	assert_int_equal(serve(&req, NULL, 0), TD_ETYPE);
	req.steps[0].op = TD_STEP_SLICE;
	req.steps[0].arg = 2;
	req.steps[1].op = TD_STEP_DEREF;
	req.nsteps = 2;
	assert_int_equal(serve(&req, NULL, 0), TD_EARG);
	req.type = TID_INT;
	req.nsteps = 1;
	req.steps[0].op = TD_STEP_DEREF;
	assert_int_equal(serve(&req, NULL, 0), TD_ETYPE);
	req.nsteps = 0;
	req.addr = 0xdead0;
	assert_int_equal(serve(&req, text, sizeof text), 0);
	assert_string_equal(text, "<unreadable at 0xdead0>");
	req.addr = UINT64_MAX - 2;
	assert_int_equal(serve(&req, text, sizeof text), 0);
	assert_true(strncmp(text, "<unreadable at 0x", 17) == 0);
	assert_false(td_readable(NULL, 1));
	assert_false(td_readable((void *)(uintptr_t)(UINTPTR_MAX - 2), 8));
	assert_true(td_readable(text, sizeof text));
}

/* The allocation-free pre-check of untrusted msgpack bytes. */
static void test_msgpack_check(void **state)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	size_t used = 0;

	(void)state;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 9);
	msgpack_pack_int(&pk, -100000);
	msgpack_pack_uint64(&pk, UINT64_MAX);
	msgpack_pack_double(&pk, 1.5);
	msgpack_pack_float(&pk, 1.5f);
	msgpack_pack_str_with_body(&pk, "abc", 3);
	msgpack_pack_bin_with_body(&pk, "abc", 3);
	msgpack_pack_ext_with_body(&pk, "123456789", 9, 1);
	msgpack_pack_map(&pk, 1);
	msgpack_pack_nil(&pk);
	msgpack_pack_true(&pk);
	msgpack_pack_ext_with_body(&pk, "1234", 4, 2);
	assert_int_equal(td_msgpack_check(sb.data, sb.size, &used), 0);
	assert_int_equal(used, sb.size);
	assert_int_equal(td_msgpack_check(sb.data, sb.size - 1, &used),
	                 TD_EMALFORMED);
	assert_int_equal(td_msgpack_check("\xdd\xff\xff\xff\xff", 5, &used),
	                 TD_EMALFORMED);
	assert_int_equal(td_msgpack_check("\xdf\x7f\xff\xff\xff\0\0", 7, &used),
	                 TD_EMALFORMED);
	assert_int_equal(td_msgpack_check("\xdb\xff\xff\xff\xf0x", 6, &used),
	                 TD_EMALFORMED);
	assert_int_equal(td_msgpack_check("\xc1", 1, &used), TD_EMALFORMED);
	assert_int_equal(td_msgpack_check("", 0, &used), TD_EMALFORMED);
	msgpack_sbuffer_destroy(&sb);
}

/* The registered list of cases. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_msgpack_check),
	    cmocka_unit_test(test_table_garbage),
	    cmocka_unit_test(test_table_rules),
	    cmocka_unit_test(test_table_mutations),
	    cmocka_unit_test(test_value_mismatch),
	    cmocka_unit_test(test_value_mutations),
	    cmocka_unit_test(test_request_malformed),
	    cmocka_unit_test(test_serve_refuses),
	};

	return cmocka_run_group_tests(tests, tu_setup, tu_teardown);
}
