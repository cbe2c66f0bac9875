/*
 * con_ev.c — the event store (con_ev.h): sources, the ring of events,
 * string tables, counters and what each process is doing.
 *
 * Layout: the state; sources; the ring; decoding one canonical event;
 * activity; batches (decoded at once, or pending and decoded later),
 * strings and losses; readers.  Counters and state are folded by
 * wire_evsum.c; filters and the display line live in con_ev_fmt.c.
 *
 * The ring: events are numbered by arrival; number k sits at index
 * k % cap.  It grows by doubling up to the maximum and then forgets the
 * oldest event for each new one.  A new maximum resizes it (the kept
 * events move to their new index; a smaller ring forgets the oldest).
 * CON_EV_UNBOUNDED (trace files read back) never forgets.
 *
 * A batch that came with the daemon's summary (wire_evsum.h) is stored
 * by it: the source's counters and state, the arrival numbers and the
 * seq it expects are taken from the summary, and the packed batch is
 * kept as it is (a "pending" batch) until something reads events
 * (con_ev_get and the other readers of the ring decode every pending
 * batch first, con_ev_settle).  A console that only captures (`paravt
 * trace`, whose file gets the batch as it came) so never decodes the
 * events of a busy run while the program runs.  Pending batches count
 * against the ring's maximum: when they alone exceed it, the oldest are
 * forgotten undecoded, counted in con_ev_dropped like the ring's.  A
 * pending batch found malformed when decoded keeps the events before
 * the bad one; the rest leave the arrival numbers and the counters, and
 * con_ev_take_error says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_ev.h"
#include "../wrappers/pvt_event.h"
#include "wire.h"
#include "wire_ev.h"
#include "wire_evpk.h"
#include "wire_evsum.h"

#define CON_EV_DECODE (-1000) /* con_ev_add_pending: decode it instead */

/* A batch stored by its summary, not decoded yet. */
typedef struct con_ev_pend {
	struct con_ev_pend *next; /* the next newer */
	uint32_t idx;          /* its source's index */
	int64_t offset_ns;     /* its node's clock offset when it came */
	uint64_t first;        /* seq of its first event */
	uint64_t n;            /* its events */
	uint64_t done;         /* of them decoded into the ring */
	size_t len;            /* bytes of the packed batch */
	unsigned char pk[];    /* the packed batch (wire_evpk.h) */
} con_ev_pend;

/* The whole store (one per console). */
static struct {
	con_ev_src **srcs;   /* sources, in order of first sight; owned */
	size_t nsrcs;        /* entries in srcs */
	con_ev_rec *ring;    /* events; owned */
	size_t cap;          /* slots in ring */
	size_t max;          /* most slots (0: CON_EV_MAX) */
	uint64_t next;       /* arrival number of the next event */
	uint64_t count;      /* events in the ring now */
	con_ev_pend *pend, *pend_tail; /* pending batches, oldest first */
	uint64_t pend_n;     /* their events not decoded (the ring's next
				number is next - pend_n) */
	int any;             /* an event went into the ring or the sink */
	uint64_t dropped;    /* forgotten because the ring was full */
	uint64_t last_ns;    /* when the last batch arrived */
	int64_t t0_con_ns;   /* console time of the first event stored */
	int64_t lo_ns, hi_ns; /* earliest and latest console time stored */
	con_ev_sink_fn sink; /* takes the events instead of the ring */
	void *sink_ctx;
	char err[400];       /* a pending batch found malformed */
	int err_new;         /* err not taken yet */
} con_ev;

static int con_ev_resize(size_t ncap);
static int con_ev_settle(void);

/* Arrival number of the next event decoded into the ring. */
static uint64_t con_ev_dec(void)
{
	return con_ev.next - con_ev.pend_n;
}

/* ---- sources ---------------------------------------------------------- */

/* Frees one source. */
static void con_ev_src_free(con_ev_src *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nstrs; i++)
		free(s->strs[i]);
	free(s->strs);
	free(s);
}

/* Forgets everything but the maximum. */
void con_ev_reset(void)
{
	size_t i, max = con_ev.max;

	con_ev_pend *b;

	for (i = 0; i < con_ev.nsrcs; i++)
		con_ev_src_free(con_ev.srcs[i]);
	free(con_ev.srcs);
	free(con_ev.ring);
	while ((b = con_ev.pend) != NULL) {
		con_ev.pend = b->next;
		free(b);
	}
	memset(&con_ev, 0, sizeof con_ev);
	con_ev.max = max;
}

/* Sets the sink. */
void con_ev_set_sink(con_ev_sink_fn fn, void *ctx)
{
	con_ev.sink = fn;
	con_ev.sink_ctx = ctx;
}

/* The time span of the events stored. */
void con_ev_span(int64_t *lo, int64_t *hi)
{
	(void)con_ev_settle();
	*lo = con_ev.any ? con_ev.lo_ns : 0;
	*hi = con_ev.any ? con_ev.hi_ns : 0;
}

/* Sets the ring's maximum; a larger ring shrinks at once. */
void con_ev_set_max(size_t max)
{
	(void)con_ev_settle();
	con_ev.max = max < 16 ? 16 : max;
	if (con_ev.cap > con_ev.max)
		(void)con_ev_resize(con_ev.max); /* else stays larger */
}

/* The ring's maximum. */
size_t con_ev_get_max(void)
{
	return con_ev.max != 0 ? con_ev.max : CON_EV_MAX;
}

/* The source (node, proc), or NULL. */
con_ev_src *con_ev_src_find(const char *node, uint32_t proc)
{
	size_t i;

	for (i = 0; i < con_ev.nsrcs; i++)
		if (con_ev.srcs[i]->proc == proc &&
		    strcmp(con_ev.srcs[i]->node, node) == 0)
			return con_ev.srcs[i];
	return NULL;
}

/* The source (node, proc), created when unknown; NULL when out of
 * memory.  *idx gets its index. */
static con_ev_src *con_ev_src_get(const char *node, uint32_t proc,
				  int pid_id, uint32_t *idx)
{
	con_ev_src **v, *s;
	size_t i;

	for (i = 0; i < con_ev.nsrcs; i++)
		if (con_ev.srcs[i]->proc == proc &&
		    strcmp(con_ev.srcs[i]->node, node) == 0) {
			*idx = (uint32_t)i;
			return con_ev.srcs[i];
		}
	v = realloc(con_ev.srcs, (con_ev.nsrcs + 1) * sizeof *v);
	s = calloc(1, sizeof *s);
	if (v == NULL || s == NULL) {
		free(s);
		if (v != NULL)
			con_ev.srcs = v;
		return NULL;
	}
	con_ev.srcs = v;
	snprintf(s->node, sizeof s->node, "%s", node);
	s->proc = proc;
	s->pid_id = pid_id;
	wire_evstate_init(&s->state);
	*idx = (uint32_t)con_ev.nsrcs;
	con_ev.srcs[con_ev.nsrcs++] = s;
	return s;
}

/* ---- the ring --------------------------------------------------------- */

/* The most slots of the ring. */
static size_t con_ev_max(void)
{
	return con_ev_get_max();
}

/* Gives the ring ncap slots, keeping every stored event that fits (the
 * newest ones; older ones are forgotten and counted) at its number
 * modulo the new size.  0 or -1 when out of memory (nothing changed). */
static int con_ev_resize(size_t ncap)
{
	con_ev_rec *r;
	uint64_t k;

	if (ncap > SIZE_MAX / sizeof *r)
		return -1;
	if (con_ev.dropped == 0 && ncap >= con_ev.count) {
		/* nothing forgotten: number k sits at index k already */
		r = realloc(con_ev.ring, ncap * sizeof *r);
		if (r == NULL)
			return -1;
	} else {
		r = malloc(ncap * sizeof *r);
		if (r == NULL)
			return -1;
		if (con_ev.count > ncap) {
			con_ev.dropped += con_ev.count - ncap;
			con_ev.count = ncap;
		}
		for (k = con_ev_dec() - con_ev.count; k < con_ev_dec(); k++)
			r[k % ncap] = con_ev.ring[k % con_ev.cap];
		free(con_ev.ring);
	}
	con_ev.ring = r;
	con_ev.cap = ncap;
	return 0;
}

/* A slot for the next event decoded (the oldest is forgotten when the
 * ring is full), or NULL when out of memory. */
static con_ev_rec *con_ev_slot(void)
{
	uint64_t k = con_ev_dec();
	size_t ncap;

	if (con_ev.count == con_ev.cap && con_ev.cap < con_ev_max()) {
		ncap = con_ev.cap == 0 ? 1024 :
		       con_ev.cap > SIZE_MAX / 2 ? SIZE_MAX : con_ev.cap * 2;
		if (ncap > con_ev_max())
			ncap = con_ev_max();
		if (con_ev_resize(ncap) < 0)
			return NULL;
	}
	if (con_ev.count == con_ev.cap) {
		con_ev.count--;
		con_ev.dropped++;
	}
	/* the ring's size is a power of two unless `trace keep N` said
	   otherwise: then a mask, not a division, per event */
	if ((con_ev.cap & (con_ev.cap - 1)) == 0)
		return &con_ev.ring[k & (con_ev.cap - 1)];
	return &con_ev.ring[k % con_ev.cap];
}

/* ---- decoding --------------------------------------------------------- */

/* One msgpack integer as int64 (unsigned beyond INT64_MAX refused).
 * 0 or -1. */
static int con_ev_int(const msgpack_object *o, int64_t *v)
{
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    o->via.u64 <= (uint64_t)INT64_MAX) {
		*v = (int64_t)o->via.u64;
		return 0;
	}
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*v = o->via.i64;
		return 0;
	}
	return -1;
}

/* Largest time (and |clock offset|) an event may carry, ns: 2^60 (36
 * years of a node's uptime), so that the analysis's sums and differences
 * of a few of them cannot overflow (a trace file is read from anywhere;
 * a node is not trusted either). */
#define CON_EV_T_MAX ((int64_t)1 << 60)

/* True if v fits an int32. */
static int con_ev_i32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* Decodes [seq, kind, op, t_ns, delta_ns, file, func, line, peer, tag,
 * bytes, result, aux, comm, ref] into *e (comm and ref 0 when the event
 * has only the first 13; integers after the 15th are ignored).  0 or -1
 * with err. */
static int con_ev_decode(const msgpack_object *o, wire_ev *e, char *err,
			 size_t errlen)
{
	int64_t v[CON_EV_FIELDS] = {0};
	uint32_t i, n;

	if (o->type != MSGPACK_OBJECT_ARRAY ||
	    o->via.array.size < CON_EV_FIELDS_MIN) {
		snprintf(err, errlen, "event is not an array of %d to %d "
			 "integers", CON_EV_FIELDS_MIN, CON_EV_FIELDS);
		return -1;
	}
	n = o->via.array.size < CON_EV_FIELDS ? o->via.array.size
					       : CON_EV_FIELDS;
	for (i = 0; i < n; i++)
		if (con_ev_int(&o->via.array.ptr[i], &v[i]) < 0) {
			snprintf(err, errlen, "event field %u is not an "
				 "integer", i);
			return -1;
		}
	if (v[0] < 0 || v[1] < 1 || v[1] > PVT_EV_KIND_MAX || v[2] < 0 ||
	    v[2] > 255 || v[3] < 0 || v[3] > CON_EV_T_MAX || v[4] < 0 ||
	    v[4] > CON_EV_T_MAX || v[5] < 0 ||
	    v[5] > UINT32_MAX || v[6] < 0 || v[6] > UINT32_MAX ||
	    !con_ev_i32(v[7]) || !con_ev_i32(v[8]) || !con_ev_i32(v[9]) ||
	    !con_ev_i32(v[11]) || !con_ev_i32(v[12]) || v[13] < 0 ||
	    v[13] > UINT32_MAX || v[14] < 0 || v[14] > UINT32_MAX) {
		snprintf(err, errlen, "event seq %lld: a field is out of "
			 "range", (long long)v[0]);
		return -1;
	}
	e->seq = (uint64_t)v[0];
	e->kind = (uint16_t)v[1];
	e->op = (uint16_t)v[2];
	e->t_ns = (uint64_t)v[3];
	e->delta_ns = (uint64_t)v[4];
	e->file = (uint32_t)v[5];
	e->func = (uint32_t)v[6];
	e->line = (int32_t)v[7];
	e->peer = (int32_t)v[8];
	e->tag = (int32_t)v[9];
	e->bytes = v[10];
	e->result = (int32_t)v[11];
	e->aux = (int32_t)v[12];
	e->comm = (uint32_t)v[13];
	e->ref = (uint32_t)v[14];
	return 0;
}

/* ---- activity --------------------------------------------------------- */

/* What s is doing. */
int con_ev_activity(const con_ev_src *s)
{
	if (s->state.ended || s->state.open_kind == 0)
		return CON_EV_COMPUTING;
	if (s->state.open_kind == PVT_EV_SEND_START ||
	    s->state.open_kind == PVT_EV_MCAST_START)
		return CON_EV_COMMUNICATING;
	return CON_EV_WAITING;
}

/* Name of an activity. */
const char *con_ev_activity_name(int activity)
{
	static const char *const w[] = {"computing", "communicating",
					"waiting"};

	return activity >= 0 && activity <= CON_EV_WAITING ? w[activity] : "?";
}

/* ---- batches, strings, losses ----------------------------------------- */

/* Puts e into the ring (or the sink) at the next decoded number, and
 * notes its time.  0, or -1 when out of memory. */
static int con_ev_put(const con_ev_rec *e)
{
	con_ev_rec *slot;

	if (con_ev.sink != NULL) {
		if (con_ev.sink(e, con_ev.sink_ctx) < 0)
			return -1;
	} else {
		slot = con_ev_slot();
		if (slot == NULL)
			return -1;
		*slot = *e;
		con_ev.count++;
	}
	if (!con_ev.any) {
		con_ev.any = 1;
		con_ev.t0_con_ns = e->t_con_ns;
		con_ev.lo_ns = con_ev.hi_ns = e->t_con_ns;
	}
	if (e->t_con_ns < con_ev.lo_ns)
		con_ev.lo_ns = e->t_con_ns;
	if (e->t_con_ns > con_ev.hi_ns)
		con_ev.hi_ns = e->t_con_ns;
	return 0;
}

/* The canonical event w as a stored one in *e.  0 or -1 with err when
 * its kind or op is out of range. */
static int con_ev_from_wire(const wire_ev *w, con_ev_rec *e, char *err,
			    size_t errlen)
{
	if (w->kind < 1 || w->kind > PVT_EV_KIND_MAX || w->op > 255 ||
	    w->seq > INT64_MAX || w->t_ns > CON_EV_T_MAX ||
	    w->delta_ns > CON_EV_T_MAX) {
		snprintf(err, errlen, "event seq %llu: a field is out of "
			 "range", (unsigned long long)w->seq);
		return -1;
	}
	e->seq = w->seq;
	e->t_con_ns = 0;
	e->src = 0;
	e->kind = w->kind;
	e->op = w->op;
	e->t_ns = w->t_ns;
	e->delta_ns = w->delta_ns;
	e->file = w->file;
	e->func = w->func;
	e->line = w->line;
	e->peer = w->peer;
	e->tag = w->tag;
	e->bytes = w->bytes;
	e->result = w->result;
	e->aux = w->aux;
	e->comm = w->comm;
	e->ref = w->ref;
	return 0;
}

/* Reading a batch, whichever its form: an array of 15-integer arrays
 * (format 1), a bin of 72-byte records (wire_ev.h) or a packed bin in
 * either of wire_evpk.h's forms. */
typedef struct con_ev_cur {
	const msgpack_object *o; /* the batch */
	uint32_t i;              /* the next event's index (not packed) */
	int packed;              /* read through pk */
	wire_evpk_dec pk;
} con_ev_cur;

/* Starts reading events: their number, or -1 with err when it is none
 * of the three forms. */
static int64_t con_ev_batch_open(con_ev_cur *c, const msgpack_object *events,
				 char *err, size_t errlen)
{
	uint64_t n;

	c->o = events;
	c->i = 0;
	c->packed = 0;
	if (events->type == MSGPACK_OBJECT_ARRAY)
		return events->via.array.size;
	if (events->type == MSGPACK_OBJECT_BIN &&
	    wire_evpk_is(events->via.bin.ptr, events->via.bin.size)) {
		if (wire_evpk_open(&c->pk, events->via.bin.ptr,
				   events->via.bin.size, &n) != 0 ||
		    n > UINT32_MAX) {
			snprintf(err, errlen, "NODE_EVENTS: a packed batch "
				 "whose count is cut or larger than its "
				 "bytes");
			return -1;
		}
		c->packed = 1;
		return (int64_t)n;
	}
	if (events->type == MSGPACK_OBJECT_BIN &&
	    events->via.bin.size % WIRE_EV_SIZE == 0)
		return events->via.bin.size / WIRE_EV_SIZE;
	snprintf(err, errlen, "NODE_EVENTS: events is neither an array nor "
		 "a bin of %d-byte records nor a packed bin", WIRE_EV_SIZE);
	return -1;
}

/* The next event of a batch con_ev_batch_open counted (the caller reads
 * no more than that) into *w.  0 or -1 with err. */
static int con_ev_batch_next(con_ev_cur *c, wire_ev *w, char *err,
			     size_t errlen)
{
	if (c->packed) {
		if (wire_evpk_next(&c->pk, w) != 1) {
			snprintf(err, errlen, "NODE_EVENTS: packed event %u "
				 "is cut or malformed", c->i);
			return -1;
		}
		c->i++;
		return 0;
	}
	if (c->o->type == MSGPACK_OBJECT_BIN) {
		wire_ev_get((const unsigned char *)c->o->via.bin.ptr +
			    (size_t)c->i++ * WIRE_EV_SIZE, w);
		return 0;
	}
	return con_ev_decode(&c->o->via.array.ptr[c->i++], w, err, errlen);
}

/* The end of a batch read to its count: 0, or -1 with err when a packed
 * one has bytes left. */
static int con_ev_batch_close(con_ev_cur *c, char *err, size_t errlen)
{
	wire_ev w;

	if (c->packed && wire_evpk_next(&c->pk, &w) != 0) {
		snprintf(err, errlen, "NODE_EVENTS: bytes after the last of "
			 "%u packed events", c->i);
		return -1;
	}
	return 0;
}

/* Sets the note con_ev_take_error gives. */
static void con_ev_note(const con_ev_src *s, const char *why)
{
	snprintf(con_ev.err, sizeof con_ev.err, "%s p%d: %s", s->node,
		 s->pid_id, why);
	con_ev.err_new = 1;
}

/* Stores the n events of batch c of source s (index idx) one by one,
 * decoded; duplicates are counted and dropped.  The number stored, or
 * a code with err (those before the error stay stored). */
static int con_ev_add_each(con_ev_src *s, uint32_t idx, con_ev_cur *c,
			   int64_t n, int64_t offset_ns, char *err,
			   size_t errlen)
{
	wire_evcnt cnt = {0};
	con_ev_rec e;
	wire_ev w;
	int64_t i;
	int stored = 0, rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		if (con_ev_batch_next(c, &w, err, errlen) < 0 ||
		    con_ev_from_wire(&w, &e, err, errlen) < 0) {
			rc = WIRE_EMALFORMED;
		} else if (e.seq < s->next_seq) {
			s->st.dups++;
		} else {
			e.src = idx;
			e.t_con_ns = (int64_t)e.t_ns - offset_ns;
			if (con_ev_put(&e) < 0) {
				snprintf(err, errlen, "out of memory");
				rc = WIRE_ENOMEM;
				break;
			}
			con_ev.next++;
			s->next_seq = e.seq + 1;
			wire_evsum_add(&cnt, &s->state, &w);
			stored++;
		}
	}
	wire_evcnt_add(&s->st.n, &cnt);
	if (rc == 0 && con_ev_batch_close(c, err, errlen) < 0)
		rc = WIRE_EMALFORMED;
	return rc < 0 ? rc : stored;
}

/* Forgets the oldest pending batches while the others hold the ring's
 * maximum: the ring's events, older still, go first.  All counted in
 * con_ev_dropped. */
static void con_ev_pend_trim(void)
{
	con_ev_pend *b;
	uint64_t left;

	while ((b = con_ev.pend) != NULL && b->next != NULL &&
	       con_ev.pend_n - (left = b->n - b->done) >= con_ev_max()) {
		con_ev.dropped += con_ev.count + left;
		con_ev.count = 0;
		con_ev.pend_n -= left;
		con_ev.pend = b->next;
		free(b);
	}
}

/* The batch events (packed, n events) of source s (index idx) stored by
 * its summary (see the top of the file).  The number stored (0: all
 * were duplicates), CON_EV_DECODE when it is to be decoded instead (it
 * is partly a duplicate, or the first batch, whose first event gives
 * the console's zero of time), or WIRE_ENOMEM. */
static int con_ev_add_pending(con_ev_src *s, uint32_t idx,
			      const msgpack_object *events, uint64_t n,
			      const msgpack_object *summary,
			      int64_t offset_ns)
{
	wire_evstate st;
	wire_evcnt cnt;
	uint64_t first;
	con_ev_pend *b;
	char why[200];

	if (wire_evsum_unpack(summary, n, &first, &cnt, &st, why,
			      sizeof why) != 0) {
		con_ev_note(s, why); /* (the events may still be good) */
		return CON_EV_DECODE;
	}
	if (first + n <= s->next_seq) {
		s->st.dups += n;
		return 0;
	}
	if (first < s->next_seq || con_ev.sink != NULL || n > INT32_MAX ||
	    (!con_ev.any && con_ev.pend == NULL))
		return CON_EV_DECODE;
	b = malloc(sizeof *b + events->via.bin.size);
	if (b == NULL)
		return WIRE_ENOMEM;
	b->next = NULL;
	b->idx = idx;
	b->offset_ns = offset_ns;
	b->first = first;
	b->n = n;
	b->done = 0;
	b->len = events->via.bin.size;
	memcpy(b->pk, events->via.bin.ptr, b->len);
	if (con_ev.pend_tail != NULL)
		con_ev.pend_tail->next = b;
	else
		con_ev.pend = b;
	con_ev.pend_tail = b;
	con_ev.next += n;
	con_ev.pend_n += n;
	s->next_seq = first + n;
	s->state = st;
	wire_evcnt_add(&s->st.n, &cnt);
	con_ev_pend_trim();
	return (int)n;
}

int con_ev_add_batch(const char *node, uint32_t proc, int pid_id,
		     int64_t offset_ns, const msgpack_object *events,
		     const msgpack_object *summary, char *err, size_t errlen)
{
	con_ev_src *s;
	con_ev_cur c;
	uint32_t idx;
	int64_t n;
	int r;

	con_ev.last_ns = wire_now_ns();
	n = con_ev_batch_open(&c, events, err, errlen);
	if (n < 0)
		return WIRE_EMALFORMED;
	if (offset_ns > CON_EV_T_MAX || offset_ns < -CON_EV_T_MAX) {
		snprintf(err, errlen, "NODE_EVENTS: clock offset %lld ns is "
			 "out of range", (long long)offset_ns);
		return WIRE_EMALFORMED;
	}
	s = con_ev_src_get(node, proc, pid_id, &idx);
	if (s == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	if (summary != NULL && c.packed) {
		r = con_ev_add_pending(s, idx, events, (uint64_t)n, summary,
				       offset_ns);
		if (r != CON_EV_DECODE) {
			if (r == WIRE_ENOMEM)
				snprintf(err, errlen, "out of memory");
			return r;
		}
	}
	if (con_ev_settle() < 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	return con_ev_add_each(s, idx, &c, n, offset_ns, err, errlen);
}

/* Takes the events of pending batch b after the bad one (event i; why)
 * out of the arrival numbers and the counters, with a note. */
static void con_ev_settle_bad(con_ev_pend *b, uint64_t i, const char *why)
{
	con_ev_src *s = con_ev.srcs[b->idx];
	uint64_t missing = b->n - b->done;
	char note[220];

	con_ev.next -= missing;
	con_ev.pend_n -= missing;
	s->st.n.events -= missing < s->st.n.events ? missing
						   : s->st.n.events;
	snprintf(note, sizeof note, "%s (event %llu of a batch of %llu): "
		 "%llu events not stored", why, (unsigned long long)i,
		 (unsigned long long)b->n, (unsigned long long)missing);
	con_ev_note(s, note);
}

/* Decodes pending batch b into the ring.  0 (a malformed batch is dealt
 * with by con_ev_settle_bad), or -1 when out of memory (b->done says
 * how far it got). */
static int con_ev_settle_one(con_ev_pend *b)
{
	msgpack_object o;
	con_ev_cur c;
	con_ev_rec e;
	wire_ev w;
	char why[160];
	uint64_t i;

	o.type = MSGPACK_OBJECT_BIN;
	o.via.bin.ptr = (const char *)b->pk;
	o.via.bin.size = (uint32_t)b->len;
	if (con_ev_batch_open(&c, &o, why, sizeof why) != (int64_t)b->n) {
		con_ev_settle_bad(b, 0, "NODE_EVENTS: the packed batch does "
				  "not hold the events its summary counts");
		return 0;
	}
	for (i = 0; i < b->n; i++) {
		if (con_ev_batch_next(&c, &w, why, sizeof why) < 0 ||
		    con_ev_from_wire(&w, &e, why, sizeof why) < 0) {
			con_ev_settle_bad(b, i, why);
			return 0;
		}
		if (w.seq != b->first + i) {
			con_ev_settle_bad(b, i, "NODE_EVENTS: an event's seq "
					  "is not the one its summary gives");
			return 0;
		}
		if (i < b->done)
			continue; /* (stored before memory ran out) */
		e.src = b->idx;
		e.t_con_ns = (int64_t)e.t_ns - b->offset_ns;
		if (con_ev_put(&e) < 0)
			return -1;
		b->done++;
		con_ev.pend_n--;
	}
	if (con_ev_batch_close(&c, why, sizeof why) < 0)
		con_ev_note(con_ev.srcs[b->idx], why); /* events all kept */
	return 0;
}

/* Decodes every pending batch, oldest first.  0, or -1 when out of
 * memory (the rest stay pending). */
static int con_ev_settle(void)
{
	con_ev_pend *b;

	while ((b = con_ev.pend) != NULL) {
		if (con_ev_settle_one(b) < 0)
			return -1;
		con_ev.pend = b->next;
		if (con_ev.pend == NULL)
			con_ev.pend_tail = NULL;
		free(b);
	}
	return 0;
}

const char *con_ev_take_error(void)
{
	if (!con_ev.err_new)
		return NULL;
	con_ev.err_new = 0;
	return con_ev.err;
}

/* Makes room for ids below want in s's string table.  0 or -1. */
static int con_ev_strs_grow(con_ev_src *s, size_t want)
{
	char **v;

	if (want <= s->nstrs)
		return 0;
	v = realloc(s->strs, want * sizeof *v);
	if (v == NULL)
		return -1;
	memset(v + s->nstrs, 0, (want - s->nstrs) * sizeof *v);
	s->strs = v;
	s->nstrs = want;
	return 0;
}

/* EVENT_STRINGS: names of ids first.. of (node, proc). */
int con_ev_strings(const char *node, uint32_t proc, int pid_id,
		   uint64_t first, const msgpack_object *strings, char *err,
		   size_t errlen)
{
	const msgpack_object *o;
	con_ev_src *s;
	uint32_t i, idx;

	con_ev.last_ns = wire_now_ns();
	if (strings->type != MSGPACK_OBJECT_ARRAY || first == 0 ||
	    first + strings->via.array.size > CON_EV_STRS_MAX) {
		snprintf(err, errlen, "EVENT_STRINGS: ids %llu.. out of range",
			 (unsigned long long)first);
		return WIRE_EMALFORMED;
	}
	s = con_ev_src_get(node, proc, pid_id, &idx);
	if (s == NULL ||
	    con_ev_strs_grow(s, first + strings->via.array.size) < 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	for (i = 0; i < strings->via.array.size; i++) {
		o = &strings->via.array.ptr[i];
		if (o->type != MSGPACK_OBJECT_STR)
			continue;
		free(s->strs[first + i]);
		s->strs[first + i] = strndup(o->via.str.ptr, o->via.str.size);
	}
	return 0;
}

/* EVENTS_WAITED: counted on the source. */
void con_ev_waited(const char *node, uint32_t proc, int pid_id,
		   uint64_t waits, uint64_t us)
{
	uint32_t idx;
	con_ev_src *s = con_ev_src_get(node, proc, pid_id, &idx);

	if (s != NULL) {
		s->st.waits += waits;
		s->st.wait_us += us;
	}
}

/* EVENTS_LOST: counted on the source. */
void con_ev_lost(const char *node, uint32_t proc, int pid_id,
		 uint64_t count)
{
	uint32_t idx;
	con_ev_src *s = con_ev_src_get(node, proc, pid_id, &idx);

	if (s != NULL)
		s->st.lost += count;
}

/* ---- readers ---------------------------------------------------------- */

/* Arrival number of the next event. */
uint64_t con_ev_next(void)
{
	return con_ev.next;
}

/* Arrival number of the oldest stored event. */
uint64_t con_ev_oldest(void)
{
	(void)con_ev_settle();
	return con_ev_dec() - con_ev.count;
}

/* Events forgotten. */
uint64_t con_ev_dropped(void)
{
	(void)con_ev_settle();
	return con_ev.dropped;
}

/* Console time of the first event. */
int64_t con_ev_t0(void)
{
	(void)con_ev_settle();
	return con_ev.t0_con_ns;
}

/* When the last batch arrived. */
uint64_t con_ev_last_arrival(void)
{
	return con_ev.last_ns;
}

/* The event numbered num, or NULL. */
const con_ev_rec *con_ev_get(uint64_t num)
{
	if (num >= con_ev_dec() && num < con_ev.next)
		(void)con_ev_settle();
	if (num >= con_ev_dec() || num < con_ev_oldest())
		return NULL;
	return &con_ev.ring[num % con_ev.cap];
}

/* Number of sources. */
size_t con_ev_nsrcs(void)
{
	return con_ev.nsrcs;
}

/* Source i. */
con_ev_src *con_ev_src_at(size_t i)
{
	return i < con_ev.nsrcs ? con_ev.srcs[i] : NULL;
}

/* Sums every source's counters. */
void con_ev_totals(con_ev_stats *t)
{
	const con_ev_stats *s;
	size_t i;

	memset(t, 0, sizeof *t);
	for (i = 0; i < con_ev.nsrcs; i++) {
		s = &con_ev.srcs[i]->st;
		wire_evcnt_add(&t->n, &s->n);
		t->lost += s->lost;
		t->waits += s->waits;
		t->wait_us += s->wait_us;
		t->dups += s->dups;
	}
}

/* A string of s by id. */
const char *con_ev_str(const con_ev_src *s, uint32_t id)
{
	if (s == NULL || id == 0 || id >= s->nstrs || s->strs[id] == NULL)
		return "?";
	return s->strs[id];
}
