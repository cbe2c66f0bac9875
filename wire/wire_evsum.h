/*
 * wire_evsum.h — what a process's events say about it, folded one event
 * at a time: counters (sends, receives, their bytes, group calls) and
 * its state (tid or rank, the call it is inside, its last source
 * location, start and end, its wait for a CPU).
 *
 * The console keeps both per process (`stats`, `info procs`, the hang
 * watchdog, the ranks of an MPI run).  A daemon folds the same events as
 * it packs them and sends, with each NODE_EVENTS batch, a summary: the
 * batch's first seq, the batch's counters and the process's state after
 * it.  A console that only captures (`paravt trace`) then takes the
 * summary and writes the packed batch to its file without decoding it;
 * the one function here keeps what both sides compute the same.
 *
 * Summary on the wire (NODE_EVENTS' optional fourth field): an array of
 * WIRE_EVSUM_FIELDS unsigned or signed integers
 *   [first, events, sends, recvs, bytes_out, bytes_in, colls,
 *    have_tid, tid, open_kind, file, func, line, ended, mpi, prog,
 *    t_start_ns, cpu_wait_ns, run_ns, share_ns]
 * (a reader takes the first WIRE_EVSUM_MIN as they are and the others
 * when they are there: share_ns is -1 without it).
 */
#ifndef PARAVT_WIRE_EVSUM_H
#define PARAVT_WIRE_EVSUM_H

#include <msgpack.h>
#include <stdint.h>

#include "wire_ev.h"

#define WIRE_EVSUM_FIELDS 20
#define WIRE_EVSUM_MIN 19 /* the fields every summary has */

/* Counters of a run of events. */
typedef struct wire_evcnt {
	uint64_t events;     /* events */
	uint64_t sends;      /* completed sends (SEND_END, each multicast
				destination) */
	uint64_t recvs;      /* completed receives that got a message */
	uint64_t bytes_out;  /* bytes of those sends */
	uint64_t bytes_in;   /* bytes of those receives */
	uint64_t colls;      /* completed multicasts and group calls */
} wire_evcnt;

/* A process's state after its events so far. */
typedef struct wire_evstate {
	int have_tid;        /* tid below is known */
	int32_t tid;         /* PVM tid or MPI rank */
	int open_kind;       /* kind of a START without its END, or 0 */
	uint32_t file, func; /* last location: string ids */
	int32_t line;        /* last location: line (0: none yet) */
	int ended;           /* PROG_EXIT or CRASH seen */
	int mpi;             /* it made MPI calls: tid is an MPI rank */
	uint32_t prog;       /* string id of its program (PROG_START), 0 */
	uint64_t t_start_ns; /* PROG_START's node time */
	int64_t cpu_wait_ns; /* PROG_EXIT: its main thread's wait for a CPU
				(pvt_event.h) since PROG_START (where that
				says, wait_start_ns), -1 unknown */
	uint64_t run_ns;     /* PROG_START to that PROG_EXIT, node time */
	int64_t share_ns;    /* PROG_EXIT: of that wait, what its daemon
				charged to paravt (tag, us), -1 unknown */
	int64_t wait_start_ns; /* PROG_START: its wait for a CPU before it,
				-1 unknown (not in the summary) */
} wire_evstate;

/* The state before any event. */
void wire_evstate_init(wire_evstate *s);

/* Folds event e into c and s. */
void wire_evsum_add(wire_evcnt *c, wire_evstate *s, const wire_ev *e);

/* Adds the counters b to a. */
void wire_evcnt_add(wire_evcnt *a, const wire_evcnt *b);

/* Packs the summary of a batch whose first event is number first.  0 or
 * -1 (the packer's write failed). */
int wire_evsum_pack(msgpack_packer *pk, uint64_t first, const wire_evcnt *c,
		    const wire_evstate *s);

/* Reads a summary o of a batch of n events (as wire_evsum_pack wrote
 * it, every field in its range, events equal to n).  0, or -1 with a
 * sentence in err. */
int wire_evsum_unpack(const msgpack_object *o, uint64_t n, uint64_t *first,
		      wire_evcnt *c, wire_evstate *s, char *err,
		      size_t errlen);

#endif
