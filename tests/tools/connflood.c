/*
 * connflood.c — a hostile client for the daemon's connection limits:
 * holds N TCP connections to ADDR:PORT that never authenticate, and
 * renews each one as soon as the daemon closes it, for SECONDS.
 *
 *   connflood ADDR:PORT N SECONDS [--hello]
 *
 * With --hello every connection first sends the bytes of a frame header
 * that announces a 100-byte payload and then nothing more (a peer stuck
 * in the middle of its HELLO).  Prints "connflood: opened X, closed by
 * the daemon Y, failed Z" at the end.  Exit 0, or 2 on bad arguments.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Monotonic seconds. */
static double cf_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A non-blocking connect to sin; the descriptor or -1. */
static int cf_open(const struct sockaddr_in *sin, int hello)
{
	static const unsigned char hdr[4] = {0, 0, 0, 100};
	struct timeval tv = {1, 0}; /* connect gives up after 1 s */
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (connect(fd, (const struct sockaddr *)sin, sizeof *sin) != 0) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (hello && write(fd, hdr, sizeof hdr) != (ssize_t)sizeof hdr) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Parses ADDR:PORT into sin.  0 or -1. */
static int cf_addr(const char *s, struct sockaddr_in *sin)
{
	char host[64];
	const char *colon = strrchr(s, ':');

	if (colon == NULL || (size_t)(colon - s) >= sizeof host)
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	memset(sin, 0, sizeof *sin);
	sin->sin_family = AF_INET;
	sin->sin_port = htons((unsigned short)atoi(colon + 1));
	return inet_pton(AF_INET, host, &sin->sin_addr) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin;
	struct pollfd *p;
	unsigned long opened = 0, closed = 0, failed = 0;
	char buf[4096];
	double end;
	int n, i, hello;

	if (argc < 4 || cf_addr(argv[1], &sin) != 0 ||
	    (n = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: connflood ADDR:PORT N SECONDS "
			"[--hello]\n");
		return 2;
	}
	end = cf_now() + atof(argv[3]);
	hello = argc > 4 && strcmp(argv[4], "--hello") == 0;
	p = calloc((size_t)n, sizeof *p);
	if (p == NULL)
		return 1;
	for (i = 0; i < n; i++)
		p[i].fd = -1;
	while (cf_now() < end) {
		for (i = 0; i < n; i++) {
			if (p[i].fd >= 0)
				continue;
			p[i].fd = cf_open(&sin, hello);
			p[i].events = POLLIN;
			if (p[i].fd >= 0)
				opened++;
			else
				failed++;
		}
		if (poll(p, (nfds_t)n, 100) < 0 && errno != EINTR)
			break;
		for (i = 0; i < n; i++) {
			if (p[i].fd < 0 || p[i].revents == 0)
				continue;
			/* the daemon's HELLO, an ERROR, or the end */
			if (read(p[i].fd, buf, sizeof buf) > 0)
				continue;
			close(p[i].fd);
			p[i].fd = -1;
			closed++;
		}
	}
	printf("connflood: opened %lu, closed by the daemon %lu, failed %lu\n",
	       opened, closed, failed);
	return 0;
}
