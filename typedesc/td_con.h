/*
 * td_con.h — the console side of typedesc (C11; uses wire_buf for text).
 *
 *   td_dec.c    decodes a node's table (td_table_pack) into a heap
 *               td_table, checking every field: the bytes come from the
 *               network.
 *   td_print.c  decodes a canonical value against its type and prints it
 *               the way gdb does: {x = 1, name = "abc", next = 0x...}.
 *   td_path.c   parses and evaluates value paths (x, s.f, p->f, a[3], *p,
 *               a[2]@10, p->next->next->v) into a td_request the node
 *               serves with td_serve, with errors as sentences.
 *
 * Functions return 0 or a negative TD_E* code and fill the caller's err
 * buffer (errlen bytes, may be 0) with a sentence; they never print.
 */
#ifndef PARAVT_TD_CON_H
#define PARAVT_TD_CON_H

#include <msgpack.h>

#include "td.h"
#include "wire_buf.h"

/* Decodes one table object.  On success *out is a new table (caller frees
 * with td_table_free); on error *out is NULL and err says why. */
int td_table_decode(const msgpack_object *o, td_table **out, char *err,
                    size_t errlen);

/* Same, from len bytes holding exactly one msgpack table object. */
int td_table_decode_buf(const char *buf, size_t len, td_table **out, char *err,
                        size_t errlen);

/* Frees a decoded table; NULL is a no-op. */
void td_table_free(td_table *t);

/* Appends the text of value v (canonical form) of type id to out.  top:
 * 1 for a whole printed expression (pointers get their "(T *) " prefix).
 * TD_EMALFORMED (v does not fit the type), TD_ETYPE or TD_ENOMEM; out may
 * then hold part of the text. */
int td_value_print(wire_buf *out, const td_table *t, uint32_t id,
                   const msgpack_object *v, int top, char *err, size_t errlen);

/* A variable the console can name in paths. */
typedef struct td_scope_var {
	const char *name; /* identifier (borrowed) */
	uint32_t type;    /* type id */
	uint64_t addr;    /* address on the node */
} td_scope_var;

/* What a path evaluates to. */
typedef struct td_path_result {
	td_request req; /* what to send to the node */
	uint32_t type;  /* type of the value (of each element for a slice) */
	uint64_t slice; /* elements of a slice (a[2]@10), or 0 */
} td_path_result;

/* Parses path and resolves it against the nvars variables of scope and the
 * table.  0, or TD_EPATH with a sentence in err ("no member named 'q' in
 * struct cell"). */
int td_path_eval(const td_table *t, const td_scope_var *scope, uint32_t nvars,
                 const char *path, td_path_result *res, char *err,
                 size_t errlen);

/* Prints the node's answer v to the request of res: a value, or for a
 * slice an array of elements.  Same returns as td_value_print. */
int td_result_print(wire_buf *out, const td_table *t, const td_path_result *res,
                    const msgpack_object *v, char *err, size_t errlen);

#endif
