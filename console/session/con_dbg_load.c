/*
 * con_dbg_load.c — `load`: the sources, the flags of the user's Makefile,
 * and what kind of program they make (con_dbg.h).
 *
 *   load [--pvm|--mpi|--plain] [FLAG...] [--cflags 'FLAGS']
 *        [--ldflags 'FLAGS'] [--cflags@PORT 'FLAGS'] [--ldflags@PORT
 *        'FLAGS'] FILE...
 *
 * A FLAG given to load as is is a compiler or linker flag that
 * wire_flags.h allows; "-I DIR", "-D NAME", "-U NAME", "-l LIB", "-L DIR",
 * "-isystem DIR", "-iquote DIR", "-idirafter DIR" and "-include FILE"
 * may take their value as the next word.  -l, -L and -Wl, go to the
 * link, the others to every compile step (and the link).  The text after
 * --cflags / --ldflags is split into words at blanks (quotes group, a
 * backslash escapes; nothing is expanded) and each word is checked the
 * same way; with @PORT the flags reach only the nodes whose port (the
 * PORT column of `node list`) has that name.  Every flag is checked here,
 * so that a refused one fails at once with the reason; the daemon checks
 * them again.  A relative -L is refused: libraries are read on the node.
 *
 * The kind of program: --pvm, --mpi or --plain if given, else what the
 * sources include.  Each source, and every header it includes by a
 * quoted name (found next to the including file or in an -I/-iquote
 * directory, recursively, at most CON_SCAN_FILES files), is read with
 * comments and line continuations taken out; a line "#include <pvm3.h>"
 * (or "mpi.h", quoted or not) marks a PVM (MPI) program.  The scan does
 * not evaluate #if: an include inside a false #ifdef still counts, which
 * --plain/--pvm/--mpi override.  What was decided, and why, is the load's
 * note (con_dbg_load_note), e.g. "prog.c: PVM program (includes pvm3.h)".
 *
 * Layout: the load's collection; words of --cflags; flags; detection;
 * con_dbg_load.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con_dbg_int.h"
#include "wire.h"
#include "wire_flags.h"

#define CON_SCAN_FILES 256          /* files one detection reads */
#define CON_SCAN_DEPTH 32           /* nesting of quoted includes */
#define CON_SCAN_BYTES (16u << 20)  /* bytes read of one file */
#define CON_LOAD_WORDS 1024         /* words in one --cflags text */

/* What one load command collects before it replaces the loaded state. */
typedef struct con_load {
	char **src;       /* sources */
	size_t nsrc;
	char **cf;        /* compiler flags */
	size_t ncf;
	char **lf;        /* linker flags */
	size_t nlf;
	con_pflag *pf;    /* per-port flags */
	size_t npf;
	int mode;         /* enum con_dbg_mode given, or -1 */
} con_load;

/* Kinds of flags a word list holds. */
enum { CON_LOAD_AUTO = -1 }; /* decided per flag (else WIRE_FLAG_*) */

/* Frees n per-port flags and the array. */
void con_pflags_free(con_pflag *v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++) {
		free(v[i].port);
		free(v[i].flag);
	}
	free(v);
}

/* Frees what l holds. */
static void con_load_free(con_load *l)
{
	con_strv_free(l->src, l->nsrc);
	con_strv_free(l->cf, l->ncf);
	con_strv_free(l->lf, l->nlf);
	con_pflags_free(l->pf, l->npf);
	memset(l, 0, sizeof *l);
}

/* ---- words of --cflags -------------------------------------------------- */

/* Splits text at blanks into words (quotes group, backslash escapes) in
 * buf (at least strlen(text) + 1 bytes); w gets up to max words.  The
 * count, or -1 with err (an unterminated quote, too many words). */
static int con_load_split(const char *text, char *buf, char **w, int max,
			  char *err, size_t errlen)
{
	const char *p = text;
	char *o = buf, q;
	int n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			return n;
		if (n == max) {
			snprintf(err, errlen, "more than %d words", max);
			return -1;
		}
		w[n++] = o;
		for (q = 0; *p != '\0' && (q || (*p != ' ' && *p != '\t' &&
						 *p != '\n')); p++) {
			if (q != 0 && *p == q) {
				q = 0;
				continue;
			}
			if (q == 0 && (*p == '\'' || *p == '"')) {
				q = *p;
				continue;
			}
			if (*p == '\\' && q != '\'' && p[1] != '\0')
				p++;
			*o++ = *p;
		}
		if (q != 0) {
			snprintf(err, errlen, "unterminated %c quote", q);
			return -1;
		}
		*o++ = '\0';
	}
}

/* ---- flags -------------------------------------------------------------- */

/* True if w is an option whose value may be the next word ("-I DIR"). */
static int con_load_takes_value(const char *w)
{
	static const char *const v[] = {"-I", "-D", "-U", "-l", "-L",
					"-isystem", "-iquote", "-idirafter",
					"-include", NULL};
	int i;

	for (i = 0; v[i] != NULL; i++)
		if (strcmp(w, v[i]) == 0)
			return 1;
	return 0;
}

/* Checks flag f for kind (WIRE_FLAG_* or CON_LOAD_AUTO) and adds it to
 * l (for port, if not NULL).  0, or WIRE_EARG / WIRE_ENOMEM with err. */
static int con_load_flag(con_load *l, const char *f, int kind,
			 const char *port, char *err, size_t errlen)
{
	char why[WIRE_TEXT_MAX];
	con_pflag *pf;
	int link = kind == CON_LOAD_AUTO ? wire_flag_is_link(f) :
		   kind == WIRE_FLAG_LINK;

	if (wire_flag_check(f, link ? WIRE_FLAG_LINK : WIRE_FLAG_COMPILE, why,
			    sizeof why) != 0) {
		snprintf(err, errlen, "load: %s", why);
		return WIRE_EARG;
	}
	if (strncmp(f, "-L", 2) == 0 && f[2] != '/') {
		snprintf(err, errlen, "load: '%s': a library directory is read "
			 "on the node; give its absolute path there", f);
		return WIRE_EARG;
	}
	if (port == NULL)
		return con_strv_add(link ? &l->lf : &l->cf,
				    link ? &l->nlf : &l->ncf, "%s", f) < 0 ?
		       WIRE_ENOMEM : 0;
	pf = realloc(l->pf, (l->npf + 1) * sizeof *pf);
	if (pf == NULL)
		return WIRE_ENOMEM;
	l->pf = pf;
	pf[l->npf].port = strdup(port);
	pf[l->npf].flag = strdup(f);
	pf[l->npf].link = link;
	l->npf++;
	return pf[l->npf - 1].port && pf[l->npf - 1].flag ? 0 : WIRE_ENOMEM;
}

/* Takes the flag at w[*i] (joined with its value w[*i + 1] for "-I DIR"
 * forms) into l.  0 or a code with err. */
static int con_load_flag_at(con_load *l, char **w, int n, int *i, int kind,
			    const char *port, char *err, size_t errlen)
{
	char *joined;
	int rc;

	if (!con_load_takes_value(w[*i]))
		return con_load_flag(l, w[*i], kind, port, err, errlen);
	if (*i + 1 >= n) {
		snprintf(err, errlen, "load: %s needs a value", w[*i]);
		return WIRE_EARG;
	}
	if (asprintf(&joined, "%s%s", w[*i], w[*i + 1]) < 0)
		return WIRE_ENOMEM;
	++*i;
	rc = con_load_flag(l, joined, kind, port, err, errlen);
	free(joined);
	return rc;
}

/* The flags of text (after --cflags or --ldflags, for port or all).
 * 0 or a code with err. */
static int con_load_flag_text(con_load *l, const char *opt, const char *text,
			      int kind, const char *port, char *err,
			      size_t errlen)
{
	char *buf = malloc(strlen(text) + 1), **w, why[128];
	int n, i, rc = 0;

	w = calloc(CON_LOAD_WORDS + 1, sizeof *w);
	if (buf == NULL || w == NULL) {
		free(buf), free(w);
		return WIRE_ENOMEM;
	}
	n = con_load_split(text, buf, w, CON_LOAD_WORDS, why, sizeof why);
	if (n < 0) {
		snprintf(err, errlen, "load: %s: %s", opt, why);
		rc = WIRE_EARG;
	}
	for (i = 0; rc == 0 && i < n; i++)
		rc = con_load_flag_at(l, w, n, &i, kind, port, err, errlen);
	free(buf);
	free(w);
	return rc;
}

/* --cflags[@PORT][=TEXT] and --ldflags...: 1 if w is one (its text taken
 * from w or the next word), 0 if not, or a code with err. */
static int con_load_flags_opt(con_load *l, int argc, char **argv, int *i,
			      char *err, size_t errlen)
{
	char opt[128], port[64];
	const char *w = argv[*i], *text, *at, *eq;
	int link = strncmp(w, "--ldflags", 9) == 0, rc;
	size_t k;

	if (strncmp(w, "--cflags", 8) != 0 && !link)
		return 0;
	k = strlen(link ? "--ldflags" : "--cflags");
	if (w[k] != '\0' && w[k] != '@' && w[k] != '=')
		return 0;
	eq = strchr(w, '=');
	at = w[k] == '@' ? w + k + 1 : NULL;
	snprintf(opt, sizeof opt, "%.*s", (int)(eq ? eq - w : (long)strlen(w)),
		 w);
	snprintf(port, sizeof port, "%.*s", at == NULL ? 0 :
		 (int)((eq ? eq : w + strlen(w)) - at), at ? at : "");
	if (at != NULL && (port[0] == '\0' || strspn(port,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
	    != strlen(port))) {
		snprintf(err, errlen, "load: %s: PORT must be a port name "
			 "such as linux-s390x-qemu", opt);
		return WIRE_EARG;
	}
	if (eq != NULL) {
		text = eq + 1;
	} else if (*i + 1 < argc) {
		text = argv[++*i];
	} else {
		snprintf(err, errlen, "load: %s needs its flags as one word "
			 "('%s \"-O2 -Wall\"')", opt, opt);
		return WIRE_EARG;
	}
	rc = con_load_flag_text(l, opt, text, link ? WIRE_FLAG_LINK :
				WIRE_FLAG_COMPILE, at ? port : NULL, err,
				errlen);
	return rc < 0 ? rc : 1;
}

/* ---- detection ---------------------------------------------------------- */

/* The state of one detection. */
typedef struct con_scan {
	char **seen;            /* files read (real paths) */
	size_t nseen;
	char **dirs;            /* -I and -iquote directories */
	size_t ndirs;
	int found;              /* bit 0: pvm3.h, bit 1: mpi.h */
	char via[2][PATH_MAX];  /* header that included it first, or "" */
	int over;               /* a limit was reached */
} con_scan;

/* Takes comments and backslash-newlines out of buf[0..n) in place (a
 * comment becomes a blank; string and character literals are copied as
 * they are).  The new length. */
static size_t con_scan_clean(char *buf, size_t n)
{
	size_t i = 0, o = 0;
	char q = 0;

	while (i < n) {
		if (buf[i] == '\\' && i + 1 < n && buf[i + 1] == '\n') {
			i += 2;
		} else if (q == 0 && buf[i] == '/' && i + 1 < n &&
			   buf[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(buf[i] == '*' &&
						    buf[i + 1] == '/'); i++)
				if (buf[i] == '\n')
					buf[o++] = '\n';
			i += 2;
			buf[o++] = ' ';
		} else if (q == 0 && buf[i] == '/' && i + 1 < n &&
			   buf[i + 1] == '/') {
			while (i < n && buf[i] != '\n')
				i++;
		} else {
			if (q == 0 && (buf[i] == '"' || buf[i] == '\''))
				q = buf[i];
			else if (q != 0 && (buf[i] == q || buf[i] == '\n'))
				q = 0;
			else if (q != 0 && buf[i] == '\\' && i + 1 < n)
				buf[o++] = buf[i++];
			buf[o++] = buf[i++];
		}
	}
	return o;
}

static void con_scan_file(con_scan *sc, const char *path, const char *top,
			  int depth);

/* Follows include name (quoted if quoted) of file path: a header found
 * next to it (quoted only) or in an -I directory is scanned too. */
static void con_scan_follow(con_scan *sc, const char *path, const char *name,
			    int quoted, const char *top, int depth)
{
	char cand[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t i;

	if (name[0] == '/') {
		if (quoted && access(name, R_OK) == 0)
			con_scan_file(sc, name, top, depth + 1);
		return;
	}
	if (quoted) {
		snprintf(cand, sizeof cand, "%.*s%s", slash ? (int)(slash -
			 path + 1) : 0, path, name);
		if (access(cand, R_OK) == 0) {
			con_scan_file(sc, cand, top, depth + 1);
			return;
		}
	}
	for (i = 0; i < sc->ndirs; i++) {
		snprintf(cand, sizeof cand, "%s/%s", sc->dirs[i], name);
		if (access(cand, R_OK) == 0) {
			con_scan_file(sc, cand, top, depth + 1);
			return;
		}
	}
}

/* Looks at one cleaned line: an #include of pvm3.h or mpi.h is noted,
 * another one followed. */
static void con_scan_line(con_scan *sc, char *line, const char *path,
			  const char *top, int depth)
{
	char *p = line + strspn(line, " \t"), *end, close;
	const char *base;
	int bit;

	if (*p != '#')
		return;
	p += 1 + strspn(p + 1, " \t");
	if (strncmp(p, "include_next", 12) == 0)
		p += 12;
	else if (strncmp(p, "include", 7) == 0 || strncmp(p, "import", 6) == 0)
		p += p[1] == 'n' ? 7 : 6;
	else
		return;
	p += strspn(p, " \t");
	if (*p != '<' && *p != '"')
		return;
	close = *p == '<' ? '>' : '"';
	end = strchr(p + 1, close);
	if (end == NULL)
		return;
	*end = '\0';
	base = strrchr(p + 1, '/') ? strrchr(p + 1, '/') + 1 : p + 1;
	bit = strcmp(base, "pvm3.h") == 0 ? 1 : strcmp(base, "mpi.h") == 0 ?
	      2 : 0;
	if (bit != 0) {
		if (!(sc->found & bit))
			snprintf(sc->via[bit - 1], sizeof sc->via[0], "%s",
				 depth > 0 ? path : "");
		sc->found |= bit;
		return;
	}
	con_scan_follow(sc, path, p + 1, close == '"', top, depth);
}

/* Scans one file (once; bounded in files, depth and bytes). */
static void con_scan_file(con_scan *sc, const char *path, const char *top,
			  int depth)
{
	char real[PATH_MAX], *buf, *line, *nl;
	size_t n, i;
	FILE *f;

	if (realpath(path, real) == NULL)
		return;
	for (i = 0; i < sc->nseen; i++)
		if (strcmp(sc->seen[i], real) == 0)
			return;
	if (depth > CON_SCAN_DEPTH || sc->nseen >= CON_SCAN_FILES) {
		sc->over = 1;
		return;
	}
	if (con_strv_add(&sc->seen, &sc->nseen, "%s", real) < 0 ||
	    (f = fopen(path, "r")) == NULL)
		return;
	buf = malloc(CON_SCAN_BYTES + 1);
	n = buf != NULL ? fread(buf, 1, CON_SCAN_BYTES, f) : 0;
	if (n == CON_SCAN_BYTES)
		sc->over = 1;
	fclose(f);
	if (buf == NULL)
		return;
	n = con_scan_clean(buf, n);
	buf[n] = '\0';
	for (line = buf; line != NULL; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl != NULL)
			*nl = '\0';
		con_scan_line(sc, line, path, top, depth);
	}
	free(buf);
}

/* The -I and -iquote directories of the compiler flags into sc. */
static int con_scan_dirs(con_scan *sc, const con_load *l)
{
	size_t i;

	for (i = 0; i < l->ncf; i++) {
		if (strncmp(l->cf[i], "-I", 2) == 0 &&
		    con_strv_add(&sc->dirs, &sc->ndirs, "%s", l->cf[i] + 2) < 0)
			return -1;
		if (strncmp(l->cf[i], "-iquote", 7) == 0 &&
		    con_strv_add(&sc->dirs, &sc->ndirs, "%s", l->cf[i] + 7) < 0)
			return -1;
	}
	return 0;
}

/* Appends the base names of the sources whose scan found bit to buf. */
static void con_scan_names(char **names, const int *found, size_t n, int bit,
			   char *buf, size_t cap, int *count)
{
	size_t i, used;

	*count = 0;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!(found[i] & bit))
			continue;
		used = strlen(buf);
		snprintf(buf + used, cap - used, "%s%s", *count ? ", " : "",
			 strrchr(names[i], '/') ? strrchr(names[i], '/') + 1 :
			 names[i]);
		++*count;
	}
}

/* Decides the mode of l from the sources' includes (unless given) and
 * writes the sentence into note.  0, or WIRE_EARG with err when the
 * sources include both headers and no mode was given. */
static int con_load_detect(con_load *l, char *note, size_t cap, char *err,
			   size_t errlen)
{
	static const char *const kind[] = {"plain", "PVM", "MPI"};
	char names[2][512], via[PATH_MAX + 32] = "", first[2][PATH_MAX];
	int *found = calloc(l->nsrc + 1, sizeof *found), cnt[2], mode, bit;
	int have[2] = {0, 0}, b;
	const char *first0;
	con_scan sc;
	size_t i;

	if (found == NULL)
		return WIRE_ENOMEM;
	memset(&sc, 0, sizeof sc);
	if (con_scan_dirs(&sc, l) < 0) {
		free(found);
		return WIRE_ENOMEM;
	}
	for (i = 0; i < l->nsrc; i++) {
		sc.found = 0;
		con_strv_free(sc.seen, sc.nseen);
		sc.seen = NULL;
		sc.nseen = 0;
		sc.via[0][0] = sc.via[1][0] = '\0';
		con_scan_file(&sc, l->src[i], l->src[i], 0);
		found[i] = sc.found;
		for (b = 0; b < 2; b++)
			if ((sc.found & (1 << b)) && !have[b]++)
				memcpy(first[b], sc.via[b], sizeof first[b]);
	}
	con_scan_names(l->src, found, l->nsrc, 1, names[0], sizeof names[0],
		       &cnt[0]);
	con_scan_names(l->src, found, l->nsrc, 2, names[1], sizeof names[1],
		       &cnt[1]);
	con_strv_free(sc.seen, sc.nseen);
	con_strv_free(sc.dirs, sc.ndirs);
	free(found);
	mode = cnt[0] ? CON_DBG_PVM : cnt[1] ? CON_DBG_MPI : CON_DBG_PLAIN;
	if (cnt[0] && cnt[1] && l->mode < 0) {
		snprintf(err, errlen, "load: %s include%s pvm3.h and %s "
			 "include%s mpi.h: say which with --pvm or --mpi",
			 names[0], cnt[0] == 1 ? "s" : "", names[1],
			 cnt[1] == 1 ? "s" : "");
		return WIRE_EARG;
	}
	bit = mode == CON_DBG_PVM ? 0 : 1;
	if (mode != CON_DBG_PLAIN && first[bit][0] != '\0')
		snprintf(via, sizeof via, " through %s",
			 strrchr(first[bit], '/') ?
			 strrchr(first[bit], '/') + 1 : first[bit]);
	first0 = strrchr(l->src[0], '/') ? strrchr(l->src[0], '/') + 1 :
		 l->src[0];
	if (l->mode >= 0 && l->mode != mode)
		snprintf(note, cap, "%s: %s program (%s given%s%s)",
			 first0, kind[l->mode], l->mode == CON_DBG_PVM ?
			 "--pvm" : l->mode == CON_DBG_MPI ? "--mpi" : "--plain",
			 cnt[0] ? "; it includes pvm3.h" : cnt[1] ?
			 "; it includes mpi.h" : "",
			 cnt[0] && cnt[1] ? " and mpi.h" : "");
	else if (mode == CON_DBG_PLAIN)
		snprintf(note, cap, "%s: plain program (includes neither "
			 "pvm3.h nor mpi.h)", l->nsrc == 1 ? first0 :
			 "the sources");
	else
		snprintf(note, cap, "%s: %s program (include%s %s%s)",
			 names[bit], kind[mode], cnt[bit] == 1 ? "s" : "",
			 mode == CON_DBG_PVM ? "pvm3.h" : "mpi.h", via);
	if (sc.over)
		snprintf(note + strlen(note), cap - strlen(note), "; note: the "
			 "include scan stopped at a limit (%d files, depth %d, "
			 "%u bytes a file)", CON_SCAN_FILES, CON_SCAN_DEPTH,
			 CON_SCAN_BYTES);
	if (l->mode < 0)
		l->mode = mode;
	return 0;
}

/* ---- load --------------------------------------------------------------- */

/* One word of load at argv[*i].  0 or a code with err. */
static int con_load_word(con_load *l, int argc, char **argv, int *i,
			 char *err, size_t errlen)
{
	const char *w = argv[*i];
	int rc;

	if (strcmp(w, "--pvm") == 0 || strcmp(w, "--mpi") == 0 ||
	    strcmp(w, "--plain") == 0) {
		l->mode = w[2] == 'p' && w[3] == 'v' ? CON_DBG_PVM :
			  w[2] == 'm' ? CON_DBG_MPI : CON_DBG_PLAIN;
		return 0;
	}
	rc = con_load_flags_opt(l, argc, argv, i, err, errlen);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	if (w[0] == '-' && w[1] == '-') {
		snprintf(err, errlen, "load: unknown option '%s' (--pvm, --mpi, "
			 "--plain, --cflags, --ldflags, --cflags@PORT, "
			 "--ldflags@PORT)", w);
		return WIRE_EARG;
	}
	if (w[0] == '-')
		return con_load_flag_at(l, argv, argc, i, CON_LOAD_AUTO, NULL,
					err, errlen);
	if (access(w, R_OK) != 0) {
		snprintf(err, errlen, "load: cannot read '%s'", w);
		return WIRE_EARG;
	}
	return con_strv_add(&l->src, &l->nsrc, "%s", w) < 0 ? WIRE_ENOMEM : 0;
}

/* Moves what l collected into the session (replacing the last load). */
static void con_load_commit(con_load *l)
{
	con_strv_free(con_dbg.sources, con_dbg.nsources);
	con_strv_free(con_dbg.cflags, con_dbg.ncflags);
	con_strv_free(con_dbg.ldflags, con_dbg.nldflags);
	con_pflags_free(con_dbg.pflags, con_dbg.npflags);
	con_dbg.sources = l->src;
	con_dbg.nsources = l->nsrc;
	con_dbg.cflags = l->cf;
	con_dbg.ncflags = l->ncf;
	con_dbg.ldflags = l->lf;
	con_dbg.nldflags = l->nlf;
	con_dbg.pflags = l->pf;
	con_dbg.npflags = l->npf;
	con_dbg.mode = l->mode;
	memset(l, 0, sizeof *l);
}

int con_dbg_load(int argc, char **argv, char *err, size_t errlen)
{
	char note[sizeof con_dbg.load_note];
	con_load l;
	int i, rc = 0;

	err[0] = '\0';
	memset(&l, 0, sizeof l);
	l.mode = -1;
	for (i = 1; i < argc && rc == 0; i++)
		rc = con_load_word(&l, argc, argv, &i, err, errlen);
	if (rc == 0 && l.nsrc == 0) {
		snprintf(err, errlen, "usage: load [--pvm|--mpi|--plain] "
			 "[FLAG...] [--cflags 'FLAGS'] [--ldflags 'FLAGS'] "
			 "FILE...");
		rc = WIRE_EARG;
	}
	if (rc == 0)
		rc = con_load_detect(&l, note, sizeof note, err, errlen);
	if (rc < 0) {
		if (err[0] == '\0')
			snprintf(err, errlen, "out of memory");
		con_load_free(&l);
		return rc == WIRE_ENOMEM ? rc : WIRE_EARG;
	}
	con_load_commit(&l);
	snprintf(con_dbg.load_note, sizeof con_dbg.load_note, "%s", note);
	return 0;
}

const char *con_dbg_load_note(void)
{
	return con_dbg.load_note;
}

/* The flags of the load for a node of port (compiler or linker), the
 * per-port ones after the common ones; caller frees (con_strv_free).
 * NULL when out of memory; *n set. */
char **con_dbg_port_flags(const char *port, int link, size_t *n)
{
	char **v = calloc(1, sizeof *v), **src = link ? con_dbg.ldflags :
						 con_dbg.cflags;
	size_t i, ns = link ? con_dbg.nldflags : con_dbg.ncflags;

	*n = 0;
	for (i = 0; v != NULL && i < ns; i++)
		if (con_strv_add(&v, n, "%s", src[i]) < 0)
			goto out_free;
	for (i = 0; v != NULL && i < con_dbg.npflags; i++)
		if (con_dbg.pflags[i].link == link &&
		    strcmp(con_dbg.pflags[i].port, port) == 0 &&
		    con_strv_add(&v, n, "%s", con_dbg.pflags[i].flag) < 0)
			goto out_free;
	return v;
out_free:
	con_strv_free(v, *n);
	return NULL;
}
