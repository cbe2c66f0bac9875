/*
 * pp_mpi.c — benchmark program: an MPI ping-pong of 4-byte messages
 * between ranks 0 and 1 (tests/bench/overhead.sh runs it plainly and
 * under paravt, side by side).
 *
 *   pp_mpi ROUNDTRIPS [PACE_US]
 *
 * After 1000 warm-up round trips and a barrier, rank 0 times ROUNDTRIPS
 * round trips (MPI_Send then MPI_Recv; rank 1 the reverse), then both
 * meet in a second barrier: the two barriers bracket the timed loop in a
 * trace.  With PACE_US, round trip i starts no earlier than i * PACE_US
 * after the first (a program that exchanges at a fixed rate).  Rank 0
 * prints "rtt_ns X total_ns Y", and where Linux's /proc/self/schedstat
 * says how long each rank's thread waited for a CPU while it could run,
 * "runq_ns Z": both ranks' wait in the timed loop, per round trip (what
 * other processes, paravt's included, took from them).
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

/* n round trips; rank 0 starts each (paced when pace_ns > 0). */
static void exchange(int me, long n, double pace_ns)
{
	int buf = 0;
	double t0 = now_ns();
	long i;

	for (i = 0; i < n; i++) {
		if (me == 0) {
			while (pace_ns > 0 && now_ns() - t0 < i * pace_ns)
				;
			MPI_Send(&buf, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(&buf, 1, MPI_INT, 1, 2, MPI_COMM_WORLD,
			         MPI_STATUS_IGNORE);
		} else if (me == 1) {
			MPI_Recv(&buf, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
			         MPI_STATUS_IGNORE);
			MPI_Send(&buf, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		}
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	double pace = argc > 2 ? atof(argv[2]) * 1e3 : 0, t0, t1, q0, q1, q;
	int me;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	exchange(me, 1000, 0);
	MPI_Barrier(MPI_COMM_WORLD);
	q0 = runq_ns();
	t0 = now_ns();
	exchange(me, n, pace);
	t1 = now_ns();
	q1 = runq_ns();
	MPI_Barrier(MPI_COMM_WORLD);
	q = runq_sum(q0, q1);
	if (me == 0) {
		printf("rtt_ns %.1f total_ns %.0f", (t1 - t0) / n, t1 - t0);
		if (q >= 0)
			printf(" runq_ns %.1f", q / n);
		printf("\n");
	}
	MPI_Finalize();
	return 0;
}
