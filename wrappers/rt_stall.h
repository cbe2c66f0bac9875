/*
 * rt_stall.h — how long the recording thread waited for a CPU while it
 * could run (Linux's /proc/thread-self/schedstat, its second number):
 * read by the event buffer (rt_event.c) only after a long gap between
 * two records, to put paravt's part of a stall into Δ where the stall
 * was (pvt_ring_hdr.share_frac, daemon/relay/dmn_share.h).  Internal to
 * the runtime (pvt__stall_*).  C99 + POSIX; elsewhere than Linux the
 * file is missing and nothing is read.
 */
#ifndef PARAVT_RT_STALL_H
#define PARAVT_RT_STALL_H

#include <pthread.h>
#include <stdint.h>

/* One thread's reader. */
typedef struct pvt__stall {
	int fd;          /* its schedstat, -1 none */
	pthread_t owner; /* the thread it belongs to */
	uint64_t wait;   /* its wait at the last read, ns */
} pvt__stall;

/* A reader with nothing open (a static one starts so too). */
#define PVT__STALL_NONE {-1}

/* Opens the calling thread's schedstat and reads its wait so far.  0,
 * or -1 (then pvt__stall_take gives 0). */
int pvt__stall_open(pvt__stall *s);

/* Closes it (a forked child: its thread is another). */
void pvt__stall_close(pvt__stall *s);

/* The wait since the last read, ns: one pread.  0 from another thread
 * than the one that opened it, or when nothing is open. */
uint64_t pvt__stall_take(pvt__stall *s);

/* How long the process's main thread waited for a CPU while it could
 * run, ns in all (/proc/self/schedstat), or -1 where that is not
 * known: PROG_START's and PROG_EXIT's word. */
int64_t pvt__stall_main_wait(void);

#endif
