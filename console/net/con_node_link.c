/*
 * con_node_link.c — the link probe (con_node_int.h): how fast the path
 * between the console and a node carries data each way, measured when the
 * node is added with LINK_PROBE / LINK_ECHO exchanges (a pad one way, a
 * few bytes the other), and kept in the clock registry (con_clk_set_link)
 * for the trace file and `paravt predict --describe`.
 *
 * A transfer starts at CON_LINK_FIRST bytes and grows four times until
 * it takes CON_LINK_ENOUGH_NS or reaches CON_LINK_MAX (and half the frame
 * limit); then one more of that size is timed, right after (a traffic
 * shaper's burst allowance is used up by then): the exchange's round trip
 * less the daemon's own time and the best small round trip.
 * PARAVT_LINK_PROBE=0 turns it off.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_clk.h"
#include "con_node_int.h"
#include "wire.h"
#include "wire_fmt.h"

#define CON_LINK_FIRST (16u * 1024)      /* the first transfer, bytes */
#define CON_LINK_MAX (4u * 1024 * 1024)  /* the largest */
#define CON_LINK_ENOUGH_NS 10000000      /* a transfer this long will do */

/* One exchange: padlen bytes up, want bytes back.  *ns: its round trip
 * less the daemon's time between receiving and answering.  0, or a code
 * with err (*broken as con_node_expect says). */
static int link_once(con_node *n, const void *pad, size_t padlen,
		     uint64_t want, int64_t *ns, int *broken, char *err,
		     size_t errlen)
{
	uint64_t t0, t3, tc = 0, t1, t2;
	const char *back;
	size_t backlen = 0;
	wire_msg m;
	int rc;

	t0 = wire_now_ns();
	rc = wire_pack(wire_peer_out(&n->peer), WIRE_LINK_PROBE,
		       wire_peer_seq(&n->peer), n->peer.max_frame, t0, want,
		       pad, padlen);
	if (rc < 0) {
		*broken = 0;
		snprintf(err, errlen, "cannot encode LINK_PROBE");
		return rc;
	}
	do {
		rc = con_node_expect(n, WIRE_LINK_ECHO, &m, broken, err,
				     errlen);
		if (rc == 0 && wire_unpack(&m, err, errlen, &tc, &t1, &t2,
					   &back, &backlen) != 0)
			rc = WIRE_EMALFORMED;
	} while (rc == 0 && tc != t0); /* skip stale answers */
	if (rc < 0)
		return rc;
	t3 = wire_now_ns();
	if (backlen != want) {
		*broken = 0;
		snprintf(err, errlen, "LINK_ECHO: %zu bytes back, %llu asked",
			 backlen, (unsigned long long)want);
		return WIRE_EMALFORMED;
	}
	*ns = (int64_t)(t3 - t0) - (int64_t)(t2 - t1);
	return 0;
}

/* The rate one way (up: console to node), bytes/s into *bps, from the
 * first transfer size that takes long enough (*bytes).  buf holds cap
 * bytes of pad.  0 or a code. */
static int link_rate(con_node *n, int up, const unsigned char *buf,
		     size_t cap, double *bps, uint64_t *bytes, int *broken,
		     char *err, size_t errlen)
{
	size_t size = CON_LINK_FIRST;
	int64_t ns = 0;
	int rc;

	for (;;) {
		rc = link_once(n, buf, up ? size : 0, up ? 0 : size, &ns,
			       broken, err, errlen);
		if (rc < 0)
			return rc;
		if (ns >= CON_LINK_ENOUGH_NS || size * 4 > cap)
			break;
		size *= 4;
	}
	/* again at once: a shaper's bucket (tc tbf's burst) that let the
	   first transfer through faster is empty now */
	rc = link_once(n, buf, up ? size : 0, up ? 0 : size, &ns, broken, err,
		       errlen);
	if (rc < 0)
		return rc;
	ns -= n->clock.rtt_ns;
	*bps = (double)size * 1e9 / (double)(ns > 0 ? ns : 1);
	*bytes = size;
	return 0;
}

int con_node_link_measure(con_node *n, char *err, size_t errlen)
{
	const char *e = getenv("PARAVT_LINK_PROBE");
	size_t cap = n->peer.max_frame / 2;
	unsigned char *buf;
	ana_link l;
	int rc, broken = 0;

	if (e != NULL && strcmp(e, "0") == 0)
		return 0;
	if (cap > CON_LINK_MAX)
		cap = CON_LINK_MAX;
	if (cap < CON_LINK_FIRST)
		return 0;
	buf = calloc(1, cap);
	if (buf == NULL)
		return 0; /* not measured: the node works without it */
	memset(&l, 0, sizeof l);
	rc = link_rate(n, 1, buf, cap, &l.up_bps, &l.up_bytes, &broken, err,
		       errlen);
	if (rc == 0)
		rc = link_rate(n, 0, buf, cap, &l.down_bps, &l.down_bytes,
			       &broken, err, errlen);
	free(buf);
	if (rc < 0)
		return broken ? rc : 0; /* an older daemon refuses it */
	l.valid = 1;
	l.rtt_ns = n->clock.rtt_ns;
	(void)con_clk_set_link(n->spec.name, &l); /* else: not kept */
	return 0;
}
