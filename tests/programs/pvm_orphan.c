/*
 * pvm_orphan.c — PVM test program: a hang no message can end.  The
 * master spawns one copy of itself, which sends one message and exits;
 * the master then receives from any task, any tag, again and again (as
 * PVM's inherita example does): the second receive waits for a task that
 * is no longer there.  It never ends by itself.
 *
 * Usage: pvm_orphan            (the master)
 */
#include <stdio.h>
#include <pvm3.h>

int main(int argc, char **argv)
{
	int tid, n = 0;

	pvm_mytid();
	if (argc > 1) { /* the child */
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&n, 1, 1);
		pvm_send(pvm_parent(), 1);
		pvm_exit();
		return 0;
	}
	if (pvm_spawn(argv[0], (char *[]){"child", NULL}, PvmTaskDefault, "",
		      1, &tid) != 1) {
		printf("spawn failed\n");
		pvm_exit();
		return 1;
	}
	for (;;) {
		pvm_recv(-1, -1);
		printf("message %d\n", ++n);
		fflush(stdout);
	}
}
