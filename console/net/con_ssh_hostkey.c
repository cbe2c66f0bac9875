/*
 * con_ssh_hostkey.c — the host key step of an SSH connection (con_ssh.h,
 * internals in con_ssh_int.h): known_hosts is read line by line (a line
 * libssh2 cannot parse is skipped, not fatal) before the handshake, so
 * the key types it holds for the host are preferred; after the handshake
 * the server's key is checked with libssh2_knownhost_checkp (plain,
 * hashed and "[host]:port" entries).  Unknown keys are refused with their
 * SHA256 fingerprint unless accepted (then appended), changed keys are
 * refused loudly unless accept_changed (the file is then left alone).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libssh2.h>

#include "con_ssh_int.h"

/* ---- small helpers --------------------------------------------------- */

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
int con_ssh_handshake(con_ssh_job *j)
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
