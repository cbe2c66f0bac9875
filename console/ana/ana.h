/*
 * ana.h — paravt's analysis of a recorded run (libpvtana.a, C11, no
 * dependencies but libc): the in-memory trace model every analysis,
 * export and report reads, and the passes that turn measured events into
 * one consistent global order (issue 5):
 *
 *   1. clock:  each node's clock model (offset and drift against the
 *              console, from PING/PONG samples) maps node time to console
 *              time: ev.t_ns ("measured").
 *   2. match:  sends and receives are paired per channel (source,
 *              destination, tag) in FIFO order, wildcard receives by the
 *              source they actually got; multicasts feed every receiver;
 *              group calls (barrier, reduce, ...) are matched as instances
 *              (the k-th call of an op in each process is instance k).
 *   3. compensate: local compensation LT = CT - Δ (ParJava 3.4), then
 *              compensation across messages (Malony/Shende): a receive
 *              cannot end before its send's compensated START plus the
 *              minimum latency; a receive that waited has its wait
 *              recomputed from the compensated send: ev.c_ns.
 *   4. order:  the controlled logical clock (Becker, Rabenseifner, Wolf)
 *              repairs clock-condition violations of the measured times
 *              (forward pass, then backward amortization): ev.o_ns.
 *
 * Views: ANA_VIEW_COMP (c_ns, the default everywhere), ANA_VIEW_ORDER
 * (o_ns: measured, repaired) and ANA_VIEW_RAW (t_ns as measured, which may
 * show a receive before its send).
 *
 * Storage: events are kept per process, in seq order (ana_proc.ev); an
 * event is named by an ana_ref (process index, event index).  Strings
 * (file and function names) are interned trace-wide; id 0 is "?".
 *
 * Nothing here prints or does I/O.  Functions return 0 or a negative
 * ANA_E* code; none keeps a pointer to caller memory.
 */
#ifndef PARAVT_ANA_H
#define PARAVT_ANA_H

#include <stddef.h>
#include <stdint.h>

#define ANA_ENOMEM (-1)  /* out of memory */
#define ANA_EARG (-2)    /* bad argument (unknown process, ...) */
#define ANA_ESTATE (-3)  /* pass run out of order */

#define ANA_NAME_MAX 32   /* node names, process names ("p12") */
#define ANA_NONE UINT32_MAX

/* Event flags (ana_ev.flags). */
#define ANA_F_WILDCARD 0x01u /* receive END whose START asked for any
				source (peer -1) */
#define ANA_F_UNMATCHED 0x02u /* send or receive END with no partner */
#define ANA_F_MOVED 0x04u    /* cross-message compensation moved this
				receive END (it waited for the send) */
#define ANA_F_REPAIRED 0x08u /* the controlled logical clock moved this
				event (o_ns != t_ns) */
#define ANA_F_DIVERGED 0x10u /* wildcard receive: without paravt another
				message would have come first (ParJava
				figure 2) */
#define ANA_F_OPEN 0x20u     /* START without its END (the process
				is still inside the call, or died there) */

/* A reference to one event: process index and index in its events. */
typedef struct ana_ref {
	uint32_t proc;
	uint32_t idx;
} ana_ref;

/* One event (a canonical event, pvt_event.h kinds and ops). */
typedef struct ana_ev {
	int64_t t_ns;     /* measured, console clock (clock model applied) */
	int64_t delta_ns; /* Δ up to this event, as recorded */
	int64_t c_ns;     /* compensated time (ana_compensate) */
	int64_t o_ns;     /* measured time repaired (ana_order) */
	int64_t bytes;    /* message bytes, -1 unknown */
	uint64_t seq;     /* event number in its process */
	uint32_t file;    /* trace-wide string id, 0 unknown */
	uint32_t func;    /* trace-wide string id, 0 unknown */
	int32_t line;     /* source line, 0 unknown */
	int32_t peer;     /* pvt_event.h: destination / actual source / root;
			     PROG_START: own tid or rank */
	int32_t tag;      /* tag, -1 none */
	int32_t result;   /* END: the call's result */
	int32_t aux;      /* pvt_event.h */
	uint32_t comm;    /* MPI communicator id / PVM message context */
	uint32_t ref;     /* MPI request or new communicator id; PVM:
			     trace-wide string id of a group or mailbox
			     name (pvt_event.h); 0 none */
	uint16_t kind;    /* enum pvt_ev_kind */
	uint16_t op;      /* enum pvt_op */
	uint32_t flags;   /* ANA_F_* */
	ana_ref match;    /* SEND/MCAST END <-> RECV END partner (for a
			     multicast END: its first receiver); GROUP END:
			     the next member's END of the same instance
			     (a ring); proc == ANA_NONE when none */
} ana_ev;

/* A node's clock against the console's: console = node - offset(node),
 * offset(t) = offset_ns + drift * (t - ref_ns). */
typedef struct ana_clock {
	int valid;        /* a model exists (else identity) */
	int64_t ref_ns;   /* node time the offset is given at */
	int64_t offset_ns;/* node clock minus console clock at ref_ns */
	double drift;     /* d(offset)/d(node time), e.g. 2e-6 = 2 ppm */
	int64_t err_ns;   /* bound on the error of the offset (half the
			     largest round trip among the samples kept) */
	uint32_t nsamples;/* samples the model was fitted from */
	int drift_fitted; /* drift was fitted (else 0: the kept samples
			     span too little time for it, span_ns) */
	int64_t span_ns;  /* node time between the first and the last
			     sample kept */
} ana_clock;

/* One PING/PONG exchange (console times t0 sent, t3 received; daemon
 * times t1 received, t2 answered), all monotonic ns. */
typedef struct ana_clock_sample {
	int64_t t0, t1, t2, t3;
} ana_clock_sample;

#define ANA_CLOCK_DRIFT_SPAN_NS 5000000000LL /* least span to fit a drift */
#define ANA_CLOCK_DRIFT_UNC 50e-6 /* largest drift error (2 err / span)
				     a fitted drift may have */

/* The path between the console and a node as paravt measured it when
 * the node was added (LINK_PROBE): the best PING round trip and the
 * rate of a large transfer each way. */
typedef struct ana_link {
	int valid;               /* measured */
	int64_t rtt_ns;          /* round trip of a small message, ns */
	double up_bps;           /* console to node, bytes/s */
	double down_bps;         /* node to console, bytes/s */
	uint64_t up_bytes;       /* the transfers' sizes the rates are of */
	uint64_t down_bytes;
} ana_link;

typedef struct ana_node {
	char name[ANA_NAME_MAX]; /* node name */
	char arch[64];           /* port / ABI description, "" unknown */
	ana_clock clock;         /* its clock model */
	ana_link link;           /* the path to it, valid 0 unknown */
} ana_node;

typedef struct ana_proc {
	char name[ANA_NAME_MAX]; /* console's name, "p3" */
	uint32_t node;           /* index into the node table */
	int have_tid;            /* tid known (PROG_START) */
	int32_t tid;             /* PVM tid or MPI rank */
	ana_ev *ev;              /* its events in seq order (owned) */
	uint32_t nev, cap;       /* events, allocated */
	uint64_t lost;           /* events the daemon reported lost */
} ana_proc;

/* Options of the passes (ana_opts_default fills sane values). */
typedef struct ana_opts {
	int64_t l_min_ns;   /* minimum message latency; < 0: estimate from
			       the run (smallest receive-end minus send-start
			       of matched pairs in measured time, at least 0) */
	int64_t delta_min_ns; /* δ: least distance between consecutive
			       events of a process in the repaired order (1) */
	int amortize;       /* backward amortization on (1) */
} ana_opts;

/* What the passes found (ana_trace.sum). */
typedef struct ana_summary {
	uint64_t events;       /* events in the trace */
	uint64_t pairs;        /* matched point-to-point pairs */
	uint64_t mcast_pairs;  /* receives matched to a multicast */
	uint64_t unmatched_sends, unmatched_recvs;
	uint64_t groups;       /* group-call instances matched */
	uint64_t violations;   /* receive END before its send's START in
				  measured times */
	uint64_t repairs;      /* events the logical clock moved */
	uint64_t moved;        /* receives moved by compensation */
	uint64_t diverged;     /* wildcard receives that took another path */
	int64_t l_min_ns;      /* latency used */
	int64_t l_group_ns;    /* group calls' latency used: the smallest
				  time from the last START a member waits
				  for to its END (>= 0) */
	int64_t max_repair_ns; /* largest move of the logical clock */
} ana_summary;

typedef struct ana_trace {
	ana_node *nodes; uint32_t nnodes, nodes_cap;
	ana_proc *procs; uint32_t nprocs, procs_cap;
	char **strs; uint32_t nstrs, strs_cap; /* strs[0] = "?" */
	void *str_index;        /* intern hash (private) */
	ana_ref *order;         /* every event in the global order of the
				   view last passed to ana_sort, or NULL */
	uint64_t norder;
	int order_view;         /* view of order, -1 none */
	int stage;              /* passes done: 0, 1 matched, 2 compensated,
				   3 ordered */
	ana_summary sum;
	void *tid_index;        /* tid -> process (private) */
	uint64_t tid_gen;       /* bumped when a tid changes (private) */
} ana_trace;

enum ana_view { ANA_VIEW_COMP = 0, ANA_VIEW_ORDER = 1, ANA_VIEW_RAW = 2 };

/* ---- building (ana_trace.c) ---- */

/* A new empty trace (strs[0] = "?"), or NULL. */
ana_trace *ana_new(void);
void ana_free(ana_trace *tr);

/* Interns s (NULL or "" give 0); returns its id or ANA_NONE on ENOMEM. */
uint32_t ana_intern(ana_trace *tr, const char *s);
/* The string of id ("?" when out of range). */
const char *ana_str(const ana_trace *tr, uint32_t id);

/* Adds a node / a process; returns its index or a negative code. */
int ana_add_node(ana_trace *tr, const char *name, const char *arch,
		 const ana_clock *clock);
int ana_add_proc(ana_trace *tr, const char *name, uint32_t node);

/* Appends e to process proc (events must come in seq order; t_ns is
 * already on the console clock).  c_ns, o_ns, flags and match are reset.
 * If e is PROG_START its peer becomes the process's tid.  0 or code. */
int ana_add_event(ana_trace *tr, uint32_t proc, const ana_ev *e);

/* The event r names, or NULL. */
ana_ev *ana_get(const ana_trace *tr, ana_ref r);

/* The process whose tid (or rank) is tid, or ANA_NONE. */
uint32_t ana_proc_by_tid(const ana_trace *tr, int32_t tid);

/* ---- clock (ana_clock.c) ---- */

/* Fits a model to n samples: within each time window the sample with the
 * smallest round trip is kept (and a window whose best round trip is far
 * above the best of all is dropped: a busy node's answer says little),
 * the offset is a least-squares line through those (Score-P interpolates
 * between start and end samples; this is the same with more points).
 * The drift is fitted only when the kept samples span at least
 * ANA_CLOCK_DRIFT_SPAN_NS and their error bound allows a drift within
 * ANA_CLOCK_DRIFT_UNC; else it is 0 (drift_fitted 0) and the offset is
 * that of the sample with the smallest round trip.  err_ns is half the
 * largest round trip among the samples the model uses.  0, or ANA_EARG
 * if n==0. */
int ana_clock_fit(const ana_clock_sample *s, size_t n, ana_clock *out);

/* Node time t (ns) on the console clock under c (identity if !valid). */
int64_t ana_clock_to_console(const ana_clock *c, int64_t t_node);

/* ---- passes ---- */

void ana_opts_default(ana_opts *o);

/* Matching (ana_match.c): fills match and flags (WILDCARD, UNMATCHED,
 * OPEN), sum.pairs etc.  Idempotent. */
int ana_match(ana_trace *tr);

/* Compensation (ana_comp.c): c_ns of every event, MOVED and DIVERGED
 * flags, sum.moved/diverged/l_min_ns.  Runs ana_match first if needed. */
int ana_compensate(ana_trace *tr, const ana_opts *o);

/* Order (ana_order.c): o_ns by the controlled logical clock, REPAIRED
 * flags, sum.violations/repairs/max_repair_ns.  Runs earlier passes if
 * needed. */
int ana_order(ana_trace *tr, const ana_opts *o);

/* All three passes (o may be NULL for defaults). */
int ana_analyze(ana_trace *tr, const ana_opts *o);

/* Fills tr->order with every event sorted by the view's time (ties: a
 * send before its receive, then process index, then seq).  0 or code. */
int ana_sort(ana_trace *tr, int view);

/* The time of e in a view. */
int64_t ana_time(const ana_ev *e, int view);

/* Number of receive ENDs in tr->order (of the last ana_sort) that come
 * before their send's START (0 in a consistent order; a receive may come
 * before its send call's END). */
uint64_t ana_count_inversions(const ana_trace *tr);

#endif
