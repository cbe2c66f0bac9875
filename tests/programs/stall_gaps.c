/*
 * stall_gaps.c — a plain program for
 * tests/integration/86-batch-cpu-stall.sh: ROUNDS times (default 20) it
 * makes CALLS small calls (default 20000) and then spins MS ms (default
 * 20) on CPU 0, in on_busy(), where paravtd and the console wait to
 * drain those calls' records, and then spins MS ms on CPU 1, in
 * on_free(), where nothing else runs.  Under PARAVT_TRACE=full each spin
 * is one long gap between two records (spin's entry and exit).  At the
 * end it prints how long it waited for a CPU while it could run, in the
 * busy and in the free rounds, from its schedstat (Linux):
 * "busy_wait_us B free_wait_us F" (-1 -1 where it cannot tell).
 *
 *   stall_gaps [ROUNDS [CALLS [MS]]]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long step(long i)
{
	return i * 3 + 1;
}

/* Moves the program onto CPU cpu. */
static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof s, &s) != 0)
		perror("sched_setaffinity");
}

/* The thread's wait for a CPU so far, ns, or -1. */
static double wait_ns(void)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	int ok = f != NULL && fscanf(f, "%llu %llu", &run, &wait) == 2;

	if (f != NULL)
		fclose(f);
	return ok ? (double)wait : -1;
}

/* Spins ms ms of wall time, calling nothing the instrumenter wraps. */
static void spin(double ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

static long on_busy(long calls, double ms)
{
	long i, sum = 0;

	pin(0);
	for (i = 0; i < calls; i++)
		sum += step(i);
	spin(ms);
	return sum;
}

static void on_free(double ms)
{
	pin(1);
	spin(ms);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20;
	long calls = argc > 2 ? atol(argv[2]) : 20000, r, sum = 0;
	double ms = argc > 3 ? atof(argv[3]) : 20, w0, w1, w2;
	double busy = 0, free_w = 0;

	for (r = 0; r < rounds; r++) {
		w0 = wait_ns();
		sum += on_busy(calls, ms);
		w1 = wait_ns();
		on_free(ms);
		w2 = wait_ns();
		busy += w1 - w0;
		free_w += w2 - w1;
	}
	if (w0 < 0 || w1 < 0 || w2 < 0)
		busy = free_w = -1000;
	printf("sum %ld\nbusy_wait_us %.0f free_wait_us %.0f\n", sum,
	       busy / 1000, free_w / 1000);
	return 0;
}
