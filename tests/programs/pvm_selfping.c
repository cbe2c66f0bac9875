/*
 * pvm_selfping.c — PVM test program that lasts: one task sends to itself
 * and receives, N times (default 300), 10 ms apart, then prints
 * "done N-1" (the last value it received).  About 6 events per round
 * trip; tests kill the console in the middle (85-trace-reconnect,
 * 85-trace-attach).
 *
 *   pvm_selfping [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <pvm3.h>

int main(int argc, char **argv)
{
	struct timespec pause = {0, 10000000L};
	int n = argc > 1 ? atoi(argv[1]) : 300;
	int me = pvm_mytid(), i, v = 0;

	for (i = 0; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_send(me, 1);
		pvm_recv(me, 1);
		pvm_upkint(&v, 1, 1);
		nanosleep(&pause, NULL);
	}
	printf("done %d\n", v);
	pvm_exit();
	return 0;
}
