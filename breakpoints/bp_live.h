/*
 * bp_live.h — internals of the breakpoint runtime shared by bp_rt.c and
 * bp_live.c (live breakpoints and stepping); not installed.
 */
#ifndef PARAVT_BP_LIVE_H
#define PARAVT_BP_LIVE_H

#include <stdint.h>

#include "wire_msg.h"

/* The breakpoint para_vt_line stopped for (0: a step or an interrupt). */
uint32_t pvt__bl_reason(void);

/* The task stops at line (any breakpoint): a step in force ends, and the
 * next one starts from here. */
void pvt__bl_stopped(int line);

/* STEP: the task goes on in mode (enum pvt_step).  0, or -1 for a bad
 * mode or no control page. */
int pvt__bl_step(int mode);

/* Handles one message while the task waits for the daemon (bp_rt.c): 1
 * to resume, 0 to go on waiting, or an error (then detached). */
int pvt__bp_handle(const wire_msg *m);

#endif
