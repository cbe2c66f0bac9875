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
 * the kept points: offset at their mean node time, drift its slope; with
 * one window the drift is 0.  err_ns is half the largest round trip among
 * the kept samples.  Samples with t3 < t0 or t2 < t1 are ignored.
 */
#include <math.h>

#include "ana.h"

#define ANA_CLOCK_WINDOW_NS 1000000000LL

/* The round trip of s, or -1 if s is not a possible sample. */
static int64_t rtt_of(const ana_clock_sample *s)
{
	if (s->t3 < s->t0 || s->t2 < s->t1)
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
} fit;

/* Adds the kept sample s of a window to f. */
static void fit_add(fit *f, const ana_clock_sample *s)
{
	double x = ((double)s->t1 + (double)s->t2) / 2;
	double y = ((double)(s->t1 - s->t0) + (double)(s->t2 - s->t3)) / 2;
	int64_t rtt = rtt_of(s);

	if (f->n == 0) {
		f->x0 = x;
		f->y0 = y;
	}
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

/* The model from the sums. */
static void fit_model(const fit *f, ana_clock *out)
{
	double mx = f->sx / f->n, my = f->sy / f->n;
	double vxx = f->sxx / f->n - mx * mx;
	double slope = 0;

	if (f->n > 1 && vxx > 1.0)
		slope = (f->sxy / f->n - mx * my) / vxx;
	out->valid = 1;
	out->ref_ns = (int64_t)llround(f->x0 + mx);
	out->offset_ns = (int64_t)llround(f->y0 + my);
	out->drift = slope;
	out->err_ns = (f->err2 + 1) / 2;
	out->nsamples = f->n;
}

int ana_clock_fit(const ana_clock_sample *s, size_t n, ana_clock *out)
{
	fit f = {0};
	const ana_clock_sample *best = NULL;
	int64_t start = 0, win = -1, w, r, best_rtt = 0;
	size_t i;

	out->valid = 0;
	for (i = 0; i < n; i++) {
		if ((r = rtt_of(&s[i])) < 0)
			continue;
		if (best == NULL && win < 0)
			start = s[i].t0;
		w = (s[i].t0 - start) / ANA_CLOCK_WINDOW_NS;
		if (best != NULL && w != win) {
			fit_add(&f, best);
			best = NULL;
		}
		if (best == NULL || r < best_rtt) {
			best = &s[i];
			best_rtt = r;
		}
		win = w;
	}
	if (best != NULL)
		fit_add(&f, best);
	if (f.n == 0)
		return ANA_EARG;
	fit_model(&f, out);
	return 0;
}

int64_t ana_clock_to_console(const ana_clock *c, int64_t t_node)
{
	double d;

	if (c == NULL || !c->valid)
		return t_node;
	d = c->drift * (double)(t_node - c->ref_ns);
	return t_node - c->offset_ns - (int64_t)llround(d);
}
