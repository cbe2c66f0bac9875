/*
 * con_dbg_rec.c — record breakpoints (DDT's tracepoints): a process that
 * reaches one is stopped by its runtime like at any breakpoint; the
 * console reads the breakpoint's expressions (or every parameter and
 * local) through the same INSPECT path as `print`, queues one
 * CON_EV_RECORD line "prog.c:41 i = 3, sum = 17.5", hands each value to
 * the trace file (con_tfile_var) and RESUMEs the process.  The user never
 * sees it stopped: run and continue keep waiting (con_dbg_settled asks
 * con_dbg_rec_busy).
 *
 * One job per stopped process, in a list.  A job asks for its values as
 * slots of the inspection table are free, and ends when every answer is
 * in, when the process is no longer stopped (ended, node lost), or after
 * CON_DBG_VALUE_SECS.  con_dbg_rec_poll drives the jobs; the frame hook
 * calls it after each answer and the wait loop on every round.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_dbg_int.h"
#include "con_tfile.h"
#include "paravt_rt.h"
#include "wire.h"

#define CON_REC_LINE 4096  /* longest record line kept, bytes */
#define CON_REC_ERR 256    /* longest sentence of a failed request */

/* One record stop being served. */
typedef struct con_rec {
	con_proc *proc;        /* the stopped process (borrowed) */
	int bp;                /* breakpoint number */
	uint64_t hit;          /* the breakpoint's hit count at this stop */
	char *file;            /* file of the stop, as the hit said; owned */
	int line;              /* line of the stop */
	size_t n;              /* values to read */
	char **expr;           /* what each value is called; owned */
	int *var;              /* per value: index in proc->vars, or -1 for
			          an expression; owned */
	con_inspect *q;        /* per value: the request; owned */
	int *asked;            /* per value: sent, or failed to send */
	uint64_t deadline;     /* wire_now_ns after which we give up */
	struct con_rec *next;  /* next job, or NULL */
} con_rec;

static con_rec *con_rec_jobs; /* the jobs, oldest first */

/* ---- jobs ------------------------------------------------------------- */

/* Frees a job (its requests leave the inspection table). */
static void con_rec_free(con_rec *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->asked != NULL && r->asked[i])
			con_dbg_inspect_done(&r->q[i]);
		if (r->expr != NULL)
			free(r->expr[i]);
	}
	free(r->expr);
	free(r->var);
	free(r->q);
	free(r->asked);
	free(r->file);
	free(r);
}

/* Adds value number k: expression e, or variable var of the process. */
static int con_rec_item(con_rec *r, size_t k, const char *e, int var)
{
	r->expr[k] = strdup(e);
	r->var[k] = var;
	return r->expr[k] != NULL ? 0 : -1;
}

/* True if variable v is a parameter or a local. */
static int con_rec_is_local(const con_var *v)
{
	return v->scope == PVT_PARAM || v->scope == PVT_LOCAL;
}

/* Fills r's list from b: its expressions, or every local of p. */
static int con_rec_fill(con_rec *r, const con_proc *p, const bp *b)
{
	size_t i, k = 0;

	r->n = b->nrec;
	if (b->nrec == 0)
		for (i = 0; i < p->nvars; i++)
			r->n += con_rec_is_local(&p->vars[i]);
	r->expr = calloc(r->n + 1, sizeof *r->expr);
	r->var = calloc(r->n + 1, sizeof *r->var);
	r->q = calloc(r->n + 1, sizeof *r->q);
	r->asked = calloc(r->n + 1, sizeof *r->asked);
	if (r->expr == NULL || r->var == NULL || r->q == NULL ||
	    r->asked == NULL)
		return -1;
	for (i = 0; i < b->nrec; i++)
		if (con_rec_item(r, k++, b->rec[i], -1) < 0)
			return -1;
	for (i = 0; b->nrec == 0 && i < p->nvars; i++)
		if (con_rec_is_local(&p->vars[i]) &&
		    con_rec_item(r, k++, p->vars[i].name, (int)i) < 0)
			return -1;
	return 0;
}

/* A record breakpoint b stopped p at file:line (con_dbg_on_hit, after
 * the stop data is in p).  Starts the job; when that is impossible the
 * process is resumed at once with a note.  0 or -1. */
int con_dbg_rec_start(con_proc *p, const bp *b, const char *file, int line)
{
	con_rec *r = calloc(1, sizeof *r), **pp;
	char err[160];

	if (r == NULL || (r->file = strdup(file)) == NULL ||
	    con_rec_fill(r, p, b) < 0) {
		if (r != NULL)
			con_rec_free(r);
		con_dbg_event_add(CON_EV_NOTE, p, NULL, "record breakpoint: "
				  "out of memory; values not read");
		con_dbg_resume(p, err, sizeof err);
		return -1;
	}
	r->proc = p;
	r->bp = b->id;
	r->hit = b->hits;
	r->line = line;
	r->deadline = wire_now_ns() + (uint64_t)(CON_DBG_VALUE_SECS * 1e9);
	for (pp = &con_rec_jobs; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = r;
	con_dbg_rec_poll();
	return 0;
}

/* True if a record job holds p (stopped, but not for the user). */
int con_dbg_rec_busy(const con_proc *p)
{
	con_rec *r;

	for (r = con_rec_jobs; r != NULL; r = r->next)
		if (p == NULL || r->proc == p)
			return 1;
	return 0;
}

/* ---- asking and finishing --------------------------------------------- */

/* True if the inspection table has a free slot. */
static int con_rec_slot_free(void)
{
	size_t i;

	for (i = 0; i < sizeof con_dbg.pend / sizeof con_dbg.pend[0]; i++)
		if (con_dbg.pend[i] == NULL)
			return 1;
	return 0;
}

/* Sends the requests not sent yet, while slots are free.  A request
 * that cannot be made (unknown name, bad path) is answered at once with
 * the reason. */
static void con_rec_ask(con_rec *r)
{
	char err[CON_REC_ERR];
	const con_var *v;
	size_t i;

	for (i = 0; i < r->n && con_rec_slot_free(); i++) {
		if (r->asked[i])
			continue;
		r->asked[i] = 1;
		v = r->var[i] >= 0 ? &r->proc->vars[r->var[i]] : NULL;
		if (con_dbg_inspect(r->proc, v != NULL ? NULL : r->expr[i], v,
				    &r->q[i], err, sizeof err) == 0)
			continue;
		con_dbg_inspect_done(&r->q[i]);
		r->q[i].done = 1;
		r->q[i].text = strdup(err);
	}
}

/* True when every value of r is in, or cannot come any more. */
static int con_rec_done(con_rec *r)
{
	con_inspect_set s = {r->q, r->n};
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!r->asked[i])
			return 0;
	return con_dbg_inspect_all_done(&s);
}

/* Value i of r as text: the value, or "<...>" around what went wrong. */
static void con_rec_value(const con_rec *r, size_t i, char *buf, size_t n)
{
	const con_inspect *q = &r->q[i];

	if (q->done && q->ok)
		snprintf(buf, n, "%s", q->text);
	else
		snprintf(buf, n, "<%s>", q->text != NULL ? q->text :
			 q->done ? "no value" : "no answer in time");
}

/* The line of r: "prog.c:41 i = 3, sum = 17.5" (file without its
 * directories); each value also goes to the trace file. */
static void con_rec_line(const con_rec *r, char *line, size_t n)
{
	const char *base = strrchr(r->file, '/');
	char value[CON_REC_LINE];
	size_t i, used;
	int w;

	w = snprintf(line, n, "%s:%d", base != NULL ? base + 1 : r->file,
		     r->line);
	used = w > 0 ? (size_t)w : 0;
	for (i = 0; i < r->n; i++) {
		con_rec_value(r, i, value, sizeof value);
		con_tfile_var(r->proc->id, r->bp, r->file, r->line, r->hit,
			      r->expr[i], value);
		if (used >= n)
			continue;
		w = snprintf(line + used, n - used, "%s%s = %s",
			     i > 0 ? ", " : " ", r->expr[i], value);
		used += w > 0 ? (size_t)w : 0;
	}
	if (r->n == 0 && used < n)
		snprintf(line + used, n - used, " (no locals)");
}

/* True if some value of r arrived. */
static int con_rec_any_value(const con_rec *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->q[i].done && r->q[i].ok)
			return 1;
	return 0;
}

/* Ends job r: queues its line and resumes the process if it is still
 * stopped.  A process that ended (killed, node lost) before any value
 * arrived leaves no line: there is nothing to record. */
static void con_rec_finish(con_rec *r)
{
	char line[CON_REC_LINE], err[CON_REC_ERR];
	con_dbg_event *e;

	if (r->proc->state != CON_PROC_STOPPED && !con_rec_any_value(r))
		return;
	con_rec_line(r, line, sizeof line);
	e = con_dbg_event_add(CON_EV_RECORD, r->proc, NULL, line);
	if (e != NULL) {
		e->bp = r->bp;
		e->status = (int64_t)r->hit;
	}
	if (r->proc->state == CON_PROC_STOPPED &&
	    con_dbg_resume(r->proc, err, sizeof err) < 0)
		con_dbg_event_add(CON_EV_NOTE, r->proc, NULL, err);
}

/* True if p is still in the process list (a new run frees ended ones). */
static int con_rec_alive(const con_proc *p)
{
	const con_proc *q;

	for (q = con_dbg.procs; q != NULL; q = q->next)
		if (q == p)
			return 1;
	return 0;
}

/* Moves every job on: asks, and finishes those that are complete. */
void con_dbg_rec_poll(void)
{
	con_rec **pp = &con_rec_jobs, *r;
	uint64_t now = wire_now_ns();

	while ((r = *pp) != NULL) {
		if (!con_rec_alive(r->proc)) {
			*pp = r->next;
			r->proc = NULL;
			con_rec_free(r);
			continue;
		}
		con_rec_ask(r);
		if (!con_rec_done(r) && now < r->deadline) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		con_rec_finish(r);
		con_rec_free(r);
	}
}

/* The processes' records for a trace file being opened (con_tfile.h). */
void con_dbg_tfile_procs(int ended)
{
	const con_proc *p;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		if (!ended) {
			con_tfile_proc(p->node, p->proc, p->id, "");
			continue;
		}
		if (p->state == CON_PROC_EXITED)
			con_tfile_exit(p->id, "exit", p->status);
		else if (p->state == CON_PROC_CRASHED)
			con_tfile_exit(p->id, "signal", p->sig);
	}
}
