/*
 * ana_out.h — a trace written for other tools and for people: Chrome
 * trace-event JSON (Perfetto and chrome://tracing load it; one flow arrow
 * per matched send -> receive), OTF2 (Score-P's format, read back by
 * otf2-print; sends and receives as MPI-style point-to-point records with
 * matching), and a self-contained HTML report (inline SVG, no network):
 * timeline with send -> receive lines and clickable blocks showing the
 * source line, the communication matrix as a heat map, the load-balance
 * polygon (ParaVT figure 3) and the efficiency table.
 *
 * All three take a trace after ana_analyze and write the given view's
 * times.  0, or a negative code with a sentence in err.
 */
#ifndef PARAVT_ANA_OUT_H
#define PARAVT_ANA_OUT_H

#include <stdio.h>

#include "ana.h"

#define ANA_EIO (-10)   /* writing failed (err says why) */

int ana_out_chrome(const ana_trace *tr, int view, FILE *f, char *err,
		   size_t errlen);

/* Writes the archive DIR/NAME.otf2 (+ DIR/NAME/ and .def files); DIR is
 * created, must not hold NAME already. */
int ana_out_otf2(const ana_trace *tr, int view, const char *dir,
		 const char *name, char *err, size_t errlen);

/* title is shown at the top (program name, date). */
int ana_out_html(const ana_trace *tr, int view, const char *title, FILE *f,
		 char *err, size_t errlen);

/* A second run drawn beside the first, on the same time scale: swap(ctx)
 * turns tr's times into the other run's and, called again, back (the
 * measured run beside the predicted one: ana_sim_swap). */
typedef struct ana_html_alt {
	void (*swap)(void *ctx);
	void *ctx;
	const char *first;   /* heading of the first timeline */
	const char *heading; /* heading of the second */
} ana_html_alt;

/* Writes s with &, <, >, " and ' escaped (HTML text and attribute
 * values). */
void ana_html_esc(FILE *f, const char *s);

/* One value of a prediction sweep (paravt predict --sweep). */
typedef struct ana_sweep_pt {
	const char *label; /* the value as given ("1ms") */
	double time_ms;    /* predicted run time */
	double vs_rec;     /* its difference from the recorded run, % */
	double eff;        /* predicted efficiency E */
	double lost_ms;    /* DVM lost time */
} ana_sweep_pt;

/* The HTML report of a sweep of param over n values: the predicted run
 * time and E as curves over the values (in the order given), and the
 * table.  0, or ANA_EIO with err. */
int ana_out_sweep(const char *title, const char *param,
		  const ana_sweep_pt *pts, size_t n, FILE *f, char *err,
		  size_t errlen);

/* ana_out_html with alt's run drawn under the first (alt may be NULL).
 * tr's times are swapped meanwhile and put back. */
int ana_out_html_alt(const ana_trace *tr, int view, const char *title,
		     const ana_html_alt *alt, FILE *f, char *err,
		     size_t errlen);

#endif
