/*
 * bp_cond.h — breakpoint conditions in the task: decoding the code the
 * console compiled (bp_code.h) and running it over the variables of a
 * breakpoint's site at each pass.  Node side, C99; not installed.
 */
#ifndef PARAVT_BP_COND_H
#define PARAVT_BP_COND_H

#include <stdint.h>

#include <msgpack.h>

#include "paravt_rt.h"

typedef struct bp_cond bp_cond;

/* Decodes code o (an array of instructions), checking every field, the
 * limits and that every jump and the stack stay in bounds.  The code,
 * or NULL (malformed, too long, out of memory). */
bp_cond *bp_cond_decode(const msgpack_object *o);

/* Frees c; NULL-safe. */
void bp_cond_free(bp_cond *c);

/* Runs c over the site's variables with the unit's type table: 1 if the
 * condition holds, 0 if not, -1 if it cannot be evaluated here (a
 * variable that is not the one compiled for, memory that cannot be
 * read, division by zero, an index out of bounds): the console then
 * decides, and says why. */
int bp_cond_run(bp_cond *c, const td_table *t, const pvt_var *vars,
		uint32_t nvars);

#endif
