/*
 * pp_pvm.c — benchmark program: a PVM ping-pong of one int between a
 * master and the copy of itself it spawns, with direct routing
 * (tests/bench/overhead.sh runs it plainly and under paravt).
 *
 *   pp_pvm ROUNDTRIPS [PACE_US [M,W]]
 *
 * After 1000 warm-up round trips the master calls pvm_mytid() (a marker
 * in a trace), times ROUNDTRIPS round trips (pvm_initsend, pvm_pkint,
 * pvm_send, then pvm_recv, pvm_upkint; the worker the reverse), calls
 * pvm_mytid() again, and prints "rtt_ns X total_ns Y".  With PACE_US,
 * round trip i starts no earlier than i * PACE_US after the first.  With
 * M,W (Linux) the master runs on CPU M only and the worker on CPU W: on
 * one CPU no message has to wake another processor, so a run does not
 * depend on where the scheduler puts the two or how fast the machine
 * wakes an idle one.  Each process runs on a stack shifted by a random
 * amount (shift.h).
 */
#define _GNU_SOURCE
#include <pvm3.h>
#ifdef __linux__
#include <sched.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shift.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One message of v to tid with tag. */
static void put(int tid, int tag, int v)
{
	pvm_initsend(PvmDataRaw);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, tag);
}

/* The int of the next message from tid with tag. */
static int get(int tid, int tag)
{
	int v = 0;

	pvm_recv(tid, tag);
	pvm_upkint(&v, 1, 1);
	return v;
}

/* n round trips with peer; the master starts each. */
static void exchange(int master, int peer, long n, double pace_ns)
{
	double t0 = now_ns();
	long i;

	for (i = 0; i < n; i++) {
		if (master) {
			while (pace_ns > 0 && now_ns() - t0 < i * pace_ns)
				;
			put(peer, 1, (int)i);
			(void)get(peer, 2);
		} else {
			put(peer, 2, get(peer, 1));
		}
	}
}

/* Keeps this process on CPU cpu (< 0: anywhere); 0 or -1. */
static int pin(int cpu)
{
#ifdef __linux__
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
#else
	return cpu < 0 ? 0 : -1;
#endif
}

/* The program, master or worker. */
static int run(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	double pace = argc > 2 ? atof(argv[2]) * 1e3 : 0, t0, t1;
	const char *cpus = argc > 3 ? argv[3] : NULL;
	char *args[4] = {"worker", NULL, NULL, NULL};
	char nbuf[32], wbuf[16];
	int peer, parent, mcpu = -1, wcpu = -1;

	if (pvm_mytid() < 0)
		return 1;
	pvm_setopt(PvmRoute, PvmRouteDirect);
	parent = pvm_parent();
	if (argc > 1 && strcmp(argv[1], "worker") == 0) {
		n = atol(argv[2]);
		if (argc > 3 && pin(atoi(argv[3])) != 0) {
			perror("pp_pvm: worker: sched_setaffinity");
			pvm_exit();
			return 1;
		}
		exchange(0, parent, 1000 + n, 0);
		pvm_exit();
		return 0;
	}
	if (cpus && sscanf(cpus, "%d,%d", &mcpu, &wcpu) != 2) {
		fprintf(stderr, "pp_pvm: CPUs '%s': expected M,W\n", cpus);
		pvm_exit();
		return 2;
	}
	if (pin(mcpu) != 0) {
		perror("pp_pvm: sched_setaffinity");
		pvm_exit();
		return 1;
	}
	snprintf(nbuf, sizeof nbuf, "%ld", n);
	args[1] = nbuf;
	if (wcpu >= 0) {
		snprintf(wbuf, sizeof wbuf, "%d", wcpu);
		args[2] = wbuf;
	}
	if (pvm_spawn("pp_pvm", args, PvmTaskDefault, NULL, 1, &peer) != 1) {
		fprintf(stderr, "pp_pvm: spawn failed\n");
		pvm_exit();
		return 1;
	}
	exchange(1, peer, 1000, 0);
	(void)pvm_mytid();
	t0 = now_ns();
	exchange(1, peer, n, pace);
	t1 = now_ns();
	(void)pvm_mytid();
	printf("rtt_ns %.1f total_ns %.0f\n", (t1 - t0) / n, t1 - t0);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	return shift_run(run, argc, argv);
}
