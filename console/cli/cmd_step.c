/*
 * cmd_step.c — moving a stopped process on by statements, and stopping
 * running ones: `step`, `next`, `finish`, `until` [COUNT] and `advance
 * LOCATION` for the current process (or the one named with -p PROC);
 * `interrupt` for every running process; `wait` for running processes
 * to stop or end.  Each waits as continue does
 * (the other processes stay as they are) and prints where the process
 * stopped.  The node side counts statements by the shadow stack's
 * depth (breakpoints/bp_live.c); no rebuild is needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"
#include "paravt_rt.h"
#include "wire.h"

/* The mode of a step command's name. */
static int con_step_mode(const char *name)
{
	if (strcmp(name, "next") == 0 || strcmp(name, "n") == 0)
		return PVT_STEP_NEXT;
	if (strcmp(name, "finish") == 0)
		return PVT_STEP_FINISH;
	if (strcmp(name, "until") == 0 || strcmp(name, "u") == 0)
		return PVT_STEP_UNTIL;
	return PVT_STEP_STEP;
}

/* The process of a step command: -p PROC at argv[*i], else the current
 * one; it must be stopped.  NULL with err. */
static con_proc *con_step_proc(int argc, char **argv, int *i, char *err,
			       size_t errlen)
{
	con_proc *p;

	if (*i + 1 < argc && strcmp(argv[*i], "-p") == 0) {
		p = con_dbg_proc_find(argv[*i + 1], err, errlen);
		*i += 2;
	} else {
		p = con_dbg_current();
		if (p == NULL && con_dbg_proc_first() != NULL)
			snprintf(err, errlen, "%s: no process is stopped "
				 "(interrupt, or wait for a breakpoint)",
				 argv[0]);
		else if (p == NULL)
			snprintf(err, errlen, "%s: no current process (run "
				 "first)", argv[0]);
	}
	if (p != NULL && p->state != CON_PROC_STOPPED) {
		snprintf(err, errlen, "%s: p%d is not stopped", argv[0], p->id);
		return NULL;
	}
	return p;
}

/* Steps every stopped process of the focus once.  The number stepped,
 * or -1 with err. */
static int con_step_focus(int mode, char *err, size_t errlen)
{
	con_proc **v;
	size_t n, k;
	int stepped = 0;

	if (con_pset_resolve(con_pset_focus(), &v, &n, err, errlen) < 0)
		return -1;
	for (k = 0; k < n; k++)
		if (v[k]->state == CON_PROC_STOPPED &&
		    con_dbg_step(v[k], mode, err, errlen) == 0)
			stepped++;
	free(v);
	if (stepped == 0)
		snprintf(err, errlen, "no process of the focus (%s) is "
			 "stopped", con_pset_focus());
	return stepped > 0 ? stepped : -1;
}

/* step | next | finish | until [-p PROC] [COUNT] [--timeout SECS] */
int con_cmd_dbg_step(int argc, char **argv, char *err, size_t errlen)
{
	int mode = con_step_mode(argv[0]), i = 1, r;
	int focus = con_pset_focus() != NULL &&
		    !(argc > 1 && strcmp(argv[1], "-p") == 0);
	double secs = CON_DBG_RUN_SECS;
	long count = 1, k;
	con_proc *p = NULL;

	con_dbg_init();
	if (!focus && (p = con_step_proc(argc, argv, &i, err, errlen)) == NULL)
		return WIRE_ESTATE;
	for (; i < argc; i++) {
		r = con_cmd_dbg_timeout(argc, argv, &i, &secs, err, errlen);
		if (r < 0)
			return WIRE_EARG;
		if (r == 0 && con_cmd_number(argv[0], "count", argv[i], 1,
					     1000000, &count, err, errlen) < 0)
			return WIRE_EARG;
	}
	for (k = 0; k < count; k++) {
		if (focus) {
			if (con_step_focus(mode, err, errlen) < 0)
				return k == 0 ? WIRE_ESTATE : 0;
		} else if (p->state != CON_PROC_STOPPED) {
			break; /* it ended, or the wait ran out */
		} else if (con_dbg_step(p, mode, err, errlen) < 0) {
			return WIRE_ESTATE;
		}
		con_cmd_dbg_settle(secs);
		if (con_cmd_dbg_last_settle() != 0)
			break;
	}
	return 0;
}

/* advance LOCATION [-p PROC] [--timeout SECS]: a temporary breakpoint
 * at LOCATION, then continue the process. */
int con_cmd_dbg_advance(int argc, char **argv, char *err, size_t errlen)
{
	char *tb[2];
	con_proc *p;
	int i = 2;

	con_dbg_init();
	if (argc < 2) {
		snprintf(err, errlen, "usage: advance FILE:LINE | FUNCTION "
			 "[-p PROC] [--timeout SECS]");
		return WIRE_EARG;
	}
	p = con_step_proc(argc, argv, &i, err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	tb[0] = "tbreak";
	tb[1] = argv[1];
	if (con_cmd_dbg_break(2, tb, err, errlen) < 0)
		return WIRE_EARG;
	con_dbg_select(p);
	argv[i - 1] = argv[0]; /* continue [--timeout SECS] for p */
	return con_cmd_dbg_continue(argc - i + 1, argv + i - 1, err, errlen);
}

/* The only argument of wait and interrupt: [--timeout SECS]. */
static int con_step_secs(int argc, char **argv, double *secs, char *err,
			 size_t errlen)
{
	int i, r;

	for (i = 1; i < argc; i++) {
		r = con_cmd_dbg_timeout(argc, argv, &i, secs, err, errlen);
		if (r <= 0) {
			if (r == 0)
				snprintf(err, errlen, "usage: %s [--timeout "
					 "SECS]", argv[0]);
			return WIRE_EARG;
		}
	}
	return 0;
}

/* wait [--timeout SECS]: waits, as run does, until the running
 * processes stop or end (after a live breakpoint was set, say). */
int con_cmd_dbg_wait_cmd(int argc, char **argv, char *err, size_t errlen)
{
	double secs = CON_DBG_RUN_SECS;

	con_dbg_init();
	if (con_step_secs(argc, argv, &secs, err, errlen) < 0)
		return WIRE_EARG;
	con_cmd_dbg_settle(secs);
	return 0;
}

/* interrupt with a focus: each running process of it. */
static int con_step_interrupt_focus(double secs, char *err, size_t errlen)
{
	con_proc **v;
	size_t n, k;
	int asked = 0;

	if (con_pset_resolve(con_pset_focus(), &v, &n, err, errlen) < 0)
		return WIRE_EARG;
	for (k = 0; k < n; k++)
		if (v[k]->state == CON_PROC_RUNNING &&
		    con_dbg_stop_proc(v[k], err, errlen) == 0)
			asked++;
	free(v);
	if (asked == 0) {
		snprintf(err, errlen, "interrupt: no process of the focus (%s) "
			 "is running", con_pset_focus());
		return WIRE_ESTATE;
	}
	con_cmd_dbg_settle(secs);
	return 0;
}

/* interrupt [--timeout SECS]: every running process (of the focus)
 * stops at its next statement. */
int con_cmd_dbg_interrupt(int argc, char **argv, char *err, size_t errlen)
{
	double secs = 10;
	int nodes;

	con_dbg_init();
	if (con_step_secs(argc, argv, &secs, err, errlen) < 0)
		return WIRE_EARG;
	if (con_pset_focus() != NULL)
		return con_step_interrupt_focus(secs, err, errlen);
	if (con_dbg_interrupt(&nodes, err, errlen) < 0)
		return WIRE_EIO;
	if (nodes == 0) {
		snprintf(err, errlen, "interrupt: no node is up");
		return WIRE_ESTATE;
	}
	con_cmd_dbg_settle(secs);
	return 0;
}
