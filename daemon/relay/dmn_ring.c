/*
 * dmn_ring.c — the daemon's side of a task's event ring (dmn_ring.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmn_ring.h"
#include "dmn_work.h"

/* Checks the header of a fresh mapping against what the task said.  0 or
 * -1 with err. */
static int ring_check(const pvt_ring_hdr *h, uint64_t records,
                      uint64_t names, char *err, size_t errlen)
{
	if (h->magic != PVT_RING_MAGIC || h->version != PVT_RING_VERSION ||
	    h->rec_size != PVT_EVENT_SIZE) {
		snprintf(err, errlen, "event ring: layout %u (records of %u "
		         "bytes), this daemon reads %u (%u)", h->version,
		         h->rec_size, PVT_RING_VERSION, PVT_EVENT_SIZE);
		return -1;
	}
	if (h->cap != records || h->str_cap != names || h->cap == 0 ||
	    (h->cap & (h->cap - 1)) != 0 || h->cap > PVT_RING_MAX) {
		snprintf(err, errlen, "event ring: header says %u records and "
		         "%u name bytes, the task %llu and %llu", h->cap,
		         h->str_cap, (unsigned long long)records,
		         (unsigned long long)names);
		return -1;
	}
	return 0;
}

/* See dmn_ring.h. */
int dmn_ring_map(dmn_ring *r, const char *path, const char *dir,
                 uint64_t records, uint64_t names, char *err, size_t errlen)
{
	uint64_t want = PVT_RING_BYTES(records, names);
	size_t dirlen = strlen(dir);
	void *m;

	memset(r, 0, sizeof *r);
	if (records > PVT_RING_MAX || names > (64u << 20)) {
		snprintf(err, errlen, "event ring %s refused: %llu records, "
		         "%llu name bytes", path, (unsigned long long)records,
		         (unsigned long long)names);
		return -1;
	}
	m = dmn_shm_file(path, dir, dirlen, PVT_RING_FILE_PREFIX,
	                 (size_t)want, "event ring", err, errlen);
	if (m == NULL) {
		(void)dmn_shm_drop(path, dir, dirlen,
		                   PVT_RING_FILE_PREFIX);
		return -1;
	}
	r->h = m;
	r->len = (size_t)want;
	if (ring_check(r->h, records, names, err, errlen) != 0) {
		dmn_ring_unmap(r);
		(void)dmn_shm_drop(path, dir, dirlen,
		                   PVT_RING_FILE_PREFIX);
		return -1;
	}
	(void)unlink(path); /* the mapping is what counts now */
	r->cap = r->h->cap;
	r->mask = r->cap - 1;
	r->str_cap = r->h->str_cap;
	r->rec = (const pvt_event *)((char *)m + PVT_RING_HDR);
	r->names = (const char *)m + PVT_RING_HDR +
	           (size_t)r->cap * PVT_EVENT_SIZE;
	r->next = (uint64_t)r->h->first_hi << 32 | r->h->first_lo;
	r->tail = pvt_ring_load(&r->h->tail);
	pvt_ring_store(&r->h->attached, 1);
	return 0;
}

/* See dmn_ring.h. */
void dmn_ring_unmap(dmn_ring *r)
{
	if (r->h != NULL)
		(void)munmap((void *)r->h, r->len);
	r->h = NULL;
}

/* See dmn_ring.h. */
int dmn_ring_names(dmn_ring *r, int (*name)(void *arg, uint32_t id,
                                            const char *s),
                   void *arg)
{
	uint32_t end = pvt_ring_load(&r->h->str_head), id, len;
	char buf[1024];

	if (end > r->str_cap)
		end = r->str_cap; /* a task that wrote garbage */
	while (r->names_read + 8 <= end) {
		memcpy(&id, r->names + r->names_read, 4);
		memcpy(&len, r->names + r->names_read + 4, 4);
		if (len > end - r->names_read - 8)
			return -1; /* cut or garbage: stop here */
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		memcpy(buf, r->names + r->names_read + 8, len);
		buf[len] = '\0';
		if (name(arg, id, buf) != 0)
			return -1;
		r->names_read += (8 + len + 7) & ~7u;
	}
	return 0;
}

/* See dmn_ring.h. */
uint32_t dmn_ring_peek(dmn_ring *r, uint32_t max, const pvt_event **at)
{
	const pvt_event *b;
	uint32_t n, nb;

	/* the run up to the end of the ring; the rest: the next peek */
	(void)dmn_ring_pending(r, at, &n, &b, &nb);
	return n > max ? max : n;
}

/* See dmn_ring.h. */
uint32_t dmn_ring_pending(const dmn_ring *r, const pvt_event **a,
			  uint32_t *na, const pvt_event **b, uint32_t *nb)
{
	uint32_t head = pvt_ring_load(&r->h->head), n = head - r->tail;
	uint32_t i = r->tail & r->mask;

	if (n > r->cap)
		n = r->cap; /* a task that wrote garbage: take one ring */
	*a = r->rec + i;
	*na = n > r->cap - i ? r->cap - i : n;
	*b = r->rec;
	*nb = n - *na;
	return n;
}

/* See dmn_ring.h. */
void dmn_ring_take(dmn_ring *r, uint32_t n)
{
	r->next += n;
	r->tail += n;
	pvt_ring_store(&r->h->tail, r->tail);
}

/* See dmn_ring.h. */
uint32_t dmn_ring_read(dmn_ring *r, pvt_event *out, uint32_t max,
                       uint64_t *first)
{
	const pvt_event *at;
	uint32_t n = 0, k;

	*first = r->next;
	while (n < max && (k = dmn_ring_peek(r, max - n, &at)) > 0) {
		memcpy(out + n, at, (size_t)k * PVT_EVENT_SIZE);
		dmn_ring_take(r, k);
		n += k;
	}
	return n;
}

/* See dmn_ring.h. */
void dmn_ring_news_get(dmn_ring *r, dmn_ring_news *n)
{
	uint32_t v;

	v = pvt_ring_load(&r->h->dropped);
	n->dropped = v - r->dropped;
	r->dropped = v;
	v = pvt_ring_load(&r->h->waits);
	n->waits = v - r->waits;
	r->waits = v;
	v = pvt_ring_load(&r->h->wait_us);
	n->wait_us = v - r->wait_us;
	r->wait_us = v;
	v = pvt_ring_load(&r->h->str_lost);
	n->str_lost = v - r->str_lost;
	r->str_lost = v;
}

/* See dmn_ring.h. */
int dmn_ring_closed(const dmn_ring *r)
{
	return pvt_ring_load(&r->h->closed) != 0;
}
