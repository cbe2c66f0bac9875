/*
 * bp_live.h — internals of the breakpoint runtime shared by bp_rt.c and
 * bp_live.c (live breakpoints and stepping); not installed.
 */
#ifndef PARAVT_BP_LIVE_H
#define PARAVT_BP_LIVE_H

#include <stdint.h>

#include "paravt_rt.h"
#include "wire_msg.h"

/* At a stop para_vt_line decided: 0 when the breakpoint's condition,
 * run here over the site's variables, is false (or holds but its ignore
 * count is not used up), so the task runs on; else 1. */
int pvt__bl_decide(const pvt_unit *unit, const pvt_var *vars,
		   uint32_t nvars);

/* A stop para_vt_line decided has ended at line of unit: a compiled-in
 * breakpoint of the same statement, which the generated code reaches
 * next, is not a second stop (pvt__bl_just_stopped_at). */
void pvt__bl_resumed(const pvt_unit *unit, int line);

/* 1 if the compiled-in breakpoint at line of unit comes right after a
 * probe's stop at that statement (pass it); the mark is used up either
 * way, as it is by the next probe. */
int pvt__bl_just_stopped_at(const pvt_unit *unit, int line);

/* The breakpoint para_vt_line stopped for (0: a step or an interrupt). */
uint32_t pvt__bl_reason(void);

/* The task stops at line (any breakpoint): a step in force ends, and the
 * next one starts from here. */
void pvt__bl_stopped(int line);

/* STEP: the task goes on in mode (enum pvt_step).  0, or -1 for a bad
 * mode or no control page. */
int pvt__bl_step(int mode);

/* WATCH: watches size bytes at addr as watchpoint id (replacing one of
 * the same id); local: it lives in the current frame.  0 or -1. */
int pvt__bl_watch(uint32_t id, void *addr, size_t size, int local);

/* Why the stop para_vt_line decided is a watchpoint's (PVT_WATCH_*, 0
 * if it is not), and the line that changed it into *at; cleared. */
uint32_t pvt__bl_watch_why(int *at);

/* Handles one message while the task waits for the daemon (bp_rt.c): 1
 * to resume, 0 to go on waiting, or an error (then detached). */
int pvt__bp_handle(const wire_msg *m);

#endif
