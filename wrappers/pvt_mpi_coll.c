/*
 * pvt_mpi_coll.c — MPI collectives (pvt_mpi.h, overview in pvt_mpi.c).
 *
 * Every collective records GROUP_START/END on its communicator (comm =
 * its id, aux = its size): peer = the root's world rank for a rooted one
 * (the caller's own for MPI_ROOT on an intercommunicator, PVT_PEER_NULL
 * for MPI_PROC_NULL), PVT_PEER_NULL for a member of an all-to-all
 * (MPI_Alltoallv, MPI_Alltoallw and their nonblocking forms) that
 * receives nothing, else -1; tag = on an intercommunicator, the
 * caller's group (pvt__mpi_side: 0 or 1), else -1; bytes = what this
 * rank puts in (its send buffer: count * size; the sum of counts for
 * the v and w forms; for a scatter what it gets; per neighbour for the
 * neighbourhood ones; -1 when MPI_IN_PLACE leaves it unsaid).  A blocking one flushes first (it waits
 * for the others).  A nonblocking one records GROUP_START at the post
 * (ref = a request id) and its GROUP_END when a Wait or Test completes
 * it (pvt_mpi_wait.c).  How members wait for each other (everyone for
 * everyone, the root for all, all for the root) is the op's class in
 * pvt_event.h, which the analysis reads.
 */
#include <string.h>

#include "pvt_mpi.h"

/* The number of ranks a rank exchanges with in a collective on ci: the
 * remote group's size on an intercommunicator. */
static int coll_n(const pvt__mpi_comm *ci)
{
	return ci->inter ? ci->rsize : ci->size;
}

/* count * size of type, or -1 when buf is MPI_IN_PLACE. */
static int64_t coll_bytes(const void *buf, int count, MPI_Datatype type)
{
	return buf == MPI_IN_PLACE ? -1 : pvt__mpi_bytes(count, type);
}

/* b * n, or -1 when b is unknown. */
static int64_t coll_times(int64_t b, int n)
{
	return b < 0 ? -1 : b * n;
}

/* The sum of n counts of type (-1 unknown). */
static int64_t coll_vbytes(const void *buf, const int *counts, int n,
                           MPI_Datatype type)
{
	int64_t sum = 0, b;
	int i;

	if (buf == MPI_IN_PLACE || counts == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if ((b = pvt__mpi_bytes(counts[i], type)) < 0)
			return -1;
		sum += b;
	}
	return sum;
}

/* The sum of counts[i] items of types[i] (-1 unknown). */
static int64_t coll_wbytes(const void *buf, const int *counts,
                           const MPI_Datatype *types, int n)
{
	int64_t sum = 0, b;
	int i;

	if (buf == MPI_IN_PLACE || counts == NULL || types == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if ((b = pvt__mpi_bytes(counts[i], types[i])) < 0)
			return -1;
		sum += b;
	}
	return sum;
}

/* Starts a blocking collective's probe and flushes.  1 if tracing. */
static int coll_begin(pvt__ev_probe *pr, int op, const pvt__mpi_comm *ci,
                      int32_t root, int64_t bytes)
{
	if (!pvt__mpi_begin(pr, PVT_EV_GROUP_START, op, root,
	                    pvt__mpi_side(ci), bytes, ci->size, ci->id, 0))
		return 0;
	pvt__mpi_flush();
	pvt__ev_call(pr);
	return 1;
}

/* Ends a blocking collective's probe; returns rc. */
static int coll_end(pvt__ev_probe *pr, const pvt__mpi_comm *ci, int32_t root,
                    int64_t bytes, int rc)
{
	pvt__ev_end(pr, PVT_EV_GROUP_END, root, pvt__mpi_side(ci), bytes, rc,
	            ci->size);
	return rc;
}

/* Starts a nonblocking collective's probe (ref = id).  1 if tracing. */
static int coll_ibegin(pvt__ev_probe *pr, int op, const pvt__mpi_comm *ci,
                       int32_t root, int64_t bytes, uint32_t id)
{
	if (!pvt__mpi_begin(pr, PVT_EV_GROUP_START, op, root,
	                    pvt__mpi_side(ci), bytes, ci->size, ci->id, id))
		return 0;
	pvt__ev_call(pr);
	return 1;
}

/* Ends a nonblocking collective's post (rc): its request is followed, and
 * its GROUP_END comes at completion (now, if it failed or cannot be
 * followed).  Returns rc. */
static int coll_iend(pvt__ev_probe *pr, const pvt__mpi_comm *ci,
                     int32_t root, int64_t bytes, uint32_t id, int rc,
                     MPI_Request *req)
{
	pvt__mpi_req info;

	memset(&info, 0, sizeof info);
	info.kind = PVT__MPI_R_COLL;
	info.op = pr->op;
	info.id = id;
	info.ci = ci;
	info.root = root;
	info.bytes = bytes;
	if (rc == MPI_SUCCESS && pvt__mpi_req_add(*req, &info) == 0) {
		pvt__ev_close(pr);
		return rc;
	}
	pvt__ev_end(pr, PVT_EV_GROUP_END, root, pvt__mpi_side(ci), bytes,
	            rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM, ci->size);
	return rc;
}

/* The body of a blocking collective wrapper whose peer is peer (an
 * expression that may use ci). */
#define COLL_PEER(op, comm, peer, bytes, call)                              \
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);                   \
	int32_t r_ = (peer);                                                \
	int64_t b_ = (bytes);                                               \
	pvt__ev_probe pr;                                                   \
	if (!coll_begin(&pr, op, ci, r_, b_))                               \
		return call;                                                \
	return coll_end(&pr, ci, r_, b_, call)

/* The body of a blocking collective wrapper. */
#define COLL(op, comm, root, bytes, call)                                   \
	COLL_PEER(op, comm, (root) == -1 ? -1 : pvt__mpi_root(ci, (root)),  \
	          bytes, call)

/* The body of a nonblocking collective wrapper whose peer is peer. */
#define ICOLL_PEER(op, comm, peer, bytes, call, req)                        \
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);                   \
	int32_t r_ = (peer);                                                \
	int64_t b_ = (bytes);                                               \
	uint32_t id_ = pvt__mpi_new_id();                                   \
	pvt__ev_probe pr;                                                   \
	if (!coll_ibegin(&pr, op, ci, r_, b_, id_))                         \
		return call;                                                \
	return coll_iend(&pr, ci, r_, b_, id_, call, req)

/* The body of a nonblocking collective wrapper. */
#define ICOLL(op, comm, root, bytes, call, req)                             \
	ICOLL_PEER(op, comm, (root) == -1 ? -1 : pvt__mpi_root(ci, (root)), \
	           bytes, call, req)

/* The peer of an all-to-all member that receives rbytes: PVT_PEER_NULL
 * when it receives nothing (it waits for nobody: pvt_event.h), else
 * -1. */
static int32_t coll_gets(int64_t rbytes)
{
	return rbytes == 0 ? PVT_PEER_NULL : -1;
}

/* A root argument that is never -1 for these wrappers' purpose: MPI's
 * roots are >= 0, MPI_ROOT or MPI_PROC_NULL. */
#define NOROOT (-1)

/* ---- blocking ------------------------------------------------------------ */

int MPI_Barrier(MPI_Comm comm)
{
	COLL(PVT_OP_MPI_BARRIER, comm, NOROOT, -1, PMPI_Barrier(comm));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm)
{
	COLL(PVT_OP_MPI_BCAST, comm, root, pvt__mpi_bytes(count, type),
	     PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_GATHER, comm, root,
	     sbuf == MPI_IN_PLACE ? pvt__mpi_bytes(rcount, rtype)
	                          : pvt__mpi_bytes(scount, stype),
	     PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                int root, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_GATHERV, comm, root, coll_bytes(sbuf, scount, stype),
	     PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
	                  root, comm));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_SCATTER, comm, root, coll_bytes(rbuf, rcount, rtype),
	     PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
	                  comm));
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_SCATTERV, comm, root, coll_bytes(rbuf, rcount, rtype),
	     PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
	                   root, comm));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_ALLGATHER, comm, NOROOT,
	     sbuf == MPI_IN_PLACE ? pvt__mpi_bytes(rcount, rtype)
	                          : pvt__mpi_bytes(scount, stype),
	     PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int displs[],
                   MPI_Datatype rtype, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_ALLGATHERV, comm, NOROOT,
	     coll_bytes(sbuf, scount, stype),
	     PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
	                     comm));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_ALLTOALL, comm, NOROOT,
	     coll_times(sbuf == MPI_IN_PLACE ? pvt__mpi_bytes(rcount, rtype)
	                                     : pvt__mpi_bytes(scount, stype),
	                coll_n(pvt__mpi_comm_of(comm))),
	     PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
	COLL_PEER(PVT_OP_MPI_ALLTOALLV, comm,
	          coll_gets(coll_vbytes(rbuf, rcounts, coll_n(ci), rtype)),
	          coll_vbytes(sbuf, scounts, coll_n(ci), stype),
	     PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
	                    rdispls, rtype, comm));
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf,
                  const int rcounts[], const int rdispls[],
                  const MPI_Datatype rtypes[], MPI_Comm comm)
{
	COLL_PEER(PVT_OP_MPI_ALLTOALLW, comm,
	          coll_gets(coll_wbytes(rbuf, rcounts, rtypes, coll_n(ci))),
	          coll_wbytes(sbuf, scounts, stypes, coll_n(ci)),
	     PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts,
	                    rdispls, rtypes, comm));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_REDUCE, comm, root, pvt__mpi_bytes(count, type),
	     PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_ALLREDUCE, comm, NOROOT, pvt__mpi_bytes(count, type),
	     PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_REDUCE_SCATTER, comm, NOROOT,
	     coll_vbytes(rbuf, rcounts, pvt__mpi_comm_of(comm)->size, type),
	     PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm));
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_REDUCE_SCATTER_BLOCK, comm, NOROOT,
	     coll_times(pvt__mpi_bytes(rcount, type),
	                pvt__mpi_comm_of(comm)->size),
	     PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm));
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
             MPI_Op op, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_SCAN, comm, NOROOT, pvt__mpi_bytes(count, type),
	     PMPI_Scan(sbuf, rbuf, count, type, op, comm));
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm)
{
	COLL(PVT_OP_MPI_EXSCAN, comm, NOROOT, pvt__mpi_bytes(count, type),
	     PMPI_Exscan(sbuf, rbuf, count, type, op, comm));
}

int MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype,
                           MPI_Comm comm)
{
	COLL(PVT_OP_MPI_NEIGHBOR_ALLGATHER, comm, NOROOT,
	     pvt__mpi_bytes(scount, stype),
	     PMPI_Neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype,
	                             comm));
}

int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                            void *rbuf, const int rcounts[],
                            const int displs[], MPI_Datatype rtype,
                            MPI_Comm comm)
{
	COLL(PVT_OP_MPI_NEIGHBOR_ALLGATHERV, comm, NOROOT,
	     pvt__mpi_bytes(scount, stype),
	     PMPI_Neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts,
	                              displs, rtype, comm));
}

int MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                          void *rbuf, int rcount, MPI_Datatype rtype,
                          MPI_Comm comm)
{
	COLL(PVT_OP_MPI_NEIGHBOR_ALLTOALL, comm, NOROOT,
	     pvt__mpi_bytes(scount, stype),
	     PMPI_Neighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype,
	                            comm));
}

int MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[],
                           const int sdispls[], MPI_Datatype stype,
                           void *rbuf, const int rcounts[],
                           const int rdispls[], MPI_Datatype rtype,
                           MPI_Comm comm)
{
	COLL(PVT_OP_MPI_NEIGHBOR_ALLTOALLV, comm, NOROOT, -1,
	     PMPI_Neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf,
	                             rcounts, rdispls, rtype, comm));
}

int MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[],
                           const MPI_Aint sdispls[],
                           const MPI_Datatype stypes[], void *rbuf,
                           const int rcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype rtypes[], MPI_Comm comm)
{
	COLL(PVT_OP_MPI_NEIGHBOR_ALLTOALLW, comm, NOROOT, -1,
	     PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf,
	                             rcounts, rdispls, rtypes, comm));
}

/* ---- nonblocking ----------------------------------------------------------- */

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IBARRIER, comm, NOROOT, -1, PMPI_Ibarrier(comm, req),
	      req);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
               MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IBCAST, comm, root, pvt__mpi_bytes(count, type),
	      PMPI_Ibcast(buf, count, type, root, comm, req), req);
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IGATHER, comm, root,
	      sbuf == MPI_IN_PLACE ? pvt__mpi_bytes(rcount, rtype)
	                           : pvt__mpi_bytes(scount, stype),
	      PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
	                   req),
	      req);
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, const int rcounts[], const int displs[],
                 MPI_Datatype rtype, int root, MPI_Comm comm,
                 MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IGATHERV, comm, root, coll_bytes(sbuf, scount, stype),
	      PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
	                    root, comm, req),
	      req);
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_ISCATTER, comm, root, coll_bytes(rbuf, rcount, rtype),
	      PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
	                    comm, req),
	      req);
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_ISCATTERV, comm, root, coll_bytes(rbuf, rcount, rtype),
	      PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
	                     root, comm, req),
	      req);
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IALLGATHER, comm, NOROOT,
	      sbuf == MPI_IN_PLACE ? pvt__mpi_bytes(rcount, rtype)
	                           : pvt__mpi_bytes(scount, stype),
	      PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm,
	                      req),
	      req);
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, const int rcounts[], const int displs[],
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IALLGATHERV, comm, NOROOT,
	      coll_bytes(sbuf, scount, stype),
	      PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
	                       rtype, comm, req),
	      req);
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                  MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IALLTOALL, comm, NOROOT,
	      coll_times(sbuf == MPI_IN_PLACE ? pvt__mpi_bytes(rcount, rtype)
	                                      : pvt__mpi_bytes(scount, stype),
	                 coll_n(pvt__mpi_comm_of(comm))),
	      PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm,
	                     req),
	      req);
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[],
                   const int sdispls[], MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int rdispls[],
                   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	ICOLL_PEER(PVT_OP_MPI_IALLTOALLV, comm,
	           coll_gets(coll_vbytes(rbuf, rcounts, coll_n(ci), rtype)),
	           coll_vbytes(sbuf, scounts, coll_n(ci), stype),
	      PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
	                      rdispls, rtype, comm, req),
	      req);
}

int MPI_Ialltoallw(const void *sbuf, const int scounts[],
                   const int sdispls[], const MPI_Datatype stypes[],
                   void *rbuf, const int rcounts[], const int rdispls[],
                   const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request *req)
{
	ICOLL_PEER(PVT_OP_MPI_IALLTOALLW, comm,
	           coll_gets(coll_wbytes(rbuf, rcounts, rtypes, coll_n(ci))),
	           coll_wbytes(sbuf, scounts, stypes, coll_n(ci)),
	      PMPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts,
	                      rdispls, rtypes, comm, req),
	      req);
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IREDUCE, comm, root, pvt__mpi_bytes(count, type),
	      PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req), req);
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count,
                   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IALLREDUCE, comm, NOROOT, pvt__mpi_bytes(count, type),
	      PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req), req);
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IREDUCE_SCATTER, comm, NOROOT,
	      coll_vbytes(rbuf, rcounts, pvt__mpi_comm_of(comm)->size, type),
	      PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req),
	      req);
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                              MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IREDUCE_SCATTER_BLOCK, comm, NOROOT,
	      coll_times(pvt__mpi_bytes(rcount, type),
	                 pvt__mpi_comm_of(comm)->size),
	      PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm,
	                                 req),
	      req);
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
              MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_ISCAN, comm, NOROOT, pvt__mpi_bytes(count, type),
	      PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req), req);
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_IEXSCAN, comm, NOROOT, pvt__mpi_bytes(count, type),
	      PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req), req);
}

int MPI_Ineighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype,
                            void *rbuf, int rcount, MPI_Datatype rtype,
                            MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_INEIGHBOR_ALLGATHER, comm, NOROOT,
	      pvt__mpi_bytes(scount, stype),
	      PMPI_Ineighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype,
	                               comm, req),
	      req);
}

int MPI_Ineighbor_allgatherv(const void *sbuf, int scount,
                             MPI_Datatype stype, void *rbuf,
                             const int rcounts[], const int displs[],
                             MPI_Datatype rtype, MPI_Comm comm,
                             MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_INEIGHBOR_ALLGATHERV, comm, NOROOT,
	      pvt__mpi_bytes(scount, stype),
	      PMPI_Ineighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts,
	                                displs, rtype, comm, req),
	      req);
}

int MPI_Ineighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype,
                           MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_INEIGHBOR_ALLTOALL, comm, NOROOT,
	      pvt__mpi_bytes(scount, stype),
	      PMPI_Ineighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype,
	                              comm, req),
	      req);
}

int MPI_Ineighbor_alltoallv(const void *sbuf, const int scounts[],
                            const int sdispls[], MPI_Datatype stype,
                            void *rbuf, const int rcounts[],
                            const int rdispls[], MPI_Datatype rtype,
                            MPI_Comm comm, MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_INEIGHBOR_ALLTOALLV, comm, NOROOT, -1,
	      PMPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf,
	                               rcounts, rdispls, rtype, comm, req),
	      req);
}

int MPI_Ineighbor_alltoallw(const void *sbuf, const int scounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype stypes[], void *rbuf,
                            const int rcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype rtypes[], MPI_Comm comm,
                            MPI_Request *req)
{
	ICOLL(PVT_OP_MPI_INEIGHBOR_ALLTOALLW, comm, NOROOT, -1,
	      PMPI_Ineighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf,
	                               rcounts, rdispls, rtypes, comm, req),
	      req);
}
