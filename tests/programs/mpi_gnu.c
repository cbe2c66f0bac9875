/*
 * mpi_gnu.c — an MPI program that starts with a feature-test macro, as
 * many real ones do: #define _GNU_SOURCE before any header, then a GNU
 * extension (CPU_COUNT, sched_getaffinity) and MPI calls.  Each rank
 * sends its CPU count to rank 0, which prints "rank R: N cpus" for each
 * (tests/integration/85-trace-features.sh builds it through paravt).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	cpu_set_t set;
	int rank, size, n, r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		perror("sched_getaffinity");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	n = CPU_COUNT(&set);
	if (rank != 0) {
		MPI_Send(&n, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
	} else {
		printf("rank 0: %d cpus\n", n);
		for (r = 1; r < size; r++) {
			MPI_Recv(&n, 1, MPI_INT, r, 5, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			printf("rank %d: %d cpus\n", r, n);
		}
	}
	MPI_Finalize();
	return 0;
}
