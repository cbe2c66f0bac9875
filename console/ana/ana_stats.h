/*
 * ana_stats.h — figures of a trace (after ana_analyze): STK's efficiency
 * per task and for the job, the communication matrix and the load balance
 * (ParaVT figures 3 and 4).  Times are taken in one view (ana.h), the
 * compensated one unless told otherwise.
 *
 * Per task i: total T_i = time of its last event minus its first;
 * communication time C_i = time inside send, receive, probe, multicast and
 * group calls (START to END); waiting W_i = the part of C_i spent in
 * receives and group calls; computing = T_i - C_i.  STK's efficiency
 * E_i = (T_i - C_i) / T_i; the job's E = sum(T_i - C_i) / sum(T_i);
 * E_min, E_max over tasks.
 */
#ifndef PARAVT_ANA_STATS_H
#define PARAVT_ANA_STATS_H

#include "ana.h"

typedef struct ana_task_stats {
	int64_t total_ns;   /* T_i */
	int64_t comm_ns;    /* C_i */
	int64_t wait_ns;    /* W_i */
	int64_t comp_ns;    /* T_i - C_i */
	double eff;         /* E_i (1 when T_i == 0) */
	uint64_t sends, recvs, colls;
	uint64_t bytes_out, bytes_in;
} ana_task_stats;

typedef struct ana_stats {
	int view;               /* view the times were taken in */
	uint32_t ntasks;        /* = trace's nprocs */
	ana_task_stats *task;   /* [ntasks] */
	double eff, eff_min, eff_max; /* E, E_min, E_max */
	uint64_t *msgs;         /* [ntasks * ntasks]: from i to j at i*n+j */
	uint64_t *bytes;        /* same layout */
	int64_t span_ns;        /* first event to last, all tasks */
} ana_stats;

/* Computes the figures of tr in view; *st is filled (free with
 * ana_stats_free).  0 or a code. */
int ana_stats_compute(const ana_trace *tr, int view, ana_stats *st);
void ana_stats_free(ana_stats *st);

/* True when e opens a communicating call as ana_stats_compute counts
 * them (a send, receive, probe, multicast, group call or MPI_Wait*). */
int ana_stats_opens_comm(const ana_ev *e);

/* A computation segment of a process: from the event after which it is
 * outside the calls (its first event, or the END that closed the
 * outermost call) to the START that opens the next one (or its last
 * event).  Its times are the events' own (any view).  A
 * nonzero return stops the walk. */
typedef int (*ana_seg_fn)(const ana_ev *from, const ana_ev *to, void *arg);

/* Calls fn for every computation segment of p in event order.  every =
 * 0: outside the communicating calls of ana_stats_compute (the segments'
 * lengths add up to its comp_ns in that view); 1: outside every call
 * (process state calls such as MPI_Init, MPI_Finalize or pvm_spawn, and
 * stops at breakpoints, end segments too).  0, or fn's first nonzero
 * return. */
int ana_stats_segments(const ana_proc *p, int every, ana_seg_fn fn,
		       void *arg);

/* What process p's last PROG_EXIT says its main thread waited for a CPU
 * while it could run (pvt_event.h), less what its PROG_START says it had
 * waited before, ns, or -1 when it says nothing (no
 * such event, an older trace, a node without schedstat); *run_ns gets
 * the measured time from p's first event to that exit, *paravt_ns the
 * part of the wait its daemon charged to paravt (paravtd's CPU, in Δ so
 * that compensation takes it out), -1 unknown. */
int64_t ana_stats_cpu_wait(const ana_proc *p, int64_t *run_ns,
			   int64_t *paravt_ns);

/* A wait's share of a run in percent, at most 100 (a coarse clock may
 * time a short run shorter than the wait). */
double ana_stats_cpu_share(int64_t wait_ns, int64_t run_ns);

/* The task indices of tr in the order tables show them: by the number
 * in their names ("p2" before "p10"), then by name.  [nprocs], the
 * caller frees; NULL when out of memory. */
uint32_t *ana_stats_order(const ana_trace *tr);

#endif
