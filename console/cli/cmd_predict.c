/*
 * cmd_predict.c — `paravt predict`: what a traced run would take on
 * another machine (issue 15; the model and the simulation are
 * console/ana/ana_sim.h, the machine file paravt-machine(5)).
 *
 *   paravt predict TRACE --describe [--sample SAMPLE] [-o FILE]
 *       writes the traced machine as a machine file (a starting point);
 *       with a sample (a short run of the same program elsewhere), the
 *       nodes it ran on get the speed measured from it (ana_sim_speeds);
 *   paravt predict TRACE --machine FILE [--pure] [--traced FILE]
 *                  [-o HTML] [--sweep PARAM=V1,V2,...]
 *       prints the predicted run time, the figures of `info efficiency`
 *       per process and for the job, the DVM characteristics (idle time,
 *       imbalance, lost time) and predicted against recorded per process;
 *       -o writes the HTML report of the predicted run with the measured
 *       one beside it; --sweep predicts once per value and prints a
 *       table (with -o, an HTML page with the curves).
 *
 * Every figure is in ms with three decimals, one line per process, fixed
 * columns, so that scripts can read them (tests/integration/9x-predict.sh).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_out.h"
#include "ana_sim.h"
#include "ana_stats.h"
#include "con_ana.h"
#include "con_sub.h"
#include "con_tfile.h"

#define CON_PREDICT_USAGE \
	"usage: paravt predict [-h] TRACE --describe [--sample TRACE2]... " \
	"[-o FILE]\n" \
	"       paravt predict [-h] TRACE --machine FILE [--pure] " \
	"[--traced FILE]\n" \
	"                      [--sweep PARAM=V1,V2,...] [-o HTML]\n" \
	"                      [--best N [--min-eff E]]"
#define CON_PREDICT_FILE_MAX (16u << 20) /* largest machine file read */
#define CON_PREDICT_SAMPLES 16           /* --sample given at most */

/* What paravt predict was asked. */
typedef struct con_predict_opts {
	const char *trace;   /* the trace file */
	const char *machine; /* --machine */
	const char *traced;  /* --traced */
	const char *out;     /* -o */
	const char *sweep;   /* --sweep PARAM=V1,V2,... */
	const char *best;    /* --best N */
	const char *min_eff; /* --min-eff E */
	const char *sample[CON_PREDICT_SAMPLES]; /* --sample TRACE2... */
	uint32_t nsample;
	char samples[1024];  /* their names, for the notes */
	int describe;        /* --describe */
	int pure;            /* --pure */
} con_predict_opts;

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double pct(int64_t pred, int64_t rec)
{
	return rec != 0 ? 100.0 * (double)(pred - rec) / (double)rec : 0.0;
}

/* ---- arguments ---------------------------------------------------------- */

/* The value of option argv[*i] (it needs one), or NULL after a message. */
static const char *con_predict_val(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc || argv[*i + 1][0] == '\0') {
		fprintf(stderr, "paravt: %s needs a value\n%s\n", argv[*i],
			CON_PREDICT_USAGE);
		return NULL;
	}
	return argv[++*i];
}

/* --sample argv[*i + 1]: one more sample, its name added to o->samples.
 * 0, or 2 (reported). */
static int con_predict_sample(int argc, char **argv, int *i,
			      con_predict_opts *o)
{
	const char *v = con_predict_val(argc, argv, i);
	size_t len = strlen(o->samples);

	if (v == NULL)
		return 2;
	if (o->nsample == CON_PREDICT_SAMPLES) {
		fprintf(stderr, "paravt: --sample at most %d times\n%s\n",
			CON_PREDICT_SAMPLES, CON_PREDICT_USAGE);
		return 2;
	}
	o->sample[o->nsample++] = v;
	snprintf(o->samples + len, sizeof o->samples - len, "%s%s",
		 len > 0 ? ", " : "", v);
	return 0;
}

/* Fills o from argv.  0, or 2 (usage error, reported). */
static int con_predict_args(int argc, char **argv, con_predict_opts *o)
{
	const char **slot;
	int i;

	memset(o, 0, sizeof *o);
	for (i = 1; i < argc; i++) {
		slot = strcmp(argv[i], "--machine") == 0 ? &o->machine :
		       strcmp(argv[i], "--traced") == 0 ? &o->traced :
		       strcmp(argv[i], "--sweep") == 0 ? &o->sweep :
		       strcmp(argv[i], "--best") == 0 ? &o->best :
		       strcmp(argv[i], "--min-eff") == 0 ? &o->min_eff :
		       strcmp(argv[i], "-o") == 0 ? &o->out : NULL;
		if (slot != NULL) {
			if ((*slot = con_predict_val(argc, argv, &i)) == NULL)
				return 2;
		} else if (strcmp(argv[i], "--sample") == 0) {
			if (con_predict_sample(argc, argv, &i, o) != 0)
				return 2;
		} else if (strcmp(argv[i], "--describe") == 0) {
			o->describe = 1;
		} else if (strcmp(argv[i], "--pure") == 0) {
			o->pure = 1;
		} else if (o->trace == NULL && argv[i][0] != '-') {
			o->trace = argv[i];
		} else {
			fprintf(stderr, "paravt: unexpected '%s'\n%s\n",
				argv[i], CON_PREDICT_USAGE);
			return 2;
		}
	}
	if (o->trace == NULL || (o->describe == (o->machine != NULL)) ||
	    (o->describe && (o->sweep || o->pure || o->traced || o->best))) {
		fprintf(stderr, "paravt: %s\n%s\n", o->trace == NULL ?
			"which trace file?" : o->describe ?
			(o->machine ? "--describe or --machine, not both" :
			 "--describe takes only --sample and -o") :
			"--describe or --machine FILE?", CON_PREDICT_USAGE);
		return 2;
	}
	if (o->nsample > 0 && !o->describe) {
		fprintf(stderr, "paravt: --sample goes with --describe\n%s\n",
			CON_PREDICT_USAGE);
		return 2;
	}
	if ((o->best != NULL && (atoi(o->best) < 1 ||
				 strspn(o->best, "0123456789") !=
				 strlen(o->best))) ||
	    (o->min_eff != NULL && o->best == NULL) ||
	    (o->best != NULL && o->sweep != NULL)) {
		fprintf(stderr, "paravt: %s\n%s\n", o->best == NULL ?
			"--min-eff goes with --best" : o->sweep != NULL ?
			"--best or --sweep, not both" :
			"--best wants a number of mappings >= 1",
			CON_PREDICT_USAGE);
		return 2;
	}
	if (o->sweep != NULL && strchr(o->sweep, '=') == NULL) {
		fprintf(stderr, "paravt: --sweep wants PARAM=V1,V2,... (e.g. "
			"latency=10us,100us)\n%s\n", CON_PREDICT_USAGE);
		return 2;
	}
	return 0;
}

/* ---- files -------------------------------------------------------------- */

/* The machine file path, parsed into *m.  0 or 1 (reported). */
static int con_predict_machine(const char *path, ana_sim_machine **m)
{
	char err[600], *buf = NULL;
	size_t n = 0, cap = 0, k;
	FILE *f = fopen(path, "r");
	int rc = 1;

	*m = NULL;
	if (f == NULL) {
		fprintf(stderr, "paravt: %s: %s\n", path, strerror(errno));
		return 1;
	}
	do {
		if (n == cap) {
			char *p = cap >= CON_PREDICT_FILE_MAX ? NULL :
				  realloc(buf, cap = cap ? cap * 2 : 4096);

			if (p == NULL) {
				fprintf(stderr, "paravt: %s: %s\n", path,
					cap >= CON_PREDICT_FILE_MAX ?
					"larger than 16 MiB: not a machine "
					"file" : "out of memory");
				goto out;
			}
			buf = p;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k > 0);
	if (ferror(f)) {
		fprintf(stderr, "paravt: %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (ana_sim_parse(buf, n, path, m, err, sizeof err) != 0) {
		fprintf(stderr, "paravt: %s\n", err);
		goto out;
	}
	rc = 0;
out:
	fclose(f);
	free(buf);
	return rc;
}

/* The analysed trace of path, or NULL (reported). */
static ana_trace *con_predict_trace(const char *path)
{
	char err[1200], note[200] = "";
	ana_trace *tr;
	long r = con_tfile_load_analysed(path, note, sizeof note, err,
					 sizeof err);

	if (r == 0 && note[0] != '\0') {
		fprintf(stderr, "paravt: %s: %s\n", path, note);
		return NULL;
	}
	if (r < 0) {
		fprintf(stderr, "paravt: %s\n", err);
		return NULL;
	}
	if (note[0] != '\0')
		fprintf(stderr, "[note: %s: %s]\n", path, note);
	if ((tr = con_ana_get(err, sizeof err)) == NULL)
		fprintf(stderr, "paravt: %s: %s\n", path, err);
	return tr;
}

/* Writes text to path (stdout when NULL).  0 or 1 (reported). */
static int con_predict_write(const char *path, const char *text)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (f == NULL) {
		fprintf(stderr, "paravt: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fputs(text, f);
	if (path != NULL ? fclose(f) != 0 : fflush(f) != 0) {
		fprintf(stderr, "paravt: %s: %s\n", path ? path : "stdout",
			strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- the report --------------------------------------------------------- */

/* The per-process table and the job's lines of r. */
static void con_predict_print(const ana_trace *tr, const ana_sim_machine *m,
			      const ana_sim_result *r, const uint32_t *order)
{
	const ana_task_stats *t, *u;
	uint32_t k, i;

	printf("%-6s %-12s %11s %11s %11s %11s %6s %11s %11s %11s %11s "
	       "%7s\n", "Proc", "Node", "T_ms", "C_ms", "W_ms", "comp_ms", "E",
	       "idle_ms", "imb_ms", "lost_ms", "rec_T_ms", "diff");
	for (k = 0; k < r->pred.ntasks; k++) {
		i = order[k];
		t = &r->pred.task[i];
		u = &r->rec.task[i];
		printf("%-6s %-12s %11.3f %11.3f %11.3f %11.3f %6.3f %11.3f "
		       "%11.3f %11.3f %11.3f %+6.1f%%\n", tr->procs[i].name,
		       m->node[r->node[i]].name, ms(t->total_ns),
		       ms(t->comm_ns), ms(t->wait_ns), ms(t->comp_ns), t->eff,
		       ms(r->pdvm.idle_ns[i]), ms(r->pdvm.imb_ns[i]),
		       ms(r->pdvm.lost_ns[i]), ms(u->total_ns),
		       pct(t->total_ns, u->total_ns));
	}
	printf("job    E %.3f  E_min %.3f  E_max %.3f  (recorded E %.3f)\n",
	       r->pred.eff, r->pred.eff_min, r->pred.eff_max, r->rec.eff);
	printf("job    idle %.3f ms  imbalance %.3f ms  lost %.3f ms  "
	       "parallel efficiency %.3f  (recorded %.3f ms, %.3f ms, %.3f "
	       "ms, %.3f)\n", ms(r->pdvm.idle_total), ms(r->pdvm.imb_total),
	       ms(r->pdvm.lost_total), r->pdvm.par_eff,
	       ms(r->rdvm.idle_total), ms(r->rdvm.imb_total),
	       ms(r->rdvm.lost_total), r->rdvm.par_eff);
	printf("predicted run time %.3f ms  (recorded, compensated %.3f ms: "
	       "%+.1f%%)\n", ms(r->pred.span_ns), ms(r->rec.span_ns),
	       pct(r->pred.span_ns, r->rec.span_ns));
}

/* What one HTML page needs: the predicted run (tr, r) or a sweep
 * (param, pts, n), and its title. */
typedef struct con_predict_page {
	ana_trace *tr;
	ana_sim_result *r;
	const char *param;
	const ana_sweep_pt *pts;
	size_t n;
	char title[1200];
} con_predict_page;

/* ana_html_alt's swap: the predicted times out, the measured ones in
 * (and back). */
static void con_predict_swap(void *ctx)
{
	con_predict_page *pg = ctx;

	ana_sim_swap(pg->tr, pg->r);
}

/* Writes page pg into f: the predicted run with the measured one beside
 * it, or the sweep's curves.  0 or a code with err. */
static int con_predict_page_out(FILE *f, con_predict_page *pg, char *err,
				size_t errlen)
{
	ana_html_alt alt = {con_predict_swap, pg, "Timeline: predicted",
			    "Timeline: measured (compensated), same scale"};
	int rc;

	if (pg->pts != NULL)
		return ana_out_sweep(pg->title, pg->param, pg->pts, pg->n, f,
				     err, errlen);
	ana_sim_swap(pg->tr, pg->r);
	rc = ana_out_html_alt(pg->tr, ANA_VIEW_COMP, pg->title, &alt, f, err,
			      errlen);
	ana_sim_swap(pg->tr, pg->r);
	return rc;
}

/* Writes page pg into o->out and says so (what it is).  0 or 1. */
static int con_predict_page_write(con_predict_page *pg,
				  const con_predict_opts *o, const char *what)
{
	char err[300];
	FILE *f = fopen(o->out, "w");
	int rc;

	if (f == NULL) {
		fprintf(stderr, "paravt: %s: %s\n", o->out, strerror(errno));
		return 1;
	}
	rc = con_predict_page_out(f, pg, err, sizeof err);
	if (fclose(f) != 0 && rc == 0) {
		snprintf(err, sizeof err, "%s", strerror(errno));
		rc = 1;
	}
	if (rc != 0) {
		fprintf(stderr, "paravt: %s: %s\n", o->out, err);
		return 1;
	}
	printf("%s written to %s.\n", what, o->out);
	return 0;
}

/* The HTML report of the predicted run, the measured one beside it,
 * into o->out.  0 or 1. */
static int con_predict_html(ana_trace *tr, ana_sim_result *r,
			    const con_predict_opts *o)
{
	con_predict_page pg;

	memset(&pg, 0, sizeof pg);
	pg.tr = tr;
	pg.r = r;
	snprintf(pg.title, sizeof pg.title, "paravt predict: %s on %s (%s "
		 "model)", o->trace, o->machine, o->pure ? "pure" : "residual");
	return con_predict_page_write(&pg, o, "Report of the predicted run");
}

/* ---- the commands ------------------------------------------------------- */

/* One simulation of tr on m; 0 or 1 (reported). */
static int con_predict_run(ana_trace *tr, const ana_sim_machine *m,
			   const ana_sim_machine *traced, int pure,
			   ana_sim_result *r)
{
	ana_sim_opts so = {pure, traced};
	char err[300];
	int rc = ana_sim_run(tr, m, &so, r, err, sizeof err);

	if (rc != 0) {
		fprintf(stderr, "paravt: %s\n", rc == ANA_ENOMEM ?
			"out of memory" : err);
		return 1;
	}
	return 0;
}

/* Writes the sweep's HTML report (the curves) into o->out.  0 or 1. */
static int con_predict_sweep_html(const char *param, const ana_sweep_pt *pts,
				  size_t n, const con_predict_opts *o)
{
	con_predict_page pg;

	memset(&pg, 0, sizeof pg);
	pg.param = param;
	pg.pts = pts;
	pg.n = n;
	snprintf(pg.title, sizeof pg.title, "paravt predict: %s on %s, %s "
		 "swept", o->trace, o->machine, param);
	return con_predict_page_write(&pg, o, "Report of the sweep");
}

/* Keeps value v's figures for the sweep's report (a growing array). */
static int con_predict_keep(ana_sweep_pt **pts, size_t *n, const char *v,
			    const ana_sim_result *r)
{
	ana_sweep_pt *np = realloc(*pts, (*n + 1) * sizeof *np);

	if (np == NULL)
		return -1;
	*pts = np;
	np[*n].label = v;
	np[*n].time_ms = ms(r->pred.span_ns);
	np[*n].vs_rec = pct(r->pred.span_ns, r->rec.span_ns);
	np[*n].eff = r->pred.eff;
	np[*n].lost_ms = ms(r->pdvm.lost_total);
	(*n)++;
	return 0;
}

/* --sweep PARAM=V1,V2,...: one line per value (and with -o the curve). */
static int con_predict_sweep(ana_trace *tr, const ana_sim_machine *m,
			     const ana_sim_machine *traced,
			     const con_predict_opts *o)
{
	char param[128], err[400], *vals, *v, *save = NULL;
	const char *eq = strchr(o->sweep, '=');
	ana_sweep_pt *pts = NULL;
	ana_sim_machine *mm;
	ana_sim_result r;
	size_t npts = 0;
	int rc = 0;

	snprintf(param, sizeof param, "%.*s", (int)(eq - o->sweep), o->sweep);
	if ((vals = strdup(eq + 1)) == NULL)
		return 1;
	printf("%-24s %12s %8s %6s %6s %6s %8s %12s\n", "value", "time_ms",
	       "vs_rec", "E", "E_min", "E_max", "par_eff", "lost_ms");
	for (v = strtok_r(vals, ",", &save); v != NULL && rc == 0;
	     v = strtok_r(NULL, ",", &save)) {
		if ((mm = ana_sim_machine_dup(m)) == NULL) {
			rc = 1;
			break;
		}
		if (ana_sim_set(mm, param, v, err, sizeof err) != 0) {
			fprintf(stderr, "paravt: %s\n", err);
			rc = 1;
		} else if ((rc = con_predict_run(tr, mm, traced, o->pure,
						  &r)) == 0) {
			printf("%-24.*s %12.3f %+7.1f%% %6.3f %6.3f %6.3f %8.3f "
			       "%12.3f\n", 24, v, ms(r.pred.span_ns),
			       pct(r.pred.span_ns, r.rec.span_ns), r.pred.eff,
			       r.pred.eff_min, r.pred.eff_max, r.pdvm.par_eff,
			       ms(r.pdvm.lost_total));
			if (con_predict_keep(&pts, &npts, v, &r) != 0) {
				fprintf(stderr, "paravt: out of memory\n");
				rc = 1;
			}
			ana_sim_result_free(&r);
		}
		ana_sim_machine_free(mm);
	}
	if (rc == 0 && o->out != NULL)
		rc = con_predict_sweep_html(param, pts, npts, o);
	free(pts);
	free(vals);
	return rc;
}

/* The mapping of choice c as "p1=a p2=b ..." (process order of tables). */
static void con_predict_mapping(const ana_trace *tr, const ana_sim_machine *m,
				const ana_sim_choice *c, const uint32_t *order)
{
	uint32_t k;

	for (k = 0; k < tr->nprocs; k++)
		printf(" %s=%s", tr->procs[order[k]].name,
		       m->node[c->node[order[k]]].name);
	printf("\n");
}

/* --best N [--min-eff E]: the search of mappings (ana_sim_best). */
static int con_predict_best(ana_trace *tr, const ana_sim_machine *m,
			    const ana_sim_machine *traced,
			    const con_predict_opts *o)
{
	uint32_t n = (uint32_t)atoi(o->best), found = 0, k, *order;
	double min_eff = o->min_eff ? strtod(o->min_eff, NULL) : 0;
	ana_sim_opts so = {o->pure, traced};
	ana_sim_choice *best = calloc(n, sizeof *best);
	ana_sim_search s;
	char err[400];
	int rc;

	order = ana_stats_order(tr);
	if (best == NULL || order == NULL) {
		free(best);
		free(order);
		fprintf(stderr, "paravt: out of memory\n");
		return 1;
	}
	rc = ana_sim_best(tr, m, &so, min_eff, n, best, &found, &s, err,
			  sizeof err);
	if (rc != 0) {
		fprintf(stderr, "paravt: %s\n", err);
	} else {
		printf("best mappings with E >= %.3f: %llu of %.0f mappings "
		       "simulated, %llu moves skipped as equivalent, %u "
		       "improving moves\n", min_eff,
		       (unsigned long long)s.evaluated, s.space,
		       (unsigned long long)s.pruned, s.rounds);
		if (found == 0)
			printf("no mapping has E >= %.3f\n", min_eff);
		else
			printf("%-4s %12s %6s %8s  %s\n", "rank", "time_ms",
			       "E", "par_eff", "mapping");
		for (k = 0; k < found; k++) {
			printf("%-4u %12.3f %6.3f %8.3f ", k + 1,
			       ms(best[k].time_ns), best[k].eff,
			       best[k].par_eff);
			con_predict_mapping(tr, m, &best[k], order);
		}
	}
	for (k = 0; k < found; k++)
		ana_sim_choice_free(&best[k]);
	free(best);
	free(order);
	return rc != 0;
}

/* paravt predict TRACE --machine FILE ... */
static int con_predict_machine_cmd(ana_trace *tr, const con_predict_opts *o)
{
	ana_sim_machine *m = NULL, *traced = NULL;
	ana_sim_result r;
	uint32_t *order = NULL;
	int rc;

	if ((rc = con_predict_machine(o->machine, &m)) != 0 ||
	    (o->traced && (rc = con_predict_machine(o->traced, &traced))))
		goto out;
	printf("Prediction of %s on %s (%s model, %u processes, %u nodes, "
	       "%u levels)\n", o->trace, o->machine, o->pure ? "pure" :
	       "residual", tr->nprocs, m->nnode, m->nlv);
	if (o->sweep != NULL || o->best != NULL) {
		rc = o->sweep ? con_predict_sweep(tr, m, traced, o) :
		     con_predict_best(tr, m, traced, o);
		goto out;
	}
	if ((rc = con_predict_run(tr, m, traced, o->pure, &r)) != 0)
		goto out;
	order = ana_stats_order(tr);
	if (order == NULL) {
		fprintf(stderr, "paravt: out of memory\n");
		rc = 1;
	} else {
		con_predict_print(tr, m, &r, order);
		if (r.forced > 0)
			printf("[note: %llu events had a dependency cycle (an "
			       "inconsistent trace) and were placed by their "
			       "own times]\n", (unsigned long long)r.forced);
		if (o->out != NULL)
			rc = con_predict_html(tr, &r, o);
	}
	ana_sim_result_free(&r);
out:
	free(order);
	ana_sim_machine_free(m);
	ana_sim_machine_free(traced);
	return rc;
}

/* Appends line to *notes (of *len bytes).  0 or ANA_ENOMEM. */
static int note_add(char **notes, size_t *len, const char *line)
{
	size_t n = strlen(line);
	char *nn = realloc(*notes, *len + n + 1);

	if (nn == NULL)
		return ANA_ENOMEM;
	memcpy(nn + *len, line, n + 1);
	*notes = nn;
	*len += n;
	return 0;
}

/* The push speeds of entry i of sp (n entries) set in m for the pairs
 * whose level has a transport buffer (elsewhere a push has no part),
 * with their "# ..." lines.  0 or a code (err). */
static int predict_pushes(const ana_sim_speed *sp, uint32_t n, uint32_t i,
			  const con_predict_opts *o, ana_sim_machine *m,
			  char **notes, size_t *len, char *err, size_t errlen)
{
	char line[1800];
	uint32_t k;
	int rc = 0, a, b;

	for (k = 0; rc == 0 && k < n; k++) {
		const ana_sim_rate *r = &sp[i].push[k];

		a = ana_sim_find_node(m, sp[i].node);
		b = ana_sim_find_node(m, sp[k].node);
		if (k == i || r->speed <= 0 || a < 0 || b < 0 ||
		    m->lv[ana_sim_level_of(m, (uint32_t)a, (uint32_t)b)]
			    .buf_bytes < 0)
			continue;
		snprintf(line, sizeof line, "# push %s to %s: %.6g measured "
			 "from %s (%llu sends that waited for no receiver, "
			 "%.3f ms there, %.3f ms in %s)\n", sp[i].node,
			 sp[k].node, r->speed, o->samples,
			 (unsigned long long)r->matched, ms(r->sample_ns),
			 ms(r->base_ns), o->trace);
		rc = ana_sim_set_push(m, sp[i].node, sp[k].node, r->speed, err,
				      errlen);
		if (rc == 0 && (rc = note_add(notes, len, line)) != 0)
			snprintf(err, errlen, "out of memory");
	}
	return rc;
}

/* The start of entry sp's node set in m: its processes' later start and
 * their warm-up beyond the node's speed (a sooner start counts as none),
 * with its "# ..." line.  0 or a code (err). */
static int predict_start(const ana_sim_speed *sp, const con_predict_opts *o,
			 ana_sim_machine *m, char **notes, size_t *len,
			 char *err, size_t errlen)
{
	char line[1800], param[ANA_NAME_MAX + 8], val[64], late[200] = "";
	double st = sp->starts > 0 ? sp->start_ns : 0;
	double v = st + sp->warmup_ns;
	int rc;

	if (sp->starts == 0 && sp->comp.warmup == 0)
		return 0;
	v = v > 0 ? v : 0;
	if (sp->starts > 0)
		snprintf(late, sizeof late, "start %.3f ms %s than in %s (%u "
			 "of them, each timed from the first start), ",
			 ms((int64_t)(st < 0 ? -st : st)),
			 st < 0 ? "sooner" : "later", o->trace, sp->starts);
	snprintf(param, sizeof param, "%s.start", sp->node);
	snprintf(val, sizeof val, "%.0fns", v);
	snprintf(line, sizeof line, "# node %s: processes %swarm up %.3f ms "
		 "beyond the speed (%llu first segments of a kind, left out "
		 "of it) in %s: start %.3f ms\n", sp->node, late,
		 sp->warmup_ns / 1e6, (unsigned long long)sp->comp.warmup,
		 o->samples, v / 1e6);
	if ((rc = ana_sim_set(m, param, val, err, errlen)) == 0 &&
	    (rc = note_add(notes, len, line)) != 0)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* The n speeds sp set in m, nodes m lacks added, with their "# ..."
 * lines in *notes (the caller frees).  A node whose calls' speed the
 * samples could not measure gets calls 1, not its computation's speed:
 * a call's own time is mostly the kernel's and copying, which an
 * emulated CPU runs natively (on the s390x node under qemu calls ran at
 * 0.7-0.8 of native, computation at 0.15) and which a CPU quota slows
 * little after a wait has left its budget whole (over 196 validation
 * cases: mean error 3.8% against 4.2%, 10 beyond 10% against 17).  The
 * lines go after the len bytes already in *notes.  0 or 1 (reported). */
static int con_predict_set_speeds(const ana_sim_speed *sp, uint32_t n,
				  const con_predict_opts *o,
				  ana_sim_machine *m, char **notes, size_t len)
{
	char err[600], line[1800];
	uint32_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < n; i++) {
		const ana_sim_rate *c = &sp[i].comp, *k = &sp[i].calls;
		char num[64], cnum[64];

		snprintf(num, sizeof num, "%.6g", c->speed);
		snprintf(cnum, sizeof cnum, "%.6g", k->speed > 0 ? k->speed : 1);
		snprintf(line, sizeof line, "# node %s: speed %s measured from "
			 "%s (%llu computation segments, %.3f ms there, "
			 "%.3f ms in %s; %llu not in it); calls %s%s (%llu "
			 "calls that wait for no one, %.3f ms, %.3f ms)\n",
			 sp[i].node, num, o->samples,
			 (unsigned long long)c->matched, ms(c->sample_ns),
			 ms(c->base_ns), o->trace,
			 (unsigned long long)c->unmatched, cnum,
			 k->speed > 0 ? "" : ", as traced (too few in common "
			 "to measure)", (unsigned long long)k->matched,
			 ms(k->sample_ns), ms(k->base_ns));
		rc = ana_sim_set_node(m, sp[i].node, num, cnum, err,
				      sizeof err);
		if (rc == 0 && (rc = note_add(notes, &len, line)) != 0)
			snprintf(err, sizeof err, "out of memory");
	}
	for (i = 0; rc == 0 && i < n; i++)
		rc = predict_start(&sp[i], o, m, notes, &len, err, sizeof err);
	for (i = 0; rc == 0 && i < n; i++)
		rc = predict_pushes(sp, n, i, o, m, notes, &len, err,
				    sizeof err);
	if (rc != 0)
		fprintf(stderr, "paravt: %s\n", err);
	return rc != 0;
}

/* Leaves out of smp (*ns of them, o's names) the samples that disagree
 * with the others (ana_sim_sample_odd), each with a "# ..." line in
 * *notes and on stdout; k: o with the names of those kept.  0 or 1
 * (reported). */
static int con_predict_odd(ana_trace *base, ana_trace **smp, uint32_t *ns,
			   const con_predict_opts *o, con_predict_opts *k,
			   char **notes, size_t *len)
{
	ana_sim_odd odd[CON_PREDICT_SAMPLES];
	char line[1400];
	uint32_t i, kept = 0;
	size_t l;
	int left = ana_sim_sample_odd(base, smp, *ns, odd);

	*k = *o;
	if (left < 0) {
		fprintf(stderr, "paravt: out of memory\n");
		return 1;
	}
	if (left == 0)
		return 0;
	k->samples[0] = '\0';
	for (i = 0; i < *ns; i++) {
		if (!odd[i].left_out) {
			l = strlen(k->samples);
			snprintf(k->samples + l, sizeof k->samples - l, "%s%s",
				 l > 0 ? ", " : "", o->sample[i]);
			k->sample[kept] = o->sample[i];
			smp[kept++] = smp[i];
			continue;
		}
		snprintf(line, sizeof line, "# sample %s left out: its speed "
			 "on node %s, %.6g, is %.0f%% off the samples' median "
			 "there, %.6g (more than %.0f%%)\n", o->sample[i],
			 odd[i].node, odd[i].speed,
			 100 * fabs(odd[i].speed - odd[i].median) /
				 odd[i].median,
			 odd[i].median, 100 * ANA_SIM_SAMPLE_SPREAD);
		fputs(line + 2, stdout);
		ana_free(smp[i]);
		if (note_add(notes, len, line) != 0) {
			fprintf(stderr, "paravt: out of memory\n");
			while (++i < *ns) /* the rest are not kept */
				ana_free(smp[i]);
			*ns = kept;
			return 1;
		}
	}
	*ns = kept;
	k->nsample = kept;
	return 0;
}

/* The speeds measured from the samples (o->sample: several are taken
 * together, those that disagree with the others left out; base: the
 * trace, already taken from the console's cache) set in m
 * (con_predict_set_speeds).  0 or 1 (reported). */
static int con_predict_speeds(ana_trace *base, const con_predict_opts *o,
			      ana_sim_machine *m, char **notes)
{
	ana_trace *smp[CON_PREDICT_SAMPLES];
	ana_sim_speed *sp = NULL;
	con_predict_opts k;
	uint32_t n = 0, ns = 0;
	char err[600];
	size_t len = 0;
	int rc = 1;

	*notes = NULL;
	while (ns < o->nsample && con_predict_trace(o->sample[ns]) != NULL)
		smp[ns++] = con_ana_take(); /* kept while the next is read */
	if (ns == o->nsample &&
	    con_predict_odd(base, smp, &ns, o, &k, notes, &len) == 0) {
		if (ana_sim_speeds(base, smp, ns, &sp, &n, err, sizeof err) == 0)
			rc = con_predict_set_speeds(sp, n, &k, m, notes, len);
		else
			fprintf(stderr, "paravt: %s: %s\n", k.samples, err);
	}
	ana_sim_speeds_free(sp, n);
	while (ns > 0)
		ana_free(smp[--ns]);
	return rc;
}

/* paravt predict TRACE --describe [--sample TRACE2] [-o FILE] */
static int con_predict_describe(ana_trace *tr, const con_predict_opts *o)
{
	ana_sim_machine *m = NULL;
	char *text = NULL, *notes = NULL, *all, link[400];
	double lat, byte_ns;
	int rc = 1;

	if (ana_sim_describe(tr, &m) != 0) {
		fprintf(stderr, "paravt: out of memory\n");
		return 1;
	}
	if (!ana_sim_link_level(tr, &lat, &byte_ns, link, sizeof link))
		link[0] = '\0';
	if (o->nsample > 0) {
		tr = con_ana_take(); /* kept while the sample is read */
		rc = con_predict_speeds(tr, o, m, &notes);
		ana_free(tr);
		if (rc != 0)
			goto out;
	}
	rc = 1;
	if ((text = ana_sim_format(m)) == NULL ||
	    (all = malloc(strlen(link) + strlen(text) +
			  (notes ? strlen(notes) : 0) + 1)) == NULL) {
		fprintf(stderr, "paravt: out of memory\n");
		goto out;
	}
	strcpy(all, link);
	strcat(all, notes ? notes : "");
	strcat(all, text);
	rc = con_predict_write(o->out, all);
	if (rc == 0 && o->out != NULL)
		printf("Machine of %s written to %s (%u nodes, %u levels, %u "
		       "processes%s).\n", o->trace, o->out, m->nnode, m->nlv,
		       m->nmap, notes ? "; speeds measured from the sample" :
		       "");
	free(all);
out:
	free(text);
	free(notes);
	ana_sim_machine_free(m);
	return rc;
}

static void con_predict_help(void)
{
	printf("%s\n\nPredicts how a traced run would go on another machine: "
	       "replays the trace's\ncompensated computation and its "
	       "messages (as they were matched) on the\nmachine MACHINE "
	       "describes (paravt-machine(5): nodes with a CPU speed and\n"
	       "cores, the processes' mapping, network levels with latency, "
	       "bandwidth and\nlinks) and prints the predicted run time, the "
	       "figures of `info efficiency`\nper process and for the job, "
	       "idle time, imbalance and lost time, and the\npredicted "
	       "against the recorded time of each process.\n\n"
	       "  --describe        write the traced machine (-o FILE, else "
	       "stdout)\n"
	       "  --sample TRACE2   with --describe: a run of the same "
	       "program (fewer steps\n"
	       "                    will do) on other nodes; each node it "
	       "ran on gets the\n"
	       "                    speed measured from it: the time the "
	       "traced run took\n"
	       "                    for the same computation (same source "
	       "lines) over\n"
	       "                    the sample's; also its calls' speed, its "
	       "start (a later\n"
	       "                    start and warm-up) and the push speed "
	       "of PVM sends\n"
	       "                    between each two nodes.  Given up to "
	       "16 times, the\n"
	       "                    samples count together, as one longer "
	       "run: less of\n"
	       "                    one run's noise; with 3 or more, one "
	       "whose speed on a\n"
	       "                    node is over 10%% off the samples' "
	       "median is left out\n"
	       "  --machine FILE    the machine to predict for\n"
	       "  --pure            messages take the model's times alone "
	       "(default: they\n"
	       "                    keep what they had beyond the traced "
	       "machine's model)\n"
	       "  --traced FILE     the traced machine (default: estimated "
	       "from the trace)\n"
	       "  --sweep P=V1,...  one prediction per value of P (latency, "
	       "bandwidth,\n"
	       "                    per-byte, links, speed, cores, start, "
	       "LEVEL.latency,\n"
	       "                    NODE.speed, PROC.node, ...): a table\n"
	       "  -o HTML           the HTML report of the predicted run, the\n"
	       "                    measured one beside it; with --sweep the\n"
	       "                    curves of run time and E\n"
	       "  --best N          search the mappings of processes to the "
	       "machine's\n"
	       "                    nodes from its own (one process moved at "
	       "a time, the\n"
	       "                    best move taken, equivalent empty nodes "
	       "tried once):\n"
	       "                    the N fastest found\n"
	       "  --min-eff E       only mappings whose predicted E >= E\n\n"
	       "Exit status: 0 done, 1 unreadable trace or machine file, "
	       "2 usage.\nSee paravt(1) and paravt-machine(5).\n",
	       CON_PREDICT_USAGE);
}

int con_sub_predict(int argc, char **argv)
{
	con_predict_opts o;
	ana_trace *tr;
	int rc;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		con_predict_help();
		return 0;
	}
	if ((rc = con_predict_args(argc, argv, &o)) != 0)
		return rc;
	if ((tr = con_predict_trace(o.trace)) == NULL)
		return 1;
	return o.describe ? con_predict_describe(tr, &o) :
	       con_predict_machine_cmd(tr, &o);
}
