/*
 * mpi_collwait.c — MPI test program: collectives in which a member
 * returns before another member has even called, as MPI allows, and a
 * receive the program frees while it is active.  On one clock the trace
 * of this program must need no repair: every member that returns early
 * is one that, by the standard, waits for nobody who is late.
 *
 * Exactly 4 ranks.  World rank 3 (the "late" rank) sleeps LATE_MS
 * before each collective, so that members that need nothing from it
 * finish before it calls:
 *   1. MPI_Iallgather on an intercommunicator of {0,1} and {2,3}: rank
 *      2, in the late rank's own group, needs only {0,1}'s data.
 *   2. MPI_Ibarrier on the same intercommunicator (Open MPI completes
 *      rank 1 once the other group's root, rank 2, has entered).
 *   3. MPI_Gather of nothing (count 0) to root 0: the root gets no data.
 *   4. MPI_Allgather of nothing (MPI_IN_PLACE, count 0).
 *   5. MPI_Alltoallv in which nobody sends to rank 0.
 *   6. MPI_Irecv on rank 1 freed with MPI_Request_free while active; rank
 *      0 sends after a barrier; MPI_Finalize completes the receive.
 * Rank 0 prints "collwait: OK" when the data checks out; exit 0 then.
 *
 * Usage: mpirun -np 4 mpi_collwait
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define LATE_MS 150

/* Sleeps LATE_MS on world rank 3. */
static void late(int me)
{
	struct timespec ts = {0, LATE_MS * 1000000L};

	if (me == 3)
		nanosleep(&ts, NULL);
}

/* 1 and 2: between the halves {0,1} and {2,3}. */
static int intercomm_part(int me)
{
	MPI_Comm half, inter;
	MPI_Request rq;
	int mine = 100 + me, got[2] = {-1, -1}, bad = 0, i;

	MPI_Comm_split(MPI_COMM_WORLD, me < 2, me, &half);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me < 2 ? 2 : 0, 7,
	                     &inter);
	late(me);
	MPI_Iallgather(&mine, 1, MPI_INT, got, 1, MPI_INT, inter, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (i = 0; i < 2; i++)
		bad += got[i] != 100 + (me < 2 ? 2 : 0) + i;
	late(me);
	MPI_Ibarrier(inter, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	return bad;
}

/* 3, 4, 5: on MPI_COMM_WORLD. */
static int world_part(int me)
{
	int s[4], r[4] = {-1, -1, -1, -1}, sc[4], sd[4], rc[4], rd[4];
	int bad = 0, i;

	late(me);
	MPI_Gather(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, 0, MPI_COMM_WORLD);
	late(me);
	MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, NULL, 0, MPI_BYTE,
	              MPI_COMM_WORLD);
	for (i = 0; i < 4; i++) { /* nobody sends to rank 0 */
		s[i] = me * 10 + i;
		sc[i] = i == 0 ? 0 : 1;
		sd[i] = i;
		rc[i] = me == 0 ? 0 : 1;
		rd[i] = i;
	}
	late(me);
	MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; me != 0 && i < 4; i++)
		bad += r[i] != i * 10 + me;
	return bad;
}

int main(int argc, char **argv)
{
	int me, size, bad = 0, v = -1, one = 41;
	MPI_Request rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4)
		MPI_Abort(MPI_COMM_WORLD, 2);
	bad += intercomm_part(me);
	bad += world_part(me);
	/* 6: rank 1 frees its active receive; the message still comes */
	if (me == 1) {
		MPI_Irecv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &rq);
		MPI_Request_free(&rq);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0)
		MPI_Send(&one, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (me == 0)
		printf("collwait: %s\n", bad ? "BAD" : "OK");
	MPI_Finalize();
	return bad != 0;
}
