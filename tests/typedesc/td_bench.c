/*
 * td_bench.c — serialisation throughput of the node-side walker: a 1 MB
 * array of structs packed with td_pack_value into a reused msgpack buffer,
 * repeated for about a second.  Two records: plain scalars and a char
 * array, and the same with a pointer member (each pointer probed for
 * readability).  Prints figures only (MB/s of native data, wire bytes).
 * C99 + POSIX, so it builds for every port:
 *   build/tests/td_bench              host
 *   build/<port>/tests/td_bench       any port (run under qemu: emulated)
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "td_node.h"

/* A record without pointers. */
struct rec {
	int id;        /* sequence number */
	double x, y;   /* coordinates */
	short flags;   /* small integer */
	char name[12]; /* short string */
};

/* The same with a pointer to the next record. */
struct prec {
	struct rec r;      /* payload */
	struct prec *next; /* next record (probed) */
};

#define MB (1024 * 1024)

enum {
	B_INT,
	B_DOUBLE,
	B_SHORT,
	B_CHAR,
	B_NAME,
	B_REC,
	B_PREC,
	B_PRECP,
	B_ARR,
	B_PARR,
	B_COUNT
};

typedef char bench_name_t[12];
typedef struct rec bench_arr_t[MB / sizeof(struct rec)];
typedef struct prec bench_parr_t[MB / sizeof(struct prec)];

static const td_member rec_members[] = {
    {"id", B_INT, offsetof(struct rec, id), 0, NULL},
    {"x", B_DOUBLE, offsetof(struct rec, x), 0, NULL},
    {"y", B_DOUBLE, offsetof(struct rec, y), 0, NULL},
    {"flags", B_SHORT, offsetof(struct rec, flags), 0, NULL},
    {"name", B_NAME, offsetof(struct rec, name), 0, NULL},
};

static const td_member prec_members[] = {
    {"r", B_REC, offsetof(struct prec, r), 0, NULL},
    {"next", B_PRECP, offsetof(struct prec, next), 0, NULL},
};

static const td_type bench_types[B_COUNT] = {
    {B_INT, TD_INT, 0, 1, "int", sizeof(int), TD_ALIGNOF(int), 0, 0, 0, NULL, 0,
     NULL},
    {B_DOUBLE, TD_DOUBLE, 0, 1, "double", sizeof(double), TD_ALIGNOF(double), 0,
     0, 0, NULL, 0, NULL},
    {B_SHORT, TD_SHORT, 0, 1, "short", sizeof(short), TD_ALIGNOF(short), 0, 0,
     0, NULL, 0, NULL},
    {B_CHAR, TD_CHAR, 0, ((char)-1 < (char)1), "char", 1, 1, 0, 0, 0, NULL, 0,
     NULL},
    {B_NAME, TD_ARRAY, 0, 0, "char [12]", sizeof(bench_name_t), 1, B_CHAR, 12,
     0, NULL, 0, NULL},
    {B_REC, TD_STRUCT, 0, 0, "struct rec", sizeof(struct rec),
     TD_ALIGNOF(struct rec), 0, 0, 5, rec_members, 0, NULL},
    {B_PREC, TD_STRUCT, 0, 0, "struct prec", sizeof(struct prec),
     TD_ALIGNOF(struct prec), 0, 0, 2, prec_members, 0, NULL},
    {B_PRECP, TD_POINTER, 0, 0, "struct prec *", sizeof(struct prec *),
     TD_ALIGNOF(struct prec *), B_PREC, 0, 0, NULL, 0, NULL},
    {B_ARR, TD_ARRAY, 0, 0, "struct rec [N]", sizeof(bench_arr_t),
     TD_ALIGNOF(struct rec), B_REC, MB / sizeof(struct rec), 0, NULL, 0, NULL},
    {B_PARR, TD_ARRAY, 0, 0, "struct prec [N]", sizeof(bench_parr_t),
     TD_ALIGNOF(struct prec), B_PREC, MB / sizeof(struct prec), 0, NULL, 0,
     NULL},
};

static const td_table bench_table = {"td_bench", B_COUNT, bench_types};

/* Seconds since an arbitrary start. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fills one record. */
static void fill(struct rec *r, int i)
{
	r->id = i;
	r->x = i * 0.5;
	r->y = -i * 0.25;
	r->flags = (short)(i & 0x7fff);
	snprintf(r->name, sizeof r->name, "rec%d", i % 100000);
}

/* Packs the array of type id at a until a second has passed. */
static int run(const char *label, uint32_t id, const void *a)
{
	const td_type *ty = &bench_types[id];
	msgpack_sbuffer sb;
	msgpack_packer pk;
	td_limits lim;
	double t0, t;
	long n = 0;
	int rc = 0;

	td_limits_default(&lim);
	lim.max_elems = (uint32_t)ty->count;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	t0 = now();
	do {
		msgpack_sbuffer_clear(&sb);
		rc = td_pack_value(&pk, &bench_table, id, a, &lim);
		n++;
		t = now() - t0;
	} while (rc == 0 && t < 1.0);
	if (rc == 0)
		printf("td_bench: %-32s %7.1f MB/s  (%lu records of %lu bytes, "
		       "%lu wire bytes per MB, %ld runs)\n",
		       label, n * (double)ty->size / MB / t,
		       (unsigned long)ty->count,
		       (unsigned long)bench_types[ty->base].size,
		       (unsigned long)sb.size, n);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* Fills both arrays, runs both figures. */
int main(void)
{
	size_t n = MB / sizeof(struct rec), m = MB / sizeof(struct prec), i;
	struct rec *a = malloc(sizeof(bench_arr_t));
	struct prec *p = malloc(sizeof(bench_parr_t));
	int rc;

	if (a == NULL || p == NULL)
		return 1;
	for (i = 0; i < n; i++)
		fill(&a[i], (int)i);
	for (i = 0; i < m; i++) {
		fill(&p[i].r, (int)i);
		p[i].next = i + 1 < m ? &p[i + 1] : NULL;
	}
	rc = run("1 MB, struct rec (no pointers)", B_ARR, a);
	if (rc == 0)
		rc = run("1 MB, struct prec (probed ptrs)", B_PARR, p);
	if (rc)
		fprintf(stderr, "td_bench: %s\n", td_strerror(rc));
	free(a);
	free(p);
	return rc ? 1 : 0;
}
