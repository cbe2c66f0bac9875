/*
 * ana_out_chrome.c — the Chrome trace-event JSON export (ana_out.h), the
 * format Perfetto (ui.perfetto.dev) and chrome://tracing load:
 *
 *   {"traceEvents":[ ... ], "displayTimeUnit":"ns", "otherData":{...}}
 *
 * One "process" (pid) per node, named after the node and its
 * architecture; one "thread" (tid) per task, named "p3 t40003" (PVM tid)
 * or "p3 r1" (MPI rank).  Every call is a complete event ("ph":"X") from
 * its START to its END, named after the op (user functions after the
 * function), with file:line, function, bytes, peer and tag in args; a call
 * that never ended runs to the task's last event with "open":true.
 * Program start and exit, breakpoint stops and crashes are instant events
 * ("ph":"i").  Every matched send -> receive is a flow: "ph":"s" inside
 * the send, "ph":"f" with "bp":"e" inside the receive (or inside the
 * MPI_Wait that completed it), the same id, so Perfetto draws an arrow.  Times ("ts", "dur") are microseconds with
 * three decimals (nanosecond resolution) since the trace's first event
 * in the chosen view; otherData holds that origin in ns.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_out.h"
#include "ana_walk.h"
#include "../../wrappers/pvt_event.h"

/* A message END inside an open call of its op (MPI_Wait): its flow is
 * written when the call closes, inside it. */
typedef struct ana_chrome_inner {
	uint32_t call;       /* s_idx of the enclosing call */
	uint32_t idx;        /* the END */
	int64_t t;           /* its time */
} ana_chrome_inner;

/* State of one export. */
typedef struct ana_chrome {
	const ana_trace *tr;
	FILE *f;
	int64_t t0;          /* origin of "ts" (ns, view time) */
	const ana_pair *pairs; /* matched messages, sorted by send */
	size_t npairs;
	uint64_t written;    /* trace events written (for the first comma) */
	ana_chrome_inner *inner; /* ENDs inside open waits, flows pending */
	size_t ninner, inner_cap;
	int mpi;             /* the process being walked made MPI calls */
} ana_chrome;

static const char *const ana_chrome_views[] = {"compensated", "ordered",
					       "raw"};

/* ---- JSON ------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t ana_utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||
	    (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
	    (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
	    (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
		return 0; /* overlong, surrogate, beyond U+10FFFF */
	return n;
}

/* Writes s as a JSON string: quotes, backslashes and control characters
 * escaped, bytes that are not UTF-8 replaced by U+FFFD. */
static void ana_json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	putc('"', f);
	while (*s != '\0') {
		n = ana_utf8_len(s);
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\u%04x", *s);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, n, f);
		s += n != 0 ? n : 1;
	}
	putc('"', f);
}

/* Writes t - t0 (ns) as microseconds with three decimals. */
static void ana_json_us(FILE *f, int64_t ns)
{
	if (ns < 0) {
		putc('-', f);
		ns = -ns;
	}
	fprintf(f, "%" PRId64 ".%03d", ns / 1000, (int)(ns % 1000));
}

/* Starts a trace event: separator, name, phase, pid, tid, ts. */
static void ana_chrome_begin(ana_chrome *cx, const char *name,
			     const char *cat, const char *ph, uint32_t proc,
			     int64_t t)
{
	const ana_proc *p = &cx->tr->procs[proc];

	fputs(cx->written++ ? ",\n" : "\n", cx->f);
	fputs("{\"name\":", cx->f);
	ana_json_str(cx->f, name);
	fprintf(cx->f, ",\"cat\":\"%s\",\"ph\":\"%s\",\"pid\":%" PRIu32
		",\"tid\":%" PRIu32 ",\"ts\":", cat, ph, p->node + 1,
		proc + 1);
	ana_json_us(cx->f, t - cx->t0);
}

/* ---- metadata ---------------------------------------------------------- */

/* Names one process (node) or thread (task). */
static void ana_chrome_meta(ana_chrome *cx, const char *what, uint32_t pid,
			    uint32_t tid, const char *name)
{
	fputs(cx->written++ ? ",\n" : "\n", cx->f);
	fprintf(cx->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%" PRIu32
		",\"tid\":%" PRIu32 ",\"args\":{\"name\":", what, pid, tid);
	ana_json_str(cx->f, name);
	fputs("}}", cx->f);
}

/* The process and thread names, and their order on screen. */
static void ana_chrome_names(ana_chrome *cx)
{
	const ana_trace *tr = cx->tr;
	char buf[ANA_NAME_MAX + 80];
	uint32_t i;

	for (i = 0; i < tr->nnodes; i++) {
		if (tr->nodes[i].arch[0] != '\0')
			snprintf(buf, sizeof buf, "%s (%s)", tr->nodes[i].name,
				 tr->nodes[i].arch);
		else
			snprintf(buf, sizeof buf, "%s", tr->nodes[i].name);
		ana_chrome_meta(cx, "process_name", i + 1, 0, buf);
	}
	for (i = 0; i < tr->nprocs; i++) {
		ana_proc_label(tr, i, buf, sizeof buf);
		ana_chrome_meta(cx, "thread_name", tr->procs[i].node + 1,
				i + 1, buf);
		fputs(cx->written++ ? ",\n" : "\n", cx->f);
		fprintf(cx->f, "{\"name\":\"thread_sort_index\",\"ph\":\"M\","
			"\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"args\":"
			"{\"sort_index\":%" PRIu32 "}}",
			tr->procs[i].node + 1, i + 1, i);
	}
}

/* ---- calls ------------------------------------------------------------- */

/* Writes the args of a call or instant: where it was, what it carried. */
static void ana_chrome_args(ana_chrome *cx, const ana_ev *s,
			    const ana_ev *e)
{
	const ana_ev *w = e != NULL ? e : s;
	char buf[4096];

	snprintf(buf, sizeof buf, "%s:%d", ana_str(cx->tr, s->file),
		 (int)s->line);
	fputs(",\"args\":{\"at\":", cx->f);
	ana_json_str(cx->f, buf);
	fputs(",\"function\":", cx->f);
	ana_json_str(cx->f, ana_str(cx->tr, s->func));
	if (w->bytes >= 0)
		fprintf(cx->f, ",\"bytes\":%" PRId64, w->bytes);
	if (w->peer >= 0 && w->kind != PVT_EV_PROG_START) {
		fputs(",\"peer\":", cx->f);
		ana_json_str(cx->f, ana_peer_fmt(cx->mpi, w->peer, buf,
						 sizeof buf));
	}
	if (w->tag >= 0)
		fprintf(cx->f, ",\"tag\":%d", (int)w->tag);
	if (e != NULL && e != s && ana_kind_closes(e->kind) &&
	    e->kind != PVT_EV_FN_EXIT)
		fprintf(cx->f, ",\"result\":%d", (int)e->result);
	if (w->flags & ANA_F_WILDCARD)
		fputs(",\"wildcard\":true", cx->f);
	if (w->flags & ANA_F_UNMATCHED)
		fputs(",\"unmatched\":true", cx->f);
	if (e == NULL)
		fputs(",\"open\":true", cx->f);
	fputs("}", cx->f);
}

/* The category of a call. */
static const char *ana_chrome_cat(const ana_ev *s)
{
	switch (s->kind) {
	case PVT_EV_FN_ENTER: case PVT_EV_FN_EXIT:
		return "function";
	case PVT_EV_SEND_START: case PVT_EV_SEND_END:
		return "send";
	case PVT_EV_RECV_START: case PVT_EV_RECV_END:
		return "recv";
	case PVT_EV_MCAST_START: case PVT_EV_MCAST_END:
		return "mcast";
	case PVT_EV_GROUP_START: case PVT_EV_GROUP_END:
		return "group";
	default:
		return "special";
	}
}

/* A time strictly inside [ts, te] (where a flow binds), as near t as
 * possible. */
static int64_t ana_chrome_inside(const ana_call *c, int64_t t)
{
	int64_t d = c->te - c->ts;

	if (d < 2)
		return c->ts + d / 2;
	t -= 1;
	return t < c->ts + 1 ? c->ts + 1 : t > c->te - 1 ? c->te - 1 : t;
}

/* The flow starts of send END e (one per receiver) or the flow end of
 * receive END e, index idx, at time t inside call c. */
static void ana_chrome_flows(ana_chrome *cx, const ana_call *c,
			     const ana_ev *e, uint32_t idx, int64_t t)
{
	ana_ref me = {c->proc, idx};
	size_t i;

	if (e->kind == PVT_EV_RECV_END) {
		i = e->match.proc == ANA_NONE ? cx->npairs :
			ana_pairs_find(cx->pairs, cx->npairs,
				       ana_msg_end(cx->tr, e->match), me);
		if (i == cx->npairs)
			return;
		ana_chrome_begin(cx, "message", "message", "f", c->proc,
				 ana_chrome_inside(c, t));
		fprintf(cx->f, ",\"id\":%zu,\"bp\":\"e\"}", i + 1);
		return;
	}
	if (e->kind != PVT_EV_SEND_END && e->kind != PVT_EV_MCAST_END)
		return;
	for (i = ana_pairs_find_send(cx->pairs, cx->npairs, me);
	     i < cx->npairs && cx->pairs[i].send.proc == me.proc &&
	     cx->pairs[i].send.idx == me.idx; i++) {
		/* the message leaves when the send starts: a receive may end
		 * before the send call returns */
		ana_chrome_begin(cx, "message", "message", "s", c->proc,
				 ana_chrome_inside(c, c->ts + 1));
		fprintf(cx->f, ",\"id\":%zu}", i + 1);
	}
}

/* walk: an END inside a wait; its flow waits for the wait's end. */
static int ana_chrome_inner_end(void *ctx, const ana_call *c, uint32_t idx,
				const ana_ev *e, int64_t t)
{
	ana_chrome *cx = ctx;
	ana_chrome_inner *p;
	size_t cap;

	(void)e;
	if (cx->ninner == cx->inner_cap) {
		cap = cx->inner_cap ? cx->inner_cap * 2 : 16;
		p = realloc(cx->inner, cap * sizeof *p);
		if (p == NULL)
			return ANA_ENOMEM;
		cx->inner = p;
		cx->inner_cap = cap;
	}
	cx->inner[cx->ninner++] = (ana_chrome_inner){c->s_idx, idx, t};
	return 0;
}

/* The pending flows of the ENDs inside call c (the innermost open one:
 * they are last in the list). */
static void ana_chrome_inner_flows(ana_chrome *cx, const ana_call *c)
{
	const ana_chrome_inner *in;
	size_t first = cx->ninner, i;

	while (first > 0 && cx->inner[first - 1].call == c->s_idx)
		first--;
	for (i = first; i < cx->ninner; i++) {
		in = &cx->inner[i];
		ana_chrome_flows(cx, c, &cx->tr->procs[c->proc].ev[in->idx],
				 in->idx, in->t);
	}
	cx->ninner = first;
}

/* A breakpoint stop: an instant at its start. */
static void ana_chrome_break(ana_chrome *cx, const ana_call *c)
{
	char name[64];

	snprintf(name, sizeof name, "breakpoint %d", (int)c->s->aux);
	ana_chrome_begin(cx, name, "break", "i", c->proc, c->ts);
	fputs(",\"s\":\"t\"", cx->f);
	ana_chrome_args(cx, c->s, c->s);
	fputs("}", cx->f);
}

/* walk: a call closed; writes it and its flows. */
static int ana_chrome_leave(void *ctx, const ana_call *c)
{
	ana_chrome *cx = ctx;
	const char *name = ana_op_name(c->s->op);

	if (c->s->kind == PVT_EV_BREAK_START ||
	    c->s->kind == PVT_EV_BREAK_END) {
		ana_chrome_break(cx, c);
		return 0;
	}
	if (c->s->kind == PVT_EV_FN_ENTER || c->s->kind == PVT_EV_FN_EXIT)
		name = ana_str(cx->tr, c->s->func);
	ana_chrome_begin(cx, name, ana_chrome_cat(c->s), "X", c->proc, c->ts);
	fputs(",\"dur\":", cx->f);
	ana_json_us(cx->f, c->te - c->ts);
	ana_chrome_args(cx, c->s, c->e);
	fputs("}", cx->f);
	if (c->half != NULL)
		ana_chrome_flows(cx, c, c->half, c->half_idx, c->th);
	if (c->e != NULL)
		ana_chrome_flows(cx, c, c->e, c->e_idx, c->te);
	ana_chrome_inner_flows(cx, c);
	return 0;
}

/* walk: program start and exit, crash. */
static int ana_chrome_point(void *ctx, uint32_t proc, uint32_t idx,
			    const ana_ev *e, int64_t t)
{
	ana_chrome *cx = ctx;
	char name[64];

	(void)idx;
	switch (e->kind) {
	case PVT_EV_PROG_START:
		snprintf(name, sizeof name, "start");
		break;
	case PVT_EV_PROG_EXIT:
		snprintf(name, sizeof name, "exit %d", (int)e->aux);
		break;
	case PVT_EV_CRASH:
		snprintf(name, sizeof name, "crash: signal %d", (int)e->aux);
		break;
	default:
		return 0;
	}
	ana_chrome_begin(cx, name, e->kind == PVT_EV_CRASH ? "crash" :
			 "program", "i", proc, t);
	fputs(",\"s\":\"t\"", cx->f);
	ana_chrome_args(cx, e, e);
	fputs("}", cx->f);
	return 0;
}

/* The trailer: display unit and what this trace is. */
static void ana_chrome_trailer(ana_chrome *cx, int view)
{
	const ana_trace *tr = cx->tr;

	fprintf(cx->f, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{"
		"\"generator\":\"paravt\",\"view\":\"%s\",\"t0_ns\":%" PRId64
		",\"nodes\":%" PRIu32 ",\"tasks\":%" PRIu32 ",\"events\":%"
		PRIu64 ",\"messages\":%zu,\"unmatched_sends\":%" PRIu64
		",\"unmatched_recvs\":%" PRIu64 "}}\n", ana_chrome_views[view],
		cx->t0, tr->nnodes, tr->nprocs, tr->sum.events, cx->npairs,
		tr->sum.unmatched_sends, tr->sum.unmatched_recvs);
}

int ana_out_chrome(const ana_trace *tr, int view, FILE *f, char *err,
		   size_t errlen)
{
	ana_walk_ops ops = {NULL, NULL, ana_chrome_leave, ana_chrome_point,
			    ana_chrome_inner_end};
	ana_chrome cx = {.tr = tr, .f = f};
	ana_pair *pairs;
	int64_t last;
	uint32_t i;
	int rc;

	if (view < ANA_VIEW_COMP || view > ANA_VIEW_RAW) {
		snprintf(err, errlen, "chrome export: unknown view %d", view);
		return ANA_EARG;
	}
	if (ana_pairs(tr, &pairs, &cx.npairs) < 0) {
		snprintf(err, errlen, "chrome export: out of memory");
		return ANA_ENOMEM;
	}
	cx.pairs = pairs;
	ana_time_span(tr, view, &cx.t0, &last);
	ops.ctx = &cx;
	fputs("{\"traceEvents\":[", f);
	ana_chrome_names(&cx);
	for (i = 0, rc = 0; i < tr->nprocs && rc == 0; i++) {
		cx.mpi = ana_proc_is_mpi(tr, i);
		rc = ana_walk_calls(tr, i, view, &ops);
	}
	free(pairs);
	free(cx.inner);
	if (rc < 0) {
		snprintf(err, errlen, "chrome export: out of memory");
		return rc;
	}
	ana_chrome_trailer(&cx, view);
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "chrome export: write failed: %s",
			 strerror(errno != 0 ? errno : EIO));
		return ANA_EIO;
	}
	return 0;
}
