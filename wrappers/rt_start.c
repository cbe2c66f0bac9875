/*
 * rt_start.c — the program start and exit templates (paravt_rt.h).
 *
 * para_vt_start() is the first statement of main.  Without PARAVT_SOCK in
 * the environment (the program was not started by paravtd) it does
 * nothing at all and every other template returns at once.  Under
 * paravt it makes stdout line-buffered (rt_line_buffered).  Under paravtd
 * it connects to the daemon (rt_chan.c), registers the exit handler and
 * installs the crash handler (rt_crash.c).  If the daemon cannot be
 * reached the task prints one warning and runs on unattached: a debugger
 * that fails must not stop the program it was asked to watch.
 *
 * para_vt_exit() is called before main returns (with main's value) and
 * again at exit; it records PROG_EXIT with the status, flushes what is
 * queued and closes the connection.  It is idempotent.  A task the daemon
 * started learns nothing from it (the daemon has waitpid), but a task
 * spawned by pvmd or mpirun is not the daemon's child: PROG_EXIT is how
 * its status is known.  exit(N) called anywhere: on glibc the exit
 * handler is registered with on_exit(), which is given N; elsewhere
 * atexit() is not, and the status is recorded as unknown (-1, never a
 * process's own status).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "paravt_rt.h"
#include "rt_core.h"
#include "rt_event.h"
#include "td_node.h"

#if defined(__GLIBC__)
/* glibc's (declared only with _DEFAULT_SOURCE, which the node side does
 * not define). */
extern int on_exit(void (*fn)(int, void *), void *arg);

/* The exit handler registered with on_exit(): exit's status. */
static void rt_onexit(int status, void *arg)
{
	(void)arg;
	para_vt_exit(status);
}
#else
/* The exit handler registered with atexit(): the status is unknown. */
static void rt_atexit(void)
{
	para_vt_exit(-1);
}
#endif

/* Reads PARAVT_PROC: a decimal number.  0 when unset; -1 when invalid. */
static int rt_parse_proc(uint64_t *proc)
{
	const char *s = getenv("PARAVT_PROC");
	unsigned long long v;
	char *end;

	*proc = 0;
	if (s == NULL || *s == '\0')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || *s == '-' || *s == '+')
		return -1;
	*proc = v;
	return 0;
}

/* Under paravt (PARAVT_SOCK, or PARAVT_SESSION for a task pvmd or
 * mpirun started) stdout is line-buffered, as on a terminal: what a
 * task printed before it crashed or was killed reaches the console
 * (its stdout is a pipe, which stdio would buffer fully).  Once, before
 * main's first output. */
static void rt_line_buffered(void)
{
	static int done;
	const char *sock = getenv("PARAVT_SOCK");
	const char *sess = getenv("PARAVT_SESSION");

	if (done)
		return;
	done = 1;
	if ((sock != NULL && *sock != '\0') || (sess != NULL && *sess != '\0'))
		(void)setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
}

/* Program start template (paravt_rt.h). */
void para_vt_start(void)
{
	static int started;
	const char *sock = getenv("PARAVT_SOCK");
	char err[400];
	uint64_t proc;

	rt_line_buffered();
	if (started || sock == NULL || *sock == '\0')
		return;
	started = 1;
	if (rt_parse_proc(&proc) != 0) {
		fprintf(stderr, "paravt: PARAVT_PROC is not a process number; "
		                "running without paravt\n");
		return;
	}
	if (pvt__rt_connect(sock, proc, err, sizeof err) != 0) {
		fprintf(stderr, "paravt: %s; running without paravt\n", err);
		return;
	}
#if defined(__GLIBC__)
	(void)on_exit(rt_onexit, NULL);
#else
	(void)atexit(rt_atexit);
#endif
	/* Without the handler a crash is still seen by the daemon through
	 * waitpid, only without the location: not worth detaching for. */
	(void)pvt__rt_crash_install();
	(void)pvt__ev_init(NULL); /* trace from the start: PROG_START */
	(void)pvt__bl_start();    /* live breakpoints, when the daemon can */
}

/* Program exit template (paravt_rt.h). */
void para_vt_exit(int status)
{
	if (pvt__rt_peer() == NULL)
		return;
	/* the status a parent sees is the low 8 bits */
	pvt__ev_exit(status == -1 ? -1 : status & 0xff);
	/* stdio flushes after the exit handlers; flushed now, a task whose
	 * output goes through the daemon (rt_core.h) has it all there
	 * before the daemon sees the connection close and reports the end */
	(void)fflush(NULL);
	pvt__rt_close();
	td_probe_close();
}
