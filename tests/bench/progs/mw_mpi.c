/*
 * mw_mpi.c — benchmark program: MPI master/worker.  Rank 0 hands TASKS
 * tasks to the other ranks, one at a time to whichever answered first
 * (MPI_ANY_SOURCE); a task is WORK_US of computation (a busy loop on
 * the clock).  Two barriers bracket the work; rank 0 prints
 * "total_ns Y" (tests/bench/overhead.sh) and, where Linux's schedstat
 * tells, "runq_ns Z": how long the ranks waited for a CPU while they
 * could run meanwhile, summed (runq.h).
 *
 *   mw_mpi TASKS [WORK_US]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "runq.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void master(int np, long tasks)
{
	long next = 0, done = 0, r;
	MPI_Status st;
	int w;

	for (w = 1; w < np; w++, next++)
		MPI_Send(&next, 1, MPI_LONG, w, 1, MPI_COMM_WORLD);
	while (done < tasks) {
		MPI_Recv(&r, 1, MPI_LONG, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
		         &st);
		done++;
		r = next < tasks ? next++ : -1;
		MPI_Send(&r, 1, MPI_LONG, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
	}
	/* every worker got one -1: the answers to the last np-1 results */
}

static void worker(double work_ns)
{
	long t = 0;
	double t0;

	for (;;) {
		MPI_Recv(&t, 1, MPI_LONG, 0, 1, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
		if (t < 0)
			break;
		t0 = now_ns();
		while (now_ns() - t0 < work_ns)
			;
		MPI_Send(&t, 1, MPI_LONG, 0, 2, MPI_COMM_WORLD);
	}
}

int main(int argc, char **argv)
{
	long tasks = argc > 1 ? atol(argv[1]) : 20000;
	double work = (argc > 2 ? atof(argv[2]) : 20) * 1e3, t0, t1, q0, q1, q;
	int me, np;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	MPI_Barrier(MPI_COMM_WORLD);
	q0 = runq_ns();
	t0 = now_ns();
	if (me == 0)
		master(np, tasks > np - 1 ? tasks : np - 1);
	else
		worker(work);
	t1 = now_ns();
	q1 = runq_ns();
	MPI_Barrier(MPI_COMM_WORLD);
	q = runq_sum(q0, q1);
	if (me == 0) {
		printf("total_ns %.0f", t1 - t0);
		if (q >= 0)
			printf(" runq_ns %.0f", q);
		printf("\n");
	}
	MPI_Finalize();
	return 0;
}
