/*
 * pvt_event.h — the native event record of the paravt runtime (layout
 * version PVT_EVENT_VERSION), shared by the runtime that writes records
 * (rt_event.c, the PVM and MPI wrappers) and by whatever decodes the
 * EVENTS frames (the local paravtd, tests/wrappers/ev_sink.c).
 *
 * A record is 64 bytes of fixed-width integers, no pointers, no padding,
 * in the NATIVE byte order of the task: EVENTS(proc, first, count,
 * records) carries count records back to back, so only a daemon built for
 * the same port decodes them (it turns them into canonical events before
 * anything leaves the node).  The layout is the same on LP64 and ILP32
 * ports: every member sits at a multiple of its size.
 *
 * Strings (source file and function names) travel as ids: EVENT_STRINGS
 * (proc, first, strings) gives the names of ids first..first+n-1 and is
 * always sent before the first EVENTS frame that uses them.  Id 0 is "?"
 * (unknown, or the intern table was full) and is never sent.
 *
 * Event kinds follow ParaVT section 2.4; the op names the PVM or MPI call
 * (PVT_OP_*).  A wrapper emits a *_START record before it calls the real
 * function and the matching *_END after it.
 *
 * Bump PVT_EVENT_VERSION when anything here changes (the daemon refuses
 * records of a version it does not know; the version is in the aux field
 * of the PROG_START record, the first record of every process).
 */
#ifndef PARAVT_PVT_EVENT_H
#define PARAVT_PVT_EVENT_H

#include <stdint.h>

#define PVT_EVENT_VERSION 1
#define PVT_EVENT_SIZE 64

/* One event. */
typedef struct pvt_event {
	uint64_t t_ns;     /* CLOCK_MONOTONIC of the task's node, ns */
	uint64_t delta_ns; /* Δ: ns spent inside paravt up to this event
	                      (measured + calibrated constant per probe +
	                      time stopped at breakpoints) */
	uint64_t seq;      /* event number in this process, from 0, no gaps */
	int64_t bytes;     /* message bytes (pvm_bufinfo / MPI count*size);
	                      -1 when unknown or not applicable */
	uint32_t file;     /* string id of the source file, 0 = unknown */
	uint32_t func;     /* string id of the calling function, 0 = unknown */
	int32_t line;      /* source line of the call, 0 = unknown */
	int32_t peer;      /* PVM tid / MPI rank of the other side: the
	                      destination of a send, the ACTUAL source of a
	                      receive (also for wildcards), the root of a
	                      collective; -1 none.  PROG_START: own tid/rank */
	int32_t tag;       /* message tag (actual tag for receives), -1 none */
	int32_t result;    /* END: the call's return value (bufid, info,
	                      MPI error code); START: 0 */
	int32_t aux;       /* per kind: PROG_START layout version; PROG_EXIT
	                      status; CRASH signal; BREAK_* breakpoint id;
	                      spawn/mcast: count; group calls: instance or
	                      count; MPI: communicator size; else 0 */
	uint16_t kind;     /* enum pvt_ev_kind */
	uint16_t op;       /* enum pvt_op */
} pvt_event;

/* Fails to compile if the layout is not 64 bytes on this port. */
typedef char pvt__event_size_check[sizeof(pvt_event) == PVT_EVENT_SIZE ? 1 : -1];

/* Event kinds (record.kind). */
enum pvt_ev_kind {
	PVT_EV_PROG_START = 1,    /* first record of a process */
	PVT_EV_PROG_EXIT = 2,     /* para_vt_exit / exit(): aux = status */
	PVT_EV_FN_ENTER = 3,      /* full mode: function entry */
	PVT_EV_FN_EXIT = 4,       /* full mode: function exit */
	PVT_EV_SEND_START = 5,    /* point-to-point send */
	PVT_EV_SEND_END = 6,
	PVT_EV_RECV_START = 7,    /* receive and probe */
	PVT_EV_RECV_END = 8,
	PVT_EV_MCAST_START = 9,   /* broadcast / multicast */
	PVT_EV_MCAST_END = 10,
	PVT_EV_GROUP_START = 11,  /* group and collective calls */
	PVT_EV_GROUP_END = 12,
	PVT_EV_SPECIAL_START = 13, /* process state: spawn, exit, mytid... */
	PVT_EV_SPECIAL_END = 14,
	PVT_EV_BREAK_START = 15,  /* stopped at a breakpoint: aux = bp id */
	PVT_EV_BREAK_END = 16,    /* resumed; Δ includes the stop */
	PVT_EV_CRASH = 17,        /* fatal signal: aux = signal */
	PVT_EV_KIND_MAX = 17
};

/* The call a record is about (record.op).  Numbers are never reused. */
#define PVT_OPS(X)                                                             \
	X(0, NONE, "-")                                                        \
	X(1, PVM_SEND, "pvm_send")                                             \
	X(2, PVM_PSEND, "pvm_psend")                                           \
	X(3, PVM_RECV, "pvm_recv")                                             \
	X(4, PVM_NRECV, "pvm_nrecv")                                           \
	X(5, PVM_TRECV, "pvm_trecv")                                           \
	X(6, PVM_PRECV, "pvm_precv")                                           \
	X(7, PVM_PROBE, "pvm_probe")                                           \
	X(8, PVM_MCAST, "pvm_mcast")                                           \
	X(9, PVM_BCAST, "pvm_bcast")                                           \
	X(10, PVM_JOINGROUP, "pvm_joingroup")                                  \
	X(11, PVM_LVGROUP, "pvm_lvgroup")                                      \
	X(12, PVM_BARRIER, "pvm_barrier")                                      \
	X(13, PVM_REDUCE, "pvm_reduce")                                        \
	X(14, PVM_GATHER, "pvm_gather")                                        \
	X(15, PVM_SCATTER, "pvm_scatter")                                      \
	X(16, PVM_MYTID, "pvm_mytid")                                          \
	X(17, PVM_PARENT, "pvm_parent")                                        \
	X(18, PVM_SPAWN, "pvm_spawn")                                          \
	X(19, PVM_EXIT, "pvm_exit")                                            \
	X(20, PVM_KILL, "pvm_kill")                                            \
	X(21, PVM_ADDHOSTS, "pvm_addhosts")                                    \
	X(22, PVM_DELHOSTS, "pvm_delhosts")                                    \
	X(23, PVM_INITSEND, "pvm_initsend")                                    \
	X(24, PVM_NOTIFY, "pvm_notify")                                        \
	X(25, PVM_HALT, "pvm_halt")                                            \
	X(64, MPI_INIT, "MPI_Init")                                            \
	X(65, MPI_FINALIZE, "MPI_Finalize")                                    \
	X(66, MPI_SEND, "MPI_Send")                                            \
	X(67, MPI_RECV, "MPI_Recv")                                            \
	X(68, MPI_ISEND, "MPI_Isend")                                          \
	X(69, MPI_IRECV, "MPI_Irecv")                                          \
	X(70, MPI_WAIT, "MPI_Wait")                                            \
	X(71, MPI_WAITALL, "MPI_Waitall")                                      \
	X(72, MPI_TEST, "MPI_Test")                                            \
	X(73, MPI_SENDRECV, "MPI_Sendrecv")                                    \
	X(74, MPI_BARRIER, "MPI_Barrier")                                      \
	X(75, MPI_BCAST, "MPI_Bcast")                                          \
	X(76, MPI_REDUCE, "MPI_Reduce")                                        \
	X(77, MPI_ALLREDUCE, "MPI_Allreduce")                                  \
	X(78, MPI_GATHER, "MPI_Gather")                                        \
	X(79, MPI_SCATTER, "MPI_Scatter")                                      \
	X(80, MPI_ALLTOALL, "MPI_Alltoall")                                    \
	X(96, RT_BREAK, "breakpoint")                                          \
	X(97, RT_FUNC, "function")                                             \
	X(98, RT_SIGNAL, "signal")

enum pvt_op {
#define PVT_OP_ENUM_(n, name, str) PVT_OP_##name = n,
	PVT_OPS(PVT_OP_ENUM_)
#undef PVT_OP_ENUM_
	PVT_OP_LAST_ = 255
};

#endif
