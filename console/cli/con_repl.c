/*
 * con_repl.c — the interactive console (con_repl.h).
 *
 * Layout: history file; completion (readline asks con_repl_complete, which
 * splits the words before the cursor and lets con_cmd_complete offer
 * candidates); announcements that keep the edited line intact; signals
 * (SIGINT clears the line, SIGWINCH resizes: both only set flags, the
 * loop acts on them); the poll loop itself.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "con_cmd.h"
#include "con_dbg.h"
#include "con_node.h"
#include "con_repl.h"

#define CON_REPL_FDS 257    /* terminal + this many nodes - 1 */
#define CON_REPL_CANDS 256  /* most completion candidates offered */

/* State of the running REPL (one per process). */
static struct {
	int done;                       /* quit, exit or end of input seen */
	int failed;                     /* commands that failed */
	char hist[4096];                /* history file path, "" if none */
	volatile sig_atomic_t sigint;   /* Ctrl-C arrived */
	volatile sig_atomic_t sigwinch; /* the terminal was resized */
	char *cands[CON_REPL_CANDS];    /* completion candidates (owned) */
	int ncands;                     /* entries used in cands */
	int next;                       /* generator position in cands */
} con_repl;

/* ---- history ---------------------------------------------------------- */

/* Finds ~/.paravt_history and loads it. */
static void con_repl_history_load(void)
{
	const char *home = getenv("HOME");

	con_repl.hist[0] = '\0';
	using_history();
	stifle_history(CON_REPL_HISTORY);
	if (home == NULL || home[0] == '\0')
		return;
	snprintf(con_repl.hist, sizeof con_repl.hist, "%s/.paravt_history",
		 home);
	read_history(con_repl.hist);
}

/* Writes the history back, bounded to CON_REPL_HISTORY lines. */
static void con_repl_history_save(void)
{
	if (con_repl.hist[0] == '\0')
		return;
	if (write_history(con_repl.hist) == 0)
		history_truncate_file(con_repl.hist, CON_REPL_HISTORY);
}

/* Adds a non-blank line to the history unless it repeats the last one. */
static void con_repl_history_add(const char *line)
{
	HIST_ENTRY *last;

	if (line[strspn(line, " \t")] == '\0')
		return;
	last = history_length > 0 ? history_get(history_base +
						history_length - 1) : NULL;
	if (last == NULL || strcmp(last->line, line) != 0)
		add_history(line);
}

/* ---- completion ------------------------------------------------------- */

/* con_cmd_complete's callback: keeps a copy of word. */
static void con_repl_cand(const char *word, void *ctx)
{
	if (con_repl.ncands < CON_REPL_CANDS)
		con_repl.cands[con_repl.ncands++] = strdup(word);
}

/* readline generator over the collected candidates (it frees them). */
static char *con_repl_gen(const char *text, int state)
{
	if (state == 0)
		con_repl.next = 0;
	while (con_repl.next < con_repl.ncands) {
		char *c = con_repl.cands[con_repl.next];

		con_repl.cands[con_repl.next++] = NULL;
		if (c != NULL)
			return c;
	}
	return NULL;
}

/* rl_attempted_completion_function: completes commands, subcommands,
 * options, node names and the debugger's arguments from the words before
 * the cursor; falls back to file names after an option that takes a file
 * and for load; no space after an expression or a location. */
static char **con_repl_complete(const char *text, int start, int end)
{
	char before[CON_CMD_LINE], buf[CON_CMD_LINE], err[64];
	char *argv[CON_CMD_ARGS];
	int argc, i;

	rl_attempted_completion_over = 1;
	for (i = 0; i < con_repl.ncands; i++)
		free(con_repl.cands[i]);
	con_repl.ncands = 0;
	snprintf(before, sizeof before, "%.*s", start, rl_line_buffer);
	argc = con_cmd_split(before, buf, sizeof buf, argv, CON_CMD_ARGS, 1,
			     err, sizeof err);
	if (argc < 0)
		return NULL;
	con_cmd_complete(argc, argv, text, con_repl_cand, NULL);
	if (con_repl.ncands == 0 && con_cmd_wants_file(argc, argv)) {
		rl_attempted_completion_over = 0;
		return NULL;
	}
	if (con_cmd_wants_glue(argc, argv))
		rl_completion_suppress_append = 1;
	return rl_completion_matches(text, con_repl_gen);
}

/* ---- output while the user types -------------------------------------- */

/* con_node_event_fn for the REPL: hides the edited line, announces, and
 * draws the prompt and line again. */
static void con_repl_announce(const con_node *n, int kind, const char *text,
			      void *ctx)
{
	rl_clear_visible_line();
	con_cmd_announce(n, kind, text, ctx);
	rl_on_new_line();
	rl_redisplay();
}

/* Prints the debugger's events (stops, output, exits) that arrived while
 * the user was typing, keeping the edited line intact. */
static void con_repl_events(void)
{
	if (!con_dbg_event_pending())
		return;
	rl_clear_visible_line();
	con_cmd_dbg_events();
	rl_on_new_line();
	rl_redisplay();
}

/* rl_callback_handler_install's line handler: runs one command. */
static void con_repl_line(char *line)
{
	int rc;

	if (line == NULL) {
		printf("\n");
		con_repl.done = 1;
		rl_callback_handler_remove();
		return;
	}
	con_repl_history_add(line);
	rc = con_cmd_exec(line, NULL);
	if (rc < 0)
		con_repl.failed++;
	if (rc == CON_CMD_QUIT) {
		con_repl.done = 1;
		rl_callback_handler_remove();
	}
	free(line);
}

/* ---- signals ---------------------------------------------------------- */

/* Records a signal for the loop. */
static void con_repl_signal(int sig)
{
	if (sig == SIGINT)
		con_repl.sigint = 1;
	else
		con_repl.sigwinch = 1;
}

/* Installs the handlers without SA_RESTART so that poll() wakes up. */
static void con_repl_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = con_repl_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGWINCH, &sa, NULL);
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
}

/* Acts on signals recorded since the last turn of the loop. */
static void con_repl_on_signals(void)
{
	if (con_repl.sigwinch) {
		con_repl.sigwinch = 0;
		rl_resize_terminal();
	}
	if (con_repl.sigint) {
		con_repl.sigint = 0;
		rl_replace_line("", 0);
		rl_crlf();
		rl_on_new_line();
		rl_redisplay();
	}
}

/* ---- the loop --------------------------------------------------------- */

/* One turn: waits for the terminal or a node, then serves it. */
static void con_repl_turn(void)
{
	struct pollfd pfd[CON_REPL_FDS];
	int n, i;

	pfd[0].fd = STDIN_FILENO;
	pfd[0].events = POLLIN;
	pfd[0].revents = 0;
	n = 1 + con_node_pollfds(pfd + 1, CON_REPL_FDS - 1);
	if (poll(pfd, (nfds_t)n, -1) < 0) {
		if (errno != EINTR)
			con_repl.done = 1;
		return;
	}
	for (i = 1; i < n; i++)
		if (pfd[i].revents != 0) {
			con_node_check_all(con_repl_announce, NULL);
			con_repl_events();
			break;
		}
	if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))
		rl_callback_read_char();
}

/* Sets up readline and history, runs the loop, saves history. */
int con_repl_run(void)
{
	int i;

	con_repl_history_load();
	rl_readline_name = "paravt";
	rl_attempted_completion_function = con_repl_complete;
	con_repl_signals();
	con_dbg_set_interrupt(&con_repl.sigint);
	rl_callback_handler_install(CON_REPL_PROMPT, con_repl_line);
	while (!con_repl.done) {
		con_repl_turn();
		con_repl_on_signals();
	}
	rl_callback_handler_remove();
	con_repl_history_save();
	for (i = 0; i < con_repl.ncands; i++)
		free(con_repl.cands[i]);
	con_repl.ncands = 0;
	return con_repl.failed;
}
