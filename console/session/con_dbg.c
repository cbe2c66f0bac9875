/*
 * con_dbg.c — the debugging session's state, events and processes
 * (con_dbg.h).
 *
 * Layout: the state and small helpers; the event queue; processes (find,
 * create, free, stop data).  The frame hook and the handlers of the
 * task and run messages are in con_dbg_hook.c; run state, resume, kill
 * and the wait loop in con_dbg_wait.c.  Nothing here prints: events are
 * queued for the command layer.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_dbg_int.h"
#include "con_ev.h"
#include "wire.h"

con_dbg_state con_dbg;

/* ---- state ------------------------------------------------------------ */

/* Installs the frame hook once. */
void con_dbg_init(void)
{
	if (con_dbg.inited)
		return;
	con_dbg.inited = 1;
	bp_model_init(&con_dbg.bps);
	con_dbg.next_proc = 1;
	con_dbg.ev_tail = &con_dbg.ev_head;
	con_node_set_msg_hook(con_dbg_on_msg, NULL);
}

/* The breakpoint model. */
bp_model *con_dbg_bps(void)
{
	return &con_dbg.bps;
}

/* The up node called name, or NULL. */
con_node *con_dbg_node_up(const char *name)
{
	con_node *n = con_node_find(name);

	return n != NULL && n->up ? n : NULL;
}

/* Flushes n's output after a wire_pack whose result is rc. */
int con_dbg_flush(con_node *n, int rc, char *err, size_t errlen)
{
	if (rc == 0)
		rc = wire_peer_flush(&n->peer);
	if (rc < 0)
		snprintf(err, errlen, "node %s: cannot send: %s", n->spec.name,
			 wire_strerror(rc));
	return rc;
}

/* Signal name through the C library; "signal N" when unknown. */
const char *con_dbg_signame(int64_t sig, char *buf, size_t buflen)
{
	const char *s = sig > 0 && sig < 128 ? sigabbrev_np((int)sig) : NULL;

	if (s == NULL)
		snprintf(buf, buflen, "signal %lld", (long long)sig);
	else
		snprintf(buf, buflen, "SIG%s", s);
	return buf;
}

/* True if sig is a fault (the program went wrong where it was): SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGABRT.  Others (SIGTERM from pvm_kill, SIGINT,
 * SIGKILL, ...) were sent to it. */
int con_dbg_sig_fault(int64_t sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
	       sig == SIGILL || sig == SIGABRT;
}

/* ---- events ----------------------------------------------------------- */

/* Appends an event to the queue (dropped when memory runs out). */
con_dbg_event *con_dbg_event_add(int kind, const con_proc *p, const char *node,
		       const char *text)
{
	con_dbg_event *e = calloc(1, sizeof *e);

	if (e == NULL)
		return NULL;
	e->kind = kind;
	e->rank = -1;
	e->text = strdup(text != NULL ? text : "");
	if (p != NULL) {
		e->proc = p->id;
		e->bp = p->bp;
		e->status = kind == CON_EV_START ? (int64_t)p->pid : p->status;
		e->sig = p->sig;
		node = p->node;
	}
	snprintf(e->node, sizeof e->node, "%s", node != NULL ? node : "");
	*con_dbg.ev_tail = e;
	con_dbg.ev_tail = &e->next;
	return e;
}

/* Queues the event store's note, if it has one: a batch found malformed
 * when it was decoded, later than it came (con_ev_take_error). */
static void con_dbg_event_late(void)
{
	const char *note = con_ev_take_error();

	if (note != NULL)
		(void)con_dbg_event_add(CON_EV_NOTE, NULL, NULL, note);
}

/* True if the queue is not empty. */
int con_dbg_event_pending(void)
{
	con_dbg_event_late();
	return con_dbg.ev_head != NULL;
}

/* Pops the oldest event. */
con_dbg_event *con_dbg_event_next(void)
{
	con_dbg_event *e;

	con_dbg_event_late();
	e = con_dbg.ev_head;

	if (e == NULL)
		return NULL;
	con_dbg.ev_head = e->next;
	if (con_dbg.ev_head == NULL)
		con_dbg.ev_tail = &con_dbg.ev_head;
	e->next = NULL;
	return e;
}

/* Frees one event. */
void con_dbg_event_free(con_dbg_event *e)
{
	if (e == NULL)
		return;
	free(e->text);
	free(e);
}

/* ---- processes -------------------------------------------------------- */

/* First process. */
con_proc *con_dbg_proc_first(void)
{
	return con_dbg.procs;
}

/* Current process. */
con_proc *con_dbg_current(void)
{
	return con_dbg.current;
}

/* Selects p. */
void con_dbg_select(con_proc *p)
{
	con_dbg.current = p;
}

/* "p3" or "3" to a process. */
con_proc *con_dbg_proc_find(const char *name, char *err, size_t errlen)
{
	const char *s = name[0] == 'p' ? name + 1 : name;
	con_proc *p;
	char *end;
	long id = strtol(s, &end, 10);

	for (p = con_dbg.procs; *s != '\0' && *end == '\0' && p != NULL;
	     p = p->next)
		if (p->id == id)
			return p;
	snprintf(err, errlen, "no process '%s' (see 'info procs')", name);
	return NULL;
}

/* Frees an outer frame's variables. */
static void con_frame_vars_free(con_frame *f)
{
	size_t i;

	for (i = 0; i < f->nvars; i++)
		free(f->vars[i].name);
	free(f->vars);
	f->vars = NULL;
	f->nvars = 0;
}

/* Exchanges p's variables and unit with frame n's. */
static void con_frame_swap(con_proc *p, int n)
{
	con_frame *f = &p->stack[n];
	con_var *v = p->vars;
	size_t nv = p->nvars;
	uint32_t u = p->unit;

	p->vars = f->vars;
	p->nvars = f->nvars;
	p->unit = f->unit;
	f->vars = v;
	f->nvars = nv;
	f->unit = u;
}

/* See con_dbg.h. */
int con_dbg_frame_select(con_proc *p, int n)
{
	if (n < 0 || (n > 0 && (size_t)n >= p->nstack))
		return -1;
	if (p->frame > 0 && (size_t)p->frame < p->nstack)
		con_frame_swap(p, p->frame); /* frame #0's back in p */
	if (n > 0)
		con_frame_swap(p, n);
	p->frame = n;
	return 0;
}

/* Frees what a stop recorded (variables and stack). */
void con_proc_clear_stop(con_proc *p)
{
	size_t i;

	(void)con_dbg_frame_select(p, 0);
	for (i = 0; i < p->nvars; i++)
		free(p->vars[i].name);
	for (i = 0; i < p->ncasts; i++)
		free(p->casts[i].name);
	free(p->casts);
	p->casts = NULL;
	p->ncasts = 0;
	for (i = 0; i < p->nstack; i++) {
		free(p->stack[i].func);
		free(p->stack[i].file);
		con_frame_vars_free(&p->stack[i]);
	}
	free(p->vars);
	free(p->stack);
	p->vars = NULL;
	p->stack = NULL;
	p->nvars = p->nstack = 0;
	p->frame = 0;
}

/* Frees one process. */
static void con_proc_free(con_proc *p)
{
	size_t i;

	con_held *h;

	con_proc_clear_stop(p);
	for (i = 0; i < p->ntables; i++)
		td_table_free(p->tables[i]);
	free(p->tables);
	free(p->partial[0]);
	free(p->partial[1]);
	con_out_free(&p->out);
	while ((h = p->held) != NULL) {
		p->held = h->next;
		free(h->text);
		free(h);
	}
	free(p);
}

/* Drops the processes that ended (before a new run). */
void con_dbg_forget_ended(void)
{
	con_proc **pp = &con_dbg.procs, *p;

	while ((p = *pp) != NULL) {
		if ((p->state == CON_PROC_EXITED ||
		     p->state == CON_PROC_CRASHED) && !con_dbg_rec_busy(p)) {
			*pp = p->next;
			if (con_dbg.current == p)
				con_dbg.current = NULL;
			con_proc_free(p);
		} else {
			pp = &p->next;
		}
	}
}

/* The process (node, proc), or NULL when unknown. */
con_proc *con_proc_known(const con_node *n, uint64_t proc)
{
	con_proc *p;

	for (p = con_dbg.procs; p != NULL; p = p->next)
		if (p->proc == proc && strcmp(p->node, n->spec.name) == 0)
			return p;
	return NULL;
}

/* The process (node, proc), created when unknown.  NULL if out of
 * memory. */
con_proc *con_proc_get(const con_node *n, uint64_t proc)
{
	con_proc *p = con_proc_known(n, proc), **pp = &con_dbg.procs;

	if (p != NULL)
		return p;
	while (*pp != NULL)
		pp = &(*pp)->next;
	p = calloc(1, sizeof *p);
	if (p == NULL)
		return NULL;
	p->id = con_dbg.next_proc++;
	p->proc = (uint32_t)proc;
	p->state = CON_PROC_RUNNING;
	snprintf(p->node, sizeof p->node, "%s", n->spec.name);
	*pp = p;
	return p;
}

int con_dbg_proc_seed(const char *node, uint32_t proc, int id, int ended)
{
	con_proc *p, **pp = &con_dbg.procs;

	con_dbg_init();
	for (; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->id == id ||
		    ((*pp)->proc == proc && strcmp((*pp)->node, node) == 0))
			return -1;
	p = calloc(1, sizeof *p);
	if (p == NULL)
		return -1;
	p->id = id;
	p->proc = proc;
	p->state = ended ? CON_PROC_EXITED : CON_PROC_RUNNING;
	snprintf(p->node, sizeof p->node, "%s", node);
	*pp = p;
	if (id >= con_dbg.next_proc)
		con_dbg.next_proc = id + 1;
	return 0;
}

/* "f () at prog.c:17" */
void con_proc_set_where(con_proc *p, const char *func,
			const char *file, uint64_t line)
{
	snprintf(p->where, sizeof p->where, "%.150s () at %.300s:%llu",
		 func[0] != '\0' ? func : "??", file,
		 (unsigned long long)line);
}

