/*
 * dmn_ring.h — the daemon's side of a task's shared-memory event ring
 * (wrappers/pvt_ring.h): map the file the task names, check it, remove
 * it, read what the task wrote since the last time, give room back.
 *
 * The file must be a regular file of the daemon's user, no link, named
 * "ring-..." directly in the directory of the socket the task came in
 * through, of exactly the size its header says; anything else is
 * refused with a sentence.  Once mapped, the file is removed: the
 * mapping outlives it, and a killed task leaves nothing behind.
 *
 * Reading either looks at the records in place (dmn_ring_peek, a run
 * up to the end of the ring) and gives their slots back afterwards by
 * storing the tail (dmn_ring_take), or copies them out into a caller's
 * buffer (dmn_ring_read); names are read in order from the name area.  The
 * counters the task keeps (dropped records, waits, names that did not
 * fit) are reported as differences since the last read.
 *
 * Internal to daemon/ (dmn_ring_*).  C99 + POSIX (open, fstat, mmap).
 */
#ifndef PARAVT_DMN_RING_H
#define PARAVT_DMN_RING_H

#include <stddef.h>
#include <stdint.h>

#include "pvt_ring.h"

/* A mapped ring. */
typedef struct dmn_ring {
	pvt_ring_hdr *h;     /* the mapping */
	size_t len;          /* its bytes */
	const pvt_event *rec;/* the records */
	const char *names;   /* the name area */
	uint32_t cap, mask, str_cap;
	uint64_t next;       /* number of the next record to read */
	uint32_t tail;       /* the tail stored last */
	uint32_t names_read; /* bytes of names read */
	uint32_t dropped, waits, wait_us, str_lost; /* counters seen */
} dmn_ring;

/* What a read found besides the records. */
typedef struct dmn_ring_news {
	uint32_t dropped;    /* records the task dropped since the last read */
	uint32_t waits;      /* times it waited for room since then */
	uint32_t wait_us;    /* microseconds of those waits */
	uint32_t str_lost;   /* names that did not fit since then */
} dmn_ring_news;

/* Maps the ring at path, which the task says holds records records and
 * names bytes of names, and must lie in directory dir; removes the
 * file, also when it refuses one there (dmn_shm_drop).  0, or -1 with a
 * sentence in err (nothing mapped). */
int dmn_ring_map(dmn_ring *r, const char *path, const char *dir,
		 uint64_t records, uint64_t names, char *err, size_t errlen);

/* Unmaps r (no-op when not mapped). */
void dmn_ring_unmap(dmn_ring *r);

/* Calls name(arg, id, s) for every name written since the last call, in
 * order; stops (returns -1) when name does. */
int dmn_ring_names(dmn_ring *r, int (*name)(void *arg, uint32_t id,
					    const char *s),
		   void *arg);

/* The oldest records not read yet, as far as they run on without
 * wrapping around the end of the ring (the rest comes from the next
 * call), at most max: *at points at the first, in the mapping, where it
 * stays until dmn_ring_take gives the slots back.  Returns how many (0:
 * none).  Loads the task's head: what the name area holds after this
 * call names every record it returns. */
uint32_t dmn_ring_peek(dmn_ring *r, uint32_t max, const pvt_event **at);

/* The records not read yet, in place, without reading them: the run up
 * to the end of the ring in *a, *na, the run after the wrap in *b, *nb
 * (0 when none).  Returns *na + *nb. */
uint32_t dmn_ring_pending(const dmn_ring *r, const pvt_event **a,
			  uint32_t *na, const pvt_event **b, uint32_t *nb);
/* Gives the first n records of the last peek back to the task (they
 * are read: r->next moves on by n). */
void dmn_ring_take(dmn_ring *r, uint32_t n);

/* Copies up to max records written since the last read into out (native
 * layout), sets *first to the number of the first, gives their slots
 * back; returns how many (0: none). */
uint32_t dmn_ring_read(dmn_ring *r, pvt_event *out, uint32_t max,
		       uint64_t *first);

/* The task's counters since the last call. */
void dmn_ring_news_get(dmn_ring *r, dmn_ring_news *n);

/* Whether the task said it will write nothing more (PROG_EXIT). */
int dmn_ring_closed(const dmn_ring *r);

#endif
