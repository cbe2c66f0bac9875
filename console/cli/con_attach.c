/*
 * con_attach.c — paravt attach: the sessions a killed console left on
 * the nodes, listed, or one of them taken back into the console.
 *
 *   paravt attach [--token-file FILE] NAME=ADDR... [--session N | --last]
 *
 * Without --session or --last: for each node, one line per detached
 * session (id, the console that opened it, how long ago, processes,
 * event batches waiting).  With one of them: `node add NAME ADDR
 * --attach[=N]` for every node, then the console as usual (the REPL on a
 * terminal, else commands from standard input).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con_cmd.h"
#include "con_node.h"
#include "con_repl.h"
#include "con_script.h"
#include "con_sub.h"

#define CON_ATTACH_USAGE \
	"usage: paravt attach [--token-file FILE] NAME=ADDR... " \
	"[--session N | --last]\n"

/* Prints the usage; with full, what it does. */
static void con_attach_help(FILE *f, int full)
{
	fputs(CON_ATTACH_USAGE, f);
	if (!full)
		return;
	fputs("\nLists the sessions that consoles which went away (killed, "
	      "connection lost)\nleft on the nodes (ADDR: HOST:PORT or an "
	      "ssh:// URL, as node add takes it),\nor, with --session N "
	      "(or --last: the one detached last on each node),\ntakes it "
	      "back: its processes, what they printed, their stops and "
	      "exits,\nand every event not yet received; then the console "
	      "goes on as usual.\nExit status: 0, 1 a node could not be "
	      "reached or refused, 2 usage.\n", f);
}

/* Fills spec from NAME=ADDR (with token, if any).  0 or -1 (said). */
static int con_attach_spec(const char *w, const char *token,
			   con_node_spec *spec)
{
	char line[CON_CMD_LINE], buf[CON_CMD_LINE + 8], *argv[8], err[256];
	const char *eq = strchr(w, '=');
	int argc;

	if (eq == NULL || eq == w) {
		fprintf(stderr, "paravt attach: expected NAME=ADDR, not '%s'\n",
			w);
		return -1;
	}
	snprintf(line, sizeof line, "add %.*s %s%s%s", (int)(eq - w), w,
		 eq + 1, token ? " --token-file " : "", token ? token : "");
	argc = con_cmd_split(line, buf, sizeof buf, argv, 8, 0, err,
			     sizeof err);
	if (argc < 0 || con_node_cmd_parse_add(argc, argv, spec, err,
					       sizeof err) != 0) {
		fprintf(stderr, "paravt attach: %s\n", err);
		return -1;
	}
	return 0;
}

/* Takes the sessions back (attach: "--attach" or "--attach=N"), then
 * runs the console.  The exit status. */
static int con_attach_resume(char **nodes, int n, const char *token,
			     const char *attach)
{
	char head[CON_CMD_LINE];
	const char *eq;
	int i, quit = 0, failed = 0;

	for (i = 0; i < n; i++) {
		eq = strchr(nodes[i], '=');
		snprintf(head, sizeof head, "node add %.*s %s%s%s %s",
			 (int)(eq - nodes[i]), nodes[i], eq + 1,
			 token ? " --token-file " : "", token ? token : "",
			 attach);
		if (con_cmd_exec(head, NULL) < 0)
			return 1;
	}
	if (isatty(STDIN_FILENO))
		con_repl_run();
	else
		failed = con_script_run(stdin, "stdin", &quit);
	return failed > 0;
}

int con_sub_attach(int argc, char **argv)
{
	char attach[64] = "", err[600];
	const char *token = NULL;
	con_node_spec spec;
	char **nodes;
	int i, n = 0, st = 0;

	nodes = calloc((size_t)argc + 1, sizeof *nodes);
	if (nodes == NULL)
		return 2;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			con_attach_help(stdout, 1);
			goto out;
		} else if (strcmp(argv[i], "--token-file") == 0 &&
			   i + 1 < argc) {
			token = argv[++i];
		} else if (strcmp(argv[i], "--last") == 0) {
			snprintf(attach, sizeof attach, "--attach");
		} else if (strcmp(argv[i], "--session") == 0 && i + 1 < argc &&
			   argv[i + 1][0] >= '1' && argv[i + 1][0] <= '9') {
			snprintf(attach, sizeof attach, "--attach=%s",
				 argv[++i]);
		} else if (argv[i][0] != '-') {
			nodes[n++] = argv[i];
		} else if (strcmp(argv[i], "--session") == 0 ||
			   strcmp(argv[i], "--token-file") == 0) {
			fprintf(stderr, "paravt attach: %s needs %s\n", argv[i],
				argv[i][2] == 's' ? "a session number (1, 2, ...)"
				: "a file");
			st = 2;
			goto out;
		} else {
			fprintf(stderr, "paravt attach: unknown option '%s'\n",
				argv[i]);
			con_attach_help(stderr, 0);
			st = 2;
			goto out;
		}
	}
	if (n == 0) {
		con_attach_help(stderr, 0);
		st = 2;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (con_attach_spec(nodes[i], token, &spec) != 0) {
			st = 2;
			goto out;
		}
	if (attach[0] != '\0') {
		st = con_attach_resume(nodes, n, token, attach);
		goto out;
	}
	for (i = 0; i < n; i++) {
		con_attach_spec(nodes[i], token, &spec);
		if (con_node_sessions(&spec, stdout, err, sizeof err) != 0) {
			fprintf(stderr, "paravt attach: %s\n", err);
			st = 1;
		}
	}
out:
	free(nodes);
	return st;
}
