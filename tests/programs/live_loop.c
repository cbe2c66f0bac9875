/*
 * live_loop.c — test program of live debugging (95-live-break): counts
 * ROUNDS rounds (argv[1], default 100), each a call of step_once and a
 * short sleep, so that a breakpoint can be set while it runs; a round
 * whose `limit` was changed by `set var` prints so.  step_once ends with a
 * loop that calls nothing (the instrumenter gives it a copy without
 * probes).  Lines named in the test are marked LIVE:NAME.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int total;

/* Adds k to the total; returns the new total. */
static int step_once(int k)
{
	int doubled = 2 * k;          /* LIVE:body */

	total += doubled / 2;
	for (doubled = 0; doubled < 3; doubled++) /* LIVE:plain */
		total += 0;
	return total;
}

int main(int argc, char **argv)
{
	struct timespec nap = {0, 20 * 1000000L};
	int rounds = argc > 1 ? atoi(argv[1]) : 100;
	int limit = rounds, i, t = 0;

	for (i = 0; i < limit; i++) {
		t = step_once(i);     /* LIVE:call */
		if (i % 25 == 0)
			printf("round %d total %d\n", i, t);
		nanosleep(&nap, NULL);
	}
	printf("done after %d rounds, total %d\n", i, t); /* LIVE:end */
	return 0;
}
