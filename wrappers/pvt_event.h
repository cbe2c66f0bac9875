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
 * ports: every member sits at a multiple of its size.  A record carries
 * no number of its own: the records of a process are numbered from 0
 * without gaps, and EVENTS says the number of its first one.
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

#define PVT_EVENT_VERSION 2
#define PVT_EVENT_SIZE 64

/* One event. */
typedef struct pvt_event {
	uint64_t t_ns;     /* CLOCK_MONOTONIC of the task's node, ns */
	uint64_t delta_ns; /* Δ: ns spent inside paravt up to this event
	                      (measured + calibrated constant per probe +
	                      time stopped at breakpoints) */
	int64_t bytes;     /* message bytes (pvm_bufinfo / MPI count*size);
	                      -1 when unknown or not applicable */
	uint32_t file;     /* string id of the source file, 0 = unknown */
	uint32_t func;     /* string id of the calling function, 0 = unknown;
	                      PROG_START: of the program's name (base name
	                      of its executable), 0 = unknown */
	int32_t line;      /* source line of the call, 0 = unknown */
	int32_t peer;      /* PVM tid / MPI_COMM_WORLD rank of the other
	                      side: the destination of a send, the ACTUAL
	                      source of a receive (also for wildcards), the
	                      root of a collective; -1 none or any source,
	                      PVT_PEER_NULL for MPI_PROC_NULL (no message).
	                      PROG_START: own tid/rank */
	int32_t tag;       /* message tag (actual tag for receives), -1 none;
	                      MPI collective on an intercommunicator: the
	                      caller's group, 0 (the one holding the smaller
	                      world rank) or 1 */
	int32_t result;    /* END: the call's return value (bufid, info,
	                      MPI error code); START: 0 */
	int32_t aux;       /* per kind: PROG_START layout version; PROG_EXIT
	                      status; CRASH signal; BREAK_* breakpoint id;
	                      spawn/mcast: count; group calls: count; MPI:
	                      communicator size; pvm_parent END: the task's
	                      own tid (0 unknown: a master whose first PVM
	                      call is pvm_parent has its tid from it); else
	                      0 */
	uint32_t comm;     /* where messages match: MPI: the communicator's
	                      id, the same on every member (0 =
	                      MPI_COMM_WORLD); PVM: the task's message
	                      context (pvm_getcontext, 0 = the base one) */
	uint32_t ref;      /* what else the call names: MPI nonblocking and
	                      persistent calls: the request's id in this
	                      process, the same on the post's START and the
	                      completion's END; MPI communicator creation:
	                      the new communicator's id; PVM group and
	                      mailbox calls: the string id of the name (as
	                      file and func); 0 none */
	uint16_t kind;     /* enum pvt_ev_kind */
	uint16_t op;       /* enum pvt_op */
} pvt_event;

/* peer of a call on MPI_PROC_NULL: it moved no message. */
#define PVT_PEER_NULL (-2)

/* aux of an MPI receive's RECV_END: 1 it was cancelled (peer -1);
 * PVT_RECV_FREED the program freed the active request (MPI_Request_free)
 * and MPI_Finalize completed it: recorded when MPI_Finalize returned,
 * with the source and tag the receive asked for, bytes -1. */
#define PVT_RECV_FREED 2

/* Fails to compile if the layout is not 64 bytes on this port. */
typedef char pvt__event_size_check[sizeof(pvt_event) == PVT_EVENT_SIZE ? 1 : -1];

/* Event kinds (record.kind). */
enum pvt_ev_kind {
	PVT_EV_PROG_START = 1,    /* first record of a process: bytes = ns
	                             the main thread had waited for a CPU
	                             before it (as PROG_EXIT's), -1
	                             unknown */
	PVT_EV_PROG_EXIT = 2,     /* para_vt_exit / exit(): aux = status
	                             (-1: unknown, exit() where the runtime
	                             cannot learn its argument); bytes = ns
	                             the main thread waited for a CPU while
	                             it could run (Linux's schedstat), -1
	                             unknown; tag: written -1, the node's
	                             daemon puts there the us of its waits
	                             charged to paravt (the daemon's and
	                             the console's CPU, added to delta by
	                             the daemon or, after long gaps, by the
	                             task itself: daemon/relay/dmn_share.h,
	                             rt_stall.h) */
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
	PVT_EV_MCAST_DEST = 18,   /* after a MCAST_END, one per destination
	                             the call named (pvm_mcast): peer = that
	                             task, tag, bytes and comm as the END's */
	PVT_EV_KIND_MAX = 18
};

/* What an op does, for every reader of the records (the analysis
 * matches and orders events by it, the console counts and prints by it).
 * A call with two halves (MPI_Sendrecv) is told apart by the kind. */
enum pvt_op_class {
	PVT_C_NONE = 0,  /* process state, queries, local calls */
	PVT_C_SEND,      /* point-to-point send: one message (SEND_*) */
	PVT_C_RECV,      /* point-to-point receive (RECV_*) */
	PVT_C_PROBE,     /* looks for a message, takes none (RECV_*) */
	PVT_C_WAIT,      /* completes requests: their ENDs come inside its
	                    SPECIAL_START/END */
	PVT_C_MCAST,     /* PVM multicast: one message to many (MCAST_*) */
	PVT_C_ALL,       /* collective: every member waits for every one */
	PVT_C_TO_ROOT,   /* collective: the root waits for every member */
	PVT_C_FROM_ROOT, /* collective: every member waits for the root */
	PVT_C_COLL,      /* collective whose waits are not modelled (scans,
	                    neighbourhoods, communicator creation, PVM group
	                    membership) */
	PVT_C_START      /* starts persistent requests (MPI_Start[all]) */
};

/* The call a record is about (record.op): number, name, class.  Numbers
 * are never reused and stay below 256. */
#define PVT_OPS(X)                                                             \
	X(0, NONE, "-", NONE)                                                  \
	X(1, PVM_SEND, "pvm_send", SEND)                                       \
	X(2, PVM_PSEND, "pvm_psend", SEND)                                     \
	X(3, PVM_RECV, "pvm_recv", RECV)                                       \
	X(4, PVM_NRECV, "pvm_nrecv", RECV)                                     \
	X(5, PVM_TRECV, "pvm_trecv", RECV)                                     \
	X(6, PVM_PRECV, "pvm_precv", RECV)                                     \
	X(7, PVM_PROBE, "pvm_probe", PROBE)                                    \
	X(8, PVM_MCAST, "pvm_mcast", MCAST)                                    \
	X(9, PVM_BCAST, "pvm_bcast", MCAST)                                    \
	X(10, PVM_JOINGROUP, "pvm_joingroup", COLL)                            \
	X(11, PVM_LVGROUP, "pvm_lvgroup", COLL)                                \
	X(12, PVM_BARRIER, "pvm_barrier", ALL)                                 \
	X(13, PVM_REDUCE, "pvm_reduce", TO_ROOT)                               \
	X(14, PVM_GATHER, "pvm_gather", TO_ROOT)                               \
	X(15, PVM_SCATTER, "pvm_scatter", FROM_ROOT)                           \
	X(16, PVM_MYTID, "pvm_mytid", NONE)                                    \
	X(17, PVM_PARENT, "pvm_parent", NONE)                                  \
	X(18, PVM_SPAWN, "pvm_spawn", NONE)                                    \
	X(19, PVM_EXIT, "pvm_exit", NONE)                                      \
	X(20, PVM_KILL, "pvm_kill", NONE)                                      \
	X(21, PVM_ADDHOSTS, "pvm_addhosts", NONE)                              \
	X(22, PVM_DELHOSTS, "pvm_delhosts", NONE)                              \
	X(23, PVM_INITSEND, "pvm_initsend", NONE)                              \
	X(24, PVM_NOTIFY, "pvm_notify", NONE)                                  \
	X(25, PVM_HALT, "pvm_halt", NONE)                                      \
	X(26, PVM_SENDSIG, "pvm_sendsig", NONE)                                \
	X(27, PVM_PUTINFO, "pvm_putinfo", NONE)                                \
	X(28, PVM_RECVINFO, "pvm_recvinfo", NONE)                              \
	X(29, PVM_DELINFO, "pvm_delinfo", NONE)                                \
	X(30, PVM_GETMBOXINFO, "pvm_getmboxinfo", NONE)                        \
	X(31, PVM_GETTID, "pvm_gettid", NONE)                                  \
	X(32, PVM_GETINST, "pvm_getinst", NONE)                                \
	X(33, PVM_GSIZE, "pvm_gsize", NONE)                                    \
	X(34, PVM_FREEZEGROUP, "pvm_freezegroup", NONE)                        \
	X(35, PVM_TASKS, "pvm_tasks", NONE)                                    \
	X(36, PVM_CONFIG, "pvm_config", NONE)                                  \
	X(37, PVM_PSTAT, "pvm_pstat", NONE)                                    \
	X(38, PVM_MSTAT, "pvm_mstat", NONE)                                    \
	X(39, PVM_HOSTSYNC, "pvm_hostsync", NONE)                              \
	X(40, PVM_SIBLINGS, "pvm_siblings", NONE)                              \
	X(41, PVM_RECVF, "pvm_recvf", NONE)                                    \
	X(42, PVM_ADDMHF, "pvm_addmhf", NONE)                                  \
	X(43, PVM_DELMHF, "pvm_delmhf", NONE)                                  \
	X(64, MPI_INIT, "MPI_Init", NONE)                                      \
	X(65, MPI_FINALIZE, "MPI_Finalize", NONE)                              \
	X(66, MPI_SEND, "MPI_Send", SEND)                                      \
	X(67, MPI_RECV, "MPI_Recv", RECV)                                      \
	X(68, MPI_ISEND, "MPI_Isend", SEND)                                    \
	X(69, MPI_IRECV, "MPI_Irecv", RECV)                                    \
	X(70, MPI_WAIT, "MPI_Wait", WAIT)                                      \
	X(71, MPI_WAITALL, "MPI_Waitall", WAIT)                                \
	X(72, MPI_TEST, "MPI_Test", WAIT)                                      \
	X(73, MPI_SENDRECV, "MPI_Sendrecv", SEND)                              \
	X(74, MPI_BARRIER, "MPI_Barrier", ALL)                                 \
	X(75, MPI_BCAST, "MPI_Bcast", FROM_ROOT)                               \
	X(76, MPI_REDUCE, "MPI_Reduce", TO_ROOT)                               \
	X(77, MPI_ALLREDUCE, "MPI_Allreduce", ALL)                             \
	X(78, MPI_GATHER, "MPI_Gather", TO_ROOT)                               \
	X(79, MPI_SCATTER, "MPI_Scatter", FROM_ROOT)                           \
	X(80, MPI_ALLTOALL, "MPI_Alltoall", ALL)                               \
	X(81, MPI_INIT_THREAD, "MPI_Init_thread", NONE)                        \
	X(82, MPI_ABORT, "MPI_Abort", NONE)                                    \
	X(83, MPI_BSEND, "MPI_Bsend", SEND)                                    \
	X(84, MPI_SSEND, "MPI_Ssend", SEND)                                    \
	X(85, MPI_RSEND, "MPI_Rsend", SEND)                                    \
	X(86, MPI_IBSEND, "MPI_Ibsend", SEND)                                  \
	X(87, MPI_ISSEND, "MPI_Issend", SEND)                                  \
	X(88, MPI_IRSEND, "MPI_Irsend", SEND)                                  \
	X(89, MPI_SENDRECV_REPLACE, "MPI_Sendrecv_replace", SEND)              \
	X(90, MPI_PROBE, "MPI_Probe", PROBE)                                   \
	X(91, MPI_IPROBE, "MPI_Iprobe", PROBE)                                 \
	X(92, MPI_MPROBE, "MPI_Mprobe", RECV)                                  \
	X(93, MPI_IMPROBE, "MPI_Improbe", RECV)                                \
	X(94, MPI_MRECV, "MPI_Mrecv", NONE)                                    \
	X(95, MPI_IMRECV, "MPI_Imrecv", NONE)                                  \
	X(96, RT_BREAK, "breakpoint", NONE)                                    \
	X(97, RT_FUNC, "function", NONE)                                       \
	X(98, RT_SIGNAL, "signal", NONE)                                       \
	X(100, MPI_SEND_INIT, "MPI_Send_init", NONE)                           \
	X(101, MPI_BSEND_INIT, "MPI_Bsend_init", NONE)                         \
	X(102, MPI_SSEND_INIT, "MPI_Ssend_init", NONE)                         \
	X(103, MPI_RSEND_INIT, "MPI_Rsend_init", NONE)                         \
	X(104, MPI_RECV_INIT, "MPI_Recv_init", NONE)                           \
	X(105, MPI_START, "MPI_Start", START)                                  \
	X(106, MPI_STARTALL, "MPI_Startall", START)                            \
	X(107, MPI_WAITANY, "MPI_Waitany", WAIT)                               \
	X(108, MPI_WAITSOME, "MPI_Waitsome", WAIT)                             \
	X(109, MPI_TESTALL, "MPI_Testall", WAIT)                               \
	X(110, MPI_TESTANY, "MPI_Testany", WAIT)                               \
	X(111, MPI_TESTSOME, "MPI_Testsome", WAIT)                             \
	X(112, MPI_REQUEST_FREE, "MPI_Request_free", NONE)                     \
	X(113, MPI_CANCEL, "MPI_Cancel", NONE)                                 \
	X(120, MPI_GATHERV, "MPI_Gatherv", TO_ROOT)                            \
	X(121, MPI_SCATTERV, "MPI_Scatterv", FROM_ROOT)                        \
	X(122, MPI_ALLGATHER, "MPI_Allgather", ALL)                            \
	X(123, MPI_ALLGATHERV, "MPI_Allgatherv", ALL)                          \
	X(124, MPI_ALLTOALLV, "MPI_Alltoallv", ALL)                            \
	X(125, MPI_ALLTOALLW, "MPI_Alltoallw", ALL)                            \
	X(126, MPI_REDUCE_SCATTER, "MPI_Reduce_scatter", ALL)                  \
	X(127, MPI_REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block", ALL)      \
	X(128, MPI_SCAN, "MPI_Scan", COLL)                                     \
	X(129, MPI_EXSCAN, "MPI_Exscan", COLL)                                 \
	X(130, MPI_NEIGHBOR_ALLGATHER, "MPI_Neighbor_allgather", COLL)         \
	X(131, MPI_NEIGHBOR_ALLGATHERV, "MPI_Neighbor_allgatherv", COLL)       \
	X(132, MPI_NEIGHBOR_ALLTOALL, "MPI_Neighbor_alltoall", COLL)           \
	X(133, MPI_NEIGHBOR_ALLTOALLV, "MPI_Neighbor_alltoallv", COLL)         \
	X(134, MPI_NEIGHBOR_ALLTOALLW, "MPI_Neighbor_alltoallw", COLL)         \
	X(140, MPI_IBARRIER, "MPI_Ibarrier", ALL)                              \
	X(141, MPI_IBCAST, "MPI_Ibcast", FROM_ROOT)                            \
	X(142, MPI_IGATHER, "MPI_Igather", TO_ROOT)                            \
	X(143, MPI_IGATHERV, "MPI_Igatherv", TO_ROOT)                          \
	X(144, MPI_ISCATTER, "MPI_Iscatter", FROM_ROOT)                        \
	X(145, MPI_ISCATTERV, "MPI_Iscatterv", FROM_ROOT)                      \
	X(146, MPI_IALLGATHER, "MPI_Iallgather", ALL)                          \
	X(147, MPI_IALLGATHERV, "MPI_Iallgatherv", ALL)                        \
	X(148, MPI_IALLTOALL, "MPI_Ialltoall", ALL)                            \
	X(149, MPI_IALLTOALLV, "MPI_Ialltoallv", ALL)                          \
	X(150, MPI_IALLTOALLW, "MPI_Ialltoallw", ALL)                          \
	X(151, MPI_IREDUCE, "MPI_Ireduce", TO_ROOT)                            \
	X(152, MPI_IALLREDUCE, "MPI_Iallreduce", ALL)                          \
	X(153, MPI_IREDUCE_SCATTER, "MPI_Ireduce_scatter", ALL)                \
	X(154, MPI_IREDUCE_SCATTER_BLOCK, "MPI_Ireduce_scatter_block", ALL)    \
	X(155, MPI_ISCAN, "MPI_Iscan", COLL)                                   \
	X(156, MPI_IEXSCAN, "MPI_Iexscan", COLL)                               \
	X(157, MPI_INEIGHBOR_ALLGATHER, "MPI_Ineighbor_allgather", COLL)       \
	X(158, MPI_INEIGHBOR_ALLGATHERV, "MPI_Ineighbor_allgatherv", COLL)     \
	X(159, MPI_INEIGHBOR_ALLTOALL, "MPI_Ineighbor_alltoall", COLL)         \
	X(160, MPI_INEIGHBOR_ALLTOALLV, "MPI_Ineighbor_alltoallv", COLL)       \
	X(161, MPI_INEIGHBOR_ALLTOALLW, "MPI_Ineighbor_alltoallw", COLL)       \
	X(170, MPI_COMM_DUP, "MPI_Comm_dup", COLL)                             \
	X(171, MPI_COMM_DUP_WITH_INFO, "MPI_Comm_dup_with_info", COLL)         \
	X(172, MPI_COMM_IDUP, "MPI_Comm_idup", COLL)                           \
	X(173, MPI_COMM_SPLIT, "MPI_Comm_split", COLL)                         \
	X(174, MPI_COMM_SPLIT_TYPE, "MPI_Comm_split_type", COLL)               \
	X(175, MPI_COMM_CREATE, "MPI_Comm_create", COLL)                       \
	X(176, MPI_COMM_CREATE_GROUP, "MPI_Comm_create_group", COLL)           \
	X(177, MPI_COMM_FREE, "MPI_Comm_free", NONE)                           \
	X(178, MPI_INTERCOMM_CREATE, "MPI_Intercomm_create", COLL)             \
	X(179, MPI_INTERCOMM_MERGE, "MPI_Intercomm_merge", COLL)               \
	X(180, MPI_CART_CREATE, "MPI_Cart_create", COLL)                       \
	X(181, MPI_CART_SUB, "MPI_Cart_sub", COLL)                             \
	X(182, MPI_GRAPH_CREATE, "MPI_Graph_create", COLL)                     \
	X(183, MPI_DIST_GRAPH_CREATE, "MPI_Dist_graph_create", COLL)           \
	X(184, MPI_DIST_GRAPH_CREATE_ADJACENT, "MPI_Dist_graph_create_adjacent", COLL) \
	X(185, MPI_COMM_DISCONNECT, "MPI_Comm_disconnect", NONE)

enum pvt_op {
#define PVT_OP_ENUM_(n, name, str, cls) PVT_OP_##name = n,
	PVT_OPS(PVT_OP_ENUM_)
#undef PVT_OP_ENUM_
	PVT_OP_LAST_ = 255
};

/* The name of an op ("pvm_recv"; "-" for an unknown number). */
static inline const char *pvt_op_name(unsigned op)
{
	switch (op) {
#define PVT_OP_NAME_(n, name, str, cls) case n: return str;
		PVT_OPS(PVT_OP_NAME_)
#undef PVT_OP_NAME_
	default:
		return "-";
	}
}

/* The task's own tid a PVM SPECIAL_END tells (pvm_mytid's result,
 * pvm_parent's aux), or 0 (a master learns its tid from these). */
static inline int32_t pvt_own_tid(unsigned op, int32_t result, int32_t aux)
{
	if (op == PVT_OP_PVM_MYTID)
		return result > 0 ? result : 0;
	if (op == PVT_OP_PVM_PARENT)
		return aux > 0 ? aux : 0;
	return 0;
}

/* A process's wait for a CPU from its PROG_START to its PROG_EXIT, ns,
 * from the two records' bytes: the exit's less the start's where the
 * start says (an older runtime's does not: the exit's as it is); -1
 * when the exit says nothing. */
static inline int64_t pvt_run_wait(int64_t start, int64_t exit)
{
	if (exit < 0)
		return -1;
	return start >= 0 && start <= exit ? exit - start : exit;
}

/* Whether op is an MPI call (not a PVM one, not the runtime's own). */

static inline int pvt_op_is_mpi(unsigned op)
{
	return op >= PVT_OP_MPI_INIT && op != PVT_OP_RT_BREAK &&
	       op != PVT_OP_RT_FUNC && op != PVT_OP_RT_SIGNAL;
}

/* The class of an op (enum pvt_op_class; PVT_C_NONE when unknown). */
static inline int pvt_op_class(unsigned op)
{
	switch (op) {
#define PVT_OP_CLASS_(n, name, str, cls) case n: return PVT_C_##cls;
		PVT_OPS(PVT_OP_CLASS_)
#undef PVT_OP_CLASS_
	default:
		return PVT_C_NONE;
	}
}

#endif
