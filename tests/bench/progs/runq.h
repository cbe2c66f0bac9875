/*
 * runq.h — for the benchmark MPI programs (tests/bench/progs): how long a
 * rank's thread waited for a CPU while it could run, from Linux's
 * /proc/self/schedstat, and the sum over the ranks.  The programs run
 * plainly as well as under paravt, so they read it themselves.
 */
#ifndef PARAVT_BENCH_RUNQ_H
#define PARAVT_BENCH_RUNQ_H

#include <mpi.h>
#include <stdio.h>

/* This thread's time runnable but waiting for a CPU, ns, or -1. */
static double runq_ns(void)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/self/schedstat", "r");
	int ok = f != NULL && fscanf(f, "%llu %llu", &run, &wait) == 2;

	if (f != NULL)
		fclose(f);
	return ok ? (double)wait : -1;
}

/* The ranks' waits between q0 and q1 (runq_ns before and after), summed
 * on rank 0; -1 there when a rank could not tell.  Collective. */
static double runq_sum(double q0, double q1)
{
	double q = q0 >= 0 && q1 >= 0 ? q1 - q0 : -1, least, sum = 0;

	MPI_Allreduce(&q, &least, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
	MPI_Reduce(&q, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	return least < 0 ? -1 : sum;
}

#endif
