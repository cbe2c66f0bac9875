/*
 * ana_sim_int.h — what the ana_sim*.c files share; not part of the
 * ana_sim.h API.
 */
#ifndef PARAVT_ANA_SIM_INT_H
#define PARAVT_ANA_SIM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "ana.h"

/* Makes room for one more element of size sz in *arr (n used, *cap
 * allocated).  0 or ANA_ENOMEM. */
int ana_sim_grow(void **arr, uint32_t n, uint32_t *cap, size_t sz);

/* The event of process q that opens the communicating call q was inside
 * at time t (c_ns), or ANA_NONE when it was in none: PVM reads what
 * comes in during any such call, so a send to q pushes its message
 * only while q is in one.  Calls that follow each other less than gap
 * apart count as one (the transport's buffers bridge such a gap): the
 * first of them. */
uint32_t ana_sim_call_open_at(const ana_proc *q, int64_t t, int64_t gap);

#endif
