/*
 * dmn_task.c — the session's Unix socket for tasks and the relays between
 * the tasks and the controlling console (dmn_work.h).
 *
 * A program started by RUN connects to $PARAVT_SOCK (task.sock in the
 * session's 0700 directory), sends HELLO with role "task" (it gets ours
 * too) and TASK_HELLO(proc, pid), which must name a process this daemon
 * started from that session, not yet connected.  No AUTH: the directory
 * is private to the daemon's user.  Then TYPE_TABLE, BP_HIT, VALUE and
 * TASK_CRASH go to the controller unchanged but for their sequence number
 * (wire_relay), and the controller's INSPECT and RESUME go to the task
 * whose proc they name.  BP_HIT and TASK_CRASH leave "file:line func" as
 * the process's last location for PROC_EXIT.
 *
 * Layout: the socket, TASK_HELLO, task -> console, console -> task.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_spawn.h"
#include "dmn_work.h"
#include "wire_fmt.h"

/* ---- the socket ---------------------------------------------------------- */

/* Loop callback: a task is connecting. */
static void dmn_task_accept(dmn_loop *l, int fd, void *ctx)
{
	dmn_sess *s = ctx;
	dmn_server *srv;
	char addr[64];
	int cfd;

	cfd = accept(fd, NULL, NULL);
	if (cfd < 0)
		return;
	srv = s->work->srv;
	dmn_fd_prepare(cfd);
	snprintf(addr, sizeof addr, "task socket s%llu",
	         (unsigned long long)s->id);
	dmn_conn_open_task(srv, cfd, addr, s);
}

static const dmn_io_ops dmn_task_lops = {dmn_task_accept, NULL, NULL};

int dmn_task_listen(dmn_work *w, dmn_sess *s, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (dmn_pathf(s->sock, sizeof s->sock, "%s/task.sock", s->dir) != 0 ||
	    strlen(s->sock) >= sizeof sun.sun_path) {
		snprintf(err, errlen,
		         "task socket path %s is too long for a "
		         "Unix socket (set a shorter TMPDIR)",
		         s->sock);
		return -1;
	}
	memcpy(sun.sun_path, s->sock, strlen(s->sock) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || dmn_fd_prepare(fd) != 0 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    listen(fd, 64) != 0)
		goto out_errno;
	if (dmn_loop_add(w->srv->loop, fd, &dmn_task_lops, s, 1) != 0) {
		snprintf(err, errlen, "event loop full");
		close(fd);
		return -1;
	}
	s->work = w;
	s->lfd = fd;
	return 0;
out_errno:
	snprintf(err, errlen, "task socket %s: %s", s->sock, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

void dmn_task_unlisten(dmn_work *w, dmn_sess *s)
{
	if (s->lfd < 0)
		return;
	dmn_loop_del(w->srv->loop, s->lfd);
	close(s->lfd);
	s->lfd = -1;
	unlink(s->sock);
}

/* ---- TASK_HELLO ---------------------------------------------------------- */

int dmn_work_task_hello(dmn_server *srv, dmn_conn *c, const wire_msg *m,
                        char *err, size_t errlen)
{
	uint64_t num, pid;
	dmn_proc *p;

	if (srv->work == NULL)
		return WIRE_ESTATE;
	if (wire_unpack(m, err, errlen, &num, &pid) != 0)
		return WIRE_EMALFORMED;
	p = dmn_run_find(srv->work, num);
	if (p == NULL || (uint64_t)p->pid != pid ||
	    (void *)p->sess != dmn_conn_via(c)) {
		snprintf(err, errlen,
		         "TASK_HELLO: no process %llu with pid "
		         "%llu was started here",
		         (unsigned long long)num, (unsigned long long)pid);
		return WIRE_EARG;
	}
	if (p->task != NULL) {
		snprintf(err, errlen,
		         "TASK_HELLO: process %llu is already "
		         "connected",
		         (unsigned long long)num);
		return WIRE_EBUSY;
	}
	p->task = c;
	dmn_log(DMN_INFO, "conn %llu: task of proc %llu (pid %llu)",
	        dmn_conn_id(c), (unsigned long long)num,
	        (unsigned long long)pid);
	return 0;
}

void dmn_work_task_gone(dmn_server *srv, dmn_conn *c)
{
	int i;

	if (srv->work == NULL)
		return;
	for (i = 0; i < DMN_MAX_PROCS; i++)
		if (srv->work->procs[i] != NULL &&
		    srv->work->procs[i]->task == c)
			srv->work->procs[i]->task = NULL;
}

/* ---- task -> console ----------------------------------------------------- */

/* The process whose task connection is c, or NULL. */
static dmn_proc *dmn_task_proc(dmn_work *w, const dmn_conn *c)
{
	int i;

	for (i = 0; i < DMN_MAX_PROCS; i++)
		if (w->procs[i] != NULL && w->procs[i]->task == c)
			return w->procs[i];
	return NULL;
}

/* Checks a relayed message and records BP_HIT/TASK_CRASH locations.
 * 0, or -1 with a sentence in err. */
static int dmn_task_check(dmn_proc *p, const wire_msg *m, char *err,
                          size_t errlen)
{
	const msgpack_object *o1, *o2, *o3;
	char file[WIRE_TEXT_MAX], func[WIRE_TEXT_MAX];
	uint64_t num = 0, u1, u2, line;
	int64_t sig;
	int b;
	int rc = WIRE_EUNKNOWN;

	if (m->type == WIRE_TYPE_TABLE)
		rc = wire_unpack(m, err, errlen, &num, &u1, &o1);
	else if (m->type == WIRE_VALUE)
		rc = wire_unpack(m, err, errlen, &num, &u1, &b, &o1);
	else if (m->type == WIRE_BP_HIT)
		rc = wire_unpack(m, err, errlen, &num, &u1, file, sizeof file,
		                 &line, func, sizeof func, &u2, &o1, &o2);
	else if (m->type == WIRE_TASK_CRASH)
		rc = wire_unpack(m, err, errlen, &num, &sig, file, sizeof file,
		                 &line, func, sizeof func, &o3);
	if (rc == WIRE_EUNKNOWN)
		snprintf(err, errlen, "%s is not expected from a task",
		         wire_type_name(m->type) ? wire_type_name(m->type)
		                                 : "this message type");
	if (rc == 0 && num != p->num) {
		snprintf(err, errlen, "%s names proc %llu, this is proc %llu",
		         wire_type_name(m->type), (unsigned long long)num,
		         (unsigned long long)p->num);
		rc = WIRE_EPROTO;
	}
	if (rc == 0 && (m->type == WIRE_BP_HIT || m->type == WIRE_TASK_CRASH))
		snprintf(p->last, sizeof p->last, "%.200s:%llu %.200s", file,
		         (unsigned long long)line, func);
	return rc;
}

void dmn_work_task_msg(dmn_server *srv, dmn_conn *c, const wire_msg *m)
{
	char err[WIRE_TEXT_MAX];
	dmn_work *w = srv->work;
	dmn_proc *p;
	wire_peer *out;
	int rc;

	if (m->type == WIRE_BYE || m->type == WIRE_ERROR)
		return; /* the task closes its end; we see EOF */
	p = w ? dmn_task_proc(w, c) : NULL;
	if (p == NULL)
		return;
	rc = dmn_task_check(p, m, err, sizeof err);
	if (rc != 0) {
		dmn_conn_fail(c, rc, m->seq, err, 0);
		return;
	}
	out = dmn_work_ctl(w);
	if (out == NULL) {
		dmn_log(DMN_INFO, "proc %llu: %s with no console in control",
		        (unsigned long long)p->num, wire_type_name(m->type));
		return;
	}
	if (wire_relay(&out->out, m, wire_peer_seq(out), out->max_frame) != 0)
		dmn_log(DMN_WARN, "proc %llu: %s too large for the console",
		        (unsigned long long)p->num, wire_type_name(m->type));
	dmn_conn_kick(srv->controller);
}

/* ---- console -> task ----------------------------------------------------- */

void dmn_task_to_task(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	const char *name = wire_type_name(m->type);
	const msgpack_object *req;
	char err[WIRE_TEXT_MAX];
	uint64_t num, u1, u2;
	wire_peer *out;
	dmn_proc *p;
	int rc;

	if (m->type == WIRE_INSPECT)
		rc = wire_unpack(m, err, sizeof err, &num, &u1, &u2, &req);
	else
		rc = wire_unpack(m, err, sizeof err, &num);
	if (rc != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s", err);
		return;
	}
	p = dmn_run_find(w, num);
	if (p == NULL) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s: no process %llu", name,
		             (unsigned long long)num);
		return;
	}
	if (p->task == NULL || (out = dmn_conn_peer(p->task)) == NULL) {
		dmn_work_err(c, WIRE_ESTATE, m->seq,
		             "%s: process %llu is not "
		             "connected to paravtd (not built with the paravt "
		             "runtime, or not started yet)",
		             name, (unsigned long long)num);
		return;
	}
	if (wire_relay(&out->out, m, wire_peer_seq(out), out->max_frame) != 0)
		dmn_work_err(c, WIRE_ETOOBIG, m->seq,
		             "%s: cannot relay to "
		             "process %llu",
		             name, (unsigned long long)num);
	dmn_conn_kick(p->task);
}
