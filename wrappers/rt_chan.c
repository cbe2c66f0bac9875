/*
 * rt_chan.c — the task's channel to its local paravtd (rt_core.h).
 *
 * One Unix stream socket (PARAVT_SOCK), spoken over with a wire_peer.  The
 * transport is our own and not wire_io_fd: writes go through
 * send(MSG_NOSIGNAL), so a daemon that goes away gives the task an error
 * (and a warning), never a SIGPIPE that would kill the user's program.
 *
 * State is one static struct.  The process that connected is remembered:
 * a child made by fork() shares the socket but must not speak on it (its
 * frames would interleave with the parent's), so for the child the runtime
 * is unattached and its copy of the socket is closed on first use.  The
 * child is known by a pthread_atfork handler, so that pvt__rt_peer, which
 * every line probe of an armed process calls, makes no system call; a
 * child made without fork() (a raw clone) is still caught before its
 * first message, by its pid.
 *
 * The one documented output of the runtime is the warning of
 * pvt__rt_detach() (and the same sentence when the connection cannot be
 * made, printed by rt_start.c); everything else returns codes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "rt_core.h"
#include "wire.h"
#include "wire_fmt.h"
#include "wire_msg.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* systems without it: SIGPIPE stays possible */
#endif

#ifndef PVT_PORT_NAME
#define PVT_PORT_NAME "unknown"
#endif

/* The runtime's connection. */
static struct {
	wire_peer peer;   /* the protocol connection; valid when attached */
	int fd;           /* its socket, or -1 */
	int attached;     /* 1 while peer is usable */
	pid_t pid;        /* process that made the connection */
	volatile sig_atomic_t forked; /* this is a child of that process */
	uint64_t proc;    /* PARAVT_PROC */
	wire_buf scratch; /* msgpack objects for 'o' fields */
	int scratch_init; /* scratch initialised */
	volatile sig_atomic_t building; /* a message is being packed */
	uint32_t ncaps;                 /* the daemon's HELLO capabilities */
	char caps[WIRE_CAPS_MAX][32];
} rt_chan = {.fd = -1};

/* Transport read: plain read() on the socket. */
static ssize_t rt_chan_read(void *ctx, void *buf, size_t n)
{
	ssize_t r;

	(void)ctx;
	do
		r = read(rt_chan.fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* Transport write: send() without SIGPIPE. */
static ssize_t rt_chan_write(void *ctx, const void *buf, size_t n)
{
	ssize_t r;

	(void)ctx;
	do
		r = send(rt_chan.fd, buf, n, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	return r;
}

/* Transport poll descriptor. */
static int rt_chan_pollfd(void *ctx, short *events)
{
	(void)ctx;
	*events = POLLIN;
	return rt_chan.fd;
}

/* Transport close: the socket only (the state is static). */
static void rt_chan_fdclose(void *ctx)
{
	(void)ctx;
	if (rt_chan.fd >= 0)
		close(rt_chan.fd);
	rt_chan.fd = -1;
}

/* Opens the socket and connects it to path (blocking connect, then
 * non-blocking and close-on-exec).  The fd, or -1 with err filled. */
static int rt_chan_dial(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa;
	int fd, r, fl;

	memset(&sa, 0, sizeof sa);
	if (strlen(path) >= sizeof sa.sun_path) {
		snprintf(err, errlen, "socket path of %lu bytes is too long",
		         (unsigned long)strlen(path));
		return -1;
	}
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		goto out_err;
	do
		r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		goto out_close;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		goto out_close;
	return fd;
out_close:
	r = errno;
	close(fd);
	errno = r;
out_err:
	snprintf(err, errlen, "cannot connect to %s: %s", path,
	         strerror(errno));
	return -1;
}

/* Sends HELLO and TASK_HELLO.  0 or a WIRE_E* code. */
static int rt_chan_greet(uint64_t proc)
{
	wire_peer *p = &rt_chan.peer;
	wire_hello h;
	int rc;

	wire_hello_local(&h, "task", NULL, PVT_PORT_NAME);
	rc = wire_pack_hello(wire_peer_out(p), wire_peer_seq(p), &h,
	                     p->max_frame);
	if (rc == 0)
		rc = wire_pack(wire_peer_out(p), WIRE_TASK_HELLO,
		               wire_peer_seq(p), p->max_frame, proc,
		               (uint64_t)getpid());
	return rc;
}

/* Describes an ERROR or BYE that came instead of HELLO. */
static void rt_chan_refusal(const wire_msg *m, char *err, size_t errlen)
{
	wire_error_msg e;
	char reason[WIRE_TEXT_MAX];

	if (m->type == WIRE_ERROR && wire_unpack_error(m, &e, NULL, 0) == 0)
		snprintf(err, errlen, "daemon refused the task: %s", e.message);
	else if (m->type == WIRE_BYE &&
	         wire_unpack_bye(m, reason, NULL, 0) == 0)
		snprintf(err, errlen, "daemon said goodbye: %s", reason);
	else
		snprintf(err, errlen, "daemon sent %s instead of HELLO",
		         wire_type_name(m->type) ? wire_type_name(m->type)
		                                 : "an unknown message");
}

/* Waits for the daemon's HELLO and checks it.  0 or a WIRE_E* code. */
static int rt_chan_expect_hello(char *err, size_t errlen)
{
	wire_peer *p = &rt_chan.peer;
	wire_hello h;
	wire_msg m;
	char why[160];
	int rc;

	rc = wire_peer_wait(p, &m, wire_now_ns() + PVT_RT_HELLO_NS);
	if (rc == WIRE_ETIMEOUT) {
		snprintf(err, errlen, "no HELLO from the daemon in 10 s");
		return rc;
	}
	if (rc < 0) {
		snprintf(err, errlen, "handshake failed: %s",
		         p->errmsg[0] ? p->errmsg : wire_strerror(rc));
		return rc;
	}
	if (m.type != WIRE_HELLO) {
		rt_chan_refusal(&m, err, errlen);
		return WIRE_EPROTO;
	}
	rc = wire_unpack_hello(&m, &h, why, sizeof why);
	if (rc == 0)
		rc = wire_hello_check(&h, "daemon", why, sizeof why);
	if (rc < 0) {
		snprintf(err, errlen, "bad HELLO from the daemon: %s", why);
		return rc;
	}
	rt_chan.ncaps = h.ncaps;
	memcpy(rt_chan.caps, h.caps, sizeof rt_chan.caps);
	return 0;
}

/* See rt_core.h. */
int pvt__rt_daemon_can(const char *cap)
{
	uint32_t i;

	for (i = 0; i < rt_chan.ncaps && i < WIRE_CAPS_MAX; i++)
		if (strcmp(rt_chan.caps[i], cap) == 0)
			return 1;
	return 0;
}

/* pthread_atfork: in the child, the connection is the parent's. */
static void rt_chan_atfork_child(void)
{
	rt_chan.forked = 1;
}

/* See rt_core.h. */
int pvt__rt_connect(const char *path, uint64_t proc, char *err, size_t errlen)
{
	static int atfork; /* the handler is registered */
	wire_io io;
	int rc;

	rt_chan.fd = rt_chan_dial(path, err, errlen);
	if (rt_chan.fd < 0)
		return WIRE_EIO;
	memset(&io, 0, sizeof io);
	io.ctx = &rt_chan;
	io.read = rt_chan_read;
	io.write = rt_chan_write;
	io.pollfd = rt_chan_pollfd;
	io.close = rt_chan_fdclose;
	if (wire_peer_init(&rt_chan.peer, &io, WIRE_FRAME_MAX_DEFAULT) != 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM; /* wire_peer_init closed the socket */
	}
	rt_chan.proc = proc;
	rt_chan.pid = getpid();
	rt_chan.forked = 0;
	if (!atfork) {
		(void)pthread_atfork(NULL, NULL, rt_chan_atfork_child);
		atfork = 1;
	}
	rc = rt_chan_greet(proc);
	if (rc < 0)
		snprintf(err, errlen, "cannot encode HELLO: %s",
		         wire_strerror(rc));
	if (rc == 0)
		rc = rt_chan_expect_hello(err, errlen);
	if (rc < 0) {
		wire_peer_destroy(&rt_chan.peer);
		return rc;
	}
	rt_chan.attached = 1;
	return 0;
}

/* Forgets the connection of a parent process in a forked child: closes
 * the child's copy of the socket and frees the copied buffers, without
 * writing anything. */
static void rt_chan_forget(void)
{
	wire_buf_reset(&rt_chan.peer.out);
	wire_peer_destroy(&rt_chan.peer);
	rt_chan.attached = 0;
}

/* Frees the scratch buffer once the connection is gone. */
static void rt_scratch_free(void)
{
	if (rt_chan.scratch_init)
		wire_buf_destroy(&rt_chan.scratch);
	rt_chan.scratch_init = 0;
}

/* See rt_core.h. */
wire_peer *pvt__rt_peer(void)
{
	if (!rt_chan.attached)
		return NULL;
	if (rt_chan.forked) {
		rt_chan_forget();
		return NULL;
	}
	return &rt_chan.peer;
}

#define PVT_RT_FIFO_MS 2000 /* longest wait for the output FIFOs */

/* Opens FIFO path for writing once its reader (the daemon) has it open,
 * waiting up to PVT_RT_FIFO_MS.  The fd, blocking, or -1. */
static int rt_chan_fifo_open(const char *path)
{
	struct timespec ts = {0, 5000000L};
	int fd, i, fl;

	for (i = 0; i < PVT_RT_FIFO_MS / 5; i++) {
		fd = open(path, O_WRONLY | O_NONBLOCK);
		if (fd >= 0) {
			fl = fcntl(fd, F_GETFL);
			if (fl >= 0)
				(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
			return fd;
		}
		if (errno != ENOENT && errno != ENXIO && errno != EINTR)
			return -1;
		(void)nanosleep(&ts, NULL);
	}
	return -1;
}

/* See rt_core.h. */
int pvt__rt_output_fifo(void)
{
	const char *sock = getenv("PARAVT_SOCK");
	char path[1024];
	int fd, rc = 0;

	if (pvt__rt_peer() == NULL || sock == NULL || *sock == '\0' ||
	    (size_t)snprintf(path, sizeof path, "%s.%ld", sock,
	                     (long)getpid()) >= sizeof path)
		return -1;
	(void)fflush(stdout);
	(void)fflush(stderr);
	fd = rt_chan_fifo_open(path);
	if (fd < 0)
		return -1;
	if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		rc = -1; /* (stdout may be moved already: still ours) */
	close(fd);
	return rc;
}

/* See rt_core.h. */
uint64_t pvt__rt_proc(void)
{
	return rt_chan.proc;
}

/* See rt_core.h. */
int pvt__rt_fd(void)
{
	return rt_chan.attached && rt_chan.pid == getpid() ? rt_chan.fd : -1;
}

/* See rt_core.h. */
int pvt__rt_building(void)
{
	return rt_chan.building;
}

/* See rt_core.h. */
wire_peer *pvt__rt_peer_sigsafe(void)
{
	return pvt__rt_fd() >= 0 ? &rt_chan.peer : NULL;
}

/* See rt_core.h. */
int pvt__rt_push(void)
{
	wire_peer *p = pvt__rt_peer();
	char why[300];
	int rc;

	if (p == NULL)
		return WIRE_ESTATE;
	if (rt_chan.pid != getpid()) { /* a child not made by fork() */
		rt_chan_forget();
		return WIRE_ESTATE;
	}
	rt_chan.building = 0;
	rc = wire_peer_drain(p, wire_now_ns() + PVT_RT_SEND_NS);
	if (rc == 0)
		return 0;
	snprintf(why, sizeof why, "lost the daemon: %s",
	         rc == WIRE_ETIMEOUT ? "it did not read for 30 s"
	         : p->errmsg[0]      ? p->errmsg
	                             : wire_strerror(rc));
	pvt__rt_detach(why);
	return rc;
}

/* See rt_core.h. */
void pvt__rt_detach(const char *why)
{
	if (pvt__rt_peer() == NULL)
		return;
	fprintf(stderr, "paravt: %s; running without paravt\n", why);
	wire_peer_destroy(&rt_chan.peer);
	rt_chan.attached = 0;
	rt_scratch_free();
}

/* See rt_core.h. */
void pvt__rt_close(void)
{
	wire_peer *p = pvt__rt_peer();

	if (p == NULL)
		return;
	(void)wire_peer_drain(p, wire_now_ns() + PVT_RT_SEND_NS / 10);
	wire_peer_destroy(p);
	rt_chan.attached = 0;
	rt_scratch_free();
}

/* msgpack write callback into the scratch buffer. */
static int rt_scratch_write(void *data, const char *buf, size_t len)
{
	return wire_buf_append(data, buf, len) == 0 ? 0 : -1;
}

/* See rt_core.h. */
void pvt__rt_scratch(msgpack_packer *pk)
{
	if (!rt_chan.scratch_init) {
		wire_buf_init(&rt_chan.scratch, WIRE_FRAME_MAX_DEFAULT);
		rt_chan.scratch_init = 1;
	}
	rt_chan.building = 1;
	wire_buf_reset(&rt_chan.scratch);
	msgpack_packer_init(pk, &rt_chan.scratch, rt_scratch_write);
}

/* See rt_core.h. */
wire_buf *pvt__rt_scratch_buf(void)
{
	return &rt_chan.scratch;
}
