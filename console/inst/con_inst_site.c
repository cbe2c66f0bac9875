/*
 * con_inst_site.c — finding the line probes of an instrumentation result
 * (con_inst.h): where a breakpoint set after the build stops.
 */
#include <string.h>

#include "con_inst.h"

/* See con_inst.h. */
long con_inst_site_at(const con_inst_result *res, const char *file,
		      int line)
{
	long best = -1;
	size_t i;
	int u;

	for (i = 0; i < res->nsites; i++) {
		u = res->sites[i].unit;
		if (res->sites[i].line < line || u < 0 ||
		    (size_t)u >= res->nunits ||
		    !con_inst_same_file(file, res->units[u]))
			continue;
		if (best < 0 || res->sites[i].line < res->sites[best].line)
			best = (long)i;
	}
	return best;
}

/* See con_inst.h. */
long con_inst_site_func(const con_inst_result *res, const char *func)
{
	size_t i;
	int f;

	for (i = 0; i < res->nsites; i++) {
		f = res->sites[i].func;
		if (f >= 0 && (size_t)f < res->nfuncs &&
		    strcmp(res->funcs[f], func) == 0)
			return (long)i;
	}
	return -1;
}
