/*
 * ana_hang.h — who waits for whom: the wait-for graph of a trace's last
 * state (a live run's events so far, or a trace that ended in a hang),
 * and deadlock detection.
 *
 * A process is blocked when its last event is the START of a receive,
 * probe or group call with no END and it has not ended (PROG_EXIT or
 * CRASH).  A receive from a tid waits for that process (AND); a wildcard
 * receive waits for any live process (OR); a group call waits for the
 * members that have not reached the same instance.  A set of blocked
 * processes none of which can be released by a process outside the set
 * (computing, or itself releasable) is deadlocked; the report names a
 * cycle inside it when there is one.
 */
#ifndef PARAVT_ANA_HANG_H
#define PARAVT_ANA_HANG_H

#include "ana.h"

enum ana_hang_state {
	ANA_HANG_RUNNING = 0, /* computing, or inside a send */
	ANA_HANG_BLOCKED,     /* inside a receive/probe/group call */
	ANA_HANG_ENDED        /* exited or crashed */
};

/* How a blocked process's waits combine (ana_hang_proc.join). */
enum ana_hang_join {
	ANA_HANG_ALL = 0, /* every awaited process must come (a receive
			     from a tid, a group call) */
	ANA_HANG_ANY,     /* one is enough (wildcard receive, MPI_Wait) */
	ANA_HANG_TIMED,   /* returns by itself (pvm_trecv with a timeout) */
	ANA_HANG_READY    /* a message it can take was sent and is not
			     received: it returns (its END has not come
			     yet, or is on its way) */
};

typedef struct ana_hang_proc {
	int state;          /* enum ana_hang_state */
	ana_ref at;         /* the open START when blocked */
	int32_t want_tid;   /* tid waited for, -1 any (wildcard/group) */
	int32_t want_tag;   /* tag waited for, -1 any */
	uint32_t *waits;    /* processes it waits for (indices) */
	uint32_t nwaits;
	int deadlocked;     /* member of a deadlocked set */
	int join;           /* enum ana_hang_join: how waits combine */
	int stuck;          /* blocked and nothing can release it (a
			       deadlock, or waiting for an exited task) */
} ana_hang_proc;

typedef struct ana_hang {
	uint32_t nprocs;
	ana_hang_proc *p;   /* [nprocs] */
	uint32_t nblocked, nended;
	int deadlock;       /* a deadlocked set exists */
	uint32_t *cycle;    /* one cycle of the wait-for graph inside it, in
			       order (p0 waits for p1 ...), or NULL */
	uint32_t ncycle;
} ana_hang;

/* Builds the graph of tr's last state (ana_match is run if needed). */
int ana_hang_compute(ana_trace *tr, ana_hang *h);
void ana_hang_free(ana_hang *h);

/* Writes the report into buf (lines ending in '\n'; truncated to n):
 *   deadlock: p1 and p2 wait for each other
 *     p1 (t40001) pvm_recv from p2 tag 1 at deadlock.c:21 in main
 *     ...
 * or "no process is blocked" / the blocked ones without a deadlock. */
void ana_hang_text(const ana_trace *tr, const ana_hang *h, char *buf,
		   size_t n);

#endif
