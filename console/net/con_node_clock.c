/*
 * con_node_clock.c — clock sampling of the nodes (con_node.h, internals
 * in con_node_int.h): PING/PONG exchanges that estimate each node's clock
 * offset (the best sample is kept, every sample goes to con_clk for the
 * analysis), the samples taken when a node connects, and the bursts that
 * re-sample every up node while the console waits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_clk.h"
#include "con_node_int.h"
#include "wire.h"

/* ---- clock ------------------------------------------------------------ */

/* One PING/PONG exchange on an open connection; see con_node_ping.
 * *broken tells whether a failure ruined the connection. */
static int con_node_ping_raw(con_node *n, con_clock *s, int *broken,
			     char *err, size_t errlen)
{
	uint64_t t0, t3;
	wire_pong p = {0, 0, 0};
	ana_clock_sample cs;
	wire_msg m;
	int rc;

	t0 = wire_now_ns();
	rc = wire_pack_ping(wire_peer_out(&n->peer), wire_peer_seq(&n->peer),
			    t0, n->peer.max_frame);
	if (rc < 0) {
		*broken = 0;
		snprintf(err, errlen, "cannot encode PING");
		return rc;
	}
	do {
		rc = con_node_expect(n, WIRE_PONG, &m, broken, err, errlen);
		if (rc == 0 && wire_unpack_pong(&m, &p, err, errlen) != 0)
			rc = WIRE_EMALFORMED;
	} while (rc == 0 && p.t_console != t0); /* skip stale answers */
	if (rc < 0)
		return rc;
	t3 = wire_now_ns();
	s->valid = 1;
	s->rtt_ns = (int64_t)(t3 - t0) - (int64_t)(p.t_send - p.t_recv);
	if (s->rtt_ns < 0)
		s->rtt_ns = 0;
	s->offset_ns = ((int64_t)(p.t_recv - t0) + (int64_t)(p.t_send - t3))
		       / 2;
	s->err_ns = s->rtt_ns / 2;
	if (!n->clock.valid || s->rtt_ns < n->clock.rtt_ns)
		n->clock = *s;
	cs.t0 = (int64_t)t0;
	cs.t1 = (int64_t)p.t_recv;
	cs.t2 = (int64_t)p.t_send;
	cs.t3 = (int64_t)t3;
	if (con_clk_add(n->spec.name, &cs) != 0) {
		*broken = 0;
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	return 0;
}

/* Takes CON_NODE_PINGS samples and keeps the best.  0 or a code. */
int con_node_clock_init(con_node *n, char *err, size_t errlen)
{
	con_clock s;
	int i, rc, broken;

	memset(&n->clock, 0, sizeof n->clock);
	for (i = 0; i < CON_NODE_PINGS; i++) {
		rc = con_node_ping_raw(n, &s, &broken, err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Public ping: refuses a down node, marks it down if the link broke. */
int con_node_ping(con_node *n, con_clock *sample, char *err, size_t errlen)
{
	char why[WIRE_TEXT_MAX];
	int rc, broken = 0;

	if (!n->up) {
		snprintf(err, errlen, "node %s: is down (%s)", n->spec.name,
			 n->reason);
		return WIRE_ESTATE;
	}
	rc = con_node_ping_raw(n, sample, &broken, why, sizeof why);
	if (rc < 0) {
		snprintf(err, errlen, "node %s: ping: %s", n->spec.name, why);
		if (broken)
			con_node_down(n, why);
	}
	return rc;
}

/* ---- clock re-sampling ----------------------------------------------- */

static uint64_t con_clock_every_ns;  /* re-sampling interval, 0: never */
static uint64_t con_clock_last_ns;   /* when the last burst was taken */

/* Reads PARAVT_CLOCK_INTERVAL (seconds; unset or bad: the default). */
static uint64_t con_node_clock_interval(void)
{
	const char *v = getenv("PARAVT_CLOCK_INTERVAL");
	double secs = CON_NODE_CLOCK_SECS;
	char *end;

	if (v != NULL && v[0] != '\0') {
		secs = strtod(v, &end);
		if (*end != '\0' || secs < 0 || secs > 86400)
			secs = CON_NODE_CLOCK_SECS;
	}
	return (uint64_t)(secs * 1e9);
}

/* Keeps a happening of a re-sampling ping for con_node_check_all. */
static void con_node_untold(con_node *n, int kind, const char *text)
{
	n->untold = 1;
	n->untold_kind = kind;
	snprintf(n->untold_text, sizeof n->untold_text, "%s", text);
}

/* A burst of CON_NODE_BURST pings to n; a broken link marks it down, and
 * either failure is kept to be announced. */
static void con_node_burst(con_node *n)
{
	char why[WIRE_TEXT_MAX];
	con_clock s;
	int i, broken;

	for (i = 0; i < CON_NODE_BURST && n->up; i++) {
		if (con_node_ping_raw(n, &s, &broken, why, sizeof why) == 0)
			continue;
		if (broken) {
			con_node_down(n, why);
			con_node_untold(n, CON_NODE_EV_DOWN, n->reason);
		} else {
			con_node_untold(n, CON_NODE_EV_ERROR, why);
		}
		return;
	}
}

/* Every interval, a burst to every up node (con_node.h). */
void con_node_clock_poll(void)
{
	uint64_t now = wire_now_ns();
	con_node *n;

	if (con_clock_every_ns == 0 ||
	    now - con_clock_last_ns < con_clock_every_ns)
		return;
	for (n = con_node_first(); n != NULL; n = n->next)
		if (n->up && !n->untold)
			con_node_burst(n);
	con_clock_last_ns = wire_now_ns();
}

/* Sets the interval of the environment, once. */
void con_node_clock_start(void)
{
	static int started;

	if (started)
		return;
	started = 1;
	con_clock_every_ns = con_node_clock_interval();
	con_clock_last_ns = wire_now_ns();
}
