/*
 * pvm_group_late.c — a PVM program whose spawned tasks, not the master,
 * make the group server start: the master spawns N-1 copies of itself
 * (bare name) first, and only then do the copies join group "late" (the
 * first pvm_joingroup of the virtual machine starts PVM's pvmgs, with the
 * spawning task's PVM_EXPORT), meet at a barrier, leave and tell the
 * master, which prints "late: N-1 copies done" and "OK".  The pattern of
 * pvm-examples' starter.c with bwtest or ptest
 * (tests/integration/95-exec-pvmgs.sh).  Every receive is bounded.
 *
 * Usage: pvm_group_late [N]    N-1 copies (2..8, default 3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <pvm3.h>

#define GROUP "late"
#define TAG_DONE 31
#define TIMEOUT 40

/* A copy: joins, meets the others, leaves, tells the parent. */
static int copy(int n)
{
	int me = pvm_joingroup(GROUP);

	if (me < 0 || pvm_barrier(GROUP, n - 1) < 0) {
		fprintf(stderr, "late: group call failed\n");
		pvm_exit();
		return 1;
	}
	pvm_lvgroup(GROUP);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	pvm_send(pvm_parent(), TAG_DONE);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, tids[8], i, got = 0;
	struct timeval tmo = {TIMEOUT, 0};
	char arg[16], *args[] = {arg, NULL};

	if (n < 2 || n > 8)
		n = 3;
	if (pvm_parent() != PvmNoParent)
		return copy(n);
	snprintf(arg, sizeof arg, "%d", n);
	if (pvm_spawn("pvm_group_late", args, PvmTaskDefault, NULL, n - 1,
	              tids) != n - 1) {
		fprintf(stderr, "late: spawn failed\n");
		pvm_exit();
		return 1;
	}
	for (i = 0; i < n - 1; i++)
		got += pvm_trecv(-1, TAG_DONE, &tmo) > 0;
	printf("late: %d copies done\n%s\n", got, got == n - 1 ? "OK" : "FAIL");
	pvm_exit();
	return got == n - 1 ? 0 : 1;
}
