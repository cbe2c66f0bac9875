/*
 * con_batch_progress.c — what an unattended `paravt trace` run needs
 * around the console's commands (con_batch.c): the progress line on the
 * last line of the terminal, drawn by a wait watcher that also ends the
 * wait at the time limit; stdout and stderr wrapped so that output first
 * erases that line; the SIGALRM that keeps a stalled reader of stdout
 * from holding the run past its limit; SIGINT and SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "con_batch_int.h"
#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "con_tfile.h"
#include "wire.h"

#define CON_BATCH_DRAW_NS 500000000ull   /* progress refresh, ns */

/* ---- progress line and time limit --------------------------------------- */

/* Erases the progress line if it is drawn. */
static void con_batch_erase(void)
{
	if (!con_batch.drawn)
		return;
	con_batch.drawn = 0;
	if (write(STDERR_FILENO, "\r\033[K", 4) < 0)
		return;
}

/* Number of processes the console knows. */
int con_batch_nprocs(void)
{
	con_proc *p;
	int n = 0;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		n++;
	return n;
}

/* Seconds since the run started. */
double con_batch_elapsed(void)
{
	return con_batch.t0 == 0 ? 0 :
	       (double)(wire_now_ns() - con_batch.t0) / 1e9;
}

/* Draws "[paravt] N events  M procs  T s" over the last line. */
static void con_batch_draw(void)
{
	char line[160];
	int n;

	n = snprintf(line, sizeof line, "\r[paravt] %llu events  %d procs  "
		     "%.1f s\033[K", (unsigned long long)con_ev_next(),
		     con_batch_nprocs(), con_batch_elapsed());
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) == n)
		con_batch.drawn = 1;
}

static void con_batch_late_output(void);

/* The watcher: redraws the progress line about twice a second, flushes
 * the trace file, and ends the wait once when the time limit passes. */
int con_batch_watch(void *ctx, char *why, size_t whylen)
{
	uint64_t now = wire_now_ns();

	(void)ctx;
	if (now - con_batch.last_draw >= CON_BATCH_DRAW_NS) {
		con_batch.last_draw = now;
		con_tfile_flush();
		if (con_batch.progress)
			con_batch_draw();
	}
	if (con_batch.limit > 0 && !con_batch.timed_out &&
	    con_batch.t0 != 0 && con_batch_elapsed() >= con_batch.limit) {
		con_batch.timed_out = 1;
		con_batch_late_output();
		snprintf(why, whylen, "time limit of %g s reached",
			 con_batch.limit);
		return 1;
	}
	return 0;
}

/* Write function of the wrapped stdout/stderr: erase the progress line,
 * then write to the file descriptor in cookie. */
static ssize_t con_batch_write(void *cookie, const char *buf, size_t n)
{
	int fd = (int)(intptr_t)cookie;
	size_t done = 0;
	ssize_t w;

	con_batch_erase();
	while (done < n) {
		w = write(fd, buf + done, n - done);
		if (w < 0 && errno == EINTR && !con_batch.timed_alarm)
			continue;
		if (w < 0)
			return done > 0 ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)n;
}

/* A stream on fd through con_batch_write, with buffering mode, or NULL. */
static FILE *con_batch_wrap(int fd, int mode)
{
	cookie_io_functions_t io = {NULL, con_batch_write, NULL, NULL};
	FILE *f = fopencookie((void *)(intptr_t)fd, "w", io);

	if (f != NULL)
		setvbuf(f, NULL, mode, BUFSIZ);
	return f;
}

/* Turns the progress line on when stderr is a terminal (and it was not
 * refused), with stdout and stderr wrapped. */
void con_batch_progress_on(int no_progress)
{
	FILE *out, *err;

	if (no_progress || !isatty(STDERR_FILENO))
		return;
	fflush(stdout);
	fflush(stderr);
	out = isatty(STDOUT_FILENO) ? con_batch_wrap(STDOUT_FILENO, _IOLBF) :
	      NULL;
	err = con_batch_wrap(STDERR_FILENO, _IONBF);
	if (err == NULL || (isatty(STDOUT_FILENO) && out == NULL)) {
		if (out != NULL)
			fclose(out);
		if (err != NULL)
			fclose(err);
		return;
	}
	con_batch.out = out != NULL ? stdout : NULL;
	con_batch.err = stderr;
	if (out != NULL)
		stdout = out;
	stderr = err;
	con_batch.progress = 1;
}

/* Erases the line and puts the real streams back. */
void con_batch_progress_off(void)
{
	if (!con_batch.progress)
		return;
	con_batch.progress = 0;
	if (con_batch.out != NULL) {
		fclose(stdout);
		stdout = con_batch.out;
	}
	fclose(stderr);
	stderr = con_batch.err;
	con_batch_erase();
}


/* ---- signals ---------------------------------------------------------- */

/* SIGINT / SIGTERM: the waits end (they see intr); the run is ended as
 * interrupted. */
static void con_batch_on_signal(int sig)
{
	(void)sig;
	con_batch.intr = 1;
	con_batch.signal = 1;
}

/* Installs the signal handlers and the interrupt flag. */
void con_batch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = con_batch_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	con_dbg_set_interrupt(&con_batch.intr);
}

/* The time limit passed: output that stdout does not take at once is
 * dropped from now on (counted), so that a reader that stopped reading
 * cannot hold the run, or its kill, past the limit: stdout (not a
 * terminal) becomes non-blocking until paravt trace ends.
 * Async-signal-safe. */
static void con_batch_late_output(void)
{
	int fl;

	con_cmd_dbg_past_limit();
	if (!con_batch.out_pipe || con_batch.out_nb)
		return;
	fl = fcntl(1, F_GETFL);
	if (fl < 0 || (fl & O_NONBLOCK))
		return;
	con_batch.out_flags = fl;
	if (fcntl(1, F_SETFL, fl | O_NONBLOCK) == 0)
		con_batch.out_nb = 1;
}

/* Puts stdout's flags back. */
void con_batch_output_restore(void)
{
	if (con_batch.out_nb)
		(void)fcntl(1, F_SETFL, con_batch.out_flags);
	con_batch.out_nb = 0;
}

/* SIGALRM at the time limit: interrupts a write the console may be
 * blocked in (a reader that stopped reading its output) and has the
 * rest of the program's output printed only when stdout takes it
 * (con_cmd_dbg_past_limit), so the run still ends at its limit. */
static void con_batch_on_alarm(int sig)
{
	(void)sig;
	con_batch.timed_alarm = 1;
	con_batch_late_output();
}

/* Arms the one SIGALRM (no SA_RESTART: a blocked write returns) at
 * limit seconds from now, 0: none. */
void con_batch_alarm(double limit)
{
	struct sigaction sa;
	struct itimerval it;

	if (limit <= 0)
		return;
	con_batch.out_pipe = !isatty(1);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = con_batch_on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = (time_t)limit;
	it.it_value.tv_usec = (suseconds_t)((limit - (double)(time_t)limit) *
					    1e6) + 1;
	setitimer(ITIMER_REAL, &it, NULL);
}
