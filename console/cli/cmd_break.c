/*
 * cmd_break.c — the breakpoint commands: `break` and `tbreak` (with
 * `record` for a breakpoint that records variables and goes on),
 * `delete`, `disable`, `enable`, `ignore`, and `info breakpoints` with
 * where each landed in the last build.  Before a build a breakpoint is
 * compiled in; after it, it lands on a line probe of the build and is
 * armed on the nodes at once (con_dbg_live_land, con_dbg_live_sync).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"
#include "wire.h"

/* Makes b a record breakpoint from `record [VAR[,VAR...]]` at argv[2].
 * 0 or WIRE_EARG with err (b is deleted then). */
static int con_cmd_dbg_record(bp *b, int argc, char **argv, char *err,
			      size_t errlen)
{
	char list[CON_DBG_EXPR];

	list[0] = '\0';
	if (strcmp(argv[2], "record") != 0) {
		snprintf(err, errlen, "%s: expected 'record' after the "
			 "location, not '%s'", argv[0], argv[2]);
	} else if (argc > 3 &&
		   con_cmd_dbg_join(argc, argv, 3, list, sizeof list) < 0) {
		snprintf(err, errlen, "%s: record list too long", argv[0]);
	} else if (bp_set_record(b, list, err, errlen) == 0) {
		return 0;
	}
	bp_discard(con_dbg_bps(), b->id);
	return WIRE_EARG;
}

/* Arms breakpoint b, set after the build, on the nodes: it lands on a
 * line probe of the build (a note when it moved) and the table goes to
 * every node.  0, or WIRE_EARG with err (b is taken back then). */
static int con_cmd_break_live(bp *b, char *err, size_t errlen)
{
	char note[1200];

	if (con_dbg_live_land(b, note, sizeof note, err, errlen) < 0) {
		bp_discard(con_dbg_bps(), b->id);
		return WIRE_EARG;
	}
	if (note[0] != '\0')
		printf("%s\n", note);
	return con_dbg_live_sync(err, errlen) < 0 ? WIRE_EIO : 0;
}

/* The table of live breakpoints to the nodes again, after a change. */
static int con_cmd_break_sync(char *err, size_t errlen)
{
	return con_dbg_build_number() > 0 &&
	       con_dbg_live_sync(err, errlen) < 0 ? WIRE_EIO : 0;
}

/* The words from "if" on (argv[at..]) as b's condition; argc is cut to
 * at.  0, or WIRE_EARG with err (b taken back). */
static int con_cmd_break_if(bp *b, int *argc, char **argv, int at, char *err,
			    size_t errlen)
{
	char cond[CON_DBG_EXPR];

	if (con_cmd_dbg_join(*argc, argv, at + 1, cond, sizeof cond) < 0 ||
	    bp_set_cond(con_dbg_bps(), b->id, cond, err, errlen) < 0) {
		if (cond[0] == '\0' || at + 1 >= *argc)
			snprintf(err, errlen, "%s: a condition after 'if'",
				 argv[0]);
		bp_discard(con_dbg_bps(), b->id);
		return WIRE_EARG;
	}
	*argc = at;
	return 0;
}

/* break / tbreak LOCATION [record [VAR[,VAR...]]] [if EXPR] */
int con_cmd_dbg_break(int argc, char **argv, char *err, size_t errlen)
{
	int temp = strcmp(argv[0], "tbreak") == 0, i;
	char where[1100], rec[CON_DBG_EXPR];
	bp *b;

	con_dbg_init();
	if (argc < 2) {
		snprintf(err, errlen, "usage: %s FILE:LINE | FUNCTION "
			 "[record [VAR[,VAR...]]] [if EXPR]", argv[0]);
		return WIRE_EARG;
	}
	if (bp_add(con_dbg_bps(), argv[1], temp, &b, err, errlen) < 0)
		return WIRE_EARG;
	for (i = 2; i < argc && strcmp(argv[i], "if") != 0; i++)
		;
	if (i < argc && con_cmd_break_if(b, &argc, argv, i, err, errlen) < 0)
		return WIRE_EARG;
	if (argc > 2 && con_cmd_dbg_record(b, argc, argv, err, errlen) < 0)
		return WIRE_EARG;
	if (con_dbg_build_number() > 0 &&
	    con_cmd_break_live(b, err, errlen) < 0)
		return WIRE_EARG;
	bp_where(b, where, sizeof where);
	bp_record_text(b, rec, sizeof rec);
	printf("%s %d at %s%s%s%s%s%s\n", temp ? "Temporary breakpoint" :
	       "Breakpoint", b->id, b->func != NULL ? "function " : "",
	       where, b->record ? ", recording " : "", rec,
	       b->cond != NULL ? " if " : "", b->cond != NULL ? b->cond : "");
	return 0;
}

/* info breakpoints: b's condition and where it is decided. */
static void con_cmd_cond_info(const bp *b)
{
	printf("     stop only if %s\n", b->cond);
	if (b->code != NULL)
		printf("     condition run by the processes\n");
	else if (b->code_why != NULL)
		printf("     condition decided by the console at each pass "
		       "(%s)\n", b->code_why);
	if (b->cond_console > 0)
		printf("     the console found it false %u time%s\n",
		       b->cond_console, b->cond_console == 1 ? "" : "s");
}

/* condition N [EXPR]: without EXPR, the breakpoint stops always. */
int con_cmd_dbg_condition(int argc, char **argv, char *err, size_t errlen)
{
	char cond[CON_DBG_EXPR];
	long id;

	con_dbg_init();
	if (argc < 2) {
		snprintf(err, errlen, "usage: condition N [EXPR]");
		return WIRE_EARG;
	}
	cond[0] = '\0';
	if (con_cmd_number(argv[0], "breakpoint number", argv[1], 1, 1000000,
			   &id, err, errlen) < 0 ||
	    (argc > 2 && con_cmd_dbg_join(argc, argv, 2, cond,
					  sizeof cond) < 0) ||
	    bp_set_cond(con_dbg_bps(), (int)id, cond, err, errlen) < 0)
		return WIRE_EARG;
	if (cond[0] == '\0')
		printf("Breakpoint %ld now unconditional.\n", id);
	return 0;
}

/* delete [N...]: without numbers, every breakpoint. */
int con_cmd_dbg_delete(int argc, char **argv, char *err, size_t errlen)
{
	bp_model *m;
	long id;
	int i;

	con_dbg_init();
	m = con_dbg_bps();
	if (argc == 1) {
		bp_model_destroy(m);
		printf("deleted every breakpoint\n");
		return con_cmd_break_sync(err, errlen);
	}
	for (i = 1; i < argc; i++) {
		if (con_cmd_number(argv[0], "breakpoint number", argv[i], 1,
				   1000000, &id, err, errlen) < 0 ||
		    bp_delete(m, (int)id, err, errlen) < 0)
			return WIRE_EARG;
	}
	return con_cmd_break_sync(err, errlen);
}

/* enable / disable [N...]: without numbers, every breakpoint. */
int con_cmd_dbg_enable(int argc, char **argv, char *err, size_t errlen)
{
	int on = strcmp(argv[0], "enable") == 0, i;
	bp *b;
	long id;

	con_dbg_init();
	if (argc == 1)
		for (b = con_dbg_bps()->head; b != NULL; b = b->next)
			b->enabled = on;
	for (i = 1; i < argc; i++)
		if (con_cmd_number(argv[0], "breakpoint number", argv[i], 1,
				   1000000, &id, err, errlen) < 0 ||
		    bp_set_enabled(con_dbg_bps(), (int)id, on, err,
				   errlen) < 0)
			return WIRE_EARG;
	return con_cmd_break_sync(err, errlen);
}

/* ignore N COUNT */
int con_cmd_dbg_ignore(int argc, char **argv, char *err, size_t errlen)
{
	long id, count;

	con_dbg_init();
	if (argc != 3) {
		snprintf(err, errlen, "usage: ignore N COUNT");
		return WIRE_EARG;
	}
	if (con_cmd_number(argv[0], "breakpoint number", argv[1], 1,
			   1000000, &id, err, errlen) < 0 ||
	    con_cmd_number(argv[0], "count", argv[2], 0, 1000000000,
			   &count, err, errlen) < 0 ||
	    bp_set_ignore(con_dbg_bps(), (int)id, (unsigned)count, err,
			  errlen) < 0)
		return WIRE_EARG;
	printf("Will ignore next %ld crossings of breakpoint %ld.\n", count,
	       id);
	return con_cmd_break_sync(err, errlen);
}

/* The "Landed" cell of a breakpoint. */
static void con_cmd_dbg_landed(const bp *b, char *buf, size_t n)
{
	if (b->watch != NULL)
		snprintf(buf, n, "on p%d, value %s", b->watch_proc,
			 b->watch_old != NULL ? b->watch_old : "?");
	else if (con_dbg_build_number() == 0)
		snprintf(buf, n, "-");
	else if (!b->landed)
		snprintf(buf, n, "not compiled in: rebuild with `build`");
	else if (b->live && b->line != 0 && b->line != b->at_line)
		snprintf(buf, n, "%s:%d in %s (live; moved from line %d)",
			 b->at_file, b->at_line, b->at_func, b->line);
	else if (b->live)
		snprintf(buf, n, "%s:%d in %s (live)", b->at_file, b->at_line,
			 b->at_func);
	else if (b->line != 0 && b->line != b->at_line)
		snprintf(buf, n, "%s:%d in %s (moved from line %d)",
			 b->at_file, b->at_line, b->at_func, b->line);
	else
		snprintf(buf, n, "%s:%d in %s%s", b->at_file, b->at_line,
			 b->at_func, b->from_pragma ? " (#pragma)" : "");
}

/* info breakpoints */
int con_info_breakpoints(int argc, char **argv, char *err,
			 size_t errlen)
{
	char where[1100], landed[1200], rec[CON_DBG_EXPR];
	bp *b;

	con_dbg_init();
	b = con_dbg_bps()->head;
	if (b == NULL) {
		printf("No breakpoints.\n");
		return 0;
	}
	printf("%-4s %-10s %-4s %-3s %-24s %-4s %s\n", "Num", "Type", "Disp",
	       "Enb", "Where", "Hits", "Landed");
	for (; b != NULL; b = b->next) {
		bp_where(b, where, sizeof where);
		con_cmd_dbg_landed(b, landed, sizeof landed);
		printf("%-4d %-10s %-4s %-3s %-24s %-4u %s\n", b->id,
		       b->watch != NULL ? "watchpoint" :
		       b->record ? "record" : "breakpoint",
		       b->temp ? "once" : "keep", b->enabled ? "y" : "n",
		       where, b->hits, landed);
		if (b->record) {
			bp_record_text(b, rec, sizeof rec);
			printf("     records %s, then goes on\n", rec);
		}
		if (b->ignore > 0)
			printf("     will ignore the next %u crossings\n",
			       b->ignore);
		if (b->cond != NULL)
			con_cmd_cond_info(b);
	}
	return 0;
}

/* watch VARIABLE: a watchpoint on the current process. */
int con_cmd_dbg_watch(int argc, char **argv, char *err, size_t errlen)
{
	char path[CON_DBG_EXPR];
	con_inspect q;
	con_inspect_set s = {&q, 1};
	con_proc *p = con_dbg_current();
	bp *b;
	int rc;

	con_dbg_init();
	if (con_cmd_dbg_join(argc, argv, 1, path, sizeof path) < 0 ||
	    !con_expr_is_path(path)) {
		snprintf(err, errlen, "usage: watch VARIABLE (x, s.f, a[3], "
			 "*p)");
		return WIRE_EARG;
	}
	if (p == NULL || p->state != CON_PROC_STOPPED || p->frame != 0) {
		snprintf(err, errlen, "watch: the current process must be "
			 "stopped (frame 0) to find %s", path);
		return WIRE_ESTATE;
	}
	if (bp_add_watch(con_dbg_bps(), path, p->id, "?", &b) < 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	rc = con_dbg_watch_set(p, path, b->id, &q, err, errlen);
	if (rc == 0 &&
	    con_cmd_dbg_wait(con_dbg_inspect_all_done, &s, CON_DBG_VALUE_SECS))
		snprintf(err, errlen, "p%d did not answer", p->id), rc = -1;
	else if (rc == 0 && !q.ok)
		snprintf(err, errlen, "watch %s: %s", path,
			 q.text != NULL ? q.text : "refused"), rc = -1;
	if (rc == 0) {
		free(b->watch_old);
		b->watch_old = strdup(q.text);
		printf("Watchpoint %d: %s = %s (p%d)\n", b->id, path, q.text,
		       p->id);
		rc = con_dbg_live_sync(err, errlen);
	} else {
		bp_discard(con_dbg_bps(), b->id);
	}
	con_dbg_inspect_done(&q);
	return rc < 0 ? WIRE_EARG : 0;
}
