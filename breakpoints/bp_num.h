/*
 * bp_num.h — the arithmetic of paravt's C expressions on numbers, shared
 * by the console (print, con_expr.c) and the task (conditions evaluated
 * per pass, bp_cond.c), so that an expression has one meaning wherever
 * it is computed: integers in 64 bits (unsigned when an operand is),
 * floating point in double, addresses only compared.  C99; nothing
 * prints, nothing allocates.
 */
#ifndef PARAVT_BP_NUM_H
#define PARAVT_BP_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Kinds of numbers (the numbering of con_expr.h's CON_X_*). */
enum bp_num_kind {
	BP_NUM_INT = 0,  /* signed integer (also char, enum, bool) */
	BP_NUM_UINT = 1, /* unsigned integer */
	BP_NUM_FLT = 2,  /* floating point */
	BP_NUM_PTR = 3   /* an address */
};

/* A number. */
typedef struct bp_num {
	int kind;    /* enum bp_num_kind */
	int64_t i;   /* BP_NUM_INT */
	uint64_t u;  /* BP_NUM_UINT, BP_NUM_PTR */
	double d;    /* BP_NUM_FLT */
	int is_char; /* an integer of a char type */
} bp_num;

/* Binary operators (wire numbers of the condition code: never reorder). */
enum bp_num_op {
	BP_OP_ADD = 1, BP_OP_SUB, BP_OP_MUL, BP_OP_DIV, BP_OP_MOD,
	BP_OP_SHL, BP_OP_SHR, BP_OP_AND, BP_OP_OR, BP_OP_XOR,
	BP_OP_EQ, BP_OP_NE, BP_OP_LT, BP_OP_LE, BP_OP_GT, BP_OP_GE,
	BP_OP_COUNT
};

/* Unary operators. */
enum bp_num_unop { BP_UN_NOT = 1, BP_UN_BNOT, BP_UN_NEG, BP_UN_PLUS };

/* Arithmetic types a cast names, as the node's C compiler sizes them
 * (wire numbers). */
enum bp_num_ctype {
	BP_CT_BOOL = 1, BP_CT_CHAR, BP_CT_SCHAR, BP_CT_UCHAR, BP_CT_SHORT,
	BP_CT_USHORT, BP_CT_INT, BP_CT_UINT, BP_CT_LONG, BP_CT_ULONG,
	BP_CT_LLONG, BP_CT_ULLONG, BP_CT_FLOAT, BP_CT_DOUBLE, BP_CT_COUNT
};

/* The operator spelled op ("+", "<="), or 0. */
int bp_num_op_of(const char *op);

/* Its spelling ("?" out of range). */
const char *bp_num_op_name(int op);

/* a = a OP b.  0, or -1 with a sentence in err (division by zero, an
 * operator that needs integers, arithmetic on addresses, a shift of 64
 * bits or more). */
int bp_num_binary(int op, bp_num *a, const bp_num *b, char *err,
		  size_t errlen);

/* a = OP a.  0, or -1 with err ('~' of a float or an address). */
int bp_num_unary(int op, bp_num *a, char *err, size_t errlen);

/* a = (TYPE)a, where TYPE is given by its size in bytes, whether it is
 * unsigned, floating (size 4: float) or _Bool, and whether it is a char
 * type. */
void bp_num_cast(bp_num *a, uint64_t size, int uns, int flt, int is_bool,
		 int is_char);

/* The cast type called name ("unsigned long"), or 0. */
int bp_num_ctype_of(const char *name);

/* a = (TYPE)a for a cast type of this machine (the node's sizes). */
void bp_num_cast_ctype(bp_num *a, int ctype);

/* 1 if a is true in C (not zero, not a null address). */
int bp_num_truth(const bp_num *a);

/* Sets a to the int x. */
void bp_num_set_int(bp_num *a, int64_t x);

#endif
