/*
 * sigerrno_probe.c — whether errno survives a signal handler that
 * changes it, as pvmd's SIGCHLD handler does (wrappers/pvt_sigerrno.c).
 *
 * Handlers are installed with signal(), as pvmd installs them.  Three
 * checks, one line each on stdout:
 *   raise:    errno = EINTR, raise(SIGUSR1), whose handler sets ECHILD;
 *   sigchld:  errno = EINTR, a child exits, the SIGCHLD handler reaps
 *             with waitpid until it fails (ECHILD), the main line spins
 *             (no system call) until the handler has run;
 *   child:    what a program this one starts sees of LD_PRELOAD.
 * "kept" or "changed to N" per check; exit 0 when both were kept.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t reaped;

static void on_usr1(int sig)
{
	(void)sig;
	errno = ECHILD;
}

static void on_chld(int sig)
{
	int st;

	(void)sig;
	while (waitpid(-1, &st, WNOHANG) > 0)
		reaped++;
}

/* Prints what became of errno, set to EINTR before; 1 if kept. */
static int report(const char *what, int e)
{
	if (e == EINTR) {
		printf("%s: kept\n", what);
		return 1;
	}
	printf("%s: changed to %d\n", what, e);
	return 0;
}

int main(void)
{
	int ok = 1, e;
	time_t t0;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (signal(SIGUSR1, on_usr1) == SIG_ERR ||
	    signal(SIGCHLD, on_chld) == SIG_ERR) {
		perror("signal");
		return 2;
	}
	errno = EINTR;
	raise(SIGUSR1);
	e = errno;
	ok &= report("raise", e);

	if ((pid = fork()) < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0)
		_exit(0);
	t0 = time(NULL);
	errno = EINTR;
	while (!reaped && time(NULL) - t0 < 10) /* bounded: 10 s */
		;
	e = errno;
	if (!reaped) {
		printf("sigchld: no SIGCHLD within 10 s\n");
		return 2;
	}
	ok &= report("sigchld", e);

	fflush(stdout);
	if (system("echo \"child: LD_PRELOAD=${LD_PRELOAD:-unset}\"") != 0)
		printf("child: could not run sh\n");
	return ok ? 0 : 1;
}
