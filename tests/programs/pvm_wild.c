/*
 * pvm_wild.c — PVM test program for wildcard receives.
 *
 * Usage: pvm_wild [W]       W workers (1..16, default 4)
 *
 * The master (no PVM parent) spawns W copies of itself by bare name,
 * round-robin over the hosts (PvmTaskHost), each with its index as
 * argument.  Worker w sends 3+w messages (tags 100, 101, 102 in turn;
 * payload: index, sequence number, a double, a long and a string) with
 * small pauses that differ per worker, so arrivals interleave differently
 * from run to run.  The master:
 *   1. waits for the first arrival with pvm_probe(-1, -1) (polled, bounded);
 *   2. takes every message with a wildcard source and tag, rotating through
 *      pvm_recv(-1, -1), pvm_nrecv(-1, -1) (polled) and pvm_trecv(-1, -1, t),
 *      and checks with pvm_bufinfo that source and tag match the payload and
 *      that each source's messages arrive in the order they were sent;
 *   3. tells every worker to send a final message (tag 200), waits with
 *      pvm_probe(tid, 200) until each has arrived, then receives them by
 *      explicit source in reverse index order
 *      (pvm_recv(tid, 200)) while the others stay queued.
 * stdout (sorted by worker index) is deterministic whatever the arrival
 * order; the order actually seen goes to stderr.  Bounded everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pvm3.h>

#define MAXW 16
#define TAG_GO 150
#define TAG_LAST 200
#define TIMEOUT 40

static int nmsgs(int w) { return 3 + w; }

static void pause_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* Seconds since an arbitrary start (for bounding polling loops). */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int worker(int w)
{
	int parent = pvm_parent();
	if (parent < 0) {
		fprintf(stderr, "pvm_wild worker %d: no parent\n", w);
		pvm_exit();
		return 1;
	}
	for (int s = 0; s < nmsgs(w); s++) {
		pause_ms((w * 7 + s * 3) % 5);
		double d = w + s / 4.0;
		long l = 1000L * w + s;
		char str[32];
		snprintf(str, sizeof str, "w%d-m%d", w, s);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		pvm_pkint(&s, 1, 1);
		pvm_pkdouble(&d, 1, 1);
		pvm_pklong(&l, 1, 1);
		pvm_pkstr(str);
		if (pvm_send(parent, 100 + s % 3) < 0) {
			pvm_perror("pvm_wild worker: pvm_send");
			pvm_exit();
			return 1;
		}
	}
	struct timeval tmo = { TIMEOUT, 0 };
	if (pvm_trecv(parent, TAG_GO, &tmo) <= 0) {
		fprintf(stderr, "pvm_wild worker %d: no go\n", w);
		pvm_exit();
		return 1;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&w, 1, 1);
	pvm_send(parent, TAG_LAST);
	pvm_exit();
	return 0;
}

struct stat1 {
	int count, next_seq, order_ok, tagok, seqsum;
	double dsum;
	long lsum;
	char last[32];
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pvm_mytid() < 0) {
		pvm_perror("pvm_wild: pvm_mytid");
		return 1;
	}
	if (pvm_parent() != PvmNoParent)
		return worker(argc > 1 ? atoi(argv[1]) : 0);

	int nw = argc > 1 ? atoi(argv[1]) : 4;
	if (nw < 1 || nw > MAXW) {
		fprintf(stderr, "usage: pvm_wild [W 1..%d]\n", MAXW);
		pvm_exit();
		return 2;
	}
	pvm_catchout(stderr);
	int nhost = 0, narch = 0;
	struct pvmhostinfo *hi = NULL;
	if (pvm_config(&nhost, &narch, &hi) < 0) {
		pvm_perror("pvm_wild: pvm_config");
		pvm_exit();
		return 1;
	}
	int tids[MAXW], total = 0;
	for (int w = 0; w < nw; w++) {
		char sw[16];
		snprintf(sw, sizeof sw, "%d", w);
		char *args[] = { sw, NULL };
		char *where = hi[(w + 1) % nhost].hi_name;
		if (pvm_spawn("pvm_wild", args, PvmTaskHost, where, 1, &tids[w]) != 1) {
			fprintf(stderr, "pvm_wild: spawn of %d on %s failed: %d\n", w, where,
				tids[w]);
			pvm_exit();
			return 1;
		}
		total += nmsgs(w);
	}

	/* 1. First arrival, seen by probing only. */
	double t0 = now();
	int probes = 0;
	while (pvm_probe(-1, -1) == 0) {
		probes++;
		if (now() - t0 > TIMEOUT) {
			fprintf(stderr, "pvm_wild: nothing arrived within %d s\n", TIMEOUT);
			pvm_exit();
			return 1;
		}
		pause_ms(1);
	}
	fprintf(stderr, "pvm_wild: first arrival after %d empty probes\n", probes);

	/* 2. Everything, with wildcard source and tag. */
	struct stat1 st[MAXW];
	memset(st, 0, sizeof st);
	for (int w = 0; w < nw; w++)
		st[w].order_ok = st[w].tagok = 1;
	int bad = 0, via[3] = { 0, 0, 0 };
	for (int c = 0; c < total; c++) {
		int b = 0;
		struct timeval tmo = { TIMEOUT, 0 };
		switch (c % 3) {
		case 0:
			b = pvm_recv(-1, -1);
			break;
		case 1:
			t0 = now();
			while ((b = pvm_nrecv(-1, -1)) == 0 && now() - t0 < TIMEOUT)
				pause_ms(1);
			break;
		case 2:
			b = pvm_trecv(-1, -1, &tmo);
			break;
		}
		if (b <= 0) {
			fprintf(stderr, "pvm_wild: receive %d (mode %d) failed: %d\n", c, c % 3, b);
			pvm_exit();
			return 1;
		}
		via[c % 3]++;
		int len, tag, src, w = -1, s = -1;
		double d;
		long l;
		char str[32];
		pvm_bufinfo(b, &len, &tag, &src);
		pvm_upkint(&w, 1, 1);
		pvm_upkint(&s, 1, 1);
		pvm_upkdouble(&d, 1, 1);
		pvm_upklong(&l, 1, 1);
		pvm_upkstr(str);
		if (w < 0 || w >= nw || tids[w] != src) {
			fprintf(stderr, "pvm_wild: message from t%x claims worker %d\n", src, w);
			bad++;
			continue;
		}
		fprintf(stderr, "arrival %d: worker %d seq %d tag %d\n", c, w, s, tag);
		struct stat1 *p = &st[w];
		if (s != p->next_seq)
			p->order_ok = 0;
		if (tag != 100 + s % 3)
			p->tagok = 0;
		p->next_seq = s + 1;
		p->count++;
		p->seqsum += s;
		p->dsum += d;
		p->lsum += l;
		snprintf(p->last, sizeof p->last, "%s", str);
	}

	/* 3. Final messages, received by explicit source in reverse order. */
	for (int w = 0; w < nw; w++) {
		pvm_initsend(PvmDataDefault);
		pvm_send(tids[w], TAG_GO);
	}
	t0 = now();
	for (int w = 0; w < nw; w++)
		while (pvm_probe(tids[w], TAG_LAST) == 0) {
			if (now() - t0 > TIMEOUT) {
				fprintf(stderr, "pvm_wild: no final message from %d\n", w);
				pvm_exit();
				return 1;
			}
			pause_ms(1);
		}
	int lastok = 0;
	for (int w = nw - 1; w >= 0; w--) {
		int who = -1;
		if (pvm_recv(tids[w], TAG_LAST) > 0 && pvm_upkint(&who, 1, 1) >= 0 && who == w)
			lastok++;
	}

	printf("wild: workers=%d messages=%d\n", nw, total);
	for (int w = 0; w < nw; w++) {
		struct stat1 *p = &st[w];
		int good = p->count == nmsgs(w) && p->order_ok && p->tagok;
		bad += !good;
		printf("worker %d: count=%d seqsum=%d dsum=%.2f lsum=%ld last=%s order=%s tags=%s\n",
		       w, p->count, p->seqsum, p->dsum, p->lsum, p->last,
		       p->order_ok ? "fifo" : "BROKEN", p->tagok ? "ok" : "BAD");
	}
	printf("final: %d of %d by explicit source\n", lastok, nw);
	fprintf(stderr, "pvm_wild: via recv=%d nrecv=%d trecv=%d\n", via[0], via[1], via[2]);
	bad += lastok != nw;
	printf("%s\n", bad ? "FAILED" : "OK");
	pvm_exit();
	return bad ? 1 : 0;
}
