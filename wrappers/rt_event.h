/*
 * rt_event.h — the event buffer of the paravt runtime (rt_event.c): what
 * the PVM and MPI wrappers, the breakpoint template, the shadow stack and
 * the crash handler call to record events (pvt_event.h) and to have them
 * sent to the local paravtd.  Internal to the runtime: every name is
 * pvt__ev_*.
 *
 * A wrapper is one probe, ParaVT's template:
 *
 *     pvt__ev_probe pr;
 *     if (!pvt__ev_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_SEND,
 *                        file, func, line, tid, tag, -1, 0, 0, 0))
 *             return pvm_send(tid, tag);          (tracing off)
 *     ... (a receive may call pvt__ev_flush() here before it blocks)
 *     pvt__ev_call(&pr);                          (take time)
 *     rc = pvm_send(tid, tag);                    (the real call)
 *     pvt__ev_end(&pr, PVT_EV_SEND_END, tid, tag, bytes, rc, 0);
 *
 * A wrapper that reads the call's result before it can end the probe
 * (an MPI receive's status) calls pvt__ev_ret(&pr) right after the real
 * call: the end's time is then the call's return.
 *
 * Δ (interference, DESIGN.md "Time, compensation and order") grows by
 * half the calibrated cost of an empty probe at each record, the end's
 * half taking the odd ns, so that a probe adds the whole cost (and
 * reads the clock only for its two time stamps); with busy probes
 * (PARAVT_PROBE_BUSY_NS), and with timed probes (pvt__ev_begin_at: the
 * PVM wrappers of calls that name a group or mailbox), by the measured
 * time from the probe's start to pvt__ev_call plus the time from the
 * call's return to the end of pvt__ev_end, plus a constant calibrated at
 * start-up for what the probe cannot measure about itself.
 * A full shared ring adds the time waited for the daemon.  After a gap
 * of more than 200 us between two records the task reads how long it
 * waited for a CPU in it (Linux: one pread of its schedstat) and adds
 * the part of that the daemon found paravt's (rt_stall.h): the stall's
 * charge then lies where the stall was.
 *
 * Environment:
 *   PARAVT_TRACE=off|events|full   default events; full adds function
 *                                  entry/exit records
 *   PARAVT_PROBE_BUSY_NS=N         every record written busy-waits N ns
 *                                  (a call's probe writes two; the
 *                                  processor is offered to other tasks
 *                                  meanwhile), counted in Δ: deliberately
 *                                  heavy probes, for compensation tests
 *   PARAVT_RING=on|off             off: records go through the socket,
 *                                  not the shared-memory ring (rt_ring.h)
 *   PARAVT_RING_EVENTS=N           the ring's size in records, 64 to
 *                                  16777216 (16384)
 *   PARAVT_RING_FULL=wait|drop     a full ring makes the task wait for
 *                                  the daemon (default), or drops and
 *                                  counts records
 *   (a value of these three that makes no sense is said on stderr,
 *   with what is used instead)
 *   PARAVT_RING_MEMFS=DIR          the memory file system the ring is
 *                                  made in (DIR/paravt-<uid>; default
 *                                  /dev/shm), as the daemon's
 *                                  environment says (pvt_ring_memdir)
 *   PARAVT_SESSION=ID              without PARAVT_SOCK: connect to
 *                                  DIR/session-ID.sock as process 0, where
 *                                  DIR is PARAVT_SESSION_DIR or
 *                                  /tmp/paravtd-<uid> (the node's daemon
 *                                  creates both)
 */
#ifndef PARAVT_RT_EVENT_H
#define PARAVT_RT_EVENT_H

#include <stdint.h>

#include "pvt_event.h"

/* For the probes' quick paths (a traced call after a context switch
 * pays for each page and cache line it touches): a function kept out of
 * line among the rarely run code; one among the code every traced call
 * runs (GCC's .text.hot, which the linker keeps together, across
 * objects); a condition that is usually true (GCC, clang; elsewhere
 * nothing). */
#if defined(__GNUC__) || defined(__clang__)
#define PVT__EV_COLD __attribute__((noinline, cold))
#define PVT__EV_HOT __attribute__((hot))
#define PVT__EV_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define PVT__EV_COLD
#define PVT__EV_HOT
#define PVT__EV_LIKELY(x) (x)
#endif

/* Tracing modes (PARAVT_TRACE). */
enum pvt__ev_modes {
	PVT_TRACE_OFF = 0,    /* wrappers only call the real functions */
	PVT_TRACE_EVENTS = 1, /* communication and process events */
	PVT_TRACE_FULL = 2    /* and function entry/exit */
};

/* Records a probe has open between pvt__ev_begin and pvt__ev_end. */
typedef struct pvt__ev_probe {
	uint64_t t0;      /* entry to the probe */
	uint64_t t1;      /* just before the real call */
	uint64_t t2;      /* the real call's return (pvt__ev_ret), 0 not
	                     marked: the end's time */
	uint32_t file;    /* string id of the call's source file, 0 none */
	uint32_t func;    /* string id of the calling function, 0 none */
	int line;         /* line of the call */
	uint32_t comm;    /* communication context of both records */
	uint32_t ref;     /* request id of both records, 0 none */
	uint16_t op;      /* enum pvt_op */
	uint8_t timed;    /* measures its own spans (pvt__ev_begin_at, or
	                     busy probes) */
} pvt__ev_probe;

/* Statistics for the benchmark (pvt__ev_stats). */
typedef struct pvt__ev_stat {
	uint64_t records;    /* records written */
	uint64_t flushes;    /* EVENTS frames sent */
	uint64_t flush_ns;   /* total time inside flushes */
	uint64_t probe_c_ns; /* busy probes: calibrated constant per probe */
	uint64_t record_ns;  /* Δ per record: half an empty probe's cost */
	int ring;            /* records go into the shared ring */
	uint32_t ring_cap;   /* its size in records, 0 none */
	uint64_t ring_waits; /* times the ring was full and the task waited */
	uint64_t ring_wait_ns; /* time of those waits */
	uint64_t delta_ns;   /* Δ now */
	uint64_t stall_ns;   /* of it, the part of the task's waits for a
	                        CPU it found after long gaps that the daemon
	                        said was paravt's (rt_stall.h) */
	uint64_t stalls;     /* gaps that had such a part */
	int mode;            /* enum pvt__ev_modes in effect */
} pvt__ev_stat;

/* Nonzero in full mode once tracing has started: rt_stack.c tests it
 * before calling pvt__ev_fn, so that events mode costs one load per
 * function call.  Tracing starts at the first wrapper call (PVM or MPI):
 * until paravtd accepts EVENTS from every task, a plain instrumented
 * program sends none (its breakpoints and function calls are recorded
 * only after a wrapper started tracing). */
extern int pvt__ev_fnmode;

/* Reads the environment, attaches (para_vt_start, or the session socket)
 * and calibrates, once.  self, if not NULL, is called when attached and
 * gives the process's own PVM tid or MPI rank for the PROG_START record
 * (-1 otherwise).  Returns the mode in effect (PVT_TRACE_OFF when
 * unattached). */
int pvt__ev_init(int32_t (*self)(void));

/* Starts a probe: adds wrap ns to Δ (the wrapper's own work around the
 * call, as pvt__ev_wrap_cost timed it; 0 none) and records a start
 * event of this kind (t0 is its time).  comm and ref (pvt_event.h) go
 * into the start and the end record.  1 if tracing, 0 if off (then
 * nothing was recorded and the caller just calls the real function). */
int pvt__ev_begin_w(pvt__ev_probe *pr, uint64_t wrap, int kind, int op,
                    const char *file, const char *func, int line,
                    int32_t peer, int32_t tag, int64_t bytes, int32_t aux,
                    uint32_t comm, uint32_t ref);

/* pvt__ev_begin_w with no work of the wrapper's to count. */
static inline int pvt__ev_begin(pvt__ev_probe *pr, int kind, int op,
                                const char *file, const char *func, int line,
                                int32_t peer, int32_t tag, int64_t bytes,
                                int32_t aux, uint32_t comm, uint32_t ref)
{
	return pvt__ev_begin_w(pr, 0, kind, op, file, func, line, peer, tag,
	                       bytes, aux, comm, ref);
}

/* pvt__ev_begin for a probe that measures its own spans, as busy probes
 * do: from t0 (pvt__ev_now at the wrapper's entry, before its own work)
 * to pvt__ev_call, and from the real call's return (pvt__ev_ret, else
 * the end) to the end of pvt__ev_end, plus the calibrated part its clock
 * reads miss.  Two clock reads more than a probe that adds the
 * calibrated cost of an empty one: for wrappers of calls that take
 * microseconds (PVM's group and mailbox calls) whose own work around the
 * call varies from call to call (a name to intern, a group's members to
 * look up) and is then in Δ too.  A span longer than PVT_RING_STALL_NS
 * (the process was off its processor) adds the calibrated half
 * instead. */
int pvt__ev_begin_at(pvt__ev_probe *pr, uint64_t t0, int kind, int op,
                     const char *file, const char *func, int line,
                     int32_t peer, int32_t tag, int64_t bytes, int32_t aux,
                     uint32_t comm, uint32_t ref);

/* A wrapper library's own work outside its probes (looking up the
 * communicator, the message's size, the status), ns a call: how much
 * longer a call of wrapped (through the wrapper) takes than one of
 * plain (the same call unwrapped), timed in pairs, less an empty
 * probe's calibrated cost, with the records the wrapper writes kept out
 * of the trace.  0 when less, when tracing is off, without a ring, or
 * with busy probes (which measure their own spans).  Call it from one
 * thread, before pvt__ev_threads; wrapped must use no name not interned
 * yet (its records are not published, nor would the name be). */
uint64_t pvt__ev_wrap_cost(void (*wrapped)(void), void (*plain)(void));

/* How much longer a call of wrapped takes than one of plain when each
 * runs k times in a row, ns a call (less than 0 when shorter): the median
 * over blocks of k calls, the two kinds in turn, with the records the
 * wrapper writes (recs at most a call) kept out of the trace, the time
 * taken added to Δ.  In a row, as a program makes them: wrapped and
 * plain may be whole exchanges with another process, which must run
 * the same calls at the same time.  *spread: the quartiles' distance
 * over the blocks, ns a call.  0 and *spread -1 unless
 * pvt__ev_can_time(), or when k * recs records do not fit the room kept
 * for them (256 a block).  Same conditions of use as pvt__ev_wrap_cost. */
int64_t pvt__ev_run_cost(void (*wrapped)(void), void (*plain)(void), int k,
                         int recs, int64_t *spread);

/* An empty probe's calibrated cost (its two records), ns. */
uint64_t pvt__ev_probe_ns(void);

/* Whether pvt__ev_wrap_cost and pvt__ev_run_cost can time anything:
 * tracing on, into a ring, without busy probes. */
int pvt__ev_can_time(void);

/* The node's monotonic clock in ns (rt_clock.h). */
uint64_t pvt__ev_now(void);

/* Marks the moment just before the real call. */
static inline void pvt__ev_call(pvt__ev_probe *pr)
{
	if (pr->timed)
		pr->t1 = pvt__ev_now();
}

/* Marks the moment the real call returned as the end's time, for a
 * wrapper with work to do before pvt__ev_end (reading a status): that
 * work then comes after the end's time stamp, where the next call's
 * calibrated wrapper cost (pvt__ev_wrap_cost) takes it out, not between
 * a message's arrival and its receive's end. */
static inline void pvt__ev_ret(pvt__ev_probe *pr)
{
	pr->t2 = pvt__ev_now();
}

/* Ends a probe: records the end event with what the call did and adds
 * the probe's own time to Δ. */
void pvt__ev_end(pvt__ev_probe *pr, int kind, int32_t peer, int32_t tag,
		 int64_t bytes, int32_t result, int32_t aux);

/* Ends a probe without an end record (a post whose completion is
 * recorded later): only Δ grows. */
void pvt__ev_close(pvt__ev_probe *pr);

/* Records one event now, outside a probe (e.g. the completion of a
 * nonblocking receive found by a wait); its cost is added to Δ.  No-op
 * when tracing is off. */
void pvt__ev_mark(int kind, int op, int32_t peer, int32_t tag, int64_t bytes,
		  int32_t result, int32_t aux, uint32_t comm, uint32_t ref);

/* Records one more event now inside the call of probe pr (started, not
 * ended), with its op, call site, comm and ref: the receive's START of
 * a send-receive.  Its cost is added to Δ; no-op when tracing is off. */
void pvt__ev_mark_in(const pvt__ev_probe *pr, int kind, int32_t peer,
                     int32_t tag, int64_t bytes);

/* The string id of the name s, interned by its content (a copy is kept,
 * so s may be a buffer the program reuses): for names that are data, not
 * literals, such as PVM group and mailbox names.  0 for NULL, or when
 * the name cannot be kept (out of memory, or the id table is full). */
uint32_t pvt__ev_strid(const char *s);

/* 1 if records are waiting to be sent. */
int pvt__ev_pending(void);

/* Sends the buffered records (EVENT_STRINGS first if new names are
 * used).  0, or an error after which the runtime has detached. */
int pvt__ev_flush(void);

/* Several threads may record at once from now on (on = 1: MPI gave
 * MPI_THREAD_MULTIPLE): every record is written under a lock.  Δ stays
 * one per process. */
void pvt__ev_threads(int on);

/* Function entry/exit hook of the shadow stack (full mode only). */
void pvt__ev_fn(int kind, const char *func, const char *file, int line);

/* Breakpoint hooks of para_vt_break: BREAK_START (and a flush) when the
 * task stops, BREAK_END when it resumes; the stop is added to Δ. */
void pvt__ev_break_begin(uint32_t bp, const char *file, const char *func,
			 int line);
void pvt__ev_break_end(void);

/* Exit hook of para_vt_exit: records PROG_EXIT and flushes. */
void pvt__ev_exit(int status);

/* Crash hook of the crash handler: records CRASH and writes the buffered
 * strings and records straight to the socket.  Async-signal-safe. */
void pvt__ev_crash(int sig);

/* Current statistics (for bench_events). */
void pvt__ev_stats(pvt__ev_stat *st);

#endif
