/*
 * ana_sim_desc.c — the traced machine estimated from a trace (ana_sim.h:
 * ana_sim_describe): one node per traced node at speed 1, and the levels'
 * latency and time per byte fitted from the run's messages, or between
 * nodes measured by the link probe (and, for a PVM program, the
 * transport buffer of its direct route between nodes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "ana_sim.h"
#include "ana_sim_int.h"
#include "pvt_event.h"

/* ---- the traced machine ------------------------------------------------- */

/* What PVM's direct route holds of a message while its send returns: the
 * sending and the receiving socket's buffers, 32 KiB each (libpvm's
 * TTSOCKBUF).  Under tc tbf at 25 MB/s a send of 256 KiB returned after
 * 8.1 ms, 2.4 ms (60 KB) before its last byte crossed. */
#define DESC_PVM_BUF 65536.0

/* Samples (bytes, time) of one level. */
typedef struct fitset {
	double *b, *x;
	uint32_t n, cap;
} fitset;

static int fit_add(fitset *f, double b, double x)
{
	if (f->n == f->cap) {
		uint32_t nc = f->cap ? f->cap * 2 : 256;
		double *nb = realloc(f->b, nc * sizeof *nb);
		double *nx = nb ? realloc(f->x, nc * sizeof *nx) : NULL;

		if (nb != NULL)
			f->b = nb;
		if (nx == NULL)
			return ANA_ENOMEM;
		f->x = nx;
		f->cap = nc;
	}
	f->b[f->n] = b;
	f->x[f->n++] = x;
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Latency and time per byte of the samples: least squares, or, when
 * the sizes do not vary or the slope comes out negative, the median
 * time and no time per byte.  0 when there are no samples (*lat
 * unchanged), else 1. */
static int fit_line(fitset *f, double *lat, double *byte_ns)
{
	double sb = 0, sx = 0, sbb = 0, sbx = 0, d, k, l;
	uint32_t i;

	if (f->n == 0)
		return 0;
	for (i = 0; i < f->n; i++) {
		sb += f->b[i];
		sx += f->x[i];
		sbb += f->b[i] * f->b[i];
		sbx += f->b[i] * f->x[i];
	}
	d = f->n * sbb - sb * sb;
	k = d > 0 ? (f->n * sbx - sb * sx) / d : -1;
	l = (sx - k * sb) / f->n;
	if (k <= 0 || l < 0) {
		if (k > 0) { /* through the origin */
			*lat = 0;
			*byte_ns = sbx / sbb;
			return 1;
		}
		qsort(f->x, f->n, sizeof *f->x, cmp_dbl);
		*lat = f->x[f->n / 2];
		*byte_ns = 0;
		return 1;
	}
	*lat = l;
	*byte_ns = k;
	return 1;
}

/* The waited-for messages of tr into fit[0] (same node) and fit[1]. */
static int collect(ana_ctx *c, fitset fit[2])
{
	ana_trace *tr = c->tr;
	uint32_t p, i;

	for (p = 0; p < tr->nprocs; p++) {
		for (i = 0; i < tr->procs[p].nev; i++) {
			const ana_ev *e = &tr->procs[p].ev[i], *s, *m, *ms;
			int64_t b;

			if (e->kind != PVT_EV_RECV_END ||
			    e->match.proc == ANA_NONE ||
			    (s = ana_ctx_start(c, p, i)) == NULL)
				continue;
			m = ana_get(tr, e->match);
			ms = ana_ctx_start(c, e->match.proc, e->match.idx);
			if (ms == NULL)
				ms = m;
			if (ms->c_ns < s->c_ns) /* there before it was asked */
				continue;
			b = e->bytes >= 0 ? e->bytes : m->bytes > 0 ? m->bytes
								     : 0;
			if (fit_add(&fit[tr->procs[e->match.proc].node !=
					 tr->procs[p].node], (double)b,
				    (double)(e->c_ns - ms->c_ns)) < 0)
				return ANA_ENOMEM;
		}
	}
	return 0;
}

/* Nodes and mapping of tr into m (speed 1, cores = its processes). */
static int describe_nodes(const ana_trace *tr, ana_sim_machine *m)
{
	uint32_t i;

	for (i = 0; i < tr->nnodes; i++) {
		ana_sim_node d;

		memset(&d, 0, sizeof d);
		snprintf(d.name, sizeof d.name, "%s", tr->nodes[i].name);
		d.speed = 1;
		if (ana_sim_grow((void **)&m->node, m->nnode, &m->node_cap,
			 sizeof d) < 0)
			return ANA_ENOMEM;
		m->node[m->nnode++] = d;
	}
	uint32_t *order = ana_stats_order(tr);

	if (order == NULL)
		return ANA_ENOMEM;
	for (uint32_t k = 0; k < tr->nprocs; k++) {
		uint32_t i = order[k], n = tr->procs[i].node < tr->nnodes ?
			     tr->procs[i].node : 0;

		if (ana_sim_grow((void **)&m->map, m->nmap, &m->map_cap,
			 sizeof *m->map) < 0) {
			free(order);
			return ANA_ENOMEM;
		}
		snprintf(m->map[m->nmap].proc, ANA_NAME_MAX, "%s",
			 tr->procs[i].name);
		m->map[m->nmap++].node = n;
		if (n < m->nnode)
			m->node[n].cores++;
	}
	free(order);
	for (i = 0; i < m->nnode; i++)
		if (m->node[i].cores == 0)
			m->node[i].cores = 1;
	return 0;
}

/* True when tr's messages are PVM's (a matched send of a PVM call). */
static int pvm_messages(const ana_trace *tr)
{
	uint32_t p, i;

	for (p = 0; p < tr->nprocs; p++)
		for (i = 0; i < tr->procs[p].nev; i++) {
			const ana_ev *e = &tr->procs[p].ev[i];

			if ((e->kind == PVT_EV_SEND_END ||
			     e->kind == PVT_EV_MCAST_END) &&
			    e->match.proc != ANA_NONE)
				return !pvt_op_is_mpi(e->op);
		}
	return 0;
}

/* The time per byte of tr's sends between nodes (median of their time
 * over their bytes beyond the transport's buffer buf, messages of 4 KiB
 * and more beyond it), 0 when there are none: with a small buffer (PVM's)
 * a send takes about the time its message's part beyond it is on the
 * wire. */
static double send_byte_ns(ana_ctx *c, double buf)
{
	const ana_trace *tr = c->tr;
	fitset f;
	uint32_t p, i;
	double r = 0;

	memset(&f, 0, sizeof f);
	for (p = 0; p < tr->nprocs; p++)
		for (i = 0; i < tr->procs[p].nev; i++) {
			const ana_ev *e = &tr->procs[p].ev[i];
			const ana_ev *s = ana_ctx_start(c, p, i);

			if (e->kind != PVT_EV_SEND_END || s == NULL ||
			    e->match.proc == ANA_NONE ||
			    (double)e->bytes < buf + 4096 ||
			    tr->procs[e->match.proc].node == tr->procs[p].node)
				continue;
			if (fit_add(&f, (double)e->bytes,
				    (double)(e->c_ns - s->c_ns) /
				    ((double)e->bytes - buf)) < 0)
				goto out;
		}
	if (f.n > 0) {
		qsort(f.x, f.n, sizeof *f.x, cmp_dbl);
		r = f.x[f.n / 2];
	}
out:
	free(f.b);
	free(f.x);
	return r;
}

int ana_sim_link_level(const ana_trace *tr, double *lat_ns, double *byte_ns,
		       char *note, size_t n)
{
	double lat = 0, bps = 0, r;
	uint32_t i, p, k = 0;

	for (i = 0; i < tr->nnodes; i++) {
		const ana_link *l = &tr->nodes[i].link;

		for (p = 0; p < tr->nprocs && tr->procs[p].node != i; p++)
			;
		if (p == tr->nprocs)
			continue; /* no process ran there */
		if (!l->valid)
			return 0;
		r = l->up_bps < l->down_bps ? l->up_bps : l->down_bps;
		if (k == 0 || r < bps)
			bps = r;
		if ((double)l->rtt_ns / 2 > lat)
			lat = (double)l->rtt_ns / 2;
		k++;
	}
	if (k < 2 || bps <= 0)
		return 0;
	*lat_ns = lat;
	*byte_ns = 1e9 / bps;
	if (note != NULL)
		snprintf(note, n, "# level net: latency %.1f us and bandwidth "
			 "%.1f MB/s measured by paravt's link probe when the "
			 "%u nodes were added (of the paths to them, the "
			 "largest half round trip and the lowest rate either "
			 "way)\n", lat / 1e3, bps / 1e6, k);
	return 1;
}

/* The levels of m from the fits (level 1 only with several nodes); a
 * PVM program's level between nodes has the buffer of its direct route
 * (DESC_PVM_BUF), and its time per byte is its sends' (send_byte_ns: fitting the receives,
 * which then rarely wait for a whole message, gave from 139 KB/s to
 * 400 MB/s for the same veth) when it has sends of 4 KiB or more.  The
 * level between nodes is the measured one instead when every node with
 * processes was measured (ana_sim_link_level): a target's latency or
 * bandwidth then changes the network's, not a fit that also holds the
 * library's own costs (an MPI fit gave 285 us where the veth's one way
 * is 20 us). */
static int describe_levels(ana_ctx *c, ana_sim_machine *m, fitset fit[2])
{
	const ana_trace *tr = c->tr;
	ana_sim_level l[2];
	uint32_t k, n = m->nnode > 1 ? 2 : 1;
	double x, lat;

	memset(l, 0, sizeof l);
	l[0].buf_bytes = -1;
	l[1].buf_bytes = pvm_messages(tr) ? DESC_PVM_BUF : -1;
	snprintf(l[0].name, ANA_NAME_MAX, "core");
	snprintf(l[1].name, ANA_NAME_MAX, "net");
	if (!fit_line(&fit[0], &l[0].lat_ns, &l[0].byte_ns))
		l[0].lat_ns = (double)(tr->sum.l_min_ns > 0 ?
				       tr->sum.l_min_ns : 0);
	if (!fit_line(&fit[1], &l[1].lat_ns, &l[1].byte_ns)) {
		l[1].lat_ns = l[0].lat_ns;
		l[1].byte_ns = l[0].byte_ns;
	}
	if (l[1].buf_bytes >= 0 && n > 1 &&
	    (x = send_byte_ns(c, l[1].buf_bytes)) > 0)
		l[1].byte_ns = x;
	if (n > 1 && ana_sim_link_level(tr, &lat, &x, NULL, 0)) {
		l[1].lat_ns = lat;
		l[1].byte_ns = x;
	}
	for (k = 0; k < n; k++) {
		if (ana_sim_grow((void **)&m->lv, m->nlv, &m->lv_cap, sizeof *l) < 0)
			return ANA_ENOMEM;
		m->lv[m->nlv++] = l[k];
	}
	return 0;
}

int ana_sim_describe(ana_trace *tr, ana_sim_machine **out)
{
	fitset fit[2];
	ana_ctx c;
	int rc;

	*out = NULL;
	memset(fit, 0, sizeof fit);
	if (tr->stage < 2 && (rc = ana_analyze(tr, NULL)) < 0)
		return rc;
	if ((rc = ana_ctx_init(&c, tr, 0)) < 0)
		return rc;
	*out = ana_sim_machine_new();
	rc = *out == NULL ? ANA_ENOMEM : collect(&c, fit);
	if (rc == 0)
		rc = describe_nodes(tr, *out);
	if (rc == 0)
		rc = describe_levels(&c, *out, fit);
	ana_ctx_free(&c);
	free(fit[0].b);
	free(fit[0].x);
	free(fit[1].b);
	free(fit[1].x);
	if (rc < 0) {
		ana_sim_machine_free(*out);
		*out = NULL;
	}
	return rc;
}
