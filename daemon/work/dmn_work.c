/*
 * dmn_work.c — sessions, work directories, the child reaper and the
 * dispatch of session messages (dmn_work.h).
 *
 * Layout: helpers (errors, the controller's queue, removing trees), the
 * work directories, session life, the reaper, then the public hooks that
 * dmn_conn.c calls.
 */
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_work.h"
#include "wire_fmt.h"

/* ---- helpers ------------------------------------------------------------- */

void dmn_work_err(dmn_conn *c, int code, uint32_t ref, const char *fmt, ...)
{
	char text[WIRE_TEXT_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	dmn_conn_fail(c, code, ref, text, 0);
}

wire_peer *dmn_work_ctl_of(dmn_work *w, dmn_sess *s)
{
	if (s == NULL)
		return NULL;
	if (s == w->cur)
		return dmn_work_ctl(w);
	if (!s->detached || s->orphaned)
		return NULL;
	if (!s->held_ready) {
		memset(&s->held, 0, sizeof s->held);
		s->held.max_frame = WIRE_FRAME_MAX_DEFAULT;
		wire_buf_init(&s->held.out, DMN_HELD_MAX);
		s->held_ready = 1;
	}
	return &s->held;
}

int dmn_work_is_held(const dmn_sess *s, const wire_peer *out)
{
	return s != NULL && out == &s->held;
}

void dmn_work_kick(dmn_work *w)
{
	if (w->srv->controller != NULL)
		dmn_conn_kick(w->srv->controller);
}

/* Frees what s held for its console. */
static void dmn_sess_unhold(dmn_sess *s)
{
	if (s->held_ready)
		wire_buf_destroy(&s->held.out);
	s->held_ready = 0;
}

/* PROC_START again for every live process of s, so that a console that
 * attaches knows them all (one that knew them ignores the repeat). */
static void dmn_work_announce(dmn_work *w, dmn_sess *s, wire_peer *out)
{
	dmn_proc *p;
	int i;

	for (i = 0; i < w->cap_procs; i++) {
		p = w->procs[i];
		if (p == NULL || p->sess != s || p->exited)
			continue;
		wire_pack(&out->out, WIRE_PROC_START, wire_peer_seq(out),
		          out->max_frame, p->run, p->num, (uint64_t)p->pid);
	}
}

void dmn_work_replay(dmn_server *srv)
{
	dmn_work *w = srv->work;
	dmn_sess *s = w != NULL ? w->cur : NULL;
	wire_peer *out = w != NULL ? dmn_work_ctl(w) : NULL;
	const char *b;
	size_t n, used = 0, k;
	unsigned frames = 0;
	wire_dec d;
	wire_msg m;
	int rc;

	if (s == NULL || out == NULL)
		return;
	dmn_work_announce(w, s, out);
	if (s->held_ready && wire_buf_used(&s->held.out) > 0 &&
	    wire_dec_init(&d, s->held.max_frame) == 0) {
		b = wire_buf_head(&s->held.out);
		n = wire_buf_used(&s->held.out);
		while (used < n) {
			rc = wire_dec_step(&d, b + used, n - used, &k, &m,
			                   NULL, 0);
			used += k;
			if (rc < 0 || (rc == 0 && k == 0))
				break;
			if (rc == 1 && wire_relay(&out->out, &m,
			                          wire_peer_seq(out),
			                          out->max_frame) == 0)
				frames++;
		}
		wire_dec_destroy(&d);
		dmn_log(DMN_INFO, "session %llu: %u frame(s) held while "
		        "detached sent", (unsigned long long)s->id, frames);
	}
	dmn_sess_unhold(s);
	dmn_work_kick(w);
	w->relay->controller(w);
}

wire_peer *dmn_work_ctl(dmn_work *w)
{
	if (w->srv->controller == NULL)
		return NULL;
	return dmn_conn_peer(w->srv->controller);
}

/* nftw callback: removes one entry (children come first). */
static int dmn_rm_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
	if (flag == FTW_DP || flag == FTW_D)
		return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
	return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

int dmn_rmtree(const char *path)
{
	if (path[0] == '\0')
		return 0;
	return nftw(path, dmn_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- work directories ---------------------------------------------------- */

/* Makes (or checks) $TMPDIR/paravtd-<uid>: a directory of ours, mode 0700,
 * not a link.  0, or -1 with a sentence in err. */
static int dmn_work_base(dmn_work *w, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	if (dmn_pathf(w->base, sizeof w->base, "%s/paravtd-%lu", tmp,
	              (unsigned long)getuid()) != 0 ||
	    (mkdir(w->base, 0700) != 0 && errno != EEXIST))
		goto out_errno;
	if (lstat(w->base, &st) != 0)
		goto out_errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 077) != 0) {
		snprintf(err, errlen,
		         "%s is not a private directory of ours "
		         "(a directory, owned by us, mode 0700): refusing to "
		         "use it",
		         w->base);
		return -1;
	}
	return 0;
out_errno:
	snprintf(err, errlen, "%s: %s", w->base, strerror(errno));
	return -1;
}

/* Makes s's directory and task socket.  0, or -1 with err. */
static int dmn_sess_make(dmn_work *w, dmn_sess *s, char *err, size_t errlen)
{
	if (dmn_work_base(w, err, errlen) != 0)
		return -1;
	if (dmn_pathf(s->dir, sizeof s->dir, "%s/%ld-s%llu", w->base,
	              (long)getpid(), (unsigned long long)s->id) != 0) {
		snprintf(err, errlen, "work directory path too long");
		s->dir[0] = '\0';
		return -1;
	}
	dmn_rmtree(s->dir); /* left over from an earlier daemon with our pid */
	if (mkdir(s->dir, 0700) != 0) {
		snprintf(err, errlen, "%s: %s", s->dir, strerror(errno));
		s->dir[0] = '\0';
		return -1;
	}
	if (dmn_task_listen(w, s, err, errlen) != 0) {
		dmn_rmtree(s->dir);
		s->dir[0] = '\0';
		return -1;
	}
	dmn_log(DMN_INFO, "session %llu: work directory %s",
	        (unsigned long long)s->id, s->dir);
	return 0;
}

/* ---- session life -------------------------------------------------------- */

/* Frees s and removes its directory. */
static void dmn_sess_free(dmn_work *w, dmn_sess *s)
{
	int i;

	for (i = 0; i < DMN_MAX_SESS; i++)
		if (w->sess[i] == s)
			w->sess[i] = NULL;
	if (w->cur == s)
		w->cur = NULL;
	dmn_pvm_stop(w, s);
	dmn_task_unlisten(w, s);
	dmn_timer_del(w->srv->loop, s->orphan_timer);
	dmn_sess_unhold(s);
	if (s->out_lost > 0)
		dmn_log(DMN_INFO, "session %llu: %llu bytes of output while no "
		        "console was attached were not kept",
		        (unsigned long long)s->id,
		        (unsigned long long)s->out_lost);
	w->relay->sess_free(s);
	dmn_ctl_sess_free(s);
	if (s->dir[0] != '\0') {
		if (dmn_rmtree(s->dir) != 0)
			dmn_log(DMN_WARN, "cannot remove %s: %s", s->dir,
			        strerror(errno));
		else
			dmn_log(DMN_INFO, "session %llu: removed %s",
			        (unsigned long long)s->id, s->dir);
	}
	for (i = 0; i < DMN_MAX_BUILDS; i++)
		free(s->builds[i]);
	free(s);
}

void dmn_work_sess_check(dmn_work *w, dmn_sess *s)
{
	if (s != NULL && s->detached && s->nprocs == 0 && s->njobs == 0 &&
	    s->pvmd == NULL && (s->orphaned || (w->relay->pending(s) == 0 &&
	    (!s->held_ready || wire_buf_used(&s->held.out) == 0))))
		dmn_sess_free(w, s);
}

/* Orphan timer: s had no console for --orphan-timeout seconds: its
 * processes are killed (the reaper frees them and then s). */
static void dmn_sess_orphan_expired(dmn_loop *l, long id, void *ctx)
{
	dmn_sess *s = ctx;
	dmn_work *w = s->work;
	int n;

	(void)l;
	(void)id;
	s->orphan_timer = 0;
	s->orphaned = 1;
	n = dmn_run_kill_sess(w, s);
	dmn_log(DMN_WARN, "session %llu: no console attached for %u s "
	        "(--orphan-timeout): %d process(es) killed, its events "
	        "dropped", (unsigned long long)s->id,
	        w->srv->cfg->orphan_timeout, n);
	if (n == 0)
		dmn_pvm_stop(w, s);
	dmn_work_reap_soon(w);
	dmn_work_sess_check(w, s);
}

dmn_sess *dmn_work_cur(dmn_work *w, char *err, size_t errlen)
{
	dmn_sess *s = w->cur;

	if (s == NULL) {
		snprintf(err, errlen, "no session");
		return NULL;
	}
	if (s->dir[0] == '\0' && dmn_sess_make(w, s, err, errlen) != 0)
		return NULL;
	return s;
}

/* ---- the reaper ---------------------------------------------------------- */

/* True if a build or a process is running. */
static int dmn_work_busy(const dmn_work *w)
{
	int i;

	for (i = 0; i < DMN_MAX_JOBS; i++)
		if (w->jobs[i] != NULL)
			return 1;
	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] != NULL)
			return 1;
	for (i = 0; i < DMN_MAX_SESS; i++)
		if (w->sess[i] != NULL && w->sess[i]->pvmd != NULL)
			return 1;
	return 0;
}

/* Timer: polls every child; rearms while any runs. */
static void dmn_work_reap(dmn_loop *l, long id, void *ctx)
{
	dmn_work *w = ctx;
	int i;

	w->reaper = 0;
	for (i = 0; i < DMN_MAX_JOBS; i++)
		if (w->jobs[i] != NULL)
			dmn_build_poll(w, w->jobs[i]);
	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] != NULL) {
			dmn_run_throttle(w, w->procs[i]);
			if (w->procs[i] != NULL)
				dmn_run_poll(w, w->procs[i]);
		}
	for (i = 0; i < DMN_MAX_SESS; i++)
		if (w->sess[i] != NULL)
			dmn_pvm_poll(w, w->sess[i]);
	dmn_work_reap_soon(w);
}

/* True if a process's output is held back (dmn_run_throttle). */
static int dmn_work_held(const dmn_work *w)
{
	int i;

	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] != NULL && w->procs[i]->held)
			return 1;
	return 0;
}

/* Arms the reaper ms from now, in place of an armed one. */
static void dmn_work_reap_in(dmn_work *w, unsigned ms)
{
	if (w->reaper > 0)
		dmn_timer_del(w->srv->loop, w->reaper);
	w->reaper_ms = ms;
	w->reaper = dmn_timer_add(w->srv->loop, ms, dmn_work_reap, w);
	if (w->reaper < 0) {
		dmn_log(DMN_ERROR, "no timer slot for the child reaper");
		w->reaper = 0;
	}
}

void dmn_work_reap_soon(dmn_work *w)
{
	unsigned ms;

	if (!dmn_work_busy(w))
		return;
	ms = dmn_work_held(w) ? DMN_REAP_HELD_MS : DMN_REAP_MS;
	if (w->reaper > 0 && w->reaper_ms <= ms)
		return;
	dmn_work_reap_in(w, ms);
}

void dmn_work_child(dmn_server *srv)
{
	if (srv->work != NULL)
		dmn_work_reap_in(srv->work, 0);
}

/* ---- hooks for dmn_conn.c ------------------------------------------------ */

/* The entry points the connections call (dmn_conn.h). */
static const dmn_work_ops dmn_work_entry = {
	dmn_work_session, dmn_work_release, dmn_work_attach,
	dmn_work_sessions, dmn_work_replay, dmn_work_console,
	dmn_work_task_hello, dmn_work_task_msg, dmn_work_task_gone,
	dmn_rexec_msg, dmn_rexec_conn_gone
};

int dmn_work_new(dmn_server *srv, const dmn_relay_ops *relay, char *err,
                 size_t errlen)
{
	dmn_work *w = calloc(1, sizeof *w);

	if (w == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	w->srv = srv;
	w->relay = relay;
	if (dmn_port_init(&w->port, srv->cfg->argv0, srv->cfg->runtime_dir, err,
	                  errlen) != 0) {
		free(w);
		return -1;
	}
	if (access(w->port.rt_lib, R_OK) != 0)
		dmn_log(DMN_WARN,
		        "runtime library %s not found: programs are "
		        "linked without it",
		        w->port.rt_lib);
	dmn_log(DMN_INFO, "port %s: compiler %s, runtime %s", w->port.name,
	        w->port.cc.w[0], w->port.rt_dir);
	srv->work = w;
	srv->ops = &dmn_work_entry;
	return 0;
}

void dmn_work_free(dmn_server *srv)
{
	dmn_work *w = srv->work;
	int i;

	if (w == NULL)
		return;
	dmn_build_kill_all(w);
	dmn_run_kill_all(w);
	for (i = 0; i < DMN_MAX_SESS; i++)
		if (w->sess[i] != NULL)
			dmn_sess_free(w, w->sess[i]);
	if (getenv("PARAVT_SESSION_DIR") == NULL) {
		char dbuf[64]; /* our session socket directory d<pid>/ */

		(void)rmdir(dmn_task_session_dir(dbuf, sizeof dbuf));
	}
	if (w->base[0] != '\0')
		rmdir(w->base); /* only if no other daemon uses it */
	dmn_timer_del(srv->loop, w->reaper);
	dmn_port_destroy(&w->port);
	free(w->procs);
	free(w);
	srv->work = NULL;
}

/* The oldest detached session with nothing running (its unacknowledged
 * events are what a console could still attach for), or NULL. */
static dmn_sess *dmn_work_oldest_idle(dmn_work *w)
{
	dmn_sess *o = NULL;
	int i;

	for (i = 0; i < DMN_MAX_SESS; i++)
		if (w->sess[i] != NULL && w->sess[i]->detached &&
		    w->sess[i]->nprocs == 0 && w->sess[i]->njobs == 0 &&
		    w->sess[i]->pvmd == NULL &&
		    (o == NULL || w->sess[i]->detached_ns < o->detached_ns))
			o = w->sess[i];
	return o;
}

/* A free slot in w->sess; a full table gives up the oldest idle detached
 * session (saying so).  The slot, or -1. */
static int dmn_work_sess_slot(dmn_work *w)
{
	dmn_sess *o;
	int i;

	for (i = 0; i < DMN_MAX_SESS; i++)
		if (w->sess[i] == NULL)
			return i;
	if ((o = dmn_work_oldest_idle(w)) == NULL)
		return -1;
	dmn_log(DMN_WARN, "session %llu: dropped with %llu unacknowledged "
	        "batch(es) to make room (limit %d sessions)",
	        (unsigned long long)o->id,
	        (unsigned long long)w->relay->pending(o), DMN_MAX_SESS);
	dmn_sess_free(w, o);
	for (i = 0; i < DMN_MAX_SESS; i++)
		if (w->sess[i] == NULL)
			return i;
	return -1;
}

void dmn_work_session(dmn_server *srv, uint64_t id)
{
	dmn_work *w = srv->work;
	dmn_sess *s;
	int i;

	if (w == NULL)
		return;
	i = dmn_work_sess_slot(w);
	s = i >= 0 ? calloc(1, sizeof *s) : NULL;
	if (s == NULL) {
		dmn_log(DMN_WARN, "session %llu: no room (limit %d sessions)",
		        (unsigned long long)id, DMN_MAX_SESS);
		return;
	}
	s->work = w;
	s->id = id;
	s->lfd = -1;
	s->slfd = -1;
	snprintf(s->console, sizeof s->console, "%s", srv->ctl_console);
	if (w->relay->sess_new(w, s) != 0) {
		dmn_log(DMN_WARN, "session %llu: out of memory",
		        (unsigned long long)id);
		free(s);
		return;
	}
	w->sess[i] = s;
	w->cur = s;
	w->relay->controller(w);
}

/* The detached session numbered want (0: the one detached last), or
 * NULL. */
static dmn_sess *dmn_work_detached(dmn_work *w, uint64_t want)
{
	dmn_sess *s = NULL;
	int i;

	for (i = 0; i < DMN_MAX_SESS; i++) {
		if (w->sess[i] == NULL || !w->sess[i]->detached ||
		    w->sess[i]->orphaned)
			continue;
		if (want != 0 ? w->sess[i]->id == want
		              : s == NULL ||
		                        w->sess[i]->detached_ns > s->detached_ns)
			s = w->sess[i];
	}
	return s;
}

void dmn_work_sessions(dmn_server *srv, dmn_conn *c, const wire_msg *m)
{
	dmn_work *w = srv->work;
	wire_peer *out = dmn_conn_peer(c);
	msgpack_sbuffer sb;
	msgpack_packer pk;
	dmn_sess *s;
	uint64_t now = wire_now_ns();
	int i, n = 0;

	if (out == NULL)
		return;
	for (i = 0; w != NULL && i < DMN_MAX_SESS; i++)
		n += w->sess[i] != NULL && w->sess[i]->detached &&
		     !w->sess[i]->orphaned;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, (size_t)n);
	for (i = 0; w != NULL && i < DMN_MAX_SESS; i++) {
		s = w->sess[i];
		if (s == NULL || !s->detached || s->orphaned)
			continue;
		msgpack_pack_array(&pk, 5);
		msgpack_pack_uint64(&pk, s->id);
		msgpack_pack_str_with_body(&pk, s->console, strlen(s->console));
		msgpack_pack_uint64(&pk, (now - s->detached_ns) / 1000000000u);
		msgpack_pack_uint64(&pk, (uint64_t)s->nprocs);
		msgpack_pack_uint64(&pk, w->relay->pending(s));
	}
	if (wire_pack(&out->out, WIRE_SESSIONS, wire_peer_seq(out),
	              out->max_frame, (const void *)sb.data, sb.size) != 0)
		dmn_work_err(c, WIRE_ENOMEM, m->seq, "SESSION_LIST: the list "
		             "does not fit a frame");
	msgpack_sbuffer_destroy(&sb);
	dmn_conn_kick(c);
}

uint64_t dmn_work_attach(dmn_server *srv, uint64_t want, char *err,
                         size_t errlen)
{
	dmn_work *w = srv->work;
	dmn_sess *s = w != NULL ? dmn_work_detached(w, want) : NULL;

	if (s == NULL) {
		if (want != 0)
			snprintf(err, errlen, "no detached session %llu on "
			         "this node", (unsigned long long)want);
		else
			snprintf(err, errlen, "no detached session on this "
			         "node to attach to");
		return 0;
	}
	dmn_timer_del(srv->loop, s->orphan_timer);
	s->orphan_timer = 0;
	s->detached = 0;
	w->cur = s;
	dmn_log(DMN_INFO, "session %llu: attached again after %.1f s; %d "
	        "process(es), %llu unacknowledged batch(es)%s",
	        (unsigned long long)s->id,
	        (double)(wire_now_ns() - s->detached_ns) / 1e9, s->nprocs,
	        (unsigned long long)w->relay->pending(s),
	        s->out_lost > 0 ? "; some output while detached was lost "
	        "(held queue full)" : "");
	return s->id;
}

void dmn_work_release(dmn_server *srv)
{
	dmn_work *w = srv->work;
	dmn_sess *s;

	if (w == NULL || w->cur == NULL)
		return;
	s = w->cur;
	w->cur = NULL;
	s->detached = 1;
	s->detached_ns = wire_now_ns();
	if (s->nprocs > 0)
		dmn_log(DMN_INFO,
		        "session %llu: console gone; %d process(es) "
		        "keep running (stopped ones stay stopped) for %u s "
		        "unless a console attaches",
		        (unsigned long long)s->id, s->nprocs,
		        srv->cfg->orphan_timeout);
	if (srv->cfg->orphan_timeout > 0)
		s->orphan_timer = dmn_timer_add(srv->loop,
		        srv->cfg->orphan_timeout * 1000u,
		        dmn_sess_orphan_expired, s);
	if (s->orphan_timer < 0)
		s->orphan_timer = 0;
	dmn_work_sess_check(w, s);
}

void dmn_work_console(dmn_server *srv, dmn_conn *c, const wire_msg *m)
{
	dmn_work *w = srv->work;

	if (w == NULL || w->cur == NULL) {
		dmn_work_err(c, WIRE_ESTATE, m->seq,
		             "%s: this daemon has no "
		             "room for another session",
		             wire_type_name(m->type));
		return;
	}
	switch (m->type) {
	case WIRE_FILE_PUT:
		dmn_build_file_put(w, c, m);
		break;
	case WIRE_BUILD:
		dmn_build_start(w, c, m);
		break;
	case WIRE_RUN:
		dmn_run_start(w, c, m);
		break;
	case WIRE_KILL:
		dmn_run_kill(w, c, m);
		break;
	case WIRE_INSPECT:
	case WIRE_SET:
	case WIRE_WATCH:
	case WIRE_RESUME:
	case WIRE_STEP:
		dmn_task_to_task(w, c, m);
		break;
	case WIRE_BP_SET:
		dmn_ctl_bp_set(w, c, m);
		break;
	case WIRE_STOP:
		dmn_ctl_stop(w, c, m);
		break;
	case WIRE_EVENTS_ACK:
		w->relay->ack(w, c, m);
		break;
	case WIRE_CONSOLE_CPU:
		w->relay->console_cpu(w, c, m);
		break;
	case WIRE_PVM_HOST:
		dmn_pvm_host(w, c, m);
		break;
	}
}
