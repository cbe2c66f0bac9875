/*
 * dmn_port.c — port settings and the runtime location (dmn_port.h).
 *
 * Layout: word splitting, finding our own binary, then dmn_port_init.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmn_port.h"
#include "pvt_portconf.h"

int dmn_pathf(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, cap, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int dmn_words_split(dmn_words *w, const char *text)
{
	char *p;

	memset(w, 0, sizeof *w);
	w->buf = malloc(strlen(text) + 1);
	if (w->buf == NULL)
		return -1;
	strcpy(w->buf, text);
	for (p = w->buf; *p != '\0';) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (*p == '\0')
			break;
		if (w->n == DMN_WORDS_MAX)
			return -1;
		w->w[w->n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
	}
	w->w[w->n] = NULL;
	return 0;
}

void dmn_words_free(dmn_words *w)
{
	free(w->buf);
	memset(w, 0, sizeof *w);
}

/* Finds name in PATH like execvp would; the first executable match is
 * written to out.  0 or -1. */
static int dmn_port_which(const char *name, char *out, size_t cap)
{
	const char *path = getenv("PATH"), *p, *end;
	size_t n;

	if (path == NULL)
		return -1;
	for (p = path; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		n = (size_t)(end - p);
		if (n == 0 || n + strlen(name) + 2 > cap)
			continue;
		memcpy(out, p, n);
		snprintf(out + n, cap - n, "/%s", name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* The runtime directory next to our binary: dirname(realpath)/.. into
 * out.  0, or -1 with a sentence in err. */
static int dmn_port_selfdir(const char *argv0, char *out, size_t cap, char *err,
                            size_t errlen)
{
	char found[DMN_PATH_MAX], *real, *slash;

	if (argv0 == NULL || argv0[0] == '\0')
		goto out_unknown;
	if (strchr(argv0, '/') == NULL) {
		if (dmn_port_which(argv0, found, sizeof found) != 0)
			goto out_unknown;
		argv0 = found;
	}
	real = realpath(argv0, NULL);
	if (real == NULL)
		goto out_unknown;
	slash = strrchr(real, '/');
	if (slash != NULL)
		*slash = '\0';
	snprintf(out, cap, "%s/..", real[0] ? real : "");
	free(real);
	return 0;
out_unknown:
	snprintf(err, errlen,
	         "cannot find the paravtd binary from '%s': "
	         "use --runtime-dir",
	         argv0 ? argv0 : "");
	return -1;
}

/* Sets rt_dir and the two paths under it. */
static int dmn_port_rt(dmn_port *p, const char *argv0, const char *runtime_dir,
                       char *err, size_t errlen)
{
	char dir[DMN_PATH_MAX], *real;

	if (runtime_dir != NULL)
		snprintf(dir, sizeof dir, "%s", runtime_dir);
	else if (dmn_port_selfdir(argv0, dir, sizeof dir, err, errlen) != 0)
		return -1;
	real = realpath(dir, NULL);
	if (real == NULL) {
		snprintf(err, errlen, "runtime directory %s: %s", dir,
		         strerror(errno));
		return -1;
	}
	if (dmn_pathf(p->rt_dir, sizeof p->rt_dir, "%s", real) != 0 ||
	    dmn_pathf(p->rt_lib, sizeof p->rt_lib, "%s/lib/libparavt.a",
	              real) != 0 ||
	    dmn_pathf(p->rt_include, sizeof p->rt_include, "%s/include",
	              real) != 0 ||
	    dmn_pathf(p->rt_pvm, sizeof p->rt_pvm, "%s/lib/libparavt_pvm.a",
	              real) != 0 ||
	    dmn_pathf(p->rt_mpi, sizeof p->rt_mpi, "%s/lib/libparavt_mpi.a",
	              real) != 0) {
		snprintf(err, errlen, "runtime directory path too long");
		free(real);
		return -1;
	}
	free(real);
	return 0;
}

int dmn_port_init(dmn_port *p, const char *argv0, const char *runtime_dir,
                  char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->name = PVT_PORT_NAME_CONF;
	p->pvm_arch = PVT_PORT_PVM_ARCH;
	p->sysroot = PVT_PORT_SYSROOT;
	p->native = strcmp(PVT_PORT_NATIVE, "yes") == 0;
	if (dmn_words_split(&p->cc, PVT_PORT_CC) != 0 ||
	    dmn_words_split(&p->cflags, PVT_PORT_CFLAGS) != 0 ||
	    dmn_words_split(&p->ldflags, PVT_PORT_LDFLAGS) != 0 ||
	    dmn_words_split(&p->libs, PVT_PORT_MSGPACK_LIBS) != 0 ||
	    dmn_words_split(&p->prefix, PVT_PORT_RUN_PREFIX) != 0 ||
	    dmn_words_split(&p->pvm_cflags, PVT_PORT_PVM_CFLAGS) != 0 ||
	    dmn_words_split(&p->pvm_libs, PVT_PORT_PVM_LIBS) != 0) {
		snprintf(err, errlen,
		         "port settings: out of memory or too "
		         "many words");
		goto out_free;
	}
	if (p->cc.n == 0) {
		snprintf(err, errlen, "port %s has no CC", p->name);
		goto out_free;
	}
	if (dmn_port_rt(p, argv0, runtime_dir, err, errlen) != 0)
		goto out_free;
	return 0;
out_free:
	dmn_port_destroy(p);
	return -1;
}

void dmn_port_destroy(dmn_port *p)
{
	dmn_words_free(&p->cc);
	dmn_words_free(&p->cflags);
	dmn_words_free(&p->ldflags);
	dmn_words_free(&p->libs);
	dmn_words_free(&p->prefix);
	dmn_words_free(&p->pvm_cflags);
	dmn_words_free(&p->pvm_libs);
}
