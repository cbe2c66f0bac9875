/*
 * ana_stats.c — the figures of ana_stats.h: STK's efficiency per task and
 * for the job, the communication matrix and the span of a trace, in one
 * view's times.
 *
 * Communication time is the union of the intervals a process spends
 * inside calls that communicate: sends, receives and probes, multicasts,
 * group calls (MPI_Bcast among them: every rank calls it), and
 * MPI_Wait/MPI_Waitall (which complete a non-blocking send or receive).
 * A union, not a sum, so that overlapping halves (the two halves of
 * MPI_Sendrecv) count once; a START whose END never came (the process is
 * still inside, or died there) counts up to the process's last event.
 * Waiting time is the union of the receive, probe, wait, group and
 * MPI_Bcast intervals.
 *
 * The matrix counts matched receives (ana_match): every receive END whose
 * partner is a send or a multicast adds one message from the partner's
 * process, with the receive's bytes (the sender's when the receive does
 * not know).  Per task, sends counts send and PVM multicast calls, colls
 * group calls and MPI_Bcast, recvs the matched receives, bytes_out and
 * bytes_in the matrix's row and column.
 */
#include <stdlib.h>
#include <string.h>

#include "ana_stats.h"
#include "../../wrappers/pvt_event.h"

/* Which interval sets an event opens or closes. */
enum { ANA_ST_COMM = 1, ANA_ST_WAIT = 2 };

/* Running state of one interval set (a union of possibly nested
 * intervals): depth of open calls and the time the outermost opened. */
typedef struct ana_span {
	int depth;
	int64_t since;
	int64_t sum;
} ana_span;

/* The sets (ANA_ST_*) a START or END of kind/op belongs to; 0 none. */
static int ana_stats_sets(uint16_t kind, uint16_t op)
{
	switch (kind) {
	case PVT_EV_SEND_START: case PVT_EV_SEND_END:
		return ANA_ST_COMM;
	case PVT_EV_MCAST_START: case PVT_EV_MCAST_END:
		if (op == PVT_OP_MPI_BCAST) /* every rank calls it */
			return ANA_ST_COMM | ANA_ST_WAIT;
		return ANA_ST_COMM;
	case PVT_EV_RECV_START: case PVT_EV_RECV_END:
	case PVT_EV_GROUP_START: case PVT_EV_GROUP_END:
		return ANA_ST_COMM | ANA_ST_WAIT;
	case PVT_EV_SPECIAL_START: case PVT_EV_SPECIAL_END:
		if (op == PVT_OP_MPI_WAIT || op == PVT_OP_MPI_WAITALL ||
		    op == PVT_OP_MPI_WAITANY || op == PVT_OP_MPI_WAITSOME)
			return ANA_ST_COMM | ANA_ST_WAIT;
		return 0;
	default:
		return 0;
	}
}

/* True for the START kinds (odd numbers from SEND_START on). */
static int ana_stats_is_start(uint16_t kind)
{
	return kind >= PVT_EV_SEND_START && kind <= PVT_EV_SPECIAL_END &&
	       (kind - PVT_EV_SEND_START) % 2 == 0;
}

/* Opens (dir > 0) or closes one level of s at time t. */
static void ana_span_step(ana_span *s, int dir, int64_t t)
{
	if (dir > 0) {
		if (s->depth++ == 0)
			s->since = t;
		return;
	}
	if (s->depth == 0)
		return; /* an END whose START was lost */
	if (--s->depth == 0 && t > s->since)
		s->sum += t - s->since;
}

/* Closes whatever s still has open at time t (the last event). */
static void ana_span_finish(ana_span *s, int64_t t)
{
	if (s->depth > 0 && t > s->since)
		s->sum += t - s->since;
	s->depth = 0;
}

int ana_stats_opens_comm(const ana_ev *e)
{
	return ana_stats_is_start(e->kind) && ana_stats_sets(e->kind, e->op);
}

int64_t ana_stats_cpu_wait(const ana_proc *p, int64_t *run_ns,
			   int64_t *paravt_ns)
{
	uint32_t i = p->nev;

	*run_ns = 0;
	*paravt_ns = -1;
	while (i > 0 && p->ev[i - 1].kind != PVT_EV_PROG_EXIT)
		i--;
	if (i == 0 || p->ev[i - 1].bytes < 0)
		return -1;
	*run_ns = p->ev[i - 1].t_ns - p->ev[0].t_ns;
	if (p->ev[i - 1].tag >= 0)
		*paravt_ns = (int64_t)p->ev[i - 1].tag * 1000;
	return pvt_run_wait(p->ev[0].kind == PVT_EV_PROG_START
	                    ? p->ev[0].bytes : -1, p->ev[i - 1].bytes);
}

double ana_stats_cpu_share(int64_t wait_ns, int64_t run_ns)
{
	if (run_ns > wait_ns)
		return 100.0 * (double)wait_ns / (double)run_ns;
	return wait_ns > 0 ? 100.0 : 0.0;
}

int ana_stats_segments(const ana_proc *p, int every, ana_seg_fn fn,
		       void *arg)
{
	const ana_ev *from, *e;
	uint32_t i;
	int depth = 0, rc;

	if (p->nev == 0)
		return 0;
	from = &p->ev[0];
	for (i = 0; i < p->nev; i++) {
		e = &p->ev[i];
		if (every ? e->kind < PVT_EV_SEND_START ||
			    e->kind > PVT_EV_BREAK_END :
			    ana_stats_sets(e->kind, e->op) == 0)
			continue;
		if ((e->kind - PVT_EV_SEND_START) % 2 != 0) {
			if (depth > 0 && --depth == 0)
				from = e;
			continue;
		}
		if (depth++ == 0 && e != from && (rc = fn(from, e, arg)) != 0)
			return rc;
	}
	e = &p->ev[p->nev - 1];
	return depth == 0 && e != from ? fn(from, e, arg) : 0;
}

/* Times and call counts of process p into *ts; first and last time of
 * its events into *lo, *hi (unchanged when it has none). */
static void ana_stats_task(const ana_proc *p, int view, ana_task_stats *ts,
			   int64_t *lo, int64_t *hi)
{
	ana_span comm = {0, 0, 0}, wait = {0, 0, 0};
	const ana_ev *e;
	int64_t t, first = 0, last = 0;
	uint32_t i;
	int sets, dir;

	for (i = 0; i < p->nev; i++) {
		e = &p->ev[i];
		t = ana_time(e, view);
		if (i == 0 || t < first)
			first = t;
		if (i == 0 || t > last)
			last = t;
		if (e->kind == PVT_EV_GROUP_END ||
		    (e->kind == PVT_EV_MCAST_END && e->op == PVT_OP_MPI_BCAST))
			ts->colls++;
		else if (e->kind == PVT_EV_SEND_END ||
			 e->kind == PVT_EV_MCAST_END)
			ts->sends++;
		sets = ana_stats_sets(e->kind, e->op);
		if (sets == 0)
			continue;
		dir = ana_stats_is_start(e->kind) ? 1 : -1;
		ana_span_step(&comm, dir, t);
		if (sets & ANA_ST_WAIT)
			ana_span_step(&wait, dir, t);
	}
	if (p->nev == 0)
		return;
	ana_span_finish(&comm, last);
	ana_span_finish(&wait, last);
	ts->total_ns = last - first;
	ts->comm_ns = comm.sum < ts->total_ns ? comm.sum : ts->total_ns;
	ts->wait_ns = wait.sum < ts->comm_ns ? wait.sum : ts->comm_ns;
	ts->comp_ns = ts->total_ns - ts->comm_ns;
	*lo = first;
	*hi = last;
}

/* Adds the matched receives of process j to the matrix and the tasks'
 * receive counts and bytes. */
static void ana_stats_recvs(const ana_trace *tr, uint32_t j, ana_stats *st)
{
	const ana_proc *p = &tr->procs[j];
	const ana_ev *e, *s;
	uint32_t i, n = st->ntasks;
	int64_t b;

	for (i = 0; i < p->nev; i++) {
		e = &p->ev[i];
		if (e->kind != PVT_EV_RECV_END || e->match.proc == ANA_NONE)
			continue;
		s = ana_get(tr, e->match);
		if (s == NULL || (s->kind != PVT_EV_SEND_END &&
				  s->kind != PVT_EV_SEND_START && /* died in it */
				  s->kind != PVT_EV_MCAST_END &&
				  s->kind != PVT_EV_MCAST_DEST))
			continue;
		b = e->bytes >= 0 ? e->bytes : s->bytes >= 0 ? s->bytes : 0;
		st->msgs[(size_t)e->match.proc * n + j]++;
		st->bytes[(size_t)e->match.proc * n + j] += (uint64_t)b;
		st->task[j].recvs++;
		st->task[j].bytes_in += (uint64_t)b;
		st->task[e->match.proc].bytes_out += (uint64_t)b;
	}
}

/* E_i of every task, then E, E_min and E_max of the job. */
static void ana_stats_eff(ana_stats *st, const ana_trace *tr)
{
	int64_t sum_t = 0, sum_comp = 0;
	ana_task_stats *ts;
	uint32_t i;
	int any = 0;

	st->eff_min = st->eff_max = 1.0;
	for (i = 0; i < st->ntasks; i++) {
		ts = &st->task[i];
		ts->eff = ts->total_ns > 0 ?
			(double)ts->comp_ns / (double)ts->total_ns : 1.0;
		if (tr->procs[i].nev == 0)
			continue;
		if (!any || ts->eff < st->eff_min)
			st->eff_min = ts->eff;
		if (!any || ts->eff > st->eff_max)
			st->eff_max = ts->eff;
		any = 1;
		sum_t += ts->total_ns;
		sum_comp += ts->comp_ns;
	}
	st->eff = sum_t > 0 ? (double)sum_comp / (double)sum_t : 1.0;
}

int ana_stats_compute(const ana_trace *tr, int view, ana_stats *st)
{
	size_t n;
	int64_t lo = 0, hi = 0, a = 0, b = 0;
	uint32_t i;
	int any = 0;

	if (st == NULL)
		return ANA_EARG;
	memset(st, 0, sizeof *st);
	if (tr == NULL || view < ANA_VIEW_COMP || view > ANA_VIEW_RAW)
		return ANA_EARG;
	st->view = view;
	st->ntasks = tr->nprocs;
	n = tr->nprocs;
	st->task = calloc(n ? n : 1, sizeof *st->task);
	st->msgs = calloc(n ? n * n : 1, sizeof *st->msgs);
	st->bytes = calloc(n ? n * n : 1, sizeof *st->bytes);
	if (st->task == NULL || st->msgs == NULL || st->bytes == NULL) {
		ana_stats_free(st);
		return ANA_ENOMEM;
	}
	for (i = 0; i < tr->nprocs; i++) {
		ana_stats_task(&tr->procs[i], view, &st->task[i], &a, &b);
		if (tr->procs[i].nev == 0)
			continue;
		if (!any || a < lo)
			lo = a;
		if (!any || b > hi)
			hi = b;
		any = 1;
	}
	for (i = 0; i < tr->nprocs; i++)
		ana_stats_recvs(tr, i, st);
	ana_stats_eff(st, tr);
	st->span_ns = hi - lo;
	return 0;
}

void ana_stats_free(ana_stats *st)
{
	if (st == NULL)
		return;
	free(st->task);
	free(st->msgs);
	free(st->bytes);
	st->task = NULL;
	st->msgs = NULL;
	st->bytes = NULL;
	st->ntasks = 0;
}

/* The number in a process name ("p12" -> 12), -1 when there is none. */
static long ana_stats_num(const char *name)
{
	char *end;
	long v;

	while (*name != '\0' && (*name < '0' || *name > '9'))
		name++;
	if (*name == '\0')
		return -1;
	v = strtol(name, &end, 10);
	return *end == '\0' ? v : -1;
}

/* A task's sort key. */
typedef struct ana_stats_key {
	long num;          /* number in its name, -1 none */
	const char *name;
	uint32_t idx;
} ana_stats_key;

/* qsort order of keys: number in the name, then name. */
static int ana_stats_cmp(const void *a, const void *b)
{
	const ana_stats_key *x = a, *y = b;

	if (x->num != y->num)
		return (x->num > y->num) - (x->num < y->num);
	return strcmp(x->name, y->name);
}

uint32_t *ana_stats_order(const ana_trace *tr)
{
	size_t n = tr->nprocs ? tr->nprocs : 1;
	ana_stats_key *k = malloc(n * sizeof *k);
	uint32_t *o = malloc(n * sizeof *o);
	uint32_t i;

	if (k == NULL || o == NULL) {
		free(k);
		free(o);
		return NULL;
	}
	for (i = 0; i < tr->nprocs; i++)
		k[i] = (ana_stats_key){ana_stats_num(tr->procs[i].name),
				       tr->procs[i].name, i};
	qsort(k, tr->nprocs, sizeof *k, ana_stats_cmp);
	for (i = 0; i < tr->nprocs; i++)
		o[i] = k[i].idx;
	free(k);
	return o;
}
