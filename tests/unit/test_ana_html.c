/*
 * test_ana_html.c — unit tests of the HTML report (ana_out_html,
 * ana_out.h) on hand-made traces: every part is there with its id, one
 * line.msg per matched message, one rect.cell per pair of tasks, the
 * polygons of the balance, the efficiency table's figures; strings from
 * the trace are escaped; nothing refers to the network; a large trace is
 * capped with a note.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ana.h"
#include "ana_out.h"
#include "../../wrappers/pvt_event.h"

/* Appends an event to process p; returns its index. */
static uint32_t ut_ev(ana_trace *tr, uint32_t p, uint16_t kind, uint16_t op,
		      int64_t t, int32_t peer, uint32_t file, int32_t line)
{
	ana_ev e;

	memset(&e, 0, sizeof e);
	e.t_ns = t;
	e.kind = kind;
	e.op = op;
	e.bytes = kind == PVT_EV_SEND_END || kind == PVT_EV_RECV_END ? 64 : -1;
	e.peer = peer;
	e.tag = 7;
	e.file = file;
	e.line = line;
	e.seq = tr->procs[p].nev;
	assert_int_equal(ana_add_event(tr, p, &e), 0);
	return tr->procs[p].nev - 1;
}

/* A trace of n tasks on one node (tids 0x40001 + i) where task 0 sends
 * k messages to each other task, one at a time, from a file whose name
 * needs escaping. */
static ana_trace *ut_star(uint32_t n, uint32_t k)
{
	ana_trace *tr = ana_new();
	uint32_t i, j, s, r, f;
	char name[ANA_NAME_MAX];
	int64_t t = 1000;

	assert_non_null(tr);
	assert_int_equal(ana_add_node(tr, "n<1>", "x", NULL), 0);
	f = ana_intern(tr, "dir/a<b>&\"c\".c");
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "p%u", i + 1);
		assert_int_equal(ana_add_proc(tr, name, 0), (int)i);
		ut_ev(tr, i, PVT_EV_PROG_START, 0, 0, 0x40001 + (int32_t)i,
		      f, 1);
	}
	for (j = 0; j < k; j++)
		for (i = 1; i < n; i++, t += 1000) {
			ut_ev(tr, 0, PVT_EV_SEND_START, PVT_OP_PVM_SEND, t,
			      0x40001 + (int32_t)i, f, 10);
			s = ut_ev(tr, 0, PVT_EV_SEND_END, PVT_OP_PVM_SEND,
				  t + 100, 0x40001 + (int32_t)i, f, 10);
			ut_ev(tr, i, PVT_EV_RECV_START, PVT_OP_PVM_RECV,
			      t - 500, 0x40001, f, 20);
			r = ut_ev(tr, i, PVT_EV_RECV_END, PVT_OP_PVM_RECV,
				  t + 300, 0x40001, f, 20);
			tr->procs[0].ev[s].match = (ana_ref){i, r};
			tr->procs[i].ev[r].match = (ana_ref){0, s};
		}
	for (i = 0; i < n; i++)
		ut_ev(tr, i, PVT_EV_PROG_EXIT, 0, t + 5000, -1, f, 30);
	return tr;
}

/* The report of tr in the raw view as a string (caller frees). */
static char *ut_report(const ana_trace *tr)
{
	char *buf = NULL, err[128] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ana_out_html(tr, ANA_VIEW_RAW, "run <1> & more", f,
				      err, sizeof err), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Occurrences of needle in s. */
static size_t ut_count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

static void test_parts(void **state)
{
	ana_trace *tr = ut_star(4, 2);
	char *h = ut_report(tr);

	assert_non_null(strstr(h, "<!DOCTYPE html>"));
	assert_non_null(strstr(h, "<svg id=\"timeline\""));
	assert_non_null(strstr(h, "<svg id=\"matrix\""));
	assert_non_null(strstr(h, "<svg id=\"balance\""));
	assert_non_null(strstr(h, "<table id=\"efficiency\""));
	assert_non_null(strstr(h, "<div id=\"details\""));
	assert_int_equal(ut_count(h, "<line class=\"msg\""), 3 * 2);
	assert_int_equal(ut_count(h, "<rect class=\"cell\""), 4 * 4);
	assert_int_equal(ut_count(h, "data-n=\"2\""), 3);
	assert_int_equal(ut_count(h, "<polygon class=\"load\""), 1);
	assert_int_equal(ut_count(h, "<polygon class=\"mean\""), 1);
	/* 4 blocks per message (send and receive) + 4 lives */
	assert_int_equal(ut_count(h, "<rect class=\"blk "), 2 * 3 * 2);
	assert_int_equal(ut_count(h, "<rect class=\"comp\""), 4);
	assert_int_equal(ut_count(h, "<tr><td class=\"l\">p"), 4);
	assert_non_null(strstr(h, "<td class=\"l\">p2 t40002</td>"));
	assert_non_null(strstr(h, "</html>\n"));
	free(h);
	ana_free(tr);
}

/* Names from the trace and the title are escaped; nothing is fetched. */
static void test_escaping(void **state)
{
	ana_trace *tr = ut_star(3, 1);
	char *h = ut_report(tr);

	assert_null(strstr(h, "a<b>"));
	assert_null(strstr(h, "n<1>"));
	assert_null(strstr(h, "run <1> & more"));
	assert_non_null(strstr(h, "<title>run &lt;1&gt; &amp; more</title>"));
	assert_non_null(strstr(h,
		"data-src=\"dir/a&lt;b&gt;&amp;&quot;c&quot;.c:20\""));
	assert_non_null(strstr(h, "n&lt;1&gt;"));
	assert_null(strstr(h, "http://"));
	assert_null(strstr(h, "https://"));
	assert_null(strstr(h, " src="));
	assert_null(strstr(h, "<link"));
	free(h);
	ana_free(tr);
}

/* A large trace draws at most 20000 lines and says what it left out. */
static void test_cap(void **state)
{
	ana_trace *tr = ut_star(3, 11000);
	char *h = ut_report(tr);

	assert_int_equal(ut_count(h, "<line class=\"msg\""), 20000);
	assert_int_equal(ut_count(h, "<rect class=\"blk "), 20000);
	assert_non_null(strstr(h, "24000 blocks and 2000 messages not "
				  "drawn"));
	assert_non_null(strstr(h, "data-n=\"11000\""));
	free(h);
	ana_free(tr);
}

/* No tasks at all still makes a page. */
static void test_empty(void **state)
{
	ana_trace *tr = ana_new();
	char *h;

	assert_non_null(tr);
	h = ut_report(tr);
	assert_non_null(strstr(h, "<svg id=\"timeline\""));
	assert_int_equal(ut_count(h, "class=\"msg\""), 0);
	assert_non_null(strstr(h, "</html>\n"));
	free(h);
	ana_free(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
