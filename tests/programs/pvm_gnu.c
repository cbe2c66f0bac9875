/*
 * pvm_gnu.c — a PVM program that starts with a feature-test macro, as
 * many real ones do: #define _GNU_SOURCE before any header, then a GNU
 * extension (CPU_COUNT, sched_getaffinity) and PVM calls.  Prints
 * "tid ok, N cpus" (tests/integration/85-trace-features.sh builds it
 * through paravt: no header of paravt's may come before the macro).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <pvm3.h>

int main(void)
{
	cpu_set_t set;
	int tid = pvm_mytid();

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		perror("sched_getaffinity");
		return 1;
	}
	printf("tid %s, %d cpus\n", tid > 0 ? "ok" : "bad", CPU_COUNT(&set));
	pvm_exit();
	return tid > 0 ? 0 : 1;
}
