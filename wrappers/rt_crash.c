/*
 * rt_crash.c — the crash handler of an attached task (rt_core.h).
 *
 * On SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT the task tells its daemon
 * where it was — TASK_CRASH(proc, signal, file, line, func, stack) with
 * the last known location and the shadow stack — and then dies of the same
 * signal, exactly as it would have without paravt (the daemon sees the
 * signal through waitpid, the shell prints "Segmentation fault").
 *
 * The handler runs on an alternate stack (a stack overflow is a SIGSEGV
 * too) and is installed with SA_RESETHAND, so a fault inside the handler
 * kills the task at once.  It only uses async-signal-safe means: the frame
 * is packed with msgpack-c's inline packer into a static buffer (no
 * allocation), written with send() and poll(); complete frames still
 * queued for the daemon go first (a frame being packed when the crash
 * came, e.g. an abort in malloc on a corrupted heap, is dropped).  It is best
 * effort: a frame that does not fit or a socket that does not drain within
 * about a second is given up.  Afterwards the signal is raised again: it is
 * blocked while the handler runs, so it is delivered, with the default action
 * restored, as soon as the handler returns (a faulting instruction would also
 * fault again).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rt_core.h"
#include "rt_event.h"
#include "wire_msg.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

/* Frames of the stack and bytes of a name that a crash report carries. */
#define RT_CRASH_FRAMES 64
#define RT_CRASH_STR 200

/* Size of the alternate signal stack (fixed: SIGSTKSZ is not a constant
 * on every system). */
#define RT_ALTSTACK_SIZE 65536


/* The signals handled. */
static const int rt_crash_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* Signals that end a process without a fault, caught when at their
 * default action. */
static const int rt_term_sigs[] = {
	SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
#ifdef SIGXCPU
	SIGXCPU,
#endif
#ifdef SIGXFSZ
	SIGXFSZ,
#endif
#ifdef SIGVTALRM
	SIGVTALRM,
#endif
#ifdef SIGPROF
	SIGPROF,
#endif
};

/* Alternate stack and the frame being built; static so that a crash
 * needs no memory. */
static char rt_altstack[RT_ALTSTACK_SIZE];
static char rt_crash_frame[RT_CRASH_FRAMES * (2 * RT_CRASH_STR + 16) + 1024];

/* Packs a string cut at RT_CRASH_STR bytes (NULL as ""). */
static int rt_crash_str(msgpack_packer *pk, const char *s)
{
	size_t n = 0;

	if (s == NULL)
		s = "";
	while (n < RT_CRASH_STR && s[n] != '\0')
		n++;
	return msgpack_pack_str_with_body(pk, s, n);
}

/* Builds the TASK_CRASH frame for sig in rt_crash_frame.  Its length, or
 * 0 if it does not fit. */
static size_t rt_crash_build(const wire_peer *p, int sig)
{
	pvt__rt_fixbuf f = {rt_crash_frame, sizeof rt_crash_frame, 4};
	pvt__rt_loc last = pvt__rt_stack_last();
	msgpack_packer pk;
	size_t len;

	msgpack_packer_init(&pk, &f, pvt__rt_fix_write);
	if (msgpack_pack_array(&pk, 8) ||
	    msgpack_pack_uint32(&pk, WIRE_TASK_CRASH) ||
	    msgpack_pack_uint32(&pk, p->seq + 1) ||
	    msgpack_pack_uint64(&pk, pvt__rt_proc()) ||
	    msgpack_pack_int(&pk, sig) || rt_crash_str(&pk, last.file) ||
	    msgpack_pack_uint32(&pk, last.line > 0 ? (uint32_t)last.line : 0) ||
	    rt_crash_str(&pk, last.func) ||
	    pvt__rt_stack_pack(&pk, RT_CRASH_FRAMES, RT_CRASH_STR))
		return 0;
	len = f.len - 4;
	rt_crash_frame[0] = (char)(len >> 24);
	rt_crash_frame[1] = (char)(len >> 16);
	rt_crash_frame[2] = (char)(len >> 8);
	rt_crash_frame[3] = (char)len;
	return f.len;
}

/* In a signal handler: sends the whole frames still queued (a half-packed
 * one, from a signal inside the runtime, is dropped), then the buffered
 * events and a CRASH event; with frame, also the CRASH frame (a fault).
 * Errno is kept. */
static void rt_crash_report(int sig, int frame)
{
	int saved = errno, fd = pvt__rt_fd();
	const wire_peer *p = pvt__rt_peer_sigsafe();
	size_t n;

	if (fd >= 0 && p != NULL) {
		n = pvt__rt_building() ? 0 : wire_buf_used(&p->out);
		if (n == 0 ||
		    pvt__rt_sigsafe_send(fd, wire_buf_head(&p->out), n) == 0) {
			pvt__ev_crash(sig); /* buffered events, then CRASH */
			n = frame ? rt_crash_build(p, sig) : 0;
			if (n > 0)
				(void)pvt__rt_sigsafe_send(fd, rt_crash_frame, n);
		}
	}
	errno = saved;
}

/* The handler of a fault: report, then let the signal kill the task. */
static void rt_crash_handler(int sig)
{
	rt_crash_report(sig, 1);
	(void)raise(sig);
}

/* The handler of a terminating signal: the events and a CRASH event,
 * then the signal with its default action. */
static void rt_term_handler(int sig)
{
	rt_crash_report(sig, 0);
	(void)raise(sig); /* SA_RESETHAND: the default action */
}

/* Catches the terminating signals still at their default action. */
static void rt_term_install(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = rt_term_handler;
	sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof rt_term_sigs / sizeof rt_term_sigs[0]; i++)
		if (sigaction(rt_term_sigs[i], NULL, &old) == 0 &&
		    !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			(void)sigaction(rt_term_sigs[i], &sa, NULL);
}

/* See rt_core.h. */
int pvt__rt_crash_install(void)
{
	struct sigaction sa;
	stack_t ss;
	size_t i;

	memset(&ss, 0, sizeof ss);
	ss.ss_sp = rt_altstack;
	ss.ss_size = sizeof rt_altstack;
	if (sigaltstack(&ss, NULL) != 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = rt_crash_handler;
	sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof rt_crash_sigs / sizeof rt_crash_sigs[0]; i++)
		if (sigaction(rt_crash_sigs[i], &sa, NULL) != 0)
			return -1;
	rt_term_install();
	return 0;
}
