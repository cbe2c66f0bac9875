/*
 * con_dbg_hook.c — the frame hook of the debugging session (con_dbg.h):
 * the handlers of the task and run messages (PROC_START, OUTPUT,
 * PROC_EXIT, TASK_CRASH, TYPE_TABLE, BP_HIT) and con_dbg_on_msg, which
 * dispatches every frame a node sends (build and inspection answers go
 * to con_dbg_build.c and con_dbg_insp.c; NODE_EVENTS, EVENT_STRINGS and
 * EVENTS_LOST are stored by con_ev.c and acknowledged here, with the
 * console's processor time for them to a daemon on this machine:
 * CONSOLE_CPU).  Nothing here prints: events are queued for the command
 * layer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "con_dbg_int.h"
#include "con_ev.h"
#include "con_tfile.h"
#include "paravt_rt.h"
#include "wire.h"

#define CON_DBG_VARS_MAX 4096   /* variables accepted in one BP_HIT */
#define CON_DBG_STACK_MAX 1024  /* frames accepted in one stack */
#define CON_DBG_UNITS_MAX 4096  /* translation units per program */
#define CON_DBG_LINE_MAX 65536  /* unterminated output kept per process */

/* ---- handlers: run and output ----------------------------------------- */

/* PROC_START: the RUN on n was answered; a process exists. */
static int con_dbg_on_start(con_node *n, const wire_msg *m)
{
	uint64_t run, proc, pid;
	con_runreq *r;
	con_proc *p;
	char why[160];
	const char *prog = "";
	int nranks = 0;

	if (wire_unpack(m, why, sizeof why, &run, &proc, &pid) != 0)
		return 1;
	for (r = con_dbg.runs; r != NULL; r = r->next)
		if (r->run == run && strcmp(r->node, n->spec.name) == 0) {
			if (r->pending) {
				prog = r->program; /* the run's own process */
				nranks = r->nranks;
			}
			r->pending = 0;
		}
	p = con_proc_known(n, proc);
	if (p != NULL && p->pid == pid && pid != 0)
		return 1; /* told again (a session taken back) */
	p = con_proc_get(n, proc);
	if (p == NULL)
		return 1;
	p->launcher = nranks; /* run mpi: mpirun */
	p->run = (uint32_t)run;
	p->pid = pid;
	con_tfile_proc(p->node, p->proc, p->id, prog);
	con_dbg_event_add(CON_EV_START, p, NULL, NULL);
	return 1;
}

/* Queues one line of p's output (mpirun's goes to its ranks), or, over
 * the cap of what one process shows (con_out.h), files it; nl: the
 * program ended it with a newline (else it was cut: too long, or the
 * last bytes). */
static void con_dbg_output_line(con_proc *p, const char *line, int nl)
{
	char note[1200];

	if (!con_out_line(&p->out, p->id, line, nl, note, sizeof note)) {
		if (note[0] != '\0')
			con_dbg_event_add(CON_EV_NOTE, p, NULL, note);
		return;
	}
	if (p->launcher)
		con_dbg_launcher_line(p, line);
	else
		con_dbg_event_add(CON_EV_OUTPUT, p, NULL, line);
}

/* Queues each complete line of len bytes of p's output on stream k (0
 * stdout, 1 stderr: each stream's lines are made apart) (a NUL byte
 * shows as "^@"); keeps the rest in p->partial[k].  An unterminated
 * piece that reaches CON_DBG_LINE_MAX bytes is a line of its own
 * (nothing is dropped). */
static void con_dbg_output_lines(con_proc *p, int k, const char *data,
				 size_t len)
{
	size_t have = p->partial[k] != NULL ? strlen(p->partial[k]) : 0, i = 0;
	char *buf, *line, *nl;

	buf = realloc(p->partial[k], CON_DBG_LINE_MAX + 1);
	if (buf == NULL)
		return; /* (out of memory: the console is going down) */
	if (p->partial[k] == NULL)
		buf[0] = '\0';
	p->partial[k] = buf;
	while (i < len) {
		while (i < len && have < CON_DBG_LINE_MAX) {
			if (data[i] == '\0' && have + 2 <= CON_DBG_LINE_MAX) {
				buf[have++] = '^';
				buf[have++] = '@';
			} else if (data[i] != '\0') {
				buf[have++] = data[i];
			} else {
				break; /* no room for "^@": a line first */
			}
			i++;
		}
		buf[have] = '\0';
		for (line = buf; (nl = strchr(line, '\n')) != NULL;
		     line = nl + 1) {
			*nl = '\0';
			con_dbg_output_line(p, line, 1);
		}
		have = strlen(line);
		memmove(buf, line, have + 1);
		if (have >= CON_DBG_LINE_MAX - 1) {
			con_dbg_output_line(p, buf, 0);
			buf[0] = '\0';
			have = 0;
		}
	}
}

/* Queues what is left of p's output (stdout's piece, then stderr's) as
 * last lines; at its end (end set) also the note of what the cap kept
 * from the console. */
static void con_dbg_output_flush(con_proc *p, int end)
{
	char note[1200];
	int k;

	for (k = 0; k < 2; k++) {
		if (p->partial[k] != NULL && p->partial[k][0] != '\0')
			con_dbg_output_line(p, p->partial[k], 0);
		free(p->partial[k]);
		p->partial[k] = NULL;
	}
	if (!end)
		return;
	con_out_end(&p->out, note, sizeof note);
	if (note[0] != '\0')
		con_dbg_event_add(CON_EV_NOTE, p, NULL, note);
}

/* OUTPUT: program output, any bytes, of stream 1 (stdout) or 2 (stderr;
 * any other number counts as stdout). */
static int con_dbg_on_output(con_node *n, const wire_msg *m)
{
	uint64_t proc, stream;
	const char *data;
	size_t len;
	con_proc *p;
	char why[160];

	if (wire_unpack(m, why, sizeof why, &proc, &stream, &data, &len) != 0)
		return 1;
	p = con_proc_get(n, proc);
	if (p == NULL)
		return 1;
	con_dbg_output_lines(p, stream == 2 ? 1 : 0, data, len);
	return 1;
}

/* Turns PROC_EXIT's last location "FILE:LINE FUNC" into the form the
 * crash reports use, "FILE:LINE in FUNC ()" (other text is copied). */
static void con_dbg_last(const char *last, char *buf, size_t buflen)
{
	const char *sp = strchr(last, ' ');

	if (sp != NULL && strchr(sp + 1, ' ') == NULL && sp[1] != '\0')
		snprintf(buf, buflen, "%.*s in %s ()", (int)(sp - last), last,
			 sp + 1);
	else
		snprintf(buf, buflen, "%s", last);
}

/* PROC_EXIT: the process ended, by exit status or signal. */
static int con_dbg_on_exit(con_node *n, const wire_msg *m)
{
	char last[WIRE_TEXT_MAX], why[160];
	int64_t status, sig;
	uint64_t proc;
	con_proc *p;

	if (wire_unpack(m, why, sizeof why, &proc, &status, &sig, last,
			sizeof last) != 0)
		return 1;
	p = con_proc_get(n, proc);
	if (p == NULL)
		return 1;
	con_dbg_output_flush(p, 1);
	con_proc_clear_stop(p);
	p->status = status;
	p->sig = sig;
	con_tfile_exit(p->id, sig == 0 ? "exit" : "signal",
		       sig == 0 ? status : sig);
	p->state = sig == 0 ? CON_PROC_EXITED : CON_PROC_CRASHED;
	if (p->launcher)
		con_dbg_launchers_poll(0); /* its ranks' last lines first */
	if (sig == 0) {
		con_dbg_event_add(CON_EV_EXIT, p, NULL, NULL);
		return 1;
	}
	if (!p->crash_told) {
		con_dbg_last(last, p->where, sizeof p->where);
		con_dbg_event_add(CON_EV_CRASH, p, NULL, p->where);
	}
	return 1;
}

/* ---- handlers: tasks -------------------------------------------------- */

/* Copies one msgpack str into a new string ("" for other types). */
static char *con_dbg_strdup_obj(const msgpack_object *o)
{
	if (o->type != MSGPACK_OBJECT_STR)
		return strdup("");
	return strndup(o->via.str.ptr, o->via.str.size);
}

/* Decodes variables [[name, type, addr, scope]...] into *vars, *n.
 * 0 or -1. */
static int con_dbg_var_list(con_var **vars, size_t *n, const msgpack_object *o)
{
	const msgpack_object *f;
	uint32_t i, k = 0;
	con_var *v;

	if (o->type != MSGPACK_OBJECT_ARRAY ||
	    o->via.array.size > CON_DBG_VARS_MAX)
		return -1;
	*vars = v = calloc(o->via.array.size + 1, sizeof *v);
	if (v == NULL)
		return -1;
	for (i = 0; i < o->via.array.size; i++) {
		f = o->via.array.ptr[i].via.array.ptr;
		if (o->via.array.ptr[i].type != MSGPACK_OBJECT_ARRAY ||
		    o->via.array.ptr[i].via.array.size < 4 ||
		    f[0].type != MSGPACK_OBJECT_STR ||
		    f[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
		    f[2].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
		    f[3].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
			continue;
		v[k].name = con_dbg_strdup_obj(&f[0]);
		v[k].type = (uint32_t)f[1].via.u64;
		v[k].addr = f[2].via.u64;
		v[k].scope = (int)f[3].via.u64;
		*n = ++k;
	}
	return 0;
}

/* The variables of the stop into p. */
static int con_dbg_vars(con_proc *p, const msgpack_object *o)
{
	return con_dbg_var_list(&p->vars, &p->nvars, o);
}

/* Decodes a stack [[func, file, line]...] into p.  0 or -1. */
static int con_dbg_stack(con_proc *p, const msgpack_object *o)
{
	const msgpack_object *f;
	uint32_t i, k = 0;

	if (o->type != MSGPACK_OBJECT_ARRAY ||
	    o->via.array.size > CON_DBG_STACK_MAX)
		return -1;
	p->stack = calloc(o->via.array.size + 1, sizeof *p->stack);
	if (p->stack == NULL)
		return -1;
	for (i = 0; i < o->via.array.size; i++) {
		f = o->via.array.ptr[i].via.array.ptr;
		if (o->via.array.ptr[i].type != MSGPACK_OBJECT_ARRAY ||
		    o->via.array.ptr[i].via.array.size < 3 ||
		    f[2].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
			continue;
		p->stack[k].func = con_dbg_strdup_obj(&f[0]);
		p->stack[k].file = con_dbg_strdup_obj(&f[1]);
		p->stack[k].line = (int)f[2].via.u64;
		p->stack[k].has_vars = k == 0;
		if (k > 0 && o->via.array.ptr[i].via.array.size >= 5 &&
		    f[3].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
		    f[3].via.u64 <= UINT32_MAX &&
		    con_dbg_var_list(&p->stack[k].vars, &p->stack[k].nvars,
				     &f[4]) == 0) {
			p->stack[k].unit = (uint32_t)f[3].via.u64;
			p->stack[k].has_vars = 1;
		}
		p->nstack = ++k;
	}
	return 0;
}

/* TYPE_TABLE: a unit's evaluated type table, kept per process. */
static int con_dbg_on_table(con_node *n, const wire_msg *m)
{
	const msgpack_object *o;
	uint64_t proc, unit;
	td_table *t, **tabs;
	con_proc *p;
	char why[160];

	if (wire_unpack(m, why, sizeof why, &proc, &unit, &o) != 0 ||
	    unit >= CON_DBG_UNITS_MAX)
		return 1;
	p = con_proc_get(n, proc);
	if (p == NULL || td_table_decode(o, &t, why, sizeof why) != 0) {
		if (p != NULL)
			con_dbg_event_add(CON_EV_NOTE, p, NULL, why);
		return 1;
	}
	if (unit >= p->ntables) {
		tabs = realloc(p->tables, (unit + 1) * sizeof *tabs);
		if (tabs == NULL) {
			td_table_free(t);
			return 1;
		}
		memset(tabs + p->ntables, 0,
		       (unit + 1 - p->ntables) * sizeof *tabs);
		p->tables = tabs;
		p->ntables = unit + 1;
	}
	td_table_free(p->tables[unit]);
	p->tables[unit] = t;
	con_tfile_types(n->spec.name, (uint32_t)proc, p->id, unit, o);
	return 1;
}

/* True, and remembered, if p has already stopped at temporary breakpoint
 * id: a tbreak stops every process once, not only the first to reach it. */
static int con_proc_temp_seen(con_proc *p, int id)
{
	int i;

	for (i = 0; i < p->ntemp_seen; i++)
		if (p->temp_seen[i] == id)
			return 1;
	if (p->ntemp_seen < CON_TEMP_SEEN)
		p->temp_seen[p->ntemp_seen++] = id;
	return 0;
}

/* The breakpoint a BP_HIT of p names, counted as a hit, or NULL when the
 * stop is passed over: deleted since the build, disabled, a compiled-in
 * one with stops still to ignore (a live one's count is the node's), or
 * a tbreak p has already stopped at. */
static bp *con_dbg_hit_bp(con_proc *p, uint64_t bpno)
{
	bp *b = bp_find(&con_dbg.bps, (int)bpno);

	if (b == NULL || !b->enabled ||
	    (b->temp && con_proc_temp_seen(p, b->id)))
		return NULL;
	if (!b->live && b->ignore > 0) {
		b->ignore--;
		return NULL;
	}
	if (b->live)
		b->ignore = 0; /* the node counted them down */
	return bp_hit(&con_dbg.bps, (int)bpno);
}

/* BP_HIT: the process stopped.  Breakpoint 0 is a stop at a statement
 * (a step ended, or an interrupt).  A breakpoint passed over
 * (con_dbg_hit_bp) gets a RESUME; at a record breakpoint the console
 * reads the values and resumes the process itself (con_dbg_rec.c),
 * without a stop event. */
static int con_dbg_on_hit(con_node *n, const wire_msg *m)
{
	char file[WIRE_TEXT_MAX], func[WIRE_TEXT_MAX], why[160];
	const msgpack_object *vars, *stack;
	uint64_t proc, bpno, line, unit;
	con_dbg_event *e;
	con_proc *p;
	bp *b;

	if (wire_unpack(m, why, sizeof why, &proc, &bpno, file, sizeof file,
			&line, func, sizeof func, &unit, &vars, &stack) != 0)
		return 1;
	p = con_proc_get(n, proc);
	if (p == NULL)
		return 1;
	b = bpno != 0 ? con_dbg_hit_bp(p, bpno) : NULL;
	if (b == NULL && bpno != 0) {
		con_dbg_flush(n, wire_pack(wire_peer_out(&n->peer),
					   WIRE_RESUME, wire_peer_seq(&n->peer),
					   n->peer.max_frame, proc),
			      why, sizeof why);
		return 1;
	}
	con_proc_clear_stop(p);
	if (con_dbg_vars(p, vars) < 0 || con_dbg_stack(p, stack) < 0)
		con_dbg_event_add(CON_EV_NOTE, p, NULL,
				  "malformed variables or stack at a stop");
	p->state = CON_PROC_STOPPED;
	p->bp = (int)bpno;
	p->unit = (uint32_t)unit;
	con_proc_set_where(p, func, file, line);
	if (b != NULL && b->record) {
		con_dbg_rec_start(p, b, file, (int)line);
		return 1;
	}
	if (b != NULL && (b->cond != NULL || b->watch != NULL)) {
		p->cond_bp = b->id; /* con_dbg_cond_poll decides or tells */
		return 1;
	}
	/* a process stopped because another one did (stop-mode all) does
	 * not take the focus, even when it reached a breakpoint first */
	if (!p->stop_asked || con_dbg.current == NULL)
		con_dbg.current = p;
	e = con_dbg_event_add(CON_EV_STOP, p, NULL, p->where);
	if (b != NULL && b->temp && e != NULL)
		e->temp = 1;
	if (!p->stop_asked && bpno != 0) /* a breakpoint, not a step's end */
		con_dbg_stop_others(p);
	p->stop_asked = 0;
	return 1;
}

/* WATCH_HIT: the BP_HIT that follows is a watchpoint's (why, at). */
static int con_dbg_on_watch_hit(con_node *n, const wire_msg *m)
{
	uint64_t proc, id, why, at;
	char err[160];
	con_proc *p;

	if (wire_unpack(m, err, sizeof err, &proc, &id, &why, &at) != 0)
		return 1;
	p = con_proc_get(n, proc);
	if (p != NULL) {
		p->watch_why = (int)why;
		p->watch_at = (int)at;
	}
	return 1;
}

/* TASK_CRASH: the task caught a fatal signal; where it was. */
static int con_dbg_on_crash(con_node *n, const wire_msg *m)
{
	char file[WIRE_TEXT_MAX], func[WIRE_TEXT_MAX], text[WIRE_TEXT_MAX];
	const msgpack_object *stack;
	uint64_t proc, line;
	int64_t sig;
	con_proc *p;
	char why[160];

	if (wire_unpack(m, why, sizeof why, &proc, &sig, file, sizeof file,
			&line, func, sizeof func, &stack) != 0)
		return 1;
	p = con_proc_get(n, proc);
	if (p == NULL)
		return 1;
	con_dbg_output_flush(p, 0);
	p->state = CON_PROC_CRASHED;
	p->sig = sig;
	p->crash_told = 1;
	con_tfile_exit(p->id, "crash", sig);
	if (file[0] != '\0')
		snprintf(text, sizeof text, "%.300s:%llu in %.150s ()", file,
			 (unsigned long long)line, func[0] ? func : "??");
	else
		text[0] = '\0';
	snprintf(p->where, sizeof p->where, "%s", text);
	con_dbg_event_add(CON_EV_CRASH, p, NULL, text);
	return 1;
}

/* ---- handlers: events ------------------------------------------------- */

/* This process's processor time, ns (0 when it cannot be read). */
static uint64_t con_dbg_cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The processor time this console had taken when a batch's handling
 * began: at the end of the last batch, if that was at most
 * CON_DBG_EV_GAP_NS ago (what it did between two batches of a flow of
 * events, reading and decoding the frames, is for the events too), else
 * now. */
#define CON_DBG_EV_GAP_NS 100000000u
static uint64_t con_dbg_batch_cpu0(void)
{
	if (con_dbg.ev_cpu != 0 &&
	    wire_now_ns() - con_dbg.ev_wall <= CON_DBG_EV_GAP_NS)
		return con_dbg.ev_cpu;
	return con_dbg_cpu_now();
}

/* Queues EVENTS_ACK(batch) to n, and to a node on this machine the
 * processor time the console has taken for its events so far, the batch
 * just stored included (its handling began at cpu0): CONSOLE_CPU, which
 * the daemon counts as paravt's with its own (paravtd(8), CPU share).
 * They go out with the acknowledgements of the other batches of the
 * same read, in one write, once its frames are handled (con_node_check,
 * or wire_peer_wait before it reads again): each write wakes the
 * daemon, and one a batch woke it dozens of times a drain. */
static void con_dbg_ack(con_node *n, uint64_t batch, uint64_t cpu0)
{
	uint64_t cpu1 = con_dbg_cpu_now();
	int rc;

	con_dbg.ev_cpu = cpu1;
	con_dbg.ev_wall = wire_now_ns();
	rc = wire_pack(wire_peer_out(&n->peer), WIRE_EVENTS_ACK,
		       wire_peer_seq(&n->peer), n->peer.max_frame, batch);
	if (rc == 0 && n->local && cpu0 != 0 && cpu1 > cpu0) {
		n->cpu_ns += cpu1 - cpu0;
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_CONSOLE_CPU,
			       wire_peer_seq(&n->peer), n->peer.max_frame,
			       n->cpu_ns);
	}
	if (rc != 0)
		con_dbg_event_add(CON_EV_NOTE, NULL, n->spec.name,
				  "cannot queue the acknowledgement of "
				  "events (the daemon keeps them)");
}

/* The process of an event frame for (n, proc), and its number in *id.
 * A process seen before whose record was dropped after it ended (a new
 * run forgets ended processes) is not made again: it would look alive
 * for ever.  NULL then, or when out of memory. */
static con_proc *con_dbg_ev_proc(con_node *n, uint64_t proc, int *id)
{
	con_ev_src *s = con_ev_src_find(n->spec.name, (uint32_t)proc);
	con_proc *p;

	for (p = con_dbg.procs; s != NULL && p != NULL; p = p->next)
		if (p->proc == proc && strcmp(p->node, n->spec.name) == 0)
			break;
	if (s == NULL)
		p = con_proc_get(n, proc);
	*id = p != NULL ? p->id : s != NULL ? s->pid_id : 0;
	return p;
}

/* A process the console knows only from its events (a console that
 * connected after PROC_START and PROC_EXIT went to another one) ends
 * when its events say so. */
static void con_dbg_ev_ended(con_node *n, con_proc *p)
{
	con_ev_src *s = con_ev_src_find(n->spec.name, p->proc);

	if (s == NULL || !s->state.ended || p->pid != 0 ||
	    p->state != CON_PROC_RUNNING)
		return;
	p->state = CON_PROC_EXITED;
	snprintf(p->where, sizeof p->where, "ended (from its events)");
}

/* NODE_EVENTS: stores the batch (con_ev.c), then acknowledges it, also
 * when it held only duplicates: batches are acknowledged in order of
 * arrival.  A malformed batch is reported and acknowledged too (the
 * daemon would only send it again). */
static int con_dbg_on_events(con_node *n, const wire_msg *m)
{
	const msgpack_object *evs;
	uint64_t batch, proc, cpu0 = con_dbg_batch_cpu0();
	con_proc *p;
	char why[200];
	int rc, id;

	if (wire_unpack(m, why, sizeof why, &batch, &proc, &evs) != 0) {
		con_dbg_event_add(CON_EV_NOTE, NULL, n->spec.name, why);
		return 1;
	}
	p = con_dbg_ev_proc(n, proc, &id);
	rc = con_ev_add_batch(n->spec.name, (uint32_t)proc, id,
			      n->clock.offset_ns, evs,
			      m->nf > 3 ? &m->f[3] : NULL, why, sizeof why);
	if (rc < 0)
		con_dbg_event_add(CON_EV_NOTE, p, n->spec.name, why);
	else if (p != NULL)
		con_dbg_ev_ended(n, p);
	if (rc > 0)
		con_tfile_events(n->spec.name, (uint32_t)proc, id, evs);
	con_dbg_ack(n, batch, cpu0);
	if (rc > 0)
		con_dbg_launchers_poll(0); /* a rank may be known now */
	return 1;
}

/* EVENT_STRINGS: the names the next events of proc use. */
static int con_dbg_on_strings(con_node *n, const wire_msg *m)
{
	const msgpack_object *strs;
	uint64_t proc, first;
	con_proc *p;
	char why[200];
	int id;

	if (wire_unpack(m, why, sizeof why, &proc, &first, &strs) != 0) {
		con_dbg_event_add(CON_EV_NOTE, NULL, n->spec.name, why);
		return 1;
	}
	p = con_dbg_ev_proc(n, proc, &id);
	if (con_ev_strings(n->spec.name, (uint32_t)proc, id, first, strs, why,
			   sizeof why) < 0)
		con_dbg_event_add(CON_EV_NOTE, p, n->spec.name, why);
	else
		con_tfile_strings(n->spec.name, (uint32_t)proc, id, first,
				  strs);
	return 1;
}

/* EVENTS_LOST: counted, and told to the user. */
static int con_dbg_on_lost(con_node *n, const wire_msg *m)
{
	char reason[WIRE_TEXT_MAX], text[WIRE_TEXT_MAX + 64];
	uint64_t proc, count;
	con_proc *p;
	int id;

	if (wire_unpack(m, text, sizeof text, &proc, &count, reason,
			sizeof reason) != 0) {
		con_dbg_event_add(CON_EV_NOTE, NULL, n->spec.name, text);
		return 1;
	}
	p = con_dbg_ev_proc(n, proc, &id);
	con_ev_lost(n->spec.name, (uint32_t)proc, id, count);
	con_tfile_lost(n->spec.name, (uint32_t)proc, id, count);
	snprintf(text, sizeof text, "%llu event%s lost: %.200s",
		 (unsigned long long)count, count == 1 ? "" : "s", reason);
	con_dbg_event_add(CON_EV_NOTE, p, n->spec.name, text);
	return 1;
}

/* EVENTS_WAITED: counted (stats and trace check show it). */
static int con_dbg_on_waited(con_node *n, const wire_msg *m)
{
	char text[WIRE_TEXT_MAX];
	uint64_t proc, waits, us;
	int id;

	if (wire_unpack(m, text, sizeof text, &proc, &waits, &us) != 0) {
		con_dbg_event_add(CON_EV_NOTE, NULL, n->spec.name, text);
		return 1;
	}
	(void)con_dbg_ev_proc(n, proc, &id);
	con_ev_waited(n->spec.name, (uint32_t)proc, id, waits, us);
	con_tfile_waited(n->spec.name, (uint32_t)proc, id, waits, us);
	return 1;
}

/* An ERROR frame: offered to the runs, builds and inspections that may
 * have caused it.  1 if one of them claims it. */
static int con_dbg_on_error(con_node *n, const wire_msg *m)
{
	char text[WIRE_TEXT_MAX + 64], why[160];
	wire_error_msg e;
	con_runreq *r;

	if (wire_unpack_error(m, &e, why, sizeof why) != 0)
		return 0;
	snprintf(text, sizeof text, "%s", e.message[0] != '\0' ? e.message :
		 wire_strerror(-(int)e.code));
	for (r = con_dbg.runs; r != NULL; r = r->next)
		if (r->pending && r->seq == e.ref_seq &&
		    strcmp(r->node, n->spec.name) == 0) {
			r->pending = 0;
			snprintf(why, sizeof why, "run refused: %.140s", text);
			con_dbg_event_add(CON_EV_NOTE, NULL, r->node, why);
			return 1;
		}
	return con_dbg_build_error(n, e.ref_seq, text) ||
	       con_dbg_insp_error(n, e.ref_seq, text);
}

/* The frame hook: dispatches by type.  1 if consumed. */
int con_dbg_on_msg(con_node *n, const wire_msg *m, void *ctx)
{
	switch (m->type) {
	case WIRE_BUILD_RESULT:
		return con_dbg_on_build_result(n, m);
	case WIRE_PROC_START:
		return con_dbg_on_start(n, m);
	case WIRE_OUTPUT:
		return con_dbg_on_output(n, m);
	case WIRE_PROC_EXIT:
		return con_dbg_on_exit(n, m);
	case WIRE_TASK_CRASH:
		return con_dbg_on_crash(n, m);
	case WIRE_TYPE_TABLE:
		return con_dbg_on_table(n, m);
	case WIRE_BP_HIT:
		return con_dbg_on_hit(n, m);
	case WIRE_WATCH_HIT:
		return con_dbg_on_watch_hit(n, m);
	case WIRE_VALUE:
		con_dbg_on_value(n, m);
		con_dbg_rec_poll();
		return 1;
	case WIRE_NODE_EVENTS:
		return con_dbg_on_events(n, m);
	case WIRE_EVENT_STRINGS:
		return con_dbg_on_strings(n, m);
	case WIRE_EVENTS_LOST:
		return con_dbg_on_lost(n, m);
	case WIRE_EVENTS_WAITED:
		return con_dbg_on_waited(n, m);
	case WIRE_ERROR:
		if (!con_dbg_on_error(n, m))
			return 0;
		con_dbg_rec_poll();
		return 1;
	default:
		return 0;
	}
}

