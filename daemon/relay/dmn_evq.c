/*
 * dmn_evq.c — the queue of a session's events (dmn_event_int.h): items in
 * memory up to the session's cap, then length-prefixed records in a
 * spill file read back in order as memory drains, then dropped and
 * counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn_event_int.h"
#include "dmn_log.h"
#include "wire_fmt.h"

/* ---- processes ----------------------------------------------------------- */

/* The state of process num, made if make != 0.  NULL when out of memory
 * or not there. */
dmn_evproc *dmn_ev_proc(dmn_evq *q, uint64_t num, int make)
{
	dmn_evproc *e;

	for (e = q->procs; e != NULL; e = e->next)
		if (e->num == num)
			return e;
	if (!make || (e = calloc(1, sizeof *e)) == NULL)
		return NULL;
	e->num = num;
	wire_evstate_init(&e->state);
	dmn_share_init(&e->share);
	e->next = q->procs;
	q->procs = e;
	return e;
}

/* Frees e if its process ended and nothing queued refers to it. */
void dmn_ev_proc_check(dmn_evq *q, dmn_evproc *e)
{
	dmn_evproc **pp;
	uint32_t i;

	if (e == NULL || !e->gone || e->queued > 0)
		return;
	for (pp = &q->procs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	for (i = 0; i < e->nstr; i++)
		free(e->str[i]);
	free(e->str);
	dmn_ring_unmap(&e->ring);
	dmn_share_close(&e->share);
	free(e);
}

/* Appends one name to e's table.  0 or -1. */
int dmn_ev_proc_name(dmn_evproc *e, const char *s)
{
	char **nv;
	uint32_t cap;

	if (e->nstr == e->cap) {
		cap = e->cap ? e->cap * 2 : 64;
		if (cap > DMN_EV_STRS ||
		    (nv = realloc(e->str, cap * sizeof *nv)) == NULL)
			return -1;
		e->str = nv;
		e->cap = cap;
	}
	if ((e->str[e->nstr] = malloc(strlen(s) + 1)) == NULL)
		return -1;
	strcpy(e->str[e->nstr++], s);
	return 0;
}

/* ---- the queue ----------------------------------------------------------- */

/* msgpack write callback into a wire_buf. */
int dmn_ev_buf_write(void *data, const char *buf, size_t len)
{
	return wire_buf_append(data, buf, len) == 0 ? 0 : -1;
}

/* See dmn_event_int.h. */
dmn_evitem *dmn_ev_item(uint32_t type, uint32_t nf, uint64_t batch,
                        uint64_t proc, const void *raw, size_t n)
{
	dmn_evitem *it = malloc(sizeof *it + n);

	if (it == NULL)
		return NULL;
	memset(it, 0, sizeof *it);
	it->type = type;
	it->nf = nf;
	it->batch = batch;
	it->proc = proc;
	it->len = n;
	memcpy(it->raw, raw, n);
	return it;
}

/* Appends it to the memory list. */
static void ev_mem_add(dmn_evq *q, dmn_evitem *it)
{
	if (q->tail != NULL)
		q->tail->next = it;
	else
		q->head = it;
	q->tail = it;
	q->mem += it->len;
	if (it->type == WIRE_NODE_EVENTS)
		q->mem_batches++;
	if (q->cursor == NULL)
		q->cursor = it;
}

/* Opens the spill file in the work base.  0 or -1. */
static int ev_spill_open(dmn_evq *q)
{
	if (q->sfd >= 0)
		return 0;
	if (q->w->base[0] == '\0' ||
	    dmn_pathf(q->spath, sizeof q->spath, "%s/%ld-s%llu-events.spill",
	              q->w->base, (long)getpid(),
	              (unsigned long long)q->sess->id) != 0)
		return -1;
	q->sfd = open(q->spath, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	if (q->sfd < 0) {
		dmn_log(DMN_WARN, "events: cannot open %s: %s", q->spath,
		        strerror(errno));
		return -1;
	}
	fcntl(q->sfd, F_SETFD, FD_CLOEXEC);
	q->srd = q->swr = 0;
	return 0;
}

/* Writes n bytes at offset off of the spill file.  0 or -1. */
static int ev_pwrite(int fd, const void *p, size_t n, uint64_t off)
{
	const char *c = p;
	ssize_t k;

	while (n > 0) {
		k = pwrite(fd, c, n, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
		off += (uint64_t)k;
	}
	return 0;
}

/* Reads n bytes at offset off of the spill file.  0 or -1. */
static int ev_pread(int fd, void *p, size_t n, uint64_t off)
{
	char *c = p;
	ssize_t k;

	while (n > 0) {
		k = pread(fd, c, n, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
		off += (uint64_t)k;
	}
	return 0;
}

/* Appends it as a spill record (it is not freed).  0, 1 if the file is
 * at its cap (LOST items always fit), -1 on an I/O error. */
static int ev_spill_add(dmn_evq *q, const dmn_evitem *it)
{
	msgpack_packer pk;
	wire_buf *b = &q->scratch;
	size_t n;

	if (ev_spill_open(q) != 0)
		return -1;
	wire_buf_reset(b);
	wire_buf_append(b, "\0\0\0\0", 4);
	msgpack_packer_init(&pk, b, dmn_ev_buf_write);
	if (msgpack_pack_array(&pk, 5) || msgpack_pack_uint32(&pk, it->type) ||
	    msgpack_pack_uint64(&pk, it->batch) ||
	    msgpack_pack_uint64(&pk, it->proc) ||
	    msgpack_pack_uint32(&pk, it->nf) ||
	    msgpack_pack_uint32(&pk, (uint32_t)it->once) ||
	    wire_buf_append(b, it->raw, it->len) != 0)
		return -1;
	n = wire_buf_used(b);
	if (q->swr + n > q->spill_cap && it->type != WIRE_EVENTS_LOST &&
	    !q->final)
		return 1;
	wire_buf_head(b)[0] = (char)((n - 4) >> 24);
	wire_buf_head(b)[1] = (char)((n - 4) >> 16);
	wire_buf_head(b)[2] = (char)((n - 4) >> 8);
	wire_buf_head(b)[3] = (char)(n - 4);
	if (ev_pwrite(q->sfd, wire_buf_head(b), n, q->swr) != 0) {
		dmn_log(DMN_WARN, "events: writing %s: %s", q->spath,
		        strerror(errno));
		return -1;
	}
	q->swr += n;
	q->n_spilled++;
	return 0;
}

/* Reads the next spill record into a new item (not consumed: *used is
 * its size).  NULL at the end or on an error (the file is then
 * abandoned, its records counted lost in the log). */
static dmn_evitem *ev_spill_peek(dmn_evq *q, uint64_t *used)
{
	unsigned char hdr[4];
	msgpack_unpacked up;
	msgpack_object *o;
	dmn_evitem *it = NULL;
	size_t len, off = 0;
	char *rec;

	if (q->srd >= q->swr || ev_pread(q->sfd, hdr, 4, q->srd) != 0)
		return NULL;
	len = (size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 |
	      (size_t)hdr[2] << 8 | hdr[3];
	if (len > DMN_EV_REC_MAX || (rec = malloc(len)) == NULL)
		goto out_bad;
	msgpack_unpacked_init(&up);
	if (ev_pread(q->sfd, rec, len, q->srd + 4) == 0 &&
	    msgpack_unpack_next(&up, rec, len, &off) == MSGPACK_UNPACK_SUCCESS &&
	    up.data.type == MSGPACK_OBJECT_ARRAY && up.data.via.array.size == 5) {
		o = up.data.via.array.ptr;
		it = dmn_ev_item((uint32_t)o[0].via.u64, (uint32_t)o[3].via.u64,
		             o[1].via.u64, o[2].via.u64, rec + off, len - off);
		if (it != NULL)
			it->once = (int)o[4].via.u64;
	}
	msgpack_unpacked_destroy(&up);
	free(rec);
	if (it == NULL)
		goto out_bad;
	*used = 4 + len;
	return it;
out_bad:
	dmn_log(DMN_ERROR, "events: spill file %s unreadable at %llu: %llu "
	        "bytes of queued events lost", q->spath,
	        (unsigned long long)q->srd,
	        (unsigned long long)(q->swr - q->srd));
	q->srd = q->swr;
	return NULL;
}

/* Moves spill records into memory while they fit. */
void dmn_ev_refill(dmn_evq *q)
{
	dmn_evitem *it;
	uint64_t used;

	while (q->sfd >= 0 && q->srd < q->swr) {
		it = ev_spill_peek(q, &used);
		if (it == NULL)
			break;
		if (q->mem_batches > 0 && q->mem + it->len > q->mem_cap) {
			free(it);
			return;
		}
		q->srd += used;
		ev_mem_add(q, it);
	}
	if (q->sfd >= 0 && q->srd >= q->swr && q->swr > 0) {
		q->srd = q->swr = 0;
		if (ftruncate(q->sfd, 0) != 0)
			dmn_log(DMN_WARN, "events: truncating %s: %s",
			        q->spath, strerror(errno));
	}
}

/* Queues it (owned from now on): in memory while nothing waits in the
 * spill file and it fits, else in the spill file.  0, or 1 if it was
 * dropped because the spill file is full. */
int dmn_ev_push(dmn_evq *q, dmn_evitem *it)
{
	dmn_evproc *e = dmn_ev_proc(q, it->proc, 0);
	int rc;

	if (q->srd >= q->swr &&
	    (q->mem_batches == 0 || q->mem + it->len <= q->mem_cap)) {
		ev_mem_add(q, it);
		if (e != NULL)
			e->queued++;
		return 0;
	}
	rc = ev_spill_add(q, it);
	free(it);
	if (rc == 0 && e != NULL)
		e->queued++;
	return rc == 0 ? 0 : 1;
}

/* Takes the oldest item off the memory list and frees it. */
void dmn_ev_pop(dmn_evq *q)
{
	dmn_evitem *it = q->head;
	dmn_evproc *e;

	q->head = it->next;
	if (q->head == NULL)
		q->tail = NULL;
	if (q->cursor == it)
		q->cursor = it->next;
	q->mem -= it->len;
	if (it->type == WIRE_NODE_EVENTS)
		q->mem_batches--;
	e = dmn_ev_proc(q, it->proc, 0);
	if (e != NULL && e->queued > 0)
		e->queued--;
	dmn_ev_proc_check(q, e);
	free(it);
}
