/*
 * dmn_main.c — paravtd: the paravt node daemon's entry point.
 *
 * Parses the command line (by hand: getopt_long is not POSIX), sets up the
 * log, the token, signals (a self-pipe wakes the event loop), then either
 * listens on TCP or serves one connection on stdin/stdout (--stdio, for
 * SSH), runs the loop, and shuts down cleanly.  Only this file prints to
 * the terminal or exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn_conn.h"
#include "dmn_log.h"
#include "dmn_loop.h"
#include "dmn_net.h"
#include "dmn_sched.h"
#include "dmn_event.h"
#include "dmn_work.h"
#include "wire_token.h"

#define DMN_USAGE                                                          \
	"usage: paravtd [-hV] [--listen ADDR:PORT] [--allow-remote] "      \
	"[--stdio] [--token-file FILE] [--log FILE] [--name NODE] "        \
	"[--port-file FILE] [--pid-file FILE] [--max-frame BYTES] "        \
	"[--runtime-dir DIR] [--orphan-timeout SECS] [--no-cpu-share] "    \
	"[--no-sched-batch]\n"                                             \
	"       paravtd --pvm-rsh HOST [-l USER] [-n] COMMAND...\n"

/* Everything the command line can say. */
typedef struct dmn_opts {
	const char *listen;     /* ADDR:PORT */
	int allow_remote;       /* non-loopback listen allowed */
	int stdio;              /* serve fd 0/1 instead of TCP */
	const char *token_file; /* explicit token file, or NULL */
	const char *log;        /* log file, or NULL for stderr */
	const char *name;       /* node name, or NULL */
	const char *port_file;  /* where to write the bound port */
	const char *pid_file;   /* where to write our pid */
	unsigned long max_frame;/* frame limit in bytes */
	unsigned long proto;    /* protocol version to announce (testing) */
	const char *runtime_dir;/* holds lib/libparavt.a and include/ */
	unsigned long ev_mem;   /* --events-mem (hidden, tests), 0 default */
	unsigned long ev_spill; /* --events-spill (hidden, tests), 0 default */
	unsigned long orphan;   /* --orphan-timeout, seconds */
	int no_share;           /* --no-cpu-share */
	int no_batch;           /* --no-sched-batch */
	const char *argv0;      /* our argv[0] (finds the runtime) */
	int help;               /* -h given */
	int version;            /* -V given */
} dmn_opts;

/* Descriptors watched to start with (the loop grows): connections,
 * pipes of programs and builds, task sockets, the listener and the
 * signal pipe. */
#define DMN_LOOP_FDS \
	(DMN_CONNS_START + 2 * DMN_PROCS_START + DMN_MAX_JOBS + DMN_MAX_SESS + 8)

static int dmn_sig_pipe[2] = {-1, -1}; /* self-pipe: signal -> loop */
static volatile sig_atomic_t dmn_sig_last; /* last stopping signal */

/* Prints the usage line and the option list to fp. */
static void dmn_usage(FILE *fp)
{
	fputs(DMN_USAGE, fp);
	fputs("\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "  --listen ADDR:PORT     listen there (default "
	      DMN_DEFAULT_LISTEN "; port 0: any)\n"
	      "  --allow-remote         allow a non-loopback ADDR (trusted "
	      "networks only)\n"
	      "  --stdio                speak the protocol on stdin/stdout "
	      "(over ssh)\n"
	      "  --token-file FILE      secret token (default "
	      "~/.paravt/token)\n"
	      "  --log FILE             log to FILE instead of stderr\n"
	      "  --name NODE            node name (default: host name)\n"
	      "  --port-file FILE       write the listening port to FILE\n"
	      "  --pid-file FILE        write the process id to FILE\n"
	      "  --max-frame BYTES      largest frame accepted "
	      "(default 16777216)\n"
	      "  --runtime-dir DIR      paravt runtime for user programs: "
	      "DIR/lib, DIR/include\n"
	      "                         (default: next to the paravtd "
	      "binary, BIN/..)\n"
	      "  --orphan-timeout SECS  how long a session whose console "
	      "is gone keeps its\n"
	      "                         processes and events for a console "
	      "to attach\n"
	      "                         (default 600; 0: until the daemon "
	      "stops)\n"
	      "  --no-cpu-share         do not add to the events' delta the "
	      "time the traced\n"
	      "                         processes waited for a CPU that "
	      "paravtd had (Linux)\n"
	      "  --no-sched-batch       keep the normal scheduling policy "
	      "(default on Linux:\n"
	      "                         SCHED_BATCH, so that the daemon "
	      "waking up does not\n"
	      "                         preempt the program's processes)\n"
	      "  --pvm-rsh HOST ...     the PVM_RSH helper of a PVM run on "
	      "several nodes:\n"
	      "                         has HOST's paravtd start its pvmd "
	      "(REXEC)\n", fp);
}

/* Parses an unsigned number in [lo, hi].  0 or -1. */
static int dmn_num(const char *s, unsigned long lo, unsigned long hi,
		   unsigned long *v)
{
	char *end;

	errno = 0;
	if (s[0] < '0' || s[0] > '9')
		return -1;
	*v = strtoul(s, &end, 10);
	return *end != '\0' || errno != 0 || *v < lo || *v > hi ? -1 : 0;
}

/* Stores the value of option name (from "--name=v" or the next argument).
 * Returns 0, or -1 with a sentence in err. */
static int dmn_opt_value(dmn_opts *o, const char *name, const char *v,
			 char *err, size_t errlen)
{
	if (strcmp(name, "--listen") == 0)
		o->listen = v;
	else if (strcmp(name, "--token-file") == 0)
		o->token_file = v;
	else if (strcmp(name, "--log") == 0)
		o->log = v;
	else if (strcmp(name, "--name") == 0)
		o->name = v;
	else if (strcmp(name, "--port-file") == 0)
		o->port_file = v;
	else if (strcmp(name, "--pid-file") == 0)
		o->pid_file = v;
	else if (strcmp(name, "--runtime-dir") == 0)
		o->runtime_dir = v;
	else if (strcmp(name, "--max-frame") == 0) {
		if (dmn_num(v, 64, WIRE_FRAME_MAX_HARD, &o->max_frame) != 0)
			goto out_bad;
	} else if (strcmp(name, "--events-mem") == 0) {
		if (dmn_num(v, 1024, 1UL << 30, &o->ev_mem) != 0)
			goto out_bad;
	} else if (strcmp(name, "--events-spill") == 0) {
		if (dmn_num(v, 1024, 0xffffffffUL, &o->ev_spill) != 0)
			goto out_bad;
	} else if (strcmp(name, "--orphan-timeout") == 0) {
		if (dmn_num(v, 0, 30UL * 24 * 3600, &o->orphan) != 0)
			goto out_bad;
	} else if (strcmp(name, "--proto-version") == 0) {
		if (dmn_num(v, 0, 0xffffffffUL, &o->proto) != 0)
			goto out_bad;
	} else {
		snprintf(err, errlen, "unknown option %s", name);
		return -1;
	}
	return 0;
out_bad:
	snprintf(err, errlen, "bad value '%s' for %s", v, name);
	return -1;
}

/* True for the options that take a value. */
static int dmn_opt_takes_value(const char *name)
{
	static const char *const with[] = {
		"--listen", "--token-file", "--log", "--name", "--port-file",
		"--pid-file", "--max-frame", "--proto-version",
		"--runtime-dir", "--events-mem", "--events-spill",
		"--orphan-timeout", NULL
	};
	int i;

	for (i = 0; with[i] != NULL; i++)
		if (strcmp(name, with[i]) == 0)
			return 1;
	return 0;
}

/* Handles a flag without value.  0, or -1 if unknown. */
static int dmn_opt_flag(dmn_opts *o, const char *a)
{
	if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
		o->help = 1;
	else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0)
		o->version = 1;
	else if (strcmp(a, "-hV") == 0 || strcmp(a, "-Vh") == 0)
		o->help = o->version = 1;
	else if (strcmp(a, "--allow-remote") == 0)
		o->allow_remote = 1;
	else if (strcmp(a, "--stdio") == 0)
		o->stdio = 1;
	else if (strcmp(a, "--no-cpu-share") == 0)
		o->no_share = 1;
	else if (strcmp(a, "--no-sched-batch") == 0)
		o->no_batch = 1;
	else
		return -1;
	return 0;
}

/* Parses argv into o.  0, or -1 with a sentence in err. */
static int dmn_parse(int argc, char **argv, dmn_opts *o, char *err,
		     size_t errlen)
{
	char name[64];
	const char *eq;
	int i;

	memset(o, 0, sizeof *o);
	o->listen = DMN_DEFAULT_LISTEN;
	o->max_frame = WIRE_FRAME_MAX_DEFAULT;
	o->proto = WIRE_PROTO_VERSION;
	o->orphan = DMN_ORPHAN_DEFAULT;
	o->argv0 = argv[0];
	for (i = 1; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (strncmp(argv[i], "--", 2) == 0 && eq != NULL &&
		    (size_t)(eq - argv[i]) < sizeof name) {
			memcpy(name, argv[i], (size_t)(eq - argv[i]));
			name[eq - argv[i]] = '\0';
			if (!dmn_opt_takes_value(name) &&
			    dmn_opt_flag(o, name) == 0) {
				snprintf(err, errlen, "%s takes no value",
					 name);
				return -1;
			}
			if (dmn_opt_value(o, name, eq + 1, err, errlen) != 0)
				return -1;
		} else if (dmn_opt_takes_value(argv[i])) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "%s needs a value",
					 argv[i]);
				return -1;
			}
			if (dmn_opt_value(o, argv[i], argv[i + 1], err,
					  errlen) != 0)
				return -1;
			i++;
		} else if (dmn_opt_flag(o, argv[i]) != 0) {
			snprintf(err, errlen, "unknown option %s", argv[i]);
			return -1;
		}
	}
	return 0;
}

/* Signal handler: remember a stopping signal and wake the loop (the
 * byte says which signal came). */
static void dmn_on_signal(int sig)
{
	int saved = errno;
	char b = (char)sig;

	if (sig != SIGCHLD)
		dmn_sig_last = sig;
	if (write(dmn_sig_pipe[1], &b, 1) < 0) {
		/* pipe full: a wake-up is already pending */
	}
	errno = saved;
}

/* Self-pipe readable: a child ended (the reaper looks at once), or a
 * signal asked us to stop.  A full pipe may have lost bytes: a stopping
 * signal is known by dmn_sig_last too. */
static void dmn_on_sig_pipe(dmn_loop *l, int fd, void *ctx)
{
	char b[16];
	ssize_t n, i;
	int child = 0;

	while ((n = read(fd, b, sizeof b)) > 0)
		for (i = 0; i < n; i++)
			child |= b[i] == (char)SIGCHLD;
	if (child)
		dmn_work_child(ctx);
	if (dmn_sig_last != 0)
		dmn_loop_stop(l);
}

static const dmn_io_ops dmn_sig_ops = {dmn_on_sig_pipe, NULL, NULL};

/* Installs the self-pipe and the SIGTERM/SIGINT/SIGCHLD/SIGPIPE
 * dispositions (srv: whose reaper SIGCHLD calls).  0 or -1 (errno
 * set). */
static int dmn_signals(dmn_loop *l, dmn_server *srv)
{
	struct sigaction sa;
	int i, fl;

	if (pipe(dmn_sig_pipe) != 0)
		return -1;
	for (i = 0; i < 2; i++) {
		fl = fcntl(dmn_sig_pipe[i], F_GETFL);
		fcntl(dmn_sig_pipe[i], F_SETFL, fl | O_NONBLOCK);
		fcntl(dmn_sig_pipe[i], F_SETFD, FD_CLOEXEC);
	}
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = dmn_on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* restarted: a child's end must not fail a call elsewhere */
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	return dmn_loop_add(l, dmn_sig_pipe[0], &dmn_sig_ops, srv, 1);
}

/* Fills cfg's token from the options.  0, or -1 with a sentence in err. */
static int dmn_token(const dmn_opts *o, dmn_config *cfg, char *err,
		     size_t errlen)
{
	char path[1024], abs[PATH_MAX];

	if (o->stdio && o->token_file == NULL)
		return 0; /* ssh authenticated the user */
	if (o->token_file != NULL)
		snprintf(path, sizeof path, "%s", o->token_file);
	else if (wire_token_default_path(path, sizeof path) != 0) {
		snprintf(err, errlen, "HOME is not set: use --token-file");
		return -1;
	}
	if (wire_token_load(path, o->token_file == NULL, cfg->token, err,
			    errlen) != 0)
		return -1;
	/* absolute, for the PVM_RSH helper (dmn_rsh.c) */
	if (realpath(path, abs) == NULL ||
	    strlen(abs) >= sizeof cfg->token_file)
		snprintf(abs, sizeof abs, "%s", path);
	snprintf(cfg->token_file, sizeof cfg->token_file, "%s", abs);
	cfg->check_token = 1;
	return 0;
}

/* Opens the TCP listener and writes the port file.  The listening fd, or
 * -1 with a sentence in err. */
static int dmn_start_tcp(const dmn_opts *o, dmn_server *srv, char *err,
			 size_t errlen)
{
	dmn_addr a;
	unsigned port;
	char text[32];
	int fd;

	if (dmn_addr_parse(o->listen, &a, err, errlen) != 0)
		return -1;
	if (!a.loopback && !o->allow_remote) {
		snprintf(err, errlen, "refusing to listen on %s: not a "
			 "loopback address (use --allow-remote, on trusted "
			 "cluster networks only)", a.host);
		return -1;
	}
	fd = dmn_listen(&a, &port, err, errlen);
	if (fd < 0)
		return -1;
	if (dmn_accept_start(srv, fd) != 0) {
		snprintf(err, errlen, "event loop full");
		goto out_close;
	}
	snprintf(text, sizeof text, "%u\n", port);
	if (o->port_file != NULL && dmn_write_file(o->port_file, text) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", o->port_file,
			 strerror(errno));
		goto out_close;
	}
	dmn_log(DMN_INFO, "listening on %s:%u (node %s, port %s)", a.host,
		port, srv->hello.node, PVT_PORT_NAME);
	return fd;
out_close:
	close(fd);
	return -1;
}

/* Prints the loud warning for a non-loopback listen address. */
static void dmn_warn_remote(const dmn_opts *o)
{
	dmn_addr a;
	char err[128];

	if (o->stdio || !o->allow_remote ||
	    dmn_addr_parse(o->listen, &a, err, sizeof err) != 0 ||
	    a.loopback)
		return;
	fprintf(stderr,
		"paravtd: WARNING: listening on %s, not on loopback.\n"
		"paravtd: WARNING: anyone who can reach this address may try "
		"to connect;\n"
		"paravtd: WARNING: use --allow-remote only on a trusted "
		"cluster network.\n", o->listen);
	dmn_log(DMN_WARN, "listening beyond loopback on %s (--allow-remote)",
		o->listen);
}

/* The daemon's scheduling policy (dmn_sched.h), logged; a failure is
 * logged and the daemon goes on with the policy it has. */
static void dmn_sched(const dmn_opts *o)
{
	char err[128];
	int rc;

	if (o->no_batch)
		return;
	rc = dmn_sched_batch(err, sizeof err);
	if (rc > 0)
		dmn_log(DMN_INFO, "scheduling: SCHED_BATCH (what it starts "
			"gets the policy it had before)");
	else if (rc < 0)
		dmn_log(DMN_WARN, "scheduling: %s; keeping the normal policy",
			err);
}

/* Sets up everything and runs the loop.  Returns the exit status. */
static int dmn_run(const dmn_opts *o, dmn_loop *l)
{
	dmn_config cfg;
	dmn_server srv;
	char err[512], text[32];
	int lfd = -1, rc = 1;

	memset(&cfg, 0, sizeof cfg);
	memset(&srv, 0, sizeof srv);
	cfg.name = o->name;
	cfg.proto_version = (unsigned)o->proto;
	cfg.max_frame = o->max_frame;
	cfg.argv0 = o->argv0;
	cfg.runtime_dir = o->runtime_dir;
	cfg.events_mem = o->ev_mem;
	cfg.events_spill = o->ev_spill;
	cfg.orphan_timeout = (unsigned)o->orphan;
	cfg.no_cpu_share = o->no_share;
	if (dmn_token(o, &cfg, err, sizeof err) != 0)
		goto out_err;
	dmn_server_init(&srv, l, &cfg);
	if (dmn_work_new(&srv, &dmn_ev_relay, err, sizeof err) != 0)
		goto out_err;
	if (dmn_signals(l, &srv) != 0) {
		snprintf(err, sizeof err, "signal set-up failed");
		goto out_err;
	}
	dmn_warn_remote(o);
	dmn_sched(o);
	if (o->stdio) {
		srv.stop_when_idle = 1;
		if (dmn_conn_open(&srv, 0, 1, "stdio") != 0) {
			snprintf(err, sizeof err, "cannot serve stdio");
			goto out_err;
		}
	} else if ((lfd = dmn_start_tcp(o, &srv, err, sizeof err)) < 0)
		goto out_err;
	snprintf(text, sizeof text, "%ld\n", (long)getpid());
	if (o->pid_file != NULL && dmn_write_file(o->pid_file, text) != 0) {
		snprintf(err, sizeof err, "cannot write %s: %s", o->pid_file,
			 strerror(errno));
		goto out_files;
	}
	if (dmn_loop_run(l) != 0)
		dmn_log(DMN_ERROR, "poll: %s", strerror(errno));
	if (dmn_sig_last != 0)
		dmn_log(DMN_INFO, "shutting down on signal %d",
			(int)dmn_sig_last);
	dmn_server_shutdown(&srv, "daemon shutting down", 1000);
	dmn_work_free(&srv);
	rc = 0;
out_files:
	if (lfd >= 0)
		close(lfd);
	if (o->port_file != NULL && !o->stdio)
		unlink(o->port_file);
	if (o->pid_file != NULL && rc == 0)
		unlink(o->pid_file);
	if (rc == 0) {
		dmn_log(DMN_INFO, "stopped");
		return 0;
	}
out_err:
	dmn_work_free(&srv);
	dmn_log(DMN_ERROR, "%s", err);
	if (o->log != NULL)
		fprintf(stderr, "paravtd: %s\n", err);
	return 1;
}

int main(int argc, char **argv)
{
	dmn_opts o;
	dmn_loop *l;
	char err[256];
	int rc;

	if (argc > 1 && strcmp(argv[1], "--pvm-rsh") == 0)
		return dmn_rsh_main(argc, argv);
	if (dmn_parse(argc, argv, &o, err, sizeof err) != 0) {
		fprintf(stderr, "paravtd: %s\n" DMN_USAGE, err);
		return 2;
	}
	if (o.help) {
		dmn_usage(stdout);
		return 0;
	}
	if (o.version) {
		printf("paravtd %s (protocol %d, port %s)\n", PARAVT_VERSION,
		       WIRE_PROTO_VERSION, PVT_PORT_NAME);
		return 0;
	}
	if (dmn_log_open(o.log) != 0) {
		fprintf(stderr, "paravtd: cannot open log %s: %s\n", o.log,
			strerror(errno));
		return 1;
	}
	l = dmn_loop_new(DMN_LOOP_FDS, DMN_CONNS_START + 8);
	if (l == NULL) {
		fprintf(stderr, "paravtd: out of memory\n");
		return 1;
	}
	rc = dmn_run(&o, l);
	dmn_loop_free(l);
	dmn_log_close();
	return rc;
}
