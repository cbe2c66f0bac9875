/*
 * con_inst_typetab.c — the type table as a store (con_inst_int.h): a
 * growing array of entries with an open-addressing hash index on their
 * structural keys, and what can be said of an entry once it is built
 * (can it be named at file scope, can its size be written).  The entries
 * are made by con_inst_types.c and written out by con_inst_emit.c.
 */
#include <stdlib.h>
#include <string.h>

#include "con_inst_int.h"
#include "td.h"

/* Prepares an empty table whose entry 0 is void. */
void ci_types_init(ci_types *t, wire_buf *notes)
{
	memset(t, 0, sizeof *t);
	t->notes = notes;
}

/* Frees one entry's strings and arrays. */
static void ci_type_clear(ci_type *e)
{
	size_t i;

	free(e->key);
	free(e->name);
	free(e->decl);
	free(e->outer);
	free(e->path);
	for (i = 0; i < e->nmem; i++)
		free(e->mem[i].name);
	free(e->mem);
	for (i = 0; i < e->ncst; i++)
		free(e->cst[i].name);
	free(e->cst);
}

/* Frees the table. */
void ci_types_destroy(ci_types *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		ci_type_clear(&t->v[i]);
	free(t->v);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

/* FNV-1a hash of a key. */
static size_t ci_hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Id of the entry with this key, or -1. */
int ci_find(const ci_types *t, const char *key)
{
	size_t i;

	if (!t->hcap)
		return -1;
	for (i = ci_hash(key) & (t->hcap - 1); t->hash[i];
	     i = (i + 1) & (t->hcap - 1))
		if (!strcmp(t->v[t->hash[i] - 1].key, key))
			return t->hash[i] - 1;
	return -1;
}

/* Rebuilds the hash index with room for twice the entries.  0 or -1. */
static int ci_rehash(ci_types *t)
{
	size_t cap = t->hcap ? t->hcap * 2 : 64, i, j;
	int *h = calloc(cap, sizeof *h);

	if (!h)
		return -1;
	for (i = 0; i < t->n; i++) {
		for (j = ci_hash(t->v[i].key) & (cap - 1); h[j];
		     j = (j + 1) & (cap - 1))
			;
		h[j] = (int)i + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = cap;
	return 0;
}

/* Appends a zeroed entry with key and name (copied); its id, or -1. */
int ci_new(ci_types *t, const char *key, const char *name, int kind,
	   unsigned quals)
{
	ci_type *e;
	size_t j;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		ci_type *v = realloc(t->v, cap * sizeof *v);

		if (!v)
			goto fail;
		t->v = v;
		t->cap = cap;
	}
	if ((t->n + 1) * 2 > t->hcap && ci_rehash(t) < 0)
		goto fail;
	e = &t->v[t->n];
	memset(e, 0, sizeof *e);
	e->key = strdup(key);
	e->name = strdup(name);
	if (!e->key || !e->name) {
		ci_type_clear(e);
		goto fail;
	}
	e->kind = kind;
	e->quals = quals;
	e->mem_of = -1;
	for (j = ci_hash(key) & (t->hcap - 1); t->hash[j];
	     j = (j + 1) & (t->hcap - 1))
		;
	t->hash[j] = (int)t->n + 1;
	return (int)t->n++;
fail:
	t->failed = 1;
	return -1;
}

/* "const volatile " prefix for quals (static). */
const char *ci_qual_str(unsigned q)
{
	static const char *const s[] = {"", "const ", "volatile ",
					"const volatile "};
	return s[q & 3];
}
/* 1 if the entry has a typedef pvt__tN (it can be named at file scope). */
int ci_named(const ci_types *t, int id)
{
	const ci_type *e = &t->v[id];

	if (e->path)
		return 0;
	if (e->kind == TD_ARRAY)
		return ci_named(t, e->base);
	return e->decl != NULL || e->kind == TD_POINTER ||
	       e->kind == TD_FUNCPTR;
}

/* 1 if sizeof of the entry can be written on the target (a variable or
 * member of this type can be described). */
int ci_sized(const ci_types *t, int id)
{
	const ci_type *e = &t->v[id];

	return e->complete && (e->path || ci_named(t, id));
}
