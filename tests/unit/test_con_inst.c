/*
 * test_con_inst.c — cmocka tests of the instrumenter (console/con_inst*.c)
 * on the small sources in tests/instrument/: variables in scope at
 * various lines (nested and sibling blocks, shadowing, for-loop
 * declarations, parameters, globals used or not, function statics),
 * moved breakpoints, function and pragma breakpoints, errors, every
 * template, shipped headers, and original line numbers in the output
 * (compiled with cc: __LINE__ assertions and a deliberate #error).
 *
 * Run from the top of the tree (tests/run.sh does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "con_inst.h"

#define DIR "tests/instrument/"

/* Runs the instrumenter on one source with the given breakpoints;
 * returns con_inst_run's value, err filled on failure. */
static int run1(const char *src, const con_bp_spec *bps, size_t nbps,
		con_inst_result *res, char *err, size_t errlen)
{
	const char *srcs[1] = {src};
	con_inst_opts o = {srcs, 1, NULL, 0, bps, nbps, 100, "test", 0};

	return con_inst_run(&o, res, err, errlen);
}

/* The landed breakpoint with this id, or fails the test. */
static const con_inst_bp *bp_by_id(const con_inst_result *r, int id)
{
	size_t i;

	for (i = 0; i < r->nbps; i++)
		if (r->bps[i].id == id)
			return &r->bps[i];
	fail_msg("breakpoint %d did not land", id);
	return NULL;
}

/* "name name ..." of a breakpoint's variables, into buf. */
static const char *var_names(const con_inst_bp *bp, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = 0;
	for (i = 0; i < bp->nvars && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      bp->vars[i].name);
	return buf;
}

/* The source file of the result (is_source = 1). */
static const con_inst_file *source_of(const con_inst_result *r)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++)
		if (r->files[i].is_source)
			return &r->files[i];
	fail_msg("no source in the result");
	return NULL;
}

/* Variables in scope: nested blocks, sibling blocks, shadowing, for
 * declarations, params, used globals only, function statics. */
static void test_scopes(void **state)
{
	con_bp_spec bps[] = {{1, "scopes.c", 21, NULL, 0},
			     {2, "scopes.c", 26, NULL, 0},
			     {3, "scopes.c", 30, NULL, 1},
			     {4, "scopes.c", 15, NULL, 0},
			     {5, "scopes.c", 47, NULL, 0}};
	con_inst_result r;
	char err[256], names[512];
	const con_inst_bp *bp;

	assert_int_equal(run1(DIR "scopes.c", bps, 5, &r, err, sizeof err), 0);
	assert_int_equal(r.nbps, 5);
	bp = bp_by_id(&r, 1);
	assert_string_equal(var_names(bp, names, sizeof names),
			    "n list total calls inner g_used s_file");
	assert_int_equal(bp->vars[0].scope, 0);  /* PVT_PARAM */
	assert_int_equal(bp->vars[2].scope, 1);  /* PVT_LOCAL */
	assert_int_equal(bp->vars[3].scope, 3);  /* function static */
	assert_int_equal(bp->vars[5].scope, 2);  /* PVT_GLOBAL */
	assert_int_equal(bp->vars[6].scope, 3);  /* file static */
	assert_string_equal(bp->vars[1].type, "const struct cell *");
	/* sibling block closed: no inner; other is there */
	assert_string_equal(var_names(bp_by_id(&r, 2), names, sizeof names),
			    "n list total calls other g_used s_file");
	/* the loop's n shadows the parameter n; i from the for */
	bp = bp_by_id(&r, 3);
	assert_string_equal(var_names(bp, names, sizeof names),
			    "list total calls i n g_used s_file");
	assert_int_equal(bp->temp, 1);
	assert_string_equal(bp->func, "sum");
	/* before the declaration of total: not yet in scope */
	assert_string_equal(var_names(bp_by_id(&r, 4), names, sizeof names),
			    "n list g_used s_file");
	assert_string_equal(var_names(bp_by_id(&r, 5), names, sizeof names),
			    "b a");
	assert_null(strstr(source_of(&r)->data, "\"g_unused\""));
	con_inst_result_free(&r);
}

/* A breakpoint on a line without code moves and says so. */
static void test_moved(void **state)
{
	con_bp_spec bps[] = {{2, "scopes.c", 22, NULL, 0}};
	con_inst_result r;
	char err[256];

	assert_int_equal(run1(DIR "scopes.c", bps, 1, &r, err, sizeof err), 0);
	assert_int_equal(r.bps[0].line, 23);
	assert_int_equal(r.bps[0].req_line, 22);
	assert_non_null(r.notes);
	assert_non_null(strstr(r.notes, "breakpoint 2 at " DIR "scopes.c:22 "
				       "moved to " DIR "scopes.c:23 (no code on "
				       "line 22)"));
	con_inst_result_free(&r);
}

/* A function breakpoint stops at the first statement after the
 * declarations. */
static void test_function_bp(void **state)
{
	con_bp_spec bps[] = {{7, NULL, 0, "hello", 0}, {8, NULL, 0, "main", 0}};
	con_inst_result r;
	char err[256], names[256];

	assert_int_equal(run1(DIR "scopes.c", bps, 2, &r, err, sizeof err), 0);
	assert_int_equal(bp_by_id(&r, 7)->line, 41);
	assert_int_equal(bp_by_id(&r, 7)->req_line, 0);
	assert_int_equal(bp_by_id(&r, 7)->nvars, 0);
	assert_int_equal(bp_by_id(&r, 8)->line, 49);
	assert_string_equal(var_names(bp_by_id(&r, 8), names, sizeof names),
			    "b a r");
	con_inst_result_free(&r);
}

/* #pragma paravt break: new ids from next_bp_id, not inside #if 0, and
 * the directive becomes a comment. */
static void test_pragma(void **state)
{
	con_inst_result r;
	char err[256];

	assert_int_equal(run1(DIR "pragma.c", NULL, 0, &r, err, sizeof err), 0);
	assert_int_equal(r.nbps, 2);
	assert_int_equal(r.bps[0].id, 100);
	assert_int_equal(r.bps[0].from_pragma, 1);
	assert_int_equal(r.bps[0].line, 7);
	assert_string_equal(r.bps[0].func, "twice");
	assert_int_equal(r.bps[1].id, 101);
	assert_int_equal(r.bps[1].line, 18);
	assert_null(strstr(source_of(&r)->data, "#pragma paravt break\n\ty"));
	con_inst_result_free(&r);
}

/* Errors: a parse error names file:line:col; breakpoints outside a
 * function, after the last statement, on an unknown function. */
static void test_errors(void **state)
{
	con_bp_spec out[] = {{1, "scopes.c", 5, NULL, 0}};
	con_bp_spec after[] = {{1, "scopes.c", 37, NULL, 0}};
	con_bp_spec nofn[] = {{1, NULL, 0, "nope", 0}};
	con_bp_spec nofile[] = {{4, "other.c", 3, NULL, 0}};
	con_inst_result r;
	char err[256];

	assert_int_equal(run1(DIR "bad_parse.c", NULL, 0, &r, err, sizeof err),
			 -1);
	assert_non_null(strstr(err, "bad_parse.c:4:12: error: "));
	assert_int_equal(run1(DIR "scopes.c", out, 1, &r, err, sizeof err), -1);
	assert_string_equal(err, "breakpoint 1 at " DIR "scopes.c:5 is not "
				 "inside a function");
	assert_int_equal(run1(DIR "scopes.c", after, 1, &r, err, sizeof err),
			 -1);
	assert_string_equal(err, "breakpoint 1 at " DIR "scopes.c:37 is after "
				 "the last statement of sum()");
	assert_int_equal(run1(DIR "scopes.c", nofn, 1, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "no function named nope()"));
	assert_int_equal(run1(DIR "scopes.c", nofile, 1, &r, err, sizeof err),
			 -1);
	assert_non_null(strstr(err, "other.c is not a loaded source"));
	assert_int_equal(r.nfiles, 0);
}

/* Every template is in the output. */
static void test_templates(void **state)
{
	con_bp_spec bps[] = {{1, "scopes.c", 21, NULL, 0}};
	con_inst_result r;
	char err[256];
	const char *d;

	assert_int_equal(run1(DIR "scopes.c", bps, 1, &r, err, sizeof err), 0);
	d = source_of(&r)->data;
	assert_true(!strncmp(d, "#include \"paravt_rt.h\"\nstatic pvt_unit "
			     "pvt__unit;\n#line 1 \"" DIR "scopes.c\"\n",
			     strlen("#include \"paravt_rt.h\"\nstatic pvt_unit "
				    "pvt__unit;\n#line 1 \"" DIR "scopes.c\"\n")));
	assert_non_null(strstr(d, "{ para_vt_start(); para_vt_fn_enter(\"main\""));
	assert_non_null(strstr(d, "para_vt_fn_enter(\"sum\", \"" DIR
				  "scopes.c\", 13);"));
	assert_non_null(strstr(d, "{ int pvt__r = ( total + (int)s_file); "
				  "para_vt_fn_exit(\"sum\""));
	assert_non_null(strstr(d, "para_vt_fn_exit(\"hello\", \"" DIR
				  "scopes.c\", 42); }"));
	assert_non_null(strstr(d, "para_vt_exit(pvt__r); return pvt__r; }"));
	assert_non_null(strstr(d, "para_vt_break(&pvt__unit, 1, \"" DIR
				  "scopes.c\", 21, \"sum\", pvt__v, 7); }"));
	assert_non_null(strstr(d, "static const td_table pvt__table = "
				  "{\"test:0\", "));
	assert_non_null(strstr(d, "static pvt_unit pvt__unit = {&pvt__table, "
				  "0, 0};"));
	assert_non_null(strstr(d, ", next), 0, NULL},"));
	con_inst_result_free(&r);
}

/* User headers are shipped (relative names), system headers are not. */
static void test_headers(void **state)
{
	con_inst_result r;
	char err[256];
	size_t i;
	int h = 0;

	assert_int_equal(run1(DIR "types.c", NULL, 0, &r, err, sizeof err), 0);
	assert_int_equal(r.nfiles, 2);
	for (i = 0; i < r.nfiles; i++) {
		if (!r.files[i].is_source) {
			assert_string_equal(r.files[i].name, "types.h");
			h++;
		} else {
			assert_string_equal(r.files[i].name, "types.c");
		}
	}
	assert_int_equal(h, 1);
	assert_non_null(strstr(r.root, "/tests/instrument"));
	con_inst_result_free(&r);
}

/* -I options inside the root become relative to it. */
static void test_rel_cflag(void **state)
{
	con_inst_result r;
	char err[256], *s;

	assert_int_equal(run1(DIR "pragma.c", NULL, 0, &r, err, sizeof err), 0);
	s = con_inst_rel_cflag(&r, "-I" DIR);
	assert_string_equal(s, "-I.");
	free(s);
	s = con_inst_rel_cflag(&r, "-DX=1");
	assert_string_equal(s, "-DX=1");
	free(s);
	s = con_inst_rel_cflag(&r, "-I/usr/include");
	assert_string_equal(s, "-I/usr/include");
	free(s);
	con_inst_result_free(&r);
}

/* 1 if the statement of line in data is right after its line template
 * and line probe ("pvt__line = N; if (*pvt__armp ...) { ... } STMT"). */
static int probed(const char *data, int line, const char *stmt)
{
	char mark[64], tail[256];
	const char *m, *t;

	snprintf(mark, sizeof mark, "pvt__line = %d; if (*pvt__armp && ", line);
	snprintf(tail, sizeof tail, ", %d, \"f\", pvt__v, 1); } %s", line, stmt);
	m = strstr(data, mark);
	t = m ? strstr(m, tail) : NULL;
	return t != NULL && memchr(m, '\n', (size_t)(t - m)) == NULL;
}

/* Breakpoints on a statement after a case or goto label land after the
 * label (a jump to the label must reach them); so does the statement line
 * template (pvt__line = N) and the line probe, before the breakpoint, and
 * every statement of a block or a body without braces has them
 * (declarations and empty statements do not). */
static void test_labels(void **state)
{
	con_bp_spec bps[] = {{1, "labels.c", 6, NULL, 0},
			     {2, "labels.c", 15, NULL, 0}};
	con_inst_result r;
	char err[256];

	assert_int_equal(run1(DIR "labels.c", bps, 2, &r, err, sizeof err), 0);
	assert_int_equal(bp_by_id(&r, 1)->line, 6);
	assert_int_equal(bp_by_id(&r, 2)->line, 15);
	assert_non_null(strstr(source_of(&r)->data,
			       "case 1:\n\t\tpvt__line = 6; if (*pvt__armp && "
			       "para_vt_line(&pvt__unit, "));
	assert_non_null(strstr(source_of(&r)->data,
			       "done:\n\tpvt__line = 15; if (*pvt__armp && "));
	/* the line probe comes first, then the breakpoint's block */
	assert_non_null(strstr(source_of(&r)->data,
			       ", 6, \"f\", pvt__v, 1); } { pvt_var pvt__v[] = "));
	assert_true(probed(source_of(&r)->data, 4, "switch"));
	assert_true(probed(source_of(&r)->data, 7, "break;"));
	assert_non_null(strstr(source_of(&r)->data,
			       "default:\n\t\tpvt__line = 9; if (*pvt__armp"));
	assert_true(probed(source_of(&r)->data, 9, "x--;"));
	assert_true(probed(source_of(&r)->data, 13, "x = 5;"));
	/* every probe is a site of the result, in source order */
	assert_int_equal(r.nsites, 8);
	assert_int_equal(r.sites[0].line, 4);
	assert_int_equal(r.sites[5].line, 12);
	assert_int_equal(r.sites[7].line, 15);
	/* the body of "if (x)" gets braces around its probe and itself */
	assert_non_null(strstr(source_of(&r)->data,
			       "if (x)\n\t\t{ pvt__line = 12; if (*pvt__armp"));
	assert_true(probed(source_of(&r)->data, 12, "goto done; }"));
	assert_string_equal(r.funcs[r.sites[0].func], "f");
	assert_null(r.notes);
	con_inst_result_free(&r);
}

/* A source that defines feature-test macros before any header gets the
 * runtime's header after them (a system header before them would fix
 * the features too early), with #line directives that keep its lines. */
static void test_feature_macros(void **state)
{
	con_inst_result r;
	const char *d;
	char err[256];

	(void)state;
	assert_int_equal(run1(DIR "feature.c", NULL, 0, &r, err, sizeof err), 0);
	d = source_of(&r)->data;
	assert_non_null(strstr(d, "#define _DEFAULT_SOURCE 1\n"
			       "#include \"paravt_rt.h\"\n"
			       "static pvt_unit pvt__unit;\n#line 4 \""));
	assert_true(strstr(d, "#line 1 \"") == d);
	assert_true(strstr(d, "#define _POSIX_C_SOURCE") <
		    strstr(d, "#include \"paravt_rt.h\""));
	con_inst_result_free(&r);
}

/* A loop that calls nothing gets a copy without probes for the
 * disarmed case, with #line directives that keep its lines; a loop that
 * calls a function, or holds a loop, does not (its inner loop does).
 * The copy works on shadows of the locals it uses, copied back after
 * it, but not of one whose address the program takes, a volatile one
 * or an array; a const one is not copied back. */
static void test_loop_copy(void **state)
{
	con_inst_result r;
	const char *d;
	char err[256];

	(void)state;
	assert_int_equal(run1(DIR "loops.c", NULL, 0, &r, err, sizeof err), 0);
	d = source_of(&r)->data;
	/* plain(): its one loop is copied, as written, before the probed one */
	assert_non_null(strstr(d, "if (!*pvt__armp) { int pvt__s0 = i; int "
			       "pvt__s1 = n; int pvt__s2 = s; { int i = "
			       "pvt__s0; int n = pvt__s1; int s = pvt__s2; "
			       "\n#line 6 \""));
	assert_non_null(strstr(d, "\"\nfor (i = 0; i < n; i++)\n\t\ts += i;\n"
			       "pvt__s0 = i; pvt__s1 = n; pvt__s2 = s; } i = "
			       "pvt__s0; n = pvt__s1; s = pvt__s2; } else\n"
			       "#line 6 \""));
	/* addressed(): s (&s), v (volatile), arr (an array) stay */
	assert_non_null(strstr(d, "if (!*pvt__armp) { int pvt__s0 = i; int "
			       "pvt__s1 = n; int * pvt__s2 = p; { int i = "
			       "pvt__s0; int n = pvt__s1; int * p = pvt__s2; "
			       "\n#line 37 \""));
	/* constant(): n is const: shadowed, not copied back */
	assert_non_null(strstr(d, "const int pvt__s1 = n;"));
	assert_non_null(strstr(d, "pvt__s0 = i; pvt__s2 = s; } i = pvt__s0; "
			       "s = pvt__s2; } else\n#line 46 \""));
	/* calls(): none; nested(): the inner loop only */
	assert_null(strstr(d, "#line 16 \""));
	assert_null(strstr(d, "#line 25 \""));
	assert_non_null(strstr(d, "\n#line 26 \""));
	con_inst_result_free(&r);
}

/* Writes a result's files into dir.  0 or -1. */
static int write_files(const con_inst_result *r, const char *dir)
{
	char p[512];
	size_t i;

	for (i = 0; i < r->nfiles; i++) {
		FILE *f;

		snprintf(p, sizeof p, "%s/%s", dir, r->files[i].name);
		if (!(f = fopen(p, "w")))
			return -1;
		fwrite(r->files[i].data, 1, r->files[i].len, f);
		fclose(f);
	}
	return 0;
}

/* Original line numbers survive: __LINE__ assertions compile, and a
 * deliberate #error is reported at lines.c:24. */
static void test_lines(void **state)
{
	con_bp_spec bps[] = {{1, "lines.c", 14, NULL, 0},
			     {2, "lines.c", 20, NULL, 0}};
	con_inst_result r;
	char err[256], dir[] = "/tmp/pvt-inst-XXXXXX", cmd[1024], out[4096];
	const char *cc = getenv("CC") ? getenv("CC") : "cc";
	FILE *p;
	size_t n;

	assert_int_equal(run1(DIR "lines.c", bps, 2, &r, err, sizeof err), 0);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(write_files(&r, dir), 0);
	snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Werror -fsyntax-only "
		 "-Ibreakpoints -Itypedesc %s/lines.c 2>&1", cc, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s -std=c11 -fsyntax-only -DPVT_TEST_ERROR "
		 "-Ibreakpoints -Itypedesc %s/lines.c 2>&1", cc, dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = 0;
	assert_int_not_equal(pclose(p), 0);
	assert_non_null(strstr(out, DIR "lines.c:24:"));
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	con_inst_result_free(&r);
}

/* The test list. */
int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scopes),    cmocka_unit_test(test_moved),
	    cmocka_unit_test(test_function_bp), cmocka_unit_test(test_pragma),
	    cmocka_unit_test(test_errors),    cmocka_unit_test(test_templates),
	    cmocka_unit_test(test_headers),   cmocka_unit_test(test_rel_cflag),
	    cmocka_unit_test(test_labels),    cmocka_unit_test(test_lines),
	    cmocka_unit_test(test_feature_macros),
	    cmocka_unit_test(test_loop_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
