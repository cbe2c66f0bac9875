/*
 * bp_rt.c — the breakpoint template of the runtime: para_vt_break
 * (paravt_rt.h), linked into user programs through libparavt.a.
 *
 * At a breakpoint an attached task
 *   1. sends TYPE_TABLE(proc, unit id, table) the first time this unit
 *      stops (unit->sent), and remembers the unit in a small registry so
 *      that INSPECTs can name its table by id;
 *   2. sends BP_HIT(proc, bp, file, line, func, unit id, vars, stack);
 *   3. serves the daemon until it says RESUME or STEP for this process:
 *        INSPECT(proc, req, table, request) -> VALUE(proc, req, 1, value)
 *        with the value serialised by td_serve, or VALUE(proc, req, 0,
 *        "sentence") when the request cannot be served;
 *        BYE, ERROR or a lost connection -> one warning, and the task runs
 *        on unattached.
 * Everything in an INSPECT is checked before use: the message's field
 * types (wire_unpack), the process number, the table id (registry), the
 * request's shape (td_request_unpack); td_serve then checks type ids and
 * indexes and probes every address, so no request can crash the task.
 *
 * A message the task does not expect here gets an ERROR frame and is
 * skipped.  Nothing here prints except through pvt__rt_detach().
 * Not thread-safe (issue 3's programs are single-threaded).
 */
#include <stdio.h>
#include <string.h>

#include "bp_live.h"
#include "paravt_rt.h"
#include "rt_core.h"
#include "rt_event.h"
#include "td_node.h"
#include "wire_fmt.h"
#include "wire_msg.h"

/* Units whose tables INSPECT can name; a build has one unit per source
 * file, so this is generous.  Units beyond it stop but cannot be
 * inspected (their INSPECTs are answered "no type table"). */
#define BP_MAX_UNITS 256

/* How long one wait for the daemon lasts before it is simply repeated
 * (a task may stay at a breakpoint for as long as the user likes). */
#define BP_WAIT_NS (60ull * 1000000000ull)

/* Units seen at breakpoints of this process. */
static struct {
	pvt_unit *unit[BP_MAX_UNITS]; /* registered units */
	uint32_t n;                   /* entries used */
} bp_units;

/* Adds unit to the registry unless it is there or the registry is full. */
static void bp_register(pvt_unit *unit)
{
	uint32_t i;

	for (i = 0; i < bp_units.n; i++)
		if (bp_units.unit[i] == unit)
			return;
	if (bp_units.n < BP_MAX_UNITS)
		bp_units.unit[bp_units.n++] = unit;
}

/* The table of the registered unit with this id, or NULL. */
static const td_table *bp_table(uint64_t id)
{
	uint32_t i;

	for (i = 0; i < bp_units.n; i++)
		if (bp_units.unit[i]->id == id)
			return bp_units.unit[i]->table;
	return NULL;
}

/* A message could not be encoded: detaches with the warning that says
 * which and why.  Returns rc. */
static int bp_send_fail(int rc, const char *what)
{
	char why[200];

	snprintf(why, sizeof why, "cannot send %s: %s", what,
	         wire_strerror(rc));
	pvt__rt_detach(why);
	return rc;
}

/* Sends TYPE_TABLE for unit.  0 or an error (then detached). */
static int bp_send_table(const pvt_unit *unit)
{
	wire_peer *p = pvt__rt_peer();
	msgpack_packer pk;
	wire_buf *sb;
	int rc;

	pvt__rt_scratch(&pk);
	if (td_table_pack(&pk, unit->table) != 0)
		return bp_send_fail(WIRE_ENOMEM, "the type table");
	sb = pvt__rt_scratch_buf();
	rc = wire_pack(wire_peer_out(p), WIRE_TYPE_TABLE, wire_peer_seq(p),
	               p->max_frame, pvt__rt_proc(), (uint64_t)unit->id,
	               (const void *)wire_buf_head(sb), wire_buf_used(sb));
	if (rc != 0)
		return bp_send_fail(rc, "the type table");
	return pvt__rt_push();
}

/* Packs the variables as [[name, type, addr, scope]...]. */
static int bp_pack_vars(msgpack_packer *pk, const pvt_var *vars, uint32_t n)
{
	const char *name;
	uint32_t i;

	if (vars == NULL)
		n = 0;
	if (msgpack_pack_array(pk, n))
		return -1;
	for (i = 0; i < n; i++) {
		name = vars[i].name != NULL ? vars[i].name : "";
		if (msgpack_pack_array(pk, 4) ||
		    msgpack_pack_str_with_body(pk, name, strlen(name)) ||
		    msgpack_pack_uint32(pk, vars[i].type) ||
		    msgpack_pack_uint64(pk,
		                        (uint64_t)(uintptr_t)vars[i].addr) ||
		    msgpack_pack_uint8(pk, vars[i].scope))
			return -1;
	}
	return 0;
}

/* The breakpoint's location and identity. */
typedef struct bp_where {
	uint32_t bp;      /* breakpoint id */
	const char *file; /* source file */
	int line;         /* line */
	const char *func; /* function */
} bp_where;

/* Registers unit and sends its table the first time.  0 or an error
 * (then detached). */
static int bp_table_once(pvt_unit *unit)
{
	bp_register(unit);
	if (!unit->sent && unit->table != NULL) {
		if (bp_send_table(unit) != 0)
			return -1;
		unit->sent = 1;
	}
	return 0;
}

/* The same for the units of the outer frames whose variables go with
 * the stop. */
static int bp_outer_tables(void)
{
	uint32_t k, d = pvt__rt_stack_depth();
	pvt_unit *u;

	for (k = 1; k < d && k < PVT_RT_STACK_MAX; k++)
		if ((u = pvt__rt_stack_unit(k)) != NULL && bp_table_once(u) != 0)
			return -1;
	return 0;
}

/* Sends BP_HIT.  0 or an error (then detached). */
static int bp_send_hit(const pvt_unit *unit, const bp_where *w,
                       const pvt_var *vars, uint32_t nvars)
{
	wire_peer *p = pvt__rt_peer();
	msgpack_packer pk;
	wire_buf *sb;
	size_t nv;
	int rc;

	pvt__rt_scratch(&pk);
	if (bp_pack_vars(&pk, vars, nvars) != 0)
		return bp_send_fail(WIRE_ENOMEM, "the breakpoint");
	nv = wire_buf_used(pvt__rt_scratch_buf());
	if (pvt__rt_stack_pack_vars(&pk, PVT_RT_STACK_MAX, 4096,
	                            bp_pack_vars) != 0)
		return bp_send_fail(WIRE_ENOMEM, "the breakpoint");
	sb = pvt__rt_scratch_buf();
	rc = wire_pack(
	    wire_peer_out(p), WIRE_BP_HIT, wire_peer_seq(p), p->max_frame,
	    pvt__rt_proc(), (uint64_t)w->bp, w->file ? w->file : "",
	    (uint64_t)(w->line > 0 ? w->line : 0), w->func ? w->func : "",
	    (uint64_t)unit->id, (const void *)wire_buf_head(sb), nv,
	    (const void *)(wire_buf_head(sb) + nv), wire_buf_used(sb) - nv);
	if (rc != 0)
		return bp_send_fail(rc, "the breakpoint");
	return pvt__rt_push();
}

/* Sends VALUE(proc, req, 0, sentence).  0 or an error. */
static int bp_value_error(uint64_t req, const char *sentence)
{
	wire_peer *p = pvt__rt_peer();
	msgpack_packer pk;
	wire_buf *sb;
	int rc;

	pvt__rt_scratch(&pk);
	if (msgpack_pack_str_with_body(&pk, sentence, strlen(sentence)))
		return bp_send_fail(WIRE_ENOMEM, "a value");
	sb = pvt__rt_scratch_buf();
	rc = wire_pack(wire_peer_out(p), WIRE_VALUE, wire_peer_seq(p),
	               p->max_frame, pvt__rt_proc(), req, 0,
	               (const void *)wire_buf_head(sb), wire_buf_used(sb));
	if (rc != 0)
		return bp_send_fail(rc, "a value");
	return pvt__rt_push();
}

/* Serves request r of table t and sends VALUE.  0 or an error. */
static int bp_value(uint64_t req, const td_table *t, const td_request *r)
{
	wire_peer *p = pvt__rt_peer();
	msgpack_packer pk;
	td_limits lim;
	wire_buf *sb;
	int rc;

	td_limits_default(&lim);
	pvt__rt_scratch(&pk);
	rc = td_serve(&pk, t, r, &lim);
	if (rc == TD_EWRITE)
		return bp_value_error(req, "the value is too large to send");
	if (rc != 0)
		return bp_value_error(req, td_strerror(rc));
	sb = pvt__rt_scratch_buf();
	rc = wire_pack(wire_peer_out(p), WIRE_VALUE, wire_peer_seq(p),
	               p->max_frame, pvt__rt_proc(), req, 1,
	               (const void *)wire_buf_head(sb), wire_buf_used(sb));
	if (rc == WIRE_ETOOBIG || rc == WIRE_ENOMEM)
		return bp_value_error(req, "the value is too large to send");
	if (rc != 0)
		return bp_send_fail(rc, "a value");
	return pvt__rt_push();
}

/* Checks what an INSPECT or SET names: this process, a table of it, a
 * well-formed request into *r.  0, or -1 with a sentence in err. */
static int bp_resolve(const wire_msg *m, uint64_t proc, uint64_t table,
                      const msgpack_object *ro, const td_table **t,
                      td_request *r, char *err, size_t n)
{
	if (proc != pvt__rt_proc()) {
		snprintf(err, n, "%s for process %llu reached process %llu",
		         wire_type_name(m->type), (unsigned long long)proc,
		         (unsigned long long)pvt__rt_proc());
		return -1;
	}
	*t = bp_table(table);
	if (*t == NULL) {
		snprintf(err, n, "no type table %llu in this process",
		         (unsigned long long)table);
		return -1;
	}
	if (td_request_unpack(ro, r) != 0) {
		snprintf(err, n, "malformed value request");
		return -1;
	}
	return 0;
}

/* A message whose fields do not decode: an ERROR, then go on. */
static int bp_malformed(const wire_msg *m, const char *err)
{
	(void)wire_peer_send_error(pvt__rt_peer(), WIRE_EMALFORMED, m->seq,
	                           err);
	return pvt__rt_push();
}

/* Answers one INSPECT.  0 or an error (then detached). */
static int bp_inspect(const wire_msg *m)
{
	const msgpack_object *ro;
	uint64_t proc, req, table;
	const td_table *t;
	td_request r;
	char err[200];

	if (wire_unpack(m, err, sizeof err, &proc, &req, &table, &ro) != 0)
		return bp_malformed(m, err);
	if (bp_resolve(m, proc, table, ro, &t, &r, err, sizeof err) != 0)
		return bp_value_error(req, err);
	return bp_value(req, t, &r);
}

/* The sentence of a td_store failure. */
static const char *bp_store_why(int rc)
{
	switch (rc) {
	case TD_ERANGE:
		return "the value does not fit in the variable's type";
	case TD_EARG:
		return "the variable is const, or a pointer can be set to 0 "
		       "only";
	case TD_ETYPE:
		return "only a number, a char, an enum or a pointer can be "
		       "set (not a struct, an array or a bit-field)";
	case TD_EUNREADABLE:
		return "its memory cannot be written";
	default:
		return td_strerror(rc);
	}
}

/* Answers one SET: stores the value, then answers VALUE with what the
 * variable holds now.  0 or an error (then detached). */
static int bp_set(const wire_msg *m)
{
	const msgpack_object *ro, *vo;
	uint64_t proc, req, table;
	const td_table *t;
	td_request r;
	char err[200];
	int rc;

	if (wire_unpack(m, err, sizeof err, &proc, &req, &table, &ro, &vo) != 0)
		return bp_malformed(m, err);
	if (bp_resolve(m, proc, table, ro, &t, &r, err, sizeof err) != 0)
		return bp_value_error(req, err);
	rc = td_store(t, &r, vo);
	if (rc != 0)
		return bp_value_error(req, bp_store_why(rc));
	return bp_value(req, t, &r);
}

/* Handles RESUME: 1 if it is for this process, 0 if it was answered with
 * an ERROR, or an error (then detached). */
static int bp_resume(const wire_msg *m)
{
	uint64_t proc;
	char err[200];
	int rc;

	rc = wire_unpack(m, err, sizeof err, &proc);
	if (rc == 0 && proc == pvt__rt_proc())
		return 1;
	if (rc == 0)
		snprintf(err, sizeof err,
		         "RESUME for process %llu reached "
		         "process %llu",
		         (unsigned long long)proc,
		         (unsigned long long)pvt__rt_proc());
	(void)wire_peer_send_error(pvt__rt_peer(), WIRE_EMALFORMED, m->seq,
	                           err);
	rc = pvt__rt_push();
	return rc < 0 ? rc : 0;
}

/* Detaches because the daemon said goodbye or reported an error. */
static void bp_daemon_quit(const wire_msg *m)
{
	wire_error_msg e;
	char reason[WIRE_TEXT_MAX], why[WIRE_TEXT_MAX + 64];

	if (m->type == WIRE_BYE && wire_unpack_bye(m, reason, NULL, 0) == 0)
		snprintf(why, sizeof why, "the daemon said goodbye (%s)",
		         reason);
	else if (m->type == WIRE_ERROR &&
	         wire_unpack_error(m, &e, NULL, 0) == 0)
		snprintf(why, sizeof why, "the daemon reported: %s", e.message);
	else
		snprintf(why, sizeof why, "the daemon sent a bad %s",
		         m->type == WIRE_BYE ? "BYE" : "ERROR");
	pvt__rt_detach(why);
}

/* Answers a message that has no place at a breakpoint.  0 or an error. */
static int bp_unexpected(const wire_msg *m)
{
	const char *name = wire_type_name(m->type);
	char err[120];

	if (name == NULL)
		snprintf(err, sizeof err, "unknown message type %u", m->type);
	else
		snprintf(err, sizeof err,
		         "%s is not expected by a task at a "
		         "breakpoint",
		         name);
	(void)wire_peer_send_error(
	    pvt__rt_peer(), name ? WIRE_EPROTO : WIRE_EUNKNOWN, m->seq, err);
	return pvt__rt_push();
}

/* Answers one WATCH: the object becomes a watchpoint (bp_live.c), and
 * VALUE says what it holds now.  0 or an error (then detached). */
static int bp_watch(const wire_msg *m)
{
	const msgpack_object *ro;
	uint64_t proc, req, table, id;
	const td_table *t;
	const td_type *ty;
	td_request r;
	uint32_t type;
	void *addr;
	char err[200];
	int frame, rc;

	if (wire_unpack(m, err, sizeof err, &proc, &req, &table, &ro, &id,
	                &frame) != 0)
		return bp_malformed(m, err);
	if (bp_resolve(m, proc, table, ro, &t, &r, err, sizeof err) != 0)
		return bp_value_error(req, err);
	rc = td_locate(t, &r, &type, &addr);
	ty = rc == 0 ? td_type_get(t, type) : NULL;
	if (ty == NULL)
		return bp_value_error(req, rc == TD_EUNREADABLE ?
		                      "its memory cannot be read" :
		                      "not an object that can be watched");
	if (pvt__bl_watch((uint32_t)id, addr, (size_t)ty->size, frame) != 0)
		return bp_value_error(req, "no control page, or out of memory");
	return bp_value(req, t, &r);
}

/* Sends WATCH_HIT(proc, id, why, at) before the BP_HIT of a watchpoint's
 * stop.  0 or an error (then detached). */
static int bp_send_watch_hit(uint32_t id, uint32_t why, int at)
{
	wire_peer *p = pvt__rt_peer();
	int rc;

	rc = wire_pack(wire_peer_out(p), WIRE_WATCH_HIT, wire_peer_seq(p),
	               p->max_frame, pvt__rt_proc(), (uint64_t)id,
	               (uint64_t)why, (uint64_t)(at > 0 ? at : 0));
	if (rc != 0)
		return bp_send_fail(rc, "a watchpoint's stop");
	return 0;
}

/* Handles STEP like RESUME, with the step's mode (bp_live.c). */
static int bp_step(const wire_msg *m)
{
	uint64_t proc, mode, arg;
	char err[200];

	if (wire_unpack(m, err, sizeof err, &proc, &mode, &arg) != 0 ||
	    proc != pvt__rt_proc() || pvt__bl_step((int)mode) != 0) {
		(void)wire_peer_send_error(pvt__rt_peer(), WIRE_EMALFORMED,
		                           m->seq, "bad STEP");
		return pvt__rt_push() < 0 ? WIRE_EIO : 0;
	}
	return 1;
}

/* See bp_live.h. */
int pvt__bp_handle(const wire_msg *m)
{
	switch (m->type) {
	case WIRE_INSPECT:
		return bp_inspect(m);
	case WIRE_SET:
		return bp_set(m);
	case WIRE_WATCH:
		return bp_watch(m);
	case WIRE_RESUME:
		return bp_resume(m);
	case WIRE_STEP:
		return bp_step(m);
	case WIRE_BYE:
	case WIRE_ERROR:
		bp_daemon_quit(m);
		return WIRE_EEOF;
	default:
		return bp_unexpected(m);
	}
}

/* Serves the daemon until RESUME or until the task detaches. */
static void bp_serve(void)
{
	wire_peer *p;
	wire_msg m;
	char why[300];
	int rc;

	while ((p = pvt__rt_peer()) != NULL) {
		rc = wire_peer_wait(p, &m, wire_now_ns() + BP_WAIT_NS);
		if (rc == WIRE_ETIMEOUT)
			continue;
		if (rc < 0) {
			snprintf(why, sizeof why,
			         "lost the daemon at a "
			         "breakpoint: %s",
			         p->errmsg[0] ? p->errmsg : wire_strerror(rc));
			pvt__rt_detach(why);
			return;
		}
		if (pvt__bp_handle(&m) != 0)
			return;
	}
}

/* Breakpoint template (paravt_rt.h). */
void para_vt_break(pvt_unit *unit, uint32_t bp, const char *file, int line,
                   const char *func, const pvt_var *vars, uint32_t nvars)
{
	uint32_t why;
	bp_where w;
	int at, live = bp == PVT_BP_LIVE;

	if (live && unit != NULL && !pvt__bl_decide(unit, vars, nvars))
		return; /* a condition that is false: no stop */
	if (!live && pvt__bl_just_stopped_at(unit, line))
		return; /* the probe of this statement stopped it already */
	pvt__rt_stack_break(func, file, line);
	if (pvt__rt_peer() == NULL || unit == NULL)
		return;
	if (bp == PVT_BP_LIVE) {
		bp = pvt__bl_reason();
		why = pvt__bl_watch_why(&at);
		if (why != 0 && bp_send_watch_hit(bp, why, at) != 0)
			return;
	}
	pvt__bl_stopped(line);
	pvt__ev_break_begin(bp, file, func, line); /* BREAK_START, flush */
	if (bp_table_once(unit) != 0 || bp_outer_tables() != 0)
		return;
	w.bp = bp;
	w.file = file;
	w.line = line;
	w.func = func;
	if (bp_send_hit(unit, &w, vars, nvars) != 0)
		return;
	bp_serve();
	pvt__ev_break_end(); /* BREAK_END; the stop counts in Δ */
	if (live)
		pvt__bl_resumed(unit, line);
}
