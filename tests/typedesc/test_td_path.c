/*
 * test_td_path.c — value paths: the requests they evaluate to (steps,
 * result type, slices) and the sentences of every kind of error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "td_testutil.h"

/* Evaluates path; returns the code, fills res and err. */
static int eval(const char *path, td_path_result *res, char *err, size_t n)
{
	td_scope_var scope[64];
	uint32_t nv = tu_scope(scope, 64);

	err[0] = 0;
	return td_path_eval(tu_table, scope, nv, path, res, err, n);
}

/* Expects path to fail with exactly the sentence want. */
static void fails(const char *path, const char *want)
{
	td_path_result res;
	char err[256];

	assert_int_equal(eval(path, &res, err, sizeof err), TD_EPATH);
	assert_string_equal(err, want);
}

/* Expects path to give ops (a string of 'm', 'i', 'd', 's') and type. */
static void steps(const char *path, const char *ops, uint32_t type,
                  uint64_t slice)
{
	static const char names[] = "?mids";
	td_path_result res;
	char err[256], got[TD_MAX_STEPS + 1];
	uint32_t i;

	assert_int_equal(eval(path, &res, err, sizeof err), 0);
	for (i = 0; i < res.req.nsteps; i++)
		got[i] = names[res.req.steps[i].op];
	got[i] = 0;
	assert_string_equal(got, ops);
	assert_int_equal(res.type, type);
	assert_int_equal(res.slice, slice);
}

/* Paths that evaluate. */
static void test_paths_ok(void **state)
{
	td_path_result res;
	char err[256];

	(void)state;
	steps("g_all", "", TID_ALL, 0);
	steps("g_all.name", "m", TID_NAME16, 0);
	steps("g_list->next->next->v", "dmdmdm", TID_INT, 0);
	steps("*g_list", "d", TID_CELL, 0);
	steps("(*g_list).v", "dm", TID_INT, 0);
	steps(" g_grid [1] [2] . y ", "iim", TID_LONG, 0);
	steps("g_arr[2]@8", "is", TID_INT, 8);
	steps("*g_arr", "d", TID_INT, 0);
	steps("g_str[3]", "i", TID_CHAR, 0);
	steps("*g_list@2", "ds", TID_CELL, 2);
	steps("g_flags.d", "m", TID_UINT, 0);
	steps("g_arr[0x3]", "i", TID_INT, 0);
	assert_int_equal(eval("g_grid[1][2].y", &res, err, sizeof err), 0);
	assert_int_equal(res.req.steps[0].arg, 1);
	assert_int_equal(res.req.steps[1].arg, 2);
	assert_int_equal(res.req.steps[2].arg, 1);
	assert_int_equal(res.req.type, TID_GRID);
	assert_int_equal(res.req.addr,
	                 (uint64_t)(uintptr_t)tu_var("g_grid")->addr);
}

/* Names that do not exist. */
static void test_unknown_names(void **state)
{
	(void)state;
	fails("nope", "no variable named 'nope' here");
	fails("g_all.nope", "no member named 'nope' in struct all");
	fails("g_list->nope", "no member named 'nope' in struct cell");
	fails("g_grid[0][0].z", "no member named 'z' in struct pt");
}

/* Operators on values of the wrong kind. */
static void test_wrong_kinds(void **state)
{
	(void)state;
	fails("g_all.i[2]", "cannot index 'g_all.i': it is int, not an array "
	                    "or pointer");
	fails("*g_color", "cannot dereference 'g_color': it is enum color, "
	                  "not a pointer");
	fails("*g_all.d", "cannot dereference 'g_all.d': it is double, not a "
	                  "pointer");
	fails("g_all->i", "cannot use '->' on 'g_all': it is struct all, not "
	                  "a pointer");
	fails("g_list.v", "cannot take member 'v' of 'g_list': it is struct "
	                  "cell *, not a struct or union (use '->')");
	fails("g_arr.x", "cannot take member 'x' of 'g_arr': it is int [10], "
	                 "not a struct or union");
	fails("g_flags.a.b", "cannot take a member of 'g_flags.a': it is a "
	                     "bit-field");
	fails("g_flags.a[0]", "cannot index 'g_flags.a': it is a bit-field");
	fails("*g_vp", "cannot dereference 'g_vp': it points to void");
	fails("g_vp[1]", "cannot index 'g_vp': it points to void");
	fails("*g_fn", "cannot dereference 'g_fn': it is a function pointer");
}

/* Bounds and slices. */
static void test_bounds(void **state)
{
	(void)state;
	fails("g_arr[10]", "index 10 is out of bounds for 'g_arr' (int [10]: "
	                   "10 elements)");
	fails("g_grid[1][3]", "index 3 is out of bounds for 'g_grid[1]' "
	                      "(pos_t [3]: 3 elements)");
	fails("g_arr[8]@5", "slice 'g_arr[8]@5' runs past the end of the "
	                    "array (2 elements left)");
	fails("g_arr@0", "slice count must be 1 to 1000000, not 0");
	fails("g_flags.a@2", "cannot slice 'g_flags.a': it is a bit-field");
}

/* Syntax errors name the column. */
static void test_syntax(void **state)
{
	(void)state;
	fails("", "syntax error at column 1: expected a name");
	fails("g_list->", "syntax error at column 9: expected a name after "
	                  "'->'");
	fails("g_all.", "syntax error at column 7: expected a name after '.'");
	fails("g_arr[2", "syntax error at column 8: expected ']'");
	fails("g_arr[x]", "syntax error at column 7: expected an index after "
	                  "'['");
	fails("(g_list", "syntax error at column 8: expected ')'");
	fails("g_all.i )", "syntax error at column 9: unexpected ')'");
	fails("g_arr[1]@", "syntax error at column 10: expected a count after "
	                   "'@'");
	fails("g_arr[1]@2@3", "syntax error at column 11: unexpected '@'");
}

/* A path longer than a request can carry. */
static void test_too_long(void **state)
{
	char path[8 * TD_MAX_STEPS + 16];
	size_t n;
	uint32_t i;

	(void)state;
	n = (size_t)snprintf(path, sizeof path, "g_ring");
	for (i = 0; i < TD_MAX_STEPS; i++)
		n += (size_t)snprintf(path + n, sizeof path - n, "->next");
	fails(path, "path is too long (at most 64 steps)");
}

/* The registered list of cases. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paths_ok),
	    cmocka_unit_test(test_unknown_names),
	    cmocka_unit_test(test_wrong_kinds),
	    cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_syntax),
	    cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, tu_setup, tu_teardown);
}
