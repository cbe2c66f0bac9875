/*
 * rt_prog.c — the runtime's test program, instrumented BY HAND in exactly
 * the form breakpoints/paravt_rt.h documents for generated code: the
 * header first, the unit's tentative definition, para_vt_start() as the
 * first statement of main, function entry/exit templates, breakpoint
 * templates with their pvt_var arrays, and the unit's type table at the
 * end (sizes, offsets and signedness evaluated by the target compiler).
 * The line numbers in the templates are this file's own lines, as the
 * instrumenter's would be the user's original lines.
 *
 *   rt_prog            breakpoint 1 in work(), breakpoint 2 in main();
 *                      prints "rt_prog: total=200" and exits with 3
 *   rt_prog --crash    stops at breakpoint 1, then writes through a NULL
 *                      pointer in work() and dies of SIGSEGV
 *   rt_prog --deep     first recurses 300 calls deep into dive() and stops
 *                      at breakpoint 3 at the bottom (deeper than the
 *                      runtime's stored stack), then runs as usual
 *
 * Built for every port with only build/$(PORT)/include on the include
 * path and linked with libparavt.a + msgpack-c, as paravtd builds a user
 * program.  Without PARAVT_SOCK it runs like any program.
 */
#include "paravt_rt.h"
static pvt_unit pvt__unit;

#include <stdio.h>
#include <string.h>

/* A small struct nested in rec. */
struct point {
	int x; /* column */
	int y; /* row */
};

/* A record: char array, nested struct, int array, string, pointer. */
struct rec {
	char name[16];      /* shown as a string */
	struct point pos;   /* nested struct */
	int scores[4];      /* array */
	const char *label;  /* char * shown as a string */
	struct rec *next;   /* self-referential pointer */
	double weight;      /* floating point */
};

long g_count = 7;                           /* a global */
static const char *s_msg = "hello, paravt"; /* a file static */
static int s_crash;                         /* 1 in --crash mode */

/* Recurses k more levels, then stops at breakpoint 3. */
static int dive(int k)
{
	para_vt_fn_enter("dive", "rt_prog.c", 50);
	if (k > 0) {
		int r = dive(k - 1) + 1;

		para_vt_fn_exit("dive", "rt_prog.c", 57);
		return r;
	}
	{ pvt_var pvt__v[] = { {"k", 0, &k, PVT_PARAM} };
	  para_vt_break(&pvt__unit, 3, "rt_prog.c", 62, "dive", pvt__v, 1); }
	para_vt_fn_exit("dive", "rt_prog.c", 62);
	return 0;
}

/* Sums r's scores, stops at breakpoint 1, and returns the sum times n. */
static int work(struct rec *r, int n)
{
	para_vt_fn_enter("work", "rt_prog.c", 66);
	int total = 0;
	int i;

	for (i = 0; i < 4; i++)
		total += r->scores[i];
	{ pvt_var pvt__v[] = { {"r", 10, &r, PVT_PARAM}, {"n", 0, &n, PVT_PARAM},
	    {"total", 0, &total, PVT_LOCAL}, {"g_count", 1, &g_count, PVT_GLOBAL},
	    {"s_msg", 4, &s_msg, PVT_STATIC} };
	  para_vt_break(&pvt__unit, 1, "rt_prog.c", 78, "work", pvt__v, 5); }
	if (s_crash) {
		volatile int *volatile np = NULL;

		*np = n; /* the crash of --crash mode */
	}
	g_count += total;
	para_vt_fn_exit("work", "rt_prog.c", 85);
	return total * n;
}

/* Runs work() on a two-record list, stops at breakpoint 2, exits 3. */
int main(int argc, char **argv)
{
	para_vt_start();
	para_vt_fn_enter("main", "rt_prog.c", 89);
	struct rec a = {"alpha", {1, -2}, {10, 20, 30, 40}, "first", NULL, 1.5};
	struct rec b = {"beta", {3, 4}, {5, 6, 7, 2}, "second", &a, 2.25};
	int arr[5] = {1, 4, 9, 16, 25};
	int *ip = &arr[2];
	int total;

	s_crash = argc > 1 && strcmp(argv[1], "--crash") == 0;
	if (argc > 1 && strcmp(argv[1], "--deep") == 0)
		dive(300);
	total = work(&a, 2);
	{ pvt_var pvt__v[] = { {"argc", 0, &argc, PVT_PARAM}, {"a", 9, &a, PVT_LOCAL},
	    {"b", 9, &b, PVT_LOCAL}, {"arr", 11, &arr, PVT_LOCAL},
	    {"ip", 12, &ip, PVT_LOCAL}, {"total", 0, &total, PVT_LOCAL},
	    {"g_count", 1, &g_count, PVT_GLOBAL} };
	  para_vt_break(&pvt__unit, 2, "rt_prog.c", 108, "main", pvt__v, 7); }
	printf("rt_prog: total=%d g_count=%ld next=%s\n", total, g_count,
	       b.next->name);
	para_vt_fn_exit("main", "rt_prog.c", 112);
	para_vt_exit(3);
	return 3;
}

/* ---- the unit's type table (what the instrumenter generates) ---------- */

/* A scalar entry of kind k for C type T. */
#define PVT__SCALAR(id, k, T, nm)                                              \
	{                                                                      \
		id, k, 0, TD_SIGNED(T), nm, sizeof(T), TD_ALIGNOF(T), 0, 0, 0, \
		    NULL, 0, NULL                                              \
	}

/* Names for types that cannot be written as "T t" directly. */
typedef char pvt__char16_t[16];
typedef int pvt__int4_t[4];
typedef int pvt__int5_t[5];

static const td_member pvt__point_members[] = {
    {"x", 0, offsetof(struct point, x), 0, NULL},
    {"y", 0, offsetof(struct point, y), 0, NULL},
};

static const td_member pvt__rec_members[] = {
    {"name", 6, offsetof(struct rec, name), 0, NULL},
    {"pos", 8, offsetof(struct rec, pos), 0, NULL},
    {"scores", 7, offsetof(struct rec, scores), 0, NULL},
    {"label", 4, offsetof(struct rec, label), 0, NULL},
    {"next", 10, offsetof(struct rec, next), 0, NULL},
    {"weight", 5, offsetof(struct rec, weight), 0, NULL},
};

static const td_type pvt__types[] = {
    PVT__SCALAR(0, TD_INT, int, "int"),
    PVT__SCALAR(1, TD_LONG, long, "long"),
    PVT__SCALAR(2, TD_CHAR, char, "char"),
    {3, TD_CHAR, TD_Q_CONST, TD_SIGNED(char), "const char", sizeof(char),
     TD_ALIGNOF(char), 0, 0, 0, NULL, 0, NULL},
    {4, TD_POINTER, 0, 0, "const char *", sizeof(const char *),
     TD_ALIGNOF(const char *), 3, 0, 0, NULL, 0, NULL},
    PVT__SCALAR(5, TD_DOUBLE, double, "double"),
    {6, TD_ARRAY, 0, 0, "char [16]", sizeof(pvt__char16_t),
     TD_ALIGNOF(pvt__char16_t), 2, 16, 0, NULL, 0, NULL},
    {7, TD_ARRAY, 0, 0, "int [4]", sizeof(pvt__int4_t),
     TD_ALIGNOF(pvt__int4_t), 0, 4, 0, NULL, 0, NULL},
    {8, TD_STRUCT, 0, 0, "struct point", sizeof(struct point),
     TD_ALIGNOF(struct point), 0, 0, 2, pvt__point_members, 0, NULL},
    {9, TD_STRUCT, 0, 0, "struct rec", sizeof(struct rec),
     TD_ALIGNOF(struct rec), 0, 0, 6, pvt__rec_members, 0, NULL},
    {10, TD_POINTER, 0, 0, "struct rec *", sizeof(struct rec *),
     TD_ALIGNOF(struct rec *), 9, 0, 0, NULL, 0, NULL},
    {11, TD_ARRAY, 0, 0, "int [5]", sizeof(pvt__int5_t),
     TD_ALIGNOF(pvt__int5_t), 0, 5, 0, NULL, 0, NULL},
    {12, TD_POINTER, 0, 0, "int *", sizeof(int *), TD_ALIGNOF(int *), 0, 0,
     0, NULL, 0, NULL},
};

static const td_table pvt__table = {"rt_prog", 13, pvt__types};
static pvt_unit pvt__unit = {&pvt__table, 0, 0};
