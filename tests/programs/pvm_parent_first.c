/*
 * pvm_parent_first.c — PVM test program in the SPMD idiom many real
 * programs use: the first PVM call is pvm_parent(), never pvm_mytid().
 * The copy without a parent spawns one more copy of itself and receives
 * 3 messages from it; the spawned copy sends them to its parent.  The
 * master prints "got 3" (tests/integration/95-pvm-parent-first.sh: its
 * tid must be known to the trace, so every message is matched).
 */
#include <stdio.h>
#include <pvm3.h>

int main(void)
{
	int parent = pvm_parent(), i, v, tid;

	if (parent == PvmNoParent) {
		if (pvm_spawn("pvm_parent_first", NULL, PvmTaskDefault, "", 1,
			      &tid) != 1) {
			printf("spawn failed\n");
			pvm_exit();
			return 1;
		}
		for (i = 0; i < 3; i++) {
			pvm_recv(tid, 7);
			pvm_upkint(&v, 1, 1);
		}
		printf("got %d\n", v);
	} else if (parent > 0) {
		for (i = 1; i <= 3; i++) {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&i, 1, 1);
			pvm_send(parent, 7);
		}
	}
	pvm_exit();
	return parent == PvmNoParent || parent > 0 ? 0 : 1;
}
