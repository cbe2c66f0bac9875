/*
 * dmn_rexec.c — REXEC: this node's pvmd as a host of another node's PVM
 * virtual machine, or Open MPI's orted as a host of another node's MPI
 * job (dmn_work.h; the other end is dmn_rsh.c).
 *
 * orted: mpirun on the master node starts its daemons through its rsh
 * agent, paravtd --pvm-rsh, exactly as a pvmd starts other hosts.  Here
 * argv[0] must name "orted" (native ports only), this node's orted from
 * PATH runs with the remaining words (Open MPI's own options), with
 * PARAVT_SESSION (the ranks it starts connect to this daemon's session
 * socket), PARAVT_SESSION_DIR, and, when PARAVT_BUILD names a build here,
 * PATH starting with that build's directory: mpirun names the program by
 * its bare name, and each node runs its own build.  Its record is the
 * session's slave pvmd (one per session), freed when it and its process
 * group have ended.  The rest of this comment is about the pvmd.
 *
 * The master node's pvmd adds this host through its PVM_RSH helper,
 * which connects here like a console (HELLO, AUTH with the token) and
 * sends REXEC(req, argv, env).  It is not a general remote execution:
 * argv[0] must name a pvmd ("pvmd" or "pvmd3", any directory), and what
 * runs is this node's own pvmd — native: pvmd from PATH; emulated:
 * RUN_PREFIX's emulator with -L SYSROOT, libparavt_sigerrno.so preloaded
 * (-E LD_PRELOAD=, when the runtime directory has it; see
 * wrappers/pvt_sigerrno.c) and SYSROOT/usr/bin/pvmd — with
 * the remaining words (pvmd's slave arguments).  env must hold
 * PARAVT_SESSION (the master's session token), PARAVT_RUN and
 * PARAVT_BUILD (a successful build of the controlling console's session
 * here).  The pvmd gets its own PVM_TMP (<session dir>/pvm), PVM_ROOT,
 * PVM_ARCH, PVM_ALLOW_ROOT when root, PARAVT_SESSION_DIR (this daemon's)
 * and PVM_PATH, the build directory — for an emulated port a directory
 * ep/ in it with a "#!" script per program that execs it under the
 * emulator (an emulated pvmd cannot exec a target ELF), and one for the
 * sysroot's group server pvmgs.  The session socket is opened for the
 * master's token, so tasks pvm_spawn starts here connect to this daemon
 * and are announced to this node's controller as PROC_START of
 * PARAVT_RUN.  A controlling console is required: the tasks' events go
 * to it.
 *
 * The pvmd's stdout and stderr go back as REXEC_IO streams 1 and 2,
 * REXEC_IO stream 0 goes to its stdin (empty data closes it).  When both
 * outputs have ended REXEC_EXIT(req, status) follows: its exit status if
 * it has exited, 0 while it runs on as the host's pvmd.  It stays the
 * session's pvmd (slave) until the virtual machine halts; the reaper
 * frees it then and kills what is left in its process group.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_work.h"
#include "wire_fmt.h"

/* ---- output to the REXEC peer -------------------------------------------- */

/* Sends REXEC_EXIT(status) once. */
static void dmn_rexec_send_exit(dmn_pvmd *d, int64_t status)
{
	wire_peer *p;

	if (d->exit_sent)
		return;
	d->exit_sent = 1;
	if (d->rx == NULL || (p = dmn_conn_peer(d->rx)) == NULL)
		return;
	wire_pack(&p->out, WIRE_REXEC_EXIT, wire_peer_seq(p), p->max_frame,
	          d->req, status);
	dmn_conn_kick(d->rx);
}

/* Status of an exited pvmd without reaping it (the reaper does), or 0
 * while it runs. */
static int64_t dmn_rexec_status(const dmn_pvmd *d)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	if (d->pid <= 0 || waitid(P_PID, (id_t)d->pid, &si,
	                          WEXITED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid != d->pid)
		return 0;
	return si.si_code == CLD_EXITED ? si.si_status : 128 + si.si_status;
}

/* Loop callback: the pvmd's stdout or stderr has data or ended. */
static void dmn_rexec_read(dmn_loop *l, int fd, void *ctx)
{
	dmn_pvmd *d = ctx;
	int *which = fd == d->fd ? &d->fd : &d->efd;
	char buf[8192];
	wire_peer *p;
	ssize_t n;

	n = read(fd, buf, sizeof buf);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		if (d->rx != NULL && (p = dmn_conn_peer(d->rx)) != NULL) {
			wire_pack(&p->out, WIRE_REXEC_IO, wire_peer_seq(p),
			          p->max_frame, d->req,
			          (uint64_t)(which == &d->fd ? 1 : 2), buf,
			          (size_t)n);
			dmn_conn_kick(d->rx);
		}
		return;
	}
	dmn_loop_del(l, fd);
	close(fd);
	*which = -1;
	if (d->fd < 0 && d->efd < 0)
		dmn_rexec_send_exit(d, dmn_rexec_status(d));
}

static const dmn_io_ops dmn_rexec_ops = {dmn_rexec_read, NULL,
                                         dmn_rexec_read};

void dmn_rexec_exited(dmn_work *w, dmn_pvmd *d, int st)
{
	(void)w;
	dmn_log(DMN_INFO, "session %llu: host pvmd %ld ended (status %d)",
	        (unsigned long long)d->sess->id, (long)d->pid,
	        WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	dmn_rexec_send_exit(d, WIFEXITED(st) ? WEXITSTATUS(st)
	                                     : 128 + WTERMSIG(st));
}

/* ---- the executable path ------------------------------------------------- */

/* Writes a "#!" script at path that execs the words of pre, then target
 * with the script's arguments.  0 or -1. */
static int dmn_rexec_script(const char *path, const dmn_words *pre,
                            const char *pre2, const char *target)
{
	FILE *f = fopen(path, "w");
	int i, rc;

	if (f == NULL)
		return -1;
	fprintf(f, "#!/bin/sh\n# paravtd: runs a target program under the "
	        "emulator (pvmd execs this)\nexec");
	for (i = 0; i < pre->n; i++)
		fprintf(f, " %s", pre->w[i]);
	fprintf(f, "%s '%s' \"$@\"\n", pre2, target);
	rc = ferror(f);
	if (fclose(f) != 0 || rc != 0)
		return -1;
	return chmod(path, 0700);
}

/* The pvmd's PVM_PATH for build b into ep: the build directory, or for
 * an emulated port b/ep/ with a script per program and for pvmgs.  0,
 * or -1 with err. */
static int dmn_rexec_ep(dmn_work *w, const dmn_build *b, char *ep,
                        size_t cap, char *err, size_t errlen)
{
	char path[DMN_PATH_MAX], target[DMN_PATH_MAX], l[DMN_PATH_MAX];
	dmn_words qemu;
	struct dirent *e;
	struct stat st;
	DIR *dir;

	if (w->port.native) {
		dmn_pvm_native_ep(ep, cap, b->dir);
		return 0;
	}
	if (dmn_pathf(ep, cap, "%s/ep", b->dir) != 0 ||
	    (mkdir(ep, 0700) != 0 && errno != EEXIST) ||
	    (dir = opendir(b->dir)) == NULL) {
		snprintf(err, errlen, "%.300s/ep: %s", b->dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.' || strchr(e->d_name, '\'') != NULL ||
		    dmn_pathf(target, sizeof target, "%s/%s", b->dir,
		              e->d_name) != 0 ||
		    stat(target, &st) != 0 || !S_ISREG(st.st_mode) ||
		    (st.st_mode & S_IXUSR) == 0 ||
		    dmn_pathf(path, sizeof path, "%s/%s", ep, e->d_name) != 0)
			continue;
		if (dmn_rexec_script(path, &w->port.prefix, "", target) != 0) {
			closedir(dir);
			snprintf(err, errlen, "%.300s: %s", path, strerror(errno));
			return -1;
		}
	}
	closedir(dir);
	/* the group server: the sysroot's, dynamic, so -L the sysroot */
	if (w->port.sysroot[0] != '\0' && w->port.prefix.n > 0) {
		qemu.n = 1;
		qemu.w[0] = w->port.prefix.w[0];
		qemu.w[1] = NULL;
		snprintf(l, sizeof l, " -L '%s'", w->port.sysroot);
		if (dmn_pathf(path, sizeof path, "%s/pvmgs", ep) == 0 &&
		    dmn_pathf(target, sizeof target, "%s/usr/bin/pvmgs",
		              w->port.sysroot) == 0)
			(void)dmn_rexec_script(path, &qemu, l, target);
	}
	return 0;
}

/* ---- REXEC --------------------------------------------------------------- */

/* The value of NAME= in the env array, or "" (copied into buf). */
static const char *dmn_rexec_env(const msgpack_object *env, const char *name,
                                 char *buf, size_t cap)
{
	char item[WIRE_TEXT_MAX];
	size_t n = strlen(name);
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < env->via.array.size; i++)
		if (wire_strv_get(env, i, item, sizeof item) == 0 &&
		    strncmp(item, name, n) == 0 && item[n] == '=')
			snprintf(buf, cap, "%s", item + n + 1);
	return buf;
}

/* Adds to an emulated pvmd's emulator arguments the library that keeps
 * errno across its signal handlers (wrappers/pvt_sigerrno.c: under the
 * emulator a SIGCHLD at the wrong moment stops the pvmd), when the
 * runtime directory has it. */
static void dmn_rexec_keep_errno(dmn_work *w, dmn_argv *a)
{
	char lib[DMN_PATH_MAX];
	struct stat st;

	if (dmn_pathf(lib, sizeof lib, "%s/lib/libparavt_sigerrno.so",
	              w->port.rt_dir) != 0 || stat(lib, &st) != 0)
		return;
	dmn_argv_add(a, "-E");
	dmn_argv_addf(a, "LD_PRELOAD=%s", lib);
}

/* The pvmd's (or orted's) command line: ours, then argv's words from 1
 * on; *orted set for Open MPI's daemon.  0, or -1 with err. */
static int dmn_rexec_argv(dmn_work *w, const msgpack_object *argv,
                          dmn_argv *a, int *orted, char *err, size_t errlen)
{
	char item[WIRE_TEXT_MAX];
	const char *base;
	uint32_t i;

	if (argv->via.array.size == 0 ||
	    wire_strv_get(argv, 0, item, sizeof item) != 0) {
		snprintf(err, errlen, "REXEC: no command");
		return -1;
	}
	base = strrchr(item, '/') ? strrchr(item, '/') + 1 : item;
	*orted = strcmp(base, "orted") == 0;
	if (strcmp(base, "pvmd") != 0 && strcmp(base, "pvmd3") != 0 &&
	    !*orted) {
		snprintf(err, errlen, "REXEC: only a pvmd or Open MPI's orted "
		         "is started this way, not %.200s", item);
		return -1;
	}
	if (*orted && !w->port.native) {
		snprintf(err, errlen, "REXEC: MPI runs on native ports only "
		         "(this daemon is %s)", w->port.name);
		return -1;
	}
	if (*orted) {
		dmn_argv_add(a, "orted");
	} else if (w->port.native) {
		dmn_argv_add(a, "pvmd");
	} else {
		if (w->port.prefix.n == 0 || w->port.sysroot[0] == '\0') {
			snprintf(err, errlen, "REXEC: port %s has no emulator "
			         "or sysroot for its pvmd", w->port.name);
			return -1;
		}
		dmn_argv_add(a, w->port.prefix.w[0]);
		dmn_argv_add(a, "-L");
		dmn_argv_add(a, w->port.sysroot);
		dmn_rexec_keep_errno(w, a);
		dmn_argv_addf(a, "%s/usr/bin/pvmd", w->port.sysroot);
	}
	for (i = 1; i < argv->via.array.size; i++) {
		if (wire_strv_get(argv, i, item, sizeof item) != 0)
			a->full = 1;
		else
			dmn_argv_addf(a, "%s", item);
	}
	if (a->full) {
		snprintf(err, errlen, "REXEC: arguments too long");
		return -1;
	}
	return 0;
}

/* Starts d's pvmd (ep: its PVM_PATH) or orted (ep: the build directory
 * put first in PATH, so mpirun's program is found by name, or "").  0,
 * or -1 with err. */
static int dmn_rexec_spawn(dmn_work *w, dmn_sess *s, dmn_argv *a,
                           const char *ep, int orted, char *err,
                           size_t errlen)
{
	const char *path = getenv("PATH");
	char *env[DMN_PVM_ENV + 4];
	dmn_pvmd *d = s->pvmd;
	dmn_spawn_req r;
	dmn_argv e;
	int fds[2], k;

	dmn_argv_init(&e);
	k = dmn_pvm_env(w, s, &e, env);
	if (!orted)
		dmn_argv_addf(&e, "PVM_PATH=%s", ep);
	else if (ep[0] != '\0')
		dmn_argv_addf(&e, "PATH=%s%s%s", ep, path ? ":" : "",
		              path ? path : "");
	if (!orted || ep[0] != '\0')
		env[k++] = e.v[e.n - 1];
	if (orted) {
		dmn_argv_addf(&e, "PARAVT_SESSION=%s", s->token);
		env[k++] = e.v[e.n - 1];
	}
	env[k] = NULL;
	memset(&r, 0, sizeof r);
	r.argv = a->v;
	r.dir = s->dir;
	r.env = env;
	r.in = &d->infd;
	d->pid = dmn_spawn(&r, fds, err, errlen);
	dmn_argv_free(&e);
	if (d->pid < 0) {
		d->pid = 0;
		return -1;
	}
	d->fd = fds[0];
	d->efd = fds[1];
	if (dmn_loop_add(w->srv->loop, d->fd, &dmn_rexec_ops, d, 1) != 0 ||
	    dmn_loop_add(w->srv->loop, d->efd, &dmn_rexec_ops, d, 1) != 0)
		dmn_log(DMN_WARN, "session %llu: event loop full: host pvmd "
		        "output not relayed", (unsigned long long)s->id);
	return 0;
}

/* REXEC from c. */
static void dmn_rexec_start(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	const msgpack_object *argv, *env;
	char err[WIRE_TEXT_MAX], tok[64], num[32], ep[DMN_PATH_MAX], line[512];
	uint64_t req = 0, run, build;
	dmn_build *b;
	dmn_pvmd *d;
	dmn_sess *s;
	dmn_argv a;
	int code = WIRE_EARG, orted = 0;

	dmn_argv_init(&a);
	if (wire_unpack(m, err, sizeof err, &req, &argv, &env) != 0) {
		code = WIRE_EMALFORMED;
		goto out_err;
	}
	if (dmn_rexec_argv(w, argv, &a, &orted, err, sizeof err) != 0)
		goto out_err; /* first: nothing but a pvmd or orted */
	if ((s = dmn_work_cur(w, err, sizeof err)) == NULL) {
		snprintf(err, sizeof err, "REXEC: no console controls node %s "
		         "(its tasks' events would go nowhere)",
		         w->srv->hello.node);
		code = WIRE_ESTATE;
		goto out_err;
	}
	if (s->pvmd != NULL) {
		snprintf(err, sizeof err, "REXEC: session %llu already has a "
		         "pvmd", (unsigned long long)s->id);
		code = WIRE_EBUSY;
		goto out_err;
	}
	dmn_rexec_env(env, "PARAVT_SESSION", tok, sizeof tok);
	if (tok[0] == '\0' || strspn(tok, "0123456789-") != strlen(tok) ||
	    (s->slfd >= 0 && strcmp(s->token, tok) != 0)) {
		snprintf(err, sizeof err, "REXEC: PARAVT_SESSION '%s' missing, "
		         "malformed or not this session's", tok);
		goto out_err;
	}
	run = strtoull(dmn_rexec_env(env, "PARAVT_RUN", num, sizeof num),
	               NULL, 10);
	build = strtoull(dmn_rexec_env(env, "PARAVT_BUILD", num, sizeof num),
	                 NULL, 10);
	ep[0] = '\0';
	if (orted && build != 0 &&
	    (b = dmn_build_get(s, build, 0, err, sizeof err)) != NULL)
		snprintf(ep, sizeof ep, "%s", b->dir);
	else if (orted && build != 0)
		goto out_err;
	else if (!orted &&
	         ((b = dmn_build_get(s, build, 0, err, sizeof err)) == NULL ||
	          dmn_rexec_ep(w, b, ep, sizeof ep, err, sizeof err) != 0))
		goto out_err;
	snprintf(s->token, sizeof s->token, "%s", tok);
	s->run = run;
	if (dmn_task_session_listen(w, s, err, sizeof err) != 0) {
		code = WIRE_ESTATE;
		goto out_err;
	}
	if ((d = calloc(1, sizeof *d)) == NULL) {
		snprintf(err, sizeof err, "out of memory");
		code = WIRE_ENOMEM;
		goto out_err;
	}
	d->fd = d->efd = d->infd = -1;
	d->sess = s;
	d->build = build;
	d->slave = 1;
	d->rx = c;
	d->req = req;
	s->pvmd = d;
	if (dmn_pathf(d->tmp, sizeof d->tmp, "%s/pvm", s->dir) != 0 ||
	    (mkdir(d->tmp, 0700) != 0 && errno != EEXIST)) {
		snprintf(err, sizeof err, "%.300s: %s", d->tmp, strerror(errno));
		goto out_free;
	}
	if (dmn_rexec_spawn(w, s, &a, ep, orted, err, sizeof err) != 0)
		goto out_free;
	dmn_log(DMN_INFO, "session %llu: REXEC %llu: host %s pid %ld for "
	        "session %s run %llu (%s %s): %s", (unsigned long long)s->id,
	        (unsigned long long)req, orted ? "orted" : "pvmd",
	        (long)d->pid, tok, (unsigned long long)run,
	        orted ? "PATH" : "PVM_PATH", ep[0] ? ep : "unchanged",
	        dmn_argv_text(&a, line, sizeof line));
	dmn_argv_free(&a);
	dmn_work_reap_soon(w);
	return;
out_free:
	free(d);
	s->pvmd = NULL;
out_err:
	dmn_argv_free(&a);
	dmn_log(DMN_WARN, "REXEC refused: %s", err);
	dmn_work_err(c, code, m->seq, "%s", err);
}

/* The slave pvmd whose REXEC peer is c, or NULL. */
static dmn_pvmd *dmn_rexec_of(dmn_work *w, const dmn_conn *c)
{
	int i;

	for (i = 0; w != NULL && i < DMN_MAX_SESS; i++)
		if (w->sess[i] != NULL && w->sess[i]->pvmd != NULL &&
		    w->sess[i]->pvmd->slave && w->sess[i]->pvmd->rx == c)
			return w->sess[i]->pvmd;
	return NULL;
}

void dmn_rexec_msg(dmn_server *srv, dmn_conn *c, const wire_msg *m)
{
	dmn_work *w = srv->work;
	uint64_t req, stream;
	char err[WIRE_TEXT_MAX];
	const char *data;
	dmn_pvmd *d;
	size_t len;

	if (w == NULL) {
		dmn_work_err(c, WIRE_ESTATE, m->seq, "no work state");
		return;
	}
	if (m->type == WIRE_REXEC) {
		dmn_rexec_start(w, c, m);
		return;
	}
	if (wire_unpack(m, err, sizeof err, &req, &stream, &data, &len) != 0) {
		dmn_work_err(c, WIRE_EMALFORMED, m->seq, "%s", err);
		return;
	}
	if ((d = dmn_rexec_of(w, c)) == NULL || d->req != req || stream != 0)
		return; /* for a pvmd that has gone: dropped */
	if (len == 0) {
		if (d->infd >= 0)
			close(d->infd);
		d->infd = -1;
	} else if (d->infd >= 0 && write(d->infd, data, len) < 0 &&
	           errno != EAGAIN) {
		close(d->infd);
		d->infd = -1;
	}
}

void dmn_rexec_conn_gone(dmn_server *srv, dmn_conn *c)
{
	dmn_pvmd *d = dmn_rexec_of(srv->work, c);

	if (d == NULL)
		return;
	d->rx = NULL;
	if (d->infd >= 0)
		close(d->infd);
	d->infd = -1;
}
