/*
 * test_bp_cond.c — conditions run by the task (breakpoints/bp_cond.c):
 * the console's compiler (con_expr_compile) and the task's interpreter
 * together give what the C compiler gives for the same expressions over
 * the same variables; code that is malformed or beyond the limits is
 * refused when it is decoded; what cannot be evaluated (a division by
 * zero, an index out of bounds, a null or wild pointer, a variable that
 * is not the one compiled for, a stack that underflows) is -1, never a
 * crash; && skips its right side.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <msgpack.h>

#include "bp_code.h"
#include "bp_cond.h"
#include "bp_num.h"
#include "con_expr.h"
#include "td_con.h"

/* The program's variables. */
struct cell {
	int id;
	double w;
	short tag[4];
};
static struct cell cells[8];
static struct cell *cp;
static long i;
static int k;
static unsigned char uc;

/* Its type table: ids as the instrumenter numbers them. */
enum { T_VOID, T_INT, T_LONG, T_DOUBLE, T_SHORT, T_SHORTS, T_CELL, T_CELLS,
       T_PCELL, T_UCHAR, T_N };
static const td_member cell_members[] = {
	{"id", T_INT, offsetof(struct cell, id), 0, NULL},
	{"w", T_DOUBLE, offsetof(struct cell, w), 0, NULL},
	{"tag", T_SHORTS, offsetof(struct cell, tag), 0, NULL}};
static const td_type types[T_N] = {
	{T_VOID, TD_VOID, 0, 0, "void", 0, 1, 0, 0, 0, NULL, 0, NULL},
	{T_INT, TD_INT, 0, 1, "int", sizeof(int), 4, 0, 0, 0, NULL, 0, NULL},
	{T_LONG, TD_LONG, 0, 1, "long", sizeof(long), 8, 0, 0, 0, NULL, 0,
	 NULL},
	{T_DOUBLE, TD_DOUBLE, 0, 1, "double", 8, 8, 0, 0, 0, NULL, 0, NULL},
	{T_SHORT, TD_SHORT, 0, 1, "short", 2, 2, 0, 0, 0, NULL, 0, NULL},
	{T_SHORTS, TD_ARRAY, 0, 0, "short[4]", 8, 2, T_SHORT, 4, 0, NULL, 0,
	 NULL},
	{T_CELL, TD_STRUCT, 0, 0, "struct cell", sizeof(struct cell), 8, 0, 0,
	 3, cell_members, 0, NULL},
	{T_CELLS, TD_ARRAY, 0, 0, "struct cell[8]", sizeof cells, 8, T_CELL, 8,
	 0, NULL, 0, NULL},
	{T_PCELL, TD_POINTER, 0, 0, "struct cell *", sizeof(void *), 8, T_CELL,
	 0, 0, NULL, 0, NULL},
	{T_UCHAR, TD_UCHAR, 0, 0, "unsigned char", 1, 1, 0, 0, 0, NULL, 0,
	 NULL}};
static const td_table table = {"test", T_N, types};

/* The site's variables, as the generated pvt__v array lists them. */
static pvt_var vars[] = {{"i", T_LONG, &i, PVT_LOCAL},
			 {"k", T_INT, &k, PVT_LOCAL},
			 {"cells", T_CELLS, cells, PVT_STATIC},
			 {"cp", T_PCELL, &cp, PVT_LOCAL},
			 {"uc", T_UCHAR, &uc, PVT_LOCAL}};
#define NVARS ((uint32_t)(sizeof vars / sizeof vars[0]))

/* con_expr_load_fn over vars, as the console's is over a stop's. */
static int load(void *ctx, const char *path, int addr, uint64_t dynmask,
		con_xcode *code, int *kind, char *err, size_t errlen)
{
	td_scope_var scope[NVARS];
	uint64_t steps[TD_MAX_STEPS][2];
	uint32_t dyn[TD_MAX_STEPS], nd = 0, s, j = 0, v;
	td_path_result res;
	const td_type *ty;

	(void)ctx;
	for (v = 0; v < NVARS; v++) {
		scope[v].name = vars[v].name;
		scope[v].type = vars[v].type;
		scope[v].addr = (uint64_t)(uintptr_t)vars[v].addr;
	}
	if (td_path_eval(&table, scope, NVARS, path, &res, err, errlen) != 0)
		return -1;
	for (v = 0; v < NVARS && scope[v].addr != res.req.addr; v++)
		;
	for (s = 0; s < res.req.nsteps; s++) {
		steps[s][0] = res.req.steps[s].op;
		steps[s][1] = res.req.steps[s].arg;
		if (res.req.steps[s].op == TD_STEP_INDEX && ((dynmask >> j++) & 1))
			dyn[nd++] = s;
	}
	ty = td_type_strip(&table, res.type);
	*kind = addr ? CON_X_PTR : ty->kind == TD_DOUBLE ? CON_X_FLT :
		ty->kind == TD_POINTER ? CON_X_PTR : ty->is_signed ? CON_X_INT :
		CON_X_UINT;
	return con_xcode_path(code, addr ? BP_C_ADDR : BP_C_LOAD, v,
			      vars[v].name, vars[v].type,
			      (const uint64_t(*)[2])steps, res.req.nsteps, dyn, nd);
}

static int no_fetch(void *ctx, const char *path, con_xval *out, char *err,
		    size_t errlen)
{
	(void)ctx, (void)path, (void)out;
	snprintf(err, errlen, "no fetch when compiling");
	return -1;
}

static int no_size(void *ctx, const char *name, int is_type, uint64_t *out,
		   char *err, size_t errlen)
{
	(void)ctx, (void)name, (void)is_type, (void)out;
	snprintf(err, errlen, "no size");
	return -1;
}

/* Decodes the msgpack code buf[0..len) into a bp_cond (NULL if refused). */
static bp_cond *decode(const unsigned char *buf, size_t len)
{
	msgpack_unpacked u;
	bp_cond *c = NULL;

	msgpack_unpacked_init(&u);
	if (msgpack_unpack_next(&u, (const char *)buf, len, NULL) ==
	    MSGPACK_UNPACK_SUCCESS)
		c = bp_cond_decode(&u.data);
	msgpack_unpacked_destroy(&u);
	return c;
}

/* Compiles expr and runs it over vars: 1, 0 or -1. */
static int run(const char *expr)
{
	con_expr_env env = {no_fetch, no_size, NULL, NULL, load};
	unsigned char *buf;
	char err[300];
	con_xcode code;
	size_t len;
	bp_cond *c;
	int r;

	if (con_expr_compile(expr, &env, &code, err, sizeof err) != 0)
		fail_msg("%s: %s", expr, err);
	assert_int_equal(con_xcode_wrap(&code, &buf, &len), 0);
	con_xcode_free(&code);
	c = decode(buf, len);
	free(buf);
	assert_non_null(c);
	r = bp_cond_run(c, &table, vars, NVARS);
	bp_cond_free(c);
	return r;
}

/* Sets the variables for pass n of a loop like live_cond.c's. */
static void state(long n)
{
	int m;

	for (m = 0; m < 8; m++) {
		cells[m].id = 3 * m;
		cells[m].w = 0.5 * m;
		memset(cells[m].tag, 0, sizeof cells[m].tag);
		cells[m].tag[m % 4] = (short)-m;
	}
	i = n;
	k = (int)(n % 8);
	cp = &cells[(k + 7) % 8];
	uc = (unsigned char)(n * 37);
}

/* Each expression as the task runs it and as C computes it. */
#define CASES                                                                 \
	X(i > 100 && (i & 15) == 5)                                           \
	X(cells[k].w * 2 >= 5.0 && cp->id % 2 == 0)                           \
	X((unsigned char)(i >> 2) != 7u || -cells[k].tag[k % 4] == k)         \
	X(cells[(k + 3) % 8].tag[(k + 1) % 4] < 0)                            \
	X(k ? i / k > 20 : i == 0)                                            \
	X(uc > 200 && ~k < -3)                                                \
	X(!(i % 3) && (double)k / 3 > 1.5)                                    \
	X((short)(i * 1000) < 0 || (long)cells[7].w == 3)                     \
	X(&cells[(k + 7) % 8] == cp && k != 1)                                \
	X(cp != 0 && cp->tag[3] + 1 == -2)

static void test_same_as_c(void **state_)
{
	long n;
	int got, want, checked = 0;

	(void)state_;
	for (n = 0; n < 300; n++) {
		state(n);
#define X(e)                                                                  \
	want = (e) ? 1 : 0;                                                   \
	got = run(#e);                                                        \
	if (got != want)                                                      \
		fail_msg("pass %ld: %s: task %d, C %d", n, #e, got, want);    \
	checked++;
		CASES
#undef X
	}
	assert_int_equal(checked, 300 * 10);
}

/* Packs the instructions given as msgpack text into a buffer. */
typedef void packfn(msgpack_packer *pk);

static bp_cond *decode_packed(packfn *f)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	bp_cond *c;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	f(&pk);
	c = decode((const unsigned char *)sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
	return c;
}

static void ins2(msgpack_packer *pk, int ins, int64_t arg)
{
	msgpack_pack_array(pk, 2);
	msgpack_pack_int(pk, ins);
	msgpack_pack_int64(pk, arg);
}

static void push(msgpack_packer *pk, int64_t v)
{
	msgpack_pack_array(pk, 3);
	msgpack_pack_int(pk, BP_C_PUSH);
	msgpack_pack_int(pk, BP_NUM_INT);
	msgpack_pack_int64(pk, v);
}

/* LOAD of k, its name and type id given, with one step [op, arg] (op 0:
 * none) and dyn positions. */
static void loadk(msgpack_packer *pk, const char *name, int type, int op,
		  int ndyn)
{
	msgpack_pack_array(pk, 6);
	msgpack_pack_int(pk, BP_C_LOAD);
	msgpack_pack_int(pk, 1);
	msgpack_pack_str_with_body(pk, name, strlen(name));
	msgpack_pack_int(pk, type);
	msgpack_pack_array(pk, op ? 1 : 0);
	if (op) {
		msgpack_pack_array(pk, 2);
		msgpack_pack_int(pk, op);
		msgpack_pack_int(pk, 0);
	}
	msgpack_pack_array(pk, (size_t)ndyn);
	if (ndyn)
		msgpack_pack_int(pk, 0);
}

static void bad_empty(msgpack_packer *pk) { msgpack_pack_array(pk, 0); }
static void bad_notarray(msgpack_packer *pk) { msgpack_pack_int(pk, 3); }
static void bad_ins(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	ins2(pk, 12, 0);
}
static void bad_jump(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 2);
	push(pk, 1);
	ins2(pk, BP_C_JZ, 1); /* past the end */
}
static void bad_op(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 3);
	push(pk, 1);
	push(pk, 1);
	ins2(pk, BP_C_BIN, BP_OP_COUNT);
}
static void bad_kind(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	msgpack_pack_array(pk, 3);
	msgpack_pack_int(pk, BP_C_PUSH);
	msgpack_pack_int(pk, 9);
	msgpack_pack_int(pk, 1);
}
static void bad_step(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	loadk(pk, "k", T_INT, TD_STEP_SLICE, 0);
}
static void bad_dyn(msgpack_packer *pk) /* a popped member index */
{
	msgpack_pack_array(pk, 2);
	push(pk, 0);
	loadk(pk, "k", T_INT, TD_STEP_MEMBER, 1);
}
static void bad_fields(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	msgpack_pack_array(pk, 2);
	msgpack_pack_int(pk, BP_C_LOAD);
	msgpack_pack_int(pk, 1);
}
static void bad_long(msgpack_packer *pk)
{
	int n;

	msgpack_pack_array(pk, BP_CODE_MAX + 1);
	for (n = 0; n < BP_CODE_MAX + 1; n++)
		push(pk, n);
}

static void test_refused(void **state_)
{
	packfn *bad[] = {bad_empty, bad_notarray, bad_ins, bad_jump, bad_op,
			 bad_kind, bad_step, bad_dyn, bad_fields, bad_long};
	size_t n;

	(void)state_;
	for (n = 0; n < sizeof bad / sizeof bad[0]; n++)
		if (decode_packed(bad[n]) != NULL)
			fail_msg("malformed code %zu was taken", n);
}

static void underflow(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 2);
	push(pk, 1);
	ins2(pk, BP_C_BIN, BP_OP_ADD);
}
static void two_left(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 2);
	push(pk, 1);
	push(pk, 2);
}
static void wrong_name(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	loadk(pk, "kk", T_INT, 0, 0);
}
static void wrong_type(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	loadk(pk, "k", T_LONG, 0, 0);
}
static void right_k(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 1);
	loadk(pk, "k", T_INT, 0, 0);
}
/* 0 && 1 / 0: the division is skipped. */
static void and_skips(msgpack_packer *pk)
{
	msgpack_pack_array(pk, 6);
	push(pk, 0);
	ins2(pk, BP_C_ANDTHEN, 4);
	push(pk, 1);
	push(pk, 0);
	ins2(pk, BP_C_BIN, BP_OP_DIV);
	msgpack_pack_array(pk, 1);
	msgpack_pack_int(pk, BP_C_BOOL);
}

static int run_packed(packfn *f)
{
	bp_cond *c = decode_packed(f);
	int r;

	assert_non_null(c);
	r = bp_cond_run(c, &table, vars, NVARS);
	bp_cond_free(c);
	return r;
}

static void test_cannot(void **state_)
{
	(void)state_;
	state(5);
	assert_int_equal(run_packed(underflow), -1);
	assert_int_equal(run_packed(two_left), -1);
	assert_int_equal(run_packed(wrong_name), -1);
	assert_int_equal(run_packed(wrong_type), -1);
	assert_int_equal(run_packed(right_k), 1);
	k = 0;
	assert_int_equal(run_packed(right_k), 0);
	assert_int_equal(run_packed(and_skips), 0);
	assert_int_equal(run("i / (k - k) == 1"), -1);
	assert_int_equal(run("cells[k + 8].id == 1"), -1);
	assert_int_equal(run("cells[k - 1].id == 1"), -1); /* k is 0 */
	cp = NULL;
	assert_int_equal(run("cp->id == 1"), -1);
	cp = (struct cell *)(uintptr_t)16;
	assert_int_equal(run("cp->id == 1"), -1);
	cp = &cells[2];
	assert_int_equal(run("cp->id == 6"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_as_c),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_cannot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
