/*
 * dmn_event_int.h — internals of the event relay shared by dmn_event.c
 * (records, sending, rings, the entry points) and dmn_evq.c (the
 * session's queue: memory, then the spill file; per-process state).  Not for other
 * modules.
 */
#ifndef PARAVT_DMN_EVENT_INT_H
#define PARAVT_DMN_EVENT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "dmn_event.h"
#include "dmn_ring.h"
#include "dmn_share.h"
#include "wire_buf.h"
#include "wire_evsum.h"

#define DMN_EV_SCRATCH (8u << 20) /* largest packed batch */
#define DMN_EV_REC_MAX (16u << 20) /* largest spill record accepted */
#define DMN_EV_HDR 32             /* room for a batch's header fields */
#define DMN_EV_SUM 256            /* room for its summary (wire_evsum.h) */

/* What a process has sent so far, by its daemon process number. */
typedef struct dmn_evproc {
	struct dmn_evproc *next; /* list of w->evq */
	uint64_t num;            /* process number */
	uint64_t next_seq;       /* seq expected in its next EVENTS */
	int refused;             /* layout version unknown: events dropped */
	char **str;              /* names by id - 1; owned */
	uint32_t nstr;           /* names known */
	uint32_t cap;            /* slots in str */
	uint32_t sent_str;       /* names the current controller has */
	uint64_t queued;         /* items of it in the queue */
	int gone;                /* the process ended */
	dmn_ring ring;           /* its shared-memory ring (ring.h NULL:
	                            none, its records come as EVENTS) */
	uint64_t drained_ns;     /* when the drain timer last drained it */
	wire_evstate state;      /* what its events say so far (sent with
	                            each batch) */
	dmn_share share;         /* paravt's share of its CPU wait, added
	                            to its events' delta_ns */
} dmn_evproc;

/* One queued frame. */
typedef struct dmn_evitem {
	struct dmn_evitem *next; /* next newer item in memory */
	uint32_t type;           /* WIRE_NODE_EVENTS or WIRE_EVENTS_LOST */
	uint32_t nf;             /* fields in raw */
	uint64_t batch;          /* NODE_EVENTS: its batch; LOST: 0 */
	uint64_t proc;           /* process it is about */
	int sent;                /* written to the current controller */
	int once;                /* LOST: written to some controller */
	size_t len;              /* bytes in raw */
	unsigned char raw[];     /* packed fields */
} dmn_evitem;

struct dmn_evq {
	dmn_work *w;             /* the daemon's work state; borrowed */
	dmn_sess *sess;          /* the session it belongs to; borrowed */
	size_t mem_cap;          /* bytes of items kept in memory */
	uint64_t spill_cap;      /* largest spill file */
	dmn_evitem *head, *tail; /* items in memory, oldest first */
	dmn_evitem *cursor;      /* first item not sent, NULL = all sent */
	size_t mem;              /* bytes of items in memory */
	uint64_t mem_batches;    /* NODE_EVENTS items among them */
	int sfd;                 /* spill file, -1 until needed */
	char spath[DMN_PATH_MAX]; /* its path */
	uint64_t srd, swr;       /* spill read and write offsets */
	uint64_t batch;          /* last batch number handed out */
	dmn_evproc *procs;       /* per-process state */
	wire_buf scratch;        /* packing buffer */
	long timer;              /* pump timer, or 0 */
	long ring_timer;         /* drain timer while rings are mapped, or 0 */
	unsigned ring_ms;        /* the next drain's delay (ev_ring_timer) */
	uint64_t tick0, tick1;   /* node times the last drain ran from and
	                            to (the CPU share's window) */
	int dropping;            /* the spill file is full (for the log) */
	int final;               /* an unbounded ring drain: the spill
	                            file takes it past its cap */
	uint64_t n_events, n_batches, n_spilled, n_dropped, n_gap, n_acked;
	uint64_t con_seen;       /* the console's last CONSOLE_CPU figure */
	uint64_t con_new;        /* ... its growth not shared out yet, ns */
	uint64_t con_total;      /* all it reported (for the log), ns */
	dmn_share_pool daemon_cpu, con_cpu; /* the daemon's and the
	                            console's time at the samples
	                            (dmn_share.h) */
};

/* The state of process num in q (made when make and missing), or NULL
 * (dmn_evq.c). */
dmn_evproc *dmn_ev_proc(dmn_evq *q, uint64_t num, int make);
/* Frees e once its process ended and nothing of it is queued. */
void dmn_ev_proc_check(dmn_evq *q, dmn_evproc *e);
/* Adds a copy of name s to e's table.  0 or -1 out of memory. */
int dmn_ev_proc_name(dmn_evproc *e, const char *s);

/* msgpack write callback into a wire_buf (data). */
int dmn_ev_buf_write(void *data, const char *buf, size_t len);
/* A new item of type with nf packed fields, the n bytes at raw, for
 * batch and proc.  NULL when out of memory. */
dmn_evitem *dmn_ev_item(uint32_t type, uint32_t nf, uint64_t batch,
                        uint64_t proc, const void *raw, size_t n);
/* Queues it: in memory while there is room, else in the spill file,
 * else dropped and counted.  0, or -1 when dropped (freed). */
int dmn_ev_push(dmn_evq *q, dmn_evitem *it);
/* Takes the oldest item out of the queue (acknowledged). */
void dmn_ev_pop(dmn_evq *q);
/* Moves what the spill file holds into memory as room allows. */
void dmn_ev_refill(dmn_evq *q);

#endif
