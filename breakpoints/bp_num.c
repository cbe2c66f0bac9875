/*
 * bp_num.c — the arithmetic of paravt's C expressions (bp_num.h), one
 * implementation for the console and the task.  Conversions that C
 * leaves undefined (a negative double to an unsigned integer, INT64_MIN
 * % -1) are given one answer here, so that every port computes the same.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bp_num.h"

static const char *const bp_op_names[BP_OP_COUNT] = {
	"?", "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
	"==", "!=", "<", "<=", ">", ">="};

/* See bp_num.h. */
int bp_num_op_of(const char *op)
{
	int i;

	for (i = 1; i < BP_OP_COUNT; i++)
		if (strcmp(bp_op_names[i], op) == 0)
			return i;
	return 0;
}

/* See bp_num.h. */
const char *bp_num_op_name(int op)
{
	return op > 0 && op < BP_OP_COUNT ? bp_op_names[op] : "?";
}

/* a as double, signed and unsigned 64-bit integers. */
static double bp_dbl(const bp_num *a)
{
	return a->kind == BP_NUM_FLT ? a->d :
	       a->kind == BP_NUM_INT ? (double)a->i : (double)a->u;
}

static int64_t bp_i64(const bp_num *a)
{
	if (a->kind != BP_NUM_FLT)
		return a->kind == BP_NUM_INT ? a->i : (int64_t)a->u;
	if (!(a->d > -9.2e18 && a->d < 9.2e18))
		return a->d < 0 ? INT64_MIN : INT64_MAX;
	return (int64_t)a->d;
}

static uint64_t bp_u64(const bp_num *a)
{
	if (a->kind != BP_NUM_FLT)
		return a->kind == BP_NUM_INT ? (uint64_t)a->i : a->u;
	if (a->d < 0)
		return (uint64_t)bp_i64(a);
	return a->d < 1.8e19 ? (uint64_t)a->d : UINT64_MAX;
}

/* See bp_num.h. */
void bp_num_set_int(bp_num *a, int64_t x)
{
	memset(a, 0, sizeof *a);
	a->kind = BP_NUM_INT;
	a->i = x;
	a->u = (uint64_t)x;
}

/* Formats err; returns -1. */
static int bp_fail(char *err, size_t errlen, const char *what)
{
	if (errlen > 0)
		snprintf(err, errlen, "%s", what);
	return -1;
}

/* % << >> & | ^ on integers. */
static int bp_int_op(int op, bp_num *a, const bp_num *b, char *err,
		     size_t errlen)
{
	int uns = a->kind == BP_NUM_UINT || b->kind == BP_NUM_UINT;
	uint64_t x = bp_u64(a), y = bp_u64(b), r;
	char msg[80];

	if (a->kind == BP_NUM_FLT || b->kind == BP_NUM_FLT ||
	    a->kind == BP_NUM_PTR || b->kind == BP_NUM_PTR) {
		snprintf(msg, sizeof msg, "operator '%s' needs integers",
			 bp_num_op_name(op));
		return bp_fail(err, errlen, msg);
	}
	if (op == BP_OP_MOD) {
		if (y == 0)
			return bp_fail(err, errlen, "division by zero (%)");
		r = uns ? x % y : b->i == -1 ? 0 : (uint64_t)(a->i % b->i);
	} else if (op == BP_OP_SHL || op == BP_OP_SHR) {
		if (y >= 64) {
			snprintf(msg, sizeof msg, "shift by %llu bits (0 to "
				 "63)", (unsigned long long)y);
			return bp_fail(err, errlen, msg);
		}
		r = op == BP_OP_SHL ? x << y :
		    uns ? x >> y : (uint64_t)(a->i >> y);
	} else {
		r = op == BP_OP_AND ? x & y : op == BP_OP_OR ? x | y : x ^ y;
	}
	a->kind = uns ? BP_NUM_UINT : BP_NUM_INT;
	a->u = r;
	a->i = (int64_t)r;
	return 0;
}

/* + - * / (double if either is; unsigned if either is). */
static int bp_arith(int op, bp_num *a, const bp_num *b, char *err,
		    size_t errlen)
{
	if (a->kind == BP_NUM_PTR || b->kind == BP_NUM_PTR)
		return bp_fail(err, errlen,
			       "arithmetic on addresses is not supported");
	if (a->kind == BP_NUM_FLT || b->kind == BP_NUM_FLT) {
		double x = bp_dbl(a), y = bp_dbl(b);

		a->d = op == BP_OP_ADD ? x + y : op == BP_OP_SUB ? x - y :
		       op == BP_OP_MUL ? x * y : x / y;
		a->kind = BP_NUM_FLT;
	} else if (op == BP_OP_DIV && bp_u64(b) == 0) {
		return bp_fail(err, errlen, "division by zero");
	} else if (a->kind == BP_NUM_UINT || b->kind == BP_NUM_UINT) {
		uint64_t x = bp_u64(a), y = bp_u64(b);

		a->u = op == BP_OP_ADD ? x + y : op == BP_OP_SUB ? x - y :
		       op == BP_OP_MUL ? x * y : x / y;
		a->i = (int64_t)a->u;
		a->kind = BP_NUM_UINT;
	} else {
		uint64_t x = (uint64_t)a->i, y = (uint64_t)b->i;

		if (op == BP_OP_DIV && b->i == -1 && a->i == INT64_MIN)
			return bp_fail(err, errlen,
				       "integer overflow in a division");
		/* wrapping in unsigned, as C's hardware does */
		a->i = op == BP_OP_ADD ? (int64_t)(x + y) :
		       op == BP_OP_SUB ? (int64_t)(x - y) :
		       op == BP_OP_MUL ? (int64_t)(x * y) : a->i / b->i;
		a->u = (uint64_t)a->i;
	}
	return 0;
}

/* == != < <= > >= into 0 or 1. */
static void bp_compare(int op, bp_num *a, const bp_num *b)
{
	int lt, eq, r;

	if (a->kind == BP_NUM_FLT || b->kind == BP_NUM_FLT) {
		double x = bp_dbl(a), y = bp_dbl(b);

		lt = x < y;
		eq = x == y;
	} else if (a->kind == BP_NUM_INT && b->kind == BP_NUM_INT) {
		lt = a->i < b->i;
		eq = a->i == b->i;
	} else {
		lt = bp_u64(a) < bp_u64(b);
		eq = bp_u64(a) == bp_u64(b);
	}
	r = op == BP_OP_EQ ? eq : op == BP_OP_NE ? !eq : op == BP_OP_LT ? lt :
	    op == BP_OP_LE ? lt || eq : op == BP_OP_GT ? !lt && !eq : !lt;
	bp_num_set_int(a, r);
}

/* See bp_num.h. */
int bp_num_binary(int op, bp_num *a, const bp_num *b, char *err,
		  size_t errlen)
{
	int rc = 0;

	if (op <= 0 || op >= BP_OP_COUNT)
		return bp_fail(err, errlen, "unknown operator");
	if (op >= BP_OP_EQ) {
		bp_compare(op, a, b);
		return 0;
	}
	if (op <= BP_OP_DIV)
		rc = bp_arith(op, a, b, err, errlen);
	else
		rc = bp_int_op(op, a, b, err, errlen);
	a->is_char = 0;
	return rc;
}

/* See bp_num.h. */
int bp_num_unary(int op, bp_num *a, char *err, size_t errlen)
{
	if (op == BP_UN_NOT) {
		bp_num_set_int(a, !bp_num_truth(a));
	} else if (op == BP_UN_BNOT) {
		if (a->kind == BP_NUM_FLT || a->kind == BP_NUM_PTR)
			return bp_fail(err, errlen, "'~' needs an integer");
		a->u = ~a->u;
		a->i = ~a->i;
	} else if (op == BP_UN_NEG) {
		a->d = -a->d;
		a->i = (int64_t)(0 - (uint64_t)a->i);
		a->u = 0 - a->u;
	} else if (op != BP_UN_PLUS) {
		return bp_fail(err, errlen, "unknown operator");
	}
	a->is_char = 0;
	return 0;
}

/* See bp_num.h. */
void bp_num_cast(bp_num *a, uint64_t size, int uns, int flt, int is_bool,
		 int is_char)
{
	uint64_t mask;

	if (flt) {
		a->d = size == 4 ? (double)(float)bp_dbl(a) : bp_dbl(a);
		a->kind = BP_NUM_FLT;
		a->is_char = 0;
		return;
	}
	if (is_bool) {
		bp_num_set_int(a, bp_dbl(a) != 0);
		return;
	}
	a->u = bp_u64(a);
	if (size > 0 && size < 8) {
		mask = ((uint64_t)1 << (8 * size)) - 1;
		a->u &= mask;
		if (!uns && (a->u >> (8 * size - 1)) != 0)
			a->u |= ~mask;
	}
	a->kind = uns ? BP_NUM_UINT : BP_NUM_INT;
	a->i = (int64_t)a->u;
	a->is_char = size == 1 && is_char;
}

/* See bp_num.h. */
int bp_num_ctype_of(const char *name)
{
	int uns = strstr(name, "unsigned") != NULL, longs = 0;
	const char *p = name;

	if (strcmp(name, "_Bool") == 0)
		return BP_CT_BOOL;
	if (strstr(name, "float") != NULL)
		return BP_CT_FLOAT;
	if (strstr(name, "double") != NULL)
		return BP_CT_DOUBLE;
	if (strstr(name, "char") != NULL)
		return uns ? BP_CT_UCHAR : strstr(name, "signed") != NULL ?
		       BP_CT_SCHAR : BP_CT_CHAR;
	if (strstr(name, "short") != NULL)
		return uns ? BP_CT_USHORT : BP_CT_SHORT;
	while ((p = strstr(p, "long")) != NULL) {
		longs++;
		p += 4;
	}
	if (longs >= 2)
		return uns ? BP_CT_ULLONG : BP_CT_LLONG;
	if (longs == 1)
		return uns ? BP_CT_ULONG : BP_CT_LONG;
	if (strstr(name, "int") != NULL || strstr(name, "signed") != NULL)
		return uns ? BP_CT_UINT : BP_CT_INT;
	return 0;
}

/* See bp_num.h. */
void bp_num_cast_ctype(bp_num *a, int ct)
{
	static const unsigned char size[BP_CT_COUNT] = {
		0, sizeof(_Bool), sizeof(char), sizeof(signed char),
		sizeof(unsigned char), sizeof(short), sizeof(unsigned short),
		sizeof(int), sizeof(unsigned), sizeof(long),
		sizeof(unsigned long), sizeof(long long),
		sizeof(unsigned long long), sizeof(float), sizeof(double)};
	int uns = ct == BP_CT_UCHAR || ct == BP_CT_USHORT || ct == BP_CT_UINT ||
		  ct == BP_CT_ULONG || ct == BP_CT_ULLONG ||
		  (ct == BP_CT_CHAR && CHAR_MIN == 0);

	if (ct <= 0 || ct >= BP_CT_COUNT)
		return;
	bp_num_cast(a, size[ct], uns, ct == BP_CT_FLOAT || ct == BP_CT_DOUBLE,
		    ct == BP_CT_BOOL, ct >= BP_CT_CHAR && ct <= BP_CT_UCHAR);
}

/* See bp_num.h. */
int bp_num_truth(const bp_num *a)
{
	return bp_dbl(a) != 0 || (a->kind == BP_NUM_PTR && a->u != 0);
}
