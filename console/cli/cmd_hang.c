/*
 * cmd_hang.c — hang and deadlock diagnosis in the console: the
 * command `info hang` and the no-progress watchdog of run and continue.
 *
 * Both take the analysed trace of what the console holds (con_ana_get),
 * build its wait-for graph (ana_hang_compute) and print the report of
 * ana_hang_text: who is blocked in which receive, barrier or group call,
 * waiting for whom, at which file:line, and the cycle of a deadlock.  In
 * a live run `info hang` adds how long each blocked process has been
 * waiting (now minus the console time of its open START).
 *
 * The watchdog is a con_dbg_watch watcher, installed only while run or
 * continue waits for the processes to settle (con_hang_watchdog, called
 * by cmd_run.c).  When no event has arrived for PARAVT_HANG_TIMEOUT
 * seconds (default 10; 0 turns it off) and no process computes (every
 * running process with events is inside a receive, probe, group call or
 * MPI wait; the others are stopped or ended), it prints
 *     [no progress for 10 s: every running process is blocked]
 * and the report, once per stall (until an event arrives again).  If
 * the graph holds a hang that no message can end — a deadlock, or a
 * process waiting only for tasks that have exited ("hang: p1 waits for
 * any task and none is left") — it ends the wait: run/continue then say
 * "[stopped waiting: deadlock: p1 and p2 wait for each other]" and give
 * the prompt (or the next command of a script) back at once (paravt
 * trace: status 4).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_hang.h"
#include "con_ana.h"
#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "wire.h"

#define CON_HANG_SECS 10.0        /* default PARAVT_HANG_TIMEOUT */
#define CON_HANG_MAX 1e6          /* largest PARAVT_HANG_TIMEOUT used */
#define CON_HANG_TEXT_MAX (8u << 20) /* largest report, bytes */

static struct {
	double secs;    /* no-progress time, s (0: off) */
	int on;         /* installed (inside a run/continue wait) */
	uint64_t told;  /* con_ev_last_arrival() of the stall reported */
} con_hang;

/* PARAVT_HANG_TIMEOUT in seconds: the default when unset or not a
 * number, 0 (off) when 0 or negative. */
static double con_hang_timeout(void)
{
	const char *s = getenv("PARAVT_HANG_TIMEOUT");
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return CON_HANG_SECS;
	v = strtod(s, &end);
	if (*end != '\0' || v != v)
		return CON_HANG_SECS;
	if (v > CON_HANG_MAX)
		return CON_HANG_MAX;
	return v > 0 ? v : 0;
}

/* The console's process of analysis process i, or NULL. */
static con_proc *con_hang_live(uint32_t i)
{
	size_t src = con_ana_src_of(i);
	con_ev_src *s;
	con_proc *p;

	if (src == ANA_NONE || src >= con_ev_nsrcs())
		return NULL;
	s = con_ev_src_at(src);
	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->id == s->pid_id)
			return p;
	return NULL;
}

/* Prints "blocked for: p1 12.3 s, p2 12.1 s" for the blocked processes
 * that are running now (a live run), nothing otherwise. */
static void con_hang_print_since(const ana_trace *tr, const ana_hang *h)
{
	int64_t now = (int64_t)wire_now_ns();
	const ana_ev *e;
	con_proc *p;
	uint32_t i;
	int n = 0;

	for (i = 0; i < h->nprocs; i++) {
		if (h->p[i].state != ANA_HANG_BLOCKED)
			continue;
		p = con_hang_live(i);
		e = ana_get(tr, h->p[i].at);
		if (p == NULL || p->state != CON_PROC_RUNNING || e == NULL)
			continue;
		printf("%s%s %.1f s", n++ ? ", " : "blocked for: ",
		       tr->procs[i].name, (double)(now - e->t_ns) / 1e9);
	}
	if (n > 0)
		printf("\n");
}

/* Prints a note naming the processes the graph calls blocked that the
 * console knows have ended since (killed: no event says so). */
static void con_hang_print_gone(const ana_trace *tr, const ana_hang *h)
{
	con_proc *p;
	uint32_t i;
	int n = 0;

	for (i = 0; i < h->nprocs; i++) {
		if (h->p[i].state != ANA_HANG_BLOCKED)
			continue;
		p = con_hang_live(i);
		if (p == NULL || (p->state != CON_PROC_EXITED &&
				  p->state != CON_PROC_CRASHED))
			continue;
		printf("%s%s", n++ ? ", " : "[ended since their last event: ",
		       tr->procs[i].name);
	}
	if (n > 0)
		printf("]\n");
}

/* Room for the report of n processes: a line each, and a group call's
 * line names up to n others. */
static size_t con_hang_text_size(uint32_t n)
{
	double want = 4096.0 + (double)n * (256.0 + 12.0 * n);

	return want < CON_HANG_TEXT_MAX ? (size_t)want : CON_HANG_TEXT_MAX;
}

/* True if some blocked process is stuck for good: a deadlock, or a wait
 * for tasks that have all exited — a hang no message can end. */
static int con_hang_stuck(const ana_hang *h)
{
	uint32_t i;

	for (i = 0; i < h->nprocs; i++)
		if (h->p[i].stuck)
			return 1;
	return h->deadlock != 0;
}

/* Computes the graph of the events so far and prints its report; with
 * why, the headline of a hang (a deadlock, or a process stuck for good)
 * goes there too.  Returns 1 if there is one, 0 if not, or a negative
 * code with err. */
static int con_hang_report(char *why, size_t whylen, char *err,
			   size_t errlen)
{
	ana_trace *tr = con_ana_get(err, errlen);
	char *text = NULL, *nl;
	size_t size;
	ana_hang h;
	int rc;

	if (tr == NULL)
		return WIRE_ESTATE;
	if (ana_hang_compute(tr, &h) != 0)
		goto out_nomem;
	size = con_hang_text_size(h.nprocs);
	text = malloc(size);
	if (text == NULL) {
		ana_hang_free(&h);
		goto out_nomem;
	}
	ana_hang_text(tr, &h, text, size);
	fputs(text, stdout);
	con_hang_print_since(tr, &h);
	con_hang_print_gone(tr, &h);
	rc = con_hang_stuck(&h);
	if (rc && why != NULL) {
		nl = strchr(text, '\n');
		snprintf(why, whylen, "%.*s",
			 nl ? (int)(nl - text) : (int)strlen(text), text);
	}
	ana_hang_free(&h);
	free(text);
	fflush(stdout);
	return rc;
out_nomem:
	snprintf(err, errlen, "out of memory for the wait-for graph");
	return WIRE_ENOMEM;
}

/* info hang */
int con_info_hang(int argc, char **argv, char *err, size_t errlen)
{
	int rc;

	if (argc > 1) {
		snprintf(err, errlen, "usage: info hang");
		return WIRE_EARG;
	}
	rc = con_hang_report(NULL, 0, err, errlen);
	return rc < 0 ? rc : 0;
}

/* True if some process runs and every running process is waiting inside
 * a receive, probe, group call or MPI wait (its last event is such a
 * START).  The launcher of MPI ranks (mpirun) has no events and releases
 * nobody: it does not count.  Any other running process without events
 * has not flushed any yet (an MPI rank computing since MPI_Init sends
 * nothing until it blocks): it computes, and may release the others. */
static int con_hang_all_blocked(void)
{
	con_ev_src *s;
	con_proc *p;
	int waiting = 0;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		if (p->state != CON_PROC_RUNNING || p->launcher)
			continue;
		s = con_ev_src_find(p->node, p->proc);
		if (s == NULL || con_ev_activity(s) != CON_EV_WAITING)
			return 0;
		waiting = 1;
	}
	return waiting;
}

/* The watcher: see the top of the file. */
static int con_hang_watch(void *ctx, char *why, size_t whylen)
{
	uint64_t last = con_ev_last_arrival(), now = wire_now_ns();
	char err[CON_CMD_ERR];
	int rc;

	if (con_hang.secs <= 0 || last == 0 || last == con_hang.told ||
	    now - last < (uint64_t)(con_hang.secs * 1e9) ||
	    !con_hang_all_blocked())
		return 0;
	con_hang.told = last;
	con_cmd_dbg_events();
	printf("[no progress for %g s: every running process is blocked]\n",
	       con_hang.secs);
	rc = con_hang_report(why, whylen, err, sizeof err);
	if (rc < 0)
		printf("[no wait-for graph: %s]\n", err);
	fflush(stdout);
	return rc > 0;
}

/* See con_cmd.h. */
void con_hang_watchdog(int on)
{
	if (on && !con_hang.on) {
		con_hang.secs = con_hang_timeout();
		if (con_hang.secs > 0 &&
		    con_dbg_watch(con_hang_watch, NULL) == 0)
			con_hang.on = 1;
	} else if (!on && con_hang.on) {
		con_dbg_unwatch(con_hang_watch, NULL);
		con_hang.on = 0;
	}
}
