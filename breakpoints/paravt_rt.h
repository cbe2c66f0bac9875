/*
 * paravt_rt.h — the interface between instrumented programs and the paravt
 * runtime (libparavt.a, built for every port).
 *
 * The console's instrumenter (console/con_inst*.c) rewrites each user
 * source file into one that includes this header first and calls these
 * functions; the node daemon links the result with libparavt.a.  This is
 * ParaVT's set of templates: program start/exit, function entry/exit and
 * the breakpoint template with its variable records.  Nothing here may
 * collide with user code: every name is para_vt_* (called by generated
 * code), pvt_* (types) or pvt__* (generated objects).
 *
 * What generated code looks like for a translation unit foo.c:
 *
 *     #include "paravt_rt.h"
 *     static pvt_unit pvt__unit;              (tentative definition)
 *     #line 1 "foo.c"
 *     ... user code; main's body starts with para_vt_start(); ...
 *     ... each function body starts with
 *         para_vt_fn_enter("f", "foo.c", 12);
 *     ... and each return / the closing brace is preceded by
 *         para_vt_fn_exit("f", "foo.c", 20);
 *     ... and each statement of a block by
 *         pvt__line = 17;
 *     ... and a breakpoint at line 17 inserts, before that statement,
 *         { pvt_var pvt__v[] = { {"x", 3, &x, PVT_LOCAL}, ... };
 *           para_vt_break(&pvt__unit, 1, "foo.c", 17, "f", pvt__v, 2); }
 *         #line 17 "foo.c"
 *     ... then at the end of the file the unit's type table (typedesc,
 *     evaluated by the target compiler) and
 *     static pvt_unit pvt__unit = { &pvt__table, UNIT_INDEX, 0 };
 *
 * When the program is not started by paravtd (no PARAVT_SOCK in the
 * environment) every call returns at once and the program runs as usual.
 *
 * Environment set by paravtd for the tasks it starts:
 *   PARAVT_SOCK   path of the daemon's local (Unix) socket for tasks
 *   PARAVT_PROC   this task's process number on that daemon
 *
 * C99; node side.
 */
#ifndef PARAVT_RT_H
#define PARAVT_RT_H

#include <stdint.h>

#include "td.h"

/* Where a recorded variable comes from (shown by info locals/globals). */
enum pvt_scope {
	PVT_PARAM = 0,  /* function parameter */
	PVT_LOCAL = 1,  /* local variable of an enclosing block */
	PVT_GLOBAL = 2, /* global (external linkage) used by the function */
	PVT_STATIC = 3  /* file-scope or function-scope static */
};

/* One variable recorded at a breakpoint. */
typedef struct pvt_var {
	const char *name; /* as written in the source */
	uint32_t type;    /* type id in the unit's table */
	const void *addr; /* its address in this process */
	uint8_t scope;    /* enum pvt_scope */
} pvt_var;

/* One instrumented translation unit: its type table and whether the table
 * has been sent to the daemon yet (sent once per process). */
typedef struct pvt_unit {
	const td_table *table; /* the unit's UsedTypeTable */
	uint32_t id;           /* unit index within the build, from 0 */
	int sent;              /* runtime: table already sent */
} pvt_unit;

/* Program start template: first statement of main.  Connects to the local
 * daemon when run under paravt and installs the crash handler. */
void para_vt_start(void);

/* Program exit template: before main returns (status is its value); also
 * run from atexit() for programs that call exit(). */
void para_vt_exit(int status);

/* Function entry and exit templates: keep the call stack shown by
 * `where` and the last known location reported after a crash. */
void para_vt_fn_enter(const char *func, const char *file, int line);
void para_vt_fn_exit(const char *func, const char *file, int line);

/* Statement line template: the line of the statement the innermost
 * instrumented function is executing (one store per statement; the crash
 * report and `where` read it).  One variable for the process: threads
 * that run instrumented code at once share it. */
extern volatile int pvt__line;

/* Breakpoint template.  Tells the daemon where the task stopped and which
 * variables are in scope (sending the unit's type table first if this
 * process has not sent it yet), then serves inspection requests until the
 * console says continue. */
void para_vt_break(pvt_unit *unit, uint32_t bp, const char *file, int line,
		   const char *func, const pvt_var *vars, uint32_t nvars);

#endif
