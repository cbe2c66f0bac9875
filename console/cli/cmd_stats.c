/*
 * cmd_stats.c — the `stats` command: per process counts of the stored
 * events (sends, receives, bytes, group calls, events, lost), and the
 * cells `info procs` takes from a process's events (its tid, what it is
 * doing, where its last event was).
 */
#include <stdio.h>
#include <stdlib.h>

#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "wire.h"

/* Prints one line of the stats table. */
static void con_stats_line(const char *who, const char *node,
			   const char *tid, const con_ev_stats *st)
{
	printf("%-6s %-10s %-8s %7llu %7llu %11llu %11llu %5llu %8llu "
	       "%6llu\n", who, node, tid, (unsigned long long)st->n.sends,
	       (unsigned long long)st->n.recvs,
	       (unsigned long long)st->n.bytes_out,
	       (unsigned long long)st->n.bytes_in,
	       (unsigned long long)st->n.colls,
	       (unsigned long long)st->n.events, (unsigned long long)st->lost);
}

/* The Tid cell of source s: a PVM tid in PVM's hex form, an MPI rank
 * in decimal, "-" when unknown. */
static void con_ev_cmd_tid(const con_ev_src *s, char *buf, size_t n)
{
	if (s == NULL || !s->state.have_tid)
		snprintf(buf, n, "-");
	else if (s->state.mpi) /* an MPI rank */
		snprintf(buf, n, "%d", s->state.tid);
	else
		snprintf(buf, n, "t%x", (unsigned)s->state.tid);
}

/* qsort order of sources: by process number. */
static int con_stats_cmp(const void *a, const void *b)
{
	const con_ev_src *x = *(con_ev_src *const *)a;
	const con_ev_src *y = *(con_ev_src *const *)b;

	return (x->pid_id > y->pid_id) - (x->pid_id < y->pid_id);
}

/* stats: per process counts from the stored events (rows by process
 * number), and the total. */
int con_cmd_stats(int argc, char **argv, char *err, size_t errlen)
{
	con_ev_src **v, *s;
	con_ev_stats t;
	char who[16], tid[16];
	size_t i, n = con_ev_nsrcs();

	con_ev_cmd_live();
	n = con_ev_nsrcs();
	if (n == 0) {
		printf("No events.\n");
		return 0;
	}
	v = calloc(n, sizeof *v);
	if (v == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = con_ev_src_at(i);
	qsort(v, n, sizeof *v, con_stats_cmp);
	printf("%-6s %-10s %-8s %7s %7s %11s %11s %5s %8s %6s\n", "Proc",
	       "Node", "Tid", "Sends", "Recvs", "BytesOut", "BytesIn", "Coll",
	       "Events", "Lost");
	for (i = 0; i < n; i++) {
		s = v[i];
		snprintf(who, sizeof who, "p%d", s->pid_id);
		con_ev_cmd_tid(s, tid, sizeof tid);
		con_stats_line(who, s->node, tid, &s->st);
	}
	free(v);
	con_ev_totals(&t);
	con_stats_line("total", "", "", &t);
	if (t.waits > 0)
		printf("(event rings full: the tasks waited %llu time%s, "
		       "%.3f ms in all, for their daemons; paravt's own "
		       "time)\n", (unsigned long long)t.waits,
		       t.waits == 1 ? "" : "s", (double)t.wait_us / 1e3);
	if (t.dups > 0 || con_ev_dropped() > 0)
		printf("(%llu duplicate events ignored; %llu dropped from the "
		       "store)\n", (unsigned long long)t.dups,
		       (unsigned long long)con_ev_dropped());
	return 0;
}

/* The Tid, State and Where cells `info procs` takes from the events of
 * p (borrowed strings in the caller's buffers).  activity is set to -1
 * when nothing is known. */
void con_ev_cmd_proc(const con_proc *p, char *tid, size_t tidlen,
		     int *activity, char *where, size_t wlen)
{
	const con_ev_src *s = con_ev_src_find(p->node, p->proc);

	con_ev_cmd_tid(s, tid, tidlen);
	*activity = s != NULL ? con_ev_activity(s) : -1;
	where[0] = '\0';
	if (s != NULL && s->state.line > 0)
		snprintf(where, wlen, "%.300s:%d %.200s",
			 con_ev_str(s, s->state.file), s->state.line,
			 con_ev_str(s, s->state.func));
}
