/*
 * con_expr_int.h — internals of C expressions (con_expr.h) shared by
 * con_expr.c (the parser and evaluator), con_expr_cast.c (casts) and
 * con_expr_code.c (the code conditions compile into); not for other
 * modules.
 */
#ifndef PARAVT_CON_EXPR_INT_H
#define PARAVT_CON_EXPR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "bp_num.h"
#include "con_expr.h"

#define CX_PATH_MAX 512 /* longest value path built */

/* An operand: a value, or a path not fetched yet. */
typedef struct cx_op {
	int is_path;
	char path[CX_PATH_MAX];
	con_xval v;       /* its value; compiling a dyn one: only v.kind */
	int dyn;          /* compiling: known in the task only, by code */
	con_xcode code;   /* ... that code */
	con_xcode idx;    /* ... a path's indexes computed in the task */
	uint64_t dynmask; /* ... which of its [ ] those are */
	int nbr;          /* ... its [ ] so far */
} cx_op;

/* The parser. */
typedef struct cx {
	const char *s;          /* the expression */
	size_t pos;             /* next character */
	const con_expr_env *env; /* the caller's answers */
	char *err;
	size_t errlen;
	int failed;
	int compile;            /* con_expr_compile */
} cx;

/* con_expr.c: the parser's tools.  cx_fail sets the error sentence once
 * and returns -1; cx_peek skips blanks and gives the next character;
 * cx_take takes an operator (not a longer one that starts with it, whose
 * next characters are in not); cx_ident reads an identifier (its
 * length, 0 if none). */
int cx_fail(cx *c, const char *fmt, ...);
int cx_peek(cx *c);
int cx_take(cx *c, const char *tok, const char *not);
size_t cx_ident(cx *c, char *buf, size_t n);

/* con_expr.c: unary := ... (the grammar's entry for a cast's operand). */
int cx_unary(cx *c, cx_op *o);

/* con_expr.c: values.  cx_number fetches o and checks it is a number
 * (what names what needs one); cx_num gives o as bp_num's number (a
 * sample of its kind when o is known in the task only), cx_from_num
 * makes v that number; cx_truth is C's truth of o; cx_set_int makes o
 * the int x; cx_op_free frees what o owns. */
int cx_number(cx *c, cx_op *o, const char *what);
bp_num cx_num(const cx_op *o);
void cx_from_num(con_xval *v, const bp_num *n);
int cx_truth(const cx_op *o);
void cx_set_int(cx_op *o, int64_t x);
void cx_op_free(cx_op *o);

/* con_expr_cast.c: casts.  cx_type_name reads an arithmetic type's
 * words ("unsigned long") into buf (1 if any); cx_cast casts o to it;
 * cx_program_cast does '(' TYPE ')' unary for a type of the program
 * (1 done, 0 not such a cast, -1 error). */
int cx_type_name(cx *c, char *buf, size_t n);
int cx_cast(cx *c, const char *type, cx_op *o);
int cx_program_cast(cx *c, cx_op *o);

/* con_expr_code.c: compiling.  cx_load makes o (a path) the value its
 * code loads (its address with addr); cx_frag moves o's code (or a PUSH
 * of its constant) into out; cx_emit makes o = o INS(arg) b (b NULL for
 * a unary one) of kind kind; cx_emit_logic compiles a && b (and) or
 * a || b into a; cx_emit_cond compiles o ? a : b into o.  0 or -1. */
int cx_load(cx *c, cx_op *o, int addr);
int cx_frag(cx *c, cx_op *o, con_xcode *out);
int cx_emit(cx *c, cx_op *o, cx_op *b, int ins, int64_t arg, int kind);
int cx_emit_logic(cx *c, cx_op *a, cx_op *b, int and);
int cx_emit_cond(cx *c, cx_op *o, cx_op *a, cx_op *b);

#endif
