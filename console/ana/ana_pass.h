/*
 * ana_pass.h — internals shared by the analysis passes (ana_match.c,
 * ana_comp.c, ana_order.c, ana_sort.c; implemented in ana_pass.c,
 * ana_pass_group.c and ana_pass_walk.c).  Not part of the ana.h API.
 *
 * - Classification of END events: which are point-to-point sends,
 *   receives that got a message, multicasts, synchronising group calls
 *   (pvt_event.h says what the wrappers record; a failed call is none of
 *   them).
 * - ana_ctx: what every pass needs once per run: the global numbering of
 *   events (base[p] + idx), the START of every END (start_of), the tid ->
 *   process map and the PVM group instances (who is instance k of a
 *   group).
 * - ana_walk: a traversal of all events in which every receive END comes
 *   after its matched send's (or multicast's) START, and every group END
 *   after
 *   the STARTs of the members it waits for (per-process cursors and a
 *   ready list; a process blocked on another is woken when that one
 *   advances; a blocked group END's check resumes where it stopped).
 * - ana_ginst: the members' STARTs of a group instance taken once per
 *   instance, not once per member.
 * - The passes in parts (ana_*_run, ana_*_begin/visit/end) so that
 *   ana_analyze builds one context and walks once for compensation and
 *   the logical clock together.
 */
#ifndef PARAVT_ANA_PASS_H
#define PARAVT_ANA_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ana.h"

/* How the members of a group call wait for each other. */
enum ana_gmode {
	ANA_G_NONE = 0,  /* not a synchronising group call */
	ANA_G_ALL,       /* everyone waits for everyone (barrier, allreduce) */
	ANA_G_TO_ROOT,   /* the root waits for all (reduce, gather) */
	ANA_G_FROM_ROOT  /* the others wait for the root (bcast, scatter) */
};

/* A successful point-to-point send END (every PVM and MPI send, the
 * send half of MPI_Sendrecv, a persistent send's start) or one
 * destination of a pvm_mcast (MCAST_DEST). */
bool ana_is_send(const ana_ev *e);
/* A receive END that got a message (not a probe, not a failed or empty
 * pvm_nrecv/trecv, not MPI_PROC_NULL). */
bool ana_is_recv(const ana_ev *e);
/* A successful PVM multicast END (pvm_mcast, pvm_bcast: the receivers'
 * ends are ordinary receives). */
bool ana_is_mcast(const ana_ev *e);
/* The group mode of a successful group END (the op's class in
 * pvt_event.h), ANA_G_NONE for anything else. */
int ana_group_mode(const ana_ev *e);
/* The START of the send (or multicast, or multicast destination) END
 * send, found by looking back at most ANA_START_SCAN events past the
 * multicast's destinations; send itself when there is none.  For code
 * without an ana_ctx (its start_of says the same). */
#define ANA_START_SCAN 8
ana_ref ana_send_start(const ana_trace *tr, ana_ref send);
/* What tells the instances of a group call apart besides their order in
 * each process: its op and its MPI communicator or PVM group name. */
uint64_t ana_group_key(const ana_ev *e);
/* A START or END another process's constraint refers to (send and
 * multicast ENDs, receive ENDs, group STARTs and ENDs). */
bool ana_is_comm(const ana_ev *e);

/* A map from 64-bit keys to dense indices 0, 1, ... (a key is given the
 * next index the first time it is asked for).  Zero-initialised. */
typedef struct ana_kmap {
	uint64_t *key;
	uint32_t *val;       /* ANA_NONE: empty */
	uint32_t cap, n;
	uint32_t last;       /* slot of the newest key */
} ana_kmap;

/* The index of key in *idx; a new key gets next.  0 or ANA_ENOMEM. */
int ana_kmap_get(ana_kmap *m, uint64_t key, uint32_t next, uint32_t *idx);
/* Forgets the key the last ana_kmap_get added (its index was not used). */
void ana_kmap_del_last(ana_kmap *m);
void ana_kmap_free(ana_kmap *m);

/* Asks the kernel for huge pages on a large fresh array (fewer page
 * faults when it is first written); a hint, nothing if unsupported. */
void ana_big_hint(void *p, size_t n);

/* One tid -> process entry of ana_ctx.tids (sorted by tid). */
typedef struct ana_tidp {
	int32_t tid;
	uint32_t proc;
} ana_tidp;

/* A PVM task's membership of a group (pvm_joingroup). */
typedef struct ana_join {
	uint32_t ref;        /* the group's name (string id) */
	int32_t inst;        /* its instance in the group */
	uint32_t proc;       /* the process */
} ana_join;

typedef struct ana_ctx {
	ana_trace *tr;
	uint64_t *base;      /* [nprocs + 1]: global index of (p, 0) */
	uint64_t n;          /* events in all */
	uint32_t *start_of;  /* [n]: END -> index of its START in the same
				process (a MCAST_DEST: its multicast's
				START), ANA_NONE (also for other events) */
	ana_tidp *tids;      /* [ntids] sorted */
	uint32_t ntids;
	ana_join *joins;     /* [njoins] sorted by group, instance */
	uint32_t njoins, jcap;
} ana_ctx;

/* Builds the context of tr; with reset (the start of matching), the flags
 * and match of every event are cleared and STARTs without an END get
 * ANA_F_OPEN.  0 or ANA_ENOMEM (c is then freed). */
int ana_ctx_init(ana_ctx *c, ana_trace *tr, int reset);
void ana_ctx_free(ana_ctx *c);

/* The process of tid, or ANA_NONE. */
uint32_t ana_ctx_proc(const ana_ctx *c, int32_t tid);

/* The START of END (p, i), or NULL. */
static inline ana_ev *ana_ctx_start(const ana_ctx *c, uint32_t p,
				    uint32_t i)
{
	uint32_t s = c->start_of[c->base[p] + i];

	return s == ANA_NONE ? NULL : &c->tr->procs[p].ev[s];
}

/* The root process of the group END e of process p (ANA_NONE when it has
 * none or cannot be told). */
uint32_t ana_ctx_root(const ana_ctx *c, const ana_ev *e);

/*
 * The traversal.  visit(ctx, p, i, forced) is called once for every event
 * in an order where the dependencies of (p, i) were visited first:
 *   - a receive END with a match: the START of the matched send or
 *     multicast (a message cannot be received before it is sent, but may
 *     be before the send call returns);
 *   - a group END: the STARTs of the members it waits for (its mode).
 * When the dependencies form a cycle (an inconsistent trace), one blocked
 * event is visited with forced = 1 and the walk goes on.  0 or ANA_ENOMEM.
 */
typedef void (*ana_visit_fn)(void *arg, uint32_t p, uint32_t i, int forced);
int ana_walk(const ana_ctx *c, ana_visit_fn visit, void *arg);

/* ana_walk with one more dependency per event: dep(dep_arg, p, i) names
 * an event of another process that (p, i) must come after, or gives
 * ANA_NONE as proc for none.  Dependencies the recorded run contradicts
 * make cycles, which are broken as above. */
typedef ana_ref (*ana_dep_fn)(void *dep_arg, uint32_t p, uint32_t i);
int ana_walk_dep(const ana_ctx *c, ana_dep_fn dep, void *dep_arg,
		 ana_visit_fn visit, void *arg);

/* Calls fn(arg, member END) for every other member of the group instance
 * of END (p, i) that END waits for under its mode (ana_group_waits: all,
 * the root, or nobody), in ring order, until fn returns nonzero.  resume
 * (may be NULL): where to start in the ring (ANA_NONE: at the beginning);
 * set to the member fn stopped at, or to ANA_NONE when it went round.
 * Returns how many members fn was called for. */
typedef int (*ana_member_fn)(void *arg, ana_ref member);
uint32_t ana_group_waits(const ana_ctx *c, uint32_t p, uint32_t i,
			 ana_ref *resume, ana_member_fn fn, void *arg);

/*
 * Group instances seen from one sweep in per-process order (the k-th
 * group END of an op in a process is instance k, as ana_match made the
 * rings): the value of the members' STARTs an END waits for, worked out
 * once per instance (one trip round the ring) instead of once per member.
 * val gives the value of a START (its t, c or o); a value is taken when
 * the first member's END asks, so by then the STARTs it waits for must
 * have their value (ana_walk sees to that).
 */
typedef int64_t (*ana_val_fn)(const ana_ev *start);
typedef struct ana_ginst ana_ginst;

/* A new set for c, or NULL (out of memory); free with ana_ginst_free. */
ana_ginst *ana_ginst_new(const ana_ctx *c, ana_val_fn val);
void ana_ginst_free(ana_ginst *g);

/* For group END (p, i) (every group END of p must be passed, in order):
 * true if it waits for another member (ana_group_waits' rule), with *v
 * the largest value of the STARTs it waits for and *mine the value of its
 * own START. */
bool ana_ginst_waits(ana_ginst *g, uint32_t p, uint32_t i, int64_t *v,
		     int64_t *mine);
/* Passes group END (p, i) without looking at values (a forced visit). */
void ana_ginst_pass(ana_ginst *g, uint32_t p, uint32_t i);
/* Starts a new sweep, keeping what was worked out (for values that do
 * not change, such as t). */
void ana_ginst_rewind(ana_ginst *g);

/*
 * The passes on a context built by the caller (ana_analyze builds one for
 * all three; the public ana_match, ana_compensate and ana_order one each).
 * ana_match_run needs a context built with reset, and ana_clear_results
 * (the summary) before.
 */
void ana_clear_results(ana_trace *tr);
int ana_match_run(ana_ctx *c);
int ana_comp_run(ana_ctx *c, const ana_opts *o);
int ana_order_run(ana_ctx *c, const ana_opts *o);

/* The same in parts, so that ana_analyze visits each event once for both
 * (ana_comp_begin first: it sets sum.l_min_ns, which ana_order_begin
 * reads).  begin: 0 or ANA_ENOMEM, *state for visit and end (end frees
 * it, NULL is fine; ok: the walk succeeded, set the stage). */
int ana_comp_begin(ana_ctx *c, const ana_opts *o, void **state);
void ana_comp_visit(void *state, uint32_t p, uint32_t i, int forced);
void ana_comp_end(void *state, int ok);
int ana_order_begin(ana_ctx *c, const ana_opts *o, void **state);
void ana_order_visit(void *state, uint32_t p, uint32_t i, int forced);
void ana_order_end(void *state, int ok);

#endif
