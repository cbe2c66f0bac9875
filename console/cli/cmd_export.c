/*
 * cmd_export.c — the exports of what the console holds: the command
 * `trace export otf2 DIR | chrome FILE [--view V] [--force]` (con_cmd.h)
 * and the one-shot `paravt export TRACE --otf2 DIR --chrome FILE`
 * (con_sub.h), which reads a trace file first.
 *
 * Both take the analysis the other commands share (con_ana_get) and hand
 * it to the writers of console/ana/ana_out.h: an OTF2 archive
 * DIR/paravt.otf2 (DIR is created; an archive already there is refused)
 * or Chrome trace-event JSON (FILE, "-" for standard output; an existing
 * FILE is refused unless --force).  On success one line says what was
 * written; the message count is the matched send -> receive pairs, the
 * same number `trace check` prints as matched pairs plus multicast pairs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ana_out.h"
#include "ana_walk.h"
#include "con_ana.h"
#include "con_cmd.h"
#include "con_sub.h"
#include "con_tfile.h"
#include "wire.h"

#define CON_EXPORT_NAME "paravt"  /* archive name inside DIR */
#define CON_EXPORT_USAGE "usage: trace export otf2 DIR | chrome FILE " \
	"[--view comp|order|raw] [--force]"
#define CON_SUB_EXPORT_USAGE "usage: paravt export TRACE [--otf2 DIR] " \
	"[--chrome FILE] [--view comp|order|raw] [--force]"

/* Export formats. */
enum con_export_fmt { CON_EXPORT_OTF2, CON_EXPORT_CHROME };

static const char *const con_export_views[] = {"compensated", "ordered",
					       "raw"};

/* What was asked for. */
typedef struct con_export_req {
	int fmt;             /* enum con_export_fmt */
	const char *target;  /* DIR or FILE */
	int view;            /* ana_view */
	int force;           /* overwrite an existing Chrome FILE */
} con_export_req;

/* Writes the Chrome JSON of tr to path ("-": stdout).  0 or a code. */
static int con_export_chrome(const ana_trace *tr, const con_export_req *q,
			     char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int rc, tostdout = strcmp(q->target, "-") == 0;

	if (!tostdout && !q->force && stat(q->target, &st) == 0) {
		snprintf(err, errlen, "chrome export: %s exists already "
			 "(--force overwrites it)", q->target);
		return WIRE_EARG;
	}
	f = tostdout ? stdout : fopen(q->target, "w");
	if (f == NULL) {
		snprintf(err, errlen, "chrome export: cannot write %s: %s",
			 q->target, strerror(errno));
		return WIRE_EIO;
	}
	rc = ana_out_chrome(tr, q->view, f, err, errlen);
	if (!tostdout && fclose(f) != 0 && rc == 0) {
		snprintf(err, errlen, "chrome export: %s: %s", q->target,
			 strerror(errno));
		rc = ANA_EIO;
	}
	if (rc < 0 && !tostdout)
		unlink(q->target);
	return rc == 0 ? 0 : rc == ANA_EARG ? WIRE_EARG :
		rc == ANA_ENOMEM ? WIRE_ENOMEM : WIRE_EIO;
}

/* Runs one export of tr and says what it wrote.  0 or a code with err. */
static int con_export_run(const ana_trace *tr, const con_export_req *q,
			  char *err, size_t errlen)
{
	ana_pair *pairs = NULL;
	size_t npairs = 0;
	uint64_t nev = 0;
	uint32_t i;
	int rc, tostdout;

	if (q->fmt == CON_EXPORT_CHROME) {
		rc = con_export_chrome(tr, q, err, errlen);
	} else {
		rc = ana_out_otf2(tr, q->view, q->target, CON_EXPORT_NAME, err,
				  errlen);
		rc = rc == 0 ? 0 : rc == ANA_EARG ? WIRE_EARG :
			rc == ANA_ENOMEM ? WIRE_ENOMEM : WIRE_EIO;
	}
	if (rc != 0)
		return rc;
	if (ana_pairs(tr, &pairs, &npairs) < 0)
		npairs = 0;
	free(pairs);
	for (i = 0; i < tr->nprocs; i++)
		nev += tr->procs[i].nev;
	/* Standard output carries the JSON itself: the summary goes to
	 * standard error then. */
	tostdout = q->fmt == CON_EXPORT_CHROME && strcmp(q->target, "-") == 0;
	fprintf(tostdout ? stderr : stdout, "exported %s%s%s: %u tasks, %llu "
		"events, %zu messages (%s times)\n",
		tostdout ? "to standard output" : q->target,
		q->fmt == CON_EXPORT_OTF2 ? "/" CON_EXPORT_NAME ".otf2" : "",
		q->fmt == CON_EXPORT_OTF2 ? " (OTF2)" : " (Chrome JSON)",
		(unsigned)tr->nprocs, (unsigned long long)nev, npairs,
		con_export_views[q->view]);
	return 0;
}

/* Runs one export of the events the console holds. */
static int con_export_stored(const con_export_req *q, char *err,
			     size_t errlen)
{
	ana_trace *tr = con_ana_get(err, errlen);

	if (tr == NULL)
		return WIRE_ESTATE;
	return con_export_run(tr, q, err, errlen);
}

/* The format named by word, or -1. */
static int con_export_fmt_of(const char *word)
{
	if (strcmp(word, "otf2") == 0)
		return CON_EXPORT_OTF2;
	if (strcmp(word, "chrome") == 0 || strcmp(word, "json") == 0)
		return CON_EXPORT_CHROME;
	return -1;
}

/* trace export otf2 DIR | chrome FILE [--view V] [--force] */
int con_trace_export(int argc, char **argv, char *err, size_t errlen)
{
	con_export_req q = {0, NULL, ANA_VIEW_COMP, 0};
	int i;

	if (argc < 3 || (q.fmt = con_export_fmt_of(argv[1])) < 0) {
		snprintf(err, errlen, CON_EXPORT_USAGE);
		return WIRE_EARG;
	}
	q.target = argv[2];
	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--force") == 0)
			q.force = 1;
		else if (strcmp(argv[i], "--view") == 0 && i + 1 < argc)
			i++;
		else {
			snprintf(err, errlen, CON_EXPORT_USAGE);
			return WIRE_EARG;
		}
	}
	q.view = con_ana_view_arg(argc, argv, err, errlen);
	if (q.view < 0)
		return WIRE_EARG;
	return con_export_stored(&q, err, errlen);
}

/* ---- paravt export ------------------------------------------------------ */

/* Prints the help of paravt export. */
static void con_sub_export_help(void)
{
	printf("%s\n\n"
	       "Reads the paravt trace file TRACE and writes it for other "
	       "tools:\n"
	       "  --otf2 DIR     an OTF2 archive DIR/paravt.otf2 (otf2-print, "
	       "Vampir);\n"
	       "                 DIR is created, an archive already there is "
	       "refused\n"
	       "  --chrome FILE  Chrome trace-event JSON for Perfetto "
	       "(ui.perfetto.dev) and\n"
	       "                 chrome://tracing, one arrow per send -> "
	       "receive; - is stdout\n"
	       "  --view V       comp (compensated, the default), order "
	       "(measured, repaired)\n"
	       "                 or raw (measured)\n"
	       "  --force        overwrite an existing Chrome FILE\n"
	       "Both --otf2 and --chrome may be given.  A trace file cut "
	       "short is exported up\nto its last whole record, with a note.  "
	       "Exit status 0 when every export was\nwritten, 1 when one "
	       "failed, 2 for bad usage.  See paravt(1).\n",
	       CON_SUB_EXPORT_USAGE);
}

/* Parses the options of paravt export into the requests q[0..1] and the
 * trace path.  Returns how many exports, 0 for --help, -1 on bad usage. */
static int con_sub_export_parse(int argc, char **argv, con_export_req *q,
				const char **path)
{
	int i, n = 0, view = ANA_VIEW_COMP, force = 0;
	char err[200];

	*path = NULL;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return 0;
		if (strcmp(argv[i], "--force") == 0) {
			force = 1;
		} else if ((strcmp(argv[i], "--otf2") == 0 ||
			    strcmp(argv[i], "--chrome") == 0) && i + 1 < argc &&
			   n < 2) {
			q[n].fmt = argv[i][2] == 'o' ? CON_EXPORT_OTF2 :
				CON_EXPORT_CHROME;
			q[n++].target = argv[++i];
		} else if (strcmp(argv[i], "--view") == 0 && i + 1 < argc) {
			i++;
		} else if (argv[i][0] != '-' && *path == NULL) {
			*path = argv[i];
		} else {
			return -1;
		}
	}
	view = con_ana_view_arg(argc, argv, err, sizeof err);
	if (view < 0 || *path == NULL || n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		q[i].view = view;
		q[i].force = force;
	}
	return n;
}

/* paravt export TRACE [--otf2 DIR] [--chrome FILE] [--view V] [--force] */
int con_sub_export(int argc, char **argv)
{
	con_export_req q[2];
	const char *path;
	char note[256], err[1200];
	int i, n, failed = 0;
	long r;

	n = con_sub_export_parse(argc, argv, q, &path);
	if (n == 0) {
		con_sub_export_help();
		return 0;
	}
	if (n < 0) {
		fprintf(stderr, "%s\n", CON_SUB_EXPORT_USAGE);
		return 2;
	}
	note[0] = '\0';
	r = con_tfile_load_analysed(path, note, sizeof note, err, sizeof err);
	if (r < 0) {
		fprintf(stderr, "paravt: %s\n", err);
		return 1;
	}
	if (note[0] != '\0')
		fprintf(stderr, "paravt: note: %s: %s\n", path, note);
	for (i = 0; i < n; i++) {
		if (con_export_stored(&q[i], err, sizeof err) != 0) {
			fprintf(stderr, "paravt: %s\n", err);
			failed = 1;
		}
	}
	return failed;
}
