/*
 * rt_start.c — the program start and exit templates (paravt_rt.h).
 *
 * para_vt_start() is the first statement of main.  Without PARAVT_SOCK in
 * the environment (the program was not started by paravtd) it does
 * nothing at all and every other template returns at once.  Under paravtd
 * it connects to the daemon (rt_chan.c), registers the exit handler and
 * installs the crash handler (rt_crash.c).  If the daemon cannot be
 * reached the task prints one warning and runs on unattached: a debugger
 * that fails must not stop the program it was asked to watch.
 *
 * para_vt_exit() is called before main returns and again from atexit();
 * it flushes what is queued and closes the connection (the daemon learns
 * the exit status from waitpid).  It is idempotent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "paravt_rt.h"
#include "rt_core.h"
#include "rt_event.h"
#include "td_node.h"

/* The exit handler registered with atexit(). */
static void rt_atexit(void)
{
	para_vt_exit(0);
}

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

/* Program start template (paravt_rt.h). */
void para_vt_start(void)
{
	static int started;
	const char *sock = getenv("PARAVT_SOCK");
	char err[400];
	uint64_t proc;

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
	(void)atexit(rt_atexit);
	/* Without the handler a crash is still seen by the daemon through
	 * waitpid, only without the location: not worth detaching for. */
	(void)pvt__rt_crash_install();
	(void)pvt__ev_init(NULL); /* trace from the start: PROG_START */
}

/* Program exit template (paravt_rt.h). */
void para_vt_exit(int status)
{
	(void)status;
	if (pvt__rt_peer() == NULL)
		return;
	pvt__ev_exit(status); /* PROG_EXIT and the last records */
	pvt__rt_close();
	td_probe_close();
}
