/*
 * dmn_rsh.c — "paravtd --pvm-rsh": the PVM_RSH helper of a multi-host
 * PVM run (dmn_work.h, dmn_pvm.c).
 *
 * The master's pvmd runs it (through the script PVM_TMP/rsh the daemon
 * writes) as  rsh HOST [-l USER] [-n] COMMAND...  to start the pvmd of
 * another host; mpirun runs it (plm_rsh_agent) to start its orted there.
 * The words after the host are one command line (rsh semantics): they
 * are joined and split again as a shell would, quotes removed, nothing
 * expanded and no shell run (dmn_rsh_split).  The helper
 * reads $PARAVT_RSH_CONF (written by the master's daemon, in its private
 * session directory):
 *     token-file PATH | token-file -
 *     session TOKEN
 *     run N
 *     host ADDR IP:PORT BUILD        (one line per extra host)
 * connects to HOST's daemon at IP:PORT, says HELLO and AUTH like a
 * console, sends REXEC(1, COMMAND, [PARAVT_SESSION=, PARAVT_RUN=,
 * PARAVT_BUILD=]) and then copies its stdin to REXEC_IO stream 0 and
 * REXEC_IO streams 1 and 2 to its stdout and stderr until REXEC_EXIT,
 * whose status it exits with.  Every wait is bounded
 * (DMN_RSH_CONNECT_MS for the handshake; then the daemon's end).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dmn_work.h"
#include "wire_fmt.h"
#include "wire_token.h"

#define DMN_RSH_CONNECT_MS 15000 /* connect + HELLO + AUTH */
#define DMN_RSH_WORDS 64         /* words of the remote command */

/* What the conf file says about one host. */
typedef struct dmn_rsh_conf {
	char tokfile[DMN_PATH_MAX]; /* token file, "" for none */
	char session[48];           /* PARAVT_SESSION */
	char run[24];               /* PARAVT_RUN */
	char ip[64];                /* the host's daemon */
	unsigned port;              /* its TCP port */
	char build[24];             /* PARAVT_BUILD there */
} dmn_rsh_conf;

/* Reads the conf file for host.  0, or -1 with a message on stderr. */
static int dmn_rsh_conf_read(const char *host, dmn_rsh_conf *c)
{
	const char *path = getenv("PARAVT_RSH_CONF");
	char line[DMN_PATH_MAX + 64], a[DMN_PATH_MAX], b[80], d[24];
	int found = 0;
	FILE *f;

	memset(c, 0, sizeof *c);
	if (path == NULL || (f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "paravtd --pvm-rsh: no PARAVT_RSH_CONF (%s)\n",
		        path ? strerror(errno) : "unset");
		return -1;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "token-file %1023s", a) == 1)
			snprintf(c->tokfile, sizeof c->tokfile, "%s",
			         strcmp(a, "-") == 0 ? "" : a);
		else if (sscanf(line, "session %47s", c->session) == 1 ||
		         sscanf(line, "run %23s", c->run) == 1)
			continue;
		else if (sscanf(line, "host %1023s %79s %23s", a, b, d) == 3 &&
		         strcmp(a, host) == 0) {
			char *colon = strrchr(b, ':');

			if (colon == NULL)
				continue;
			*colon = '\0';
			snprintf(c->ip, sizeof c->ip, "%.63s", b);
			c->port = (unsigned)strtoul(colon + 1, NULL, 10);
			snprintf(c->build, sizeof c->build, "%s", d);
			found = 1;
		}
	}
	fclose(f);
	if (!found)
		fprintf(stderr, "paravtd --pvm-rsh: host %s is not in %s\n",
		        host, path);
	return found ? 0 : -1;
}

/* Connects to ip:port (IPv4).  The socket, or -1. */
static int dmn_rsh_connect(const dmn_rsh_conf *c)
{
	struct sockaddr_in sin;
	int fd;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)c->port);
	if (inet_pton(AF_INET, c->ip, &sin.sin_addr) != 1) {
		fprintf(stderr, "paravtd --pvm-rsh: %s is not an IPv4 "
		        "address\n", c->ip);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
		fprintf(stderr, "paravtd --pvm-rsh: %s:%u: %s\n", c->ip,
		        c->port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Waits for a frame of type want (ERROR and EOF fail).  0 or -1. */
static int dmn_rsh_expect(wire_peer *p, uint32_t want, uint64_t deadline)
{
	wire_error_msg e;
	char err[128];
	wire_msg m;

	if (wire_peer_wait(p, &m, deadline) != 1) {
		fprintf(stderr, "paravtd --pvm-rsh: no answer from the "
		        "daemon (%s)\n", p->errmsg);
		return -1;
	}
	if (m.type == want)
		return 0;
	if (m.type == WIRE_ERROR && wire_unpack_error(&m, &e, err,
	                                              sizeof err) == 0)
		fprintf(stderr, "paravtd --pvm-rsh: %s\n", e.message);
	else
		fprintf(stderr, "paravtd --pvm-rsh: unexpected %s\n",
		        wire_type_name(m.type) ? wire_type_name(m.type) : "?");
	return -1;
}

/* Writes all of buf to fd (blocking).  0 or -1. */
static int dmn_rsh_write(int fd, const char *buf, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = write(fd, buf, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		buf += k;
		n -= (size_t)k;
	}
	return 0;
}

/* One frame from the daemon: 1 go on, or the exit status + 2 (>= 2). */
static int dmn_rsh_frame(const wire_msg *m)
{
	uint64_t req, stream;
	const char *data;
	size_t len;
	int64_t status;
	char err[128];
	wire_error_msg e;

	if (m->type == WIRE_REXEC_IO &&
	    wire_unpack(m, err, sizeof err, &req, &stream, &data, &len) == 0) {
		if (len > 0)
			(void)dmn_rsh_write(stream == 2 ? 2 : 1, data, len);
		return 1;
	}
	if (m->type == WIRE_REXEC_EXIT &&
	    wire_unpack(m, err, sizeof err, &req, &status) == 0)
		return 2 + (status < 0 || status > 255 ? 255 : (int)status);
	if (m->type == WIRE_ERROR &&
	    wire_unpack_error(m, &e, err, sizeof err) == 0) {
		fprintf(stderr, "paravtd --pvm-rsh: %s\n", e.message);
		return 2 + 1;
	}
	return 1; /* PONG, BYE ...: nothing to do */
}

/* Pumps stdin to the daemon and its REXEC_IO to stdout/stderr.  The
 * exit status. */
static int dmn_rsh_pump(wire_peer *p, int sfd)
{
	struct pollfd pf[2];
	char buf[16384];
	int in_open = 1, rc;
	ssize_t n;
	wire_msg m;

	for (;;) {
		while ((rc = wire_peer_next(p, &m)) == 1)
			if ((rc = dmn_rsh_frame(&m)) >= 2)
				return rc - 2;
		if (rc < 0 || wire_peer_flush(p) != 0)
			return 1;
		pf[0].fd = sfd;
		pf[0].events = POLLIN | (wire_peer_pending(p) ? POLLOUT : 0);
		pf[1].fd = in_open ? 0 : -1;
		pf[1].events = POLLIN;
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			return 1;
		if (pf[1].revents != 0) {
			n = read(0, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				in_open = 0;
				n = 0;
			}
			wire_pack(&p->out, WIRE_REXEC_IO, wire_peer_seq(p),
			          p->max_frame, (uint64_t)1, (uint64_t)0, buf,
			          (size_t)n);
		}
		if ((pf[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
			rc = wire_peer_fill(p);
			if (rc == WIRE_EEOF || (rc != 0 && p->in.len == 0)) {
				fprintf(stderr, "paravtd --pvm-rsh: the "
				        "daemon closed the connection\n");
				return 1;
			}
		}
	}
}

/* Splits line in place into words as a POSIX shell would without
 * expanding anything: blanks separate, '...' and "..." group (in "..."
 * a backslash escapes \\ \" \$ \`), a backslash outside quotes
 * escapes the next byte.  Open MPI quotes its orted's values ("env").
 * The count (w NULL-terminated), or -1 for an unterminated quote or
 * more than max words. */
static int dmn_rsh_split(char *line, char **w, int max)
{
	char *p = line, *o = line, q;
	int n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		if (n == max)
			return -1;
		w[n++] = o;
		for (q = 0; *p != '\0' &&
		            (q || (*p != ' ' && *p != '\t' && *p != '\n'));
		     p++) {
			if (q != 0 && *p == q) {
				q = 0;
			} else if (q == 0 && (*p == '\'' || *p == '"')) {
				q = *p;
			} else if (*p == '\\' && p[1] != '\0' &&
			           (q == 0 || (q == '"' &&
			                       strchr("\\\"$`", p[1])))) {
				*o++ = *++p;
			} else {
				*o++ = *p;
			}
		}
		if (q != 0)
			return -1;
		if (*p != '\0')
			p++;
		*o++ = '\0';
	}
	w[n] = NULL;
	return n;
}

int dmn_rsh_main(int argc, char **argv)
{
	char *words[DMN_RSH_WORDS + 1], line[8192];
	char env[3][96], tbuf[WIRE_TOKEN_MAX] = "", terr[256];
	const char *envv[3];
	uint64_t deadline;
	dmn_rsh_conf c;
	wire_hello h;
	wire_io io;
	wire_peer p;
	size_t used = 0;
	int i = 3, n = 0, fd, rc;

	signal(SIGPIPE, SIG_IGN);
	if (argc < 4) {
		fprintf(stderr, "usage: paravtd --pvm-rsh HOST [-l USER] [-n] "
		        "COMMAND...\n");
		return 2;
	}
	while (i < argc && (strcmp(argv[i], "-n") == 0 ||
	                    strcmp(argv[i], "-l") == 0))
		i += strcmp(argv[i], "-l") == 0 ? 2 : 1;
	line[0] = '\0';
	for (; i < argc; i++) {
		rc = snprintf(line + used, sizeof line - used, "%s%s",
		              used ? " " : "", argv[i]);
		if (rc < 0 || (size_t)rc >= sizeof line - used)
			return 2;
		used += (size_t)rc;
	}
	n = dmn_rsh_split(line, words, DMN_RSH_WORDS);
	if (n < 0) {
		fprintf(stderr, "paravtd --pvm-rsh: the command has an "
		        "unterminated quote or more than %d words\n",
		        DMN_RSH_WORDS);
		return 2;
	}
	if (n == 0 || dmn_rsh_conf_read(argv[2], &c) != 0)
		return 2;
	if (c.tokfile[0] != '\0' &&
	    wire_token_load(c.tokfile, 0, tbuf, terr, sizeof terr) != 0) {
		fprintf(stderr, "paravtd --pvm-rsh: %s\n", terr);
		return 2;
	}
	snprintf(env[0], sizeof env[0], "PARAVT_SESSION=%s", c.session);
	snprintf(env[1], sizeof env[1], "PARAVT_RUN=%s", c.run);
	snprintf(env[2], sizeof env[2], "PARAVT_BUILD=%s", c.build);
	envv[0] = env[0], envv[1] = env[1], envv[2] = env[2];
	if ((fd = dmn_rsh_connect(&c)) < 0)
		return 1;
	wire_io_fd(&io, fd, fd);
	if (wire_peer_init(&p, &io, WIRE_FRAME_MAX_DEFAULT) != 0)
		return 1;
	deadline = wire_now_ns() + (uint64_t)DMN_RSH_CONNECT_MS * 1000000u;
	wire_hello_local(&h, "console", NULL, "pvm-rsh");
	if (dmn_rsh_expect(&p, WIRE_HELLO, deadline) != 0 ||
	    wire_pack_hello(&p.out, wire_peer_seq(&p), &h, p.max_frame) != 0 ||
	    wire_pack_auth(&p.out, wire_peer_seq(&p), tbuf, p.max_frame) != 0 ||
	    dmn_rsh_expect(&p, WIRE_AUTH_OK, deadline) != 0 ||
	    wire_pack(&p.out, WIRE_REXEC, wire_peer_seq(&p), p.max_frame,
	              (uint64_t)1, (const char *const *)words, (uint32_t)n,
	              envv, (uint32_t)3) != 0) {
		wire_peer_destroy(&p);
		return 1;
	}
	rc = dmn_rsh_pump(&p, fd);
	wire_peer_drain(&p, wire_now_ns() + 1000000000u);
	wire_peer_destroy(&p);
	return rc;
}
