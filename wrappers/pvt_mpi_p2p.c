/*
 * pvt_mpi_p2p.c — point-to-point MPI calls (pvt_mpi.h, overview in
 * pvt_mpi.c):
 *   MPI_Send MPI_Bsend MPI_Ssend MPI_Rsend
 *       SEND_START/END: peer = destination, tag, bytes = count * size
 *   MPI_Isend MPI_Ibsend MPI_Issend MPI_Irsend
 *       SEND_START/END at the post (ref = a request id): the message is
 *       the program's from then on, in MPI's order
 *   MPI_Recv      RECV_START (peer, tag asked for: -1 any),
 *                 RECV_END (the source, tag and bytes received)
 *   MPI_Irecv     RECV_START at the post (ref = request id); its
 *                 RECV_END comes from the Wait/Test that completes it
 *   MPI_Sendrecv, MPI_Sendrecv_replace
 *                 SEND_START, RECV_START, SEND_END, RECV_END
 *   MPI_Probe MPI_Iprobe
 *                 RECV_START/END with op Probe/Iprobe: what a receive
 *                 would get (Iprobe: result = flag), nothing taken
 *   MPI_Mprobe MPI_Improbe
 *                 RECV_START/END: the message is matched here, so this
 *                 is the receive the console pairs with its send
 *   MPI_Mrecv MPI_Imrecv
 *                 SPECIAL records (the data of a matched message)
 *   MPI_Send_init MPI_Bsend_init MPI_Ssend_init MPI_Rsend_init
 *   MPI_Recv_init SPECIAL records (ref = the request's id); the messages
 *                 are recorded at MPI_Start (pvt_mpi_wait.c)
 * A call on MPI_PROC_NULL records peer PVT_PEER_NULL: it moves nothing.
 */
#include <string.h>

#include "pvt_mpi.h"

typedef int (*p2p_send_fn)(const void *, int, MPI_Datatype, int, int,
                           MPI_Comm);
typedef int (*p2p_isend_fn)(const void *, int, MPI_Datatype, int, int,
                            MPI_Comm, MPI_Request *);

/* Ends a receive-class probe from status st of a call on ci (rc): the
 * source, tag and bytes received; with flag 0 (an Iprobe or Improbe that
 * found nothing) peer -1. */
static void p2p_recv_end(pvt__ev_probe *pr, const MPI_Status *st,
                         MPI_Datatype type, const pvt__mpi_comm *ci, int rc,
                         int flag)
{
	if (rc != MPI_SUCCESS || !flag) {
		pvt__ev_end(pr, PVT_EV_RECV_END, -1, -1, -1, rc, 0);
		return;
	}
	if (st->MPI_SOURCE == MPI_PROC_NULL) {
		pvt__ev_end(pr, PVT_EV_RECV_END, PVT_PEER_NULL, -1, 0, rc, 0);
		return;
	}
	pvt__ev_end(pr, PVT_EV_RECV_END, pvt__mpi_peer(ci, st->MPI_SOURCE),
	            st->MPI_TAG, pvt__mpi_got(st, type), rc, 0);
}

/* A blocking send of any mode. */
static int p2p_send(int op, p2p_send_fn fn, const void *buf, int count,
                    MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	int32_t peer = pvt__mpi_peer(ci, dest);
	int64_t bytes = pvt__mpi_bytes(count, type);
	pvt__ev_probe pr;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_SEND_START, op, peer, tag, bytes, 0,
	                    ci->id, 0))
		return fn(buf, count, type, dest, tag, comm);
	if (op == PVT_OP_MPI_SSEND)
		pvt__mpi_flush(); /* waits for the receiver */
	pvt__ev_call(&pr);
	rc = fn(buf, count, type, dest, tag, comm);
	pvt__ev_end(&pr, PVT_EV_SEND_END, peer, tag, bytes, rc, 0);
	return rc;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest,
             int tag, MPI_Comm comm)
{
	return p2p_send(PVT_OP_MPI_SEND, PMPI_Send, buf, count, type, dest, tag,
	                comm);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm)
{
	return p2p_send(PVT_OP_MPI_BSEND, PMPI_Bsend, buf, count, type, dest,
	                tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm)
{
	return p2p_send(PVT_OP_MPI_SSEND, PMPI_Ssend, buf, count, type, dest,
	                tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm)
{
	return p2p_send(PVT_OP_MPI_RSEND, PMPI_Rsend, buf, count, type, dest,
	                tag, comm);
}

/* A nonblocking send of any mode: the whole send at the post. */
static int p2p_isend(int op, p2p_isend_fn fn, const void *buf, int count,
                     MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *req)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	int32_t peer = pvt__mpi_peer(ci, dest);
	int64_t bytes = pvt__mpi_bytes(count, type);
	pvt__ev_probe pr;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_SEND_START, op, peer, tag, bytes, 0,
	                    ci->id, pvt__mpi_new_id()))
		return fn(buf, count, type, dest, tag, comm, req);
	pvt__ev_call(&pr);
	rc = fn(buf, count, type, dest, tag, comm, req);
	pvt__ev_end(&pr, PVT_EV_SEND_END, peer, tag, bytes, rc, 0);
	return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_isend(PVT_OP_MPI_ISEND, PMPI_Isend, buf, count, type, dest,
	                 tag, comm, req);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_isend(PVT_OP_MPI_IBSEND, PMPI_Ibsend, buf, count, type, dest,
	                 tag, comm, req);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_isend(PVT_OP_MPI_ISSEND, PMPI_Issend, buf, count, type, dest,
	                 tag, comm, req);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_isend(PVT_OP_MPI_IRSEND, PMPI_Irsend, buf, count, type, dest,
	                 tag, comm, req);
}

/* Flushes before a receive of (src, tag) that would wait: when records
 * are pending and no such message has arrived. */
static void p2p_flush_before(int src, int tag, MPI_Comm comm)
{
	int flag = 0;

	if (pvt__ev_pending() &&
	    (PMPI_Iprobe(src, tag, comm, &flag, MPI_STATUS_IGNORE) !=
	         MPI_SUCCESS ||
	     !flag))
		(void)pvt__ev_flush();
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag,
             MPI_Comm comm, MPI_Status *status)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	pvt__ev_probe pr;
	MPI_Status st;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_RECV,
	                    pvt__mpi_peer(ci, src), tag, -1, 0, ci->id, 0))
		return PMPI_Recv(buf, count, type, src, tag, comm, status);
	if (src != MPI_PROC_NULL)
		p2p_flush_before(src, tag, comm);
	pvt__ev_call(&pr);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Recv(buf, count, type, src, tag, comm, &st);
	pvt__ev_ret(&pr);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	p2p_recv_end(&pr, &st, type, ci, rc, 1);
	return rc;
}

/* Follows receive request r (kind RECV or PRECV).  0, or -1 when it
 * cannot be followed. */
static int p2p_follow(MPI_Request r, int kind, int op, uint32_t id,
                      const pvt__mpi_comm *ci, MPI_Datatype type,
                      int32_t peer, int32_t tag, int64_t bytes)
{
	pvt__mpi_req info;

	memset(&info, 0, sizeof info);
	info.kind = kind;
	info.op = (uint16_t)op;
	info.id = id;
	info.ci = ci;
	info.type = type;
	info.peer = peer;
	info.tag = tag;
	info.bytes = bytes;
	info.root = -1;
	return pvt__mpi_req_add(r, &info);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag,
              MPI_Comm comm, MPI_Request *req)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	uint32_t id = pvt__mpi_new_id();
	int32_t peer = pvt__mpi_peer(ci, src);
	pvt__ev_probe pr;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, peer,
	                    tag, -1, 0, ci->id, id))
		return PMPI_Irecv(buf, count, type, src, tag, comm, req);
	pvt__ev_call(&pr);
	rc = PMPI_Irecv(buf, count, type, src, tag, comm, req);
	if (rc != MPI_SUCCESS ||
	    p2p_follow(*req, PVT__MPI_R_RECV, PVT_OP_MPI_IRECV, id, ci, type,
	               peer, tag, -1) != 0)
		pvt__ev_end(&pr, PVT_EV_RECV_END, -1, -1, -1,
		            rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM, 0);
	else
		pvt__ev_close(&pr);
	return rc;
}

/* MPI_Sendrecv and MPI_Sendrecv_replace (op says which): a send probe
 * and a receive probe around one call. */
static int p2p_sendrecv(int op, const void *sbuf, int scount,
                        MPI_Datatype stype, int dest, int stag, void *rbuf,
                        int rcount, MPI_Datatype rtype, int src, int rtag,
                        MPI_Comm comm, MPI_Status *status)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	int32_t to = pvt__mpi_peer(ci, dest);
	int64_t bytes = pvt__mpi_bytes(scount, stype);
	int replace = op == PVT_OP_MPI_SENDRECV_REPLACE;
	pvt__ev_probe ps, pr;
	MPI_Status st;
	int rc;

#define P2P_SR_CALL(s)                                                      \
	(replace ? PMPI_Sendrecv_replace(rbuf, rcount, rtype, dest, stag, src,  \
	                                 rtag, comm, (s))                       \
	         : PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, \
	                         rtype, src, rtag, comm, (s)))
	if (!pvt__mpi_begin(&ps, PVT_EV_SEND_START, op, to, stag, bytes, 0,
	                    ci->id, 0))
		return P2P_SR_CALL(status);
	pvt__ev_mark_in(&ps, PVT_EV_RECV_START, pvt__mpi_peer(ci, src), rtag,
	                -1);
	pvt__mpi_flush();
	pvt__ev_call(&ps);
	pr = ps; /* the same call site; its time before the call is ps's */
	pr.t0 = pr.t1;
	pvt__mpi_status_in(&st, status);
	rc = P2P_SR_CALL(&st);
#undef P2P_SR_CALL
	pvt__ev_ret(&ps);
	pr.t2 = ps.t2;
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	pvt__ev_end(&ps, PVT_EV_SEND_END, to, stag, bytes, rc, 0);
	p2p_recv_end(&pr, &st, rtype, ci, rc, 1);
	return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
	return p2p_sendrecv(PVT_OP_MPI_SENDRECV, sbuf, scount, stype, dest,
	                    stag, rbuf, rcount, rtype, src, rtag, comm, status);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                         int stag, int src, int rtag, MPI_Comm comm,
                         MPI_Status *status)
{
	return p2p_sendrecv(PVT_OP_MPI_SENDRECV_REPLACE, buf, count, type, dest,
	                    stag, buf, count, type, src, rtag, comm, status);
}

/* ---- probes and matched receives ------------------------------------------ */

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *status)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	pvt__ev_probe pr;
	MPI_Status st;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_PROBE,
	                    pvt__mpi_peer(ci, src), tag, -1, 0, ci->id, 0))
		return PMPI_Probe(src, tag, comm, status);
	if (src != MPI_PROC_NULL)
		p2p_flush_before(src, tag, comm);
	pvt__ev_call(&pr);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Probe(src, tag, comm, &st);
	pvt__ev_ret(&pr);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	p2p_recv_end(&pr, &st, MPI_BYTE, ci, rc, 1);
	return rc;
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	pvt__ev_probe pr;
	MPI_Status st;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_IPROBE,
	                    pvt__mpi_peer(ci, src), tag, -1, 0, ci->id, 0))
		return PMPI_Iprobe(src, tag, comm, flag, status);
	pvt__ev_call(&pr);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Iprobe(src, tag, comm, flag, &st);
	pvt__ev_ret(&pr);
	if (status != MPI_STATUS_IGNORE && rc == MPI_SUCCESS && *flag)
		*status = st;
	p2p_recv_end(&pr, &st, MPI_BYTE, ci, rc, rc == MPI_SUCCESS && *flag);
	return rc;
}

int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *msg,
               MPI_Status *status)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	pvt__ev_probe pr;
	MPI_Status st;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_MPROBE,
	                    pvt__mpi_peer(ci, src), tag, -1, 0, ci->id, 0))
		return PMPI_Mprobe(src, tag, comm, msg, status);
	if (src != MPI_PROC_NULL)
		p2p_flush_before(src, tag, comm);
	pvt__ev_call(&pr);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Mprobe(src, tag, comm, msg, &st);
	pvt__ev_ret(&pr);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	p2p_recv_end(&pr, &st, MPI_BYTE, ci, rc, 1);
	return rc;
}

int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
                MPI_Status *status)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	pvt__ev_probe pr;
	MPI_Status st;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_RECV_START, PVT_OP_MPI_IMPROBE,
	                    pvt__mpi_peer(ci, src), tag, -1, 0, ci->id, 0))
		return PMPI_Improbe(src, tag, comm, flag, msg, status);
	pvt__ev_call(&pr);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Improbe(src, tag, comm, flag, msg, &st);
	pvt__ev_ret(&pr);
	if (status != MPI_STATUS_IGNORE && rc == MPI_SUCCESS && *flag)
		*status = st;
	p2p_recv_end(&pr, &st, MPI_BYTE, ci, rc, rc == MPI_SUCCESS && *flag);
	return rc;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg,
              MPI_Status *status)
{
	pvt__ev_probe pr;
	MPI_Status st;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_MRECV, -1,
	                    -1, -1, 0, 0, 0))
		return PMPI_Mrecv(buf, count, type, msg, status);
	pvt__ev_call(&pr);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Mrecv(buf, count, type, msg, &st);
	pvt__ev_ret(&pr);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, rc == MPI_SUCCESS ? st.MPI_TAG
	                                                           : -1,
	            rc == MPI_SUCCESS ? pvt__mpi_got(&st, type) : -1, rc, 0);
	return rc;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg,
               MPI_Request *req)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_IMRECV, -1,
	                    -1, -1, 0, 0, 0))
		return PMPI_Imrecv(buf, count, type, msg, req);
	pvt__ev_call(&pr);
	rc = PMPI_Imrecv(buf, count, type, msg, req);
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc, 0);
	return rc;
}

/* ---- persistent requests --------------------------------------------------- */

/* Sets up a persistent request (kind PSEND or PRECV): SPECIAL records
 * with ref = its id; its messages are recorded by MPI_Start. */
static int p2p_init(int op, int kind, int rc, MPI_Request *req, int count,
                    MPI_Datatype type, int rank, int tag, MPI_Comm comm)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	int32_t peer = pvt__mpi_peer(ci, rank);
	int64_t bytes = pvt__mpi_bytes(count, type);
	uint32_t id = pvt__mpi_new_id();

	if (rc == MPI_SUCCESS)
		(void)p2p_follow(*req, kind, op, id, ci, type, peer, tag, bytes);
	pvt__ev_mark(PVT_EV_SPECIAL_START, op, peer, tag, bytes, 0, 0, ci->id,
	             id);
	pvt__ev_mark(PVT_EV_SPECIAL_END, op, peer, tag, bytes, rc, 0, ci->id,
	             id);
	return rc;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_init(PVT_OP_MPI_SEND_INIT, PVT__MPI_R_PSEND,
	                PMPI_Send_init(buf, count, type, dest, tag, comm, req),
	                req, count, type, dest, tag, comm);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_init(PVT_OP_MPI_BSEND_INIT, PVT__MPI_R_PSEND,
	                PMPI_Bsend_init(buf, count, type, dest, tag, comm, req),
	                req, count, type, dest, tag, comm);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_init(PVT_OP_MPI_SSEND_INIT, PVT__MPI_R_PSEND,
	                PMPI_Ssend_init(buf, count, type, dest, tag, comm, req),
	                req, count, type, dest, tag, comm);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
	return p2p_init(PVT_OP_MPI_RSEND_INIT, PVT__MPI_R_PSEND,
	                PMPI_Rsend_init(buf, count, type, dest, tag, comm, req),
	                req, count, type, dest, tag, comm);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int src, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
	return p2p_init(PVT_OP_MPI_RECV_INIT, PVT__MPI_R_PRECV,
	                PMPI_Recv_init(buf, count, type, src, tag, comm, req),
	                req, count, type, src, tag, comm);
}
