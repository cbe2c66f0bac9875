/*
 * bp_crash.c — test program of the debugger (80-debug-errors): crashes
 * in crash_here() before main reaches its breakpoint (marker BP:after),
 * so the console must report the signal with the last known location.
 */
#include <stdio.h>

/* Writes through a null pointer: SIGSEGV. */
static void crash_here(int *p)
{
	*p = 42; /* CRASH */
}

int main(void)
{
	int *nowhere = NULL;

	printf("about to crash\n");
	fflush(stdout);
	crash_here(nowhere);
	printf("not reached\n"); /* BP:after */
	return 0;
}
