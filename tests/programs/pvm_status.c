/*
 * pvm_status.c — PVM test program: how spawned tasks end.  The master
 * (no argument) spawns three copies of itself, each told how to end, and
 * waits for each to say it is ready:
 *   exit:   calls exit(3) from a function (not main's return), once the
 *           master has answered its "ready" (twice in CI the master
 *           waited for ever for a "ready" this task had sent just before
 *           exiting without pvm_exit; the suspect is pvmd handling the
 *           child's end before reading its socket);
 *   killed: waits for a message that never comes, until the master kills
 *           it with pvm_kill (SIGTERM from the pvmd);
 *   sigkill: kills itself with SIGKILL (no handler can run).
 * The master then exits 0.  Under plain PVM the three end with status 3,
 * signal SIGTERM and signal SIGKILL.
 *
 * Usage: pvm_status            (the master)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pvm3.h>

#define TAG_READY 1
#define TAG_GO 2

/* Tells the parent this task is about to end its way. */
static void ready(void)
{
	pvm_initsend(PvmDataDefault);
	pvm_send(pvm_parent(), TAG_READY);
}

/* Ends with exit(3) from below main. */
static void leave(void)
{
	exit(3);
}

static int worker(const char *how)
{
	ready();
	if (strcmp(how, "exit") == 0) {
		pvm_recv(pvm_parent(), TAG_GO);
		leave();
	}
	if (strcmp(how, "sigkill") == 0) {
		pvm_exit();
		kill(getpid(), SIGKILL);
	}
	pvm_recv(-1, 99); /* killed by the master */
	return 0;
}

int main(int argc, char **argv)
{
	static char *hows[] = {"exit", "killed", "sigkill"};
	char *args[2];
	int tids[3], i;

	pvm_mytid();
	if (argc > 1)
		return worker(argv[1]);
	for (i = 0; i < 3; i++) {
		args[0] = hows[i];
		args[1] = NULL;
		if (pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &tids[i])
		    != 1) {
			printf("spawn of %s failed\n", hows[i]);
			pvm_exit();
			return 1;
		}
		pvm_recv(tids[i], TAG_READY);
		printf("%s ready\n", hows[i]);
		if (i == 0) { /* the one that exits: READY is here */
			pvm_initsend(PvmDataDefault);
			pvm_send(tids[i], TAG_GO);
		}
	}
	sleep(1); /* the others end their way first */
	pvm_kill(tids[1]);
	printf("done\n");
	pvm_exit();
	return 0;
}
