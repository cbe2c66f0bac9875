/*
 * mpi_stdin.c — an MPI program whose rank 0 reads its input from standard
 * input (tests/integration/94-*.sh): integers until EOF.  Rank 0 sends
 * the count to rank 1, which adds its rank and passes it on round the
 * ring back to rank 0 (point-to-point messages to match); then the sum of
 * the numbers is broadcast and every rank prints one line:
 *   rank R of N: count C sum S ring T[ tag V]
 * (" tag V" when the environment has MPI_STDIN_TAG=V: mpirun's -x reached
 * the rank).  Exit 0 when rank 0 read at least one number.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, v, c = 0, ring = 0;
	long s = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		while (scanf("%d", &v) == 1) {
			s += v;
			c++;
		}
		ring = c;
		if (size > 1) {
			MPI_Send(&ring, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
			MPI_Recv(&ring, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
	} else {
		MPI_Recv(&ring, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		ring += rank;
		MPI_Send(&ring, 1, MPI_INT, (rank + 1) % size, 7,
			 MPI_COMM_WORLD);
	}
	MPI_Bcast(&c, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(&s, 1, MPI_LONG, 0, MPI_COMM_WORLD);
	printf("rank %d of %d: count %d sum %ld ring %d%s%s\n", rank, size,
	       c, s, ring, getenv("MPI_STDIN_TAG") ? " tag " : "",
	       getenv("MPI_STDIN_TAG") ? getenv("MPI_STDIN_TAG") : "");
	MPI_Finalize();
	return rank == 0 && c == 0 ? 3 : 0;
}
