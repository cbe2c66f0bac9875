/*
 * calls_loop.c — a plain program that calls a small function N times
 * (default 5000) in a tight loop and prints the sum: under
 * PARAVT_TRACE=full every call is two records a few ns apart, for
 * tests/integration/86-batch-coarse-clock.sh.
 *
 *   calls_loop [N]
 */
#include <stdio.h>
#include <stdlib.h>

static long step(long i)
{
	return i * 3 + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000, i, sum = 0;

	for (i = 0; i < n; i++)
		sum += step(i);
	printf("sum %ld\n", sum);
	return 0;
}
