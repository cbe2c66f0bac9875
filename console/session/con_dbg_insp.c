/*
 * con_dbg_insp.c — inspecting stopped processes (con_dbg.h).
 *
 * A value path ("p->next->v", "a[2]@3") is checked and resolved here
 * against the variables the process recorded at its breakpoint and the
 * type table of that breakpoint's translation unit (td_path_eval); the
 * resulting td_request travels in INSPECT; the VALUE answer is printed
 * into text at once (td_result_print), since the message it came in is
 * only borrowed.  Requests wait in a small table keyed by number.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_dbg_int.h"
#include "paravt_rt.h"
#include "td_node.h"
#include "wire.h"

#define CON_DBG_PEND (sizeof con_dbg.pend / sizeof con_dbg.pend[0])
#define CON_DBG_TEXT_MAX (4u << 20)  /* longest printed value */

/* What con_dbg_ask sends besides INSPECT. */
typedef struct con_ask {
	const con_xval *set; /* SET of this value, or NULL */
	int watch_id;        /* WATCH with this id, or 0 */
	int local;           /* ... of a local of the current frame */
} con_ask;

/* ---- checks ----------------------------------------------------------- */

/* The state of p as a word. */
static const char *con_dbg_state_word(const con_proc *p)
{
	static const char *const w[] = {"running", "stopped", "exited",
					"crashed"};

	return p->state >= 0 && p->state <= CON_PROC_CRASHED ? w[p->state] :
	       "?";
}

/* The "FILE:LINE" part of p's location. */
static const char *con_dbg_at(const con_proc *p)
{
	const char *at = strstr(p->where, " at ");

	return at != NULL ? at + 4 : p->where;
}

/* Checks that the first name of path is a variable of p (td_path_eval
 * would say "no variable named" without the place).  0 or WIRE_EARG. */
static int con_dbg_first_name(const con_proc *p, const char *path, char *err,
			      size_t errlen)
{
	const char *s = path;
	size_t i, len;

	while (*s == '*' || *s == '(' || isspace((unsigned char)*s))
		s++;
	for (len = 0; isalnum((unsigned char)s[len]) || s[len] == '_'; len++)
		;
	if (len == 0 || isdigit((unsigned char)s[0]))
		return 0; /* a syntax error: td_path_eval explains */
	for (i = 0; i < p->nvars + p->ncasts; i++) {
		const char *nm = i < p->nvars ? p->vars[i].name :
				 p->casts[i - p->nvars].name;

		if (strlen(nm) == len && strncmp(nm, s, len) == 0)
			return 0;
	}
	if (p->frame > 0 && (size_t)p->frame < p->nstack)
		snprintf(err, errlen, "no variable '%.*s' in scope in frame "
			 "#%d, %s () at %s:%d", (int)len, s, p->frame,
			 p->stack[p->frame].func, p->stack[p->frame].file,
			 p->stack[p->frame].line);
	else
		snprintf(err, errlen, "no variable '%.*s' in scope at %s",
			 (int)len, s, con_dbg_at(p));
	return WIRE_EARG;
}

/* The table of p's current unit, or NULL with err. */
const td_table *con_dbg_table(const con_proc *p, char *err, size_t errlen)
{
	if (p->state != CON_PROC_STOPPED) {
		snprintf(err, errlen, "p%d is %s, not stopped at a breakpoint",
			 p->id, con_dbg_state_word(p));
		return NULL;
	}
	if (p->unit >= p->ntables || p->tables[p->unit] == NULL) {
		snprintf(err, errlen, "p%d sent no type table for its unit %u",
			 p->id, p->unit);
		return NULL;
	}
	return p->tables[p->unit];
}

/* Resolves path against p's scope into res.  0 or a code with err. */
int con_dbg_resolve(const con_proc *p, const td_table *t, const char *path,
		    td_path_result *res, char *err, size_t errlen)
{
	td_scope_var *scope;
	size_t i;
	int rc;

	rc = con_dbg_first_name(p, path, err, errlen);
	if (rc < 0)
		return rc;
	scope = calloc(p->nvars + p->ncasts + 1, sizeof *scope);
	if (scope == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	for (i = 0; i < p->nvars + p->ncasts; i++) {
		const con_var *v = i < p->nvars ? &p->vars[i] :
				   &p->casts[i - p->nvars];

		scope[i].name = v->name;
		scope[i].type = v->type;
		scope[i].addr = v->addr;
	}
	rc = td_path_eval(t, scope, (uint32_t)(p->nvars + p->ncasts), path,
			  res, err, errlen);
	free(scope);
	return rc < 0 ? WIRE_EARG : 0;
}

/* ---- sending ---------------------------------------------------------- */

/* Packs res's request and sends INSPECT for q.  0 or a code. */
static int con_dbg_send_inspect(con_node *n, con_inspect *q,
				const con_ask *a, uint32_t *seq, char *err,
				size_t errlen)
{
	const con_xval *set = a->set;
	msgpack_sbuffer sb, vb;
	msgpack_packer pk, vk;
	int rc;

	msgpack_sbuffer_init(&sb);
	msgpack_sbuffer_init(&vb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_packer_init(&vk, &vb, msgpack_sbuffer_write);
	if (td_request_pack(&pk, &q->res.req) != 0 ||
	    (set != NULL && (set->kind == CON_X_FLT ?
			     msgpack_pack_double(&vk, set->d) :
			     set->kind == CON_X_INT ?
			     msgpack_pack_int64(&vk, set->i) :
			     msgpack_pack_uint64(&vk, set->u)) != 0)) {
		msgpack_sbuffer_destroy(&sb);
		msgpack_sbuffer_destroy(&vb);
		snprintf(err, errlen, "cannot encode the request");
		return WIRE_ENOMEM;
	}
	*seq = wire_peer_seq(&n->peer);
	if (a->watch_id != 0)
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_WATCH, *seq,
			       n->peer.max_frame, (uint64_t)q->proc->proc,
			       (uint64_t)q->req, (uint64_t)q->proc->unit,
			       (const void *)sb.data, sb.size,
			       (uint64_t)a->watch_id, a->local);
	else if (set == NULL)
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_INSPECT, *seq,
			       n->peer.max_frame, (uint64_t)q->proc->proc,
			       (uint64_t)q->req, (uint64_t)q->proc->unit,
			       (const void *)sb.data, sb.size);
	else
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_SET, *seq,
			       n->peer.max_frame, (uint64_t)q->proc->proc,
			       (uint64_t)q->req, (uint64_t)q->proc->unit,
			       (const void *)sb.data, sb.size,
			       (const void *)vb.data, vb.size);
	msgpack_sbuffer_destroy(&sb);
	msgpack_sbuffer_destroy(&vb);
	return con_dbg_flush(n, rc, err, errlen);
}

/* Puts q in a free slot of the pending table.  0 or WIRE_EBUSY. */
static int con_dbg_pend_add(con_inspect *q, uint32_t seq)
{
	size_t i;

	for (i = 0; i < CON_DBG_PEND; i++)
		if (con_dbg.pend[i] == NULL) {
			con_dbg.pend[i] = q;
			con_dbg.pend_seq[i] = seq;
			return 0;
		}
	return WIRE_EBUSY;
}

/* Resolves path (or takes var) at p's stop and sends INSPECT, SET or
 * WATCH as a says. */
static int con_dbg_ask(con_proc *p, const char *path, const con_var *var,
		       const con_ask *a, con_inspect *q, char *err,
		       size_t errlen)
{
	const td_table *t;
	con_node *n;
	uint32_t seq;
	int rc;

	memset(q, 0, sizeof *q);
	q->proc = p;
	t = con_dbg_table(p, err, errlen);
	if (t == NULL)
		return WIRE_ESTATE;
	n = con_dbg_node_up(p->node);
	if (n == NULL) {
		snprintf(err, errlen, "node %s of p%d is down", p->node, p->id);
		return WIRE_ESTATE;
	}
	if (path != NULL) {
		rc = con_dbg_resolve(p, t, path, &q->res, err, errlen);
		if (rc < 0)
			return rc;
	} else {
		q->res.req.type = q->res.type = var->type;
		q->res.req.addr = var->addr;
	}
	q->req = ++con_dbg.next_req;
	rc = con_dbg_send_inspect(n, q, a, &seq, err, errlen);
	if (rc == 0 && con_dbg_pend_add(q, seq) < 0) {
		snprintf(err, errlen, "too many requests waiting");
		rc = WIRE_EBUSY;
	}
	return rc;
}

/* print / info locals: resolve and ask. */
int con_dbg_inspect(con_proc *p, const char *path, const con_var *var,
		    con_inspect *q, char *err, size_t errlen)
{
	con_ask a = {NULL, 0, 0};

	return con_dbg_ask(p, path, var, &a, q, err, errlen);
}

/* set var: resolve and send the value; the answer is the new value. */
int con_dbg_set(con_proc *p, const char *path, const con_xval *v,
		con_inspect *q, char *err, size_t errlen)
{
	con_ask a = {v, 0, 0};

	return con_dbg_ask(p, path, NULL, &a, q, err, errlen);
}

/* True if path starts with a parameter or local of p. */
static int con_dbg_path_local(const con_proc *p, const char *path)
{
	size_t i, len;

	while (*path == '*' || *path == '(' || *path == ' ')
		path++;
	for (len = 0; isalnum((unsigned char)path[len]) || path[len] == '_';
	     len++)
		;
	for (i = 0; i < p->nvars; i++)
		if (strlen(p->vars[i].name) == len &&
		    strncmp(p->vars[i].name, path, len) == 0)
			return p->vars[i].scope == PVT_PARAM ||
			       p->vars[i].scope == PVT_LOCAL;
	return 0;
}

/* watch: resolve and send WATCH; the answer is the value now. */
int con_dbg_watch_set(con_proc *p, const char *path, int id, con_inspect *q,
		      char *err, size_t errlen)
{
	con_ask a = {NULL, id, con_dbg_path_local(p, path)};

	return con_dbg_ask(p, path, NULL, &a, q, err, errlen);
}

/* Takes q out of the pending table and frees its text. */
void con_dbg_inspect_done(con_inspect *q)
{
	size_t i;

	for (i = 0; i < CON_DBG_PEND; i++)
		if (con_dbg.pend[i] == q)
			con_dbg.pend[i] = NULL;
	free(q->text);
	q->text = NULL;
	con_xval_free(&q->val);
}

/* Every request of the set is answered; a request whose process stopped
 * being stopped fails. */
int con_dbg_inspect_all_done(void *ctx)
{
	con_inspect_set *s = ctx;
	size_t i;
	int all = 1;

	for (i = 0; i < s->n; i++) {
		con_inspect *q = &s->q[i];

		if (q->done || q->req == 0)
			continue;
		if (q->proc->state != CON_PROC_STOPPED) {
			q->done = 1;
			free(q->text);
			if (asprintf(&q->text, "p%d is no longer stopped",
				     q->proc->id) < 0)
				q->text = NULL;
			continue;
		}
		all = 0;
	}
	return all;
}

/* ---- answers ---------------------------------------------------------- */

/* The pending request numbered req for (n, proc), or NULL. */
static con_inspect *con_dbg_pend_find(const con_node *n, uint64_t proc,
				      uint64_t req)
{
	size_t i;

	for (i = 0; i < CON_DBG_PEND; i++) {
		con_inspect *q = con_dbg.pend[i];

		if (q != NULL && q->req == req && q->proc->proc == proc &&
		    strcmp(q->proc->node, n->spec.name) == 0)
			return q;
	}
	return NULL;
}

/* Prints value v for q into q->text. */
static void con_dbg_print_value(con_inspect *q, const msgpack_object *v)
{
	char err[256];
	wire_buf b;
	int rc;

	wire_buf_init(&b, CON_DBG_TEXT_MAX);
	rc = td_result_print(&b, q->proc->tables[q->proc->unit], &q->res, v,
			     err, sizeof err);
	if (rc == 0) {
		q->ok = 1;
		q->text = strndup(wire_buf_head(&b), wire_buf_used(&b));
		con_dbg_scalar(q->proc->tables[q->proc->unit], &q->res, v,
			       q->text, &q->val);
	} else if (asprintf(&q->text, "cannot show the value: %s", err) < 0) {
		q->text = NULL;
	}
	wire_buf_destroy(&b);
}

/* VALUE: the answer to an INSPECT. */
int con_dbg_on_value(con_node *n, const wire_msg *m)
{
	const msgpack_object *v;
	uint64_t proc, req;
	con_inspect *q;
	char why[160];
	int ok;

	if (wire_unpack(m, why, sizeof why, &proc, &req, &ok, &v) != 0)
		return 1;
	q = con_dbg_pend_find(n, proc, req);
	if (q == NULL || q->done)
		return 1;
	q->done = 1;
	if (ok && q->proc->state == CON_PROC_STOPPED &&
	    q->proc->unit < q->proc->ntables &&
	    q->proc->tables[q->proc->unit] != NULL)
		con_dbg_print_value(q, v);
	else if (v->type == MSGPACK_OBJECT_STR)
		q->text = strndup(v->via.str.ptr, v->via.str.size);
	else
		q->text = strdup("the process could not read the value");
	return 1;
}

/* An ERROR answering an INSPECT fails that request. */
int con_dbg_insp_error(con_node *n, uint32_t ref_seq, const char *text)
{
	size_t i;

	for (i = 0; i < CON_DBG_PEND; i++) {
		con_inspect *q = con_dbg.pend[i];

		if (q == NULL || q->done || con_dbg.pend_seq[i] != ref_seq ||
		    strcmp(q->proc->node, n->spec.name) != 0)
			continue;
		q->done = 1;
		q->text = strdup(text);
		return 1;
	}
	return 0;
}
