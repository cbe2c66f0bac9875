/*
 * con_dbg_run.c — starting runs (con_dbg.h): RUN to the nodes, the extra
 * hosts of a PVM virtual machine or of an MPI job, and mpirun's output
 * given back to the ranks that wrote it.
 *
 * A RUN carries the program's arguments, for run mpi mpirun's options
 * (launch), an existing program on the node to run instead of the build's
 * (exec), the first process's standard input (stdin: the bytes of the
 * console's file; the node need not share the console's file system) and
 * the runtime's PARAVT_* settings of the console's environment (env).
 *
 * run mpi: the daemon runs mpirun with --tag-output, so every line a rank
 * writes comes as "[JOB,RANK]<stdout>:TEXT" on mpirun's output.  Such a
 * line is shown as the output of the process whose events say it is
 * that rank ("[p3 r2] TEXT"); until that process's first events arrive
 * the line is held (at most CON_DBG_HOLD_SECS, in order), then shown as
 * mpirun's with the rank.  mpirun itself (the launcher) is not waited for
 * while all its ranks have started and each is stopped or blocked
 * (con_dbg_launcher_idle).
 *
 * Layout: the runtime settings; run requests and RUN; run; PVM and MPI
 * hosts; run pvm/mpi; mpirun's tagged output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_dbg_int.h"
#include "con_ev.h"
#include "wire.h"

#define CON_DBG_HOLD_SECS 1.0 /* a rank's line waits this long for the
				 rank's process to be known */

extern char **environ;

/* ---- the runtime's settings -------------------------------------------- */

/* PARAVT_* variables that are not the runtime's: the console's own and
 * the ones the daemons set for the programs. */
static const char *const con_dbg_env_not[] = {
	"PARAVT_HANG_TIMEOUT", "PARAVT_CLOCK_INTERVAL", "PARAVT_TRACE_FSYNC",
	"PARAVT_LINK_PROBE",
	"PARAVT_SOCK", "PARAVT_PROC", "PARAVT_SESSION", "PARAVT_SESSION_DIR",
	"PARAVT_RSH_CONF", "PARAVT_RUN", "PARAVT_BUILD", NULL};

char **con_dbg_run_env(size_t *n)
{
	char **v = calloc(1, sizeof *v), **e;
	size_t k;
	int i, skip;

	*n = 0;
	for (e = environ; v != NULL && e != NULL && *e != NULL; e++) {
		if (strncmp(*e, "PARAVT_", 7) != 0 || strchr(*e, '=') == NULL)
			continue;
		k = (size_t)(strchr(*e, '=') - *e);
		for (i = 0, skip = 0; con_dbg_env_not[i] != NULL; i++)
			skip |= strlen(con_dbg_env_not[i]) == k &&
				strncmp(*e, con_dbg_env_not[i], k) == 0;
		if (!skip && strlen(*e) < WIRE_TEXT_MAX &&
		    con_strv_add(&v, n, "%s", *e) < 0) {
			con_strv_free(v, *n);
			return NULL;
		}
	}
	return v;
}

/* ---- run requests and RUN ----------------------------------------------- */

/* Frees the run requests of the previous run. */
static void con_dbg_runs_clear(void)
{
	con_runreq *r, *next;

	for (r = con_dbg.runs; r != NULL; r = next) {
		next = r->next;
		free(r);
	}
	con_dbg.runs = NULL;
}

/* True if node name was named (or nothing was named). */
int con_dbg_named_node(char **nodes, int nnodes, const char *name)
{
	int i;

	for (i = 0; i < nnodes; i++)
		if (strcmp(nodes[i], name) == 0)
			return 1;
	return nnodes == 0;
}

/* Checks that every named node has a successful build (with exec: is
 * up). */
static int con_dbg_run_check(char **nodes, int nnodes, int exec, char *err,
			     size_t errlen)
{
	con_nodebuild *b;
	int i;

	if (con_dbg.builds == NULL && !exec) {
		snprintf(err, errlen, "nothing built yet: load, break, "
			 "then build (or run an existing program with --exec "
			 "PATH)");
		return WIRE_ESTATE;
	}
	for (i = 0; i < nnodes; i++) {
		for (b = con_dbg.builds; b != NULL; b = b->next)
			if (strcmp(b->node, nodes[i]) == 0)
				break;
		if (!exec && (b == NULL || b->state != CON_NB_OK)) {
			snprintf(err, errlen, "node %s has no successful build"
				 " (build %s)", nodes[i], nodes[i]);
			return WIRE_ESTATE;
		}
		if (con_dbg_node_up(nodes[i]) == NULL) {
			snprintf(err, errlen, "node %s is %s", nodes[i],
				 con_node_find(nodes[i]) ? "not up" :
				 "unknown (see 'node list')");
			return WIRE_ESTATE;
		}
	}
	return 0;
}

/* The base name of path, into buf. */
static void con_dbg_basename(const char *path, char *buf, size_t n)
{
	const char *s = strrchr(path, '/');

	snprintf(buf, n, "%s", s != NULL ? s + 1 : path);
}

/* Sends RUN of kind ("plain", "pvm", "mpi") of program (build number
 * build; with o->exec, that path) to one node and records the request.
 * 0 or a code with err. */
static int con_dbg_run_one(con_node *n, uint32_t build, const char *program,
			   const char *kind, char **args, int nargs,
			   const con_run_opts *o, char *err, size_t errlen)
{
	con_runreq *r = calloc(1, sizeof *r);
	size_t nenv = 0;
	char **env = con_dbg_run_env(&nenv);
	int rc;

	if (r == NULL || env == NULL) {
		free(r);
		con_strv_free(env, nenv);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	snprintf(r->node, sizeof r->node, "%s", n->spec.name);
	r->run = con_dbg.next_run;
	r->seq = wire_peer_seq(&n->peer);
	r->pending = 1;
	r->nranks = strcmp(kind, "mpi") == 0 ? (o->nranks > 0 ?
						  o->nranks : 1) : 0;
	snprintf(r->program, sizeof r->program, "%s", program);
	r->next = con_dbg.runs;
	con_dbg.runs = r;
	rc = wire_pack(wire_peer_out(&n->peer), WIRE_RUN, r->seq,
		       n->peer.max_frame, (uint64_t)r->run, (uint64_t)build,
		       kind, program, (const char *const *)args,
		       (uint32_t)nargs, (const char *const *)o->launch,
		       (uint32_t)o->nlaunch, o->exec != NULL ? o->exec : "",
		       (const void *)(o->in_data != NULL ? o->in_data : ""),
		       o->in_len, (const char *const *)env, (uint32_t)nenv);
	con_strv_free(env, nenv);
	if (rc == WIRE_ETOOBIG) {
		snprintf(err, errlen, "node %s: the run does not fit in one "
			 "frame of %zu bytes (standard input too large?)",
			 n->spec.name, n->peer.max_frame);
		r->pending = 0;
		return rc;
	}
	rc = con_dbg_flush(n, rc, err, errlen);
	if (rc < 0)
		r->pending = 0;
	return rc;
}

/* Starts a new run: forgets ended processes and the last requests. */
static void con_dbg_run_begin(void)
{
	con_dbg_forget_ended();
	con_dbg_runs_clear();
	con_dbg.next_run++;
}

/* ---- run ---------------------------------------------------------------- */

/* run with o->exec: RUN plain of that program on every named (else every
 * up) node. */
static int con_dbg_run_exec(char **nodes, int nnodes, char **args,
			    int nargs, const con_run_opts *o, char *err,
			    size_t errlen)
{
	char prog[WIRE_TEXT_MAX];
	con_node *n;
	int rc, sent = 0;

	con_dbg_basename(o->exec, prog, sizeof prog);
	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!n->up || !con_dbg_named_node(nodes, nnodes, n->spec.name))
			continue;
		rc = con_dbg_run_one(n, 0, prog, "plain", args, nargs, o, err,
				     errlen);
		if (rc < 0)
			return rc;
		sent++;
	}
	if (sent == 0) {
		snprintf(err, errlen, "no node is up");
		return WIRE_ESTATE;
	}
	return 0;
}

int con_dbg_run(char **nodes, int nnodes, char **args, int nargs,
		const con_run_opts *o, char *err, size_t errlen)
{
	static const con_run_opts none;
	con_nodebuild *b;
	con_node *n;
	int rc, sent = 0;

	o = o != NULL ? o : &none;
	rc = con_dbg_run_check(nodes, nnodes, o->exec != NULL, err, errlen);
	if (rc < 0)
		return rc;
	con_dbg_run_begin();
	if (o->exec != NULL)
		return con_dbg_run_exec(nodes, nnodes, args, nargs, o, err,
					errlen);
	for (b = con_dbg.builds; b != NULL; b = b->next) {
		n = con_dbg_node_up(b->node);
		if (b->state != CON_NB_OK || n == NULL || b->prog != 0 ||
		    !con_dbg_named_node(nodes, nnodes, b->node))
			continue;
		rc = con_dbg_run_one(n, b->build, b->program, "plain", args,
				     nargs, o, err, errlen);
		if (rc < 0)
			return rc;
		sent++;
	}
	if (sent == 0) {
		snprintf(err, errlen, "no node with a successful build is up");
		return WIRE_ESTATE;
	}
	return 0;
}

/* ---- run pvm / run mpi -------------------------------------------------- */

/* Writes the names of the programs of the last build into buf. */
static void con_dbg_prog_list(char *buf, size_t cap)
{
	size_t i, used;

	buf[0] = '\0';
	for (i = 0; i < con_dbg.nprograms; i++) {
		used = strlen(buf);
		snprintf(buf + used, cap - used, "%s%s", i ? ", " : "",
			 con_dbg.programs[i]);
	}
}

/* The successful build of program on node (NULL: the first node that
 * has one), or NULL with err. */
static con_nodebuild *con_dbg_build_of(const char *node, const char *program,
				       char *err, size_t errlen)
{
	char progs[WIRE_TEXT_MAX];
	con_nodebuild *b;
	size_t i;

	for (b = con_dbg.builds; b != NULL; b = b->next)
		if (strcmp(b->program, program) == 0 && b->state == CON_NB_OK &&
		    (node == NULL || strcmp(b->node, node) == 0) &&
		    con_dbg_node_up(b->node) != NULL)
			return b;
	for (i = 0; i < con_dbg.nprograms; i++)
		if (strcmp(con_dbg.programs[i], program) == 0)
			break;
	con_dbg_prog_list(progs, sizeof progs);
	if (con_dbg.builds == NULL)
		snprintf(err, errlen, "nothing built yet: load, then build (or "
			 "run an existing program with --exec PATH)");
	else if (i == con_dbg.nprograms)
		snprintf(err, errlen, "'%s' is not the program built (build %u "
			 "made: %s); load and build it first, or run an "
			 "existing program with --exec PATH", program,
			 con_dbg.build_no, progs);
	else
		snprintf(err, errlen, "no successful build of '%s'%s%s on an "
			 "up node (see build)", program, node ? " on " : "",
			 node ? node : "");
	return NULL;
}

/* The host part of a node's address "HOST:PORT" into buf. */
static void con_dbg_addr_host(const con_node *n, char *buf, size_t cap)
{
	const char *colon = strrchr(n->spec.addr, ':');

	snprintf(buf, cap, "%.*s", colon ? (int)(colon - n->spec.addr) :
		 (int)strlen(n->spec.addr), n->spec.addr);
}

/* True if node n joins master m's run of kind (program prog, or exec):
 * pvm: every other node with a successful build of prog; mpi: the other
 * nodes of m's port with one (with exec: every other up node of m's
 * port) on another host.  *b gets the build (NULL with exec). */
static int con_dbg_joins(const con_node *m, const con_node *n, int mpi,
			 const char *prog, int exec, con_nodebuild **b)
{
	char hm[CON_NODE_PATH_MAX], hn[CON_NODE_PATH_MAX];
	con_nodebuild *x;

	*b = NULL;
	if (n == m || !n->up)
		return 0;
	if (mpi) {
		con_dbg_addr_host(m, hm, sizeof hm);
		con_dbg_addr_host(n, hn, sizeof hn);
		if (strcmp(m->hello.port, n->hello.port) != 0 ||
		    strcmp(hm, hn) == 0)
			return 0;
	}
	if (exec)
		return mpi;
	for (x = con_dbg.builds; x != NULL; x = x->next)
		if (strcmp(x->node, n->spec.name) == 0 && x->state == CON_NB_OK &&
		    strcmp(x->program, prog) == 0) {
			*b = x;
			return 1;
		}
	return 0;
}

/* One PVM_HOST to the master's node m per node that joins the run (its
 * daemon's address as we reach it, its build there).  0 or an error. */
static int con_dbg_run_hosts(con_node *m, int mpi, const char *prog,
			     int exec, char *err, size_t errlen)
{
	con_nodebuild *b;
	con_node *n;
	int rc;

	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!con_dbg_joins(m, n, mpi, prog, exec, &b))
			continue;
		if (n->spec.is_ssh && mpi) { /* the job goes on without it */
			con_dbg_event_add(CON_EV_NOTE, NULL, n->spec.name,
					  "reached over ssh: its ranks cannot "
					  "join the MPI job (the master's "
					  "daemon needs its TCP address)");
			continue;
		}
		if (n->spec.is_ssh) {
			snprintf(err, errlen, "run pvm: node %s is reached "
				 "over ssh; the master's daemon needs its "
				 "TCP address", n->spec.name);
			return WIRE_EARG;
		}
		rc = wire_pack(wire_peer_out(&m->peer), WIRE_PVM_HOST,
			       wire_peer_seq(&m->peer), m->peer.max_frame,
			       (uint64_t)con_dbg.next_run, n->spec.name,
			       n->spec.addr, (uint64_t)(b ? b->build : 0));
		rc = con_dbg_flush(m, rc, err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The up node for run pvm/mpi --exec: the one named, else the first. */
static con_node *con_dbg_exec_node(const char *node, char *err,
				   size_t errlen)
{
	con_node *n;

	for (n = con_node_first(); n != NULL; n = n->next)
		if (n->up && (node == NULL || strcmp(n->spec.name, node) == 0))
			return n;
	snprintf(err, errlen, node ? "node %s is not up" : "no node is up",
		 node);
	return NULL;
}

int con_dbg_run_kind(const char *kind, const char *node, const char *program,
		     char **args, int nargs, const con_run_opts *o, char *err,
		     size_t errlen)
{
	static const con_run_opts none;
	char prog[WIRE_TEXT_MAX];
	con_nodebuild *b = NULL;
	int mpi = strcmp(kind, "mpi") == 0, rc;
	con_node *n;

	o = o != NULL ? o : &none;
	if (o->exec != NULL) {
		n = con_dbg_exec_node(node, err, errlen);
		con_dbg_basename(o->exec, prog, sizeof prog);
	} else {
		b = con_dbg_build_of(node, program, err, errlen);
		n = b != NULL ? con_dbg_node_up(b->node) : NULL;
		snprintf(prog, sizeof prog, "%s", program);
	}
	if (n == NULL)
		return WIRE_ESTATE;
	con_dbg_run_begin();
	if ((mpi || o->exec == NULL) &&
	    (rc = con_dbg_run_hosts(n, mpi, prog, o->exec != NULL, err,
				    errlen)) < 0)
		return rc;
	return con_dbg_run_one(n, b ? b->build : 0, prog, kind, args, nargs, o,
			       err, errlen);
}

/* ---- mpirun's tagged output --------------------------------------------- */

/* Parses mpirun's tag "[JOB,RANK]<stdout>:" at the start of line: the
 * rank, with *text after the tag; -1 if the line has none. */
static int con_dbg_tag(const char *line, const char **text)
{
	const char *p = line, *end;
	long rank;

	if (*p != '[' || (p = strchr(p, ',')) == NULL)
		return -1;
	rank = strtol(p + 1, (char **)&end, 10);
	if (end == p + 1 || *end != ']' || rank < 0 || rank > 1000000)
		return -1;
	p = end + 1;
	if (strncmp(p, "<stdout>:", 9) == 0 || strncmp(p, "<stderr>:", 9) == 0)
		*text = p + 9;
	else if (strncmp(p, "<stddiag>:", 10) == 0)
		*text = p + 10;
	else
		return -1;
	return (int)rank;
}

/* The process of launcher l's run whose events say it is rank, or
 * NULL. */
static con_proc *con_dbg_rank_proc(const con_proc *l, int rank)
{
	const con_ev_src *s;
	con_proc *p;

	for (p = con_dbg.procs; p != NULL; p = p->next) {
		if (p->run != l->run || p->launcher || p == l)
			continue;
		s = con_ev_src_find(p->node, p->proc);
		if (s != NULL && s->state.have_tid && s->state.tid == rank)
			return p;
	}
	return NULL;
}

/* Queues line as output of rank's process (or of the launcher l). */
static void con_dbg_rank_out(con_proc *l, con_proc *p, int rank,
			     const char *text)
{
	con_dbg_event *e = con_dbg_event_add(CON_EV_OUTPUT, p ? p : l, NULL,
					     text);

	if (e != NULL)
		e->rank = rank;
}

/* Releases l's held lines in order: those whose rank's process is known
 * now, and (force, or held longer than CON_DBG_HOLD_SECS) the rest as
 * the launcher's. */
static void con_dbg_held_release(con_proc *l, int force)
{
	uint64_t now = wire_now_ns();
	con_held *h;
	con_proc *p;

	while ((h = l->held) != NULL) {
		p = con_dbg_rank_proc(l, h->rank);
		if (p == NULL && !force &&
		    now - h->t_ns < (uint64_t)(CON_DBG_HOLD_SECS * 1e9))
			return;
		con_dbg_rank_out(l, p, h->rank, h->text);
		l->held = h->next;
		free(h->text);
		free(h);
	}
}

void con_dbg_launcher_line(con_proc *l, const char *line)
{
	const char *text = line;
	int rank = con_dbg_tag(line, &text);
	con_held *h = NULL, **pp;
	con_proc *p;

	if (rank < 0) {
		con_dbg_event_add(CON_EV_OUTPUT, l, NULL, line);
		return;
	}
	p = l->held == NULL ? con_dbg_rank_proc(l, rank) : NULL;
	if (p != NULL || (h = calloc(1, sizeof *h)) == NULL ||
	    (h->text = strdup(text)) == NULL) {
		if (p == NULL)
			free(h); /* out of memory: shown at once */
		con_dbg_rank_out(l, p, rank, text);
		return;
	}
	h->rank = rank;
	h->t_ns = wire_now_ns();
	for (pp = &l->held; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = h;
}

void con_dbg_launchers_poll(int force)
{
	con_proc *p;

	for (p = con_dbg.procs; p != NULL; p = p->next)
		if (p->launcher && p->held != NULL)
			con_dbg_held_release(p, force ||
					     p->state != CON_PROC_RUNNING);
}

int con_dbg_launcher_idle(const con_proc *l)
{
	const con_proc *p;
	int ranks = 0, live = 0;

	for (p = con_dbg.procs; p != NULL; p = p->next) {
		if (p->run != l->run || p == l || p->launcher)
			continue;
		ranks++;
		live += p->state == CON_PROC_RUNNING ||
			p->state == CON_PROC_STOPPED;
	}
	return ranks >= l->launcher && live > 0;
}
