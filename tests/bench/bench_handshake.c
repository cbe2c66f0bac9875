/*
 * bench_handshake.c — time to open a controlling session on a real paravtd.
 *
 *   bench_handshake PORT [N] [TOKEN-FILE]
 *
 * N times (default 200): connect to 127.0.0.1:PORT, exchange HELLO, send
 * AUTH with the token (default $HOME/.paravt/token), wait for AUTH_OK,
 * send SESSION_OPEN, wait for SESSION_OK, then BYE and close.  The time
 * from connect() to SESSION_OK is recorded; mean, median, p99 and min are
 * printed in microseconds.  Exits 1 if any handshake fails.
 */
#include <signal.h>
#include <stdlib.h>

#include "bench_common.h"
#include "wire.h"
#include "wire_msg.h"
#include "wire_peer.h"
#include "wire_token.h"

#define MAXF (1u << 20)
#define DEADLINE_NS 5000000000ull

/* Waits for a frame of type want on p; 0, or -1 with a message printed. */
static int expect(wire_peer *p, uint32_t want)
{
	wire_msg m;
	wire_error_msg e;
	int rc = wire_peer_wait(p, &m, wire_now_ns() + DEADLINE_NS);

	if (rc == 1 && m.type == want)
		return 0;
	if (rc == 1 && m.type == WIRE_ERROR &&
	    wire_unpack_error(&m, &e, NULL, 0) == 0)
		fprintf(stderr, "bench_handshake: daemon says %s: %s\n",
			wire_errname(-(int)e.code), e.message);
	else if (rc == 1)
		fprintf(stderr, "bench_handshake: got %s, expected %s\n",
			wire_type_name(m.type) ? wire_type_name(m.type) : "?",
			wire_type_name(want));
	else
		fprintf(stderr, "bench_handshake: waiting for %s: %s (%s)\n",
			wire_type_name(want), wire_strerror(rc), p->errmsg);
	return -1;
}

/* One full handshake; returns the elapsed nanoseconds or 0 on failure. */
static uint64_t handshake(int port, const char *token,
			  const wire_hello *hello)
{
	uint64_t t0 = wire_now_ns(), dt = 0;
	wire_peer p;
	wire_io io;
	int fd = bench_connect(port);

	if (fd < 0) {
		perror("bench_handshake: connect");
		return 0;
	}
	wire_io_fd(&io, fd, fd);
	if (wire_peer_init(&p, &io, MAXF) != 0)
		return 0;
	if (wire_pack_hello(wire_peer_out(&p), wire_peer_seq(&p), hello,
			    MAXF) != 0 || expect(&p, WIRE_HELLO) != 0)
		goto out_peer;
	if (wire_pack_auth(wire_peer_out(&p), wire_peer_seq(&p), token,
			   MAXF) != 0 || expect(&p, WIRE_AUTH_OK) != 0)
		goto out_peer;
	if (wire_pack_session_open(wire_peer_out(&p), wire_peer_seq(&p),
				   "bench", MAXF) != 0 ||
	    expect(&p, WIRE_SESSION_OK) != 0)
		goto out_peer;
	dt = wire_now_ns() - t0;
	wire_pack_bye(wire_peer_out(&p), wire_peer_seq(&p), "bench done",
		      MAXF);
	wire_peer_drain(&p, wire_now_ns() + DEADLINE_NS);
out_peer:
	wire_peer_destroy(&p);
	return dt;
}

/* qsort comparator for uint64_t. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Prints mean, median, p99 and min of n samples (ns) in microseconds. */
static void report(uint64_t *t, int n)
{
	double sum = 0;
	int i;

	qsort(t, (size_t)n, sizeof *t, cmp_u64);
	for (i = 0; i < n; i++)
		sum += (double)t[i];
	printf("handshake (connect, HELLO, AUTH/AUTH_OK, SESSION_OPEN/OK) "
	       "over %d connections\n", n);
	printf("  %-10s %10s %10s %10s %10s\n", "unit", "mean", "median",
	       "p99", "min");
	printf("  %-10s %10.1f %10.1f %10.1f %10.1f\n", "us",
	       sum / n / 1e3, t[n / 2] / 1e3,
	       t[(n * 99 + 99) / 100 - 1] / 1e3, t[0] / 1e3);
}

int main(int argc, char **argv)
{
	char path[512], tok[WIRE_TOKEN_MAX], err[512];
	wire_hello hello;
	uint64_t *t;
	int port, n, i;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_handshake PORT [N] [TOKEN-FILE]\n");
		return 2;
	}
	port = atoi(argv[1]);
	n = argc > 2 ? atoi(argv[2]) : 200;
	if (n < 1)
		n = 1;
	if (argc > 3)
		snprintf(path, sizeof path, "%s", argv[3]);
	else if (wire_token_default_path(path, sizeof path) != 0)
		return 2;
	if (wire_token_load(path, 0, tok, err, sizeof err) != 0) {
		fprintf(stderr, "bench_handshake: %s\n", err);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	wire_hello_local(&hello, "console", "bench", "linux-x86_64");
	t = calloc((size_t)n, sizeof *t);
	if (t == NULL)
		return 1;
	for (i = 0; i < n; i++)
		if ((t[i] = handshake(port, tok, &hello)) == 0)
			return 1;
	report(t, n);
	free(t);
	return 0;
}
