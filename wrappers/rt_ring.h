/*
 * rt_ring.h — the task's side of the shared-memory event ring
 * (pvt_ring.h): make it, append names, find room for a record, publish
 * it.  Used by the event buffer (rt_event.c), which writes every record
 * into the ring once the daemon has taken it (and into its socket
 * buffer before, or when no ring can be made).
 *
 * Writing a record is pvt__ring_room (a comparison; a load of the
 * daemon's tail when the ring looks full), filling pvt__ring_slot and
 * pvt__ring_commit (a release store): no system call, no lock.  A full
 * ring either drops the record and counts it (PARAVT_RING_FULL=drop) or
 * makes the task wait for the daemon to drain it (the default), asking
 * it through kick() once and sleeping in growing steps; the time waited
 * is returned so that it counts as paravt's own (Δ).  A daemon that
 * makes no room for PVT__RING_GIVEUP_NS is taken as gone: the ring then
 * drops and says so once on stderr.
 *
 * Internal to the runtime (pvt__ring_*).  C99 + POSIX (open, ftruncate,
 * posix_fallocate, mmap, nanosleep).
 */
#ifndef PARAVT_RT_RING_H
#define PARAVT_RT_RING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pvt_ring.h"

#define PVT__RING_GIVEUP_NS (30ull * 1000000000ull)

/* The task's ring. */
typedef struct pvt__ring {
	pvt_ring_hdr *h;    /* the mapping, NULL when there is none */
	pvt_event *rec;     /* its records */
	char *names;        /* its name area */
	size_t len;         /* bytes mapped */
	uint32_t cap, mask; /* records */
	uint32_t head;      /* records written (h->head) */
	uint32_t tail;      /* the daemon's tail as last read */
	uint32_t names_len; /* bytes of names written */
	uint32_t str_cap;   /* bytes of the name area */
	int drop;           /* full: drop instead of waiting */
	int gave_up;        /* the daemon stopped draining: dropping */
	pid_t pid;          /* the process that made it */
	void (*kick)(void); /* asks the daemon to drain now */
	char path[256];     /* the file, until the daemon removes it */
} pvt__ring;

/* Makes a ring file in directory dir (a private one of the daemon's
 * user: pvt_ring_memdir's, or the session's)
 * with cap records (rounded up to a power of two in PVT_RING_MIN ..
 * PVT_RING_MAX), maps it and writes its header; first is the number of
 * the process's first record that goes into it.  drop: the full policy.
 * 0, or -1 with a sentence in err (nothing is left mapped or on disk). */
int pvt__ring_open(pvt__ring *r, const char *dir, uint32_t cap,
		   uint64_t first, int drop, char *err, size_t errlen);

/* Unmaps the ring (the file is the daemon's to remove) without touching
 * it: for a forked child, which must not write into its parent's ring. */
void pvt__ring_forget(pvt__ring *r);

/* Appends name s with id (ids in order, from 1) to the name area.  0, or
 * -1 when it does not fit (counted in str_lost: records then name id 0).
 * Names go in before the first record that uses them. */
int pvt__ring_name(pvt__ring *r, uint32_t id, const char *s);

/* Room for one record: 1, or 0 when the record must be dropped (drop
 * policy or a daemon that stopped draining; counted).  *waited_ns: the
 * time spent waiting for room (0 when there was some). */
int pvt__ring_room(pvt__ring *r, uint64_t *waited_ns);

/* The slot of the next record (after pvt__ring_room said 1). */
static inline pvt_event *pvt__ring_slot(pvt__ring *r)
{
	return &r->rec[r->head & r->mask];
}

/* Publishes the record written into pvt__ring_slot. */
static inline void pvt__ring_commit(pvt__ring *r)
{
	pvt_ring_store(&r->h->head, ++r->head);
}

/* Says that no record will follow (after PROG_EXIT). */
void pvt__ring_close(pvt__ring *r);

#endif
