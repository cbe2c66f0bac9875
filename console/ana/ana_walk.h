/*
 * ana_walk.h — reading an analysed trace (ana.h) the way the exports and
 * reports need it: each process's events as properly nested calls (a
 * START or FN_ENTER opens, its END or FN_EXIT closes), the matched
 * send -> receive pairs of the whole trace (point-to-point and multicast
 * alike), and the names of ops and processes.  Used by the Chrome and
 * OTF2 exports (ana_out_chrome.c, ana_out_otf2.c); the HTML report may
 * use it too.
 *
 * (ana_walk_calls is not ana_pass.h's ana_walk, the passes' traversal in
 * message order.)
 *
 * Times handed to the callbacks are the view's times made nondecreasing
 * within the process (an event never goes before the previous one), so a
 * writer that requires ordered timestamps (OTF2) gets them.
 */
#ifndef PARAVT_ANA_WALK_H
#define PARAVT_ANA_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "ana.h"

/* One call of a process as the walker sees it. */
typedef struct ana_call {
	uint32_t proc;       /* process index */
	const ana_ev *s;     /* the START / FN_ENTER (the END itself when
				the START is missing) */
	const ana_ev *e;     /* the END / FN_EXIT, NULL while open (the call
				never ended: closed at the process's last
				time) */
	uint32_t s_idx;      /* index of s in the process's events */
	uint32_t e_idx;      /* index of e, ANA_NONE when e is NULL */
	int64_t ts, te;      /* start and end time (view, nondecreasing) */
	uint32_t depth;      /* calls open around it */
	const ana_ev *s2;    /* a call recorded in two halves (MPI_Sendrecv:
				SEND_START, RECV_START, SEND_END, RECV_END):
				the second half's START, else NULL */
	const ana_ev *half;  /* the END that came first of a two-halved
				call (its send END), else NULL; e is the
				other */
	uint32_t half_idx;   /* index of half */
	int64_t th;          /* time of half */
} ana_call;

/* What ana_walk_calls calls; any callback may be NULL.  A nonzero
 * return stops the walk and is returned by it. */
typedef struct ana_walk_ops {
	void *ctx;
	/* a call opens (ts valid, te and e not yet) */
	int (*enter)(void *ctx, const ana_call *c);
	/* it closes (every field valid); calls close innermost first */
	int (*leave)(void *ctx, const ana_call *c);
	/* an event that neither opens nor closes a call (PROG_START,
	 * PROG_EXIT, CRASH) at time t */
	int (*point)(void *ctx, uint32_t proc, uint32_t idx, const ana_ev *e,
		     int64_t t);
	/* a message END without START inside the open call c of the same
	 * op (the receive ENDs MPI_Wait / MPI_Waitall record for the
	 * requests they complete) at time t; c->te and c->e are not known
	 * yet.  When NULL, such an END is a call of zero length. */
	int (*inner)(void *ctx, const ana_call *c, uint32_t idx,
		     const ana_ev *e, int64_t t);
} ana_walk_ops;

/* Walks process proc of tr in the view's times.  An END whose START is
 * not the innermost open call closes the calls inside it first; an END
 * with no START at all is a call of zero length (the receive END that
 * MPI_Wait records for an MPI_Irecv, inside the wait).  A START of the
 * same op as the innermost open call, of another kind, is that call's
 * second half (MPI_Sendrecv): one call, two ENDs.  The RECV_START of an
 * MPI_Irecv (a post, whose END comes with the wait) is a call of zero
 * length.  0, ANA_ENOMEM, or what a callback returned. */
int ana_walk_calls(const ana_trace *tr, uint32_t proc, int view,
		   const ana_walk_ops *ops);

/* True when kind opens a call (a *_START kind or FN_ENTER). */
int ana_kind_opens(unsigned kind);

/* True when kind closes a call (a *_END kind or FN_EXIT). */
int ana_kind_closes(unsigned kind);

/* One matched message: the send (or multicast) END and the receive END
 * that got it. */
typedef struct ana_pair {
	ana_ref send;
	ana_ref recv;
} ana_pair;

/* The END a message was sent by: send itself, or for a pvm_mcast
 * destination (MCAST_DEST) the multicast's END it follows. */
ana_ref ana_msg_end(const ana_trace *tr, ana_ref send);

/* The matched pairs of tr (every receive END with a partner; the send is
 * ana_msg_end of its match), sorted by send then receive.  *out is the caller's to free (NULL when none).
 * 0 or ANA_ENOMEM. */
int ana_pairs(const ana_trace *tr, ana_pair **out, size_t *n);

/* Index of the first pair whose send is r (pairs as ana_pairs made
 * them), or n when there is none. */
size_t ana_pairs_find_send(const ana_pair *p, size_t n, ana_ref r);

/* Index of the pair of receive END r whose send is send, or n. */
size_t ana_pairs_find(const ana_pair *p, size_t n, ana_ref send,
		      ana_ref r);

/* Name of an op ("pvm_send", "MPI_Recv"; "-" when unknown). */
const char *ana_op_name(unsigned op);

/* True when op is an MPI call (else PVM or paravt's own). */
int ana_op_is_mpi(unsigned op);

/* "p3 t40003" (PVM tid, hex) or "p3 r1" (MPI rank) or "p3" (no tid
 * known) into buf.  Returns buf. */
char *ana_proc_label(const ana_trace *tr, uint32_t proc, char *buf,
		     size_t n);

/* True when process proc made MPI calls (its peers are ranks, not PVM
 * tids).  Reads its events until the first MPI call: callers that label
 * many events keep the answer. */
int ana_proc_is_mpi(const ana_trace *tr, uint32_t proc);

/* A peer as "r1" (mpi) or "t4000a" (PVM tid, hex), "-" for -1, into buf.
 * Returns buf. */
char *ana_peer_fmt(int mpi, int32_t peer, char *buf, size_t n);

/* A peer of an event of process proc as "t4000a" or "r1" ("-" for -1)
 * into buf (ana_peer_fmt with ana_proc_is_mpi).  Returns buf. */
char *ana_peer_label(const ana_trace *tr, uint32_t proc, int32_t peer,
		     char *buf, size_t n);

/* The smallest and largest view time of any event (0, 0 when none). */
void ana_time_span(const ana_trace *tr, int view, int64_t *first,
		   int64_t *last);

#endif
