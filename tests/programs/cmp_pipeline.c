/*
 * cmp_pipeline.c — a three-stage pipeline whose timing is deterministic,
 * for the compensation test (tests/integration/87-compensation.sh).
 *
 * Usage: cmp_pipeline [ITEMS [CALLS]]       defaults 100 25
 *
 * The master (no PVM parent) is stage 0: it spawns two copies of itself,
 * stages 1 and 2, tells stage 1 the tid of stage 2, and produces ITEMS
 * items, 4 ms each; stage 1 takes 2 ms per item and passes it on, stage 2
 * takes 1 ms and sums.  "Work" is a sleep, so it does not depend on the
 * machine's load, plus CALLS cheap PVM calls per item and stage
 * (pvm_mytid: under paravt each is a probe, so deliberately heavy probes
 * slow every stage down).  The later stages are faster, so they wait for
 * items: stage 1 about 2 ms per item, stage 2 about 3 ms; the master
 * never waits (it does not wait for the end either).  Stage 2 checks the
 * sum of the items (ITEMS * (ITEMS - 1) / 2): every process exits with
 * status 0 when all went well.  Every wait is bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <pvm3.h>

#define TAG_SETUP 1
#define TAG_ITEM 2
#define TIMEOUT_S 30

/* Sleeps ms milliseconds (the "computation" of this program). */
static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* One unit of work: calls probes, then ms of computation. */
static void work(int ms, int calls)
{
	int i;

	for (i = 0; i < calls; i++)
		(void)pvm_mytid();
	sleep_ms(ms);
}

/* Waits for a message (tid, tag) and unpacks one int; 0 or -1. */
static int recv_int(int tid, int tag, int *v)
{
	struct timeval tmo = {TIMEOUT_S, 0};

	if (pvm_trecv(tid, tag, &tmo) <= 0 || pvm_upkint(v, 1, 1) < 0)
		return -1;
	return 0;
}

/* Sends one int to tid. */
static int send_int(int tid, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	return pvm_send(tid, tag);
}

/* Stages 1 and 2: take ITEMS items from the previous stage, work on
 * each, pass them on (stage 1) or sum them (stage 2). */
static int stage(int s, int items, int calls)
{
	int parent = pvm_parent(), next = -1, i, v;
	long sum = 0;

	if (s == 1 && recv_int(parent, TAG_SETUP, &next) < 0)
		goto lost;
	for (i = 0; i < items; i++) {
		if (recv_int(-1, TAG_ITEM, &v) < 0)
			goto lost;
		work(3 - s, calls);
		if (s == 1 && send_int(next, TAG_ITEM, v) < 0)
			goto lost;
		sum += v;
	}
	pvm_exit();
	if (s == 2 && sum != (long)items * (items - 1) / 2) {
		fprintf(stderr, "cmp_pipeline: sum %ld\n", sum);
		return 1;
	}
	return 0;
lost:
	fprintf(stderr, "cmp_pipeline %d: lost an item\n", s);
	pvm_exit();
	return 1;
}

/* Stage 0: spawn the others, wire them, produce. */
static int master(int items, int calls, char **args)
{
	int tids[3], s, i;
	char arg[8];

	args[0] = arg;
	for (s = 1; s < 3; s++) {
		snprintf(arg, sizeof arg, "%d", s);
		if (pvm_spawn("cmp_pipeline", args, PvmTaskDefault, "", 1,
			      &tids[s]) != 1) {
			fprintf(stderr, "cmp_pipeline: spawn failed\n");
			pvm_exit();
			return 1;
		}
	}
	send_int(tids[1], TAG_SETUP, tids[2]);
	for (i = 0; i < items; i++) {
		work(4, calls);
		if (send_int(tids[1], TAG_ITEM, i) < 0) {
			fprintf(stderr, "cmp_pipeline: send failed\n");
			pvm_exit();
			return 1;
		}
	}
	pvm_exit();
	return 0;
}

/* Master: cmp_pipeline [ITEMS [CALLS]]; copies: cmp_pipeline S ITEMS
 * CALLS. */
int main(int argc, char **argv)
{
	int items = argc > 1 ? atoi(argv[1]) : 100;
	int calls = argc > 2 ? atoi(argv[2]) : 25;
	char si[16], sc[16], *args[] = {NULL, si, sc, NULL};

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0) {
		pvm_perror("cmp_pipeline: pvm_mytid");
		return 1;
	}
	if (pvm_parent() != PvmNoParent && argc == 4)
		return stage(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));
	if (items < 1 || items > 100000 || calls < 0 || calls > 100000) {
		fprintf(stderr, "usage: cmp_pipeline [ITEMS [CALLS]]\n");
		pvm_exit();
		return 2;
	}
	snprintf(si, sizeof si, "%d", items);
	snprintf(sc, sizeof sc, "%d", calls);
	return master(items, calls, args);
}
