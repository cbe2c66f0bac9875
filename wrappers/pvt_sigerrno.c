/*
 * pvt_sigerrno.c — libparavt_sigerrno.so: the signal handlers of a
 * program that does not save errno in them keep it anyway.  paravtd
 * loads it into the pvmd it runs under an emulator (dmn_rexec.c), and
 * the tests into theirs (tests/pvm/pvm-cluster.sh).
 *
 * Why: PVM 3.4's pvmd reaps its children in a SIGCHLD handler that calls
 * waitpid until it fails, which leaves errno at ECHILD, and its main loop
 * stops the host (pvml: "work() select: No child processes", then
 * pvmbailout) when select fails with any errno but EINTR.  A SIGCHLD that
 * arrives after select has failed with EINTR and before pvmd reads errno
 * turns EINTR into ECHILD.  Natively that window is a few instructions;
 * under qemu-user, which runs a guest's handler only between translated
 * blocks, it is wide enough to stop an emulated host about once in a
 * thousand interrupted selects (tests/integration/97-sigerrno.sh).
 *
 * Loaded with LD_PRELOAD (qemu's -E, so that the emulator itself does not
 * load it), it defines signal(): a handler installed through it runs
 * inside se_call, which saves errno before and restores it after.  The
 * semantics are glibc's signal(): the signal blocked while its handler
 * runs, interrupted calls restarted (SA_RESTART).  sigaction() is not
 * replaced (pvmd uses signal() only).  At load it removes LD_PRELOAD from
 * the environment, so the programs the pvmd starts do not inherit it.
 *
 * C99 + POSIX; a shared object for Linux ports (wrappers/module.mk).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef void (*se_handler)(int);

/* The program's handler of each signal installed through signal(). */
static se_handler volatile se_user[NSIG];

/* Runs the program's handler of sig, keeping errno. */
static void se_call(int sig)
{
	int saved = errno;
	se_handler h = se_user[sig];

	if (h != NULL && h != SIG_DFL && h != SIG_IGN)
		h(sig);
	errno = saved;
}

/* signal(3), with errno kept across the handler. */
se_handler signal(int sig, se_handler h)
{
	struct sigaction sa, old;
	se_handler prev;

	if (sig <= 0 || sig >= NSIG || h == SIG_ERR) {
		errno = EINVAL;
		return SIG_ERR;
	}
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = h == SIG_DFL || h == SIG_IGN ? h : se_call;
	prev = se_user[sig];
	se_user[sig] = h; /* before the handler can run */
	if (sigaction(sig, &sa, &old) != 0) {
		se_user[sig] = prev;
		return SIG_ERR;
	}
	return old.sa_handler == se_call ? prev : old.sa_handler;
}

#if defined(__GNUC__) || defined(__clang__)
/* The pvmd's children must not load it (nor a host program an
 * emulated one starts, to which it would be the wrong kind of file). */
__attribute__((constructor)) static void se_init(void)
{
	(void)unsetenv("LD_PRELOAD");
}
#endif
