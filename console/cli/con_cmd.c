/*
 * con_cmd.c — the command table, line splitting, dispatch, help and
 * completion (con_cmd.h).
 *
 * Layout: the top-level commands other than `node` (help, sleep, quit)
 * and their table; the word splitter; lookup and "did you mean"; dispatch
 * and error printing; help printing; completion.  The node subcommands
 * live in cmd_node.c and are reached through the `node` entry.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "wire.h"

/* ---- small commands --------------------------------------------------- */

/* sleep SECONDS */
int con_cmd_sleep(int argc, char **argv, char *err, size_t errlen)
{
	struct timespec ts;
	char *end;
	double s;

	if (argc != 2) {
		snprintf(err, errlen, "usage: sleep SECONDS");
		return WIRE_EARG;
	}
	s = strtod(argv[1], &end);
	if (end == argv[1] || *end != '\0' || !(s >= 0 && s <= 86400)) {
		snprintf(err, errlen, "sleep: bad number of seconds '%s'",
			 argv[1]);
		return WIRE_EARG;
	}
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	return 0;
}

/* quit, exit */
int con_cmd_quit(int argc, char **argv, char *err, size_t errlen)
{
	if (argc != 1) {
		snprintf(err, errlen, "usage: %s", argv[0]);
		return WIRE_EARG;
	}
	return CON_CMD_QUIT;
}

/* ---- splitting -------------------------------------------------------- */

/* Shell-like splitting: quotes group, backslash escapes, # starts a comment. */
int con_cmd_split(const char *line, char *buf, size_t buflen, char **argv,
		  int max, int partial, char *err, size_t errlen)
{
	const char *p = line;
	char *o = buf, *end = buf + buflen - 1;
	int argc = 0;
	char q;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			return argc;
		if (argc == max) {
			snprintf(err, errlen, "too many words (at most %d)",
				 max);
			return -1;
		}
		argv[argc++] = o;
		for (q = 0; *p != '\0' && (q || !isspace((unsigned char)*p));
		     p++) {
			if (o >= end) {
				snprintf(err, errlen, "line too long");
				return -1;
			}
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
		if (q != 0 && !partial) {
			snprintf(err, errlen, "unterminated %c quote", q);
			return -1;
		}
		*o++ = '\0';
	}
}

/* ---- lookup ----------------------------------------------------------- */

/* The entry of tab named word, or NULL. */
static const con_cmd *con_cmd_lookup(const con_cmd *tab, const char *word)
{
	for (; tab->name != NULL; tab++)
		if (strcmp(tab->name, word) == 0)
			return tab;
	return NULL;
}

/* gdb's short names of commands (help names them with each command). */
static const char *const con_cmd_short[][2] = {
	{"b", "break"}, {"c", "continue"}, {"n", "next"}, {"s", "step"},
	{"p", "print"}, {"bt", "where"}, {"u", "until"}, {NULL, NULL}
};

/* The command a top-level word names: itself or what it is short for. */
static const char *con_cmd_long(const char *word)
{
	int i;

	for (i = 0; con_cmd_short[i][0] != NULL; i++)
		if (strcmp(con_cmd_short[i][0], word) == 0)
			return con_cmd_short[i][1];
	return word;
}

/* Edit distance between a and b (both short command words). */
static size_t con_cmd_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, cur, tmp;
	size_t row[64];

	if (la >= 64 || lb >= 64)
		return 64;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < cur)
				cur = row[j] + 1;
			if (row[j - 1] + 1 < cur)
				cur = row[j - 1] + 1;
			tmp = row[j];
			row[j] = cur;
			prev = tmp;
		}
	}
	return row[lb];
}

/* Suggests the nearest entry (a prefix, or an edit distance of at most 2). */
void con_cmd_suggest(const con_cmd *tab, const char *word, char *buf,
		     size_t buflen)
{
	const con_cmd *best = NULL;
	size_t d, bestd = 3;

	for (; tab->name != NULL; tab++) {
		d = strncmp(tab->name, word, strlen(word)) == 0 ? 1 :
		    con_cmd_distance(tab->name, word);
		if (d < bestd) {
			bestd = d;
			best = tab;
		}
	}
	if (best != NULL)
		snprintf(buf, buflen, "did you mean '%s'?", best->name);
	else
		snprintf(buf, buflen, "try 'help'");
}

/* ---- dispatch --------------------------------------------------------- */

/* Finds argv[0] in tab (kind names the table in messages) and runs it,
 * descending into subcommand tables. */
static int con_cmd_dispatch(const con_cmd *tab, const char *kind, int argc,
			    char **argv, char *err, size_t errlen)
{
	const con_cmd *c;
	char hint[96];

	if (tab == con_cmds)
		argv[0] = (char *)con_cmd_long(argv[0]);
	c = con_cmd_lookup(tab, argv[0]);
	if (c == NULL) {
		con_cmd_suggest(tab, argv[0], hint, sizeof hint);
		snprintf(err, errlen, "unknown %s '%s'; %s", kind, argv[0],
			 hint);
		return WIRE_EARG;
	}
	if (c->subs == NULL)
		return c->run(argc, argv, err, errlen);
	if (argc < 2) {
		snprintf(err, errlen, "%s: missing subcommand; try 'help %s'",
			 c->name, c->name);
		return WIRE_EARG;
	}
	snprintf(hint, sizeof hint, "%s subcommand", c->name);
	return con_cmd_dispatch(c->subs, hint, argc - 1, argv + 1, err,
				errlen);
}

/* Prints one error line on stderr, after what stdout holds. */
void con_cmd_error(const char *where, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (where != NULL)
		fprintf(stderr, "paravt: %s: error: ", where);
	else
		fprintf(stderr, "paravt: error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Announces a node happening on stderr. */
void con_cmd_announce(const con_node *n, int kind, const char *text,
		      void *ctx)
{
	fflush(stdout);
	if (kind == CON_NODE_EV_DOWN)
		fprintf(stderr, "[node %s is down: %s]\n", n->spec.name, text);
	else
		fprintf(stderr, "[node %s: daemon error %s]\n", n->spec.name,
			text);
}

/* gdb's "p/x EXPR": a command word with a format glued on becomes two
 * words, "p" and "/x" (fmt holds the second).  Returns the new argc, or
 * -1 when there is no room for one more word. */
static int con_cmd_unglue(int argc, char **argv, int max, char *fmt,
			  size_t n)
{
	char *slash = strchr(argv[0], '/');
	int i;

	if (slash == NULL || slash == argv[0])
		return argc;
	if (argc + 1 > max)
		return -1;
	snprintf(fmt, n, "%s", slash);
	*slash = '\0';
	for (i = argc; i > 1; i--)
		argv[i] = argv[i - 1];
	argv[1] = fmt;
	return argc + 1;
}

/* Checks the nodes, splits the line and runs it; the one place errors print. */
int con_cmd_exec(const char *line, const char *where)
{
	static char buf[CON_CMD_LINE], fmt[16];
	char err[CON_CMD_ERR];
	char *argv[CON_CMD_ARGS];
	int argc, rc;

	if (con_pset_run_prefixed(line, where, &rc))
		return rc;
	con_node_check_all(con_cmd_announce, NULL);
	con_cmd_dbg_events();
	argc = con_cmd_split(line, buf, sizeof buf, argv, CON_CMD_ARGS, 0,
			     err, sizeof err);
	if (argc > 0 && (argc = con_cmd_unglue(argc, argv, CON_CMD_ARGS, fmt,
					       sizeof fmt)) < 0)
		snprintf(err, sizeof err, "too many words on the line");
	if (argc <= 0) {
		if (argc < 0)
			con_cmd_error(where, "%s", err);
		return argc;
	}
	err[0] = '\0';
	rc = con_cmd_dispatch(con_cmds, "command", argc, argv, err,
			      sizeof err);
	fflush(stdout);
	if (rc < 0) {
		con_cmd_error(where, "%s", err[0] != '\0' ? err :
			      wire_strerror(rc));
		return -1;
	}
	return rc;
}

/* ---- help ------------------------------------------------------------- */

/* Prints text with every line indented by ind spaces. */
static void con_cmd_indent(const char *text, int ind)
{
	const char *nl;

	while (*text != '\0') {
		nl = strchr(text, '\n');
		if (nl == NULL)
			nl = text + strlen(text);
		printf("%*s%.*s\n", ind, "", (int)(nl - text), text);
		text = *nl != '\0' ? nl + 1 : nl;
	}
}

/* help CMD [SUB]: usage and description (and those of the subcommands). */
static void con_cmd_help_one(const con_cmd *c, int sub_level)
{
	const con_cmd *s;

	if (sub_level) {
		printf("  %s\n", c->usage);
		con_cmd_indent(c->help, 6);
		return;
	}
	printf("usage: %s\n", c->usage);
	con_cmd_indent(c->help, 2);
	for (s = c->subs; s != NULL && s->name != NULL; s++)
		con_cmd_help_one(s, 1);
}

/* help with no argument: one line per command and subcommand. */
static void con_cmd_help_list(void)
{
	const con_cmd *c, *s;
	char words[48];

	printf("Commands (\"help COMMAND\" describes one):\n");
	for (c = con_cmds; c->name != NULL; c++) {
		if (c->subs == NULL) {
			printf("  %-16s %s\n", c->name, c->summary);
			continue;
		}
		for (s = c->subs; s->name != NULL; s++) {
			snprintf(words, sizeof words, "%s %s", c->name,
				 s->name);
			printf("  %-16s %s\n", words, s->summary);
		}
	}
}

/* help [COMMAND [SUBCOMMAND]] */
int con_cmd_help(int argc, char **argv, char *err, size_t errlen)
{
	const con_cmd *c, *s;
	char hint[96];

	if (argc == 1) {
		con_cmd_help_list();
		return 0;
	}
	if (argc > 3) {
		snprintf(err, errlen, "usage: help [COMMAND [SUBCOMMAND]]");
		return WIRE_EARG;
	}
	c = con_cmd_lookup(con_cmds, argv[1]);
	s = c != NULL && c->subs != NULL && argc > 2 ?
	    con_cmd_lookup(c->subs, argv[2]) : c;
	if (c == NULL || s == NULL) {
		con_cmd_suggest(c == NULL ? con_cmds : c->subs,
				argv[c == NULL ? 1 : 2], hint, sizeof hint);
		snprintf(err, errlen, "help: no command '%s%s%s'; %s",
			 argv[1], c == NULL ? "" : " ",
			 c == NULL ? "" : argv[2], hint);
		return WIRE_EARG;
	}
	con_cmd_help_one(s, 0);
	return 0;
}

/* ---- completion ------------------------------------------------------- */

/* Offers every name of tab that starts with text. */
static void con_cmd_offer_tab(const con_cmd *tab, const char *text,
			      void (*add)(const char *, void *), void *ctx)
{
	for (; tab != NULL && tab->name != NULL; tab++)
		if (strncmp(tab->name, text, strlen(text)) == 0)
			add(tab->name, ctx);
}

/* Offers the node names that start with text. */
static void con_cmd_offer_nodes(const char *text,
				void (*add)(const char *, void *), void *ctx)
{
	con_node *n;

	for (n = con_node_first(); n != NULL; n = n->next)
		if (strncmp(n->spec.name, text, strlen(text)) == 0)
			add(n->spec.name, ctx);
}

/* File names: after load, or after an option that names a file. */
int con_cmd_wants_file(int argc, char **argv)
{
	const con_cmd *c;

	if (argc == 0)
		return 0;
	if (strcmp(argv[argc - 1], "--token-file") == 0 ||
	    strcmp(argv[argc - 1], "--key") == 0 ||
	    strcmp(argv[argc - 1], "--known-hosts") == 0)
		return 1;
	c = con_cmd_lookup(con_cmds, argv[0]);
	return c != NULL && c->arg == CON_ARG_FILE;
}

/* Expressions and breakpoint locations go on after the completed word. */
int con_cmd_wants_glue(int argc, char **argv)
{
	const con_cmd *c = argc > 0 ? con_cmd_lookup(con_cmds, argv[0]) : NULL;

	return c != NULL && (c->arg == CON_ARG_EXPR || c->arg == CON_ARG_LOC);
}

/* Walks the tables along the words typed and offers what may come next. */
void con_cmd_complete(int argc, char **argv, const char *text,
		      void (*add)(const char *word, void *ctx), void *ctx)
{
	const con_cmd *c, *top;
	const char *const *f;
	int nargs;

	if (argc == 0) {
		con_cmd_offer_tab(con_cmds, text, add, ctx);
		return;
	}
	c = top = con_cmd_lookup(con_cmds, argv[0]);
	if (c == NULL)
		return;
	nargs = argc - 1;
	if (c->subs != NULL) {
		if (argc == 1) {
			con_cmd_offer_tab(c->subs, text, add, ctx);
			return;
		}
		c = con_cmd_lookup(c->subs, argv[1]);
		nargs = argc - 2;
	}
	if (c == NULL)
		return;
	if (text[0] == '-')
		for (f = c->flags; f != NULL && *f != NULL; f++)
			if (strncmp(*f, text, strlen(text)) == 0)
				add(*f, ctx);
	if (c->arg == CON_ARG_NODE && nargs == 0)
		con_cmd_offer_nodes(text, add, ctx);
	if (c->arg >= CON_ARG_NODES && text[0] != '-')
		con_cmd_dbg_complete(c->arg, text, add, ctx);
	if (c->arg == CON_ARG_CMD && nargs == 0)
		con_cmd_offer_tab(con_cmds, text, add, ctx);
	if (c->arg == CON_ARG_CMD && nargs == 1) {
		top = con_cmd_lookup(con_cmds, argv[argc - 1]);
		if (top != NULL)
			con_cmd_offer_tab(top->subs, text, add, ctx);
	}
}
