/*
 * con_script.c — running commands from a stream (con_script.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_script.h"

/* Reads and runs lines until end of file or quit. */
int con_script_run(FILE *f, const char *name, int *quit)
{
	char *line = NULL, where[1100];
	size_t cap = 0;
	long lineno = 0;
	int failed = 0, rc;

	*quit = 0;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		snprintf(where, sizeof where, "%s:%ld", name, lineno);
		rc = con_cmd_exec(line, where);
		if (rc < 0)
			failed++;
		if (rc == CON_CMD_QUIT) {
			*quit = 1;
			break;
		}
	}
	free(line);
	return failed;
}

/* Opens path and runs it; a missing rc file is not an error. */
int con_script_run_file(const char *path, int missing_ok, int *quit,
			char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	int failed;

	*quit = 0;
	if (f == NULL) {
		if (missing_ok && errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot open script '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	failed = con_script_run(f, path, quit);
	fclose(f);
	return failed;
}
