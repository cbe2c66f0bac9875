/*
 * con_dbg_live.c — live breakpoints (con_dbg.h): a breakpoint set after
 * the build lands on a line probe of that build (con_inst_site_at: the
 * first statement at or after its line, as a debugger moves it), and the
 * session's table of such breakpoints goes to every node (BP_SET), which
 * arms the processes that run and those that start later; `interrupt`
 * (STOP) stops every running process at its next statement, and so does
 * a stop of one process in stop-mode all.  See
 * wrappers/pvt_ctl.h and paravt-protocol(5), "Live breakpoints".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "con_dbg_int.h"
#include "paravt_rt.h"

/* See con_dbg.h. */
int con_dbg_live_land(bp *b, char *note, size_t notelen, char *err,
		      size_t errlen)
{
	const con_inst_result *r = &con_dbg.inst;
	const con_inst_site *s;
	long i;

	note[0] = '\0';
	if (!con_dbg.have_inst) {
		snprintf(err, errlen, "no build yet: `build` first");
		return WIRE_ESTATE;
	}
	if (r->nsites == 0 && r->nfiles > 0) {
		snprintf(err, errlen, "the build has no line probes (paravt "
			 "trace builds without them): set the breakpoint "
			 "before the build");
		return WIRE_ESTATE;
	}
	i = b->func != NULL ? con_inst_site_func(r, b->func)
			    : con_inst_site_at(r, b->file, b->line);
	if (i < 0) {
		if (b->func != NULL)
			snprintf(err, errlen, "no function %s() with a "
				 "statement in the build", b->func);
		else
			snprintf(err, errlen, "no code at or after line %d "
				 "of %s in the build", b->line, b->file);
		return WIRE_EARG;
	}
	s = &r->sites[i];
	if (bp_land_live(&con_dbg.bps, b->id, r->units[s->unit], s->line,
			 r->funcs[s->func], s->unit) != 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	if (b->file != NULL && s->line != b->line)
		snprintf(note, notelen, "breakpoint %d moved to %s:%d (no code "
			 "on line %d)", b->id, r->units[s->unit], s->line,
			 b->line);
	return 0;
}

/* Packs the live breakpoints as BP_SET's bps into sb. */
static int con_live_pack(msgpack_sbuffer *sb)
{
	msgpack_packer pk;
	uint32_t n = 0, flags;
	const bp *b;

	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	for (b = con_dbg.bps.head; b != NULL; b = b->next)
		n += b->live;
	if (msgpack_pack_array(&pk, n) != 0)
		return -1;
	for (b = con_dbg.bps.head; b != NULL; b = b->next) {
		const char *file = b->watch != NULL ? "-" : b->at_file;

		if (!b->live)
			continue;
		flags = (b->enabled ? PVT_BPF_ENABLED : 0) |
			(b->temp ? PVT_BPF_TEMP : 0) |
			(b->watch != NULL ? PVT_BPF_WATCH : 0);
		if (msgpack_pack_array(&pk, b->code != NULL ? 6 : 5) != 0 ||
		    msgpack_pack_uint32(&pk, (uint32_t)b->id) != 0 ||
		    msgpack_pack_str_with_body(&pk, file, strlen(file)) != 0 ||
		    msgpack_pack_uint32(&pk, (uint32_t)b->at_line) != 0 ||
		    msgpack_pack_uint32(&pk, flags) != 0 ||
		    msgpack_pack_uint32(&pk, b->ignore) != 0 ||
		    (b->code != NULL &&
		     msgpack_sbuffer_write(sb, (const char *)b->code,
					   b->code_len) != 0))
			return -1;
	}
	return 0;
}

/* See con_dbg.h. */
int con_dbg_live_sync(char *err, size_t errlen)
{
	static uint64_t gen;
	msgpack_sbuffer sb;
	con_node *n;
	int rc = 0, r;

	msgpack_sbuffer_init(&sb);
	if (con_live_pack(&sb) != 0) {
		msgpack_sbuffer_destroy(&sb);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	gen++;
	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!n->up)
			continue;
		r = wire_pack(wire_peer_out(&n->peer), WIRE_BP_SET,
			      wire_peer_seq(&n->peer), n->peer.max_frame, gen,
			      (const void *)sb.data, sb.size);
		r = con_dbg_flush(n, r, err, errlen);
		if (r < 0 && rc == 0)
			rc = r;
	}
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* See con_dbg.h. */
int con_dbg_interrupt(int *nodes, char *err, size_t errlen)
{
	con_node *n;
	int rc = 0, r;

	*nodes = 0;
	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!n->up)
			continue;
		r = wire_pack(wire_peer_out(&n->peer), WIRE_STOP,
			      wire_peer_seq(&n->peer), n->peer.max_frame,
			      (uint64_t)0);
		r = con_dbg_flush(n, r, err, errlen);
		if (r < 0 && rc == 0)
			rc = r;
		else if (r == 0)
			(*nodes)++;
	}
	return rc;
}

static int con_live_stop_all = 1; /* set stop-mode all (the default) */

/* See con_dbg.h. */
void con_dbg_set_probes(int on)
{
	con_dbg.no_probes = !on;
}

/* See con_dbg.h. */
void con_dbg_set_stop_all(int all)
{
	con_live_stop_all = all != 0;
}

/* See con_dbg.h. */
int con_dbg_stop_all(void)
{
	return con_live_stop_all;
}

/* See con_dbg.h. */
int con_dbg_stop_proc(con_proc *p, char *err, size_t errlen)
{
	con_node *n = con_dbg_node_up(p->node);
	int rc;

	if (p->state != CON_PROC_RUNNING) {
		snprintf(err, errlen, "p%d is not running", p->id);
		return WIRE_ESTATE;
	}
	if (n == NULL) {
		snprintf(err, errlen, "p%d: node %s is down", p->id, p->node);
		return WIRE_ESTATE;
	}
	rc = wire_pack(wire_peer_out(&n->peer), WIRE_STOP,
		       wire_peer_seq(&n->peer), n->peer.max_frame,
		       (uint64_t)p->proc);
	return con_dbg_flush(n, rc, err, errlen);
}

/* STOP of stop-mode all: the stop it causes keeps the current process. */
static void con_live_stop_other(con_proc *p)
{
	char err[160];

	if (con_dbg_stop_proc(p, err, sizeof err) == 0)
		p->stop_asked = 1;
}

/* See con_dbg_int.h. */
void con_dbg_stop_others(const con_proc *stopped)
{
	con_proc *p;

	if (!con_live_stop_all)
		return;
	for (p = con_dbg.procs; p != NULL; p = p->next)
		if (p != stopped && p->state == CON_PROC_RUNNING &&
		    !p->launcher)
			con_live_stop_other(p);
}

/* Tells what watchpoint b of p saw: the old and new values and the line
 * that changed it, or that the frame of its local returned (then it is
 * deleted). */
static void con_live_watch(con_proc *p, bp *b)
{
	char err[400], val[4096], note[5200], junk[80];
	con_xval v;

	if (p->watch_why == PVT_WATCH_GONE) {
		snprintf(note, sizeof note, "watchpoint %d deleted: the frame "
			 "of %s returned", b->id, b->watch);
		con_dbg_event_add(CON_EV_NOTE, p, NULL, note);
		p->bp = 0; /* the stop is a statement's, the watchpoint gone */
		bp_delete(&con_dbg.bps, b->id, junk, sizeof junk);
		(void)con_dbg_live_sync(err, sizeof err);
		return;
	}
	memset(&v, 0, sizeof v);
	if (con_dbg_eval(p, b->watch, &v, err, sizeof err) < 0)
		snprintf(val, sizeof val, "<%s>", err);
	else if (con_xval_format(&v, 0, val, sizeof val) != 0)
		snprintf(val, sizeof val, "?");
	con_xval_free(&v);
	snprintf(note, sizeof note, "watchpoint %d: %s\nOld value = %s\n"
		 "New value = %s\n(changed by line %d)", b->id, b->watch,
		 b->watch_old != NULL ? b->watch_old : "?", val, p->watch_at);
	con_dbg_event_add(CON_EV_NOTE, p, NULL, note);
	free(b->watch_old);
	b->watch_old = strdup(val);
}

/* Compiles b's condition once, at its first stop (p's variables are
 * the site's), and sends the code to the nodes: from then on the
 * processes decide by themselves, and only stops where it holds (or
 * where they cannot evaluate it) come here. */
static void con_live_compile(con_proc *p, bp *b)
{
	char err[400];

	if (b->code_tried)
		return;
	b->code_tried = 1;
	if (con_dbg_compile(p, b->cond, &b->code, &b->code_len, err,
			    sizeof err) != 0) {
		b->code_why = strdup(err);
		return;
	}
	(void)con_dbg_live_sync(err, sizeof err);
}

/* Decides the conditional stop of p (con_dbg_int.h). */
static void con_live_cond(con_proc *p)
{
	char err[400], note[600];
	bp *b = bp_find(&con_dbg.bps, p->cond_bp);
	con_dbg_event *e;
	con_xval v;
	int rc, yes = 1;

	p->cond_bp = 0;
	if (b != NULL && b->watch != NULL) {
		con_live_watch(p, b);
		p->watch_why = 0;
		b = bp_find(&con_dbg.bps, p->bp); /* gone with its frame */
		goto stop;
	}
	if (b == NULL || b->cond == NULL)
		goto stop; /* deleted or made plain meanwhile */
	rc = con_dbg_eval(p, b->cond, &v, err, sizeof err);
	if (rc < 0 && p->state != CON_PROC_STOPPED)
		return; /* it ended, or its node went down */
	if (rc < 0) {
		snprintf(note, sizeof note, "breakpoint %d: the condition '%s' "
			 "cannot be evaluated: %s", b->id, b->cond, err);
		con_dbg_event_add(CON_EV_NOTE, p, NULL, note);
		goto stop;
	}
	yes = v.kind == CON_X_TEXT ? 1 : v.kind == CON_X_FLT ? v.d != 0 :
	      v.kind == CON_X_INT ? v.i != 0 : v.u != 0;
	con_xval_free(&v);
	con_live_compile(p, b);
	if (!yes) {
		b->cond_console++;
		if (b->hits > 0)
			b->hits--; /* a pass, not a stop */
		(void)con_dbg_resume(p, err, sizeof err);
		return;
	}
stop:
	if (!p->stop_asked || con_dbg.current == NULL)
		con_dbg.current = p;
	e = con_dbg_event_add(CON_EV_STOP, p, NULL, p->where);
	if (b != NULL && b->temp && e != NULL)
		e->temp = 1;
	if (!p->stop_asked)
		con_dbg_stop_others(p);
	p->stop_asked = 0;
}

/* See con_dbg_int.h. */
void con_dbg_cond_poll(void)
{
	static int busy; /* an evaluation waits, and waits call us */
	con_proc *p;

	if (busy)
		return;
	busy = 1;
	for (p = con_dbg.procs; p != NULL; p = p->next)
		if (p->cond_bp != 0 && p->state == CON_PROC_STOPPED)
			con_live_cond(p);
		else
			p->cond_bp = 0; /* it ended meanwhile */
	busy = 0;
}
