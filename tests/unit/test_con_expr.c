/*
 * test_con_expr.c — unit tests of print's C expressions
 * (console/session/con_expr.c) over a stand-in process whose variables
 * are answered by a table here: precedence, integer and floating point
 * arithmetic as C does it, indexes computed before the node is asked,
 * casts, sizeof from the node's sizes, ?:, formats, and every error
 * named (division by zero, a struct in arithmetic, a missing operand,
 * an unknown variable, a shift too far).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "con_expr.h"

static char ut_asked[16][64]; /* paths fetched, in order */
static int ut_nasked;

/* The stand-in process: i = 5, u = 7u, d = 1.5, c = 'A', a[k] = 10 k
 * (k < 10), s a struct, p = 0x1000. */
static int ut_fetch(void *ctx, const char *path, con_xval *out, char *err,
		    size_t errlen)
{
	int k;

	(void)ctx;
	if (ut_nasked < 16)
		snprintf(ut_asked[ut_nasked++], 64, "%s", path);
	memset(out, 0, sizeof *out);
	out->kind = CON_X_INT;
	if (strcmp(path, "i") == 0) {
		out->i = 5;
	} else if (strcmp(path, "u") == 0) {
		out->kind = CON_X_UINT;
		out->u = 7;
	} else if (strcmp(path, "d") == 0) {
		out->kind = CON_X_FLT;
		out->d = 1.5;
	} else if (strcmp(path, "c") == 0) {
		out->i = 'A';
		out->is_char = 1;
	} else if (sscanf(path, "a[%d]", &k) == 1 && k >= 0 && k < 10) {
		out->i = 10 * k;
	} else if (strcmp(path, "s") == 0) {
		out->kind = CON_X_TEXT;
		out->text = strdup("{x = 1}");
	} else if (strcmp(path, "p") == 0) {
		out->kind = CON_X_PTR;
		out->u = 0x1000;
	} else {
		snprintf(err, errlen, "no variable '%s' in scope", path);
		return -1;
	}
	return 0;
}

/* sizeof on the stand-in's machine: int 4, long 8, char 1; a 40, i 4. */
static int ut_size(void *ctx, const char *name, int is_type, uint64_t *out,
		   char *err, size_t errlen)
{
	(void)ctx;
	if (is_type && strcmp(name, "int") == 0)
		*out = 4;
	else if (is_type && strcmp(name, "long") == 0)
		*out = 8;
	else if (is_type && strstr(name, "char") != NULL)
		*out = 1;
	else if (!is_type && strcmp(name, "a") == 0)
		*out = 40;
	else if (!is_type && strcmp(name, "i") == 0)
		*out = 4;
	else {
		snprintf(err, errlen, "no type '%s'", name);
		return -1;
	}
	return 0;
}

/* &: i at 0x2000, a at 0x3000 (ints of 4 bytes); others have none. */
static int ut_addr(void *ctx, const char *path, uint64_t *out, char *err,
		   size_t errlen)
{
	int k;

	(void)ctx;
	if (strcmp(path, "i") == 0)
		*out = 0x2000;
	else if (sscanf(path, "a[%d]", &k) == 1)
		*out = 0x3000 + 4 * (uint64_t)k;
	else {
		snprintf(err, errlen, "&%s: no address", path);
		return -1;
	}
	return 0;
}

/* Evaluates e and prints it with fmt into a static buffer ("ERR: ..."
 * on an error). */
static const char *ev(const char *e, int fmt)
{
	static char buf[256];
	con_expr_env env = {ut_fetch, ut_size, ut_addr, NULL};
	char err[200];
	con_xval v;

	ut_nasked = 0;
	if (con_expr_eval(e, &env, &v, err, sizeof err) != 0) {
		snprintf(buf, sizeof buf, "ERR: %s", err);
		return buf;
	}
	if (con_xval_format(&v, fmt, buf, sizeof buf) != 0) {
		char e2[300];

		snprintf(e2, sizeof e2, "FMT: %s", buf);
		snprintf(buf, sizeof buf, "%.250s", e2);
	}
	con_xval_free(&v);
	return buf;
}

static void test_precedence(void **state)
{
	(void)state;
	assert_string_equal(ev("i + 2 * 3", 0), "11");
	assert_string_equal(ev("(i + 2) * 3", 0), "21");
	assert_string_equal(ev("i - 2 - 1", 0), "2");
	assert_string_equal(ev("1 + 2 << 3", 0), "24");
	assert_string_equal(ev("i > 3 && u < 7", 0), "0");
	assert_string_equal(ev("i > 3 || u < 7", 0), "1");
	assert_string_equal(ev("i == 5 ? 100 : 200", 0), "100");
	assert_string_equal(ev("!i", 0), "0");
	assert_string_equal(ev("-i + 1", 0), "-4");
	assert_string_equal(ev("0x10 | 1 ^ 3", 0), "18");
	assert_string_equal(ev("i <= 5 == 1", 0), "1");
}

static void test_c_arithmetic(void **state)
{
	(void)state;
	assert_string_equal(ev("-7 / 2", 0), "-3");
	assert_string_equal(ev("-7 % 2", 0), "-1");
	assert_string_equal(ev("u - 8", 0), "18446744073709551615");
	assert_string_equal(ev("d * 2", 0), "3");
	assert_string_equal(ev("(double)i / 2", 0), "2.5");
	assert_string_equal(ev("i / 2", 0), "2");
	assert_string_equal(ev("(unsigned char)300", 0), "44 ','");
	assert_string_equal(ev("(char)65", 0), "65 'A'");
	assert_string_equal(ev("(int)-1.9", 0), "-1");
	assert_string_equal(ev("'a' + 1", 0), "98");
	assert_string_equal(ev("c", 0), "65 'A'");
	assert_string_equal(ev("1.5e1 + .5", 0), "15.5");
}

static void test_paths_and_sizes(void **state)
{
	(void)state;
	assert_string_equal(ev("a[i - 2]", 0), "30");
	assert_int_equal(ut_nasked, 2); /* i, then a[3] */
	assert_string_equal(ut_asked[1], "a[3]");
	assert_string_equal(ev("a[i] + a[1]", 0), "60");
	assert_string_equal(ev("s", 0), "{x = 1}");
	assert_string_equal(ev("sizeof(int)", 0), "4");
	assert_string_equal(ev("sizeof a / sizeof(int)", 0), "10");
	assert_string_equal(ev("sizeof(long)", 0), "8");
	assert_string_equal(ev("p", 0), "0x1000");
	assert_string_equal(ev("p == 0", 0), "0");
	assert_string_equal(ev("&i", 0), "0x2000");
	assert_string_equal(ev("&a[i - 2]", 0), "0x300c");
	assert_string_equal(ev("&a[1] == p", 0), "0");
}

static void test_formats(void **state)
{
	(void)state;
	assert_string_equal(ev("255", 'x'), "0xff");
	assert_string_equal(ev("~0", 'x'), "0xffffffffffffffff");
	assert_string_equal(ev("8", 'o'), "010");
	assert_string_equal(ev("5", 't'), "101");
	assert_string_equal(ev("66", 'c'), "66 'B'");
	assert_string_equal(ev("-1", 'u'), "18446744073709551615");
	assert_string_equal(ev("d", 'd'), "1");
	assert_string_equal(ev("s", 'x'), "FMT: format '/x' needs a number");
	assert_string_equal(ev("1", 'q'),
			    "FMT: unknown format '/q' (d u x o t c f)");
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(ev("i / 0", 0), "ERR: division by zero");
	assert_string_equal(ev("i % (u - 7)", 0), "ERR: division by zero (%)");
	assert_string_equal(ev("s + 1", 0),
			    "ERR: 's' is not a number (+ needs one)");
	assert_string_equal(ev("i +", 0),
			    "ERR: an operand is missing at the end");
	assert_string_equal(ev("nosuch * 2", 0),
			    "ERR: no variable 'nosuch' in scope");
	assert_string_equal(ev("i )", 0),
			    "ERR: unexpected ')' after the expression");
	assert_string_equal(ev("1 << 70", 0), "ERR: shift by 70 bits (0 to 63)");
	assert_string_equal(ev("a[d]", 0), "ERR: an index must be an integer");
	assert_string_equal(ev("(i", 0), "ERR: missing ')'");
	assert_string_equal(ev("&s", 0), "ERR: &s: no address");
	assert_string_equal(ev("&(i + 1)", 0),
			    "ERR: '&' needs a variable, a member or an element");
	assert_string_equal(ev("i ? 1", 0), "ERR: missing ':' of '?:'");
	assert_string_equal(ev("12ab", 0), "ERR: bad number '12a'");
}

static void test_is_path(void **state)
{
	(void)state;
	assert_true(con_expr_is_path("a[2]@3"));
	assert_true(con_expr_is_path("p->next->v"));
	assert_true(con_expr_is_path("*p"));
	assert_true(con_expr_is_path("(*p).x"));
	assert_true(con_expr_is_path("grid[1][2].name"));
	assert_false(con_expr_is_path("a[i]"));
	assert_false(con_expr_is_path("i+1"));
	assert_false(con_expr_is_path("i * 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_precedence),
	    cmocka_unit_test(test_c_arithmetic),
	    cmocka_unit_test(test_paths_and_sizes),
	    cmocka_unit_test(test_formats),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_is_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
