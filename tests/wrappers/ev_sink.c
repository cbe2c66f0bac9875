/*
 * ev_sink.c — test tool: the daemon's side of the task socket, for the
 * event tests (tests/integration/92-wrappers-*.sh) and bench_events.
 *
 *   ev_sink -s SOCKET [-o OUT] [-q] [-r]
 *
 * Listens on the Unix socket SOCKET (a stale one is removed), accepts any
 * number of tasks, answers each HELLO with the daemon's HELLO and prints,
 * one line each (to OUT or stdout, line-buffered):
 *   hello c=C proc=P pid=PID
 *   strings c=C first=F n=N              and "str c=C id=I NAME" lines
 *   ev c=C pid=PID seq=S kind=K op=O file=F func=FN line=L peer=P
 *      tag=T bytes=B result=R aux=A comm=C ref=R delta=D t=T (a line per
 *      record; seq is the EVENTS frame's first plus the record's index)
 *   gap c=C want=S got=S                 a sequence number was skipped
 *   crash c=C sig=S at=FILE:LINE func=F
 *   close c=C pid=PID records=N
 * With -q only hello, gap, crash and close lines.  Records are decoded
 * with pvt_event.h, so the sink must be built for the task's port.  With
 * -r the sink offers the "ring1" capability, as paravtd does: the tasks
 * then write into shared-memory rings (daemon/dmn_ring.c reads them),
 * drained every 10 ms, at EVENTS_KICK, at a crash and when the task
 * disconnects; their records print the same, plus "ring c=C ..." lines
 * for what the ring counted ("ring c=C dropped=N waits=N us=N").  Ends
 * on SIGTERM or SIGINT (exit 0); 1 on a system failure, 2 usage.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "dmn_ring.h"
#include "pvt_event.h"
#include "wire_fmt.h"
#include "wire_msg.h"
#include "wire_peer.h"

#define SINK_CONNS 64  /* tasks at once */
#define SINK_STRS 4096 /* names per task */

/* One task connection. */
typedef struct sink_conn {
	wire_peer peer;           /* the protocol connection */
	int used;                 /* slot in use */
	int id;                   /* connection number, from 1 */
	uint64_t pid;             /* from TASK_HELLO */
	uint64_t next;            /* expected next record number */
	uint64_t records;         /* records received */
	char *str[SINK_STRS];     /* names by id (heap) */
	dmn_ring ring;            /* its ring (ring.h NULL: none) */
} sink_conn;

static sink_conn conns[SINK_CONNS];
static volatile sig_atomic_t stop;
static int quiet, nconn, offer_ring;
static char ring_dir[256]; /* where rings may be: the socket's directory */

/* Kind names by number. */
static const char *const kinds[] = {
    "?",          "prog_start", "prog_exit",  "fn_enter",     "fn_exit",
    "send_start", "send_end",   "recv_start", "recv_end",     "mcast_start",
    "mcast_end",  "group_start", "group_end", "special_start", "special_end",
    "break_start", "break_end", "crash", "mcast_dest"};

/* Name of op o. */
static const char *op_name(unsigned o)
{
	return pvt_op_name(o);
}

/* SIGTERM/SIGINT handler. */
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The name of id i on c ("?" if unknown). */
static const char *str_of(const sink_conn *c, uint32_t i)
{
	return i > 0 && i < SINK_STRS && c->str[i] ? c->str[i] : "?";
}

/* Prints one record. */
static void print_record(sink_conn *c, const pvt_event *e, uint64_t seq)
{
	if (seq != c->next)
		printf("gap c=%d want=%llu got=%llu\n", c->id,
		       (unsigned long long)c->next, (unsigned long long)seq);
	c->next = seq + 1;
	c->records++;
	if (quiet)
		return;
	printf("ev c=%d pid=%llu seq=%llu kind=%s op=%s file=%s func=%s "
	       "line=%d peer=%d tag=%d bytes=%lld result=%d aux=%d "
	       "comm=%lu ref=%lu delta=%llu t=%llu\n",
	       c->id, (unsigned long long)c->pid, (unsigned long long)seq,
	       e->kind <= PVT_EV_KIND_MAX ? kinds[e->kind] : "?",
	       op_name(e->op), str_of(c, e->file), str_of(c, e->func),
	       (int)e->line, (int)e->peer, (int)e->tag, (long long)e->bytes,
	       (int)e->result, (int)e->aux, (unsigned long)e->comm,
	       (unsigned long)e->ref, (unsigned long long)e->delta_ns,
	       (unsigned long long)e->t_ns);
}

/* EVENTS: checks the length and prints the records.  0 or -1. */
static int on_events(sink_conn *c, const wire_msg *m)
{
	uint64_t proc, first, count, i;
	const char *d;
	size_t len;
	pvt_event e;
	char err[200];

	if (wire_unpack(m, err, sizeof err, &proc, &first, &count, &d, &len)) {
		fprintf(stderr, "ev_sink: bad EVENTS: %s\n", err);
		return -1;
	}
	if (len != count * sizeof e) {
		fprintf(stderr, "ev_sink: EVENTS of %lu bytes for %llu records\n",
		        (unsigned long)len, (unsigned long long)count);
		return -1;
	}
	for (i = 0; i < count; i++) {
		memcpy(&e, d + i * sizeof e, sizeof e);
		print_record(c, &e, first + i);
	}
	return 0;
}

/* EVENT_STRINGS: stores the names.  0 or -1. */
static int on_strings(sink_conn *c, const wire_msg *m)
{
	const msgpack_object *a;
	uint64_t proc, first, i;
	char err[200], name[1024];

	if (wire_unpack(m, err, sizeof err, &proc, &first, &a)) {
		fprintf(stderr, "ev_sink: bad EVENT_STRINGS: %s\n", err);
		return -1;
	}
	if (!quiet)
		printf("strings c=%d first=%llu n=%u\n", c->id,
		       (unsigned long long)first, a->via.array.size);
	for (i = 0; i < a->via.array.size; i++) {
		if (wire_strv_get(a, (uint32_t)i, name, sizeof name) != 0 ||
		    first + i >= SINK_STRS)
			continue;
		free(c->str[first + i]);
		c->str[first + i] = strdup(name);
		if (!quiet)
			printf("str c=%d id=%llu %s\n", c->id,
			       (unsigned long long)(first + i), name);
	}
	return 0;
}

/* dmn_ring_names callback: keeps a name. */
static int ring_name(void *arg, uint32_t id, const char *s)
{
	sink_conn *c = arg;

	if (id < SINK_STRS) {
		free(c->str[id]);
		c->str[id] = strdup(s);
		if (!quiet)
			printf("str c=%d id=%u %s\n", c->id, id, s);
	}
	return 0;
}

/* Prints what c's ring holds now. */
static void ring_drain(sink_conn *c)
{
	static pvt_event buf[1024];
	dmn_ring_news n;
	uint64_t first;
	uint32_t k, got;

	if (c->ring.h == NULL)
		return;
	do {
		got = dmn_ring_read(&c->ring, buf, 1024, &first);
		(void)dmn_ring_names(&c->ring, ring_name, c);
		for (k = 0; k < got; k++)
			print_record(c, &buf[k], first + k);
	} while (got > 0);
	dmn_ring_news_get(&c->ring, &n);
	if (n.dropped || n.waits || n.str_lost)
		printf("ring c=%d dropped=%u waits=%u us=%u names_lost=%u\n",
		       c->id, n.dropped, n.waits, n.wait_us, n.str_lost);
}

/* EVENT_RING: maps the task's ring.  0 or -1. */
static int on_ring(sink_conn *c, const wire_msg *m)
{
	char path[WIRE_TEXT_MAX], err[300];
	uint64_t proc, recs, names;

	if (wire_unpack(m, err, sizeof err, &proc, path, sizeof path, &recs,
	                &names) ||
	    dmn_ring_map(&c->ring, path, ring_dir, recs, names, err,
	                 sizeof err) != 0) {
		fprintf(stderr, "ev_sink: EVENT_RING: %s\n", err);
		return -1;
	}
	c->next = c->ring.next;
	printf("ring c=%d records=%llu\n", c->id, (unsigned long long)recs);
	return 0;
}

/* HELLO and TASK_HELLO.  0 or -1. */
static int on_hello(sink_conn *c, const wire_msg *m)
{
	wire_hello h;
	uint64_t proc, pid;
	char err[200];

	if (m->type == WIRE_HELLO) {
		wire_hello_local(&h, "daemon", NULL, PVT_PORT_NAME);
		if (offer_ring)
			snprintf(h.caps[h.ncaps++], sizeof h.caps[0], "ring1");
		return wire_pack_hello(wire_peer_out(&c->peer),
		                       wire_peer_seq(&c->peer), &h,
		                       c->peer.max_frame) == 0
		           ? 0
		           : -1;
	}
	if (wire_unpack(m, err, sizeof err, &proc, &pid))
		return -1;
	c->pid = pid;
	printf("hello c=%d proc=%llu pid=%llu\n", c->id,
	       (unsigned long long)proc, (unsigned long long)pid);
	return 0;
}

/* TASK_CRASH.  0 or -1. */
static int on_crash(sink_conn *c, const wire_msg *m)
{
	char file[WIRE_TEXT_MAX], func[WIRE_TEXT_MAX], err[200];
	const msgpack_object *st;
	uint64_t proc, line;
	int64_t sig;

	if (wire_unpack(m, err, sizeof err, &proc, &sig, file, sizeof file,
	                &line, func, sizeof func, &st))
		return -1;
	printf("crash c=%d sig=%lld at=%s:%llu func=%s\n", c->id,
	       (long long)sig, file, (unsigned long long)line, func);
	return 0;
}

/* Handles one message.  0 or -1 (the connection is then dropped). */
static int on_msg(sink_conn *c, const wire_msg *m)
{
	switch (m->type) {
	case WIRE_HELLO:
	case WIRE_TASK_HELLO:
		return on_hello(c, m);
	case WIRE_EVENTS:
		return on_events(c, m);
	case WIRE_EVENT_STRINGS:
		return on_strings(c, m);
	case WIRE_TASK_CRASH:
		ring_drain(c);
		return on_crash(c, m);
	case WIRE_EVENT_RING:
		return on_ring(c, m);
	case WIRE_EVENTS_KICK:
		ring_drain(c);
		return 0;
	default:
		printf("msg c=%d %s\n", c->id,
		       wire_type_name(m->type) ? wire_type_name(m->type) : "?");
		return 0;
	}
}

/* Closes connection c and prints its summary. */
static void drop(sink_conn *c)
{
	int i;

	ring_drain(c);
	dmn_ring_unmap(&c->ring);
	printf("close c=%d pid=%llu records=%llu\n", c->id,
	       (unsigned long long)c->pid, (unsigned long long)c->records);
	wire_peer_destroy(&c->peer);
	for (i = 0; i < SINK_STRS; i++)
		free(c->str[i]);
	memset(c, 0, sizeof *c);
}

/* Reads what c has and handles every complete message. */
static void serve(sink_conn *c)
{
	wire_msg m;
	int rc = wire_peer_fill(&c->peer);

	while (rc >= 0 && (rc = wire_peer_next(&c->peer, &m)) == 1)
		if (on_msg(c, &m) != 0)
			rc = -1;
	if (rc >= 0)
		rc = wire_peer_flush(&c->peer);
	if (rc < 0 || c->peer.eof)
		drop(c);
}

/* Accepts a task on the listening socket lfd. */
static void accept_one(int lfd)
{
	wire_io io;
	int fd = accept(lfd, NULL, NULL), i;

	if (fd < 0)
		return;
	for (i = 0; i < SINK_CONNS && conns[i].used; i++)
		;
	if (i == SINK_CONNS) {
		close(fd);
		return;
	}
	wire_io_fd(&io, fd, fd);
	if (wire_peer_init(&conns[i].peer, &io, WIRE_FRAME_MAX_DEFAULT) != 0)
		return;
	conns[i].used = 1;
	conns[i].id = ++nconn;
}

/* Opens the listening socket at path.  The fd, or -1. */
static int listen_at(const char *path)
{
	struct sockaddr_un sa;
	int fd;

	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa.sun_path)
		return -1;
	strcpy(sa.sun_path, path);
	(void)unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    listen(fd, 64) != 0)
		return -1;
	return fd;
}

/* Polls the listening socket and every connection until stopped. */
static void loop(int lfd)
{
	struct pollfd pfd[SINK_CONNS + 1];
	int map[SINK_CONNS + 1], n, i;
	short evs;

	while (!stop) {
		pfd[0].fd = lfd;
		pfd[0].events = POLLIN;
		n = 1;
		for (i = 0; i < SINK_CONNS; i++) {
			if (!conns[i].used)
				continue;
			pfd[n].fd = conns[i].peer.io.pollfd(conns[i].peer.io.ctx,
			                                    &evs);
			pfd[n].events = POLLIN;
			map[n++] = i;
		}
		if (poll(pfd, (nfds_t)n, offer_ring ? 10 : 500) < 0)
			continue;
		for (i = 0; i < SINK_CONNS; i++)
			if (conns[i].used)
				ring_drain(&conns[i]);
		if (pfd[0].revents & POLLIN)
			accept_one(lfd);
		for (i = 1; i < n; i++)
			if (pfd[i].revents)
				serve(&conns[map[i]]);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	const char *sock = NULL, *out = NULL;
	struct sigaction sa;
	int opt, lfd;

	while ((opt = getopt(argc, argv, "s:o:qr")) != -1) {
		if (opt == 's')
			sock = optarg;
		else if (opt == 'r')
			offer_ring = 1;
		else if (opt == 'o')
			out = optarg;
		else if (opt == 'q')
			quiet = 1;
		else
			sock = NULL, optind = argc + 1;
	}
	if (sock == NULL || optind > argc) {
		fprintf(stderr, "usage: ev_sink -s SOCKET [-o OUT] [-q] [-r]\n");
		return 2;
	}
	snprintf(ring_dir, sizeof ring_dir, "%s", sock);
	if (strrchr(ring_dir, '/') != NULL)
		*strrchr(ring_dir, '/') = '\0';
	else
		snprintf(ring_dir, sizeof ring_dir, ".");
	if (out != NULL && freopen(out, "w", stdout) == NULL)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	lfd = listen_at(sock);
	if (lfd < 0) {
		fprintf(stderr, "ev_sink: cannot listen on %s: %s\n", sock,
		        strerror(errno));
		return 1;
	}
	loop(lfd);
	(void)unlink(sock);
	printf("sink: stopped\n");
	return 0;
}
