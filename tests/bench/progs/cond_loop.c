/*
 * cond_loop.c — benchmark program of conditions run by the processes
 * (tests/bench/cond.sh): a loop of N passes (argv[1]) whose body is two
 * statements, timed by the program itself; under paravt a breakpoint on
 * BENCH:cond with a condition that is never true shows what each pass
 * costs when the process decides the condition.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000, i;
	struct timespec a, b;
	double acc = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		acc += (double)(i % 7) * 0.5; /* BENCH:cond */
		if (acc < -1.0)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("passes %ld time %.6f acc %g\n", i,
	       (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       acc);
	return 0;
}
