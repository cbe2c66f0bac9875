/*
 * dmn_event.c — the event relay (dmn_event.h).
 *
 * Layout: per-process state (string tables, expected seq), the queue
 * (items in memory, the spill file), sending to the controller (the
 * pump), then the handlers for EVENT_STRINGS, EVENTS and EVENTS_ACK.
 *
 * An item is one outgoing frame without its type and seq: the message
 * type, its field count and the packed fields (raw msgpack), so it is
 * re-sent with a fresh seq by copying bytes, and written to the spill
 * file as it is.  Spill record: 4-byte big-endian length L, then L bytes:
 * the msgpack array [type, batch, proc, nfields, flags] followed by the
 * packed fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn_event.h"
#include "dmn_log.h"
#include "dmn_ring.h"
#include "pvt_event.h"
#include "wire_ev.h"
#include "wire_evpk.h"
#include "wire_evsum.h"
#include "wire_fmt.h"
#include "dmn_event_int.h"

#define DMN_EV_PUMP_MS 20         /* retry while the console's queue is full */
/* ---- sending ------------------------------------------------------------- */

/* Queues EVENT_STRINGS with the names of e the controller lacks.  0 or an
 * error. */
static int ev_send_strings(wire_peer *out, dmn_evproc *e)
{
	int rc;

	if (e == NULL || e->sent_str >= e->nstr)
		return 0;
	rc = wire_pack(&out->out, WIRE_EVENT_STRINGS, wire_peer_seq(out),
	               out->max_frame, e->num, (uint64_t)e->sent_str + 1,
	               (const char *const *)&e->str[e->sent_str],
	               e->nstr - e->sent_str);
	if (rc == 0)
		e->sent_str = e->nstr;
	return rc;
}

/* Queues it on out (strings first).  0 or an error (nothing queued). */
static int ev_send(dmn_evq *q, wire_peer *out, const dmn_evitem *it)
{
	msgpack_packer *pk;
	wire_enc e;
	int rc;

	if (it->type == WIRE_NODE_EVENTS &&
	    (rc = ev_send_strings(out, dmn_ev_proc(q, it->proc, 0))) != 0)
		return rc;
	if ((rc = wire_enc_begin(&e, &out->out, it->type, wire_peer_seq(out),
	                         it->nf)) == 0) {
		pk = wire_enc_packer(&e);
		pk->callback(pk->data, (const char *)it->raw, it->len);
	}
	return wire_enc_end(&e, out->max_frame);
}

static void ev_pump(dmn_evq *q);

/* Timer: try sending again. */
static void ev_pump_timer(dmn_loop *l, long id, void *ctx)
{
	dmn_evq *q = ctx;

	q->timer = 0;
	ev_pump(q);
}

/* Arms the pump timer once. */
static void ev_pump_later(dmn_evq *q, unsigned ms)
{
	if (q->timer > 0)
		return;
	q->timer = dmn_timer_add(q->w->srv->loop, ms, ev_pump_timer, q);
	if (q->timer < 0)
		q->timer = 0;
}

/* Sends what is unsent to the controller while its output backlog is
 * small; loads spilled items as memory frees. */
static void ev_pump(dmn_evq *q)
{
	/* only to the session's own console (its queue holds them while
	 * it is detached) */
	wire_peer *out = q->sess == q->w->cur ? dmn_work_ctl(q->w) : NULL;
	dmn_evitem *it;
	int sent = 0;

	if (out == NULL)
		return;
	for (;;) {
		if (q->cursor == NULL)
			dmn_ev_refill(q);
		if ((it = q->cursor) == NULL)
			break;
		if (it->type == WIRE_EVENTS_LOST && it->once) {
			it->sent = 1; /* a loss is reported once */
			q->cursor = it->next;
			continue;
		}
		if (wire_buf_used(&out->out) >= DMN_OUT_HIGH ||
		    ev_send(q, out, it) != 0) {
			ev_pump_later(q, DMN_EV_PUMP_MS);
			break;
		}
		it->sent = it->once = 1;
		q->cursor = it->next;
		sent = 1;
	}
	if (sent)
		dmn_work_kick(q->w);
}

/* ---- records to canonical events ----------------------------------------- */

/* Record number seq of a process, r, as a canonical event in *e. */
static void ev_wire(wire_ev *e, const pvt_event *r, uint64_t seq)
{
	e->seq = seq;
	e->t_ns = r->t_ns;
	e->delta_ns = r->delta_ns;
	e->bytes = r->bytes;
	e->kind = r->kind;
	e->op = r->op;
	e->file = r->file;
	e->func = r->func;
	e->line = r->line;
	e->peer = r->peer;
	e->tag = r->tag;
	e->result = r->result;
	e->aux = r->aux;
	e->comm = r->comm;
	e->ref = r->ref;
}

/* A fixed buffer a msgpack packer writes into (ev_fix_write). */
typedef struct ev_fix {
	unsigned char *p; /* the buffer */
	size_t len, cap;  /* bytes written, its size */
} ev_fix;

/* msgpack write callback into an ev_fix: 0, or -1 when it is full. */
static int ev_fix_write(void *data, const char *buf, size_t len)
{
	ev_fix *f = data;

	if (len > f->cap - f->len)
		return -1;
	memcpy(f->p + f->len, buf, len);
	f->len += len;
	return 0;
}

/* The share of a process's CPU wait charged to paravt (ns) as PROG_EXIT
 * carries it: us, at most INT32_MAX. */
static int32_t ev_share_us(uint64_t ns)
{
	return ns / 1000 > INT32_MAX ? INT32_MAX : (int32_t)(ns / 1000);
}

/* Reads what e's process charged itself of its waits for a CPU (its
 * ring's self_us, dmn_share_self). */
static void ev_share_self(dmn_evproc *e)
{
	if (e->ring.h != NULL && !e->refused)
		dmn_share_self(&e->share, pvt_ring_load(&e->ring.h->self_us));
}

/* p's exit ev: carries paravt's share of its CPU wait (tag, us): the
 * relay's and what the process charged itself (dmn_share_self); the
 * log says both, and how much charge did not fit between its records
 * (dmn_share.h). */
static void ev_share_done(const dmn_proc *p, const dmn_evproc *e,
                          wire_ev *ev)
{
	uint64_t all = e->share.given + e->share.self_all;

	ev->tag = ev_share_us(all);
	if (e->share.over >= 1000 || e->share.self_all >= 1000)
		dmn_log(DMN_INFO, "events: proc %llu: CPU share %llu us, "
		        "%llu us of it charged by the process where it "
		        "found its stalls; %llu us more did not fit between "
		        "its records (left out)",
		        (unsigned long long)p->num,
		        (unsigned long long)(all / 1000),
		        (unsigned long long)(e->share.self_all / 1000),
		        (unsigned long long)(e->share.over / 1000));
}

/* A NODE_EVENTS item of n records from recs (native, maybe unaligned:
 * the process's ring or an EVENTS frame; the first is number first) of
 * process p, whose relay state is e: the next batch and process
 * numbers, one packed bin of canonical events (wire_evpk.h), packed in
 * q's scratch buffer, and the batch's summary (wire_evsum.h: its
 * counters, e's state after it), copied into an item of its size.  Notes
 * PROG_EXIT and CRASH.  NULL when out of memory. */
static dmn_evitem *ev_batch_item(dmn_evq *q, dmn_proc *p, dmn_evproc *e,
                                 const char *recs, uint64_t first,
                                 uint64_t n)
{
	unsigned char hdr[DMN_EV_HDR], sum[DMN_EV_SUM];
	ev_fix f = {hdr, 0, sizeof hdr}, fs = {sum, 0, sizeof sum};
	msgpack_packer pk;
	wire_evpk_enc w;
	wire_evcnt cnt = {0};
	dmn_evitem *it;
	unsigned char *out;
	size_t len;
	pvt_event r;
	wire_ev ev;
	uint64_t k;
	int share = !q->w->srv->cfg->no_cpu_share, exit_share;

	wire_buf_reset(&q->scratch);
	if (wire_buf_reserve(&q->scratch,
	                     WIRE_EVPK_HEAD + (size_t)n * WIRE_EVPK_MAX) != 0)
		return NULL;
	out = (unsigned char *)wire_buf_head(&q->scratch);
	len = wire_evpk_begin(&w, out, n);
	for (k = 0; k < n; k++) {
		memcpy(&r, recs + k * PVT_EVENT_SIZE, sizeof r);
		if (r.kind == PVT_EV_PROG_EXIT)
			p->ev_status = r.aux;
		else if (r.kind == PVT_EV_CRASH)
			p->ev_signal = r.aux;
		ev_wire(&ev, &r, first + k);
		exit_share = r.kind == PVT_EV_PROG_EXIT && share;
		if (share && !e->share.started) /* (once: the first record) */
			dmn_share_start(&e->share,
			                r.kind == PVT_EV_PROG_START ? r.bytes : -1);
		if (exit_share) {
			ev_share_self(e);
			dmn_share_exit(&e->share, r.bytes, r.t_ns);
		}
		ev.delta_ns += dmn_share_at(&e->share, ev.t_ns, ev.delta_ns);
		if (exit_share)
			ev_share_done(p, e, &ev);
		wire_evsum_add(&cnt, &e->state, &ev);
		len += wire_evpk_put(&w, out + len, &ev);
	}
	msgpack_packer_init(&pk, &fs, ev_fix_write);
	if (wire_evsum_pack(&pk, first, &cnt, &e->state) != 0)
		return NULL; /* (DMN_EV_SUM holds the largest) */
	msgpack_packer_init(&pk, &f, ev_fix_write);
	if (msgpack_pack_uint64(&pk, q->batch + 1) ||
	    msgpack_pack_uint64(&pk, p->num) || msgpack_pack_bin(&pk, len) ||
	    (it = malloc(sizeof *it + f.len + len + fs.len)) == NULL)
		return NULL;
	memset(it, 0, sizeof *it);
	it->type = WIRE_NODE_EVENTS;
	it->nf = 4;
	it->batch = ++q->batch;
	it->proc = p->num;
	it->len = f.len + len + fs.len;
	memcpy(it->raw, hdr, f.len);
	memcpy(it->raw + f.len, out, len);
	memcpy(it->raw + f.len + len, sum, fs.len);
	return it;
}

/* Queues an EVENTS_LOST item. */
static void ev_lost(dmn_evq *q, uint64_t proc, uint64_t count,
                    const char *reason)
{
	msgpack_packer pk;
	dmn_evitem *it;

	dmn_log(DMN_WARN, "events: proc %llu: %llu event(s) lost: %s",
	        (unsigned long long)proc, (unsigned long long)count, reason);
	wire_buf_reset(&q->scratch);
	msgpack_packer_init(&pk, &q->scratch, dmn_ev_buf_write);
	msgpack_pack_uint64(&pk, proc);
	msgpack_pack_uint64(&pk, count);
	msgpack_pack_str(&pk, strlen(reason));
	msgpack_pack_str_body(&pk, reason, strlen(reason));
	it = dmn_ev_item(WIRE_EVENTS_LOST, 3, 0, proc,
	             wire_buf_head(&q->scratch), wire_buf_used(&q->scratch));
	if (it != NULL)
		dmn_ev_push(q, it);
}

/* Queues n records from recs (native, maybe unaligned; the first is
 * number first) of process p (relay state e) as NODE_EVENTS batches.
 * Notes PROG_EXIT and CRASH on foreign processes. */
static void ev_batches(dmn_evq *q, dmn_proc *p, dmn_evproc *e,
                       const char *recs, uint64_t first, uint64_t n)
{
	dmn_evitem *it;
	uint64_t i, chunk;

	for (i = 0; i < n; i += chunk) {
		chunk = n - i < DMN_EV_BATCH ? n - i : DMN_EV_BATCH;
		it = ev_batch_item(q, p, e, recs + i * PVT_EVENT_SIZE,
		                   first + i, chunk);
		q->n_batches++;
		if (it == NULL || dmn_ev_push(q, it) != 0) {
			if (!q->dropping)
				dmn_log(DMN_WARN, "events: spill file full "
				        "(%llu bytes): dropping events",
				        (unsigned long long)q->spill_cap);
			q->dropping = 1;
			q->n_dropped += chunk;
			ev_lost(q, p->num, chunk, it == NULL ? "out of memory"
			        : "the daemon's event spill file is full");
		}
	}
}

/* ---- handlers ------------------------------------------------------------ */

/* p's relay state, made the first time (its CPU wait so far the base of
 * paravt's share, dmn_share.h).  NULL when out of memory. */
static dmn_evproc *ev_proc_make(dmn_evq *q, const dmn_proc *p)
{
	dmn_evproc *e = dmn_ev_proc(q, p->num, 0);

	if (e == NULL && (e = dmn_ev_proc(q, p->num, 1)) != NULL &&
	    !q->w->srv->cfg->no_cpu_share)
		dmn_share_begin(&e->share, (long)p->pid);
	return e;
}

/* EVENT_STRINGS: appends the names (ids must continue the table). */
static int ev_strings(dmn_evq *q, dmn_proc *p, const wire_msg *m,
                      char *err, size_t errlen)
{
	const msgpack_object *arr;
	char name[WIRE_TEXT_MAX];
	uint64_t proc, first, id;
	dmn_evproc *e;
	uint32_t i;

	if (wire_unpack(m, err, errlen, &proc, &first, &arr) != 0)
		return WIRE_EMALFORMED;
	if ((e = ev_proc_make(q, p)) == NULL) {
		snprintf(err, errlen, "EVENT_STRINGS: out of memory");
		return WIRE_ENOMEM;
	}
	if (first == 0 || first > (uint64_t)e->nstr + 1) {
		snprintf(err, errlen, "EVENT_STRINGS: first id %llu does not "
		         "follow the %u names known", (unsigned long long)first,
		         e->nstr);
		return WIRE_EPROTO;
	}
	for (i = 0; i < arr->via.array.size; i++) {
		id = first + i;
		if (id <= e->nstr)
			continue; /* sent again (crash path): known */
		if (wire_strv_get(arr, i, name, sizeof name) != 0)
			snprintf(name, sizeof name, "?");
		if (dmn_ev_proc_name(e, name) != 0) {
			snprintf(err, errlen, "EVENT_STRINGS: more than %d "
			         "names", DMN_EV_STRS);
			return WIRE_ETOOBIG;
		}
	}
	return 0;
}

/* Checks the records of an EVENTS frame: size, numbers, layout.  0, or
 * an error with err. */
static int ev_check(dmn_evproc *e, uint64_t first, uint64_t count,
                    const char *d, size_t n, char *err, size_t errlen)
{
	pvt_event r;
	uint64_t i;

	if (count == 0 || count > n / PVT_EVENT_SIZE + 1 ||
	    count * PVT_EVENT_SIZE != n) {
		snprintf(err, errlen, "EVENTS: %llu records need %llu bytes, "
		         "got %lu", (unsigned long long)count,
		         (unsigned long long)count * PVT_EVENT_SIZE,
		         (unsigned long)n);
		return WIRE_EMALFORMED;
	}
	for (i = 0; i < count; i++) {
		memcpy(&r, d + i * PVT_EVENT_SIZE, sizeof r);
		if (r.kind == 0 || r.kind > PVT_EV_KIND_MAX) {
			snprintf(err, errlen, "EVENTS: record %llu has kind "
			         "%u", (unsigned long long)(first + i),
			         (unsigned)r.kind);
			return WIRE_EMALFORMED;
		}
		if (r.kind == PVT_EV_PROG_START && r.aux != PVT_EVENT_VERSION) {
			snprintf(err, errlen, "EVENTS: the task writes another "
			         "record layout (version field %ld), this daemon "
			         "reads version %d: rebuild the program with "
			         "this node's paravt", (long)r.aux,
			         PVT_EVENT_VERSION);
			e->refused = 1;
			return WIRE_EVERSION;
		}
	}
	if (first < e->next_seq) {
		snprintf(err, errlen, "EVENTS: seq %llu again (expected "
		         "%llu)", (unsigned long long)first,
		         (unsigned long long)e->next_seq);
		return WIRE_EPROTO;
	}
	return 0;
}

/* EVENTS: checks, reports a gap, queues the batches. */
static int ev_events(dmn_evq *q, dmn_proc *p, const wire_msg *m, char *err,
                     size_t errlen)
{
	uint64_t proc, first, count;
	const char *d;
	dmn_evproc *e;
	size_t n;
	int rc;

	if (wire_unpack(m, err, errlen, &proc, &first, &count, &d, &n) != 0)
		return WIRE_EMALFORMED;
	if ((e = ev_proc_make(q, p)) == NULL) {
		snprintf(err, errlen, "EVENTS: out of memory");
		return WIRE_ENOMEM;
	}
	if (e->refused) {
		q->n_dropped += count;
		return 0; /* said once when the version was seen */
	}
	if ((rc = ev_check(e, first, count, d, n, err, errlen)) != 0) {
		if (rc == WIRE_EVERSION)
			ev_lost(q, p->num, count, err);
		return rc;
	}
	if (first > e->next_seq) {
		q->n_gap += first - e->next_seq;
		ev_lost(q, p->num, first - e->next_seq,
		        "gap in the task's event numbers");
	}
	e->next_seq = first + count;
	q->n_events += count;
	ev_batches(q, p, e, d, first, count);
	return 0;
}

/* ---- shared-memory rings ------------------------------------------------- */

/* Queues an EVENTS_WAITED item: process proc's ring was full waits
 * times, us microseconds in all. */
static void ev_waited(dmn_evq *q, uint64_t proc, uint64_t waits, uint64_t us)
{
	msgpack_packer pk;
	dmn_evitem *it;

	dmn_log(DMN_INFO, "events: proc %llu waited %llu time(s), %llu us, "
	        "for room in its ring", (unsigned long long)proc,
	        (unsigned long long)waits, (unsigned long long)us);
	wire_buf_reset(&q->scratch);
	msgpack_packer_init(&pk, &q->scratch, dmn_ev_buf_write);
	msgpack_pack_uint64(&pk, proc);
	msgpack_pack_uint64(&pk, waits);
	msgpack_pack_uint64(&pk, us);
	it = dmn_ev_item(WIRE_EVENTS_WAITED, 3, 0, proc,
	             wire_buf_head(&q->scratch), wire_buf_used(&q->scratch));
	if (it != NULL)
		dmn_ev_push(q, it);
}

/* dmn_ring_names callback: appends a name to the process's table (a
 * name the ring could not hold leaves a gap, named "?"). */
static int ev_ring_name(void *arg, uint32_t id, const char *s)
{
	dmn_evproc *e = arg;

	while (e->nstr + 1 < id)
		if (dmn_ev_proc_name(e, "?") != 0)
			return -1;
	return id == e->nstr + 1 ? dmn_ev_proc_name(e, s) : 0;
}

/* True while q's console is attached and more than memory holds is
 * queued for it: the rings are left to fill (their tasks wait for room,
 * counted as paravt's own time) instead of spilling, and at the spill
 * file's cap dropping, what the console will take anyway.  A detached
 * session's rings are drained into the spill file as before. */
static int ev_backlogged(const dmn_evq *q)
{
	return q->sess == q->w->cur && dmn_work_ctl(q->w) != NULL &&
	       (q->swr > q->srd ||
	        (q->mem_batches > 0 && q->mem + DMN_EV_HDR + WIRE_EVPK_HEAD +
	         (size_t)DMN_EV_BATCH * WIRE_EVPK_MAX > q->mem_cap));
}

/* Of the n records at at, in time order, how many come at or before
 * upto. */
static uint32_t ev_ring_upto(const pvt_event *at, uint32_t n, uint64_t upto)
{
	uint32_t lo = 0, hi = n, mid;

	if (n == 0 || at[n - 1].t_ns <= upto)
		return n;
	while (lo < hi) { /* the first one after upto */
		mid = lo + (hi - lo) / 2;
		if (at[mid].t_ns <= upto)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Moves what process p wrote into its ring since the last time into the
 * queue: names first, then the records in batches, then what the task
 * counted (records dropped, waits for room, names lost).  Bounded (the
 * drain timer, a task's kick): only while the queue is not backlogged,
 * and only the records written by upto (the drain's start: what the
 * process writes while the daemon drains waits for the next drain, whose
 * CPU share is planned over it, dmn_share.h).  Else (a stop, a crash,
 * the process's end: the newest events are needed, or the ring goes)
 * everything, the spill file past its cap if need be: by at most one
 * ring.  Returns the number of records moved. */
static uint64_t ev_ring_drain(dmn_evq *q, dmn_proc *p, dmn_evproc *e,
                              int bounded, uint64_t upto)
{
	uint32_t all;
	const pvt_event *at;
	dmn_ring_news news;
	uint64_t moved = 0;
	uint32_t n;

	if (e->ring.h == NULL || e->refused || (bounded && ev_backlogged(q)))
		return 0;
	/* the head before the names: every record peeked has its names;
	   the records are converted in place, their slots given back
	   after */
	q->final = !bounded;
	n = all = dmn_ring_peek(&e->ring, DMN_EV_BATCH, &at);
	if (dmn_ring_names(&e->ring, ev_ring_name, e) != 0)
		dmn_log(DMN_WARN, "events: proc %llu: names in its ring "
		        "unreadable", (unsigned long long)p->num);
	if (bounded)
		n = ev_ring_upto(at, n, upto);
	while (n > 0) {
		moved += n;
		q->n_events += n;
		e->next_seq = e->ring.next + n;
		ev_batches(q, p, e, (const char *)at, e->ring.next, n);
		dmn_ring_take(&e->ring, n);
		if (n < all || (bounded && ev_backlogged(q)))
			break;
		n = all = dmn_ring_peek(&e->ring, DMN_EV_BATCH, &at);
		(void)dmn_ring_names(&e->ring, ev_ring_name, e);
		if (bounded)
			n = ev_ring_upto(at, n, upto);
	}
	q->final = 0;
	dmn_ring_news_get(&e->ring, &news);
	if (news.dropped > 0)
		ev_lost(q, p->num, news.dropped, "its event ring was full "
		        "(PARAVT_RING_FULL=drop)");
	if (news.waits > 0)
		ev_waited(q, p->num, news.waits, news.wait_us);
	if (news.str_lost > 0)
		dmn_log(DMN_WARN, "events: proc %llu: %u name(s) did not fit "
		        "its ring; shown as ?", (unsigned long long)p->num,
		        news.str_lost);
	return moved;
}

/* The process numbered num, or NULL. */
static dmn_proc *ev_find_proc(dmn_work *w, uint64_t num)
{
	int i;

	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] != NULL && w->procs[i]->num == num)
			return w->procs[i];
	return NULL;
}

static void ev_ring_timer_arm(dmn_evq *q);

/* The delay in ms after which a ring that took moved records in
 * elapsed ns is 1/DMN_EV_RING_BUSY full again at the same rate, within
 * DMN_EV_RING_BUSY_MS .. cap. */
static unsigned ev_ring_delay(const dmn_evproc *e, uint64_t moved,
                              uint64_t elapsed, unsigned cap)
{
	uint64_t ns;

	if (moved == 0)
		return cap;
	ns = elapsed / moved * (e->ring.cap / DMN_EV_RING_BUSY);
	if (ns < (uint64_t)DMN_EV_RING_BUSY_MS * 1000000)
		return DMN_EV_RING_BUSY_MS;
	return ns > (uint64_t)cap * 1000000 ? cap : (unsigned)(ns / 1000000);
}

/* The longest drain period of q: DMN_EV_RING_QUOTA_MS while the CPU
 * cgroup of one of its processes enforces a quota (seen at the last
 * sample), else DMN_EV_RING_MS. */
static unsigned ev_ring_cap(const dmn_evq *q)
{
	const dmn_evproc *e;

	for (e = q->procs; e != NULL; e = e->next)
		if (e->share.quota)
			return DMN_EV_RING_QUOTA_MS;
	return DMN_EV_RING_MS;
}

/* Plans where e's last charge goes: over the records in its ring (the
 * daemon last drained from d0 to d1, 0 0 not known). */
static void ev_share_plan(dmn_evproc *e, uint64_t d0, uint64_t d1)
{
	const pvt_event *run[2];
	uint32_t n[2], i;
	int k;

	dmn_share_plan_begin(&e->share, d0, d1);
	(void)dmn_ring_pending(&e->ring, &run[0], &n[0], &run[1], &n[1]);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n[k]; i++)
			dmn_share_plan_add(&e->share, run[k][i].t_ns,
			                   run[k][i].delta_ns);
}

/* Before e's first sample that its ring's first record is in: that
 * record's wait (PROG_START), where the sample starts. */
static void ev_share_first(dmn_evproc *e)
{
	const pvt_event *run[2];
	uint32_t n[2];

	if (e->share.started || e->ring.h == NULL || e->refused)
		return;
	(void)dmn_ring_pending(&e->ring, &run[0], &n[0], &run[1], &n[1]);
	if (n[0] > 0 && run[0][0].kind == PVT_EV_PROG_START)
		dmn_share_start(&e->share, run[0][0].bytes);
}

/* The last record in e's ring if it is the process's PROG_EXIT with its
 * wait for a CPU, else NULL. */
static const pvt_event *ev_ring_exit(const dmn_evproc *e)
{
	const pvt_event *run[2], *x;
	uint32_t n[2];

	if (e->ring.h == NULL || e->refused)
		return NULL;
	(void)dmn_ring_pending(&e->ring, &run[0], &n[0], &run[1], &n[1]);
	if (n[1] > 0)
		x = &run[1][n[1] - 1];
	else if (n[0] > 0)
		x = &run[0][n[0] - 1];
	else
		return NULL;
	return x->kind == PVT_EV_PROG_EXIT && x->bytes >= 0 ? x : NULL;
}

/* Tells e's process the fraction of its waits for a CPU found paravt's
 * lately (its ring's share_frac, dmn_share_told_frac): it charges
 * itself that part of the waits it finds after long gaps. */
static void ev_share_tell(dmn_evproc *e)
{
	double f = dmn_share_told_frac(&e->share);

	if (e->ring.h == NULL || e->refused || f < 0)
		return;
	f = f > 1 ? 1 : f;
	pvt_ring_store(&e->ring.h->share_frac,
	               (uint32_t)(f * PVT_RING_FRAC_ONE + 0.5));
}

/* One sample of paravt's share of the CPU wait of q's processes
 * (dmn_share.h), at node time now; with plan, where the charge goes is
 * planned over the rings' records (not while the queue is backlogged:
 * the records stay in the rings, and the rings may be full). */
static void ev_share_sample(dmn_evq *q, uint64_t now, int plan)
{
	uint64_t d, w, sum[2] = {0, 0}, left = 0;
	const pvt_event *x;
	dmn_evproc *e;
	dmn_proc *pr;
	double f[2], g;

	d = dmn_share_pool_add(&q->daemon_cpu, dmn_share_daemon_ns());
	for (e = q->procs; e != NULL; e = e->next) {
		pr = e->gone ? NULL : ev_find_proc(q->w, e->num);
		ev_share_first(e);
		ev_share_self(e);
		x = ev_ring_exit(e); /* its own last word, if it ended */
		w = x != NULL ? dmn_share_told(&e->share, x->bytes)
		              : dmn_share_read(&e->share,
		                               pr != NULL ? (long)pr->pid : 0);
		sum[e->share.hit != 0] += w;
	}
	/* the daemon's time goes to the waits of the processes it found on
	   its processor first, what is left of it to the others' */
	f[1] = dmn_share_fraction(d, sum[1]);
	f[0] = dmn_share_fraction(d > sum[1] ? d - sum[1] : 0, sum[0]);
	dmn_share_pool_end(&q->daemon_cpu, sum[0] + sum[1]);
	for (e = q->procs; e != NULL; e = e->next)
		left += dmn_share_free(&e->share, f[e->share.hit != 0]);
	g = dmn_share_fraction(dmn_share_pool_add(&q->con_cpu, q->con_new),
	                       left);
	dmn_share_pool_end(&q->con_cpu, left);
	q->con_new = 0;
	for (e = q->procs; e != NULL; e = e->next) {
		dmn_share_charge(&e->share, f[e->share.hit != 0], g, now);
		ev_share_tell(e);
		/* nothing charged (its process did not wait for paravt): no
		   share to place, no pass over its records */
		if (plan && e->ring.h != NULL && !e->refused &&
		    e->share.x1 != e->share.x0)
			ev_share_plan(e, q->tick0, q->tick1);
	}
}

/* Notes which of q's processes stand on this daemon's processor as its
 * drain begins: the daemon's time until the next sample is their wait
 * (dmn_share.h).  Only those that waited for a CPU since the sample
 * before are looked at (a stat file a process at each drain): where the
 * node's processors are not all busy, nobody waits for the daemon. */
static void ev_share_hits(dmn_evq *q)
{
	int cpu = -2; /* read at the first process that waited */
	dmn_evproc *e;
	dmn_proc *p;

	for (e = q->procs; e != NULL; e = e->next) {
		e->share.hit = 0;
		if (e->gone || e->share.last_w == 0 ||
		    (p = ev_find_proc(q->w, e->num)) == NULL)
			continue;
		if (cpu == -2)
			cpu = dmn_share_own_cpu();
		e->share.hit = cpu >= 0 &&
		               dmn_share_cpu(&e->share, (long)p->pid) == cpu;
	}
}

/* After a drain that began at node time now: the processes whose rings
 * still hold records written by then (the queue was backlogged, or
 * filled in the drain) have the next sample's charge go over them too
 * (dmn_share_hold). */
static void ev_share_holds(dmn_evq *q, uint64_t now)
{
	const pvt_event *at;
	dmn_evproc *e;

	for (e = q->procs; e != NULL; e = e->next)
		if (e->ring.h != NULL && !e->refused &&
		    dmn_ring_peek(&e->ring, 1, &at) == 1 && at->t_ns <= now)
			dmn_share_hold(&e->share);
}

/* The drain timer, and a process's kick (its ring is full): samples
 * the CPU share, drains every mapped ring (none while the queue is
 * backlogged: the timer looks again 1 ms later), the records written
 * before now, and all of waiter's (a process that waits for room is
 * never kept waiting by a clock that runs ahead), then pumps.  The
 * others' records after now wait for the next drain: the next sample's
 * charge goes over the records up to it (dmn_share.h), and those
 * records would have taken none of it.  The next drain comes
 * when the fastest writer's ring will be 1/DMN_EV_RING_BUSY full at its
 * rate since the last one (at most ev_ring_cap, at least
 * DMN_EV_RING_BUSY_MS later): a fast writer is drained in large
 * batches and seldom finds its ring full. */
static void ev_ring_tick(dmn_evq *q, const dmn_proc *waiter)
{
	uint64_t now = wire_now_ns(), moved;
	unsigned ms, d, cap;
	dmn_evproc *e;
	dmn_proc *p;

	if (!q->w->srv->cfg->no_cpu_share) {
		ev_share_sample(q, now, !ev_backlogged(q));
		ev_share_hits(q);
	}
	ms = cap = ev_ring_cap(q);
	if (ev_backlogged(q)) /* nothing is drained: look again soon */
		ms = DMN_EV_RING_BUSY_MS;
	else for (e = q->procs; e != NULL; e = e->next) {
		if (e->ring.h == NULL || (p = ev_find_proc(q->w, e->num)) == NULL)
			continue;
		moved = ev_ring_drain(q, p, e, 1, p == waiter ? UINT64_MAX
		                                               : now);
		d = ev_ring_delay(e, moved, now > e->drained_ns ?
		                  now - e->drained_ns : 1, cap);
		e->drained_ns = now;
		if (d < ms)
			ms = d;
	}
	if (!q->w->srv->cfg->no_cpu_share)
		ev_share_holds(q, now);
	q->ring_ms = ms;
	ev_pump(q);
	q->tick0 = now;
	q->tick1 = wire_now_ns();
}

static void ev_ring_timer(dmn_loop *l, long id, void *ctx)
{
	dmn_evq *q = ctx;

	(void)l;
	(void)id;
	q->ring_timer = 0;
	ev_ring_tick(q, NULL);
	ev_ring_timer_arm(q);
}

/* Arms the drain timer when a ring is mapped and it is not armed. */
static void ev_ring_timer_arm(dmn_evq *q)
{
	dmn_evproc *e;

	if (q->ring_timer > 0)
		return;
	for (e = q->procs; e != NULL && e->ring.h == NULL; e = e->next)
		;
	if (e == NULL)
		return;
	q->ring_timer = dmn_timer_add(q->w->srv->loop, q->ring_ms ? q->ring_ms
	                                                   : DMN_EV_RING_MS,
	                              ev_ring_timer, q);
	if (q->ring_timer < 0)
		q->ring_timer = 0;
}

/* Whether path's directory is where tasks of p's session make rings:
 * the directory for rings in memory (pvt_ring_memdir: this user's,
 * 0700), the task socket's or the session socket's directory. */
static const char *ev_ring_dir(const dmn_proc *p, const char *path,
                               char *buf, size_t n)
{
	const char *socks[2] = {p->sess->sock, p->sess->ssock}, *slash;
	size_t len;
	int k;

	for (k = -1; k < 2; k++) {
		if (k < 0 && pvt_ring_memdir(buf, n, 0) == NULL)
			continue;
		if (k >= 0) { /* the socket's directory */
			slash = strrchr(socks[k], '/');
			if (slash == NULL || (size_t)(slash - socks[k]) >= n)
				continue;
			memcpy(buf, socks[k], (size_t)(slash - socks[k]));
			buf[slash - socks[k]] = '\0';
		}
		len = strlen(buf);
		if (strncmp(path, buf, len) == 0 && path[len] == '/')
			return buf;
	}
	return "";
}

/* EVENT_RING: maps the task's ring and drains it from now on. */
static int ev_ring_attach(dmn_evq *q, dmn_proc *p, const wire_msg *m,
                          char *err, size_t errlen)
{
	char path[WIRE_TEXT_MAX], dir[DMN_PATH_MAX];
	uint64_t proc, recs, names;
	dmn_evproc *e;

	if (wire_unpack(m, err, errlen, &proc, path, sizeof path, &recs,
	                &names) != 0)
		return WIRE_EMALFORMED;
	if ((e = ev_proc_make(q, p)) == NULL) {
		snprintf(err, errlen, "EVENT_RING: out of memory");
		return WIRE_ENOMEM;
	}
	if (e->ring.h != NULL) {
		snprintf(err, errlen, "EVENT_RING: proc %llu has a ring",
		         (unsigned long long)p->num);
		return WIRE_ESTATE;
	}
	if (dmn_ring_map(&e->ring, path, ev_ring_dir(p, path, dir, sizeof dir),
	                 recs, names, err, errlen) != 0) {
		dmn_log(DMN_WARN, "events: proc %llu: %s",
		        (unsigned long long)p->num, err);
		return WIRE_EARG;
	}
	e->next_seq = e->ring.next;
	e->drained_ns = wire_now_ns();
	if (q->ring_timer == 0) { /* the first ring: the daemon's time from
	                             now, and a first look soon (its rate) */
		(void)dmn_share_daemon_ns();
		q->con_new = 0;
		memset(&q->daemon_cpu, 0, sizeof q->daemon_cpu);
		memset(&q->con_cpu, 0, sizeof q->con_cpu);
		q->ring_ms = DMN_EV_RING_BUSY_MS;
	}
	ev_ring_timer_arm(q);
	return 0;
}

/* The queue of p's session, or NULL. */
static dmn_evq *ev_q(const dmn_proc *p)
{
	return p->sess != NULL ? p->sess->evq : NULL;
}

/* Drains all of p's ring now. */
static void ev_drain_now(dmn_proc *p)
{
	dmn_evq *q = ev_q(p);
	const pvt_event *x;
	dmn_evproc *e;

	if (q == NULL || (e = dmn_ev_proc(q, p->num, 0)) == NULL ||
	    e->ring.h == NULL)
		return;
	if (!q->w->srv->cfg->no_cpu_share && (x = ev_ring_exit(e)) != NULL) {
		/* its exit's charge goes where it stood still since the
		   last sample, not all before the exit */
		ev_share_self(e);
		dmn_share_exit(&e->share, x->bytes, x->t_ns);
		ev_share_plan(e, 0, 0);
	}
	ev_ring_drain(q, p, e, 0, 0);
	ev_pump(q);
}

/* EVENTS_KICK: the process waits for room in its ring: the drain
 * timer's work now, of every record in its ring (the share is sampled
 * before any of them go; the others' rings up to the sample), and the
 * timer anew. */
static void ev_kick(dmn_proc *p)
{
	dmn_evq *q = ev_q(p);

	if (q == NULL)
		return;
	if (q->ring_timer > 0)
		dmn_timer_del(q->w->srv->loop, q->ring_timer);
	q->ring_timer = 0;
	ev_ring_tick(q, p);
	ev_ring_timer_arm(q);
}

void dmn_ev_drain(dmn_work *w, dmn_proc *p)
{
	(void)w;
	ev_drain_now(p);
}

int dmn_ev_task(dmn_work *w, dmn_proc *p, const wire_msg *m, char *err,
                size_t errlen)
{
	dmn_evq *q = ev_q(p);
	uint64_t proc;
	int rc;

	if (m->nf < 1 || m->f[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
		snprintf(err, errlen, "%s: field proc is not an unsigned "
		         "integer", wire_type_name(m->type));
		return WIRE_EMALFORMED;
	}
	proc = m->f[0].via.u64;
	if (proc != p->num && !(p->foreign && proc == 0)) {
		snprintf(err, errlen, "%s names proc %llu, this is proc %llu",
		         wire_type_name(m->type), (unsigned long long)proc,
		         (unsigned long long)p->num);
		return WIRE_EPROTO;
	}
	if (q == NULL) {
		snprintf(err, errlen, "%s: proc %llu has no session",
		         wire_type_name(m->type), (unsigned long long)p->num);
		return WIRE_ESTATE;
	}
	if (m->type == WIRE_EVENT_STRINGS)
		rc = ev_strings(q, p, m, err, errlen);
	else if (m->type == WIRE_EVENT_RING)
		rc = ev_ring_attach(q, p, m, err, errlen);
	else if (m->type == WIRE_EVENTS_KICK)
		rc = 0, ev_kick(p);
	else
		rc = ev_events(q, p, m, err, errlen);
	ev_pump(q);
	return rc;
}

void dmn_ev_ack(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	dmn_evq *q = w->cur != NULL ? w->cur->evq : NULL;
	char err[WIRE_TEXT_MAX];
	uint64_t batch;

	if (wire_unpack(m, err, sizeof err, &batch) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s", err);
		return;
	}
	if (q == NULL)
		return;
	while (q->head != NULL && q->head->sent &&
	       (q->head->type == WIRE_EVENTS_LOST || q->head->batch <= batch)) {
		if (q->head->type == WIRE_NODE_EVENTS)
			q->n_acked++;
		dmn_ev_pop(q);
	}
	if (q->dropping && q->srd >= q->swr) {
		dmn_log(DMN_INFO, "events: spill file drained");
		q->dropping = 0;
	}
	ev_pump(q);
	dmn_work_sess_check(w, w->cur);
}

/* See dmn_event.h. */
void dmn_ev_console_cpu(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	dmn_evq *q = w->cur != NULL ? w->cur->evq : NULL;
	char err[WIRE_TEXT_MAX];
	uint64_t ns;

	if (wire_unpack(m, err, sizeof err, &ns) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s", err);
		return;
	}
	if (!dmn_conn_local(c)) {
		dmn_work_err(c, WIRE_EARG, m->seq, "CONSOLE_CPU: the console "
		             "is not on this machine, its processor time "
		             "is not the processes'");
		return;
	}
	if (q == NULL)
		return;
	if (ns < q->con_seen)
		q->con_seen = 0; /* another console: a new count */
	q->con_new += ns - q->con_seen;
	q->con_total += ns - q->con_seen;
	q->con_seen = ns;
}

/* Logs what q went through. */
static void ev_log_counts(const dmn_evq *q)
{
	dmn_log(DMN_INFO, "events of session %llu: %llu received in %llu "
	        "batches, %llu acknowledged, %llu spilled, %llu dropped, "
	        "%llu missing (gaps); %lu bytes waiting in memory, %llu in "
	        "the spill file; the console's processor time for them "
	        "%.3f ms", (unsigned long long)q->sess->id,
	        (unsigned long long)q->n_events,
	        (unsigned long long)q->n_batches,
	        (unsigned long long)q->n_acked,
	        (unsigned long long)q->n_spilled,
	        (unsigned long long)q->n_dropped,
	        (unsigned long long)q->n_gap, (unsigned long)q->mem,
	        (unsigned long long)(q->swr - q->srd), q->con_total / 1e6);
}

void dmn_ev_controller(dmn_work *w)
{
	dmn_evq *q = w->cur != NULL ? w->cur->evq : NULL;
	dmn_evproc *e;
	dmn_evitem *it;

	if (q == NULL)
		return;
	for (it = q->head; it != NULL; it = it->next)
		it->sent = 0;
	for (e = q->procs; e != NULL; e = e->next)
		e->sent_str = 0;
	q->cursor = q->head;
	ev_log_counts(q);
	ev_pump_later(q, 0);
}

uint64_t dmn_ev_pending(const dmn_sess *s)
{
	const dmn_evitem *it;
	uint64_t n = 0;

	if (s == NULL || s->evq == NULL)
		return 0;
	for (it = s->evq->head; it != NULL; it = it->next)
		n++;
	return n + (s->evq->swr > s->evq->srd);
}

/* Removes the ring files that this user's tasks, killed before their
 * daemon mapped them, left in the directory for rings in memory
 * (dmn_shm_sweep; one changed within DMN_EV_SWEEP_S may be a live
 * task's), and logs what it removed.  At a session's start and at a
 * process's end. */
#define DMN_EV_SWEEP_S 60
static void ev_ring_sweep(void)
{
	char dir[DMN_PATH_MAX];
	uint64_t bytes = 0;
	int n;

	if (pvt_ring_memdir(dir, sizeof dir, 0) == NULL)
		return;
	n = dmn_shm_sweep(dir, PVT_RING_FILE_PREFIX, DMN_EV_SWEEP_S, &bytes);
	if (n > 0)
		dmn_log(DMN_INFO, "event rings: removed %d file(s) of %llu "
		        "bytes from %s: their processes ended before a daemon "
		        "mapped them (their events were never read)", n,
		        (unsigned long long)bytes, dir);
}

void dmn_ev_proc_gone(dmn_work *w, dmn_proc *p)
{
	dmn_evq *q = ev_q(p);
	dmn_evproc *e;

	(void)w;
	if (q == NULL || (e = dmn_ev_proc(q, p->num, 0)) == NULL)
		return;
	if (e->ring.h != NULL)
		ev_ring_drain(q, p, e, 0, 0); /* all it wrote, also if
		                                 killed */
	dmn_ring_unmap(&e->ring);
	e->gone = 1;
	dmn_ev_proc_check(q, e);
	ev_pump(q);
	ev_ring_sweep();
}

int dmn_ev_new(dmn_work *w, dmn_sess *s)
{
	const dmn_config *cfg = w->srv->cfg;
	dmn_evq *q = calloc(1, sizeof *q);

	if (q == NULL)
		return -1;
	q->w = w;
	q->sess = s;
	q->sfd = -1;
	q->mem_cap = cfg->events_mem ? cfg->events_mem : DMN_EV_MEM_DEFAULT;
	q->spill_cap = cfg->events_spill ? cfg->events_spill
	                                 : DMN_EV_SPILL_DEFAULT;
	wire_buf_init(&q->scratch, DMN_EV_SCRATCH);
	s->evq = q;
	ev_ring_sweep();
	return 0;
}

void dmn_ev_free(dmn_sess *s)
{
	dmn_evq *q = s != NULL ? s->evq : NULL;
	dmn_evproc *e;

	if (q == NULL)
		return;
	ev_log_counts(q);
	dmn_timer_del(q->w->srv->loop, q->timer);
	dmn_timer_del(q->w->srv->loop, q->ring_timer);
	while (q->head != NULL)
		dmn_ev_pop(q);
	while ((e = q->procs) != NULL) {
		e->gone = 1;
		e->queued = 0;
		dmn_ev_proc_check(q, e);
	}
	if (q->sfd >= 0) {
		close(q->sfd);
		unlink(q->spath);
	}
	wire_buf_destroy(&q->scratch);
	free(q);
	s->evq = NULL;
}

const dmn_relay_ops dmn_ev_relay = {
	dmn_ev_new, dmn_ev_free, dmn_ev_pending, dmn_ev_ack,
	dmn_ev_console_cpu, dmn_ev_controller, dmn_ev_drain, dmn_ev_proc_gone,
	dmn_ev_task
};
