/*
 * ana_sim_mach.c — the machine of a prediction (ana_sim.h): its text form
 * (paravt-machine(5)) read and written, one parameter changed, the level
 * between two nodes (the traced machine estimated from a trace:
 * ana_sim_desc.c).
 *
 * The text form, one statement a line, '#' to the end of a line is a
 * comment, words separated by blanks:
 *
 *   level NAME latency TIME (bandwidth RATE | per-byte TIME) [links N]
 *         [buffer SIZE]
 *   node NAME [speed F] [calls F] [cores N] [start TIME] [group G1 ...]
 *   map PROC NODE
 *   push FROM TO F
 *
 * Levels count from the first written (level 0: inside a node).  TIME is
 * a number with ns, us, ms or s; RATE a number with B/s, KB/s, MB/s,
 * GB/s (powers of 1000), KiB/s, MiB/s, GiB/s, bit/s, Kbit/s, Mbit/s or
 * Gbit/s, or "inf".  Every error names the file, the line and the column
 * of the word that is wrong.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "ana_sim.h"
#include "ana_sim_int.h"
#include "ana_stats.h"
#include "ana_walk.h"
#include "pvt_event.h"

#define SIM_WORDS_MAX 64 /* words on one line of a machine file */

/* ---- the machine -------------------------------------------------------- */

ana_sim_machine *ana_sim_machine_new(void)
{
	return calloc(1, sizeof(ana_sim_machine));
}

void ana_sim_machine_free(ana_sim_machine *m)
{
	if (m == NULL)
		return;
	free(m->lv);
	free(m->node);
	free(m->map);
	free(m->push);
	free(m);
}

/* See ana_sim_int.h. */
int ana_sim_grow(void **arr, uint32_t n, uint32_t *cap, size_t sz)
{
	uint32_t nc;
	void *p;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	p = realloc(*arr, (size_t)nc * sz);
	if (p == NULL)
		return ANA_ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

/* See ana_sim_int.h. */
uint32_t ana_sim_call_open_at(const ana_proc *q, int64_t t, int64_t gap)
{
	uint32_t lo = 0, hi = q->nev, mid;

	while (lo < hi) { /* the first event after t */
		mid = lo + (hi - lo) / 2;
		if (q->ev[mid].c_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || !ana_stats_opens_comm(&q->ev[lo - 1]))
		return ANA_NONE;
	for (lo--; lo >= 2 && ana_kind_closes(q->ev[lo - 1].kind) &&
		   ana_stats_opens_comm(&q->ev[lo - 2]) &&
		   q->ev[lo].c_ns - q->ev[lo - 1].c_ns < gap;)
		lo -= 2; /* the call before, hardly apart */
	return lo;
}

/* A copy of n elements of size sz (NULL when n is 0 or out of memory:
 * *ok says which). */
static void *dup_arr(const void *a, uint32_t n, size_t sz, int *ok)
{
	void *p;

	if (n == 0)
		return NULL;
	p = malloc((size_t)n * sz);
	if (p == NULL)
		*ok = 0;
	else
		memcpy(p, a, (size_t)n * sz);
	return p;
}

ana_sim_machine *ana_sim_machine_dup(const ana_sim_machine *m)
{
	ana_sim_machine *d = ana_sim_machine_new();
	int ok = 1;

	if (d == NULL)
		return NULL;
	d->lv = dup_arr(m->lv, m->nlv, sizeof *m->lv, &ok);
	d->node = dup_arr(m->node, m->nnode, sizeof *m->node, &ok);
	d->map = dup_arr(m->map, m->nmap, sizeof *m->map, &ok);
	d->push = dup_arr(m->push, m->npush, sizeof *m->push, &ok);
	d->nlv = d->lv_cap = m->nlv;
	d->nnode = d->node_cap = m->nnode;
	d->nmap = d->map_cap = m->nmap;
	d->npush = d->push_cap = m->npush;
	if (!ok) {
		ana_sim_machine_free(d);
		return NULL;
	}
	return d;
}

static int find_level(const ana_sim_machine *m, const char *name)
{
	uint32_t i;

	for (i = 0; i < m->nlv; i++)
		if (strcmp(m->lv[i].name, name) == 0)
			return (int)i;
	return -1;
}

int ana_sim_find_node(const ana_sim_machine *m, const char *name)
{
	uint32_t i;

	for (i = 0; i < m->nnode; i++)
		if (strcmp(m->node[i].name, name) == 0)
			return (int)i;
	return -1;
}

int ana_sim_proc_node(const ana_trace *tr, const ana_sim_machine *m,
		      uint32_t p)
{
	uint32_t i, n = tr->procs[p].node;

	for (i = 0; i < m->nmap; i++)
		if (strcmp(m->map[i].proc, tr->procs[p].name) == 0)
			return (int)m->map[i].node;
	return n < tr->nnodes ? ana_sim_find_node(m, tr->nodes[n].name) : -1;
}

static int find_map(const ana_sim_machine *m, const char *proc)
{
	uint32_t i;

	for (i = 0; i < m->nmap; i++)
		if (strcmp(m->map[i].proc, proc) == 0)
			return (int)i;
	return -1;
}

uint32_t ana_sim_level_of(const ana_sim_machine *m, uint32_t a, uint32_t b)
{
	const ana_sim_node *x = &m->node[a], *y = &m->node[b];
	uint32_t k, n, top = m->nlv ? m->nlv - 1 : 0;

	if (a == b || top == 0)
		return 0;
	n = x->ngroups > y->ngroups ? x->ngroups : y->ngroups;
	/* k: the first place from which on the groups agree */
	for (k = n; k > 0; k--) {
		const char *gx = k - 1 < x->ngroups ? x->group[k - 1] : "";
		const char *gy = k - 1 < y->ngroups ? y->group[k - 1] : "";

		if (strcmp(gx, gy) != 0)
			break;
	}
	return 1 + k < top ? 1 + k : top;
}

/* ---- values ------------------------------------------------------------- */

/* Unit suffixes and what one of them is worth. */
typedef struct unit {
	const char *sfx;
	double mul;
} unit;

static const unit size_units[] = {
	{"B", 1}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"KiB", 1024.0},
	{"MiB", 1048576.0}, {"GiB", 1073741824.0}, {NULL, 0}
};

static const unit time_units[] = {
	{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {NULL, 0}
};

/* Bytes per second. */
static const unit rate_units[] = {
	{"B/s", 1}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9},
	{"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0},
	{"bit/s", 1 / 8.0}, {"Kbit/s", 1e3 / 8}, {"Mbit/s", 1e6 / 8},
	{"Gbit/s", 1e9 / 8}, {NULL, 0}
};

/* A number >= 0 followed by one of units (none when units is NULL) into
 * *v (the number times the unit).  0, or -1 with a sentence in msg. */
static int num_unit(const char *w, const unit *units, const char *what,
		    double *v, char *msg, size_t n)
{
	char *end;
	double x = strtod(w, &end);
	int i;

	if (end == w || !isfinite(x) || x < 0) {
		snprintf(msg, n, "'%s' is not a %s (a number >= 0%s)", w,
			 what, units ? " with a unit" : "");
		return -1;
	}
	if (units == NULL) {
		if (*end != '\0') {
			snprintf(msg, n, "'%s' is not a %s (a plain number)",
				 w, what);
			return -1;
		}
		*v = x;
		return 0;
	}
	for (i = 0; units[i].sfx != NULL; i++) {
		if (strcmp(end, units[i].sfx) == 0) {
			*v = x * units[i].mul;
			return 0;
		}
	}
	snprintf(msg, n, "'%s': %s unit '%s' (use %s)", w,
		 *end ? "unknown" : "no", end,
		 units == time_units ? "ns, us, ms or s" :
		 units == size_units ? "B, KB, MB, GB, KiB, MiB or GiB, or inf" :
		 "B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s, bit/s, "
		 "Kbit/s, Mbit/s or Gbit/s, or inf");
	return -1;
}

static int val_time(const char *w, double *ns, char *msg, size_t n)
{
	return num_unit(w, time_units, "time", ns, msg, n);
}

/* A bandwidth into a time per byte (0 for inf). */
static int val_rate(const char *w, double *byte_ns, char *msg, size_t n)
{
	double r;

	if (strcmp(w, "inf") == 0) {
		*byte_ns = 0;
		return 0;
	}
	if (num_unit(w, rate_units, "bandwidth", &r, msg, n) < 0)
		return -1;
	if (r <= 0) {
		snprintf(msg, n, "bandwidth '%s' must be above 0 (or inf)", w);
		return -1;
	}
	*byte_ns = 1e9 / r;
	return 0;
}

/* A buffer size in bytes (-1 for inf: unlimited). */
static int val_size(const char *w, double *bytes, char *msg, size_t n)
{
	if (strcmp(w, "inf") == 0) {
		*bytes = -1;
		return 0;
	}
	return num_unit(w, size_units, "size", bytes, msg, n);
}

/* A speed (what: "speed" or "calls") above 0. */
static int val_speed(const char *w, const char *what, double *v, char *msg,
		     size_t n)
{
	if (num_unit(w, NULL, "speed", v, msg, n) < 0)
		return -1;
	if (*v <= 0) {
		snprintf(msg, n, "%s '%s' must be above 0", what, w);
		return -1;
	}
	return 0;
}

/* A count; min is the least allowed. */
static int val_count(const char *w, uint32_t min, const char *what,
		     uint32_t *v, char *msg, size_t n)
{
	char *end;
	unsigned long x = strtoul(w, &end, 10);

	if (end == w || *end != '\0' || !isdigit((unsigned char)w[0]) ||
	    x > UINT32_MAX / 2 || x < min) {
		snprintf(msg, n, "'%s' is not a %s (a whole number >= %u)",
			 w, what, min);
		return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

/* A name that fits (ANA_NAME_MAX) and is a plain word. */
static int val_name(const char *w, const char *what, char *msg, size_t n)
{
	if (strlen(w) >= ANA_NAME_MAX) {
		snprintf(msg, n, "%s name '%s' is longer than %d characters",
			 what, w, ANA_NAME_MAX - 1);
		return -1;
	}
	if (strchr(w, '.') != NULL || strchr(w, '=') != NULL) {
		snprintf(msg, n, "%s name '%s' may not hold '.' or '='", what,
			 w);
		return -1;
	}
	return 0;
}

/* One level setting (latency, bandwidth, per-byte, links) of l. */
static int set_level(ana_sim_level *l, const char *key, const char *w,
		     char *msg, size_t n)
{
	if (strcmp(key, "latency") == 0)
		return val_time(w, &l->lat_ns, msg, n);
	if (strcmp(key, "bandwidth") == 0)
		return val_rate(w, &l->byte_ns, msg, n);
	if (strcmp(key, "per-byte") == 0)
		return val_time(w, &l->byte_ns, msg, n);
	if (strcmp(key, "links") == 0)
		return val_count(w, 0, "number of links", &l->links, msg, n);
	if (strcmp(key, "buffer") == 0)
		return val_size(w, &l->buf_bytes, msg, n);
	snprintf(msg, n, "unknown level setting '%s' (latency, bandwidth, "
		 "per-byte, links, buffer)", key);
	return -1;
}

/* One node setting (speed, calls, cores) of d. */
static int set_node(ana_sim_node *d, const char *key, const char *w,
		    char *msg, size_t n)
{
	if (strcmp(key, "speed") == 0)
		return val_speed(w, "speed", &d->speed, msg, n);
	if (strcmp(key, "calls") == 0)
		return val_speed(w, "calls", &d->calls, msg, n);
	if (strcmp(key, "cores") == 0)
		return val_count(w, 1, "number of cores", &d->cores, msg, n);
	if (strcmp(key, "start") == 0)
		return val_time(w, &d->start_ns, msg, n);
	snprintf(msg, n, "unknown node setting '%s' (speed, calls, cores, "
		 "start, group)", key);
	return -1;
}

/* ---- the parser --------------------------------------------------------- */

/* A word of a line and its column (1-based). */
typedef struct word {
	char *s;
	unsigned col;
} word;

/* A node named by a map or push line, resolved at the end (nodes may
 * come later in the file): what names it, and where. */
enum { REF_MAP, REF_PUSH_FROM, REF_PUSH_TO };
typedef struct noderef {
	int what;         /* REF_*: m->map[idx].node, m->push[idx].from/to */
	uint32_t idx;
	unsigned line, col;
	char name[ANA_NAME_MAX];
} noderef;

/* Where the parser is. */
typedef struct pst {
	const char *name;     /* the file, for errors */
	unsigned line;
	ana_sim_machine *m;
	noderef *ref;         /* node names to resolve at the end */
	uint32_t nref, ref_cap;
	char *err;
	size_t errlen;
} pst;

/* "NAME:LINE:COL: " and the message into err; returns ANA_EARG. */
static int perr(pst *p, unsigned line, unsigned col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%u:%u: %s", p->name, line, col, msg);
	return ANA_EARG;
}

/* Splits line (modified in place) into words; # starts a comment.
 * Returns the number of words or -1 past SIM_WORDS_MAX. */
static int split(char *line, word *w)
{
	char *s = line;
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\0' || *s == '#')
			return n;
		if (n == SIM_WORDS_MAX)
			return -1;
		w[n].s = s;
		w[n].col = (unsigned)(s - line) + 1;
		n++;
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r' &&
		       *s != '#')
			s++;
		if (*s == '#') {
			*s = '\0';
			return n;
		}
		if (*s != '\0')
			*s++ = '\0';
	}
}

/* level NAME latency T (bandwidth R | per-byte T) [links N] */
static int st_level(pst *p, word *w, int n)
{
	ana_sim_machine *m = p->m;
	ana_sim_level l;
	char msg[300];
	int i, have_lat = 0, have_bw = 0;

	if (n < 2)
		return perr(p, p->line, w[0].col + 5, "level needs a name");
	if (val_name(w[1].s, "level", msg, sizeof msg) < 0)
		return perr(p, p->line, w[1].col, "%s", msg);
	if (find_level(m, w[1].s) >= 0)
		return perr(p, p->line, w[1].col, "level '%s' is defined "
			    "twice", w[1].s);
	memset(&l, 0, sizeof l);
	snprintf(l.name, sizeof l.name, "%s", w[1].s);
	l.buf_bytes = -1;
	for (i = 2; i < n; i += 2) {
		int bw = strcmp(w[i].s, "bandwidth") == 0 ||
			 strcmp(w[i].s, "per-byte") == 0;

		if (i + 1 >= n)
			return perr(p, p->line, w[i].col, "'%s' needs a value",
				    w[i].s);
		if (set_level(&l, w[i].s, w[i + 1].s, msg, sizeof msg) < 0)
			return perr(p, p->line, strncmp(msg, "unknown", 7) ?
				    w[i + 1].col : w[i].col, "%s", msg);
		if (bw && have_bw++)
			return perr(p, p->line, w[i].col, "give bandwidth or "
				    "per-byte once");
		have_lat |= strcmp(w[i].s, "latency") == 0;
	}
	if (!have_lat || !have_bw)
		return perr(p, p->line, w[0].col, "level '%s' needs %s", l.name,
			    !have_lat ? "a latency (latency TIME)" :
			    "a bandwidth (bandwidth RATE, per-byte TIME or "
			    "bandwidth inf)");
	if (ana_sim_grow((void **)&m->lv, m->nlv, &m->lv_cap, sizeof *m->lv) < 0)
		return ANA_ENOMEM;
	m->lv[m->nlv++] = l;
	return 0;
}

/* The group words of a node line from w[i] on. */
static int node_groups(pst *p, ana_sim_node *d, word *w, int i, int n)
{
	char msg[300];

	if (i >= n)
		return perr(p, p->line, w[i - 1].col, "'group' needs a name");
	for (; i < n; i++) {
		if (d->ngroups == ANA_SIM_GROUPS_MAX)
			return perr(p, p->line, w[i].col, "more than %d groups "
				    "(ANA_SIM_GROUPS_MAX)", ANA_SIM_GROUPS_MAX);
		if (val_name(w[i].s, "group", msg, sizeof msg) < 0)
			return perr(p, p->line, w[i].col, "%s", msg);
		snprintf(d->group[d->ngroups++], ANA_NAME_MAX, "%s", w[i].s);
	}
	return 0;
}

/* node NAME [speed F] [cores N] [group G...] */
static int st_node(pst *p, word *w, int n)
{
	ana_sim_machine *m = p->m;
	ana_sim_node d;
	char msg[300];
	int i, rc;

	if (n < 2)
		return perr(p, p->line, w[0].col + 4, "node needs a name");
	if (val_name(w[1].s, "node", msg, sizeof msg) < 0)
		return perr(p, p->line, w[1].col, "%s", msg);
	if (ana_sim_find_node(m, w[1].s) >= 0)
		return perr(p, p->line, w[1].col, "node '%s' is defined twice",
			    w[1].s);
	memset(&d, 0, sizeof d);
	snprintf(d.name, sizeof d.name, "%s", w[1].s);
	d.speed = 1;
	d.cores = 1;
	for (i = 2; i < n; i += 2) {
		if (strcmp(w[i].s, "group") == 0) {
			if ((rc = node_groups(p, &d, w, i + 1, n)) < 0)
				return rc;
			break;
		}
		if (i + 1 >= n)
			return perr(p, p->line, w[i].col, "'%s' needs a value",
				    w[i].s);
		if (set_node(&d, w[i].s, w[i + 1].s, msg, sizeof msg) < 0)
			return perr(p, p->line, strncmp(msg, "unknown", 7) ?
				    w[i + 1].col : w[i].col, "%s", msg);
	}
	if (ana_sim_grow((void **)&m->node, m->nnode, &m->node_cap,
		 sizeof *m->node) < 0)
		return ANA_ENOMEM;
	m->node[m->nnode++] = d;
	return 0;
}

/* Notes word w (a node's name) for the end: what of m's entry idx. */
static int add_ref(pst *p, const word *w, int what, uint32_t idx)
{
	noderef *r;

	if (ana_sim_grow((void **)&p->ref, p->nref, &p->ref_cap,
			 sizeof *p->ref) < 0)
		return ANA_ENOMEM;
	r = &p->ref[p->nref++];
	r->what = what;
	r->idx = idx;
	r->line = p->line;
	r->col = w->col;
	snprintf(r->name, sizeof r->name, "%.*s", ANA_NAME_MAX - 1, w->s);
	return 0;
}

/* map PROC NODE (the node is resolved at the end: it may come later). */
static int st_map(pst *p, word *w, int n)
{
	ana_sim_machine *m = p->m;
	char msg[300];

	if (n != 3)
		return perr(p, p->line, n < 3 ? w[n - 1].col : w[3].col,
			    n < 3 ? "map needs a process and a node (map "
			    "PROC NODE)" : "map takes a process and a node, "
			    "nothing more");
	if (val_name(w[1].s, "process", msg, sizeof msg) < 0)
		return perr(p, p->line, w[1].col, "%s", msg);
	if (find_map(m, w[1].s) >= 0)
		return perr(p, p->line, w[1].col, "process '%s' is mapped "
			    "twice", w[1].s);
	if (ana_sim_grow((void **)&m->map, m->nmap, &m->map_cap, sizeof *m->map) < 0 ||
	    add_ref(p, &w[2], REF_MAP, m->nmap) < 0)
		return ANA_ENOMEM;
	snprintf(m->map[m->nmap].proc, ANA_NAME_MAX, "%s", w[1].s);
	m->nmap++;
	return 0;
}

/* push FROM TO F (the nodes are resolved at the end). */
static int st_push(pst *p, word *w, int n)
{
	ana_sim_machine *m = p->m;
	ana_sim_push x;
	char msg[300];
	uint32_t i;

	if (n != 4)
		return perr(p, p->line, n < 4 ? w[n - 1].col : w[4].col,
			    n < 4 ? "push needs two nodes and a speed (push "
			    "FROM TO F)" : "push takes two nodes and a speed, "
			    "nothing more");
	memset(&x, 0, sizeof x);
	if (val_speed(w[3].s, "push", &x.speed, msg, sizeof msg) < 0)
		return perr(p, p->line, w[3].col, "%s", msg);
	for (i = 0; i < p->nref; i++) /* the same pair twice? */
		if (p->ref[i].what == REF_PUSH_FROM &&
		    strcmp(p->ref[i].name, w[1].s) == 0 &&
		    strcmp(p->ref[i + 1].name, w[2].s) == 0)
			return perr(p, p->line, w[1].col, "push from '%s' to "
				    "'%s' is given twice", w[1].s, w[2].s);
	if (ana_sim_grow((void **)&m->push, m->npush, &m->push_cap,
			 sizeof *m->push) < 0 ||
	    add_ref(p, &w[1], REF_PUSH_FROM, m->npush) < 0 ||
	    add_ref(p, &w[2], REF_PUSH_TO, m->npush) < 0)
		return ANA_ENOMEM;
	m->push[m->npush++] = x;
	return 0;
}

/* One line (NUL-terminated, modified). */
static int parse_line(pst *p, char *line)
{
	word w[SIM_WORDS_MAX];
	int n = split(line, w);

	if (n < 0)
		return perr(p, p->line, 1, "more than %d words on a line",
			    SIM_WORDS_MAX);
	if (n == 0)
		return 0;
	if (strcmp(w[0].s, "level") == 0)
		return st_level(p, w, n);
	if (strcmp(w[0].s, "node") == 0)
		return st_node(p, w, n);
	if (strcmp(w[0].s, "map") == 0)
		return st_map(p, w, n);
	if (strcmp(w[0].s, "push") == 0)
		return st_push(p, w, n);
	return perr(p, p->line, w[0].col, "unknown statement '%s' (level, "
		    "node, map or push)", w[0].s);
}

/* The end: nodes of maps resolved, at least one level and one node. */
static int parse_end(pst *p)
{
	ana_sim_machine *m = p->m;
	uint32_t i;
	int k;

	if (m->nlv == 0)
		return perr(p, p->line, 1, "no level: a machine needs at least "
			    "one (level NAME latency TIME bandwidth RATE)");
	if (m->nnode == 0)
		return perr(p, p->line, 1, "no node: a machine needs at least "
			    "one (node NAME speed F cores N)");
	for (i = 0; i < p->nref; i++) {
		const noderef *r = &p->ref[i];

		if ((k = ana_sim_find_node(m, r->name)) < 0)
			return perr(p, r->line, r->col, "no node '%s'", r->name);
		if (r->what == REF_MAP)
			m->map[r->idx].node = (uint32_t)k;
		else if (r->what == REF_PUSH_FROM)
			m->push[r->idx].from = (uint32_t)k;
		else
			m->push[r->idx].to = (uint32_t)k;
	}
	return 0;
}

int ana_sim_parse(const char *text, size_t len, const char *name,
		  ana_sim_machine **out, char *err, size_t errlen)
{
	pst p;
	char *buf = NULL, *line, *nl;
	int rc = ANA_ENOMEM;

	*out = NULL;
	memset(&p, 0, sizeof p);
	p.name = name ? name : "machine";
	p.err = err;
	p.errlen = errlen;
	p.m = ana_sim_machine_new();
	buf = malloc(len + 1);
	if (p.m == NULL || buf == NULL)
		goto out_free;
	memcpy(buf, text, len);
	buf[len] = '\0';
	rc = 0;
	for (line = buf; rc == 0 && line != NULL; line = nl) {
		nl = strchr(line, '\n');
		if (nl != NULL)
			*nl++ = '\0';
		else if (*line == '\0' && p.line > 0)
			break; /* after the last newline */
		p.line++;
		if (strlen(line) != (size_t)((nl ? nl - 1 : buf + len) - line))
			rc = perr(&p, p.line, (unsigned)strlen(line) + 1,
				  "a NUL byte (not a text file?)");
		else
			rc = parse_line(&p, line);
	}
	if (rc == 0)
		rc = parse_end(&p);
	if (rc == 0) {
		*out = p.m;
		p.m = NULL;
	}
	if (rc == ANA_ENOMEM)
		snprintf(err, errlen, "out of memory");
out_free:
	if (rc == ANA_ENOMEM && buf == NULL)
		snprintf(err, errlen, "out of memory");
	ana_sim_machine_free(p.m);
	free(p.ref);
	free(buf);
	return rc;
}

/* ---- the writer --------------------------------------------------------- */

/* A growing string. */
typedef struct sbuf {
	char *s;
	size_t n, cap;
	int oom;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(b->s ? b->s + b->n : NULL,
			      b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			b->oom = 1;
			return;
		}
		if (b->s != NULL && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t nc = (b->cap ? b->cap * 2 : 1024) + (size_t)k;
		char *p = realloc(b->s, nc);

		if (p == NULL) {
			b->oom = 1;
			return;
		}
		b->s = p;
		b->cap = nc;
	}
}

/* A time in the largest unit it has a whole one of. */
static void fmt_time(char *buf, size_t n, double ns)
{
	int i = 3;

	while (i > 0 && ns < time_units[i].mul)
		i--;
	snprintf(buf, n, "%.9g%s", ns / time_units[i].mul, time_units[i].sfx);
}

/* A time per byte as a bandwidth (B/s to GB/s). */
static void fmt_rate(char *buf, size_t n, double byte_ns)
{
	double r;
	int i = 3;

	if (byte_ns <= 0) {
		snprintf(buf, n, "inf");
		return;
	}
	r = 1e9 / byte_ns;
	while (i > 0 && r < rate_units[i].mul)
		i--;
	snprintf(buf, n, "%.9g%s", r / rate_units[i].mul, rate_units[i].sfx);
}

char *ana_sim_format(const ana_sim_machine *m)
{
	sbuf b = {NULL, 0, 0, 0};
	char t1[64], t2[64];
	uint32_t i, k;

	sb_add(&b, "# paravt machine description (paravt-machine(5))\n"
		   "# level NAME latency TIME bandwidth RATE [links N] [buffer SIZE]: level 0 "
		   "inside a node,\n# then between nodes\n");
	for (i = 0; i < m->nlv; i++) {
		fmt_time(t1, sizeof t1, m->lv[i].lat_ns);
		fmt_rate(t2, sizeof t2, m->lv[i].byte_ns);
		sb_add(&b, "level %s latency %s bandwidth %s links %u",
		       m->lv[i].name, t1, t2, m->lv[i].links);
		if (m->lv[i].buf_bytes >= 0)
			sb_add(&b, " buffer %.9gB", m->lv[i].buf_bytes);
		sb_add(&b, "\n");
	}
	sb_add(&b, "# node NAME speed F [calls F] cores N [start TIME] [group G...]\n");
	for (i = 0; i < m->nnode; i++) {
		sb_add(&b, "node %s speed %.9g", m->node[i].name,
		       m->node[i].speed);
		if (m->node[i].calls > 0)
			sb_add(&b, " calls %.9g", m->node[i].calls);
		sb_add(&b, " cores %u", m->node[i].cores);
		if (m->node[i].start_ns > 0) {
			fmt_time(t1, sizeof t1, m->node[i].start_ns);
			sb_add(&b, " start %s", t1);
		}
		for (k = 0; k < m->node[i].ngroups; k++)
			sb_add(&b, "%s %s", k ? "" : " group",
			       m->node[i].group[k]);
		sb_add(&b, "\n");
	}
	sb_add(&b, "# map PROCESS NODE\n");
	for (i = 0; i < m->nmap; i++)
		sb_add(&b, "map %s %s\n", m->map[i].proc,
		       m->node[m->map[i].node].name);
	if (m->npush > 0)
		sb_add(&b, "# push FROM TO F: sends from FROM to TO push their "
			   "message at F times the traced speed\n");
	for (i = 0; i < m->npush; i++)
		sb_add(&b, "push %s %s %.9g\n", m->node[m->push[i].from].name,
		       m->node[m->push[i].to].name, m->push[i].speed);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* ---- one parameter ------------------------------------------------------ */

/* Sets key of every level but 0 (level 0 if it is the only one). */
static int set_levels(ana_sim_machine *m, const char *key, const char *v,
		      char *msg, size_t n)
{
	uint32_t i;

	for (i = m->nlv > 1 ? 1 : 0; i < m->nlv; i++)
		if (set_level(&m->lv[i], key, v, msg, n) < 0)
			return -1;
	return 0;
}

static int set_nodes(ana_sim_machine *m, const char *key, const char *v,
		     char *msg, size_t n)
{
	uint32_t i;

	for (i = 0; i < m->nnode; i++)
		if (set_node(&m->node[i], key, v, msg, n) < 0)
			return -1;
	return 0;
}

/* NAME.key: a level, a node or a process (PROC.node). */
static int set_named(ana_sim_machine *m, const char *name, const char *key,
		     const char *v, char *msg, size_t n)
{
	int k;

	if ((k = find_level(m, name)) >= 0)
		return set_level(&m->lv[k], key, v, msg, n);
	if ((k = ana_sim_find_node(m, name)) >= 0)
		return set_node(&m->node[k], key, v, msg, n);
	if ((k = find_map(m, name)) >= 0 && strcmp(key, "node") == 0) {
		int d = ana_sim_find_node(m, v);

		if (d < 0) {
			snprintf(msg, n, "no node '%s'", v);
			return -1;
		}
		m->map[k].node = (uint32_t)d;
		return 0;
	}
	snprintf(msg, n, "no level, node or mapped process '%s'%s", name,
		 k >= 0 ? " with that setting (PROC.node)" : "");
	return -1;
}

int ana_sim_set(ana_sim_machine *m, const char *param, const char *value,
		char *err, size_t errlen)
{
	char name[ANA_NAME_MAX], msg[300];
	const char *dot = strrchr(param, '.');
	int rc;

	if (dot == NULL) {
		if (strcmp(param, "speed") == 0 || strcmp(param, "calls") == 0 ||
		    strcmp(param, "cores") == 0 || strcmp(param, "start") == 0)
			rc = set_nodes(m, param, value, msg, sizeof msg);
		else
			rc = set_levels(m, param, value, msg, sizeof msg);
	} else if ((size_t)(dot - param) >= sizeof name) {
		snprintf(msg, sizeof msg, "no level, node or process '%.*s'",
			 (int)(dot - param), param);
		rc = -1;
	} else {
		snprintf(name, sizeof name, "%.*s", (int)(dot - param), param);
		rc = set_named(m, name, dot + 1, value, msg, sizeof msg);
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s=%s: %s", param, value, msg);
		return ANA_EARG;
	}
	return 0;
}

int ana_sim_set_push(ana_sim_machine *m, const char *from, const char *to,
		     double speed, char *err, size_t errlen)
{
	int a = ana_sim_find_node(m, from), b = ana_sim_find_node(m, to);
	uint32_t i;

	if (a < 0 || b < 0 || !(speed > 0) || !isfinite(speed)) {
		if (a < 0 || b < 0)
			snprintf(err, errlen, "push: no node '%s'",
				 a < 0 ? from : to);
		else
			snprintf(err, errlen, "push: the speed must be a "
				 "number above 0, not %g", speed);
		return ANA_EARG;
	}
	for (i = 0; i < m->npush; i++)
		if (m->push[i].from == (uint32_t)a && m->push[i].to == (uint32_t)b)
			break;
	if (i == m->npush) {
		if (ana_sim_grow((void **)&m->push, m->npush, &m->push_cap,
				 sizeof *m->push) < 0) {
			snprintf(err, errlen, "out of memory");
			return ANA_ENOMEM;
		}
		m->npush++;
	}
	m->push[i].from = (uint32_t)a;
	m->push[i].to = (uint32_t)b;
	m->push[i].speed = speed;
	return 0;
}

int ana_sim_set_node(ana_sim_machine *m, const char *node, const char *speed,
		     const char *calls, char *err, size_t errlen)
{
	char param[ANA_NAME_MAX + 8];
	ana_sim_node d;

	if (ana_sim_find_node(m, node) < 0) {
		memset(&d, 0, sizeof d);
		snprintf(d.name, sizeof d.name, "%s", node);
		d.speed = 1;
		d.cores = 1;
		if (ana_sim_grow((void **)&m->node, m->nnode, &m->node_cap,
				 sizeof d) < 0) {
			snprintf(err, errlen, "out of memory");
			return ANA_ENOMEM;
		}
		m->node[m->nnode++] = d;
	}
	snprintf(param, sizeof param, "%s.speed", node);
	if (ana_sim_set(m, param, speed, err, errlen) != 0)
		return ANA_EARG;
	if (calls == NULL)
		return 0;
	snprintf(param, sizeof param, "%s.calls", node);
	return ana_sim_set(m, param, calls, err, errlen);
}
