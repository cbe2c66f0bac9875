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
 *         if (*pvt__armp && para_vt_line(&pvt__unit, "foo.c", 17)) {
 *             pvt_var pvt__v[] = { ...the variables in scope... };
 *             para_vt_break(&pvt__unit, PVT_BP_LIVE, "foo.c", 17, "f",
 *                           pvt__v, 2); }
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

/* Line probe template (live breakpoints, stepping, interrupts; see
 * wrappers/pvt_ctl.h).  *pvt__armp is zero unless the daemon or a step
 * wants this process to look at its statements; para_vt_line then says
 * whether it stops before this one (the generated code calls
 * para_vt_break with PVT_BP_LIVE when it does). */
extern volatile uint32_t *pvt__armp;
int para_vt_line(pvt_unit *unit, const char *file, int line);

/* Call-site template: while the process is armed, a statement that
 * makes a call first records the variables in scope at its line, so
 * that at a stop in a function it called `up` can show them:
 *
 *     if (*pvt__armp) { pvt_var pvt__v[] = { ... };
 *         para_vt_frame(&pvt__unit, 17, pvt__v, 2);
 *         if (para_vt_line(&pvt__unit, "foo.c", 17))
 *             para_vt_break(&pvt__unit, PVT_BP_LIVE, "foo.c", 17, "f",
 *                           pvt__v, 2); }
 *
 * The runtime keeps a copy; the names and addresses stay valid while the
 * statement runs. */
void para_vt_frame(pvt_unit *unit, int line, const pvt_var *vars,
		   uint32_t nvars);

/* The bp of a stop para_vt_line decided (the runtime reports which live
 * breakpoint, or 0 for a step or an interrupt). */
#define PVT_BP_LIVE 0xffffffffu

/* Live breakpoint flags (BP_SET / BP_TABLE entries). */
#define PVT_BPF_ENABLED 0x1u
#define PVT_BPF_TEMP 0x2u /* the console deletes it at its first hit */
#define PVT_BPF_WATCH 0x4u /* a watchpoint: the process keeps it while the
			      table lists its id */

/* Why a watchpoint stopped a process (WATCH_HIT's why). */
#define PVT_WATCH_CHANGED 1 /* its value changed; at: the line before */
#define PVT_WATCH_GONE 2    /* the frame of its local variable returned */

/* How a stopped process goes on (STEP's mode). */
enum pvt_step {
	PVT_STEP_STEP = 1,   /* stop at the next statement, into calls */
	PVT_STEP_NEXT = 2,   /* ... in this function or its callers */
	PVT_STEP_FINISH = 3, /* ... once this function has returned */
	PVT_STEP_UNTIL = 4   /* as next, but past this line (loops run on) */
};

/* Breakpoint template.  Tells the daemon where the task stopped and which
 * variables are in scope (sending the unit's type table first if this
 * process has not sent it yet), then serves inspection requests until the
 * console says continue. */
void para_vt_break(pvt_unit *unit, uint32_t bp, const char *file, int line,
		   const char *func, const pvt_var *vars, uint32_t nvars);

#endif
