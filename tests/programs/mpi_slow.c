/*
 * mpi_slow.c — MPI test program: rank 0 computes (sleeps 7 s) before its
 * send, rank 1 waits for it in MPI_Recv meanwhile.  Not a hang: rank 1
 * prints "got 1" and both exit 0.
 *
 * Usage: mpirun -np 2 mpi_slow
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		sleep(7); /* computing */
		MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		printf("got %d\n", x);
	}
	MPI_Finalize();
	return 0;
}
