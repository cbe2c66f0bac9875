/*
 * cmp_mw.c — master/worker with deterministic timing, for the
 * compensation test (tests/integration/87-compensation.sh).
 *
 * Usage: cmp_mw [TASKS [CALLS]]             defaults 60 25
 *
 * The master (no PVM parent) spawns two copies of itself, workers 0 and
 * 1.  Task k belongs to worker k % 2 (a fixed assignment, so that every
 * run does the same work in every process whatever the arrival order)
 * and takes 4 + k % 3 ms.  The master sends each worker its first task,
 * then takes the results with wildcard receives, pvm_recv(-1,
 * TAG_RESULT); for each it "merges" for 1 ms and sends that worker its
 * next task (or a stop).  "Work" is a sleep, so it does not depend on the
 * machine's load, plus CALLS cheap PVM calls per unit (pvm_mytid: under
 * paravt each is a probe, so deliberately heavy probes slow every
 * process down).  The master waits for results about half of the time,
 * a worker for its next task about a fifth.  The master prints
 * "mw: TASKS tasks, sum S" with S the sum of k * k.  Every wait is
 * bounded.
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

/* A worker: tasks until the stop. */
static int worker(int calls)
{
	struct timeval tmo = {TIMEOUT_S, 0};
	int parent = pvm_parent(), k;
	long r;

	for (;;) {
		if (pvm_trecv(parent, TAG_TASK, &tmo) <= 0 ||
		    pvm_upkint(&k, 1, 1) < 0) {
			fprintf(stderr, "cmp_mw worker: no task\n");
			pvm_exit();
			return 1;
		}
		if (k < 0)
			break;
		work(4 + k % 3, calls);
		r = (long)k * k;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&k, 1, 1);
		pvm_pklong(&r, 1, 1);
		pvm_send(parent, TAG_RESULT);
	}
	pvm_exit();
	return 0;
}

/* Takes one result; adds it to *sum and returns its task, or -1. */
static int take_result(long *sum)
{
	int k;
	long r;

	if (pvm_recv(-1, TAG_RESULT) <= 0 || pvm_upkint(&k, 1, 1) < 0 ||
	    pvm_upklong(&r, 1, 1) < 0 || k < 0)
		return -1;
	*sum += r;
	return k;
}

/* The master: spawn, hand out the tasks, merge the results. */
static int master(int tasks, int calls, char **args)
{
	int tids[WORKERS], w, k, n;
	long sum = 0, want = 0;

	for (w = 0; w < WORKERS; w++)
		if (pvm_spawn("cmp_mw", args, PvmTaskDefault, "", 1,
			      &tids[w]) != 1) {
			fprintf(stderr, "cmp_mw: spawn failed\n");
			pvm_exit();
			return 1;
		}
	for (w = 0; w < WORKERS; w++)
		send_task(tids[w], w < tasks ? w : -1);
	for (n = 0; n < tasks; n++) {
		k = take_result(&sum);
		if (k < 0) {
			fprintf(stderr, "cmp_mw: lost a result\n");
			pvm_exit();
			return 1;
		}
		work(1, calls);
		send_task(tids[k % WORKERS], k + WORKERS < tasks ?
			  k + WORKERS : -1);
	}
	pvm_exit();
	for (k = 0; k < tasks; k++)
		want += (long)k * k;
	printf("mw: %d tasks, sum %ld\n", tasks, sum);
	return sum == want ? 0 : 1;
}

/* Master: cmp_mw [TASKS [CALLS]]; workers: cmp_mw worker CALLS. */
int main(int argc, char **argv)
{
	int tasks = argc > 1 ? atoi(argv[1]) : 60;
	int calls = argc > 2 ? atoi(argv[2]) : 25;
	char sc[16], *args[] = {"worker", sc, NULL};

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0) {
		pvm_perror("cmp_mw: pvm_mytid");
		return 1;
	}
	if (pvm_parent() != PvmNoParent && argc == 3)
		return worker(atoi(argv[2]));
	if (tasks < 1 || tasks > 100000 || calls < 0 || calls > 100000) {
		fprintf(stderr, "usage: cmp_mw [TASKS [CALLS]]\n");
		pvm_exit();
		return 2;
	}
	snprintf(sc, sizeof sc, "%d", calls);
	return master(tasks, calls, args);
}
