/*
 * cmd_order.c — `trace check` (con_cmd.h): what the analysis made of
 * the events so far (con_ana_get): each node's clock model, the matching,
 * the measured order and its repair by the logical clock, compensation,
 * and a count of receives that come before their send in the global
 * order (the compensated view every display uses) and in the repaired
 * measured order.  The lines are meant to be grepped by scripts; their
 * wording is part of the interface (documented in the help text and in
 * paravt(1)):
 *
 *   clock of node NAME: offset +1.234ms ±0.021ms, drift +0.000ppm, 14 samples
 *   events: 120
 *   matched pairs: 24, multicast pairs: 0, group instances: 0
 *   unmatched: 0 sends, 0 receives
 *   measured order: 3 receives before their send; logical clock repaired
 *     5 events (largest move 12.5 µs)          (one line)
 *   compensated: 2 receives moved, 0 wildcard receives took another path
 *   inversions in the global order: 0
 *   inversions in the repaired measured order: 0
 */
#include <stdio.h>

#include "con_ana.h"
#include "con_clk.h"
#include "con_cmd.h"
#include "con_ev.h"
#include "wire.h"

#define CON_CHECK_MS(ns) ((double)(ns) / 1e6)
#define CON_CHECK_US(ns) ((double)(ns) / 1e3)

/* Prints what the link probe measured of the path to node. */
static void con_check_link(const char *node, const ana_link *l)
{
	char text[200];

	con_clk_link_text(l, text, sizeof text);
	printf("link of node %s: %s\n", node, text);
}

/* Prints the clock model of every node of the trace (the offset at the
 * model's reference time), how many samples the registry holds, and the
 * path to it when it was measured. */
static void con_check_clocks(const ana_trace *tr)
{
	const ana_clock_sample *s;
	const ana_clock *c;
	uint32_t i;
	size_t n;

	for (i = 0; i < tr->nnodes; i++) {
		c = &tr->nodes[i].clock;
		n = con_clk_samples(tr->nodes[i].name, &s);
		printf("clock of node %s: offset %+.3fms \xc2\xb1%.3fms, "
		       "drift %+.3fppm, %zu samples\n", tr->nodes[i].name,
		       CON_CHECK_MS(c->offset_ns), CON_CHECK_MS(c->err_ns),
		       c->drift * 1e6, n);
		if (tr->nodes[i].link.valid)
			con_check_link(tr->nodes[i].name,
				       &tr->nodes[i].link);
	}
}

/* Prints the figures of the passes. */
static void con_check_summary(const ana_summary *s)
{
	printf("events: %llu\n", (unsigned long long)s->events);
	printf("matched pairs: %llu, multicast pairs: %llu, "
	       "group instances: %llu\n", (unsigned long long)s->pairs,
	       (unsigned long long)s->mcast_pairs,
	       (unsigned long long)s->groups);
	printf("unmatched: %llu sends, %llu receives\n",
	       (unsigned long long)s->unmatched_sends,
	       (unsigned long long)s->unmatched_recvs);
	printf("measured order: %llu receives before their send; logical "
	       "clock repaired %llu events (largest move %.1f \xc2\xb5s)\n",
	       (unsigned long long)s->violations,
	       (unsigned long long)s->repairs,
	       CON_CHECK_US(s->max_repair_ns));
	printf("compensated: %llu receives moved, %llu wildcard receives "
	       "took another path\n", (unsigned long long)s->moved,
	       (unsigned long long)s->diverged);
}

/* The tasks' event rings: records lost and waits for room (one line,
 * when there was any). */
static void con_check_rings(void)
{
	con_ev_stats t;

	con_ev_totals(&t);
	if (t.lost == 0 && t.waits == 0)
		return;
	printf("event rings: %llu events lost; tasks waited %llu times "
	       "(%.3f ms) for room\n", (unsigned long long)t.lost,
	       (unsigned long long)t.waits, (double)t.wait_us / 1e3);
}

/* Counts the receives before their send in the repaired measured order
 * (*order) and in the compensated one (*comp), leaving tr sorted as
 * con_ana_get gave it (ANA_VIEW_COMP).  0 or a code. */
static int con_check_inversions(ana_trace *tr, uint64_t *order,
				uint64_t *comp)
{
	int rc = ana_sort(tr, ANA_VIEW_ORDER);

	*order = ana_count_inversions(tr);
	if (rc == 0)
		rc = ana_sort(tr, ANA_VIEW_COMP);
	*comp = ana_count_inversions(tr);
	return rc;
}

/* trace check */
int con_trace_check(int argc, char **argv, char *err, size_t errlen)
{
	uint64_t comp, order;
	ana_trace *tr;

	(void)argv;
	if (argc != 1) {
		snprintf(err, errlen, "usage: trace check");
		return WIRE_EARG;
	}
	tr = con_ana_get(err, errlen);
	if (tr == NULL)
		return WIRE_ESTATE;
	if (con_check_inversions(tr, &order, &comp) != 0) {
		snprintf(err, errlen, "trace check: out of memory");
		return WIRE_ENOMEM;
	}
	con_check_clocks(tr);
	con_check_summary(&tr->sum);
	con_check_rings();
	printf("inversions in the global order: %llu\n",
	       (unsigned long long)comp);
	printf("inversions in the repaired measured order: %llu\n",
	       (unsigned long long)order);
	return 0;
}
