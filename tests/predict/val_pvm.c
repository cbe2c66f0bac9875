/*
 * val_pvm.c — the PVM program of the prediction's validation
 * (tests/predict/validate.sh): val_mpi.c's four communication patterns
 * between two PVM tasks, the master and ONE worker, a copy of the same
 * binary that the master spawns.  The work is CPU time (a busy loop that
 * mixes integer and floating point: qemu-user emulates the two at very
 * different costs, so a node's speed factor depends on the mix) and the
 * messages are large enough for the bandwidth to matter.
 *
 * Usage: run pvm NODE val_pvm PATTERN ITERS BYTES WORK [HOST]
 *   the master (no PVM parent) spawns val_pvm PATTERN ITERS BYTES WORK on
 *   HOST (PvmTaskHost: the host's name as the virtual machine knows it,
 *   for paravt a node's address), or where pvmd likes (PvmTaskDefault);
 *   the worker is the task whose pvm_parent() is a tid.
 *   ring     a token of BYTES goes round ITERS times; each task works
 *            WORK units before passing it on
 *   mw       the master hands out ITERS tasks of BYTES, one at a time, a
 *            task is WORK units, the answer 64 bytes; the master merges
 *            (WORK / 8) each answer
 *   pipe     the master makes ITERS items of BYTES (WORK units each), the
 *            worker does WORK / 2 with each
 *   stencil  a 1-D domain of two parts, ITERS steps of WORK units, then a
 *            halo of BYTES each way and, every 10 steps, the residual
 *            each way (an all-reduce of two)
 * Messages are PvmDataDefault (XDR: the worker may be big-endian), the
 * data packed with pvm_pkbyte; routing is direct (PvmRouteDirect: a TCP
 * connection between the two tasks, seen with ss, opened by a message
 * each way before the pattern: see hello()), in fragments of 64 KB
 * (PvmFragSize; PVM's default 4 KB made the pipe's spans spread more).  At
 * the end the worker sends the master the count of bad messages it saw.
 * A unit of work is 35000 iterations of a 64-bit integer multiply-add and
 * 25000 of a floating-point one: about 0.1 ms natively, half each (under
 * qemu-s390x about 1.2 ms: the integer half 3x, the floating-point 20x).
 * The master prints "val_pvm PATTERN: OK" when the checks pass; exit 0.
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_RING 1
#define TAG_TASK 2
#define TAG_ANSWER 3
#define TAG_END 4
#define TAG_ITEM 5
#define TAG_HALO 6
#define TAG_RESID 8
#define TAG_DONE 9
#define TAG_HELLO 10

static volatile double sink_d;
static volatile unsigned long long sink_i;
static int bad;	/* messages that did not check out */

/* n units of CPU work: an integer chain, then a floating-point one. */
static void work(long n)
{
	unsigned long long k = 1;
	double x = 1.0;
	long i;

	for (i = 0; i < n * 35000L; i++)
		k = k * 6364136223846793005ULL + 1442695040888963407ULL;
	for (i = 0; i < n * 25000L; i++)
		x = x * 1.0000001 + 1e-9;
	sink_i = k;
	sink_d = x;
}

/* Sends BYTES of BUF (its first byte set to SEQ) to TID with TAG. */
static void send_buf(int tid, int tag, char *buf, int bytes, int seq)
{
	if (bytes > 0)
		buf[0] = (char)seq;
	pvm_initsend(PvmDataDefault);
	pvm_pkbyte(buf, bytes, 1);
	if (pvm_send(tid, tag) < 0) {
		pvm_perror("val_pvm: pvm_send");
		bad++;
	}
}

/* Receives BYTES from TID with TAG into BUF; counts a message of another
 * length, or whose first byte is not SEQ or whose last is not 'z', as bad.
 * Returns the message's tag (TAG may be -1). */
static int recv_buf(int tid, int tag, char *buf, int bytes, int seq)
{
	int len = -1, rtag = -1, src;

	if (pvm_recv(tid, tag) < 0 ||
	    pvm_bufinfo(pvm_getrbuf(), &len, &rtag, &src) < 0) {
		pvm_perror("val_pvm: pvm_recv");
		bad++;
		return -1;
	}
	if (rtag == TAG_END)
		return rtag;
	if (len != bytes && len < bytes) {
		fprintf(stderr, "val_pvm: message %d tag %d from t%x: %d "
			"bytes, not %d\n", seq, rtag, src, len, bytes);
		bad++;
	} else if (pvm_upkbyte(buf, bytes, 1) < 0 ||
		   (bytes > 0 && (buf[0] != (char)seq || buf[bytes - 1] != 'z'))) {
		fprintf(stderr, "val_pvm: message %d tag %d from t%x: first "
			"byte %d, last %d\n", seq, rtag, src, buf[0],
			buf[bytes - 1]);
		bad++;
	}
	return rtag;
}

static void ring(int master, int peer, int iters, char *buf, int bytes,
		 long w)
{
	int it;

	for (it = 0; it < iters; it++) {
		if (master) {
			work(w);
			send_buf(peer, TAG_RING, buf, bytes, it);
			recv_buf(peer, TAG_RING, buf, bytes, it);
		} else {
			recv_buf(peer, TAG_RING, buf, bytes, it);
			work(w);
			send_buf(peer, TAG_RING, buf, bytes, it);
		}
	}
}

/* Master/worker with one worker: a task, its answer, the next task. */
static void mw(int master, int peer, int iters, char *buf, int bytes,
	       long w)
{
	char ans[64];
	int it;

	memset(ans, 'z', sizeof ans);
	if (!master) {
		for (it = 0;; it++) {
			if (recv_buf(peer, -1, buf, bytes, it) == TAG_END)
				return;
			work(w);
			send_buf(peer, TAG_ANSWER, ans, sizeof ans, it);
		}
	}
	if (iters > 0)
		send_buf(peer, TAG_TASK, buf, bytes, 0);
	for (it = 0; it < iters; it++) {
		recv_buf(peer, TAG_ANSWER, ans, sizeof ans, it);
		if (it + 1 < iters)
			send_buf(peer, TAG_TASK, buf, bytes, it + 1);
		work(w / 8);
	}
	pvm_initsend(PvmDataDefault);
	pvm_send(peer, TAG_END);
}

static void pipe_(int master, int peer, int iters, char *buf, int bytes,
		  long w)
{
	int it;

	for (it = 0; it < iters; it++) {
		if (master) {
			work(w);
			send_buf(peer, TAG_ITEM, buf, bytes, it);
		} else {
			recv_buf(peer, TAG_ITEM, buf, bytes, it);
			work(w / 2);
		}
	}
}

static void stencil(int peer, int iters, char *buf, int bytes, long w)
{
	char *in = malloc((size_t)bytes + 1);
	double r = 1, other;
	int it;

	for (it = 0; it < iters; it++) {
		work(w);
		send_buf(peer, TAG_HALO, buf, bytes, it);
		recv_buf(peer, TAG_HALO, in, bytes, it);
		if (it % 10 == 9) {
			pvm_initsend(PvmDataDefault);
			pvm_pkdouble(&r, 1, 1);
			pvm_send(peer, TAG_RESID);
			pvm_recv(peer, TAG_RESID);
			if (pvm_upkdouble(&other, 1, 1) < 0 || other != r) {
				fprintf(stderr, "val_pvm: step %d: residual "
					"%g, not %g\n", it, other, r);
				bad++;
			}
		}
	}
	free(in);
}

/* A message each way, the master's first: it opens the direct TCP
 * connection before the pattern begins.  Without it the stencil, where
 * both send first, had its first two halos from the worker arrive
 * swapped under tc tbf (each task asks for the connection at once; the
 * first message went through the pvmds, the second direct, and overtook
 * it). */
static void hello(int master, int peer)
{
	int x = 1;

	if (!master)
		pvm_recv(peer, TAG_HELLO);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&x, 1, 1);
	pvm_send(peer, TAG_HELLO);
	if (master)
		pvm_recv(peer, TAG_HELLO);
}

/* The master: spawns the worker on HOST (NULL: anywhere) with ARGS;
 * returns its tid, or a negative PVM error. */
static int spawn_worker(char **args, char *host)
{
	int tid = 0, n;

	n = pvm_spawn("val_pvm", args, host ? PvmTaskHost : PvmTaskDefault,
		      host, 1, &tid);
	if (n != 1) {
		fprintf(stderr, "val_pvm: spawn on %s failed: %d\n",
			host ? host : "any host", n < 0 ? n : tid);
		return n < 0 ? n : (tid < 0 ? tid : -1);
	}
	return tid;
}

int main(int argc, char **argv)
{
	int master, peer, iters, bytes, wbad = -1;
	long w;
	char *buf;

	if (pvm_mytid() < 0) {
		pvm_perror("val_pvm: pvm_mytid");
		return 1;
	}
	master = pvm_parent() == PvmNoParent;
	if (argc < 5 || argc > 6 || (!master && argc != 5)) {
		fprintf(stderr, "usage: val_pvm ring|mw|pipe|stencil ITERS "
			"BYTES WORK [HOST]\n");
		pvm_exit();
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	pvm_setopt(PvmRoute, PvmRouteDirect);
	pvm_setopt(PvmFragSize, 65536);
	iters = atoi(argv[2]);
	bytes = atoi(argv[3]);
	w = atol(argv[4]);
	if (master) {
		char *host = argc == 6 ? argv[5] : NULL;

		argv[5] = NULL;	/* the worker's arguments: argv[1..4] */
		peer = spawn_worker(argv + 1, host);
	} else {
		peer = pvm_parent();
	}
	if (peer < 0) {
		pvm_exit();
		return 1;
	}
	hello(master, peer);
	buf = malloc((size_t)bytes + 1);
	memset(buf, 'z', (size_t)bytes + 1);
	if (strcmp(argv[1], "ring") == 0)
		ring(master, peer, iters, buf, bytes, w);
	else if (strcmp(argv[1], "mw") == 0)
		mw(master, peer, iters, buf, bytes, w);
	else if (strcmp(argv[1], "pipe") == 0)
		pipe_(master, peer, iters, buf, bytes, w);
	else if (strcmp(argv[1], "stencil") == 0)
		stencil(peer, iters, buf, bytes, w);
	else
		bad = 1000;
	if (master) {
		pvm_recv(peer, TAG_DONE);
		pvm_upkint(&wbad, 1, 1);
		printf("val_pvm %s: %s\n", argv[1],
		       bad || wbad ? "FAILED" : "OK");
		if (bad || wbad)
			fprintf(stderr, "val_pvm: %d bad here, %d at the "
				"worker\n", bad, wbad);
	} else {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&bad, 1, 1);
		pvm_send(peer, TAG_DONE);
	}
	free(buf);
	pvm_exit();
	return master && (bad || wbad) ? 1 : 0;
}
