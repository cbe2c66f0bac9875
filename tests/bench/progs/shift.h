/*
 * shift.h — for the benchmark programs (tests/bench/progs, pp_pvm.c):
 * runs the program's body on a stack moved down by a different amount
 * each run.
 *
 * Where a process's stack starts (it moves with the size of its
 * environment and arguments) changes how fast a program runs: plainly,
 * the PVM ping-pong on one CPU took 14.5 us a round trip here (three
 * runs within 0.6%) and, with 24 bytes more of environment, 15.1 us
 * (three runs within 0.2%).  A plain run and a traced one start with
 * different environments, so one fixed layout on each side would put a
 * bias of some percent, either way, into their ratio.  Each run draws
 * its shift (16 bytes to 4 KiB, in steps of 16) from the clock and the
 * pid, so the medians over several runs average over layouts on both
 * sides.
 */
#ifndef PARAVT_BENCH_SHIFT_H
#define PARAVT_BENCH_SHIFT_H

#include <time.h>
#include <unistd.h>

/* The shift of this run, bytes. */
static size_t shift_bytes(void)
{
	struct timespec ts;
	unsigned long x;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = ((unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 12)) *
	    2654435761ul;
	return 16 * (1 + (x >> 13) % 256);
}

/* run(argc, argv) below a stack shifted by shift_bytes(); called through
 * a volatile pointer, so that it is not inlined into this frame. */
static int shift_run(int (*run)(int, char **), int argc, char **argv)
{
	int (*volatile fn)(int, char **) = run;
	size_t n = shift_bytes();
	volatile char pad[n];

	pad[0] = 0;
	pad[n - 1] = 0;
	(void)pad;
	return fn(argc, argv);
}

#endif
