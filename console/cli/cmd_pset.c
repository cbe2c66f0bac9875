/*
 * cmd_pset.c — process sets, as TotalView and DDT have them: `pset NAME
 * = SPEC` names a set, `focus SPEC` makes one the set that continue, step,
 * next, finish, until, interrupt and print -all work on, and a line
 * `[SPEC] COMMAND ...` runs one command with that focus.  SPEC is a list
 * of process ranges and names: p3, p1-4,p7, @big (the processes on node
 * big), workers, all, stopped, running; a command that moves processes
 * takes the set behind it too (`continue [workers]`).  `set stop-mode all|one` lives here too.  Sets are resolved
 * when used, so processes started later join a range.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"
#include "wire.h"

#define CON_PSET_DEPTH 8 /* names inside names, at most */

/* A named set. */
typedef struct con_pset {
	char *name;  /* owned */
	char *spec;  /* owned */
} con_pset;

static struct {
	con_pset *v;
	size_t n;
	char *focus; /* the focus's spec, or NULL (the current process) */
} con_ps;

/* The named set called name, or NULL. */
static con_pset *con_pset_find(const char *name)
{
	size_t i;

	for (i = 0; i < con_ps.n; i++)
		if (strcmp(con_ps.v[i].name, name) == 0)
			return &con_ps.v[i];
	return NULL;
}

/* Marks in sel (by process id) the processes item names. */
static int con_pset_item(const char *item, char *sel, int max, int depth,
			 char *err, size_t errlen);

/* Marks the processes of spec (comma-separated items). */
static int con_pset_mark(const char *spec, char *sel, int max, int depth,
			 char *err, size_t errlen)
{
	char buf[512], *save = NULL, *item;

	if (depth > CON_PSET_DEPTH) {
		snprintf(err, errlen, "process sets name each other in a loop");
		return -1;
	}
	snprintf(buf, sizeof buf, "%s", spec);
	for (item = strtok_r(buf, ", ", &save); item != NULL;
	     item = strtok_r(NULL, ", ", &save))
		if (con_pset_item(item, sel, max, depth, err, errlen) < 0)
			return -1;
	return 0;
}

static int con_pset_item(const char *item, char *sel, int max, int depth,
			 char *err, size_t errlen)
{
	const con_pset *ps = con_pset_find(item);
	const con_proc *p;
	long a, b;
	char *end;

	if (ps != NULL)
		return con_pset_mark(ps->spec, sel, max, depth + 1, err, errlen);
	if (strcmp(item, "all") == 0 || strcmp(item, "stopped") == 0 ||
	    strcmp(item, "running") == 0) {
		for (p = con_dbg_proc_first(); p != NULL; p = p->next)
			if (p->id < max && (item[0] == 'a' ||
			    (item[0] == 's' && p->state == CON_PROC_STOPPED) ||
			    (item[0] == 'r' && p->state == CON_PROC_RUNNING)))
				sel[p->id] = 1;
		return 0;
	}
	if (item[0] == '@') { /* the processes on a node */
		for (p = con_dbg_proc_first(); p != NULL; p = p->next)
			if (p->id < max && strcmp(p->node, item + 1) == 0)
				sel[p->id] = 1;
		return 0;
	}
	if (item[0] != 'p' || !isdigit((unsigned char)item[1]))
		goto bad;
	a = strtol(item + 1, &end, 10);
	b = a;
	if (*end == '-') {
		b = strtol(end + (end[1] == 'p' ? 2 : 1), &end, 10);
	}
	if (*end != '\0' || a < 1 || b < a)
		goto bad;
	for (; a <= b && a < max; a++)
		sel[a] = 1;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a process (p3), a range (p1-4), "
		 "a node (@big), a set name, all, stopped or running", item);
	return -1;
}

/* See con_cmd_int.h. */
int con_pset_resolve(const char *spec, con_proc ***out, size_t *n, char *err,
		     size_t errlen)
{
	int max = 1;
	con_proc *p, **v;
	char *sel;

	*out = NULL;
	*n = 0;
	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->id >= max)
			max = p->id + 1;
	sel = calloc((size_t)max + 1, 1);
	v = calloc((size_t)max + 1, sizeof *v);
	if (sel == NULL || v == NULL) {
		free(sel), free(v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (con_pset_mark(spec, sel, max, 0, err, errlen) < 0) {
		free(sel), free(v);
		return -1;
	}
	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (sel[p->id])
			v[(*n)++] = p;
	free(sel);
	*out = v;
	return 0;
}

/* See con_cmd_int.h. */
const char *con_pset_focus(void)
{
	return con_ps.focus;
}

/* Replaces *slot with a copy of s (NULL: none).  0 or -1. */
static int con_pset_keep(char **slot, const char *s)
{
	char *c = s != NULL ? strdup(s) : NULL;

	if (s != NULL && c == NULL)
		return -1;
	free(*slot);
	*slot = c;
	return 0;
}

/* focus [SPEC|none]: without an argument, shows the focus. */
int con_cmd_dbg_focus(int argc, char **argv, char *err, size_t errlen)
{
	char spec[512];
	con_proc **v;
	size_t n, i;

	con_dbg_init();
	if (argc == 1) {
		printf("focus: %s\n", con_ps.focus != NULL ? con_ps.focus :
		       "the current process");
		return 0;
	}
	if (con_cmd_dbg_join(argc, argv, 1, spec, sizeof spec) < 0) {
		snprintf(err, errlen, "usage: focus SPEC | none");
		return WIRE_EARG;
	}
	if (strcmp(spec, "none") == 0)
		return con_pset_keep(&con_ps.focus, NULL) < 0 ? WIRE_ENOMEM : 0;
	if (con_pset_resolve(spec, &v, &n, err, errlen) < 0)
		return WIRE_EARG;
	if (con_pset_keep(&con_ps.focus, spec) < 0) {
		free(v);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	printf("focus: %s (now", spec);
	for (i = 0; i < n; i++)
		printf(" p%d", v[i]->id);
	printf("%s)\n", n == 0 ? " no process" : "");
	free(v);
	return 0;
}

/* pset [NAME = SPEC]: without arguments, lists the sets. */
int con_cmd_dbg_pset(int argc, char **argv, char *err, size_t errlen)
{
	char line[600], *eq, *name, *spec;
	con_pset *ps, *nv;
	con_proc **v;
	size_t n;

	con_dbg_init();
	if (argc == 1) {
		con_pset_info();
		return 0;
	}
	if (con_cmd_dbg_join(argc, argv, 1, line, sizeof line) < 0 ||
	    (eq = strchr(line, '=')) == NULL) {
		snprintf(err, errlen, "usage: pset NAME = SPEC");
		return WIRE_EARG;
	}
	*eq = '\0';
	name = strtok(line, " ");
	spec = eq + 1;
	while (*spec == ' ')
		spec++;
	if (name == NULL || strtok(NULL, " ") != NULL || *spec == '\0' ||
	    (!isalpha((unsigned char)name[0]) && name[0] != '_') ||
	    strcmp(name, "all") == 0 || strcmp(name, "stopped") == 0 ||
	    strcmp(name, "running") == 0 ||
	    (name[0] == 'p' && isdigit((unsigned char)name[1]))) {
		snprintf(err, errlen, "pset: NAME must be a word that is not "
			 "a process (pN), all, stopped or running");
		return WIRE_EARG;
	}
	if (con_pset_resolve(spec, &v, &n, err, errlen) < 0)
		return WIRE_EARG;
	free(v);
	ps = con_pset_find(name);
	if (ps == NULL) {
		nv = realloc(con_ps.v, (con_ps.n + 1) * sizeof *nv);
		if (nv == NULL) {
			snprintf(err, errlen, "out of memory");
			return WIRE_ENOMEM;
		}
		con_ps.v = nv;
		ps = &nv[con_ps.n];
		memset(ps, 0, sizeof *ps);
		if (con_pset_keep(&ps->name, name) < 0) {
			snprintf(err, errlen, "out of memory");
			return WIRE_ENOMEM;
		}
		con_ps.n++;
	}
	if (con_pset_keep(&ps->spec, spec) < 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	return 0;
}

/* See con_cmd_int.h. */
void con_pset_info(void)
{
	char err[200];
	con_proc **v;
	size_t i, k, n;

	for (i = 0; i < con_ps.n; i++) {
		printf("set %s = %s:", con_ps.v[i].name, con_ps.v[i].spec);
		if (con_pset_resolve(con_ps.v[i].spec, &v, &n, err,
				     sizeof err) < 0) {
			printf(" %s\n", err);
			continue;
		}
		for (k = 0; k < n; k++)
			printf(" p%d", v[k]->id);
		printf("%s\n", n == 0 ? " no process" : "");
		free(v);
	}
	if (con_ps.focus != NULL)
		printf("focus: %s\n", con_ps.focus);
}

/* A run-control line with its set behind ("continue [workers]") as
 * "[workers] continue" in buf; line itself otherwise.  Only commands that
 * move processes take a set there: `print a [3]` stays an index. */
static const char *con_pset_suffix(const char *line, char *buf, size_t n)
{
	static const char *const cmds[] = {"continue", "c", "step", "s",
		"next", "n", "finish", "until", "advance", "interrupt",
		"wait", NULL};
	const char *open, *end = line + strlen(line);
	size_t w = strcspn(line, " \t"), i;

	while (end > line && isspace((unsigned char)end[-1]))
		end--;
	if (end == line || end[-1] != ']' ||
	    (open = strrchr(line, '[')) == NULL || open == line ||
	    !isspace((unsigned char)open[-1]) || open > end)
		return line;
	for (i = 0; cmds[i] != NULL; i++)
		if (strlen(cmds[i]) == w && strncmp(line, cmds[i], w) == 0)
			break;
	if (cmds[i] == NULL ||
	    snprintf(buf, n, "%.*s %.*s", (int)(end - open), open,
		     (int)(open - line), line) >= (int)n)
		return line;
	return buf;
}

/* See con_cmd_int.h. */
int con_pset_run_prefixed(const char *line, const char *where, int *rc)
{
	const char *close;
	char spec[512], *old = NULL, moved[1024];
	con_proc **v;
	size_t n;
	char err[200];

	while (*line == ' ')
		line++;
	line = con_pset_suffix(line, moved, sizeof moved);
	if (*line != '[')
		return 0;
	close = strchr(line, ']');
	if (close == NULL || (size_t)(close - line) >= sizeof spec) {
		con_cmd_error(where, "a process set prefix is [SPEC] COMMAND");
		*rc = -1;
		return 1;
	}
	snprintf(spec, sizeof spec, "%.*s", (int)(close - line - 1), line + 1);
	if (con_pset_resolve(spec, &v, &n, err, sizeof err) < 0) {
		con_cmd_error(where, "%s", err);
		*rc = -1;
		return 1;
	}
	free(v);
	if (con_pset_keep(&old, con_ps.focus) < 0 ||
	    con_pset_keep(&con_ps.focus, spec) < 0) {
		free(old);
		con_cmd_error(where, "out of memory");
		*rc = -1;
		return 1;
	}
	*rc = con_cmd_exec(close + 1, where);
	free(con_ps.focus);
	con_ps.focus = old;
	return 1;
}

/* set stop-mode all|one */
int con_cmd_stop_mode(int argc, char **argv, char *err, size_t errlen)
{
	if (argc == 1) {
		printf("stop-mode %s\n", con_dbg_stop_all() ? "all" : "one");
		return 0;
	}
	if (argc != 2 || (strcmp(argv[1], "all") != 0 &&
			  strcmp(argv[1], "one") != 0)) {
		snprintf(err, errlen, "usage: set stop-mode all|one");
		return WIRE_EARG;
	}
	con_dbg_set_stop_all(strcmp(argv[1], "all") == 0);
	return 0;
}
