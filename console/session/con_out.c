/*
 * con_out.c — the bound on what one process prints (con_out.h).
 *
 * Until a process reaches the cap its lines are shown and kept in memory
 * (at most the cap); the first line over it makes the spill file, which
 * gets the kept lines and then every later one, so that it holds the
 * whole output.  The directory is made once per console with mkdtemp.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_out.h"

static char con_out_dirname[400]; /* the spill directory, "" until made */

/* An unsigned setting of the environment, def when unset or not a
 * number. */
static uint64_t con_out_env(const char *name, uint64_t def)
{
	const char *s = getenv(name);
	unsigned long long v;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return def;
	errno = 0;
	v = strtoull(s, &end, 10);
	return errno != 0 || *end != '\0' ? def : (uint64_t)v;
}

uint64_t con_out_cap(void)
{
	return con_out_env("PARAVT_OUTPUT_CAP", CON_OUT_CAP_DEFAULT);
}

const char *con_out_dir(void)
{
	return con_out_dirname;
}

/* Makes the spill directory once.  0 or -1 (errno). */
static int con_out_mkdir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (con_out_dirname[0] != '\0')
		return 0;
	if (tmp == NULL || *tmp == '\0' || strlen(tmp) > 300)
		tmp = "/tmp";
	snprintf(con_out_dirname, sizeof con_out_dirname,
		 "%s/paravt-output-XXXXXX", tmp);
	if (mkdtemp(con_out_dirname) == NULL) {
		con_out_dirname[0] = '\0';
		return -1;
	}
	return 0;
}

/* Appends n bytes to the file within its limit. */
static void con_out_put(con_out *o, const char *d, size_t n)
{
	uint64_t cap = con_out_env("PARAVT_OUTPUT_FILE_CAP",
				   CON_OUT_FILE_CAP_DEFAULT);
	size_t room = n;

	if (o->file == NULL)
		return;
	if (cap != 0 && o->filed + n > cap)
		room = o->filed >= cap ? 0 : (size_t)(cap - o->filed);
	if (room > 0 && fwrite(d, 1, room, o->file) != room)
		o->failed = 1;
	o->filed += room;
	o->unkept += n - room;
}

/* Makes o's file and writes the lines shown so far into it.  0 or -1
 * with a sentence in note. */
static int con_out_open(con_out *o, int pid_id, char *note, size_t notelen)
{
	if (con_out_mkdir() != 0) {
		snprintf(note, notelen, "output beyond %llu bytes is not "
			 "shown, and cannot be kept (a directory in $TMPDIR: "
			 "%s)", (unsigned long long)con_out_cap(),
			 strerror(errno));
		o->failed = 1;
		return -1;
	}
	snprintf(o->path, sizeof o->path, "%s/p%d.out", con_out_dirname,
		 pid_id);
	o->file = fopen(o->path, "w");
	if (o->file == NULL) {
		snprintf(note, notelen, "output beyond %llu bytes is not "
			 "shown, and cannot be kept (%s: %s)",
			 (unsigned long long)con_out_cap(), o->path,
			 strerror(errno));
		o->failed = 1;
		return -1;
	}
	con_out_put(o, o->kept, o->nkept);
	free(o->kept);
	o->kept = NULL;
	o->nkept = 0;
	snprintf(note, notelen, "output beyond %llu bytes is not shown "
		 "(PARAVT_OUTPUT_CAP); all of it goes to %s",
		 (unsigned long long)con_out_cap(), o->path);
	return 0;
}

/* Keeps a shown line in memory (for the file, should one be made). */
static void con_out_keep(con_out *o, const char *line, size_t len, int nl)
{
	char *k = realloc(o->kept, o->nkept + len + 1);

	if (k == NULL) {
		o->unkept += len + (nl != 0); /* said at the end */
		return;
	}
	memcpy(k + o->nkept, line, len);
	if (nl)
		k[o->nkept + len] = '\n';
	o->kept = k;
	o->nkept += len + (nl != 0);
}

int con_out_line(con_out *o, int pid_id, const char *line, int nl,
		 char *note, size_t notelen)
{
	uint64_t cap = con_out_cap();
	size_t len = strlen(line), n = len + (nl != 0);

	note[0] = '\0';
	if (o->dropped == 0 && (cap == 0 || o->shown + n <= cap)) {
		o->shown += n;
		if (cap != 0)
			con_out_keep(o, line, len, nl);
		return 1;
	}
	if (o->dropped == 0 && !o->failed)
		(void)con_out_open(o, pid_id, note, notelen);
	o->dropped += n;
	con_out_put(o, line, len);
	if (nl)
		con_out_put(o, "\n", 1);
	return 0;
}

void con_out_end(con_out *o, char *note, size_t notelen)
{
	int n;

	note[0] = '\0';
	if (o->file != NULL && fclose(o->file) != 0)
		o->failed = 1;
	o->file = NULL;
	free(o->kept);
	o->kept = NULL;
	o->nkept = 0;
	if (o->dropped == 0)
		return;
	n = snprintf(note, notelen, "... %llu bytes dropped (not shown; "
		     "PARAVT_OUTPUT_CAP is %llu)",
		     (unsigned long long)o->dropped,
		     (unsigned long long)con_out_cap());
	if (n < 0 || (size_t)n >= notelen)
		return;
	if (o->path[0] == '\0' || o->failed)
		snprintf(note + n, notelen - (size_t)n, "; they could not be "
			 "kept%s%s", o->path[0] ? " in " : "", o->path);
	else if (o->unkept > 0)
		snprintf(note + n, notelen - (size_t)n, "; %s holds %llu "
			 "bytes of the output, %llu more were not kept "
			 "(over PARAVT_OUTPUT_FILE_CAP)", o->path,
			 (unsigned long long)o->filed,
			 (unsigned long long)o->unkept);
	else
		snprintf(note + n, notelen - (size_t)n, "; the full output "
			 "is in %s", o->path);
}

void con_out_free(con_out *o)
{
	if (o->file != NULL)
		fclose(o->file);
	free(o->kept);
	memset(o, 0, sizeof *o);
}
