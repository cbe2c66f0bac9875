/*
 * ana_out_sweep.c — the HTML report of a prediction sweep (ana_out.h:
 * ana_out_sweep): one self-contained file with svg#sweep, the predicted
 * run time (polyline.time, left axis, ms) and the efficiency E
 * (polyline.eff, right axis, 0 to 1) over the values of the parameter,
 * evenly spaced in the order given (values like 0us, 1ms, 10ms keep
 * their order without a log scale), and table#sweep with every figure.
 */
#include <stdio.h>

#include "ana_out.h"

/* Chart geometry (SVG user units). */
#define SW_LEFT 70   /* left margin: the time axis */
#define SW_RIGHT 60  /* right margin: the E axis */
#define SW_TOP 20
#define SW_PLOT_W 700
#define SW_PLOT_H 300
#define SW_BOTTOM 50 /* the values under the plot */

static const char sw_css[] =
	"body{font:14px/1.4 sans-serif;margin:16px;color:#222}\n"
	"h1{font-size:20px}svg text{font:11px sans-serif;fill:#333}\n"
	"line.grid{stroke:#ddd}line.axis{stroke:#999}\n"
	"polyline.time{fill:none;stroke:#3b7dd8;stroke-width:2}\n"
	"polyline.eff{fill:none;stroke:#e0564b;stroke-width:2;"
	"stroke-dasharray:6 3}\ncircle.time{fill:#3b7dd8}"
	"circle.eff{fill:#e0564b}\n"
	"table{border-collapse:collapse;margin-top:12px}td,th{border:1px "
	"solid #ccc;padding:2px 8px;text-align:right}th{background:#eee}"
	"td.l{text-align:left}\n";

/* x of value i of n. */
static double sw_x(size_t i, size_t n)
{
	return SW_LEFT + (n > 1 ? (double)i * SW_PLOT_W / (double)(n - 1) :
			  SW_PLOT_W / 2.0);
}

/* y of v on an axis from 0 to max. */
static double sw_y(double v, double max)
{
	return SW_TOP + SW_PLOT_H - (max > 0 ? v / max * SW_PLOT_H : 0);
}

/* The axes: time ticks on the left, E on the right, values below. */
static void sw_axes(FILE *f, const ana_sweep_pt *pts, size_t n, double tmax)
{
	size_t i;
	int k;

	for (k = 0; k <= 4; k++) {
		double y = sw_y(tmax * k / 4, tmax);

		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			"y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\""
			">%.3g</text><text x=\"%d\" y=\"%.1f\">%.2f</text>\n",
			SW_LEFT, y, SW_LEFT + SW_PLOT_W, y, SW_LEFT - 6, y + 4,
			tmax * k / 4, SW_LEFT + SW_PLOT_W + 6, y + 4, k / 4.0);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">ms</text><text x=\"%d\" y=\"%d\">"
		"E</text>\n", SW_LEFT - 40, SW_TOP - 6,
		SW_LEFT + SW_PLOT_W + 6, SW_TOP - 6);
	for (i = 0; i < n; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			sw_x(i, n), SW_TOP + SW_PLOT_H + 18);
		ana_html_esc(f, pts[i].label);
		fputs("</text>\n", f);
	}
}

/* One curve: the time (eff 0) or E (eff 1) of every value. */
static void sw_curve(FILE *f, const ana_sweep_pt *pts, size_t n, double tmax,
		     int eff)
{
	const char *cls = eff ? "eff" : "time";
	size_t i;

	fprintf(f, "<polyline class=\"%s\" points=\"", cls);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", sw_x(i, n),
			eff ? sw_y(pts[i].eff, 1) : sw_y(pts[i].time_ms, tmax));
	fputs("\"/>\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\">"
			"<title>", cls, sw_x(i, n),
			eff ? sw_y(pts[i].eff, 1) : sw_y(pts[i].time_ms, tmax));
		ana_html_esc(f, pts[i].label);
		fprintf(f, eff ? ": E = %.3f</title></circle>\n" :
			": %.3f ms</title></circle>\n",
			eff ? pts[i].eff : pts[i].time_ms);
	}
}

/* The table of every figure. */
static void sw_table(FILE *f, const char *param, const ana_sweep_pt *pts,
		     size_t n)
{
	size_t i;

	fputs("<table id=\"sweep\"><tr><th>", f);
	ana_html_esc(f, param);
	fputs("</th><th>predicted ms</th><th>vs recorded</th><th>E</th>"
	      "<th>lost ms</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		fputs("<tr><td class=\"l\">", f);
		ana_html_esc(f, pts[i].label);
		fprintf(f, "</td><td>%.3f</td><td>%+.1f%%</td><td>%.3f</td>"
			"<td>%.3f</td></tr>\n", pts[i].time_ms, pts[i].vs_rec,
			pts[i].eff, pts[i].lost_ms);
	}
	fputs("</table>\n", f);
}

int ana_out_sweep(const char *title, const char *param,
		  const ana_sweep_pt *pts, size_t n, FILE *f, char *err,
		  size_t errlen)
{
	double tmax = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (pts[i].time_ms > tmax)
			tmax = pts[i].time_ms;
	tmax = tmax > 0 ? tmax * 1.1 : 1;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset="
	      "\"utf-8\">\n<title>", f);
	ana_html_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>",
		sw_css);
	ana_html_esc(f, title);
	fputs("</h1>\n<p>Predicted run time (solid, left axis) and efficiency "
	      "E (dashed, right axis) over the values of ", f);
	ana_html_esc(f, param);
	fprintf(f, ".</p>\n<svg id=\"sweep\" width=\"%d\" height=\"%d\">\n",
		SW_LEFT + SW_PLOT_W + SW_RIGHT, SW_TOP + SW_PLOT_H + SW_BOTTOM);
	sw_axes(f, pts, n, tmax);
	sw_curve(f, pts, n, tmax, 0);
	sw_curve(f, pts, n, tmax, 1);
	fputs("</svg>\n", f);
	sw_table(f, param, pts, n);
	fputs("</body>\n</html>\n", f);
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "write failed");
		return ANA_EIO;
	}
	return 0;
}
