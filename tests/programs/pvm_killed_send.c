/*
 * pvm_killed_send.c — a task killed by pvm_kill while still inside the
 * pvm_send whose message its parent has already received, as
 * pvm-examples' timing_slave is at times (PVM's direct route delivers
 * before pvm_send returns).  To make that moment certain, the program
 * interposes its own pvm_send: libpvm3's (found with dlsym RTLD_NEXT),
 * then, in the child, a pause of up to 60 s before it returns.  The
 * master spawns one child, receives its message (tag 7, an int 42),
 * prints "got 42", kills the child, prints "killed" and exits 0
 * (tests/integration/95-pvm-killed-send.sh).  Under paravt the wrapper
 * of pvm_send calls this pvm_send as the real one (linked statically,
 * the program's definition wins).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
#include <pvm3.h>

#define TAG 7

static int pause_after_send; /* set in the child */

int main(void)
{
	struct timeval tmo = {30, 0};
	int child, v = 42, parent;

	if (pvm_mytid() < 0) /* enrols (and names the master's tid) */
		return 1;
	parent = pvm_parent();

	if (parent > 0) {
		pause_after_send = 1;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(parent, TAG);
		pvm_exit();
		return 3; /* not reached: killed first */
	}
	if (pvm_spawn("pvm_killed_send", NULL, PvmTaskDefault, NULL, 1,
	              &child) != 1) {
		fprintf(stderr, "spawn failed\n");
		pvm_exit();
		return 1;
	}
	v = 0;
	if (pvm_trecv(child, TAG, &tmo) <= 0 || pvm_upkint(&v, 1, 1) < 0) {
		fprintf(stderr, "nothing received\n");
		pvm_kill(child);
		pvm_exit();
		return 1;
	}
	printf("got %d\n", v);
	fflush(stdout);
	pvm_kill(child);
	printf("killed\n");
	pvm_exit();
	return 0;
}

/* (After main: main calls pvm_send through paravt's wrapper, which
 * calls this one as the real one.) */
#undef pvm_send /* (paravt's header maps the name to its wrapper) */
/* libpvm3's pvm_send, then in the child a pause: killed in there. */
int pvm_send(int tid, int tag)
{
	static int (*real)(int, int);
	int rc, i;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "pvm_send");
	if (real == NULL)
		return PvmSysErr;
	rc = real(tid, tag);
	for (i = 0; pause_after_send && i < 60; i++)
		sleep(1);
	return rc;
}
