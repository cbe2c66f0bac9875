/*
 * dmn_pvm.c — RUN kinds "pvm" and "mpi" (dmn_work.h).
 *
 * pvm: the session gets its own pvmd (one virtual machine per session): PVM_TMP=<session dir>/pvm (so it never meets
 * another virtual machine on the host), PVM_ROOT (the daemon's, else
 * /usr/lib/pvm3), PVM_ARCH of the port, PVM_ALLOW_ROOT=1 when root, and a
 * hostfile "* ep=<build dir>" so pvm_spawn finds the build's programs by
 * bare name.  The start is waited for (bounded, DMN_PVMD_START_MS) until
 * $PVM_TMP/pvmd.<uid> appears.  The master then runs like a plain program
 * with PARAVT_SESSION, PARAVT_SESSION_DIR and the PVM variables added;
 * the tasks it spawns connect through the session socket (dmn_task.c).
 * When nothing of the session runs any more the pvmd gets SIGTERM (pvmd
 * halts the virtual machine on it, as "halt" in the console does), after
 * DMN_PVMD_HALT_MS SIGKILL to its process group; only the pvmd this
 * daemon started is touched.  With other hosts in the run the halt waits
 * DMN_PVM_IDLE_MS more: their tasks are counted by their own daemons,
 * and the last ones may still be ending after the master is gone.
 *
 * Other hosts (PVM_HOST from the console, kept per run in the session):
 * the hostfile names this host by the address the console reached us
 * at ("ADDR ep=DIR") and each other host "IP dx=pvmd3"; pvmd gets
 * -nADDR, PVM_RSH=PVM_TMP/rsh (a script: paravtd --pvm-rsh, dmn_rsh.c)
 * and PARAVT_RSH_CONF=PVM_TMP/rsh.conf; the host's daemon runs its own
 * pvmd on REXEC (dmn_rexec.c).  The master starts once the PVM console's
 * conf shows every host (bounded, DMN_PVM_JOIN_MS).
 *
 * mpi: runs mpirun --allow-run-as-root --oversubscribe --tag-output
 * -x PARAVT_SESSION [-x NAME per RUN setting] [-x PARAVT_MPI_PAIR]
 * LAUNCH-OPTIONS PROGRAM ARGS with PARAVT_SESSION set (not PARAVT_SOCK:
 * every rank connects as a proc-0 task) and PARAVT_MPI_PAIR=1 unless
 * the run sets it (every rank runs the wrappers, so partner ranks time
 * a message's way at MPI_Init: libparavt(3)).  The mpirun process is
 * the run's process.  On this host alone, the job's session directory
 * and shared-memory segments go to a directory of the run's that the
 * daemon removes when mpirun ends (dmn_mpidir.c).  With extra hosts
 * (PVM_HOST, the other nodes of this port) mpirun also gets a
 * hostfile of them (<session dir>/mpi-RUN/hostfile, one slot each), the
 * same rsh helper as PVM as its plm_rsh_agent and no tree spawn; the
 * program is then named by its base name, with the build directory first
 * in PATH, and each host's daemon starts orted (dmn_rexec.c) with its own
 * build first in PATH.
 *
 * --exec (RUN's exec): the program is a file of this host; pvm: the
 * master gets LD_PRELOAD of the runtime's libparavt_pvm.so and
 * PVM_EXPORT naming it, the pvmd's ep= is the program's directory; mpi:
 * -x LD_PRELOAD=.../libparavt_mpi.so.  The first process's standard
 * input is RUN's stdin file (dmn_run.c) for both kinds.
 *
 * Both only on native ports as the master: an emulated node takes part
 * as another host of a native master's virtual machine (dmn_rexec.c
 * makes its "#!" wrappers).
 *
 * Layout: the pvmd's output, starting it, halting it, the RUN kinds.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_spawn.h"
#include "dmn_work.h"
#include "wire_fmt.h"

#define DMN_PVMD_START_MS 10000 /* pvmd must be up by then */
#define DMN_PVMD_HALT_MS 3000   /* SIGTERM to SIGKILL */
#define DMN_PVM_JOIN_MS 30000   /* extra hosts must have joined by then */
#define DMN_PVM_IDLE_MS 5000    /* with other hosts: halt this long after
                                   nothing runs here */
#define DMN_MPI_PAIR "PARAVT_MPI_PAIR" /* set to 1 for an MPI run's ranks */

/* Sleeps ms milliseconds. */
static void dmn_pvm_nap(unsigned ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

/* ---- the pvmd's output --------------------------------------------------- */

/* Closes one pipe of the pvmd (watched by the loop if watched). */
static void dmn_pvmd_close1(dmn_work *w, int *fd, int watched)
{
	if (*fd < 0)
		return;
	if (watched)
		dmn_loop_del(w->srv->loop, *fd);
	close(*fd);
	*fd = -1;
}

/* Closes the pvmd's pipes. */
static void dmn_pvmd_close(dmn_work *w, dmn_pvmd *d)
{
	dmn_pvmd_close1(w, &d->fd, 1);
	dmn_pvmd_close1(w, &d->efd, 1);
	dmn_pvmd_close1(w, &d->infd, 0);
}

/* Loop callback: logs what the pvmd prints (its socket name at start). */
static void dmn_pvmd_read(dmn_loop *l, int fd, void *ctx)
{
	dmn_pvmd *d = ctx;
	char buf[512];
	ssize_t n;

	n = read(fd, buf, sizeof buf - 1);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		dmn_pvmd_close(d->sess->work, d);
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	dmn_log(DMN_INFO, "session %llu: pvmd says: %s",
	        (unsigned long long)d->sess->id, buf);
}

static const dmn_io_ops dmn_pvmd_ops = {dmn_pvmd_read, NULL, dmn_pvmd_read};

/* ---- starting ------------------------------------------------------------ */

int dmn_pvm_env(dmn_work *w, dmn_sess *s, dmn_argv *a, char **env)
{
	const char *root = getenv("PVM_ROOT");
	int n = a->n, k = 0;
	char dbuf[64];

	dmn_argv_addf(a, "PVM_ROOT=%s", root && *root ? root : "/usr/lib/pvm3");
	dmn_argv_addf(a, "PVM_TMP=%s", s->pvmd->tmp);
	dmn_argv_addf(a, "PVM_ARCH=%s", w->port.pvm_arch);
	if (getuid() == 0)
		dmn_argv_addf(a, "PVM_ALLOW_ROOT=1");
	/* tasks the pvmd starts find this daemon's session socket there
	 * (pvm_spawn does not export it: hosts differ) */
	dmn_argv_addf(a, "PARAVT_SESSION_DIR=%s",
	              dmn_task_session_dir(dbuf, sizeof dbuf));
	while (n < a->n && k < DMN_PVM_ENV - 1)
		env[k++] = a->v[n++];
	env[k] = NULL;
	return k;
}

void dmn_pvm_native_ep(char *ep, size_t cap, const char *dir)
{
	const char *root = getenv("PVM_ROOT");

	snprintf(ep, cap, "%s:%s/lib", dir, root && *root ? root :
	         "/usr/lib/pvm3");
}

/* Writes the hostfile: "* ep=DIR", or with extra hosts (the run's
 * PVM_HOST), "SELF ep=DIR" and one "IP dx=pvmd3" line per host (its
 * daemon gives its pvmd PVM_PATH, the ep= of its build).  0 or -1
 * (errno). */
static int dmn_pvm_hostfile(const char *path, const char *ep,
                            const dmn_sess *s, const char *self)
{
	FILE *f = fopen(path, "w");
	int rc, i;

	if (f == NULL)
		return -1;
	fprintf(f, "# paravtd: programs of the session's build\n");
	if (self == NULL)
		fprintf(f, "* ep=%s\n", ep);
	else
		fprintf(f, "%s ep=%s\n", self, ep);
	for (i = 0; self != NULL && i < s->nhosts; i++)
		if (s->hosts[i].run == s->run)
			fprintf(f, "%s dx=pvmd3\n", s->hosts[i].ip);
	rc = ferror(f);
	return fclose(f) != 0 || rc ? -1 : 0;
}

/* Extra hosts of s's current run. */
static int dmn_pvm_nhosts(const dmn_sess *s)
{
	int i, n = 0;

	for (i = 0; i < s->nhosts; i++)
		n += s->hosts[i].run == s->run;
	return n;
}

/* Writes PVM_TMP/rsh (the PVM_RSH script: paravtd --pvm-rsh) and
 * PVM_TMP/rsh.conf (dmn_rsh.c).  0 or -1 (errno). */
static int dmn_pvm_rsh_files(dmn_work *w, dmn_sess *s, const char *tmp)
{
	char path[DMN_PATH_MAX + 16], exe[DMN_PATH_MAX];
	const char *tf = w->srv->cfg->token_file;
	ssize_t n;
	FILE *f;
	int i, rc;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0 || strchr(exe, '\'') != NULL)
		return -1;
	exe[n] = '\0';
	snprintf(path, sizeof path, "%s/rsh", tmp);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fprintf(f, "#!/bin/sh\n# paravtd: PVM_RSH of session %llu\n"
	        "exec '%s' --pvm-rsh \"$@\"\n", (unsigned long long)s->id, exe);
	rc = ferror(f);
	if (fclose(f) != 0 || rc || chmod(path, 0700) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/rsh.conf", tmp);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fprintf(f, "token-file %s\nsession %s\nrun %llu\n",
	        w->srv->cfg->check_token && tf[0] ? tf : "-", s->token,
	        (unsigned long long)s->run);
	for (i = 0; i < s->nhosts; i++)
		if (s->hosts[i].run == s->run)
			fprintf(f, "host %s %s %llu\n", s->hosts[i].ip,
			        s->hosts[i].addr,
			        (unsigned long long)s->hosts[i].build);
	rc = ferror(f);
	return fclose(f) != 0 || rc ? -1 : 0;
}

void dmn_pvm_host(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	char err[WIRE_TEXT_MAX], name[WIRE_NAME_MAX], addr[WIRE_TEXT_MAX];
	dmn_sess *s = w->cur;
	dmn_pvmhost *h;
	uint64_t run, build;
	char *colon;
	int i;

	if (wire_unpack(m, err, sizeof err, &run, name, sizeof name, addr,
	                sizeof addr, &build) != 0) {
		dmn_work_err(c, WIRE_EMALFORMED, m->seq, "%s", err);
		return;
	}
	colon = strrchr(addr, ':');
	if (colon == NULL || colon == addr || strlen(addr) >= sizeof h->addr ||
	    strspn(addr, "0123456789.:") != strlen(addr)) {
		dmn_work_err(c, WIRE_EARG, m->seq, "PVM_HOST: address %s is "
		             "not IPv4:PORT", addr);
		return;
	}
	for (i = 0, h = NULL; i < s->nhosts; i++)
		if (s->hosts[i].run != run) /* an old run's: reuse */
			h = &s->hosts[i];
	if (h == NULL && s->nhosts < DMN_PVM_HOSTS)
		h = &s->hosts[s->nhosts++];
	if (h == NULL) {
		dmn_work_err(c, WIRE_EBUSY, m->seq, "PVM_HOST: more than %d "
		             "hosts", DMN_PVM_HOSTS);
		return;
	}
	h->run = run;
	h->build = build;
	snprintf(h->name, sizeof h->name, "%s", name);
	snprintf(h->addr, sizeof h->addr, "%s", addr);
	snprintf(h->ip, sizeof h->ip, "%.*s", (int)(colon - addr), addr);
	dmn_log(DMN_INFO, "session %llu: run %llu: PVM host %s (%s, build "
	        "%llu)", (unsigned long long)s->id, (unsigned long long)run,
	        h->ip, name, (unsigned long long)build);
}

int dmn_pvm_wait_up(dmn_pvmd *d, char *err, size_t errlen)
{
	char f[DMN_PATH_MAX + 32];
	int waited, st;

	snprintf(f, sizeof f, "%s/pvmd.%lu", d->tmp, (unsigned long)getuid());
	for (waited = 0; waited < DMN_PVMD_START_MS; waited += 20) {
		if (access(f, F_OK) == 0)
			return 0;
		if (waitpid(d->pid, &st, WNOHANG) == d->pid) {
			d->pid = 0;
			snprintf(err, errlen, "pvmd exited at once (see the "
			         "daemon log and %s/pvml.%lu)", d->tmp,
			         (unsigned long)getuid());
			return -1;
		}
		dmn_pvm_nap(20);
	}
	snprintf(err, errlen, "pvmd not up after %d ms", DMN_PVMD_START_MS);
	return -1;
}

/* Spawns the pvmd of d (tmp and the hostfile ready; self: the address
 * it announces, with extra hosts).  0 or -1 with err. */
static int dmn_pvmd_spawn(dmn_work *w, dmn_sess *s, const char *self,
                          char *err, size_t errlen)
{
	char hostfile[DMN_PATH_MAX + 16], *env[DMN_PVM_ENV + 2];
	dmn_spawn_req r;
	dmn_argv a, e;
	int fds[2], k;

	snprintf(hostfile, sizeof hostfile, "%s/hostfile", s->pvmd->tmp);
	dmn_argv_init(&a);
	dmn_argv_init(&e);
	dmn_argv_add(&a, "pvmd");
	if (self != NULL)
		dmn_argv_addf(&a, "-n%s", self);
	dmn_argv_add(&a, hostfile);
	k = dmn_pvm_env(w, s, &e, env);
	if (self != NULL) {
		dmn_argv_addf(&e, "PVM_RSH=%s/rsh", s->pvmd->tmp);
		env[k++] = e.v[e.n - 1];
		dmn_argv_addf(&e, "PARAVT_RSH_CONF=%s/rsh.conf", s->pvmd->tmp);
		env[k++] = e.v[e.n - 1];
		env[k] = NULL;
	}
	memset(&r, 0, sizeof r);
	r.argv = a.v;
	r.dir = s->dir;
	r.env = env;
	r.merge = 1;
	s->pvmd->pid = dmn_spawn(&r, fds, err, errlen);
	dmn_argv_free(&a);
	dmn_argv_free(&e);
	if (s->pvmd->pid < 0) {
		s->pvmd->pid = 0;
		return -1;
	}
	s->pvmd->fd = fds[0];
	if (dmn_loop_add(w->srv->loop, fds[0], &dmn_pvmd_ops, s->pvmd, 1) != 0) {
		close(fds[0]);
		s->pvmd->fd = -1;
	}
	return 0;
}

/* Waits (bounded, DMN_PVM_JOIN_MS) until the virtual machine of d has
 * n hosts, by its log.  0, or -1 with err. */
static int dmn_pvm_wait_hosts(dmn_pvmd *d, int n, char *err, size_t errlen)
{
	const char *root = getenv("PVM_ROOT");
	char cmd[3 * DMN_PATH_MAX], line[256], word[16];
	int waited, have = 0, k;
	FILE *p;

	if (strchr(d->tmp, '\'') != NULL ||
	    (root != NULL && strchr(root, '\'') != NULL)) {
		snprintf(err, errlen, "odd PVM_TMP or PVM_ROOT");
		return -1;
	}
	/* the PVM console's conf, bounded: "N hosts, M data formats" */
	snprintf(cmd, sizeof cmd, "printf 'conf\\nquit\\n' | PVM_TMP='%s' "
	         "PVM_ROOT='%s'%s timeout -k 1 5 pvm 2>&1", d->tmp,
	         root && *root ? root : "/usr/lib/pvm3",
	         getuid() == 0 ? " PVM_ALLOW_ROOT=1" : "");
	for (waited = 0; waited < DMN_PVM_JOIN_MS; waited += 200) {
		if ((p = popen(cmd, "r")) != NULL) {
			while (fgets(line, sizeof line, p) != NULL)
				if (sscanf(line, "%d %15s", &k, word) == 2 &&
				    strncmp(word, "host", 4) == 0)
					have = k;
			pclose(p);
		}
		if (have >= n)
			return 0;
		if (waitpid(d->pid, NULL, WNOHANG) == d->pid) {
			d->pid = 0;
			snprintf(err, errlen, "pvmd exited while hosts joined");
			return -1;
		}
		dmn_pvm_nap(200);
	}
	snprintf(err, errlen, "only %d of the virtual machine's %d hosts "
	         "joined in %d ms (see the daemon logs)", have, n,
	         DMN_PVM_JOIN_MS);
	return -1;
}

/* Makes sure s has a running pvmd whose ep= is dir (build number build;
 * 0 for an --exec program's directory).  0, or -1 with err. */
static int dmn_pvmd_ensure(dmn_work *w, dmn_sess *s, const char *dir,
                           uint64_t build, char *err, size_t errlen)
{
	char hostfile[DMN_PATH_MAX + 16], self[64], ep[2 * DMN_PATH_MAX];
	dmn_pvmd *d = s->pvmd;
	int extra = dmn_pvm_nhosts(s);

	dmn_pvm_native_ep(ep, sizeof ep, dir);

	if (d != NULL && d->halt_at == 0 && d->build == build && extra == 0 &&
	    build != 0)
		return 0;
	if (extra > 0 && dmn_conn_local_ip(w->srv->controller, self,
	                                   sizeof self) != 0) {
		snprintf(err, errlen, "RUN pvm with other hosts: this "
		         "daemon's address toward the console is not IPv4");
		return -1;
	}
	if (d != NULL && d->halt_at == 0) {
		snprintf(err, errlen, "the session's pvmd serves build %llu, "
		         "which still runs", (unsigned long long)d->build);
		return -1;
	}
	dmn_pvm_stop(w, s); /* one that is halting: finish it */
	if ((d = calloc(1, sizeof *d)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	d->fd = d->efd = d->infd = -1;
	d->sess = s;
	d->build = build;
	s->pvmd = d;
	if (dmn_pathf(d->tmp, sizeof d->tmp, "%s/pvm", s->dir) != 0 ||
	    (mkdir(d->tmp, 0700) != 0 && errno != EEXIST) ||
	    dmn_pathf(hostfile, sizeof hostfile, "%s/hostfile", d->tmp) != 0 ||
	    dmn_pvm_hostfile(hostfile, ep, s, extra ? self : NULL) != 0 ||
	    (extra > 0 && dmn_pvm_rsh_files(w, s, d->tmp) != 0)) {
		snprintf(err, errlen, "%s: %s", d->tmp, strerror(errno));
		goto out_free;
	}
	if (dmn_pvmd_spawn(w, s, extra ? self : NULL, err, errlen) != 0)
		goto out_free;
	if (dmn_pvm_wait_up(d, err, errlen) != 0 ||
	    (extra > 0 && dmn_pvm_wait_hosts(d, extra + 1, err, errlen) != 0)) {
		dmn_pvm_stop(w, s);
		return -1;
	}
	dmn_log(DMN_INFO, "session %llu: pvmd pid %ld up (PVM_TMP %s, ep=%s)",
	        (unsigned long long)s->id, (long)d->pid, d->tmp, ep);
	dmn_work_reap_soon(w);
	return 0;
out_free:
	dmn_pvmd_close(w, d);
	free(d);
	s->pvmd = NULL;
	return -1;
}

/* ---- halting ------------------------------------------------------------- */

/* The pvmd is gone: kill what is left in its process group, free it. */
static void dmn_pvmd_gone(dmn_work *w, dmn_sess *s)
{
	dmn_pvmd *d = s->pvmd;
	pid_t g = d->pid > 0 ? d->pid : d->pgid;

	if (g > 0)
		kill(-g, SIGKILL); /* tasks it left, same process group */
	dmn_log(DMN_INFO, "session %llu: pvmd %ld halted",
	        (unsigned long long)s->id, (long)g);
	dmn_pvmd_close(w, d);
	free(d);
	s->pvmd = NULL;
}

void dmn_pvm_idle(dmn_work *w, dmn_sess *s)
{
	dmn_pvmd *d = s->pvmd;
	uint64_t now = wire_now_ns();

	if (d == NULL || d->halt_at != 0 || d->pid <= 0 || d->slave)
		return; /* a slave ends with its virtual machine */
	if (dmn_pvm_nhosts(s) > 0 && d->idle_at == 0) {
		/* The tasks of the other hosts are not ours to count: the
		 * last ones may be ending (they sent the master their last
		 * message, and the master is gone).  Halting now would have
		 * their pvmd kill them (issue 11: s390x workers ended with
		 * status -1 after `continue all`); plain PVM never halts. */
		d->idle_at = now + (uint64_t)DMN_PVM_IDLE_MS * 1000000u;
		dmn_log(DMN_INFO, "session %llu: nothing runs here; halting "
		        "pvmd %ld in %d ms (tasks of other hosts may be "
		        "ending)", (unsigned long long)s->id, (long)d->pid,
		        DMN_PVM_IDLE_MS);
		dmn_work_reap_soon(w);
		return;
	}
	if (d->idle_at != 0 && now < d->idle_at)
		return; /* dmn_pvm_poll comes back */
	dmn_log(DMN_INFO, "session %llu: nothing runs; halting pvmd %ld",
	        (unsigned long long)s->id, (long)d->pid);
	kill(d->pid, SIGTERM);
	d->halt_at = wire_now_ns() + (uint64_t)DMN_PVMD_HALT_MS * 1000000u;
	dmn_work_reap_soon(w);
}

void dmn_pvm_poll(dmn_work *w, dmn_sess *s)
{
	dmn_pvmd *d = s->pvmd;
	int st = 0;

	if (d == NULL)
		return;
	if (d->idle_at != 0 && d->halt_at == 0) {
		if (s->nprocs > 0)
			d->idle_at = 0; /* a new run: the wait starts again */
		else if (wire_now_ns() >= d->idle_at)
			dmn_pvm_idle(w, s);
	}
	if (d->pid == 0 && d->pgid > 0) {
		/* a slave pvmd after its fork: alive while its group is */
		if (kill(-d->pgid, 0) == 0 || errno != ESRCH)
			return;
		dmn_log(DMN_INFO, "session %llu: host pvmd %ld ended (its "
		        "virtual machine halted)", (unsigned long long)s->id,
		        (long)d->pgid);
		d->pgid = 0;
		dmn_pvmd_gone(w, s);
		dmn_work_sess_check(w, s);
		return;
	}
	if (d->pid > 0 && waitpid(d->pid, &st, WNOHANG) != d->pid) {
		if (d->halt_at != 0 && wire_now_ns() > d->halt_at) {
			dmn_log(DMN_WARN, "session %llu: pvmd %ld did not halt "
			        "in time: killed", (unsigned long long)s->id,
			        (long)d->pid);
			kill(-d->pid, SIGKILL);
		}
		return;
	}
	if (d->slave) {
		dmn_rexec_exited(w, d, st);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
		    kill(-d->pid, 0) == 0) {
			/* pvmd -s forks once started and the parent exits
			 * 0; the child keeps our process group */
			d->pgid = d->pid;
			d->pid = 0;
			return;
		}
	} else if (d->halt_at == 0)
		dmn_log(DMN_WARN, "session %llu: pvmd %ld ended by itself",
		        (unsigned long long)s->id, (long)d->pid);
	dmn_pvmd_gone(w, s);
	dmn_work_sess_check(w, s);
}

void dmn_pvm_stop(dmn_work *w, dmn_sess *s)
{
	dmn_pvmd *d = s->pvmd;
	int waited;

	if (d == NULL)
		return;
	if (d->pid > 0) {
		if (d->halt_at == 0)
			kill(d->pid, SIGTERM);
		for (waited = 0; waited < DMN_PVMD_HALT_MS; waited += 10) {
			if (waitpid(d->pid, NULL, WNOHANG) == d->pid)
				break;
			dmn_pvm_nap(10);
		}
		if (waited >= DMN_PVMD_HALT_MS) {
			kill(-d->pid, SIGKILL);
			waitpid(d->pid, NULL, 0);
		}
	} else if (d->pgid > 0) {
		kill(-d->pgid, SIGTERM);
		for (waited = 0; waited < DMN_PVMD_HALT_MS; waited += 10) {
			if (kill(-d->pgid, 0) != 0)
				break;
			dmn_pvm_nap(10);
		}
	}
	dmn_pvmd_gone(w, s);
}

/* ---- RUN pvm / mpi ------------------------------------------------------- */

/* Appends the RUN arguments from index from on. */
static void dmn_pvm_args(dmn_argv *a, const msgpack_object *args,
                         uint32_t from)
{
	char item[WIRE_TEXT_MAX];
	uint32_t i;

	for (i = from; i < args->via.array.size; i++) {
		if (wire_strv_get(args, i, item, sizeof item) != 0)
			a->full = 1;
		else
			dmn_argv_addf(a, "%s", item);
	}
}

/* Path of the runtime's shared library name (libparavt_mpi.so ...) of
 * this daemon's port into buf.  0, or -1 with err when it is missing. */
static int dmn_pvm_preload(dmn_work *w, const char *name, char *buf,
                           size_t cap, char *err, size_t errlen)
{
	if (dmn_pathf(buf, cap, "%s/lib/%s", w->port.rt_dir, name) == 0 &&
	    access(buf, R_OK) == 0)
		return 0;
	snprintf(err, errlen, "RUN --exec: %s/lib/%s is missing on node %s "
	         "(it traces a program built elsewhere)", w->port.rt_dir, name,
	         w->srv->hello.node);
	return -1;
}

/* Writes s's MPI hostfile (this host's address self, then each extra host
 * of the run, one slot each) and the rsh agent files into dir.  0 or -1
 * (errno). */
static int dmn_mpi_hostfile(dmn_work *w, dmn_sess *s, const char *dir,
                            const char *self)
{
	char path[DMN_PATH_MAX + 16];
	FILE *f;
	int i, rc;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof path, "%s/hostfile", dir);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fprintf(f, "# paravtd: the nodes of run %llu\n%s slots=1\n",
	        (unsigned long long)s->run, self);
	for (i = 0; i < s->nhosts; i++)
		if (s->hosts[i].run == s->run)
			fprintf(f, "%s slots=1\n", s->hosts[i].ip);
	rc = ferror(f);
	if (fclose(f) != 0 || rc)
		return -1;
	return dmn_pvm_rsh_files(w, s, dir);
}

/* The part of mpirun's command line paravt adds for several hosts:
 * hostfile, its own rsh agent, no tree spawn.  Sets *dir's files.  0, or
 * -1 with err. */
static int dmn_mpi_hosts(dmn_work *w, dmn_sess *s, dmn_argv *a, char *dir,
                         size_t cap, char *err, size_t errlen)
{
	char self[64];

	if (dmn_conn_local_ip(w->srv->controller, self, sizeof self) != 0) {
		snprintf(err, errlen, "RUN mpi with other nodes: this daemon's "
		         "address toward the console is not IPv4");
		return -1;
	}
	if (dmn_pathf(dir, cap, "%s/mpi-%llu", s->dir,
	              (unsigned long long)s->run) != 0 ||
	    dmn_mpi_hostfile(w, s, dir, self) != 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	dmn_argv_add(a, "--hostfile");
	dmn_argv_addf(a, "%s/hostfile", dir);
	dmn_argv_add(a, "--mca");
	dmn_argv_add(a, "plm_rsh_agent");
	dmn_argv_addf(a, "%s/rsh", dir);
	dmn_argv_add(a, "--mca");
	dmn_argv_add(a, "plm_rsh_no_tree_spawn");
	dmn_argv_add(a, "1");
	return 0;
}

/* mpirun's command line for q into a, its environment additions into e
 * (PATH first holding the build when other hosts run it by name,
 * PARAVT_RSH_CONF for the agent, DMN_MPI_PAIR unless the run sets it).
 * 0, or -1 with err. */
static int dmn_mpi_argv(dmn_work *w, dmn_sess *s, const dmn_runreq *q,
                        dmn_argv *a, dmn_argv *e, char *err, size_t errlen)
{
	char item[WIRE_TEXT_MAX], dir[DMN_PATH_MAX], lib[DMN_PATH_MAX];
	const char *path = getenv("PATH");
	int extra = dmn_pvm_nhosts(s), pair = 1;
	uint32_t i;

	dmn_argv_add(a, "mpirun");
	dmn_argv_add(a, "--allow-run-as-root");
	dmn_argv_add(a, "--oversubscribe");
	dmn_argv_add(a, "--tag-output"); /* each line names its rank */
	if (extra > 0 && dmn_mpi_hosts(w, s, a, dir, sizeof dir, err,
	                               errlen) != 0)
		return -1;
	if (extra > 0)
		dmn_argv_addf(e, "PARAVT_RSH_CONF=%s/rsh.conf", dir);
	if (extra > 0 && q->exec[0] == '\0') /* the build, by name */
		dmn_argv_addf(e, "PATH=%s%s%s", q->dir, path ? ":" : "",
		              path ? path : "");
	dmn_argv_add(a, "-x");
	dmn_argv_add(a, "PARAVT_SESSION");
	for (i = 0; i < q->env->via.array.size; i++)
		if (wire_strv_get(q->env, i, item, sizeof item) == 0) {
			dmn_argv_add(a, "-x");
			dmn_argv_addf(a, "%.*s", (int)strcspn(item, "="), item);
			if (strncmp(item, DMN_MPI_PAIR "=",
			            sizeof DMN_MPI_PAIR) == 0)
				pair = 0; /* the run's own setting */
		}
	if (pair) { /* every rank runs the wrappers (pvt_mpi_cal.c) */
		dmn_argv_addf(e, "%s=1", DMN_MPI_PAIR);
		dmn_argv_add(a, "-x");
		dmn_argv_add(a, DMN_MPI_PAIR);
	}
	if (q->exec[0] != '\0') {
		if (dmn_pvm_preload(w, "libparavt_mpi.so", lib, sizeof lib,
		                    err, errlen) != 0)
			return -1;
		dmn_argv_add(a, "-x");
		dmn_argv_addf(a, "LD_PRELOAD=%s", lib);
	}
	dmn_pvm_args(a, q->launch, 0);
	dmn_argv_add(a, extra > 0 && q->exec[0] == '\0' ? q->prog : q->path);
	dmn_pvm_args(a, q->args, 0);
	return 0;
}

/* The PVM master's environment for --exec: LD_PRELOAD of the PVM wrappers
 * and PVM_EXPORT naming it, so tasks it spawns are traced too.  0, or -1
 * with err. */
static int dmn_pvm_exec_env(dmn_work *w, dmn_argv *e, char *err,
                            size_t errlen)
{
	const char *ex = getenv("PVM_EXPORT");
	char lib[DMN_PATH_MAX];

	if (dmn_pvm_preload(w, "libparavt_pvm.so", lib, sizeof lib, err,
	                    errlen) != 0)
		return -1;
	dmn_argv_addf(e, "LD_PRELOAD=%s", lib);
	dmn_argv_addf(e, "PVM_EXPORT=LD_PRELOAD%s%s", ex && *ex ? ":" : "",
	              ex && *ex ? ex : "");
	return 0;
}

int dmn_pvm_run(dmn_work *w, dmn_proc *p, const dmn_runreq *q, char *err,
                size_t errlen)
{
	dmn_sess *s = p->sess;
	char *env[2 * DMN_PVM_ENV + DMN_RUN_ENV + 8], dbuf[64];
	int pvm = strcmp(q->kind, "pvm") == 0, k = 0, n, rc = -1;
	dmn_spawn_req r;
	dmn_argv a, e;

	if (!w->port.native) {
		snprintf(err, errlen, "RUN %s: only on native ports for now "
		         "(this daemon is %s)", q->kind, w->port.name);
		return -1;
	}
	if (dmn_task_session_listen(w, s, err, errlen) != 0)
		return -1;
	s->run = p->run;
	if (pvm && s->pvmd != NULL && s->pvmd->slave) {
		snprintf(err, errlen, "RUN pvm: this node is a host of another "
		         "node's virtual machine now");
		return -1;
	}
	if (pvm && dmn_pvmd_ensure(w, s, q->dir, q->build, err, errlen) != 0)
		return -1;
	dmn_argv_init(&a);
	dmn_argv_init(&e);
	dmn_argv_addf(&e, "PARAVT_SESSION=%s", s->token);
	dmn_argv_addf(&e, "PARAVT_SESSION_DIR=%s",
	              dmn_task_session_dir(dbuf, sizeof dbuf));
	if (pvm) {
		dmn_argv_addf(&e, "PARAVT_SOCK=%s", s->sock);
		dmn_argv_addf(&e, "PARAVT_PROC=%llu",
		              (unsigned long long)p->num);
	}
	if (pvm && q->exec[0] != '\0' &&
	    dmn_pvm_exec_env(w, &e, err, errlen) != 0)
		goto out_free;
	if (pvm) {
		dmn_argv_add(&a, q->path);
		dmn_pvm_args(&a, q->args, 0);
	} else if (dmn_mpi_argv(w, s, q, &a, &e, err, errlen) != 0) {
		goto out_free;
	} else if (dmn_pvm_nhosts(s) == 0) { /* its files in memory, removed
	                                          when it ends */
		dmn_mpidir_use(p, &e);
	}
	if (dmn_run_env(q, &e, NULL, NULL) != 0)
		e.full = 1;
	for (n = 0; n < e.n && k < DMN_PVM_ENV + DMN_RUN_ENV + 4; n++)
		env[k++] = e.v[n];
	if (pvm)
		k += dmn_pvm_env(w, s, &e, env + k);
	env[k] = NULL;
	if (a.full || e.full) {
		snprintf(err, errlen, "RUN: arguments too long or too many");
		goto out_free;
	}
	memset(&r, 0, sizeof r);
	r.argv = a.v;
	r.dir = q->dir;
	r.env = env;
	r.in_file = q->in_fd >= 0 ? &q->in_fd : NULL;
	p->pid = dmn_spawn(&r, p->fd, err, errlen);
	rc = p->pid < 0 ? -1 : 0;
	if (rc == 0)
		dmn_log(DMN_INFO, "session %llu: %s run %llu, PARAVT_SESSION=%s"
		        "%s%s", (unsigned long long)s->id, q->kind,
		        (unsigned long long)p->run, s->token,
		        q->exec[0] ? ", --exec " : "", q->exec);
out_free:
	dmn_argv_free(&a);
	dmn_argv_free(&e);
	return rc;
}
