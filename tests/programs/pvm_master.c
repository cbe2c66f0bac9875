/*
 * pvm_master.c — PVM master/worker test program (master side).
 *
 * Usage: pvm_master [NWORKERS]          (default 6, at most 32)
 *
 * Spawns NWORKERS copies of "pvm_worker" by bare name (so each host's
 * ep= directory supplies the binary built for that host) with three
 * placements: round-robin over the hosts of the virtual machine with
 * PvmTaskHost, one with PvmTaskArch (the architecture of the last host),
 * and the last with PvmTaskDefault (pvmd's choice).  Each worker gets a
 * block of ints plus a double, a long, a short and a string, and
 * replies with sums in the same types: the values go through XDR in both
 * directions, so a big-endian host exercises the byte-order conversion.
 *
 * stdout is deterministic — one line per worker sorted by worker index,
 * then the totals, then "OK" — and identical whatever host ran which
 * worker.  Where each worker ran (host and arch) goes to stderr as
 * "placement:" lines.  Exit status 0 only if every reply checked out.
 * Every wait is bounded (REPLY_TIMEOUT seconds per reply).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pvm3.h>

#define MAXW 32
#define TAG_WORK 11
#define TAG_RESULT 12
#define TAG_EXIT 13
#define REPLY_TIMEOUT 40

/* The block for worker I: its length and its J-th value (negative values
 * included so sign handling is exercised too). */
static int block_len(int i) { return 50 + 13 * i; }
static int block_val(int i, int j) { return (j * j * 31 + i * 977) % 20011 - 10000; }
static double block_scale(int i) { return 0.5 + 0.25 * i; }
/* PVM 3.4.6's XDR encoding carries a long as 32 bits, and on LP64 hosts
 * pvm_upklong does not sign-extend (measured: -5 comes back 4294967291), so
 * the longs sent stay in [0, 2^31) — base + sum is always positive. */
static long block_base(int i) { return 3000000L + 1234567L * i; }

struct result {
	int got;
	int tid;
	int n;
	int sum;
	short sh;
	double dsum;
	long lval;
	char str[64];
	char host[64];
	char arch[32];
};

/* Spawns worker I with FLAG/WHERE; returns its tid or exits on failure. */
static int spawn_one(int i, int flag, char *where)
{
	int tid = 0;
	int n = pvm_spawn("pvm_worker", NULL, flag, where, 1, &tid);
	if (n != 1) {
		fprintf(stderr, "pvm_master: spawn of worker %d (flag %d, %s) failed: %d\n",
			i, flag, where ? where : "-", n == 0 ? tid : n);
		pvm_exit();
		exit(1);
	}
	return tid;
}

int main(int argc, char **argv)
{
	int nw = argc > 1 ? atoi(argv[1]) : 6;
	if (nw < 1 || nw > MAXW) {
		fprintf(stderr, "usage: pvm_master [NWORKERS 1..%d]\n", MAXW);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	int mytid = pvm_mytid();
	if (mytid < 0) {
		pvm_perror("pvm_master: pvm_mytid");
		return 1;
	}
	/* Worker diagnostics (they print nothing on success) land on stderr. */
	pvm_catchout(stderr);

	int nhost = 0, narch = 0;
	struct pvmhostinfo *hi = NULL;
	if (pvm_config(&nhost, &narch, &hi) < 0 || nhost < 1) {
		pvm_perror("pvm_master: pvm_config");
		pvm_exit();
		return 1;
	}
	fprintf(stderr, "pvm_master: %d host(s), %d arch(s)\n", nhost, narch);

	int tids[MAXW];
	for (int i = 0; i < nw; i++) {
		if (i == nw - 1 && nw > 1)
			tids[i] = spawn_one(i, PvmTaskDefault, NULL);
		else if (i == nw - 2 && nw > 2)
			tids[i] = spawn_one(i, PvmTaskArch, hi[nhost - 1].hi_arch);
		else
			tids[i] = spawn_one(i, PvmTaskHost, hi[i % nhost].hi_name);
	}
	/* A dead worker must not leave the master waiting. */
	pvm_notify(PvmTaskExit, TAG_EXIT, nw, tids);

	for (int i = 0; i < nw; i++) {
		int n = block_len(i);
		int v[400];
		for (int j = 0; j < n; j++)
			v[j] = block_val(i, j);
		double scale = block_scale(i);
		long base = block_base(i);
		short sh = (short)(-1000 - i);
		char str[32];
		snprintf(str, sizeof str, "block-%d", i);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_pkint(&n, 1, 1);
		pvm_pkint(v, n, 1);
		pvm_pkdouble(&scale, 1, 1);
		pvm_pklong(&base, 1, 1);
		pvm_pkshort(&sh, 1, 1);
		pvm_pkstr(str);
		if (pvm_send(tids[i], TAG_WORK) < 0) {
			pvm_perror("pvm_master: pvm_send");
			pvm_exit();
			return 1;
		}
	}

	struct result res[MAXW];
	memset(res, 0, sizeof res);
	int bad = 0;
	struct timeval tmo = { REPLY_TIMEOUT, 0 };
	for (int k = 0; k < nw; k++) {
		int bufid = pvm_trecv(-1, -1, &tmo);
		if (bufid <= 0) {
			fprintf(stderr, "pvm_master: no reply within %d s (%d of %d)\n",
				REPLY_TIMEOUT, k, nw);
			pvm_exit();
			return 1;
		}
		int len, tag, src;
		pvm_bufinfo(bufid, &len, &tag, &src);
		if (tag == TAG_EXIT) {
			int dead = 0;
			pvm_upkint(&dead, 1, 1);
			int i;
			for (i = 0; i < nw && tids[i] != dead; i++)
				;
			if (i < nw && res[i].got) {
				k--; /* exited after replying: fine */
				continue;
			}
			fprintf(stderr, "pvm_master: worker t%x exited without replying\n", dead);
			pvm_exit();
			return 1;
		}
		if (tag != TAG_RESULT) {
			fprintf(stderr, "pvm_master: unexpected tag %d from t%x\n", tag, src);
			bad++;
			k--;
			continue;
		}
		int i = -1;
		pvm_upkint(&i, 1, 1);
		if (i < 0 || i >= nw || tids[i] != src || res[i].got) {
			fprintf(stderr, "pvm_master: bad reply index %d from t%x\n", i, src);
			bad++;
			continue;
		}
		struct result *r = &res[i];
		r->got = 1;
		r->tid = src;
		pvm_upkint(&r->n, 1, 1);
		pvm_upkint(&r->sum, 1, 1);
		pvm_upkdouble(&r->dsum, 1, 1);
		pvm_upklong(&r->lval, 1, 1);
		pvm_upkshort(&r->sh, 1, 1);
		pvm_upkstr(r->str);
		pvm_upkstr(r->host);
		pvm_upkstr(r->arch);
	}

	long tsum = 0;
	double tdsum = 0;
	for (int i = 0; i < nw; i++) {
		struct result *r = &res[i];
		int n = block_len(i), sum = 0;
		double dsum = 0;
		for (int j = 0; j < n; j++) {
			sum += block_val(i, j);
			dsum += block_val(i, j) * block_scale(i);
		}
		char str[64];
		snprintf(str, sizeof str, "block-%d:%d", i, n);
		int okv = r->n == n && r->sum == sum && r->dsum == dsum &&
			  r->lval == block_base(i) + sum && r->sh == (short)(-(-1000 - i)) &&
			  strcmp(r->str, str) == 0;
		if (!okv)
			bad++;
		printf("worker %d: n=%d sum=%d dsum=%.2f long=%ld short=%d str=%s %s\n", i,
		       r->n, r->sum, r->dsum, r->lval, r->sh, r->str, okv ? "ok" : "MISMATCH");
		fprintf(stderr, "placement: worker %d tid t%x host %s arch %s\n", i, r->tid,
			r->host, r->arch);
		tsum += r->sum;
		tdsum += r->dsum;
	}
	printf("total: workers=%d sum=%ld dsum=%.2f\n", nw, tsum, tdsum);
	printf("%s\n", bad ? "FAILED" : "OK");
	pvm_exit();
	return bad ? 1 : 0;
}
