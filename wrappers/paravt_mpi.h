/*
 * paravt_mpi.h — source locations for the MPI calls of a program built
 * through paravt (`load --mpi` in the console).
 *
 * The PMPI library (wrappers/pvt_mpi.c, libparavt_mpi) traces MPI calls
 * by interposing the MPI_* symbols, which also works for a program that
 * is only relinked or run with LD_PRELOAD — but then the events carry no
 * source location.  When paravtd builds an MPI program (the cflag
 * -DPARAVT_MPI=1) it compiles every source with `-include paravt_mpi.h`:
 * each traced call then first records its call site (__FILE__, __func__,
 * __LINE__) in para_vt_mpi_at — three stores, no call: it runs before
 * every MPI call, where paravt's time is not measured — and the wrapper
 * puts it into the call's events.  A call's site is used by that call
 * only (it is cleared when the probe starts).  The library itself
 * includes this header with PARAVT_MPI_NO_MACROS for the declarations.
 *
 * The macros name the function inside their own expansion, which the
 * preprocessor does not expand again, so the call still goes to the
 * MPI_* symbol (the PMPI wrapper).  C99 (variadic macros).
 */
#ifndef PARAVT_MPI_H
#define PARAVT_MPI_H

#include <mpi.h>

/* The call site of the next traced MPI call (libparavt_mpi). */
typedef struct para_vt_mpi_site_t {
	const char *file; /* NULL: none */
	const char *func;
	int line;
} para_vt_mpi_site_t;
extern para_vt_mpi_site_t para_vt_mpi_at;

#ifndef PARAVT_MPI_NO_MACROS
#define PVT__MPI_AT(call) \
	(para_vt_mpi_at.file = __FILE__, para_vt_mpi_at.func = __func__, \
	 para_vt_mpi_at.line = __LINE__, call)

#define MPI_Abort(...) PVT__MPI_AT(MPI_Abort(__VA_ARGS__))
#define MPI_Allgather(...) PVT__MPI_AT(MPI_Allgather(__VA_ARGS__))
#define MPI_Allgatherv(...) PVT__MPI_AT(MPI_Allgatherv(__VA_ARGS__))
#define MPI_Allreduce(...) PVT__MPI_AT(MPI_Allreduce(__VA_ARGS__))
#define MPI_Alltoall(...) PVT__MPI_AT(MPI_Alltoall(__VA_ARGS__))
#define MPI_Alltoallv(...) PVT__MPI_AT(MPI_Alltoallv(__VA_ARGS__))
#define MPI_Alltoallw(...) PVT__MPI_AT(MPI_Alltoallw(__VA_ARGS__))
#define MPI_Barrier(...) PVT__MPI_AT(MPI_Barrier(__VA_ARGS__))
#define MPI_Bcast(...) PVT__MPI_AT(MPI_Bcast(__VA_ARGS__))
#define MPI_Bsend(...) PVT__MPI_AT(MPI_Bsend(__VA_ARGS__))
#define MPI_Bsend_init(...) PVT__MPI_AT(MPI_Bsend_init(__VA_ARGS__))
#define MPI_Cancel(...) PVT__MPI_AT(MPI_Cancel(__VA_ARGS__))
#define MPI_Cart_create(...) PVT__MPI_AT(MPI_Cart_create(__VA_ARGS__))
#define MPI_Cart_sub(...) PVT__MPI_AT(MPI_Cart_sub(__VA_ARGS__))
#define MPI_Comm_create(...) PVT__MPI_AT(MPI_Comm_create(__VA_ARGS__))
#define MPI_Comm_create_group(...) PVT__MPI_AT(MPI_Comm_create_group(__VA_ARGS__))
#define MPI_Comm_disconnect(...) PVT__MPI_AT(MPI_Comm_disconnect(__VA_ARGS__))
#define MPI_Comm_dup(...) PVT__MPI_AT(MPI_Comm_dup(__VA_ARGS__))
#define MPI_Comm_dup_with_info(...) PVT__MPI_AT(MPI_Comm_dup_with_info(__VA_ARGS__))
#define MPI_Comm_free(...) PVT__MPI_AT(MPI_Comm_free(__VA_ARGS__))
#define MPI_Comm_idup(...) PVT__MPI_AT(MPI_Comm_idup(__VA_ARGS__))
#define MPI_Comm_split(...) PVT__MPI_AT(MPI_Comm_split(__VA_ARGS__))
#define MPI_Comm_split_type(...) PVT__MPI_AT(MPI_Comm_split_type(__VA_ARGS__))
#define MPI_Dist_graph_create(...) PVT__MPI_AT(MPI_Dist_graph_create(__VA_ARGS__))
#define MPI_Dist_graph_create_adjacent(...) PVT__MPI_AT(MPI_Dist_graph_create_adjacent(__VA_ARGS__))
#define MPI_Exscan(...) PVT__MPI_AT(MPI_Exscan(__VA_ARGS__))
#define MPI_Finalize(...) PVT__MPI_AT(MPI_Finalize(__VA_ARGS__))
#define MPI_Gather(...) PVT__MPI_AT(MPI_Gather(__VA_ARGS__))
#define MPI_Gatherv(...) PVT__MPI_AT(MPI_Gatherv(__VA_ARGS__))
#define MPI_Graph_create(...) PVT__MPI_AT(MPI_Graph_create(__VA_ARGS__))
#define MPI_Iallgather(...) PVT__MPI_AT(MPI_Iallgather(__VA_ARGS__))
#define MPI_Iallgatherv(...) PVT__MPI_AT(MPI_Iallgatherv(__VA_ARGS__))
#define MPI_Iallreduce(...) PVT__MPI_AT(MPI_Iallreduce(__VA_ARGS__))
#define MPI_Ialltoall(...) PVT__MPI_AT(MPI_Ialltoall(__VA_ARGS__))
#define MPI_Ialltoallv(...) PVT__MPI_AT(MPI_Ialltoallv(__VA_ARGS__))
#define MPI_Ialltoallw(...) PVT__MPI_AT(MPI_Ialltoallw(__VA_ARGS__))
#define MPI_Ibarrier(...) PVT__MPI_AT(MPI_Ibarrier(__VA_ARGS__))
#define MPI_Ibcast(...) PVT__MPI_AT(MPI_Ibcast(__VA_ARGS__))
#define MPI_Ibsend(...) PVT__MPI_AT(MPI_Ibsend(__VA_ARGS__))
#define MPI_Iexscan(...) PVT__MPI_AT(MPI_Iexscan(__VA_ARGS__))
#define MPI_Igather(...) PVT__MPI_AT(MPI_Igather(__VA_ARGS__))
#define MPI_Igatherv(...) PVT__MPI_AT(MPI_Igatherv(__VA_ARGS__))
#define MPI_Improbe(...) PVT__MPI_AT(MPI_Improbe(__VA_ARGS__))
#define MPI_Imrecv(...) PVT__MPI_AT(MPI_Imrecv(__VA_ARGS__))
#define MPI_Ineighbor_allgather(...) PVT__MPI_AT(MPI_Ineighbor_allgather(__VA_ARGS__))
#define MPI_Ineighbor_allgatherv(...) PVT__MPI_AT(MPI_Ineighbor_allgatherv(__VA_ARGS__))
#define MPI_Ineighbor_alltoall(...) PVT__MPI_AT(MPI_Ineighbor_alltoall(__VA_ARGS__))
#define MPI_Ineighbor_alltoallv(...) PVT__MPI_AT(MPI_Ineighbor_alltoallv(__VA_ARGS__))
#define MPI_Ineighbor_alltoallw(...) PVT__MPI_AT(MPI_Ineighbor_alltoallw(__VA_ARGS__))
#define MPI_Init(...) PVT__MPI_AT(MPI_Init(__VA_ARGS__))
#define MPI_Init_thread(...) PVT__MPI_AT(MPI_Init_thread(__VA_ARGS__))
#define MPI_Intercomm_create(...) PVT__MPI_AT(MPI_Intercomm_create(__VA_ARGS__))
#define MPI_Intercomm_merge(...) PVT__MPI_AT(MPI_Intercomm_merge(__VA_ARGS__))
#define MPI_Iprobe(...) PVT__MPI_AT(MPI_Iprobe(__VA_ARGS__))
#define MPI_Irecv(...) PVT__MPI_AT(MPI_Irecv(__VA_ARGS__))
#define MPI_Ireduce(...) PVT__MPI_AT(MPI_Ireduce(__VA_ARGS__))
#define MPI_Ireduce_scatter(...) PVT__MPI_AT(MPI_Ireduce_scatter(__VA_ARGS__))
#define MPI_Ireduce_scatter_block(...) PVT__MPI_AT(MPI_Ireduce_scatter_block(__VA_ARGS__))
#define MPI_Irsend(...) PVT__MPI_AT(MPI_Irsend(__VA_ARGS__))
#define MPI_Iscan(...) PVT__MPI_AT(MPI_Iscan(__VA_ARGS__))
#define MPI_Iscatter(...) PVT__MPI_AT(MPI_Iscatter(__VA_ARGS__))
#define MPI_Iscatterv(...) PVT__MPI_AT(MPI_Iscatterv(__VA_ARGS__))
#define MPI_Isend(...) PVT__MPI_AT(MPI_Isend(__VA_ARGS__))
#define MPI_Issend(...) PVT__MPI_AT(MPI_Issend(__VA_ARGS__))
#define MPI_Mprobe(...) PVT__MPI_AT(MPI_Mprobe(__VA_ARGS__))
#define MPI_Mrecv(...) PVT__MPI_AT(MPI_Mrecv(__VA_ARGS__))
#define MPI_Neighbor_allgather(...) PVT__MPI_AT(MPI_Neighbor_allgather(__VA_ARGS__))
#define MPI_Neighbor_allgatherv(...) PVT__MPI_AT(MPI_Neighbor_allgatherv(__VA_ARGS__))
#define MPI_Neighbor_alltoall(...) PVT__MPI_AT(MPI_Neighbor_alltoall(__VA_ARGS__))
#define MPI_Neighbor_alltoallv(...) PVT__MPI_AT(MPI_Neighbor_alltoallv(__VA_ARGS__))
#define MPI_Neighbor_alltoallw(...) PVT__MPI_AT(MPI_Neighbor_alltoallw(__VA_ARGS__))
#define MPI_Probe(...) PVT__MPI_AT(MPI_Probe(__VA_ARGS__))
#define MPI_Recv(...) PVT__MPI_AT(MPI_Recv(__VA_ARGS__))
#define MPI_Recv_init(...) PVT__MPI_AT(MPI_Recv_init(__VA_ARGS__))
#define MPI_Reduce(...) PVT__MPI_AT(MPI_Reduce(__VA_ARGS__))
#define MPI_Reduce_scatter(...) PVT__MPI_AT(MPI_Reduce_scatter(__VA_ARGS__))
#define MPI_Reduce_scatter_block(...) PVT__MPI_AT(MPI_Reduce_scatter_block(__VA_ARGS__))
#define MPI_Request_free(...) PVT__MPI_AT(MPI_Request_free(__VA_ARGS__))
#define MPI_Rsend(...) PVT__MPI_AT(MPI_Rsend(__VA_ARGS__))
#define MPI_Rsend_init(...) PVT__MPI_AT(MPI_Rsend_init(__VA_ARGS__))
#define MPI_Scan(...) PVT__MPI_AT(MPI_Scan(__VA_ARGS__))
#define MPI_Scatter(...) PVT__MPI_AT(MPI_Scatter(__VA_ARGS__))
#define MPI_Scatterv(...) PVT__MPI_AT(MPI_Scatterv(__VA_ARGS__))
#define MPI_Send(...) PVT__MPI_AT(MPI_Send(__VA_ARGS__))
#define MPI_Send_init(...) PVT__MPI_AT(MPI_Send_init(__VA_ARGS__))
#define MPI_Sendrecv(...) PVT__MPI_AT(MPI_Sendrecv(__VA_ARGS__))
#define MPI_Sendrecv_replace(...) PVT__MPI_AT(MPI_Sendrecv_replace(__VA_ARGS__))
#define MPI_Ssend(...) PVT__MPI_AT(MPI_Ssend(__VA_ARGS__))
#define MPI_Ssend_init(...) PVT__MPI_AT(MPI_Ssend_init(__VA_ARGS__))
#define MPI_Start(...) PVT__MPI_AT(MPI_Start(__VA_ARGS__))
#define MPI_Startall(...) PVT__MPI_AT(MPI_Startall(__VA_ARGS__))
#define MPI_Test(...) PVT__MPI_AT(MPI_Test(__VA_ARGS__))
#define MPI_Testall(...) PVT__MPI_AT(MPI_Testall(__VA_ARGS__))
#define MPI_Testany(...) PVT__MPI_AT(MPI_Testany(__VA_ARGS__))
#define MPI_Testsome(...) PVT__MPI_AT(MPI_Testsome(__VA_ARGS__))
#define MPI_Wait(...) PVT__MPI_AT(MPI_Wait(__VA_ARGS__))
#define MPI_Waitall(...) PVT__MPI_AT(MPI_Waitall(__VA_ARGS__))
#define MPI_Waitany(...) PVT__MPI_AT(MPI_Waitany(__VA_ARGS__))
#define MPI_Waitsome(...) PVT__MPI_AT(MPI_Waitsome(__VA_ARGS__))

#endif /* PARAVT_MPI_NO_MACROS */

#endif
