/*
 * live_cond.c — test program of conditions run by the processes
 * (95-live-cond): a loop of N passes (argv[1], default 300000) over a
 * table of structs, with no sleep, so that a conditional breakpoint on
 * LIVE:cond is passed N times before its condition holds.  The program
 * evaluates the same condition itself (COND, compiled here by the C
 * compiler) and prints the first pass where it holds, so the test can
 * compare paravt's stop with C's own answer on every port.
 */
#include <stdio.h>
#include <stdlib.h>

struct cell {
	int id;
	double w;
	short tag[4];
	unsigned char flags;
};

static struct cell cells[8];

/* A byte count, for a cast to a typedef. */
typedef unsigned short count_t;

/* The condition, also given to `break ... if` by the test (keep the
 * text in one line: the test reads it from here). */
#define COND (i > 200000 && (i & 1023) == 517 && cells[k].w * 2 >= 5.0 && cp->id % 2 == 0 && (unsigned char)(i >> 2) != 7u && (k > 6 || -cells[k].tag[k % 4] == k))

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000, i, first = -1;
	unsigned long acc = 0;
	struct cell *cp = &cells[0];
	void *vp = cells;
	count_t few = 3;
	const int width = 8;
	int k;

	for (k = 0; k < 8; k++) {
		cells[k].id = 3 * k;
		cells[k].w = 0.5 * k;
		cells[k].tag[k % 4] = (short)-k;
		cells[k].flags = (unsigned char)(1u << k);
	}
	for (i = 0; i < n; i++) {
		k = (int)(i % width);
		if (first < 0 && COND) /* LIVE:cond */
			first = i;
		acc += (unsigned long)cells[k].id;
		cp = &cells[k];
	}
	printf("first %ld passes %ld acc %lu (%s %u)\n", first, i, acc,
	       vp == (void *)cells ? "" : "?", (unsigned)few);
	return 0;
}
