/*
 * spin.c — the program of the live debugging benchmark (live.sh): a loop
 * whose every round does a little arithmetic (WORK inner steps) and then
 * naps NAP microseconds, for SECS seconds (a bound, so that a process
 * left behind ends by itself); many copies on one node share its cores
 * without each wanting a whole one.  The line live.sh breaks on is
 * marked BENCH:break.  overhead.sh runs it with no work and 20 ms naps:
 * a process that only wakes the machine now and then.
 *
 *   spin [SECS [WORK [NAP]]]      (defaults 120, 2000, 2000)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One round's work: work steps of a multiplicative hash. */
static unsigned long mix(unsigned long acc, long work)
{
	long k;

	for (k = 0; k < work; k++)
		acc = acc * 31 + (unsigned long)k;
	return acc;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 120;
	long work = argc > 2 ? atol(argv[2]) : 2000;
	long nap_us = argc > 3 ? atol(argv[3]) : 2000;
	struct timespec nap;
	unsigned long acc = 1, rounds = 0;
	double t0 = now();

	nap.tv_sec = nap_us / 1000000;
	nap.tv_nsec = nap_us % 1000000 * 1000L;
	while (now() - t0 < secs) {
		acc = mix(acc, work); /* BENCH:break */
		rounds++;
		if (nap_us > 0)
			nanosleep(&nap, NULL);
	}
	printf("%lu rounds, %lx\n", rounds, acc);
	return 0;
}
