/*
 * rt_fakedmn.c — host test tool: the daemon's side of the task socket,
 * for testing the runtime (libparavt.a) without paravtd.
 *
 *   rt_fakedmn [-m MODE] [-p PROC] [-o OUT] -- COMMAND [ARG...]
 *
 * Listens on a Unix socket in a private 0700 directory, runs COMMAND
 * (e.g. "qemu-s390x -L ... rt_prog") with PARAVT_SOCK and PARAVT_PROC set
 * (its stdout to OUT if given), and speaks the daemon's side: HELLO, then
 * for each BP_HIT one INSPECT per variable (the bare variable: its type
 * and address, no steps), printing each VALUE with the console's printer
 * (td_value_print), then RESUME.  Everything received is printed as
 * "dmn: ..." lines; lines that differ between architectures start with
 * "dmn: # ".  At the end it prints how COMMAND ended ("dmn: EXIT 3" or
 * "dmn: SIGNAL 11").
 *
 * Modes (-m):
 *   normal   as above (default)
 *   bad      at the first breakpoint, first sends malformed and hostile
 *            requests (bad request object, unknown table id, unknown type,
 *            unreadable address, wrong process, wrong field types, bad
 *            steps, unexpected and unknown messages) and prints each answer
 *   bye      at the first breakpoint sends BYE instead of inspecting
 *   refuse   answers the task's HELLO with ERROR instead of HELLO
 *
 * Exit status: 0 if the protocol went as expected (whatever COMMAND's
 * status), 1 on a protocol or system failure (message on stderr), 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_con.h"
#include "td_node.h"
#include "wire_fmt.h"
#include "wire_msg.h"
#include "wire_peer.h"

#define FD_MAX_TABLES 16
#define FD_WAIT_NS (60ull * 1000000000ull)

/* The fake daemon's state. */
typedef struct fakedmn {
	const char *mode;                /* -m */
	uint64_t proc;                   /* -p: the task's process number */
	const char *out;                 /* -o: task's stdout, or NULL */
	char dir[64];                    /* private socket directory */
	char sock[96];                   /* socket path */
	int lfd;                         /* listening socket */
	pid_t child;                     /* the task (or its qemu) */
	wire_peer peer;                  /* connection to the task */
	int have_peer;                   /* peer initialised */
	td_table *tables[FD_MAX_TABLES]; /* TYPE_TABLEs received, by id */
	uint64_t req;                    /* last request number */
	int hits;                        /* BP_HITs seen */
	int failed;                      /* a protocol check failed */
} fakedmn;

/* Prints one "dmn: " line. */
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("dmn: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Records a protocol failure with a message on stderr. */
static void fail(fakedmn *d, const char *what)
{
	fprintf(stderr, "rt_fakedmn: %s\n", what);
	d->failed = 1;
}

/* Makes the private directory and the listening socket.  0 or -1. */
static int fd_listen(fakedmn *d)
{
	struct sockaddr_un sa;

	snprintf(d->dir, sizeof d->dir, "/tmp/rt_fakedmn.XXXXXX");
	if (mkdtemp(d->dir) == NULL)
		return -1;
	snprintf(d->sock, sizeof d->sock, "%s/task.sock", d->dir);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", d->sock);
	d->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (d->lfd < 0 || bind(d->lfd, (struct sockaddr *)&sa, sizeof sa) ||
	    listen(d->lfd, 4))
		return -1;
	return 0;
}

/* Starts the task with the environment paravtd would give it. */
static int fd_spawn(fakedmn *d, char **argv)
{
	char proc[32];
	int fd;

	fflush(stdout);
	d->child = fork();
	if (d->child < 0)
		return -1;
	if (d->child > 0)
		return 0;
	snprintf(proc, sizeof proc, "%llu", (unsigned long long)d->proc);
	setenv("PARAVT_SOCK", d->sock, 1);
	setenv("PARAVT_PROC", proc, 1);
	if (d->out != NULL) {
		fd = open(d->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		close(fd);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "rt_fakedmn: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Waits up to 60 s for the task to connect.  The fd, or -1 if the task
 * ended (or the time ran out) first. */
static int fd_accept(fakedmn *d)
{
	struct pollfd pfd = {d->lfd, POLLIN, 0};
	int i, st;

	for (i = 0; i < 600; i++) {
		if (poll(&pfd, 1, 100) > 0)
			return accept(d->lfd, NULL, NULL);
		if (waitpid(d->child, &st, WNOHANG) == d->child) {
			d->child = -st - 1; /* ended: keep the status */
			return -1;
		}
	}
	return -1;
}

/* Queues and writes one message; fails the run on error. */
static void fd_flush(fakedmn *d, int rc, const char *what)
{
	if (rc == 0)
		rc = wire_peer_drain(&d->peer, wire_now_ns() + FD_WAIT_NS);
	if (rc != 0) {
		fprintf(stderr, "rt_fakedmn: sending %s: %s\n", what,
		        wire_strerror(rc));
		d->failed = 1;
	}
}

/* Sends our HELLO (or, in refuse mode, an ERROR). */
static void fd_greet(fakedmn *d)
{
	wire_peer *p = &d->peer;
	wire_hello h;
	int rc;

	if (strcmp(d->mode, "refuse") == 0) {
		rc = wire_peer_send_error(p, WIRE_EBUSY, 0,
		                          "this daemon refuses tasks");
	} else {
		wire_hello_local(&h, "daemon", NULL, "fakedmn");
		rc = wire_pack_hello(wire_peer_out(p), wire_peer_seq(p), &h,
		                     p->max_frame);
	}
	fd_flush(d, rc, "HELLO");
}

/* HELLO from the task. */
static void on_hello(fakedmn *d, const wire_msg *m)
{
	wire_hello h;
	char err[200];

	if (wire_unpack_hello(m, &h, err, sizeof err) != 0 ||
	    wire_hello_check(&h, "task", err, sizeof err) != 0) {
		fail(d, err);
		return;
	}
	say("HELLO role=%s version=%u", h.role, h.version);
	say("# port=%s arch=%s byte_order=%s", h.port, h.arch,
	    h.abi.byte_order);
}

/* TASK_HELLO: the process number and pid must be the task's. */
static void on_task_hello(fakedmn *d, const wire_msg *m)
{
	uint64_t proc, pid;
	char err[200];

	if (wire_unpack(m, err, sizeof err, &proc, &pid) != 0) {
		fail(d, err);
		return;
	}
	say("TASK_HELLO proc=%llu pid=%s", (unsigned long long)proc,
	    pid == (uint64_t)d->child ? "ok" : "WRONG");
}

/* TYPE_TABLE: decode and keep the table. */
static void on_table(fakedmn *d, const wire_msg *m)
{
	const msgpack_object *o;
	uint64_t proc, id;
	td_table *t;
	char err[200];

	if (wire_unpack(m, err, sizeof err, &proc, &id, &o) != 0 ||
	    td_table_decode(o, &t, err, sizeof err) != 0) {
		fail(d, err);
		return;
	}
	if (id >= FD_MAX_TABLES) {
		td_table_free(t);
		fail(d, "table id out of range");
		return;
	}
	td_table_free(d->tables[id]);
	d->tables[id] = t;
	say("TYPE_TABLE proc=%llu table=%llu build=%s types=%u",
	    (unsigned long long)proc, (unsigned long long)id, t->build,
	    t->ntypes);
}

/* Prints a stack object [[func, file, line]...]. */
static void print_stack(fakedmn *d, const msgpack_object *s)
{
	const msgpack_object *f;
	uint32_t i;

	if (s->type != MSGPACK_OBJECT_ARRAY) {
		fail(d, "stack is not an array");
		return;
	}
	for (i = 0; i < s->via.array.size; i++) {
		f = s->via.array.ptr[i].via.array.ptr;
		if (s->via.array.ptr[i].type != MSGPACK_OBJECT_ARRAY ||
		    s->via.array.ptr[i].via.array.size != 3 ||
		    f[0].type != MSGPACK_OBJECT_STR ||
		    f[1].type != MSGPACK_OBJECT_STR ||
		    f[2].type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
			fail(d, "bad stack frame");
			return;
		}
		say("  #%u %.*s at %.*s:%llu", i, (int)f[0].via.str.size,
		    f[0].via.str.ptr, (int)f[1].via.str.size, f[1].via.str.ptr,
		    (unsigned long long)f[2].via.u64);
	}
}

/* TASK_CRASH: where the task died. */
static void on_crash(fakedmn *d, const wire_msg *m)
{
	const msgpack_object *stack;
	char file[512], func[512], err[200];
	uint64_t proc, line;
	int64_t sig;

	if (wire_unpack(m, err, sizeof err, &proc, &sig, file, sizeof file,
	                &line, func, sizeof func, &stack) != 0) {
		fail(d, err);
		return;
	}
	say("TASK_CRASH proc=%llu signal=%lld at %s:%llu in %s",
	    (unsigned long long)proc, (long long)sig, file,
	    (unsigned long long)line, func);
	print_stack(d, stack);
}

/* Sends INSPECT(proc, req, table, request-object). */
static void send_inspect(fakedmn *d, uint64_t proc, uint64_t table,
                         const msgpack_sbuffer *req)
{
	wire_peer *p = &d->peer;

	fd_flush(d,
	         wire_pack(wire_peer_out(p), WIRE_INSPECT, wire_peer_seq(p),
	                   p->max_frame, proc, ++d->req, table,
	                   (const void *)req->data, req->size),
	         "INSPECT");
}

/* Packs a request [type, addr, steps] into sb. */
static void make_request(msgpack_sbuffer *sb, uint32_t type, uint64_t addr,
                         const td_step *steps, uint32_t nsteps)
{
	msgpack_packer pk;
	td_request r;

	memset(&r, 0, sizeof r);
	r.type = type;
	r.addr = addr;
	r.nsteps = nsteps;
	if (nsteps > 0)
		memcpy(r.steps, steps, nsteps * sizeof *steps);
	msgpack_sbuffer_clear(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	td_request_pack(&pk, &r);
}

/* Prints an answer: VALUE (printed against type of table) or ERROR. */
static void print_answer(fakedmn *d, const wire_msg *m, const char *label,
                         uint64_t table, uint32_t type)
{
	const msgpack_object *v;
	uint64_t proc, req;
	wire_error_msg e;
	wire_buf out;
	char err[200];
	int ok;

	if (m->type == WIRE_ERROR && wire_unpack_error(m, &e, NULL, 0) == 0) {
		say("  %s: ERROR %s: %s", label, wire_errname(-(int)e.code),
		    e.message);
		return;
	}
	if (m->type != WIRE_VALUE ||
	    wire_unpack(m, err, sizeof err, &proc, &req, &ok, &v) != 0 ||
	    req != d->req) {
		fail(d, "expected the VALUE of the last INSPECT");
		return;
	}
	if (!ok) {
		if (v->type == MSGPACK_OBJECT_STR)
			say("  %s: error: %.*s", label, (int)v->via.str.size,
			    v->via.str.ptr);
		else
			fail(d, "VALUE ok=0 without a sentence");
		return;
	}
	wire_buf_init(&out, 1 << 20);
	if (table >= FD_MAX_TABLES || d->tables[table] == NULL ||
	    td_value_print(&out, d->tables[table], type, v, 1, err,
	                   sizeof err) != 0 ||
	    wire_buf_append(&out, "", 1) != 0)
		say("  %s: cannot print: %s", label, err);
	else
		say("  %s = %s", label, wire_buf_head(&out));
	wire_buf_destroy(&out);
}

/* Waits for the next message; 1 with *m, or 0 (failure recorded). */
static int fd_next(fakedmn *d, wire_msg *m)
{
	int rc = wire_peer_wait(&d->peer, m, wire_now_ns() + FD_WAIT_NS);

	if (rc == 1)
		return 1;
	if (rc != WIRE_EEOF)
		fail(d, d->peer.errmsg[0] ? d->peer.errmsg : wire_strerror(rc));
	return 0;
}

/* Sends request sb and prints the answer under label. */
static void ask(fakedmn *d, const char *label, uint64_t proc, uint64_t table,
                uint32_t type, const msgpack_sbuffer *sb)
{
	wire_msg m;

	send_inspect(d, proc, table, sb);
	if (fd_next(d, &m))
		print_answer(d, &m, label, table, type);
}

/* Sends a hand-made frame of type with fields packed by the caller's
 * function, then prints the answer. */
static void ask_raw(fakedmn *d, const char *label, uint32_t type,
                    void (*fields)(msgpack_packer *), uint32_t nfields)
{
	wire_enc e;
	wire_msg m;

	if (wire_enc_begin(&e, wire_peer_out(&d->peer), type,
	                   wire_peer_seq(&d->peer), nfields) != 0) {
		fail(d, "encoding");
		return;
	}
	fields(wire_enc_packer(&e));
	fd_flush(d, wire_enc_end(&e, d->peer.max_frame), label);
	if (fd_next(d, &m))
		print_answer(d, &m, label, 0, 0);
}

/* Fields of an INSPECT whose proc is a string. */
static void raw_inspect_bad_types(msgpack_packer *pk)
{
	msgpack_pack_str_with_body(pk, "one", 3);
	msgpack_pack_uint32(pk, 1);
	msgpack_pack_uint32(pk, 0);
	msgpack_pack_nil(pk);
}

/* Fields of a RESUME for process 77. */
static void raw_resume_other(msgpack_packer *pk)
{
	msgpack_pack_uint32(pk, 77);
}

/* Fields of a PING. */
static void raw_ping(msgpack_packer *pk)
{
	msgpack_pack_uint32(pk, 1);
}

/* The hostile requests of -m bad, against the first variable v0 (its
 * table, type and address) of a task stopped at a breakpoint. */
static void bad_requests(fakedmn *d, uint64_t proc, uint64_t table,
                         uint32_t type0, uint64_t addr0)
{
	static const td_step member99 = {TD_STEP_MEMBER, 99};
	static const td_step deref = {TD_STEP_DEREF, 0};
	msgpack_sbuffer sb;
	msgpack_packer pk;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_str_with_body(&pk, "garbage", 7);
	ask(d, "bad request object", proc, table, 0, &sb);
	make_request(&sb, type0, addr0, NULL, 0);
	ask(d, "unknown table 9", proc, 9, type0, &sb);
	make_request(&sb, 9999, addr0, NULL, 0);
	ask(d, "unknown type 9999", proc, table, 0, &sb);
	make_request(&sb, 0, 16, NULL, 0);
	ask(d, "int at 0x10", proc, table, 0, &sb);
	make_request(&sb, type0, addr0, NULL, 0);
	ask(d, "other process", proc + 1, table, type0, &sb);
	make_request(&sb, type0, addr0, &member99, 1);
	ask(d, "member 99", proc, table, 0, &sb);
	make_request(&sb, 0, addr0, &deref, 1);
	ask(d, "deref of an int", proc, table, 0, &sb);
	msgpack_sbuffer_destroy(&sb);
	ask_raw(d, "INSPECT with bad field types", WIRE_INSPECT,
	        raw_inspect_bad_types, 4);
	ask_raw(d, "RESUME for process 77", WIRE_RESUME, raw_resume_other, 1);
	ask_raw(d, "PING", WIRE_PING, raw_ping, 1);
	ask_raw(d, "message type 200", 200, raw_ping, 1);
}

/* Reads one var [name, type, addr, scope]; 0 or -1. */
static int get_var(const msgpack_object *o, const char **name, uint32_t *nl,
                   uint32_t *type, uint64_t *addr, uint64_t *scope)
{
	const msgpack_object *f = o->via.array.ptr;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 4 ||
	    f[0].type != MSGPACK_OBJECT_STR ||
	    f[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    f[2].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    f[3].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return -1;
	*name = f[0].via.str.ptr;
	*nl = f[0].via.str.size;
	*type = (uint32_t)f[1].via.u64;
	*addr = f[2].via.u64;
	*scope = f[3].via.u64;
	return 0;
}

/* Copies the vars object (it lives in the message, which the next wait
 * overwrites) into a standalone buffer and unpacks it there. */
static int copy_object(const msgpack_object *o, msgpack_sbuffer *sb,
                       msgpack_unpacked *u)
{
	msgpack_packer pk;

	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	if (msgpack_pack_object(&pk, *o) != 0)
		return -1;
	return msgpack_unpack_next(u, sb->data, sb->size, NULL) ==
	               MSGPACK_UNPACK_SUCCESS
	           ? 0
	           : -1;
}

/* Inspects every variable of the copied vars array, printing each. */
static void inspect_vars(fakedmn *d, uint64_t proc, uint64_t table,
                         const msgpack_object *vars)
{
	static const char *scopes[] = {"param", "local", "global", "static"};
	msgpack_sbuffer sb;
	const char *name;
	uint64_t addr, scope;
	uint32_t i, nl, type;
	char label[256];

	msgpack_sbuffer_init(&sb);
	for (i = 0; i < vars->via.array.size; i++) {
		if (get_var(&vars->via.array.ptr[i], &name, &nl, &type, &addr,
		            &scope) != 0) {
			fail(d, "bad variable in BP_HIT");
			break;
		}
		snprintf(label, sizeof label, "%.*s", (int)nl, name);
		say("  var %s type=%u scope=%s", label, type,
		    scope < 4 ? scopes[scope] : "?");
		if (i == 0 && d->hits == 1 && strcmp(d->mode, "bad") == 0)
			bad_requests(d, proc, table, type, addr);
		make_request(&sb, type, addr, NULL, 0);
		ask(d, label, proc, table, type, &sb);
	}
	msgpack_sbuffer_destroy(&sb);
}

/* Sends RESUME(proc), or BYE in bye mode. */
static void fd_resume(fakedmn *d, uint64_t proc)
{
	wire_peer *p = &d->peer;

	if (strcmp(d->mode, "bye") == 0) {
		say("sending BYE");
		fd_flush(d,
		         wire_pack_bye(wire_peer_out(p), wire_peer_seq(p),
		                       "test over", p->max_frame),
		         "BYE");
		return;
	}
	fd_flush(d,
	         wire_pack(wire_peer_out(p), WIRE_RESUME, wire_peer_seq(p),
	                   p->max_frame, proc),
	         "RESUME");
}

/* BP_HIT: print it, inspect every variable, resume. */
static void on_hit(fakedmn *d, const wire_msg *m)
{
	const msgpack_object *vars, *stack;
	char file[512], func[512], err[200];
	uint64_t proc, bp, line, table;
	msgpack_sbuffer sb;
	msgpack_unpacked u;

	if (wire_unpack(m, err, sizeof err, &proc, &bp, file, sizeof file,
	                &line, func, sizeof func, &table, &vars, &stack) != 0) {
		fail(d, err);
		return;
	}
	d->hits++;
	say("BP_HIT proc=%llu bp=%llu at %s:%llu in %s table=%llu",
	    (unsigned long long)proc, (unsigned long long)bp, file,
	    (unsigned long long)line, func, (unsigned long long)table);
	print_stack(d, stack);
	if (vars->type != MSGPACK_OBJECT_ARRAY) {
		fail(d, "vars is not an array");
		return;
	}
	msgpack_sbuffer_init(&sb);
	msgpack_unpacked_init(&u);
	if (copy_object(vars, &sb, &u) != 0)
		fail(d, "cannot copy vars");
	else if (strcmp(d->mode, "bye") != 0 || d->hits > 1)
		inspect_vars(d, proc, table, &u.data);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	fd_resume(d, proc);
}

/* Dispatches one message from the task. */
static void on_message(fakedmn *d, const wire_msg *m)
{
	switch (m->type) {
	case WIRE_HELLO:
		on_hello(d, m);
		break;
	case WIRE_TASK_HELLO:
		on_task_hello(d, m);
		break;
	case WIRE_TYPE_TABLE:
		on_table(d, m);
		break;
	case WIRE_BP_HIT:
		on_hit(d, m);
		break;
	case WIRE_TASK_CRASH:
		on_crash(d, m);
		break;
	case WIRE_EVENTS:
	case WIRE_EVENT_STRINGS:
		break; /* traced from para_vt_start; paravtd relays them */
	default:
		say("unexpected %s",
		    wire_type_name(m->type) ? wire_type_name(m->type) : "?");
		d->failed = 1;
	}
}

/* Serves the task until it closes the connection. */
static void fd_serve(fakedmn *d, int fd)
{
	wire_io io;
	wire_msg m;

	wire_io_fd(&io, fd, fd);
	if (wire_peer_init(&d->peer, &io, WIRE_FRAME_MAX_DEFAULT) != 0) {
		fail(d, "out of memory");
		return;
	}
	d->have_peer = 1;
	fd_greet(d);
	while (!d->failed && fd_next(d, &m))
		on_message(d, &m);
	say("connection closed");
}

/* Waits for the task and prints how it ended. */
static void fd_reap(fakedmn *d)
{
	int st;

	if (d->child >= 0) {
		while (waitpid(d->child, &st, 0) < 0 && errno == EINTR)
			;
	} else {
		st = -(d->child + 1);
	}
	if (WIFEXITED(st))
		say("EXIT %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		say("SIGNAL %d", WTERMSIG(st));
}

/* Frees tables and the connection, removes the socket directory. */
static void fd_cleanup(fakedmn *d)
{
	int i;

	for (i = 0; i < FD_MAX_TABLES; i++)
		td_table_free(d->tables[i]);
	if (d->have_peer)
		wire_peer_destroy(&d->peer);
	if (d->lfd >= 0)
		close(d->lfd);
	unlink(d->sock);
	rmdir(d->dir);
}

/* Parses options; the index of COMMAND, or -1. */
static int fd_options(fakedmn *d, int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "+m:p:o:")) != -1) {
		if (c == 'm')
			d->mode = optarg;
		else if (c == 'p')
			d->proc = strtoull(optarg, NULL, 10);
		else if (c == 'o')
			d->out = optarg;
		else
			return -1;
	}
	return optind < argc ? optind : -1;
}

/* See the top of the file. */
int main(int argc, char **argv)
{
	fakedmn d;
	int cmd, fd;

	memset(&d, 0, sizeof d);
	d.mode = "normal";
	d.proc = 1;
	d.lfd = -1;
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	cmd = fd_options(&d, argc, argv);
	if (cmd < 0) {
		fprintf(stderr, "usage: rt_fakedmn [-m normal|bad|bye|refuse] "
		                "[-p PROC] [-o OUT] -- COMMAND [ARG...]\n");
		return 2;
	}
	if (fd_listen(&d) != 0 || fd_spawn(&d, argv + cmd) != 0) {
		fprintf(stderr, "rt_fakedmn: %s\n", strerror(errno));
		fd_cleanup(&d);
		return 1;
	}
	fd = fd_accept(&d);
	if (fd >= 0)
		fd_serve(&d, fd);
	else
		say("no connection from the task");
	if (d.have_peer) {
		wire_peer_destroy(&d.peer); /* the task sees EOF if waiting */
		d.have_peer = 0;
	}
	fd_reap(&d);
	fd_cleanup(&d);
	return d.failed ? 1 : 0;
}
