/*
 * pvt_ctl.h — the control page between a task and its node's daemon
 * (layout version PVT_CTL_VERSION): how the daemon reaches a task that
 * is running, without a signal and without the task reading its socket.
 *
 * The task makes the page as a file in its session's private directory,
 * maps it MAP_SHARED and names it to the daemon once (CTL_PAGE on its
 * socket), as it does its event ring (pvt_ring.h); the daemon maps it and
 * removes the file.  Every line probe of instrumented code tests one
 * word, `armed`, and calls into the runtime only when it is not zero:
 *
 *     pvt__line = 17;
 *     if (*pvt__armp && para_vt_line(&pvt__unit, "foo.c", 17)) { ... }
 *
 * `armed` is written by both sides, each in its own byte (a byte store
 * is whole on every port; the probe reads the word): the daemon's byte
 * says the session has live breakpoints or asks the task to stop, the
 * task's byte says it is stepping.  Before the page exists pvt__armp
 * points at a zero word of the runtime, so an instrumented program run
 * without paravt pays one load and a not-taken branch per statement.
 *
 * The daemon bumps `gen` after the session's breakpoint table changed;
 * a task that sees a `gen` it has not read asks for the table
 * (BP_TABLE_GET -> BP_TABLE).  It bumps `stop` to stop the task at its
 * next probe (interrupt, stop-mode all).  Everything is in the task's
 * native byte order: only a daemon of the same port reads it.
 */
#ifndef PARAVT_PVT_CTL_H
#define PARAVT_PVT_CTL_H

#include <stdint.h>

#define PVT_CTL_MAGIC 0x70767463u /* "pvtc" */
#define PVT_CTL_VERSION 1
#define PVT_CTL_SIZE 4096         /* bytes of the file */

/* Bytes of pvt_ctl.armed (index into armed_b). */
#define PVT_CTL_BY_DAEMON 0 /* the session has live breakpoints, or a
			       stop was asked */
#define PVT_CTL_BY_TASK 1   /* the task is stepping */

typedef struct pvt_ctl {
	/* written once by the task before it names the page */
	uint32_t magic;            /* PVT_CTL_MAGIC */
	uint32_t version;          /* PVT_CTL_VERSION */
	uint32_t size;             /* PVT_CTL_SIZE */
	uint32_t pad0[5];
	/* both sides, one byte each (PVT_CTL_BY_*); probes read the word */
	union {
		volatile uint32_t word;
		volatile uint8_t b[4];
	} armed;
	/* written by the daemon */
	volatile uint32_t gen;     /* breakpoint table generation */
	volatile uint32_t stop;    /* stop requests so far */
	uint32_t pad1[5];
	/* written by the task */
	volatile uint32_t gen_read;  /* the table generation it holds */
	volatile uint32_t stop_seen; /* the stop requests it obeyed */
	volatile uint32_t attached;  /* written by the daemon: 1 mapped */
	uint32_t pad2[5];
} pvt_ctl;

#endif
