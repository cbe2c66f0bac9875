/*
 * wire_peer.c — one protocol connection over any transport (wire_peer.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"
#include "wire_msg.h"
#include "wire_peer.h"

#define WIRE_READ_CHUNK 65536

/* ---- plain file-descriptor transport ---------------------------------- */

typedef struct wire_fdio {
	int rfd; /* read side */
	int wfd; /* write side (may equal rfd) */
} wire_fdio;

static ssize_t wire_fd_read(void *ctx, void *buf, size_t n)
{
	wire_fdio *f = ctx;
	ssize_t r;

	do
		r = read(f->rfd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

static ssize_t wire_fd_write(void *ctx, const void *buf, size_t n)
{
	wire_fdio *f = ctx;
	ssize_t r;

	do
		r = write(f->wfd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

static int wire_fd_pollfd(void *ctx, short *events)
{
	wire_fdio *f = ctx;

	*events = POLLIN;
	return f->rfd;
}

static void wire_fd_close(void *ctx)
{
	wire_fdio *f = ctx;

	if (f == NULL)
		return;
	if (f->rfd >= 0)
		close(f->rfd);
	if (f->wfd >= 0 && f->wfd != f->rfd)
		close(f->wfd);
	free(f);
}

static void wire_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void wire_io_fd(wire_io *io, int rfd, int wfd)
{
	wire_fdio *f = malloc(sizeof *f);

	memset(io, 0, sizeof *io);
	if (f == NULL)
		return; /* io.ctx NULL: wire_peer_init reports ENOMEM */
	f->rfd = rfd;
	f->wfd = wfd;
	wire_set_nonblock(rfd);
	if (wfd != rfd)
		wire_set_nonblock(wfd);
	io->ctx = f;
	io->read = wire_fd_read;
	io->write = wire_fd_write;
	io->pollfd = wire_fd_pollfd;
	io->close = wire_fd_close;
}

/* ---- peer ------------------------------------------------------------- */

int wire_peer_init(wire_peer *p, const wire_io *io, size_t max_frame)
{
	memset(p, 0, sizeof *p);
	p->io = *io;
	p->max_frame = max_frame;
	wire_buf_init(&p->in, WIRE_READ_CHUNK + WIRE_FRAME_HDR);
	/* Output may hold several frames at the limit before a slow peer
	 * drains them; beyond that senders get WIRE_ENOMEM. */
	wire_buf_init(&p->out, 4 * max_frame + 4 * WIRE_FRAME_HDR);
	if (io->ctx == NULL || wire_dec_init(&p->dec, max_frame) != 0) {
		if (io->close != NULL)
			io->close(io->ctx);
		memset(&p->io, 0, sizeof p->io);
		return WIRE_ENOMEM;
	}
	return 0;
}

void wire_peer_destroy(wire_peer *p)
{
	if (p->io.close != NULL)
		p->io.close(p->io.ctx);
	wire_dec_destroy(&p->dec);
	wire_buf_destroy(&p->in);
	wire_buf_destroy(&p->out);
	memset(p, 0, sizeof *p);
}

wire_buf *wire_peer_out(wire_peer *p)
{
	return &p->out;
}

uint32_t wire_peer_seq(wire_peer *p)
{
	return ++p->seq;
}

int wire_peer_pending(const wire_peer *p)
{
	return wire_buf_used(&p->out) > 0;
}

/* Records a sticky error with a sentence and returns it. */
static int wire_peer_fail(wire_peer *p, int code, const char *what)
{
	if (p->err == 0) {
		p->err = code;
		snprintf(p->errmsg, sizeof p->errmsg, "%s", what);
	}
	return code;
}

int wire_peer_flush(wire_peer *p)
{
	ssize_t w;
	char msg[128];

	/* Only a transport failure stops output: after a decoding error
	 * the peer must still be able to send the ERROR that explains it. */
	if (p->err == WIRE_EIO)
		return p->err;
	while (wire_buf_used(&p->out) > 0) {
		w = p->io.write(p->io.ctx, wire_buf_head(&p->out),
				wire_buf_used(&p->out));
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (w <= 0) {
			snprintf(msg, sizeof msg, "write failed: %s",
				 w < 0 ? strerror(errno) : "no progress");
			return wire_peer_fail(p, WIRE_EIO, msg);
		}
		wire_buf_consume(&p->out, (size_t)w);
	}
	return 0;
}

int wire_peer_fill(wire_peer *p)
{
	ssize_t r;
	char msg[128];

	if (p->err != 0)
		return p->err;
	if (wire_buf_reserve(&p->in, WIRE_READ_CHUNK) != 0)
		return 0; /* decode what is buffered first */
	r = p->io.read(p->io.ctx, wire_buf_tail(&p->in), WIRE_READ_CHUNK);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (r == 0) {
		p->eof = 1;
		return WIRE_EEOF;
	}
	if (r < 0) {
		snprintf(msg, sizeof msg, "read failed: %s", strerror(errno));
		return wire_peer_fail(p, WIRE_EIO, msg);
	}
	wire_buf_commit(&p->in, (size_t)r);
	return 0;
}

int wire_peer_next(wire_peer *p, wire_msg *m)
{
	size_t used;
	int rc;
	char err[160];

	if (p->err != 0)
		return p->err;
	while (wire_buf_used(&p->in) > 0) {
		rc = wire_dec_step(&p->dec, wire_buf_head(&p->in),
				   wire_buf_used(&p->in), &used, m, err,
				   sizeof err);
		wire_buf_consume(&p->in, used);
		if (rc < 0)
			return wire_peer_fail(p, rc, err);
		if (rc == 1)
			return 1;
	}
	if (p->eof)
		return wire_peer_fail(p, WIRE_EEOF,
				      "connection closed by peer");
	return 0;
}

/* Polls the transport for up to the deadline.  1 ready, 0 timeout. */
static int wire_peer_poll(wire_peer *p, uint64_t deadline_ns)
{
	struct pollfd pfd;
	uint64_t now = wire_now_ns();
	int ms, r;

	if (now >= deadline_ns)
		return 0;
	ms = (int)((deadline_ns - now + 999999) / 1000000);
	pfd.fd = p->io.pollfd(p->io.ctx, &pfd.events);
	if (wire_peer_pending(p))
		pfd.events |= POLLOUT;
	if (pfd.fd < 0) { /* transport cannot be polled: short sleep */
		struct timespec ts = {0, 1000000};

		nanosleep(&ts, NULL);
		return 1;
	}
	r = poll(&pfd, 1, ms);
	return r > 0 || (r < 0 && errno == EINTR);
}

int wire_peer_wait(wire_peer *p, wire_msg *m, uint64_t deadline_ns)
{
	int rc;

	for (;;) {
		rc = wire_peer_next(p, m);
		if (rc != 0)
			return rc;
		rc = wire_peer_flush(p);
		if (rc < 0)
			return rc;
		rc = wire_peer_fill(p);
		if (rc == WIRE_EEOF)
			continue; /* decode what is left, then report EOF */
		if (rc < 0)
			return rc;
		if (wire_buf_used(&p->in) > 0)
			continue;
		if (!wire_peer_poll(p, deadline_ns))
			return WIRE_ETIMEOUT;
	}
}

int wire_peer_drain(wire_peer *p, uint64_t deadline_ns)
{
	int rc;

	while (wire_peer_pending(p)) {
		rc = wire_peer_flush(p);
		if (rc < 0)
			return rc;
		if (!wire_peer_pending(p))
			break;
		if (!wire_peer_poll(p, deadline_ns))
			return WIRE_ETIMEOUT;
	}
	return 0;
}

int wire_peer_send_error(wire_peer *p, int code, uint32_t ref_seq,
			 const char *message)
{
	return wire_pack_error(&p->out, wire_peer_seq(p), code, ref_seq,
			       message, p->max_frame);
}
