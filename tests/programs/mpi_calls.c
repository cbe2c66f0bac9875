/*
 * mpi_calls.c — test program: every MPI call libparavt_mpi wraps, once or
 * more, on 4 ranks, each call followed by the line the event it must
 * record is checked against (tests/integration/92-wrappers-mpi-calls.sh,
 * tests/tools/evcheck.py):
 *
 *   X r=RANK kind=KIND op=OP peer=P tag=T bytes=B comm=LABEL
 *
 * (to stdout, or with MPI_CALLS_X=PATH in the environment to the file
 * PATH.RANK, safe from mpirun mixing the ranks' lines).
 * P is a world rank (-1 any/none, -2 MPI_PROC_NULL), "*" anything; LABEL
 * names the communicator ("world" is id 0; the same label must be the
 * same id on every rank, different labels different ids).  The events of
 * a rank must contain the X lines of that rank in order.  With the
 * argument "abort" the program calls MPI_Abort(MPI_COMM_WORLD, 3) on rank
 * 1 after MPI_Init_thread instead.  Prints "mpi_calls done" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANY (-100000) /* printed as "*" */

static int me, np, pal; /* world rank, size, partner (me ^ 1) */
static FILE *xout;      /* where X lines go */

/* Prints an expected event. */
static void X(const char *kind, const char *op, int peer, int tag,
              long bytes, const char *comm)
{
	char p[16] = "*", t[16] = "*", b[24] = "*";

	if (peer != ANY)
		snprintf(p, sizeof p, "%d", peer);
	if (tag != ANY)
		snprintf(t, sizeof t, "%d", tag);
	if (bytes != ANY)
		snprintf(b, sizeof b, "%ld", bytes);
	fprintf(xout, "X r=%d kind=%s op=%s peer=%s tag=%s bytes=%s comm=%s\n",
	        me, kind, op, p, t, b, comm);
	fflush(xout);
}

/* Stops the job with a message when rc is not MPI_SUCCESS. */
static void ok(int rc, const char *what)
{
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "rank %d: %s failed (%d)\n", me, what, rc);
		PMPI_Abort(MPI_COMM_WORLD, 2);
	}
}

/* ---- point to point on one communicator ----------------------------------- */

/* Blocking sends of every mode between partners on comm (their ranks
 * there: to), then receives; label names comm. */
static void p2p_blocking(MPI_Comm comm, int to, const char *label)
{
	int buf[8] = {0}, sz = 0;
	static char bbuf[4096];
	void *old;
	MPI_Status st;
	MPI_Request r;

	if (me % 2 == 0) {
		ok(MPI_Send(buf, 5, MPI_INT, to, 10, comm), "Send");
		X("send_end", "MPI_Send", pal, 10, 20, label);
		ok(MPI_Buffer_attach(bbuf, sizeof bbuf), "Buffer_attach");
		ok(MPI_Bsend(buf, 2, MPI_INT, to, 11, comm), "Bsend");
		X("send_end", "MPI_Bsend", pal, 11, 8, label);
		ok(MPI_Buffer_detach(&old, &sz), "Buffer_detach");
		ok(MPI_Ssend(buf, 3, MPI_DOUBLE, to, 12, comm), "Ssend");
		X("send_end", "MPI_Ssend", pal, 12, 24, label);
		ok(MPI_Recv(buf, 1, MPI_INT, to, 13, comm, &st), "Recv");
		ok(MPI_Rsend(buf, 1, MPI_CHAR, to, 14, comm), "Rsend");
		X("send_end", "MPI_Rsend", pal, 14, 1, label);
	} else {
		ok(MPI_Recv(buf, 8, MPI_INT, MPI_ANY_SOURCE, 10, comm, &st),
		   "Recv");
		X("recv_start", "MPI_Recv", -1, 10, ANY, label);
		X("recv_end", "MPI_Recv", pal, 10, 20, label);
		ok(MPI_Recv(buf, 8, MPI_INT, to, MPI_ANY_TAG, comm, &st),
		   "Recv");
		X("recv_end", "MPI_Recv", pal, 11, 8, label);
		ok(MPI_Recv(buf, 3, MPI_DOUBLE, to, 12, comm, &st), "Recv");
		X("recv_end", "MPI_Recv", pal, 12, 24, label);
		ok(MPI_Irecv(buf, 1, MPI_CHAR, to, 14, comm, &r), "Irecv");
		X("recv_start", "MPI_Irecv", pal, 14, ANY, label);
		ok(MPI_Send(buf, 1, MPI_INT, to, 13, comm), "Send");
		ok(MPI_Wait(&r, &st), "Wait");
		X("recv_end", "MPI_Irecv", pal, 14, 1, label);
	}
}

/* Nonblocking sends of every mode, completed by the Wait and Test forms;
 * Sendrecv and Sendrecv_replace. */
static void p2p_nonblocking(MPI_Comm comm, int to, const char *label)
{
	int s[4] = {1, 2, 3, 4}, rb[4][4], idx, out, ids[4], flag = 0, i;
	static char bbuf[4096];
	MPI_Request rq[4];
	MPI_Status sts[4];
	void *old;
	int sz;

	ok(MPI_Buffer_attach(bbuf, sizeof bbuf), "Buffer_attach");
	/* both post 4 receives, then send 4 ways */
	for (i = 0; i < 4; i++)
		ok(MPI_Irecv(rb[i], 4, MPI_INT, to, 30 + i, comm, &rq[i]),
		   "Irecv");
	ok(MPI_Barrier(comm), "Barrier");
	X("group_end", "MPI_Barrier", ANY, ANY, ANY, label);
	{
		MPI_Request sq[4];

		ok(MPI_Isend(s, 1, MPI_INT, to, 30, comm, &sq[0]), "Isend");
		X("send_end", "MPI_Isend", pal, 30, 4, label);
		ok(MPI_Ibsend(s, 2, MPI_INT, to, 31, comm, &sq[1]), "Ibsend");
		X("send_end", "MPI_Ibsend", pal, 31, 8, label);
		ok(MPI_Issend(s, 3, MPI_INT, to, 32, comm, &sq[2]), "Issend");
		X("send_end", "MPI_Issend", pal, 32, 12, label);
		ok(MPI_Irsend(s, 4, MPI_INT, to, 33, comm, &sq[3]), "Irsend");
		X("send_end", "MPI_Irsend", pal, 33, 16, label);
		/* receives: one by Waitany, one by Testany, the rest by
		 * Waitsome/Testall */
		ok(MPI_Waitany(4, rq, &idx, &sts[0]), "Waitany");
		X("recv_end", "MPI_Irecv", pal, 30 + idx, 4 * (idx + 1), label);
		do {
			ok(MPI_Testany(4, rq, &idx, &flag, &sts[0]), "Testany");
		} while (!flag);
		X("recv_end", "MPI_Irecv", pal, 30 + idx, 4 * (idx + 1), label);
		ok(MPI_Waitsome(4, rq, &out, ids, sts), "Waitsome");
		for (i = 0; i < out; i++)
			X("recv_end", "MPI_Irecv", pal, 30 + ids[i],
			  4 * (ids[i] + 1), label);
		do {
			ok(MPI_Testall(4, rq, &flag, MPI_STATUSES_IGNORE),
			   "Testall");
		} while (!flag);
		ok(MPI_Waitall(4, sq, MPI_STATUSES_IGNORE), "Waitall");
	}
	ok(MPI_Buffer_detach(&old, &sz), "Buffer_detach");
	/* Testsome and Test on a receive each */
	ok(MPI_Irecv(rb[0], 4, MPI_INT, to, 40, comm, &rq[0]), "Irecv");
	ok(MPI_Send(s, 2, MPI_INT, to, 40, comm), "Send");
	do {
		ok(MPI_Testsome(1, rq, &out, ids, sts), "Testsome");
	} while (out == 0);
	X("recv_end", "MPI_Irecv", pal, 40, 8, label);
	ok(MPI_Irecv(rb[0], 4, MPI_INT, MPI_ANY_SOURCE, 41, comm, &rq[0]),
	   "Irecv");
	ok(MPI_Send(s, 3, MPI_INT, to, 41, comm), "Send");
	do {
		ok(MPI_Test(&rq[0], &flag, &sts[0]), "Test");
	} while (!flag);
	X("recv_end", "MPI_Irecv", pal, 41, 12, label);
	/* Sendrecv, Sendrecv_replace */
	ok(MPI_Sendrecv(s, 1, MPI_INT, to, 50, rb[0], 4, MPI_INT, to, 50, comm,
	                &sts[0]), "Sendrecv");
	X("send_end", "MPI_Sendrecv", pal, 50, 4, label);
	X("recv_end", "MPI_Sendrecv", pal, 50, 4, label);
	ok(MPI_Sendrecv_replace(s, 2, MPI_INT, to, 51, to, 51, comm, &sts[0]),
	   "Sendrecv_replace");
	X("send_end", "MPI_Sendrecv_replace", pal, 51, 8, label);
	X("recv_end", "MPI_Sendrecv_replace", pal, 51, 8, label);
}

/* Probes and matched probes; MPI_PROC_NULL. */
static void p2p_probes(MPI_Comm comm, int to, const char *label)
{
	int buf[4] = {0}, flag = 0;
	MPI_Message msg;
	MPI_Request r;
	MPI_Status st;

	if (me % 2 == 0) {
		ok(MPI_Send(buf, 4, MPI_INT, to, 60, comm), "Send");
		ok(MPI_Send(buf, 3, MPI_INT, to, 61, comm), "Send");
		ok(MPI_Send(buf, 2, MPI_INT, to, 62, comm), "Send");
		ok(MPI_Send(buf, 1, MPI_INT, to, 63, comm), "Send");
	} else {
		ok(MPI_Probe(to, 60, comm, &st), "Probe");
		X("recv_end", "MPI_Probe", pal, 60, 16, label);
		do {
			ok(MPI_Iprobe(to, 61, comm, &flag, &st), "Iprobe");
		} while (!flag);
		X("recv_end", "MPI_Iprobe", pal, 61, 12, label);
		ok(MPI_Recv(buf, 4, MPI_INT, to, 60, comm, &st), "Recv");
		ok(MPI_Recv(buf, 4, MPI_INT, to, 61, comm, &st), "Recv");
		st.MPI_ERROR = MPI_ERR_DIMS; /* a single completion keeps it */
		ok(MPI_Mprobe(to, 62, comm, &msg, &st), "Mprobe");
		X("recv_end", "MPI_Mprobe", pal, 62, 8, label);
		ok(MPI_Mrecv(buf, 4, MPI_INT, &msg, &st), "Mrecv");
		if (st.MPI_ERROR != MPI_ERR_DIMS) {
			fprintf(stderr, "rank %d: Mprobe/Mrecv changed the "
			        "status's MPI_ERROR (%d)\n", me, st.MPI_ERROR);
			PMPI_Abort(MPI_COMM_WORLD, 2);
		}
		X("special_end", "MPI_Mrecv", ANY, 62, 8, "*");
		do {
			ok(MPI_Improbe(to, 63, comm, &flag, &msg, &st),
			   "Improbe");
		} while (!flag);
		X("recv_end", "MPI_Improbe", pal, 63, 4, label);
		ok(MPI_Imrecv(buf, 4, MPI_INT, &msg, &r), "Imrecv");
		ok(MPI_Wait(&r, &st), "Wait");
	}
	ok(MPI_Send(buf, 1, MPI_INT, MPI_PROC_NULL, 64, comm), "Send");
	X("send_end", "MPI_Send", -2, 64, 4, label);
	ok(MPI_Recv(buf, 1, MPI_INT, MPI_PROC_NULL, 64, comm, &st), "Recv");
	X("recv_end", "MPI_Recv", -2, ANY, 0, label);
}

/* Persistent requests: every *_init, Start, Startall, Request_free;
 * Cancel of a receive that never matches. */
static void p2p_persistent(MPI_Comm comm, int to, const char *label)
{
	int s[2] = {7, 8}, r[2][2], i;
	static char bbuf[4096];
	MPI_Request rq[2], sq[4];
	MPI_Status st;
	void *old;
	int sz, flag = 0;

	ok(MPI_Buffer_attach(bbuf, sizeof bbuf), "Buffer_attach");
	ok(MPI_Recv_init(r[0], 2, MPI_INT, to, 70, comm, &rq[0]), "Recv_init");
	X("special_end", "MPI_Recv_init", pal, 70, 8, label);
	ok(MPI_Recv_init(r[1], 2, MPI_INT, to, 71, comm, &rq[1]), "Recv_init");
	ok(MPI_Send_init(s, 1, MPI_INT, to, 70, comm, &sq[0]), "Send_init");
	X("special_end", "MPI_Send_init", pal, 70, 4, label);
	ok(MPI_Bsend_init(s, 2, MPI_INT, to, 71, comm, &sq[1]), "Bsend_init");
	ok(MPI_Ssend_init(s, 1, MPI_INT, to, 72, comm, &sq[2]), "Ssend_init");
	ok(MPI_Rsend_init(s, 1, MPI_INT, to, 73, comm, &sq[3]), "Rsend_init");
	for (i = 0; i < 2; i++) { /* started twice: two messages each */
		ok(MPI_Startall(2, rq), "Startall");
		X("recv_start", "MPI_Recv_init", pal, 70, ANY, label);
		ok(MPI_Barrier(comm), "Barrier");
		ok(MPI_Start(&sq[0]), "Start");
		X("send_end", "MPI_Send_init", pal, 70, 4, label);
		ok(MPI_Start(&sq[1]), "Start");
		X("send_end", "MPI_Bsend_init", pal, 71, 8, label);
		ok(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE), "Waitall");
		X("recv_end", "MPI_Recv_init", pal, 70, 4, label);
		X("recv_end", "MPI_Recv_init", pal, 71, 8, label);
		ok(MPI_Waitall(2, sq, MPI_STATUSES_IGNORE), "Waitall");
	}
	for (i = 0; i < 2; i++)
		ok(MPI_Request_free(&rq[i]), "Request_free");
	X("special_end", "MPI_Request_free", ANY, ANY, ANY, label);
	for (i = 0; i < 4; i++)
		ok(MPI_Request_free(&sq[i]), "Request_free");
	ok(MPI_Buffer_detach(&old, &sz), "Buffer_detach");
	/* a receive nobody sends to, cancelled */
	ok(MPI_Irecv(r[0], 1, MPI_INT, to, 79, comm, &rq[0]), "Irecv");
	ok(MPI_Cancel(&rq[0]), "Cancel");
	X("special_end", "MPI_Cancel", ANY, ANY, ANY, label);
	ok(MPI_Wait(&rq[0], &st), "Wait");
	ok(MPI_Test_cancelled(&st, &flag), "Test_cancelled");
	X("recv_end", "MPI_Irecv", -1, ANY, ANY, label);
	ok(MPI_Barrier(comm), "Barrier");
}

/* ---- collectives ------------------------------------------------------------ */

/* Every blocking collective on an intracommunicator comm of size n where
 * this rank is rank; world[k] = world rank of rank k. */
static void colls(MPI_Comm comm, int n, int rank, const int *world,
                  const char *label)
{
	int s[16], r[64], counts[16], displ[16], i, root = n - 1;
	MPI_Datatype types[16];

	for (i = 0; i < 16; i++) {
		s[i] = rank;
		counts[i] = 1;
		displ[i] = i;
		types[i] = MPI_INT;
	}
	ok(MPI_Barrier(comm), "Barrier");
	X("group_end", "MPI_Barrier", -1, ANY, ANY, label);
	ok(MPI_Bcast(s, 3, MPI_INT, root, comm), "Bcast");
	X("group_end", "MPI_Bcast", world[root], ANY, 12, label);
	ok(MPI_Gather(s, 2, MPI_INT, r, 2, MPI_INT, 0, comm), "Gather");
	X("group_end", "MPI_Gather", world[0], ANY, 8, label);
	ok(MPI_Gatherv(s, 1, MPI_INT, r, counts, displ, MPI_INT, 0, comm),
	   "Gatherv");
	X("group_end", "MPI_Gatherv", world[0], ANY, 4, label);
	ok(MPI_Scatter(s, 2, MPI_INT, r, 2, MPI_INT, root, comm), "Scatter");
	X("group_end", "MPI_Scatter", world[root], ANY, 8, label);
	ok(MPI_Scatterv(s, counts, displ, MPI_INT, r, 1, MPI_INT, 0, comm),
	   "Scatterv");
	X("group_end", "MPI_Scatterv", world[0], ANY, 4, label);
	ok(MPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, comm), "Allgather");
	X("group_end", "MPI_Allgather", -1, ANY, 4, label);
	ok(MPI_Allgatherv(s, 1, MPI_INT, r, counts, displ, MPI_INT, comm),
	   "Allgatherv");
	X("group_end", "MPI_Allgatherv", -1, ANY, 4, label);
	ok(MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, comm), "Alltoall");
	X("group_end", "MPI_Alltoall", -1, ANY, 4L * n, label);
	ok(MPI_Alltoallv(s, counts, displ, MPI_INT, r, counts, displ, MPI_INT,
	                 comm), "Alltoallv");
	X("group_end", "MPI_Alltoallv", -1, ANY, 4L * n, label);
	ok(MPI_Alltoallw(s, counts, displ, types, r, counts, displ, types,
	                 comm), "Alltoallw");
	X("group_end", "MPI_Alltoallw", -1, ANY, 4L * n, label);
	ok(MPI_Reduce(s, r, 2, MPI_INT, MPI_SUM, 0, comm), "Reduce");
	X("group_end", "MPI_Reduce", world[0], ANY, 8, label);
	ok(MPI_Allreduce(s, r, 2, MPI_INT, MPI_MAX, comm), "Allreduce");
	X("group_end", "MPI_Allreduce", -1, ANY, 8, label);
	ok(MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, comm),
	   "Reduce_scatter");
	X("group_end", "MPI_Reduce_scatter", -1, ANY, 4L * n, label);
	ok(MPI_Reduce_scatter_block(s, r, 1, MPI_INT, MPI_SUM, comm),
	   "Reduce_scatter_block");
	X("group_end", "MPI_Reduce_scatter_block", -1, ANY, 4L * n, label);
	ok(MPI_Scan(s, r, 1, MPI_INT, MPI_SUM, comm), "Scan");
	X("group_end", "MPI_Scan", -1, ANY, 4, label);
	ok(MPI_Exscan(s, r, 1, MPI_INT, MPI_SUM, comm), "Exscan");
	X("group_end", "MPI_Exscan", -1, ANY, 4, label);
}

/* Every nonblocking collective on comm, completed by one Waitall. */
static void icolls(MPI_Comm comm, int n, int rank, const int *world,
                   const char *label)
{
	static int s[18][16], r[18][64];
	int counts[16], displ[16], i, k = 0;
	MPI_Datatype types[16];
	MPI_Request rq[18];
	static const char *const ops[18] = {
		"MPI_Ibarrier", "MPI_Ibcast", "MPI_Igather", "MPI_Igatherv",
		"MPI_Iscatter", "MPI_Iscatterv", "MPI_Iallgather",
		"MPI_Iallgatherv", "MPI_Ialltoall", "MPI_Ialltoallv",
		"MPI_Ialltoallw", "MPI_Ireduce", "MPI_Iallreduce",
		"MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
		"MPI_Iscan", "MPI_Iexscan", "-"};

	for (i = 0; i < 16; i++) {
		counts[i] = 1;
		displ[i] = i;
		types[i] = MPI_INT;
	}
	ok(MPI_Ibarrier(comm, &rq[k++]), "Ibarrier");
	ok(MPI_Ibcast(s[k], 2, MPI_INT, 0, comm, &rq[k]), "Ibcast");
	k++;
	ok(MPI_Igather(s[k], 1, MPI_INT, r[k], 1, MPI_INT, 0, comm, &rq[k]),
	   "Igather");
	k++;
	ok(MPI_Igatherv(s[k], 1, MPI_INT, r[k], counts, displ, MPI_INT, 0,
	                comm, &rq[k]), "Igatherv");
	k++;
	ok(MPI_Iscatter(s[k], 1, MPI_INT, r[k], 1, MPI_INT, 0, comm, &rq[k]),
	   "Iscatter");
	k++;
	ok(MPI_Iscatterv(s[k], counts, displ, MPI_INT, r[k], 1, MPI_INT, 0,
	                 comm, &rq[k]), "Iscatterv");
	k++;
	ok(MPI_Iallgather(s[k], 1, MPI_INT, r[k], 1, MPI_INT, comm, &rq[k]),
	   "Iallgather");
	k++;
	ok(MPI_Iallgatherv(s[k], 1, MPI_INT, r[k], counts, displ, MPI_INT,
	                   comm, &rq[k]), "Iallgatherv");
	k++;
	ok(MPI_Ialltoall(s[k], 1, MPI_INT, r[k], 1, MPI_INT, comm, &rq[k]),
	   "Ialltoall");
	k++;
	ok(MPI_Ialltoallv(s[k], counts, displ, MPI_INT, r[k], counts, displ,
	                  MPI_INT, comm, &rq[k]), "Ialltoallv");
	k++;
	ok(MPI_Ialltoallw(s[k], counts, displ, types, r[k], counts, displ,
	                  types, comm, &rq[k]), "Ialltoallw");
	k++;
	ok(MPI_Ireduce(s[k], r[k], 1, MPI_INT, MPI_SUM, 0, comm, &rq[k]),
	   "Ireduce");
	k++;
	ok(MPI_Iallreduce(s[k], r[k], 1, MPI_INT, MPI_SUM, comm, &rq[k]),
	   "Iallreduce");
	k++;
	ok(MPI_Ireduce_scatter(s[k], r[k], counts, MPI_INT, MPI_SUM, comm,
	                       &rq[k]), "Ireduce_scatter");
	k++;
	ok(MPI_Ireduce_scatter_block(s[k], r[k], 1, MPI_INT, MPI_SUM, comm,
	                             &rq[k]), "Ireduce_scatter_block");
	k++;
	ok(MPI_Iscan(s[k], r[k], 1, MPI_INT, MPI_SUM, comm, &rq[k]), "Iscan");
	k++;
	ok(MPI_Iexscan(s[k], r[k], 1, MPI_INT, MPI_SUM, comm, &rq[k]),
	   "Iexscan");
	k++;
	for (i = 0; i < k; i++)
		X("group_start", ops[i], ANY, ANY, ANY, label);
	ok(MPI_Waitall(k, rq, MPI_STATUSES_IGNORE), "Waitall");
	(void)n;
	(void)rank;
	X("group_end", "MPI_Ibcast", world[0], ANY, 8, label);
	X("group_end", "MPI_Iexscan", -1, ANY, 4, label);
}

/* The neighbourhood collectives (blocking and not) on topology comm. */
static void neighbours(MPI_Comm comm, const char *label)
{
	int s[8] = {0}, r[8], counts[8] = {1, 1, 1, 1, 1, 1, 1, 1};
	int displ[8] = {0, 1, 2, 3, 4, 5, 6, 7};
	MPI_Aint wd[8] = {0, 4, 8, 12, 16, 20, 24, 28};
	MPI_Datatype types[8];
	MPI_Request rq[5];
	int i;

	for (i = 0; i < 8; i++)
		types[i] = MPI_INT;
	ok(MPI_Neighbor_allgather(s, 1, MPI_INT, r, 1, MPI_INT, comm), "Na");
	X("group_end", "MPI_Neighbor_allgather", -1, ANY, 4, label);
	ok(MPI_Neighbor_allgatherv(s, 1, MPI_INT, r, counts, displ, MPI_INT,
	                           comm), "Nav");
	X("group_end", "MPI_Neighbor_allgatherv", -1, ANY, 4, label);
	ok(MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, comm), "Nt");
	X("group_end", "MPI_Neighbor_alltoall", -1, ANY, 4, label);
	ok(MPI_Neighbor_alltoallv(s, counts, displ, MPI_INT, r, counts, displ,
	                          MPI_INT, comm), "Ntv");
	X("group_end", "MPI_Neighbor_alltoallv", -1, ANY, ANY, label);
	ok(MPI_Neighbor_alltoallw(s, counts, wd, types, r, counts, wd, types,
	                          comm), "Ntw");
	X("group_end", "MPI_Neighbor_alltoallw", -1, ANY, ANY, label);
	ok(MPI_Ineighbor_allgather(s, 1, MPI_INT, r, 1, MPI_INT, comm, &rq[0]),
	   "Ina");
	ok(MPI_Ineighbor_allgatherv(s, 1, MPI_INT, r, counts, displ, MPI_INT,
	                            comm, &rq[1]), "Inav");
	ok(MPI_Ineighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, comm, &rq[2]),
	   "Int");
	ok(MPI_Ineighbor_alltoallv(s, counts, displ, MPI_INT, r, counts,
	                           displ, MPI_INT, comm, &rq[3]), "Intv");
	ok(MPI_Ineighbor_alltoallw(s, counts, wd, types, r, counts, wd, types,
	                           comm, &rq[4]), "Intw");
	ok(MPI_Waitall(5, rq, MPI_STATUSES_IGNORE), "Waitall");
	X("group_end", "MPI_Ineighbor_allgather", -1, ANY, 4, label);
	X("group_end", "MPI_Ineighbor_alltoallw", -1, ANY, ANY, label);
}

/* ---- communicators ---------------------------------------------------------- */

/* World ranks of comm's ranks into w (n of them). */
static void world_of(MPI_Comm comm, int *w, int n)
{
	MPI_Group g, wg;
	int in[16], i;

	for (i = 0; i < n; i++)
		in[i] = i;
	ok(MPI_Comm_group(comm, &g), "Comm_group");
	ok(MPI_Comm_group(MPI_COMM_WORLD, &wg), "Comm_group");
	ok(MPI_Group_translate_ranks(g, n, in, wg, w), "translate");
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
}

/* The rank of the partner (pal) in comm. */
static int pal_in(MPI_Comm comm)
{
	int w[16], n, i;

	ok(MPI_Comm_size(comm, &n), "Comm_size");
	world_of(comm, w, n);
	for (i = 0; i < n; i++)
		if (w[i] == pal)
			return i;
	return MPI_PROC_NULL;
}

/* Point-to-point and collectives on intracommunicator comm. */
static void on_comm(MPI_Comm comm, const char *label, int all)
{
	int n, rank, w[16];

	ok(MPI_Comm_size(comm, &n), "Comm_size");
	ok(MPI_Comm_rank(comm, &rank), "Comm_rank");
	world_of(comm, w, n);
	p2p_blocking(comm, pal_in(comm), label);
	colls(comm, n, rank, w, label);
	if (!all)
		return;
	p2p_nonblocking(comm, pal_in(comm), label);
	p2p_probes(comm, pal_in(comm), label);
	p2p_persistent(comm, pal_in(comm), label);
	icolls(comm, n, rank, w, label);
}

/* The creations; each new communicator carries traffic. */
static void comms(void)
{
	MPI_Comm dup, dupi, idup, half, rev, stype, inter, merged, cart, csub;
	MPI_Comm graph, dist, dista, made, cgroup;
	MPI_Group wg, g;
	MPI_Request r;
	int dims[1] = {4}, periods[1] = {1}, remain[1] = {0};
	int idx[4] = {2, 4, 6, 8}, edges[8] = {1, 3, 0, 2, 1, 3, 0, 2};
	int left = (me + 3) % 4, right = (me + 1) % 4, even[2] = {0, 2};
	int odd[2] = {1, 3};
	char lab[16];

	ok(MPI_Comm_dup(MPI_COMM_WORLD, &dup), "Comm_dup");
	X("group_end", "MPI_Comm_dup", ANY, ANY, ANY, "world");
	on_comm(dup, "dup", 0);
	ok(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dupi),
	   "Comm_dup_with_info");
	on_comm(dupi, "dupi", 0);
	ok(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &r), "Comm_idup");
	ok(MPI_Wait(&r, MPI_STATUS_IGNORE), "Wait");
	X("group_end", "MPI_Comm_idup", ANY, ANY, ANY, "world");
	on_comm(idup, "idup", 0);
	ok(MPI_Comm_split(MPI_COMM_WORLD, me / 2, me, &half), "Comm_split");
	snprintf(lab, sizeof lab, "half%d", me / 2);
	on_comm(half, lab, 1);
	ok(MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &rev), "Comm_split");
	on_comm(rev, "rev", 0);
	ok(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me,
	                       MPI_INFO_NULL, &stype), "Comm_split_type");
	on_comm(stype, "stype", 0);
	ok(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me < 2 ? 2 : 0, 99,
	                        &inter), "Intercomm_create");
	{ /* between the halves: rank r talks to rank r of the other */
		int b[2] = {0}, lr;
		MPI_Status st;

		ok(MPI_Comm_rank(inter, &lr), "Comm_rank");
		if (me < 2) {
			ok(MPI_Send(b, 2, MPI_INT, lr, 90, inter), "Send");
			X("send_end", "MPI_Send", (me + 2) % 4, 90, 8, "inter");
		} else {
			ok(MPI_Recv(b, 2, MPI_INT, lr, 90, inter, &st), "Recv");
			X("recv_end", "MPI_Recv", (me + 2) % 4, 90, 8, "inter");
		}
		ok(MPI_Bcast(b, 1, MPI_INT,
		             me < 2 ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0,
		             inter), "Bcast");
		/* tag: the caller's group, 0 for the one holding world
		 * rank 0 */
		X("group_end", "MPI_Bcast", me < 2 ? (lr == 0 ? 0 : -2) : 0,
		  me < 2 ? 0 : 1, 4, "inter");
	}
	ok(MPI_Intercomm_merge(inter, me < 2 ? 0 : 1, &merged),
	   "Intercomm_merge");
	on_comm(merged, "merged", 0);
	ok(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart),
	   "Cart_create");
	on_comm(cart, "cart", 0);
	neighbours(cart, "cart");
	ok(MPI_Cart_sub(cart, remain, &csub), "Cart_sub");
	snprintf(lab, sizeof lab, "csub%d", me);
	ok(MPI_Barrier(csub), "Barrier");
	X("group_end", "MPI_Barrier", -1, ANY, ANY, lab);
	ok(MPI_Graph_create(MPI_COMM_WORLD, 4, idx, edges, 0, &graph),
	   "Graph_create");
	neighbours(graph, "graph");
	ok(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left,
	                                  MPI_UNWEIGHTED, 1, &right,
	                                  MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
	                                  &dista), "Dist_graph_create_adjacent");
	neighbours(dista, "dista");
	{
		int src = me, deg = 1;

		ok(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &right,
		                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
		                         &dist), "Dist_graph_create");
	}
	neighbours(dist, "dist");
	ok(MPI_Comm_group(MPI_COMM_WORLD, &wg), "Comm_group");
	ok(MPI_Group_incl(wg, 2, even, &g), "Group_incl");
	ok(MPI_Comm_create(MPI_COMM_WORLD, g, &made), "Comm_create");
	MPI_Group_free(&g);
	if (made != MPI_COMM_NULL) {
		ok(MPI_Barrier(made), "Barrier");
		X("group_end", "MPI_Barrier", -1, ANY, ANY, "made");
		ok(MPI_Comm_free(&made), "Comm_free");
		X("special_end", "MPI_Comm_free", ANY, ANY, ANY, "made");
	}
	if (me % 2 == 1) {
		ok(MPI_Group_incl(wg, 2, odd, &g), "Group_incl");
		ok(MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &cgroup),
		   "Comm_create_group");
		MPI_Group_free(&g);
		ok(MPI_Barrier(cgroup), "Barrier");
		X("group_end", "MPI_Barrier", -1, ANY, ANY, "cgroup");
		ok(MPI_Comm_disconnect(&cgroup), "Comm_disconnect");
		X("special_end", "MPI_Comm_disconnect", ANY, ANY, ANY,
		  "cgroup");
	}
	MPI_Group_free(&wg);
	ok(MPI_Comm_free(&dup), "Comm_free");
	X("special_end", "MPI_Comm_free", ANY, ANY, ANY, "dup");
	MPI_Comm_free(&dupi);
	MPI_Comm_free(&idup);
	MPI_Comm_free(&half);
	MPI_Comm_free(&rev);
	MPI_Comm_free(&stype);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&merged);
	MPI_Comm_free(&csub);
	MPI_Comm_free(&cart);
	MPI_Comm_free(&graph);
	MPI_Comm_free(&dista);
	MPI_Comm_free(&dist);
}

int main(int argc, char **argv)
{
	int given = 0;

	ok(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &given),
	   "Init_thread");
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	xout = stdout;
	if (getenv("MPI_CALLS_X") != NULL) {
		char path[1024];

		snprintf(path, sizeof path, "%s.%d", getenv("MPI_CALLS_X"), me);
		if ((xout = fopen(path, "w")) == NULL) {
			perror(path);
			return 2;
		}
	}
	X("special_end", "MPI_Init_thread", ANY, given, ANY, "world");
	if (np != 4) {
		if (me == 0)
			fprintf(stderr, "mpi_calls: run with 4 ranks\n");
		MPI_Finalize();
		return 2;
	}
	pal = me ^ 1;
	if (argc > 1 && strcmp(argv[1], "abort") == 0) {
		if (me == 1) {
			X("special_end", "MPI_Abort", ANY, ANY, ANY, "world");
			MPI_Abort(MPI_COMM_WORLD, 3);
		}
		MPI_Barrier(MPI_COMM_WORLD);
	}
	on_comm(MPI_COMM_WORLD, "world", 1);
	comms();
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0)
		printf("mpi_calls done\n");
	MPI_Finalize();
	return 0;
}
