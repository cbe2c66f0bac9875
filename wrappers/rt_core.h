/*
 * rt_core.h — internals of the paravt runtime (libparavt.a), shared by
 * the runtime's own files only; instrumented programs see paravt_rt.h.
 *
 * The runtime is linked into user programs, so every name with external
 * linkage here is pvt__rt_* (nothing can collide with the application,
 * PVM or MPI).  It is single-threaded, like the programs of issue 3.
 *
 *   rt_chan.c   the channel to the local paravtd: connect, handshake,
 *               send, detach; a scratch buffer for msgpack objects
 *   rt_stack.c  the shadow call stack and the last known location
 *               (para_vt_fn_enter / para_vt_fn_exit)
 *   rt_crash.c  the crash handler (TASK_CRASH, then die of the signal)
 *   rt_start.c  para_vt_start / para_vt_exit
 *   ../breakpoints/bp_rt.c  para_vt_break: BP_HIT, INSPECT, RESUME, STEP
 *   ../breakpoints/bp_live.c  para_vt_line: the control page, live
 *               breakpoints, stepping
 *
 * Node side: C99 + POSIX + msgpack-c.
 */
#ifndef PARAVT_RT_CORE_H
#define PARAVT_RT_CORE_H

#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "wire_buf.h"
#include "wire_peer.h"

/* Frames of the shadow stack that are stored; deeper ones are counted. */
#define PVT_RT_STACK_MAX 256

/* How long a send may wait for the daemon to read, and how long the
 * daemon's HELLO may take, in nanoseconds. */
#define PVT_RT_SEND_NS (30ull * 1000000000ull)
#define PVT_RT_HELLO_NS (10ull * 1000000000ull)

/* A source location: a function and where in it. */
typedef struct pvt__rt_loc {
	const char *func; /* function name (generated literal), or NULL */
	const char *file; /* source file as the user wrote it, or NULL */
	int line;         /* line in file */
} pvt__rt_loc;

/* ---- channel (rt_chan.c) ----------------------------------------------- */

/* Connects to the daemon's socket at path, sends HELLO and
 * TASK_HELLO(proc, pid) and checks the daemon's HELLO.  0, or a WIRE_E*
 * code with a sentence in err; the runtime is then unattached. */
int pvt__rt_connect(const char *path, uint64_t proc, char *err, size_t errlen);

/* Whether the daemon's HELLO offered capability cap ("ring1"). */
int pvt__rt_daemon_can(const char *cap);

/* The connection, or NULL when unattached (never started, detached, or
 * in a forked child that did not make the connection).  Borrowed. */
wire_peer *pvt__rt_peer(void);

/* This task's process number (PARAVT_PROC). */
uint64_t pvt__rt_proc(void);

/* Writes everything queued, waiting up to PVT_RT_SEND_NS.  0, or an error
 * after which the runtime has detached (with its warning). */
int pvt__rt_push(void);

/* Prints the runtime's one-line warning "paravt: WHY; running without
 * paravt" on stderr and closes the connection.  No-op when unattached. */
void pvt__rt_detach(const char *why);

/* Flushes (bounded) and closes the connection without a warning.
 * Idempotent; in a forked child only closes its copy of the socket. */
void pvt__rt_close(void);

/* Makes the daemon's output FIFO PARAVT_SOCK.<pid> this task's stdout
 * and stderr (after flushing stdio; one pipe for both, as the pvmd gives
 * its tasks): for a PVM task spawned by pvmd whose output nobody catches
 * (it would go to the pvmd's log), the daemon made it at TASK_HELLO and
 * relays what it carries as this process's output.  Waits up to
 * PVT_RT_FIFO_MS for it to appear.  0, or -1 (the output stays where it
 * was). */
int pvt__rt_output_fifo(void);

/* The connection's socket, or -1 when unattached or in a forked child.
 * Async-signal-safe (for the crash handler). */
int pvt__rt_fd(void);

/* Like pvt__rt_peer but without side effects, for the crash handler,
 * which reads its output queue and sequence counter.  Borrowed. */
wire_peer *pvt__rt_peer_sigsafe(void);

/* 1 between pvt__rt_scratch() and the next pvt__rt_push(): a message is
 * being packed, so the output queue may end in a partial frame (the crash
 * handler then sends only its own frame).  Async-signal-safe. */
int pvt__rt_building(void);

/* Empties the scratch buffer and points pk at it (and marks a message as
 * being built, see pvt__rt_building): msgpack objects for the
 * 'o' fields are packed there (grows up to the frame limit, kept between
 * calls so that breakpoints after the first do not allocate). */
void pvt__rt_scratch(msgpack_packer *pk);

/* The scratch buffer's bytes (borrowed until the next pvt__rt_scratch). */
wire_buf *pvt__rt_scratch_buf(void);

/* ---- shadow stack (rt_stack.c) ----------------------------------------- */

/* Records that the task reached a breakpoint at (func, file, line): the
 * last known location, and the current line of the innermost frame. */
void pvt__rt_stack_break(const char *func, const char *file, int line);

/* Calls active in instrumented functions (also beyond PVT_RT_STACK_MAX). */
uint32_t pvt__rt_stack_depth(void);

/* The last known location (innermost frame, or the last breakpoint). */
pvt__rt_loc pvt__rt_stack_last(void);

/* Packs the stack as an array of [func, file, line], innermost first, at
 * most max frames, strings cut at maxstr bytes.  A first entry
 * ["...", "", N] says N frames deeper than the stored ones were not
 * recorded.  With no frames at all, the last known location is the one
 * entry.  Allocation-free and async-signal-safe if pk's callback is.
 * 0, or -1 if the packer's callback failed. */
int pvt__rt_stack_pack(msgpack_packer *pk, uint32_t max, size_t maxstr);

struct pvt_var;  /* paravt_rt.h */
struct pvt_unit;

/* Packs a frame's variables [[name, type, addr, scope]...].  0 or -1. */
typedef int pvt__rt_vars_fn(msgpack_packer *pk, const struct pvt_var *vars,
			    uint32_t n);

/* As pvt__rt_stack_pack, but an outer frame whose variables were
 * recorded at the line it is at now (para_vt_frame) is packed as
 * [func, file, line, unit id, vars], vars by pack. */
int pvt__rt_stack_pack_vars(msgpack_packer *pk, uint32_t max, size_t maxstr,
			    pvt__rt_vars_fn *pack);

/* The unit of the k-th stored frame from the innermost if its variables
 * are recorded for the line it is at, else NULL. */
struct pvt_unit *pvt__rt_stack_unit(uint32_t k);

/* ---- live breakpoints (../breakpoints/bp_live.c) ------------------------ */

/* Makes the control page and names it to the daemon (CTL_PAGE), when
 * the daemon offers "ctl1".  0, or -1 (no live breakpoints: the line
 * probes stay disarmed). */
int pvt__bl_start(void);

/* ---- crash handler (rt_crash.c) ---------------------------------------- */

/* Installs the handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT on
 * an alternate stack, and one for the terminating signals the program
 * left at their default action (SIGTERM, SIGINT, SIGHUP, ...: a CRASH
 * event, then the signal).  0, or -1 if sigaltstack/sigaction failed. */
int pvt__rt_crash_install(void);

/* A fixed buffer that msgpack writes into (signal handlers: no malloc). */
typedef struct pvt__rt_fixbuf {
	char *data; /* the buffer */
	size_t cap; /* its size */
	size_t len; /* bytes written */
} pvt__rt_fixbuf;

/* msgpack write callback into a pvt__rt_fixbuf (data); -1 when full. */
int pvt__rt_fix_write(void *data, const char *buf, size_t len);

/* Writes n bytes to fd with send() and poll() only, waiting about a
 * second at most in all.  Async-signal-safe.  0 or -1. */
int pvt__rt_sigsafe_send(int fd, const char *p, size_t n);

#endif
