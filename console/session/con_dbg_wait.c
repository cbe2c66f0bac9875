/*
 * con_dbg_wait.c — when a run has settled, resume and kill, and the wait
 * loop (con_dbg.h): con_dbg_wait reads the nodes (the frame hook,
 * con_dbg_hook.c, takes what they sent), calls the caller's tick and the
 * watchers, and ends on the caller's condition, a watcher, Ctrl-C or the
 * deadline.  Nothing here prints.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_dbg_int.h"
#include "con_ev.h"
#include "wire.h"

#define CON_DBG_BLOCKED_SECS 2.0 /* quiet time after which processes
				    blocked while others are stopped at
				    breakpoints count as settled */

static volatile sig_atomic_t *con_dbg_intr; /* Ctrl-C flag, or NULL */

/* ---- run, resume, kill ------------------------------------------------ */

/* Marks processes and runs of nodes that went down. */
static void con_dbg_reap(void)
{
	con_runreq *r;
	con_proc *p;
	char text[WIRE_TEXT_MAX];

	for (r = con_dbg.runs; r != NULL; r = r->next)
		if (r->pending && con_dbg_node_up(r->node) == NULL) {
			r->pending = 0;
			con_dbg_event_add(CON_EV_NOTE, NULL, r->node,
					  "run lost: the node is down");
		}
	for (p = con_dbg.procs; p != NULL; p = p->next)
		if ((p->state == CON_PROC_RUNNING ||
		     p->state == CON_PROC_STOPPED) &&
		    con_dbg_node_up(p->node) == NULL) {
			con_proc_clear_stop(p);
			p->state = CON_PROC_CRASHED;
			p->crash_told = 1;
			snprintf(text, sizeof text, "lost: node %s is down",
				 p->node);
			snprintf(p->where, sizeof p->where, "%s", text);
			con_dbg_event_add(CON_EV_NOTE, p, NULL, text);
		}
	con_dbg_build_reap();
	con_dbg_rec_poll();
	con_dbg_cond_poll();
	con_dbg_launchers_poll(0);
}

/* Settled: no RUN unanswered, no process running, and none held at a
 * record breakpoint. */
/* True if running process p is waiting inside a receive, probe or group
 * call, by its events (con_ev_activity). */
static int con_dbg_blocked(const con_proc *p)
{
	const con_ev_src *s = con_ev_src_find(p->node, p->proc);

	return s != NULL && con_ev_activity(s) == CON_EV_WAITING;
}

/* Every run answered and no process runs; or some process is stopped at
 * a breakpoint and every running one is blocked in a receive, probe or
 * group call with no event from anyone for CON_DBG_BLOCKED_SECS: a PVM
 * master (or MPI ranks in a barrier) waiting for tasks stopped at
 * breakpoints, which only the user can release.  A process whose events
 * have not come yet counts as running. */
int con_dbg_settled(void *ctx)
{
	con_runreq *r;
	con_proc *p;
	int stopped = 0, blocked = 0;

	if (con_dbg_rec_busy(NULL))
		return 0;
	for (p = con_dbg.procs; p != NULL; p = p->next)
		if (p->cond_bp != 0 && p->state == CON_PROC_STOPPED)
			return 0; /* its condition is not decided yet */
	for (r = con_dbg.runs; r != NULL; r = r->next)
		if (r->pending)
			return 0;
	for (p = con_dbg.procs; p != NULL; p = p->next) {
		if (p->state == CON_PROC_STOPPED)
			stopped = 1;
		if (p->state != CON_PROC_RUNNING ||
		    (p->launcher && con_dbg_launcher_idle(p)))
			continue; /* mpirun while its ranks decide */
		if (!con_dbg_blocked(p))
			return 0;
		blocked = 1;
	}
	return !blocked ||
	       (stopped && wire_now_ns() - con_ev_last_arrival() >
				   (uint64_t)(CON_DBG_BLOCKED_SECS * 1e9));
}

/* RESUME (mode 0) or STEP mode to stopped process p. */
static int con_dbg_go(con_proc *p, int mode, char *err, size_t errlen)
{
	con_node *n = con_dbg_node_up(p->node);
	int rc;

	if (p->state != CON_PROC_STOPPED) {
		snprintf(err, errlen, "p%d is not stopped", p->id);
		return WIRE_ESTATE;
	}
	if (n == NULL) {
		snprintf(err, errlen, "p%d: node %s is down", p->id, p->node);
		return WIRE_ESTATE;
	}
	if (mode == 0)
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_RESUME,
			       wire_peer_seq(&n->peer), n->peer.max_frame,
			       (uint64_t)p->proc);
	else
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_STEP,
			       wire_peer_seq(&n->peer), n->peer.max_frame,
			       (uint64_t)p->proc, (uint64_t)mode, (uint64_t)0);
	rc = con_dbg_flush(n, rc, err, errlen);
	if (rc < 0)
		return rc;
	con_proc_clear_stop(p);
	p->state = CON_PROC_RUNNING;
	p->where[0] = '\0';
	return 0;
}

/* continue: RESUME one stopped process. */
int con_dbg_resume(con_proc *p, char *err, size_t errlen)
{
	return con_dbg_go(p, 0, err, errlen);
}

/* step, next, finish, until: STEP one stopped process. */
int con_dbg_step(con_proc *p, int mode, char *err, size_t errlen)
{
	if (!con_dbg.have_inst) {
		snprintf(err, errlen, "no build to step in");
		return WIRE_ESTATE;
	}
	return con_dbg_go(p, mode, err, errlen);
}

/* Sends KILL proc (0: all of the node) to n. */
static int con_dbg_kill_send(con_node *n, uint32_t proc, char *err,
			     size_t errlen)
{
	int rc = wire_pack(wire_peer_out(&n->peer), WIRE_KILL,
			   wire_peer_seq(&n->peer), n->peer.max_frame,
			   (uint64_t)proc);

	return con_dbg_flush(n, rc, err, errlen);
}

/* kill: one process, or every live process of every node. */
int con_dbg_kill(con_proc *p, char *err, size_t errlen)
{
	con_node *n;
	int rc = 0, any = 0;

	if (p != NULL) {
		n = con_dbg_node_up(p->node);
		if (p->state == CON_PROC_EXITED ||
		    p->state == CON_PROC_CRASHED || n == NULL) {
			snprintf(err, errlen, "p%d is not alive", p->id);
			return WIRE_ESTATE;
		}
		return con_dbg_kill_send(n, p->proc, err, errlen);
	}
	for (p = con_dbg.procs; p != NULL; p = p->next) {
		if (p->state == CON_PROC_EXITED || p->state == CON_PROC_CRASHED)
			continue;
		any = 1;
		n = con_dbg_node_up(p->node);
		if (n != NULL && rc == 0)
			rc = con_dbg_kill_send(n, p->proc, err, errlen);
	}
	if (!any) {
		snprintf(err, errlen, "no process is alive");
		return WIRE_ESTATE;
	}
	return rc;
}

/* Killed: every process has ended. */
int con_dbg_killed(void *ctx)
{
	con_proc *p, *only = ctx;

	for (p = con_dbg.procs; p != NULL; p = p->next)
		if ((only == NULL || p == only) &&
		    (p->state == CON_PROC_RUNNING ||
		     p->state == CON_PROC_STOPPED))
			return 0;
	return 1;
}

/* ---- waiting ---------------------------------------------------------- */

/* Remembers the interrupt flag. */
void con_dbg_set_interrupt(volatile sig_atomic_t *flag)
{
	con_dbg_intr = flag;
}

/* The watchers con_dbg_wait calls (con_dbg_watch). */
#define CON_DBG_WATCH_MAX 8
static char con_dbg_watch_text[512];
static struct {
	con_dbg_watch_fn *fn;
	void *ctx;
} con_dbg_watches[CON_DBG_WATCH_MAX];

/* Adds a watcher; 0, or WIRE_ENOMEM when the table is full. */
int con_dbg_watch(con_dbg_watch_fn *fn, void *ctx)
{
	int i;

	for (i = 0; i < CON_DBG_WATCH_MAX; i++)
		if (con_dbg_watches[i].fn == NULL ||
		    (con_dbg_watches[i].fn == fn &&
		     con_dbg_watches[i].ctx == ctx)) {
			con_dbg_watches[i].fn = fn;
			con_dbg_watches[i].ctx = ctx;
			return 0;
		}
	return WIRE_ENOMEM;
}

/* Removes the watcher (fn, ctx) if present. */
void con_dbg_unwatch(con_dbg_watch_fn *fn, void *ctx)
{
	int i;

	for (i = 0; i < CON_DBG_WATCH_MAX; i++)
		if (con_dbg_watches[i].fn == fn &&
		    con_dbg_watches[i].ctx == ctx)
			con_dbg_watches[i].fn = NULL;
}

/* Calls every watcher; the first nonzero answer is returned (and its
 * sentence kept for con_dbg_watch_why). */
static int con_dbg_watch_all(void)
{
	int i, rc;

	for (i = 0; i < CON_DBG_WATCH_MAX; i++)
		if (con_dbg_watches[i].fn != NULL) {
			con_dbg_watch_text[0] = '\0';
			rc = con_dbg_watches[i].fn(con_dbg_watches[i].ctx,
						   con_dbg_watch_text,
						   sizeof con_dbg_watch_text);
			if (rc != 0)
				return rc;
		}
	return 0;
}

/* Why the last wait that returned CON_DBG_EWATCH ended. */
const char *con_dbg_watch_why(void)
{
	return con_dbg_watch_text;
}

/* Reads the nodes until cond holds, the deadline passes or Ctrl-C. */
int con_dbg_wait(con_dbg_cond *cond, void *ctx, double seconds,
		 con_node_event_fn *announce, void (*tick)(void *),
		 void *tctx)
{
	uint64_t deadline = wire_now_ns() + (uint64_t)(seconds * 1e9);
	struct pollfd pfd[256];
	uint64_t now;
	int n, ms;

	for (;;) {
		con_node_check_all(announce, NULL);
		con_node_clock_poll();
		con_dbg_reap();
		if (tick != NULL)
			tick(tctx);
		if (cond(ctx))
			return 0;
		if (con_dbg_watch_all() != 0)
			return CON_DBG_EWATCH;
		if (con_dbg_intr != NULL && *con_dbg_intr) {
			*con_dbg_intr = 0;
			return WIRE_ESTATE;
		}
		now = wire_now_ns();
		if (now >= deadline)
			return WIRE_ETIMEOUT;
		ms = (int)((deadline - now) / 1000000) + 1;
		if (ms > 200)
			ms = 200;
		n = con_node_pollfds(pfd, 256);
		if (poll(pfd, (nfds_t)n, ms) < 0 && errno != EINTR)
			return WIRE_EIO;
	}
}
