/*
 * val_mpi.c — the programs of the prediction's validation
 * (tests/predict/validate.sh): four communication patterns whose work is
 * CPU time (a busy loop, so that a CPU quota slows it) and whose messages
 * are large enough for the bandwidth to matter.
 *
 * Usage: mpirun -np N val_mpi PATTERN ITERS BYTES WORK
 *   ring     a token of BYTES goes round ITERS times; each rank works
 *            WORK units before passing it on
 *   mw       rank 0 hands out ITERS tasks of BYTES (round robin to start,
 *            then to whoever answered: MPI_ANY_SOURCE), a task is WORK
 *            units, the answer 64 bytes; rank 0 merges (WORK / 8)
 *   pipe     rank 0 makes ITERS items of BYTES (WORK units each), every
 *            further rank does WORK / 2 and passes it on
 *   stencil  a 1-D domain, ITERS steps of WORK units, then a halo of
 *            BYTES with each neighbour (MPI_Sendrecv, not periodic) and,
 *            every 10 steps, an MPI_Allreduce of the residual
 * A unit of work is 100000 iterations of a multiply-add (about 0.1 ms).
 * Rank 0 prints "val_mpi PATTERN: OK" when the checks pass; exit 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;

/* n units of CPU work. */
static void work(long n)
{
	double x = 1.0;
	long i;

	for (i = 0; i < n * 100000L; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

static void ring(int rank, int size, int iters, char *buf, int bytes,
		 long w)
{
	int it, next = (rank + 1) % size, prev = (rank + size - 1) % size;

	for (it = 0; it < iters; it++) {
		if (rank == 0) {
			work(w);
			MPI_Send(buf, bytes, MPI_CHAR, next, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_CHAR, prev, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, bytes, MPI_CHAR, prev, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			work(w);
			MPI_Send(buf, bytes, MPI_CHAR, next, 1, MPI_COMM_WORLD);
		}
	}
}

/* Master/worker: tag 2 a task, tag 3 an answer, tag 4 the end. */
static int mw(int rank, int size, int iters, char *buf, int bytes, long w)
{
	char ans[64];
	MPI_Status st;
	int sent = 0, done = 0, p;

	if (rank != 0) {
		for (;;) {
			MPI_Recv(buf, bytes, MPI_CHAR, 0, MPI_ANY_TAG,
				 MPI_COMM_WORLD, &st);
			if (st.MPI_TAG == 4)
				return 0;
			work(w);
			MPI_Send(ans, sizeof ans, MPI_CHAR, 0, 3,
				 MPI_COMM_WORLD);
		}
	}
	for (p = 1; p < size && sent < iters; p++, sent++)
		MPI_Send(buf, bytes, MPI_CHAR, p, 2, MPI_COMM_WORLD);
	while (done < iters) {
		MPI_Recv(ans, sizeof ans, MPI_CHAR, MPI_ANY_SOURCE, 3,
			 MPI_COMM_WORLD, &st);
		done++;
		work(w / 8);
		if (sent < iters) {
			MPI_Send(buf, bytes, MPI_CHAR, st.MPI_SOURCE, 2,
				 MPI_COMM_WORLD);
			sent++;
		}
	}
	for (p = 1; p < size; p++)
		MPI_Send(buf, 0, MPI_CHAR, p, 4, MPI_COMM_WORLD);
	return done == iters ? 0 : 1;
}

static void pipe_(int rank, int size, int iters, char *buf, int bytes,
		  long w)
{
	int it;

	for (it = 0; it < iters; it++) {
		if (rank > 0)
			MPI_Recv(buf, bytes, MPI_CHAR, rank - 1, 5,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		work(rank == 0 ? w : w / 2);
		if (rank + 1 < size)
			MPI_Send(buf, bytes, MPI_CHAR, rank + 1, 5,
				 MPI_COMM_WORLD);
	}
}

static void stencil(int rank, int size, int iters, char *buf, int bytes,
		    long w)
{
	char *in = malloc((size_t)bytes + 1);
	double r = 1, all;
	int it, left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;

	for (it = 0; it < iters; it++) {
		work(w);
		MPI_Sendrecv(buf, bytes, MPI_CHAR, right, 6, in, bytes,
			     MPI_CHAR, left, 6, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		MPI_Sendrecv(buf, bytes, MPI_CHAR, left, 7, in, bytes,
			     MPI_CHAR, right, 7, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		if (it % 10 == 9)
			MPI_Allreduce(&r, &all, 1, MPI_DOUBLE, MPI_SUM,
				      MPI_COMM_WORLD);
	}
	free(in);
}

int main(int argc, char **argv)
{
	int rank, size, iters, bytes, bad = 0;
	long w;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 5 || size < 2) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np N (>= 2) val_mpi "
				"ring|mw|pipe|stencil ITERS BYTES WORK\n");
		MPI_Finalize();
		return 2;
	}
	iters = atoi(argv[2]);
	bytes = atoi(argv[3]);
	w = atol(argv[4]);
	buf = calloc((size_t)bytes + 1, 1);
	if (strcmp(argv[1], "ring") == 0)
		ring(rank, size, iters, buf, bytes, w);
	else if (strcmp(argv[1], "mw") == 0)
		bad = mw(rank, size, iters, buf, bytes, w);
	else if (strcmp(argv[1], "pipe") == 0)
		pipe_(rank, size, iters, buf, bytes, w);
	else if (strcmp(argv[1], "stencil") == 0)
		stencil(rank, size, iters, buf, bytes, w);
	else
		bad = 2;
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("val_mpi %s: %s\n", argv[1], bad ? "FAILED" : "OK");
	free(buf);
	MPI_Finalize();
	return bad;
}
