/*
 * pvt_mpi.h — what the files of the MPI wrapper library (libparavt_mpi:
 * pvt_mpi.c, pvt_mpi_cal.c, pvt_mpi_p2p.c, pvt_mpi_wait.c,
 * pvt_mpi_coll.c, pvt_mpi_comm.c, pvt_mpi_map.c) share.  Internal: every
 * name is pvt__mpi_*.
 *
 * The wrappers are a PMPI profiling library: each MPI_X records events
 * (pvt_event.h, through rt_event.h) and calls PMPI_X.  What they need
 * besides the event buffer:
 *   - communicators (pvt_mpi_comm.c): an id per communicator that is the
 *     same on every member, so that the console matches messages and
 *     collective instances per communicator, and the translation of its
 *     ranks (local and, for an intercommunicator, remote group) to
 *     MPI_COMM_WORLD ranks, worked out once when it is created;
 *   - requests (pvt_mpi_wait.c): what a nonblocking or persistent request
 *     that completes later must record then (a receive's END, a
 *     nonblocking collective's END, a persistent request's next start);
 *   - a map from MPI handles to those (pvt_mpi_map.c), growable, and a
 *     pool of request entries that are never moved.
 * None of them has a fixed limit: a table that fills grows, and when
 * memory runs out the call is still made and the event says what is not
 * known (-1), never the wrong thing.
 */
#ifndef PARAVT_PVT_MPI_H
#define PARAVT_PVT_MPI_H

#include <stdint.h>

#include <mpi.h>

#include "rt_event.h"

/* ---- handle map (pvt_mpi_map.c) ---------------------------------------- */

/* A map from an MPI handle (its bytes, at most 8) to a pointer. */
typedef struct pvt__mpi_map {
	uint64_t *key;  /* [cap] keys */
	void **val;     /* [cap] values, NULL = empty slot */
	uint32_t cap;   /* slots, a power of two (0 before the first add) */
	uint32_t n;     /* slots used */
} pvt__mpi_map;

/* The key of a handle of size bytes. */
uint64_t pvt__mpi_key(const void *handle, size_t size);
/* The value of key, or NULL. */
void *pvt__mpi_map_get(const pvt__mpi_map *m, uint64_t key);
/* Sets key to val (not NULL), replacing an old value.  0, or -1 when
 * out of memory (nothing changed). */
int pvt__mpi_map_put(pvt__mpi_map *m, uint64_t key, void *val);
/* Removes key; returns its value or NULL. */
void *pvt__mpi_map_del(pvt__mpi_map *m, uint64_t key);

/* ---- calibration (pvt_mpi_cal.c) --------------------------------------- */

/* Times what the wrappers cost a call beyond their probes, into
 * *wrap_ns (added to Δ at every call's start): their own work, then
 * (with PARAVT_MPI_PAIR=1, in a world mpirun started) what they add to
 * a message's way between two ranks of one host, with the partner rank
 * (world rank ^ 1), which must call it too.  Inside MPI_Init, after
 * PMPI_Init, on every rank, tracing or not (tracing 0: only the partner's
 * exchange). */
void pvt__mpi_calibrate(int tracing, uint64_t *wrap_ns);

/* ---- communicators (pvt_mpi_comm.c) ------------------------------------ */

/* A communicator as the wrappers know it.  Entries are never freed (a
 * request may still refer to a communicator the program freed). */
typedef struct pvt__mpi_comm {
	uint32_t id;     /* the same on every member; 0 = MPI_COMM_WORLD */
	int inter;       /* an intercommunicator */
	int size;        /* local group size */
	int rsize;       /* remote group size (intercommunicator), else 0 */
	int32_t *world;  /* [size] local rank -> world rank; NULL: identity
			    or unknown (then world_ok says which) */
	int32_t *rworld; /* [rsize] remote rank -> world rank */
	int world_ok;    /* world is the identity (MPI_COMM_WORLD) */
} pvt__mpi_comm;

/* The communicator c (never NULL: an unknown one is worked out now, and
 * when memory runs out a shared entry whose ranks translate to -1). */
const pvt__mpi_comm *pvt__mpi_comm_of(MPI_Comm c);
/* Registers c, just created by this process in a collective creation,
 * and returns its id (0 for MPI_COMM_NULL). */
uint32_t pvt__mpi_comm_made(MPI_Comm c);
/* Forgets the handle c (MPI_Comm_free, MPI_Comm_disconnect: the handle
 * may come back for another communicator). */
void pvt__mpi_comm_gone(MPI_Comm c);
/* The world rank of the other side of a point-to-point call with rank
 * (the remote group's for an intercommunicator); -1 for MPI_ANY_SOURCE,
 * PVT_PEER_NULL for MPI_PROC_NULL, -1 when unknown. */
int32_t pvt__mpi_peer(const pvt__mpi_comm *ci, int rank);
/* The world rank of a collective's root argument: the caller itself for
 * MPI_ROOT, PVT_PEER_NULL for MPI_PROC_NULL, the remote group's rank on
 * an intercommunicator. */
int32_t pvt__mpi_root(const pvt__mpi_comm *ci, int root);
/* This process's rank in MPI_COMM_WORLD. */
int32_t pvt__mpi_self(void);
/* Which group of intercommunicator ci the caller is in: 0 for the group
 * holding the smaller world rank, 1 for the other (the same on every
 * member; recorded as the tag of its collectives' GROUP events, so that
 * the analysis tells the two groups apart); -1 for an
 * intracommunicator or when the ranks are unknown. */
int32_t pvt__mpi_side(const pvt__mpi_comm *ci);

/* ---- probes (pvt_mpi.c) ------------------------------------------------ */

/* Starts a probe at the call site the program recorded, if any
 * (paravt_mpi.h; the site serves this one call).  1 if tracing. */
int pvt__mpi_begin(pvt__ev_probe *pr, int kind, int op, int32_t peer,
		   int32_t tag, int64_t bytes, int32_t aux, uint32_t comm,
		   uint32_t ref);
/* Flushes the event buffer when records are pending (before a call that
 * waits for other processes). */
void pvt__mpi_flush(void);
/* Bytes of count items of type, or -1. */
int64_t pvt__mpi_bytes(int count, MPI_Datatype type);
/* Bytes a receive of items of type got, by its status st, or -1. */
int64_t pvt__mpi_got(const MPI_Status *st, MPI_Datatype type);

/* Starts the wrapper's own status *st as the caller's (when given), so
 * that the fields the call leaves alone (MPI_ERROR after a single
 * completion) reach the caller unchanged when st is copied back. */
static inline void pvt__mpi_status_in(MPI_Status *st, const MPI_Status *status)
{
	if (status != MPI_STATUS_IGNORE)
		*st = *status;
}
/* A new request id (1, 2, ...; 0 is "none"). */
uint32_t pvt__mpi_new_id(void);

/* ---- requests (pvt_mpi_wait.c) ----------------------------------------- */

/* What completing a request records. */
enum pvt__mpi_rkind {
	PVT__MPI_R_RECV = 1, /* a receive: RECV_END with the status */
	PVT__MPI_R_COLL,     /* a nonblocking collective: GROUP_END */
	PVT__MPI_R_IDUP,     /* MPI_Comm_idup: GROUP_END, the new
				communicator is registered */
	PVT__MPI_R_PSEND,    /* a persistent send: nothing (its message
				is recorded at MPI_Start) */
	PVT__MPI_R_PRECV     /* a persistent receive: RECV_END */
};

/* A request the wrappers follow. */
typedef struct pvt__mpi_req {
	struct pvt__mpi_req *next_free; /* pool free list */
	int kind;        /* enum pvt__mpi_rkind */
	int active;      /* persistent: started and not completed */
	uint16_t op;     /* the posting call (the completion's op) */
	uint32_t id;     /* ref of its records */
	const pvt__mpi_comm *ci; /* its communicator */
	MPI_Datatype type; /* receive datatype (byte count) */
	int32_t peer, tag; /* persistent: destination / source and tag */
	int64_t bytes;   /* persistent send, collective: bytes */
	int32_t root;    /* collective: root (world rank) or -1 */
	MPI_Comm *newcomm; /* MPI_Comm_idup: where the new one is */
} pvt__mpi_req;

/* Follows request r (a copy of *info is kept).  0, or -1 when out of
 * memory (the request is then not followed, and its completion not
 * recorded: the caller records an END now saying so). */
int pvt__mpi_req_add(MPI_Request r, const pvt__mpi_req *info);
/* The entry of r, or NULL. */
pvt__mpi_req *pvt__mpi_req_find(MPI_Request r);
/* Records the completion of e with status st (NULL: none) and error
 * err, then forgets a non-persistent request. */
void pvt__mpi_req_done(MPI_Request r, pvt__mpi_req *e, const MPI_Status *st,
		       int err);
/* Forgets r (MPI_Request_free). */
void pvt__mpi_req_forget(MPI_Request r);
/* Records the RECV_END (aux PVT_RECV_FREED) of every active receive the
 * program freed; called by MPI_Finalize once PMPI_Finalize returned. */
void pvt__mpi_req_finalize(void);
/* A scratch array of n statuses for calls whose caller ignores them
 * (grows; valid until the next call), or NULL when out of memory. */
MPI_Status *pvt__mpi_statuses(int n);

#endif
