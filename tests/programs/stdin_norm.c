/*
 * stdin_norm.c — a plain program that reads its parameters from standard
 * input the way many example programs do: it prompts, reads numbers until
 * EOF, and prints how many it read and their Euclidean norm, scaled by
 * NORM_SCALE (default 1; a -D of the build may set it).  It calls sqrt,
 * so it links only with -lm (tests/integration/94-load-run.sh).
 *
 * Usage: stdin_norm < numbers
 */
#include <math.h>
#include <stdio.h>

#ifndef NORM_SCALE
#define NORM_SCALE 1
#endif

int main(void)
{
	double x, s = 0;
	int n = 0;

	for (;;) {
		printf("number %d? ", n + 1);
		fflush(stdout);
		if (scanf("%lf", &x) != 1)
			break; /* EOF (or not a number): done */
		s += x * x;
		n++;
	}
	printf("\nread %d numbers, norm %.3f\n", n, NORM_SCALE * sqrt(s));
	return n > 0 ? 0 : 3;
}
