/*
 * con_ssh_url.c — parsing the ssh://[user@]host[:port][/path/to/paravtd]
 * form of a node address into con_ssh_opts (con_ssh.h).  Passwords in
 * the URL are refused, and the daemon path is handed to the remote shell
 * unquoted, so it may only hold a safe set of characters.
 */
#include <stdio.h>
#include <string.h>

#include "con_ssh.h"

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
