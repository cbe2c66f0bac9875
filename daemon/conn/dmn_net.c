/*
 * dmn_net.c — listening socket, accept and small files (dmn_net.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_net.h"

int dmn_addr_parse(const char *s, dmn_addr *a, char *err, size_t errlen)
{
	const char *colon = strrchr(s, ':');
	char *end;
	unsigned long port;
	size_t n;

	memset(a, 0, sizeof *a);
	if (colon == NULL || colon == s || colon[1] == '\0') {
		snprintf(err, errlen, "listen address '%s' is not ADDR:PORT",
			 s);
		return -1;
	}
	n = (size_t)(colon - s);
	if (n >= sizeof a->host) {
		snprintf(err, errlen, "listen address '%s' is too long", s);
		return -1;
	}
	memcpy(a->host, s, n);
	a->host[n] = '\0';
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (*end != '\0' || errno != 0 || port > 65535 || colon[1] == '-' ||
	    colon[1] == '+') {
		snprintf(err, errlen, "bad port '%s' in '%s'", colon + 1, s);
		return -1;
	}
	if (inet_pton(AF_INET, a->host, a->a) != 1) {
		snprintf(err, errlen, "'%s' is not an IPv4 address", a->host);
		return -1;
	}
	a->port = (unsigned)port;
	a->loopback = a->a[0] == 127;
	return 0;
}

/* Marks fd close-on-exec and non-blocking. */
static void dmn_fd_flags(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	fl = fcntl(fd, F_GETFD);
	if (fl >= 0)
		fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

int dmn_listen(const dmn_addr *a, unsigned *port, char *err, size_t errlen)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)a->port);
	memcpy(&sin.sin_addr, a->a, 4);
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    listen(fd, SOMAXCONN) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
		snprintf(err, errlen, "cannot listen on %s:%u: %s", a->host,
			 a->port, strerror(errno));
		goto out_close;
	}
	dmn_fd_flags(fd);
	*port = ntohs(sin.sin_port);
	return fd;
out_close:
	close(fd);
	return -1;
}

/* Listening socket readable: accept every pending connection. */
static void dmn_on_accept(dmn_loop *l, int fd, void *ctx)
{
	struct sockaddr_in sin;
	socklen_t len;
	char ip[INET_ADDRSTRLEN], addr[64];
	int cfd, n, one = 1;

	for (n = 0; n < 16; n++) { /* bounded: other peers get a turn */
		len = sizeof sin;
		cfd = accept(fd, (struct sockaddr *)&sin, &len);
		if (cfd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR && errno != ECONNABORTED)
				dmn_log(DMN_WARN, "accept: %s",
					strerror(errno));
			return;
		}
		dmn_fd_flags(cfd);
		/* frames are small and each waits for an answer: no Nagle */
		(void)setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one,
				 sizeof one);
		if (inet_ntop(AF_INET, &sin.sin_addr, ip, sizeof ip) == NULL)
			snprintf(ip, sizeof ip, "?");
		snprintf(addr, sizeof addr, "%s:%u", ip,
			 (unsigned)ntohs(sin.sin_port));
		dmn_conn_open(ctx, cfd, cfd, addr);
	}
}

/* The listening socket failed: log it; the daemon keeps its peers. */
static void dmn_on_listen_error(dmn_loop *l, int fd, void *ctx)
{
	dmn_log(DMN_ERROR, "listening socket failed; no new connections");
	dmn_loop_del(l, fd);
}

static const dmn_io_ops dmn_listen_ops = {
	dmn_on_accept, NULL, dmn_on_listen_error
};

int dmn_accept_start(dmn_server *srv, int fd)
{
	return dmn_loop_add(srv->loop, fd, &dmn_listen_ops, srv, 1);
}

int dmn_write_file(const char *path, const char *text)
{
	char tmp[4096];
	FILE *fp;
	int bad;

	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fp = fopen(tmp, "w");
	if (fp == NULL)
		return -1;
	bad = fputs(text, fp) < 0;
	bad |= fclose(fp) != 0;
	if (bad || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}
