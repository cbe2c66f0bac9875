/*
 * dmn_event.h — the event relay: native records from the tasks become
 * canonical events for the console, kept until the console acknowledges
 * them.
 *
 * A task sends EVENT_STRINGS(proc, first, strings) and EVENTS(proc, first,
 * count, records): count native 64-byte records (wrappers/pvt_event.h, the
 * daemon is built for the same port, so it reads them directly; record k
 * of the frame is number first + k).  Each EVENTS frame is checked
 * (length, kinds, numbers that follow the last frame's, layout version in
 * the PROG_START record), turned into NODE_EVENTS(batch, proc, events)
 * frames of at most DMN_EV_BATCH events, the events a packed bin of
 * canonical events (wire/wire_evpk.h), and queued.  A gap in a task's numbers becomes
 * EVENTS_LOST(proc, count, reason).
 *
 * One queue per session, in order: batch numbers increase in the order
 * its console receives them, so EVENTS_ACK(batch) is cumulative.  Only
 * the console controlling a session gets its batches; a detached
 * session's events wait in its queue for a console that attaches.  The queue
 * lives in memory up to a cap (--events-mem, 64 MiB), then in a spill file
 * (<work base>/<pid>-events.spill, length-prefixed msgpack records, read
 * back in order as the memory drains) up to its cap (--events-spill,
 * 256 MiB); beyond that whole EVENTS frames are dropped and counted as
 * EVENTS_LOST (never silently).  Shared-memory rings are drained into the
 * queue only while it is not backlogged for an attached console (more
 * batches than memory holds, or a spill file not read back yet): a console
 * slower than its tasks makes their rings fill and the tasks wait
 * (counted, paravt's own time), where spilling would have ended in
 * dropping.  A stop, a crash or a process's end drains the whole ring, the
 * spill file past its cap if need be (by at most one ring).  Only items in
 * memory are sent, and at most what memory holds is unacknowledged (a
 * batch always fits when memory holds no other).  A new controller gets every
 * unacknowledged batch again, each process's string table first
 * (EVENT_STRINGS before the first NODE_EVENTS that uses its ids).
 *
 * The relay room sits above the work (daemon/README): it reads the
 * work's sessions and processes; the work calls it through
 * dmn_relay_ops.
 */
#ifndef PARAVT_DMN_EVENT_H
#define PARAVT_DMN_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "dmn_work.h"

#define DMN_EV_MEM_DEFAULT (64u << 20)             /* bytes in memory */
#define DMN_EV_SPILL_DEFAULT ((uint64_t)256 << 20) /* spill file cap */
#define DMN_EV_BATCH 8192                           /* events per batch:
                                                       about 64 KiB packed */
#define DMN_EV_RING_MS 100     /* ring drain period (longest): a drain
				  wakes this daemon and the console, and a
				  virtual machine woken that often runs a
				  program that sleeps in its receives
				  faster than plainly (paravtd(8)) */
#define DMN_EV_RING_QUOTA_MS 20 /* ... while a traced process's CPU cgroup
				  enforces a quota: the CPU share tells
				  its waits for the quota from those for
				  paravt over shorter samples */
#define DMN_EV_RING_BUSY_MS 1   /* shortest: when a ring fills 1/4 that fast */
#define DMN_EV_RING_BUSY 4
#define DMN_EV_STRS 65536                           /* names per process */

/* Makes s->evq, the queue of session s, with the caps of w's config (0 =
 * default).  0 or -1. */
int dmn_ev_new(dmn_work *w, dmn_sess *s);
/* Logs the counts, removes the spill file, frees s->evq.  NULL-safe. */
void dmn_ev_free(dmn_sess *s);
/* Batches of s not yet acknowledged (a detached session that has some is
 * kept for its console to attach). */
uint64_t dmn_ev_pending(const dmn_sess *s);

/* EVENTS or EVENT_STRINGS from the task of p (into its session's queue).
 * 0, or a WIRE_E* code with a sentence in err (the frame is refused, the
 * task goes on). */
int dmn_ev_task(dmn_work *w, dmn_proc *p, const wire_msg *m, char *err,
                size_t errlen);
/* EVENTS_ACK from the controller c (for its session). */
void dmn_ev_ack(dmn_work *w, dmn_conn *c, const wire_msg *m);
/* CONSOLE_CPU from the controller c: the processor time its console took
 * for this daemon's events so far, shared out with the daemon's own at
 * the next sample (dmn_share.h).  Refused from a console on another
 * machine. */
void dmn_ev_console_cpu(dmn_work *w, dmn_conn *c, const wire_msg *m);
/* A console took control of w->cur (new or attached): everything of it
 * unacknowledged goes to it again (after the current message's answer:
 * the send runs from a timer). */
void dmn_ev_controller(dmn_work *w);
/* Process p ended: what its ring still holds is drained; its string
 * table goes when its events are acked. */
void dmn_ev_proc_gone(dmn_work *w, dmn_proc *p);
/* Moves what p wrote into its shared-memory ring into the queue now (a
 * breakpoint, a crash, an exit: the console must have the events before
 * the news).  No-op without a ring. */
void dmn_ev_drain(dmn_work *w, dmn_proc *p);

/* All of the above, as the work calls them (main passes it to
 * dmn_work_new). */
extern const dmn_relay_ops dmn_ev_relay;

#endif
