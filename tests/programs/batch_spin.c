/*
 * batch_spin.c — a program that never ends, for `paravt trace --timeout`
 * (tests/integration/86-batch.sh): prints "spinning" once, then counts
 * rounds for ever, ten a second.  A record breakpoint on the marked line
 * gives the trace events while it runs.
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec pause = {0, 100000000L};
	long round = 0;

	printf("spinning\n");
	fflush(stdout);
	for (;;) {
		round++; /* batch-spin-record */
		nanosleep(&pause, NULL);
	}
	return 0;
}
