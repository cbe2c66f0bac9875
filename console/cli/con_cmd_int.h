/*
 * con_cmd_int.h — what the debugger's command files (cmd_dbg.c,
 * cmd_build.c, cmd_break.c, cmd_run.c, cmd_print.c) share among
 * themselves; not for the rest of the console, which uses con_cmd.h.
 */
#ifndef PARAVT_CON_CMD_INT_H
#define PARAVT_CON_CMD_INT_H

#include <stddef.h>

#include "con_dbg.h"

#define CON_DBG_EXPR 4096  /* longest expression, bytes */

/* Waits for cond, printing events; node happenings are announced
 * (cmd_dbg.c).  Returns what con_dbg_wait returns. */
int con_cmd_dbg_wait(con_dbg_cond *cond, void *ctx, double secs);

/* Joins argv[from..] with spaces into buf (cmd_dbg.c): the words after
 * `record` ("i, sum") or an expression.  0 or -1 if empty or long. */
int con_cmd_dbg_join(int argc, char **argv, int from, char *buf,
		     size_t n);

#endif
