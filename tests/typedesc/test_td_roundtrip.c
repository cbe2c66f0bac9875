/*
 * test_td_roundtrip.c — every kind through the whole chain: the node's
 * walker (td_pack_value) and request server (td_serve) write canonical
 * msgpack, the console decodes the table and the value and prints it.
 * Uses the test program's variables and hand-written table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "td_testutil.h"

/* The decoded table keeps every entry, member and constant. */
static void test_table_roundtrip(void **state)
{
	const td_type *a, *b;
	uint32_t i, k;

	(void)state;
	assert_int_equal(tu_table->ntypes, td_probe_table.ntypes);
	assert_string_equal(tu_table->build, "td_probe");
	for (i = 0; i < tu_table->ntypes; i++) {
		a = &td_probe_table.types[i];
		b = &tu_table->types[i];
		assert_int_equal(a->kind, b->kind);
		assert_int_equal(a->size, b->size);
		assert_int_equal(a->align, b->align);
		assert_int_equal(a->base, b->base);
		assert_int_equal(a->count, b->count);
		assert_int_equal(a->quals, b->quals);
		assert_int_equal(a->is_signed, b->is_signed);
		assert_string_equal(a->name, b->name);
		assert_int_equal(a->nmembers, b->nmembers);
		for (k = 0; k < a->nmembers; k++) {
			assert_string_equal(a->members[k].name,
			                    b->members[k].name);
			assert_int_equal(a->members[k].offset,
			                 b->members[k].offset);
			assert_int_equal(a->members[k].bit_width,
			                 b->members[k].bit_width);
		}
		assert_int_equal(a->nconsts, b->nconsts);
		for (k = 0; k < a->nconsts; k++)
			assert_int_equal(a->consts[k].value,
			                 b->consts[k].value);
	}
}

/* Scalars of every integer and floating kind, bool, enum, char array,
 * const char *, function pointer, in one struct. */
static void test_scalars(void **state)
{
	(void)state;
	TU_EQ(tu_var_text("g_all", NULL, 1),
	      "{c = 65 'A', sc = -5 '\\373', uc = 200 '\\310', s = -300, "
	      "us = 60000, i = -70000, u = 4000000000, l = -123456, "
	      "ul = 123456, ll = -9000000000, ull = 18000000000000000000, "
	      "f = 3.14159274, d = 2.7182818284590451, "
	      "ld = 3.25 <long double, 16 bytes>, b = true, col = GREEN, "
	      "ci = 7, vu = 9, name = \"abc\", str = 0xADDR \"hello\", "
	      "fn = 0xADDR}");
	TU_EQ(tu_var_text("g_ci", NULL, 0), "-42");
	TU_EQ(tu_var_text("g_vol", NULL, 0), "-7");
	TU_EQ(tu_var_text("g_color", NULL, 0), "BLUE");
	TU_EQ(tu_var_text("g_ld", NULL, 0),
	      "0.10000000000000001 <long double, 16 bytes>");
	TU_EQ(tu_var_text("g_long", NULL, 0), "9223372036854775807");
}

/* Unions, bit-fields, 2-D arrays through typedef chains. */
static void test_aggregates(void **state)
{
	(void)state;
	TU_EQ(tu_var_text("g_num", NULL, 0),
	      "{i = 1078530011, f = 3.14159274}");
	TU_EQ(tu_var_text("g_flags", NULL, 0),
	      "{a = 5, b = -3, c = true, d = 300}");
	TU_EQ(tu_var_text("g_grid", NULL, 0),
	      "{{{x = 0, y = 0}, {x = 1, y = -1}, {x = 2, y = -2}}, "
	      "{{x = 10, y = -100}, {x = 11, y = -101}, {x = 12, y = -102}}}");
	TU_EQ(tu_var_text("g_arr", NULL, 0),
	      "{0, 1, 4, 9, 16, 25, 36, 49, 64, 81}");
}

/* Pointers: plain, null string, dangling, wild, void *, function. */
static void test_pointers(void **state)
{
	(void)state;
	TU_EQ(tu_var_text("g_list", NULL, 1), "(struct cell *) 0xADDR");
	TU_EQ(tu_var_text("g_str", NULL, 1), "0xADDR \"hello, world\"");
	TU_EQ(tu_var_text("g_nullstr", NULL, 0), "0x0");
	TU_EQ(tu_var_text("g_dangling", NULL, 1),
	      "(int *) 0xADDR <unreadable>");
	TU_EQ(tu_var_text("g_wild", NULL, 0),
	      "(struct cell *) 0xdead0 <unreadable>");
	TU_EQ(tu_var_text("g_vp", NULL, 1), "(void *) 0xADDR");
	TU_EQ(tu_var_text("g_fn", NULL, 1), "(int (*)(int)) 0xADDR");
}

/* Element and string caps, and automatic pointer following. */
static void test_limits(void **state)
{
	td_limits lim;
	char *s;

	(void)state;
	td_limits_default(&lim);
	lim.max_elems = 3;
	TU_EQ(tu_var_text("g_arr", &lim, 0), "{0, 1, 4...}");
	s = tu_var_text("g_big", NULL, 0);
	assert_non_null(strstr(s, ", 198, 199...}"));
	free(s);
	lim.max_string = 2;
	TU_EQ(tu_var_text("g_str", &lim, 1), "0xADDR \"he\"...");
	lim.follow = 1;
	TU_EQ(tu_var_text("g_list", &lim, 1),
	      "(struct cell *) 0xADDR -> {v = 1, next = 0xADDR}");
	lim.follow = 3;
	TU_EQ(tu_var_text("g_ring", &lim, 1),
	      "(struct cell *) 0xADDR -> {v = 10, next = 0xADDR -> {v = 20, "
	      "next = 0xADDR -> {v = 10, next = 0xADDR}}}");
	lim.follow = 0;
	lim.strings = 0;
	TU_EQ(tu_var_text("g_str", &lim, 1), "(char *) 0xADDR");
}

/* Value paths served by the node. */
static void test_paths(void **state)
{
	char *s;

	(void)state;
	TU_EQ(tu_path_text("g_list->next->next->v", 0, 0), "3");
	TU_EQ(tu_path_text("*g_list", 0, 1), "{v = 1, next = 0xADDR}");
	TU_EQ(tu_path_text("(*g_list).next->v", 0, 0), "2");
	TU_EQ(tu_path_text("g_list->next->next->next->v", 0, 0),
	      "<unreadable at 0x0>");
	TU_EQ(tu_path_text("g_wild->next", 0, 0), "<unreadable at 0xdead8>");
	TU_EQ(tu_path_text("*g_dangling", 0, 1), "<unreadable at 0xADDR>");
	TU_EQ(tu_path_text("g_grid[1][2].y", 0, 0), "-102");
	TU_EQ(tu_path_text("g_grid[0][1]@2", 0, 0),
	      "{{x = 1, y = -1}, {x = 2, y = -2}}");
	TU_EQ(tu_path_text("g_arr[2]@5", 0, 0), "{4, 9, 16, 25, 36}");
	TU_EQ(tu_path_text("*g_arr@3", 0, 0), "{0, 1, 4}");
	TU_EQ(tu_path_text("g_flags.b", 0, 0), "-3");
	TU_EQ(tu_path_text("g_flags.c", 0, 0), "true");
	TU_EQ(tu_path_text("g_num.f", 0, 0), "3.14159274");
	TU_EQ(tu_path_text("g_str[7]", 0, 0), "119 'w'");
	TU_EQ(tu_path_text("g_all.name", 0, 0), "\"abc\"");
	TU_EQ(tu_path_text("g_all.col", 0, 0), "GREEN");
	s = tu_path_text("g_big[50]@250", 0, 0);
	assert_true(strncmp(s, "{50, 51, ", 9) == 0);
	assert_non_null(strstr(s, ", 248, 249...}"));
	free(s);
	TU_EQ(tu_path_text("+0", 0, 0),
	      "ERR: syntax error at column 1: expected a name");
}

/* An enum value without a name prints as its number. */
static void test_enum_unknown(void **state)
{
	td_path_result res;
	msgpack_sbuffer sb;
	msgpack_packer pk;

	(void)state;
	memset(&res, 0, sizeof res);
	res.type = TID_COLOR;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_int(&pk, 77);
	TU_EQ(tu_print_bytes(&res, sb.data, sb.size, 0), "77");
	msgpack_sbuffer_destroy(&sb);
}

/* The registered list of cases; the table is decoded once. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_roundtrip),
	    cmocka_unit_test(test_scalars),
	    cmocka_unit_test(test_aggregates),
	    cmocka_unit_test(test_pointers),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_enum_unknown),
	};

	return cmocka_run_group_tests(tests, tu_setup, tu_teardown);
}
