/*
 * con_ev.h — the console's event store: the canonical events every node
 * forwards (NODE_EVENTS), the string tables they refer to (EVENT_STRINGS)
 * and the losses the daemons report (EVENTS_LOST).
 *
 * A "source" is one process as a node sees it: (node name, the daemon's
 * process number).  Per source the store keeps the string table, the next
 * sequence number expected (an event whose seq is below it was stored
 * already: a batch the daemon re-sent to a console that reconnected, and
 * it is dropped as a duplicate), the counters of `stats`, the open START
 * (what `info procs` calls communicating or waiting) and the last source
 * location.  Events of every source go into one ring in arrival order,
 * numbered from 0 ("arrival numbers"); during a live run the ring grows
 * up to a maximum (CON_EV_MAX by default, `trace keep N`) and then
 * forgets the oldest events, counting them (con_ev_dropped: `stats`,
 * `trace show` and the analysis say how many).  A trace file read back
 * is stored whole (CON_EV_UNBOUNDED: the ring grows while memory lasts;
 * about CON_EV_REC_BYTES per event).  Counters are kept at arrival, so
 * they stay exact when the ring has forgotten events.
 *
 * This module never prints and knows nothing of sockets: the debugger
 * module (con_dbg_hook.c) hands it the decoded msgpack objects and
 * acknowledges the batches; the command layer (cmd_trace.c: trace;
 * cmd_stats.c: stats) reads it.  Formatting an event into a caller's
 * buffer is here so that live display, `trace show` and tests agree on
 * one line format.
 */
#ifndef PARAVT_CON_EV_H
#define PARAVT_CON_EV_H

#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

#include "con_node.h"
#include "wire_evsum.h"

#define CON_EV_MAX (1u << 20)   /* events a live console keeps by
				   default (trace keep N) */
#define CON_EV_UNBOUNDED SIZE_MAX /* con_ev_set_max: never forget */
#define CON_EV_FIELDS 15        /* fields of one canonical event */
#define CON_EV_FIELDS_MIN 13    /* fields of a protocol-1 event (no comm,
				   ref) */
#define CON_EV_STRS_MAX 65536   /* string ids accepted per source */
#define CON_EV_FILTER_PROCS 64  /* processes one filter can name */

/* One stored event (a canonical event and where it came from). */
typedef struct con_ev_rec {
	uint64_t seq;       /* event number in its process, from 0 */
	uint64_t t_ns;      /* node clock (CLOCK_MONOTONIC), ns */
	int64_t t_con_ns;   /* the same instant on the console's clock */
	uint64_t delta_ns;  /* Δ: time spent inside paravt so far */
	int64_t bytes;      /* message bytes, -1 unknown */
	uint32_t file;      /* string id of the source file, 0 unknown */
	uint32_t func;      /* string id of the function, 0 unknown */
	int32_t line;       /* source line, 0 unknown */
	int32_t peer;       /* tid/rank of the other side (actual source of
			       a receive); PROG_START: own tid/rank */
	int32_t tag;        /* message tag, -1 none */
	int32_t result;     /* END: the call's result */
	int32_t aux;        /* per kind (pvt_event.h) */
	uint32_t comm;      /* MPI communicator / PVM context (pvt_event.h) */
	uint32_t ref;       /* request / new communicator / PVM name id
			       (pvt_event.h), 0 none */
	uint16_t kind;      /* enum pvt_ev_kind */
	uint16_t op;        /* enum pvt_op */
	uint32_t src;       /* index of its source (con_ev_src_at) */
} con_ev_rec;

/* Counters of one source (or of all: con_ev_totals). */
typedef struct con_ev_stats {
	wire_evcnt n;        /* events stored (duplicates not counted), and
				of them completed sends, receives that got a
				message, their bytes, multicasts and group
				calls (wire_evsum.h) */
	uint64_t lost;       /* events the daemon reported lost */
	uint64_t waits;      /* times the task's ring was full and it
				waited for the daemon (EVENTS_WAITED) */
	uint64_t wait_us;    /* microseconds of those waits */
	uint64_t dups;       /* duplicates dropped (re-sent batches) */
} con_ev_stats;

/* What a process is doing, from its events (ParJava's monitor). */
enum con_ev_activity {
	CON_EV_COMPUTING,      /* not inside a communication call */
	CON_EV_COMMUNICATING,  /* inside a send or multicast */
	CON_EV_WAITING         /* inside a receive, probe or group call */
};

/* One source: a process on a node. */
typedef struct con_ev_src {
	char node[CON_NODE_NAME_MAX]; /* node name */
	uint32_t proc;       /* the daemon's process number */
	int pid_id;          /* the console's process number (pN) */
	char **strs;         /* string table by id; owned (entries may be
				NULL) */
	size_t nstrs;        /* entries in strs */
	uint64_t next_seq;   /* lowest seq not stored yet */
	wire_evstate state;  /* what its events say: tid, the call it is
				in, last location, start, end (wire_evsum.h) */
	con_ev_stats st;     /* counters */
} con_ev_src;

/* A display filter: empty sets match everything. */
typedef struct con_ev_filter {
	int procs[CON_EV_FILTER_PROCS]; /* pN numbers */
	int nprocs;                     /* entries in procs (0: all) */
	unsigned kinds;                 /* bit per enum con_ev_class (0: the
					   default classes) */
} con_ev_filter;

/* Classes of events, as `trace filter kind=` names them. */
enum con_ev_class {
	CON_EVC_START,    /* start: program start */
	CON_EVC_EXIT,     /* exit: program exit */
	CON_EVC_FUNC,     /* func: function entry and exit */
	CON_EVC_SEND,     /* send */
	CON_EVC_RECV,     /* recv (receives and probes) */
	CON_EVC_MCAST,    /* mcast: broadcast and multicast */
	CON_EVC_GROUP,    /* group: group and collective calls */
	CON_EVC_SPECIAL,  /* special: spawn, mytid, exit, ... */
	CON_EVC_BREAK,    /* break: stops at breakpoints */
	CON_EVC_CRASH,    /* crash */
	CON_EVC_COUNT
};

/* Forgets everything (events, sources, counters, the sink); keeps the
 * maximum. */
void con_ev_reset(void);

/* A taker of every stored event instead of the ring (a trace file read
 * straight into the analysis: con_ana_stream_begin).  Returns 0, or < 0
 * when out of memory (the batch then fails with WIRE_ENOMEM). */
typedef int (*con_ev_sink_fn)(const con_ev_rec *e, void *ctx);

/* Sends every event stored from now on to fn (NULL: to the ring again);
 * counters, sources and strings are kept as always, the ring stays
 * empty.  Until con_ev_reset. */
void con_ev_set_sink(con_ev_sink_fn fn, void *ctx);

/* First and last console time of the events ever stored (0, 0 when
 * none). */
void con_ev_span(int64_t *lo, int64_t *hi);

/* Sets how many events the ring keeps (at least 16; CON_EV_UNBOUNDED:
 * all).  A larger maximum lets a full ring grow again (nothing stored is
 * lost); a smaller one forgets the oldest events beyond it at once
 * (counted in con_ev_dropped). */
void con_ev_set_max(size_t max);

/* The ring's maximum (CON_EV_MAX until set). */
size_t con_ev_get_max(void);

/* Bytes the store takes per event (the analysis takes about as much
 * again while it runs). */
#define CON_EV_REC_BYTES sizeof(con_ev_rec)

/* Stores a NODE_EVENTS batch of source (node, proc), whose console
 * number is pid_id; offset_ns is the node's clock minus the console's.
 * events is a packed bin of canonical events (wire_evpk.h), or in older
 * trace files a bin of 72-byte records (wire_ev.h) or an array of
 * canonical events.  summary is the daemon's summary of a packed batch
 * (wire_evsum.h), or NULL: with one, the batch is stored undecoded and
 * decoded when events are read (see con_ev.c).  Duplicates (seq already
 * stored) are counted and dropped.  Returns the number of events stored,
 * or WIRE_EMALFORMED with a sentence in err (nothing of a malformed event
 * or later ones is stored; earlier ones are). */
int con_ev_add_batch(const char *node, uint32_t proc, int pid_id,
		     int64_t offset_ns, const msgpack_object *events,
		     const msgpack_object *summary, char *err, size_t errlen);

/* A note about a batch stored by its summary (NODE_EVENTS' fourth
 * field) and found malformed later, or a summary that could not be read
 * (its batch was decoded instead); NULL when there is none since the
 * last call. */
const char *con_ev_take_error(void);

/* Stores EVENT_STRINGS: strings (an array of str, checked by wire_unpack)
 * are the names of ids first, first+1, ...  0 or a code with err. */
int con_ev_strings(const char *node, uint32_t proc, int pid_id,
		   uint64_t first, const msgpack_object *strings, char *err,
		   size_t errlen);

/* Counts waits of (node, proc) for room in its ring, us microseconds
 * in all (EVENTS_WAITED). */
void con_ev_waited(const char *node, uint32_t proc, int pid_id,
		   uint64_t waits, uint64_t us);

/* Counts count events of (node, proc) as lost (EVENTS_LOST). */
void con_ev_lost(const char *node, uint32_t proc, int pid_id,
		 uint64_t count);

/* Arrival number the next event will get (= events ever stored). */
uint64_t con_ev_next(void);

/* Arrival number of the oldest event still stored. */
uint64_t con_ev_oldest(void);

/* Events forgotten because the ring was full. */
uint64_t con_ev_dropped(void);

/* Console time of the first event ever stored (the zero of relative
 * times), 0 if none. */
int64_t con_ev_t0(void);

/* Console time (wire_now_ns clock) the last batch or string table
 * arrived, 0 if none. */
uint64_t con_ev_last_arrival(void);

/* The event with arrival number num, or NULL if not stored (yet, or
 * any more).  Borrowed until the next event is stored. */
const con_ev_rec *con_ev_get(uint64_t num);

/* Number of sources, and source i (borrowed until con_ev_reset). */
size_t con_ev_nsrcs(void);
con_ev_src *con_ev_src_at(size_t i);

/* The source (node, proc), or NULL. */
con_ev_src *con_ev_src_find(const char *node, uint32_t proc);

/* Sums of the counters of every source into *t. */
void con_ev_totals(con_ev_stats *t);

/* The string id of source s ("?" when unknown; borrowed). */
const char *con_ev_str(const con_ev_src *s, uint32_t id);

/* What source s is doing now (enum con_ev_activity). */
int con_ev_activity(const con_ev_src *s);

/* Name of an activity: "computing", "communicating", "waiting". */
const char *con_ev_activity_name(int activity);

/* Name of an op ("pvm_send"; "-" when unknown; static). */
const char *con_ev_op_name(unsigned op);

/* The class of an event kind (enum con_ev_class), or -1. */
int con_ev_class_of(unsigned kind);

/* Parses "proc=p1,p3" / "kind=send,recv" words (argv[0..argc-1]) into
 * *f (cleared first).  0, or WIRE_EARG with err. */
int con_ev_filter_parse(int argc, char **argv, con_ev_filter *f, char *err,
			size_t errlen);

/* Writes f as the words that would parse back to it ("" when empty). */
void con_ev_filter_text(const con_ev_filter *f, char *buf, size_t n);

/* True if e passes f.  Without kinds in f, only what the display shows
 * by default passes: END events, start, exit, crash and breakpoints.
 * With every set (raw display) each record of a matching process and
 * class passes, the START half of every call included. */
int con_ev_match(const con_ev_filter *f, const con_ev_rec *e, int every);

/* Writes the display line of e (no newline) into buf:
 *   [p2 s390x] send   -> t4000a tag 7  320 B  pvm_master.c:57 main
 * With raw, every field with node times in ns.  Relative times count
 * from t0_con_ns (console clock).  Returns buf. */
char *con_ev_format(const con_ev_rec *e, int raw, int64_t t0_con_ns,
		    char *buf, size_t n);

#endif
