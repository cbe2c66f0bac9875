/*
 * ana_out_html.c — the HTML report of ana_out.h: one self-contained file
 * (inline CSS, inline SVG, a few lines of inline JavaScript; nothing is
 * fetched) with, from top to bottom:
 *
 *   - a summary (tasks, nodes, events, messages, span, view, E);
 *   - svg#timeline: one row per task, its life as a light "computing"
 *     bar, every call on it as a block (rect.blk: .send sending, .wait
 *     receiving or in a group call, .other spawn and the like, .brk
 *     stopped at a breakpoint, .open a call that never ended) and a
 *     line.msg from every matched send to its receive.  Each block and
 *     line carries a <title> (the browser's tooltip: op, peer, tag,
 *     bytes, file:line, times) and data-src="FILE:LINE"; a click copies
 *     it into div#details;
 *   - svg#matrix: the communication matrix as a heat map (rect.cell per
 *     pair of tasks, the count written in it);
 *   - svg#balance: the load-balance polygon (ParaVT figure 3): one vertex
 *     per task at a radius proportional to its computing time
 *     (polygon.load), the mean as a regular polygon (polygon.mean);
 *   - table#efficiency: STK's efficiency table (ana_stats.h).
 *
 * With a second run (ana_out_html_alt: the measured run beside the
 * predicted one), svg#timeline2 follows svg#timeline on the same time
 * scale, drawn from the other run's times and figures.
 *
 * Large traces: at most ANA_HTML_MAX_BLOCKS blocks and ANA_HTML_MAX_MSGS
 * lines are drawn (a note says how many were left out); a matrix of more
 * than ANA_HTML_MAX_CELLS cells draws only its nonzero cells.  Every
 * string from the trace (file, function, node and process names, the
 * title) is escaped.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_out.h"
#include "ana_pass.h"
#include "ana_stats.h"
#include "ana_walk.h"
#include "../../wrappers/pvt_event.h"

#define ANA_HTML_MAX_BLOCKS 20000
#define ANA_HTML_MAX_MSGS 20000
#define ANA_HTML_MAX_CELLS 4096

/* Timeline geometry (SVG user units = CSS px). */
#define TL_LABEL 170  /* width of the task labels on the left */
#define TL_PLOT 1150  /* width of the time axis */
#define TL_TOP 34     /* height of the time axis above the first row */
#define TL_ROW 26     /* height of one task's row */
#define TL_BAR 16     /* height of a block */

/* What every part of the writer needs. */
typedef struct html_ctx {
	FILE *f;
	const ana_trace *tr;
	const ana_stats *st;
	int view;
	int64_t t0;          /* time at the left edge */
	int64_t span;        /* time the axis covers */
	double xs;           /* px per ns */
	char (*label)[48];   /* per task: "p3 t40003" */
	uint32_t *order;     /* row -> task (ana_stats_order) */
	uint32_t *row;       /* task -> row */
	int *mpi;            /* per task: its peers are MPI ranks */
	unsigned long blocks, blocks_left; /* drawn, not drawn */
} html_ctx;

/* See ana_out.h. */
void ana_html_esc(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n')
				fputc(' ', f); /* no control characters */
			else
				fputc(*s, f);
		}
	}
}

/* A <text> at (x, y) anchored there holding s (escaped). */
static void html_text(FILE *f, double x, double y, const char *anchor,
		      const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y,
		anchor);
	ana_html_esc(f, s);
	fputs("</text>\n", f);
}

/* ns as milliseconds. */
static double html_ms(int64_t ns)
{
	return (double)ns / 1e6;
}

/* The y coordinate of the top of task i's row in the timeline. */
static int html_y(const html_ctx *c, uint32_t i)
{
	return TL_TOP + (int)c->row[i] * TL_ROW;
}

/* The x coordinate of time t. */
static double html_x(const html_ctx *c, int64_t t)
{
	return TL_LABEL + (double)(t - c->t0) * c->xs;
}

static const char *html_view_name(int view)
{
	return view == ANA_VIEW_ORDER ? "order (measured, repaired)" :
	       view == ANA_VIEW_RAW ? "raw (measured)" : "compensated";
}

/* ---- page ------------------------------------------------------------- */

static const char html_css[] =
	"body{font:14px/1.4 sans-serif;margin:16px;color:#222;"
	"background:#fff}\n"
	"h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px}\n"
	".note{color:#666}.scroll{overflow-x:auto}\n"
	"svg text{font:11px sans-serif;fill:#333}\n"
	"rect.comp{fill:#d4ecd0}rect.blk{stroke:#333;stroke-width:.3;"
	"cursor:pointer}\n"
	"rect.send{fill:#3b7dd8}rect.wait{fill:#e0564b}"
	"rect.other{fill:#9a9a9a}\n"
	"rect.brk{fill:#f2c14e}rect.open{fill:#a0309f}"
	"circle.crash{fill:#000}\n"
	".sel{stroke:#000!important;stroke-width:2!important}\n"
	"line.msg{stroke:#1b1b1b;stroke-opacity:.6;stroke-width:1.1;"
	"cursor:pointer}\n"
	"line.grid{stroke:#ddd}line.axis{stroke:#999}\n"
	"rect.cell{stroke:#fff}polygon.load{fill:#3b7dd8;fill-opacity:.3;"
	"stroke:#3b7dd8;stroke-width:2}\n"
	"polygon.mean{fill:none;stroke:#e0564b;stroke-width:1.5;"
	"stroke-dasharray:5 3}\ncircle.ring{fill:none;stroke:#ddd}\n"
	"#details{white-space:pre;font:12px monospace;border:1px solid #ccc;"
	"padding:6px;min-height:3.5em;background:#fafafa}\n"
	"table{border-collapse:collapse}td,th{border:1px solid #ccc;"
	"padding:2px 8px;text-align:right}\n"
	"th{background:#eee}td.l{text-align:left}\n"
	".key span{display:inline-block;width:12px;height:12px;margin:0 4px "
	"0 12px;vertical-align:middle}\n";

/* Clicking a block or a line shows its <title> in #details. */
static const char html_js[] =
	"(function(){var d=document.getElementById('details'),s=null;\n"
	"document.querySelectorAll('svg.tl').forEach(function(g){"
	"g.addEventListener('click',"
	"function(ev){\nvar el=ev.target.closest('.blk,.msg');if(!el)return;\n"
	"if(s)s.classList.remove('sel');s=el;el.classList.add('sel');\n"
	"var t=el.querySelector('title');d.textContent=t?t.textContent:'';"
	"});});})();\n";

/* <head>, the title and the summary. */
static void html_head(html_ctx *c, const char *title)
{
	const ana_stats *st = c->st;
	uint64_t msgs = 0;
	size_t i;

	for (i = 0; i < (size_t)st->ntasks * st->ntasks; i++)
		msgs += st->msgs[i];
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>", c->f);
	ana_html_esc(c->f, title);
	fprintf(c->f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		"<h1>", html_css);
	ana_html_esc(c->f, title);
	fprintf(c->f, "</h1>\n<p class=\"note\" id=\"summary\">%u tasks on "
		"%u nodes, %" PRIu64 " events, %" PRIu64 " messages matched; "
		"span %.3f ms; times: %s; E = %.3f</p>\n",
		c->tr->nprocs, c->tr->nnodes, c->tr->sum.events, msgs,
		html_ms(st->span_ns), html_view_name(c->view), st->eff);
}

/* ---- timeline --------------------------------------------------------- */

/* A tick step of 1, 2 or 5 times a power of ten ns giving ~10 ticks. */
static int64_t html_tick(int64_t span)
{
	int64_t step = 1;

	while (step * 10 < span) {
		if (step * 20 >= span)
			return step * 2;
		if (step * 50 >= span)
			return step * 5;
		step *= 10;
	}
	return step;
}

/* The time axis with its grid. */
static void html_axis(html_ctx *c, int height)
{
	int64_t span = c->span, step = html_tick(span > 0 ? span : 1);
	int64_t t;
	double x;
	int dec = step >= 1000000 ? 0 : step >= 100000 ? 1 :
		  step >= 10000 ? 2 : 3;

	fprintf(c->f, "<g id=\"axis\"><text x=\"%d\" y=\"12\">ms</text>\n",
		TL_LABEL - 30);
	for (t = 0; t <= span; t += step) {
		x = html_x(c, c->t0 + t);
		fprintf(c->f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\"/><text x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">%.*f</text>\n", x, TL_TOP - 6,
			x, height, x, TL_TOP - 12, dec, html_ms(t));
	}
	fputs("</g>\n", c->f);
}

/* The label and the life ("computing" bar) of task i. */
static void html_row(html_ctx *c, uint32_t i)
{
	const ana_proc *p = &c->tr->procs[i];
	int y = html_y(c, i);
	int64_t a, b;
	double x0, x1;

	fprintf(c->f, "<text x=\"4\" y=\"%d\">", y + TL_ROW / 2 + 4);
	ana_html_esc(c->f, c->label[i]);
	fputs(" ", c->f);
	ana_html_esc(c->f, c->tr->nodes[p->node].name);
	fputs("</text>\n", c->f);
	if (p->nev == 0)
		return;
	a = ana_time(&p->ev[0], c->view);
	b = ana_time(&p->ev[p->nev - 1], c->view);
	x0 = html_x(c, a);
	x1 = html_x(c, b > a ? b : a);
	fprintf(c->f, "<rect class=\"comp\" x=\"%.2f\" y=\"%d\" "
		"width=\"%.2f\" height=\"%d\"><title>", x0,
		y + (TL_ROW - TL_BAR) / 2, x1 - x0 > 1 ? x1 - x0 : 1, TL_BAR);
	ana_html_esc(c->f, c->label[i]);
	fprintf(c->f, ": computing %.3f ms of %.3f ms</title></rect>\n",
		html_ms(c->st->task[i].comp_ns),
		html_ms(c->st->task[i].total_ns));
}

/* The class of a block for a call whose START is s. */
static const char *html_blk_class(const ana_call *k)
{
	if (k->e == NULL)
		return "open";
	switch (k->s->kind) {
	case PVT_EV_SEND_START: case PVT_EV_SEND_END:
		return "send";
	case PVT_EV_MCAST_START: case PVT_EV_MCAST_END:
		return k->s->op == PVT_OP_MPI_BCAST ? "wait" : "send";
	case PVT_EV_RECV_START: case PVT_EV_RECV_END:
	case PVT_EV_GROUP_START: case PVT_EV_GROUP_END:
		return "wait";
	case PVT_EV_BREAK_START: case PVT_EV_BREAK_END:
		return "brk";
	default:
		return "other";
	}
}

/* The peer of event e of task i: "p2 t40002" when it is a task of the
 * trace, else its tid or rank, into buf. */
static const char *html_peer(const html_ctx *c, uint32_t i, int32_t peer,
			     char *buf, size_t n)
{
	uint32_t q;

	if (peer < 0)
		return "any";
	q = ana_proc_by_tid(c->tr, peer);
	if (q != ANA_NONE)
		return c->label[q];
	if (c->mpi[i])
		snprintf(buf, n, "r%d", (int)peer);
	else
		snprintf(buf, n, "t%x", (unsigned)peer);
	return buf;
}

/* The tooltip of call k: op, peer, tag, bytes; file:line function;
 * times.  The event that says most is the END (the actual source of a
 * receive), the START when there is none. */
static void html_blk_title(html_ctx *c, const ana_call *k)
{
	const ana_ev *e = k->e != NULL ? k->e : k->s;
	const ana_ev *w = e->line > 0 ? e : k->s;
	char buf[32];

	fputs("<title>", c->f);
	ana_html_esc(c->f, ana_op_name(e->op));
	if (e->kind >= PVT_EV_SEND_START && e->kind <= PVT_EV_GROUP_END &&
	    (e->peer >= 0 || e->kind == PVT_EV_RECV_START)) {
		fputs(e->kind == PVT_EV_RECV_END ||
		      e->kind == PVT_EV_RECV_START ? " &lt;- " : " -&gt; ",
		      c->f);
		ana_html_esc(c->f, html_peer(c, k->proc, e->peer, buf,
					 sizeof buf));
	}
	if (e->tag >= 0)
		fprintf(c->f, " tag %d", (int)e->tag);
	if (e->bytes >= 0)
		fprintf(c->f, ", %" PRId64 " B", e->bytes);
	fputs("\n", c->f);
	ana_html_esc(c->f, ana_str(c->tr, w->file));
	fprintf(c->f, ":%d ", (int)w->line);
	ana_html_esc(c->f, ana_str(c->tr, w->func));
	fprintf(c->f, "\n%.3f .. %.3f ms (%.3f ms)%s</title>",
		html_ms(k->ts - c->t0), html_ms(k->te - c->t0),
		html_ms(k->te - k->ts), k->e == NULL ? ", never ended" : "");
}

/* Walker callback: draws call k as a block (function calls of full mode
 * are not drawn). */
static int html_blk(void *ctx, const ana_call *k)
{
	html_ctx *c = ctx;
	const ana_ev *w = k->e != NULL && k->e->line > 0 ? k->e : k->s;
	int y = html_y(c, k->proc) + (TL_ROW - TL_BAR) / 2;
	double x0 = html_x(c, k->ts), wd = html_x(c, k->te) - x0;

	if (k->s->kind == PVT_EV_FN_ENTER)
		return 0;
	if (c->blocks >= ANA_HTML_MAX_BLOCKS) {
		c->blocks_left++;
		return 0;
	}
	c->blocks++;
	fprintf(c->f, "<rect class=\"blk %s\" x=\"%.2f\" y=\"%d\" "
		"width=\"%.2f\" height=\"%d\" data-src=\"", html_blk_class(k),
		x0, y, wd > 0.8 ? wd : 0.8, TL_BAR);
	ana_html_esc(c->f, ana_str(c->tr, w->file));
	fprintf(c->f, ":%d\">", (int)w->line);
	html_blk_title(c, k);
	fputs("</rect>\n", c->f);
	return 0;
}

/* Walker callback: a crash is a black dot. */
static int html_point(void *ctx, uint32_t proc, uint32_t idx,
		      const ana_ev *e, int64_t t)
{
	html_ctx *c = ctx;

	if (e->kind != PVT_EV_CRASH)
		return 0;
	fprintf(c->f, "<circle class=\"crash\" cx=\"%.2f\" cy=\"%d\" r=\"5\">"
		"<title>crash: signal %d</title></circle>\n", html_x(c, t),
		html_y(c, proc) + TL_ROW / 2, (int)e->aux);
	return 0;
}

/* One line from send END s (task sp) to receive END r (task rp). */
static void html_msg(html_ctx *c, const ana_pair *pr)
{
	const ana_ev *s = ana_get(c->tr, pr->send);
	const ana_ev *r = ana_get(c->tr, pr->recv);
	const ana_ev *s0 = ana_get(c->tr, ana_send_start(c->tr, pr->send));
	int ys = html_y(c, pr->send.proc) + TL_ROW / 2;
	int yr = html_y(c, pr->recv.proc) + TL_ROW / 2;

	/* from the send's START: a receive may end before the send returns */
	fprintf(c->f, "<line class=\"msg\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" "
		"y2=\"%d\" marker-end=\"url(#arrow)\"><title>",
		html_x(c, ana_time(s0, c->view)), ys,
		html_x(c, ana_time(r, c->view)), yr);
	ana_html_esc(c->f, c->label[pr->send.proc]);
	fputs(" -&gt; ", c->f);
	ana_html_esc(c->f, c->label[pr->recv.proc]);
	if (r->tag >= 0)
		fprintf(c->f, " tag %d", (int)r->tag);
	if (r->bytes >= 0 || s->bytes >= 0)
		fprintf(c->f, ", %" PRId64 " B", r->bytes >= 0 ? r->bytes :
			s->bytes);
	fprintf(c->f, "\n%s ", ana_op_name(s->op));
	ana_html_esc(c->f, ana_str(c->tr, s->file));
	fprintf(c->f, ":%d at %.3f ms\n%s ", (int)s->line,
		html_ms(ana_time(s, c->view) - c->t0), ana_op_name(r->op));
	ana_html_esc(c->f, ana_str(c->tr, r->file));
	fprintf(c->f, ":%d at %.3f ms</title></line>\n", (int)r->line,
		html_ms(ana_time(r, c->view) - c->t0));
}

/* Every matched message as a line (at most ANA_HTML_MAX_MSGS);
 * returns how many were left out, or a negative code. */
static long html_msgs(html_ctx *c)
{
	ana_pair *p = NULL;
	size_t n = 0, i;
	int rc = ana_pairs(c->tr, &p, &n);

	if (rc != 0)
		return rc;
	fputs("<g id=\"messages\">\n", c->f);
	for (i = 0; i < n && i < ANA_HTML_MAX_MSGS; i++)
		html_msg(c, &p[i]);
	fputs("</g>\n", c->f);
	free(p);
	return n > ANA_HTML_MAX_MSGS ? (long)(n - ANA_HTML_MAX_MSGS) : 0;
}

/* The timeline section: svg#id under heading (the first one also has
 * the key and the details box).  0 or a code. */
static int html_timeline(html_ctx *c, const char *id, const char *heading)
{
	int first = strcmp(id, "timeline") == 0;
	ana_walk_ops ops = {c, NULL, html_blk, html_point};
	uint32_t n = c->tr->nprocs, i;
	int h = TL_TOP + (int)n * TL_ROW + 10, rc;
	long left;

	fputs("<h2>", c->f);
	ana_html_esc(c->f, heading);
	fputs("</h2>\n", c->f);
	if (first)
		fprintf(c->f, "<p class=\"key\">"
		"<span style=\"background:#d4ecd0\"></span>computing"
		"<span style=\"background:#3b7dd8\"></span>sending"
		"<span style=\"background:#e0564b\"></span>receiving / group"
		"<span style=\"background:#9a9a9a\"></span>other calls"
		"<span style=\"background:#f2c14e\"></span>breakpoint"
		"<span style=\"background:#a0309f\"></span>never ended"
		" &#8212; lines: send &#8594; receive; click a block or a "
		"line</p>\n");
	fprintf(c->f, "<div class=\"scroll\"><svg id=\"%s\" class=\"tl\" "
		"width=\"%d\" "
		"height=\"%d\">\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 "
		"10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" "
		"markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0L10,5L0,"
		"10z\" fill=\"#1b1b1b\"/></marker></defs>\n", id,
		TL_LABEL + TL_PLOT + 20, h);
	html_axis(c, h);
	for (i = 0; i < n; i++)
		html_row(c, c->order[i]);
	fputs("<g id=\"blocks\">\n", c->f);
	for (i = 0; i < n; i++)
		if ((rc = ana_walk_calls(c->tr, i, c->view, &ops)) != 0)
			return rc;
	fputs("</g>\n", c->f);
	left = html_msgs(c);
	if (left < 0)
		return (int)left;
	fputs("</svg></div>\n", c->f);
	if (first)
		fputs("<div id=\"details\">Click a block or a line to see its "
		      "call and source line.</div>\n", c->f);
	if (c->blocks_left > 0 || left > 0)
		fprintf(c->f, "<p class=\"note\">Large trace: %lu blocks and "
			"%ld messages not drawn (at most %d of each).</p>\n",
			c->blocks_left, left, ANA_HTML_MAX_BLOCKS);
	return 0;
}

/* ---- matrix ----------------------------------------------------------- */

/* A heat colour for a share 0..1 of the largest count: from a pale
 * yellow to a dark red; light grey for 0. */
static void html_heat(double v, char *buf, size_t n)
{
	int r, g, b;

	if (v <= 0) {
		snprintf(buf, n, "#f4f4f4");
		return;
	}
	v = 0.15 + 0.85 * v;
	r = (int)(255 - 75 * v);
	g = (int)(237 - 217 * v);
	b = (int)(160 - 140 * v);
	snprintf(buf, n, "#%02x%02x%02x", r, g, b);
}

/* One cell of the matrix: messages from task i to task j. */
static void html_cell(html_ctx *c, uint32_t i, uint32_t j, int cs, int x0,
		      int y0, uint64_t max)
{
	size_t k = (size_t)i * c->st->ntasks + j;
	uint64_t m = c->st->msgs[k];
	char col[16];

	html_heat(max > 0 ? (double)m / (double)max : 0, col, sizeof col);
	fprintf(c->f, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" fill=\"%s\" data-n=\"%" PRIu64 "\"><title>",
		x0 + (int)c->row[j] * cs, y0 + (int)c->row[i] * cs, cs, cs, col,
		m);
	ana_html_esc(c->f, c->label[i]);
	fputs(" -&gt; ", c->f);
	ana_html_esc(c->f, c->label[j]);
	fprintf(c->f, ": %" PRIu64 " messages, %" PRIu64 " B</title></rect>",
		m, c->st->bytes[k]);
	if (m > 0 && cs >= 18)
		fprintf(c->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
			"style=\"fill:%s\">%" PRIu64 "</text>",
			x0 + (int)c->row[j] * cs + cs / 2,
			y0 + (int)c->row[i] * cs + cs / 2 + 4,
			(double)m > 0.6 * (double)max ? "#fff" : "#222", m);
	fputs("\n", c->f);
}

/* The matrix section: rows are senders, columns receivers. */
static void html_matrix(html_ctx *c)
{
	uint32_t n = c->st->ntasks, i, j;
	int cs = n > 0 && 640 / (int)n < 36 ? 640 / (int)n : 36;
	int x0 = 60, y0 = 40, all = (uint64_t)n * n <= ANA_HTML_MAX_CELLS;
	uint64_t max = 0;
	size_t k;

	cs = cs < 3 ? 3 : cs;
	for (k = 0; k < (size_t)n * n; k++)
		max = c->st->msgs[k] > max ? c->st->msgs[k] : max;
	fprintf(c->f, "<h2>Communication matrix</h2>\n<p class=\"note\">Rows "
		"send, columns receive; the number of matched messages "
		"(largest %" PRIu64 ").</p>\n<svg id=\"matrix\" "
		"width=\"%d\" "
		"height=\"%d\">\n", max, x0 + (int)n * cs + 20,
		y0 + (int)n * cs + 20);
	for (i = 0; i < n && cs >= 12; i++) {
		html_text(c->f, x0 - 4, y0 + (int)i * cs + cs / 2 + 4, "end",
			  c->tr->procs[c->order[i]].name);
		html_text(c->f, x0 + (int)i * cs + cs / 2, y0 - 6, "middle",
			  c->tr->procs[c->order[i]].name);
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (all || c->st->msgs[(size_t)i * n + j] > 0)
				html_cell(c, i, j, cs, x0, y0, max);
	fputs("</svg>\n", c->f);
}

/* ---- balance ---------------------------------------------------------- */

/* Vertex k of n at radius r around (cx, cy), the first one up. */
static void html_vertex(int k, int n, double r, double *x, double *y)
{
	double a = -M_PI / 2 + 2 * M_PI * k / (n > 0 ? n : 1);

	*x = 210 + r * cos(a);
	*y = 200 + r * sin(a);
}

/* The polygon of the tasks' computing times and the mean's. */
static void html_polygons(html_ctx *c, int64_t max, double mean)
{
	uint32_t n = c->st->ntasks, i;
	double x, y, r;

	fputs("<polygon class=\"load\" points=\"", c->f);
	for (i = 0; i < n; i++) { /* vertex i is the task in row i */
		r = 160.0 * (double)c->st->task[c->order[i]].comp_ns /
		    (double)max;
		html_vertex((int)i, (int)n, r, &x, &y);
		fprintf(c->f, "%.1f,%.1f ", x, y);
	}
	fputs("\"/>\n<polygon class=\"mean\" points=\"", c->f);
	for (i = 0; i < n; i++) {
		html_vertex((int)i, (int)n, 160.0 * mean / (double)max, &x, &y);
		fprintf(c->f, "%.1f,%.1f ", x, y);
	}
	fputs("\"/>\n", c->f);
}

/* Spokes, labels and a dot per task with its figures. */
static void html_spokes(html_ctx *c, int64_t max, double mean)
{
	uint32_t n = c->st->ntasks, i;
	const ana_task_stats *t;
	double x, y, lx, ly;

	for (i = 0; i < n; i++) {
		t = &c->st->task[i];
		html_vertex((int)c->row[i], (int)n, 160, &x, &y);
		html_vertex((int)c->row[i], (int)n, 178, &lx, &ly);
		fprintf(c->f, "<line class=\"axis\" x1=\"210\" y1=\"200\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>", x, y);
		html_text(c->f, lx, ly + 4, "middle", c->tr->procs[i].name);
		html_vertex((int)c->row[i], (int)n,
			    160.0 * (double)t->comp_ns / (double)max, &x, &y);
		fprintf(c->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
			"fill=\"#3b7dd8\"><title>", x, y);
		ana_html_esc(c->f, c->label[i]);
		fprintf(c->f, ": computing %.3f ms, %.0f%% of the mean, "
			"E_i %.3f</title></circle>\n", html_ms(t->comp_ns),
			mean > 0 ? 100.0 * (double)t->comp_ns / mean : 0.0,
			t->eff);
	}
}

/* The balance section (ParaVT figure 3). */
static void html_balance(html_ctx *c)
{
	uint32_t n = c->st->ntasks, i;
	int64_t max = 1;
	double mean = 0;

	for (i = 0; i < n; i++) {
		max = c->st->task[i].comp_ns > max ? c->st->task[i].comp_ns :
						     max;
		mean += (double)c->st->task[i].comp_ns;
	}
	mean = n > 0 ? mean / n : 0;
	fprintf(c->f, "<h2>Load balance</h2>\n<p class=\"note\">Computing "
		"time per task (blue, one vertex per task, the largest on the "
		"outer ring) against the mean %.3f ms (dashed red); a "
		"balanced run is a regular polygon.</p>\n<svg id=\"balance\" "
		"width=\"420\" "
		"height=\"400\">\n", html_ms((int64_t)mean));
	for (i = 1; i <= 4; i++)
		fprintf(c->f, "<circle class=\"ring\" cx=\"210\" cy=\"200\" "
			"r=\"%d\"/>\n", 40 * (int)i);
	html_spokes(c, max, mean);
	html_polygons(c, max, mean);
	fputs("</svg>\n", c->f);
}

/* ---- efficiency table ------------------------------------------------- */

static void html_table(html_ctx *c)
{
	const ana_task_stats *t;
	uint32_t i, k;

	fputs("<h2>Efficiency</h2>\n<p class=\"note\">T: first to last "
	      "event; C: inside sends, receives, multicasts and group calls; "
	      "W: of it receiving and in group calls; E_i = (T - C) / T "
	      "(STK).</p>\n<table id=\"efficiency\">\n<tr><th>Task</th>"
	      "<th>Node</th><th>T ms</th><th>C ms</th><th>W ms</th>"
	      "<th>Computing ms</th><th>E_i</th><th>Sent</th><th>Received"
	      "</th><th>Bytes out</th><th>Bytes in</th></tr>\n", c->f);
	for (k = 0; k < c->st->ntasks; k++) {
		i = c->order[k];
		t = &c->st->task[i];
		fputs("<tr><td class=\"l\">", c->f);
		ana_html_esc(c->f, c->label[i]);
		fputs("</td><td class=\"l\">", c->f);
		ana_html_esc(c->f, c->tr->nodes[c->tr->procs[i].node].name);
		fprintf(c->f, "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>"
			"<td>%.3f</td><td>%.3f</td><td>%" PRIu64 "</td><td>%"
			PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td></tr>\n", html_ms(t->total_ns),
			html_ms(t->comm_ns), html_ms(t->wait_ns),
			html_ms(t->comp_ns), t->eff, t->sends, t->recvs,
			t->bytes_out, t->bytes_in);
	}
	fprintf(c->f, "</table>\n<p id=\"job\">E = %.3f, E_min = %.3f, "
		"E_max = %.3f</p>\n", c->st->eff, c->st->eff_min,
		c->st->eff_max);
}

/* ---- entry ------------------------------------------------------------ */

/* Per-task labels, MPI flags and rows into c (caller frees them). */
static int html_labels(html_ctx *c)
{
	uint32_t n = c->tr->nprocs, i;
	char buf[16];

	c->label = calloc(n ? n : 1, sizeof *c->label);
	c->mpi = calloc(n ? n : 1, sizeof *c->mpi);
	c->row = calloc(n ? n : 1, sizeof *c->row);
	c->order = ana_stats_order(c->tr);
	if (c->label == NULL || c->mpi == NULL || c->row == NULL ||
	    c->order == NULL)
		return ANA_ENOMEM;
	for (i = 0; i < n; i++) {
		c->row[c->order[i]] = i;
		ana_proc_label(c->tr, i, c->label[i], sizeof c->label[i]);
		c->mpi[i] = ana_peer_label(c->tr, i, 0, buf, sizeof buf)[0] ==
			    'r';
	}
	return 0;
}

/* The other run's timeline (alt), on the scale of c: its own figures
 * in the tooltips.  0 or a code. */
static int html_alt(html_ctx *c, const ana_html_alt *alt)
{
	const ana_stats *mine = c->st;
	ana_stats st2;
	int rc;

	alt->swap(alt->ctx);
	rc = ana_stats_compute(c->tr, c->view, &st2);
	if (rc == 0) {
		c->st = &st2;
		c->blocks = c->blocks_left = 0;
		rc = html_timeline(c, "timeline2", alt->heading);
		c->st = mine;
		ana_stats_free(&st2);
	}
	alt->swap(alt->ctx);
	return rc;
}

/* The span of the two runs together, into c->t0 and c->span. */
static void html_scale(html_ctx *c, const ana_html_alt *alt)
{
	int64_t t0, t1, a0, a1;

	ana_time_span(c->tr, c->view, &t0, &t1);
	if (alt != NULL) {
		alt->swap(alt->ctx);
		ana_time_span(c->tr, c->view, &a0, &a1);
		alt->swap(alt->ctx);
		t0 = a0 < t0 ? a0 : t0;
		t1 = a1 > t1 ? a1 : t1;
	}
	c->t0 = t0;
	c->span = t1 > t0 ? t1 - t0 : 0;
	c->xs = t1 > t0 ? (double)TL_PLOT / (double)(t1 - t0) : 0;
}

int ana_out_html(const ana_trace *tr, int view, const char *title, FILE *f,
		 char *err, size_t errlen)
{
	return ana_out_html_alt(tr, view, title, NULL, f, err, errlen);
}

int ana_out_html_alt(const ana_trace *tr, int view, const char *title,
		     const ana_html_alt *alt, FILE *f, char *err,
		     size_t errlen)
{
	html_ctx c;
	ana_stats st;
	int rc;

	memset(&c, 0, sizeof c);
	rc = ana_stats_compute(tr, view, &st);
	if (rc != 0) {
		snprintf(err, errlen, rc == ANA_ENOMEM ? "out of memory" :
			 "bad trace or view");
		return rc;
	}
	c.f = f;
	c.tr = tr;
	c.st = &st;
	c.view = view;
	html_scale(&c, alt);
	rc = html_labels(&c);
	if (rc == 0) {
		html_head(&c, title != NULL ? title : "paravt report");
		rc = html_timeline(&c, "timeline", alt != NULL ? alt->first :
				   "Timeline");
	}
	if (rc == 0 && alt != NULL)
		rc = html_alt(&c, alt);
	if (rc == 0) {
		html_matrix(&c);
		html_balance(&c);
		html_table(&c);
		fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n",
			html_js);
	}
	free(c.label);
	free(c.mpi);
	free(c.row);
	free(c.order);
	ana_stats_free(&st);
	if (rc != 0) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "write failed");
		return ANA_EIO;
	}
	return 0;
}
