/*
 * hang_mpi.c — an MPI program that deadlocks on purpose, for the hang
 * diagnosis (tests/integration/88-hang.sh).
 *
 * Usage: mpirun -np N hang_mpi      (N >= 2)
 *
 * Ranks 0 and 1 each receive from the other before sending: both wait
 * for ever.  Every other rank goes to an MPI_Barrier that ranks 0 and 1
 * never reach: held by the deadlock without being part of its cycle.
 * Each blocking call is alone on its line with a marker comment the test
 * finds with grep.  The program never ends by itself: the test kills it.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Comm w = MPI_COMM_WORLD;
	MPI_Status st;
	int rank, size, peer, v = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2)
		MPI_Abort(MPI_COMM_WORLD, 2);
	printf("rank %d of %d\n", rank, size);
	fflush(stdout);
	if (rank < 2) {
		peer = 1 - rank;
		MPI_Recv(&v, 1, MPI_INT, peer, 5, w, &st); /* hang: recv */
		MPI_Send(&v, 1, MPI_INT, peer, 5, w);
	}
	MPI_Barrier(w); /* hang: barrier */
	MPI_Finalize();
	return 0;
}
