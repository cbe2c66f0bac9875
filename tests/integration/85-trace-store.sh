#!/bin/sh
# 85-trace-store.sh — the console's event store (console/trace/con_ev.c,
# con_ev_fmt.c) driven directly by a small C program built here, without
# daemons (the parts the end-to-end tests cannot force):
#   - a batch sent again (as to a console that reconnected) is dropped
#     and counted, overlapping batches keep only the new events;
#   - a gap (events the daemon lost) is accepted, EVENTS_LOST counted;
#   - a full ring forgets the oldest events, counts them, keeps counters;
#     a new maximum (trace keep) grows or shrinks it keeping the events
#     at their numbers; unbounded (a trace file) keeps more than 2^20;
#   - malformed events are refused with a sentence;
#   - the display line of a send, a wildcard receive, a pvmd notify;
#   - filters, and the activity (computing / communicating / waiting).
. "$(dirname "$0")/../lib/common.sh"
WIRE_LIB=$TOP/build/linux-x86_64/lib/libpvtwire.a
[ -f "$WIRE_LIB" ] || fail "no $WIRE_LIB (run make)"
cat >"$T/drv.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include "con_ev.h"
#include "../wrappers/pvt_event.h"

static msgpack_sbuffer sb;
static msgpack_packer pk;
static msgpack_unpacked up;

/* Packs one event array into the current batch. */
static void ev(long seq, int kind, int op, long t, int file, int func,
	       int line, int peer, int tag, long bytes, int result, int aux)
{
	long v[13] = {seq, kind, op, t, 0, file, func, line, peer, tag, bytes,
		      result, aux};
	int i;

	msgpack_pack_array(&pk, 13);
	for (i = 0; i < 13; i++)
		msgpack_pack_int64(&pk, v[i]);
}

static void begin(int n)
{
	msgpack_sbuffer_clear(&sb);
	msgpack_pack_array(&pk, (size_t)n);
}

static const msgpack_object *end(void)
{
	msgpack_unpacked_destroy(&up);
	msgpack_unpacked_init(&up);
	msgpack_unpack_next(&up, sb.data, sb.size, NULL);
	return &up.data;
}

/* A batch of n sends numbered from first. */
static int sends(const char *node, int proc, int pid, long first, int n)
{
	char err[200];
	int i;

	begin(n);
	for (i = 0; i < n; i++)
		ev(first + i, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 1000 + first + i,
		   1, 2, 57, 0x4000a, 7, 320, 0, 0);
	return con_ev_add_batch(node, (unsigned)proc, pid, 0, end(), NULL, err,
				sizeof err);
}

/* True if every stored event of the one source of a ring test has its
 * arrival number as seq. */
static int order_ok(void)
{
	uint64_t k;

	for (k = con_ev_oldest(); k < con_ev_next(); k++)
		if (con_ev_get(k) == NULL || con_ev_get(k)->seq != k)
			return 0;
	return 1;
}

int main(void)
{
	char err[200], line[1024];
	const char *names[] = {"pvm_master.c", "main"};
	con_ev_filter f;
	con_ev_src *s;
	con_ev_stats t;
	char *argv[2];
	uint64_t k;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_unpacked_init(&up);
	/* strings, then batches with a duplicate and an overlap */
	msgpack_sbuffer_clear(&sb);
	msgpack_pack_array(&pk, 2);
	for (k = 0; k < 2; k++) {
		msgpack_pack_str(&pk, strlen(names[k]));
		msgpack_pack_str_body(&pk, names[k], strlen(names[k]));
	}
	printf("strings %d\n", con_ev_strings("s390x", 1, 2, 1, end(), err,
					      sizeof err));
	printf("batch1 %d\n", sends("s390x", 1, 2, 0, 10));
	printf("again %d\n", sends("s390x", 1, 2, 0, 10));
	printf("overlap %d\n", sends("s390x", 1, 2, 5, 10));
	printf("gap %d\n", sends("s390x", 1, 2, 100, 2));
	con_ev_lost("s390x", 1, 2, 85);
	s = con_ev_src_find("s390x", 1);
	printf("sends %llu dups %llu lost %llu next %llu\n",
	       (unsigned long long)s->st.n.sends, (unsigned long long)s->st.dups,
	       (unsigned long long)s->st.lost, (unsigned long long)s->next_seq);
	printf("line %s\n", con_ev_format(con_ev_get(0), 0, 1000, line,
					  sizeof line));
	/* an event before the zero of relative times: one sign */
	printf("line %s\n", con_ev_format(con_ev_get(0), 0, 1000 + 428000,
					  line, sizeof line));
	/* a wildcard receive and a pvmd notify on another node */
	begin(4);
	ev(0, PVT_EV_PROG_START, 0, 5000, 0, 0, 0, 0x40001, -1, -1, 0, 1);
	ev(1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 5001, 0, 0, 0, -1, -1, -1, 0, 0);
	ev(2, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 5002, 0, 0, 0, 0x40003, 12, 64, 5, 0);
	ev(3, PVT_EV_RECV_END, PVT_OP_PVM_TRECV, 5003, 0, 0, 0, (int)0x80000000, 13, 4, 6, 0);
	printf("batch2 %d\n", con_ev_add_batch("nat", 4, 1, 0, end(), NULL, err, sizeof err));
	s = con_ev_src_find("nat", 4);
	printf("recvs %llu tid %x activity %s\n", (unsigned long long)s->st.n.recvs,
	       (unsigned)s->state.tid, con_ev_activity_name(con_ev_activity(s)));
	for (k = con_ev_oldest(); k < con_ev_next(); k++)
		if (con_ev_get(k)->kind == PVT_EV_RECV_END)
			printf("line %s\n", con_ev_format(con_ev_get(k), 0, 5000,
							  line, sizeof line));
	begin(1);
	ev(4, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 5004, 0, 0, 0, -1, -1, -1, 0, 0);
	con_ev_add_batch("nat", 4, 1, 0, end(), NULL, err, sizeof err);
	printf("activity %s\n", con_ev_activity_name(con_ev_activity(s)));
	/* filters */
	argv[0] = "proc=p1";
	argv[1] = "kind=recv";
	printf("filter %d", con_ev_filter_parse(2, argv, &f, err, sizeof err));
	for (k = con_ev_oldest(); k < con_ev_next(); k++)
		printf(" %d", con_ev_match(&f, con_ev_get(k), 0));
	printf("\n");
	argv[0] = "kind=nope";
	printf("badfilter %d %s\n", con_ev_filter_parse(1, argv, &f, err,
							sizeof err), err);
	/* malformed */
	begin(1);
	msgpack_pack_array(&pk, 3);
	msgpack_pack_int(&pk, 1);
	msgpack_pack_int(&pk, 2);
	msgpack_pack_int(&pk, 3);
	printf("malformed %d %s\n", con_ev_add_batch("nat", 4, 1, 0, end(), NULL, err,
						     sizeof err), err);
	/* a small ring: 16 slots, 40 events */
	con_ev_reset();
	con_ev_set_max(16);
	printf("ring %d", sends("n", 1, 1, 0, 30));
	printf(" %d\n", sends("n", 1, 1, 30, 10));
	con_ev_totals(&t);
	printf("stored %llu oldest %llu dropped %llu sends %llu first-seq %llu\n",
	       (unsigned long long)(con_ev_next() - con_ev_oldest()),
	       (unsigned long long)con_ev_oldest(),
	       (unsigned long long)con_ev_dropped(),
	       (unsigned long long)t.n.sends,
	       (unsigned long long)con_ev_get(con_ev_oldest())->seq);
	/* trace keep: a larger maximum grows the wrapped ring (each kept
	   event stays at its number), a smaller one forgets at once */
	con_ev_set_max(64);
	sends("n", 1, 1, 40, 20);
	printf("grown %llu dropped %llu", (unsigned long long)(con_ev_next() -
	       con_ev_oldest()), (unsigned long long)con_ev_dropped());
	printf(" %s\n", order_ok() ? "in order" : "OUT OF ORDER");
	con_ev_set_max(20);
	printf("shrunk %llu dropped %llu oldest-seq %llu", (unsigned long long)
	       (con_ev_next() - con_ev_oldest()),
	       (unsigned long long)con_ev_dropped(),
	       (unsigned long long)con_ev_get(con_ev_oldest())->seq);
	printf(" %s\n", order_ok() ? "in order" : "OUT OF ORDER");
	/* unbounded (a trace file read back): more than 2^20, none lost */
	con_ev_reset();
	con_ev_set_max(CON_EV_UNBOUNDED);
	for (k = 0; k < 1100; k++)
		sends("n", 1, 1, (long)k * 1000, 1000);
	printf("unbounded %llu dropped %llu %s\n",
	       (unsigned long long)(con_ev_next() - con_ev_oldest()),
	       (unsigned long long)con_ev_dropped(),
	       order_ok() ? "in order" : "OUT OF ORDER");
	return 0;
}
PROG
# shellcheck disable=SC2046
cc -std=c11 -D_GNU_SOURCE -Wall -I"$TOP/console/trace" -I"$TOP/console/net" -I"$TOP/wire" \
	$(pkg-config --cflags msgpack 2>/dev/null) -o "$T/drv" "$T/drv.c" \
	"$TOP/console/trace/con_ev.c" "$TOP/console/trace/con_ev_fmt.c" "$WIRE_LIB" \
	$(pkg-config --libs msgpack 2>/dev/null || echo -lmsgpackc) \
	2>"$T/cc.err" || { cat "$T/cc.err"; fail "driver does not build"; }
"$T/drv" >"$T/out" || { cat "$T/out"; fail "driver failed"; }
cat "$T/out"
cat >"$T/want" <<'WANT'
strings 0
batch1 10
again 0
overlap 5
gap 2
sends 17 dups 15 lost 85 next 102
line [p2 s390x] +0.000000 send    -> t4000a tag 7  320 B  pvm_master.c:57 main
line [p2 s390x] -0.000428 send    -> t4000a tag 7  320 B  pvm_master.c:57 main
batch2 4
recvs 1 tid 40001 activity computing
line [p1 nat] +0.000000 recv    <- t40003 tag 12  64 B
line [p1 nat] +0.000000 recv    <- t80000000 tag 13  4 B
activity waiting
filter 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 0
badfilter -12 trace filter: unknown kind 'nope' (start exit func send recv mcast group special break crash all)
malformed -3 event is not an array of 13 to 15 integers
ring 30 10
stored 16 oldest 24 dropped 24 sends 40 first-seq 24
grown 36 dropped 24 in order
shrunk 20 dropped 40 oldest-seq 40 in order
unbounded 1100000 dropped 0 in order
WANT
diff -u "$T/want" "$T/out" || fail "event store differs"
ok "duplicates dropped, gaps and losses counted, ring bounded and resized, lines and filters"
