/*
 * test_wire_peer.c — unit tests of wire_peer over a socketpair.
 *
 * Two peers, a and b, share an AF_UNIX socketpair.  The tests queue frames
 * on one side and read them on the other: plain round trips, a frame split
 * over many short reads (a transport that hands out a few bytes at a time),
 * the wire_peer_wait deadline, EOF after buffered frames, and sticky
 * framing errors.  One registered list at the bottom.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "unit_util.h"
#include "wire_peer.h"

#define MAXF (1u << 20)
#define SEC 1000000000ull

typedef struct pair {
	wire_peer a, b;
	int fa, fb; /* raw fds, still usable for injected bytes */
} pair;

/* Opens a socketpair and joins a peer to each end. */
static int setup(void **state)
{
	pair *p = calloc(1, sizeof *p);
	int sv[2];
	wire_io io;

	assert_non_null(p);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	p->fa = sv[0];
	p->fb = sv[1];
	wire_io_fd(&io, sv[0], sv[0]);
	assert_int_equal(wire_peer_init(&p->a, &io, MAXF), 0);
	wire_io_fd(&io, sv[1], sv[1]);
	assert_int_equal(wire_peer_init(&p->b, &io, MAXF), 0);
	*state = p;
	return 0;
}

/* Destroys both peers (which close the sockets). */
static int teardown(void **state)
{
	pair *p = *state;

	if (p->a.io.ctx != NULL)
		wire_peer_destroy(&p->a);
	if (p->b.io.ctx != NULL)
		wire_peer_destroy(&p->b);
	free(p);
	return 0;
}

/* Waits up to a second for the next frame on q; returns the result. */
static int wait1(wire_peer *q, wire_msg *m)
{
	return wire_peer_wait(q, m, wire_now_ns() + SEC);
}

static void test_round_trip(void **state)
{
	pair *p = *state;
	wire_msg m;
	wire_pong pong = {0}, got;
	uint64_t t = 0;
	uint32_t seq = wire_peer_seq(&p->a);

	assert_int_equal(seq, 1);
	assert_int_equal(wire_pack_ping(wire_peer_out(&p->a), seq, 1234, MAXF),
			 0);
	assert_true(wire_peer_pending(&p->a));
	assert_int_equal(wire_peer_flush(&p->a), 0);
	assert_false(wire_peer_pending(&p->a));
	assert_int_equal(wait1(&p->b, &m), 1);
	assert_int_equal(m.type, WIRE_PING);
	assert_int_equal(m.seq, 1);
	assert_int_equal(wire_unpack_ping(&m, &t, NULL, 0), 0);
	assert_true(t == 1234);
	/* answer: wire_peer_wait flushes b's queue while a waits */
	pong.t_console = t;
	pong.t_recv = 5;
	pong.t_send = 6;
	assert_int_equal(wire_pack_pong(wire_peer_out(&p->b),
					 wire_peer_seq(&p->b), &pong, MAXF), 0);
	assert_int_equal(wire_peer_flush(&p->b), 0);
	assert_int_equal(wait1(&p->a, &m), 1);
	assert_int_equal(wire_unpack_pong(&m, &got, NULL, 0), 0);
	assert_memory_equal(&pong, &got, sizeof got);
	/* nothing else: next says 0 */
	assert_int_equal(wire_peer_fill(&p->a), 0);
	assert_int_equal(wire_peer_next(&p->a, &m), 0);
}

static void test_fill_next_many(void **state)
{
	pair *p = *state;
	wire_msg m;
	uint64_t t;
	int i, got = 0;

	for (i = 0; i < 500; i++)
		assert_int_equal(wire_pack_ping(wire_peer_out(&p->a),
						wire_peer_seq(&p->a),
						(uint64_t)i, MAXF), 0);
	assert_int_equal(wire_peer_drain(&p->a, wire_now_ns() + SEC), 0);
	while (got < 500) {
		assert_int_equal(wire_peer_fill(&p->b), 0);
		while (wire_peer_next(&p->b, &m) == 1) {
			assert_int_equal(wire_unpack_ping(&m, &t, NULL, 0), 0);
			assert_true(t == (uint64_t)got);
			got++;
		}
	}
}

/* A transport over a fd that reads at most 1000 bytes per call. */
typedef struct slow { int fd; int reads; } slow;

static ssize_t slow_read(void *ctx, void *buf, size_t n)
{
	slow *s = ctx;
	ssize_t r = read(s->fd, buf, n < 1000 ? n : 1000);

	if (r > 0)
		s->reads++;
	return r;
}

static ssize_t slow_write(void *ctx, const void *buf, size_t n)
{
	return write(((slow *)ctx)->fd, buf, n);
}

static int slow_pollfd(void *ctx, short *ev)
{
	*ev = POLLIN;
	return ((slow *)ctx)->fd;
}

static void slow_close(void *ctx) { (void)ctx; }

static void test_large_frame_many_reads(void **state)
{
	pair *p = *state;
	static slow s;
	wire_io io = {&s, slow_read, slow_write, slow_pollfd, slow_close};
	wire_peer r;
	wire_enc e;
	wire_msg m;
	char *body = malloc(600000);
	int rc = 0;

	assert_non_null(body);
	memset(body, 'q', 600000);
	s.fd = p->fb;
	s.reads = 0;
	assert_int_equal(wire_peer_init(&r, &io, MAXF), 0);
	assert_int_equal(wire_enc_begin(&e, wire_peer_out(&p->a), 77, 1, 1),
			 0);
	msgpack_pack_bin(wire_enc_packer(&e), 600000);
	msgpack_pack_bin_body(wire_enc_packer(&e), body, 600000);
	assert_int_equal(wire_enc_end(&e, MAXF), 0);
	/* one thread: alternate non-blocking writes and reads */
	while (rc == 0) {
		assert_int_equal(wire_peer_flush(&p->a), 0);
		assert_int_equal(wire_peer_fill(&r), 0);
		rc = wire_peer_next(&r, &m);
	}
	assert_int_equal(rc, 1);
	assert_int_equal(m.type, 77);
	assert_int_equal(m.f[0].via.bin.size, 600000);
	assert_memory_equal(m.f[0].via.bin.ptr, body, 600000);
	assert_true(s.reads >= 600);
	wire_peer_destroy(&r);
	free(body);
}

static void test_wait_timeout(void **state)
{
	pair *p = *state;
	wire_msg m;
	uint64_t t0 = wire_now_ns(), dt;

	assert_int_equal(wire_peer_wait(&p->b, &m, t0 + 200000000ull),
			 WIRE_ETIMEOUT);
	dt = wire_now_ns() - t0;
	assert_true(dt >= 190000000ull);
	assert_true(dt < 1000000000ull);
	/* a deadline in the past: at once */
	assert_int_equal(wire_peer_wait(&p->b, &m, t0), WIRE_ETIMEOUT);
	assert_int_equal(p->b.err, 0); /* a timeout is not sticky */
}

static void test_eof_after_buffered(void **state)
{
	pair *p = *state;
	wire_msg m;
	char reason[WIRE_TEXT_MAX];
	int i;

	for (i = 0; i < 3; i++)
		assert_int_equal(wire_pack_bye(wire_peer_out(&p->a),
					       wire_peer_seq(&p->a), "bye",
					       MAXF), 0);
	assert_int_equal(wire_peer_drain(&p->a, wire_now_ns() + SEC), 0);
	wire_peer_destroy(&p->a); /* closes a's end */
	for (i = 0; i < 3; i++) {
		assert_int_equal(wait1(&p->b, &m), 1);
		assert_int_equal(m.seq, (uint32_t)i + 1);
		assert_int_equal(wire_unpack_bye(&m, reason, NULL, 0), 0);
	}
	assert_int_equal(wait1(&p->b, &m), WIRE_EEOF);
	assert_int_equal(wait1(&p->b, &m), WIRE_EEOF);
	assert_int_equal(wire_peer_next(&p->b, &m), WIRE_EEOF);
}

static void test_truncated_then_eof(void **state)
{
	pair *p = *state;
	static const unsigned char half[] = {0, 0, 0, 9, 0x93, 0x01};
	wire_msg m;

	assert_int_equal(write(p->fa, half, sizeof half), (ssize_t)sizeof half);
	shutdown(p->fa, SHUT_WR);
	assert_int_equal(wait1(&p->b, &m), WIRE_EEOF);
}

/* Writes raw bytes to fd and expects q to fail with code, sticky. */
static void expect_sticky(int fd, wire_peer *q, const void *raw, size_t n,
			  int code, const char *word)
{
	wire_msg m;

	assert_int_equal(write(fd, raw, n), (ssize_t)n);
	assert_int_equal(wait1(q, &m), code);
	assert_int_equal(q->err, code);
	assert_non_null(strstr(q->errmsg, word));
	assert_int_equal(wire_peer_next(q, &m), code);
	assert_int_equal(wire_peer_fill(q), code);
	assert_int_equal(wait1(q, &m), code);
	/* output still works, so the ERROR that explains it can be sent */
	assert_int_equal(wire_peer_send_error(q, code, 0, q->errmsg), 0);
	assert_int_equal(wire_peer_drain(q, wire_now_ns() + SEC), 0);
}

/* Reads the ERROR frame the failed peer sent back on the raw fd. */
static void expect_error_back(int fd, int code)
{
	unsigned char buf[512];
	wire_dec d;
	wire_msg m;
	wire_error_msg e;
	ssize_t n = read(fd, buf, sizeof buf);

	assert_true(n > 4);
	assert_int_equal(ut_decode(&d, buf, (size_t)n, 4096, &m, NULL, 0), 1);
	assert_int_equal(wire_unpack_error(&m, &e, NULL, 0), 0);
	assert_int_equal(e.code, -code);
	wire_dec_destroy(&d);
}

static void test_framing_error_sticky(void **state)
{
	pair *p = *state;
	static const unsigned char raw[] = {0, 0, 0, 2, 0x92, 0xc1};

	expect_sticky(p->fa, &p->b, raw, sizeof raw, WIRE_EMALFORMED,
		      "MessagePack");
	expect_error_back(p->fa, WIRE_EMALFORMED);
}

static void test_oversized_sticky(void **state)
{
	pair *p = *state;
	static const unsigned char raw[] = {0x7f, 0xff, 0xff, 0xff, 1, 2};

	expect_sticky(p->fa, &p->b, raw, sizeof raw, WIRE_ETOOBIG, "exceeds");
	expect_error_back(p->fa, WIRE_ETOOBIG);
}

static void test_empty_frame_sticky(void **state)
{
	pair *p = *state;
	static const unsigned char raw[] = {0, 0, 0, 0};

	expect_sticky(p->fa, &p->b, raw, sizeof raw, WIRE_EMALFORMED, "empty");
}

static void test_send_error(void **state)
{
	pair *p = *state;
	wire_msg m;
	wire_error_msg e;

	assert_int_equal(wire_peer_send_error(&p->a, WIRE_EBUSY, 12,
					      "session is busy"), 0);
	assert_int_equal(wire_peer_drain(&p->a, wire_now_ns() + SEC), 0);
	assert_int_equal(wait1(&p->b, &m), 1);
	assert_int_equal(wire_unpack_error(&m, &e, NULL, 0), 0);
	assert_int_equal(e.code, -WIRE_EBUSY);
	assert_int_equal(e.ref_seq, 12);
	assert_string_equal(e.message, "session is busy");
}

static void test_write_to_closed(void **state)
{
	pair *p = *state;
	int i, rc = 0;

	signal(SIGPIPE, SIG_IGN);
	wire_peer_destroy(&p->b);
	for (i = 0; i < 10 && rc == 0; i++) {
		assert_int_equal(wire_pack_ping(wire_peer_out(&p->a), 1, 1,
						MAXF), 0);
		rc = wire_peer_flush(&p->a);
	}
	assert_int_equal(rc, WIRE_EIO);
	assert_non_null(strstr(p->a.errmsg, "write failed"));
}

static void test_output_queue_limit(void **state)
{
	pair *p = *state;
	wire_enc e;
	char *body = calloc(1, MAXF);
	int i, rc = 0;

	assert_non_null(body);
	/* a peer that never reads: the queue refuses beyond its maximum */
	for (i = 0; i < 8 && rc == 0; i++) {
		rc = wire_enc_begin(&e, wire_peer_out(&p->a), 77, 1, 1);
		msgpack_pack_bin(wire_enc_packer(&e), MAXF - 16);
		msgpack_pack_bin_body(wire_enc_packer(&e), body, MAXF - 16);
		rc = wire_enc_end(&e, MAXF);
	}
	assert_int_equal(rc, WIRE_ENOMEM);
	assert_true(wire_buf_used(wire_peer_out(&p->a)) <= 4 * MAXF + 16);
	free(body);
}

#define PT(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		PT(test_round_trip),
		PT(test_fill_next_many),
		PT(test_large_frame_many_reads),
		PT(test_wait_timeout),
		PT(test_eof_after_buffered),
		PT(test_truncated_then_eof),
		PT(test_framing_error_sticky),
		PT(test_oversized_sticky),
		PT(test_empty_frame_sticky),
		PT(test_send_error),
		PT(test_write_to_closed),
		PT(test_output_queue_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
