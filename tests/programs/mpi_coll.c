/*
 * mpi_coll.c — MPI test program: the collectives paravt wraps (Barrier,
 * Bcast, Reduce, Allreduce, Gather, Scatter, Alltoall) on MPI_COMM_WORLD
 * with values that depend on the rank.  Rank 0 prints the results (the
 * same for a given number of ranks); exit 0 only if they check out.
 *
 * Usage: mpirun -np N mpi_coll
 */
#include <mpi.h>
#include <stdio.h>

#define MAXP 16

int main(int argc, char **argv)
{
	int rank, size, v, sum = 0, all = 0, bad = 0, i;
	int g[MAXP], sc[MAXP], mine = -1, a[MAXP], b[MAXP];
	double d = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > MAXP)
		MPI_Abort(MPI_COMM_WORLD, 2);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		d = 2.5;
	MPI_Bcast(&d, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	v = rank + 1;
	MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Gather(&v, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		sc[i] = 100 + i;
	MPI_Scatter(sc, 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		a[i] = rank * 10 + i;
	MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
	bad += d != 2.5 || all != size || mine != 100 + rank;
	for (i = 0; i < size; i++)
		bad += b[i] != i * 10 + rank;
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("coll: size=%d bcast=%.1f sum=%d max=%d gather=", size, d,
		       sum, all);
		for (i = 0; i < size; i++)
			printf("%d%s", g[i], i + 1 < size ? "," : "");
		printf(" %s\n", bad ? "BAD" : "OK");
	}
	MPI_Finalize();
	return bad != 0;
}
