/*
 * main.c — paravt, the console: options, start-up and the choice
 * between the interactive REPL and batch mode.
 *
 * Start-up: parse the options; ignore SIGPIPE (a node that vanishes must
 * not kill the console); run ~/.paravtrc unless -n; then either the -x and
 * -e actions in command-line order, or the REPL when stdin is a terminal,
 * or commands read from stdin.  At the end every node gets a BYE.
 *
 * Exit status: 0 when every command succeeded, 1 if any failed (or a
 * script could not be opened), 2 for a usage error.  The interactive
 * console exits 0 unless its start-up files failed.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con_cmd.h"
#include "con_dbg.h"
#include "con_node.h"
#include "con_repl.h"
#include "con_script.h"
#include "con_sub.h"
#include "wire.h"

#define CON_USAGE \
	"usage: paravt [-hVn] [-x SCRIPT] [-e COMMAND]... [--token-file FILE]\n" \
	"       paravt trace -o FILE [OPTIONS] [SOURCES...] -- COMMAND...\n" \
	"       paravt trace-info FILE\n" \
	"       paravt report FILE [-o HTML]\n" \
	"       paravt export FILE --otf2 DIR | --chrome JSON\n" \
	"       paravt predict FILE --machine MACHINE | --describe\n" \
	"       paravt attach NAME=ADDR... [--session N | --last]"

/* One -x or -e, kept in command-line order. */
typedef struct con_action {
	int is_script;     /* 1: -x SCRIPT, 0: -e COMMAND */
	const char *arg;   /* the script path or the command (borrowed argv) */
} con_action;

/* What the command line asked for. */
typedef struct con_opts {
	int no_rc;             /* -n: skip ~/.paravtrc */
	con_action *acts;      /* -x and -e in order (owned) */
	int nacts;             /* entries used in acts */
	const char *token;     /* --token-file, or NULL */
} con_opts;

/* Prints the usage (and, with full, the options) to f. */
static void con_usage(FILE *f, int full)
{
	fprintf(f, "%s\n", CON_USAGE);
	if (!full)
		return;
	fprintf(f, "\n"
		"  -h                 show this help and exit\n"
		"  -V                 show the version and exit\n"
		"  -n                 do not run ~/.paravtrc\n"
		"  -x SCRIPT          run the commands in SCRIPT\n"
		"  -e COMMAND         run COMMAND (repeatable, in order)\n"
		"  --token-file FILE  token for nodes added without one\n"
		"                     (default ~/.paravt/token)\n"
		"\nOne-shot subcommands (each has --help):\n"
		"  trace -o FILE ...  capture a run unattended into a trace file\n"
		"  trace-info FILE    summarize a trace file\n"
		"  report FILE        write an HTML report (-o HTML)\n"
		"  export FILE        write OTF2 (--otf2 DIR) or Chrome JSON\n"
		"                     (--chrome JSON) for other tools\n"
		"  predict FILE       predict the run on another machine\n"
		"                     (--machine MACHINE), or describe the\n"
		"                     traced one (--describe), its nodes'\n"
		"                     speeds from a short run: --sample TRACE2\n"
		"  attach NAME=ADDR.. list the sessions killed consoles left on\n"
		"                     the nodes; --session N takes one back\n"
		"\nWithout -x or -e, commands come from the terminal "
		"(readline) or stdin.\nType \"help\" at the prompt for the "
		"commands; see paravt(1).\n");
}

/* Parses argv into o.  0, 1 when -h/-V was handled (exit 0), or 2 for a
 * usage error (already reported). */
static int con_parse(int argc, char **argv, con_opts *o)
{
	static const struct option longs[] = {
		{"token-file", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0}
	};
	int c;

	memset(o, 0, sizeof *o);
	o->acts = calloc((size_t)argc, sizeof *o->acts);
	if (o->acts == NULL)
		return 2;
	while ((c = getopt_long(argc, argv, "hVnx:e:", longs, NULL)) != -1) {
		switch (c) {
		case 'h':
			con_usage(stdout, 1);
			return 1;
		case 'V':
			printf("paravt %s (protocol %d)\n", PARAVT_VERSION,
			       WIRE_PROTO_VERSION);
			return 1;
		case 'n':
			o->no_rc = 1;
			break;
		case 'x':
		case 'e':
			o->acts[o->nacts].is_script = c == 'x';
			o->acts[o->nacts++].arg = optarg;
			break;
		case 't':
			o->token = optarg;
			break;
		default:
			con_usage(stderr, 0);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "paravt: unexpected argument '%s'\n",
			argv[optind]);
		con_usage(stderr, 0);
		return 2;
	}
	return 0;
}

/* Runs one -x or -e.  Returns the failures; sets *quit. */
static int con_run_action(const con_action *a, int *quit)
{
	char err[CON_CMD_ERR];
	int failed, rc;

	*quit = 0;
	if (!a->is_script) {
		rc = con_cmd_exec(a->arg, NULL);
		*quit = rc == CON_CMD_QUIT;
		return rc < 0;
	}
	failed = con_script_run_file(a->arg, 0, quit, err, sizeof err);
	if (failed < 0) {
		con_cmd_error(NULL, "%s", err);
		return 1;
	}
	return failed;
}

/* Runs ~/.paravtrc if it exists.  Returns the failures; sets *quit. */
static int con_run_rc(int *quit)
{
	char path[4096], err[CON_CMD_ERR];
	const char *home = getenv("HOME");
	int failed;

	*quit = 0;
	if (home == NULL || home[0] == '\0')
		return 0;
	snprintf(path, sizeof path, "%s/.paravtrc", home);
	failed = con_script_run_file(path, 1, quit, err, sizeof err);
	if (failed < 0) {
		con_cmd_error(NULL, "%s", err);
		return 1;
	}
	return failed;
}

/* Everything after the rc file: actions, REPL or stdin. */
static int con_run(const con_opts *o)
{
	int i, quit = 0, failed = 0;

	if (o->nacts == 0 && isatty(STDIN_FILENO)) {
		con_repl_run();
		return 0;
	}
	if (o->nacts == 0)
		return con_script_run(stdin, "stdin", &quit);
	for (i = 0; i < o->nacts && !quit; i++)
		failed += con_run_action(&o->acts[i], &quit);
	return failed;
}

/* The one-shot subcommands (con_sub.h). */
static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} con_subs[] = {
	{"trace", con_sub_trace},
	{"trace-info", con_sub_trace_info},
	{"report", con_sub_report},
	{"export", con_sub_export},
	{"predict", con_sub_predict},
	{"attach", con_sub_attach},
};

/* Index of the subcommand called word, or -1. */
static int con_is_sub(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof con_subs / sizeof con_subs[0]; i++)
		if (strcmp(word, con_subs[i].name) == 0)
			return (int)i;
	return -1;
}

/* Runs the subcommand argv[0] with the console's start-up around it. */
static int con_run_sub(int argc, char **argv)
{
	int status;

	signal(SIGPIPE, SIG_IGN);
	con_dbg_init();
	status = con_subs[con_is_sub(argv[0])].run(argc, argv);
	con_node_close_all();
	fflush(stdout);
	return status;
}

/* Parses the options, runs the rc file and the work, says goodbye. */
int main(int argc, char **argv)
{
	con_opts o;
	int rc, status, quit = 0, failed = 0;

	if (argc > 1 && con_is_sub(argv[1]) >= 0)
		return con_run_sub(argc - 1, argv + 1);
	rc = con_parse(argc, argv, &o);
	if (rc != 0) {
		status = rc == 1 ? 0 : 2;
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);
	con_node_set_token_file(o.token);
	/* Messages from nodes (events, stops, output) are handled from the
	 * first connection on, even before any debugger command runs. */
	con_dbg_init();
	if (!o.no_rc)
		failed = con_run_rc(&quit);
	if (!quit)
		failed += con_run(&o);
	con_node_close_all();
	fflush(stdout);
	status = failed > 0;
out:
	free(o.acts);
	return status;
}
