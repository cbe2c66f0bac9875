/*
 * mpi_fncalls.c — a function called many times between two barriers,
 * for the cost of the entry and exit templates in Δ
 * (tests/integration/92-wrappers-fn-cost.sh).
 *
 * Usage: mpi_fncalls [N]    rank 0 calls step() N times (default
 *                           2000000) between two MPI_Barrier calls; the
 *                           other ranks call nothing there.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long step(long x)
{
	return (x * 3 + 1) & 0xffff;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000, i, acc = 0;
	int me;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0)
		for (i = 0; i < n; i++)
			acc = step(acc);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0)
		printf("fncalls: n=%ld acc=%ld\n", n, acc);
	MPI_Finalize();
	return 0;
}
