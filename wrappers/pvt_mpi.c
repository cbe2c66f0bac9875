/*
 * pvt_mpi.c — the MPI wrappers of paravt: a PMPI profiling library
 * (libparavt_mpi.a and libparavt_mpi.so, host port, Open MPI), so an
 * uninstrumented MPI program is traced by relinking
 *     mpicc prog.o libparavt_mpi.a libparavt.a -lmsgpackc
 * or by LD_PRELOAD=libparavt_mpi.so (the .so holds the whole runtime).
 *
 * Each MPI_X here records events and calls PMPI_X:
 *   MPI_Init        starts tracing (PROG_START carries the rank), SPECIAL
 *   MPI_Finalize    SPECIAL (flushes first)
 *   MPI_Send        SEND_START/END: peer = dest, bytes = count * size
 *   MPI_Recv        RECV_START/END: peer/tag = the actual source/tag from
 *                   the status, bytes from MPI_Get_count
 *   MPI_Isend       SEND_START/END at the post (aux = request id)
 *   MPI_Irecv       RECV_START at the post (aux = request id); its
 *                   RECV_END, with the actual source, comes from the
 *                   MPI_Wait / MPI_Waitall / MPI_Test that completes it
 *   MPI_Wait, MPI_Waitall, MPI_Test   SPECIAL_START/END around those
 *                   RECV_ENDs (aux = number of requests)
 *   MPI_Sendrecv    SEND_START, RECV_START, SEND_END, RECV_END
 *   MPI_Barrier MPI_Reduce MPI_Allreduce MPI_Gather MPI_Scatter
 *   MPI_Alltoall    GROUP_START/END: peer = root (-1 for all-to-all
 *                   kinds), bytes = this rank's contribution, aux = size
 *   MPI_Bcast       MCAST_START/END: peer = root
 * Ranks are MPI_COMM_WORLD ranks (translated for other communicators).
 * Calls that may wait flush the event buffer first when records are
 * pending (for MPI_Recv and MPI_Wait only if nothing has arrived yet).
 *
 * Each rank reaches its node's daemon through PARAVT_SESSION (mpirun
 * passes the environment on), or PARAVT_SOCK for a single process.
 */
#include <stdint.h>

#include <mpi.h>

#include "rt_event.h"

#define MPI_REQS 256 /* nonblocking requests followed at once */

/* Outstanding nonblocking receives: their request and id. */
static struct {
	MPI_Request req[MPI_REQS]; /* request, MPI_REQUEST_NULL when free */
	MPI_Datatype type[MPI_REQS]; /* its datatype */
	MPI_Comm comm[MPI_REQS];     /* its communicator */
	int32_t id[MPI_REQS];        /* id recorded in aux */
	int32_t next;                /* last id handed out */
	int init;                    /* slots set to MPI_REQUEST_NULL */
} mreq;

/* This process's rank in MPI_COMM_WORLD (for PROG_START). */
static int32_t mpi_self(void)
{
	int r = -1;

	(void)PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	return r;
}

/* The MPI_COMM_WORLD rank of rank r of comm (r itself for the world, or
 * for MPI_ANY_SOURCE, MPI_PROC_NULL and failures). */
static int32_t mpi_world(MPI_Comm comm, int r)
{
	MPI_Group g, w;
	int out = r;

	if (comm == MPI_COMM_WORLD || r < 0)
		return r;
	if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
		return r;
	if (PMPI_Comm_group(MPI_COMM_WORLD, &w) == MPI_SUCCESS) {
		if (PMPI_Group_translate_ranks(g, 1, &r, w, &out) !=
		    MPI_SUCCESS)
			out = r;
		PMPI_Group_free(&w);
	}
	PMPI_Group_free(&g);
	return out;
}

/* Bytes of count items of type, or -1. */
static int64_t mpi_bytes(int count, MPI_Datatype type)
{
	int sz = 0;

	if (count < 0 || PMPI_Type_size(type, &sz) != MPI_SUCCESS)
		return -1;
	return (int64_t)count * sz;
}

/* Size of comm (aux of collectives). */
static int32_t mpi_size(MPI_Comm comm)
{
	int n = 0;

	(void)PMPI_Comm_size(comm, &n);
	return n;
}

/* Call site of the next traced call, set by paravt_mpi.h's macros in
 * programs built through paravt; NULL for a relinked program. */
static const char *mpi_site_file;
static const char *mpi_site_func;
static int mpi_site_line;

void para_vt_mpi_site(const char *file, const char *func, int line)
{
	mpi_site_file = file;
	mpi_site_func = func;
	mpi_site_line = line;
}

/* Starts a probe at the recorded call site, if any (PMPI itself has no
 * source location); the site serves this one call. */
static int mpi_begin(pvt__ev_probe *pr, int kind, int op, int32_t peer,
                     int32_t tag, int64_t bytes, int32_t aux)
{
	const char *file = mpi_site_file, *func = mpi_site_func;
	int line = mpi_site_line;

	mpi_site_file = mpi_site_func = NULL;
	mpi_site_line = 0;
	return pvt__ev_begin(pr, kind, op, file, func, line, peer, tag, bytes,
	                     aux);
}

/* Flushes before a call that may wait, if records are pending. */
static void mpi_flush(void)
{
	if (pvt__ev_pending())
		(void)pvt__ev_flush();
}

/* MPI_Init: the real one first, then tracing starts. */
int MPI_Init(int *argc, char ***argv)
{
	pvt__ev_probe pr;
	int rc = PMPI_Init(argc, argv);

	if (pvt__ev_init(mpi_self) == PVT_TRACE_OFF)
		return rc;
	if (mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_INIT, -1, -1, -1,
	              0)) {
		pvt__ev_call(&pr);
		pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc,
		            mpi_size(MPI_COMM_WORLD));
	}
	return rc;
}

/* MPI_Finalize. */
int MPI_Finalize(void)
{
	pvt__ev_probe pr;
	int rc;

	if (!mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_FINALIZE, -1, -1,
	               -1, 0))
		return PMPI_Finalize();
	mpi_flush();
	pvt__ev_call(&pr);
	rc = PMPI_Finalize();
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc, 0);
	return rc;
}

/* MPI_Send. */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest,
             int tag, MPI_Comm comm)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int32_t peer;
	int rc;

	peer = mpi_world(comm, dest);
	bytes = mpi_bytes(count, type);
	if (!mpi_begin(&pr, PVT_EV_SEND_START, PVT_OP_MPI_SEND, peer, tag, bytes,
	               0))
		return PMPI_Send(buf, count, type, dest, tag, comm);
	pvt__ev_call(&pr);
	rc = PMPI_Send(buf, count, type, dest, tag, comm);
	pvt__ev_end(&pr, PVT_EV_SEND_END, peer, tag, bytes, rc, 0);
	return rc;
}

/* Ends a receive probe from a completed status. */
static void mpi_recv_end(pvt__ev_probe *pr, const MPI_Status *st,
                         MPI_Datatype type, MPI_Comm comm, int rc,
                         int32_t aux)
{
	int n = -1;

	if (rc != MPI_SUCCESS || st->MPI_SOURCE == MPI_PROC_NULL ||
	    PMPI_Get_count(st, type, &n) != MPI_SUCCESS ||
	    n == MPI_UNDEFINED) {
		pvt__ev_end(pr, PVT_EV_RECV_END, -1, -1, -1, rc, aux);
		return;
	}
	pvt__ev_end(pr, PVT_EV_RECV_END, mpi_world(comm, st->MPI_SOURCE),
	            st->MPI_TAG, mpi_bytes(n, type), rc, aux);
}

/* MPI_Recv. */
int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag,
             MPI_Comm comm, MPI_Status *status)
{
	pvt__ev_probe pr;
	MPI_Status st;
	int flag = 0, rc;

	if (!mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_RECV,
	               mpi_world(comm, src), tag, -1, 0))
		return PMPI_Recv(buf, count, type, src, tag, comm, status);
	if (pvt__ev_pending() &&
	    (PMPI_Iprobe(src, tag, comm, &flag, MPI_STATUS_IGNORE) !=
	         MPI_SUCCESS ||
	     !flag))
		(void)pvt__ev_flush();
	pvt__ev_call(&pr);
	rc = PMPI_Recv(buf, count, type, src, tag, comm, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	mpi_recv_end(&pr, &st, type, comm, rc, 0);
	return rc;
}

/* MPI_Isend: the whole send is recorded at the post. */
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm, MPI_Request *req)
{
	pvt__ev_probe pr;
	int64_t bytes;
	int32_t peer;
	int rc;

	peer = mpi_world(comm, dest);
	bytes = mpi_bytes(count, type);
	if (!mpi_begin(&pr, PVT_EV_SEND_START, PVT_OP_MPI_ISEND, peer, tag,
	               bytes, 0))
		return PMPI_Isend(buf, count, type, dest, tag, comm, req);
	pvt__ev_call(&pr);
	rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
	pvt__ev_end(&pr, PVT_EV_SEND_END, peer, tag, bytes, rc, 0);
	return rc;
}

/* Remembers a posted receive; its id (0 when the table is full). */
static int32_t mpi_req_add(MPI_Request r, MPI_Datatype type, MPI_Comm comm)
{
	int i;

	if (!mreq.init) {
		for (i = 0; i < MPI_REQS; i++)
			mreq.req[i] = MPI_REQUEST_NULL;
		mreq.init = 1;
	}
	for (i = 0; i < MPI_REQS; i++)
		if (mreq.req[i] == MPI_REQUEST_NULL) {
			mreq.req[i] = r;
			mreq.type[i] = type;
			mreq.comm[i] = comm;
			mreq.id[i] = ++mreq.next;
			return mreq.id[i];
		}
	return 0;
}

/* The slot of a followed receive request, or -1. */
static int mpi_req_find(MPI_Request r)
{
	int i;

	if (!mreq.init || r == MPI_REQUEST_NULL)
		return -1;
	for (i = 0; i < MPI_REQS; i++)
		if (mreq.req[i] == r)
			return i;
	return -1;
}

/* MPI_Irecv: RECV_START now (aux = request id), RECV_END at completion. */
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag,
              MPI_Comm comm, MPI_Request *req)
{
	pvt__ev_probe pr;
	int32_t id;
	int rc;

	if (!mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_IRECV,
	               mpi_world(comm, src), tag, -1, mreq.next + 1))
		return PMPI_Irecv(buf, count, type, src, tag, comm, req);
	pvt__ev_call(&pr);
	rc = PMPI_Irecv(buf, count, type, src, tag, comm, req);
	id = rc == MPI_SUCCESS ? mpi_req_add(*req, type, comm) : 0;
	if (id == 0) /* failed post or table full: end it here */
		pvt__ev_mark(PVT_EV_RECV_END, PVT_OP_MPI_IRECV, -1, tag, -1,
		             rc, mreq.next + 1);
	pvt__ev_close(&pr);
	return rc;
}

/* Records the completion of request slot i (op = the waiting call) and
 * frees the slot. */
static void mpi_req_done(int i, const MPI_Status *st, int op)
{
	int n = -1;
	int32_t peer = -1, tag = -1;
	int64_t bytes = -1;

	if (st != NULL && st->MPI_SOURCE != MPI_PROC_NULL &&
	    PMPI_Get_count(st, mreq.type[i], &n) == MPI_SUCCESS &&
	    n != MPI_UNDEFINED) {
		peer = mpi_world(mreq.comm[i], st->MPI_SOURCE);
		tag = st->MPI_TAG;
		bytes = mpi_bytes(n, mreq.type[i]);
	}
	pvt__ev_mark(PVT_EV_RECV_END, op, peer, tag, bytes,
	             st ? st->MPI_ERROR : 0, mreq.id[i]);
	mreq.req[i] = MPI_REQUEST_NULL;
}

/* MPI_Wait. */
int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	pvt__ev_probe pr;
	MPI_Status st;
	int flag = 0, i, rc;

	if (!mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAIT, -1, -1, -1,
	               1))
		return PMPI_Wait(req, status);
	i = mpi_req_find(*req);
	if (pvt__ev_pending() &&
	    (PMPI_Request_get_status(*req, &flag, MPI_STATUS_IGNORE) !=
	         MPI_SUCCESS ||
	     !flag))
		(void)pvt__ev_flush();
	pvt__ev_call(&pr);
	rc = PMPI_Wait(req, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	if (i >= 0) {
		st.MPI_ERROR = rc;
		mpi_req_done(i, &st, PVT_OP_MPI_WAIT);
	}
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc, 1);
	return rc;
}

/* MPI_Waitall: statuses of followed receives are read from the caller's
 * array, or from a local one when the caller ignores them. */
int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	MPI_Status local[64], *s = sts;
	int slot[64], i, rc, m = n < 64 ? n : 64;
	pvt__ev_probe pr;

	if (!mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAITALL, -1, -1,
	               -1, n))
		return PMPI_Waitall(n, reqs, sts);
	for (i = 0; i < m; i++)
		slot[i] = mpi_req_find(reqs[i]);
	if (sts == MPI_STATUSES_IGNORE && n <= 64)
		s = local;
	mpi_flush();
	pvt__ev_call(&pr);
	rc = PMPI_Waitall(n, reqs, s);
	for (i = 0; i < m; i++)
		if (slot[i] >= 0)
			mpi_req_done(slot[i], s != MPI_STATUSES_IGNORE ? &s[i]
			                                               : NULL,
			             PVT_OP_MPI_WAITALL);
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc, n);
	return rc;
}

/* MPI_Test: result of the end record = flag. */
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	pvt__ev_probe pr;
	MPI_Status st;
	int i, rc;

	if (!mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_TEST, -1, -1, -1,
	               1))
		return PMPI_Test(req, flag, status);
	i = mpi_req_find(*req);
	pvt__ev_call(&pr);
	rc = PMPI_Test(req, flag, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	if (i >= 0 && rc == MPI_SUCCESS && *flag) {
		st.MPI_ERROR = rc;
		mpi_req_done(i, &st, PVT_OP_MPI_TEST);
	}
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1,
	            rc == MPI_SUCCESS ? *flag : rc, 1);
	return rc;
}

/* MPI_Sendrecv: a send probe and a receive probe around one call. */
int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
	const char *file = mpi_site_file, *func = mpi_site_func;
	int line = mpi_site_line;
	pvt__ev_probe ps, pr;
	MPI_Status st;
	int rc;

	if (!mpi_begin(&ps, PVT_EV_SEND_START, PVT_OP_MPI_SENDRECV,
	               mpi_world(comm, dest), stag, mpi_bytes(scount, stype),
	               0))
		return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf,
		                     rcount, rtype, src, rtag, comm, status);
	para_vt_mpi_site(file, func, line); /* both halves: one call site */
	(void)mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_SENDRECV,
	                mpi_world(comm, src), rtag, -1, 0);
	mpi_flush();
	pvt__ev_call(&pr);
	ps.t1 = pr.t1;
	rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
	                   rtype, src, rtag, comm, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	pvt__ev_end(&ps, PVT_EV_SEND_END, mpi_world(comm, dest), stag,
	            mpi_bytes(scount, stype), rc, 0);
	mpi_recv_end(&pr, &st, rtype, comm, rc, 0);
	return rc;
}

/* ---- collectives ----------------------------------------------------------- */

/* Starts a collective probe and flushes (collectives wait for others). */
static int mpi_cbegin(pvt__ev_probe *pr, int kind, int op, int32_t root,
                      int64_t bytes, MPI_Comm comm)
{
	if (!mpi_begin(pr, kind, op, root, -1, bytes, mpi_size(comm)))
		return 0;
	mpi_flush();
	pvt__ev_call(pr);
	return 1;
}

/* Ends a collective probe. */
static int mpi_cend(pvt__ev_probe *pr, int kind, int32_t root, int64_t bytes,
                    int rc, MPI_Comm comm)
{
	pvt__ev_end(pr, kind, root, -1, bytes, rc, mpi_size(comm));
	return rc;
}

/* MPI_Barrier. */
int MPI_Barrier(MPI_Comm comm)
{
	pvt__ev_probe pr;

	if (!mpi_cbegin(&pr, PVT_EV_GROUP_START, PVT_OP_MPI_BARRIER, -1, -1,
	                comm))
		return PMPI_Barrier(comm);
	return mpi_cend(&pr, PVT_EV_GROUP_END, -1, -1, PMPI_Barrier(comm),
	                comm);
}

/* MPI_Bcast: MCAST records, peer = root. */
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm)
{
	int64_t bytes = mpi_bytes(count, type);
	int32_t r = mpi_world(comm, root);
	pvt__ev_probe pr;

	if (!mpi_cbegin(&pr, PVT_EV_MCAST_START, PVT_OP_MPI_BCAST, r, bytes,
	                comm))
		return PMPI_Bcast(buf, count, type, root, comm);
	return mpi_cend(&pr, PVT_EV_MCAST_END, r, bytes,
	                PMPI_Bcast(buf, count, type, root, comm), comm);
}

/* MPI_Reduce: peer = root. */
int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm)
{
	int64_t bytes = mpi_bytes(count, type);
	int32_t r = mpi_world(comm, root);
	pvt__ev_probe pr;

	if (!mpi_cbegin(&pr, PVT_EV_GROUP_START, PVT_OP_MPI_REDUCE, r, bytes,
	                comm))
		return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
	return mpi_cend(&pr, PVT_EV_GROUP_END, r, bytes,
	                PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm),
	                comm);
}

/* MPI_Allreduce. */
int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm)
{
	int64_t bytes = mpi_bytes(count, type);
	pvt__ev_probe pr;

	if (!mpi_cbegin(&pr, PVT_EV_GROUP_START, PVT_OP_MPI_ALLREDUCE, -1,
	                bytes, comm))
		return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
	return mpi_cend(&pr, PVT_EV_GROUP_END, -1, bytes,
	                PMPI_Allreduce(sbuf, rbuf, count, type, op, comm),
	                comm);
}

/* MPI_Gather: bytes = this rank's contribution, peer = root. */
int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	int64_t bytes = mpi_bytes(scount, stype);
	int32_t r = mpi_world(comm, root);
	pvt__ev_probe pr;

	if (!mpi_cbegin(&pr, PVT_EV_GROUP_START, PVT_OP_MPI_GATHER, r, bytes,
	                comm))
		return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype,
		                   root, comm);
	return mpi_cend(&pr, PVT_EV_GROUP_END, r, bytes,
	                PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype,
	                            root, comm),
	                comm);
}

/* MPI_Scatter: bytes = what this rank receives, peer = root. */
int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	int64_t bytes = mpi_bytes(rcount, rtype);
	int32_t r = mpi_world(comm, root);
	pvt__ev_probe pr;

	if (!mpi_cbegin(&pr, PVT_EV_GROUP_START, PVT_OP_MPI_SCATTER, r, bytes,
	                comm))
		return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype,
		                    root, comm);
	return mpi_cend(&pr, PVT_EV_GROUP_END, r, bytes,
	                PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype,
	                             root, comm),
	                comm);
}

/* MPI_Alltoall: bytes = everything this rank sends. */
int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	int64_t bytes = mpi_bytes(scount, stype);
	pvt__ev_probe pr;

	if (bytes > 0)
		bytes *= mpi_size(comm);
	if (!mpi_cbegin(&pr, PVT_EV_GROUP_START, PVT_OP_MPI_ALLTOALL, -1,
	                bytes, comm))
		return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype,
		                     comm);
	return mpi_cend(&pr, PVT_EV_GROUP_END, -1, bytes,
	                PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype,
	                              comm),
	                comm);
}
