/*
 * cmd_build.c — the commands that prepare a program: `load` (which
 * sources, how they are built) and `build` (instrument them, ship them
 * to the nodes, wait for every node's compiler and print its result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"
#include "wire.h"

/* load [--pvm|--mpi|--plain] [FLAG...] [--cflags[@PORT] 'FLAGS']
 * [--ldflags[@PORT] 'FLAGS'] FILE... (con_dbg_load.c) */
int con_cmd_dbg_load(int argc, char **argv, char *err, size_t errlen)
{
	char **src;
	size_t n, i;
	int rc;

	con_dbg_init();
	rc = con_dbg_load(argc, argv, err, errlen);
	if (rc < 0)
		return rc;
	src = con_dbg_sources(&n);
	printf("loaded %zu source file%s:", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		printf(" %s", src[i]);
	printf("\n%s\n", con_dbg_load_note());
	return 0;
}

/* Prints text with every line indented by two spaces. */
static void con_cmd_dbg_indent(const char *text)
{
	const char *nl;

	while (text != NULL && *text != '\0') {
		nl = strchr(text, '\n');
		if (nl == NULL)
			nl = text + strlen(text);
		printf("  %.*s\n", (int)(nl - text), text);
		text = *nl != '\0' ? nl + 1 : nl;
	}
}

/* Prints the per-node results ("build of PROG on NODE" when the build
 * makes several programs); returns how many failed. */
static int con_cmd_dbg_build_report(char *failed, size_t flen)
{
	char what[WIRE_TEXT_MAX + 64];
	const char *last = "";
	con_nodebuild *b;
	size_t nprogs;
	int nfail = 0;

	failed[0] = '\0';
	con_dbg_programs(&nprogs);
	for (b = con_dbg_build_first(); b != NULL; b = b->next) {
		if (nprogs > 1)
			snprintf(what, sizeof what, "build of %s on %s",
				 b->program, b->node);
		else
			snprintf(what, sizeof what, "build on %s", b->node);
		if (b->state == CON_NB_OK) {
			printf("%s: ok\n", what);
			continue;
		}
		printf("%s: failed%s\n", what,
		       b->state == CON_NB_PENDING ? ": no answer in time" :
		       "");
		con_cmd_dbg_indent(b->diag);
		if (nfail++ == 0 || strcmp(b->node, last) != 0)
			snprintf(failed + strlen(failed),
				 flen - strlen(failed), " %s", b->node);
		last = b->node;
	}
	return nfail;
}

/* build [NODE...] */
int con_cmd_dbg_build(int argc, char **argv, char *err, size_t errlen)
{
	char *notes = NULL, failed[512];
	int rc, nfail;

	con_dbg_init();
	rc = con_dbg_build_check(argv + 1, argc - 1, err, errlen);
	if (rc == 0)
		rc = con_dbg_instrument(&notes, err, errlen);
	if (rc < 0)
		return rc;
	printf("build %u: instrumented %s\n", con_dbg_build_number(),
	       con_dbg_sources(&(size_t){0})[0]);
	if (notes != NULL)
		printf("%s%s", notes, notes[0] != '\0' &&
		       notes[strlen(notes) - 1] != '\n' ? "\n" : "");
	free(notes);
	rc = con_dbg_build_send(argv + 1, argc - 1, err, errlen);
	if (rc == 0) /* the breakpoints are compiled in now: none is live */
		rc = con_dbg_live_sync(err, errlen);
	if (rc < 0)
		return rc;
	fflush(stdout);
	con_cmd_dbg_wait(con_dbg_build_done, NULL, CON_DBG_BUILD_SECS);
	nfail = con_cmd_dbg_build_report(failed, sizeof failed);
	if (nfail > 0) {
		snprintf(err, errlen, "build failed on%s", failed);
		return WIRE_EARG;
	}
	return 0;
}
