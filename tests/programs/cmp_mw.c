/*
 * cmp_mw.c — master/worker with deterministic timing, for the
 * compensation test (tests/integration/87-compensation.sh).
 *
 * Usage: cmp_mw [ROUNDS [CALLS]]            defaults 40 25
 *
 * The master (no PVM parent) spawns two copies of itself, workers 0 and
 * 1.  Each round it sends every worker a task, takes the two results
 * with wildcard receives, pvm_recv(-1, TAG_RESULT), "merges" each for
 * 1 ms as it comes, and closes the round with 3 ms of bookkeeping.
 * Worker w's tasks take 4 + 3w ms, so worker 0's result always comes
 * first, well before worker 1's, and every process waits the same in
 * every round and every run (no race between the workers' results nor
 * with the merges): the master about 6 ms a round, worker 0 about 7 ms,
 * worker 1 about 4 ms.  "Work"
 * is a sleep, so it does not depend on the machine's load, plus CALLS
 * cheap PVM calls per unit (pvm_mytid: under paravt each is a probe, so
 * deliberately heavy probes slow every process down).  The master prints
 * "mw: ROUNDS rounds, sum S" with S the sum of k * k over the task
 * numbers k (0, 1, 2, ...).  Every wait is bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <pvm3.h>

#define WORKERS 2
#define TAG_TASK 1
#define TAG_RESULT 2
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

/* Sends task k (-1: stop) to tid. */
static int send_task(int tid, int k)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&k, 1, 1);
	return pvm_send(tid, TAG_TASK);
}

/* Worker w: tasks until the stop. */
static int worker(int w, int calls)
{
	struct timeval tmo = {TIMEOUT_S, 0};
	int parent = pvm_parent(), k;
	long r;

	for (;;) {
		if (pvm_trecv(parent, TAG_TASK, &tmo) <= 0 ||
		    pvm_upkint(&k, 1, 1) < 0) {
			fprintf(stderr, "cmp_mw worker %d: no task\n", w);
			pvm_exit();
			return 1;
		}
		if (k < 0)
			break;
		work(4 + 3 * w, calls);
		r = (long)k * k;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&k, 1, 1);
		pvm_pklong(&r, 1, 1);
		pvm_send(parent, TAG_RESULT);
	}
	pvm_exit();
	return 0;
}

/* Takes one result; adds it to *sum.  0 or -1. */
static int take_result(long *sum)
{
	int k;
	long r;

	if (pvm_recv(-1, TAG_RESULT) <= 0 || pvm_upkint(&k, 1, 1) < 0 ||
	    pvm_upklong(&r, 1, 1) < 0 || r != (long)k * k)
		return -1;
	*sum += r;
	return 0;
}

/* Spawns worker w; its tid or -1. */
static int spawn_worker(int w, char *calls)
{
	char sw[8], *args[] = {sw, calls, NULL};
	int tid = -1;

	snprintf(sw, sizeof sw, "%d", w);
	if (pvm_spawn("cmp_mw", args, PvmTaskDefault, "", 1, &tid) != 1)
		return -1;
	return tid;
}

/* The master: spawn, hand out the tasks round by round, merge. */
static int master(int rounds, int calls, char *scalls)
{
	int tids[WORKERS], w, r, k = 0;
	long sum = 0, want = 0;

	for (w = 0; w < WORKERS; w++)
		if ((tids[w] = spawn_worker(w, scalls)) < 0) {
			fprintf(stderr, "cmp_mw: spawn failed\n");
			pvm_exit();
			return 1;
		}
	for (r = 0; r < rounds; r++) {
		for (w = 0; w < WORKERS; w++, k++) {
			send_task(tids[w], k);
			want += (long)k * k;
		}
		for (w = 0; w < WORKERS; w++) {
			if (take_result(&sum) < 0) {
				fprintf(stderr, "cmp_mw: lost a result\n");
				pvm_exit();
				return 1;
			}
			work(1, calls);
		}
		work(3, calls);
	}
	for (w = 0; w < WORKERS; w++)
		send_task(tids[w], -1);
	pvm_exit();
	printf("mw: %d rounds, sum %ld\n", rounds, sum);
	return sum == want ? 0 : 1;
}

/* Master: cmp_mw [ROUNDS [CALLS]]; workers: cmp_mw W CALLS. */
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	int calls = argc > 2 ? atoi(argv[2]) : 25;
	char sc[16];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0) {
		pvm_perror("cmp_mw: pvm_mytid");
		return 1;
	}
	if (pvm_parent() != PvmNoParent && argc == 3)
		return worker(atoi(argv[1]), atoi(argv[2]));
	if (rounds < 1 || rounds > 100000 || calls < 0 || calls > 100000) {
		fprintf(stderr, "usage: cmp_mw [ROUNDS [CALLS]]\n");
		pvm_exit();
		return 2;
	}
	snprintf(sc, sizeof sc, "%d", calls);
	return master(rounds, calls, sc);
}
