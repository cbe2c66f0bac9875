/*
 * pvm_linger.c — PVM test program: workers on another host outlive the
 * master.  The master spawns 4 copies of itself (PVM places them on every
 * host of the virtual machine), receives one message from each and exits
 * at once.  A worker sends its message, then, when it runs on another
 * host than the master, computes 2 s more before it exits 0 (as a worker
 * that writes its results to a file after reporting would).  Under plain
 * PVM every worker exits 0: nobody halts the virtual machine.
 *
 * Usage: pvm_linger            (the master)
 */
#include <stdio.h>
#include <unistd.h>
#include <pvm3.h>

#define NW 4

int main(int argc, char **argv)
{
	int tids[NW], i, n, me = pvm_mytid();

	if (argc > 1) { /* a worker */
		int parent = pvm_parent();

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_send(parent, 1);
		if (pvm_tidtohost(me) != pvm_tidtohost(parent))
			sleep(2);
		pvm_exit();
		return 0;
	}
	/* by name: each host runs its own build of it */
	n = pvm_spawn("pvm_linger", (char *[]){"worker", NULL}, PvmTaskDefault, "",
		      NW, tids);
	for (i = 0; i < n; i++)
		pvm_recv(-1, 1);
	printf("%d workers reported\n", n);
	pvm_exit();
	return n == NW ? 0 : 1;
}
