/*
 * con_ssh.c — reaching a node's daemon through SSH with libssh2
 * (con_ssh.h).
 *
 * Layout, in the order a connection goes through them:
 *   URL parsing       con_ssh_parse_url, in con_ssh_url.c
 *   TCP connect       non-blocking connect() per getaddrinfo address,
 *                     bounded by the overall deadline
 *   host key          known_hosts and the server's key, in
 *                     con_ssh_hostkey.c (shared state in con_ssh_int.h)
 *   authentication    agent, then the given key file, then ~/.ssh/id_*
 *   channel           exec "PATH --stdio" or direct-tcpip to the remote
 *                     loopback port
 *   transport         a non-blocking wire_io over the channel
 *
 * Every blocking step runs with libssh2's session timeout set to what is
 * left of timeout_ms.  Errors are sentences in the caller's buffer that
 * start with "ssh HOST:PORT: " and name the step; nothing is printed.
 *
 * libssh2 reads whole packets from the socket into its own queue, so the
 * socket can be quiet while channel data is still queued.  pollfd covers
 * that case by also asking for POLLOUT (a connected socket is nearly
 * always writable), so a poll() returns at once and the caller reads.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libssh2.h>

#include "con_ssh_int.h"
#include "con_tcp.h"

#define CON_SSH_DEFAULT_TIMEOUT_MS 10000
#define CON_SSH_DEFAULT_CMD "paravtd --stdio"
#define CON_SSH_CLOSE_TIMEOUT_MS 1000

static pthread_once_t con_ssh_once = PTHREAD_ONCE_INIT;
static int con_ssh_init_rc; /* result of libssh2_init */

/* ---- small helpers --------------------------------------------------- */

/* Calls libssh2_init exactly once per process. */
static void con_ssh_init_once(void)
{
	con_ssh_init_rc = libssh2_init(0);
}

/* Monotonic clock in milliseconds. */
static uint64_t con_ssh_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Milliseconds left before the job's deadline, at least 1. */
long con_ssh_left_ms(const con_ssh_job *j)
{
	uint64_t now = con_ssh_now_ms();

	return now >= j->deadline_ms ? 1 : (long)(j->deadline_ms - now);
}

/* Formats "WHERE: " + message into the caller's buffer; returns -1. */
int con_ssh_fail(con_ssh_job *j, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (j->err == NULL || j->errlen == 0)
		return -1;
	n = snprintf(j->err, j->errlen, "%s: ", j->where);
	if (n < 0 || (size_t)n >= j->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(j->err + n, j->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* libssh2's last error message for the session, or "unknown error";
 * a step that ran out of time says so plainly. */
const char *con_ssh_lasterr(LIBSSH2_SESSION *s)
{
	char *msg = NULL;
	int code;

	if (s == NULL)
		return "unknown error";
	code = libssh2_session_last_error(s, &msg, NULL, 0);
	if (code == LIBSSH2_ERROR_TIMEOUT ||
	    code == LIBSSH2_ERROR_SOCKET_TIMEOUT)
		return "timed out (no answer within the connection timeout)";
	return msg != NULL && *msg != '\0' ? msg : "unknown error";
}

/* The user's home directory: $HOME, else the password database. */
const char *con_ssh_home(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;

	if (h != NULL && *h != '\0')
		return h;
	pw = getpwuid(getuid());
	return pw != NULL ? pw->pw_dir : "/";
}

/* ---- TCP ------------------------------------------------------------- */

/* Connects one address without blocking past the deadline.  Returns the
 * socket, or -1 with errno set. */
static int con_ssh_connect_one(const struct addrinfo *ai, con_ssh_job *j)
{
	struct pollfd pfd;
	int fd, r, soerr = 0, flags;
	socklen_t sl = sizeof soerr;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
	            ai->ai_protocol);
	if (fd < 0)
		return -1;
	flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		if (errno != EINPROGRESS)
			goto out_close;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		do
			r = poll(&pfd, 1, (int)con_ssh_left_ms(j));
		while (r < 0 && errno == EINTR);
		if (r == 0) {
			errno = ETIMEDOUT;
			goto out_close;
		}
		if (r < 0 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0)
			goto out_close;
		if (soerr != 0) {
			errno = soerr;
			goto out_close;
		}
	}
	fcntl(fd, F_SETFL, flags); /* libssh2 decides blocking itself */
	con_tcp_nodelay(fd);
	return fd;
out_close:
	r = errno;
	close(fd);
	errno = r;
	return -1;
}

/* Resolves the host and connects to the first address that answers.
 * 0 with j->c->sock set, or -1 with err filled. */
static int con_ssh_connect(con_ssh_job *j)
{
	struct addrinfo hints, *res = NULL, *ai;
	char port[16];
	int rc, saved = ECONNREFUSED;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof port, "%d", j->o->port);
	rc = getaddrinfo(j->o->host, port, &hints, &res);
	if (rc != 0)
		return con_ssh_fail(j, "resolve %s: %s", j->o->host,
		                    gai_strerror(rc));
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		j->c->sock = con_ssh_connect_one(ai, j);
		if (j->c->sock >= 0)
			break;
		saved = errno;
		if (con_ssh_now_ms() >= j->deadline_ms)
			break;
	}
	freeaddrinfo(res);
	if (j->c->sock < 0)
		return con_ssh_fail(j, "connect: %s", strerror(saved));
	return 0;
}

/* ---- authentication -------------------------------------------------- */

/* Appends ", what" (or "what" first) to the list of things tried. */
static void con_ssh_tried(char *tried, size_t n, const char *what)
{
	size_t used = strlen(tried);

	snprintf(tried + used, n - used, "%s%s", used > 0 ? ", " : "", what);
}

/* Shortens a path under $HOME to "~/..." for messages. */
static void con_ssh_tilde(const char *path, char *buf, size_t n)
{
	const char *home = con_ssh_home();
	size_t hl = strlen(home);

	if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
		snprintf(buf, n, "~%s", path + hl);
	else
		snprintf(buf, n, "%s", path);
}

/* Tries every identity of the SSH agent.  1 authenticated, 0 not. */
static int con_ssh_auth_agent(con_ssh_job *j, char *tried, size_t n)
{
	LIBSSH2_AGENT *ag;
	struct libssh2_agent_publickey *id = NULL, *prev = NULL;
	int ok = 0;

	if (getenv("SSH_AUTH_SOCK") == NULL)
		return 0;
	con_ssh_tried(tried, n, "agent");
	ag = libssh2_agent_init(j->c->sess);
	if (ag == NULL)
		return 0;
	if (libssh2_agent_connect(ag) != 0 ||
	    libssh2_agent_list_identities(ag) != 0)
		goto out_free;
	while (!ok && libssh2_agent_get_identity(ag, &id, prev) == 0) {
		libssh2_session_set_timeout(j->c->sess, con_ssh_left_ms(j));
		ok = libssh2_agent_userauth(ag, j->user, id) == 0;
		prev = id;
	}
	libssh2_agent_disconnect(ag);
out_free:
	libssh2_agent_free(ag);
	return ok;
}

/* Tries one private key file (public key derived from it).  1
 * authenticated, 0 not; a missing default key is skipped silently. */
static int con_ssh_auth_file(con_ssh_job *j, const char *path, int given,
                             char *tried, size_t n)
{
	char shown[1100], note[1300];
	int rc;

	con_ssh_tilde(path, shown, sizeof shown);
	if (access(path, F_OK) != 0) {
		if (given) {
			snprintf(note, sizeof note, "%s: no such file", shown);
			con_ssh_tried(tried, n, note);
		}
		return 0;
	}
	libssh2_session_set_timeout(j->c->sess, con_ssh_left_ms(j));
	rc = libssh2_userauth_publickey_fromfile(j->c->sess, j->user, NULL,
	                                         path, NULL);
	if (rc == 0)
		return 1;
	if (rc == LIBSSH2_ERROR_FILE ||
	    rc == LIBSSH2_ERROR_PUBLICKEY_UNVERIFIED)
		snprintf(note, sizeof note,
		         "%s: unreadable or passphrase-"
		         "protected, load it into the agent",
		         shown);
	else
		snprintf(note, sizeof note, "%s", shown);
	con_ssh_tried(tried, n, note);
	return 0;
}

/* Authenticates with the agent, the given key, then ~/.ssh/id_*.  0, or -1
 * with err filled (naming the user and what was tried). */
static int con_ssh_auth(con_ssh_job *j)
{
	static const char *const defaults[] = {"id_ed25519", "id_ecdsa",
	                                       "id_rsa"};
	char tried[2048] = "", path[1100];
	size_t i;

	libssh2_session_set_timeout(j->c->sess, con_ssh_left_ms(j));
	if (libssh2_userauth_list(j->c->sess, j->user,
	                          (unsigned)strlen(j->user)) == NULL &&
	    libssh2_userauth_authenticated(j->c->sess))
		return 0;
	if (con_ssh_auth_agent(j, tried, sizeof tried))
		return 0;
	if (j->o->key_file[0] != '\0' &&
	    con_ssh_auth_file(j, j->o->key_file, 1, tried, sizeof tried))
		return 0;
	for (i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
		snprintf(path, sizeof path, "%s/.ssh/%s", con_ssh_home(),
		         defaults[i]);
		if (con_ssh_auth_file(j, path, 0, tried, sizeof tried))
			return 0;
	}
	if (tried[0] == '\0')
		snprintf(tried, sizeof tried, "no agent, no key in ~/.ssh");
	return con_ssh_fail(j, "authentication failed for user %s (tried %s)",
	                    j->user, tried);
}

/* ---- channel --------------------------------------------------------- */

/* Opens the channel: exec of the remote command, or direct-tcpip to the
 * remote loopback port.  0, or -1 with err filled. */
static int con_ssh_channel(con_ssh_job *j)
{
	const char *cmd = j->o->remote_cmd[0] != '\0' ? j->o->remote_cmd
	                                              : CON_SSH_DEFAULT_CMD;
	LIBSSH2_SESSION *s = j->c->sess;

	libssh2_session_set_timeout(s, con_ssh_left_ms(j));
	if (j->o->tunnel_port > 0) {
		j->c->chan = libssh2_channel_direct_tcpip_ex(
		    s, "127.0.0.1", j->o->tunnel_port, "127.0.0.1", 0);
		if (j->c->chan == NULL)
			return con_ssh_fail(j,
			                    "tunnel to 127.0.0.1:%d on the "
			                    "remote host: %s",
			                    j->o->tunnel_port,
			                    con_ssh_lasterr(s));
		return 0;
	}
	j->c->chan = libssh2_channel_open_session(s);
	if (j->c->chan == NULL)
		return con_ssh_fail(j,
		                    "exec %s: cannot open a session "
		                    "channel: %s",
		                    cmd, con_ssh_lasterr(s));
	if (libssh2_channel_exec(j->c->chan, cmd) != 0)
		return con_ssh_fail(j, "exec %s: %s", cmd, con_ssh_lasterr(s));
	return 0;
}

/* ---- the wire_io transport ------------------------------------------- */

/* Keeps the last complete line of remote stderr in c->errline. */
static void con_ssh_keep_stderr(con_ssh_conn *c, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i] == '\n') {
			if (c->errpart_len > 0) {
				memcpy(c->errline, c->errpart, c->errpart_len);
				c->errline[c->errpart_len] = '\0';
			}
			c->errpart_len = 0;
		} else if (c->errpart_len + 1 < sizeof c->errpart) {
			c->errpart[c->errpart_len++] = b[i];
		}
	}
}

/* Reads and drops whatever the remote wrote to stderr, so the channel
 * window never fills up with it. */
static void con_ssh_drain_stderr(con_ssh_conn *c)
{
	char buf[4096];
	ssize_t r;

	while ((r = libssh2_channel_read_stderr(c->chan, buf, sizeof buf)) > 0)
		con_ssh_keep_stderr(c, buf, (size_t)r);
}

/* wire_io read: bytes, 0 at channel EOF, -1 with errno (EAGAIN). */
static ssize_t con_ssh_read(void *ctx, void *buf, size_t n)
{
	con_ssh_conn *c = ctx;
	ssize_t r;

	con_ssh_drain_stderr(c);
	r = libssh2_channel_read(c->chan, buf, n);
	if (r == 0 && c->errpart_len > 0) /* unterminated last line */
		con_ssh_keep_stderr(c, "\n", 1);
	if (r >= 0)
		return r;
	errno = r == LIBSSH2_ERROR_EAGAIN ? EAGAIN : EIO;
	return -1;
}

/* wire_io write: bytes, or -1 with errno (EAGAIN when the window or the
 * socket is full). */
static ssize_t con_ssh_write(void *ctx, const void *buf, size_t n)
{
	con_ssh_conn *c = ctx;
	ssize_t r;

	r = libssh2_channel_write(c->chan, buf, n);
	if (r >= 0)
		return r;
	if (r == LIBSSH2_ERROR_EAGAIN)
		errno = EAGAIN;
	else if (r == LIBSSH2_ERROR_CHANNEL_CLOSED ||
	         r == LIBSSH2_ERROR_CHANNEL_EOF_SENT ||
	         r == LIBSSH2_ERROR_SOCKET_SEND)
		errno = EPIPE;
	else
		errno = EIO;
	return -1;
}

/* wire_io pollfd: the socket, POLLIN always, POLLOUT when libssh2 waits
 * to send or when data (or EOF) already sits in libssh2's queue (see the
 * file comment). */
static int con_ssh_pollfd(void *ctx, short *events)
{
	con_ssh_conn *c = ctx;
	int dir = libssh2_session_block_directions(c->sess);

	*events = POLLIN;
	if (dir & LIBSSH2_SESSION_BLOCK_OUTBOUND)
		*events |= POLLOUT;
	if (libssh2_poll_channel_read(c->chan, 0) > 0 ||
	    libssh2_poll_channel_read(c->chan, 1) > 0 ||
	    libssh2_channel_eof(c->chan) == 1)
		*events |= POLLOUT;
	return c->sock;
}

/* Frees whatever part of a connection exists.  Blocking with a short
 * timeout, so a dead peer cannot hold the caller up for long. */
static void con_ssh_conn_free(con_ssh_conn *c)
{
	if (c == NULL)
		return;
	if (c->sess != NULL) {
		libssh2_session_set_blocking(c->sess, 1);
		libssh2_session_set_timeout(c->sess, CON_SSH_CLOSE_TIMEOUT_MS);
	}
	if (c->chan != NULL) {
		libssh2_channel_close(c->chan);
		libssh2_channel_free(c->chan);
	}
	if (c->sess != NULL) {
		libssh2_session_disconnect(c->sess, "paravt console closing");
		libssh2_session_free(c->sess);
	}
	if (c->sock >= 0)
		close(c->sock);
	free(c);
}

/* wire_io close: ends channel, session and socket; frees ctx. */
static void con_ssh_close(void *ctx)
{
	con_ssh_conn_free(ctx);
}

/* ---- open ------------------------------------------------------------ */

/* Fills the job: deadline, error prefix, user name. */
static void con_ssh_job_init(con_ssh_job *j, const con_ssh_opts *o, char *err,
                             size_t errlen)
{
	const char *u = getenv("USER");
	struct passwd *pw;
	int ms = o->timeout_ms > 0 ? o->timeout_ms : CON_SSH_DEFAULT_TIMEOUT_MS;

	memset(j, 0, sizeof *j);
	j->o = o;
	j->err = err;
	j->errlen = errlen;
	j->deadline_ms = con_ssh_now_ms() + (uint64_t)ms;
	if (strchr(o->host, ':') != NULL)
		snprintf(j->where, sizeof j->where, "ssh [%s]:%d", o->host,
		         o->port);
	else
		snprintf(j->where, sizeof j->where, "ssh %s:%d", o->host,
		         o->port);
	if (o->user[0] != '\0')
		u = o->user;
	else if (u == NULL || *u == '\0')
		u = (pw = getpwuid(getuid())) != NULL ? pw->pw_name : "root";
	snprintf(j->user, sizeof j->user, "%s", u);
}

int con_ssh_open(const con_ssh_opts *o, wire_io *io, char *err, size_t errlen)
{
	con_ssh_job j;

	con_ssh_job_init(&j, o, err, errlen);
	if (o->host[0] == '\0' || o->port < 1 || o->port > 65535)
		return con_ssh_fail(&j, "no host or bad port");
	pthread_once(&con_ssh_once, con_ssh_init_once);
	if (con_ssh_init_rc != 0)
		return con_ssh_fail(&j, "libssh2 failed to initialise");
	j.c = calloc(1, sizeof *j.c);
	if (j.c == NULL)
		return con_ssh_fail(&j, "out of memory");
	j.c->sock = -1;
	if (con_ssh_connect(&j) != 0)
		goto out_free;
	j.c->sess = libssh2_session_init();
	if (j.c->sess == NULL) {
		con_ssh_fail(&j, "cannot create an SSH session");
		goto out_free;
	}
	libssh2_session_set_blocking(j.c->sess, 1);
	if (con_ssh_handshake(&j) != 0 || con_ssh_auth(&j) != 0 ||
	    con_ssh_channel(&j) != 0)
		goto out_free;
	libssh2_session_set_timeout(j.c->sess, 0);
	libssh2_session_set_blocking(j.c->sess, 0);
	io->ctx = j.c;
	io->read = con_ssh_read;
	io->write = con_ssh_write;
	io->pollfd = con_ssh_pollfd;
	io->close = con_ssh_close;
	return 0;
out_free:
	con_ssh_conn_free(j.c);
	return -1;
}
