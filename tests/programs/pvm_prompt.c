/*
 * pvm_prompt.c — a PVM master/worker in one file whose master takes its
 * parameters from standard input, as many PVM examples do
 * (tests/integration/94-load-run.sh).
 *
 * The master (no PVM parent) spawns one copy of itself as a worker, then
 * prompts "value? " and reads integers until EOF; each goes to the worker,
 * which sends back its square.  At EOF the master sends -1 (the worker
 * ends), prints "values N sum of squares S" and exits 0 if it read any.
 */
#include <stdio.h>
#include <pvm3.h>

#define TAG_WORK 1
#define TAG_DONE 2

/* Sends one int to tid with tag. */
static void send_int(int tid, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, tag);
}

/* Receives one int from tid with tag. */
static int recv_int(int tid, int tag)
{
	int v = 0;

	pvm_recv(tid, tag);
	pvm_upkint(&v, 1, 1);
	return v;
}

/* The worker: squares what comes until -1. */
static void worker(int parent)
{
	int v;

	while ((v = recv_int(parent, TAG_WORK)) >= 0)
		send_int(parent, TAG_DONE, v * v);
}

int main(int argc, char **argv)
{
	int parent, tid, v, n = 0;
	long sum = 0;

	pvm_mytid();
	parent = pvm_parent();
	if (parent > 0) {
		worker(parent);
		pvm_exit();
		return 0;
	}
	if (pvm_spawn(argv[0], NULL, PvmTaskDefault, "", 1, &tid) != 1) {
		printf("spawn failed: %d\n", tid);
		pvm_exit();
		return 2;
	}
	for (;;) {
		printf("value? ");
		fflush(stdout);
		if (scanf("%d", &v) != 1)
			break;
		send_int(tid, TAG_WORK, v < 0 ? -v : v);
		sum += recv_int(tid, TAG_DONE);
		n++;
	}
	send_int(tid, TAG_WORK, -1);
	printf("\nvalues %d sum of squares %ld\n", n, sum);
	pvm_exit();
	return n > 0 ? 0 : 3;
}
