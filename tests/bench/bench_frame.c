/*
 * bench_frame.c — throughput of the framing layer.
 *
 *   bench_frame [SECONDS-PER-CASE]      (default 1)
 *
 * For 1 KB and 64 KB payloads (one bin field in a [type, seq, bin] frame)
 * it measures, each case for about SECONDS:
 *   - encode in memory: wire_enc into a wire_buf that is reset when full;
 *   - decode in memory: wire_dec_step over a buffer of encoded frames;
 *   - loopback TCP: a sender thread queues frames on a wire_peer and
 *     flushes them; the main thread receives with wire_peer_wait and
 *     decodes every frame; the clock stops when the last frame is in.
 * Prints frames/s and MB/s (payload bytes, 10^6) as a table.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "bench_common.h"
#include "wire.h"
#include "wire_frame.h"
#include "wire_msg.h"
#include "wire_peer.h"

#define BENCH_TYPE 200   /* a type number no real message uses */
#define BENCH_END 201    /* the sender's last frame */
#define MAXF (1u << 20)

static double secs_per_case = 1.0;

/* Seconds on the monotonic clock. */
static double now_s(void)
{
	return (double)wire_now_ns() / 1e9;
}

/* Encodes one benchmark frame with a payload of n bytes into out. */
static int enc_frame(wire_buf *out, uint32_t type, uint32_t seq,
		     const char *body, size_t n)
{
	wire_enc e;

	if (wire_enc_begin(&e, out, type, seq, 1) == 0) {
		msgpack_pack_bin(wire_enc_packer(&e), n);
		msgpack_pack_bin_body(wire_enc_packer(&e), body, n);
	}
	return wire_enc_end(&e, MAXF);
}

/* In-memory encode rate: frames into a 16 MB buffer, reset when full. */
static void bench_encode(const char *body, size_t n, const char *label)
{
	wire_buf b;
	double t0 = now_s(), t;
	unsigned long frames = 0;
	int i;

	wire_buf_init(&b, 16u << 20);
	do {
		for (i = 0; i < 256; i++) {
			if (enc_frame(&b, BENCH_TYPE, (uint32_t)frames, body,
				      n) != 0) {
				wire_buf_reset(&b);
				continue;
			}
			frames++;
		}
		t = now_s() - t0;
	} while (t < secs_per_case);
	bench_row(label, frames / t, frames * (double)n / t / 1e6);
	wire_buf_destroy(&b);
}

/* In-memory decode rate over a buffer of encoded frames, replayed. */
static void bench_decode(const char *body, size_t n, const char *label)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;
	size_t off, used;
	unsigned long frames = 0;
	double t0, t;

	wire_buf_init(&b, 16u << 20);
	while (enc_frame(&b, BENCH_TYPE, 1, body, n) == 0)
		;
	wire_dec_init(&d, MAXF);
	t0 = now_s();
	do {
		for (off = 0; off < wire_buf_used(&b); off += used) {
			if (wire_dec_step(&d, wire_buf_head(&b) + off,
					  wire_buf_used(&b) - off, &used, &m,
					  NULL, 0) == 1)
				frames++;
			else if (used == 0)
				abort();
		}
		t = now_s() - t0;
	} while (t < secs_per_case);
	bench_row(label, frames / t, frames * (double)n / t / 1e6);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

/* What the sender thread needs. */
typedef struct sender {
	int fd;           /* connected socket */
	const char *body; /* payload */
	size_t n;         /* payload size */
	unsigned long sent; /* frames sent, BENCH_END excluded */
	int rc;           /* 0 or a WIRE_E* code */
} sender;

/* Sender thread: queues frames for secs_per_case, then BENCH_END. */
static void *send_main(void *arg)
{
	sender *s = arg;
	wire_peer p;
	wire_io io;
	double t0 = now_s();
	uint64_t far = wire_now_ns() + 30000000000ull;

	wire_io_fd(&io, s->fd, s->fd);
	s->rc = wire_peer_init(&p, &io, MAXF);
	while (s->rc == 0 && now_s() - t0 < secs_per_case) {
		while (wire_buf_used(wire_peer_out(&p)) < 2 * MAXF &&
		       enc_frame(wire_peer_out(&p), BENCH_TYPE,
				 wire_peer_seq(&p), s->body, s->n) == 0)
			s->sent++;
		s->rc = wire_peer_drain(&p, far);
	}
	if (s->rc == 0)
		s->rc = enc_frame(wire_peer_out(&p), BENCH_END,
				  wire_peer_seq(&p), "", 0);
	if (s->rc == 0)
		s->rc = wire_peer_drain(&p, far);
	wire_peer_destroy(&p);
	return NULL;
}

/* Opens a listening socket on 127.0.0.1; returns fd, port in *port. */
static int listen_lo(int *port)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    listen(fd, 1) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0)
		return -1;
	*port = ntohs(sa.sin_port);
	return fd;
}

/* Receives frames on fd until BENCH_END; returns frames or -1. */
static long receive_all(int fd, size_t n)
{
	wire_peer p;
	wire_io io;
	wire_msg m;
	long frames = 0;
	int rc;

	wire_io_fd(&io, fd, fd);
	if (wire_peer_init(&p, &io, MAXF) != 0)
		return -1;
	for (;;) {
		rc = wire_peer_wait(&p, &m, wire_now_ns() + 10000000000ull);
		if (rc != 1 || m.type == BENCH_END)
			break;
		if (m.nf != 1 || m.f[0].via.bin.size != n) {
			rc = WIRE_EMALFORMED;
			break;
		}
		frames++;
	}
	wire_peer_destroy(&p);
	return rc == 1 ? frames : -1;
}

/* Loopback TCP: sender thread -> wire_peer -> receiver (this thread). */
static int bench_tcp(const char *body, size_t n, const char *label)
{
	sender s = {-1, body, n, 0, 0};
	pthread_t th;
	int lfd, port, rfd;
	long got;
	double t0, t;

	lfd = listen_lo(&port);
	s.fd = lfd < 0 ? -1 : bench_connect(port);
	rfd = s.fd < 0 ? -1 : accept(lfd, NULL, NULL);
	if (rfd < 0) {
		fprintf(stderr, "bench_frame: loopback: %s\n", strerror(errno));
		return -1;
	}
	close(lfd);
	t0 = now_s();
	pthread_create(&th, NULL, send_main, &s);
	got = receive_all(rfd, n);
	t = now_s() - t0;
	pthread_join(th, NULL);
	if (got < 0 || s.rc != 0 || (unsigned long)got != s.sent) {
		fprintf(stderr, "bench_frame: loopback transfer failed "
			"(%ld of %lu frames, %s)\n", got, s.sent,
			wire_strerror(s.rc));
		return -1;
	}
	bench_row(label, got / t, got * (double)n / t / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = {1024, 65536};
	static const char *const names[] = {"1 KB", "64 KB"};
	char label[64], *body;
	size_t i;
	int rc = 0;

	if (argc > 1)
		secs_per_case = atof(argv[1]) > 0 ? atof(argv[1]) : 1.0;
	signal(SIGPIPE, SIG_IGN);
	body = malloc(65536);
	if (body == NULL)
		return 1;
	memset(body, 0x5a, 65536);
	printf("framing layer (payload = one bin field; MB = 10^6 bytes of "
	       "payload)\n");
	printf("  %-34s %14s %12s\n", "case", "frames/s", "MB/s");
	for (i = 0; i < 2; i++) {
		snprintf(label, sizeof label, "encode, memory, %s", names[i]);
		bench_encode(body, sizes[i], label);
		snprintf(label, sizeof label, "decode, memory, %s", names[i]);
		bench_decode(body, sizes[i], label);
		snprintf(label, sizeof label, "wire_peer, loopback TCP, %s",
			 names[i]);
		rc |= bench_tcp(body, sizes[i], label);
	}
	free(body);
	return rc != 0;
}
