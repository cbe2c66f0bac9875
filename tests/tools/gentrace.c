/*
 * gentrace.c — writes a synthetic paravt trace file through the console's
 * own writer (con_tfile.c hooks, as a live run does): an MPI ping-pong of
 * N round trips between rank 0 (p1) and rank 1 (p2) on one node "n1",
 * 8 N + 12 events (each process: PROG_START, MPI_Init START/END, 4 N
 * send/receive events, MPI_Finalize START/END, PROG_EXIT), with every
 * send matched.  Used by the tests of long traces (tests/integration/
 * 86-tracefile-long.sh) and to measure memory and time on 10 M and more.
 *
 *   gentrace FILE ROUNDTRIPS
 *
 * Prints "FILE: E events, P pairs" on success; exit status 1 on error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_ev.h"
#include "con_tfile.h"
#include "../../wrappers/pvt_event.h"

#define GT_BATCH 4096 /* events per batch record */

/* Events of one process being packed. */
typedef struct gt_proc {
	msgpack_sbuffer sb;  /* the packed events of the batch */
	unsigned n;          /* events in sb */
	uint64_t seq;        /* next seq */
	uint64_t t;          /* node time of the next event, ns */
	int pid_id;          /* pN */
	int rank;            /* MPI rank */
} gt_proc;

/* Writes the batch of p (if any) as one "events" record. */
static void gt_flush(gt_proc *p)
{
	msgpack_sbuffer arr;
	msgpack_packer pk;
	msgpack_unpacked u;

	if (p->n == 0)
		return;
	msgpack_sbuffer_init(&arr);
	msgpack_packer_init(&pk, &arr, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, p->n);
	msgpack_sbuffer_write(&arr, p->sb.data, p->sb.size);
	msgpack_unpacked_init(&u);
	if (msgpack_unpack_next(&u, arr.data, arr.size, NULL) ==
	    MSGPACK_UNPACK_SUCCESS)
		con_tfile_events("n1", (uint32_t)p->pid_id, p->pid_id,
				 &u.data);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&arr);
	msgpack_sbuffer_clear(&p->sb);
	p->n = 0;
}

/* Appends one event of p. */
static void gt_ev(gt_proc *p, int kind, int op, int line, int peer, int tag,
		  int64_t bytes, int aux)
{
	msgpack_packer pk;

	msgpack_packer_init(&pk, &p->sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, CON_EV_FIELDS);
	msgpack_pack_uint64(&pk, p->seq++);
	msgpack_pack_int(&pk, kind);
	msgpack_pack_int(&pk, op);
	msgpack_pack_uint64(&pk, p->t);
	msgpack_pack_uint64(&pk, p->seq * 50);
	msgpack_pack_int(&pk, line > 0 ? 1 : 0);
	msgpack_pack_int(&pk, line > 0 ? 2 : 0);
	msgpack_pack_int(&pk, line);
	msgpack_pack_int(&pk, peer);
	msgpack_pack_int(&pk, tag);
	msgpack_pack_int64(&pk, bytes);
	msgpack_pack_int(&pk, 0);
	msgpack_pack_int(&pk, aux);
	msgpack_pack_int(&pk, 0);
	msgpack_pack_int(&pk, 0);
	p->t += 1000;
	if (++p->n == GT_BATCH)
		gt_flush(p);
}

/* The string table of p: 1 = the file, 2 = main. */
static void gt_strings(const gt_proc *p)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_unpacked u;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 2);
	msgpack_pack_str_with_body(&pk, "pingpong.c", 10);
	msgpack_pack_str_with_body(&pk, "main", 4);
	msgpack_unpacked_init(&u);
	if (msgpack_unpack_next(&u, sb.data, sb.size, NULL) ==
	    MSGPACK_UNPACK_SUCCESS)
		con_tfile_strings("n1", (uint32_t)p->pid_id, p->pid_id, 1,
				  &u.data);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
}

/* One half of a round trip of p: a send to other then a receive from
 * it (rank 0), or the receive then the send (rank 1). */
static void gt_round(gt_proc *p, int other)
{
	int i;

	for (i = 0; i < 2; i++) {
		if ((i == 0) == (p->rank == 0)) {
			gt_ev(p, PVT_EV_SEND_START, PVT_OP_MPI_SEND, 20, other,
			      7, 8, 2);
			gt_ev(p, PVT_EV_SEND_END, PVT_OP_MPI_SEND, 20, other, 7,
			      8, 2);
		} else {
			gt_ev(p, PVT_EV_RECV_START, PVT_OP_MPI_RECV, 21, other,
			      7, -1, 2);
			gt_ev(p, PVT_EV_RECV_END, PVT_OP_MPI_RECV, 21, other, 7,
			      8, 2);
		}
	}
}

int main(int argc, char **argv)
{
	gt_proc p[2];
	char err[600];
	unsigned long long n, k;
	int i;

	if (argc != 3 || (n = strtoull(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: gentrace FILE ROUNDTRIPS\n");
		return 2;
	}
	if (con_tfile_open(argv[1], "gentrace", 1, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "gentrace: %s\n", err);
		return 1;
	}
	con_tfile_node("n1", "x86_64 little-endian LP64");
	for (i = 0; i < 2; i++) {
		memset(&p[i], 0, sizeof p[i]);
		msgpack_sbuffer_init(&p[i].sb);
		p[i].pid_id = i + 1;
		p[i].rank = i;
		p[i].t = 1000000000ull + (uint64_t)i * 500;
		con_tfile_proc("n1", (uint32_t)p[i].pid_id, p[i].pid_id,
			       "pingpong");
		gt_strings(&p[i]);
		gt_ev(&p[i], PVT_EV_PROG_START, 0, 0, i, -1, -1,
		      PVT_EVENT_VERSION);
		gt_ev(&p[i], PVT_EV_SPECIAL_START, PVT_OP_MPI_INIT, 10, -1, -1,
		      -1, 0);
		gt_ev(&p[i], PVT_EV_SPECIAL_END, PVT_OP_MPI_INIT, 10, -1, -1,
		      -1, 0);
	}
	for (k = 0; k < n; k++)
		for (i = 0; i < 2; i++)
			gt_round(&p[i], 1 - i);
	for (i = 0; i < 2; i++) {
		gt_ev(&p[i], PVT_EV_SPECIAL_START, PVT_OP_MPI_FINALIZE, 30, -1,
		      -1, -1, 0);
		gt_ev(&p[i], PVT_EV_SPECIAL_END, PVT_OP_MPI_FINALIZE, 30, -1,
		      -1, -1, 0);
		gt_ev(&p[i], PVT_EV_PROG_EXIT, 0, 31, -1, -1, -1, 0);
		gt_flush(&p[i]);
		msgpack_sbuffer_destroy(&p[i].sb);
		con_tfile_exit(p[i].pid_id, "exit", 0);
	}
	if (con_tfile_take_error() != NULL ||
	    con_tfile_close("exit", 0, err, sizeof err) != 0) {
		fprintf(stderr, "gentrace: %s\n", err);
		return 1;
	}
	printf("%s: %llu events, %llu pairs\n", argv[1], 8 * n + 12, 2 * n);
	return 0;
}
