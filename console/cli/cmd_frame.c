/*
 * cmd_frame.c — frames, types and displays of the current process: `up`,
 * `down`, `frame [N]`, `info frame`, `info args`, `whatis PATH`, `ptype
 * PATH`, `display EXPR` (shown at every stop), `undisplay [N]`, `info
 * display`.  The outer frames show where they are (the line of each
 * call); their variables are those recorded at that call while the
 * process was armed (con_dbg_frame_select makes them the process's);
 * print, set and info locals in a frame without them say so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"
#include "paravt_rt.h"
#include "wire.h"

/* The current process, stopped, or NULL with err. */
static con_proc *con_frame_proc(const char *cmd, char *err, size_t errlen)
{
	con_proc *p = con_dbg_current();

	if (p == NULL || p->state != CON_PROC_STOPPED) {
		snprintf(err, errlen, "%s: no stopped current process", cmd);
		return NULL;
	}
	return p;
}

/* Prints frame i of p: "#1 main () at prog.c:31". */
static void con_frame_show(const con_proc *p, int i)
{
	if (p->nstack == 0)
		printf("#0 %s\n", p->where);
	else
		printf("#%d %s () at %s:%d\n", i, p->stack[i].func,
		       p->stack[i].file, p->stack[i].line);
}

/* up [N] | down [N] | frame [N] */
int con_cmd_dbg_frame(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p;
	long n = 1, to;
	int depth;

	con_dbg_init();
	p = con_frame_proc(argv[0], err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	depth = p->nstack > 0 ? (int)p->nstack : 1;
	if (argc > 2 || (argc == 2 &&
			 con_cmd_number(argv[0], "frame number", argv[1], 0,
					depth - 1 > 0 ? depth - 1 : 0, &n, err,
					errlen) < 0))
		return WIRE_EARG;
	if (strcmp(argv[0], "frame") == 0)
		to = argc == 2 ? n : p->frame;
	else
		to = p->frame + (strcmp(argv[0], "up") == 0 ? n : -n);
	if (to < 0 || to >= depth) {
		snprintf(err, errlen, "%s: no frame %s (frames 0 to %d)",
			 argv[0], to < 0 ? "below #0" : "above the outermost",
			 depth - 1);
		return WIRE_EARG;
	}
	(void)con_dbg_frame_select(p, (int)to);
	con_frame_show(p, p->frame);
	return 0;
}

/* info frame */
int con_info_frame(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p;

	(void)argc, (void)argv;
	con_dbg_init();
	p = con_frame_proc("info frame", err, errlen);
	if (p == NULL)
		return WIRE_ESTATE;
	printf("Frame #%d of p%d on %s (%zu frame%s; breakpoint %d):\n",
	       p->frame, p->id, p->node, p->nstack, p->nstack == 1 ? "" : "s",
	       p->bp);
	con_frame_show(p, p->frame);
	if (p->frame + 1 < (int)p->nstack)
		printf(" called by #%d %s () at %s:%d\n", p->frame + 1,
		       p->stack[p->frame + 1].func, p->stack[p->frame + 1].file,
		       p->stack[p->frame + 1].line);
	printf(" variables recorded: %s\n",
	       p->frame == 0 || p->stack[p->frame].has_vars ? "yes" :
	       "no (the process was not armed when it made this call)");
	return 0;
}

/* ---- types ------------------------------------------------------------ */

/* Prints the type of path: whatis its name, ptype its definition. */
int con_cmd_dbg_whatis(int argc, char **argv, char *err, size_t errlen)
{
	char path[CON_DBG_EXPR];
	const td_table *t;
	const td_type *ty;
	uint64_t slice;
	uint32_t id, i;
	con_proc *p;

	con_dbg_init();
	if (con_cmd_dbg_join(argc, argv, 1, path, sizeof path) < 0) {
		snprintf(err, errlen, "usage: %s VARIABLE", argv[0]);
		return WIRE_EARG;
	}
	p = con_frame_proc(argv[0], err, errlen);
	if (p == NULL ||
	    con_dbg_type_of(p, path, &t, &id, &slice, err, errlen) < 0)
		return WIRE_EARG;
	ty = &t->types[id];
	if (slice > 0) {
		printf("type = %s [%llu]\n", ty->name, (unsigned long long)slice);
		return 0;
	}
	while (strcmp(argv[0], "ptype") == 0 && ty->kind == TD_TYPEDEF &&
	       ty->base < t->ntypes)
		ty = &t->types[ty->base];
	if (strcmp(argv[0], "whatis") == 0 ||
	    (ty->kind != TD_STRUCT && ty->kind != TD_UNION &&
	     ty->kind != TD_ENUM)) {
		printf("type = %s\n", ty->name);
		return 0;
	}
	printf("type = %s {", ty->name);
	for (i = 0; ty->kind == TD_ENUM && i < ty->nconsts; i++)
		printf("%s%s", i ? ", " : "", ty->consts[i].name);
	for (i = 0; ty->kind != TD_ENUM && i < ty->nmembers; i++)
		printf("\n    %s %s;", ty->members[i].type < t->ntypes ?
		       t->types[ty->members[i].type].name : "?",
		       ty->members[i].name);
	printf("%s}\n", ty->kind == TD_ENUM ? "" : "\n");
	return 0;
}

/* ---- displays --------------------------------------------------------- */

static struct {
	char **expr; /* shown at every stop, by number - 1; NULL deleted */
	size_t n;
} con_disp;

/* Shows every display on the current process, if it is stopped. */
void con_cmd_display_show(void)
{
	char err[CON_CMD_ERR];
	const char *argv[3];
	con_proc *p = con_dbg_current();
	size_t i;

	if (p == NULL || p->state != CON_PROC_STOPPED)
		return;
	for (i = 0; i < con_disp.n; i++) {
		if (con_disp.expr[i] == NULL)
			continue;
		printf("%zu: ", i + 1);
		argv[0] = "print";
		argv[1] = con_disp.expr[i];
		argv[2] = NULL;
		if (con_cmd_dbg_print(2, (char **)argv, err, sizeof err) < 0)
			printf("%s: error: %s\n", con_disp.expr[i], err);
	}
}

/* display [EXPR]: adds EXPR (and shows it now); alone, shows them all. */
int con_cmd_dbg_display(int argc, char **argv, char *err, size_t errlen)
{
	char expr[CON_DBG_EXPR];
	char **v;

	con_dbg_init();
	if (argc == 1) {
		con_cmd_display_show();
		return 0;
	}
	if (con_cmd_dbg_join(argc, argv, 1, expr, sizeof expr) < 0) {
		snprintf(err, errlen, "usage: display EXPR");
		return WIRE_EARG;
	}
	v = realloc(con_disp.expr, (con_disp.n + 1) * sizeof *v);
	if (v == NULL || (v[con_disp.n] = strdup(expr)) == NULL) {
		if (v != NULL)
			con_disp.expr = v;
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	con_disp.expr = v;
	con_disp.n++;
	printf("display %zu: %s (shown at every stop)\n", con_disp.n, expr);
	con_cmd_display_show();
	return 0;
}

/* undisplay [N...]: without numbers, every display. */
int con_cmd_dbg_undisplay(int argc, char **argv, char *err, size_t errlen)
{
	long id;
	int i;

	if (argc > 1 && con_disp.n == 0) {
		snprintf(err, errlen, "undisplay: no displays");
		return WIRE_EARG;
	}
	for (i = 1; i < argc; i++) {
		if (con_cmd_number(argv[0], "display number", argv[i], 1,
				   (long)con_disp.n, &id, err, errlen) < 0)
			return WIRE_EARG;
		if (con_disp.expr[id - 1] == NULL) {
			snprintf(err, errlen, "undisplay: no display %ld", id);
			return WIRE_EARG;
		}
		free(con_disp.expr[id - 1]);
		con_disp.expr[id - 1] = NULL;
	}
	for (i = 0; argc == 1 && (size_t)i < con_disp.n; i++) {
		free(con_disp.expr[i]);
		con_disp.expr[i] = NULL;
	}
	return 0;
}

/* info display */
int con_info_display(int argc, char **argv, char *err, size_t errlen)
{
	size_t i, n = 0;

	(void)argc, (void)argv, (void)err, (void)errlen;
	for (i = 0; i < con_disp.n; i++)
		if (con_disp.expr[i] != NULL)
			printf("%zu: %s\n", i + 1, con_disp.expr[i]), n++;
	if (n == 0)
		printf("No displays.\n");
	return 0;
}
