/*
 * rt_ring.c — the task's side of the shared-memory event ring (rt_ring.h,
 * layout in pvt_ring.h).
 *
 * The file is made with O_EXCL in a directory only the daemon's user
 * can write (the caller's: in memory, or the session's), under a name no
 * other task can have (the pid and a counter), sized, its room reserved,
 * mapped shared and filled with its header; the
 * runtime then names it to the daemon, which maps it and removes the
 * file.  Waiting for room sleeps 10 µs, then twice as long each time up
 * to 1 ms, and asks the daemon to drain (kick) when it starts waiting.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_ring.h"

/* The monotonic clock in ns. */
static uint64_t ring_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* cap rounded up to a power of two within the limits. */
static uint32_t ring_cap(uint32_t cap)
{
	uint32_t c = PVT_RING_MIN;

	while (c < cap && c < PVT_RING_MAX)
		c <<= 1;
	return c;
}

/* Fills the header of a fresh mapping. */
static void ring_header(pvt__ring *r, uint64_t first, int drop)
{
	pvt_ring_hdr *h = r->h;

	memset(h, 0, sizeof *h);
	h->magic = PVT_RING_MAGIC;
	h->version = PVT_RING_VERSION;
	h->rec_size = PVT_EVENT_SIZE;
	h->cap = r->cap;
	h->str_cap = r->str_cap;
	h->flags = drop ? PVT_RING_F_DROP : 0;
	h->first_lo = (uint32_t)first;
	h->first_hi = (uint32_t)(first >> 32);
}

/* Touches every page of the fresh mapping once, so that recording an
 * event never takes a page fault. */
static void ring_prefault(void *m, size_t len)
{
	volatile char *p = m;
	long pg = sysconf(_SC_PAGESIZE);
	size_t i, step = pg > 0 ? (size_t)pg : 4096;

	for (i = 0; i < len; i += step)
		p[i] = 0;
}

/* Reserves the file's len bytes on its file system, so that a full one
 * (a small tmpfs) fails here, where the caller can make the ring
 * elsewhere, and not with SIGBUS at a later store.  0, or -1 with errno;
 * a file system that cannot reserve (EINVAL, EOPNOTSUPP) is not an
 * error. */
static int ring_reserve(int fd, size_t len)
{
	int rc = posix_fallocate(fd, 0, (off_t)len);

	if (rc == 0 || rc == EINVAL || rc == EOPNOTSUPP)
		return 0;
	errno = rc;
	return -1;
}

/* See rt_ring.h. */
int pvt__ring_open(pvt__ring *r, const char *dir, uint32_t cap,
                   uint64_t first, int drop, char *err, size_t errlen)
{
	static unsigned serial;
	void *m;
	int fd;

	memset(r, 0, sizeof *r);
	r->cap = ring_cap(cap);
	r->mask = r->cap - 1;
	r->str_cap = PVT_RING_STRS;
	r->len = (size_t)PVT_RING_BYTES(r->cap, r->str_cap);
	r->drop = drop;
	r->pid = getpid();
	if (snprintf(r->path, sizeof r->path, "%s/" PVT_RING_FILE_PREFIX
	             "%ld-%u", dir, (long)r->pid, ++serial) >=
	    (int)sizeof r->path) {
		snprintf(err, errlen, "event ring: directory name too long");
		return -1;
	}
	fd = open(r->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "event ring %s: %s", r->path,
		         strerror(errno));
		return -1;
	}
	if (ftruncate(fd, (off_t)r->len) != 0 ||
	    ring_reserve(fd, r->len) != 0 ||
	    (m = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
	              0)) == MAP_FAILED) {
		snprintf(err, errlen, "event ring %s: %s", r->path,
		         strerror(errno));
		(void)close(fd);
		(void)unlink(r->path);
		return -1;
	}
	(void)close(fd);
	ring_prefault(m, r->len);
	r->h = m;
	r->rec = (pvt_event *)((char *)m + PVT_RING_HDR);
	r->names = (char *)m + PVT_RING_HDR + (size_t)r->cap * PVT_EVENT_SIZE;
	ring_header(r, first, drop);
	return 0;
}

/* See rt_ring.h. */
void pvt__ring_forget(pvt__ring *r)
{
	if (r->h != NULL)
		(void)munmap((void *)r->h, r->len);
	r->h = NULL;
}

/* See rt_ring.h. */
int pvt__ring_name(pvt__ring *r, uint32_t id, const char *s)
{
	uint32_t len = (uint32_t)strlen(s), need = (8 + len + 7) & ~7u;
	char *p = r->names + r->names_len;

	if (need > r->str_cap - r->names_len) {
		pvt_ring_store(&r->h->str_lost, r->h->str_lost + 1);
		return -1;
	}
	memcpy(p, &id, 4);
	memcpy(p + 4, &len, 4);
	memcpy(p + 8, s, len);
	memset(p + 8 + len, 0, need - 8 - len);
	r->names_len += need;
	pvt_ring_store(&r->h->str_head, r->names_len);
	return 0;
}

/* Counts a dropped record. */
static int ring_drop(pvt__ring *r)
{
	pvt_ring_store(&r->h->dropped, r->h->dropped + 1);
	return 0;
}

/* Waits until the daemon makes room; 1, or 0 when it gave up (the
 * daemon drained nothing for PVT__RING_GIVEUP_NS). */
static int ring_wait(pvt__ring *r, uint64_t t0)
{
	struct timespec ts = {0, 10000};
	uint64_t last = t0;
	uint32_t seen = r->tail;

	if (r->kick != NULL)
		r->kick();
	for (;;) {
		(void)nanosleep(&ts, NULL);
		r->tail = pvt_ring_load(&r->h->tail);
		if (r->head - r->tail < r->cap)
			return 1;
		if (r->tail != seen) {
			seen = r->tail;
			last = ring_now();
		} else if (ring_now() - last > PVT__RING_GIVEUP_NS) {
			return 0;
		}
		if (ts.tv_nsec < 1000000)
			ts.tv_nsec *= 2;
	}
}

/* See rt_ring.h. */
int pvt__ring_room(pvt__ring *r, uint64_t *waited_ns)
{
	uint64_t t0;

	*waited_ns = 0;
	if (r->head - r->tail < r->cap)
		return 1;
	r->tail = pvt_ring_load(&r->h->tail);
	if (r->head - r->tail < r->cap)
		return 1;
	if (r->drop || r->gave_up)
		return ring_drop(r);
	t0 = ring_now();
	if (!ring_wait(r, t0)) {
		r->gave_up = 1;
		fprintf(stderr, "paravt: the daemon stopped reading this "
		        "process's events; dropping them (counted)\n");
		*waited_ns = ring_now() - t0;
		return ring_drop(r);
	}
	*waited_ns = ring_now() - t0;
	pvt_ring_store(&r->h->waits, r->h->waits + 1);
	pvt_ring_store(&r->h->wait_us,
	               r->h->wait_us + (uint32_t)(*waited_ns / 1000));
	return 1;
}

/* See rt_ring.h. */
void pvt__ring_close(pvt__ring *r)
{
	if (r->h != NULL)
		pvt_ring_store(&r->h->closed, 1);
}
