/*
 * dmn_spawn.c — argument vectors and fork/exec of children (dmn_spawn.h).
 *
 * Layout: the argument vector helpers, then the child side (what runs
 * between fork and exec: only simple calls), then dmn_spawn itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn_sched.h"
#include "dmn_spawn.h"

/* ---- argument vectors ---------------------------------------------------- */

void dmn_argv_init(dmn_argv *a)
{
	memset(a, 0, sizeof *a);
}

void dmn_argv_free(dmn_argv *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->own[i])
			free(a->v[i]);
	dmn_argv_init(a);
}

const char *dmn_argv_text(const dmn_argv *a, char *buf, size_t cap)
{
	size_t len = 0;
	int i, k;

	buf[0] = '\0';
	for (i = 0; i < a->n && len + 1 < cap; i++) {
		k = snprintf(buf + len, cap - len, "%s%s", i ? " " : "",
		             a->v[i]);
		if (k < 0)
			break;
		len += (size_t)k;
	}
	return buf;
}

/* Appends one word; own says whether the vector frees it. */
static void dmn_argv_put(dmn_argv *a, char *s, int own)
{
	if (s == NULL || a->n >= DMN_ARGV_MAX) {
		a->full = 1;
		if (own)
			free(s);
		return;
	}
	a->v[a->n] = s;
	a->own[a->n] = (unsigned char)own;
	a->n++;
	a->v[a->n] = NULL;
}

void dmn_argv_add(dmn_argv *a, const char *s)
{
	dmn_argv_put(a, (char *)s, 0);
}

void dmn_argv_addv(dmn_argv *a, char *const *w)
{
	for (; w != NULL && *w != NULL; w++)
		dmn_argv_add(a, *w);
}

void dmn_argv_addf(dmn_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (s != NULL) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	dmn_argv_put(a, s, 1);
}

/* ---- child side ---------------------------------------------------------- */

int dmn_fd_prepare(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0)
		return -1;
	return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Writes a sentence to stderr (already the pipe) without stdio. */
static void dmn_child_say(const char *a, const char *b, const char *c)
{
	const char *p[3];
	int i;

	p[0] = a, p[1] = b, p[2] = c;
	for (i = 0; i < 3; i++)
		if (write(2, p[i], strlen(p[i])) < 0)
			return;
}

/* Closes every descriptor above 2 (ours must not leak into user code). */
static void dmn_child_close_fds(void)
{
	long max = sysconf(_SC_OPEN_MAX);
	long fd;

	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = 3; fd < max; fd++)
		close((int)fd);
}

/* In the child: plumbing, environment, directory, then exec.  Never
 * returns. */
static void dmn_child(const dmn_spawn_req *r, int po[2], int pe[2],
                      int pi[2])
{
	struct sigaction sa;
	char *const *e;
	int null;

	setpgid(0, 0);
	(void)dmn_sched_child(); /* the policy paravtd had, not its own */
	null = r->in != NULL ? pi[0] :
	       r->in_file != NULL ? dup(*r->in_file) :
	       open("/dev/null", O_RDONLY);
	if (null >= 0 && null != 0) {
		dup2(null, 0);
		close(null);
	}
	dup2(po[1], 1);
	dup2(r->merge ? po[1] : pe[1], 2);
	dmn_child_close_fds();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	for (e = r->env; e != NULL && *e != NULL; e++)
		putenv(*e);
	if (r->dir != NULL && chdir(r->dir) != 0) {
		dmn_child_say("paravtd: cannot enter ", r->dir, "\n");
		_exit(127);
	}
	execvp(r->argv[0], r->argv);
	dmn_child_say("paravtd: cannot run ", r->argv[0], ": ");
	dmn_child_say(strerror(errno), "\n", "");
	_exit(127);
}

/* ---- parent side --------------------------------------------------------- */

/* Closes the descriptors of a pipe pair that are open. */
static void dmn_pipe_close(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

pid_t dmn_spawn(const dmn_spawn_req *r, int out[2], char *err, size_t errlen)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, pi[2] = {-1, -1};
	pid_t pid;

	out[0] = out[1] = -1;
	if (pipe(po) != 0 || (!r->merge && pipe(pe) != 0) ||
	    (r->in != NULL && pipe(pi) != 0)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		goto out_close;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		goto out_close;
	}
	if (pid == 0)
		dmn_child(r, po, pe, pi);
	setpgid(pid, pid); /* also here: no race with an early kill */
	close(po[1]);
	if (r->in != NULL) {
		close(pi[0]);
		*r->in = pi[1];
		dmn_fd_prepare(pi[1]);
	}
	out[0] = po[0];
	dmn_fd_prepare(out[0]);
	if (!r->merge) {
		close(pe[1]);
		out[1] = pe[0];
		dmn_fd_prepare(out[1]);
	}
	return pid;
out_close:
	dmn_pipe_close(po);
	dmn_pipe_close(pe);
	dmn_pipe_close(pi);
	return -1;
}
