/*
 * cmp_ring.c — a token ring whose timing is deterministic, for the
 * compensation test (tests/integration/87-compensation.sh).
 *
 * Usage: cmp_ring [ROUNDS [CALLS]]          defaults 60 25
 *
 * Three processes: the master (no PVM parent) is member 0 and spawns two
 * copies of itself, members 1 and 2, and tells each the tid of the next
 * member.  The token goes 0 -> 1 -> 2 -> 0 ROUNDS times; member m holding
 * it "works" (2 + m) ms — a sleep, so the time does not depend on the
 * machine's load — and makes CALLS cheap PVM calls (pvm_mytid: under
 * paravt each is a probe, so deliberately heavy probes slow the ring
 * down) before passing it on.  Every member waits for the token two
 * thirds of the time.  The master prints "ring: ROUNDS rounds, token N"
 * (N counts the hops: 3 * ROUNDS).  Every wait is bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <pvm3.h>

#define MEMBERS 3
#define TAG_SETUP 1
#define TAG_TOKEN 2
#define TIMEOUT_S 30

/* Sleeps ms milliseconds (the "computation" of this program). */
static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* One unit of work: calls probes, then ms of computation. */
static void work(int ms, int calls)
{
	int i;

	for (i = 0; i < calls; i++)
		(void)pvm_mytid();
	sleep_ms(ms);
}

/* Waits for a message (tid, tag) and unpacks one int; 0 or -1. */
static int recv_int(int tid, int tag, int *v)
{
	struct timeval tmo = {TIMEOUT_S, 0};

	if (pvm_trecv(tid, tag, &tmo) <= 0 || pvm_upkint(v, 1, 1) < 0)
		return -1;
	return 0;
}

/* Sends one int to tid. */
static int send_int(int tid, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	return pvm_send(tid, tag);
}

/* The life of member m: take the token from anyone, work, pass it to
 * next; the master starts and ends the ring.  The last token value, or
 * -1. */
static int member(int m, int next, int rounds, int calls)
{
	int r, token = 0;

	for (r = 0; r < rounds; r++) {
		if ((m != 0 || r > 0) && recv_int(-1, TAG_TOKEN, &token) < 0)
			return -1;
		work(2 + m, calls);
		if (send_int(next, TAG_TOKEN, token + 1) < 0)
			return -1;
	}
	if (m == 0 && recv_int(-1, TAG_TOKEN, &token) < 0)
		return -1;
	return token;
}

/* Members 1 and 2: learn the next member, run the ring. */
static int child(int m, int rounds, int calls)
{
	int next;

	if (recv_int(pvm_parent(), TAG_SETUP, &next) < 0 ||
	    member(m, next, rounds, calls) < 0) {
		fprintf(stderr, "cmp_ring %d: lost the ring\n", m);
		pvm_exit();
		return 1;
	}
	pvm_exit();
	return 0;
}

/* Member 0: spawn the others, wire the ring, run it. */
static int master(int rounds, int calls, char **args)
{
	int tids[MEMBERS], m, token;
	char arg[8];

	tids[0] = pvm_mytid();
	args[0] = arg;
	for (m = 1; m < MEMBERS; m++) {
		snprintf(arg, sizeof arg, "%d", m);
		if (pvm_spawn("cmp_ring", args, PvmTaskDefault, "", 1,
			      &tids[m]) != 1) {
			fprintf(stderr, "cmp_ring: spawn failed\n");
			pvm_exit();
			return 1;
		}
	}
	for (m = 1; m < MEMBERS; m++)
		send_int(tids[m], TAG_SETUP, tids[(m + 1) % MEMBERS]);
	token = member(0, tids[1], rounds, calls);
	pvm_exit();
	if (token < 0) {
		fprintf(stderr, "cmp_ring: lost the ring\n");
		return 1;
	}
	printf("ring: %d rounds, token %d\n", rounds, token);
	return token == MEMBERS * rounds ? 0 : 1;
}

/* Master: cmp_ring [ROUNDS [CALLS]]; copies: cmp_ring M ROUNDS CALLS. */
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 60;
	int calls = argc > 2 ? atoi(argv[2]) : 25;
	char sr[16], sc[16], *args[] = {NULL, sr, sc, NULL};

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0) {
		pvm_perror("cmp_ring: pvm_mytid");
		return 1;
	}
	if (pvm_parent() != PvmNoParent && argc == 4)
		return child(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));
	if (rounds < 1 || rounds > 100000 || calls < 0 || calls > 100000) {
		fprintf(stderr, "usage: cmp_ring [ROUNDS [CALLS]]\n");
		pvm_exit();
		return 2;
	}
	snprintf(sr, sizeof sr, "%d", rounds);
	snprintf(sc, sizeof sc, "%d", calls);
	return master(rounds, calls, args);
}
