/*
 * rt_event.c — the event buffer: records, string ids, Δ, and how records
 * reach the daemon (rt_event.h, record layout in pvt_event.h).
 *
 * Records go into the shared-memory ring the process makes at start-up
 * and names to its daemon (rt_ring.h, pvt_ring.h), when the daemon can
 * take one ("ring1" in its HELLO): writing a record reads the clock
 * (rt_clock.h: the time-stamp counter scaled to CLOCK_MONOTONIC, or
 * clock_gettime) and stores into the next slot —
 * no allocation, no lock, no system call, also not before the task
 * blocks: the daemon drains the ring on its own schedule and whenever it
 * needs the newest events.  Without a ring (an older daemon, a session
 * directory that refuses the file) records go into a static array of
 * PVT_EV_BUF that is sent as one EVENTS frame (after an EVENT_STRINGS
 * frame with the names interned since the last one) when it is full,
 * when PVT_EV_FLUSH_NS passed since the last flush, when a wrapper is
 * about to block (pvt__ev_flush), at a breakpoint, at exit, and from the
 * crash handler (pvt__ev_crash, which writes with send() only).
 *
 * File and function names come from __FILE__ / __func__ or generated
 * literals, so they are interned by pointer, once, in a table that grows;
 * a new name goes into the ring's name area (or the next EVENT_STRINGS)
 * before the record that uses it.
 *
 * Δ: each record adds half the calibrated cost of a probe (an empty
 * begin/end pair timed at initialisation), so a probe reads the clock
 * only for its two time stamps; breakpoints add the time stopped, a full
 * ring the time waited for the daemon, and a wrapper library its own
 * work outside the probes, timed the same way (pvt__ev_wrap_cost).
 * PARAVT_PROBE_BUSY_NS=N makes
 * every record written busy-wait N ns after its time stamp (deliberately
 * heavy probes, to test compensation); then every probe measures its own
 * spans with two more clock reads, so the wait is in Δ like the rest of
 * paravt's own time.  The loop yields the processor (ev_spin): a probe
 * that kept another task off a processor would cost that task time no Δ
 * records.
 *
 * One thread records at a time: the records of a program that runs MPI
 * calls on several threads at once (pvt__ev_threads) are written under a
 * lock; the rest of the runtime is single-threaded.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "paravt_rt.h"
#include "rt_core.h"
#include "rt_clock.h"
#include "rt_event.h"
#include "rt_ring.h"
#include "rt_stall.h"
#include "wire_fmt.h"
#include "wire_msg.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

/* Keeps a function out of line, and starts the state at a cache line
 * (GCC, clang; elsewhere nothing). */
#if defined(__GNUC__) || defined(__clang__)
#define EV_NOINLINE __attribute__((noinline))
#define EV_LINE_ALIGNED __attribute__((aligned(64))) /* a cache line */
#else
#define EV_NOINLINE
#define EV_LINE_ALIGNED
#endif

#define PVT_EV_BUF 4096                    /* records per buffer */
#define PVT_EV_FLUSH_NS (100ull * 1000000) /* timer: 100 ms */
#define PVT_EV_STRS 256                    /* intern table's first size */
#define EV_NEAR_BITS 3                     /* names at hand: 8 */
#define EV_NEAR (1u << EV_NEAR_BITS)
#define PVT_EV_CALIB 1001                  /* calibration probes */
#define PVT_EV_CALIB_ROUNDS 5              /* ... times (probes: the least
					      kept; wrappers: the median) */
#define PVT_EV_RUN_BLOCKS 51               /* pvt__ev_run_cost's blocks */
#define PVT_EV_STRMAX 400                  /* name bytes on the crash path */

/* A name a probe used lately and its id (ev.near). */
typedef struct ev_near_slot {
	const void *key; /* the name's pointer, NULL none */
	uint32_t id;
} ev_near_slot;

/* The state of the event buffer: what every record reads and writes
 * first, together (a traced call after a context switch pays for each
 * cache line and page it touches), the rest after it. */
static struct {
	int quick;                      /* fast, tracing on, one recording
					   thread: a probe may take the quick
					   path (ev_fast_set) */
	int fast;                       /* records go straight into the
					   ring: a ring, not calibrating, no
					   busy probes (ev_fast_set) */
	int mode;                       /* enum pvt__ev_modes */
	int inited;                     /* pvt__ev_init ran */
	uint64_t seq;                   /* number of the next record */
	uint64_t last_t;                /* the last record's stamp */
	uint64_t delta;                 /* Δ so far, ns */
	uint64_t half;                  /* half the calibrated cost of a
					   probe: Δ per record, ns */
	uint64_t half_end;              /* the other half (an odd cost's
					   extra ns): Δ of a probe's end */
	uint64_t records;               /* statistics: records written */
	pvt__ring ring;                 /* the shared ring (ring.h NULL:
					   none, records go to buf) */
	ev_near_slot near[EV_NEAR];     /* names at hand (ev_near_id) */
	int calibrating;                /* records are not kept */
	uint64_t busy;                  /* PARAVT_PROBE_BUSY_NS */
	uint64_t probe_c;               /* measured mode: calibrated
					   constant per probe, ns */
	uint32_t n;                     /* records used in buf */
	uint64_t last_flush;            /* time of the last flush */
	uint64_t brk_t;                 /* breakpoint start, 0 if none */
	int in_flush;                   /* a flush is running */
	int in_crash;                   /* the crash handler runs */
	const void **key;               /* intern table: pointers */
	uint32_t *id;                   /* their ids */
	uint32_t cap;                   /* slots (a power of two) */
	const char **str;               /* names by id (str[0] unused) */
	uint32_t str_cap;               /* entries of str */
	uint32_t nstr;                  /* ids handed out (last id) */
	uint32_t sent;                  /* ids sent to the daemon */
	uint64_t flushes, flush_ns;     /* statistics */
	uint64_t ring_waits, ring_wait_ns;   /* full ring: waits, their time */
	pvt__stall stall;               /* the recording thread's wait for
					   a CPU (ev_stall) */
	uint64_t stall_ns, stalls;      /* paravt's part of it put into Δ,
					   and the gaps it came from */
	int stall_on;                   /* the daemon told a fraction at
					   the last reading (else the next
					   one only takes the base) */
	pvt_event buf[PVT_EV_BUF];      /* records not sent yet (no ring) */
} ev EV_LINE_ALIGNED = {.mode = PVT_TRACE_EVENTS, .stall = PVT__STALL_NONE};

int pvt__ev_fnmode = 0;

/* Taken around every change of ev once pvt__ev_threads(1) was called
 * (MPI_THREAD_MULTIPLE); free otherwise. */
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static int ev_mt;

#define EV_LOCK()                                                           \
	do {                                                                \
		if (ev_mt)                                                  \
			(void)pthread_mutex_lock(&ev_lock);                 \
	} while (0)
#define EV_UNLOCK()                                                         \
	do {                                                                \
		if (ev_mt)                                                  \
			(void)pthread_mutex_unlock(&ev_lock);               \
	} while (0)

/* Sets ev.fast: whether a record needs nothing but its slot in the
 * ring (ev_put's first branch); and ev.quick: whether a probe may also
 * skip the lock and the checks of tracing's start (pvt__ev_begin_w,
 * pvt__ev_end).  Called whenever one of their conditions changes. */
static void ev_fast_set(void)
{
	ev.fast = ev.ring.h != NULL && !ev.calibrating && !ev.busy;
	ev.quick = ev.fast && ev.inited && ev.mode != PVT_TRACE_OFF && !ev_mt;
}

/* See rt_event.h. */
void pvt__ev_threads(int on)
{
	ev_mt = on != 0;
	if (ev_mt)
		pvt__clk_off(); /* its anchors are not for threads at once */
	ev_fast_set();
}

/* See rt_event.h. */
PVT__EV_HOT
uint64_t pvt__ev_now(void)
{
	return pvt__clk_now();
}

/* The slot of pointer s in the intern table (its own, or the empty one
 * where it goes). */
static inline uint32_t ev_slot(const void *s)
{
	uint32_t i = (uint32_t)(((uintptr_t)s >> 3) * 2654435761u);

	for (i &= ev.cap - 1; ev.key[i] != NULL && ev.key[i] != s;
	     i = (i + 1) & (ev.cap - 1))
		;
	return i;
}

/* Makes room for one more name: the table at most half full, str one
 * more entry.  0 or -1 (out of memory). */
static int ev_intern_grow(void)
{
	const void **key = ev.key, **k2;
	uint32_t *id = ev.id, cap = ev.cap, i, j;
	const char **str;

	if (ev.nstr + 2 > ev.str_cap) {
		j = ev.str_cap ? ev.str_cap * 2 : PVT_EV_STRS;
		if ((str = realloc((void *)ev.str, j * sizeof *str)) == NULL)
			return -1;
		ev.str = str;
		ev.str_cap = j;
	}
	if ((ev.nstr + 1) * 2 <= cap)
		return 0;
	j = cap ? cap * 2 : PVT_EV_STRS;
	k2 = calloc(j, sizeof *k2);
	ev.id = calloc(j, sizeof *ev.id);
	if (k2 == NULL || ev.id == NULL) {
		free((void *)k2);
		free(ev.id);
		ev.id = id;
		return -1;
	}
	ev.key = k2;
	ev.cap = j;
	for (i = 0; i < cap; i++)
		if (key[i] != NULL) {
			j = ev_slot(key[i]);
			ev.key[j] = key[i];
			ev.id[j] = id[i];
		}
	free((void *)key);
	free(id);
	return 0;
}

/* Interns a name not seen before (a new name also goes into the ring's
 * name area); its id, or 0 (out of memory, or in the crash handler). */
static uint32_t ev_intern_new(const char *s)
{
	uint32_t i;

	if (ev.in_crash || ev_intern_grow() != 0)
		return 0;
	i = ev_slot(s);
	ev.key[i] = s;
	ev.id[i] = ++ev.nstr;
	ev.str[ev.nstr] = s;
	if (ev.ring.h != NULL)
		(void)pvt__ring_name(&ev.ring, ev.nstr, s); /* counts a loss */
	return ev.nstr;
}

/* The id of a name, interning it on first use; 0 for NULL. */
static inline uint32_t ev_intern(const char *s)
{
	uint32_t i;

	if (s == NULL)
		return 0;
	if (ev.cap != 0 && ev.key[i = ev_slot(s)] == s)
		return ev.id[i];
	return ev_intern_new(s);
}

/* The slot of ev.near that name s may be kept in. */
#define EV_NEAR_AT(s)                                                     \
	((uint32_t)((uintptr_t)(s) * 2654435761u) >> (32 - EV_NEAR_BITS))

/* Whether name s is at hand (ev.near; NULL always is, as id 0): then
 * *id is its id.  A probe's file and function, the same call sites
 * again and again, cost a comparison each, not a hash. */
static inline int ev_near_id(const char *s, uint32_t *id)
{
	const ev_near_slot *n = &ev.near[EV_NEAR_AT(s)];

	*id = n->id;
	return n->key == (const void *)s || s == NULL;
}

/* The id of a name (interned on first use), kept at hand; 0 for NULL. */
static uint32_t ev_intern_near(const char *s)
{
	ev_near_slot *n;
	uint32_t id;

	if (s == NULL)
		return 0;
	if (ev_near_id(s, &id))
		return id;
	id = ev_intern(s);
	if (id != 0) {
		n = &ev.near[EV_NEAR_AT(s)];
		n->key = s;
		n->id = id;
	}
	return id;
}

/* A name kept by content (pvt__ev_strid). */
typedef struct ev_name {
	struct ev_name *next;
	char s[];
} ev_name;

static ev_name *ev_names; /* every name kept, newest first */

/* See rt_event.h. */
uint32_t pvt__ev_strid(const char *s)
{
	ev_name *n;
	size_t len;

	if (s == NULL)
		return 0;
	for (n = ev_names; n != NULL; n = n->next)
		if (strcmp(n->s, s) == 0)
			return ev_intern(n->s);
	len = strlen(s);
	if ((n = malloc(sizeof *n + len + 1)) == NULL)
		return 0;
	memcpy(n->s, s, len + 1);
	n->next = ev_names;
	ev_names = n;
	return ev_intern(n->s);
}

/* Busy-waits until ev.busy ns have passed since t, offering the
 * processor to any other runnable task meanwhile: the probe costs its
 * time without keeping a task that woke up (another process of the
 * program, its pvmd) off a processor, which would cost more than Δ
 * records, and outside the probe. */
static void ev_spin(uint64_t t)
{
	while (pvt__ev_now() - t < ev.busy)
		(void)sched_yield();
}

static int ev_flush(void);

/* Fills record e. */
static inline void ev_fill(pvt_event *e, uint64_t t, int kind, int op,
                           uint32_t file, uint32_t func, int line,
                    int32_t peer, int32_t tag, int64_t bytes, int32_t result,
                    int32_t aux, uint32_t comm, uint32_t ref)
{
	e->t_ns = t;
	e->delta_ns = ev.delta;
	e->bytes = bytes;
	e->file = file;
	e->func = func;
	e->line = line;
	e->peer = peer;
	e->tag = tag;
	e->result = result;
	e->aux = aux;
	e->comm = comm;
	e->ref = ref;
	e->kind = (uint16_t)kind;
	e->op = (uint16_t)op;
}

/* The record about to be written comes gap ns after the last one, more
 * than PVT_RING_STALL_NS: if the thread waited for a CPU in the gap (one
 * pread of its schedstat), the part of that wait the daemon found
 * paravt's lately (the ring's share_frac: its processor time, and the
 * console's, against the waits it caused) goes into Δ now, before the
 * record, where the stall was, and is added up in the ring's self_us
 * for the daemon, which places that much less by its own reckoning
 * (dmn_share.h).  The wait read is the thread's since the
 * last reading, which may hold short stalls of the shorter gaps since:
 * no more than the gap is taken for this one.  Returns the time the
 * reading took, paravt's own, for Δ after the record.  No reading
 * while the fraction is 0 (the daemon has told none: not sampled yet,
 * or --no-cpu-share), and the first one after that only takes the
 * base; nothing either without a ring, with busy probes
 * (their spans hold their waits already), while calibrating, in the
 * crash handler, and with several recording threads (one thread's wait
 * is not the process's). */
EV_NOINLINE static uint64_t ev_stall(uint64_t gap)
{
	uint64_t t0, m, x;
	uint32_t frac;

	if (ev.stall.fd < 0 || ev.ring.h == NULL || ev.busy ||
	    ev.calibrating || ev.in_crash || ev_mt)
		return 0;
	frac = pvt_ring_load(&ev.ring.h->share_frac);
	if (frac == 0) { /* nothing to charge: no reading */
		ev.stall_on = 0;
		return 0;
	}
	if (frac > PVT_RING_FRAC_ONE)
		frac = PVT_RING_FRAC_ONE;
	t0 = pvt__ev_now();
	m = pvt__stall_take(&ev.stall);
	if (!ev.stall_on) { /* the first reading since: only the base */
		ev.stall_on = 1;
		m = 0;
	}
	if (m > gap)
		m = gap;
	x = (uint64_t)((double)m * (double)frac / PVT_RING_FRAC_ONE);
	if (x > 0) {
		ev.delta += x;
		ev.stall_ns += x;
		ev.stalls++;
		pvt_ring_store(&ev.ring.h->self_us,
		               (uint32_t)(ev.stall_ns / 1000));
	}
	return pvt__ev_now() - t0;
}

/* After paravt's own time that Δ holds whole (a full ring's wait, a
 * breakpoint's stop, a calibration): the thread's wait for a CPU in it
 * is not read again by ev_stall.  Returns the time that took. */
static uint64_t ev_stall_base(void)
{
	uint64_t t0;

	if (ev.stall.fd < 0 || !ev.stall_on) /* (the next reading is a base) */
		return 0;
	t0 = pvt__ev_now();
	(void)pvt__stall_take(&ev.stall);
	return pvt__ev_now() - t0;
}

/* Writes a record into the ring (not while calibrating), waiting for room
 * when it is full (the wait goes into Δ after the record) or dropping it
 * (counted in the ring). */
static void ev_put_ring(uint64_t t, int kind, int op, uint32_t file,
                        uint32_t func, int line, int32_t peer,
                        int32_t tag, int64_t bytes, int32_t result,
                        int32_t aux, uint32_t comm, uint32_t ref)
{
	uint64_t waited = 0;

	if (!ev.calibrating &&
	    ev.ring.head - ev.ring.tail >= ev.ring.cap) { /* may be full */
		if (ev.in_crash)
			ev.ring.drop = 1; /* no waiting in a signal handler */
		if (!pvt__ring_room(&ev.ring, &waited))
			return; /* dropped: the ring counts it */
	}
	ev_fill(pvt__ring_slot(&ev.ring), t, kind, op, file, func, line, peer,
	        tag, bytes, result, aux, comm, ref);
	if (ev.calibrating)
		return;
	pvt__ring_commit(&ev.ring);
	ev.seq++;
	ev.records++;
	if (waited > 0)
		waited += ev_stall_base();
	ev.delta += waited;
	if (waited > 0) {
		ev.ring_waits++;
		ev.ring_wait_ns += waited;
	}
	if (ev.busy)
		ev_spin(t);
}

/* Writes a record into the buffer (not committed while calibrating) and
 * flushes it when due. */
static void ev_put_buf(uint64_t t, int kind, int op, uint32_t file,
                       uint32_t func, int line, int32_t peer, int32_t tag,
                       int64_t bytes, int32_t result, int32_t aux,
                       uint32_t comm, uint32_t ref)
{
	if (ev.n >= PVT_EV_BUF)
		return; /* full while a flush cannot run (crash path) */
	ev_fill(&ev.buf[ev.n], t, kind, op, file, func, line, peer, tag, bytes,
	        result, aux, comm, ref);
	if (ev.calibrating)
		return;
	ev.n++;
	ev.seq++;
	ev.records++;
	if (ev.busy)
		ev_spin(t);
	if (ev.n == PVT_EV_BUF || t - ev.last_flush >= PVT_EV_FLUSH_NS)
		(void)ev_flush();
}

/* ev_put when the record cannot simply go into the ring's next slot:
 * into the ring after waiting for room (or dropped), or into buf.  Kept
 * out of line so that ev_put's common case stays a handful of stores in
 * every probe. */
EV_NOINLINE static void ev_put_slow(uint64_t t, int kind, int op,
                                    uint32_t file, uint32_t func, int line,
                                    int32_t peer, int32_t tag, int64_t bytes,
                                    int32_t result, int32_t aux,
                                    uint32_t comm, uint32_t ref)
{
	if (ev.ring.h != NULL)
		ev_put_ring(t, kind, op, file, func, line, peer, tag, bytes,
		            result, aux, comm, ref);
	else
		ev_put_buf(t, kind, op, file, func, line, peer, tag, bytes,
		           result, aux, comm, ref);
}

/* Writes a record into the ring's next slot, there being room and no
 * stall to read (ev_put's common case, and the probes' quick path,
 * ev_quick_fits): its stores and the release store of the head. */
static inline void ev_quick_put(uint64_t t, int kind, int op, uint32_t file,
                                uint32_t func, int line, int32_t peer,
                                int32_t tag, int64_t bytes, int32_t result,
                                int32_t aux, uint32_t comm, uint32_t ref)
{
	ev.last_t = t;
	ev_fill(pvt__ring_slot(&ev.ring), t, kind, op, file, func, line, peer,
	        tag, bytes, result, aux, comm, ref);
	pvt__ring_commit(&ev.ring);
	ev.seq++;
	ev.records++;
}

/* Writes a record (file and func: interned ids, ev_intern): into the
 * ring when there is one, else into the next slot of buf (not committed
 * while calibrating), then spends PARAVT_PROBE_BUSY_NS.  Every caller
 * adds its cost to Δ.  Inline, with the common case first (ev.fast: a
 * ring, no busy probes; and room in it): the record's stores and one
 * release store of the head. */
static inline void ev_put(uint64_t t, int kind, int op, uint32_t file,
                          uint32_t func, int line, int32_t peer,
                          int32_t tag, int64_t bytes, int32_t result,
                          int32_t aux, uint32_t comm, uint32_t ref)
{
	uint64_t after = 0; /* the time ev_stall took, for Δ after it */

	/* no two records of a process at one instant: a clock may give
	   one value twice (a coarse clock, a floor after a fast window);
	   the analysis counts events less than 1 ns apart as repaired */
	if (t <= ev.last_t)
		t = ev.last_t + 1;
	if (t - ev.last_t > PVT_RING_STALL_NS) /* rare in a busy process */
		after = ev_stall(t - ev.last_t);
	if (ev.fast && ev.ring.head - ev.ring.tail < ev.ring.cap) {
		ev_quick_put(t, kind, op, file, func, line, peer, tag, bytes,
		             result, aux, comm, ref);
	} else {
		ev.last_t = t;
		ev_put_slow(t, kind, op, file, func, line, peer, tag, bytes,
		            result, aux, comm, ref);
	}
	ev.delta += after;
}

/* Queues EVENT_STRINGS for the ids not sent yet.  0 or an error. */
static int ev_pack_strings(wire_peer *p)
{
	if (ev.sent >= ev.nstr)
		return 0;
	return wire_pack(wire_peer_out(p), WIRE_EVENT_STRINGS, wire_peer_seq(p),
	                 p->max_frame, pvt__rt_proc(), (uint64_t)ev.sent + 1,
	                 (const char *const *)&ev.str[ev.sent + 1],
	                 (uint32_t)(ev.nstr - ev.sent));
}

/* Sends the buffered records (the lock, if any, held). */
static int ev_flush(void)
{
	wire_peer *p = pvt__rt_peer();
	msgpack_packer pk;
	uint64_t t0;
	int rc;

	if (ev.n == 0 || ev.in_flush || ev.calibrating)
		return 0;
	if (p == NULL) {
		ev.n = 0; /* detached: the records have nowhere to go */
		return WIRE_ESTATE;
	}
	ev.in_flush = 1;
	t0 = pvt__ev_now();
	pvt__rt_scratch(&pk); /* marks a frame as being built */
	rc = ev_pack_strings(p);
	if (rc == 0)
		rc = wire_pack(wire_peer_out(p), WIRE_EVENTS, wire_peer_seq(p),
		               p->max_frame, pvt__rt_proc(), ev.seq - ev.n,
		               (uint64_t)ev.n, (const void *)ev.buf,
		               (size_t)ev.n * sizeof(pvt_event));
	if (rc == 0) {
		ev.sent = ev.nstr;
		ev.n = 0;
		rc = pvt__rt_push();
	} else {
		pvt__rt_detach("cannot encode events");
		ev.n = 0;
	}
	ev.last_flush = pvt__ev_now();
	ev.flushes++;
	ev.flush_ns += ev.last_flush - t0;
	ev.in_flush = 0;
	return rc;
}

/* See rt_event.h. */
int pvt__ev_flush(void)
{
	int rc;

	EV_LOCK();
	rc = ev_flush();
	EV_UNLOCK();
	return rc;
}

/* See rt_event.h.  Asked before every PVM receive: kept with the hot code. */
PVT__EV_HOT
int pvt__ev_pending(void)
{
	return ev.ring.h == NULL && ev.n > 0;
}

/* Opens probe pr at t0 and writes its START record, after adding wrap ns
 * (a wrapper's own work before it, pvt__ev_begin_w) to Δ: timed (or
 * busy probes), it measures its own spans (pvt__ev_begin_at), else Δ
 * grows by an empty probe's calibrated half.  1. */
static int ev_begin(pvt__ev_probe *pr, uint64_t t0, int timed, uint64_t wrap,
                    int kind, int op, const char *file, const char *func,
                    int line, int32_t peer, int32_t tag, int64_t bytes,
                    int32_t aux, uint32_t comm, uint32_t ref)
{
	pr->t0 = t0;
	pr->t2 = 0;
	pr->timed = (uint8_t)(timed || ev.busy);
	pr->line = line;
	pr->op = (uint16_t)op;
	pr->comm = comm;
	pr->ref = ref;
	EV_LOCK();
	ev.delta += wrap;
	/* once: the END reuses them */
	pr->file = ev_intern_near(file);
	pr->func = ev_intern_near(func);
	ev_put(pr->t0, kind, op, pr->file, pr->func, line, peer, tag, bytes, 0,
	       aux, comm, ref);
	if (!pr->timed)
		ev.delta += ev.half;
	EV_UNLOCK();
	pr->t1 = ev.busy ? pvt__ev_now() : pr->t0;
	return 1;
}

/* Whether probes record now (initialising on first use). */
static int ev_tracing(void)
{
	if (!ev.inited)
		(void)pvt__ev_init(NULL);
	return ev.mode != PVT_TRACE_OFF;
}

/* Whether a record stamped t can take the quick path (ev.quick being
 * set): later than the last record, by less than PVT_RING_STALL_NS
 * (ev_put's repairs and ev_stall are not needed), and room in the
 * ring. */
static inline int ev_quick_fits(uint64_t t)
{
	return t - ev.last_t - 1 < PVT_RING_STALL_NS &&
	       ev.ring.head - ev.ring.tail < ev.ring.cap;
}

/* pvt__ev_begin_w off the quick path (t0: the time read, 0 not yet). */
PVT__EV_COLD
static int ev_begin_slow(pvt__ev_probe *pr, uint64_t t0, uint64_t wrap,
                         int kind, int op, const char *file, const char *func,
                         int line, int32_t peer, int32_t tag, int64_t bytes,
                         int32_t aux, uint32_t comm, uint32_t ref)
{
	if (!ev_tracing())
		return 0;
	return ev_begin(pr, t0 != 0 ? t0 : pvt__ev_now(), 0, wrap, kind, op,
	                file, func, line, peer, tag, bytes, aux, comm, ref);
}

/* See rt_event.h.  The quick path first, compact: every traced call
 * after a context switch pays for each cache line of code it runs. */
PVT__EV_HOT
int pvt__ev_begin_w(pvt__ev_probe *pr, uint64_t wrap, int kind, int op,
                    const char *file, const char *func, int line,
                    int32_t peer, int32_t tag, int64_t bytes, int32_t aux,
                    uint32_t comm, uint32_t ref)
{
	uint32_t fid, gid;
	uint64_t t = 0;

	if (PVT__EV_LIKELY(ev.quick) && ev_near_id(file, &fid) &&
	    ev_near_id(func, &gid)) {
		t = pvt__clk_now();
		if (PVT__EV_LIKELY(ev_quick_fits(t))) {
			pr->t0 = pr->t1 = t;
			pr->t2 = 0;
			pr->timed = 0;
			pr->line = line;
			pr->op = (uint16_t)op;
			pr->comm = comm;
			pr->ref = ref;
			pr->file = fid;
			pr->func = gid;
			ev.delta += wrap;
			ev_quick_put(t, kind, op, fid, gid, line, peer, tag,
			             bytes, 0, aux, comm, ref);
			ev.delta += ev.half;
			return 1;
		}
	}
	return ev_begin_slow(pr, t, wrap, kind, op, file, func, line, peer,
	                     tag, bytes, aux, comm, ref);
}

/* See rt_event.h. */
int pvt__ev_begin_at(pvt__ev_probe *pr, uint64_t t0, int kind, int op,
                     const char *file, const char *func, int line,
                     int32_t peer, int32_t tag, int64_t bytes, int32_t aux,
                     uint32_t comm, uint32_t ref)
{
	if (!ev_tracing())
		return 0;
	return ev_begin(pr, t0, 1, 0, kind, op, file, func, line, peer, tag,
	                bytes, aux, comm, ref);
}

/* What a timed probe's span of span ns (its start to the call, or the
 * call's return to its end) adds to Δ: the span, or, longer than
 * PVT_RING_STALL_NS without busy probes, the calibrated half: a wrapper's
 * own work takes far less, so the process was off its processor there,
 * and that wait is not paravt's unless the CPU share says so (the stall
 * read at the next record). */
static uint64_t ev_span(uint64_t span, uint64_t half)
{
	return span > PVT_RING_STALL_NS && !ev.busy ? half : span;
}

/* What timed probe pr's start (to the call) adds to Δ. */
static uint64_t ev_start_span(const pvt__ev_probe *pr)
{
	return ev_span(pr->t1 - pr->t0 + ev.probe_c, ev.half);
}

/* pvt__ev_end off the quick path, for a call that returned at t2. */
PVT__EV_COLD
static void ev_end_slow(pvt__ev_probe *pr, uint64_t t2, int kind, int32_t peer,
                        int32_t tag, int64_t bytes, int32_t result, int32_t aux)
{
	EV_LOCK();
	if (pr->timed)
		ev.delta += ev_start_span(pr);
	ev_put(t2, kind, pr->op, pr->file, pr->func, pr->line, peer, tag,
	       bytes, result, aux, pr->comm, pr->ref);
	ev.delta += pr->timed ? ev_span(pvt__ev_now() - t2, ev.half_end)
	                      : ev.half_end;
	EV_UNLOCK();
}

/* See rt_event.h. */
PVT__EV_HOT
void pvt__ev_end(pvt__ev_probe *pr, int kind, int32_t peer, int32_t tag,
                 int64_t bytes, int32_t result, int32_t aux)
{
	uint64_t t2 = pr->t2 != 0 ? pr->t2 : pvt__clk_now();

	if (PVT__EV_LIKELY(ev.quick) && !pr->timed &&
	    PVT__EV_LIKELY(ev_quick_fits(t2))) {
		ev_quick_put(t2, kind, pr->op, pr->file, pr->func, pr->line,
		             peer, tag, bytes, result, aux, pr->comm, pr->ref);
		ev.delta += ev.half_end;
		return;
	}
	ev_end_slow(pr, t2, kind, peer, tag, bytes, result, aux);
}

/* See rt_event.h. */
void pvt__ev_close(pvt__ev_probe *pr)
{
	EV_LOCK();
	if (pr->timed)
		ev.delta += ev_start_span(pr);
	else
		ev.delta += ev.half_end;
	EV_UNLOCK();
}

/* Adds the cost of a record made at t outside a probe's two to Δ: a
 * probe's half, or measured with busy probes. */
static void ev_mark_cost(uint64_t t)
{
	ev.delta += ev.busy ? pvt__ev_now() - t + ev.probe_c : ev.half;
}

/* Records one event at time t outside a probe and adds its cost to Δ. */
static void ev_mark_at(uint64_t t, int kind, int op, const char *file,
                       const char *func, int line, int32_t peer,
                       int32_t tag, int64_t bytes, int32_t result,
                       int32_t aux, uint32_t comm, uint32_t ref)
{
	EV_LOCK();
	ev_put(t, kind, op, ev_intern(file), ev_intern(func), line, peer, tag,
	       bytes, result, aux, comm, ref);
	ev_mark_cost(t);
	EV_UNLOCK();
}

/* See rt_event.h. */
void pvt__ev_mark_in(const pvt__ev_probe *pr, int kind, int32_t peer,
                     int32_t tag, int64_t bytes)
{
	uint64_t t;

	if (!ev.inited || ev.mode == PVT_TRACE_OFF)
		return;
	t = pvt__ev_now();
	EV_LOCK();
	ev_put(t, kind, pr->op, pr->file, pr->func, pr->line, peer, tag,
	       bytes, 0, 0, pr->comm, pr->ref);
	ev_mark_cost(t);
	EV_UNLOCK();
}

/* See rt_event.h. */
void pvt__ev_mark(int kind, int op, int32_t peer, int32_t tag, int64_t bytes,
                  int32_t result, int32_t aux, uint32_t comm, uint32_t ref)
{
	if (!ev.inited || ev.mode == PVT_TRACE_OFF)
		return;
	ev_mark_at(pvt__ev_now(), kind, op, NULL, NULL, 0, peer, tag, bytes,
	           result, aux, comm, ref);
}

/* Median of n values (sorts them; n is small and this runs once). */
static uint64_t ev_median(uint64_t *v, int n)
{
	int i, j;
	uint64_t x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[n / 2];
}

/* The mean of the middle 90% of n values (sorts them): the clock ticks
 * in steps as large as a probe's parts here (10 ns on the machine this
 * was written on), which a median rounds to a step, one way or the
 * other, and a mean averages out; the 5% at each end leave out
 * interrupts. */
static uint64_t ev_trimmed_mean(uint64_t *v, int n)
{
	uint64_t sum = 0;
	int i, lo = n / 20, hi = n - n / 20;

	(void)ev_median(v, n);
	for (i = lo; i < hi; i++)
		sum += v[i];
	return (sum + (uint64_t)(hi - lo) / 2) / (uint64_t)(hi - lo);
}

/* The (trimmed mean) time of two back-to-back clock reads (what a measurement
 * from outside adds to what it measures). */
static uint64_t ev_clock_cost(uint64_t *d)
{
	uint64_t a;
	int i;

	for (i = 0; i < PVT_EV_CALIB; i++) {
		a = pvt__ev_now();
		d[i] = pvt__ev_now() - a;
	}
	return ev_trimmed_mean(d, PVT_EV_CALIB);
}

/* The sandbox's room (ev_sandbox_in): in the ring's free slots, for
 * all the records of a timing; in its private ring, for one turn. */
#define EV_SANDBOX_ROOM (PVT_EV_CALIB_ROUNDS * (2 * PVT_EV_CALIB + 2))
#define EV_SANDBOX_PRIV 256

/* The private ring of ev_time_fast. */
static pvt_ring_hdr ev_cal_hdr;
static pvt_event ev_cal_rec[EV_SANDBOX_PRIV];

/* Times PVT_EV_CALIB empty probes (records written, not kept) from the
 * outside: the trimmed mean of (outside time - what the probe added to
 * Δ) in *unseen and of the outside time in *whole, less the outside
 * reads' own cost. */
static void ev_time_round(uint64_t *d, uint64_t *unseen, uint64_t *whole)
{
	static uint64_t w[PVT_EV_CALIB];
	pvt__ev_probe pr;
	uint64_t a, b, before, rd;
	int i;

	for (i = 0; i < PVT_EV_CALIB; i++) {
		if (ev.ring.h == &ev_cal_hdr)
			ev.ring.tail = ev.ring.head; /* always room */
		before = ev.delta;
		a = pvt__ev_now();
		(void)pvt__ev_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_NONE,
		                    NULL, NULL, 0, -1, -1, -1, 0, 0, 0);
		pvt__ev_call(&pr);
		pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, 0, 0);
		b = pvt__ev_now();
		w[i] = b - a;
		d[i] = b - a > ev.delta - before ? b - a - (ev.delta - before)
		                                 : 0;
	}
	rd = ev_clock_cost(d + PVT_EV_CALIB); /* d has room for both */
	*unseen = ev_trimmed_mean(d, PVT_EV_CALIB);
	*unseen = *unseen > rd ? *unseen - rd : 0;
	*whole = ev_trimmed_mean(w, PVT_EV_CALIB);
	*whole = *whole > rd ? *whole - rd : 0;
}

/* ev_time_round PVT_EV_CALIB_ROUNDS times, the round with the least
 * whole cost kept: a process that starts beside others (an MPI job's
 * ranks, mpirun, paravtd) is interrupted now and then, and a round that
 * is moves the middle of its times too (2 to 3 times a probe's cost in
 * 3 of 20 ranks of a traced ping-pong here, whose compensation then
 * took out that much). */
static void ev_time_probes(uint64_t *d, uint64_t *unseen, uint64_t *whole)
{
	uint64_t u, w;
	int k;

	ev_time_round(d, unseen, whole);
	for (k = 1; k < PVT_EV_CALIB_ROUNDS; k++) {
		ev_time_round(d, &u, &w);
		if (w < *whole) {
			*whole = w;
			*unseen = u;
		}
	}
}

/* What ev_sandbox_in puts aside. */
typedef struct ev_saved {
	pvt__ring ring;
	uint64_t seq, records, delta;
} ev_saved;

/* Until ev_sandbox_out, records take the path a record takes into the
 * ring (ev_put's first branch), with a header in private memory standing
 * in for the shared one: nothing written is published.  They go into
 * the ring's own free slots past its head (cold cache lines, as real
 * records find them; the daemon reads nothing beyond the head, and the
 * next real records overwrite them), or, when the ring has not that
 * much room, into a small private ring.  A timing loop makes room at
 * each turn (ev_sandbox_room). */
static void ev_sandbox_in(ev_saved *sv)
{
	sv->ring = ev.ring;
	sv->seq = ev.seq;
	sv->records = ev.records;
	sv->delta = ev.delta;
	memset(&ev.ring, 0, sizeof ev.ring);
	ev.ring.h = &ev_cal_hdr;
	if (sv->ring.cap - (sv->ring.head - sv->ring.tail) >=
	    EV_SANDBOX_ROOM) {
		ev.ring.rec = sv->ring.rec;
		ev.ring.cap = sv->ring.cap;
		ev.ring.mask = sv->ring.mask;
		ev.ring.head = ev.ring.tail = sv->ring.head;
	} else {
		ev.ring.rec = ev_cal_rec;
		ev.ring.cap = EV_SANDBOX_PRIV;
		ev.ring.mask = EV_SANDBOX_PRIV - 1;
	}
	ev_fast_set();
}

/* Room for the next turn of a timing loop in the private ring. */
static void ev_sandbox_room(void)
{
	if (ev.ring.h == &ev_cal_hdr && ev.ring.rec == ev_cal_rec)
		ev.ring.tail = ev.ring.head;
}

/* Back to the real ring, as it was. */
static void ev_sandbox_out(const ev_saved *sv)
{
	ev.ring = sv->ring;
	ev.seq = sv->seq;
	ev.records = sv->records;
	ev.delta = sv->delta;
	ev_fast_set();
}

/* ev_time_probes in the sandbox. */
static void ev_time_fast(uint64_t *d, uint64_t *unseen, uint64_t *whole)
{
	ev_saved sv;

	ev_sandbox_in(&sv);
	ev_time_probes(d, unseen, whole);
	ev_sandbox_out(&sv);
}

/* How much longer k calls of wrapped in a row take than k of plain,
 * over n such pairs of blocks, timed one block after the other (in
 * turn first): d[i] the one's time less the other's.  Paired, so that
 * what slows both for a while (the machine's other processes, a cache
 * that the first block warms for the second) cancels.  The differences
 * are kept offset by EV_PAIR_BIAS, above any negative one, for the
 * statistics sort unsigned values. */
#define EV_PAIR_BIAS (1ull << 40)
static void ev_time_blocks(void (*wrapped)(void), void (*plain)(void),
                           int k, int n, uint64_t *d)
{
	uint64_t a, b, c;
	int i, j, odd;

	for (i = 0; i < n; i++) {
		odd = i & 1;
		ev_sandbox_room();
		a = pvt__ev_now();
		for (j = 0; j < k; j++)
			(odd ? plain : wrapped)();
		b = pvt__ev_now();
		for (j = 0; j < k; j++)
			(odd ? wrapped : plain)();
		c = pvt__ev_now();
		d[i] = odd ? EV_PAIR_BIAS + (c - b) - (b - a)
		           : EV_PAIR_BIAS + (b - a) - (c - b);
	}
}

/* The trimmed mean of PVT_EV_CALIB single calls of wrapped less plain
 * (ev_time_blocks of one call), 0 when less; d: room for them. */
static uint64_t ev_time_pairs(void (*wrapped)(void), void (*plain)(void),
                              uint64_t *d)
{
	uint64_t m;

	ev_time_blocks(wrapped, plain, 1, PVT_EV_CALIB, d);
	m = ev_trimmed_mean(d, PVT_EV_CALIB);
	return m > EV_PAIR_BIAS ? m - EV_PAIR_BIAS : 0;
}

/* See rt_event.h. */
uint64_t pvt__ev_probe_ns(void)
{
	return ev.half + ev.half_end;
}

/* See rt_event.h. */
int pvt__ev_can_time(void)
{
	return ev.inited && ev.mode != PVT_TRACE_OFF && ev.ring.h != NULL &&
	       !ev.busy;
}

/* Starts timing wrapped calls: records into the sandbox (ev_sandbox_in),
 * the time taken noted in *t0. */
static void ev_timing_in(ev_saved *sv, uint64_t *t0)
{
	*t0 = pvt__ev_now();
	ev_sandbox_in(sv);
}

/* Ends it: all the time since t0 is paravt's. */
static void ev_timing_out(const ev_saved *sv, uint64_t t0)
{
	ev_sandbox_out(sv);
	(void)ev_stall_base();
	ev.delta += pvt__ev_now() - t0;
}

/* See rt_event.h.  PVT_EV_CALIB_ROUNDS rounds of ev_time_pairs, the
 * median kept (a round that another process kept off its processor for
 * long is moved by far more than the cost sought, either way). */
uint64_t pvt__ev_wrap_cost(void (*wrapped)(void), void (*plain)(void))
{
	static uint64_t w[PVT_EV_CALIB];
	uint64_t probe = ev.half + ev.half_end, t0, more;
	uint64_t d[PVT_EV_CALIB_ROUNDS];
	ev_saved sv;
	int k;

	if (!pvt__ev_can_time())
		return 0;
	ev_timing_in(&sv, &t0);
	for (k = 0; k < PVT_EV_CALIB_ROUNDS; k++) {
		more = ev_time_pairs(wrapped, plain, w);
		d[k] = more > probe ? more - probe : 0;
	}
	ev_timing_out(&sv, t0);
	return ev_median(d, PVT_EV_CALIB_ROUNDS);
}

/* See rt_event.h.  The blocks' median and quartiles (a block that
 * another process kept off its processor moves far, either way). */
int64_t pvt__ev_run_cost(void (*wrapped)(void), void (*plain)(void), int k,
                         int recs, int64_t *spread)
{
	uint64_t d[PVT_EV_RUN_BLOCKS], t0;
	int64_t m, lo, hi;
	ev_saved sv;

	*spread = -1;
	if (!pvt__ev_can_time() || k < 1 || recs < 0 ||
	    (int64_t)k * recs > EV_SANDBOX_PRIV ||
	    (int64_t)k * recs * PVT_EV_RUN_BLOCKS > EV_SANDBOX_ROOM)
		return 0;
	ev_timing_in(&sv, &t0);
	ev_time_blocks(wrapped, plain, k, PVT_EV_RUN_BLOCKS, d);
	ev_timing_out(&sv, t0);
	m = (int64_t)(ev_median(d, PVT_EV_RUN_BLOCKS) - EV_PAIR_BIAS);
	lo = (int64_t)(d[PVT_EV_RUN_BLOCKS / 4] - EV_PAIR_BIAS);
	hi = (int64_t)(d[PVT_EV_RUN_BLOCKS * 3 / 4] - EV_PAIR_BIAS);
	*spread = (hi - lo + k / 2) / k;
	return (m >= 0 ? m + k / 2 : m - k / 2) / k;
}

/* Calibrates Δ per record: half the whole cost of an empty probe (on the
 * path of real records); and, for busy probes that measure their own
 * spans, the part of a probe its own clock reads miss (probe_c). */
static void ev_calibrate(void)
{
	static uint64_t d[2 * PVT_EV_CALIB];
	uint64_t busy = ev.busy, delta = ev.delta, unseen, whole;

	ev.calibrating = 1;
	ev.probe_c = ev.half = ev.half_end = 0;
	ev.busy = 1; /* measured spans, for probe_c (the spin is not run:
			records are not kept while calibrating) */
	ev_fast_set();
	ev_time_probes(d, &unseen, &whole);
	ev.probe_c = unseen;
	ev.busy = 0;
	if (ev.ring.h != NULL) {
		ev.calibrating = 0;
		ev_time_fast(d, &unseen, &whole);
	} else {
		ev_time_probes(d, &unseen, &whole);
	}
	ev.half = whole / 2;
	ev.half_end = whole - ev.half; /* a probe adds all of it */
	ev.delta = delta;
	ev.busy = busy;
	ev.calibrating = 0;
	ev_fast_set();
}

/* Reads PARAVT_TRACE and PARAVT_PROBE_BUSY_NS. */
static void ev_read_env(void)
{
	const char *m = getenv("PARAVT_TRACE"), *c;

	if (m != NULL && strcmp(m, "off") == 0)
		ev.mode = PVT_TRACE_OFF;
	else if (m != NULL && strcmp(m, "full") == 0)
		ev.mode = PVT_TRACE_FULL;
	else
		ev.mode = PVT_TRACE_EVENTS;
	c = getenv("PARAVT_PROBE_BUSY_NS");
	ev.busy = c != NULL ? strtoull(c, NULL, 10) : 0;
}

/* Without PARAVT_SOCK but with PARAVT_SESSION: points PARAVT_SOCK at the
 * session's well-known socket and PARAVT_PROC at 0, for para_vt_start. */
static void ev_session_sock(void)
{
	const char *sock = getenv("PARAVT_SOCK");
	const char *sess = getenv("PARAVT_SESSION");
	const char *dir = getenv("PARAVT_SESSION_DIR");
	char path[256], dflt[64];

	if ((sock != NULL && *sock != '\0') || sess == NULL || *sess == '\0')
		return;
	if (strchr(sess, '/') != NULL)
		return; /* an id, never a path */
	if (dir == NULL || *dir == '\0') {
		snprintf(dflt, sizeof dflt, "/tmp/paravtd-%lu",
		         (unsigned long)getuid());
		dir = dflt;
	}
	if (snprintf(path, sizeof path, "%s/session-%s.sock", dir, sess) >=
	    (int)sizeof path)
		return;
	(void)setenv("PARAVT_SOCK", path, 1);
	(void)setenv("PARAVT_PROC", "0", 1);
}

/* Asks the daemon to drain the ring now (it is full): one small frame,
 * the only system call of a record, and only when the ring is full. */
static void ev_kick(void)
{
	wire_peer *p = pvt__rt_peer();

	if (p != NULL &&
	    wire_pack(wire_peer_out(p), WIRE_EVENTS_KICK, wire_peer_seq(p),
	              p->max_frame, pvt__rt_proc()) == 0)
		(void)pvt__rt_push();
}

/* In a forked child: the parent's ring is not this process's. */
static void ev_atfork_child(void)
{
	pvt__ring_forget(&ev.ring);
	pvt__stall_close(&ev.stall);
	ev_fast_set();
}

/* The ring's size from PARAVT_RING_EVENTS (n, or NULL): a whole number
 * of records, PVT_RING_MIN to PVT_RING_MAX (rt_ring.h rounds it up to a
 * power of two); anything else is said on stderr, with the size used
 * instead. */
static uint32_t ev_ring_size(const char *n)
{
	unsigned long v;
	char *end;

	if (n == NULL)
		return PVT_RING_DEFAULT;
	errno = 0;
	v = strtoul(n, &end, 10);
	if (end == n || *end != '\0' || *n == '-' || errno != 0 || v == 0) {
		fprintf(stderr, "paravt: PARAVT_RING_EVENTS=%s is not a number "
		        "of records; the ring has %u\n", n,
		        (unsigned)PVT_RING_DEFAULT);
		return PVT_RING_DEFAULT;
	}
	if (v < PVT_RING_MIN || v > PVT_RING_MAX) {
		v = v < PVT_RING_MIN ? PVT_RING_MIN : PVT_RING_MAX;
		fprintf(stderr, "paravt: PARAVT_RING_EVENTS=%s is out of %u-%u; "
		        "the ring has %lu\n", n, (unsigned)PVT_RING_MIN,
		        (unsigned)PVT_RING_MAX, v);
	}
	return (uint32_t)v;
}

/* Whether environment variable name is set to yes (1) or no (0); def
 * when unset, and when it is neither (said on stderr, with the word used
 * instead). */
static int ev_env_choice(const char *name, const char *yes, const char *no,
                         int def)
{
	const char *v = getenv(name);

	if (v == NULL)
		return def;
	if (strcmp(v, yes) == 0)
		return 1;
	if (strcmp(v, no) == 0)
		return 0;
	fprintf(stderr, "paravt: %s=%s is neither %s nor %s; %s it is\n",
	        name, v, yes, no, def ? yes : no);
	return def;
}

/* The ring's size and full policy from PARAVT_RING_EVENTS and
 * PARAVT_RING_FULL; 0 records when PARAVT_RING=off. */
static uint32_t ev_ring_env(int *drop)
{
	*drop = ev_env_choice("PARAVT_RING_FULL", "drop", "wait", 0);
	if (!ev_env_choice("PARAVT_RING", "on", "off", 1))
		return 0;
	return ev_ring_size(getenv("PARAVT_RING_EVENTS"));
}

/* Makes the ring in the directory for rings in memory
 * (pvt_ring_memdir).  0, or -1 where there is none (no memory file
 * system: nothing said), or it is not a private directory of this
 * user's, or has no room for the ring (said on stderr: the ring goes
 * to the session's directory, on disk). */
static int ev_ring_mem(uint32_t cap, int drop)
{
	char dir[256], err[300];
	struct stat st;

	if (pvt_ring_memdir(dir, sizeof dir, 1) == NULL) {
		if (pvt_ring_memdir_path(dir, sizeof dir) != NULL &&
		    lstat(dir, &st) == 0)
			fprintf(stderr, "paravt: %s is not a directory of this "
			        "user's alone (mode 0700); the event ring goes "
			        "to the session's directory\n", dir);
		return -1;
	}
	if (pvt__ring_open(&ev.ring, dir, cap, ev.seq, drop, err,
	                   sizeof err) != 0) {
		fprintf(stderr, "paravt: %s; the ring goes to the session's "
		        "directory\n", err);
		return -1;
	}
	return 0;
}

/* Makes the ring in memory (pvt_ring_memdir, where the daemon takes
 * rings from there: "ringmem") or else next to the daemon's socket, and
 * names it to the daemon (EVENT_RING); without one (an older daemon,
 * PARAVT_RING=off, a file that cannot be made) records go through the
 * socket.  0 or -1. */
static int ev_ring_start(void)
{
	const char *sock = getenv("PARAVT_SOCK"), *slash;
	char dir[256], err[300];
	wire_peer *p = pvt__rt_peer();
	uint32_t cap;
	int drop;

	if ((cap = ev_ring_env(&drop)) == 0 || p == NULL || sock == NULL ||
	    !pvt__rt_daemon_can("ring1") ||
	    (slash = strrchr(sock, '/')) == NULL ||
	    (size_t)(slash - sock) >= sizeof dir)
		return -1;
	if (!pvt__rt_daemon_can("ringmem") || ev_ring_mem(cap, drop) != 0) {
		memcpy(dir, sock, (size_t)(slash - sock));
		dir[slash - sock] = '\0';
		if (pvt__ring_open(&ev.ring, dir, cap, ev.seq, drop, err,
		                   sizeof err) != 0)
			return -1; /* the socket path still works */
	}
	ev.ring.kick = ev_kick;
	if (wire_pack(wire_peer_out(p), WIRE_EVENT_RING, wire_peer_seq(p),
	              p->max_frame, pvt__rt_proc(), ev.ring.path,
	              (uint64_t)ev.ring.cap, (uint64_t)ev.ring.str_cap) != 0 ||
	    pvt__rt_push() != 0) {
		(void)unlink(ev.ring.path); /* nobody will map it */
		pvt__ring_forget(&ev.ring);
		return -1;
	}
	(void)pthread_atfork(NULL, NULL, ev_atfork_child);
	return 0;
}

/* The base name of this program's executable, for PROG_START's func (the
 * console shows it for tasks pvmd or mpirun started), or NULL where it
 * cannot be known cheaply (only Linux's /proc/self/exe is read). */
static const char *ev_program(void)
{
#if defined(__linux__)
	static char path[512];
	const char *base;
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	base = strrchr(path, '/');
	return base != NULL && base[1] != '\0' ? base + 1 : path;
#else
	return NULL;
#endif
}

/* See rt_event.h. */
int pvt__ev_init(int32_t (*self)(void))
{
	const char *c;
	int32_t me;
	uint32_t prog;

	if (ev.inited)
		return ev.mode;
	ev.inited = 1;
	ev_read_env();
	pvt__ev_fnmode = ev.mode == PVT_TRACE_FULL;
	if (ev.mode == PVT_TRACE_OFF)
		return ev.mode;
	ev_session_sock();
	para_vt_start();
	if (pvt__rt_peer() == NULL) {
		ev.mode = PVT_TRACE_OFF;
		pvt__ev_fnmode = 0;
		return ev.mode;
	}
	(void)ev_ring_start();
	c = getenv("PARAVT_CLOCK");
	pvt__clk_init(!ev_mt && (c == NULL || (strcmp(c, "gettime") != 0 &&
	                                       strcmp(c, "coarse") != 0)));
	if (c != NULL && strcmp(c, "coarse") == 0)
		pvt__clk_coarse();
	ev_calibrate();
	if (ev.ring.h != NULL && !ev.busy)
		(void)pvt__stall_open(&ev.stall);
	me = self != NULL ? self() : -1; /* the program's own enrolment */
	prog = pvt__ev_strid(ev_program());
	ev.last_flush = pvt__ev_now();
	ev_put(ev.last_flush, PVT_EV_PROG_START, PVT_OP_NONE, 0, prog, 0,
	       me, -1, pvt__stall_main_wait(), 0, PVT_EVENT_VERSION, 0, 0);
	ev.delta += pvt__ev_now() - ev.last_flush;
	return ev.mode;
}

/* See rt_event.h. */
void pvt__ev_fn(int kind, const char *func, const char *file, int line)
{
	if (ev.mode != PVT_TRACE_FULL || !ev.inited || ev.in_flush)
		return;
	ev_mark_at(pvt__ev_now(), kind, PVT_OP_RT_FUNC, file, func, line, -1,
	           -1, -1, 0, 0, 0, 0);
}

/* See rt_event.h. */
void pvt__ev_break_begin(uint32_t bp, const char *file, const char *func,
                         int line)
{
	if (!ev.inited || ev.mode == PVT_TRACE_OFF)
		return;
	ev.brk_t = pvt__ev_now();
	ev_put(ev.brk_t, PVT_EV_BREAK_START, PVT_OP_RT_BREAK, ev_intern(file),
	       ev_intern(func), line,
	       -1, -1, -1, 0, (int32_t)bp, 0, 0);
	(void)pvt__ev_flush();
}

/* See rt_event.h. */
void pvt__ev_break_end(void)
{
	uint64_t t;

	if (ev.mode == PVT_TRACE_OFF || ev.brk_t == 0)
		return;
	(void)ev_stall_base();
	t = pvt__ev_now();
	ev.delta += t - ev.brk_t;
	ev.brk_t = 0;
	ev_put(t, PVT_EV_BREAK_END, PVT_OP_RT_BREAK, 0, 0, 0, -1, -1,
	       -1, 0, 0, 0, 0);
	ev.delta += pvt__ev_now() - t;
}

/* See rt_event.h. */
void pvt__ev_exit(int status)
{
	if (!ev.inited || ev.mode == PVT_TRACE_OFF)
		return;
	ev_put(pvt__ev_now(), PVT_EV_PROG_EXIT, PVT_OP_NONE, 0, 0, 0,
	       -1, -1, pvt__stall_main_wait(), 0, status, 0, 0);
	pvt__ring_close(&ev.ring);
	(void)pvt__ev_flush();
	ev.mode = PVT_TRACE_OFF; /* after para_vt_exit nothing is sent */
	ev_fast_set();
	pvt__ev_fnmode = 0;
}

/* See rt_event.h. */
void pvt__ev_stats(pvt__ev_stat *st)
{
	st->records = ev.records;
	st->flushes = ev.flushes;
	st->flush_ns = ev.flush_ns;
	st->probe_c_ns = ev.probe_c;
	st->record_ns = ev.half;
	st->ring = ev.ring.h != NULL;
	st->ring_cap = ev.ring.h != NULL ? ev.ring.cap : 0;
	st->ring_waits = ev.ring_waits;
	st->ring_wait_ns = ev.ring_wait_ns;
	st->delta_ns = ev.delta;
	st->stall_ns = ev.stall_ns;
	st->stalls = ev.stalls;
	st->mode = ev.mode;
}

/* ---- crash path: async-signal-safe ------------------------------------- */


/* Frame header (and the small EVENT_STRINGS frames) of the crash path. */
static char ev_crash_hdr[PVT_EV_STRMAX + 128];

/* Starts a frame of nf fields in f (length filled by ev_fix_len). */
static int ev_crash_begin(msgpack_packer *pk, pvt__rt_fixbuf *f,
			  wire_peer *p,
                          uint32_t type, uint32_t nf)
{
	f->data = ev_crash_hdr;
	f->cap = sizeof ev_crash_hdr;
	f->len = 4;
	msgpack_packer_init(pk, f, pvt__rt_fix_write);
	return msgpack_pack_array(pk, 2 + nf) ||
	       msgpack_pack_uint32(pk, type) ||
	       msgpack_pack_uint32(pk, ++p->seq) ||
	       msgpack_pack_uint64(pk, pvt__rt_proc());
}

/* Writes the 4-byte big-endian frame length for a frame of total bytes
 * (header in f plus extra payload bytes). */
static void ev_fix_len(pvt__rt_fixbuf *f, size_t extra)
{
	size_t len = f->len - 4 + extra;

	f->data[0] = (char)(len >> 24);
	f->data[1] = (char)(len >> 16);
	f->data[2] = (char)(len >> 8);
	f->data[3] = (char)len;
}

/* Sends the unsent names, one EVENT_STRINGS frame each.  0 or -1. */
static int ev_crash_strings(int fd, wire_peer *p)
{
	msgpack_packer pk;
	pvt__rt_fixbuf f;
	size_t n;
	uint32_t i;

	for (i = ev.sent + 1; i <= ev.nstr; i++) {
		for (n = 0; n < PVT_EV_STRMAX && ev.str[i][n] != '\0'; n++)
			;
		if (ev_crash_begin(&pk, &f, p, WIRE_EVENT_STRINGS, 3) ||
		    msgpack_pack_uint64(&pk, i) || msgpack_pack_array(&pk, 1) ||
		    msgpack_pack_str_with_body(&pk, ev.str[i], n))
			return -1;
		ev_fix_len(&f, 0);
		if (pvt__rt_sigsafe_send(fd, f.data, f.len) != 0)
			return -1;
	}
	ev.sent = ev.nstr;
	return 0;
}

/* Sends the unsent names and the buffered records straight to the
 * socket.  0 (the buffer is empty) or -1. */
static int ev_crash_send(int fd, wire_peer *p)
{
	msgpack_packer pk;
	size_t bytes;
	pvt__rt_fixbuf f;

	if (ev.n == 0)
		return 0;
	if (ev_crash_strings(fd, p) != 0)
		return -1;
	bytes = (size_t)ev.n * sizeof(pvt_event);
	if (ev_crash_begin(&pk, &f, p, WIRE_EVENTS, 4) ||
	    msgpack_pack_uint64(&pk, ev.seq - ev.n) ||
	    msgpack_pack_uint64(&pk, ev.n) || msgpack_pack_bin(&pk, bytes))
		return -1;
	ev_fix_len(&f, bytes);
	if (pvt__rt_sigsafe_send(fd, f.data, f.len) != 0 ||
	    pvt__rt_sigsafe_send(fd, (const char *)ev.buf, bytes) != 0)
		return -1;
	ev.n = 0;
	return 0;
}

/* See rt_event.h. */
void pvt__ev_crash(int sig)
{
	wire_peer *p = pvt__rt_peer_sigsafe();
	int fd = pvt__rt_fd();

	if (!ev.inited || ev.mode == PVT_TRACE_OFF)
		return;
	ev.calibrating = 0;
	ev.in_crash = 1;  /* no waiting, no new names */
	if (ev.ring.h != NULL) { /* the daemon drains it at TASK_CRASH */
		ev_put(pvt__ev_now(), PVT_EV_CRASH, PVT_OP_RT_SIGNAL, 0,
		       0, 0, -1, -1, -1, 0, sig, 0, 0);
		return;
	}
	if (p == NULL || fd < 0)
		return;
	ev.in_flush = 1; /* no flush from ev_put */
	if (ev.n == PVT_EV_BUF && ev_crash_send(fd, p) != 0)
		return; /* full: make room for the crash record */
	ev_put(pvt__ev_now(), PVT_EV_CRASH, PVT_OP_RT_SIGNAL, 0, 0, 0, -1,
	       -1, -1, 0, sig, 0, 0);
	(void)ev_crash_send(fd, p);
}
