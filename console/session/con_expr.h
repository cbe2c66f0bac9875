/*
 * con_expr.h — C expressions over a stopped process's variables, for
 * `print EXPR`: literals, variables and value paths (x, s.f, p->f,
 * a[i + 1], *p, a[2]@5), the arithmetic, comparison, bitwise and logical
 * operators of C with its precedence, ?:, casts to arithmetic types and
 * sizeof.  Pure: the values of paths come from the caller (fetch), so
 * the same expression gives the same value whatever the node's byte
 * order; arithmetic is done in 64 bits (unsigned when an operand is) or
 * in double.  Errors are one sentence naming the sub-expression; nothing
 * prints.
 */
#ifndef PARAVT_CON_EXPR_H
#define PARAVT_CON_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* Kinds of values. */
enum con_xkind {
	CON_X_INT,  /* signed integer (also char, enum, bool) */
	CON_X_UINT, /* unsigned integer */
	CON_X_FLT,  /* floating point */
	CON_X_PTR,  /* an address */
	CON_X_TEXT  /* not a number (a struct, an array, a slice): text */
};

/* A value. */
typedef struct con_xval {
	int kind;      /* enum con_xkind */
	int64_t i;     /* CON_X_INT */
	uint64_t u;    /* CON_X_UINT, CON_X_PTR */
	double d;      /* CON_X_FLT */
	char *text;    /* CON_X_TEXT: the printed value; owned */
	int is_char;   /* an integer of a char type (printed as 65 'A') */
} con_xval;

/* Gives the value of value path path (as td_path_eval reads it) in *out.
 * 0, or -1 with a sentence in err. */
typedef int con_expr_fetch_fn(void *ctx, const char *path, con_xval *out,
			      char *err, size_t errlen);

/* sizeof: of the type called name (is_type) or of the value of path
 * name, on the process's machine.  0 with *out, or -1 with err. */
typedef int con_expr_size_fn(void *ctx, const char *name, int is_type,
			     uint64_t *out, char *err, size_t errlen);

/* &: the address of the object of value path path.  0 with *out, or -1
 * with err. */
typedef int con_expr_addr_fn(void *ctx, const char *path, uint64_t *out,
			     char *err, size_t errlen);

/* Code for the task (a condition it runs at each pass): instructions of
 * breakpoints/bp_code.h, msgpack-encoded one after the other. */
typedef struct con_xcode {
	unsigned char *buf; /* the instructions (owned) */
	size_t len, cap;    /* bytes used, allocated */
	uint32_t n;         /* instructions */
} con_xcode;

/* Compiling: appends to code the instruction that gives the value
 * (addr 0) or the address (addr 1) of value path path in the task, and
 * says the kind of number it gives (enum con_xkind).  Bit k of dynmask
 * says that the k-th [index] of path (written 0 there) is taken from the
 * stack.  0, or -1 with a sentence in err (not a number, not known). */
typedef int con_expr_load_fn(void *ctx, const char *path, int addr,
			     uint64_t dynmask, con_xcode *code, int *kind,
			     char *err, size_t errlen);

/* A cast to a type the program knows (a typedef, an enum, a pointer to a
 * struct), name as written between the parentheses.  For an arithmetic
 * type (typedefs and enums followed to one): 1 with its size, whether
 * it is unsigned and floating in *size, *uns, *flt.  For a pointer
 * type: 2, and path (an object of pointer size: a variable, a member, an
 * element) is renamed into out as that type.  0 if no such type, -1
 * with err. */
typedef int con_expr_ptype_fn(void *ctx, const char *name, const char *path,
			      uint64_t *size, int *uns, int *flt, char *out,
			      size_t outlen, char *err, size_t errlen);

/* What an evaluation asks its caller. */
typedef struct con_expr_env {
	con_expr_fetch_fn *fetch;
	con_expr_size_fn *size;
	con_expr_addr_fn *addr;
	void *ctx;
	con_expr_load_fn *load;   /* con_expr_compile only */
	con_expr_ptype_fn *ptype; /* casts to the program's types, or NULL */
} con_expr_env;

/* Evaluates expr.  0 with *out (free with con_xval_free), or -1 with
 * err ("division by zero in 'a / b'", "'s' is a struct: not a
 * number"). */
int con_expr_eval(const char *expr, const con_expr_env *env, con_xval *out,
		  char *err, size_t errlen);

/* Compiles expr into code the task runs (bp_code.h), with the same
 * meaning as con_expr_eval: constants are folded here, variables are
 * loaded through env->load.  0 with *out (free with con_xcode_free), or
 * -1 with err (what cannot run in the task: sizeof, slices, text). */
int con_expr_compile(const char *expr, const con_expr_env *env,
		     con_xcode *out, char *err, size_t errlen);

/* con_expr_code.c: building code.  Each returns 0 or -1 (out of
 * memory).  A number; an instruction with no argument (has_arg 0) or
 * one; more code after c; a LOAD or ADDR (ins) of variable var of the
 * site (name, type id) with steps (op, arg pairs) of which those at the
 * positions dyn are popped. */
int con_xcode_push(con_xcode *c, const con_xval *v);
int con_xcode_ins(con_xcode *c, int ins, int has_arg, int64_t arg);
int con_xcode_cat(con_xcode *c, const con_xcode *more);
int con_xcode_path(con_xcode *c, int ins, uint32_t var, const char *name,
		   uint32_t type, const uint64_t (*steps)[2], uint32_t nsteps,
		   const uint32_t *dyn, uint32_t ndyn);

/* The whole code as one msgpack array into a new buffer *out of *len
 * bytes (free()).  0 or -1. */
int con_xcode_wrap(const con_xcode *c, unsigned char **out, size_t *len);

/* Frees what c owns; c is empty again. */
void con_xcode_free(con_xcode *c);

/* True if expr is a value path and nothing else (print shows it as it
 * always did: structs, arrays, strings). */
int con_expr_is_path(const char *expr);

/* Prints v into buf in format fmt: 0 natural, 'd' decimal, 'u'
 * unsigned, 'x' hex, 'o' octal, 't' binary, 'c' character, 'f' float.
 * 0, or -1 with a sentence in buf (a format that does not apply). */
int con_xval_format(const con_xval *v, int fmt, char *buf, size_t n);

/* Frees what v owns. */
void con_xval_free(con_xval *v);

#endif
