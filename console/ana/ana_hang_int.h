/*
 * ana_hang_int.h — what the files of the ana_hang module share (ana_hang.c:
 * the wait-for graph and deadlock detection; ana_hang_text.c: the report).
 * Not for use outside console/ana/ana_hang*.c.
 */
#ifndef PARAVT_ANA_HANG_INT_H
#define PARAVT_ANA_HANG_INT_H

#include <stdint.h>

#include "ana_hang.h"

/* What a blocked call is, for the wait set and the report. */
enum hang_call {
	HANG_RECV = 0, /* point-to-point receive */
	HANG_GROUP,    /* group call or collective */
	HANG_MPIWAIT   /* MPI_Wait / MPI_Waitall */
};

/* Name of op ("pvm_recv"; "-" unknown; static storage). */
const char *ana_hang_op_name(unsigned op);

/* True if process i made MPI calls (its tid is a rank). */
int ana_hang_is_mpi(const ana_trace *tr, uint32_t i);

/* The call an open START e blocks in (enum hang_call), or -1 when it
 * does not wait for other tasks. */
int ana_hang_call_of(const ana_ev *e);

#endif
