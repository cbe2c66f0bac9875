/*
 * test_ana_out.c — unit tests of the exports (ana_out.h: Chrome JSON and
 * OTF2) and of the calls walker they share (ana_walk.h).
 *
 * Traces are built by hand with the ana.h builder and their partners set
 * as ana_match would (ut_link), so the tests check the writers alone:
 * one flow start and one flow end per matched message (multicasts
 * included), JSON strings escaped (quotes, control characters, bytes that
 * are not UTF-8), times in microseconds with three decimals, nesting
 * repaired by the walker; the OTF2 archive read back by otf2-print with
 * one MPI_SEND and one MPI_RECV per matched message; and the errors: an
 * existing archive, a directory that cannot be made, an empty trace.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ana.h"
#include "ana_out.h"
#include "ana_walk.h"
#include "../../wrappers/pvt_event.h"

/* Appends an event to process p at time t (all three views the same);
 * returns its index. */
static uint32_t ut_ev(ana_trace *tr, uint32_t p, uint16_t kind, uint16_t op,
		      int64_t t, int32_t peer, int32_t tag, int64_t bytes)
{
	ana_ev e, *s;

	memset(&e, 0, sizeof e);
	e.t_ns = t;
	e.kind = kind;
	e.op = op;
	e.bytes = bytes;
	e.peer = peer;
	e.tag = tag;
	e.line = 10 + (int32_t)tr->procs[p].nev;
	e.file = ana_intern(tr, "m\"a\x01in\xff.c");
	e.func = ana_intern(tr, "main");
	e.seq = tr->procs[p].nev;
	assert_int_equal(ana_add_event(tr, p, &e), 0);
	s = &tr->procs[p].ev[tr->procs[p].nev - 1];
	s->c_ns = s->o_ns = t;
	return tr->procs[p].nev - 1;
}

/* Makes send END (sp, si) and receive END (rp, ri) partners. */
static void ut_link(ana_trace *tr, uint32_t sp, uint32_t si, uint32_t rp,
		    uint32_t ri)
{
	if (tr->procs[sp].ev[si].match.proc == ANA_NONE)
		tr->procs[sp].ev[si].match = (ana_ref){rp, ri};
	tr->procs[rp].ev[ri].match = (ana_ref){sp, si};
}

/* A call START..END of kind k (the START kind) and op. */
static uint32_t ut_call(ana_trace *tr, uint32_t p, uint16_t k, uint16_t op,
			int64_t t0, int64_t t1, int32_t peer, int32_t tag,
			int64_t bytes)
{
	ut_ev(tr, p, k, op, t0, k == PVT_EV_RECV_START ? -1 : peer, tag, -1);
	return ut_ev(tr, p, (uint16_t)(k + 1), op, t1, peer, tag, bytes);
}

/* Two nodes, three PVM tasks:
 *   p1 (nat): main() { send -> p2 tag 7; mcast -> p2, p3 tag 9;
 *             recv <- p2 tag 8; breakpoint }; exit
 *   p2 (s390x): recv <- p1; recv <- p1 (mcast); send -> p1; crash
 *   p3 (nat): recv <- p1 (mcast); recv still open at the end.
 * Four matched messages. */
static ana_trace *ut_trace(void)
{
	ana_trace *tr = ana_new();
	uint32_t s1, m1, r1, a, b, c, d, e;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "linux-x86_64", NULL), 0);
	assert_int_equal(ana_add_node(tr, "s390", "linux-s390x", NULL), 1);
	assert_int_equal(ana_add_proc(tr, "p1", 0), 0);
	assert_int_equal(ana_add_proc(tr, "p2", 1), 1);
	assert_int_equal(ana_add_proc(tr, "p3", 0), 2);
	ut_ev(tr, 0, PVT_EV_PROG_START, 0, 1000, 0x40001, -1, -1);
	ut_ev(tr, 0, PVT_EV_FN_ENTER, PVT_OP_RT_FUNC, 1500, -1, -1, -1);
	s1 = ut_call(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 2000, 2500,
		     0x40002, 7, 100);
	m1 = ut_call(tr, 0, PVT_EV_MCAST_START, PVT_OP_PVM_MCAST, 3000, 3200,
		     -1, 9, 16);
	r1 = ut_call(tr, 0, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 3300, 9000,
		     0x40002, 8, 4);
	ut_call(tr, 0, PVT_EV_BREAK_START, PVT_OP_RT_BREAK, 9100, 9100, -1,
		-1, -1);
	ut_ev(tr, 0, PVT_EV_FN_EXIT, PVT_OP_RT_FUNC, 9500, -1, -1, -1);
	ut_ev(tr, 0, PVT_EV_PROG_EXIT, 0, 9600, -1, -1, -1);

	ut_ev(tr, 1, PVT_EV_PROG_START, 0, 1100, 0x40002, -1, -1);
	a = ut_call(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 1200, 2600,
		    0x40001, 7, 100);
	b = ut_call(tr, 1, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 2700, 3400,
		    0x40001, 9, 16);
	c = ut_call(tr, 1, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 3500, 3600,
		    0x40001, 8, 4);
	ut_ev(tr, 1, PVT_EV_CRASH, 0, 3700, -1, -1, -1);
	tr->procs[1].ev[tr->procs[1].nev - 1].aux = 11;

	ut_ev(tr, 2, PVT_EV_PROG_START, 0, 1200, 0x40003, -1, -1);
	d = ut_call(tr, 2, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 1300, 3500,
		    0x40001, 9, 16);
	e = ut_ev(tr, 2, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 4000, -1, -1,
		  -1);
	(void)e;
	ut_link(tr, 0, s1, 1, a);
	ut_link(tr, 0, m1, 1, b);
	ut_link(tr, 0, m1, 2, d);
	ut_link(tr, 1, c, 0, r1);
	return tr;
}

/* Occurrences of needle in hay. */
static int ut_count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* The Chrome JSON of tr in view, as a string the caller frees. */
static char *ut_chrome(const ana_trace *tr, int view)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ana_out_chrome(tr, view, f, err, sizeof err), 0);
	fclose(f);
	return buf;
}

static void test_chrome_flows(void **state)
{
	ana_trace *tr = ut_trace();
	char *j = ut_chrome(tr, ANA_VIEW_COMP);
	char id[64];
	int i;

	assert_true(strncmp(j, "{\"traceEvents\":[", 16) == 0);
	assert_non_null(strstr(j, "\"displayTimeUnit\":\"ns\""));
	assert_int_equal(ut_count(j, "\"ph\":\"s\""), 4);
	assert_int_equal(ut_count(j, "\"ph\":\"f\""), 4);
	assert_int_equal(ut_count(j, "\"bp\":\"e\""), 4);
	for (i = 1; i <= 4; i++) {
		snprintf(id, sizeof id, "\"id\":%d", i);
		assert_int_equal(ut_count(j, id), 2);
	}
	assert_non_null(strstr(j, "\"messages\":4"));
	/* The send p1 -> p2 (2000..2500, t0 = 1000) binds inside at its
	 * start, 2001 (a message leaves when the send starts); its receive
	 * (1200..2600) at 2599. */
	assert_non_null(strstr(j, "\"ph\":\"s\",\"pid\":1,\"tid\":1,"
			       "\"ts\":1.001,\"id\":1}"));
	assert_non_null(strstr(j, "\"ph\":\"f\",\"pid\":2,\"tid\":2,"
			       "\"ts\":1.599,\"id\":1,\"bp\":\"e\"}"));
	free(j);
	ana_free(tr);
}

static void test_chrome_names_and_escapes(void **state)
{
	ana_trace *tr = ut_trace();
	char *j = ut_chrome(tr, ANA_VIEW_RAW);

	assert_non_null(strstr(j, "\"args\":{\"name\":\"p1 t40001\"}"));
	assert_non_null(strstr(j, "\"args\":{\"name\":\"s390 (linux-s390x)\"}"));
	/* m"a\x01in\xff.c: quote escaped, control char as \u0001, the
	 * stray byte as U+FFFD. */
	assert_non_null(strstr(j, "\"at\":\"m\\\"a\\u0001in\\ufffd.c:"));
	assert_null(strchr(j, '\x01'));
	assert_null(strchr(j, '\xff'));
	/* Calls, user function, instants, the open receive. */
	assert_non_null(strstr(j, "{\"name\":\"pvm_send\",\"cat\":\"send\","
			       "\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1.000,"
			       "\"dur\":0.500,"));
	assert_non_null(strstr(j, "{\"name\":\"main\",\"cat\":\"function\","
			       "\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0.500,"
			       "\"dur\":8.000,"));
	assert_non_null(strstr(j, "\"name\":\"breakpoint 0\",\"cat\":\"break\""
			       ",\"ph\":\"i\""));
	assert_non_null(strstr(j, "\"name\":\"crash: signal 11\""));
	assert_non_null(strstr(j, "\"name\":\"exit 0\""));
	assert_int_equal(ut_count(j, "\"open\":true"), 1);
	assert_non_null(strstr(j, "\"peer\":\"t40002\",\"tag\":7"));
	free(j);
	ana_free(tr);
}

/* Records what the walker reports, as a string of letters. */
typedef struct ut_seq {
	char s[256];
	size_t n;
} ut_seq;

static int ut_enter(void *ctx, const ana_call *c)
{
	ut_seq *q = ctx;

	q->n += (size_t)snprintf(q->s + q->n, sizeof q->s - q->n, "(%u",
				 (unsigned)c->s_idx);
	return 0;
}

static int ut_leave(void *ctx, const ana_call *c)
{
	ut_seq *q = ctx;

	q->n += (size_t)snprintf(q->s + q->n, sizeof q->s - q->n, "%s%ld)",
				 c->e == NULL ? "!" : "", (long)c->te);
	return 0;
}

static void test_walk_nesting(void **state)
{
	ana_trace *tr = ana_new();
	ana_walk_ops ops;
	ut_seq q;

	memset(&q, 0, sizeof q);
	ops = (ana_walk_ops){&q, ut_enter, ut_leave, NULL};
	assert_int_equal(ana_add_node(tr, "n", "", NULL), 0);
	assert_int_equal(ana_add_proc(tr, "p1", 0), 0);
	/* enter f; send START; (lost send END) recv START 30, recv END 40
	 * closes only the recv; f exit at 50 closes the send left open;
	 * a lone send END at 60; then a time going backwards (55 -> 60),
	 * and a recv START never ended. */
	ut_ev(tr, 0, PVT_EV_FN_ENTER, PVT_OP_RT_FUNC, 10, -1, -1, -1);
	ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, 20, 2, 1, -1);
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 30, -1, -1, -1);
	ut_ev(tr, 0, PVT_EV_RECV_END, PVT_OP_PVM_RECV, 40, 2, 1, 8);
	ut_ev(tr, 0, PVT_EV_FN_EXIT, PVT_OP_RT_FUNC, 50, -1, -1, -1);
	ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND, 60, 2, 1, 8);
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_PVM_RECV, 55, -1, -1, -1);
	assert_int_equal(ana_walk_calls(tr, 0, ANA_VIEW_RAW, &ops), 0);
	assert_string_equal(q.s, "(0(1(240)!50)50)(560)(6!60)");
	ana_free(tr);
}

/* Runs otf2-print on the archive and counts lines starting with each
 * word; returns -1 when otf2-print is not there. */
static int ut_otf2_print(const char *path, int *sends, int *recvs,
			 int *enters, int *leaves)
{
	char cmd[4200], line[1024];
	FILE *p;

	if (system("command -v otf2-print >/dev/null 2>&1") != 0)
		return -1;
	snprintf(cmd, sizeof cmd, "otf2-print '%s' 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	*sends = *recvs = *enters = *leaves = 0;
	while (fgets(line, sizeof line, p) != NULL) {
		*sends += strncmp(line, "MPI_SEND ", 9) == 0;
		*recvs += strncmp(line, "MPI_RECV ", 9) == 0;
		*enters += strncmp(line, "ENTER ", 6) == 0;
		*leaves += strncmp(line, "LEAVE ", 6) == 0;
	}
	return pclose(p) == 0 ? 0 : -2;
}

static void test_otf2_archive(void **state)
{
	ana_trace *tr = ut_trace();
	char dir[] = "/tmp/test_ana_out.XXXXXX", path[256], err[512];
	char cmd[300];
	int sends, recvs, enters, leaves, rc;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/out", dir);
	assert_int_equal(ana_out_otf2(tr, ANA_VIEW_COMP, path, "paravt", err,
				      sizeof err), 0);
	snprintf(path, sizeof path, "%s/out/paravt.otf2", dir);
	assert_int_equal(access(path, R_OK), 0);
	rc = ut_otf2_print(path, &sends, &recvs, &enters, &leaves);
	if (rc != -1) {
		assert_int_equal(rc, 0);
		assert_int_equal(sends, 4);
		assert_int_equal(recvs, 4);
		/* p1: main, send, mcast, recv, break; p2: 3; p3: 2 (one
		 * open, closed at the end). */
		assert_int_equal(enters, 10);
		assert_int_equal(leaves, 10);
	}
	/* The same archive again is refused, and nothing is touched. */
	snprintf(path, sizeof path, "%s/out", dir);
	assert_int_equal(ana_out_otf2(tr, ANA_VIEW_COMP, path, "paravt", err,
				      sizeof err), ANA_EARG);
	assert_non_null(strstr(err, "exists already"));
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	ana_free(tr);
}

static void test_otf2_errors(void **state)
{
	ana_trace *tr = ut_trace(), *empty = ana_new();
	char dir[] = "/tmp/test_ana_out.XXXXXX", path[256], err[512];
	char cmd[300];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	/* A directory under a plain file cannot be made. */
	snprintf(path, sizeof path, "%s/file", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(ana_out_otf2(tr, ANA_VIEW_COMP, path, "paravt", err,
				      sizeof err), ANA_EIO);
	assert_non_null(strstr(err, "is not a directory"));
	snprintf(path, sizeof path, "%s/file/sub", dir);
	assert_int_equal(ana_out_otf2(tr, ANA_VIEW_COMP, path, "paravt", err,
				      sizeof err), ANA_EIO);
	assert_non_null(strstr(err, "cannot create"));
	/* No events. */
	snprintf(path, sizeof path, "%s/empty", dir);
	assert_int_equal(ana_out_otf2(empty, ANA_VIEW_COMP, path, "paravt",
				      err, sizeof err), ANA_EARG);
	assert_non_null(strstr(err, "no events"));
	assert_int_equal(ana_out_otf2(tr, 7, path, "paravt", err, sizeof err),
			 ANA_EARG);
	assert_int_equal(ana_out_otf2(tr, 0, path, "a/b", err, sizeof err),
			 ANA_EARG);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	ana_free(empty);
	ana_free(tr);
}

/* Two MPI ranks exchange with MPI_Sendrecv (halves interleaved as the
 * wrapper records them), then rank 0 posts an MPI_Irecv that rank 1's
 * MPI_Send fills, completed inside MPI_Wait. */
static ana_trace *ut_mpi(void)
{
	ana_trace *tr = ana_new();
	uint32_t s[2], r[2], i, w, s1;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "", NULL), 0);
	assert_int_equal(ana_add_proc(tr, "p1", 0), 0);
	assert_int_equal(ana_add_proc(tr, "p2", 0), 1);
	for (i = 0; i < 2; i++) {
		ut_ev(tr, i, PVT_EV_PROG_START, 0, 0, (int32_t)i, -1, -1);
		ut_ev(tr, i, PVT_EV_SEND_START, PVT_OP_MPI_SENDRECV, 10,
		      (int32_t)(1 - i), 5, 8);
		ut_ev(tr, i, PVT_EV_RECV_START, PVT_OP_MPI_SENDRECV, 10,
		      (int32_t)(1 - i), 5, -1);
		s[i] = ut_ev(tr, i, PVT_EV_SEND_END, PVT_OP_MPI_SENDRECV, 30,
			     (int32_t)(1 - i), 5, 8);
		r[i] = ut_ev(tr, i, PVT_EV_RECV_END, PVT_OP_MPI_SENDRECV, 40,
			     (int32_t)(1 - i), 5, 8);
	}
	ut_link(tr, 0, s[0], 1, r[1]);
	ut_link(tr, 1, s[1], 0, r[0]);
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, 50, 1, 6, -1);
	ut_ev(tr, 0, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAIT, 60, -1, -1, -1);
	w = ut_ev(tr, 0, PVT_EV_RECV_END, PVT_OP_MPI_WAIT, 80, 1, 6, 4);
	ut_ev(tr, 0, PVT_EV_SPECIAL_END, PVT_OP_MPI_WAIT, 90, -1, -1, -1);
	ut_ev(tr, 1, PVT_EV_SEND_START, PVT_OP_MPI_SEND, 55, 0, 6, 4);
	s1 = ut_ev(tr, 1, PVT_EV_SEND_END, PVT_OP_MPI_SEND, 65, 0, 6, 4);
	ut_link(tr, 1, s1, 0, w);
	return tr;
}

static void test_mpi_halves(void **state)
{
	ana_trace *tr = ut_mpi();
	ana_walk_ops ops;
	char *j, dir[] = "/tmp/test_ana_out.XXXXXX", path[256], err[512];
	char cmd[300];
	int sends, recvs, enters, leaves;
	ut_seq q;

	/* Rank 0: Sendrecv one call (10..40), Irecv a post of zero length,
	 * Wait (60..90) with the receive END inside at 80. */
	memset(&q, 0, sizeof q);
	ops = (ana_walk_ops){&q, ut_enter, ut_leave, NULL};
	assert_int_equal(ana_walk_calls(tr, 0, ANA_VIEW_RAW, &ops), 0);
	assert_string_equal(q.s, "(140)(550)(6(780)90)");
	j = ut_chrome(tr, ANA_VIEW_RAW);
	assert_int_equal(ut_count(j, "\"ph\":\"s\""), 3);
	assert_int_equal(ut_count(j, "\"ph\":\"f\""), 3);
	assert_int_equal(ut_count(j, "\"name\":\"MPI_Sendrecv\""), 2);
	assert_non_null(strstr(j, "\"name\":\"p1 r0\""));
	/* The send half binds at 11 inside 10..40 (its start), the receive
	 * at 39. */
	assert_non_null(strstr(j, "\"ph\":\"s\",\"pid\":1,\"tid\":1,"
			       "\"ts\":0.011,"));
	assert_non_null(strstr(j, "\"ph\":\"f\",\"pid\":1,\"tid\":1,"
			       "\"ts\":0.039,"));
	/* The receive MPI_Wait completed: its flow ends inside the wait
	 * (60..90) at 79, after the wait's block. */
	assert_non_null(strstr(j, "\"name\":\"MPI_Wait\",\"cat\":\"special\""
			       ",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0.060,"
			       "\"dur\":0.030,"));
	assert_non_null(strstr(j, "\"ph\":\"f\",\"pid\":1,\"tid\":1,"
			       "\"ts\":0.079,\"id\":3,"));
	assert_int_equal(ut_count(j, "\"name\":\"MPI_Wait\""), 1);
	free(j);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(ana_out_otf2(tr, ANA_VIEW_RAW, dir, "x", err,
				      sizeof err), 0);
	snprintf(path, sizeof path, "%s/x.otf2", dir);
	if (ut_otf2_print(path, &sends, &recvs, &enters, &leaves) != -1) {
		assert_int_equal(sends, 3);
		assert_int_equal(recvs, 3);
		/* p1: Sendrecv, Irecv, Wait (the receive inside it, no
		 * region of its own); p2: Sendrecv, Send. */
		assert_int_equal(enters, 5);
		assert_int_equal(leaves, 5);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	ana_free(tr);
}

/* Two MPI ranks whose order in the trace is not their rank order: p1 is
 * rank 1, p2 rank 0.  p1 sends to rank 0, then both call MPI_Barrier and
 * MPI_Bcast (root 0, 8 bytes) over both ranks. */
static ana_trace *ut_mpi_ranks(void)
{
	ana_trace *tr = ana_new();
	uint32_t s, r, i, k;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "nat", "", NULL), 0);
	assert_int_equal(ana_add_proc(tr, "p1", 0), 0);
	assert_int_equal(ana_add_proc(tr, "p2", 0), 1);
	ut_ev(tr, 0, PVT_EV_PROG_START, 0, 0, 1, -1, -1);
	ut_ev(tr, 1, PVT_EV_PROG_START, 0, 0, 0, -1, -1);
	s = ut_call(tr, 0, PVT_EV_SEND_START, PVT_OP_MPI_SEND, 10, 20, 0, 3,
		    8);
	r = ut_call(tr, 1, PVT_EV_RECV_START, PVT_OP_MPI_RECV, 5, 30, 1, 3,
		    8);
	ut_link(tr, 0, s, 1, r);
	for (i = 0; i < 2; i++) {
		ut_call(tr, i, PVT_EV_GROUP_START, PVT_OP_MPI_BARRIER, 40, 50,
			-1, -1, -1);
		ut_call(tr, i, PVT_EV_MCAST_START, PVT_OP_MPI_BCAST, 60, 70, 0,
			-1, 8);
		for (k = 1; k < tr->procs[i].nev; k++)
			if (tr->procs[i].ev[k].op != PVT_OP_MPI_SEND &&
			    tr->procs[i].ev[k].op != PVT_OP_MPI_RECV)
				tr->procs[i].ev[k].aux = 2;
	}
	return tr;
}

static void test_otf2_mpi_ranks(void **state)
{
	ana_trace *tr = ut_mpi_ranks();
	char dir[] = "/tmp/test_ana_out.XXXXXX", cmd[512], err[512];

	assert_non_null(mkdtemp(dir));
	assert_int_equal(ana_out_otf2(tr, ANA_VIEW_RAW, dir, "m", err,
				      sizeof err), 0);
	if (system("command -v otf2-print >/dev/null 2>&1") == 0) {
		/* Ranks: p1 sends to rank 0 (p2), p2 receives from rank 1. */
		snprintf(cmd, sizeof cmd, "otf2-print %s/m.otf2 | grep -q "
			 "'^MPI_SEND  *0 .*Receiver: 0 (\"p2 r0\"'", dir);
		assert_int_equal(system(cmd), 0);
		snprintf(cmd, sizeof cmd, "otf2-print %s/m.otf2 | grep -q "
			 "'^MPI_RECV  *1 .*Sender: 1 (\"p1 r1\"'", dir);
		assert_int_equal(system(cmd), 0);
		/* Two collectives on each rank, begin and end. */
		snprintf(cmd, sizeof cmd, "test $(otf2-print %s/m.otf2 | grep -c"
			 " '^MPI_COLLECTIVE_BEGIN ') = 4 && test $(otf2-print "
			 "%s/m.otf2 | grep -c '^MPI_COLLECTIVE_END ') = 4", dir,
			 dir);
		assert_int_equal(system(cmd), 0);
		/* The communicator's locations in rank order: p2, p1. */
		snprintf(cmd, sizeof cmd, "otf2-print -G %s/m.otf2 | grep -q "
			 "'COMM_LOCATIONS.*Members: \"p2 r0\" <1>, \"p1 r1\" "
			 "<0>'", dir);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	ana_free(tr);
}

/* MPI requests in OTF2: rank 0 posts MPI_Irecv (ref 3) and completes it
 * in MPI_Wait; rank 1 sends with MPI_Isend (ref 9).  otf2-print shows
 * MPI_IRECV_REQUEST at the post, MPI_IRECV in the wait with the same
 * request id, MPI_ISEND and MPI_ISEND_COMPLETE. */
static void test_otf2_requests(void **state)
{
	ana_trace *tr = ana_new();
	char dir[] = "/tmp/test_ana_out.XXXXXX", cmd[512], err[512];
	uint32_t r, sd, p;
	static const char *const want[] = {
		"'^MPI_IRECV_REQUEST .*Request: 3'",
		"'^MPI_IRECV .*Sender: 1 .*Request: 3'",
		"'^MPI_ISEND .*Receiver: 0 .*Request: 9'",
		"'^MPI_ISEND_COMPLETE .*Request: 9'"};

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "n", "linux-x86_64", NULL), 0);
	for (p = 0; p < 2; p++) {
		assert_int_equal(ana_add_proc(tr, p ? "p2" : "p1", 0), (int)p);
		ut_ev(tr, p, PVT_EV_PROG_START, PVT_OP_NONE, 0, (int32_t)p, -1,
		      -1);
	}
	ut_ev(tr, 0, PVT_EV_RECV_START, PVT_OP_MPI_IRECV, 10, 1, 4, -1);
	tr->procs[0].ev[1].ref = 3;
	ut_ev(tr, 0, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAIT, 20, -1, -1, -1);
	r = ut_ev(tr, 0, PVT_EV_RECV_END, PVT_OP_MPI_IRECV, 40, 1, 4, 8);
	tr->procs[0].ev[r].ref = 3;
	ut_ev(tr, 0, PVT_EV_SPECIAL_END, PVT_OP_MPI_WAIT, 50, -1, -1, -1);
	ut_ev(tr, 1, PVT_EV_SEND_START, PVT_OP_MPI_ISEND, 15, 0, 4, 8);
	sd = ut_ev(tr, 1, PVT_EV_SEND_END, PVT_OP_MPI_ISEND, 16, 0, 4, 8);
	tr->procs[1].ev[sd - 1].ref = tr->procs[1].ev[sd].ref = 9;
	ut_link(tr, 1, sd, 0, r);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(ana_out_otf2(tr, ANA_VIEW_RAW, dir, "q", err,
				      sizeof err), 0);
	for (p = 0; p < 4 && system("command -v otf2-print >/dev/null") == 0;
	     p++) {
		snprintf(cmd, sizeof cmd, "otf2-print %s/q.otf2 | grep -q %s",
			 dir, want[p]);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	ana_free(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chrome_flows),
		cmocka_unit_test(test_chrome_names_and_escapes),
		cmocka_unit_test(test_walk_nesting),
		cmocka_unit_test(test_otf2_archive),
		cmocka_unit_test(test_otf2_errors),
		cmocka_unit_test(test_mpi_halves),
		cmocka_unit_test(test_otf2_mpi_ranks),
		cmocka_unit_test(test_otf2_requests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
