/*
 * cmd_report.c — the figures of a run in the console and as a report:
 * `info efficiency` (STK's table, ana_stats.h), `info matrix` (messages or
 * bytes between every pair of tasks), `info balance` (computing time per
 * task against the mean, as text), `report` (the HTML report of
 * ana_out.h of the events so far or of an opened trace file) and the
 * one-shot `paravt report TRACE -o FILE`.
 *
 * Every figure comes from the console's one analysis (con_ana_get), so a
 * live run and a trace file read back give the same tables.  The table
 * lines are meant to be read by scripts too: one line per task, times in
 * ms with three decimals, fixed columns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ana_out.h"
#include "ana_stats.h"
#include "ana_walk.h"
#include "con_ana.h"
#include "con_cmd.h"
#include "con_dbg.h"
#include "con_sub.h"
#include "con_tfile.h"
#include "wire.h"

#define CON_REPORT_DEFAULT "paravt-report.html"
#define CON_REPORT_USAGE \
	"usage: paravt report [-h] TRACE [-o FILE] [--view comp|order|raw]"
#define CON_BALANCE_BAR 40 /* width of the longest bar of info balance */

/* What `report` and `paravt report` were asked. */
typedef struct con_report_opts {
	const char *trace; /* paravt report: the trace file */
	const char *out;   /* the HTML file */
	int view;          /* enum ana_view */
} con_report_opts;

/* ---- shared ----------------------------------------------------------- */

/* The analysis of the events held, its figures in view and the order
 * of the tasks in tables; the trace is borrowed (con_ana_get), st and
 * *order are the caller's to free (con_report_done).  0 or a code. */
static int con_report_stats(int view, ana_trace **tr, ana_stats *st,
			    uint32_t **order, char *err, size_t errlen)
{
	*tr = con_ana_get(err, errlen);
	if (*tr == NULL)
		return WIRE_ESTATE;
	if (ana_stats_compute(*tr, view, st) != 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	*order = ana_stats_order(*tr);
	if (*order == NULL) {
		ana_stats_free(st);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	return 0;
}

/* Frees what con_report_stats gave. */
static void con_report_done(ana_stats *st, uint32_t *order)
{
	ana_stats_free(st);
	free(order);
}

/* The Tid cell of task i ("-" when unknown). */
static const char *con_report_tid(const ana_trace *tr, uint32_t i,
				  char *buf, size_t n)
{
	if (!tr->procs[i].have_tid)
		return "-";
	return ana_peer_label(tr, i, tr->procs[i].tid, buf, n);
}

static double con_ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static const char *con_view_name(int view)
{
	return view == ANA_VIEW_ORDER ? "repaired (order)" :
	       view == ANA_VIEW_RAW ? "measured (raw)" : "compensated";
}

/* Refuses words of argv other than the options named in ok (each of
 * which takes a value when it ends in '=': "--view="), with usage in
 * the sentence. */
static int con_report_only(int argc, char **argv, const char *const *ok,
			   const char *usage, char *err, size_t errlen)
{
	size_t len;
	int i, k, found;

	for (i = 1; i < argc; i++) {
		found = 0;
		for (k = 0; ok[k] != NULL && !found; k++) {
			len = strlen(ok[k]);
			if (ok[k][len - 1] == '=' &&
			    strncmp(argv[i], ok[k], len - 1) == 0 &&
			    argv[i][len - 1] == '\0') {
				found = 1;
				i++; /* its value */
			} else if (strcmp(argv[i], ok[k]) == 0) {
				found = 1;
			}
		}
		if (!found) {
			snprintf(err, errlen, "unexpected '%s'; usage: %s",
				 argv[i], usage);
			return WIRE_EARG;
		}
	}
	return 0;
}

/* ---- info efficiency -------------------------------------------------- */

/* The common start of info efficiency and info balance: only --view V
 * among the words (usage names the command), then con_report_stats in
 * that view (*view).  0 or a code with err. */
static int con_report_view_stats(int argc, char **argv, const char *usage,
				 int *view, ana_trace **tr, ana_stats *st,
				 uint32_t **order, char *err, size_t errlen)
{
	static const char *const ok[] = {"--view=", NULL};
	int rc;

	rc = con_report_only(argc, argv, ok, usage, err, errlen);
	if (rc != 0)
		return rc;
	if ((*view = con_ana_view_arg(argc, argv, err, errlen)) < 0)
		return WIRE_EARG;
	return con_report_stats(*view, tr, st, order, err, errlen);
}

/* The last line of info efficiency when any process's exit says how
 * long it waited for a CPU while it could run (ana_stats_cpu_wait): each
 * one's wait, its share of the process's run and, where the daemon said
 * so, the part paravtd on its node caused.  That part is
 * in Δ and compensation takes it out; the rest (other processes, the
 * program's own among them) is in the measured times and stays. */
static void con_report_cpu_wait(const ana_trace *tr, const uint32_t *order,
				uint32_t n)
{
	int64_t w, run, mine;
	uint32_t k;
	int any = 0;

	for (k = 0; k < n; k++) {
		w = ana_stats_cpu_wait(&tr->procs[order[k]], &run, &mine);
		if (w < 0)
			continue;
		printf("%s%s %.3f ms (%.1f%% of its run", any ? ", " :
		       "cpu    waited for a CPU while runnable: ",
		       tr->procs[order[k]].name, con_ms(w),
		       ana_stats_cpu_share(w, run));
		if (mine >= 0)
			printf("; paravt's %.3f ms", con_ms(mine));
		printf(")");
		any = 1;
	}
	if (any)
		printf("\n");
}

/* info efficiency [--view comp|order|raw] */
int con_info_efficiency(int argc, char **argv, char *err, size_t errlen)
{
	const ana_task_stats *t;
	ana_trace *tr;
	ana_stats st;
	char tid[16];
	uint32_t *order, i, k;
	int view, rc;

	rc = con_report_view_stats(argc, argv, "info efficiency [--view V]",
				   &view, &tr, &st, &order, err, errlen);
	if (rc != 0)
		return rc;
	printf("%-6s %-12s %-8s %12s %12s %12s %12s %6s\n", "Proc", "Node",
	       "Tid", "T_ms", "C_ms", "W_ms", "comp_ms", "E");
	for (k = 0; k < st.ntasks; k++) {
		i = order[k];
		t = &st.task[i];
		printf("%-6s %-12s %-8s %12.3f %12.3f %12.3f %12.3f %6.3f\n",
		       tr->procs[i].name, tr->nodes[tr->procs[i].node].name,
		       con_report_tid(tr, i, tid, sizeof tid),
		       con_ms(t->total_ns), con_ms(t->comm_ns),
		       con_ms(t->wait_ns), con_ms(t->comp_ns), t->eff);
	}
	printf("job    E %.3f  E_min %.3f  E_max %.3f  (%s times, span "
	       "%.3f ms)\n", st.eff, st.eff_min, st.eff_max,
	       con_view_name(view), con_ms(st.span_ns));
	con_report_cpu_wait(tr, order, st.ntasks);
	con_report_done(&st, order);
	return 0;
}

/* ---- info matrix ------------------------------------------------------ */

/* info matrix [--bytes]: rows send, columns receive. */
int con_info_matrix(int argc, char **argv, char *err, size_t errlen)
{
	static const char *const ok[] = {"--bytes", NULL};
	int bytes = argc == 2, w = 6, rc;
	ana_trace *tr;
	ana_stats st;
	const uint64_t *m;
	uint64_t max = 0, total = 0;
	uint32_t *o, i, j, n;
	char num[32];

	rc = con_report_only(argc, argv, ok, "info matrix [--bytes]", err,
			     errlen);
	if (rc != 0)
		return rc;
	rc = con_report_stats(ANA_VIEW_COMP, &tr, &st, &o, err, errlen);
	if (rc != 0)
		return rc;
	n = st.ntasks;
	m = bytes ? st.bytes : st.msgs;
	for (i = 0; i < n * n; i++) {
		max = m[i] > max ? m[i] : max;
		total += m[i];
	}
	w = snprintf(num, sizeof num, "%llu", (unsigned long long)max) + 2;
	w = w < 6 ? 6 : w;
	printf("%-8s", bytes ? "bytes" : "msgs");
	for (j = 0; j < n; j++)
		printf(" %*s", w, tr->procs[o[j]].name);
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("%-8s", tr->procs[o[i]].name);
		for (j = 0; j < n; j++)
			printf(" %*llu", w,
			       (unsigned long long)m[(size_t)o[i] * n + o[j]]);
		printf("\n");
	}
	printf("total %llu %s between %u tasks (rows send, columns "
	       "receive)\n", (unsigned long long)total,
	       bytes ? "bytes" : "messages", n);
	con_report_done(&st, o);
	return 0;
}

/* ---- info balance ----------------------------------------------------- */

/* One task's line: computing time, share, distance from the mean, bar. */
static void con_balance_line(const ana_trace *tr, uint32_t i,
			     const ana_task_stats *t, double sum,
			     double mean, int64_t max)
{
	char bar[CON_BALANCE_BAR + 1];
	int len = max > 0 ? (int)((double)CON_BALANCE_BAR *
				  (double)t->comp_ns / (double)max + 0.5) : 0;
	int at = max > 0 ? (int)((double)CON_BALANCE_BAR * mean /
				 (double)max + 0.5) : -1;
	int k;

	for (k = 0; k < CON_BALANCE_BAR; k++)
		bar[k] = k < len ? '#' : k == at ? '|' : ' ';
	bar[CON_BALANCE_BAR] = '\0';
	printf("%-6s %-12s %12.3f %7.1f%% %+8.1f%%  %s\n", tr->procs[i].name,
	       tr->nodes[tr->procs[i].node].name, con_ms(t->comp_ns),
	       sum > 0 ? 100.0 * (double)t->comp_ns / sum : 0.0,
	       mean > 0 ? 100.0 * ((double)t->comp_ns - mean) / mean : 0.0,
	       bar);
}

/* info balance */
int con_info_balance(int argc, char **argv, char *err, size_t errlen)
{
	double sum = 0, mean;
	int64_t max = 0;
	ana_trace *tr;
	ana_stats st;
	uint32_t *order, i;
	int view, rc;

	rc = con_report_view_stats(argc, argv, "info balance [--view V]",
				   &view, &tr, &st, &order, err, errlen);
	if (rc != 0)
		return rc;
	for (i = 0; i < st.ntasks; i++) {
		sum += (double)st.task[i].comp_ns;
		max = st.task[i].comp_ns > max ? st.task[i].comp_ns : max;
	}
	mean = st.ntasks > 0 ? sum / st.ntasks : 0;
	printf("%-6s %-12s %12s %8s %9s  %s\n", "Proc", "Node", "comp_ms",
	       "share", "vs_mean", "(# computing, | mean)");
	for (i = 0; i < st.ntasks; i++)
		con_balance_line(tr, order[i], &st.task[order[i]], sum, mean,
				 max);
	printf("mean %.3f ms  max %.3f ms  imbalance (max/mean - 1) %.1f%%\n",
	       con_ms((int64_t)mean), con_ms(max),
	       mean > 0 ? 100.0 * ((double)max / mean - 1) : 0.0);
	con_report_done(&st, order);
	return 0;
}

/* ---- report ----------------------------------------------------------- */

/* Parses [TRACE] [-o FILE] [--view V] from argv[1..]; a TRACE only when
 * want_trace.  0 or WIRE_EARG with err. */
static int con_report_parse(int argc, char **argv, int want_trace,
			    con_report_opts *o, char *err, size_t errlen)
{
	int i;

	memset(o, 0, sizeof *o);
	o->out = CON_REPORT_DEFAULT;
	o->view = con_ana_view_arg(argc, argv, err, errlen);
	if (o->view < 0)
		return WIRE_EARG;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--view") == 0) {
			i++;
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc &&
			   argv[i + 1][0] != '\0') {
			o->out = argv[++i];
		} else if (want_trace && o->trace == NULL &&
			   argv[i][0] != '-') {
			o->trace = argv[i];
		} else {
			snprintf(err, errlen, "unexpected '%s'%s", argv[i],
				 strcmp(argv[i], "-o") == 0 ?
				 " (-o needs a file)" : "");
			return WIRE_EARG;
		}
	}
	if (want_trace && o->trace == NULL) {
		snprintf(err, errlen, "which trace file?");
		return WIRE_EARG;
	}
	return 0;
}

/* "paravt report: pvm_master pvm_worker, 2026-11-22 18:02 UTC" (a live
 * run: its programs, now), "paravt report: FILE (COMMAND)" (paravt
 * report) or "paravt report: COMMAND, 2026-11-22 17:40 UTC" (a trace
 * read with open: what it recorded, when) into buf. */
static void con_report_title(const char *trace, char *buf, size_t n)
{
	const con_tfile_meta *m = con_tfile_loaded();
	char date[40] = "";
	time_t when = time(NULL);
	struct tm tm;
	size_t k, i, np;
	char **prog;

	if (trace != NULL) {
		snprintf(buf, n, "paravt report: %s (%s)", trace, m->command);
		return;
	}
	prog = con_dbg_programs(&np);
	if (np == 0 && m->records > 0)
		when = (time_t)m->created;
	if (gmtime_r(&when, &tm) != NULL)
		strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
	if (np == 0 && m->records > 0) {
		snprintf(buf, n, "paravt report: %s, %s", m->command, date);
		return;
	}
	k = (size_t)snprintf(buf, n, "paravt report:");
	for (i = 0; i < np && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, " %s", prog[i]);
	if (k < n)
		snprintf(buf + k, n - k, "%s%s", np > 0 ? ", " : " ", date);
}

/* Writes the report of the analysed events to o->out.  0 or a code. */
static int con_report_write(const con_report_opts *o, char *err,
			    size_t errlen)
{
	char title[1400], e2[300];
	ana_trace *tr;
	FILE *f;
	int rc;

	tr = con_ana_get(err, errlen);
	if (tr == NULL)
		return WIRE_ESTATE;
	f = fopen(o->out, "w");
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", o->out, strerror(errno));
		return WIRE_EIO;
	}
	con_report_title(o->trace, title, sizeof title);
	rc = ana_out_html(tr, o->view, title, f, e2, sizeof e2);
	if (fclose(f) != 0 && rc == 0) {
		snprintf(e2, sizeof e2, "%s", strerror(errno));
		rc = ANA_EIO;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", o->out, e2);
		return rc == ANA_ENOMEM ? WIRE_ENOMEM : WIRE_EIO;
	}
	printf("Report written to %s (%u tasks, %llu messages matched, %s "
	       "times).\n", o->out, tr->nprocs,
	       (unsigned long long)(tr->sum.pairs + tr->sum.mcast_pairs),
	       con_view_name(o->view));
	return 0;
}

/* report [-o FILE] [--view comp|order|raw] */
int con_cmd_report(int argc, char **argv, char *err, size_t errlen)
{
	con_report_opts o;
	int rc = con_report_parse(argc, argv, 0, &o, err, errlen);

	return rc != 0 ? rc : con_report_write(&o, err, errlen);
}

/* ---- paravt report ---------------------------------------------------- */

static void con_report_help(void)
{
	printf("%s\n\nWrites the HTML report of a paravt trace file: one "
	       "self-contained file\n(inline SVG, no network) with the "
	       "timeline (send -> receive lines,\nclick a block for its "
	       "source line), the communication matrix, the\nload-balance "
	       "polygon and STK's efficiency table.  FILE defaults to\n%s; "
	       "times are compensated unless --view says otherwise.\nExit "
	       "status: 0 written, 1 unreadable trace or write error, 2 "
	       "usage.\nSee paravt(1).\n", CON_REPORT_USAGE,
	       CON_REPORT_DEFAULT);
}

/* paravt report [-h] TRACE [-o FILE] [--view V] */
int con_sub_report(int argc, char **argv)
{
	char err[1200], note[200] = "";
	con_report_opts o;
	long r;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		con_report_help();
		return 0;
	}
	if (con_report_parse(argc, argv, 1, &o, err, sizeof err) != 0) {
		fprintf(stderr, "paravt: %s\n%s\n", err, CON_REPORT_USAGE);
		return 2;
	}
	r = con_tfile_load_analysed(o.trace, note, sizeof note, err,
				    sizeof err);
	if (r == 0 && note[0] != '\0') {
		fprintf(stderr, "paravt: %s: %s\n", o.trace, note);
		return 1;
	}
	if (r < 0) {
		fprintf(stderr, "paravt: %s\n", err);
		return 1;
	}
	if (note[0] != '\0')
		fprintf(stderr, "[note: %s: %s]\n", o.trace, note);
	if (con_report_write(&o, err, sizeof err) != 0) {
		fprintf(stderr, "paravt: %s\n", err);
		return 1;
	}
	return 0;
}
