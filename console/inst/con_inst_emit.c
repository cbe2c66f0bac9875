/*
 * con_inst_emit.c — the type table's encoding (con_inst_int.h): the
 * entries built by con_inst_types.c written out as C99 source that the
 * TARGET compiler evaluates — a typedef pvt__tN per nameable entry,
 * member and constant arrays (bit-fields through small accessor
 * functions), the td_type array, the td_table and the pvt_unit
 * definition — in the shape of tests/typedesc/td_probe_types.c.
 */
#include "con_inst_int.h"
#include "td.h"

/* Appends the typedef pvt__tN of entry id, if it has one. */
static int ci_emit_typedef(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	const char *q = ci_qual_str(e->quals);

	if (!ci_named(t, id))
		return 0;
	switch (e->kind) {
	case TD_POINTER:
		if (ci_named(t, e->base))
			return ci_printf(o, "typedef pvt__t%d *%spvt__t%d;\n",
					 e->base, q, id);
		return ci_printf(o, "typedef void *%spvt__t%d;\n", q, id);
	case TD_FUNCPTR:
		return ci_printf(o, "typedef void (*%spvt__t%d)(void);\n", q,
				 id);
	case TD_ARRAY:
		if (e->count || e->complete)
			return ci_printf(o, "typedef pvt__t%d pvt__t%d[%llu];\n",
					 e->base, id, e->count);
		return ci_printf(o, "typedef pvt__t%d pvt__t%d[];\n", e->base,
				 id);
	default:
		return ci_printf(o, "typedef %s%s pvt__t%d;\n", q, e->decl, id);
	}
}

/* Appends, for member m of record entry r, the C expression that reads
 * it from "o" (accessors) or its offset (offsetof). */
static int ci_emit_access(const ci_types *t, int r, const ci_member *m,
			  wire_buf *o, int offset)
{
	const ci_type *e = &t->v[r];

	if (e->path && offset)
		return ci_printf(o, "offsetof(%s, %s.%s) - offsetof(%s, %s)",
				 e->outer, e->path, m->name, e->outer, e->path);
	if (e->path)
		return ci_printf(o, "((const %s *)((const char *)o - "
				 "offsetof(%s, %s)))->%s.%s",
				 e->outer, e->outer, e->path, e->path, m->name);
	if (offset)
		return ci_printf(o, "offsetof(pvt__t%d, %s)", r, m->name);
	return ci_printf(o, "((const pvt__t%d *)o)->%s", r, m->name);
}

/* Appends the member array (and bit-field accessors) of entry id. */
static int ci_emit_members(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	size_t i;
	int rc = 0;

	for (i = 0; i < e->nmem; i++) {
		if (!e->mem[i].width)
			continue;
		rc |= ci_printf(o, "/* Bit-field %s of %s. */\nstatic uint64_t "
				"pvt__bf_%d_%zu(const void *o)\n{\n\treturn "
				"(uint64_t)",
				e->mem[i].name, e->name, id, i);
		rc |= ci_emit_access(t, id, &e->mem[i], o, 0);
		rc |= ci_printf(o, ";\n}\n\n");
	}
	rc |= ci_printf(o, "static const td_member pvt__m%d[] = {\n", id);
	for (i = 0; i < e->nmem; i++) {
		rc |= ci_printf(o, "    {\"%s\", %d, ", e->mem[i].name,
				e->mem[i].type);
		if (e->mem[i].width) {
			rc |= ci_printf(o, "0, %d, pvt__bf_%d_%zu},\n",
					e->mem[i].width, id, i);
			continue;
		}
		rc |= ci_emit_access(t, id, &e->mem[i], o, 1);
		rc |= ci_printf(o, ", 0, NULL},\n");
	}
	return rc | ci_printf(o, "};\n\n");
}

/* Appends the constant array of enum entry id. */
static int ci_emit_consts(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	size_t i;
	int rc = ci_printf(o, "static const td_const pvt__c%d[] = {\n", id);

	for (i = 0; i < e->ncst; i++) {
		if (e->cst[i].val == (-9223372036854775807LL - 1))
			rc |= ci_printf(o, "    {\"%s\", -9223372036854775807LL"
					" - 1},\n", e->cst[i].name);
		else
			rc |= ci_printf(o, "    {\"%s\", %lldLL},\n",
					e->cst[i].name, e->cst[i].val);
	}
	return rc | ci_printf(o, "};\n\n");
}

/* Appends the size and alignment expressions of entry id. */
static int ci_emit_size(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];

	if (!e->complete)
		return ci_printf(o, "0, 1");
	if (e->path)
		return ci_printf(o, "sizeof(((%s *)0)->%s), 1", e->outer,
				 e->path);
	return ci_printf(o, "sizeof(pvt__t%d), TD_ALIGNOF(pvt__t%d)", id, id);
}

/* Appends the td_type initialiser of entry id. */
static int ci_emit_entry(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	int mid = e->mem_of >= 0 ? e->mem_of : id;
	const ci_type *me = &t->v[mid];
	int rc = ci_printf(o, "    {%d, %d, %u, ", id, e->kind, e->quals);

	if (e->integral && !e->path)
		rc |= ci_printf(o, "TD_SIGNED(pvt__t%d), \"", id);
	else
		rc |= ci_printf(o, "%d, \"", e->integral && e->host_signed);
	rc |= ci_cstr(o, e->name);
	rc |= ci_printf(o, "\", ");
	rc |= ci_emit_size(t, id, o);
	rc |= ci_printf(o, ", %d, %lluu, ", e->base, e->count);
	if (me->nmem)
		rc |= ci_printf(o, "PVT__N(pvt__m%d), pvt__m%d, ", mid, mid);
	else
		rc |= ci_printf(o, "0, NULL, ");
	if (e->ncst)
		rc |= ci_printf(o, "PVT__N(pvt__c%d), pvt__c%d},\n", id, id);
	else
		rc |= ci_printf(o, "0, NULL},\n");
	return rc;
}

/* Appends the whole table, the td_table and the pvt_unit definition. */
int ci_types_emit(ci_types *t, wire_buf *o, const char *build, int unit)
{
	size_t i;
	int rc = 0;

	if (!t->n && ci_scalar(t, TD_VOID, 0, "void", "") != 0)
		return -1;
	rc |= ci_printf(o, "\n/* paravt: the type table of this unit "
			"(generated; evaluated by the target compiler). */\n"
			"#define PVT__N(a) ((uint32_t)(sizeof(a) / "
			"sizeof((a)[0])))\n");
	for (i = 0; i < t->n; i++)
		rc |= ci_emit_typedef(t, (int)i, o);
	rc |= ci_printf(o, "\n");
	for (i = 0; i < t->n; i++) {
		if (t->v[i].nmem)
			rc |= ci_emit_members(t, (int)i, o);
		if (t->v[i].ncst)
			rc |= ci_emit_consts(t, (int)i, o);
	}
	rc |= ci_printf(o, "static const td_type pvt__types[%zu] = {\n", t->n);
	for (i = 0; i < t->n; i++)
		rc |= ci_emit_entry(t, (int)i, o);
	rc |= ci_printf(o, "};\n\nstatic const td_table pvt__table = {\"");
	rc |= ci_cstr(o, build ? build : "");
	rc |= ci_printf(o, ":%d\", %zu, pvt__types};\n", unit, t->n);
	rc |= ci_printf(o, "static pvt_unit pvt__unit = {&pvt__table, %d, 0};\n",
			unit);
	return rc ? -1 : 0;
}
