/*
 * con_batch_opts.c — the options of `paravt trace` (con_batch.c): the
 * usage and --help text with the exit statuses, the parsing of the
 * command line into a con_batch_opts, and the checks of what the
 * options need together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con_batch_int.h"
#include "con_cmd.h"

/* ---- usage -------------------------------------------------------------- */

/* Prints the usage, and with full the options and exit statuses. */
static void con_batch_help(FILE *f, int full)
{
	fputs(CON_BATCH_USAGE_TEXT, f);
	if (!full)
		return;
	fprintf(f, "\n"
		"Builds SOURCES on the nodes, runs COMMAND (a console run\n"
		"command: run pvm MASTER ARGS..., run mpi -np N ..., run -- ARGS)\n"
		"and writes every event into FILE, without a terminal.\n\n"
		"  -o FILE            the trace file (replaced if it exists)\n"
		"  --nodes FILE       nodes, one per line as `node add` takes them:\n"
		"                     NAME HOST:PORT [--token-file F] or NAME ssh://...\n"
		"  --node NAME=ADDR   one node (ADDR: HOST:PORT or an ssh:// URL);\n"
		"                     repeatable.  Without --node, --nodes and -x:\n"
		"                     the node \"local\" at 127.0.0.1:7420\n"
		"  --token-file FILE  token for nodes added without one\n"
		"  -x SCRIPT          console commands to run after adding the\n"
		"                     nodes (and instead of load/build when no\n"
		"                     SOURCES are given)\n"
		"  --break SPEC       a record breakpoint: SPEC is LOCATION or\n"
		"                     'LOCATION record VAR,...' (commas may stand\n"
		"                     for the blanks: worker.c:41,record,i,sum);\n"
		"                     each hit prints the values and goes on; no\n"
		"                     list records every local\n"
		"  --timeout SECS     time limit of the run: then the processes are\n"
		"                     killed and the trace is kept\n"
		"  --hang SECS        no-progress time of the hang watchdog\n"
		"                     (PARAVT_HANG_TIMEOUT; default 10, 0: off):\n"
		"                     a deadlock it finds ends the run\n"
		"  --output-cap BYTES what the console shows of one process's\n"
		"                     output (PARAVT_OUTPUT_CAP; default 1048576,\n"
		"                     0: no limit); the rest goes to a file whose\n"
		"                     path is printed, with a '... N bytes\n"
		"                     dropped' line at the process's end\n"
		"  --no-progress      no progress line (there is none anyway when\n"
		"                     stderr is not a terminal)\n"
		"  --stdin FILE       the run's first process (PVM master, MPI\n"
		"                     rank 0, a plain program) reads FILE; without\n"
		"                     it, standard input is at EOF\n"
		"  --exec PATH        run PATH, a program on the node, instead of\n"
		"                     building SOURCES (then none are needed; the\n"
		"                     COMMAND may be just `run`, `run pvm ARGS`,\n"
		"                     `run mpi -np N ARGS`)\n"
		"  --attach[=SESSION] take back, on every node, the session a\n"
		"                     killed console left (the one detached last,\n"
		"                     or SESSION), and trace its processes until\n"
		"                     they end; an existing FILE (the killed\n"
		"                     run's) is continued after its last whole\n"
		"                     record, with the same process numbers\n"
		"  --pvm, --mpi, --plain, -I, -D, -U, -l, -L, -O, -g, -std=,\n"
		"  --cflags[@PORT] 'FLAGS', --ldflags[@PORT] 'FLAGS' ...\n"
		"                     as for load (paravt(1))\n"
		"\nExit status:\n"
		"  0  every process exited with status 0; trace complete\n"
		"  1  a process exited non-zero or crashed; trace complete\n"
		"  2  usage or set-up error (nodes, load, build, run refused) or\n"
		"     the trace file could not be written\n"
		"  3  time limit reached: processes killed, trace kept\n"
		"  4  the run was ended as hung (hang watchdog): processes\n"
		"     killed, trace kept\n"
		"  5  interrupted (SIGINT, SIGTERM): processes killed, trace kept\n"
		"\nSee paravt(1).\n");
}

/* Reports a usage error.  Returns CON_BATCH_USAGE. */
static int con_batch_usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "paravt trace: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	con_batch_help(stderr, 0);
	return CON_BATCH_USAGE;
}

/* ---- options ------------------------------------------------------------ */

/* True if w is a load option (load itself checks it); *takes_value if
 * its value is the next word ("-I DIR", "--cflags 'FLAGS'"). */
static int con_batch_load_opt(const char *w, int *takes_value)
{
	static const char *const sep[] = {"-I", "-D", "-U", "-l", "-L",
					  "-isystem", "-iquote", "-idirafter",
					  "-include", NULL};
	int i;

	*takes_value = 0;
	if (strcmp(w, "--pvm") == 0 || strcmp(w, "--mpi") == 0 ||
	    strcmp(w, "--plain") == 0)
		return 1;
	if (strncmp(w, "--cflags", 8) == 0 || strncmp(w, "--ldflags", 9) == 0) {
		*takes_value = strchr(w, '=') == NULL;
		return 1;
	}
	if (w[0] != '-' || w[1] == '-' || strcmp(w, "-o") == 0 ||
	    strcmp(w, "-x") == 0 || strcmp(w, "-h") == 0)
		return 0;
	for (i = 0; sep[i] != NULL; i++)
		*takes_value |= strcmp(w, sep[i]) == 0;
	return 1;
}

/* Reads the value of option argv[*i] into *val.  0, or a usage error. */
static int con_batch_value(int argc, char **argv, int *i, const char **val)
{
	if (*i + 1 >= argc)
		return con_batch_usage_error("%s needs a value", argv[*i]);
	*val = argv[++*i];
	return 0;
}

/* Parses --timeout's SECS. */
static int con_batch_limit(const char *s, double *limit)
{
	char *end;

	*limit = strtod(s, &end);
	if (*end != '\0' || end == s || !(*limit > 0 && *limit <= 86400))
		return con_batch_usage_error("--timeout needs 0 < SECS <= "
					     "86400, not '%s'", s);
	return 0;
}

/* --hang SECS: the hang watchdog (cmd_hang.c) reads its time from
 * PARAVT_HANG_TIMEOUT whenever a run starts waiting. */
static int con_batch_hang(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (*end != '\0' || end == s || !(v >= 0 && v <= 86400))
		return con_batch_usage_error("--hang needs 0 <= SECS <= 86400, "
					     "not '%s'", s);
	setenv("PARAVT_HANG_TIMEOUT", s, 1);
	return 0;
}

/* --output-cap BYTES: what the console shows of a process's output
 * (con_out.h reads PARAVT_OUTPUT_CAP). */
static int con_batch_output_cap(const char *s)
{
	char *end;
	unsigned long long v;

	v = strtoull(s, &end, 10);
	if (*end != '\0' || end == s || *s < '0' || *s > '9' ||
	    v > (1ull << 40))
		return con_batch_usage_error("--output-cap needs a number of "
					     "bytes (0: no limit), not '%s'",
					     s);
	setenv("PARAVT_OUTPUT_CAP", s, 1);
	return 0;
}

/* Parses one option word at argv[*i] (not a source).  0, or a usage
 * error; 1 for --help (done). */
static int con_batch_opt(int argc, char **argv, int *i, con_batch_opts *o)
{
	const char *w = argv[*i], *v = NULL;
	int rc = 0, val;

	if (strcmp(w, "-h") == 0 || strcmp(w, "--help") == 0) {
		con_batch_help(stdout, 1);
		return 1;
	}
	if (strcmp(w, "--no-progress") == 0) {
		o->no_progress = 1;
		return 0;
	}
	if (strcmp(w, "--attach") == 0 || strncmp(w, "--attach=", 9) == 0) {
		o->attach = w;
		return 0;
	}
	if (con_batch_load_opt(w, &val)) {
		o->load[o->nload++] = argv[*i];
		if (val && (rc = con_batch_value(argc, argv, i, &v)) == 0)
			o->load[o->nload++] = argv[*i];
		return rc;
	}
	if (strcmp(w, "-o") != 0 && strcmp(w, "--nodes") != 0 &&
	    strcmp(w, "--node") != 0 && strcmp(w, "--token-file") != 0 &&
	    strcmp(w, "-x") != 0 && strcmp(w, "--break") != 0 &&
	    strcmp(w, "--timeout") != 0 && strcmp(w, "--hang") != 0 &&
	    strcmp(w, "--stdin") != 0 && strcmp(w, "--exec") != 0 &&
	    strcmp(w, "--output-cap") != 0)
		return con_batch_usage_error("unknown option '%s'", w);
	if ((rc = con_batch_value(argc, argv, i, &v)) != 0)
		return rc;
	if (strcmp(w, "-o") == 0)
		o->out = v;
	else if (strcmp(w, "--nodes") == 0)
		o->nodes_file = v;
	else if (strcmp(w, "--node") == 0)
		o->nodes[o->nnodes++] = argv[*i];
	else if (strcmp(w, "--token-file") == 0)
		o->token = v;
	else if (strcmp(w, "-x") == 0)
		o->script = v;
	else if (strcmp(w, "--break") == 0)
		o->breaks[o->nbreaks++] = argv[*i];
	else if (strcmp(w, "--hang") == 0)
		rc = con_batch_hang(v);
	else if (strcmp(w, "--output-cap") == 0)
		rc = con_batch_output_cap(v);
	else if (strcmp(w, "--stdin") == 0)
		o->in_file = v;
	else if (strcmp(w, "--exec") == 0)
		o->exec = v;
	else
		rc = con_batch_limit(v, &o->limit);
	return rc;
}

/* Checks what the options need together.  0 or a usage error. */
static int con_batch_check(const con_batch_opts *o)
{
	char loc[CON_CMD_LINE], list[CON_CMD_LINE];
	int i;

	if (o->out == NULL)
		return con_batch_usage_error("%s", "-o FILE is required");
	if (o->attach != NULL &&
	    (o->ncmd > 0 || o->nload > 0 || o->exec || o->script ||
	     o->nbreaks > 0 || o->in_file != NULL))
		return con_batch_usage_error("%s", "--attach traces what a "
					     "killed console left running: no "
					     "SOURCES, load flags, -x, --break, "
					     "--exec, --stdin or COMMAND");
	if (o->attach != NULL)
		return 0;
	if (o->ncmd == 0 && o->exec == NULL)
		return con_batch_usage_error("%s", "missing '-- COMMAND' (e.g. "
					     "-- run pvm MASTER ARGS)");
	if (o->ncmd > 0 && strcmp(o->cmd[0], "run") != 0)
		return con_batch_usage_error("the command after -- must be a "
					     "run command, not '%s'",
					     o->cmd[0]);
	if (o->nsources == 0 && o->script == NULL && o->exec == NULL)
		return con_batch_usage_error("%s", "no SOURCES (and no -x "
					     "SCRIPT that loads and builds, "
					     "no --exec PATH)");
	if (o->exec != NULL && o->nsources > 0)
		return con_batch_usage_error("%s", "--exec runs a program of "
					     "the node: no SOURCES with it");
	if (o->exec != NULL && o->exec[0] != '/')
		return con_batch_usage_error("--exec needs an absolute path "
					     "on the node, not '%s'", o->exec);
	if (o->in_file != NULL && access(o->in_file, R_OK) != 0)
		return con_batch_usage_error("--stdin: cannot read '%s'",
					     o->in_file);
	if (o->nsources == 0 && (o->nbreaks > 0 || o->nload > 0))
		return con_batch_usage_error("%s", "--break and load options "
					     "need SOURCES");
	for (i = 0; i < o->nbreaks; i++)
		if (con_batch_break_split(o->breaks[i], loc, list) < 0)
			return con_batch_usage_error("--break '%s': expected "
						     "LOCATION or 'LOCATION "
						     "record VAR,...'",
						     o->breaks[i]);
	for (i = 0; i < o->nnodes; i++)
		if (strchr(o->nodes[i], '=') == NULL ||
		    o->nodes[i][0] == '=')
			return con_batch_usage_error("--node needs NAME=ADDR, "
						     "not '%s'", o->nodes[i]);
	return 0;
}

/* Parses argv (argv[0] is "trace").  0 when o is ready, else the exit
 * status to return (-1 for a --help that succeeded). */
int con_batch_parse(int argc, char **argv, con_batch_opts *o)
{
	int i, rc;

	memset(o, 0, sizeof *o);
	o->nodes = calloc((size_t)argc + 1, sizeof *o->nodes);
	o->breaks = calloc((size_t)argc + 1, sizeof *o->breaks);
	o->load = calloc((size_t)argc + 1, sizeof *o->load);
	if (o->nodes == NULL || o->breaks == NULL || o->load == NULL) {
		fprintf(stderr, "paravt trace: out of memory\n");
		return CON_BATCH_USAGE;
	}
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (argv[i][0] != '-') {
			o->load[o->nload++] = argv[i];
			o->nsources++;
			continue;
		}
		rc = con_batch_opt(argc, argv, &i, o);
		if (rc != 0)
			return rc == 1 ? -1 : rc;
	}
	if (i < argc) {
		o->cmd = argv + i + 1;
		o->ncmd = argc - i - 1;
	}
	return con_batch_check(o);
}

/* Frees what con_batch_parse allocated. */
void con_batch_opts_free(con_batch_opts *o)
{
	free(o->nodes);
	free(o->breaks);
	free(o->load);
}

/* Splits --break SPEC into its location and record list (buffers of
 * CON_CMD_LINE bytes): the location ends at the first blank or comma;
 * what follows is empty or "record" and the list.  0, or -1 when SPEC
 * is not of that form. */
int con_batch_break_split(const char *spec, char *loc, char *list)
{
	size_t k = strcspn(spec, " \t,");
	const char *rest = spec + k;

	snprintf(loc, CON_CMD_LINE, "%.*s", (int)k, spec);
	rest += strspn(rest, " \t,");
	if (k == 0 || (*rest != '\0' &&
		       (strncmp(rest, "record", 6) != 0 ||
			(rest[6] != '\0' && !strchr(" \t,=", rest[6])))))
		return -1;
	rest += *rest != '\0' ? 6 : 0;
	rest += strspn(rest, " \t,=");
	snprintf(list, CON_CMD_LINE, "%s", rest);
	return 0;
}
