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
 * __LINE__), and the wrapper puts it into the call's events.  A call's
 * site is used by that call only (it is cleared when the probe starts).
 *
 * The macros name the function inside their own expansion, which the
 * preprocessor does not expand again, so the call still goes to the
 * MPI_* symbol (the PMPI wrapper).  C99 (variadic macros).
 */
#ifndef PARAVT_MPI_H
#define PARAVT_MPI_H

#include <mpi.h>

/* Records the call site of the next traced MPI call (libparavt_mpi). */
void para_vt_mpi_site(const char *file, const char *func, int line);

#define PVT__MPI_AT(call) \
	(para_vt_mpi_site(__FILE__, __func__, __LINE__), call)

#define MPI_Init(...) PVT__MPI_AT(MPI_Init(__VA_ARGS__))
#define MPI_Finalize(...) PVT__MPI_AT(MPI_Finalize(__VA_ARGS__))
#define MPI_Send(...) PVT__MPI_AT(MPI_Send(__VA_ARGS__))
#define MPI_Recv(...) PVT__MPI_AT(MPI_Recv(__VA_ARGS__))
#define MPI_Isend(...) PVT__MPI_AT(MPI_Isend(__VA_ARGS__))
#define MPI_Irecv(...) PVT__MPI_AT(MPI_Irecv(__VA_ARGS__))
#define MPI_Wait(...) PVT__MPI_AT(MPI_Wait(__VA_ARGS__))
#define MPI_Waitall(...) PVT__MPI_AT(MPI_Waitall(__VA_ARGS__))
#define MPI_Test(...) PVT__MPI_AT(MPI_Test(__VA_ARGS__))
#define MPI_Sendrecv(...) PVT__MPI_AT(MPI_Sendrecv(__VA_ARGS__))
#define MPI_Barrier(...) PVT__MPI_AT(MPI_Barrier(__VA_ARGS__))
#define MPI_Bcast(...) PVT__MPI_AT(MPI_Bcast(__VA_ARGS__))
#define MPI_Reduce(...) PVT__MPI_AT(MPI_Reduce(__VA_ARGS__))
#define MPI_Allreduce(...) PVT__MPI_AT(MPI_Allreduce(__VA_ARGS__))
#define MPI_Gather(...) PVT__MPI_AT(MPI_Gather(__VA_ARGS__))
#define MPI_Scatter(...) PVT__MPI_AT(MPI_Scatter(__VA_ARGS__))
#define MPI_Alltoall(...) PVT__MPI_AT(MPI_Alltoall(__VA_ARGS__))

#endif
