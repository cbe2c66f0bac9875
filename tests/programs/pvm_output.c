/*
 * pvm_output.c — PVM test program: output of spawned tasks.  The master
 * spawns a child, the child spawns a grandchild; each writes lines to
 * stdout and stderr (one line without its newline until later).  Then
 * the master calls pvm_catchout(stdout) and spawns a third task whose
 * output PVM hands to the master, which prints it with the task's tid.
 * Without paravt the first two tasks' output goes to the pvmd's log
 * (or a console's `spawn ->`).
 *
 * Usage: pvm_output            (the master)
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pvm3.h>

/* A task: prints its lines, maybe spawns the next generation and waits
 * for it, then tells its parent. */
static int task(const char *who)
{
	int tid, i;

	printf("%s out 1\n", who);
	fprintf(stderr, "%s err 1\n", who);
	printf("%s out 2 (half", who);
	fflush(stdout);
	if (strcmp(who, "child") == 0) {
		if (pvm_spawn("pvm_output", (char *[]){"grandchild", NULL},
			      PvmTaskDefault, "", 1, &tid) == 1)
			pvm_recv(tid, 1);
		else
			printf(" spawn failed");
	}
	printf(" and the rest)\n");
	for (i = 3; i <= 5; i++)
		printf("%s out %d\n", who, i);
	pvm_initsend(PvmDataDefault);
	pvm_send(pvm_parent(), 1);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int tid;

	pvm_mytid();
	if (argc > 1)
		return task(argv[1]);
	if (pvm_spawn(argv[0], (char *[]){"child", NULL}, PvmTaskDefault, "",
		      1, &tid) != 1) {
		printf("spawn failed\n");
		pvm_exit();
		return 1;
	}
	pvm_recv(tid, 1);
	pvm_catchout(stdout);
	if (pvm_spawn(argv[0], (char *[]){"caught", NULL}, PvmTaskDefault, "",
		      1, &tid) == 1)
		pvm_recv(tid, 1);
	printf("done\n");
	fflush(stdout);
	pvm_exit();
	return 0;
}
