/*
 * con_script.h — running commands from a stream: -x SCRIPT, ~/.paravtrc
 * and commands piped on stdin.
 *
 * Lines are read one at a time (so commands fed through a pipe run as they
 * arrive); blank lines and lines whose first word starts with # are
 * skipped; every other line goes to con_cmd_exec() with "NAME:LINE" as
 * its place in error messages.  A failing command does not stop the
 * script; `quit` does.
 */
#ifndef PARAVT_CON_SCRIPT_H
#define PARAVT_CON_SCRIPT_H

#include <stdio.h>

/* Runs every line of f, named name in messages.  Returns the number of
 * commands that failed; sets *quit when a quit command ran. */
int con_script_run(FILE *f, const char *name, int *quit);

/* Opens path and runs it like con_script_run.  If the file cannot be
 * opened, returns -1 with a sentence in err (missing_ok: a missing file
 * is not an error and 0 is returned). */
int con_script_run_file(const char *path, int missing_ok, int *quit,
			char *err, size_t errlen);

#endif
