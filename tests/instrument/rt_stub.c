/*
 * rt_stub.c — a stand-in for libparavt.a used by the instrumenter's shell
 * tests: the templates do nothing visible, except para_vt_break, which
 * checks the unit's generated type table (ids equal indices, every type
 * id in range, sizes known for recorded variables) and prints, on
 * stderr, one line per variable: "bp ID FUNC NAME TYPE-NAME KIND SIZE".
 * A table that fails a check aborts the program.  With RT_STUB_PROBES set
 * in the environment the line probes are armed and every statement
 * stops (bp PVT_BP_LIVE), so that every probe's variable list is checked
 * too.  C99, any target.
 */
#include <stdio.h>
#include <stdlib.h>

#include "paravt_rt.h"

/* Statement line template: written, never read. */
volatile int pvt__line;

/* Line probes: armed by RT_STUB_PROBES (see above). */
static volatile uint32_t stub_armed;
volatile uint32_t *pvt__armp = &stub_armed;

/* Every armed probe stops. */
int para_vt_line(pvt_unit *unit, const char *file, int line)
{
	(void)unit, (void)file, (void)line;
	return 1;
}

/* Call sites record their variables: nothing to keep here. */
void para_vt_frame(pvt_unit *unit, int line, const pvt_var *vars,
		   uint32_t nvars)
{
	(void)unit, (void)line, (void)vars, (void)nvars;
}

/* Program start: arms the probes if asked. */
void para_vt_start(void)
{
	stub_armed = getenv("RT_STUB_PROBES") != NULL;
}

/* Program exit: nothing. */
void para_vt_exit(int status)
{
	(void)status;
}

/* Function entry: nothing. */
void para_vt_fn_enter(const char *func, const char *file, int line)
{
	(void)func, (void)file, (void)line;
}

/* Function exit: nothing. */
void para_vt_fn_exit(const char *func, const char *file, int line)
{
	(void)func, (void)file, (void)line;
}

/* Aborts with a message when a check fails. */
static void check(int ok, const char *what, unsigned long a)
{
	if (!ok) {
		fprintf(stderr, "rt_stub: bad table: %s (%lu)\n", what, a);
		abort();
	}
}

/* Checks every entry of a table. */
static void check_table(const td_table *t)
{
	uint32_t i, j;

	for (i = 0; i < t->ntypes; i++) {
		const td_type *e = &t->types[i];

		check(e->id == i, "id differs from index", i);
		check(e->kind < TD_KIND_COUNT, "kind", i);
		check(e->base < t->ntypes, "base out of range", i);
		check(e->align > 0, "alignment", i);
		for (j = 0; j < e->nmembers; j++)
			check(e->members[j].type < t->ntypes, "member type", i);
	}
}

/* Breakpoint: checks the table, prints the variables. */
void para_vt_break(pvt_unit *unit, uint32_t bp, const char *file, int line,
		   const char *func, const pvt_var *vars, uint32_t nvars)
{
	uint32_t i;

	check_table(unit->table);
	for (i = 0; i < nvars; i++) {
		const td_type *e;

		check(vars[i].type < unit->table->ntypes, "variable type", i);
		e = &unit->table->types[vars[i].type];
		check(e->size > 0 && vars[i].addr != NULL, "variable size", i);
		fprintf(stderr, "bp %u %s %s %s %d %lu\n", (unsigned)bp, func,
			vars[i].name, e->name, e->kind,
			(unsigned long)e->size);
	}
	(void)file, (void)line;
}
