/*
 * con_dbg_build.c — load, instrumentation and remote builds (con_dbg.h).
 *
 * Layout: string vectors; `load` (sources and compiler options, checked
 * here so that a typo fails at once; --pvm and --mpi mark the program);
 * instrumentation through con_inst_run and recording where the
 * breakpoints landed; the programs of a build; the options as the nodes
 * see them (relative -I directories re-rooted at the shipping root by
 * con_inst_rel_cflag, plus -DPARAVT_PVM=1 or -DPARAVT_MPI=1); shipping
 * FILE_PUT and BUILD; the BUILD_RESULT and ERROR answers.
 *
 * Programs: a plain load makes one program, named after its first
 * source.  A PVM or MPI load whose sources define main more than once
 * (a master and its worker) makes one program per such source, named
 * after it and built from it and every source without main.  All of
 * them share one build number, so each node keeps them in one build
 * directory, where pvm_spawn finds the workers by bare name; the node
 * gets the files once and one BUILD per program, the next when the
 * previous one has its BUILD_RESULT (a daemon compiles one BUILD of a
 * build number at a time).
 *
 * The PVM wrapper header is not injected by the instrumenter: the
 * daemon compiles with -include paravt_pvm.h when a BUILD carries
 * -DPARAVT_PVM=1 (the header includes <pvm3.h> itself and its macros are
 * function-like, so it may come first), and links the PVM wrappers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con_dbg_int.h"
#include "wire.h"

#define CON_DBG_FILE_MODE 0644u  /* mode of shipped files */

/* ---- string vectors --------------------------------------------------- */

/* Frees n strings and the vector. */
void con_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

/* Appends a copy of s (or the printf text) to *v.  0 or -1. */
int con_strv_add(char ***v, size_t *n, const char *fmt, ...)
{
	char **nv = realloc(*v, (*n + 2) * sizeof *nv);
	va_list ap;
	int rc;

	if (nv == NULL)
		return -1;
	*v = nv;
	va_start(ap, fmt);
	rc = vasprintf(&nv[*n], fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -1;
	nv[++*n] = NULL;
	return 0;
}

/* ---- load ------------------------------------------------------------- */

/* The loaded sources. */
char **con_dbg_sources(size_t *n)
{
	*n = con_dbg.nsources;
	return con_dbg.sources;
}

/* Number of the last instrumentation. */
uint32_t con_dbg_build_number(void)
{
	return con_dbg.have_inst ? con_dbg.build_no : 0;
}

/* ---- instrumentation -------------------------------------------------- */

/* The user's breakpoints as the instrumenter takes them; caller frees
 * the array (strings are borrowed from the model). */
static con_bp_spec *con_dbg_specs(size_t *n)
{
	con_bp_spec *v;
	size_t k = 0;
	bp *b;

	v = calloc(bp_count(&con_dbg.bps) + 1, sizeof *v);
	if (v == NULL)
		return NULL;
	for (b = con_dbg.bps.head; b != NULL; b = b->next) {
		if (b->from_pragma)
			continue;
		v[k].id = b->id;
		v[k].file = b->file;
		v[k].line = b->line;
		v[k].func = b->func;
		v[k].temp = b->temp;
		k++;
	}
	*n = k;
	return v;
}

/* Records the landings of res in the model. */
static int con_dbg_land(const con_inst_result *res)
{
	bp_var *vars;
	size_t i, j;
	int rc = 0;

	bp_build_begin(&con_dbg.bps);
	for (i = 0; i < res->nbps && rc == 0; i++) {
		const con_inst_bp *ib = &res->bps[i];

		vars = calloc(ib->nvars + 1, sizeof *vars);
		if (vars == NULL)
			return WIRE_ENOMEM;
		for (j = 0; j < ib->nvars; j++) {
			vars[j].name = ib->vars[j].name;
			vars[j].type = ib->vars[j].type;
			vars[j].scope = ib->vars[j].scope;
		}
		rc = bp_land(&con_dbg.bps, ib->id, ib->file, ib->line,
			     ib->func, ib->unit, ib->temp, ib->from_pragma,
			     vars, ib->nvars) < 0 ? WIRE_ENOMEM : 0;
		free(vars);
	}
	return rc;
}

/* Adds "breakpoint N moved" notes for the moved breakpoints the
 * instrumenter's notes do not mention. */
static void con_dbg_move_notes(const con_inst_result *res, char **notes)
{
	char key[64], *more;
	size_t i;

	for (i = 0; i < res->nbps; i++) {
		const con_inst_bp *b = &res->bps[i];

		if (b->req_line == 0 || b->req_line == b->line)
			continue;
		snprintf(key, sizeof key, "breakpoint %d ", b->id);
		if (*notes != NULL && strstr(*notes, key) != NULL)
			continue;
		if (asprintf(&more, "%sbreakpoint %d moved from %s:%d to "
			     "%s:%d (no code on line %d)\n",
			     *notes != NULL ? *notes : "", b->id, b->file,
			     b->req_line, b->file, b->line, b->req_line) < 0)
			return;
		free(*notes);
		*notes = more;
	}
}

/* The mode of the load. */
int con_dbg_mode(void)
{
	return con_dbg.mode;
}

/* The programs of the last build. */
char **con_dbg_programs(size_t *n)
{
	*n = con_dbg.nprograms;
	return con_dbg.programs;
}

/* Base name of path without ".c", into buf. */
static void con_dbg_base(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/'), *s;
	size_t len;

	s = slash != NULL ? slash + 1 : path;
	len = strlen(s);
	if (len > 2 && strcmp(s + len - 2, ".c") == 0)
		len -= 2;
	snprintf(buf, n, "%.*s", (int)len, s);
}

/* Base name of the first source without ".c": the program's name. */
static void con_dbg_program_name(void)
{
	con_dbg_base(con_dbg.sources[0], con_dbg.program,
		     sizeof con_dbg.program);
}

/* True if instrumented file f defines main (its body starts with
 * para_vt_start, which the instrumenter puts there and nowhere else). */
static int con_dbg_has_main(const con_inst_file *f)
{
	return f->is_source &&
	       memmem(f->data, f->len, "para_vt_start();", 16) != NULL;
}

/* Adds program name (main source index idx) to the list.  0 or -1. */
static int con_dbg_prog_add(const char *name, size_t idx)
{
	size_t *v = realloc(con_dbg.prog_main,
			    (con_dbg.nprograms + 1) * sizeof *v);

	if (v == NULL)
		return -1;
	con_dbg.prog_main = v;
	v[con_dbg.nprograms] = idx;
	return con_strv_add(&con_dbg.programs, &con_dbg.nprograms, "%s",
			    name);
}

/* Decides the programs of the new build (see the top of the file).
 * 0 or WIRE_ENOMEM. */
static int con_dbg_find_programs(void)
{
	const con_inst_result *r = &con_dbg.inst;
	char name[WIRE_TEXT_MAX];
	size_t i, mains = 0;

	con_strv_free(con_dbg.programs, con_dbg.nprograms);
	free(con_dbg.prog_main);
	con_dbg.programs = NULL;
	con_dbg.prog_main = NULL;
	con_dbg.nprograms = 0;
	for (i = 0; i < r->nfiles; i++)
		mains += con_dbg_has_main(&r->files[i]);
	if (con_dbg.mode == CON_DBG_PLAIN || mains < 2)
		return con_dbg_prog_add(con_dbg.program, (size_t)-1) < 0 ?
		       WIRE_ENOMEM : 0;
	for (i = 0; i < r->nfiles && i < con_dbg.nsources; i++) {
		if (!con_dbg_has_main(&r->files[i]))
			continue;
		con_dbg_base(con_dbg.sources[i], name, sizeof name);
		if (con_dbg_prog_add(name, i) < 0)
			return WIRE_ENOMEM;
	}
	return 0;
}

/* Adds "-isystem DIR" to *v for every directory the MPI compiler wrapper
 * names (Open MPI's `mpicc --showme:incdirs`), so that the console's
 * parser finds <mpi.h> and takes it as a system header: the library's
 * own globals (MPI_COMM_WORLD is &ompi_mpi_comm_world) are not the
 * program's variables to record at a breakpoint.  Nothing when there is
 * no mpicc.  0 or -1. */
static int con_dbg_mpi_incdirs(char ***v, size_t *n)
{
	char line[4096], *w, *save = NULL;
	FILE *f = popen("mpicc --showme:incdirs 2>/dev/null", "r");
	int rc = 0;

	if (f == NULL)
		return 0;
	if (fgets(line, sizeof line, f) != NULL)
		for (w = strtok_r(line, " \t\n", &save); w != NULL && rc == 0;
		     w = strtok_r(NULL, " \t\n", &save))
			if ((rc = con_strv_add(v, n, "-isystem")) == 0)
				rc = con_strv_add(v, n, "%s", w);
	pclose(f);
	return rc;
}

/* True if compiler flag f changes how C is read, so that the instrumenter
 * parses with it as gcc compiles with it: the preprocessor's (-D -U -I
 * -i... -pthread -fopenmp -O -fPIC: macros), the dialect's (-std= -ansi
 * -trigraphs, the -f options of con_dbg_lang_f: builtins, inline
 * semantics, char signedness, extensions), the target's (-m32 -m64
 * -mx32: sizes) and the warnings' (-w, -Wno-...: what gcc only warns
 * about is not refused).  -Werror and -pedantic-errors are not given:
 * the warnings of libclang are not gcc's, and the node's gcc applies
 * them itself; other -f, -m and -W options are code generation's or
 * gcc's own (libclang would refuse one it does not know). */
static int con_dbg_parse_flag(const char *f)
{
	static const char *const lang_f[] = {
		"builtin", "no-builtin", "gnu89-inline", "no-gnu89-inline",
		"signed-char", "no-signed-char", "unsigned-char",
		"no-unsigned-char", "signed-bitfields", "unsigned-bitfields",
		"short-enums", "no-short-enums", "short-wchar",
		"no-short-wchar", "ms-extensions", "no-ms-extensions", "asm",
		"no-asm", "gnu-keywords", "no-gnu-keywords",
		"dollars-in-identifiers", "no-dollars-in-identifiers",
		"pack-struct", "openmp", "pic", "PIC", "pie", "PIE",
		"extended-identifiers", NULL};
	size_t i, n;

	if (strncmp(f, "-D", 2) == 0 || strncmp(f, "-U", 2) == 0 ||
	    strncmp(f, "-I", 2) == 0 || strncmp(f, "-i", 2) == 0 ||
	    strncmp(f, "-std=", 5) == 0 || strncmp(f, "-O", 2) == 0 ||
	    strncmp(f, "-Wno-", 5) == 0)
		return 1;
	if (strcmp(f, "-ansi") == 0 || strcmp(f, "-trigraphs") == 0 ||
	    strcmp(f, "-pthread") == 0 || strcmp(f, "-w") == 0 ||
	    strcmp(f, "-m32") == 0 || strcmp(f, "-m64") == 0 ||
	    strcmp(f, "-mx32") == 0)
		return 1;
	if (strncmp(f, "-f", 2) != 0)
		return 0;
	for (i = 0; lang_f[i] != NULL; i++) {
		n = strlen(lang_f[i]);
		/* the name alone, or a builtin's name / a value after it */
		if (strncmp(f + 2, lang_f[i], n) == 0 &&
		    (f[2 + n] == '\0' || f[2 + n] == '=' ||
		     (f[2 + n] == '-' && strstr(lang_f[i], "builtin"))))
			return 1;
	}
	return 0;
}

/* The options the instrumenter parses with: the loaded ones that the
 * preprocessor sees (con_dbg_parse_flag), and for an
 * MPI program the MPI include directories of this host (parse only: the
 * nodes' daemons know their own).  Caller frees (con_strv_free); NULL when
 * out of memory. */
static char **con_dbg_parse_cflags(size_t *n)
{
	char **v = calloc(1, sizeof *v);
	size_t i;

	*n = 0;
	for (i = 0; v != NULL && i < con_dbg.ncflags; i++)
		if (con_dbg_parse_flag(con_dbg.cflags[i]) &&
		    con_strv_add(&v, n, "%s", con_dbg.cflags[i]) < 0)
			goto out_free;
	if (v != NULL && con_dbg.mode == CON_DBG_MPI &&
	    con_dbg_mpi_incdirs(&v, n) < 0)
		goto out_free;
	return v;
out_free:
	con_strv_free(v, *n);
	return NULL;
}

/* Runs the instrumenter on what was loaded, with the breakpoints. */
int con_dbg_instrument(char **notes, char *err, size_t errlen)
{
	con_inst_opts o;
	con_inst_result res;
	char build_id[64], **parse;
	size_t nspecs = 0, nparse = 0;
	int rc;

	*notes = NULL;
	if (con_dbg.nsources == 0) {
		snprintf(err, errlen, "nothing loaded: use load FILE... first");
		return WIRE_ESTATE;
	}
	memset(&o, 0, sizeof o);
	memset(&res, 0, sizeof res);
	o.bps = con_dbg_specs(&nspecs);
	if (o.bps == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	snprintf(build_id, sizeof build_id, "paravt-build-%u",
		 con_dbg.build_no + 1);
	o.sources = (const char *const *)con_dbg.sources;
	o.nsources = con_dbg.nsources;
	parse = con_dbg_parse_cflags(&nparse);
	if (parse == NULL) {
		free((void *)o.bps);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	o.cflags = (const char *const *)parse;
	o.ncflags = nparse;
	o.nbps = nspecs;
	o.next_bp_id = con_dbg.bps.next_id;
	o.build_id = build_id;
	o.no_probes = con_dbg.no_probes;
	rc = con_inst_run(&o, &res, err, errlen);
	free((void *)o.bps);
	con_strv_free(parse, nparse);
	if (rc < 0)
		return WIRE_EARG;
	if (con_dbg.have_inst)
		con_inst_result_free(&con_dbg.inst);
	con_dbg.inst = res;
	con_dbg.have_inst = 1;
	con_dbg.build_no++;
	con_dbg_program_name();
	if (con_dbg_find_programs() < 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	if (res.notes != NULL)
		*notes = strdup(res.notes);
	con_dbg_move_notes(&res, notes);
	rc = con_dbg_land(&res);
	if (rc < 0)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* ---- options for the nodes -------------------------------------------- */

/* The compiler flags node n gets (caller frees, con_strv_free; NULL when
 * out of memory): the load's flags and those for n's port, with relative
 * -I directories made relative to the shipping root
 * (con_inst_rel_cflag), then -DPARAVT_PVM=1 or -DPARAVT_MPI=1. */
static char **con_dbg_node_cflags(const con_node *n, size_t *nv)
{
	size_t nf, i;
	char **f = con_dbg_port_flags(n->hello.port, 0, &nf), **v, *r;

	v = calloc(1, sizeof *v);
	*nv = 0;
	for (i = 0; f != NULL && v != NULL && i < nf; i++) {
		r = con_inst_rel_cflag(&con_dbg.inst, f[i]);
		if (r == NULL || con_strv_add(&v, nv, "%s", r) < 0) {
			free(r);
			goto out_free;
		}
		free(r);
	}
	if (f == NULL || v == NULL)
		goto out_free;
	con_strv_free(f, nf);
	if (con_dbg.mode != CON_DBG_PLAIN &&
	    con_strv_add(&v, nv, "%s", con_dbg.mode == CON_DBG_PVM ?
			 "-DPARAVT_PVM=1" : "-DPARAVT_MPI=1") < 0) {
		con_strv_free(v, *nv);
		return NULL;
	}
	return v;
out_free:
	con_strv_free(f, nf);
	con_strv_free(v, *nv);
	return NULL;
}

/* ---- shipping --------------------------------------------------------- */

/* Frees the per-node records of the previous build. */
static void con_dbg_builds_clear(void)
{
	con_nodebuild *b, *next;

	for (b = con_dbg.builds; b != NULL; b = next) {
		next = b->next;
		free(b->diag);
		free(b);
	}
	con_dbg.builds = NULL;
}

/* The sources of program prog (names borrowed from the result) into
 * srcs; returns how many.  A program takes its own main source and every
 * source without main. */
static size_t con_dbg_prog_srcs(int prog, const char **srcs)
{
	const con_inst_result *r = &con_dbg.inst;
	size_t i, k = 0, own = con_dbg.prog_main[prog];

	for (i = 0; i < r->nfiles; i++) {
		if (!r->files[i].is_source)
			continue;
		if (own == (size_t)-1 || i == own ||
		    !con_dbg_has_main(&r->files[i]))
			srcs[k++] = r->files[i].name;
	}
	return k;
}

/* Sends BUILD of b's program to n; b->seq_hi is its seq.  0 or a code. */
static int con_dbg_send_build(con_node *n, con_nodebuild *b, char *err,
			      size_t errlen)
{
	const char **srcs = calloc(con_dbg.inst.nfiles + 1, sizeof *srcs);
	size_t k, ncf = 0, nlf = 0;
	char **cf = con_dbg_node_cflags(n, &ncf);
	char **lf = con_dbg_port_flags(n->hello.port, 1, &nlf);
	int rc;

	if (srcs == NULL || cf == NULL || lf == NULL) {
		free(srcs);
		con_strv_free(cf, ncf);
		con_strv_free(lf, nlf);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	k = con_dbg_prog_srcs(b->prog, srcs);
	b->sent = 1;
	b->seq_hi = wire_peer_seq(&n->peer);
	if (!b->seq_lo)
		b->seq_lo = b->seq_hi;
	rc = wire_pack(wire_peer_out(&n->peer), WIRE_BUILD, b->seq_hi,
		       n->peer.max_frame, (uint64_t)b->build, b->program, srcs,
		       (uint32_t)k, (const char *const *)cf, (uint32_t)ncf,
		       (const char *const *)lf, (uint32_t)nlf);
	free(srcs);
	con_strv_free(cf, ncf);
	con_strv_free(lf, nlf);
	return con_dbg_flush(n, rc, err, errlen);
}

/* Sends every file, then BUILD of b's program, to n.  0 or a code. */
static int con_dbg_ship(con_node *n, con_nodebuild *b, char *err,
			size_t errlen)
{
	const con_inst_result *r = &con_dbg.inst;
	size_t i;
	int rc = 0;

	b->seq_lo = wire_peer_seq(&n->peer);
	for (i = 0; i < r->nfiles && rc == 0; i++) {
		rc = wire_pack(wire_peer_out(&n->peer), WIRE_FILE_PUT,
			       i == 0 ? b->seq_lo : wire_peer_seq(&n->peer),
			       n->peer.max_frame, (uint64_t)b->build,
			       r->files[i].name, (uint64_t)CON_DBG_FILE_MODE,
			       (const void *)r->files[i].data, r->files[i].len);
		rc = con_dbg_flush(n, rc, err, errlen);
	}
	return rc < 0 ? rc : con_dbg_send_build(n, b, err, errlen);
}

/* Adds a record for program prog on node to the build list (at the
 * end). */
static con_nodebuild *con_dbg_build_add(const char *node, int prog)
{
	con_nodebuild *b = calloc(1, sizeof *b), **pp = &con_dbg.builds;

	if (b == NULL)
		return NULL;
	snprintf(b->node, sizeof b->node, "%s", node);
	snprintf(b->program, sizeof b->program, "%s", con_dbg.programs[prog]);
	b->prog = prog;
	b->build = con_dbg.build_no;
	b->state = CON_NB_PENDING;
	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = b;
	return b;
}

/* Sends the next BUILD of node's programs that is not sent yet; a node
 * that cannot take it fails that program.  Called when the node's
 * previous BUILD was answered. */
static void con_dbg_build_next(con_node *n)
{
	con_nodebuild *b;
	char err[WIRE_TEXT_MAX];

	for (b = con_dbg.builds; b != NULL; b = b->next)
		if (!b->sent && strcmp(b->node, n->spec.name) == 0)
			break;
	if (b == NULL)
		return;
	if (con_dbg_send_build(n, b, err, sizeof err) < 0) {
		b->state = CON_NB_FAILED;
		free(b->diag);
		b->diag = strdup(err);
	}
}

/* Checks the named nodes exist and are up (nnodes 0: that one is). */
int con_dbg_build_check(char **nodes, int nnodes, char *err,
			       size_t errlen)
{
	con_node *n;
	int i, up = 0;

	for (i = 0; i < nnodes; i++)
		if (con_dbg_node_up(nodes[i]) == NULL) {
			snprintf(err, errlen, "node %s is %s", nodes[i],
				 con_node_find(nodes[i]) ? "down" :
				 "unknown (see 'node list')");
			return WIRE_EARG;
		}
	for (n = con_node_first(); n != NULL; n = n->next)
		up += n->up;
	if (up == 0) {
		snprintf(err, errlen, "no node is up: add one with 'node add'");
		return WIRE_ESTATE;
	}
	return 0;
}

/* The first record of node in the build list (there is one). */
static con_nodebuild *con_dbg_build_find_first(const char *node)
{
	con_nodebuild *b;

	for (b = con_dbg.builds; b != NULL; b = b->next)
		if (strcmp(b->node, node) == 0)
			break;
	return b;
}

/* Fails every record of node with the sentence why. */
static void con_dbg_build_fail_node(const char *node, const char *why)
{
	con_nodebuild *b;

	for (b = con_dbg.builds; b != NULL; b = b->next)
		if (strcmp(b->node, node) == 0) {
			b->sent = 1;
			b->state = CON_NB_FAILED;
			free(b->diag);
			b->diag = strdup(why);
		}
}

/* Ships the instrumented program to the chosen nodes. */
int con_dbg_build_send(char **nodes, int nnodes, char *err, size_t errlen)
{
	con_nodebuild *b;
	con_node *n;
	int rc, i;

	rc = con_dbg_build_check(nodes, nnodes, err, errlen);
	if (rc < 0)
		return rc;
	con_dbg_builds_clear();
	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!n->up || !con_dbg_named_node(nodes, nnodes, n->spec.name))
			continue;
		for (i = 0; i < (int)con_dbg.nprograms; i++)
			if (con_dbg_build_add(n->spec.name, i) == NULL) {
				snprintf(err, errlen, "out of memory");
				return WIRE_ENOMEM;
			}
		b = con_dbg_build_find_first(n->spec.name);
		if (con_dbg_ship(n, b, err, errlen) < 0)
			con_dbg_build_fail_node(n->spec.name, err);
	}
	return 0;
}

/* Every node answered. */
int con_dbg_build_done(void *ctx)
{
	con_nodebuild *b;

	for (b = con_dbg.builds; b != NULL; b = b->next)
		if (b->state == CON_NB_PENDING)
			return 0;
	return 1;
}

/* First node record of the last build. */
con_nodebuild *con_dbg_build_first(void)
{
	return con_dbg.builds;
}

/* ---- answers ---------------------------------------------------------- */

/* The record of node n for build number build waiting for its answer:
 * the one of program if there is one, else the first sent and pending,
 * or NULL. */
static con_nodebuild *con_dbg_build_find(const con_node *n, uint64_t build,
					 const char *program)
{
	con_nodebuild *b, *any = NULL;

	for (b = con_dbg.builds; b != NULL; b = b->next) {
		if (b->build != build || strcmp(b->node, n->spec.name) != 0 ||
		    !b->sent || b->state != CON_NB_PENDING)
			continue;
		if (strcmp(b->program, program) == 0)
			return b;
		if (any == NULL)
			any = b;
	}
	return any;
}

/* BUILD_RESULT: ok or diagnostics. */
int con_dbg_on_build_result(con_node *n, const wire_msg *m)
{
	char program[WIRE_TEXT_MAX], why[160];
	const char *diag;
	con_nodebuild *b;
	uint64_t build;
	size_t len;
	int ok;

	if (wire_unpack(m, why, sizeof why, &build, &ok, program,
			sizeof program, &diag, &len) != 0)
		return 1;
	b = con_dbg_build_find(n, build, program);
	if (b == NULL)
		return 1;
	b->state = ok ? CON_NB_OK : CON_NB_FAILED;
	if (program[0] != '\0')
		snprintf(b->program, sizeof b->program, "%s", program);
	free(b->diag);
	b->diag = strndup(diag, len);
	con_dbg_build_next(n);
	return 1;
}

/* An ERROR answering one of our FILE_PUT or BUILD frames fails the
 * node's build with the daemon's sentence. */
int con_dbg_build_error(con_node *n, uint32_t ref_seq, const char *text)
{
	con_nodebuild *b;

	for (b = con_dbg.builds; b != NULL; b = b->next) {
		if (b->state != CON_NB_PENDING ||
		    strcmp(b->node, n->spec.name) != 0 ||
		    ref_seq < b->seq_lo || ref_seq > b->seq_hi)
			continue;
		b->state = CON_NB_FAILED;
		free(b->diag);
		b->diag = strdup(text);
		con_dbg_build_next(n);
		return 1;
	}
	return 0;
}

/* Fails the pending builds of nodes that went down. */
void con_dbg_build_reap(void)
{
	con_nodebuild *b;

	for (b = con_dbg.builds; b != NULL; b = b->next)
		if (b->state == CON_NB_PENDING &&
		    con_dbg_node_up(b->node) == NULL) {
			b->state = CON_NB_FAILED;
			free(b->diag);
			b->diag = strdup("the node went down");
		}
}
