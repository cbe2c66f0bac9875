/*
 * rt_sigsafe.c — the two helpers that signal handlers of the runtime share
 * (the crash report in rt_crash.c and the crash flush of buffered events
 * in rt_event.c): a msgpack writer into a fixed buffer and a bounded
 * sender that uses only send() and poll(), both async-signal-safe.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "rt_core.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

/* msgpack write callback into an pvt__rt_fixbuf; -1 when full. */
int pvt__rt_fix_write(void *data, const char *buf, size_t len)
{
	pvt__rt_fixbuf *f = data;

	if (len > f->cap - f->len)
		return -1;
	memcpy(f->data + f->len, buf, len);
	f->len += len;
	return 0;
}

/* Writes n bytes to fd, waiting at most about a second in total.  0 or
 * -1. */
int pvt__rt_sigsafe_send(int fd, const char *p, size_t n)
{
	struct pollfd pfd;
	int waits = 0;
	ssize_t w;

	while (n > 0) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) ||
		    ++waits > 10)
			return -1;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		(void)poll(&pfd, 1, 100);
	}
	return 0;
}
