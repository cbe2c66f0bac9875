/*
 * wire_token.c — load (and on first use create) the secret token file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire_token.h"

#define WIRE_TOKEN_BYTES 32

int wire_token_default_path(char *buf, size_t n)
{
	const char *home = getenv("HOME");
	int w;

	if (home == NULL || home[0] == '\0')
		return WIRE_EARG;
	w = snprintf(buf, n, "%s/.paravt/token", home);
	return w < 0 || (size_t)w >= n ? WIRE_EARG : 0;
}

static int wire_token_err(char *err, size_t errlen, const char *path,
			  const char *what)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "token file %s: %s", path, what);
	return WIRE_EAUTH;
}

/* Makes the parent directory of path (mode 0700) if it is missing. */
static void wire_token_mkdir(const char *path)
{
	char dir[1024];
	char *slash;

	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return;
	*slash = '\0';
	(void)mkdir(dir, 0700);
}

/* Fills hex with 2 * WIRE_TOKEN_BYTES hex digits of fresh random bytes and
 * a newline. */
static int wire_token_random(char hex[2 * WIRE_TOKEN_BYTES + 2],
			     const char *path, char *err, size_t errlen)
{
	unsigned char raw[WIRE_TOKEN_BYTES];
	ssize_t r;
	int rfd, i;

	rfd = open("/dev/urandom", O_RDONLY);
	if (rfd < 0)
		return wire_token_err(err, errlen, path,
				      "cannot open /dev/urandom");
	r = read(rfd, raw, sizeof raw);
	close(rfd);
	if (r != (ssize_t)sizeof raw)
		return wire_token_err(err, errlen, path,
				      "short read from /dev/urandom");
	for (i = 0; i < WIRE_TOKEN_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	hex[2 * WIRE_TOKEN_BYTES] = '\n';
	return 0;
}

/* Creates the token file with fresh random bytes, unless another process
 * does so first (then its token stands).  The file is written whole
 * under a name of this process's own and linked into place, so no reader
 * ever sees it empty or half written, and daemons started at once with
 * one home directory agree on one token. */
static int wire_token_create(const char *path, char *err, size_t errlen)
{
	char hex[2 * WIRE_TOKEN_BYTES + 2], tmp[1100];
	ssize_t r;
	int fd, rc = 0;

	if (wire_token_random(hex, path, err, errlen) != 0)
		return WIRE_EAUTH;
	wire_token_mkdir(path);
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.new-%ld", path,
			     (long)getpid()) >= sizeof tmp)
		return wire_token_err(err, errlen, path, "path too long");
	(void)unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return wire_token_err(err, errlen, tmp, strerror(errno));
	r = write(fd, hex, 2 * WIRE_TOKEN_BYTES + 1);
	if (r != 2 * WIRE_TOKEN_BYTES + 1 || fsync(fd) != 0)
		rc = wire_token_err(err, errlen, tmp, "short write");
	close(fd);
	if (rc == 0 && link(tmp, path) != 0 && errno != EEXIST)
		rc = wire_token_err(err, errlen, path, strerror(errno));
	(void)unlink(tmp);
	return rc;
}

int wire_token_load(const char *path, int create, char tok[WIRE_TOKEN_MAX],
		    char *err, size_t errlen)
{
	struct stat st;
	char buf[WIRE_TOKEN_MAX + 2];
	ssize_t r;
	size_t n;
	int fd;

	if (create && access(path, F_OK) != 0 && errno == ENOENT &&
	    wire_token_create(path, err, errlen) != 0)
		return WIRE_EAUTH;
	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return wire_token_err(err, errlen, path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return wire_token_err(err, errlen, path,
				      "not a regular file");
	}
	if ((st.st_mode & 077) != 0) {
		char what[128];

		close(fd);
		snprintf(what, sizeof what, "mode %04o is too open; "
			 "it must be 0600 (chmod 600 %s)",
			 (unsigned)(st.st_mode & 07777), "the file");
		return wire_token_err(err, errlen, path, what);
	}
	r = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (r < 0)
		return wire_token_err(err, errlen, path, strerror(errno));
	buf[r] = '\0';
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	if (n == 0 || n >= WIRE_TOKEN_MAX)
		return wire_token_err(err, errlen, path,
				      n == 0 ? "empty" : "token too long");
	memcpy(tok, buf, n + 1);
	return 0;
}
