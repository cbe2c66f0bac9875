/*
 * bp_model.c — the console's breakpoint model (bp_model.h).
 *
 * Layout: small string helpers; the list (init, destroy, find, count);
 * parsing a location and adding; deleting; recording where a build made
 * each breakpoint land; counting hits; the location text.  C99 so that it
 * compiles wherever breakpoints/ does, although only the console links it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bp_model.h"

/* ---- helpers ---------------------------------------------------------- */

/* strdup that accepts NULL (returns NULL for it). */
static char *bp_strdup(const char *s)
{
	char *d;

	if (s == NULL)
		return NULL;
	d = malloc(strlen(s) + 1);
	if (d != NULL)
		strcpy(d, s);
	return d;
}

/* See bp_model.h. */
void bp_forget_code(bp *b)
{
	free(b->code);
	free(b->code_why);
	b->code = NULL;
	b->code_why = NULL;
	b->code_len = 0;
	b->code_tried = 0;
}

/* Frees the landing of b and marks it not landed (its condition's code
 * was for that landing). */
static void bp_unland(bp *b)
{
	size_t i;

	bp_forget_code(b);
	for (i = 0; i < b->nvars; i++) {
		free(b->vars[i].name);
		free(b->vars[i].type);
	}
	free(b->vars);
	free(b->at_file);
	free(b->at_func);
	b->vars = NULL;
	b->nvars = 0;
	b->at_file = b->at_func = NULL;
	b->at_line = 0;
	b->unit = 0;
	b->landed = 0;
}

/* Frees the record list of b. */
static void bp_unrecord(bp *b)
{
	size_t i;

	for (i = 0; i < b->nrec; i++)
		free(b->rec[i]);
	free(b->rec);
	b->rec = NULL;
	b->nrec = 0;
	b->record = 0;
}

/* Frees one breakpoint. */
static void bp_free(bp *b)
{
	bp_unland(b);
	bp_unrecord(b);
	free(b->cond);
	free(b->watch);
	free(b->watch_old);
	free(b->file);
	free(b->func);
	free(b);
}

/* Links b into m in id order. */
static void bp_link(bp_model *m, bp *b)
{
	bp **pp = &m->head;

	while (*pp != NULL && (*pp)->id < b->id)
		pp = &(*pp)->next;
	b->next = *pp;
	*pp = b;
}

/* ---- the list --------------------------------------------------------- */

/* Empty list, first id 1. */
void bp_model_init(bp_model *m)
{
	m->head = NULL;
	m->next_id = 1;
}

/* Frees every breakpoint. */
void bp_model_destroy(bp_model *m)
{
	bp *b, *next;

	for (b = m->head; b != NULL; b = next) {
		next = b->next;
		bp_free(b);
	}
	m->head = NULL;
}

/* Linear lookup (lists are short). */
bp *bp_find(const bp_model *m, int id)
{
	bp *b;

	for (b = m->head; b != NULL; b = b->next)
		if (b->id == id)
			return b;
	return NULL;
}

/* Counts the entries. */
size_t bp_count(const bp_model *m)
{
	size_t n = 0;
	bp *b;

	for (b = m->head; b != NULL; b = b->next)
		n++;
	return n;
}

/* ---- adding and deleting ---------------------------------------------- */

/* True if s is a C identifier. */
static int bp_is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (s++; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* Splits "FILE:LINE" (the last colon) into a new file string and a line.
 * 0, or BP_EARG when it is not of that form. */
static int bp_parse_file_line(const char *where, char **file, int *line)
{
	const char *colon = strrchr(where, ':');
	char *end;
	long l;

	if (colon == NULL || colon == where)
		return BP_EARG;
	l = strtol(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || l < 1 || l > 100000000)
		return BP_EARG;
	*file = malloc((size_t)(colon - where) + 1);
	if (*file == NULL)
		return BP_ENOMEM;
	memcpy(*file, where, (size_t)(colon - where));
	(*file)[colon - where] = '\0';
	*line = (int)l;
	return 0;
}

/* break / tbreak: parses the location and appends a new breakpoint. */
int bp_add(bp_model *m, const char *where, int temp, bp **out, char *err,
	   size_t errlen)
{
	bp *b = calloc(1, sizeof *b);
	int rc = 0;

	if (b == NULL)
		goto out_nomem;
	if (strchr(where, ':') != NULL)
		rc = bp_parse_file_line(where, &b->file, &b->line);
	else if (bp_is_ident(where))
		rc = (b->func = bp_strdup(where)) != NULL ? 0 : BP_ENOMEM;
	else
		rc = BP_EARG;
	if (rc == BP_ENOMEM)
		goto out_nomem;
	if (rc < 0) {
		snprintf(err, errlen, "bad breakpoint location '%s': use "
			 "FILE:LINE or FUNCTION", where);
		bp_free(b);
		return rc;
	}
	b->id = m->next_id++;
	b->temp = temp;
	b->enabled = 1;
	bp_link(m, b);
	*out = b;
	return 0;
out_nomem:
	if (b != NULL)
		bp_free(b);
	snprintf(err, errlen, "out of memory");
	return BP_ENOMEM;
}

/* ---- record breakpoints --------------------------------------------- */

/* Appends the item s[0..len) with its blanks trimmed to b's list.  0,
 * BP_EARG when it is empty, or BP_ENOMEM. */
static int bp_rec_item(bp *b, const char *s, size_t len)
{
	char **v;

	while (len > 0 && isspace((unsigned char)*s))
		s++, len--;
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return BP_EARG;
	v = realloc(b->rec, (b->nrec + 1) * sizeof *v);
	if (v == NULL)
		return BP_ENOMEM;
	b->rec = v;
	v[b->nrec] = malloc(len + 1);
	if (v[b->nrec] == NULL)
		return BP_ENOMEM;
	memcpy(v[b->nrec], s, len);
	v[b->nrec++][len] = '\0';
	return 0;
}

/* record LIST: the comma-separated expressions, or every local. */
int bp_set_record(bp *b, const char *list, char *err, size_t errlen)
{
	const char *s = list, *comma;
	int rc = 0;

	bp_unrecord(b);
	b->record = 1;
	while (*s != '\0' && isspace((unsigned char)*s))
		s++;
	while (*s != '\0' && rc == 0) {
		comma = strchr(s, ',');
		if (comma == NULL)
			comma = s + strlen(s);
		rc = bp_rec_item(b, s, (size_t)(comma - s));
		s = *comma != '\0' ? comma + 1 : comma;
		if (rc == 0 && comma[0] == ',' && *s == '\0')
			rc = BP_EARG; /* a trailing comma */
	}
	if (rc < 0) {
		snprintf(err, errlen, rc == BP_ENOMEM ? "out of memory" :
			 "record: empty name in '%s' (use record VAR[,VAR...])",
			 list);
		bp_unrecord(b);
	}
	return rc;
}

/* "i, sum" or "every local". */
void bp_record_text(const bp *b, char *buf, size_t buflen)
{
	size_t i, used = 0;
	int w;

	buf[0] = '\0';
	if (!b->record)
		return;
	if (b->nrec == 0) {
		snprintf(buf, buflen, "every local");
		return;
	}
	for (i = 0; i < b->nrec && used < buflen; i++) {
		w = snprintf(buf + used, buflen - used, "%s%s",
			     i > 0 ? ", " : "", b->rec[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* delete N */
int bp_delete(bp_model *m, int id, char *err, size_t errlen)
{
	bp **pp = &m->head, *b;

	while (*pp != NULL && (*pp)->id != id)
		pp = &(*pp)->next;
	if (*pp == NULL) {
		snprintf(err, errlen, "no breakpoint number %d", id);
		return BP_ENOENT;
	}
	b = *pp;
	*pp = b->next;
	bp_free(b);
	return 0;
}

/* Takes back a breakpoint just added. */
void bp_discard(bp_model *m, int id)
{
	char err[64];

	if (bp_delete(m, id, err, sizeof err) == 0 && id == m->next_id - 1)
		m->next_id--;
}

/* ---- builds and hits -------------------------------------------------- */

/* Forgets the landings of the previous build. */
void bp_build_begin(bp_model *m)
{
	bp *b;

	for (b = m->head; b != NULL; b = b->next) {
		bp_unland(b);
		b->built = 0;
		b->live = 0;
	}
}

/* Copies nvars variables into b. */
static int bp_copy_vars(bp *b, const bp_var *vars, size_t nvars)
{
	size_t i;

	if (nvars == 0)
		return 0;
	b->vars = calloc(nvars, sizeof *b->vars);
	if (b->vars == NULL)
		return BP_ENOMEM;
	b->nvars = nvars;
	for (i = 0; i < nvars; i++) {
		b->vars[i].name = bp_strdup(vars[i].name);
		b->vars[i].type = bp_strdup(vars[i].type);
		b->vars[i].scope = vars[i].scope;
		if (b->vars[i].name == NULL || b->vars[i].type == NULL)
			return BP_ENOMEM;
	}
	return 0;
}

/* Records a landing; a pragma breakpoint new to the list is created. */
int bp_land(bp_model *m, int id, const char *file, int line, const char *func,
	    int unit, int temp, int from_pragma, const bp_var *vars,
	    size_t nvars)
{
	bp *b = bp_find(m, id);

	if (b == NULL) {
		b = calloc(1, sizeof *b);
		if (b == NULL)
			return BP_ENOMEM;
		b->id = id;
		b->enabled = 1;
		b->temp = temp;
		b->from_pragma = from_pragma;
		b->file = bp_strdup(file);
		b->line = line;
		bp_link(m, b);
		if (id >= m->next_id)
			m->next_id = id + 1;
	}
	bp_unland(b);
	b->at_file = bp_strdup(file);
	b->at_func = bp_strdup(func);
	b->at_line = line;
	b->unit = unit;
	b->landed = b->built = 1;
	if ((file != NULL && b->at_file == NULL) ||
	    (func != NULL && b->at_func == NULL) ||
	    bp_copy_vars(b, vars, nvars) < 0)
		return BP_ENOMEM;
	return 0;
}

/* Records a live landing. */
int bp_land_live(bp_model *m, int id, const char *file, int line,
		 const char *func, int unit)
{
	bp *b = bp_find(m, id);

	if (b == NULL)
		return BP_ENOENT;
	bp_unland(b);
	b->at_file = bp_strdup(file);
	b->at_func = bp_strdup(func);
	b->at_line = line;
	b->unit = unit;
	b->landed = b->live = 1;
	b->built = 0;
	if ((file != NULL && b->at_file == NULL) ||
	    (func != NULL && b->at_func == NULL))
		return BP_ENOMEM;
	return 0;
}

/* The breakpoint numbered id, or NULL with a sentence in err. */
static bp *bp_find_err(const bp_model *m, int id, char *err, size_t errlen)
{
	bp *b = bp_find(m, id);

	if (b == NULL)
		snprintf(err, errlen, "no breakpoint number %d", id);
	return b;
}

/* watch EXPR */
int bp_add_watch(bp_model *m, const char *path, int proc, const char *old,
		 bp **out)
{
	bp *b = calloc(1, sizeof *b);

	if (b == NULL)
		return BP_ENOMEM;
	b->id = m->next_id++;
	b->enabled = 1;
	b->live = 1;
	b->watch = bp_strdup(path);
	b->watch_old = bp_strdup(old);
	b->watch_proc = proc;
	if (b->watch == NULL || b->watch_old == NULL) {
		bp_free(b);
		m->next_id--;
		return BP_ENOMEM;
	}
	bp_link(m, b);
	*out = b;
	return 0;
}

/* condition N [EXPR] */
int bp_set_cond(bp_model *m, int id, const char *expr, char *err,
		size_t errlen)
{
	bp *b = bp_find_err(m, id, err, errlen);
	char *c = NULL;

	if (b == NULL)
		return BP_ENOENT;
	if (expr != NULL && expr[0] != '\0' && (c = bp_strdup(expr)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return BP_ENOMEM;
	}
	free(b->cond);
	b->cond = c;
	bp_forget_code(b);
	b->cond_console = 0;
	return 0;
}

/* enable / disable N */
int bp_set_enabled(bp_model *m, int id, int on, char *err, size_t errlen)
{
	bp *b = bp_find_err(m, id, err, errlen);

	if (b == NULL)
		return BP_ENOENT;
	b->enabled = on != 0;
	return 0;
}

/* ignore N COUNT */
int bp_set_ignore(bp_model *m, int id, unsigned count, char *err,
		  size_t errlen)
{
	bp *b = bp_find_err(m, id, err, errlen);

	if (b == NULL)
		return BP_ENOENT;
	b->ignore = count;
	return 0;
}

/* Counts one stop. */
bp *bp_hit(bp_model *m, int id)
{
	bp *b = bp_find(m, id);

	if (b != NULL)
		b->hits++;
	return b;
}

/* "FILE:LINE" or "FUNCTION" as the user set it. */
void bp_where(const bp *b, char *buf, size_t buflen)
{
	if (b->watch != NULL)
		snprintf(buf, buflen, "%s (p%d)", b->watch, b->watch_proc);
	else if (b->func != NULL)
		snprintf(buf, buflen, "%s", b->func);
	else
		snprintf(buf, buflen, "%s:%d", b->file != NULL ? b->file : "?",
			 b->line);
}
