/*
 * cmd_print.c — the commands that look at processes: `info procs` (every
 * process with its state and where it is), `proc` (choose the current
 * one), `where` (its stack), `print [-all] EXPR` (a value from one or
 * every stopped process) and `info locals` / `info globals`.  On a trace
 * read with `open` and no run, info procs and print answer from the
 * trace (cmd_file.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "con_tfile.h"
#include "paravt_rt.h"
#include "wire.h"

/* The state of p as a word ("killed" for a signal sent to it). */
static const char *con_cmd_dbg_state(const con_proc *p)
{
	static const char *const w[] = {"running", "stopped", "exited",
					"crashed"};

	if (p->state == CON_PROC_CRASHED && p->sig != 0 &&
	    !con_dbg_sig_fault(p->sig))
		return "killed";
	return p->state >= 0 && p->state <= CON_PROC_CRASHED ? w[p->state] :
	       "?";
}

/* The Where cell of p: location, exit status or crash. */
static void con_cmd_dbg_proc_where(const con_proc *p, char *buf, size_t n)
{
	char sig[32];

	if (p->state == CON_PROC_EXITED && p->status == CON_STATUS_UNKNOWN)
		snprintf(buf, n, "status unknown");
	else if (p->state == CON_PROC_EXITED)
		snprintf(buf, n, "status %lld", (long long)p->status);
	else if (p->state == CON_PROC_CRASHED && p->sig != 0)
		snprintf(buf, n, "%s%s%s", con_dbg_signame(p->sig, sig,
							   sizeof sig),
			 p->where[0] != '\0' ? " at " : "", p->where);
	else
		snprintf(buf, n, "%s", p->where);
}

/* The Tid, State and Where cells of p.  A running process's state is
 * what its events say (computing, communicating, waiting); Where is the
 * breakpoint, crash or exit, else the last location of its events. */
static void con_cmd_dbg_proc_row(const con_proc *p, char *tid, size_t tn,
				 const char **state, char *where, size_t wn)
{
	char evwhere[WIRE_TEXT_MAX];
	int act;

	con_ev_cmd_proc(p, tid, tn, &act, evwhere, sizeof evwhere);
	con_cmd_dbg_proc_where(p, where, wn);
	*state = con_cmd_dbg_state(p);
	if (p->state == CON_PROC_RUNNING && act >= 0)
		*state = con_ev_activity_name(act);
	if (where[0] == '\0' || (p->state == CON_PROC_RUNNING &&
				 evwhere[0] != '\0'))
		snprintf(where, wn, "%s", evwhere);
}

/* True if some process has a tid (PVM) or rank (MPI): only then does
 * info procs show the Tid column. */
static int con_cmd_dbg_any_tid(void)
{
	char tid[16], where[8];
	con_proc *p;
	int act;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		con_ev_cmd_proc(p, tid, sizeof tid, &act, where, sizeof where);
		if (strcmp(tid, "-") != 0)
			return 1;
	}
	return 0;
}

/* info procs */
int con_info_procs(int argc, char **argv, char *err, size_t errlen)
{
	char id[16], tid[16], where[WIRE_TEXT_MAX + 64];
	const char *state;
	con_proc *p;
	int tids;

	con_dbg_init();
	if (con_dbg_proc_first() == NULL && con_ev_nsrcs() > 0)
		return con_tfile_cmd_info_procs(); /* a trace read with open */
	if (con_dbg_proc_first() == NULL) {
		printf("No processes.\n");
		return 0;
	}
	tids = con_cmd_dbg_any_tid();
	printf("  %-5s %-12s %-8s %s%-13s %s\n", "Id", "Node", "Pid",
	       tids ? "Tid      " : "", "State", "Where");
	for (p = con_dbg_proc_first(); p != NULL; p = p->next) {
		snprintf(id, sizeof id, "p%d", p->id);
		con_cmd_dbg_proc_row(p, tid, sizeof tid, &state, where,
				     sizeof where);
		printf("%c %-5s %-12s %-8llu %-*s%s%-13s %s\n",
		       p == con_dbg_current() ? '*' : ' ', id, p->node,
		       (unsigned long long)p->pid, tids ? 8 : 0,
		       tids ? tid : "", tids ? " " : "", state, where);
	}
	con_pset_info();
	return 0;
}

/* proc [PROC]: selects the current process, or shows it. */
int con_cmd_dbg_proc(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p;

	con_dbg_init();
	if (argc > 2) {
		snprintf(err, errlen, "usage: proc [PROC]");
		return WIRE_EARG;
	}
	p = argc == 2 ? con_dbg_proc_find(argv[1], err, errlen) :
	    con_dbg_current();
	if (p == NULL) {
		if (argc == 1)
			snprintf(err, errlen, "no current process");
		return WIRE_EARG;
	}
	con_dbg_select(p);
	printf("[current process p%d on %s, %s%s%s]\n", p->id, p->node,
	       con_cmd_dbg_state(p), p->where[0] != '\0' ? ", " : "",
	       p->where);
	return 0;
}

/* The current process if it is stopped, else NULL with err. */
static con_proc *con_cmd_dbg_stopped(char *err, size_t errlen)
{
	con_proc *p = con_dbg_current();

	if (p == NULL) {
		snprintf(err, errlen, "no current process (run first, or "
			 "select one with 'proc pN')");
		return NULL;
	}
	if (p->state != CON_PROC_STOPPED) {
		snprintf(err, errlen, "p%d is %s, not stopped at a breakpoint",
			 p->id, con_cmd_dbg_state(p));
		return NULL;
	}
	if (p->frame != 0 && (size_t)p->frame < p->nstack &&
	    !p->stack[p->frame].has_vars) {
		snprintf(err, errlen, "frame #%d of p%d: its variables are not "
			 "recorded (it made its call while the process was not "
			 "armed: no live breakpoint, step or interrupt)",
			 p->frame, p->id);
		return NULL;
	}
	return p;
}

/* where: the stack of the current process, innermost first. */
int con_cmd_dbg_where(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p;
	size_t i;

	con_dbg_init();
	p = con_cmd_dbg_stopped(err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	if (p->nstack == 0)
		printf("#0 %s\n", p->where);
	for (i = 0; i < p->nstack; i++)
		printf("#%zu %s () at %s:%d\n", i, p->stack[i].func,
		       p->stack[i].file, p->stack[i].line);
	return 0;
}

/* The line of a C expression (not a plain path, or with a format) on
 * p: "EXPR = VALUE".  A new string, or NULL with err. */
static char *con_cmd_expr_line(con_proc *p, const char *expr, int fmt,
			       char *err, size_t errlen)
{
	char val[4096];
	con_xval v;
	char *line = NULL;

	if (con_dbg_eval(p, expr, &v, err, errlen) < 0)
		return NULL;
	if (con_xval_format(&v, fmt, val, sizeof val) != 0)
		snprintf(err, errlen, "%s", val);
	else if (asprintf(&line, "%s = %s", expr, val) < 0)
		line = NULL;
	con_xval_free(&v);
	return line;
}

/* True if expr is printed through con_expr (an expression, or a path
 * with a format) rather than as a value path. */
static int con_cmd_is_expr(const char *expr, int fmt)
{
	return fmt != 0 || !con_expr_is_path(expr);
}

/* print on one process: ask, wait, print.  0 or a code with err. */
static int con_cmd_dbg_print_one(con_proc *p, const char *expr, int fmt,
				 char *err, size_t errlen)
{
	con_inspect q;
	con_inspect_set s = {&q, 1};
	char *line;
	int rc;

	if (con_cmd_is_expr(expr, fmt)) {
		line = con_cmd_expr_line(p, expr, fmt, err, errlen);
		if (line == NULL)
			return WIRE_EARG;
		printf("%s\n", line);
		free(line);
		return 0;
	}
	rc = con_dbg_inspect(p, expr, NULL, &q, err, errlen);
	if (rc == 0)
		rc = con_cmd_dbg_wait(con_dbg_inspect_all_done, &s,
				      CON_DBG_VALUE_SECS);
	if (rc == WIRE_ETIMEOUT || rc == WIRE_ESTATE) {
		snprintf(err, errlen, rc == WIRE_ESTATE ? "interrupted" :
			 "p%d did not answer within %g s", p->id,
			 CON_DBG_VALUE_SECS);
	} else if (rc == 0 && !q.ok) {
		snprintf(err, errlen, "%s: %s", expr,
			 q.text != NULL ? q.text : "no value");
		rc = WIRE_EARG;
	} else if (rc == 0) {
		printf("%s = %s\n", expr, q.text);
	}
	con_dbg_inspect_done(&q);
	return rc;
}

/* The line print -all shows for request q (or its error err). */
static char *con_cmd_dbg_all_line(const char *expr, const con_inspect *q,
				  const char *err)
{
	char *line = NULL;
	int rc;

	if (err != NULL)
		rc = asprintf(&line, "%s: error: %s", expr, err);
	else if (q->ok)
		rc = asprintf(&line, "%s = %s", expr, q->text);
	else
		rc = asprintf(&line, "%s: error: %s", expr,
			      q->text != NULL ? q->text : "no answer");
	return rc < 0 ? NULL : line;
}

/* Prints the lines of print -all grouped by equal text, in the order of
 * first appearance: "x = 5  [p1 p3]". */
static void con_cmd_dbg_groups(char **lines, con_proc **procs, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (lines[i] == NULL)
			continue;
		printf("%s  [p%d", lines[i], procs[i]->id);
		for (j = i + 1; j < n; j++)
			if (lines[j] != NULL && strcmp(lines[i], lines[j]) == 0) {
				printf(" p%d", procs[j]->id);
				free(lines[j]);
				lines[j] = NULL;
			}
		printf("]\n");
		free(lines[i]);
		lines[i] = NULL;
	}
}

/* True if p is one print -all asks: stopped, and of the focus if one
 * is set. */
static int con_cmd_dbg_asked(const con_proc *p)
{
	char err[200];
	con_proc **v;
	size_t n, i;
	int in = 0;

	if (p->state != CON_PROC_STOPPED)
		return 0;
	if (con_pset_focus() == NULL)
		return 1;
	if (con_pset_resolve(con_pset_focus(), &v, &n, err, sizeof err) < 0)
		return 0;
	for (i = 0; i < n && !in; i++)
		in = v[i] == p;
	free(v);
	return in;
}

/* Number of processes print -all asks. */
static size_t con_cmd_dbg_nstopped(void)
{
	con_proc *p;
	size_t n = 0;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		n += con_cmd_dbg_asked(p);
	return n;
}

/* print -all EXPR: asks every stopped process at once, then groups. */
static int con_cmd_dbg_print_all(const char *expr, int fmt, char *err,
				 size_t errlen)
{
	size_t n = con_cmd_dbg_nstopped(), k = 0, i;
	con_inspect *q = calloc(n + 1, sizeof *q);
	char **lines = calloc(n + 1, sizeof *lines), **errs;
	con_proc **procs = calloc(n + 1, sizeof *procs), *p;
	con_inspect_set s;
	char e[CON_CMD_ERR];

	errs = calloc(n + 1, sizeof *errs);
	if (n == 0 || q == NULL || lines == NULL || procs == NULL ||
	    errs == NULL) {
		snprintf(err, errlen, n == 0 ? "no process is stopped" :
			 "out of memory");
		free(q), free(lines), free(procs), free(errs);
		return n == 0 ? WIRE_ESTATE : WIRE_ENOMEM;
	}
	for (p = con_dbg_proc_first(); p != NULL && k < n; p = p->next) {
		if (!con_cmd_dbg_asked(p))
			continue;
		procs[k] = p;
		if (con_cmd_is_expr(expr, fmt)) {
			lines[k] = con_cmd_expr_line(p, expr, fmt, e, sizeof e);
			if (lines[k] == NULL &&
			    asprintf(&lines[k], "%s: error: %s", expr, e) < 0)
				lines[k] = NULL;
		} else if (con_dbg_inspect(p, expr, NULL, &q[k], e,
					   sizeof e) < 0) {
			errs[k] = strdup(e);
		}
		k++;
	}
	s.q = q;
	s.n = k;
	con_cmd_dbg_wait(con_dbg_inspect_all_done, &s, CON_DBG_VALUE_SECS);
	for (i = 0; i < k; i++) {
		if (lines[i] != NULL)
			continue; /* an expression's, done above */
		lines[i] = con_cmd_dbg_all_line(expr, &q[i], errs[i] != NULL ?
						errs[i] : q[i].done ? NULL :
						"no answer in time");
		con_dbg_inspect_done(&q[i]);
		free(errs[i]);
	}
	con_cmd_dbg_groups(lines, procs, k);
	free(q), free(lines), free(procs), free(errs);
	return 0;
}

/* print [-all] [/FMT] EXPR */
int con_cmd_dbg_print(int argc, char **argv, char *err, size_t errlen)
{
	char expr[CON_DBG_EXPR];
	int all = argc > 1 && strcmp(argv[1], "-all") == 0, fmt = 0;
	int first = 1 + all; /* the word the expression starts at */
	con_proc *p;

	con_dbg_init();
	if (argc > first && argv[first][0] == '/') {
		fmt = argv[first][1];
		if (fmt == '\0' || argv[first][2] != '\0') {
			snprintf(err, errlen, "print: bad format '%s' (/d /u /x "
				 "/o /t /c /f)", argv[first]);
			return WIRE_EARG;
		}
		first++;
	}
	if (con_cmd_dbg_join(argc, argv, first, expr, sizeof expr) < 0) {
		snprintf(err, errlen, "usage: print [-all] [/FMT] EXPR");
		return WIRE_EARG;
	}
	if (con_dbg_proc_first() == NULL && con_tfile_loaded()->nvars > 0)
		return con_tfile_cmd_print_var(expr, err, errlen); /* opened */
	if (all)
		return con_cmd_dbg_print_all(expr, fmt, err, errlen);
	p = con_cmd_dbg_stopped(err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	return con_cmd_dbg_print_one(p, expr, fmt, err, errlen);
}

/* Prints "name = value" for every variable of the current process whose
 * scope is a or b; none says so. */
static int con_cmd_dbg_vars(int a, int b, const char *none, char *err,
			    size_t errlen)
{
	con_proc *p = con_cmd_dbg_stopped(err, errlen);
	con_inspect *q;
	con_inspect_set s;
	size_t i, k = 0;
	char e[CON_CMD_ERR];

	if (p == NULL)
		return WIRE_ESTATE;
	q = calloc(p->nvars + 1, sizeof *q);
	if (q == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	for (i = 0; i < p->nvars; i++)
		if ((p->vars[i].scope == a || p->vars[i].scope == b) &&
		    con_dbg_inspect(p, NULL, &p->vars[i], &q[k++], e,
				    sizeof e) < 0)
			q[k - 1].done = 1;
	s.q = q;
	s.n = k;
	con_cmd_dbg_wait(con_dbg_inspect_all_done, &s, CON_DBG_VALUE_SECS);
	for (i = 0, k = 0; i < p->nvars; i++) {
		if (p->vars[i].scope != a && p->vars[i].scope != b)
			continue;
		if (q[k].ok)
			printf("%s = %s\n", p->vars[i].name, q[k].text);
		else
			printf("%s: error: %s\n", p->vars[i].name,
			       q[k].text != NULL ? q[k].text : "no answer");
		con_dbg_inspect_done(&q[k++]);
	}
	if (k == 0)
		printf("%s\n", none);
	free(q);
	return 0;
}

/* info locals */
int con_info_locals(int argc, char **argv, char *err, size_t errlen)
{
	con_dbg_init();
	return con_cmd_dbg_vars(PVT_PARAM, PVT_LOCAL, "No locals.", err,
				errlen);
}

/* info args */
int con_info_args(int argc, char **argv, char *err, size_t errlen)
{
	(void)argc, (void)argv;
	con_dbg_init();
	return con_cmd_dbg_vars(PVT_PARAM, PVT_PARAM, "No arguments.", err,
				errlen);
}

/* info globals */
int con_info_globals(int argc, char **argv, char *err, size_t errlen)
{
	con_dbg_init();
	return con_cmd_dbg_vars(PVT_GLOBAL, PVT_STATIC, "No globals.", err,
				errlen);
}

/* The '=' of an assignment in s (not of ==, <=, >=, !=), or NULL. */
static char *con_cmd_assign_eq(char *s)
{
	char *e;

	for (e = strchr(s, '='); e != NULL; e = strchr(e + 2, '=')) {
		if (e[1] == '=')
			continue;
		if (e > s && strchr("<>!=", e[-1]) != NULL)
			continue;
		return e;
	}
	return NULL;
}

/* Cuts blanks off both ends of s in place. */
static char *con_cmd_trim(char *s)
{
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
	return s;
}

/* set var PATH = EXPR (set variable ...) */
int con_cmd_dbg_set(int argc, char **argv, char *err, size_t errlen)
{
	char line[CON_DBG_EXPR], *eq, *lhs, *rhs;
	con_inspect q;
	con_inspect_set s = {&q, 1};
	con_proc *p;
	int rc, first = 1;

	con_dbg_init();
	if (argc > 1 && strcmp(argv[1], "stop-mode") == 0)
		return con_cmd_stop_mode(argc - 1, argv + 1, err, errlen);
	if (argc > 1 && (strcmp(argv[1], "var") == 0 ||
			 strcmp(argv[1], "variable") == 0))
		first = 2;
	if (con_cmd_dbg_join(argc, argv, first, line, sizeof line) < 0 ||
	    (eq = con_cmd_assign_eq(line)) == NULL) {
		snprintf(err, errlen, "usage: set var VARIABLE = EXPR");
		return WIRE_EARG;
	}
	*eq = '\0';
	lhs = con_cmd_trim(line);
	rhs = con_cmd_trim(eq + 1);
	if (*lhs == '\0' || *rhs == '\0') {
		snprintf(err, errlen, "usage: set var VARIABLE = EXPR");
		return WIRE_EARG;
	}
	p = con_cmd_dbg_stopped(err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	rc = con_dbg_set_var(p, lhs, rhs, &q, err, errlen);
	if (rc < 0)
		return rc;
	rc = con_cmd_dbg_wait(con_dbg_inspect_all_done, &s, CON_DBG_VALUE_SECS);
	if (rc != 0)
		snprintf(err, errlen, "p%d did not answer within %g s", p->id,
			 CON_DBG_VALUE_SECS);
	else if (!q.ok)
		snprintf(err, errlen, "%s: not set: %s", lhs,
			 q.text != NULL ? q.text : "no answer");
	else
		printf("%s = %s\n", lhs, q.text);
	rc = rc != 0 ? WIRE_ETIMEOUT : q.ok ? 0 : WIRE_EARG;
	con_dbg_inspect_done(&q);
	return rc;
}
