/*
 * con_batch.c — `paravt trace`: unattended capture of one run into a trace
 * file (con_sub.h).
 *
 *   paravt trace -o OUT [--nodes FILE] [--node NAME=ADDR]... [-x SCRIPT]
 *                [--break SPEC]... [--timeout SECS] [--hang SECS]
 *                [--no-progress] [--stdin FILE] [--exec PATH]
 *                [--pvm|--mpi|--plain] [LOAD-FLAG...] SOURCES...
 *                -- run pvm MASTER ARGS...
 *
 * The subcommand adds no logic of its own to the debugger: it turns its
 * options into the console commands a user would type (node add, load,
 * break ... record, build, then the COMMAND after --, then continue while
 * something stops at a #pragma breakpoint) and runs them through
 * con_cmd_exec, with the trace file (con_tfile.h) open from just before
 * the run to the end.  What it adds is what an unattended run needs: one
 * watcher (con_dbg_watch) that draws a progress line on a terminal and
 * ends the run's wait at the time limit; the end of the run (kill what is
 * left, wait for the last events, close the trace with how it ended); and
 * an exit status that says how program and capture ended (see the table
 * in con_batch_help and paravt(1)).
 *
 * The progress line lives on the last line of the terminal.  So that
 * program output and messages do not run into it, stderr and (when it
 * is a terminal too) stdout are replaced, for the run, by streams that
 * first erase the line; the next refresh draws it again.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "con_node.h"
#include "con_script.h"
#include "con_sub.h"
#include "con_tfile.h"
#include "wire.h"

/* Exit statuses (paravt(1), EXIT STATUS of paravt trace). */
enum con_batch_status {
	CON_BATCH_OK = 0,       /* every process exited 0; trace complete */
	CON_BATCH_FAILED = 1,   /* a process exited non-zero or crashed */
	CON_BATCH_USAGE = 2,    /* usage, set-up or trace-writing error */
	CON_BATCH_TIMEOUT = 3,  /* time limit: processes killed, trace kept */
	CON_BATCH_HANG = 4,     /* a watcher (hang watchdog) ended the run */
	CON_BATCH_INTR = 5      /* SIGINT/SIGTERM: processes killed, kept */
};

#define CON_BATCH_FOREVER "86400"  /* run's own wait: the longest */
#define CON_BATCH_DRAW_NS 500000000ull   /* progress refresh, ns */
#define CON_BATCH_QUIET_NS 300000000ull  /* last events are in after this */
#define CON_BATCH_QUIET_SECS 3.0         /* longest wait for them */
#define CON_BATCH_KEEP 65536u            /* events kept in memory (the
					    file has them all) */
#define CON_BATCH_CONTINUES 10000        /* #pragma stops continued */
#define CON_BATCH_DEFAULT_NODE "local 127.0.0.1:7420"

#define CON_BATCH_USAGE_TEXT \
	"usage: paravt trace -o FILE [--nodes FILE] [--node NAME=ADDR]...\n" \
	"                    [--token-file FILE] [-x SCRIPT] [--break SPEC]...\n" \
	"                    [--timeout SECS] [--hang SECS] [--no-progress]\n" \
	"                    [--output-cap BYTES]\n" \
	"                    [--stdin FILE] [--exec PATH] [--pvm | --mpi | --plain]\n" \
	"                    [LOAD-FLAG...] [SOURCES...] -- COMMAND...\n" \
	"       paravt trace -o FILE --attach[=SESSION] [--nodes FILE]\n" \
	"                    [--node NAME=ADDR]... [--token-file FILE]\n" \
	"                    [--timeout SECS] [--hang SECS] [--no-progress]\n"

/* What the command line asked for (strings borrowed from argv). */
typedef struct con_batch_opts {
	const char *out;          /* -o: the trace file */
	const char *nodes_file;   /* --nodes FILE, or NULL */
	const char *token;        /* --token-file, or NULL */
	const char *script;       /* -x SCRIPT, or NULL */
	char **nodes;             /* --node NAME=ADDR, in order */
	int nnodes;               /* entries in nodes */
	char **breaks;            /* --break SPEC, in order */
	int nbreaks;              /* entries in breaks */
	char **load;              /* load's words: options and sources */
	int nload;                /* entries in load */
	int nsources;             /* of them, sources */
	char **cmd;               /* COMMAND after -- */
	int ncmd;                 /* entries in cmd */
	const char *in_file;      /* --stdin FILE, or NULL */
	const char *exec;         /* --exec PATH, or NULL */
	double limit;             /* --timeout SECS, 0: none */
	int no_progress;          /* --no-progress */
	const char *attach;       /* --attach[=N]: that word, or NULL */
} con_batch_opts;

/* The state of one capture (one per process). */
static struct {
	uint64_t t0;                   /* start of the run, wire_now_ns */
	double limit;                  /* time limit, s (0: none) */
	int timed_out;                 /* the limit fired */
	int progress;                  /* draw the progress line */
	int drawn;                     /* it is on the terminal now */
	uint64_t last_draw;            /* when it was drawn */
	FILE *out, *err;               /* the real stdout and stderr while
					  wrapped, else NULL */
	volatile sig_atomic_t intr;    /* Ctrl-C flag the waits clear */
	volatile sig_atomic_t signal;  /* a SIGINT/SIGTERM came */
	volatile sig_atomic_t timed_alarm; /* SIGALRM: the time limit */
	int out_pipe;                  /* stdout is no terminal (may be a
					  pipe nobody reads) */
	volatile sig_atomic_t out_nb;  /* we made stdout non-blocking */
	int out_flags;                 /* its flags before */
	char why[512];                 /* why a watcher ended the run */
} con_batch;

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

static int con_batch_break_split(const char *spec, char *loc, char *list);

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
static int con_batch_parse(int argc, char **argv, con_batch_opts *o)
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
static void con_batch_opts_free(con_batch_opts *o)
{
	free(o->nodes);
	free(o->breaks);
	free(o->load);
}

/* ---- command lines ------------------------------------------------------ */

/* Appends word w to buf (used bytes *used), quoted for con_cmd_split:
 * 'w' with each ' written '\''.  0 or -1 when it does not fit. */
static int con_batch_quote(char *buf, size_t n, size_t *used, const char *w)
{
	size_t u = *used;

	if (u + 3 >= n)
		return -1;
	if (u > 0)
		buf[u++] = ' ';
	buf[u++] = '\'';
	for (; *w != '\0'; w++) {
		if (u + 6 >= n)
			return -1;
		if (*w == '\'') {
			memcpy(buf + u, "'\\''", 4);
			u += 4;
		} else {
			buf[u++] = *w;
		}
	}
	buf[u++] = '\'';
	buf[u] = '\0';
	*used = u;
	return 0;
}

/* Runs the console command made of the plain words head (may be "",
 * written as is), the quoted words w[0..nw) and, with in_file, the
 * redirection "< 'IN_FILE'".  where prefixes errors.  0, or -1
 * (reported). */
static int con_batch_exec_in(const char *head, char **w, int nw,
			     const char *in_file, const char *where)
{
	char line[CON_CMD_LINE];
	size_t used;
	int i;

	used = (size_t)snprintf(line, sizeof line, "%s", head);
	for (i = 0; i < nw && used < sizeof line; i++)
		if (con_batch_quote(line, sizeof line, &used, w[i]) < 0)
			break;
	if (in_file != NULL && i == nw && used + 2 < sizeof line) {
		used += (size_t)snprintf(line + used, sizeof line - used,
					 " <");
		if (con_batch_quote(line, sizeof line, &used, in_file) < 0)
			used = sizeof line;
	}
	if (used >= sizeof line || i < nw) {
		con_cmd_error(where, "%s ...: command line too long", head);
		return -1;
	}
	return con_cmd_exec(line, where) < 0 ? -1 : 0;
}

/* con_batch_exec_in without a redirection. */
static int con_batch_exec(const char *head, char **w, int nw,
			  const char *where)
{
	return con_batch_exec_in(head, w, nw, NULL, where);
}

/* ---- set-up: nodes, script, load, breakpoints, build -------------------- */

/* Runs `node add LINE [ATTACH]` for each node line of path (blank lines
 * and # comments skipped).  0 or -1 (reported). */
static int con_batch_nodes_file(const char *path, const char *attach)
{
	char head[CON_CMD_LINE], where[512];
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, k;
	ssize_t len;
	int lineno = 0, rc = 0, n = 0;

	if (f == NULL) {
		fprintf(stderr, "paravt trace: cannot read the nodes file "
			"%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
				   line[len - 1] == '\r'))
			line[--len] = '\0';
		for (k = 0; line[k] == ' ' || line[k] == '\t'; k++)
			;
		if (line[k] == '\0' || line[k] == '#')
			continue;
		snprintf(where, sizeof where, "%s:%d", path, lineno);
		snprintf(head, sizeof head, "node add %s%s%s", line + k,
			 attach != NULL ? " " : "", attach ? attach : "");
		rc = con_cmd_exec(head, where) < 0 ? -1 : 0;
		n++;
	}
	if (rc == 0 && ferror(f)) {
		fprintf(stderr, "paravt trace: cannot read the nodes file "
			"%s: %s\n", path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc == 0 && n == 0) {
		fprintf(stderr, "paravt trace: the nodes file %s names no "
			"node\n", path);
		rc = -1;
	}
	return rc;
}

/* --node NAME=ADDR: node add NAME ADDR. */
static int con_batch_node(const char *spec, const char *attach)
{
	const char *eq = strchr(spec, '=');
	char name[CON_CMD_LINE];
	char *w[3];

	snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
	w[0] = name;
	w[1] = (char *)(eq + 1);
	w[2] = (char *)attach;
	return con_batch_exec("node add", w, attach != NULL ? 3 : 2, NULL);
}

/* Adds the nodes: --nodes, --node, or the default one. */
static int con_batch_add_nodes(const con_batch_opts *o)
{
	int i;

	char head[CON_CMD_LINE];

	if (o->nodes_file != NULL &&
	    con_batch_nodes_file(o->nodes_file, o->attach) < 0)
		return -1;
	for (i = 0; i < o->nnodes; i++)
		if (con_batch_node(o->nodes[i], o->attach) < 0)
			return -1;
	if (o->nodes_file == NULL && o->nnodes == 0 && o->script == NULL) {
		snprintf(head, sizeof head, "node add %s%s%s",
			 CON_BATCH_DEFAULT_NODE, o->attach ? " " : "",
			 o->attach ? o->attach : "");
		return con_cmd_exec(head, NULL) < 0 ? -1 : 0;
	}
	return 0;
}

/* Splits --break SPEC into its location and record list (buffers of
 * CON_CMD_LINE bytes): the location ends at the first blank or comma;
 * what follows is empty or "record" and the list.  0, or -1 when SPEC
 * is not of that form. */
static int con_batch_break_split(const char *spec, char *loc, char *list)
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

/* --break SPEC as `break LOCATION record [LIST]`.  0 or -1 (reported). */
static int con_batch_break(const char *spec)
{
	char loc[CON_CMD_LINE], list[CON_CMD_LINE];
	char *w[3] = {loc, "record", list};

	if (con_batch_break_split(spec, loc, list) < 0)
		return -1; /* checked by con_batch_check */
	return con_batch_exec("break", w, list[0] != '\0' ? 3 : 2, NULL);
}

/* Everything before the run.  0, or -1 (reported). */
static int con_batch_setup(const con_batch_opts *o)
{
	char err[CON_CMD_ERR];
	int i, quit = 0, failed;

	con_node_set_token_file(o->token);
	/* every event goes to the file; memory keeps the newest for the
	   hang watchdog's report (a script's `trace keep N` overrides):
	   a store that grew with the run cost the console a page fault
	   every 40 events */
	con_ev_set_max(CON_BATCH_KEEP);
	if (con_batch_add_nodes(o) < 0)
		return -1;
	if (o->script != NULL) {
		failed = con_script_run_file(o->script, 0, &quit, err,
					     sizeof err);
		if (failed < 0)
			fprintf(stderr, "paravt trace: %s\n", err);
		if (failed != 0 || quit)
			return -1;
	}
	if (o->nsources == 0)
		return 0;
	if (con_batch_exec("load", o->load, o->nload, NULL) < 0)
		return -1;
	for (i = 0; i < o->nbreaks; i++)
		if (con_batch_break(o->breaks[i]) < 0)
			return -1;
	return con_cmd_exec("build", NULL) < 0 ? -1 : 0;
}

/* ---- progress line and time limit --------------------------------------- */

/* Erases the progress line if it is drawn. */
static void con_batch_erase(void)
{
	if (!con_batch.drawn)
		return;
	con_batch.drawn = 0;
	if (write(STDERR_FILENO, "\r\033[K", 4) < 0)
		return;
}

/* Number of processes the console knows. */
static int con_batch_nprocs(void)
{
	con_proc *p;
	int n = 0;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		n++;
	return n;
}

/* Seconds since the run started. */
static double con_batch_elapsed(void)
{
	return con_batch.t0 == 0 ? 0 :
	       (double)(wire_now_ns() - con_batch.t0) / 1e9;
}

/* Draws "[paravt] N events  M procs  T s" over the last line. */
static void con_batch_draw(void)
{
	char line[160];
	int n;

	n = snprintf(line, sizeof line, "\r[paravt] %llu events  %d procs  "
		     "%.1f s\033[K", (unsigned long long)con_ev_next(),
		     con_batch_nprocs(), con_batch_elapsed());
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) == n)
		con_batch.drawn = 1;
}

static void con_batch_late_output(void);

/* The watcher: redraws the progress line about twice a second, flushes
 * the trace file, and ends the wait once when the time limit passes. */
static int con_batch_watch(void *ctx, char *why, size_t whylen)
{
	uint64_t now = wire_now_ns();

	(void)ctx;
	if (now - con_batch.last_draw >= CON_BATCH_DRAW_NS) {
		con_batch.last_draw = now;
		con_tfile_flush();
		if (con_batch.progress)
			con_batch_draw();
	}
	if (con_batch.limit > 0 && !con_batch.timed_out &&
	    con_batch.t0 != 0 && con_batch_elapsed() >= con_batch.limit) {
		con_batch.timed_out = 1;
		con_batch_late_output();
		snprintf(why, whylen, "time limit of %g s reached",
			 con_batch.limit);
		return 1;
	}
	return 0;
}

/* Write function of the wrapped stdout/stderr: erase the progress line,
 * then write to the file descriptor in cookie. */
static ssize_t con_batch_write(void *cookie, const char *buf, size_t n)
{
	int fd = (int)(intptr_t)cookie;
	size_t done = 0;
	ssize_t w;

	con_batch_erase();
	while (done < n) {
		w = write(fd, buf + done, n - done);
		if (w < 0 && errno == EINTR && !con_batch.timed_alarm)
			continue;
		if (w < 0)
			return done > 0 ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)n;
}

/* A stream on fd through con_batch_write, with buffering mode, or NULL. */
static FILE *con_batch_wrap(int fd, int mode)
{
	cookie_io_functions_t io = {NULL, con_batch_write, NULL, NULL};
	FILE *f = fopencookie((void *)(intptr_t)fd, "w", io);

	if (f != NULL)
		setvbuf(f, NULL, mode, BUFSIZ);
	return f;
}

/* Turns the progress line on when stderr is a terminal (and it was not
 * refused), with stdout and stderr wrapped. */
static void con_batch_progress_on(int no_progress)
{
	FILE *out, *err;

	if (no_progress || !isatty(STDERR_FILENO))
		return;
	fflush(stdout);
	fflush(stderr);
	out = isatty(STDOUT_FILENO) ? con_batch_wrap(STDOUT_FILENO, _IOLBF) :
	      NULL;
	err = con_batch_wrap(STDERR_FILENO, _IONBF);
	if (err == NULL || (isatty(STDOUT_FILENO) && out == NULL)) {
		if (out != NULL)
			fclose(out);
		if (err != NULL)
			fclose(err);
		return;
	}
	con_batch.out = out != NULL ? stdout : NULL;
	con_batch.err = stderr;
	if (out != NULL)
		stdout = out;
	stderr = err;
	con_batch.progress = 1;
}

/* Erases the line and puts the real streams back. */
static void con_batch_progress_off(void)
{
	if (!con_batch.progress)
		return;
	con_batch.progress = 0;
	if (con_batch.out != NULL) {
		fclose(stdout);
		stdout = con_batch.out;
	}
	fclose(stderr);
	stderr = con_batch.err;
	con_batch_erase();
}

/* ---- the run and its end ------------------------------------------------ */

/* SIGINT / SIGTERM: the waits end (they see intr); the run is ended as
 * interrupted. */
static void con_batch_on_signal(int sig)
{
	(void)sig;
	con_batch.intr = 1;
	con_batch.signal = 1;
}

/* Installs the signal handlers and the interrupt flag. */
static void con_batch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = con_batch_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	con_dbg_set_interrupt(&con_batch.intr);
}

/* True if some process is in state. */
static int con_batch_any(int state)
{
	con_proc *p;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->state == state)
			return 1;
	return 0;
}

/* The time limit passed: output that stdout does not take at once is
 * dropped from now on (counted), so that a reader that stopped reading
 * cannot hold the run, or its kill, past the limit: stdout (not a
 * terminal) becomes non-blocking until paravt trace ends.
 * Async-signal-safe. */
static void con_batch_late_output(void)
{
	int fl;

	con_cmd_dbg_past_limit();
	if (!con_batch.out_pipe || con_batch.out_nb)
		return;
	fl = fcntl(1, F_GETFL);
	if (fl < 0 || (fl & O_NONBLOCK))
		return;
	con_batch.out_flags = fl;
	if (fcntl(1, F_SETFL, fl | O_NONBLOCK) == 0)
		con_batch.out_nb = 1;
}

/* Puts stdout's flags back. */
static void con_batch_output_restore(void)
{
	if (con_batch.out_nb)
		(void)fcntl(1, F_SETFL, con_batch.out_flags);
	con_batch.out_nb = 0;
}

/* SIGALRM at the time limit: interrupts a write the console may be
 * blocked in (a reader that stopped reading its output) and has the
 * rest of the program's output printed only when stdout takes it
 * (con_cmd_dbg_past_limit), so the run still ends at its limit. */
static void con_batch_on_alarm(int sig)
{
	(void)sig;
	con_batch.timed_alarm = 1;
	con_batch_late_output();
}

/* Arms the one SIGALRM (no SA_RESTART: a blocked write returns) at
 * limit seconds from now, 0: none. */
static void con_batch_alarm(double limit)
{
	struct sigaction sa;
	struct itimerval it;

	if (limit <= 0)
		return;
	con_batch.out_pipe = !isatty(1);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = con_batch_on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = (time_t)limit;
	it.it_value.tv_usec = (suseconds_t)((limit - (double)(time_t)limit) *
					    1e6) + 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* Continues processes stopped at a #pragma breakpoint until the run
 * settles otherwise.  0, or -1 when a continue was refused. */
static int con_batch_continue_stops(void)
{
	int i;

	for (i = 0; i < CON_BATCH_CONTINUES && !con_batch.signal &&
	     con_cmd_dbg_last_settle() == 0 &&
	     con_batch_any(CON_PROC_STOPPED); i++)
		if (con_cmd_exec("continue all --timeout " CON_BATCH_FOREVER,
				 NULL) < 0)
			return -1;
	return 0;
}

/* Runs COMMAND with the run's wait made unlimited (the watcher holds the
 * time limit), then continues processes stopped at a #pragma
 * breakpoint until the run settles otherwise.  0, or -1 when the
 * command failed (reported). */
static int con_batch_run(const con_batch_opts *o)
{
	char head[CON_CMD_LINE];
	size_t used;
	int skip = 1;

	if (o->ncmd > 1 && (strcmp(o->cmd[1], "pvm") == 0 ||
			    strcmp(o->cmd[1], "mpi") == 0))
		skip = 2;
	used = (size_t)snprintf(head, sizeof head, "run%s%s --timeout "
				CON_BATCH_FOREVER, skip == 2 ? " " : "",
				skip == 2 ? o->cmd[1] : "");
	if (o->exec != NULL) { /* --exec 'PATH' among the run's options */
		used += (size_t)snprintf(head + used, sizeof head - used,
					 " --exec");
		if (con_batch_quote(head, sizeof head, &used, o->exec) < 0) {
			con_cmd_error(NULL, "--exec: path too long");
			return -1;
		}
	}
	con_batch.t0 = wire_now_ns();
	con_batch_alarm(o->limit);
	if (con_batch_exec_in(head, o->cmd + (o->ncmd ? skip : 0),
			      o->ncmd ? o->ncmd - skip : 0, o->in_file,
			      NULL) < 0)
		return -1;
	return con_batch_continue_stops();
}

/* Wait condition: no event batch for CON_BATCH_QUIET_NS. */
static int con_batch_quiet(void *ctx)
{
	(void)ctx;
	return wire_now_ns() - con_ev_last_arrival() > CON_BATCH_QUIET_NS;
}

/* con_dbg_wait's tick: prints what arrived. */
static void con_batch_tick(void *ctx)
{
	(void)ctx;
	con_cmd_dbg_events();
}

/* Kills what is left and waits for the last events. */
static void con_batch_kill(void)
{
	if (con_batch_any(CON_PROC_RUNNING) ||
	    con_batch_any(CON_PROC_STOPPED))
		con_cmd_exec("kill all", NULL);
	con_dbg_wait(con_batch_quiet, NULL, CON_BATCH_QUIET_SECS,
		     con_cmd_announce, con_batch_tick, NULL);
	con_cmd_dbg_events();
}

/* How the program ended, from its processes: CON_BATCH_OK, _FAILED, or
 * _USAGE when none started.  *code: the first failure's exit status
 * (128 + signal for a crash), else 0; con_batch.why says which process
 * failed and how. */
static int con_batch_outcome(int64_t *code)
{
	char sig[32];
	con_proc *p;

	*code = 0;
	if (con_dbg_proc_first() == NULL)
		return CON_BATCH_USAGE;
	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		if (p->state == CON_PROC_CRASHED) {
			*code = 128 + (p->sig > 0 ? p->sig : 0);
			snprintf(con_batch.why, sizeof con_batch.why,
				 "p%d %s%.300s", p->id, p->sig > 0 ?
				 "killed by " : "", p->sig > 0 ?
				 con_dbg_signame(p->sig, sig, sizeof sig) :
				 p->where);
			return CON_BATCH_FAILED;
		}
		if (p->state == CON_PROC_EXITED && p->status != 0 &&
		    p->status != CON_STATUS_UNKNOWN) {
			*code = p->status;
			snprintf(con_batch.why, sizeof con_batch.why,
				 "p%d exited with status %lld", p->id,
				 (long long)p->status);
			return CON_BATCH_FAILED;
		}
	}
	return CON_BATCH_OK;
}

/* The status of a run that came back: the time limit, a watcher (hang),
 * a signal, or how the program ended; *how gets the words for the trace
 * file and the summary. */
static int con_batch_status(int64_t *code, const char **how)
{
	int settle = con_cmd_dbg_last_settle(), st;

	*code = 0;
	if (con_batch.signal) {
		*how = "interrupted";
		return CON_BATCH_INTR;
	}
	if (con_batch.timed_out || settle == WIRE_ETIMEOUT) {
		*how = "time limit";
		return CON_BATCH_TIMEOUT;
	}
	if (settle == CON_DBG_EWATCH) {
		snprintf(con_batch.why, sizeof con_batch.why, "%s",
			 con_dbg_watch_why());
		*how = "hang";
		return CON_BATCH_HANG;
	}
	st = con_batch_outcome(code);
	*how = st == CON_BATCH_OK ? "exited" : st == CON_BATCH_FAILED ?
	       "failed" : "no process";
	return st;
}

/* One line on stderr: where the trace is and how the run ended
 * (status st; a failure or hang is said in con_batch.why). */
static void con_batch_summary(const char *out, int st)
{
	static const char *const what[] = {
		"every process exited with status 0",
		"the program failed",
		"no process started",
		"time limit reached",
		"ended as hung",
		"interrupted"
	};
	int n = con_batch_nprocs();

	fprintf(stderr, "paravt trace: %s: %llu events, %d process%s, %.1f s;"
		" %s", out, (unsigned long long)con_ev_next(), n,
		n == 1 ? "" : "es", con_batch_elapsed(), what[st]);
	if (st == CON_BATCH_FAILED || st == CON_BATCH_HANG)
		fprintf(stderr, " (%s)", con_batch.why);
	if (st >= CON_BATCH_TIMEOUT)
		fprintf(stderr, ", processes killed");
	fprintf(stderr, "\n");
}

/* Opens the trace, runs, ends the run and closes the trace.  Returns the
 * exit status. */
static int con_batch_finish(const con_batch_opts *o, int rc);

static int con_batch_capture(const con_batch_opts *o, const char *command)
{
	char err[CON_CMD_ERR];

	if (con_tfile_open(o->out, command, 1, con_dbg_tfile_procs, err,
			   sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s: %s\n", o->out, err);
		return CON_BATCH_USAGE;
	}
	con_batch.limit = o->limit;
	return con_batch_finish(o, con_batch_run(o));
}

/* Ends a capture whose run returned rc: kills what is left after a time
 * limit, hang or failure, closes the trace file, prints the summary.
 * The exit status. */
static int con_batch_finish(const con_batch_opts *o, int rc)
{
	char err[CON_CMD_ERR];
	const char *how, *werr;
	int64_t code;
	int st;

	st = con_batch_status(&code, &how);
	if (rc < 0 && st != CON_BATCH_INTR) {
		st = CON_BATCH_USAGE;
		how = "not started";
	}
	if (st >= CON_BATCH_TIMEOUT || rc < 0)
		con_batch_kill();
	werr = con_tfile_take_error();
	if (werr != NULL)
		fprintf(stderr, "paravt trace: %s: %s\n", o->out, werr);
	/* the end record's status is this run's exit status (the program's
	   own statuses are in the exit records) */
	if (con_tfile_close(how, st, err, sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s: %s\n", o->out, err);
		werr = err;
	}
	con_batch_progress_off();
	con_batch_summary(o->out, st);
	return werr != NULL && st < CON_BATCH_USAGE ? CON_BATCH_USAGE : st;
}

/* --attach: when FILE exists (the killed run's trace), reads it and
 * enters its processes with their numbers, then goes on writing it after
 * its last whole record; else starts it.  0, or an exit status. */
static int con_batch_attach_file(const con_batch_opts *o,
				 const char *command)
{
	const con_tfile_meta *m;
	char note[300], err[CON_CMD_ERR];
	size_t i;

	if (access(o->out, F_OK) != 0)
		return con_tfile_open(o->out, command, 0, con_dbg_tfile_procs,
				      err, sizeof err) < 0
		       ? (fprintf(stderr, "paravt trace: %s\n", err),
			  CON_BATCH_USAGE) : 0;
	if (con_tfile_load(o->out, note, sizeof note, err, sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s\n", err);
		return CON_BATCH_USAGE;
	}
	m = con_tfile_loaded();
	if (m->ended) {
		fprintf(stderr, "paravt trace: %s is complete (its run ended: "
			"%s); --attach continues the trace of a run whose "
			"console was killed\n", o->out, m->end_how);
		return CON_BATCH_USAGE;
	}
	for (i = 0; i < m->nprocs; i++)
		if (m->procs[i].node[0] != '\0' &&
		    con_dbg_proc_seed(m->procs[i].node, m->procs[i].proc,
				      m->procs[i].pid_id,
				      m->procs[i].ended) < 0) {
			fprintf(stderr, "paravt trace: %s: process p%d twice\n",
				o->out, m->procs[i].pid_id);
			return CON_BATCH_USAGE;
		}
	if (con_tfile_open_append(o->out, m->cut_at, err, sizeof err) < 0) {
		fprintf(stderr, "paravt trace: %s\n", err);
		return CON_BATCH_USAGE;
	}
	printf("continuing %s after byte %llu (%zu process%s%s%s)\n", o->out,
	       (unsigned long long)m->cut_at, m->nprocs,
	       m->nprocs == 1 ? "" : "es", note[0] != '\0' ? "; " : "", note);
	return 0;
}

/* paravt trace --attach: takes the detached sessions back, traces their
 * processes until they end (or the limit), closes the file. */
static int con_batch_attach(const con_batch_opts *o, const char *command)
{
	char err[CON_CMD_ERR];
	int st;

	con_node_set_token_file(o->token);
	st = con_batch_attach_file(o, command);
	if (st != 0)
		return st;
	if (con_batch_add_nodes(o) < 0) {
		con_tfile_close("not attached", CON_BATCH_USAGE, err,
				sizeof err);
		return CON_BATCH_USAGE;
	}
	con_batch.limit = o->limit;
	con_batch.t0 = wire_now_ns();
	con_batch_alarm(o->limit);
	con_cmd_dbg_settle(atof(CON_BATCH_FOREVER));
	return con_batch_finish(o, con_batch_continue_stops());
}

/* The command line as one string (for the trace file's header). */
static char *con_batch_command(int argc, char **argv)
{
	char buf[CON_CMD_LINE];
	size_t used;
	int i;

	used = (size_t)snprintf(buf, sizeof buf, "paravt");
	for (i = 0; i < argc; i++)
		if (con_batch_quote(buf, sizeof buf, &used, argv[i]) < 0)
			break;
	return strdup(buf);
}

/* paravt trace ... (con_sub.h). */
int con_sub_trace(int argc, char **argv)
{
	con_batch_opts o;
	char *command;
	int st;

	st = con_batch_parse(argc, argv, &o);
	if (st != 0) {
		con_batch_opts_free(&o);
		return st < 0 ? CON_BATCH_OK : st;
	}
	command = con_batch_command(argc, argv);
	con_batch_signals();
	if (con_dbg_watch(con_batch_watch, NULL) < 0 || command == NULL) {
		fprintf(stderr, "paravt trace: out of memory\n");
		st = CON_BATCH_USAGE;
	} else if (o.attach != NULL) {
		con_batch_progress_on(o.no_progress);
		st = con_batch_attach(&o, command);
	} else if (con_batch_setup(&o) < 0) {
		st = con_batch.signal ? CON_BATCH_INTR : CON_BATCH_USAGE;
	} else {
		con_batch_progress_on(o.no_progress);
		st = con_batch_capture(&o, command);
	}
	con_batch_progress_off();
	con_batch_output_restore();
	con_cmd_dbg_limit_over();
	con_dbg_unwatch(con_batch_watch, NULL);
	free(command);
	con_batch_opts_free(&o);
	return st;
}
