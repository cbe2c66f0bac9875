/*
 * con_node.c — the node table and the console side of the protocol
 * (con_node.h).
 *
 * Layout: the table (a singly linked list in insertion order) and its
 * lookups; opening a transport (TCP or SSH) and finding the token; the
 * request/answer helper con_node_expect() through which every wait passes
 * (always with a deadline); the handshake; connecting; the non-blocking
 * check that notices nodes going down; closing.  Pings, the clock
 * estimate and re-sampling during waits are in con_node_clock.c (what the
 * two share is in con_node_int.h).
 *
 * Error sentences of the inner steps carry no node name; con_node_connect()
 * is the one place that prefixes "node NAME: " and records the reason.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "con_clk.h"
#include "con_node_int.h"
#include "con_tcp.h"
#include "wire.h"
#include "wire_fmt.h"
#include "wire_token.h"

#define CON_NODE_CONNECT_MS 5000            /* TCP connect limit */
#define CON_NODE_SSH_MS 10000               /* SSH set-up limit */
#define CON_NODE_WAIT_NS 10000000000ull     /* one answer's limit (10 s) */
#define CON_NODE_BYE_NS 300000000ull        /* flush of BYE when leaving */
#define CON_NODE_EVICT_TRIES 4              /* openings when evicted */
#define CON_NODE_EVICT_PAUSE_NS 50000000L   /* before the next, 50 ms */

static con_node *con_nodes;                     /* the table */
static char con_token_file[CON_NODE_PATH_MAX];  /* global --token-file */
static con_node_msg_fn *con_msg_hook;           /* frames for others */
static void *con_msg_ctx;                       /* its context */

/* ---- table ------------------------------------------------------------ */

/* Remembers the frame hook. */
void con_node_set_msg_hook(con_node_msg_fn *fn, void *ctx)
{
	con_msg_hook = fn;
	con_msg_ctx = ctx;
}

/* Offers a frame to the hook.  1 if it was consumed. */
static int con_node_offer(con_node *n, const wire_msg *m)
{
	return con_msg_hook != NULL && con_msg_hook(n, m, con_msg_ctx);
}

/* Remembers the global --token-file. */
void con_node_set_token_file(const char *path)
{
	snprintf(con_token_file, sizeof con_token_file, "%s",
		 path != NULL ? path : "");
}

/* Checks a node name against [A-Za-z0-9_.-]{1,32}. */
int con_node_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n < 1 || n >= CON_NODE_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) &&
		    strchr("_.-", name[i]) == NULL)
			return 0;
	return 1;
}

/* Linear lookup by name (tables are small). */
con_node *con_node_find(const char *name)
{
	con_node *n;

	for (n = con_nodes; n != NULL; n = n->next)
		if (strcmp(n->spec.name, name) == 0)
			return n;
	return NULL;
}

/* Head of the table. */
con_node *con_node_first(void)
{
	return con_nodes;
}

/* Appends n at the end of the table. */
static void con_node_link(con_node *n)
{
	con_node **pp = &con_nodes;

	while (*pp != NULL)
		pp = &(*pp)->next;
	n->next = NULL;
	*pp = n;
}

/* Takes n out of the table (it is not freed). */
static void con_node_unlink(con_node *n)
{
	con_node **pp = &con_nodes;

	while (*pp != NULL && *pp != n)
		pp = &(*pp)->next;
	if (*pp != NULL)
		*pp = n->next;
}

/* Marks n down with reason (copied first: it may live in n->peer) and
 * closes its transport. */
void con_node_down(con_node *n, const char *reason)
{
	char why[WIRE_TEXT_MAX];

	snprintf(why, sizeof why, "%.*s", (int)sizeof why - 1, reason);
	if (n->up)
		wire_peer_destroy(&n->peer);
	n->up = 0;
	snprintf(n->reason, sizeof n->reason, "%s", why);
}

/* Queues BYE on an up node and gives it until deadline to leave, then
 * closes; the node is left down with reason. */
static void con_node_say_bye(con_node *n, const char *reason,
			     uint64_t deadline)
{
	if (!n->up)
		return;
	if (wire_pack_bye(wire_peer_out(&n->peer), wire_peer_seq(&n->peer),
			  reason, n->peer.max_frame) == 0)
		wire_peer_drain(&n->peer, deadline);
	con_node_down(n, reason);
}

/* ---- transport and token ---------------------------------------------- */

/* Opens the transport named by the spec.  0 with *io, or a code. */
static int con_node_open_io(con_node *n, wire_io *io, char *err,
			    size_t errlen)
{
	char host[256], port[16];
	con_ssh_opts o;
	int fd, rc;

	if (n->spec.is_ssh) {
		o = n->spec.ssh;
		if (o.timeout_ms <= 0)
			o.timeout_ms = CON_NODE_SSH_MS;
		return con_ssh_open(&o, io, err, errlen) == 0 ? 0 : WIRE_EIO;
	}
	rc = con_tcp_split(n->spec.addr, host, sizeof host, port, sizeof port,
			   err, errlen);
	if (rc == 0)
		rc = con_tcp_connect(host, port, CON_NODE_CONNECT_MS, &fd, err,
				     errlen);
	if (rc < 0)
		return rc;
	wire_io_fd(io, fd, fd);
	if (io->ctx == NULL) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	return 0;
}

/* Finds and loads the token: the node's --token-file, else the global one,
 * else ~/.paravt/token.  Over SSH a token is optional unless a file was
 * named.  0 with tok (maybe "") and n->token_path set, or WIRE_EAUTH. */
static int con_node_token(con_node *n, char tok[WIRE_TOKEN_MAX], char *err,
			  size_t errlen)
{
	const char *path = n->spec.token_file;
	int named = 1, rc;

	if (path[0] == '\0')
		path = con_token_file;
	if (path[0] == '\0') {
		named = 0;
		if (wire_token_default_path(n->token_path,
					    sizeof n->token_path) != 0)
			n->token_path[0] = '\0';
	} else {
		snprintf(n->token_path, sizeof n->token_path, "%s", path);
	}
	tok[0] = '\0';
	rc = wire_token_load(n->token_path, 0, tok, err, errlen);
	if (rc < 0 && n->spec.is_ssh && !named) {
		n->token_path[0] = '\0';
		tok[0] = '\0';
		return 0;
	}
	return rc;
}

/* ---- waiting for answers ---------------------------------------------- */

/* Turns an ERROR frame into a code and the daemon's sentence in err. */
static int con_node_remote_error(const wire_msg *m, char *err, size_t errlen)
{
	wire_error_msg e;
	char why[160];

	if (wire_unpack_error(m, &e, why, sizeof why) != 0) {
		snprintf(err, errlen, "malformed ERROR from the daemon: %s",
			 why);
		return WIRE_EMALFORMED;
	}
	snprintf(err, errlen, "%s", e.message[0] != '\0' ? e.message :
		 wire_strerror(-(int)e.code));
	return e.code > 0 && e.code < 1000 ? -(int)e.code : WIRE_EPROTO;
}

/*
 * Flushes output and waits (deadline: CON_NODE_WAIT_NS) for a frame of
 * type want, skipping anything else but ERROR and BYE.  0 with *m
 * (borrowed until the next read), the code of an ERROR answer with its
 * sentence in err (*broken = 0), or a transport failure, BYE or timeout
 * with *broken = 1 (the connection cannot be used any more).
 */
int con_node_expect(con_node *n, uint32_t want, wire_msg *m,
		    int *broken, char *err, size_t errlen)
{
	uint64_t deadline = wire_now_ns() + CON_NODE_WAIT_NS;
	char reason[WIRE_TEXT_MAX], why[160];
	int rc;

	*broken = 1;
	for (;;) {
		rc = wire_peer_wait(&n->peer, m, deadline);
		if (rc == WIRE_ETIMEOUT) {
			snprintf(err, errlen, "no %s from the daemon within "
				 "%llu s", wire_type_name(want),
				 CON_NODE_WAIT_NS / 1000000000ull);
			return rc;
		}
		if (rc < 0) {
			snprintf(err, errlen, "%s", n->peer.errmsg[0] != '\0' ?
				 n->peer.errmsg : wire_strerror(rc));
			return rc;
		}
		if (m->type == want)
			break;
		if (m->type == WIRE_ERROR && con_node_offer(n, m))
			continue;
		if (m->type == WIRE_ERROR) {
			*broken = 0;
			return con_node_remote_error(m, err, errlen);
		}
		if (m->type == WIRE_BYE) {
			if (wire_unpack_bye(m, reason, why, sizeof why) != 0)
				snprintf(reason, sizeof reason, "?");
			snprintf(err, errlen, "daemon closed the connection: "
				 "%.400s", reason);
			return WIRE_EEOF;
		}
		con_node_offer(n, m);
	}
	*broken = 0;
	return 0;
}

/* ---- handshake -------------------------------------------------------- */

/* Sends HELLO and AUTH (token tok), waits for the daemon's HELLO and
 * checks it.  0 or a code with err. */
static int con_node_hello(con_node *n, wire_hello *me, const char *tok,
			  char *err, size_t errlen)
{
	wire_hello h;
	wire_msg m;
	char why[160];
	int rc, broken;

	rc = wire_pack_hello(wire_peer_out(&n->peer), wire_peer_seq(&n->peer),
			     me, n->peer.max_frame);
	if (rc == 0)
		rc = wire_pack_auth(wire_peer_out(&n->peer),
				    wire_peer_seq(&n->peer), tok,
				    n->peer.max_frame);
	if (rc == 0)
		rc = con_node_expect(n, WIRE_HELLO, &m, &broken, err, errlen);
	if (rc < 0)
		return rc;
	memset(&h, 0, sizeof h);
	rc = wire_unpack_hello(&m, &h, why, sizeof why);
	if (rc < 0 && h.version == WIRE_PROTO_VERSION) {
		snprintf(err, errlen, "malformed HELLO from the daemon: %s",
			 why);
		return rc;
	}
	rc = wire_hello_check(&h, "daemon", err, errlen);
	if (rc < 0)
		return rc;
	n->hello = h;
	n->have_hello = 1;
	n->local = wire_hello_local_peer(me, &h);
	return 0;
}

/* Waits for AUTH_OK (AUTH left with HELLO).  0 or a code with err. */
static int con_node_auth(con_node *n, char *err, size_t errlen)
{
	char said[WIRE_TEXT_MAX];
	wire_msg m;
	int rc, broken;

	rc = con_node_expect(n, WIRE_AUTH_OK, &m, &broken, said, sizeof said);
	if (rc == WIRE_EAUTH)
		snprintf(err, errlen, "authentication failed: bad token "
			 "(token file %.200s); daemon said: \"%.200s\"",
			 n->token_path[0] != '\0' ? n->token_path : "none",
			 said);
	else if (rc < 0)
		snprintf(err, errlen, "authentication: %.400s", said);
	return rc;
}

/* Sends SESSION_OPEN (attach < 0) or SESSION_ATTACH(attach) and waits
 * for SESSION_OK.  0 with n->session, or a code with what the daemon said
 * in said. */
static int con_node_session_ask(con_node *n, const wire_hello *me,
				int64_t attach, char *said, size_t saidlen)
{
	wire_msg m;
	int rc, broken;

	if (attach >= 0)
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_SESSION_ATTACH,
			       wire_peer_seq(&n->peer), n->peer.max_frame,
			       me->node, (uint64_t)attach);
	else
		rc = wire_pack_session_open(wire_peer_out(&n->peer),
					    wire_peer_seq(&n->peer), me->node,
					    n->peer.max_frame);
	if (rc == 0)
		rc = con_node_expect(n, WIRE_SESSION_OK, &m, &broken, said,
				     saidlen);
	if (rc == 0)
		rc = wire_unpack_session_ok(&m, &n->session, said, saidlen);
	return rc;
}

/* Asks for the session: a reconnection takes back the one it had (a new
 * one when the daemon no longer has it), --attach takes one another
 * console left, else a new one.  0 with n->session, or a code with err
 * (EBUSY when another console holds the node). */
static int con_node_session(con_node *n, const wire_hello *me, char *err,
			    size_t errlen)
{
	char said[WIRE_TEXT_MAX];
	int64_t attach = n->session != 0 ? (int64_t)n->session
		       : n->spec.attach ? (int64_t)n->spec.attach_id : -1;
	uint64_t was = n->session;
	int rc;

	rc = con_node_session_ask(n, me, attach, said, sizeof said);
	if (rc == WIRE_ESTATE && n->session != 0) {
		n->session = 0; /* gone (daemon restarted, or timed out) */
		rc = con_node_session_ask(n, me, -1, said, sizeof said);
	}
	if (rc == 0 && n->session != was)
		n->cpu_ns = 0; /* CONSOLE_CPU counts from 0 in a session */
	if (rc == WIRE_EBUSY && strstr(said, "busy") == NULL)
		snprintf(err, errlen, "busy: %.400s", said);
	else if (rc < 0)
		snprintf(err, errlen, "%s", said);
	return rc;
}

/* ---- connecting ------------------------------------------------------- */

/* Opens the transport and runs the whole opening of the protocol.  On
 * success n is up; otherwise n is down with the failure as reason and err
 * says "node NAME: ...". */
/* Opens the transport and runs HELLO and AUTH.  0, or a code with why
 * (the connection closed again). */
static int con_node_open_auth_once(con_node *n, wire_hello *me, char *why,
				   size_t whylen)
{
	char tok[WIRE_TOKEN_MAX];
	wire_io io;
	int rc;

	rc = con_node_token(n, tok, why, whylen);
	if (rc == 0)
		rc = con_node_open_io(n, &io, why, whylen);
	if (rc < 0)
		goto out;
	rc = wire_peer_init(&n->peer, &io, WIRE_FRAME_MAX_DEFAULT);
	if (rc < 0) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	wire_hello_local(me, "console", NULL, PVT_PORT_NAME);
	/* HELLO and AUTH leave together: a daemon under a flood of
	 * connections that never authenticate reads both at accept */
	rc = con_node_hello(n, me, tok, why, whylen);
	if (rc == 0)
		rc = con_node_auth(n, why, whylen);
	if (rc < 0)
		wire_peer_destroy(&n->peer);
out:
	explicit_bzero(tok, sizeof tok);
	return rc;
}

/* con_node_open_auth_once, again after a pause when the daemon dropped
 * the connection before it authenticated to make room for newer ones
 * (EBUSY "dropped: too many unauthenticated connections": a flood from
 * the console's own address; the oldest go first), at most
 * CON_NODE_EVICT_TRIES times.  0 or a code with why. */
static int con_node_open_auth(con_node *n, wire_hello *me, char *why,
			      size_t whylen)
{
	struct timespec pause = {0, CON_NODE_EVICT_PAUSE_NS};
	int rc, tries = 1;

	while ((rc = con_node_open_auth_once(n, me, why, whylen)) ==
	       WIRE_EBUSY && strstr(why, "unauthenticated") != NULL &&
	       tries++ < CON_NODE_EVICT_TRIES)
		nanosleep(&pause, NULL);
	return rc;
}

static int con_node_connect(con_node *n, char *err, size_t errlen)
{
	char why[WIRE_TEXT_MAX];
	wire_hello me;
	int rc;

	rc = con_node_open_auth(n, &me, why, sizeof why);
	if (rc < 0)
		goto out_fail;
	rc = con_node_session(n, &me, why, sizeof why);
	if (rc == 0)
		rc = con_node_clock_init(n, why, sizeof why);
	if (rc == 0)
		rc = con_node_link_measure(n, why, sizeof why);
	if (rc < 0)
		goto out_peer;
	n->up = 1;
	n->reason[0] = '\0';
	n->untold = 0;
	return 0;
out_peer:
	wire_peer_destroy(&n->peer);
out_fail:
	n->up = 0;
	snprintf(n->reason, sizeof n->reason, "%s", why);
	snprintf(err, errlen, "node %s: %.450s", n->spec.name, why);
	return rc;
}

int con_node_sessions(const con_node_spec *spec, FILE *out, char *err,
		      size_t errlen)
{
	const msgpack_object *list, *e;
	char why[WIRE_TEXT_MAX];
	con_node n;
	wire_hello me;
	wire_msg m;
	uint32_t i;
	int rc, broken;

	memset(&n, 0, sizeof n);
	n.spec = *spec;
	rc = con_node_open_auth(&n, &me, why, sizeof why);
	if (rc == 0)
		rc = wire_pack(wire_peer_out(&n.peer), WIRE_SESSION_LIST,
			       wire_peer_seq(&n.peer), n.peer.max_frame);
	if (rc == 0)
		rc = con_node_expect(&n, WIRE_SESSIONS, &m, &broken, why,
				     sizeof why);
	if (rc == 0)
		rc = wire_unpack(&m, why, sizeof why, &list);
	if (rc == 0 && list->type != MSGPACK_OBJECT_ARRAY) {
		snprintf(why, sizeof why, "SESSIONS: not a list");
		rc = WIRE_EMALFORMED;
	}
	for (i = 0; rc == 0 && i < list->via.array.size; i++) {
		e = &list->via.array.ptr[i];
		if (e->type != MSGPACK_OBJECT_ARRAY || e->via.array.size < 5 ||
		    e->via.array.ptr[1].type != MSGPACK_OBJECT_STR)
			continue;
		fprintf(out, "%s: session %llu of console %.*s, detached %llu "
			"s ago, %llu process(es), %llu batch(es) of events "
			"waiting\n", spec->name,
			(unsigned long long)e->via.array.ptr[0].via.u64,
			(int)e->via.array.ptr[1].via.str.size,
			e->via.array.ptr[1].via.str.ptr,
			(unsigned long long)e->via.array.ptr[2].via.u64,
			(unsigned long long)e->via.array.ptr[3].via.u64,
			(unsigned long long)e->via.array.ptr[4].via.u64);
	}
	if (rc == 0 && list->via.array.size == 0)
		fprintf(out, "%s: no detached session\n", spec->name);
	if (rc < 0)
		snprintf(err, errlen, "node %s: %.450s", spec->name, why);
	if (n.peer.max_frame != 0)
		wire_peer_destroy(&n.peer);
	return rc;
}

/* Validates the spec, connects, and links the node only on success. */
int con_node_add(const con_node_spec *spec, char *err, size_t errlen)
{
	con_node *n;
	int rc;

	if (!con_node_name_ok(spec->name)) {
		snprintf(err, errlen, "bad node name '%s': use 1 to %d of "
			 "A-Z a-z 0-9 _ . -", spec->name,
			 CON_NODE_NAME_MAX - 1);
		return WIRE_EARG;
	}
	if (con_node_find(spec->name) != NULL) {
		snprintf(err, errlen, "node %s already exists (node remove "
			 "or node reconnect it)", spec->name);
		return WIRE_EARG;
	}
	n = calloc(1, sizeof *n);
	if (n == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	n->spec = *spec;
	rc = con_node_connect(n, err, errlen);
	if (rc < 0) {
		free(n);
		return rc;
	}
	con_node_link(n);
	con_node_clock_start();
	return 0;
}

/* Says BYE if still up, then runs the whole opening again. */
int con_node_reconnect(con_node *n, char *err, size_t errlen)
{
	con_node_say_bye(n, "console reconnecting",
			 wire_now_ns() + CON_NODE_BYE_NS);
	return con_node_connect(n, err, errlen);
}

/* Says BYE, unlinks and frees. */
void con_node_remove(con_node *n)
{
	con_node_say_bye(n, "node removed by the console",
			 wire_now_ns() + CON_NODE_BYE_NS);
	con_clk_forget(n->spec.name);
	con_node_unlink(n);
	free(n);
}

/* ---- watching --------------------------------------------------------- */

/* Handles one unsolicited frame.  Returns 1 if the node went down. */
static int con_node_handle(con_node *n, const wire_msg *m,
			   con_node_event_fn *fn, void *ctx)
{
	char text[WIRE_TEXT_MAX + 32], why[160];
	wire_error_msg e;

	if (m->type == WIRE_BYE) {
		if (wire_unpack_bye(m, text, why, sizeof why) != 0 ||
		    text[0] == '\0')
			snprintf(text, sizeof text, "daemon said goodbye");
		con_node_down(n, text);
		if (fn != NULL)
			fn(n, CON_NODE_EV_DOWN, n->reason, ctx);
		return 1;
	}
	if (con_node_offer(n, m))
		return 0;
	if (m->type == WIRE_ERROR && fn != NULL) {
		if (wire_unpack_error(m, &e, why, sizeof why) == 0)
			snprintf(text, sizeof text, "%s: %s",
				 wire_errname(-(int)e.code), e.message);
		else
			snprintf(text, sizeof text, "malformed ERROR: %s",
				 why);
		fn(n, CON_NODE_EV_ERROR, text, ctx);
	}
	return 0; /* late PONGs and the like are dropped */
}

/* Reads what one up node has sent without blocking, then sends what
 * handling it queued (acknowledgements: one write for all).  1 if it
 * went down. */
static int con_node_check(con_node *n, con_node_event_fn *fn, void *ctx)
{
	wire_msg m;
	int rc;

	wire_peer_flush(&n->peer);
	wire_peer_fill(&n->peer);
	while ((rc = wire_peer_next(&n->peer, &m)) == 1)
		if (con_node_handle(n, &m, fn, ctx))
			return 1;
	if (rc == 0) {
		wire_peer_flush(&n->peer); /* (a failure shows at the next) */
		return 0;
	}
	con_node_down(n, n->peer.errmsg[0] != '\0' ? n->peer.errmsg :
		      wire_strerror(rc));
	if (fn != NULL)
		fn(n, CON_NODE_EV_DOWN, n->reason, ctx);
	return 1;
}

/* Announces what a re-sampling ping met on n.  1 if n went down. */
static int con_node_tell(con_node *n, con_node_event_fn *fn, void *ctx)
{
	n->untold = 0;
	if (fn != NULL)
		fn(n, n->untold_kind, n->untold_text, ctx);
	return n->untold_kind == CON_NODE_EV_DOWN;
}

/* Non-blocking read of every up node. */
int con_node_check_all(con_node_event_fn *fn, void *ctx)
{
	con_node *n;
	int down = 0;

	for (n = con_nodes; n != NULL; n = n->next) {
		if (n->untold)
			down += con_node_tell(n, fn, ctx);
		if (n->up)
			down += con_node_check(n, fn, ctx);
	}
	return down;
}

/* Poll entries of the up nodes, with POLLOUT while output waits. */
int con_node_pollfds(struct pollfd *pfd, int max)
{
	con_node *n;
	int k = 0;

	for (n = con_nodes; n != NULL && k < max; n = n->next) {
		if (!n->up)
			continue;
		pfd[k].fd = n->peer.io.pollfd(n->peer.io.ctx,
					      &pfd[k].events);
		if (pfd[k].fd < 0)
			continue;
		if (wire_peer_pending(&n->peer))
			pfd[k].events |= POLLOUT;
		pfd[k].revents = 0;
		k++;
	}
	return k;
}

/* BYE to every up node within one shared deadline, then frees all. */
void con_node_close_all(void)
{
	uint64_t deadline = wire_now_ns() + CON_NODE_BYE_NS;
	con_node *n, *next;

	for (n = con_nodes; n != NULL; n = next) {
		next = n->next;
		con_node_say_bye(n, "console leaving", deadline);
		free(n);
	}
	con_nodes = NULL;
}
