/*
 * rt_stall.c — the recording thread's wait for a CPU (rt_stall.h).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_stall.h"

/* The run-queue wait in the schedstat file at fd ("RUN WAIT SLICES"),
 * ns: 0, or -1. */
static int stall_read(int fd, uint64_t *wait)
{
	char b[96], *p;
	ssize_t n = pread(fd, b, sizeof b - 1, 0);

	if (n <= 0)
		return -1;
	b[n] = '\0';
	(void)strtoull(b, &p, 10); /* the time it ran */
	if (p == b || *p != ' ')
		return -1;
	*wait = strtoull(p + 1, NULL, 10);
	return 0;
}

int pvt__stall_open(pvt__stall *s)
{
	s->fd = -1;
#if defined(__linux__)
	s->fd = open("/proc/thread-self/schedstat", O_RDONLY);
#endif
	if (s->fd < 0)
		return -1;
#ifdef FD_CLOEXEC
	(void)fcntl(s->fd, F_SETFD, FD_CLOEXEC);
#endif
	s->owner = pthread_self();
	if (stall_read(s->fd, &s->wait) != 0) {
		pvt__stall_close(s);
		return -1;
	}
	return 0;
}

void pvt__stall_close(pvt__stall *s)
{
	if (s->fd >= 0)
		(void)close(s->fd);
	s->fd = -1;
}

int64_t pvt__stall_main_wait(void)
{
	uint64_t w = 0;
	int fd = -1, ok;

#if defined(__linux__)
	fd = open("/proc/self/schedstat", O_RDONLY);
#endif
	ok = fd >= 0 && stall_read(fd, &w) == 0 && w <= (uint64_t)INT64_MAX;
	if (fd >= 0)
		(void)close(fd);
	return ok ? (int64_t)w : -1;
}

uint64_t pvt__stall_take(pvt__stall *s)
{
	uint64_t w, d;

	if (s->fd < 0 || !pthread_equal(s->owner, pthread_self()) ||
	    stall_read(s->fd, &w) != 0)
		return 0;
	d = w > s->wait ? w - s->wait : 0;
	s->wait = w;
	return d;
}
