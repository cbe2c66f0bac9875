/*
 * con_cmd_int.h — what the command files (cmd_*.c) share among
 * themselves; not for the rest of the console, which uses con_cmd.h:
 * the debugger commands' wait, word joining and numbers (cmd_dbg.c), and the
 * show index of the tracing commands (cmd_trace_index.c).
 */
#ifndef PARAVT_CON_CMD_INT_H
#define PARAVT_CON_CMD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "con_ana.h"
#include "con_cmd.h"
#include "con_dbg.h"
#include "con_ev.h"

#define CON_DBG_EXPR 4096  /* longest expression, bytes */

/* Waits for cond, printing events; node happenings are announced
 * (cmd_dbg.c).  Returns what con_dbg_wait returns. */
int con_cmd_dbg_wait(con_dbg_cond *cond, void *ctx, double secs);

/* Process sets (cmd_pset.c).  con_pset_resolve: the processes spec
 * names (a new array of *n, caller frees; 0 or -1 with err);
 * con_pset_focus: the focus's spec, or NULL for the current process;
 * con_pset_info: the sets and their processes, for info procs;
 * con_pset_run_prefixed: runs "[SPEC] COMMAND" with that focus (1 and
 * the command's result in *rc), or 0 when line has no prefix;
 * con_cmd_stop_mode: set stop-mode all|one. */
int con_pset_resolve(const char *spec, con_proc ***out, size_t *n, char *err,
		     size_t errlen);
const char *con_pset_focus(void);
void con_pset_info(void);
int con_pset_run_prefixed(const char *line, const char *where, int *rc);
int con_cmd_stop_mode(int argc, char **argv, char *err, size_t errlen);

/* The top-level commands (cmd_table.c), and the small commands of
 * con_cmd.c they name. */
extern const con_cmd con_cmds[];
int con_cmd_help(int argc, char **argv, char *err, size_t errlen);
int con_cmd_sleep(int argc, char **argv, char *err, size_t errlen);
int con_cmd_quit(int argc, char **argv, char *err, size_t errlen);

/* Shows every display on the current process if it is stopped
 * (cmd_frame.c; after each wait). */
void con_cmd_display_show(void);

/* Joins argv[from..] with spaces into buf (cmd_dbg.c): the words after
 * `record` ("i, sum") or an expression.  0 or -1 if empty or long. */
int con_cmd_dbg_join(int argc, char **argv, int from, char *buf,
		     size_t n);

/* Reads a whole number word of cmd into *out, within [min, max] (cmd_dbg.c;
 * what names it in the error: "breakpoint number", "count").  0, or -1
 * with err. */
int con_cmd_number(const char *cmd, const char *what, const char *word,
		   long min, long max, long *out, char *err, size_t errlen);

/* Where each analysed event is in the store: per source, the arrival
 * numbers of its stored events in seq order (cmd_trace_index.c). */
typedef struct con_show_index {
	size_t nsrcs;      /* sources */
	size_t *off;       /* [nsrcs + 1]: source i's slice of num */
	uint64_t *num;     /* arrival numbers */
	size_t *src_of;    /* [nprocs]: analysis process -> source */
	uint32_t nprocs;   /* entries in src_of */
} con_show_index;

/* Builds the index of the store for the analysis tr into x (caller
 * storage; free with con_show_index_free).  0 or -1 (memory). */
int con_show_index_build(con_show_index *x, const ana_trace *tr);

/* Frees what x holds and zeroes it. */
void con_show_index_free(con_show_index *x);

/* The stored record of tr->order[k] with the view's time in t_con_ns
 * (into *out), or NULL when it is not in the store. */
const con_ev_rec *con_show_at(const ana_trace *tr, const con_show_index *x,
			      uint64_t k, int view, con_ev_rec *out);

/* The index in its process of the analysed event of stored record r
 * (its process in *p), or ANA_NONE; tr may be NULL. */
uint32_t con_show_ana_idx(const ana_trace *tr, const con_ev_rec *r,
			  uint32_t *p);

/* Appends the marks of analysed event i of process p to line (size
 * n): a diverged wildcard receive and a receive the program freed
 * always, a moved receive when raw. */
void con_show_marks(const ana_trace *tr, uint32_t p, uint32_t i, int raw,
		    char *line, size_t n);

#endif
