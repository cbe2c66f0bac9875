/*
 * cmp_fig2.c — ParJava's figure 2 as a PVM program: the probes change
 * which message a wildcard receive gets first.
 *
 * Usage: cmp_fig2 [CALLS [P2_MS [P3_MS]]]     defaults 2000 2 30
 *
 * p1, the master (no PVM parent), spawns two copies of itself, p2 and
 * p3, waits until both said they are ready (receives by source), tells
 * both to start with one pvm_mcast (so they start together, whatever
 * their start-up took) and takes their two messages with wildcard
 * receives,
 * pvm_recv(-1, TAG_DONE).  p2 sleeps P2_MS ms and then makes CALLS cheap
 * PVM calls (pvm_mytid: under paravt each one is a probe) before it
 * sends; p3 only sleeps P3_MS ms before it sends.  Without paravt, or
 * with light probes, p2's message comes first (after about 5 ms); with
 * heavy probes (PARAVT_PROBE_BUSY_NS=20000: two records of 20 us per
 * call, 80 ms for 2000 calls) p3's does (after 30 ms).  The master prints, on stdout:
 *
 *   p2 is t40002
 *   p3 is t40003
 *   first: p3 t40003
 *   second: p2 t40002
 *
 * Every wait is bounded (pvm_trecv with a timeout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <pvm3.h>

#define TAG_GO 1
#define TAG_DONE 2
#define TAG_READY 3
#define TIMEOUT_S 30

/* Sleeps ms milliseconds (the "computation" of this program). */
static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Waits for a message (tid, tag); its buffer id, or <= 0 after the
 * timeout. */
static int wait_msg(int tid, int tag)
{
	struct timeval tmo = {TIMEOUT_S, 0};

	return pvm_trecv(tid, tag, &tmo);
}

/* p2 or p3 (role): wait for the go, work, report. */
static int child(int role, int calls, int p2_ms, int p3_ms)
{
	int parent = pvm_parent(), i;

	pvm_initsend(PvmDataDefault);
	if (parent < 0 || pvm_send(parent, TAG_READY) < 0 ||
	    wait_msg(parent, TAG_GO) <= 0) {
		fprintf(stderr, "cmp_fig2 p%d: no go from the master\n", role);
		pvm_exit();
		return 1;
	}
	if (role == 2) {
		sleep_ms(p2_ms);
		for (i = 0; i < calls; i++)
			(void)pvm_mytid();
	} else {
		sleep_ms(p3_ms);
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&role, 1, 1);
	pvm_send(parent, TAG_DONE);
	pvm_exit();
	return 0;
}

/* Spawns the copy of role r, passing argv[1..3] on; its tid or -1. */
static int spawn_role(int r, char **argv)
{
	char arg[8], *args[] = {arg, argv[1], argv[2], argv[3], NULL};
	int tid = -1;

	snprintf(arg, sizeof arg, "%d", r);
	if (pvm_spawn("cmp_fig2", args, PvmTaskDefault, "", 1, &tid) != 1)
		return -1;
	printf("p%d is t%x\n", r, (unsigned)tid);
	return tid;
}

/* p1: spawn p2 and p3, start them, take their messages in the order
 * they come. */
static int master(char **argv)
{
	static const char *const nth[] = {"first", "second"};
	int tids[2], i, role, len, tag, src;

	tids[0] = spawn_role(2, argv);
	tids[1] = spawn_role(3, argv);
	if (tids[0] < 0 || tids[1] < 0 || wait_msg(tids[0], TAG_READY) <= 0 ||
	    wait_msg(tids[1], TAG_READY) <= 0) {
		fprintf(stderr, "cmp_fig2: spawn failed\n");
		pvm_exit();
		return 1;
	}
	pvm_initsend(PvmDataDefault);
	pvm_mcast(tids, 2, TAG_GO);
	for (i = 0; i < 2; i++) {
		int b = pvm_recv(-1, TAG_DONE);

		if (b <= 0 || pvm_bufinfo(b, &len, &tag, &src) < 0 ||
		    pvm_upkint(&role, 1, 1) < 0) {
			fprintf(stderr, "cmp_fig2: receive %d failed\n", i);
			pvm_exit();
			return 1;
		}
		printf("%s: p%d t%x\n", nth[i], role, (unsigned)src);
	}
	pvm_exit();
	return 0;
}

/* Master: cmp_fig2 [CALLS [P2_MS [P3_MS]]]; copies: cmp_fig2 ROLE CALLS
 * P2_MS P3_MS. */
int main(int argc, char **argv)
{
	char calls[16] = "2000", p2_ms[16] = "2", p3_ms[16] = "30";
	char *args[4] = {argv[0], calls, p2_ms, p3_ms};
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0) {
		pvm_perror("cmp_fig2: pvm_mytid");
		return 1;
	}
	if (pvm_parent() != PvmNoParent && argc == 5)
		return child(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]),
			     atoi(argv[4]));
	for (i = 1; i < argc && i < 4; i++) {
		if (atoi(argv[i]) < 0 || atoi(argv[i]) > 1000000) {
			fprintf(stderr, "usage: cmp_fig2 [CALLS [P2_MS "
				"[P3_MS]]]\n");
			pvm_exit();
			return 2;
		}
		snprintf(args[i], 16, "%d", atoi(argv[i]));
	}
	return master(args);
}
