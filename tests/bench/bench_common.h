/*
 * bench_common.h — small helpers shared by the benchmarks: a loopback TCP
 * connection and the result-table line format.  static inline so each
 * benchmark includes only what it uses.
 */
#ifndef PARAVT_BENCH_COMMON_H
#define PARAVT_BENCH_COMMON_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Connects to 127.0.0.1:port with Nagle off; fd or -1. */
static inline int bench_connect(int port)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

/* Prints one row of the results table. */
static inline void bench_row(const char *what, double per_s, double mb_s)
{
	printf("  %-34s %14.0f %12.1f\n", what, per_s, mb_s);
	fflush(stdout);
}

#endif
