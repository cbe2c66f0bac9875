/*
 * dmn_conn.c — per-connection protocol handling (dmn_conn.h).
 *
 * Layout: connection life (open, drop, close-after-flush, the loop
 * callbacks), then the handlers of each state, then the server-wide
 * operations (the table and its limits: dmn_conn_room.c).  Handlers
 * never free their connection: they only mark it closing; the loop
 * callbacks free it after the output is flushed, so no pointer is used
 * after it is gone.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dmn_conn.h"
#include "dmn_conn_int.h"
#include "dmn_log.h"
#include "wire_fmt.h"
#include "wire_peer.h"

static void dmn_conn_on_read(dmn_loop *l, int fd, void *ctx);
static void dmn_conn_on_write(dmn_loop *l, int fd, void *ctx);
static void dmn_conn_on_error(dmn_loop *l, int fd, void *ctx);

static const dmn_io_ops dmn_conn_ops = {
	dmn_conn_on_read, dmn_conn_on_write, dmn_conn_on_error
};

/* Write-only descriptor of a split (stdio) connection: no read callback. */
static const dmn_io_ops dmn_conn_wops = {
	NULL, dmn_conn_on_write, dmn_conn_on_error
};

/* ---- connection life ----------------------------------------------------- */

/* Releases session control if c holds it. */
static void dmn_conn_release(dmn_conn *c)
{
	dmn_server *srv = c->srv;

	if (srv->controller != c)
		return;
	dmn_log(DMN_INFO, "conn %llu: console %s released control",
		(unsigned long long)c->id, srv->ctl_console);
	srv->controller = NULL;
	srv->ctl_console[0] = '\0';
	srv->ops->release(srv);
}

/* Frees c at once: loop registration, timer, transport, slot. */
void dmn_conn_drop(dmn_conn *c, const char *why)
{
	dmn_server *srv = c->srv;

	dmn_log(DMN_INFO, "conn %llu: %s closed (%s)",
		(unsigned long long)c->id, c->addr, why);
	dmn_conn_release(c);
	if (c->task)
		srv->ops->task_gone(srv, c);
	else
		srv->ops->rexec_gone(srv, c);
	dmn_timer_del(srv->loop, c->timer);
	dmn_loop_del(srv->loop, c->rfd);
	if (c->wfd != c->rfd)
		dmn_loop_del(srv->loop, c->wfd);
	wire_peer_destroy(&c->peer);
	srv->conns[c->slot] = NULL;
	srv->nconns--;
	free(c);
	if (srv->nconns == 0 && srv->stop_when_idle)
		dmn_loop_stop(srv->loop);
}

/* Linger timer: the peer did not take our last frames in time. */
static void dmn_conn_linger_expired(dmn_loop *l, long id, void *ctx)
{
	dmn_conn *c = ctx;

	c->timer = 0;
	dmn_conn_drop(c, "output not taken in time");
}

/* Marks c to close after its output (an ERROR or BYE) is flushed; stops
 * reading and bounds the wait with the linger timer. */
static void dmn_conn_close_soon(dmn_conn *c)
{
	if (c->closing)
		return;
	c->closing = 1;
	dmn_conn_release(c);
	dmn_timer_del(c->srv->loop, c->timer);
	c->timer = dmn_timer_add(c->srv->loop, DMN_LINGER_MS,
				 dmn_conn_linger_expired, c);
}

/*
 * Flushes what the transport takes now, then sets the loop interest: write
 * while output is queued, read while not closing and the backlog is small.
 * Frees c when it is closing and done, or on a write error.  Returns 0 if c
 * is still alive, -1 if it was freed.
 */
static int dmn_conn_sync(dmn_conn *c)
{
	dmn_loop *l = c->srv->loop;
	int pending;

	if (wire_peer_flush(&c->peer) < 0) {
		dmn_conn_drop(c, c->peer.errmsg);
		return -1;
	}
	pending = wire_peer_pending(&c->peer);
	if (c->closing && !pending) {
		dmn_conn_drop(c, "done");
		return -1;
	}
	dmn_loop_want_write(l, c->wfd, pending);
	dmn_loop_want_read(l, c->rfd, !c->closing &&
			   wire_buf_used(&c->peer.out) < DMN_OUT_HIGH);
	return 0;
}

/* Queues an ERROR frame; with fatal, the connection closes after it. */
static void dmn_conn_error(dmn_conn *c, int code, uint32_t ref,
			   const char *text, int fatal)
{
	dmn_log(DMN_WARN, "conn %llu: %s: %s %s%s", (unsigned long long)c->id,
		c->addr, wire_errname(code), text, fatal ? " (closing)" : "");
	if (wire_peer_send_error(&c->peer, code, ref, text) != 0)
		fatal = 1; /* output backlog full: give up on this peer */
	if (fatal)
		dmn_conn_close_soon(c);
}

/* ---- handlers ------------------------------------------------------------ */

/* Authenticated console connections. */
static int dmn_server_consoles(const dmn_server *srv)
{
	int i, n = 0;

	for (i = 0; i < srv->cap_conns; i++)
		n += srv->conns[i] != NULL && !srv->conns[i]->task &&
		     !srv->conns[i]->closing &&
		     srv->conns[i]->state == DMN_ST_READY;
	return n;
}

/* State HELLO: the first frame must be a HELLO of our version. */
static void dmn_on_hello(dmn_conn *c, const wire_msg *m)
{
	wire_hello h;
	char err[WIRE_TEXT_MAX];
	int rc;

	if (m->type != WIRE_HELLO) {
		snprintf(err, sizeof err, "expected HELLO first, got message "
			 "type %u", m->type);
		dmn_conn_error(c, WIRE_EPROTO, m->seq, err, 1);
		return;
	}
	rc = wire_unpack_hello(m, &h, err, sizeof err);
	if (h.version != WIRE_PROTO_VERSION || rc == 0)
		rc = wire_hello_check(&h, c->task ? "task" : "console", err,
				      sizeof err);
	if (rc != 0) {
		dmn_conn_error(c, rc, m->seq, err, 1);
		return;
	}
	snprintf(c->console, sizeof c->console, "%s", h.node);
	c->local = wire_hello_local_peer(&c->srv->hello, &h);
	dmn_log(DMN_INFO, "conn %llu: HELLO from %s %s (%s %s, %s%s)",
		(unsigned long long)c->id, c->task ? "task" : "console",
		h.node, h.os, h.arch, h.port,
		c->local ? ", this machine" : "");
	c->state = c->task ? DMN_ST_TASK : DMN_ST_AUTH;
}

/* State AUTH: the token, or (stdio without a token file) any AUTH. */
static void dmn_on_auth(dmn_conn *c, const wire_msg *m)
{
	const dmn_config *cfg = c->srv->cfg;
	char tok[WIRE_TOKEN_MAX], err[WIRE_TEXT_MAX];

	if (m->type != WIRE_AUTH) {
		snprintf(err, sizeof err, "expected AUTH, got %s",
			 wire_type_name(m->type) ? wire_type_name(m->type)
						 : "an unknown message type");
		dmn_conn_error(c, WIRE_EPROTO, m->seq, err, 1);
		return;
	}
	if (wire_unpack_auth(m, tok, err, sizeof err) != 0) {
		dmn_conn_error(c, WIRE_EMALFORMED, m->seq, err, 1);
		return;
	}
	if (cfg->check_token && !wire_token_equal(tok, cfg->token)) {
		dmn_conn_error(c, WIRE_EAUTH, m->seq,
			       "authentication failed: bad token", 1);
		return;
	}
	memset(tok, 0, sizeof tok);
	if (dmn_server_consoles(c->srv) >= DMN_MAX_CONSOLES) {
		snprintf(err, sizeof err, "too many connections (limit %d)",
			 DMN_MAX_CONSOLES);
		dmn_conn_error(c, WIRE_EBUSY, m->seq, err, 1);
		return;
	}
	wire_pack_auth_ok(&c->peer.out, wire_peer_seq(&c->peer),
			  cfg->check_token ? "token" : "transport",
			  c->peer.max_frame);
	c->peer.dec.max = c->peer.max_frame;
	dmn_timer_del(c->srv->loop, c->timer);
	c->timer = 0;
	c->state = DMN_ST_READY;
	dmn_log(DMN_INFO, "conn %llu: %s authenticated by %s",
		(unsigned long long)c->id, c->addr,
		cfg->check_token ? "token" : "transport");
}

/* State TASK: a task names its process with TASK_HELLO. */
static void dmn_on_task_hello(dmn_conn *c, const wire_msg *m)
{
	char err[WIRE_TEXT_MAX];
	int rc;

	if (m->type != WIRE_TASK_HELLO) {
		snprintf(err, sizeof err, "expected TASK_HELLO, got %s",
			 wire_type_name(m->type) ? wire_type_name(m->type)
						 : "an unknown message type");
		dmn_conn_error(c, WIRE_EPROTO, m->seq, err, 1);
		return;
	}
	rc = c->srv->ops->task_hello(c->srv, c, m, err, sizeof err);
	if (rc != 0) {
		dmn_conn_error(c, rc, m->seq, err, 1);
		return;
	}
	c->peer.dec.max = c->peer.max_frame;
	dmn_timer_del(c->srv->loop, c->timer);
	c->timer = 0;
	c->state = DMN_ST_READY;
}

/* PING: answer with our receive and send clock readings. */
static void dmn_on_ping(dmn_conn *c, const wire_msg *m, uint64_t t_recv)
{
	wire_pong p;
	char err[WIRE_TEXT_MAX];

	if (wire_unpack_ping(m, &p.t_console, err, sizeof err) != 0) {
		dmn_conn_error(c, WIRE_EMALFORMED, m->seq, err, 0);
		return;
	}
	p.t_recv = t_recv;
	p.t_send = wire_now_ns();
	if (wire_pack_pong(&c->peer.out, wire_peer_seq(&c->peer), &p,
			   c->peer.max_frame) != 0)
		dmn_conn_close_soon(c);
}

/* The pad LINK_ECHO sends back: zeroes, grown as asked, kept (fresh
 * memory for each probe would add its page faults to the time). */
static unsigned char *dmn_link_pad;
static size_t dmn_link_padcap;

/* LINK_PROBE: the console measures the path to this node (a pad of its
 * size one way, want bytes back): answer at once with our receive and
 * send times and want bytes of pad, within the frame limit. */
static void dmn_on_link_probe(dmn_conn *c, const wire_msg *m,
			      uint64_t t_recv)
{
	char err[WIRE_TEXT_MAX];
	uint64_t t_console, want, t_send;
	const char *pad;
	size_t padlen;
	void *back;
	int rc;

	if (wire_unpack(m, err, sizeof err, &t_console, &want, &pad,
			&padlen) != 0) {
		dmn_conn_error(c, WIRE_EMALFORMED, m->seq, err, 0);
		return;
	}
	if (want > c->peer.max_frame / 2) {
		snprintf(err, sizeof err, "LINK_PROBE: want %llu bytes: over "
			 "half the frame limit (%zu)",
			 (unsigned long long)want, c->peer.max_frame);
		dmn_conn_error(c, WIRE_EARG, m->seq, err, 0);
		return;
	}
	if (want > dmn_link_padcap) {
		back = realloc(dmn_link_pad, (size_t)want);
		if (back == NULL) {
			dmn_conn_error(c, WIRE_ENOMEM, m->seq,
				       "LINK_PROBE: out of memory", 0);
			return;
		}
		memset((unsigned char *)back + dmn_link_padcap, 0,
		       (size_t)want - dmn_link_padcap);
		dmn_link_pad = back;
		dmn_link_padcap = (size_t)want;
	}
	t_send = wire_now_ns();
	rc = wire_pack(&c->peer.out, WIRE_LINK_ECHO, wire_peer_seq(&c->peer),
		       c->peer.max_frame, t_console, t_recv, t_send,
		       dmn_link_pad, (size_t)want);
	if (rc != 0)
		dmn_conn_close_soon(c);
}

/* Refuses with EBUSY when another connection controls the node.  0 when
 * c may take control (or has it). */
static int dmn_conn_busy(dmn_conn *c, const wire_msg *m)
{
	dmn_server *srv = c->srv;
	char err[WIRE_TEXT_MAX];

	if (srv->controller == NULL || srv->controller == c)
		return 0;
	snprintf(err, sizeof err, "node %s is controlled by console %s "
		 "since %s", srv->hello.node, srv->ctl_console,
		 srv->ctl_since);
	dmn_conn_error(c, WIRE_EBUSY, m->seq, err, 0);
	return -1;
}

/* Makes c the controller, for console name. */
static void dmn_conn_take(dmn_conn *c, const char *name)
{
	dmn_server *srv = c->srv;
	struct tm tm;
	time_t now = time(NULL);

	srv->controller = c;
	snprintf(srv->ctl_console, sizeof srv->ctl_console, "%s", name);
	if (localtime_r(&now, &tm) == NULL ||
	    strftime(srv->ctl_since, sizeof srv->ctl_since, "%H:%M:%S",
		     &tm) == 0)
		snprintf(srv->ctl_since, sizeof srv->ctl_since, "?");
}

/* SESSION_OPEN: a new session, if nobody holds control, else EBUSY. */
static void dmn_on_session_open(dmn_conn *c, const wire_msg *m)
{
	dmn_server *srv = c->srv;
	char name[WIRE_NAME_MAX], err[WIRE_TEXT_MAX];

	if (wire_unpack_session_open(m, name, err, sizeof err) != 0) {
		dmn_conn_error(c, WIRE_EMALFORMED, m->seq, err, 0);
		return;
	}
	if (dmn_conn_busy(c, m) != 0)
		return;
	if (srv->controller == NULL) {
		dmn_conn_take(c, name);
		srv->next_session++;
		dmn_log(DMN_INFO, "conn %llu: console %s controls session %llu",
			(unsigned long long)c->id, name,
			(unsigned long long)srv->next_session);
		srv->ops->session(srv, srv->next_session);
		srv->ctl_session = srv->next_session;
	}
	if (wire_pack_session_ok(&c->peer.out, wire_peer_seq(&c->peer),
				 srv->ctl_session, c->peer.max_frame) != 0)
		dmn_conn_close_soon(c);
}

/* SESSION_ATTACH: takes back a detached session (0: the one detached
 * last), with its processes and unacknowledged events. */
static void dmn_on_session_attach(dmn_conn *c, const wire_msg *m)
{
	dmn_server *srv = c->srv;
	char name[WIRE_NAME_MAX], err[WIRE_TEXT_MAX];
	uint64_t want, got;

	if (wire_unpack(m, err, sizeof err, name, sizeof name, &want) != 0) {
		dmn_conn_error(c, WIRE_EMALFORMED, m->seq, err, 0);
		return;
	}
	if (dmn_conn_busy(c, m) != 0)
		return;
	if (srv->controller == c) {
		snprintf(err, sizeof err, "this connection controls session "
			 "%llu already", (unsigned long long)srv->ctl_session);
		dmn_conn_error(c, WIRE_ESTATE, m->seq, err, 0);
		return;
	}
	dmn_conn_take(c, name);
	got = srv->ops->attach(srv, want, err, sizeof err);
	if (got == 0) {
		srv->controller = NULL;
		srv->ctl_console[0] = '\0';
		dmn_conn_error(c, WIRE_ESTATE, m->seq, err, 0);
		return;
	}
	srv->ctl_session = got;
	dmn_log(DMN_INFO, "conn %llu: console %s attached to session %llu",
		(unsigned long long)c->id, name, (unsigned long long)got);
	if (wire_pack_session_ok(&c->peer.out, wire_peer_seq(&c->peer), got,
				 c->peer.max_frame) != 0) {
		dmn_conn_close_soon(c);
		return;
	}
	srv->ops->replay(srv);
}

/* True for the session messages only the controller may send. */
static int dmn_is_session_msg(uint32_t type)
{
	switch (type) {
	case WIRE_FILE_PUT:
	case WIRE_BUILD:
	case WIRE_RUN:
	case WIRE_KILL:
	case WIRE_INSPECT:
	case WIRE_SET:
	case WIRE_WATCH:
	case WIRE_RESUME:
	case WIRE_STEP:
	case WIRE_BP_SET:
	case WIRE_STOP:
	case WIRE_EVENTS_ACK:
	case WIRE_CONSOLE_CPU:
	case WIRE_PVM_HOST:
		return 1;
	}
	return 0;
}

/* A session message: served for the controller, refused otherwise. */
static void dmn_on_session_msg(dmn_conn *c, const wire_msg *m)
{
	dmn_server *srv = c->srv;
	char err[WIRE_TEXT_MAX];

	if (srv->controller == c) {
		srv->ops->console(srv, c, m);
		return;
	}
	if (srv->controller != NULL)
		snprintf(err, sizeof err, "%s: node %s is controlled by "
			 "console %s since %s", wire_type_name(m->type),
			 srv->hello.node, srv->ctl_console, srv->ctl_since);
	else
		snprintf(err, sizeof err, "%s needs a session: send "
			 "SESSION_OPEN first", wire_type_name(m->type));
	dmn_conn_error(c, srv->controller ? WIRE_EBUSY : WIRE_EPROTO, m->seq,
		       err, 0);
}

/* State READY: every message after authentication. */
static void dmn_on_ready(dmn_conn *c, const wire_msg *m, uint64_t t_recv)
{
	char err[WIRE_TEXT_MAX];

	if (c->task) {
		c->srv->ops->task_msg(c->srv, c, m);
		return;
	}
	if (dmn_is_session_msg(m->type)) {
		dmn_on_session_msg(c, m);
		return;
	}
	switch (m->type) {
	case WIRE_PING:
		dmn_on_ping(c, m, t_recv);
		return;
	case WIRE_LINK_PROBE:
		dmn_on_link_probe(c, m, t_recv);
		return;
	case WIRE_REXEC:
	case WIRE_REXEC_IO:
		c->srv->ops->rexec_msg(c->srv, c, m);
		return;
	case WIRE_SESSION_OPEN:
		dmn_on_session_open(c, m);
		return;
	case WIRE_SESSION_ATTACH:
		dmn_on_session_attach(c, m);
		return;
	case WIRE_SESSION_LIST:
		c->srv->ops->sessions(c->srv, c, m);
		return;
	case WIRE_BYE:
		dmn_log(DMN_INFO, "conn %llu: BYE from %s",
			(unsigned long long)c->id, c->console);
		dmn_conn_close_soon(c);
		return;
	case WIRE_ERROR:
		dmn_log(DMN_WARN, "conn %llu: peer reported an error",
			(unsigned long long)c->id);
		return;
	}
	if (wire_type_name(m->type) == NULL) {
		snprintf(err, sizeof err, "unknown message type %u", m->type);
		dmn_conn_error(c, WIRE_EUNKNOWN, m->seq, err, 0);
		return;
	}
	snprintf(err, sizeof err, "%s is not expected from a console now",
		 wire_type_name(m->type));
	dmn_conn_error(c, WIRE_EPROTO, m->seq, err, 0);
}

/* Routes one decoded frame by state. */
static void dmn_conn_handle(dmn_conn *c, const wire_msg *m, uint64_t t_recv)
{
	switch (c->state) {
	case DMN_ST_HELLO:
		dmn_on_hello(c, m);
		break;
	case DMN_ST_AUTH:
		dmn_on_auth(c, m);
		break;
	case DMN_ST_TASK:
		dmn_on_task_hello(c, m);
		break;
	case DMN_ST_READY:
		dmn_on_ready(c, m, t_recv);
		break;
	}
}

/* ---- loop callbacks ------------------------------------------------------ */

/* Reads what is there and handles every complete frame. */
static void dmn_conn_on_read(dmn_loop *l, int fd, void *ctx)
{
	dmn_conn *c = ctx;
	wire_msg m;
	int rc;

	rc = wire_peer_fill(&c->peer);
	if (rc < 0 && rc != WIRE_EEOF) {
		dmn_conn_drop(c, c->peer.errmsg);
		return;
	}
	while (!c->closing) {
		rc = wire_peer_next(&c->peer, &m);
		if (rc == 0)
			break;
		if (rc == 1) {
			dmn_conn_handle(c, &m, wire_now_ns());
			continue;
		}
		if (rc == WIRE_EEOF) {
			dmn_conn_drop(c, "closed by peer");
			return;
		}
		/* The stream cannot be resynchronised: say why, then close. */
		dmn_conn_error(c, rc, 0, c->peer.errmsg, 1);
	}
	dmn_conn_sync(c);
}

/* Output can move: flush and update the interest. */
static void dmn_conn_on_write(dmn_loop *l, int fd, void *ctx)
{
	dmn_conn_sync(ctx);
}

/* The descriptor failed or hung up. */
static void dmn_conn_on_error(dmn_loop *l, int fd, void *ctx)
{
	dmn_conn_drop(ctx, "connection lost");
}

/* Handshake timer: HELLO and AUTH did not arrive in time. */
static void dmn_conn_handshake_expired(dmn_loop *l, long id, void *ctx)
{
	dmn_conn *c = ctx;

	c->timer = 0;
	dmn_conn_error(c, WIRE_ETIMEOUT, 0, "handshake not completed within "
		       "10 s", 1);
	dmn_conn_sync(c);
}

/* ---- server -------------------------------------------------------------- */

void dmn_server_init(dmn_server *srv, dmn_loop *loop, const dmn_config *cfg)
{
	memset(srv, 0, sizeof *srv);
	srv->loop = loop;
	srv->cfg = cfg;
	wire_hello_local(&srv->hello, "daemon", cfg->name, PVT_PORT_NAME);
	srv->hello.version = cfg->proto_version;
	srv->hello.ncaps = 5;
	snprintf(srv->hello.caps[0], sizeof srv->hello.caps[0], "ping");
	snprintf(srv->hello.caps[1], sizeof srv->hello.caps[1], "session");
	/* tasks may write their events into a shared ring (dmn_ring.h) */
	snprintf(srv->hello.caps[2], sizeof srv->hello.caps[2], "ring1");
	/* and map a control page for live breakpoints (dmn_ctl.h) */
	snprintf(srv->hello.caps[3], sizeof srv->hello.caps[3], "ctl1");
	/* and make their rings in memory (pvt_ring_memdir) */
	snprintf(srv->hello.caps[4], sizeof srv->hello.caps[4], "ringmem");
}

/* Registers c's descriptors with the loop.  0 or -1. */
static int dmn_conn_register(dmn_conn *c)
{
	dmn_loop *l = c->srv->loop;

	if (dmn_loop_add(l, c->rfd, &dmn_conn_ops, c, 1) != 0)
		return -1;
	if (c->wfd != c->rfd &&
	    dmn_loop_add(l, c->wfd, &dmn_conn_wops, c, 0) != 0) {
		dmn_loop_del(l, c->rfd);
		return -1;
	}
	return 0;
}

/* Opens a console (task == 0) or task connection; see dmn_conn_open. */
static int dmn_conn_open2(dmn_server *srv, int rfd, int wfd,
			  const char *addr, int task, void *via)
{
	dmn_conn *c;
	wire_io io;
	char host[64];
	int slot;

	snprintf(host, sizeof host, "%.*s", (int)strcspn(addr, ":"), addr);
	if (!task)
		dmn_server_make_room(srv, host);
	slot = dmn_server_slot(srv);
	c = slot < 0 ? NULL : calloc(1, sizeof *c);
	wire_io_fd(&io, rfd, wfd);
	if (c == NULL) {
		if (io.close != NULL)
			io.close(io.ctx);
		else
			close(rfd);
		return WIRE_ENOMEM;
	}
	if (wire_peer_init(&c->peer, &io, srv->cfg->max_frame) != 0)
		goto out_free;
	c->srv = srv;
	c->rfd = rfd;
	c->wfd = wfd;
	c->slot = slot;
	c->id = ++srv->next_id;
	c->task = task;
	c->via = via;
	snprintf(c->addr, sizeof c->addr, "%s", addr);
	snprintf(c->host, sizeof c->host, "%s", host);
	c->peer.dec.max = DMN_PREAUTH_FRAME < c->peer.max_frame
				  ? DMN_PREAUTH_FRAME
				  : c->peer.max_frame;
	if (dmn_conn_register(c) != 0)
		goto out_peer;
	srv->conns[slot] = c;
	srv->nconns++;
	c->timer = dmn_timer_add(srv->loop, DMN_HANDSHAKE_MS,
				 dmn_conn_handshake_expired, c);
	dmn_log(DMN_INFO, "conn %llu: connection from %s",
		(unsigned long long)c->id, addr);
	wire_pack_hello(&c->peer.out, wire_peer_seq(&c->peer), &srv->hello,
			c->peer.max_frame);
	/* A socket (not a stdio pair, which may block): what the peer sent
	 * while it waited in the listen queue is read now.  A console
	 * sends HELLO and AUTH at once, so it is authenticated before the
	 * next connection is accepted and no flood can push it out. */
	if (dmn_conn_sync(c) == 0 && rfd == wfd)
		dmn_conn_on_read(srv->loop, rfd, c);
	return 0;
out_peer:
	wire_peer_destroy(&c->peer);
out_free:
	free(c);
	return WIRE_ENOMEM;
}

int dmn_conn_open(dmn_server *srv, int rfd, int wfd, const char *addr)
{
	return dmn_conn_open2(srv, rfd, wfd, addr, 0, NULL);
}

int dmn_conn_open_task(dmn_server *srv, int fd, const char *addr, void *via)
{
	return dmn_conn_open2(srv, fd, fd, addr, 1, via);
}

void *dmn_conn_via(const dmn_conn *c)
{
	return c->via;
}

unsigned long long dmn_conn_id(const dmn_conn *c)
{
	return (unsigned long long)c->id;
}

int dmn_conn_local(const dmn_conn *c)
{
	return c->local;
}

wire_peer *dmn_conn_peer(dmn_conn *c)
{
	return c->closing ? NULL : &c->peer;
}

int dmn_conn_local_ip(dmn_conn *c, char *buf, size_t n)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;

	if (c == NULL || getsockname(c->rfd, (struct sockaddr *)&sin, &len) != 0 ||
	    sin.sin_family != AF_INET ||
	    inet_ntop(AF_INET, &sin.sin_addr, buf, (socklen_t)n) == NULL)
		return -1;
	return 0;
}

void dmn_conn_kick(dmn_conn *c)
{
	dmn_loop_want_write(c->srv->loop, c->wfd, 1);
}

void dmn_conn_fail(dmn_conn *c, int code, uint32_t ref, const char *text,
		   int fatal)
{
	if (c->closing)
		return;
	dmn_conn_error(c, code, ref, text, fatal);
	dmn_conn_kick(c);
}

void dmn_server_shutdown(dmn_server *srv, const char *reason, unsigned ms)
{
	uint64_t deadline = wire_now_ns() + (uint64_t)ms * 1000000u;
	dmn_conn *c;
	int i;

	for (i = 0; i < srv->cap_conns; i++) {
		c = srv->conns[i];
		if (c == NULL)
			continue;
		wire_pack_bye(&c->peer.out, wire_peer_seq(&c->peer), reason,
			      c->peer.max_frame);
		wire_peer_drain(&c->peer, deadline);
		srv->stop_when_idle = 0;
		dmn_conn_drop(c, reason);
	}
}
