/*
 * dmn_run.c — running built programs: RUN starts one in its own process
 * group with PARAVT_SOCK, PARAVT_PROC and the RUN's PARAVT_* settings set,
 * its standard input the RUN's bytes (written to a file of the session
 * that is removed once open) or /dev/null, its stdout and stderr go to
 * the controller as OUTPUT frames, its end as PROC_EXIT with the last
 * location its task reported; KILL ends process groups (dmn_work.h).
 * RUN's exec names a program of this host run instead of a build's (as
 * it is, without the port's run prefix); its fields are all checked
 * here (dmn_run_check) before anything starts.
 * Kinds "pvm" and "mpi" are started by dmn_pvm.c; the processes they
 * bring (proc-0 tasks, dmn_task.c) are "foreign": not our children, they
 * end when their connection does.
 *
 * Layout: process table, output, exit, RUN, KILL.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_spawn.h"
#include "dmn_work.h"
#include "wire_flags.h"
#include "wire_fmt.h"

#define DMN_RUN_ARGS 256 /* arguments of one RUN */

/* ---- process table ------------------------------------------------------- */

dmn_proc *dmn_run_find(dmn_work *w, uint64_t num)
{
	int i;

	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] != NULL && w->procs[i]->num == num)
			return w->procs[i];
	return NULL;
}

dmn_proc *dmn_run_find_own(dmn_work *w, uint64_t num)
{
	dmn_proc *p = dmn_run_find(w, num);

	return p != NULL && p->sess == w->cur ? p : NULL;
}

/* Closes output pipe k (0 stdout, 1 stderr) of p if open. */
static void dmn_proc_close(dmn_work *w, dmn_proc *p, int k)
{
	if (p->fd[k] < 0)
		return;
	dmn_loop_del(w->srv->loop, p->fd[k]);
	close(p->fd[k]);
	p->fd[k] = -1;
}

/* Closes the write end the daemon holds on p's output FIFO. */
static void dmn_proc_unhold(dmn_proc *p)
{
	if (p->hold >= 0) {
		close(p->hold);
		p->hold = -1;
	}
}

/* Removes p's output FIFO. */
static void dmn_proc_unlink_fifo(dmn_proc *p)
{
	if (p->fifo[0] != '\0')
		(void)unlink(p->fifo);
	p->fifo[0] = '\0';
}

void dmn_proc_free(dmn_work *w, dmn_proc *p)
{
	dmn_sess *s = p->sess;
	int i;

	w->relay->drain(w, p); /* what it left in its ring, killed or not */
	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] == p)
			w->procs[i] = NULL;
	dmn_proc_unhold(p);
	dmn_proc_unlink_fifo(p);
	dmn_proc_close(w, p, 0);
	dmn_proc_close(w, p, 1);
	if (p->task != NULL)
		dmn_conn_fail(p->task, WIRE_ESTATE, 0, "process ended", 1);
	s->nprocs--;
	w->relay->proc_gone(w, p);
	dmn_ctl_forget(p);
	dmn_mpidir_done(p);
	free(p);
	if (s->nprocs == 0)
		dmn_pvm_idle(w, s);
	dmn_work_sess_check(w, s);
}

/* ---- output -------------------------------------------------------------- */

/* Reads one chunk from pipe k of p and sends it as OUTPUT.  Returns 1 if
 * data came, 0 if nothing now, -1 at EOF or error (pipe closed). */
static int dmn_proc_read(dmn_work *w, dmn_proc *p, int k)
{
	char buf[DMN_OUTPUT_CHUNK];
	wire_peer *c;
	ssize_t n;

	n = read(p->fd[k], buf, sizeof buf);
	if (n < 0 &&
	    (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 0;
	if (n <= 0) {
		dmn_proc_close(w, p, k);
		return -1;
	}
	c = dmn_work_ctl_of(w, p->sess);
	if (c == NULL) /* nobody to show it to */
		return 1;
	if (wire_pack(&c->out, WIRE_OUTPUT, wire_peer_seq(c), c->max_frame,
	              (uint64_t)p->num, (uint64_t)(k + 1), (const void *)buf,
	              (size_t)n) != 0) {
		if (dmn_work_is_held(p->sess, c))
			p->sess->out_lost += (uint64_t)n; /* held queue full */
		else
			dmn_log(DMN_WARN, "proc %llu: output dropped (console "
			        "backlog full)", (unsigned long long)p->num);
	}
	dmn_work_kick(w);
	return 1;
}

/* Finds p's pipe index for fd, or -1. */
static int dmn_proc_which(const dmn_proc *p, int fd)
{
	return p->fd[0] == fd ? 0 : p->fd[1] == fd ? 1 : -1;
}

/* Loop callback: a pipe of a process is readable or hung up. */
static void dmn_proc_on_read(dmn_loop *l, int fd, void *ctx)
{
	dmn_proc *p = ctx;
	int k = dmn_proc_which(p, fd);

	if (k >= 0)
		dmn_proc_read(p->work, p, k);
	if (k >= 0 && p->fd[k] >= 0)
		dmn_run_throttle(p->work, p);
}

static const dmn_io_ops dmn_proc_ops = {dmn_proc_on_read, NULL,
                                        dmn_proc_on_read};

void dmn_run_throttle(dmn_work *w, dmn_proc *p)
{
	wire_peer *c = dmn_work_ctl_of(w, p->sess);
	int on = c == NULL || dmn_work_is_held(p->sess, c) ||
	         wire_buf_used(&c->out) < DMN_OUT_HIGH;
	int k;

	for (k = 0; k < 2; k++)
		if (p->fd[k] >= 0)
			dmn_loop_want_read(w->srv->loop, p->fd[k], on);
	p->held = !on;
	if (!on)
		dmn_work_reap_soon(w); /* looks again soon */
}

/* ---- exit ---------------------------------------------------------------- */

/* Sends PROC_EXIT for p (status st from waitpid). */
static void dmn_proc_exit_msg(dmn_work *w, dmn_proc *p, int st)
{
	wire_peer *c = dmn_work_ctl_of(w, p->sess);
	int64_t status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	int64_t sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;

	dmn_log(DMN_INFO,
	        "proc %llu (pid %ld): exit status %lld signal %lld%s"
	        "%s",
	        (unsigned long long)p->num, (long)p->pid, (long long)status,
	        (long long)sig, p->last[0] ? " at " : "", p->last);
	if (c == NULL)
		return;
	wire_pack(&c->out, WIRE_PROC_EXIT, wire_peer_seq(c), c->max_frame,
	          (uint64_t)p->num, status, sig, p->last);
	dmn_work_kick(w);
}

void dmn_run_foreign_exit(dmn_work *w, dmn_proc *p)
{
	wire_peer *c = dmn_work_ctl_of(w, p->sess);
	int k, i;

	/* What it wrote before it ended comes before PROC_EXIT: its exit
	 * flushed stdio before it closed its connection.  Bounded: a
	 * child it left behind may keep the FIFO open. */
	dmn_proc_unhold(p);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 64 && p->fd[k] >= 0; i++)
			if (dmn_proc_read(w, p, k) <= 0)
				break;

	dmn_log(DMN_INFO, "proc %llu (pid %ld, not our child): disconnected, "
	        "status %lld signal %lld", (unsigned long long)p->num,
	        (long)p->pid, (long long)p->ev_status,
	        (long long)p->ev_signal);
	if (c == NULL)
		return;
	wire_pack(&c->out, WIRE_PROC_EXIT, wire_peer_seq(c), c->max_frame,
	          (uint64_t)p->num, p->ev_status, p->ev_signal, p->last);
	dmn_work_kick(w);
}

void dmn_run_poll(dmn_work *w, dmn_proc *p)
{
	int st, k, i;

	if (p->foreign)
		return; /* ends with its connection (dmn_task.c) */
	if (waitpid(p->pid, &st, WNOHANG) != p->pid)
		return;
	/* Everything it wrote comes before PROC_EXIT (bounded: a child it
	 * left behind may keep the pipe open). */
	for (k = 0; k < 2; k++)
		for (i = 0; i < 64 && p->fd[k] >= 0; i++)
			if (dmn_proc_read(w, p, k) <= 0)
				break;
	w->relay->drain(w, p); /* and its events */
	dmn_proc_exit_msg(w, p, st);
	dmn_proc_free(w, p);
}

/* Kills p at once and frees it (its connection is gone or going). */
static void dmn_run_kill_now(dmn_work *w, dmn_proc *p)
{
	if (p->foreign) {
		kill(p->pid, SIGKILL);
	} else {
		kill(-p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
	}
	p->task = NULL; /* the connections are gone already */
	dmn_proc_free(w, p);
}

void dmn_run_kill_all(dmn_work *w)
{
	int i;

	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] != NULL)
			dmn_run_kill_now(w, w->procs[i]);
}

int dmn_run_kill_sess(dmn_work *w, dmn_sess *s)
{
	int i, n = 0;

	for (i = 0; i < w->cap_procs; i++)
		if (w->procs[i] != NULL && w->procs[i]->sess == s) {
			kill(w->procs[i]->foreign ? w->procs[i]->pid
			     : -w->procs[i]->pid, SIGKILL);
			n++;
		}
	return n;
}

/* ---- RUN ----------------------------------------------------------------- */

/* Builds the command line: run prefix, program path, arguments. */
static void dmn_run_argv(dmn_work *w, const dmn_runreq *q, dmn_argv *a)
{
	char item[WIRE_TEXT_MAX];
	uint32_t i;

	if (q->exec[0] == '\0') /* a build's program: the port's; an
	                           existing one runs as it is */
		dmn_argv_addv(a, w->port.prefix.w);
	dmn_argv_add(a, q->path);
	for (i = 0; i < q->args->via.array.size; i++) {
		if (wire_strv_get(q->args, i, item, sizeof item) != 0)
			a->full = 1;
		else
			dmn_argv_addf(a, "%s", item);
	}
}

int dmn_run_env(const dmn_runreq *q, dmn_argv *e, char **env, int *k)
{
	char item[WIRE_TEXT_MAX];
	uint32_t i;

	for (i = 0; i < q->env->via.array.size; i++) {
		if (wire_strv_get(q->env, i, item, sizeof item) != 0)
			return -1;
		dmn_argv_addf(e, "%s", item);
		if (e->full || (env != NULL && *k >= DMN_RUN_ENV))
			return -1;
		if (env != NULL)
			env[(*k)++] = e->v[e->n - 1];
	}
	return 0;
}

/* Starts a plain program for p.  0, or -1 with err. */
static int dmn_run_spawn(dmn_work *w, dmn_proc *p, const dmn_runreq *q,
                         char *err, size_t errlen)
{
	char *env[DMN_RUN_ENV + 4];
	dmn_spawn_req r;
	dmn_argv a, e;
	int k = 0;

	dmn_argv_init(&a);
	dmn_argv_init(&e);
	dmn_argv_addf(&e, "PARAVT_SOCK=%s", p->sess->sock);
	dmn_argv_addf(&e, "PARAVT_PROC=%llu", (unsigned long long)p->num);
	env[k++] = e.v[0];
	env[k++] = e.v[1];
	if (dmn_run_env(q, &e, env, &k) != 0)
		a.full = 1;
	env[k] = NULL;
	dmn_run_argv(w, q, &a);
	memset(&r, 0, sizeof r);
	r.argv = a.v;
	r.dir = q->dir;
	r.env = env;
	r.in_file = q->in_fd >= 0 ? &q->in_fd : NULL;
	p->pid = a.full || e.full ? -1 : dmn_spawn(&r, p->fd, err, errlen);
	if (a.full || e.full)
		snprintf(err, errlen, "RUN: arguments too long or too many");
	dmn_argv_free(&a);
	dmn_argv_free(&e);
	return p->pid < 0 ? -1 : 0;
}

/* Watches p's pipes.  0 or -1. */
static int dmn_run_watch(dmn_work *w, dmn_proc *p)
{
	int k;

	for (k = 0; k < 2; k++)
		if (dmn_loop_add(w->srv->loop, p->fd[k], &dmn_proc_ops, p, 1) !=
		    0)
			return -1;
	return 0;
}

int dmn_run_output_fifo(dmn_work *w, dmn_proc *p, const char *path)
{
	int e;

	if (strlen(path) >= sizeof p->fifo) {
		errno = ENAMETOOLONG;
		return -1;
	}
	(void)unlink(path); /* a stale one of a reused pid */
	if (mkfifo(path, 0600) != 0)
		return -1;
	snprintf(p->fifo, sizeof p->fifo, "%s", path);
	if ((p->fd[0] = open(path, O_RDONLY | O_NONBLOCK)) < 0 ||
	    (p->hold = open(path, O_WRONLY | O_NONBLOCK)) < 0)
		goto fail;
	(void)fcntl(p->fd[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(p->hold, F_SETFD, FD_CLOEXEC);
	if (dmn_loop_add(w->srv->loop, p->fd[0], &dmn_proc_ops, p, 1) == 0)
		return 0;
fail:
	e = errno;
	dmn_proc_unhold(p);
	if (p->fd[0] >= 0)
		close(p->fd[0]);
	p->fd[0] = -1;
	dmn_proc_unlink_fifo(p);
	errno = e;
	return -1;
}

/* PARAVT_* names a RUN may not set: the daemon sets them (or, as
 * PARAVT_RING_MEMFS, its processes must see its own). */
static const char *const dmn_run_env_own[] = {
	"PARAVT_SOCK", "PARAVT_PROC", "PARAVT_SESSION", "PARAVT_SESSION_DIR",
	"PARAVT_RSH_CONF", "PARAVT_RUN", "PARAVT_BUILD", "PARAVT_RING_MEMFS",
	NULL};

/* Checks RUN's env: PARAVT_NAME=VALUE words, not the daemon's own.  0,
 * or -1 with err. */
static int dmn_run_check_env(const msgpack_object *env, char *err,
                             size_t errlen)
{
	char item[WIRE_TEXT_MAX];
	size_t n;
	uint32_t i;
	int j;

	if (env->via.array.size > DMN_RUN_ENV) {
		snprintf(err, errlen, "RUN: more than %d settings", DMN_RUN_ENV);
		return -1;
	}
	for (i = 0; i < env->via.array.size; i++) {
		if (wire_strv_get(env, i, item, sizeof item) != 0 ||
		    strncmp(item, "PARAVT_", 7) != 0 ||
		    strchr(item, '=') == NULL) {
			snprintf(err, errlen, "RUN: setting %u is not "
			         "PARAVT_NAME=VALUE", i);
			return -1;
		}
		n = (size_t)(strchr(item, '=') - item);
		for (j = 0; dmn_run_env_own[j] != NULL; j++)
			if (strlen(dmn_run_env_own[j]) == n &&
			    strncmp(item, dmn_run_env_own[j], n) == 0) {
				snprintf(err, errlen, "RUN: %.*s is set by the "
				         "daemon", (int)n, item);
				return -1;
			}
	}
	return 0;
}

/* Checks RUN's launch: empty but for mpi, whose options are on
 * wire_flags.h's list with -np exactly once.  0, or -1 with err. */
static int dmn_run_check_launch(const dmn_runreq *q, char *err, size_t errlen)
{
	char *w[DMN_ARGV_MAX], item[WIRE_TEXT_MAX];
	dmn_argv a;
	uint32_t i, n = q->launch->via.array.size;
	int k, np = 0, rc = 0;

	if (strcmp(q->kind, "mpi") != 0 || n == 0) {
		if (n == 0 && strcmp(q->kind, "mpi") == 0)
			snprintf(err, errlen, "RUN mpi: no -np N");
		else if (n > 0)
			snprintf(err, errlen, "RUN %.20s: launcher options "
			         "are for mpi only", q->kind);
		return n == 0 && strcmp(q->kind, "mpi") != 0 ? 0 : -1;
	}
	if (n >= DMN_ARGV_MAX / 2) {
		snprintf(err, errlen, "RUN mpi: too many mpirun options");
		return -1;
	}
	dmn_argv_init(&a);
	for (i = 0; i < n; i++) {
		if (wire_strv_get(q->launch, i, item, sizeof item) != 0)
			a.full = 1;
		else
			dmn_argv_addf(&a, "%s", item);
	}
	for (i = 0; i < (uint32_t)a.n; i++)
		w[i] = a.v[i];
	for (i = 0; !a.full && rc == 0 && i < n; i += (uint32_t)k) {
		k = wire_mpirun_opt(w + i, (int)(n - i), err, errlen);
		if (k < 0)
			rc = -1;
		else
			np += wire_mpirun_is_np(w[i]);
	}
	if (rc == 0 && (a.full || np != 1)) {
		snprintf(err, errlen, "RUN mpi: %s", a.full ?
		         "options too long" : "-np N must be given once");
		rc = -1;
	}
	dmn_argv_free(&a);
	return rc;
}

/* Sets q->path and q->dir: the build's program, or exec (absolute, an
 * executable regular file here).  0, or -1 with err. */
static int dmn_run_find_prog(dmn_work *w, dmn_runreq *q, char *err,
                             size_t errlen)
{
	const char *slash;
	struct stat st;
	dmn_sess *s;

	if ((s = dmn_work_cur(w, err, errlen)) == NULL)
		return -1;
	if (q->exec[0] != '\0') {
		if (q->exec[0] != '/' || stat(q->exec, &st) != 0 ||
		    !S_ISREG(st.st_mode) || access(q->exec, X_OK) != 0) {
			snprintf(err, errlen, "RUN: --exec %.300s: no such "
			         "executable file on node %s", q->exec,
			         w->srv->hello.node);
			return -1;
		}
		slash = strrchr(q->exec, '/');
		snprintf(q->path, sizeof q->path, "%s", q->exec);
		snprintf(q->dir, sizeof q->dir, "%.*s", slash == q->exec ? 1 :
		         (int)(slash - q->exec), q->exec);
		return 0;
	}
	if ((q->b = dmn_build_get(s, q->build, 0, err, errlen)) == NULL)
		return -1;
	if (dmn_pathf(q->path, sizeof q->path, "%s/%s", q->b->dir,
	              q->prog) != 0 || access(q->path, X_OK) != 0) {
		snprintf(err, errlen, "RUN: build %llu has no program %.300s",
		         (unsigned long long)q->build, q->prog);
		return -1;
	}
	snprintf(q->dir, sizeof q->dir, "%s", q->b->dir);
	return 0;
}

/* Checks RUN's fields into q.  0, or -1 with err. */
static int dmn_run_check(dmn_work *w, const wire_msg *m, dmn_runreq *q,
                         char *err, size_t errlen)
{
	char why[128];

	memset(q, 0, sizeof *q);
	q->in_fd = -1;
	if (wire_unpack(m, err, errlen, &q->run, &q->build, q->kind,
	                sizeof q->kind, q->prog, sizeof q->prog, &q->args,
	                &q->launch, q->exec, sizeof q->exec, &q->in,
	                &q->inlen, &q->env) != 0)
		return -1;
	if (strcmp(q->kind, "plain") != 0 && strcmp(q->kind, "pvm") != 0 &&
	    strcmp(q->kind, "mpi") != 0) {
		snprintf(err, errlen, "RUN: kind %.20s is not supported (plain, "
		         "pvm, mpi)", q->kind);
		return -1;
	}
	if (dmn_build_name_ok(q->prog, 0, why, sizeof why) != 0) {
		snprintf(err, errlen, "RUN: program %.300s %s", q->prog, why);
		return -1;
	}
	if (q->args->via.array.size > DMN_RUN_ARGS) {
		snprintf(err, errlen, "RUN: more than %d arguments",
		         DMN_RUN_ARGS);
		return -1;
	}
	if (dmn_run_check_launch(q, err, errlen) != 0 ||
	    dmn_run_check_env(q->env, err, errlen) != 0)
		return -1;
	return dmn_run_find_prog(w, q, err, errlen);
}

/* Writes q's stdin bytes to a file of s and opens it as q->in_fd (the
 * name is removed at once: the descriptor is all that is left).  0, or
 * -1 with err. */
static int dmn_run_stdin(dmn_sess *s, dmn_proc *p, dmn_runreq *q, char *err,
                         size_t errlen)
{
	char path[DMN_PATH_MAX];
	size_t done = 0;
	ssize_t k;
	int fd;

	if (q->inlen == 0)
		return 0;
	if (dmn_pathf(path, sizeof path, "%s/stdin-%llu", s->dir,
	              (unsigned long long)p->num) != 0 ||
	    (fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600)) <
	        0) {
		snprintf(err, errlen, "RUN: standard input file: %s",
		         strerror(errno));
		return -1;
	}
	while (done < q->inlen) {
		k = write(fd, q->in + done, q->inlen - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		done += (size_t)k;
	}
	close(fd);
	q->in_fd = done == q->inlen ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	unlink(path);
	if (q->in_fd < 0) {
		snprintf(err, errlen, "RUN: standard input file: %s",
		         strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

/* Doubles w->procs.  0 or -1 out of memory. */
static int dmn_procs_grow(dmn_work *w)
{
	int i, cap = w->cap_procs > 0 ? w->cap_procs * 2 : DMN_PROCS_START;
	dmn_proc **v = realloc(w->procs, (size_t)cap * sizeof *v);

	if (v == NULL)
		return -1;
	for (i = w->cap_procs; i < cap; i++)
		v[i] = NULL;
	w->procs = v;
	w->cap_procs = cap;
	return 0;
}

dmn_proc *dmn_proc_new(dmn_work *w)
{
	dmn_proc *p;
	int i;

	for (i = 0; i < w->cap_procs && w->procs[i] != NULL; i++)
		;
	if (i == w->cap_procs && dmn_procs_grow(w) != 0)
		return NULL;
	if ((p = calloc(1, sizeof *p)) == NULL)
		return NULL;
	p->fd[0] = p->fd[1] = -1;
	p->hold = -1;
	p->work = w;
	p->num = ++w->next_proc;
	w->procs[i] = p;
	return p;
}

void dmn_run_start(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	char err[WIRE_TEXT_MAX];
	dmn_runreq q;
	wire_peer *out;
	dmn_proc *p;
	int rc;

	if (dmn_run_check(w, m, &q, err, sizeof err) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s", err);
		return;
	}
	if ((p = dmn_proc_new(w)) == NULL) {
		dmn_work_err(c, WIRE_ENOMEM, m->seq,
		             "RUN: out of memory for one more process");
		return;
	}
	p->run = q.run;
	p->sess = w->cur;
	p->sess->nprocs++;
	rc = dmn_run_stdin(p->sess, p, &q, err, sizeof err);
	if (rc == 0 && strcmp(q.kind, "plain") == 0)
		rc = dmn_run_spawn(w, p, &q, err, sizeof err);
	else if (rc == 0)
		rc = dmn_pvm_run(w, p, &q, err, sizeof err);
	if (q.in_fd >= 0)
		close(q.in_fd);
	if (rc != 0 || dmn_run_watch(w, p) != 0) {
		dmn_work_err(c, WIRE_ESTATE, m->seq, "RUN: %s", err);
		if (p->pid > 0) {
			kill(-p->pid, SIGKILL);
			waitpid(p->pid, NULL, 0);
		}
		dmn_proc_free(w, p);
		return;
	}
	dmn_log(DMN_INFO, "proc %llu: run %llu started %s (pid %ld)%s",
	        (unsigned long long)p->num, (unsigned long long)q.run, q.path,
	        (long)p->pid, q.inlen ? " with standard input" : "");
	if ((out = dmn_conn_peer(c)) != NULL)
		wire_pack(&out->out, WIRE_PROC_START, wire_peer_seq(out),
		          out->max_frame, q.run, (uint64_t)p->num,
		          (uint64_t)p->pid);
	dmn_work_reap_soon(w);
}

/* ---- KILL ---------------------------------------------------------------- */

void dmn_run_kill(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	char err[WIRE_TEXT_MAX];
	uint64_t num;
	dmn_proc *p;
	int i;

	if (wire_unpack(m, err, sizeof err, &num) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "KILL: %s", err);
		return;
	}
	if (num != 0 && (p = dmn_run_find_own(w, num)) == NULL) {
		dmn_work_err(c, WIRE_EARG, m->seq, "KILL: no process %llu",
		             (unsigned long long)num);
		return;
	}
	for (i = 0; i < w->cap_procs; i++) {
		p = w->procs[i];
		if (p != NULL && p->sess == w->cur &&
		    (num == 0 || p->num == num)) {
			dmn_log(DMN_INFO, "proc %llu: killed on request",
			        (unsigned long long)p->num);
			kill(p->foreign ? p->pid : -p->pid, SIGKILL);
		}
	}
}
