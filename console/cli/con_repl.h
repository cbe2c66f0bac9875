/*
 * con_repl.h — the interactive console: readline, history, completion.
 *
 * The loop uses readline's callback interface so that it can poll the
 * terminal and every node's connection at once: a node going down is
 * announced while the user is typing, and the line being edited is
 * redrawn under the announcement.  History lives in ~/.paravt_history
 * (loaded at start, saved at exit, at most CON_REPL_HISTORY lines).
 */
#ifndef PARAVT_CON_REPL_H
#define PARAVT_CON_REPL_H

#define CON_REPL_HISTORY 1000  /* lines kept in the history file */
#define CON_REPL_PROMPT "(paravt) "

/* Runs the REPL on the terminal until quit, exit or end of input.
 * Returns the number of commands that failed. */
int con_repl_run(void);

#endif
