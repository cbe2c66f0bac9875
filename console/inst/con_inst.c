/*
 * con_inst.c — con_inst_run: the instrumenter's driver (console only).
 *
 * For each source: parse it with libclang (the user's cflags), stop at the
 * first error diagnostic, collect the breakpoint requests that concern it
 * (file:line for this file, every function breakpoint, each
 * `#pragma paravt break` line), walk its functions (con_inst_scope.c),
 * build the rewritten text (con_inst_rewrite.c) and note the user headers
 * it includes.  Then: function breakpoints that matched nothing are an
 * error, the root directory is the deepest one holding every source and
 * header, and files are named relative to it.
 *
 * Small helpers shared by the modules (formatting into wire_buf, C string
 * escaping, locations, errors) live here too.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "con_inst_int.h"

/* Appends formatted text to b; 0 or -1. */
int ci_vprintf(wire_buf *b, const char *fmt, va_list ap)
{
	char tmp[512];
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return -1;
	}
	if (wire_buf_reserve(b, (size_t)n + 1) < 0) {
		va_end(ap2);
		return -1;
	}
	if ((size_t)n < sizeof tmp)
		memcpy(wire_buf_tail(b), tmp, (size_t)n + 1);
	else
		vsnprintf(wire_buf_tail(b), (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	wire_buf_commit(b, (size_t)n);
	return 0;
}

/* Appends formatted text to b, keeping it NUL-terminated; 0 or -1. */
int ci_printf(wire_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = ci_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

/* Heap copy of a CXString (disposed).  Caller frees; NULL on no memory. */
char *ci_cxdup(CXString s)
{
	const char *c = clang_getCString(s);
	char *d = strdup(c ? c : "");

	clang_disposeString(s);
	return d;
}

/* Heap copy of b as a string.  Caller frees; NULL on no memory. */
char *ci_buf_str(wire_buf *b)
{
	char *s = malloc(wire_buf_used(b) + 1);

	if (!s)
		return NULL;
	memcpy(s, wire_buf_head(b), wire_buf_used(b));
	s[wire_buf_used(b)] = 0;
	return s;
}

/* Appends s escaped as the inside of a C string literal. */
int ci_cstr(wire_buf *b, const char *s)
{
	int rc = 0;

	for (; *s && !rc; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			rc = ci_printf(b, "\\%c", c);
		else if (c < 32 || c == 127)
			rc = ci_printf(b, "\\%03o", c);
		else
			rc = ci_printf(b, "%c", c);
	}
	return rc;
}

/* Sets the unit's error sentence (the first one wins); returns -1. */
int ci_fail(ci_unit *u, const char *fmt, ...)
{
	va_list ap;

	if (!u->failed && u->errlen) {
		va_start(ap, fmt);
		vsnprintf(u->err, u->errlen, fmt, ap);
		va_end(ap);
	}
	u->failed = 1;
	return -1;
}

/* Expansion line and offset of loc in the unit's main file; 0 if it is
 * elsewhere. */
int ci_loc(ci_unit *u, CXSourceLocation loc, unsigned *line, size_t *off)
{
	CXFile f;
	unsigned l, c, o;

	clang_getExpansionLocation(loc, &f, &l, &c, &o);
	if (!f || !clang_File_isEqual(f, u->file) || o > u->srclen)
		return 0;
	*line = l;
	*off = o;
	return 1;
}

/* State of one run across units. */
typedef struct ci_run {
	const con_inst_opts *o; /* options (borrowed) */
	con_inst_result *res;   /* result being filled (borrowed) */
	wire_buf notes;         /* notes for the user */
	int *found;             /* per spec: placed in some unit */
	int next_id;            /* next pragma breakpoint id */
	char **paths;           /* absolute paths: sources, then headers */
	size_t npaths, cappaths;
	char **datas;           /* instrumented text per source (owned) */
	size_t *lens;           /* its length */
	CXIndex idx;            /* libclang index */
	char *err;              /* error buffer (borrowed) */
	size_t errlen;
} ci_run;

/* Reads a whole file.  Caller frees; NULL with errno on failure. */
static char *ci_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	wire_buf b;
	char tmp[65536];
	size_t n;
	char *s = NULL;

	if (!f)
		return NULL;
	wire_buf_init(&b, CI_BUF_MAX);
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		if (wire_buf_append(&b, tmp, n) < 0)
			goto out;
	if (!ferror(f) && (s = ci_buf_str(&b)))
		*len = wire_buf_used(&b);
out:
	fclose(f);
	wire_buf_destroy(&b);
	if (!s && !errno)
		errno = ENOMEM;
	return s;
}

/* See con_inst.h. */
int con_inst_same_file(const char *spec, const char *path)
{
	char a[PATH_MAX], b[PATH_MAX];
	const char *base = strrchr(path, '/');

	if (!strcmp(spec, path))
		return 1;
	if (realpath(spec, a) && realpath(path, b) && !strcmp(a, b))
		return 1;
	return !strchr(spec, '/') && base && !strcmp(base + 1, spec);
}

/* Appends a request to the unit.  0 or -1. */
static int ci_add_req(ci_unit *u, const ci_req *r)
{
	ci_req *v = realloc(u->reqs, (u->nreqs + 1) * sizeof *v);

	if (!v)
		return ci_fail(u, "out of memory");
	u->reqs = v;
	v[u->nreqs++] = *r;
	return 0;
}

/* 1 if off lies in a range the preprocessor skipped (#if 0). */
static int ci_skipped(ci_unit *u, CXSourceRangeList *sk, size_t off)
{
	unsigned i, line;
	size_t a, b;

	for (i = 0; sk && i < sk->count; i++)
		if (ci_loc(u, clang_getRangeStart(sk->ranges[i]), &line, &a) &&
		    ci_loc(u, clang_getRangeEnd(sk->ranges[i]), &line, &b) &&
		    off >= a && off < b)
			return 1;
	return 0;
}

/* Length of a "#pragma paravt break" directive at p (to the end of the
 * line, newline excluded), or 0. */
static size_t ci_pragma_at(const char *s, size_t len, size_t p)
{
	static const char *const words[] = {"#", "pragma", "paravt", "break"};
	size_t i, q = p, n;

	for (i = 0; i < 4; i++) {
		while (q < len && (s[q] == ' ' || s[q] == '\t'))
			q++;
		n = strlen(words[i]);
		if (q + n > len || memcmp(s + q, words[i], n))
			return 0;
		q += n;
	}
	while (q < len && (s[q] == ' ' || s[q] == '\t' || s[q] == '\r'))
		q++;
	if (q < len && s[q] != '\n')
		return 0;
	while (q > p && (s[q - 1] == '\r' || s[q - 1] == ' ' || s[q - 1] == '\t'))
		q--;
	return q - p;
}

/* Finds the pragma breakpoints of the unit's text: requests with new
 * ids, and edits that turn the directive into a comment. */
static int ci_pragmas(ci_run *run, ci_unit *u)
{
	CXSourceRangeList *sk = NULL;
	size_t p = 0, n;
	unsigned line = 1;
	int rc = 0;

	if (!memmem(u->src, u->srclen, "paravt", 6))
		return 0;
	sk = clang_getSkippedRanges(u->tu, u->file);
	for (p = 0; p < u->srclen && !rc; line++) {
		size_t q = p;
		const char *nl = memchr(u->src + p, '\n', u->srclen - p);

		while (q < u->srclen && (u->src[q] == ' ' || u->src[q] == '\t'))
			q++;
		if ((n = ci_pragma_at(u->src, u->srclen, p)) &&
		    !ci_skipped(u, sk, q)) {
			ci_req r = {CI_REQ_PRAGMA, run->next_id++, (int)line, p,
				    NULL, 0, -1, 0, 0};

			rc = ci_add_req(u, &r);
			if (!rc)
				rc = ci_edit_add(u, q, n - (q - p), CI_PRIO_STMT,
						 "/* paravt break */");
		}
		p = nl ? (size_t)(nl - u->src) + 1 : u->srclen;
	}
	if (sk)
		clang_disposeSourceRangeList(sk);
	return rc;
}

/* Collects the requests of unit u: its file:line breakpoints, every
 * function breakpoint, its pragma lines. */
static int ci_requests(ci_run *run, ci_unit *u)
{
	const con_inst_opts *o = run->o;
	size_t i;

	for (i = 0; i < o->nbps; i++) {
		const con_bp_spec *s = &o->bps[i];
		ci_req r = {s->func && !s->file ? CI_REQ_FUNC : CI_REQ_LINE,
			    s->id, s->line, 0, s->func, s->temp, (int)i, 0, 0};

		if (r.kind == CI_REQ_LINE && (!s->file ||
					      !con_inst_same_file(s->file, u->path)))
			continue;
		if (ci_add_req(u, &r) < 0)
			return -1;
	}
	return ci_pragmas(run, u);
}

/* True if d is a warning that libclang makes an error by default (it has
 * a -W option: "non-void function should return a value" is
 * -Wreturn-type): the code parsed, and gcc, which compiles it on the
 * node, decides (it only warns where clang refuses so). */
static int ci_diag_is_warning(CXDiagnostic d)
{
	CXString opt = clang_getDiagnosticOption(d, NULL);
	const char *o = clang_getCString(opt);
	int w = o != NULL && strncmp(o, "-W", 2) == 0;

	clang_disposeString(opt);
	return w;
}

/* Sets err to the first error diagnostic of the unit as
 * "file:line:col: error: message" (warnings that libclang makes errors
 * are not: ci_diag_is_warning); 0 if there is none. */
static int ci_diagnostics(ci_unit *u)
{
	unsigned i, n = clang_getNumDiagnostics(u->tu), line, col;
	CXFile f;

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(u->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);

		if (sev >= CXDiagnostic_Error && (sev == CXDiagnostic_Fatal ||
						   !ci_diag_is_warning(d))) {
			CXString msg = clang_getDiagnosticSpelling(d);
			CXString fn;

			clang_getExpansionLocation(clang_getDiagnosticLocation(d),
						   &f, &line, &col, NULL);
			fn = clang_getFileName(f);
			ci_fail(u, "%s:%u:%u: %s: %s",
				clang_getCString(fn) ? clang_getCString(fn)
						     : u->path,
				line, col, sev == CXDiagnostic_Fatal ? "fatal error"
								     : "error",
				clang_getCString(msg));
			clang_disposeString(msg);
			clang_disposeString(fn);
		}
		clang_disposeDiagnostic(d);
		if (u->failed)
			return -1;
	}
	return 0;
}

/* Adds a path (made absolute) to the run's file list unless present.
 * Returns its index, or -1. */
static long ci_add_path(ci_run *run, const char *path)
{
	char abs[PATH_MAX];
	size_t i;

	if (!realpath(path, abs))
		return -1;
	for (i = 0; i < run->npaths; i++)
		if (!strcmp(run->paths[i], abs))
			return (long)i;
	if (run->npaths == run->cappaths) {
		size_t cap = run->cappaths ? run->cappaths * 2 : 16;
		char **v = realloc(run->paths, cap * sizeof *v);

		if (!v)
			return -1;
		run->paths = v;
		run->cappaths = cap;
	}
	if (!(run->paths[run->npaths] = strdup(abs)))
		return -1;
	return (long)run->npaths++;
}

/* clang_getInclusions callback: user headers (not system headers, not
 * the main file) join the run's file list. */
static void ci_inclusion(CXFile inc, CXSourceLocation *stack, unsigned n,
			 CXClientData d)
{
	ci_unit *u = d;
	ci_run *run = u->ctx;
	CXString name;
	CXSourceLocation l;

	if (!n)
		return;
	l = clang_getLocationForOffset(u->tu, inc, 0);
	if (clang_Location_isInSystemHeader(l))
		return;
	name = clang_getFileName(inc);
	if (clang_getCString(name) && ci_add_path(run, clang_getCString(name)) < 0)
		ci_fail(u, "%s: cannot resolve the path of %s", u->path,
			clang_getCString(name));
	clang_disposeString(name);
}

/* Parses the unit with the run's flags. */
static int ci_parse(ci_run *run, ci_unit *u)
{
	const con_inst_opts *o = run->o;
	enum CXErrorCode ec;
	unsigned opts = CXTranslationUnit_DetailedPreprocessingRecord |
			CXTranslationUnit_KeepGoing;

	ec = clang_parseTranslationUnit2(run->idx, u->path,
					 (const char *const *)o->cflags,
					 (int)o->ncflags, NULL, 0, opts, &u->tu);
	if (ec != CXError_Success || !u->tu)
		return ci_fail(u, "%s: cannot parse (libclang error %d)",
			       u->path, (int)ec);
	if (ci_diagnostics(u) < 0)
		return -1;
	u->file = clang_getFile(u->tu, u->path);
	u->src = u->file ? clang_getFileContents(u->tu, u->file, &u->srclen)
			 : NULL;
	if (!u->src)
		return ci_fail(u, "%s: cannot read the parsed text", u->path);
	return 0;
}

/* Counts the lines of a text. */
static size_t ci_count_lines(const char *s, size_t n)
{
	size_t c = 0, i;

	for (i = 0; i < n; i++)
		c += s[i] == '\n';
	return c + (n && s[n - 1] != '\n');
}

/* Instruments source number i into run->datas[i]. */
static int ci_unit_run(ci_run *run, size_t i)
{
	ci_unit u;
	wire_buf out;
	size_t j;
	int rc = -1;

	memset(&u, 0, sizeof u);
	u.o = run->o;
	u.index = (int)i;
	if (ci_res_unit(run->res, run->o->sources[i]) < 0) {
		snprintf(run->err, run->errlen, "out of memory");
		return -1;
	}
	u.path = run->o->sources[i];
	u.res = run->res;
	u.ctx = run;
	u.notes = &run->notes;
	u.err = run->err;
	u.errlen = run->errlen;
	ci_types_init(&u.types, &run->notes);
	wire_buf_init(&out, CI_BUF_MAX);
	if (ci_parse(run, &u) < 0 || ci_requests(run, &u) < 0 ||
	    ci_scope_walk(&u) < 0 || ci_rewrite(&u, &out) < 0)
		goto out;
	for (j = 0; j < u.nreqs; j++)
		if (u.reqs[j].placed && u.reqs[j].spec >= 0)
			run->found[u.reqs[j].spec] = 1;
	run->res->lines += ci_count_lines(u.src, u.srclen);
	clang_getInclusions(u.tu, ci_inclusion, &u);
	if (u.failed)
		goto out;
	run->lens[i] = wire_buf_used(&out);
	if (!(run->datas[i] = ci_buf_str(&out))) {
		ci_fail(&u, "out of memory");
		goto out;
	}
	rc = 0;
out:
	for (j = 0; j < u.nedits; j++)
		free(u.edits[j].text);
	free(u.edits);
	free(u.reqs);
	ci_types_destroy(&u.types);
	wire_buf_destroy(&out);
	if (u.tu)
		clang_disposeTranslationUnit(u.tu);
	return rc;
}

/* Length of the directory part shared by every path (the root). */
static size_t ci_root_len(char **paths, size_t n)
{
	size_t len = (size_t)(strrchr(paths[0], '/') - paths[0]), i, k;

	for (i = 1; i < n; i++) {
		for (k = 0; k < len && paths[i][k] == paths[0][k]; k++)
			;
		if (k == len && paths[i][len] == '/')
			continue;
		k = k ? k - 1 : 0;
		while (k > 0 && paths[0][k] != '/')
			k--;
		len = k;
	}
	return len;
}

/* Fills res->files and res->root from the run's paths and texts. */
static int ci_files(ci_run *run, char *err, size_t errlen)
{
	con_inst_result *res = run->res;
	size_t rl = ci_root_len(run->paths, run->npaths), i;

	res->root = rl ? strndup(run->paths[0], rl) : strdup("/");
	res->files = calloc(run->npaths, sizeof *res->files);
	if (!res->root || !res->files)
		goto nomem;
	for (i = 0; i < run->npaths; i++) {
		con_inst_file *f = &res->files[res->nfiles];

		f->name = strdup(run->paths[i] + rl + 1);
		f->is_source = i < run->o->nsources;
		if (f->is_source) {
			f->data = run->datas[i];
			f->len = run->lens[i];
			run->datas[i] = NULL;
		} else if (!(f->data = ci_read(run->paths[i], &f->len))) {
			snprintf(err, errlen, "%s: %s", run->paths[i],
				 strerror(errno));
			free(f->name);
			return -1;
		}
		res->nfiles++;
		if (!f->name)
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Checks that every user breakpoint landed somewhere. */
static int ci_check_specs(ci_run *run, char *err, size_t errlen)
{
	const con_inst_opts *o = run->o;
	size_t i, j;

	for (i = 0; i < o->nbps; i++) {
		const con_bp_spec *s = &o->bps[i];
		int loaded = 0;

		if (run->found[i])
			continue;
		if (s->func && !s->file) {
			snprintf(err, errlen, "breakpoint %d: no function "
				 "named %s() in the loaded sources", s->id,
				 s->func);
			return -1;
		}
		for (j = 0; j < o->nsources && s->file; j++)
			loaded |= con_inst_same_file(s->file, o->sources[j]);
		snprintf(err, errlen, loaded ? "breakpoint %d at %s:%d did not "
			 "land" : "breakpoint %d: %s is not a loaded source "
			 "(line %d)", s->id, s->file ? s->file : "?", s->line);
		return -1;
	}
	return 0;
}

/* Seconds of a monotonic clock. */
static double ci_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Frees the run's state (not the result). */
static void ci_run_destroy(ci_run *run)
{
	size_t i;

	for (i = 0; run->datas && i < run->o->nsources; i++)
		free(run->datas[i]);
	for (i = 0; i < run->npaths; i++)
		free(run->paths[i]);
	free(run->paths);
	free(run->datas);
	free(run->lens);
	free(run->found);
	wire_buf_destroy(&run->notes);
	if (run->idx)
		clang_disposeIndex(run->idx);
}

/* Parses and instruments every source; see con_inst.h. */
int con_inst_run(const con_inst_opts *o, con_inst_result *res, char *err,
		 size_t errlen)
{
	ci_run run;
	double t0 = ci_now();
	size_t i;
	int rc = -1;

	memset(res, 0, sizeof *res);
	memset(&run, 0, sizeof run);
	run.o = o;
	run.res = res;
	run.err = err;
	run.errlen = errlen;
	run.next_id = o->next_bp_id > 0 ? o->next_bp_id : 1;
	wire_buf_init(&run.notes, 16u << 20);
	if (!o->nsources) {
		snprintf(err, errlen, "no source files loaded");
		goto out;
	}
	run.found = calloc(o->nbps + 1, sizeof *run.found);
	run.datas = calloc(o->nsources, sizeof *run.datas);
	run.lens = calloc(o->nsources, sizeof *run.lens);
	run.idx = clang_createIndex(0, 0);
	if (!run.found || !run.datas || !run.lens || !run.idx) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < o->nsources; i++)
		if (ci_add_path(&run, o->sources[i]) != (long)i) {
			snprintf(err, errlen, "%s: %s", o->sources[i],
				 errno ? strerror(errno) : "loaded twice");
			goto out;
		}
	for (i = 0; i < o->nsources; i++)
		if (ci_unit_run(&run, i) < 0)
			goto out;
	if (ci_check_specs(&run, err, errlen) < 0 ||
	    ci_files(&run, err, errlen) < 0)
		goto out;
	if (wire_buf_used(&run.notes) && !(res->notes = ci_buf_str(&run.notes))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	ci_run_destroy(&run);
	if (rc < 0)
		con_inst_result_free(res);
	res->seconds = ci_now() - t0;
	return rc;
}

/* See con_inst.h. */
char *con_inst_rel_cflag(const con_inst_result *res, const char *flag)
{
	static const char *const pfx[] = {"-I", "-iquote"};
	char abs[PATH_MAX], *out;
	size_t i, rl, pl;

	for (i = 0; i < 2; i++) {
		pl = strlen(pfx[i]);
		if (strncmp(flag, pfx[i], pl) || !flag[pl] || !res->root ||
		    !realpath(flag + pl, abs))
			continue;
		rl = strlen(res->root);
		if (strncmp(abs, res->root, rl) ||
		    (abs[rl] && abs[rl] != '/' && strcmp(res->root, "/")))
			continue;
		out = malloc(pl + strlen(abs) + 3);
		if (out)
			sprintf(out, "%s%s", pfx[i],
				abs[rl] ? abs + rl + (abs[rl] == '/') : ".");
		return out;
	}
	return strdup(flag);
}

/* Frees one breakpoint's strings and variables (con_inst_int.h). */
void ci_bp_free(con_inst_bp *bp)
{
	size_t i;

	for (i = 0; i < bp->nvars; i++) {
		free(bp->vars[i].name);
		free(bp->vars[i].type);
	}
	free(bp->vars);
	free(bp->file);
	free(bp->func);
}

/* Frees everything in res; NULL-safe. */
void con_inst_result_free(con_inst_result *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->nfiles; i++) {
		free(res->files[i].name);
		free(res->files[i].data);
	}
	free(res->files);
	for (i = 0; i < res->nbps; i++)
		ci_bp_free(&res->bps[i]);
	free(res->bps);
	free(res->sites);
	for (i = 0; i < res->nfuncs; i++)
		free(res->funcs[i]);
	free(res->funcs);
	for (i = 0; i < res->nunits; i++)
		free(res->units[i]);
	free(res->units);
	free(res->notes);
	free(res->root);
	memset(res, 0, sizeof *res);
}
