/*
 * pvt_mpi.c — the MPI wrappers of paravt: a PMPI profiling library
 * (libparavt_mpi.a and libparavt_mpi.so, host port, Open MPI), so an
 * uninstrumented MPI program is traced by relinking
 *     mpicc prog.o libparavt_mpi.a libparavt.a -lmsgpackc
 * or by LD_PRELOAD=libparavt_mpi.so (the .so holds the whole runtime).
 *
 * This file: start and end of MPI (MPI_Init, MPI_Init_thread,
 * MPI_Finalize, MPI_Abort), the call site a program built through paravt
 * records before each call (paravt_mpi.h), and the probe helpers every
 * wrapper file uses (pvt_mpi.h).  The calls themselves:
 *   pvt_mpi_p2p.c   sends, receives, probes, persistent requests' set-up
 *   pvt_mpi_wait.c  Wait/Test in all forms, Start[all], Request_free,
 *                   Cancel, and what a request records when it completes
 *   pvt_mpi_coll.c  every blocking and nonblocking collective
 *   pvt_mpi_comm.c  communicator creation and release, communicator ids
 * and pvt_mpi_cal.c times what the wrappers cost beyond their probes.
 * man/libparavt.3 lists every wrapped call and what it records.
 *
 * Ranks in records are MPI_COMM_WORLD ranks (translated from any
 * communicator, the remote group for an intercommunicator); comm is the
 * communicator's id, the same on every member.  Calls that may wait flush
 * the event buffer first when records are pending.
 *
 * Each rank reaches its node's daemon through PARAVT_SESSION (mpirun
 * passes the environment on), or PARAVT_SOCK for a single process.
 *
 * Threads: with MPI_THREAD_MULTIPLE the event buffer is locked around
 * each record (rt_event.h); the call site of paravt_mpi.h is then only a
 * hint (two threads may swap theirs).
 */
#include <stdint.h>

#include <mpi.h>

#define PARAVT_MPI_NO_MACROS
#include "paravt_mpi.h"
#include "pvt_mpi.h"

/* Call site of the next traced call, set by paravt_mpi.h's macros in
 * programs built through paravt; file NULL for a relinked program. */
para_vt_mpi_site_t para_vt_mpi_at;
static uint32_t mpi_ids; /* request ids handed out */
static uint64_t mpi_wrap_ns; /* the wrappers' cost a call beyond their
				probes (pvt__mpi_calibrate) */

/* The call site set for this call, cleared: a site is used once. */
static para_vt_mpi_site_t mpi_site_take(void)
{
	para_vt_mpi_site_t at = para_vt_mpi_at;

	para_vt_mpi_at.file = para_vt_mpi_at.func = NULL;
	para_vt_mpi_at.line = 0;
	return at;
}

/* See pvt_mpi.h. */
int pvt__mpi_begin(pvt__ev_probe *pr, int kind, int op, int32_t peer,
                   int32_t tag, int64_t bytes, int32_t aux, uint32_t comm,
                   uint32_t ref)
{
	para_vt_mpi_site_t at = mpi_site_take();

	/* the wrapper's work so far is paravt's */
	return pvt__ev_begin_w(pr, mpi_wrap_ns, kind, op, at.file, at.func,
	                       at.line, peer, tag, bytes, aux, comm, ref);
}

/* See pvt_mpi.h. */
void pvt__mpi_flush(void)
{
	if (pvt__ev_pending())
		(void)pvt__ev_flush();
}

/* See pvt_mpi.h. */
int64_t pvt__mpi_bytes(int count, MPI_Datatype type)
{
	int sz = 0;

	if (count < 0 || type == MPI_DATATYPE_NULL ||
	    PMPI_Type_size(type, &sz) != MPI_SUCCESS)
		return -1;
	return (int64_t)count * sz;
}

/* See pvt_mpi.h.  Open MPI's status holds the count in bytes (read
 * directly: two calls fewer between a receive's return and its END's
 * stamp); elsewhere the count of items times their size (-1 when the
 * bytes are not whole items). */
int64_t pvt__mpi_got(const MPI_Status *st, MPI_Datatype type)
{
#if defined(OPEN_MPI) && OPEN_MPI
	(void)type;
	return st->_ucount > (size_t)INT64_MAX ? -1 : (int64_t)st->_ucount;
#else
	int n = -1;

	if (PMPI_Get_count(st, type, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
		return -1;
	return pvt__mpi_bytes(n, type);
#endif
}

/* See pvt_mpi.h. */
uint32_t pvt__mpi_new_id(void)
{
	if (++mpi_ids == 0)
		mpi_ids = 1;
	return mpi_ids;
}

/* Starts tracing after the real MPI_Init[_thread] (rc): PROG_START with
 * the rank, then the init call's own records (aux = world size; op's
 * START carries the thread level asked for in tag, the END the level
 * given). */
static void mpi_started(int op, int rc, int asked, int given)
{
	pvt__ev_probe pr;
	para_vt_mpi_site_t at;
	int n = 0, tracing;

	if (rc != MPI_SUCCESS)
		return;
	tracing = pvt__ev_init(pvt__mpi_self) != PVT_TRACE_OFF;
	/* no call site for the calibration's calls: the init call's stays
	   for its own records, and no name is interned where the daemon
	   would not see it; a rank that does not trace still takes its
	   part (its partner rank waits for it) */
	at = mpi_site_take();
	pvt__mpi_calibrate(tracing, &mpi_wrap_ns);
	para_vt_mpi_at = at;
	if (!tracing)
		return;
	if (given == MPI_THREAD_MULTIPLE)
		pvt__ev_threads(1);
	(void)PMPI_Comm_size(MPI_COMM_WORLD, &n);
	if (pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, op, -1, asked, -1, 0, 0,
	                   0)) {
		pvt__ev_call(&pr);
		pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, given, -1, rc, n);
	}
}

/* MPI_Init: the real one first, then tracing starts. */
int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);

	mpi_started(PVT_OP_MPI_INIT, rc, -1, -1);
	return rc;
}

/* MPI_Init_thread: likewise; tag = level asked for, then given. */
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	mpi_started(PVT_OP_MPI_INIT_THREAD, rc, required,
	            provided != NULL ? *provided : -1);
	return rc;
}

/* MPI_Finalize. */
int MPI_Finalize(void)
{
	pvt__ev_probe pr;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_FINALIZE, -1,
	                    -1, -1, 0, 0, 0))
		return PMPI_Finalize();
	pvt__mpi_flush();
	pvt__ev_call(&pr);
	rc = PMPI_Finalize();
	pvt__mpi_req_finalize(); /* freed receives are complete now */
	pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc, 0);
	return rc;
}

/* MPI_Abort: aux = the error code; the records leave before MPI ends the
 * job. */
int MPI_Abort(MPI_Comm comm, int code)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	pvt__ev_probe pr;

	if (pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_ABORT, -1, -1,
	                   -1, code, ci->id, 0)) {
		pvt__ev_call(&pr);
		pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, 0, code);
		(void)pvt__ev_flush();
	}
	return PMPI_Abort(comm, code);
}
