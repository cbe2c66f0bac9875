/*
 * con_ana_pending.c — TEMPORARY weak stand-ins for the analysis passes
 * (console/ana/ana_clock.c, ana_match.c, ana_comp.c, ana_order.c) while
 * they are being written, so that paravt links meanwhile.  The real,
 * strong definitions replace these; this file is deleted when they land.
 */
#include "ana.h"

__attribute__((weak)) int64_t ana_clock_to_console(const ana_clock *c,
						   int64_t t)
{
	if (c == 0 || !c->valid)
		return t;
	return t - c->offset_ns;
}

__attribute__((weak)) int ana_analyze(ana_trace *tr, const ana_opts *o)
{
	(void)tr;
	(void)o;
	return 0;
}

__attribute__((weak)) int ana_sort(ana_trace *tr, int view)
{
	(void)tr;
	(void)view;
	return 0;
}

__attribute__((weak)) int ana_clock_fit(const ana_clock_sample *s, size_t n,
					ana_clock *out)
{
	(void)s;
	(void)n;
	out->valid = 0;
	return ANA_EARG;
}

__attribute__((weak)) uint64_t ana_count_inversions(const ana_trace *tr)
{
	(void)tr;
	return 0;
}
