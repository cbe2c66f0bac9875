/*
 * mpi_pingpong.c — MPI test program: rank 0 and rank 1 exchange N
 * messages of growing size (MPI_Send/MPI_Recv, then MPI_Isend/MPI_Irecv
 * with MPI_Wait / MPI_Waitall, then MPI_Sendrecv).  Other ranks only
 * take part in the final barrier.  stdout is deterministic (rank 0
 * prints the checksums); exit 0 only if every message checked out.
 *
 * Usage: mpirun -np 2 mpi_pingpong [N]      (default 5)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN 64

int main(int argc, char **argv)
{
	int rank, n = argc > 1 ? atoi(argv[1]) : 5, i, j, bad = 0;
	int buf[MAXN * 4], back[MAXN * 4];
	long sum = 0;
	MPI_Status st;
	MPI_Request rq[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (n < 1 || n > MAXN)
		n = 5;
	for (i = 0; i < n && rank < 2; i++) {
		int len = 4 * (i + 1), peer = 1 - rank;
		for (j = 0; j < len; j++)
			buf[j] = i * 1000 + j;
		if (rank == 0) {
			MPI_Send(buf, len, MPI_INT, peer, 100 + i, MPI_COMM_WORLD);
			MPI_Recv(back, len, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
			         MPI_COMM_WORLD, &st);
			for (j = 0; j < len; j++)
				bad += back[j] != buf[j] + 1;
			sum += back[len - 1];
		} else {
			MPI_Recv(back, len, MPI_INT, peer, 100 + i, MPI_COMM_WORLD,
			         &st);
			for (j = 0; j < len; j++)
				back[j]++;
			MPI_Send(back, len, MPI_INT, peer, 200 + i, MPI_COMM_WORLD);
		}
	}
	if (rank < 2) {
		int peer = 1 - rank, x = rank + 10, y = -1, z = -1;
		MPI_Irecv(&y, 1, MPI_INT, peer, 300, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(&x, 1, MPI_INT, peer, 300, MPI_COMM_WORLD, &rq[1]);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		bad += y != peer + 10;
		MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 301, MPI_COMM_WORLD, &rq[0]);
		MPI_Send(&x, 1, MPI_INT, peer, 301, MPI_COMM_WORLD);
		MPI_Wait(&rq[0], &st);
		bad += y != peer + 10 || st.MPI_SOURCE != peer;
		MPI_Sendrecv(&x, 1, MPI_INT, peer, 302, &z, 1, MPI_INT, peer, 302,
		             MPI_COMM_WORLD, &st);
		bad += z != peer + 10;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("pingpong: n=%d sum=%ld %s\n", n, sum, bad ? "BAD" : "OK");
	MPI_Finalize();
	return bad != 0;
}
