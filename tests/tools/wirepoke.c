/*
 * wirepoke.c — a raw protocol client for the tests: connects to a paravtd
 * (TCP, or a command's stdin/stdout with --exec), runs a script of steps
 * given on the command line, and prints every frame it receives as one
 * line ("HELLO ...", "ERROR EAUTH ref=2 ...", "PONG rtt_us=...", "CLOSED").
 *
 * It also drives the session messages (FILE_PUT, BUILD, RUN, KILL,
 * INSPECT, RESUME) and can play a task on a daemon's Unix socket (--unix,
 * --role task, --no-auth, --send TASK_HELLO:PROC:PID ...), so the shell
 * tests cover remote build, run and the task relays.  As a task it also
 * sends native event records (--events, pvt_event.h) and as a console it
 * prints the relayed events (NODE_EVENTS one "EV" line per event,
 * EVENT_STRINGS one "STR" line per name) and acknowledges them (--ack).
 *
 * Layout: options into a step list; connection set-up; a reader that
 * prints frames for a while; the step runner; main.  Host-only (C11).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pvt_event.h"
#include "wire_evpk.h"
#include "wire_fmt.h"
#include "wire_msg.h"
#include "wire_peer.h"
#include "wire_token.h"

#define WP_MAX_STEPS 256

static const char wp_usage[] =
	"usage: wirepoke [options] HOST:PORT\n"
	"       wirepoke [options] --exec COMMAND\n"
	"       wirepoke [options] --unix PATH\n"
	"\n"
	"Connects, reads the daemon's HELLO, sends HELLO and AUTH (unless told\n"
	"not to), then runs the steps in order, printing every frame received,\n"
	"one per line; \"CLOSED\" when the peer closes.\n"
	"\n"
	"  --exec COMMAND     run COMMAND (sh -c) and talk over its stdin/stdout\n"
	"  --unix PATH        connect to a Unix socket (a session's task socket)\n"
	"  --version N        protocol version in our HELLO (default 1)\n"
	"  --role ROLE        role in our HELLO (default console)\n"
	"  --host ID          host id in our HELLO (default this machine's)\n"
	"  --token T          token for AUTH\n"
	"  --token-file F     read the token from F (default ~/.paravt/token)\n"
	"  --no-hello         do not send HELLO\n"
	"  --no-auth          do not send AUTH\n"
	"  --wait-ms MS       longest wait for an answer (default 2000)\n"
	"  --linger-ms MS     at the end, read until closed or MS (default 100)\n"
	"  --ack              answer every NODE_EVENTS with EVENTS_ACK(batch)\n"
	"steps (any number, run in order):\n"
	"  --send TYPE[:ARG]  HELLO, AUTH[:token], PING, BYE[:reason],\n"
	"                     LINK_PROBE:PAD:WANT (PAD bytes up, WANT back),\n"
	"                     SESSION_OPEN[:console],\n"
	"                     SESSION_ATTACH[:console[:session]] (0: the one\n"
	"                     detached last), KILL:PROC, RESUME:PROC,\n"
	"                     INSPECT:PROC:REQ, TASK_HELLO:PROC:PID,\n"
	"                     BP_HIT:PROC:BP:FILE:LINE:FUNC, VALUE:PROC:REQ,\n"
	"                     TASK_CRASH:PROC:SIG:FILE:LINE:FUNC,\n"
	"                     TYPE_TABLE:PROC, EVENT_RING:PROC:PATH:RECS:NAMES,\n"
	"                     or a number N[:string]\n"
	"                     (a frame [N, seq] with an optional string field)\n"
	"  --put B:NAME=FILE  FILE_PUT of local FILE as NAME in build B (mode\n"
	"                     0755 if FILE is executable, else 0644)\n"
	"  --build B:PROG:SRCS[:CFLAGS[:LDFLAGS]]  BUILD; lists blank-separated\n"
	"  --run R:B:KIND:PROG[:ARGS[:LAUNCH]]  RUN (no exec, stdin, env);\n"
	"                                lists blank-separated\n"
	"  --events P:FIRST:COUNT[:BYTES]  (task) EVENT_STRINGS the first time,\n"
	"                     then EVENTS of COUNT native records seq FIRST..;\n"
	"                     BYTES: claim that many record bytes (malformed)\n"
	"  --send EVENTS_ACK:B  acknowledge batches up to B\n"
	"  --send CONSOLE_CPU:NS  report NS ns of console processor time\n"
	"  --until TYPE       read and print until a TYPE frame (or --wait-ms)\n"
	"  --until-n TYPE:N   the same until N TYPE frames came since the last\n"
	"                     --until of TYPE (each wait at most --wait-ms)\n"
	"  --raw HEX          send these bytes as they are\n"
	"  --frame-len N      send a 4-byte frame header claiming N bytes\n"
	"  --sleep-ms MS      read and print for MS ms (ends early if closed)\n"
	"  --close            close the connection now (ends the script)\n"
	"exit status: 0 script ran, 1 connection failed, 2 usage error\n";

enum wp_kind {
	WP_SEND, WP_RAW, WP_FRAMELEN, WP_SLEEP, WP_CLOSE, WP_PUT, WP_BUILD,
	WP_RUN, WP_UNTIL, WP_EVENTS, WP_UNTIL_N
};

typedef struct wp_step {
	enum wp_kind kind; /* what to do */
	const char *arg;   /* option argument */
} wp_step;

typedef struct wp_opts {
	const char *target;       /* HOST:PORT, or NULL with exec */
	const char *exec;         /* command for --exec */
	const char *unix_path;    /* socket for --unix */
	unsigned version;         /* HELLO version */
	const char *role;         /* HELLO role */
	const char *host;         /* HELLO host id, or NULL: this machine's */
	const char *token;        /* AUTH token, or NULL */
	const char *token_file;   /* token file, or NULL */
	int hello, auth;          /* send HELLO / AUTH first */
	unsigned wait_ms;         /* answer wait */
	unsigned linger_ms;       /* final read */
	int ack;                  /* acknowledge NODE_EVENTS */
	wp_step steps[WP_MAX_STEPS]; /* the script */
	int nsteps;               /* entries used */
} wp_opts;

typedef struct wp_conn {
	wire_peer peer;  /* the connection */
	pid_t child;     /* --exec child, or 0 */
	int closed;      /* peer closed or stream broken */
	unsigned char seen[256]; /* types printed since the last --until */
	unsigned cnt[256];       /* frames of each type since then */
	int ack;         /* acknowledge NODE_EVENTS as they come */
	int strings_sent; /* --events sent its EVENT_STRINGS */
	char tok[WIRE_TOKEN_MAX]; /* token for AUTH */
} wp_conn;

/* ---- options ------------------------------------------------------------- */

/* Appends a step.  0 or -1 when the script is full. */
static int wp_add_step(wp_opts *o, enum wp_kind k, const char *arg)
{
	if (o->nsteps == WP_MAX_STEPS)
		return -1;
	o->steps[o->nsteps].kind = k;
	o->steps[o->nsteps].arg = arg;
	o->nsteps++;
	return 0;
}

/* Options with a value.  1 handled, 0 not this kind, -1 bad. */
static int wp_opt_value(wp_opts *o, const char *a, const char *v)
{
	static const struct {
		const char *name;
		int step;
	} steps[] = {{"--send", WP_SEND}, {"--raw", WP_RAW},
		     {"--frame-len", WP_FRAMELEN}, {"--sleep-ms", WP_SLEEP},
		     {"--put", WP_PUT}, {"--build", WP_BUILD},
		     {"--run", WP_RUN}, {"--until", WP_UNTIL},
		     {"--events", WP_EVENTS}, {"--until-n", WP_UNTIL_N}};
	size_t i;

	for (i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (strcmp(a, steps[i].name) == 0)
			return wp_add_step(o, steps[i].step, v) == 0 ? 1 : -1;
	if (strcmp(a, "--exec") == 0)
		o->exec = v;
	else if (strcmp(a, "--unix") == 0)
		o->unix_path = v;
	else if (strcmp(a, "--version") == 0)
		o->version = (unsigned)strtoul(v, NULL, 0);
	else if (strcmp(a, "--role") == 0)
		o->role = v;
	else if (strcmp(a, "--host") == 0)
		o->host = v;
	else if (strcmp(a, "--token") == 0)
		o->token = v;
	else if (strcmp(a, "--token-file") == 0)
		o->token_file = v;
	else if (strcmp(a, "--wait-ms") == 0)
		o->wait_ms = (unsigned)strtoul(v, NULL, 10);
	else if (strcmp(a, "--linger-ms") == 0)
		o->linger_ms = (unsigned)strtoul(v, NULL, 10);
	else
		return 0;
	return 1;
}

/* Parses argv.  0 ok, 1 help printed, -1 usage error. */
static int wp_parse(int argc, char **argv, wp_opts *o)
{
	int i, r;

	memset(o, 0, sizeof *o);
	o->version = WIRE_PROTO_VERSION;
	o->role = "console";
	o->hello = o->auth = 1;
	o->wait_ms = 2000;
	o->linger_ms = 100;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(wp_usage, stdout);
			return 1;
		} else if (strcmp(a, "--no-hello") == 0)
			o->hello = 0;
		else if (strcmp(a, "--no-auth") == 0)
			o->auth = 0;
		else if (strcmp(a, "--ack") == 0)
			o->ack = 1;
		else if (strcmp(a, "--close") == 0)
			wp_add_step(o, WP_CLOSE, NULL);
		else if (a[0] == '-' && i + 1 < argc &&
			 (r = wp_opt_value(o, a, argv[i + 1])) != 0) {
			if (r < 0)
				return -1;
			i++;
		} else if (a[0] != '-' && o->target == NULL)
			o->target = a;
		else {
			fprintf(stderr, "wirepoke: bad argument %s\n", a);
			return -1;
		}
	}
	return (o->target != NULL) + (o->exec != NULL) +
			       (o->unix_path != NULL) != 1 ? -1 : 0;
}

/* ---- connecting ---------------------------------------------------------- */

/* TCP connection to "A.B.C.D:PORT".  fd or -1. */
static int wp_connect(const char *target)
{
	struct sockaddr_in sin;
	char host[64];
	const char *colon = strrchr(target, ':');
	int fd;

	if (colon == NULL || (size_t)(colon - target) >= sizeof host)
		return -1;
	memcpy(host, target, (size_t)(colon - target));
	host[colon - target] = '\0';
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)atoi(colon + 1));
	if (inet_pton(AF_INET, host, &sin.sin_addr) != 1)
		return -1;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Connection to a Unix socket.  fd or -1. */
static int wp_connect_unix(const char *path)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path)
		return -1;
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Starts sh -c cmd with pipes; sets rfd and wfd.  The child pid or -1. */
static pid_t wp_spawn(const char *cmd, int *rfd, int *wfd)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe(in) != 0 || pipe(out) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*wfd = in[1];
	*rfd = out[0];
	return pid;
}

/* Opens the connection described by o.  0 or -1. */
static int wp_open(const wp_opts *o, wp_conn *c)
{
	wire_io io;
	int rfd, wfd;

	memset(c, 0, sizeof *c);
	if (o->exec != NULL) {
		c->child = wp_spawn(o->exec, &rfd, &wfd);
		if (c->child < 0)
			return -1;
	} else if (o->unix_path != NULL) {
		rfd = wfd = wp_connect_unix(o->unix_path);
		if (rfd < 0)
			return -1;
	} else {
		rfd = wfd = wp_connect(o->target);
		if (rfd < 0)
			return -1;
	}
	wire_io_fd(&io, rfd, wfd);
	return wire_peer_init(&c->peer, &io, WIRE_FRAME_MAX_DEFAULT) == 0
		       ? 0
		       : -1;
}

/* ---- printing what arrives ----------------------------------------------- */

/* Prints a HELLO line. */
static void wp_print_hello(const wire_msg *m)
{
	wire_hello h;
	char err[256];
	uint32_t i;

	if (wire_unpack_hello(m, &h, err, sizeof err) != 0) {
		printf("HELLO? version=%u %s\n", h.version, err);
		return;
	}
	printf("HELLO version=%u role=%s node=%s os=%s arch=%s order=%s "
	       "long=%u ptr=%u port=%s caps=", h.version, h.role, h.node,
	       h.os, h.arch, h.abi.byte_order, h.abi.size[WIRE_CT_LONG],
	       h.abi.size[WIRE_CT_PTR], h.port);
	for (i = 0; i < h.ncaps; i++)
		printf("%s%s", i ? "," : "", h.caps[i]);
	printf("\n");
}

/* Prints data with newlines and other control bytes escaped. */
static void wp_print_data(const char *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)d[i];

		if (ch == '\n')
			fputs("\\n", stdout);
		else if (ch == '\\')
			fputs("\\\\", stdout);
		else if (ch < 32 || ch >= 127)
			printf("\\x%02x", ch);
		else
			putchar(ch);
	}
}

/* Prints diagnostics one line each, as "DIAG line". */
static void wp_print_diag(const char *d, size_t n)
{
	const char *end;

	while (n > 0) {
		end = memchr(d, '\n', n);
		printf("DIAG %.*s\n", (int)(end ? end - d : (long)n), d);
		if (end == NULL)
			break;
		n -= (size_t)(end - d) + 1;
		d = end + 1;
	}
}

/* Prints the session messages (build, run, tasks).  1 if m was one. */
static int wp_print_session(const wire_msg *m)
{
	char s1[WIRE_TEXT_MAX], s2[WIRE_TEXT_MAX], err[256];
	uint64_t u1, u2, u3, u4;
	int64_t i1, i2;
	const char *d;
	const msgpack_object *o;
	size_t n;
	int b;

	switch (m->type) {
	case WIRE_BUILD_RESULT:
		if (wire_unpack(m, err, sizeof err, &u1, &b, s1, sizeof s1, &d,
				&n) != 0)
			break;
		printf("BUILD_RESULT build=%llu ok=%s program=%s\n",
		       (unsigned long long)u1, b ? "true" : "false", s1);
		wp_print_diag(d, n);
		return 1;
	case WIRE_PROC_START:
		if (wire_unpack(m, err, sizeof err, &u1, &u2, &u3) != 0)
			break;
		printf("PROC_START run=%llu proc=%llu pid=%llu\n",
		       (unsigned long long)u1, (unsigned long long)u2,
		       (unsigned long long)u3);
		return 1;
	case WIRE_OUTPUT:
		if (wire_unpack(m, err, sizeof err, &u1, &u2, &d, &n) != 0)
			break;
		printf("OUTPUT proc=%llu stream=%llu ", (unsigned long long)u1,
		       (unsigned long long)u2);
		wp_print_data(d, n);
		printf("\n");
		return 1;
	case WIRE_PROC_EXIT:
		if (wire_unpack(m, err, sizeof err, &u1, &i1, &i2, s1,
				sizeof s1) != 0)
			break;
		printf("PROC_EXIT proc=%llu status=%lld signal=%lld last=%s\n",
		       (unsigned long long)u1, (long long)i1, (long long)i2,
		       s1);
		return 1;
	case WIRE_BP_HIT:
		if (wire_unpack(m, err, sizeof err, &u1, &u2, s1, sizeof s1,
				&u3, s2, sizeof s2, &u4, &o, &o) != 0)
			break;
		printf("BP_HIT proc=%llu bp=%llu at %s:%llu %s\n",
		       (unsigned long long)u1, (unsigned long long)u2, s1,
		       (unsigned long long)u3, s2);
		return 1;
	case WIRE_TASK_CRASH:
		if (wire_unpack(m, err, sizeof err, &u1, &i1, s1, sizeof s1,
				&u3, s2, sizeof s2, &o) != 0)
			break;
		printf("TASK_CRASH proc=%llu signal=%lld at %s:%llu %s\n",
		       (unsigned long long)u1, (long long)i1, s1,
		       (unsigned long long)u3, s2);
		return 1;
	case WIRE_TYPE_TABLE:
	case WIRE_INSPECT:
	case WIRE_VALUE:
	case WIRE_RESUME:
		if (m->nf < 1 || m->f[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
			break;
		printf("%s proc=%llu", wire_type_name(m->type),
		       (unsigned long long)m->f[0].via.u64);
		if (m->nf > 1 && m->type != WIRE_RESUME &&
		    m->f[1].type == MSGPACK_OBJECT_POSITIVE_INTEGER)
			printf(" %s=%llu", m->type == WIRE_TYPE_TABLE ? "table"
			       : "req", (unsigned long long)m->f[1].via.u64);
		printf("\n");
		return 1;
	}
	return 0;
}

/* Queues EVENTS_ACK(batch).  0 or an error. */
static int wp_pack_ack(wp_conn *c, uint64_t batch)
{
	wire_enc e;

	if (wire_enc_begin(&e, &c->peer.out, WIRE_EVENTS_ACK,
			   wire_peer_seq(&c->peer), 1) == 0)
		msgpack_pack_uint64(wire_enc_packer(&e), batch);
	return wire_enc_end(&e, c->peer.max_frame);
}

/* Prints canonical event e as one "EV" line of process proc. */
static void wp_print_ev(uint64_t proc, const wire_ev *e)
{
	printf("EV proc=%llu seq=%llu kind=%u op=%u t=%llu delta=%llu "
	       "file=%u func=%u line=%d peer=%d tag=%d bytes=%lld result=%d "
	       "aux=%d comm=%u ref=%u\n", (unsigned long long)proc,
	       (unsigned long long)e->seq, e->kind, e->op,
	       (unsigned long long)e->t_ns, (unsigned long long)e->delta_ns,
	       e->file, e->func, e->line, e->peer, e->tag, (long long)e->bytes,
	       e->result, e->aux, e->comm, e->ref);
}

/* Prints NODE_EVENTS as "NODE_EVENTS batch= proc= n=" and one "EV" line
 * per event (of a packed bin, wire_evpk.h).  Returns the batch number, 0
 * if malformed (after the events read before the fault, and a line
 * "NODE_EVENTS? bad events"). */
static uint64_t wp_print_events(const wire_msg *m)
{
	uint64_t batch, proc, n;
	wire_evpk_dec d;
	wire_ev e;
	int r;

	/* By hand, to print what a broken frame still has. */
	if (m->nf < 3 || m->f[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    m->f[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    m->f[2].type != MSGPACK_OBJECT_BIN ||
	    wire_evpk_open(&d, m->f[2].via.bin.ptr, m->f[2].via.bin.size,
			   &n) != 0) {
		printf("NODE_EVENTS? bad fields\n");
		return 0;
	}
	batch = m->f[0].via.u64;
	proc = m->f[1].via.u64;
	printf("NODE_EVENTS batch=%llu proc=%llu n=%llu\n",
	       (unsigned long long)batch, (unsigned long long)proc,
	       (unsigned long long)n);
	while ((r = wire_evpk_next(&d, &e)) == 1)
		wp_print_ev(proc, &e);
	if (r < 0) {
		printf("NODE_EVENTS? bad events\n");
		return 0;
	}
	return batch;
}

/* Prints EVENT_STRINGS and EVENTS_LOST.  1 if m was one. */
static int wp_print_evmeta(const wire_msg *m)
{
	char s[WIRE_TEXT_MAX], err[256];
	const msgpack_object *arr;
	uint64_t u1, u2;
	uint32_t i;

	if (m->type == WIRE_EVENT_STRINGS &&
	    wire_unpack(m, err, sizeof err, &u1, &u2, &arr) == 0) {
		printf("EVENT_STRINGS proc=%llu first=%llu n=%u\n",
		       (unsigned long long)u1, (unsigned long long)u2,
		       arr->via.array.size);
		for (i = 0; i < arr->via.array.size; i++)
			if (wire_strv_get(arr, i, s, sizeof s) == 0)
				printf("STR proc=%llu id=%llu %s\n",
				       (unsigned long long)u1,
				       (unsigned long long)(u2 + i), s);
		return 1;
	}
	if (m->type == WIRE_EVENTS_LOST && m->nf >= 3 &&
	    m->f[0].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    m->f[1].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    m->f[2].type == MSGPACK_OBJECT_STR) {
		printf("EVENTS_LOST proc=%llu count=%llu reason=%.*s\n",
		       (unsigned long long)m->f[0].via.u64,
		       (unsigned long long)m->f[1].via.u64,
		       (int)m->f[2].via.str.size, m->f[2].via.str.ptr);
		return 1;
	}
	return 0;
}

/* Prints one received frame as one line. */
static void wp_print(const wire_msg *m)
{
	char s[WIRE_TEXT_MAX], err[256];
	wire_error_msg e;
	wire_pong p;
	uint64_t u, lr, ls;
	const char *pad;
	size_t padlen;

	if (wp_print_session(m) || wp_print_evmeta(m))
		;
	else if (m->type == WIRE_HELLO)
		wp_print_hello(m);
	else if (m->type == WIRE_ERROR && wire_unpack_error(m, &e, err,
			sizeof err) == 0)
		printf("ERROR %s ref=%u %s\n", wire_errname(-(int)e.code),
		       e.ref_seq, e.message);
	else if (m->type == WIRE_AUTH_OK &&
		 wire_unpack_auth_ok(m, s, err, sizeof err) == 0)
		printf("AUTH_OK how=%s\n", s);
	else if (m->type == WIRE_BYE &&
		 wire_unpack_bye(m, s, err, sizeof err) == 0)
		printf("BYE %s\n", s);
	else if (m->type == WIRE_PONG &&
		 wire_unpack_pong(m, &p, err, sizeof err) == 0)
		printf("PONG rtt_us=%llu t_recv=%llu t_send=%llu clock=%s\n",
		       (unsigned long long)((wire_now_ns() - p.t_console) /
					    1000),
		       (unsigned long long)p.t_recv,
		       (unsigned long long)p.t_send,
		       p.t_send >= p.t_recv ? "ok" : "backwards");
	else if (m->type == WIRE_LINK_ECHO &&
		 wire_unpack(m, err, sizeof err, &u, &lr, &ls, &pad,
			     &padlen) == 0)
		printf("LINK_ECHO pad=%zu clock=%s\n", padlen,
		       ls >= lr ? "ok" : "backwards");
	else if (m->type == WIRE_SESSION_OK &&
		 wire_unpack_session_ok(m, &u, err, sizeof err) == 0)
		printf("SESSION_OK session=%llu\n", (unsigned long long)u);
	else
		printf("FRAME type=%u seq=%u nf=%u\n", m->type, m->seq, m->nf);
	fflush(stdout);
}

/*
 * Reads and prints frames until ms pass, the peer closes, a frame of type
 * until_type arrives (if not 0), or (with until_one) the first frame has
 * arrived.  Marks c->closed at the end of the stream.
 */
static void wp_read2(wp_conn *c, unsigned ms, int until_one,
		     uint32_t until_type)
{
	uint64_t deadline = wire_now_ns() + (uint64_t)ms * 1000000u;
	wire_msg m;
	int rc;

	while (!c->closed) {
		rc = wire_peer_wait(&c->peer, &m, deadline);
		if (rc == 1) {
			if (m.type == WIRE_NODE_EVENTS) {
				uint64_t b = wp_print_events(&m);

				if (c->ack && b != 0)
					wp_pack_ack(c, b);
			} else
				wp_print(&m);
			if (m.type < 256) {
				c->seen[m.type] = 1;
				c->cnt[m.type]++;
			}
			if (until_type != 0 && m.type == until_type)
				return;
			if (until_one)
				deadline = wire_now_ns() + 50000000u;
			continue;
		}
		if (rc == WIRE_ETIMEOUT)
			return;
		if (rc == WIRE_EEOF || rc == WIRE_EIO)
			printf("CLOSED\n");
		else
			printf("BADFRAME %s\n", c->peer.errmsg);
		fflush(stdout);
		c->closed = 1;
	}
}

/* Reads and prints as wp_read2 without a type to wait for. */
static void wp_read(wp_conn *c, unsigned ms, int until_one)
{
	wp_read2(c, ms, until_one, 0);
}

/* ---- steps --------------------------------------------------------------- */

/* Appends the bytes of a hex string.  0 or -1. */
static int wp_hex(wire_buf *out, const char *hex)
{
	unsigned char b;
	unsigned v;

	for (; hex[0] != '\0'; hex += 2) {
		if (hex[1] == '\0' || sscanf(hex, "%2x", &v) != 1)
			return -1;
		b = (unsigned char)v;
		if (wire_buf_append(out, &b, 1) != 0)
			return -1;
	}
	return 0;
}

/* Packs a frame [type, seq] or [type, seq, "arg"]. */
static int wp_pack_num(wp_conn *c, uint32_t type, const char *arg)
{
	wire_enc e;

	if (wire_enc_begin(&e, &c->peer.out, type, wire_peer_seq(&c->peer),
			   arg ? 1 : 0) == 0 && arg != NULL) {
		msgpack_pack_str(wire_enc_packer(&e), strlen(arg));
		msgpack_pack_str_body(wire_enc_packer(&e), arg, strlen(arg));
	}
	return wire_enc_end(&e, c->peer.max_frame);
}

/* Splits spec at ':' into at most max fields (the last takes the rest);
 * the copy lives in buf.  Returns the number of fields. */
static int wp_split(const char *spec, char *buf, size_t cap, char **f,
		    int max)
{
	int n = 0;
	char *p;

	snprintf(buf, cap, "%s", spec);
	for (p = buf; n < max; n++) {
		f[n] = p;
		if (n == max - 1 || (p = strchr(p, ':')) == NULL) {
			n++;
			break;
		}
		*p++ = '\0';
	}
	return n;
}

/* Splits a blank-separated list in place into v (at most max).  Count. */
static uint32_t wp_words(char *s, const char **v, uint32_t max)
{
	uint32_t n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, " ", &save); tok != NULL && n < max;
	     tok = strtok_r(NULL, " ", &save))
		v[n++] = tok;
	return n;
}

/* True for the names wp_pack_session packs. */
static int wp_is_session_name(const char *name)
{
	static const char *const n[] = {
		"KILL", "RESUME", "INSPECT", "TASK_HELLO", "VALUE",
		"TYPE_TABLE", "BP_HIT", "TASK_CRASH", "EVENT_RING", NULL
	};
	int i;

	for (i = 0; n[i] != NULL; i++)
		if (strcmp(name, n[i]) == 0)
			return 1;
	return 0;
}

/* The task and control messages of --send.  0, 1 if name is not one of
 * them, -1 on bad arguments. */
static int wp_pack_session(wp_conn *c, const char *name, const char *arg)
{
	static const char nil[] = "\xc0", emptyarr[] = "\x90";
	wire_buf *out = &c->peer.out;
	uint32_t seq, t;
	size_t max = c->peer.max_frame;
	char buf[1024], *f[6];
	int n = arg ? wp_split(arg, buf, sizeof buf, f, 6) : 0;
	unsigned long long a0 = n > 0 ? strtoull(f[0], NULL, 0) : 0;
	unsigned long long a1 = n > 1 ? strtoull(f[1], NULL, 0) : 0;

	if (!wp_is_session_name(name))
		return 1;
	seq = wire_peer_seq(&c->peer);

	if (strcmp(name, "KILL") == 0 || strcmp(name, "RESUME") == 0) {
		t = name[0] == 'K' ? WIRE_KILL : WIRE_RESUME;
		return wire_pack(out, t, seq, max, (uint64_t)a0);
	}
	if (strcmp(name, "INSPECT") == 0)
		return wire_pack(out, WIRE_INSPECT, seq, max, (uint64_t)a0,
				 (uint64_t)a1, (uint64_t)0, nil, (size_t)1);
	if (strcmp(name, "TASK_HELLO") == 0)
		return wire_pack(out, WIRE_TASK_HELLO, seq, max, (uint64_t)a0,
				 (uint64_t)a1);
	if (strcmp(name, "VALUE") == 0)
		return wire_pack(out, WIRE_VALUE, seq, max, (uint64_t)a0,
				 (uint64_t)a1, 1, nil, (size_t)1);
	if (strcmp(name, "TYPE_TABLE") == 0)
		return wire_pack(out, WIRE_TYPE_TABLE, seq, max, (uint64_t)a0,
				 (uint64_t)0, emptyarr, (size_t)1);
	if (strcmp(name, "BP_HIT") == 0 && n == 5)
		return wire_pack(out, WIRE_BP_HIT, seq, max, (uint64_t)a0,
				 (uint64_t)a1, f[2],
				 (uint64_t)strtoull(f[3], NULL, 0), f[4],
				 (uint64_t)0, emptyarr, (size_t)1, emptyarr,
				 (size_t)1);
	if (strcmp(name, "EVENT_RING") == 0 && n == 4)
		return wire_pack(out, WIRE_EVENT_RING, seq, max, (uint64_t)a0,
				 f[1], (uint64_t)strtoull(f[2], NULL, 0),
				 (uint64_t)strtoull(f[3], NULL, 0));
	if (strcmp(name, "TASK_CRASH") == 0 && n == 5)
		return wire_pack(out, WIRE_TASK_CRASH, seq, max, (uint64_t)a0,
				 (int64_t)a1, f[2],
				 (uint64_t)strtoull(f[3], NULL, 0), f[4],
				 emptyarr, (size_t)1);
	return -1;
}

/* Reads a whole local file into a malloc'd block.  NULL on error. */
static char *wp_slurp(const char *path, size_t *n, int *exec)
{
	struct stat st;
	FILE *fp = fopen(path, "rb");
	char *d = NULL;

	if (fp == NULL || fstat(fileno(fp), &st) != 0)
		goto out;
	*exec = (st.st_mode & 0111) != 0;
	d = malloc((size_t)st.st_size + 1);
	if (d != NULL)
		*n = fread(d, 1, (size_t)st.st_size, fp);
out:
	if (fp != NULL)
		fclose(fp);
	return d;
}

/* --put B:NAME=FILE.  0 or -1. */
static int wp_pack_put(wp_conn *c, const char *spec)
{
	char buf[1024], *f[2], *eq, *data;
	size_t n = 0;
	int exec = 0, rc;

	if (wp_split(spec, buf, sizeof buf, f, 2) != 2 ||
	    (eq = strchr(f[1], '=')) == NULL)
		return -1;
	*eq = '\0';
	data = wp_slurp(eq + 1, &n, &exec);
	if (data == NULL)
		return -1;
	rc = wire_pack(&c->peer.out, WIRE_FILE_PUT, wire_peer_seq(&c->peer),
		       c->peer.max_frame, (uint64_t)strtoull(f[0], NULL, 0),
		       f[1], (uint64_t)(exec ? 0755 : 0644), (const void *)data,
		       n);
	free(data);
	return rc;
}

/* --build B:PROG:SRCS[:CFLAGS[:LDFLAGS]] and
 * --run R:B:KIND:PROG[:ARGS[:LAUNCH]].  0 or -1. */
static int wp_pack_build_run(wp_conn *c, const char *spec, int run)
{
	char buf[4096], *f[6];
	const char *v1[256], *v2[256], *v3[256];
	uint32_t n1, n2 = 0, n3 = 0;
	int n = wp_split(spec, buf, sizeof buf, f, run ? 6 : 5);
	uint32_t seq = wire_peer_seq(&c->peer);

	if (n < (run ? 4 : 3))
		return -1;
	if (run) {
		n1 = n > 4 ? wp_words(f[4], v1, 256) : 0;
		n2 = n > 5 ? wp_words(f[5], v2, 256) : 0;
		return wire_pack(&c->peer.out, WIRE_RUN, seq,
				 c->peer.max_frame,
				 (uint64_t)strtoull(f[0], NULL, 0),
				 (uint64_t)strtoull(f[1], NULL, 0), f[2], f[3],
				 (const char *const *)v1, n1,
				 (const char *const *)v2, n2, "",
				 (const void *)"", (size_t)0,
				 (const char *const *)v3, (uint32_t)0);
	}
	n1 = wp_words(f[2], v1, 256);
	if (n > 3)
		n2 = wp_words(f[3], v2, 256);
	if (n > 4)
		n3 = wp_words(f[4], v3, 256);
	return wire_pack(&c->peer.out, WIRE_BUILD, seq, c->peer.max_frame,
			 (uint64_t)strtoull(f[0], NULL, 0), f[1],
			 (const char *const *)v1, n1, (const char *const *)v2,
			 n2, (const char *const *)v3, n3);
}

/* LINK_PROBE:PAD:WANT: PAD bytes of pad up, WANT asked back. */
static int wp_pack_link(wp_conn *c, const char *arg)
{
	unsigned long long pad = 0, want = 0;
	void *buf;
	int rc;

	if (arg == NULL || sscanf(arg, "%llu:%llu", &pad, &want) != 2 ||
	    pad > (64u << 20))
		return -1;
	if ((buf = calloc(1, pad + 1)) == NULL)
		return -1;
	rc = wire_pack(&c->peer.out, WIRE_LINK_PROBE, wire_peer_seq(&c->peer),
		       WIRE_FRAME_MAX_HARD, (uint64_t)wire_now_ns(),
		       (uint64_t)want, buf, (size_t)pad);
	free(buf);
	return rc;
}

/* Queues the frame of a --send step.  0, or -1 for an unknown TYPE. */
static int wp_pack_send(wp_conn *c, const wp_opts *o, const char *spec)
{
	char name[32];
	const char *arg = strchr(spec, ':');
	size_t n = arg ? (size_t)(arg - spec) : strlen(spec);
	wire_buf *out = &c->peer.out;
	uint32_t seq;
	wire_hello h;

	if (n >= sizeof name)
		return -1;
	memcpy(name, spec, n);
	name[n] = '\0';
	arg = arg ? arg + 1 : NULL;
	if (name[0] >= '0' && name[0] <= '9')
		return wp_pack_num(c, (uint32_t)strtoul(name, NULL, 0), arg);
	if ((n = (size_t)wp_pack_session(c, name, arg)) != 1)
		return (int)n;
	seq = wire_peer_seq(&c->peer);
	if (strcmp(name, "HELLO") == 0) {
		wire_hello_local(&h, o->role, NULL, "wirepoke");
		h.version = o->version;
		if (o->host != NULL)
			snprintf(h.host, sizeof h.host, "%s", o->host);
		return wire_pack_hello(out, seq, &h, c->peer.max_frame);
	}
	if (strcmp(name, "AUTH") == 0)
		return wire_pack_auth(out, seq, arg ? arg : c->tok, 1 << 20);
	if (strcmp(name, "PING") == 0)
		return wire_pack_ping(out, seq, wire_now_ns(), 1 << 20);
	if (strcmp(name, "LINK_PROBE") == 0)
		return wp_pack_link(c, arg);
	if (strcmp(name, "BYE") == 0)
		return wire_pack_bye(out, seq, arg ? arg : "wirepoke done",
				     1 << 20);
	if (strcmp(name, "EVENTS_ACK") == 0)
		return wp_pack_ack(c, strtoull(arg ? arg : "0", NULL, 0));
	if (strcmp(name, "CONSOLE_CPU") == 0)
		return wire_pack(out, WIRE_CONSOLE_CPU, seq, c->peer.max_frame,
				 (uint64_t)strtoull(arg ? arg : "0", NULL, 0));
	if (strcmp(name, "SESSION_OPEN") == 0)
		return wire_pack_session_open(out, seq, arg ? arg : "wirepoke",
					      1 << 20);
	if (strcmp(name, "SESSION_ATTACH") == 0) {
		const char *id = arg != NULL ? strchr(arg, ':') : NULL;
		char who[WIRE_NAME_MAX];

		snprintf(who, sizeof who, "%.*s", id != NULL ?
			 (int)(id - arg) : (int)strlen(arg ? arg : "wirepoke"),
			 arg ? arg : "wirepoke");
		return wire_pack(out, WIRE_SESSION_ATTACH, seq, 1 << 20, who,
				 (uint64_t)strtoull(id ? id + 1 : "0", NULL,
						    0));
	}
	return -1;
}

/* --events P:FIRST:COUNT[:BYTES]: native records as the runtime makes
 * them (PROG_START with the layout version at seq 0, then send start/end
 * pairs), after EVENT_STRINGS for ids 1 and 2 the first time.  0 or -1. */
static int wp_pack_events(wp_conn *c, const char *spec)
{
	static const char *const names[] = {"ev_file.c", "ev_func"};
	char buf[256], *f[4];
	int n = wp_split(spec, buf, sizeof buf, f, 4);
	uint64_t proc, first, count, i;
	size_t bytes;
	pvt_event *r;
	int rc;

	if (n < 3)
		return -1;
	proc = strtoull(f[0], NULL, 0);
	first = strtoull(f[1], NULL, 0);
	count = strtoull(f[2], NULL, 0);
	if (count == 0 || count > 65536 || (r = calloc(count, sizeof *r)) == NULL)
		return -1;
	for (i = 0; i < count; i++) {
		r[i].t_ns = wire_now_ns();
		r[i].delta_ns = i;
		r[i].file = 1;
		r[i].func = 2;
		r[i].line = (int32_t)((first + i) % 1000);
		r[i].peer = 262145;
		r[i].tag = 7;
		r[i].bytes = (first + i) % 2 ? 40 : -1;
		r[i].result = 0;
		r[i].kind = (first + i) % 2 ? PVT_EV_SEND_START : PVT_EV_SEND_END;
		r[i].op = PVT_OP_PVM_SEND;
		if (first + i == 0) {
			r[i].kind = PVT_EV_PROG_START;
			r[i].op = PVT_OP_NONE;
			r[i].aux = PVT_EVENT_VERSION;
		}
	}
	bytes = n > 3 ? (size_t)strtoull(f[3], NULL, 0) : count * sizeof *r;
	if (bytes > count * sizeof *r)
		bytes = count * sizeof *r;
	rc = 0;
	if (!c->strings_sent) {
		rc = wire_pack(&c->peer.out, WIRE_EVENT_STRINGS,
			       wire_peer_seq(&c->peer), c->peer.max_frame, proc,
			       (uint64_t)1, names, (uint32_t)2);
		c->strings_sent = 1;
	}
	if (rc == 0)
		rc = wire_pack(&c->peer.out, WIRE_EVENTS, wire_peer_seq(&c->peer),
			       c->peer.max_frame, proc, first, count,
			       (const void *)r, bytes);
	free(r);
	return rc;
}

/* Message number of a type name ("BUILD_RESULT"), or 0. */
static uint32_t wp_type_by_name(const char *name)
{
	int i;

	for (i = 0; i < wire_type_count(); i++)
		if (strcmp(wire_type_name(wire_type_at(i)), name) == 0)
			return wire_type_at(i);
	return 0;
}

/* True for --send types that get no immediate answer. */
static int wp_quiet(const char *spec)
{
	static const char *const q[] = {
		"HELLO", "KILL", "RESUME", "INSPECT", "TASK_HELLO", "BP_HIT",
		"VALUE", "TYPE_TABLE", "TASK_CRASH", "EVENTS_ACK", NULL
	};
	size_t n = strcspn(spec, ":");
	int i;

	for (i = 0; q[i] != NULL; i++)
		if (strlen(q[i]) == n && strncmp(spec, q[i], n) == 0)
			return 1;
	return 0;
}

/* --until-n TYPE:N.  0, or -1 for a bad step. */
static int wp_until_n(wp_conn *c, const wp_opts *o, const char *spec)
{
	char buf[64], *f[2];
	unsigned long n, want;

	if (wp_split(spec, buf, sizeof buf, f, 2) != 2)
		return -1;
	n = wp_type_by_name(f[0]);
	want = strtoul(f[1], NULL, 10);
	if (n == 0 || n >= 256)
		return -1;
	while (c->cnt[n] < want && !c->closed) {
		unsigned before = c->cnt[n];

		wp_read2(c, o->wait_ms, 0, (uint32_t)n);
		if (c->cnt[n] == before)
			break; /* timed out */
	}
	c->seen[n] = 0;
	c->cnt[n] = 0;
	return 0;
}

/* Runs one step.  0, or -1 for a bad step. */
static int wp_step_run(wp_conn *c, const wp_opts *o, const wp_step *s)
{
	unsigned char hdr[4];
	unsigned long n;

	switch (s->kind) {
	case WP_SLEEP:
		wp_read(c, (unsigned)strtoul(s->arg, NULL, 10), 0);
		return 0;
	case WP_CLOSE:
		return 0;
	case WP_UNTIL:
		n = wp_type_by_name(s->arg);
		if (n == 0 || n >= 256)
			return -1;
		if (!c->seen[n])
			wp_read2(c, o->wait_ms, 0, (uint32_t)n);
		c->seen[n] = 0;
		c->cnt[n] = 0;
		return 0;
	case WP_UNTIL_N:
		return wp_until_n(c, o, s->arg);
	case WP_PUT:
		if (wp_pack_put(c, s->arg) != 0)
			return -1;
		break;
	case WP_EVENTS:
		if (wp_pack_events(c, s->arg) != 0)
			return -1;
		break;
	case WP_BUILD:
	case WP_RUN:
		if (wp_pack_build_run(c, s->arg, s->kind == WP_RUN) != 0)
			return -1;
		break;
	case WP_SEND:
		if (wp_pack_send(c, o, s->arg) != 0)
			return -1;
		break;
	case WP_RAW:
		if (wp_hex(&c->peer.out, s->arg) != 0)
			return -1;
		break;
	case WP_FRAMELEN:
		n = strtoul(s->arg, NULL, 0);
		hdr[0] = (unsigned char)(n >> 24);
		hdr[1] = (unsigned char)(n >> 16);
		hdr[2] = (unsigned char)(n >> 8);
		hdr[3] = (unsigned char)n;
		wire_buf_append(&c->peer.out, hdr, 4);
		break;
	}
	if (wire_peer_drain(&c->peer, wire_now_ns() + 2000000000u) != 0)
		return 0; /* the read below reports the closed peer */
	/* Our HELLO, FILE_PUT, BUILD (answered later) and the task and
	 * control messages are not answered at once unless refused: short
	 * wait. */
	if ((s->kind == WP_SEND && wp_quiet(s->arg)) || s->kind == WP_PUT ||
	    s->kind == WP_BUILD || s->kind == WP_EVENTS)
		wp_read(c, 100, 1);
	else
		wp_read(c, o->wait_ms, 1);
	return 0;
}

/* Runs the implicit HELLO/AUTH and then the script. */
static int wp_script(wp_conn *c, const wp_opts *o)
{
	wp_step s;
	int i;

	wp_read(c, o->wait_ms, 1); /* the daemon's HELLO */
	s.kind = WP_SEND;
	if (o->hello && !c->closed) {
		s.arg = "HELLO";
		wp_step_run(c, o, &s);
	}
	if (o->auth && !c->closed) {
		s.arg = "AUTH";
		wp_step_run(c, o, &s);
	}
	for (i = 0; i < o->nsteps && !c->closed; i++) {
		if (o->steps[i].kind == WP_CLOSE)
			return 0;
		if (wp_step_run(c, o, &o->steps[i]) != 0) {
			fprintf(stderr, "wirepoke: bad step %s\n",
				o->steps[i].arg);
			return -1;
		}
	}
	wp_read(c, o->linger_ms, 0);
	return 0;
}

/* Loads the token for AUTH from the options.  0 or -1. */
static int wp_token(const wp_opts *o, wp_conn *c)
{
	char path[1024], err[256];

	if (o->token != NULL) {
		snprintf(c->tok, sizeof c->tok, "%s", o->token);
		return 0;
	}
	if (!o->auth)
		return 0;
	if (o->token_file != NULL)
		snprintf(path, sizeof path, "%s", o->token_file);
	else if (wire_token_default_path(path, sizeof path) != 0)
		return -1;
	if (wire_token_load(path, 0, c->tok, err, sizeof err) != 0) {
		fprintf(stderr, "wirepoke: %s\n", err);
		return -1;
	}
	return 0;
}

/* Waits (bounded, 5 s) for the --exec child and prints its status. */
static void wp_reap(pid_t pid)
{
	struct timespec ts = {0, 50000000};
	int st, i;

	for (i = 0; i < 100; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			if (WIFEXITED(st))
				printf("EXIT %d\n", WEXITSTATUS(st));
			else
				printf("SIGNAL %d\n", WTERMSIG(st));
			return;
		}
		nanosleep(&ts, NULL);
	}
	printf("EXIT timeout\n");
}

int main(int argc, char **argv)
{
	wp_opts o;
	wp_conn c;
	int rc;

	rc = wp_parse(argc, argv, &o);
	if (rc != 0) {
		if (rc < 0)
			fputs(wp_usage, stderr);
		return rc < 0 ? 2 : 0;
	}
	signal(SIGPIPE, SIG_IGN);
	if (wp_open(&o, &c) != 0) {
		fprintf(stderr, "wirepoke: cannot connect to %s: %s\n",
			o.target ? o.target : o.exec, strerror(errno));
		return 1;
	}
	if (wp_token(&o, &c) != 0)
		return 1;
	c.ack = o.ack;
	rc = wp_script(&c, &o);
	wire_peer_destroy(&c.peer);
	if (c.child > 0)
		wp_reap(c.child);
	fflush(stdout);
	return rc == 0 ? 0 : 2;
}
