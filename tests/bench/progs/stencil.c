/*
 * stencil.c — the compute-bound benchmark of the line probes (probes.sh):
 * a 2-D five-point Jacobi stencil over two N x N grids of doubles
 * (N = 512: 4 MiB), ITERS sweeps, no messages.  Prints the checksum
 * (so that no build can drop the work) and the seconds of the sweeps
 * ("time S").
 *
 *   stencil [N [ITERS]]
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

/* One sweep: b = average of a's four neighbours, inside the border. */
static void sweep(const double *a, double *b, int n)
{
	int i, j;

	for (i = 1; i < n - 1; i++)
		for (j = 1; j < n - 1; j++)
			b[i * n + j] = 0.25 * (a[(i - 1) * n + j] +
					       a[(i + 1) * n + j] +
					       a[i * n + j - 1] +
					       a[i * n + j + 1]);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 512;
	int iters = argc > 2 ? atoi(argv[2]) : 1000;
	double *a, *b, *t, *base, sum = 0, t0;
	int i, k;

	if (n < 3 || iters < 1)
		return 2;
	/* one block, b 16 doubles past a's end: the same layout whatever
	 * the allocator did before (two separate 2 MiB blocks are each
	 * mmap'ed at the same page offset, or not, by the heap's state, and
	 * a and b then alias every 4 KiB or not, which changed the time by
	 * half) */
	a = calloc((size_t)n * n * 2 + 16, sizeof *a);
	if (a == NULL)
		return 1;
	b = a + (size_t)n * n + 16;
	base = a;
	for (i = 0; i < n; i++)
		a[i] = b[i] = 100.0; /* a hot top edge */
	t0 = now();
	for (k = 0; k < iters; k++) {
		sweep(a, b, n);
		t = a;
		a = b;
		b = t;
	}
	t0 = now() - t0;
	for (i = 0; i < n * n; i++)
		sum += a[i];
	printf("checksum %.6f\ntime %.6f\n", sum, t0);
	free(base);
	return 0;
}
