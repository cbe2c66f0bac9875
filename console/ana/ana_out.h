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

#endif
