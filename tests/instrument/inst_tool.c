/*
 * inst_tool.c — command-line driver of the instrumenter for the shell
 * tests (tests/integration/25-instrument-*.sh):
 *
 *   inst_tool -o DIR [-P] [-b FILE:LINE | -t FILE:LINE | -f FUNC]...
 *             SRC... [-- CFLAG...]
 *
 * -P: no line probes (con_inst_opts.no_probes).
 *
 * Writes every shipped file under DIR (relative names), prints the notes,
 * then one line per landed breakpoint:
 *   bp ID FILE:LINE (asked LINE) in FUNC [temp] [pragma]: NAME:TYPE ...
 * Exit status 0, or 1 with the instrumenter's error on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "con_inst.h"

#define MAXN 64

/* Creates the directories of path under dir (mkdir -p of its parent). */
static void make_parents(char *path)
{
	char *s;

	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
}

/* Writes the result's files under dir.  0 or -1. */
static int write_all(const con_inst_result *r, const char *dir)
{
	char p[4096];
	size_t i;

	for (i = 0; i < r->nfiles; i++) {
		FILE *f;

		snprintf(p, sizeof p, "%s/%s", dir, r->files[i].name);
		make_parents(p);
		if (!(f = fopen(p, "w")) ||
		    fwrite(r->files[i].data, 1, r->files[i].len, f) !=
			r->files[i].len ||
		    fclose(f)) {
			fprintf(stderr, "inst_tool: %s: %s\n", p, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Prints the notes and the landed breakpoints. */
static void print_result(const con_inst_result *r)
{
	size_t i, j;

	if (r->notes)
		fputs(r->notes, stdout);
	for (i = 0; i < r->nbps; i++) {
		const con_inst_bp *b = &r->bps[i];

		printf("bp %d %s:%d (asked %d) in %s%s%s:", b->id, b->file,
		       b->line, b->req_line, b->func, b->temp ? " temp" : "",
		       b->from_pragma ? " pragma" : "");
		for (j = 0; j < b->nvars; j++)
			printf(" %s:%s", b->vars[j].name, b->vars[j].type);
		printf("\n");
	}
}

/* Parses a FILE:LINE argument into s.  0 or -1. */
static int parse_loc(char *arg, con_bp_spec *s)
{
	char *c = strrchr(arg, ':');

	if (!c)
		return -1;
	*c = 0;
	s->file = arg;
	s->line = atoi(c + 1);
	return s->line > 0 ? 0 : -1;
}

/* Parses the command line, runs, writes. */
int main(int argc, char **argv)
{
	con_bp_spec bps[MAXN];
	const char *srcs[MAXN], *cflags[MAXN], *dir = NULL;
	size_t nb = 0, ns = 0, nc = 0;
	int no_probes = 0;
	con_inst_opts o;
	con_inst_result r;
	char err[1024];
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		con_bp_spec s = {(int)nb + 1, NULL, 0, NULL, 0};

		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			dir = argv[++i];
			continue;
		}
		if (!strcmp(argv[i], "-P")) {
			no_probes = 1;
			continue;
		}
		if ((!strcmp(argv[i], "-b") || !strcmp(argv[i], "-t")) &&
		    i + 1 < argc && nb < MAXN) {
			s.temp = argv[i][1] == 't';
			if (parse_loc(argv[++i], &s) < 0)
				goto usage;
			bps[nb++] = s;
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc && nb < MAXN) {
			s.func = argv[++i];
			bps[nb++] = s;
		} else if (argv[i][0] != '-' && ns < MAXN) {
			srcs[ns++] = argv[i];
		} else {
			goto usage;
		}
	}
	for (i++; i < argc && nc < MAXN; i++)
		cflags[nc++] = argv[i];
	if (!dir || !ns)
		goto usage;
	memset(&o, 0, sizeof o);
	o.sources = srcs;
	o.nsources = ns;
	o.cflags = cflags;
	o.ncflags = nc;
	o.bps = bps;
	o.nbps = nb;
	o.next_bp_id = (int)nb + 1;
	o.build_id = "inst_tool";
	o.no_probes = no_probes;
	if (con_inst_run(&o, &r, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	print_result(&r);
	i = write_all(&r, dir) < 0;
	con_inst_result_free(&r);
	return i;
usage:
	fprintf(stderr, "usage: inst_tool -o DIR [-P] [-b FILE:LINE | -t "
		"FILE:LINE | -f FUNC]... SRC... [-- CFLAG...]\n");
	return 2;
}
