/*
 * dmn_run.c — running built programs: RUN starts one in its own process
 * group with PARAVT_SOCK and PARAVT_PROC set, its stdout and stderr go to
 * the controller as OUTPUT frames, its end as PROC_EXIT with the last
 * location its task reported; KILL ends process groups (dmn_work.h).
 * Kinds "pvm" and "mpi" are started by dmn_pvm.c; the processes they
 * bring (proc-0 tasks, dmn_task.c) are "foreign": not our children, they
 * end when their connection does.
 *
 * Layout: process table, output, exit, RUN, KILL.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmn_event.h"
#include "dmn_log.h"
#include "dmn_spawn.h"
#include "dmn_work.h"
#include "wire_fmt.h"

#define DMN_RUN_ARGS 256 /* arguments of one RUN */

/* ---- process table ------------------------------------------------------- */

dmn_proc *dmn_run_find(dmn_work *w, uint64_t num)
{
	int i;

	for (i = 0; i < DMN_MAX_PROCS; i++)
		if (w->procs[i] != NULL && w->procs[i]->num == num)
			return w->procs[i];
	return NULL;
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

void dmn_proc_free(dmn_work *w, dmn_proc *p)
{
	dmn_sess *s = p->sess;
	int i;

	for (i = 0; i < DMN_MAX_PROCS; i++)
		if (w->procs[i] == p)
			w->procs[i] = NULL;
	dmn_proc_close(w, p, 0);
	dmn_proc_close(w, p, 1);
	if (p->task != NULL)
		dmn_conn_fail(p->task, WIRE_ESTATE, 0, "process ended", 1);
	s->nprocs--;
	dmn_ev_proc_gone(w, p->num);
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
	c = dmn_work_ctl(w);
	if (c == NULL)
		return 1; /* nobody to show it to */
	if (wire_pack(&c->out, WIRE_OUTPUT, wire_peer_seq(c), c->max_frame,
	              (uint64_t)p->num, (uint64_t)(k + 1), (const void *)buf,
	              (size_t)n) != 0)
		dmn_log(DMN_WARN,
		        "proc %llu: output dropped (console "
		        "backlog full)",
		        (unsigned long long)p->num);
	dmn_conn_kick(w->srv->controller);
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
	wire_peer *c = dmn_work_ctl(w);
	int on = c == NULL || wire_buf_used(&c->out) < DMN_OUT_HIGH;
	int k;

	for (k = 0; k < 2; k++)
		if (p->fd[k] >= 0)
			dmn_loop_want_read(w->srv->loop, p->fd[k], on);
}

/* ---- exit ---------------------------------------------------------------- */

/* Sends PROC_EXIT for p (status st from waitpid). */
static void dmn_proc_exit_msg(dmn_work *w, dmn_proc *p, int st)
{
	wire_peer *c = dmn_work_ctl(w);
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
	dmn_conn_kick(w->srv->controller);
}

void dmn_run_foreign_exit(dmn_work *w, dmn_proc *p)
{
	wire_peer *c = dmn_work_ctl(w);

	dmn_log(DMN_INFO, "proc %llu (pid %ld, not our child): disconnected, "
	        "status %lld signal %lld", (unsigned long long)p->num,
	        (long)p->pid, (long long)p->ev_status,
	        (long long)p->ev_signal);
	if (c == NULL)
		return;
	wire_pack(&c->out, WIRE_PROC_EXIT, wire_peer_seq(c), c->max_frame,
	          (uint64_t)p->num, p->ev_status, p->ev_signal, p->last);
	dmn_conn_kick(w->srv->controller);
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
	dmn_proc_exit_msg(w, p, st);
	dmn_proc_free(w, p);
}

void dmn_run_kill_all(dmn_work *w)
{
	dmn_proc *p;
	int i;

	for (i = 0; i < DMN_MAX_PROCS; i++) {
		p = w->procs[i];
		if (p == NULL)
			continue;
		if (p->foreign) {
			kill(p->pid, SIGKILL);
		} else {
			kill(-p->pid, SIGKILL);
			waitpid(p->pid, NULL, 0);
		}
		p->task = NULL; /* the connections are gone already */
		dmn_proc_free(w, p);
	}
}

/* ---- RUN ----------------------------------------------------------------- */

/* Builds the command line: run prefix, program path, arguments. */
static void dmn_run_argv(dmn_work *w, const char *path,
                         const msgpack_object *args, dmn_argv *a)
{
	char item[WIRE_TEXT_MAX];
	uint32_t i;

	dmn_argv_addv(a, w->port.prefix.w);
	dmn_argv_add(a, path);
	for (i = 0; i < args->via.array.size; i++) {
		if (wire_strv_get(args, i, item, sizeof item) != 0)
			a->full = 1;
		else
			dmn_argv_addf(a, "%s", item);
	}
}

/* Starts program path for p with args.  0, or -1 with err. */
static int dmn_run_spawn(dmn_work *w, dmn_proc *p, const char *path,
                         const char *dir, const msgpack_object *args, char *err,
                         size_t errlen)
{
	char sock[DMN_PATH_MAX + 16], num[48];
	char *env[3];
	dmn_spawn_req r;
	dmn_argv a;

	snprintf(sock, sizeof sock, "PARAVT_SOCK=%s", p->sess->sock);
	snprintf(num, sizeof num, "PARAVT_PROC=%llu",
	         (unsigned long long)p->num);
	env[0] = sock, env[1] = num, env[2] = NULL;
	dmn_argv_init(&a);
	dmn_run_argv(w, path, args, &a);
	memset(&r, 0, sizeof r);
	r.argv = a.v;
	r.dir = dir;
	r.env = env;
	p->pid = a.full ? -1 : dmn_spawn(&r, p->fd, err, errlen);
	if (a.full)
		snprintf(err, errlen, "RUN: arguments too long or too many");
	dmn_argv_free(&a);
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

/* Checks RUN's fields; sets the program path.  0, or -1 with err. */
static int dmn_run_check(dmn_work *w, const wire_msg *m, uint64_t *run,
                         dmn_build **b, char *path, size_t cap, char *kind,
                         const msgpack_object **args, char *err, size_t errlen)
{
	char prog[WIRE_TEXT_MAX], why[128];
	uint64_t build;
	dmn_sess *s;

	if (wire_unpack(m, err, errlen, run, &build, kind, (size_t)32, prog,
	                sizeof prog, args) != 0)
		return -1;
	if (strcmp(kind, "plain") != 0 && strcmp(kind, "pvm") != 0 &&
	    strcmp(kind, "mpi") != 0) {
		snprintf(err, errlen, "RUN: kind %.20s is not supported (plain, "
		         "pvm, mpi)", kind);
		return -1;
	}
	if (dmn_build_name_ok(prog, 0, why, sizeof why) != 0) {
		snprintf(err, errlen, "RUN: program %.300s %s", prog, why);
		return -1;
	}
	if ((*args)->via.array.size > DMN_RUN_ARGS) {
		snprintf(err, errlen, "RUN: more than %d arguments",
		         DMN_RUN_ARGS);
		return -1;
	}
	if ((s = dmn_work_cur(w, err, errlen)) == NULL ||
	    (*b = dmn_build_get(s, build, 0, err, errlen)) == NULL)
		return -1;
	if (dmn_pathf(path, cap, "%s/%s", (*b)->dir, prog) != 0 ||
	    access(path, X_OK) != 0) {
		snprintf(err, errlen, "RUN: build %llu has no program %.300s",
		         (unsigned long long)build, prog);
		return -1;
	}
	return 0;
}

dmn_proc *dmn_proc_new(dmn_work *w)
{
	dmn_proc *p;
	int i;

	for (i = 0; i < DMN_MAX_PROCS && w->procs[i] != NULL; i++)
		;
	if (i == DMN_MAX_PROCS || (p = calloc(1, sizeof *p)) == NULL)
		return NULL;
	p->fd[0] = p->fd[1] = -1;
	p->work = w;
	p->num = ++w->next_proc;
	w->procs[i] = p;
	return p;
}

void dmn_run_start(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	char path[DMN_PATH_MAX], err[WIRE_TEXT_MAX], kind[32];
	const msgpack_object *args;
	wire_peer *out;
	dmn_build *b;
	dmn_proc *p;
	uint64_t run;
	int rc;

	if (dmn_run_check(w, m, &run, &b, path, sizeof path, kind, &args, err,
	                  sizeof err) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s", err);
		return;
	}
	if ((p = dmn_proc_new(w)) == NULL) {
		dmn_work_err(c, WIRE_ESTATE, m->seq,
		             "RUN: too many processes "
		             "(limit %d)",
		             DMN_MAX_PROCS);
		return;
	}
	p->run = run;
	p->sess = w->cur;
	p->sess->nprocs++;
	if (strcmp(kind, "plain") == 0)
		rc = dmn_run_spawn(w, p, path, b->dir, args, err, sizeof err);
	else
		rc = dmn_pvm_run(w, p, kind, b, path, args, err, sizeof err);
	if (rc != 0 || dmn_run_watch(w, p) != 0) {
		dmn_work_err(c, WIRE_ESTATE, m->seq, "RUN: %s", err);
		if (p->pid > 0) {
			kill(-p->pid, SIGKILL);
			waitpid(p->pid, NULL, 0);
		}
		dmn_proc_free(w, p);
		return;
	}
	dmn_log(DMN_INFO, "proc %llu: run %llu started %s (pid %ld)",
	        (unsigned long long)p->num, (unsigned long long)run, path,
	        (long)p->pid);
	if ((out = dmn_conn_peer(c)) != NULL)
		wire_pack(&out->out, WIRE_PROC_START, wire_peer_seq(out),
		          out->max_frame, run, (uint64_t)p->num,
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
	if (num != 0 && (p = dmn_run_find(w, num)) == NULL) {
		dmn_work_err(c, WIRE_EARG, m->seq, "KILL: no process %llu",
		             (unsigned long long)num);
		return;
	}
	for (i = 0; i < DMN_MAX_PROCS; i++) {
		p = w->procs[i];
		if (p != NULL && (num == 0 || p->num == num)) {
			dmn_log(DMN_INFO, "proc %llu: killed on request",
			        (unsigned long long)p->num);
			kill(p->foreign ? p->pid : -p->pid, SIGKILL);
		}
	}
}
