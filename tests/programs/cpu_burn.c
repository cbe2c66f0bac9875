/*
 * cpu_burn.c — a program that computes for MS milliseconds of its own CPU
 * time (default 300), then prints "burnt" and exits: for
 * tests/integration/86-batch-cpu-wait.sh, which runs it beside another
 * process on the same CPU.
 *
 *   cpu_burn [MS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* This process's CPU time, ns. */
static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long ms = argc > 1 ? atoll(argv[1]) : 300, t0 = cpu_ns();
	volatile unsigned long sum = 0;
	long i;

	while (cpu_ns() - t0 < ms * 1000000LL)
		for (i = 0; i < 100000; i++)
			sum += (unsigned long)i;
	printf("burnt (%lu)\n", (unsigned long)(sum & 1));
	return 0;
}
