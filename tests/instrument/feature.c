/* feature.c — instrumenter test input: feature-test macros come first. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1
#include <time.h>

int f(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_MONOTONIC, &ts);
}
