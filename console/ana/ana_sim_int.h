/*
 * ana_sim_int.h — what ana_sim_mach.c and ana_sim_desc.c share; not part
 * of the ana_sim.h API.
 */
#ifndef PARAVT_ANA_SIM_INT_H
#define PARAVT_ANA_SIM_INT_H

#include <stddef.h>
#include <stdint.h>

/* Makes room for one more element of size sz in *arr (n used, *cap
 * allocated).  0 or ANA_ENOMEM. */
int ana_sim_grow(void **arr, uint32_t n, uint32_t *cap, size_t sz);

#endif
