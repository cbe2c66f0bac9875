/*
 * bp_model.h — the console's breakpoint model (console side of
 * breakpoints/; plain C99, no console headers).
 *
 * The user edits a list of breakpoints: `break FILE:LINE`, `break
 * FUNCTION`, `tbreak`, `delete N`, `disable`, `enable`, `ignore`.  Those
 * set before a build are compiled into the program, so each one also
 * remembers whether the last build carries it and, if so, where the
 * instrumenter made it land (the statement it stops before, which may be
 * after the line asked for) and which variables it records.  Those set
 * after the build land on a line probe of that build ("live"): the
 * console arms them on the nodes, without a new build.  Breakpoints found in the sources (`#pragma
 * paravt break`) are added by the build with ids from the same counter.
 *
 * A record breakpoint (`break FILE:LINE record i,sum`, like DDT's
 * tracepoints) is compiled in like any other; the console reads the
 * listed expressions (or every local when none is listed) when a process
 * reaches it, prints them on one line and lets the process go on.
 *
 * The list is kept in id order.  Functions return 0 or a negative BP_E*
 * code with a sentence in the caller's err buffer; they never print.
 */
#ifndef PARAVT_BP_MODEL_H
#define PARAVT_BP_MODEL_H

#include <stddef.h>

/* Error codes. */
enum bp_error {
	BP_OK = 0,
	BP_ENOMEM = -1,  /* out of memory */
	BP_EARG = -2,    /* bad location or number */
	BP_ENOENT = -3   /* no breakpoint with that number */
};

/* One variable a landed breakpoint records. */
typedef struct bp_var {
	char *name;  /* identifier as in the source; owned */
	char *type;  /* C spelling of its type; owned */
	int scope;   /* enum pvt_scope (paravt_rt.h) */
} bp_var;

/* One breakpoint. */
typedef struct bp {
	int id;           /* number shown to the user, from 1 */
	char *file;       /* "prog.c" for FILE:LINE, NULL for a function */
	int line;         /* FILE:LINE's line, 0 for a function */
	char *func;       /* FUNCTION, or NULL */
	int temp;         /* tbreak: stops each process once */
	int enabled;      /* 0 after disable: passed over */
	unsigned ignore;  /* stops still to pass over (ignore N COUNT) */
	int live;         /* landed on a line probe of the last build (set
			     after it): armed through the nodes */
	char *watch;      /* a watchpoint: the value path watched (watch
			     EXPR), or NULL; owned */
	int watch_proc;   /* the process it watches (pN) */
	char *watch_old;  /* the value it had last, as printed; owned */
	char *cond;       /* stop only if this C expression is true there
			     (break ... if EXPR, condition N EXPR), or
			     NULL; owned */
	unsigned char *code; /* cond compiled for the processes to run
				(breakpoints/bp_code.h), or NULL; owned */
	size_t code_len;  /* its bytes */
	int code_tried;   /* a compile was tried (at the first stop) */
	char *code_why;   /* why cond could not be compiled; owned */
	unsigned cond_console; /* passes the console found cond false */
	int from_pragma;  /* found as #pragma paravt break by the build */
	unsigned hits;    /* stops seen since it was set */
	int built;        /* compiled into the last build */
	int landed;       /* the fields below are valid */
	char *at_file;    /* where it landed: file as loaded; owned */
	int at_line;      /* line of the statement it stops before */
	char *at_func;    /* enclosing function; owned */
	int unit;         /* translation unit index of the build */
	bp_var *vars;     /* recorded variables; owned */
	size_t nvars;     /* entries in vars */
	int record;       /* record breakpoint: read rec, then resume */
	char **rec;       /* expressions to record; owned (none: every
			     parameter and local) */
	size_t nrec;      /* entries in rec */
	struct bp *next;  /* next in id order, or NULL */
} bp;

/* The whole list (caller storage: bp_model_init / bp_model_destroy). */
typedef struct bp_model {
	bp *head;     /* breakpoints in id order */
	int next_id;  /* id the next breakpoint gets */
} bp_model;

/* Empties m; next id 1. */
void bp_model_init(bp_model *m);

/* Frees every breakpoint of m. */
void bp_model_destroy(bp_model *m);

/*
 * Adds a breakpoint from the user's words: "FILE:LINE" (LINE >= 1) or a
 * C identifier naming a function.  temp for tbreak.  0 with *out set
 * (borrowed from m), or BP_EARG / BP_ENOMEM with err.
 */
int bp_add(bp_model *m, const char *where, int temp, bp **out, char *err,
	   size_t errlen);

/*
 * Makes b a record breakpoint that records the expressions of list,
 * separated by commas ("i, sum, p->next"); an empty list records every
 * parameter and local.  Replaces an earlier list.  0, or BP_EARG (an
 * empty item) / BP_ENOMEM with err.
 */
int bp_set_record(bp *b, const char *list, char *err, size_t errlen);

/* Text of what a record breakpoint records: "i, sum" or "every local"
 * ("" for an ordinary breakpoint). */
void bp_record_text(const bp *b, char *buf, size_t buflen);

/* Takes back breakpoint id, just added by bp_add, that could not be set
 * (its number is given again to the next one).  NULL-safe. */
void bp_discard(bp_model *m, int id);

/* Deletes breakpoint id.  0 or BP_ENOENT with err. */
int bp_delete(bp_model *m, int id, char *err, size_t errlen);

/* The breakpoint numbered id, or NULL.  Borrowed. */
bp *bp_find(const bp_model *m, int id);

/* Number of breakpoints in m. */
size_t bp_count(const bp_model *m);

/* Before recording a build: forgets every landing and clears built. */
void bp_build_begin(bp_model *m);

/*
 * Records where breakpoint id landed in the new build (creating it when
 * it came from a #pragma, with next_id moved past it).  Strings and vars
 * are copied.  0 or BP_ENOMEM.
 */
int bp_land(bp_model *m, int id, const char *file, int line, const char *func,
	    int unit, int temp, int from_pragma, const bp_var *vars,
	    size_t nvars);

/* Forgets the compiled code of b's condition (a new condition, a new
 * landing). */
void bp_forget_code(bp *b);

/* Records that breakpoint id, set after the build, stops at the line
 * probe of file:line in func (unit) of that build.  0, BP_ENOENT or
 * BP_ENOMEM. */
int bp_land_live(bp_model *m, int id, const char *file, int line,
		 const char *func, int unit);

/* watch EXPR: adds a watchpoint of path on process proc, whose value is
 * now old.  0 with *out, or BP_ENOMEM. */
int bp_add_watch(bp_model *m, const char *path, int proc, const char *old,
		 bp **out);

/* condition N [EXPR]: sets (or with NULL or "" removes) the condition
 * of breakpoint id.  0, BP_ENOENT with err, or BP_ENOMEM. */
int bp_set_cond(bp_model *m, int id, const char *expr, char *err,
		size_t errlen);

/* enable / disable N: 0 or BP_ENOENT with err. */
int bp_set_enabled(bp_model *m, int id, int on, char *err, size_t errlen);

/* ignore N COUNT: the next COUNT stops are passed over.  0 or BP_ENOENT
 * with err. */
int bp_set_ignore(bp_model *m, int id, unsigned count, char *err,
		  size_t errlen);

/* Counts a stop at breakpoint id.  Returns the breakpoint (borrowed), or
 * NULL if it is not in the list (deleted after the build). */
bp *bp_hit(bp_model *m, int id);

/* Text of the location the user asked for: "prog.c:42" or "main". */
void bp_where(const bp *b, char *buf, size_t buflen);

#endif
