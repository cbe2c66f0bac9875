/*
 * pvm_deadlock.c — a PVM program that hangs on purpose, for the hang
 * diagnosis (tests/integration/88-hang.sh).
 *
 * Usage: pvm_deadlock [MODE]
 *   deadlock (default)  the first copy (no PVM parent) spawns a second;
 *                       each then receives from the other before it
 *                       sends: both wait for ever, a deadlock.
 *   exited              the second copy exits at once without sending;
 *                       the first waits for it for ever: a hang, not a
 *                       deadlock.
 * The copy is spawned by bare name with the mode as its argument.  In
 * both modes the program never ends by itself: the test kills it.  Each
 * blocking receive is alone on its line with a marker comment the test
 * finds with grep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pvm3.h>

#define TAG_TO_MASTER 1
#define TAG_TO_WORKER 2

/* Sends one int to tid with tag. */
static void send_int(int tid, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, tag);
}

/* The first copy: spawns the second, then receives before sending. */
static int master(char *mode)
{
	char *args[] = {mode, NULL};
	int other = 0;

	if (pvm_spawn("pvm_deadlock", args, PvmTaskDefault, "", 1, &other) !=
	    1) {
		fprintf(stderr, "pvm_deadlock: spawn failed (%d)\n", other);
		pvm_exit();
		return 1;
	}
	printf("master t%x: spawned t%x, receiving first\n", pvm_mytid(),
	       other);
	pvm_recv(other, TAG_TO_MASTER); /* hang: master receives first */
	send_int(other, TAG_TO_WORKER, 1);
	pvm_exit();
	return 0;
}

/* The second copy: receives from its parent before sending (or, in mode
 * "exited", leaves at once). */
static int worker(const char *mode)
{
	int parent = pvm_parent();

	if (strcmp(mode, "exited") == 0) {
		printf("worker t%x: leaving without sending\n", pvm_mytid());
		pvm_exit();
		return 0;
	}
	printf("worker t%x: receiving first\n", pvm_mytid());
	pvm_recv(parent, TAG_TO_WORKER); /* hang: worker receives first */
	send_int(parent, TAG_TO_MASTER, 2);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	char *mode = argc > 1 ? argv[1] : "deadlock";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(mode, "deadlock") != 0 && strcmp(mode, "exited") != 0) {
		fprintf(stderr, "usage: pvm_deadlock [deadlock|exited]\n");
		return 2;
	}
	if (pvm_mytid() < 0)
		return 1;
	if (pvm_parent() == PvmNoParent)
		return master(mode);
	return worker(mode);
}
