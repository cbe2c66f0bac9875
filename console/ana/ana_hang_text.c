/*
 * ana_hang_text.c — the report of the wait-for graph (ana_hang_text in
 * ana_hang.h): a deadlock with the cycle that names it, processes stuck
 * waiting for a task that exited, or the blocked processes that can
 * still be released, each with the call it blocks in and whom it waits
 * for.  The graph itself is built by ana_hang.c.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ana_hang_int.h"
#include "../../wrappers/pvt_event.h"

/* ---- the report ---------------------------------------------------------- */

/* An output buffer that truncates. */
typedef struct hang_out {
	char *buf;
	size_t n, len;
} hang_out;

static void hang_put(hang_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends formatted text to o (silently truncated). */
static void hang_put(hang_out *o, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (o->len + 1 >= o->n)
		return;
	va_start(ap, fmt);
	r = vsnprintf(o->buf + o->len, o->n - o->len, fmt, ap);
	va_end(ap);
	if (r > 0)
		o->len += (size_t)r < o->n - o->len ? (size_t)r
						     : o->n - o->len - 1;
}

/* Appends "p3 (t40003)" (or "p3 (rank 2)", "p3"). */
static void hang_put_proc(hang_out *o, const ana_trace *tr, uint32_t i)
{
	const ana_proc *p = &tr->procs[i];

	if (!p->have_tid)
		hang_put(o, "%s", p->name);
	else if (ana_hang_is_mpi(tr, i))
		hang_put(o, "%s (rank %d)", p->name, (int)p->tid);
	else
		hang_put(o, "%s (t%x)", p->name, (unsigned)p->tid);
}

/* Appends the list of processes i waits for ("p2", "p2, p3 (exited)"),
 * joined by sep. */
static void hang_put_waits(hang_out *o, const ana_trace *tr,
			   const ana_hang *h, uint32_t i, const char *sep)
{
	const ana_hang_proc *hp = &h->p[i];
	uint32_t j;

	for (j = 0; j < hp->nwaits; j++) {
		uint32_t q = hp->waits[j];

		hang_put(o, "%s%s%s", j ? sep : "", tr->procs[q].name,
			 h->p[q].state == ANA_HANG_ENDED ? " (exited)" : "");
	}
}

/* Appends what blocked process i is in and waits for, its place and how
 * its call was made, as one line. */
static void hang_put_blocked(hang_out *o, const ana_trace *tr,
			     const ana_hang *h, uint32_t i)
{
	const ana_hang_proc *hp = &h->p[i];
	const ana_ev *e = ana_get(tr, hp->at);
	int call = ana_hang_call_of(e);
	uint32_t q;

	hang_put(o, "  ");
	hang_put_proc(o, tr, i);
	hang_put(o, " %s", ana_hang_op_name(e->op));
	if (call == HANG_RECV && e->peer < 0) {
		hang_put(o, " from any task");
	} else if (call == HANG_RECV) {
		q = ana_proc_by_tid(tr, e->peer);
		if (q != ANA_NONE)
			hang_put(o, " from %s%s", tr->procs[q].name,
				 h->p[q].state == ANA_HANG_ENDED ? " (exited)"
								 : "");
		else if (ana_hang_is_mpi(tr, i))
			hang_put(o, " from rank %d (none of its events has "
				 "arrived: it computes, or is not traced)",
				 (int)e->peer);
		else
			hang_put(o, " from t%x (none of its events has "
				 "arrived: it computes, or is not traced)",
				 (unsigned)e->peer);
	} else if (hp->nwaits > 0) {
		hang_put(o, " waiting for ");
		hang_put_waits(o, tr, h, i,
			       call == HANG_MPIWAIT ? " or " : ", ");
	}
	if (call == HANG_RECV)
		hang_put(o, e->tag < 0 ? " any tag" : " tag %d", (int)e->tag);
	hang_put(o, " at %s:%d in %s%s\n", ana_str(tr, e->file), (int)e->line,
		 ana_str(tr, e->func), hp->join == ANA_HANG_READY ?
		 " (a message it can take was sent)" : "");
}

/* Appends the headline of the deadlock: its cycle. */
static void hang_put_cycle(hang_out *o, const ana_trace *tr,
			   const ana_hang *h)
{
	uint32_t j;

	if (h->ncycle == 1) {
		hang_put(o, "deadlock: %s waits for itself\n",
			 tr->procs[h->cycle[0]].name);
		return;
	}
	if (h->ncycle == 2) {
		hang_put(o, "deadlock: %s and %s wait for each other\n",
			 tr->procs[h->cycle[0]].name,
			 tr->procs[h->cycle[1]].name);
		return;
	}
	hang_put(o, "deadlock: ");
	for (j = 0; j < h->ncycle; j++)
		hang_put(o, "%s%s waits for %s", j ? ", " : "",
			 tr->procs[h->cycle[j]].name,
			 tr->procs[h->cycle[(j + 1) % h->ncycle]].name);
	hang_put(o, "\n");
}

/* True if i is on the cycle. */
static int hang_on_cycle(const ana_hang *h, uint32_t i)
{
	uint32_t j;

	for (j = 0; j < h->ncycle; j++)
		if (h->cycle[j] == i)
			return 1;
	return 0;
}

/* Appends the reason a stuck process outside the deadlock never returns
 * ("p2 waits for p3 which has exited"). */
static void hang_put_stuck(hang_out *o, const ana_trace *tr,
			   const ana_hang *h, uint32_t i)
{
	const ana_hang_proc *hp = &h->p[i];
	uint32_t j, q;

	for (j = 0; j < hp->nwaits; j++) {
		q = hp->waits[j];
		if (h->p[q].state == ANA_HANG_ENDED) {
			hang_put(o, "hang: %s waits for %s which has exited\n",
				 tr->procs[i].name, tr->procs[q].name);
			return;
		}
	}
	for (j = 0; j < hp->nwaits; j++) {
		q = hp->waits[j];
		if (h->p[q].state == ANA_HANG_BLOCKED) {
			hang_put(o, "hang: %s waits for %s which never "
				 "returns\n", tr->procs[i].name,
				 tr->procs[q].name);
			return;
		}
	}
	hang_put(o, "hang: %s waits for any task and none is left\n",
		 tr->procs[i].name);
}

void ana_hang_text(const ana_trace *tr, const ana_hang *h, char *buf,
		   size_t n)
{
	hang_out o = {buf, n, 0};
	uint32_t i;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (h->nblocked == 0) {
		hang_put(&o, "no process is blocked\n");
		return;
	}
	if (h->deadlock && h->ncycle > 0) {
		hang_put_cycle(&o, tr, h);
		for (i = 0; i < h->ncycle; i++)
			hang_put_blocked(&o, tr, h, h->cycle[i]);
		for (i = 0; i < h->nprocs; i++)
			if (h->p[i].deadlocked && !hang_on_cycle(h, i)) {
				hang_put(&o, "  held by the deadlock:\n");
				break;
			}
		for (i = 0; i < h->nprocs; i++)
			if (h->p[i].deadlocked && !hang_on_cycle(h, i))
				hang_put_blocked(&o, tr, h, i);
	}
	for (i = 0; i < h->nprocs; i++)
		if (h->p[i].stuck && !h->p[i].deadlocked) {
			hang_put_stuck(&o, tr, h, i);
			hang_put_blocked(&o, tr, h, i);
		}
	for (i = 0; i < h->nprocs; i++)
		if (h->p[i].state == ANA_HANG_BLOCKED && !h->p[i].stuck) {
			hang_put(&o, "waiting (no deadlock):\n");
			break;
		}
	for (i = 0; i < h->nprocs; i++)
		if (h->p[i].state == ANA_HANG_BLOCKED && !h->p[i].stuck)
			hang_put_blocked(&o, tr, h, i);
}
