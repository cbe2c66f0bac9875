/*
 * con_ssh.c — reaching a node's daemon through SSH with libssh2
 * (con_ssh.h).
 *
 * Layout, in the order a connection goes through them:
 *   URL parsing       con_ssh_parse_url
 *   TCP connect       non-blocking connect() per getaddrinfo address,
 *                     bounded by the overall deadline
 *   host key          known_hosts read line by line (a line libssh2 cannot
 *                     parse is skipped, not fatal), checked with
 *                     libssh2_knownhost_checkp (plain, hashed and
 *                     "[host]:port" entries); unknown keys are refused with
 *                     their SHA256 fingerprint unless accepted (then
 *                     appended), changed keys are refused loudly unless
 *                     accept_changed (the file is then left alone)
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libssh2.h>

#include "con_ssh.h"

#define CON_SSH_DEFAULT_TIMEOUT_MS 10000
#define CON_SSH_DEFAULT_CMD "paravtd --stdio"
#define CON_SSH_CLOSE_TIMEOUT_MS 1000

/* State of one open connection, the ctx of its wire_io. */
typedef struct con_ssh_conn {
	int sock;              /* TCP socket to the SSH server */
	LIBSSH2_SESSION *sess; /* SSH session (non-blocking once open) */
	LIBSSH2_CHANNEL *chan; /* exec or direct-tcpip channel */
	char errline[256];     /* last complete line of remote stderr */
	char errpart[256];     /* stderr line being assembled */
	size_t errpart_len;    /* bytes used in errpart */
} con_ssh_conn;

/* Everything con_ssh_open needs while it works through the steps. */
typedef struct con_ssh_job {
	const con_ssh_opts *o; /* caller's options */
	con_ssh_conn *c;       /* connection being built */
	uint64_t deadline_ms;  /* monotonic time the whole open must end */
	char where[300];       /* "ssh HOST:PORT" prefix for errors */
	char user[64];         /* user name actually used */
	char *err;             /* caller's error buffer */
	size_t errlen;         /* its size */
} con_ssh_job;

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
static long con_ssh_left_ms(const con_ssh_job *j)
{
	uint64_t now = con_ssh_now_ms();

	return now >= j->deadline_ms ? 1 : (long)(j->deadline_ms - now);
}

/* Formats "WHERE: " + message into the caller's buffer; returns -1. */
static int con_ssh_fail(con_ssh_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int con_ssh_fail(con_ssh_job *j, const char *fmt, ...)
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
static const char *con_ssh_lasterr(LIBSSH2_SESSION *s)
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
static const char *con_ssh_home(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;

	if (h != NULL && *h != '\0')
		return h;
	pw = getpwuid(getuid());
	return pw != NULL ? pw->pw_dir : "/";
}

/* Base64 without padding, as OpenSSH prints fingerprints. */
static void con_ssh_b64(const unsigned char *in, size_t n, char *out,
                        size_t outlen)
{
	static const char tab[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;
	unsigned long v;
	int k, chars;

	for (i = 0; i < n && o + 5 < outlen; i += 3) {
		v = (unsigned long)in[i] << 16;
		if (i + 1 < n)
			v |= (unsigned long)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		chars = n - i >= 3 ? 4 : (int)(n - i) + 1;
		for (k = 0; k < chars; k++)
			out[o++] = tab[(v >> (18 - 6 * k)) & 63];
	}
	out[o] = '\0';
}

/* ---- URL ------------------------------------------------------------- */

/* True if every byte of s[0..n) may appear in a remote path that is
 * handed to the remote shell unquoted. */
static int con_ssh_path_ok(const char *s, size_t n)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                           "abcdefghijklmnopqrstuvwxyz0123456789/._+-~";
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '\0' || strchr(safe, s[i]) == NULL)
			return 0;
	return 1;
}

/* Splits "[user@]" off the authority; 0 or -1 with err filled. */
static int con_ssh_parse_user(const char *url, const char **p, const char *end,
                              con_ssh_opts *o, char *err, size_t errlen)
{
	const char *at = memchr(*p, '@', (size_t)(end - *p));
	size_t n;

	if (at == NULL)
		return 0;
	n = (size_t)(at - *p);
	if (memchr(*p, ':', n) != NULL) {
		snprintf(err, errlen,
		         "%s: passwords in ssh:// URLs are not "
		         "supported; use the SSH agent or a key file",
		         url);
		return -1;
	}
	if (n == 0 || n >= sizeof o->user) {
		snprintf(err, errlen,
		         "%s: the user name before '@' must be "
		         "1 to %zu characters",
		         url, sizeof o->user - 1);
		return -1;
	}
	memcpy(o->user, *p, n);
	*p = at + 1;
	return 0;
}

/* Parses "host", "[v6addr]" and an optional ":port" up to end. */
static int con_ssh_parse_host(const char *url, const char *p, const char *end,
                              con_ssh_opts *o, char *err, size_t errlen)
{
	const char *hend, *colon, *q;
	long port;

	if (*p == '[') {
		hend = memchr(p, ']', (size_t)(end - p));
		if (hend == NULL)
			goto bad;
		colon = hend + 1 < end ? hend + 1 : NULL;
		if (colon != NULL && *colon != ':')
			goto bad;
		p++;
	} else {
		colon = memchr(p, ':', (size_t)(end - p));
		hend = colon != NULL ? colon : end;
	}
	if (hend == p || (size_t)(hend - p) >= sizeof o->host)
		goto bad;
	memcpy(o->host, p, (size_t)(hend - p));
	o->port = 22;
	if (colon == NULL)
		return 0;
	port = 0;
	for (q = colon + 1; q < end && *q >= '0' && *q <= '9' && port <= 65535;
	     q++)
		port = port * 10 + (*q - '0');
	if (colon + 1 == end || q != end || port < 1 || port > 65535) {
		snprintf(err, errlen,
		         "%s: the port after ':' must be a "
		         "number from 1 to 65535",
		         url);
		return -1;
	}
	o->port = (int)port;
	return 0;
bad:
	snprintf(err, errlen,
	         "%s: expected ssh://[user@]host[:port][/path/"
	         "to/paravtd] with a host name or address",
	         url);
	return -1;
}

int con_ssh_parse_url(const char *url, con_ssh_opts *o, char *err,
                      size_t errlen)
{
	const char *p, *slash, *end;
	size_t plen;

	memset(o, 0, sizeof *o);
	if (url == NULL || strncmp(url, "ssh://", 6) != 0) {
		snprintf(err, errlen,
		         "%s: not an ssh:// URL (expected "
		         "ssh://[user@]host[:port][/path/to/paravtd])",
		         url != NULL ? url : "(null)");
		return -1;
	}
	p = url + 6;
	slash = strchr(p, '/');
	end = slash != NULL ? slash : p + strlen(p);
	if (con_ssh_parse_user(url, &p, end, o, err, errlen) != 0 ||
	    con_ssh_parse_host(url, p, end, o, err, errlen) != 0)
		goto fail;
	if (slash == NULL || slash[1] == '\0')
		return 0;
	plen = strlen(slash);
	if (!con_ssh_path_ok(slash, plen)) {
		snprintf(err, errlen,
		         "%s: the daemon path may only hold "
		         "letters, digits and / . _ + - ~",
		         url);
		goto fail;
	}
	if (plen + sizeof " --stdio" > sizeof o->remote_cmd) {
		snprintf(err, errlen, "%s: the daemon path is too long", url);
		goto fail;
	}
	snprintf(o->remote_cmd, sizeof o->remote_cmd, "%s --stdio", slash);
	return 0;
fail:
	memset(o, 0, sizeof *o);
	return -1;
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

/* ---- host key -------------------------------------------------------- */

/* Host key types: libssh2's session type, its known_hosts type bit, its
 * algorithm name in known_hosts and in method preferences. */
static const struct con_ssh_ktype {
	int hostkey;      /* LIBSSH2_HOSTKEY_TYPE_* */
	int known;        /* LIBSSH2_KNOWNHOST_KEY_* */
	const char *name; /* name in known_hosts and method lists */
} con_ssh_ktypes[] = {
    {LIBSSH2_HOSTKEY_TYPE_ED25519, LIBSSH2_KNOWNHOST_KEY_ED25519,
     "ssh-ed25519"},
    {LIBSSH2_HOSTKEY_TYPE_ECDSA_256, LIBSSH2_KNOWNHOST_KEY_ECDSA_256,
     "ecdsa-sha2-nistp256"},
    {LIBSSH2_HOSTKEY_TYPE_ECDSA_384, LIBSSH2_KNOWNHOST_KEY_ECDSA_384,
     "ecdsa-sha2-nistp384"},
    {LIBSSH2_HOSTKEY_TYPE_ECDSA_521, LIBSSH2_KNOWNHOST_KEY_ECDSA_521,
     "ecdsa-sha2-nistp521"},
    {LIBSSH2_HOSTKEY_TYPE_RSA, LIBSSH2_KNOWNHOST_KEY_SSHRSA, "ssh-rsa"},
    {LIBSSH2_HOSTKEY_TYPE_DSS, LIBSSH2_KNOWNHOST_KEY_SSHDSS, "ssh-dss"},
};
#define CON_SSH_NKTYPES (sizeof con_ssh_ktypes / sizeof con_ssh_ktypes[0])

/* The known_hosts file to use; "" in the options means ~/.ssh. */
static void con_ssh_kh_path(const con_ssh_opts *o, char *buf, size_t n)
{
	if (o->known_hosts[0] != '\0')
		snprintf(buf, n, "%s", o->known_hosts);
	else
		snprintf(buf, n, "%s/.ssh/known_hosts", con_ssh_home());
}

/* Name of the host in known_hosts: "host" on port 22, else
 * "[host]:port". */
static void con_ssh_kh_name(const con_ssh_opts *o, char *buf, size_t n)
{
	if (o->port == 22)
		snprintf(buf, n, "%s", o->host);
	else
		snprintf(buf, n, "[%s]:%d", o->host, o->port);
}

/* Loads known_hosts line by line; lines libssh2 cannot parse (markers,
 * key types it does not know) are skipped.  A missing file is empty.
 * 0, or -1 with err filled. */
static int con_ssh_kh_load(con_ssh_job *j, LIBSSH2_KNOWNHOSTS *kh,
                           const char *path)
{
	char line[16384];
	FILE *f = fopen(path, "r");

	if (f == NULL && errno == ENOENT)
		return 0;
	if (f == NULL)
		return con_ssh_fail(j, "cannot read known hosts file %s: %s",
		                    path, strerror(errno));
	while (fgets(line, sizeof line, f) != NULL)
		(void)libssh2_knownhost_readline(
		    kh, line, strlen(line), LIBSSH2_KNOWNHOST_FILE_OPENSSH);
	fclose(f);
	return 0;
}

/* True if known_hosts holds a key of type ktype (LIBSSH2_KNOWNHOST_KEY_*)
 * for this host.  Probing with a dummy key: MISMATCH means "an entry of
 * this type exists" (this also sees hashed entries). */
static int con_ssh_kh_has(con_ssh_job *j, LIBSSH2_KNOWNHOSTS *kh, int ktype)
{
	return libssh2_knownhost_checkp(
	           kh, j->o->host, j->o->port, "x", 1,
	           LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW |
	               ktype,
	           NULL) == LIBSSH2_KNOWNHOST_CHECK_MISMATCH;
}

/* The known_hosts type of a host key algorithm name, 0 if none (the
 * rsa-sha2 signatures use ssh-rsa keys; certificates are never listed). */
static int con_ssh_alg_ktype(const char *alg)
{
	size_t i;

	if (strncmp(alg, "rsa-sha2-", 9) == 0)
		return LIBSSH2_KNOWNHOST_KEY_SSHRSA;
	for (i = 0; i < CON_SSH_NKTYPES; i++)
		if (strcmp(alg, con_ssh_ktypes[i].name) == 0)
			return con_ssh_ktypes[i].known;
	return 0;
}

/* Puts the host key algorithms whose key type known_hosts holds for this
 * host first in the session's preferences, so that the server offers the
 * key we can check.  Only names libssh2 reports as supported are used
 * (1.10's method_pref misbehaves when it has to drop unknown names). */
static void con_ssh_kh_prefer(con_ssh_job *j, LIBSSH2_KNOWNHOSTS *kh)
{
	char known[1024] = "", rest[1024] = "", pref[2100];
	const char **algs = NULL;
	char *dst;
	int i, n, t;

	n = libssh2_session_supported_algs(j->c->sess, LIBSSH2_METHOD_HOSTKEY,
	                                   &algs);
	for (i = 0; i < n; i++) {
		t = con_ssh_alg_ktype(algs[i]);
		dst = t != 0 && con_ssh_kh_has(j, kh, t) ? known : rest;
		snprintf(dst + strlen(dst), sizeof known - strlen(dst), "%s%s",
		         *dst != '\0' ? "," : "", algs[i]);
	}
	if (n > 0)
		libssh2_free(j->c->sess, algs);
	if (known[0] == '\0')
		return; /* keep libssh2's own order */
	snprintf(pref, sizeof pref, "%s%s%s", known, rest[0] ? "," : "", rest);
	(void)libssh2_session_method_pref(j->c->sess, LIBSSH2_METHOD_HOSTKEY,
	                                  pref);
}

/* Appends the server's key to known_hosts, creating ~/.ssh (0700) and the
 * file (0600) if needed.  0, or -1 with err filled. */
static int con_ssh_kh_append(con_ssh_job *j, LIBSSH2_KNOWNHOSTS *kh,
                             const char *path, const char *key, size_t klen,
                             int ktype)
{
	struct libssh2_knownhost *ent = NULL;
	char name[300], dir[1100], line[16384];
	size_t len = 0;
	FILE *f;
	int fd;
	off_t end;
	char last;

	con_ssh_kh_name(j->o, name, sizeof name);
	if (libssh2_knownhost_addc(kh, name, NULL, key, klen, NULL, 0,
	                           LIBSSH2_KNOWNHOST_TYPE_PLAIN |
	                               LIBSSH2_KNOWNHOST_KEYENC_RAW | ktype,
	                           &ent) != 0 ||
	    libssh2_knownhost_writeline(kh, ent, line, sizeof line - 1, &len,
	                                LIBSSH2_KNOWNHOST_FILE_OPENSSH) != 0)
		return con_ssh_fail(j, "cannot format the host key for %s",
		                    path);
	if (j->o->known_hosts[0] == '\0') {
		snprintf(dir, sizeof dir, "%s/.ssh", con_ssh_home());
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return con_ssh_fail(j, "cannot create %s: %s", dir,
			                    strerror(errno));
	}
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	/* a last line without its newline gets one before ours */
	if (fd >= 0 && (end = lseek(fd, 0, SEEK_END)) > 0 &&
	    pread(fd, &last, 1, end - 1) == 1 && last != '\n') {
		memmove(line + 1, line, len + 1);
		line[0] = '\n';
		len++;
	}
	f = fd >= 0 ? fdopen(fd, "a") : NULL;
	if (f == NULL) {
		if (fd >= 0)
			close(fd);
		return con_ssh_fail(j, "cannot add the host key to %s: %s",
		                    path, strerror(errno));
	}
	if (fwrite(line, 1, len, f) != len || fclose(f) != 0)
		return con_ssh_fail(j, "cannot write %s: %s", path,
		                    strerror(errno));
	return 0;
}

/* The server's key: raw bytes, known_hosts type bit, algorithm name and
 * SHA256 fingerprint.  0, or -1 with err filled. */
static int con_ssh_server_key(con_ssh_job *j, const char **key, size_t *klen,
                              int *ktype, const char **kname, char *fp,
                              size_t fplen)
{
	const unsigned char *h;
	int t = 0;
	size_t i;

	*key = libssh2_session_hostkey(j->c->sess, klen, &t);
	*ktype = LIBSSH2_KNOWNHOST_KEY_UNKNOWN;
	*kname = "unknown";
	for (i = 0; i < CON_SSH_NKTYPES; i++)
		if (con_ssh_ktypes[i].hostkey == t) {
			*ktype = con_ssh_ktypes[i].known;
			*kname = con_ssh_ktypes[i].name;
		}
	h = (const unsigned char *)libssh2_hostkey_hash(
	    j->c->sess, LIBSSH2_HOSTKEY_HASH_SHA256);
	if (*key == NULL || h == NULL ||
	    *ktype == LIBSSH2_KNOWNHOST_KEY_UNKNOWN)
		return con_ssh_fail(j, "host key: the server's key could not "
		                       "be read or has an unsupported type");
	memcpy(fp, "SHA256:", 8);
	con_ssh_b64(h, 32, fp + 7, fplen - 7);
	return 0;
}

/* Decides on the server's host key after the handshake.  0 if trusted,
 * or -1 with err filled. */
static int con_ssh_check_key(con_ssh_job *j, LIBSSH2_KNOWNHOSTS *kh,
                             const char *path)
{
	const char *key, *kname;
	size_t klen;
	int ktype, r;
	char fp[64], name[300];

	if (con_ssh_server_key(j, &key, &klen, &ktype, &kname, fp, sizeof fp) !=
	    0)
		return -1;
	con_ssh_kh_name(j->o, name, sizeof name);
	r = libssh2_knownhost_checkp(kh, j->o->host, j->o->port, key, klen,
	                             LIBSSH2_KNOWNHOST_TYPE_PLAIN |
	                                 LIBSSH2_KNOWNHOST_KEYENC_RAW | ktype,
	                             NULL);
	if (r == LIBSSH2_KNOWNHOST_CHECK_MATCH)
		return 0;
	if (r == LIBSSH2_KNOWNHOST_CHECK_MISMATCH && j->o->accept_changed)
		return 0;
	if (r == LIBSSH2_KNOWNHOST_CHECK_MISMATCH)
		return con_ssh_fail(
		    j,
		    "HOST KEY FOR %s HAS CHANGED: the "
		    "server now offers %s key %s, which differs from the "
		    "one recorded in %s. Someone may be intercepting the "
		    "connection, or the host was reinstalled. Check the "
		    "key, then remove the old line (ssh-keygen -R '%s' -f "
		    "%s) or use --accept-changed-host-key to connect anyway",
		    name, kname, fp, path, name, path);
	if (r != LIBSSH2_KNOWNHOST_CHECK_NOTFOUND)
		return con_ssh_fail(j, "host key check failed: %s",
		                    con_ssh_lasterr(j->c->sess));
	if (!j->o->accept_unknown)
		return con_ssh_fail(
		    j,
		    "host key not known: %s offers %s key "
		    "%s, which is not in %s. If that fingerprint is right, "
		    "add --accept-new-host-key to trust and record it",
		    name, kname, fp, path);
	return con_ssh_kh_append(j, kh, path, key, klen, ktype);
}

/* Runs the SSH handshake, with known_hosts loaded beforehand so the
 * matching key type is negotiated, then checks the key.  0 or -1. */
static int con_ssh_handshake(con_ssh_job *j)
{
	LIBSSH2_KNOWNHOSTS *kh;
	char path[1100];
	int rc = -1;

	kh = libssh2_knownhost_init(j->c->sess);
	if (kh == NULL)
		return con_ssh_fail(j, "host key: out of memory");
	con_ssh_kh_path(j->o, path, sizeof path);
	if (con_ssh_kh_load(j, kh, path) != 0)
		goto out_free;
	con_ssh_kh_prefer(j, kh);
	libssh2_session_set_timeout(j->c->sess, con_ssh_left_ms(j));
	if (libssh2_session_handshake(j->c->sess, j->c->sock) != 0) {
		con_ssh_fail(j, "handshake: %s", con_ssh_lasterr(j->c->sess));
		goto out_free;
	}
	rc = con_ssh_check_key(j, kh, path);
out_free:
	libssh2_knownhost_free(kh);
	return rc;
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
