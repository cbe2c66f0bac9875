/*
 * cmd_break.c — the breakpoint commands: `break` and `tbreak` (with
 * `record` for a breakpoint that records variables and goes on),
 * `delete`, and `info breakpoints` with where each landed in the last
 * build.
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
	bp_delete(con_dbg_bps(), b->id, list, sizeof list);
	return WIRE_EARG;
}

/* break / tbreak LOCATION [record [VAR[,VAR...]]] */
int con_cmd_dbg_break(int argc, char **argv, char *err, size_t errlen)
{
	int temp = strcmp(argv[0], "tbreak") == 0;
	char where[1100], rec[CON_DBG_EXPR];
	bp *b;

	con_dbg_init();
	if (argc < 2) {
		snprintf(err, errlen, "usage: %s FILE:LINE | FUNCTION "
			 "[record [VAR[,VAR...]]]", argv[0]);
		return WIRE_EARG;
	}
	if (bp_add(con_dbg_bps(), argv[1], temp, &b, err, errlen) < 0)
		return WIRE_EARG;
	if (argc > 2 && con_cmd_dbg_record(b, argc, argv, err, errlen) < 0)
		return WIRE_EARG;
	bp_where(b, where, sizeof where);
	bp_record_text(b, rec, sizeof rec);
	printf("%s %d at %s%s%s%s\n", temp ? "Temporary breakpoint" :
	       "Breakpoint", b->id, b->func != NULL ? "function " : "",
	       where, b->record ? ", recording " : "", rec);
	if (con_dbg_build_number() > 0)
		printf("note: breakpoints are compiled in: rebuild with "
		       "`build` for this one to take effect\n");
	return 0;
}

/* delete [N...]: without numbers, every breakpoint. */
int con_cmd_dbg_delete(int argc, char **argv, char *err, size_t errlen)
{
	bp_model *m;
	char *end;
	long id;
	int i;

	con_dbg_init();
	m = con_dbg_bps();
	if (argc == 1) {
		bp_model_destroy(m);
		printf("deleted every breakpoint\n");
		return 0;
	}
	for (i = 1; i < argc; i++) {
		id = strtol(argv[i], &end, 10);
		if (*end != '\0' || end == argv[i] || id < 1 || id > 1000000) {
			snprintf(err, errlen, "delete: bad breakpoint number "
				 "'%s'", argv[i]);
			return WIRE_EARG;
		}
		if (bp_delete(m, (int)id, err, errlen) < 0)
			return WIRE_EARG;
	}
	return 0;
}

/* The "Landed" cell of a breakpoint. */
static void con_cmd_dbg_landed(const bp *b, char *buf, size_t n)
{
	if (con_dbg_build_number() == 0)
		snprintf(buf, n, "-");
	else if (!b->landed)
		snprintf(buf, n, "not compiled in: rebuild with `build`");
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
		       b->record ? "record" : "breakpoint",
		       b->temp ? "once" : "keep", b->enabled ? "y" : "n",
		       where, b->hits, landed);
		if (b->record) {
			bp_record_text(b, rec, sizeof rec);
			printf("     records %s, then goes on\n", rec);
		}
	}
	return 0;
}
