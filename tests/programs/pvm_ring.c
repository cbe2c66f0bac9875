/*
 * pvm_ring.c — SPMD PVM test program: a token ring built on a group.
 *
 * Usage: pvm_ring [N [K [MS]]]  N instances in all (2..16, default 4),
 *                             K trips of the token round the ring (default
 *                             3), each instance holding the token MS
 *                             milliseconds before passing it on (default 0:
 *                             a run that lasts, for tests that interrupt it)
 *
 * The first copy (no PVM parent) joins group "ring" (instance 0) and spawns
 * N-1 copies of itself by bare name, round-robin over the hosts of the
 * virtual machine (PvmTaskHost, starting with the second host so a two-host
 * machine always has copies on both).  Then every instance:
 *   pvm_joingroup("ring"), pvm_barrier("ring", N),
 *   passes a token (int, double, long, string) to instance me+1 K times
 *   (pvm_send/pvm_recv; instance 0 starts and ends each trip),
 *   receives a pvm_bcast from instance 0 and acknowledges it,
 *   pvm_reduce(PvmSum) of (me, me*me), pvm_reduce(PvmSum) of me*1.5 as a
 *   double, pvm_reduce(PvmMax) of me, all rooted at instance 0,
 *   pvm_barrier again, pvm_lvgroup, pvm_exit.
 * Instance 0 prints the results (deterministic: they depend on instance
 * numbers only, not on which task got which) and "OK"; where each instance
 * ran goes to stderr as "placement:" lines.  Every receive is bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pvm3.h>

#define GROUP "ring"
#define TAG_TOKEN 21
#define TAG_BCAST 22
#define TAG_ACK 23
#define TAG_RED1 24
#define TAG_RED2 25
#define TAG_RED3 26
#define TIMEOUT 40

static int me = -1;

/* Gives up: leaves the group and PVM and exits with status 1. */
static void die(const char *what)
{
	fprintf(stderr, "pvm_ring[%d]: %s\n", me, what);
	pvm_lvgroup(GROUP);
	pvm_exit();
	exit(1);
}

/* pvm_trecv with the program's time limit; dies on timeout or error. */
static void recv_bounded(int tid, int tag, const char *what)
{
	struct timeval tmo = { TIMEOUT, 0 };
	int b = pvm_trecv(tid, tag, &tmo);
	if (b <= 0)
		die(what);
}

/* Name and architecture of the host this task runs on. */
static void my_host(char *host, size_t hl, char *arch, size_t al)
{
	int nhost = 0, narch = 0, dtid = pvm_tidtohost(pvm_mytid());
	struct pvmhostinfo *hi = NULL;
	snprintf(host, hl, "?");
	snprintf(arch, al, "?");
	if (pvm_config(&nhost, &narch, &hi) < 0)
		return;
	for (int h = 0; h < nhost; h++)
		if (hi[h].hi_tid == dtid) {
			snprintf(host, hl, "%s", hi[h].hi_name);
			snprintf(arch, al, "%s", hi[h].hi_arch);
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	int k = argc > 2 ? atoi(argv[2]) : 3;
	int ms = argc > 3 ? atoi(argv[3]) : 0;
	if (n < 2 || n > 16 || k < 1 || k > 100 || ms < 0 || ms > 1000) {
		fprintf(stderr, "usage: pvm_ring [N 2..16 [K 1..100 [MS 0..1000]]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	int mytid = pvm_mytid();
	if (mytid < 0) {
		pvm_perror("pvm_ring: pvm_mytid");
		return 1;
	}
	int root = pvm_parent() == PvmNoParent;
	char host[64], arch[32];
	my_host(host, sizeof host, arch, sizeof arch);

	if (root) {
		pvm_catchout(stderr);
		me = pvm_joingroup(GROUP);
		if (me != 0) {
			fprintf(stderr, "pvm_ring: joined as instance %d, not 0\n", me);
			die("group not fresh");
		}
		int nhost = 0, narch = 0;
		struct pvmhostinfo *hi = NULL;
		if (pvm_config(&nhost, &narch, &hi) < 0)
			die("pvm_config");
		char sn[16], sk[16], sm[16];
		snprintf(sn, sizeof sn, "%d", n);
		snprintf(sk, sizeof sk, "%d", k);
		snprintf(sm, sizeof sm, "%d", ms);
		char *args[] = { sn, sk, sm, NULL };
		for (int c = 1; c < n; c++) {
			int tid = 0;
			char *where = hi[c % nhost].hi_name;
			if (pvm_spawn("pvm_ring", args, PvmTaskHost, where, 1, &tid) != 1) {
				fprintf(stderr, "pvm_ring: spawn on %s failed: %d\n", where, tid);
				die("spawn");
			}
		}
		printf("ring: instances=%d rounds=%d\n", n, k);
	} else {
		me = pvm_joingroup(GROUP);
		if (me < 0)
			die("pvm_joingroup");
	}
	if (pvm_barrier(GROUP, n) < 0)
		die("pvm_barrier");
	if (pvm_gsize(GROUP) != n)
		die("group size after barrier");
	int next = pvm_gettid(GROUP, (me + 1) % n);
	int prev = pvm_gettid(GROUP, (me + n - 1) % n);
	if (next < 0 || prev < 0)
		die("pvm_gettid");

	/* The token: trip number, int and long accumulators, a double and the
	 * path it took. */
	int okt = 1;
	for (int r = 1; r <= k; r++) {
		int trip = r, acc = 0;
		double dacc = 0;
		long lacc = 0;
		char path[256] = "";
		if (me != 0) {
			recv_bounded(prev, TAG_TOKEN, "token");
			pvm_upkint(&trip, 1, 1);
			pvm_upkint(&acc, 1, 1);
			pvm_upkdouble(&dacc, 1, 1);
			pvm_upklong(&lacc, 1, 1);
			pvm_upkstr(path);
			if (trip != r)
				die("token trip out of order");
		}
		acc += me;
		dacc += me * 0.5;
		lacc += 100000L * me;
		size_t pl = strlen(path);
		snprintf(path + pl, sizeof path - pl, "%s%d", pl ? ">" : "", me);
		if (ms > 0) {
			struct timespec hold = {ms / 1000, (ms % 1000) * 1000000L};
			nanosleep(&hold, NULL);
		}
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&trip, 1, 1);
		pvm_pkint(&acc, 1, 1);
		pvm_pkdouble(&dacc, 1, 1);
		pvm_pklong(&lacc, 1, 1);
		pvm_pkstr(path);
		if (pvm_send(next, TAG_TOKEN) < 0)
			die("pvm_send token");
		if (me == 0) {
			recv_bounded(prev, TAG_TOKEN, "token back");
			pvm_upkint(&trip, 1, 1);
			pvm_upkint(&acc, 1, 1);
			pvm_upkdouble(&dacc, 1, 1);
			pvm_upklong(&lacc, 1, 1);
			pvm_upkstr(path);
			int want = n * (n - 1) / 2;
			if (trip != r || acc != want || dacc != want * 0.5 || lacc != 100000L * want)
				okt = 0;
			printf("trip %d: acc=%d dacc=%.2f lacc=%ld path=%s\n", trip, acc, dacc,
			       lacc, path);
		}
	}

	/* Broadcast from 0; everyone else checks it and acknowledges with
	 * where it runs. */
	int okb = 1;
	if (me == 0) {
		int v = n * k;
		double d = -2.75;
		long l = 2000000000L;
		pvm_initsend(PvmDataDefault);
		pvm_pkstr("hello ring");
		pvm_pkint(&v, 1, 1);
		pvm_pkdouble(&d, 1, 1);
		pvm_pklong(&l, 1, 1);
		if (pvm_bcast(GROUP, TAG_BCAST) < 0)
			die("pvm_bcast");
		int acks = 0, bad = 0;
		fprintf(stderr, "placement: instance 0 tid t%x host %s arch %s\n", mytid, host,
			arch);
		for (int i = 1; i < n; i++) {
			recv_bounded(-1, TAG_ACK, "ack");
			int inst, good;
			char h[64], a[32];
			pvm_upkint(&inst, 1, 1);
			pvm_upkint(&good, 1, 1);
			pvm_upkstr(h);
			pvm_upkstr(a);
			int src;
			pvm_bufinfo(pvm_getrbuf(), NULL, NULL, &src);
			fprintf(stderr, "placement: instance %d tid t%x host %s arch %s\n", inst,
				src, h, a);
			acks++;
			bad += !good;
		}
		printf("bcast: %d acks, %d bad\n", acks, bad);
		okb = bad == 0;
	} else {
		recv_bounded(pvm_gettid(GROUP, 0), TAG_BCAST, "bcast");
		char s[64];
		int v;
		double d;
		long l;
		pvm_upkstr(s);
		pvm_upkint(&v, 1, 1);
		pvm_upkdouble(&d, 1, 1);
		pvm_upklong(&l, 1, 1);
		int good = strcmp(s, "hello ring") == 0 && v == n * k && d == -2.75 &&
			   l == 2000000000L;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_pkint(&good, 1, 1);
		pvm_pkstr(host);
		pvm_pkstr(arch);
		if (pvm_send(pvm_gettid(GROUP, 0), TAG_ACK) < 0)
			die("pvm_send ack");
	}

	/* Reductions rooted at instance 0. */
	int iv[2] = { me, me * me };
	double dv = me * 1.5;
	int mx = me;
	if (pvm_reduce(PvmSum, iv, 2, PVM_INT, TAG_RED1, GROUP, 0) < 0)
		die("pvm_reduce int");
	if (pvm_reduce(PvmSum, &dv, 1, PVM_DOUBLE, TAG_RED2, GROUP, 0) < 0)
		die("pvm_reduce double");
	if (pvm_reduce(PvmMax, &mx, 1, PVM_INT, TAG_RED3, GROUP, 0) < 0)
		die("pvm_reduce max");
	int okr = 1;
	if (me == 0) {
		int s1 = 0, s2 = 0;
		for (int i = 0; i < n; i++) {
			s1 += i;
			s2 += i * i;
		}
		okr = iv[0] == s1 && iv[1] == s2 && dv == s1 * 1.5 && mx == n - 1;
		printf("reduce: sum=%d sumsq=%d dsum=%.2f max=%d\n", iv[0], iv[1], dv, mx);
	}
	/* Nobody leaves before the root has all contributions. */
	if (pvm_barrier(GROUP, n) < 0)
		die("pvm_barrier 2");
	pvm_lvgroup(GROUP);
	if (me == 0)
		printf("%s\n", okt && okb && okr ? "OK" : "FAILED");
	pvm_exit();
	return okt && okb && okr ? 0 : 1;
}
