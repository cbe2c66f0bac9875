/*
 * ana_clock.c — a node's clock model from PING/PONG samples (ana.h, pass
 * 1), Cristian's way.
 *
 * One sample: the console sends at t0 and gets the answer at t3 (console
 * clock); the daemon receives at t1 and answers at t2 (node clock).  Its
 * round trip is rtt = (t3 - t0) - (t2 - t1); the node-minus-console
 * offset at node time (t1 + t2) / 2 is ((t1 - t0) + (t2 - t3)) / 2, wrong
 * by at most rtt / 2.
 *
 * Windows: the samples are cut into windows of ANA_CLOCK_WINDOW_NS (1 s)
 * of console time t0, counted from the first sample; in each window only
 * the sample with the smallest round trip is kept (a burst of pings taken
 * together gives one good point; pings spread over a long run give one
 * point per second at most).  The model is the least-squares line through
 * the kept points: offset at their mean node time, drift its slope.  A
 * window whose best round trip is far above the best of all (4 times,
 * plus 200 µs) is left out: its offset may be off by half of it.
 *
 * The drift is fitted only when the kept points span at least
 * ANA_CLOCK_DRIFT_SPAN_NS of node time and the error bound of their
 * offsets leaves the slope uncertain by at most ANA_CLOCK_DRIFT_UNC
 * (2 err / span): a few samples over a short run cannot tell a drift
 * (issue 11: 42158 ppm from samples 2 s apart, one of them slow).  Then
 * the drift is 0, drift_fitted says so, and the offset is the sample
 * with the smallest round trip, err_ns half of that round trip.
 * Otherwise err_ns is half the largest round trip among the kept
 * samples.  Samples with t3 < t0 or t2 < t1 are ignored.
 */
#include <math.h>

#include "ana.h"

#define ANA_CLOCK_WINDOW_NS 1000000000LL

/* Largest time a sample may hold: 2^60 ns (36 years of uptime), so that
 * no sum or multiple of a few of them overflows (a trace file is read
 * from anywhere). */
#define ANA_CLOCK_T_MAX ((int64_t)1 << 60)

/* True if t is a time a clock sample may hold. */
static int t_ok(int64_t t)
{
	return t >= 0 && t <= ANA_CLOCK_T_MAX;
}

/* The round trip of s, or -1 if s is not a possible sample. */
static int64_t rtt_of(const ana_clock_sample *s)
{
	if (!t_ok(s->t0) || !t_ok(s->t1) || !t_ok(s->t2) || !t_ok(s->t3) ||
	    s->t3 < s->t0 || s->t2 < s->t1)
		return -1;
	return (s->t3 - s->t0) - (s->t2 - s->t1) < 0
		       ? 0
		       : (s->t3 - s->t0) - (s->t2 - s->t1);
}

/* Running sums of the least-squares fit, in ns relative to the first
 * kept point (for precision). */
typedef struct fit {
	double x0, y0;           /* origin */
	double sx, sy, sxx, sxy; /* sums */
	uint32_t n;
	int64_t err2;            /* largest kept round trip */
	double xmin, xmax;       /* node times of the kept points */
} fit;

/* Node time and offset of sample s. */
static void point_of(const ana_clock_sample *s, double *x, double *y)
{
	*x = ((double)s->t1 + (double)s->t2) / 2;
	*y = ((double)(s->t1 - s->t0) + (double)(s->t2 - s->t3)) / 2;
}

/* Adds the kept sample s of a window to f. */
static void fit_add(fit *f, const ana_clock_sample *s)
{
	double x, y;
	int64_t rtt = rtt_of(s);

	point_of(s, &x, &y);
	if (f->n == 0) {
		f->x0 = x;
		f->y0 = y;
		f->xmin = f->xmax = x;
	}
	f->xmin = x < f->xmin ? x : f->xmin;
	f->xmax = x > f->xmax ? x : f->xmax;
	x -= f->x0;
	y -= f->y0;
	f->sx += x;
	f->sy += y;
	f->sxx += x * x;
	f->sxy += x * y;
	f->n++;
	if (rtt > f->err2)
		f->err2 = rtt;
}

/* The model from the sums; best is the kept sample with the smallest
 * round trip (the offset when the drift is not fitted). */
static void fit_model(const fit *f, const ana_clock_sample *best,
		      ana_clock *out)
{
	double mx = f->sx / f->n, my = f->sy / f->n;
	double vxx = f->sxx / f->n - mx * mx;
	double span = f->xmax - f->xmin, x, y;

	out->valid = 1;
	out->nsamples = f->n;
	out->span_ns = (int64_t)llround(span);
	out->drift_fitted = f->n > 1 && vxx > 1.0 &&
			    span >= (double)ANA_CLOCK_DRIFT_SPAN_NS &&
			    2.0 * (double)f->err2 / 2 / span <=
				    ANA_CLOCK_DRIFT_UNC;
	if (out->drift_fitted) {
		out->ref_ns = (int64_t)llround(f->x0 + mx);
		out->offset_ns = (int64_t)llround(f->y0 + my);
		out->drift = (f->sxy / f->n - mx * my) / vxx;
		out->err_ns = (f->err2 + 1) / 2;
		return;
	}
	point_of(best, &x, &y);
	out->ref_ns = (int64_t)llround(x);
	out->offset_ns = (int64_t)llround(y);
	out->drift = 0;
	out->err_ns = (rtt_of(best) + 1) / 2;
}

/* The least round trip of the possible samples, or -1. */
static int64_t min_rtt(const ana_clock_sample *s, size_t n)
{
	int64_t m = -1, r;
	size_t i;

	for (i = 0; i < n; i++)
		if ((r = rtt_of(&s[i])) >= 0 && (m < 0 || r < m))
			m = r;
	return m;
}

/* Whether a window's best round trip r is usable next to the best of
 * all, m: within 4 m + 200 µs (a loopback answers in tens of µs; one
 * that took 1.5 s while the node was busy would drag the line). */
static int rtt_usable(int64_t r, int64_t m)
{
	return r <= 4 * m + 200000;
}

int ana_clock_fit(const ana_clock_sample *s, size_t n, ana_clock *out)
{
	fit f = {0};
	const ana_clock_sample *best = NULL, *top = NULL;
	int64_t start = 0, win = -1, w, r, best_rtt = 0, m = min_rtt(s, n);
	size_t i;

	out->valid = 0;
	if (m < 0)
		return ANA_EARG;
	for (i = 0; i < n; i++) {
		if ((r = rtt_of(&s[i])) < 0)
			continue;
		if (best == NULL && win < 0)
			start = s[i].t0;
		w = (s[i].t0 - start) / ANA_CLOCK_WINDOW_NS;
		if (best != NULL && w != win) {
			if (rtt_usable(best_rtt, m))
				fit_add(&f, best);
			best = NULL;
		}
		if (best == NULL || r < best_rtt) {
			best = &s[i];
			best_rtt = r;
		}
		if (r == m && top == NULL)
			top = &s[i];
		win = w;
	}
	if (best != NULL && rtt_usable(best_rtt, m))
		fit_add(&f, best);
	if (f.n == 0 || top == NULL)
		return ANA_EARG; /* (not reached: the best is usable) */
	fit_model(&f, top, out);
	return 0;
}

/* a - b, saturated to the int64 range (times and offsets come from trace
 * files that may hold anything). */
static int64_t sat_sub(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

int64_t ana_clock_to_console(const ana_clock *c, int64_t t_node)
{
	double d;

	if (c == NULL || !c->valid)
		return t_node;
	d = c->drift * (double)sat_sub(t_node, c->ref_ns);
	if (!(d > -9e18 && d < 9e18))
		d = 0; /* no sane drift moves a time that far */
	return sat_sub(sat_sub(t_node, c->offset_ns), (int64_t)llround(d));
}
