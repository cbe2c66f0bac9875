/*
 * con_tcp.c — TCP helpers of the console (con_tcp.h).
 *
 * Connecting is non-blocking: connect() is started, then poll() waits for
 * the socket to become writable until the deadline, and SO_ERROR tells the
 * outcome.  Every address getaddrinfo() returns is tried in turn within the
 * one overall deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "con_tcp.h"
#include "wire.h"
#include "wire_msg.h"

/* Copies n bytes of s into dst (size dstlen) with a NUL; 0 or WIRE_EARG. */
static int con_tcp_copy(char *dst, size_t dstlen, const char *s, size_t n)
{
	if (n + 1 > dstlen)
		return WIRE_EARG;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* Splits at the last colon, or after "]" for a bracketed IPv6 address. */
int con_tcp_split(const char *addr, char *host, size_t hostlen, char *port,
		  size_t portlen, char *err, size_t errlen)
{
	const char *colon, *hend = NULL, *hbeg = addr;
	char *end;
	long num;

	if (addr[0] == '[') {
		hbeg = addr + 1;
		hend = strchr(hbeg, ']');
		colon = hend != NULL && hend[1] == ':' ? hend + 1 : NULL;
	} else {
		colon = strrchr(addr, ':');
		hend = colon;
	}
	if (colon == NULL || hend == hbeg || colon[1] == '\0') {
		snprintf(err, errlen, "bad address '%s': expected HOST:PORT",
			 addr);
		return WIRE_EARG;
	}
	num = strtol(colon + 1, &end, 10);
	if (*end != '\0' || num < 1 || num > 65535) {
		snprintf(err, errlen, "bad port '%s' in '%s' (1-65535)",
			 colon + 1, addr);
		return WIRE_EARG;
	}
	if (con_tcp_copy(host, hostlen, hbeg, (size_t)(hend - hbeg)) != 0 ||
	    con_tcp_copy(port, portlen, colon + 1, strlen(colon + 1)) != 0) {
		snprintf(err, errlen, "address '%s' is too long", addr);
		return WIRE_EARG;
	}
	return 0;
}

/* See con_tcp.h. */
void con_tcp_nodelay(int fd)
{
	int on = 1;

	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

/* Tries one address until deadline_ns.  0 with *fd, or a WIRE_E* code
 * with err filled. */
static int con_tcp_try(const struct addrinfo *ai, uint64_t deadline_ns,
		       int *fd, char *err, size_t errlen)
{
	struct pollfd pfd;
	int s, soerr = 0, r;
	socklen_t len = sizeof soerr;
	uint64_t now;

	s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		   ai->ai_protocol);
	if (s < 0)
		goto out_errno;
	fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
	if (connect(s, ai->ai_addr, ai->ai_addrlen) == 0)
		goto out_ok;
	if (errno != EINPROGRESS)
		goto out_close;
	pfd.fd = s;
	pfd.events = POLLOUT;
	do {
		now = wire_now_ns();
		if (now >= deadline_ns) {
			close(s);
			snprintf(err, errlen, "connect: timed out");
			return WIRE_ETIMEOUT;
		}
		r = poll(&pfd, 1, (int)((deadline_ns - now) / 1000000 + 1));
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		r = poll(&pfd, 1, 0);
	if (r <= 0 || getsockopt(s, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0)
		goto out_close;
	if (soerr != 0) {
		errno = soerr;
		goto out_close;
	}
out_ok:
	con_tcp_nodelay(s);
	*fd = s;
	return 0;
out_close:
	r = errno;
	close(s);
	errno = r;
out_errno:
	snprintf(err, errlen, "connect: %s", strerror(errno));
	return WIRE_EIO;
}

/* Resolves, then tries each address within the one deadline. */
int con_tcp_connect(const char *host, const char *port, int timeout_ms,
		    int *fd, char *err, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	uint64_t deadline = wire_now_ns() + (uint64_t)timeout_ms * 1000000;
	int rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0) {
		snprintf(err, errlen, "cannot resolve '%s': %s", host,
			 gai_strerror(rc));
		return WIRE_EARG;
	}
	rc = WIRE_EIO;
	for (ai = res; ai != NULL && rc != 0; ai = ai->ai_next) {
		rc = con_tcp_try(ai, deadline, fd, err, errlen);
		if (rc == WIRE_ETIMEOUT)
			break;
	}
	freeaddrinfo(res);
	return rc;
}
