/*
 * bench_inst.c — instrumentation speed: source lines per second.
 *
 *   bench_inst [LINES] [RUNS]
 *
 * Generates a C file of about LINES lines (default 10000) in a temporary
 * directory: a few structs, globals, and many functions with nested
 * blocks and loops; one file:line breakpoint every 25 lines and a
 * function breakpoint on every tenth function.  Runs the whole
 * instrumenter (libclang parse, walk, rewrite, type table) RUNS times
 * (default 5) and prints the best and mean rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con_inst.h"

#define FN_LINES 20 /* lines per generated function */

/* Writes the header part of the generated file; returns its lines. */
static int gen_head(FILE *f)
{
	fprintf(f, "#include <stdio.h>\n"
		   "struct node { int v; double w[4]; struct node *next; };\n"
		   "typedef struct node node_t;\n"
		   "union val { long l; float f; };\n"
		   "struct bits { unsigned a : 3; int b : 5; };\n"
		   "static node_t g_nodes[8];\n"
		   "static union val g_val;\n"
		   "struct bits g_bits;\n"
		   "int g_count;\n");
	return 9;
}

/* Writes function i (FN_LINES lines). */
static void gen_fn(FILE *f, int i)
{
	fprintf(f, "int fn%d(int a, node_t *p)\n"
		   "{\n"
		   "\tint s = a;\n"
		   "\tunion val u = g_val;\n"
		   "\tfor (int k = 0; k < a; k++) {\n"
		   "\t\tint t = k * 2;\n"
		   "\t\ts += t + g_nodes[k & 7].v;\n"
		   "\t}\n"
		   "\tif (p) {\n"
		   "\t\tstruct bits b = g_bits;\n"
		   "\t\ts += p->v + b.a;\n"
		   "\t\tp = p->next;\n"
		   "\t}\n"
		   "\twhile (s > 100)\n"
		   "\t\ts -= 7;\n"
		   "\tg_count++;\n"
		   "\tif (s < 0)\n"
		   "\t\treturn -1;\n"
		   "\treturn s + (int)u.l;\n"
		   "}\n",
		i);
}

/* Generates the file and the breakpoints; returns the line count. */
static int generate(const char *path, int lines, con_bp_spec **bps,
		    size_t *nbps)
{
	FILE *f = fopen(path, "w");
	int n, i, nfn;

	if (!f)
		return -1;
	n = gen_head(f);
	nfn = (lines - n) / FN_LINES;
	*bps = calloc((size_t)nfn * 2 + 1, sizeof **bps);
	*nbps = 0;
	for (i = 0; i < nfn; i++) {
		int base = n + i * FN_LINES;

		gen_fn(f, i);
		if (i % 10 == 0) {
			char *name = malloc(32);

			snprintf(name, 32, "fn%d", i);
			(*bps)[*nbps] = (con_bp_spec){(int)*nbps + 1, NULL, 0,
						      name, 0};
			(*nbps)++;
		}
		if ((i * FN_LINES) % 25 < FN_LINES) {
			(*bps)[*nbps] = (con_bp_spec){(int)*nbps + 1, path,
						      base + 11, NULL, 0};
			(*nbps)++;
		}
	}
	fprintf(f, "int main(void)\n{\n\treturn fn0(3, 0) > 0 ? 0 : 1;\n}\n");
	fclose(f);
	return n + nfn * FN_LINES + 4;
}

/* Generates, instruments RUNS times, prints the rates. */
int main(int argc, char **argv)
{
	int lines = argc > 1 ? atoi(argv[1]) : 10000;
	int runs = argc > 2 ? atoi(argv[2]) : 5, r, n;
	char dir[] = "/tmp/pvt-bench-inst-XXXXXX", path[256], err[512];
	const char *srcs[1];
	con_bp_spec *bps;
	size_t nbps, i;
	double best = 0, sum = 0;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/gen.c", dir);
	if ((n = generate(path, lines, &bps, &nbps)) < 0)
		return 1;
	srcs[0] = path;
	for (r = 0; r < runs; r++) {
		con_inst_opts o = {srcs, 1, NULL, 0, bps, nbps, (int)nbps + 1,
				   "bench", 0};
		con_inst_result res;
		double rate;

		if (con_inst_run(&o, &res, err, sizeof err) < 0) {
			fprintf(stderr, "bench_inst: %s\n", err);
			return 1;
		}
		rate = (double)res.lines / res.seconds;
		sum += rate;
		if (rate > best)
			best = rate;
		if (r == 0)
			printf("instrument: %zu lines, %zu breakpoints, %zu "
			       "bytes out\n", res.lines, res.nbps,
			       res.files[0].len);
		con_inst_result_free(&res);
	}
	printf("instrument: %.0f lines/s best, %.0f lines/s mean (%d runs)\n",
	       best, sum / runs, runs);
	for (i = 0; i < nbps; i++)
		free((char *)bps[i].func);
	free(bps);
	unlink(path);
	rmdir(dir);
	return 0;
}
