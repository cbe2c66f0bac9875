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
 * the process's last location for PROC_EXIT.  EVENT_STRINGS and EVENTS
 * go to the event relay (dmn_event.h).
 *
 * Sessions that run PVM or MPI programs also get a session socket,
 * ${PARAVT_SESSION_DIR:-/tmp/paravtd-<uid>/d<pid>}/session-<token>.sock
 * (the directories 0700, ours; one per daemon, as daemons of several
 * hosts may share /tmp and, for a multi-host PVM run, the token given
 * by REXEC), where tasks the daemon did not start itself —
 * spawned by pvmd or mpirun, found through PARAVT_SESSION=<token> —
 * connect with TASK_HELLO proc=0.  Each gets a new process number, the
 * controller a PROC_START(run, proc, pid), and its messages naming proc 0
 * are relayed with its number.  When it disconnects it has ended:
 * PROC_EXIT with the status of its PROG_EXIT event (-1 if none).  A task
 * of a session with a pvmd also gets an output FIFO, <session socket>.<pid>
 * (dmn_run_output_fifo), which the runtime makes its stdout and stderr
 * when nobody catches its output: what it writes comes to the console
 * as its own OUTPUT instead of the pvmd's log.
 *
 * Layout: the sockets, TASK_HELLO, task -> console, console -> task.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

/* Binds and watches a Unix socket at path for s.  The fd, or -1 with
 * err. */
static int dmn_task_bind(dmn_work *w, dmn_sess *s, const char *path,
                         char *err, size_t errlen)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		snprintf(err, errlen,
		         "task socket path %.300s is too long for a "
		         "Unix socket (set a shorter TMPDIR)",
		         path);
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
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
	return fd;
out_errno:
	snprintf(err, errlen, "task socket %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int dmn_task_listen(dmn_work *w, dmn_sess *s, char *err, size_t errlen)
{
	if (dmn_pathf(s->sock, sizeof s->sock, "%s/task.sock", s->dir) != 0) {
		snprintf(err, errlen, "task socket path too long");
		return -1;
	}
	s->work = w;
	s->lfd = dmn_task_bind(w, s, s->sock, err, errlen);
	return s->lfd < 0 ? -1 : 0;
}

const char *dmn_task_session_dir(char *buf, size_t cap)
{
	const char *d = getenv("PARAVT_SESSION_DIR");

	if (d != NULL && d[0] == '/')
		return d;
	/* One directory per daemon: daemons of several hosts may share
	 * /tmp (network namespaces) and serve the same session token. */
	snprintf(buf, cap, "/tmp/paravtd-%lu/d%ld", (unsigned long)getuid(),
	         (long)getpid());
	return buf;
}

/* Makes (or checks) the session socket directory: ours, 0700, not a
 * link.  0, or -1 with err. */
static int dmn_task_session_mkdir(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid() || (st.st_mode & 077) != 0) {
		snprintf(err, errlen,
		         "%s is not a private directory of ours "
		         "(a directory, owned by us, mode 0700): refusing to "
		         "use it",
		         dir);
		return -1;
	}
	return 0;
}

int dmn_task_session_listen(dmn_work *w, dmn_sess *s, char *err,
                            size_t errlen)
{
	char dbuf[64];
	const char *dir = dmn_task_session_dir(dbuf, sizeof dbuf);

	char parent[64];

	if (s->slfd >= 0)
		return 0;
	if (s->token[0] == '\0') /* else given by REXEC (dmn_rexec.c) */
		snprintf(s->token, sizeof s->token, "%ld-%llu",
		         (long)getpid(), (unsigned long long)s->id);
	if (getenv("PARAVT_SESSION_DIR") == NULL) {
		snprintf(parent, sizeof parent, "/tmp/paravtd-%lu",
		         (unsigned long)getuid());
		if (dmn_task_session_mkdir(parent, err, errlen) != 0)
			return -1;
	}
	if (dmn_task_session_mkdir(dir, err, errlen) != 0)
		return -1;
	if (dmn_pathf(s->ssock, sizeof s->ssock, "%s/session-%s.sock", dir,
	              s->token) != 0) {
		snprintf(err, errlen, "session socket path too long");
		s->ssock[0] = '\0';
		return -1;
	}
	unlink(s->ssock); /* left by an earlier daemon with our pid */
	s->slfd = dmn_task_bind(w, s, s->ssock, err, errlen);
	if (s->slfd < 0) {
		s->ssock[0] = '\0';
		return -1;
	}
	dmn_log(DMN_INFO, "session %llu: session socket %s",
	        (unsigned long long)s->id, s->ssock);
	return 0;
}

void dmn_task_unlisten(dmn_work *w, dmn_sess *s)
{
	if (s->lfd < 0)
		return;
	dmn_loop_del(w->srv->loop, s->lfd);
	close(s->lfd);
	s->lfd = -1;
	unlink(s->sock);
	if (s->slfd < 0)
		return;
	dmn_loop_del(w->srv->loop, s->slfd);
	close(s->slfd);
	s->slfd = -1;
	unlink(s->ssock);
	dmn_log(DMN_INFO, "session %llu: removed %s", (unsigned long long)s->id,
	        s->ssock);
	if (getenv("PARAVT_SESSION_DIR") == NULL) {
		/* our own d<pid>/: gone once empty */
		char dbuf[64];

		(void)rmdir(dmn_task_session_dir(dbuf, sizeof dbuf));
	}
}

/* ---- TASK_HELLO ---------------------------------------------------------- */

/* TASK_HELLO proc=0: a task of a PVM or MPI run that someone else
 * started.  Makes its process entry and tells the controller.  0, or an
 * error with err. */
static int dmn_task_foreign(dmn_work *w, dmn_conn *c, uint64_t pid,
                            char *err, size_t errlen)
{
	dmn_sess *s = dmn_conn_via(c);
	wire_peer *out;
	dmn_proc *p;

	if (pid == 0 || pid > 0x7fffffff) {
		snprintf(err, errlen, "TASK_HELLO: pid %llu is not a process",
		         (unsigned long long)pid);
		return WIRE_EARG;
	}
	if ((p = dmn_proc_new(w)) == NULL) {
		snprintf(err, errlen, "TASK_HELLO: out of memory for one more "
		         "process");
		return WIRE_ENOMEM;
	}
	p->foreign = 1;
	p->pid = (pid_t)pid;
	p->run = s->run;
	p->sess = s;
	p->ev_status = -1;
	p->task = c;
	s->nprocs++;
	if (s->pvmd != NULL && s->ssock[0] != '\0') {
		/* a task of pvmd: its output would go to the pvmd's log */
		char path[DMN_PATH_MAX + 24];

		snprintf(path, sizeof path, "%s.%llu", s->ssock,
		         (unsigned long long)pid);
		if (dmn_run_output_fifo(w, p, path) != 0)
			dmn_log(DMN_WARN, "proc %llu: no output FIFO %s "
			        "(%s): its output stays in the pvmd's log",
			        (unsigned long long)p->num, path,
			        strerror(errno));
	}
	dmn_log(DMN_INFO, "conn %llu: task pid %llu (started by pvmd or "
	        "mpirun) is proc %llu of run %llu", dmn_conn_id(c),
	        (unsigned long long)pid, (unsigned long long)p->num,
	        (unsigned long long)p->run);
	if ((out = dmn_work_ctl_of(w, p->sess)) != NULL) {
		wire_pack(&out->out, WIRE_PROC_START, wire_peer_seq(out),
		          out->max_frame, p->run, p->num, (uint64_t)p->pid);
		dmn_work_kick(w);
	}
	return 0;
}

int dmn_work_task_hello(dmn_server *srv, dmn_conn *c, const wire_msg *m,
                        char *err, size_t errlen)
{
	uint64_t num, pid;
	dmn_proc *p;

	if (srv->work == NULL)
		return WIRE_ESTATE;
	if (wire_unpack(m, err, errlen, &num, &pid) != 0)
		return WIRE_EMALFORMED;
	if (num == 0)
		return dmn_task_foreign(srv->work, c, pid, err, errlen);
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
	dmn_proc *p;
	int i;

	if (srv->work == NULL)
		return;
	for (i = 0; i < srv->work->cap_procs; i++) {
		p = srv->work->procs[i];
		if (p == NULL || p->task != c)
			continue;
		p->task = NULL;
		srv->work->relay->drain(srv->work, p); /* all it wrote, PROG_EXIT too */
		if (!p->foreign)
			continue;
		/* Not our child: the end of its connection is its end. */
		dmn_run_foreign_exit(srv->work, p);
		dmn_proc_free(srv->work, p);
	}
}

/* ---- task -> console ----------------------------------------------------- */

/* The process whose task connection is c, or NULL. */
static dmn_proc *dmn_task_proc(dmn_work *w, const dmn_conn *c)
{
	int i;

	for (i = 0; i < w->cap_procs; i++)
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
	if (rc == 0 && num != p->num && !(p->foreign && num == 0)) {
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

/* Relays m to out with its first field (proc) set to num: a proc-0 task
 * is known to the console by the number it was given here.  0 or an
 * error. */
static int dmn_task_relay(wire_peer *out, const wire_msg *m, uint64_t num)
{
	wire_enc e;
	uint32_t i;

	if (wire_enc_begin(&e, &out->out, m->type, wire_peer_seq(out),
	                   m->nf) == 0) {
		msgpack_pack_uint64(wire_enc_packer(&e), num);
		for (i = 1; i < m->nf; i++)
			msgpack_pack_object(wire_enc_packer(&e), m->f[i]);
	}
	return wire_enc_end(&e, out->max_frame);
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
	if (m->type == WIRE_CTL_PAGE) {
		rc = dmn_ctl_page(w, p, m, err, sizeof err);
		if (rc != 0)
			dmn_conn_fail(c, rc, m->seq, err, 0);
		return;
	}
	if (m->type == WIRE_BP_TABLE_GET) {
		dmn_ctl_table(w, p, c, m);
		return;
	}
	if (m->type == WIRE_EVENTS || m->type == WIRE_EVENT_STRINGS ||
	    m->type == WIRE_EVENT_RING || m->type == WIRE_EVENTS_KICK) {
		rc = w->relay->task(w, p, m, err, sizeof err);
		if (rc != 0)
			dmn_conn_fail(c, rc, m->seq, err, 0);
		return;
	}
	rc = dmn_task_check(p, m, err, sizeof err);
	if (rc != 0) {
		dmn_conn_fail(c, rc, m->seq, err, 0);
		return;
	}
	w->relay->drain(w, p); /* the events up to a stop or crash come first */
	out = dmn_work_ctl_of(w, p->sess);
	if (out == NULL) {
		dmn_log(DMN_INFO, "proc %llu: %s with no console in control",
		        (unsigned long long)p->num, wire_type_name(m->type));
		return;
	}
	if (dmn_task_relay(out, m, p->num) != 0)
		dmn_log(DMN_WARN, "proc %llu: %s too large for the console",
		        (unsigned long long)p->num, wire_type_name(m->type));
	dmn_work_kick(w);
}

/* ---- console -> task ----------------------------------------------------- */

void dmn_task_to_task(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	const char *name = wire_type_name(m->type);
	const msgpack_object *req, *val;
	char err[WIRE_TEXT_MAX];
	uint64_t num, u1, u2;
	wire_peer *out;
	dmn_proc *p;
	int rc;

	if (m->type == WIRE_INSPECT)
		rc = wire_unpack(m, err, sizeof err, &num, &u1, &u2, &req);
	else if (m->type == WIRE_SET)
		rc = wire_unpack(m, err, sizeof err, &num, &u1, &u2, &req,
		                 &val);
	else if (m->type == WIRE_STEP)
		rc = wire_unpack(m, err, sizeof err, &num, &u1, &u2);
	else
		rc = wire_unpack(m, err, sizeof err, &num);
	if (rc != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s", err);
		return;
	}
	p = dmn_run_find_own(w, num);
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
	if (dmn_task_relay(out, m, p->foreign ? 0 : p->num) != 0)
		dmn_work_err(c, WIRE_ETOOBIG, m->seq,
		             "%s: cannot relay to "
		             "process %llu",
		             name, (unsigned long long)num);
	else if (m->type != WIRE_INSPECT && m->type != WIRE_SET)
		dmn_ctl_resumed(p);
	dmn_conn_kick(p->task);
}
