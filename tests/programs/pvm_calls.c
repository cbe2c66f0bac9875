/*
 * pvm_calls.c — test program: the PVM calls paravt's wrappers trace, each
 * followed by the event it must have recorded (see mpi_calls.c and
 * tests/tools/evcheck.py for the line format):
 *
 *   N r=NAME tid=TID                     who NAME is
 *   X r=NAME kind=K op=O peer=P tag=T bytes=B comm=LABEL
 *
 * NAME is m (the master, run by hand) or c1, c2 (two copies it spawns
 * with the argument "child N").  LABEL names a message context: "base"
 * (the one every task starts in) and "ctx" (one the master makes and
 * hands out).  The lines go to the file $PVM_CALLS_X.NAME (the variable
 * reaches the children through PVM_EXPORT).  Group "calls", mailbox
 * "calls.box".  Prints "pvm_calls done" in the master; exit 0 on
 * success.  Messages are packed with PvmDataRaw, so bytes are exact.
 */
#include <pvm3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define ANY (-100000) /* printed as "*" */
#define G "calls"

static FILE *xout;
static const char *me = "m";
static int mytid, tids[3]; /* tids[0] master, 1 and 2 the children */
static volatile sig_atomic_t got_sig;

/* Prints an expected event. */
static void X(const char *kind, const char *op, int peer, int tag,
              long bytes, const char *comm)
{
	char p[16] = "*", t[16] = "*", b[24] = "*";

	if (peer != ANY)
		snprintf(p, sizeof p, "%d", peer);
	if (tag != ANY)
		snprintf(t, sizeof t, "%d", tag);
	if (bytes != ANY)
		snprintf(b, sizeof b, "%ld", bytes);
	fprintf(xout, "X r=%s kind=%s op=%s peer=%s tag=%s bytes=%s comm=%s\n",
	        me, kind, op, p, t, b, comm);
	fflush(xout);
}

/* Stops with a message when rc < 0. */
static int ok(int rc, const char *what)
{
	if (rc < 0) {
		fprintf(stderr, "%s: %s failed (%d)\n", me, what, rc);
		pvm_exit();
		exit(1);
	}
	return rc;
}

/* Opens the X file of this task and says who it is. */
static void open_x(void)
{
	char path[1024];
	const char *base = getenv("PVM_CALLS_X");

	xout = stdout;
	if (base != NULL) {
		snprintf(path, sizeof path, "%s.%s", base, me);
		if ((xout = fopen(path, "w")) == NULL) {
			perror(path);
			exit(2);
		}
	}
	fprintf(xout, "N r=%s tid=%d\n", me, mytid);
}

/* Sends n ints to tid with tag (raw encoding). */
static void send_ints(int tid, int tag, int n)
{
	int v[16] = {0};

	ok(pvm_initsend(PvmDataRaw), "initsend");
	ok(pvm_pkint(v, n, 1), "pkint");
	ok(pvm_send(tid, tag), "send");
}

static void on_usr1(int sig)
{
	(void)sig;
	got_sig = 1;
}

/* A matching function that takes any message of the tag asked for. */
static int (*old_recvf)(int, int, int);
static int match_tag(int bufid, int tid, int tag)
{
	int len, t, src;

	(void)tid;
	if (pvm_bufinfo(bufid, &len, &t, &src) < 0)
		return -1;
	return tag == -1 || t == tag ? 1 : 0;
}

static int handler(int mid)
{
	(void)mid;
	return 0;
}

/* ---- master ----------------------------------------------------------------- */

/* Point to point and multicast from the master. */
static void master_msgs(void)
{
	int v[4] = {1, 2, 3, 4}, rt, rg, rl, bufid;
	struct timeval tmo = {5, 0};

	send_ints(tids[1], 1, 5);
	X("send_end", "pvm_send", tids[1], 1, 20, "base");
	ok(pvm_psend(tids[2], 2, v, 3, PVM_INT), "psend");
	X("send_end", "pvm_psend", tids[2], 2, 12, "base");
	ok(pvm_initsend(PvmDataRaw), "initsend");
	X("special_end", "pvm_initsend", -1, ANY, ANY, "base");
	ok(pvm_pkint(v, 2, 1), "pkint");
	ok(pvm_mcast(tids + 1, 2, 3), "mcast");
	X("mcast_end", "pvm_mcast", -1, 3, 8, "base");
	X("mcast_dest", "pvm_mcast", tids[1], 3, 8, "base");
	X("mcast_dest", "pvm_mcast", tids[2], 3, 8, "base");
	ok(pvm_initsend(PvmDataRaw), "initsend");
	ok(pvm_pkint(v, 1, 1), "pkint");
	ok(pvm_bcast(G, 4), "bcast");
	X("mcast_end", "pvm_bcast", -1, 4, 4, "base");
	/* answers: recv, trecv (wildcard), precv, probe + nrecv */
	ok(pvm_recv(tids[1], 5), "recv");
	X("recv_end", "pvm_recv", tids[1], 5, 4, "base");
	ok(pvm_trecv(-1, 6, &tmo), "trecv");
	X("recv_start", "pvm_trecv", -1, 6, ANY, "base");
	X("recv_end", "pvm_trecv", tids[2], 6, 8, "base");
	ok(pvm_precv(tids[1], 7, v, 4, PVM_INT, &rt, &rg, &rl), "precv");
	X("recv_end", "pvm_precv", tids[1], 7, 16, "base");
	while (pvm_probe(tids[2], 8) <= 0)
		;
	X("recv_end", "pvm_probe", tids[2], 8, 12, "base");
	do
		bufid = ok(pvm_nrecv(tids[2], 8), "nrecv");
	while (bufid == 0);
	X("recv_end", "pvm_nrecv", tids[2], 8, 12, "base");
}

/* A new context handed to c1, and a message in it. */
static void master_context(void)
{
	int ctx = ok(pvm_newcontext(), "newcontext"), old;

	ok(pvm_initsend(PvmDataRaw), "initsend");
	ok(pvm_pkint(&ctx, 1, 1), "pkint");
	ok(pvm_send(tids[1], 9), "send");
	old = pvm_setcontext(ctx);
	send_ints(tids[1], 10, 2);
	X("send_end", "pvm_send", tids[1], 10, 8, "ctx");
	ok(pvm_recv(tids[1], 11), "recv");
	X("recv_end", "pvm_recv", tids[1], 11, 4, "ctx");
	pvm_setcontext(old);
	pvm_freecontext(ctx);
}

/* Group calls and queries. */
static void master_groups(void)
{
	int v[2] = {1, 2}, all[6], inst;

	ok(pvm_barrier(G, 3), "barrier");
	X("group_end", "pvm_barrier", -1, ANY, ANY, "base");
	ok(pvm_reduce(PvmSum, v, 2, PVM_INT, 20, G, 0), "reduce");
	X("group_end", "pvm_reduce", 0, 20, 8, "base");
	ok(pvm_gather(all, v, 2, PVM_INT, 21, G, 0), "gather");
	X("group_end", "pvm_gather", 0, 21, 8, "base");
	ok(pvm_scatter(v, all, 2, PVM_INT, 22, G, 0), "scatter");
	X("group_end", "pvm_scatter", 0, 22, 8, "base");
	inst = ok(pvm_getinst(G, tids[1]), "getinst");
	X("special_end", "pvm_getinst", tids[1], ANY, ANY, "base");
	ok(pvm_gettid(G, inst), "gettid");
	X("special_end", "pvm_gettid", tids[1], ANY, ANY, "base");
	ok(pvm_gsize(G), "gsize");
	X("special_end", "pvm_gsize", -1, ANY, ANY, "base");
}

/* The virtual machine's queries, handlers, mailbox, signals. */
static void master_vm(void)
{
	struct pvmhostinfo *hosts;
	struct pvmtaskinfo *tasks;
	struct pvmmboxinfo *boxes;
	struct timeval clk, delta;
	int nhost, narch, ntask, nbox, *sibs, id;

	ok(pvm_config(&nhost, &narch, &hosts), "config");
	X("special_end", "pvm_config", -1, ANY, ANY, "base");
	ok(pvm_tasks(0, &ntask, &tasks), "tasks");
	X("special_end", "pvm_tasks", 0, ANY, ANY, "base");
	ok(pvm_pstat(tids[1]), "pstat");
	X("special_end", "pvm_pstat", tids[1], ANY, ANY, "base");
	ok(pvm_mstat(hosts[0].hi_name), "mstat");
	X("special_end", "pvm_mstat", -1, ANY, ANY, "base");
	ok(pvm_hostsync(hosts[0].hi_tid, &clk, &delta), "hostsync");
	X("special_end", "pvm_hostsync", hosts[0].hi_tid, ANY, ANY, "base");
	ok(pvm_siblings(&sibs), "siblings");
	X("special_end", "pvm_siblings", -1, ANY, ANY, "base");
	old_recvf = pvm_recvf(match_tag);
	X("special_end", "pvm_recvf", -1, ANY, ANY, "base");
	pvm_recvf(old_recvf);
	id = ok(pvm_addmhf(tids[2], 98, -1, handler), "addmhf");
	X("special_end", "pvm_addmhf", tids[2], 98, ANY, "base");
	ok(pvm_delmhf(id), "delmhf");
	X("special_end", "pvm_delmhf", -1, ANY, ANY, "base");
	ok(pvm_initsend(PvmDataRaw), "initsend");
	ok(pvm_pkint(&nhost, 1, 1), "pkint");
	ok(pvm_putinfo(G ".box", pvm_getsbuf(), PvmMboxDefault), "putinfo");
	X("special_end", "pvm_putinfo", -1, ANY, 4, "base");
	send_ints(tids[1], 15, 1); /* c1 may look in the mailbox now */
	ok(pvm_getmboxinfo(G ".*", &nbox, &boxes), "getmboxinfo");
	X("special_end", "pvm_getmboxinfo", -1, ANY, ANY, "base");
	ok(pvm_sendsig(tids[2], SIGUSR1), "sendsig");
	X("special_end", "pvm_sendsig", tids[2], ANY, ANY, "base");
	ok(pvm_notify(PvmTaskExit, 99, 1, &tids[2]), "notify");
	X("special_end", "pvm_notify", -1, 99, ANY, "base");
}

static int master(void)
{
	char *args[] = {"child", NULL, NULL};
	int n;

	pvm_catchout(stdout);
	ok(pvm_joingroup(G), "joingroup");
	X("group_end", "pvm_joingroup", -1, ANY, ANY, "base");
	args[1] = "1";
	n = pvm_spawn("pvm_calls", args, PvmTaskDefault, NULL, 1, &tids[1]);
	X("special_end", "pvm_spawn", tids[1], ANY, ANY, "base");
	args[1] = "2";
	n += pvm_spawn("pvm_calls", args, PvmTaskDefault, NULL, 1, &tids[2]);
	if (n != 2) {
		fprintf(stderr, "m: spawned %d of 2\n", n);
		pvm_exit();
		return 1;
	}
	master_groups();
	master_msgs();
	master_context();
	master_vm();
	ok(pvm_recv(-1, 99), "recv"); /* c2 ended (notify, from a pvmd) */
	X("recv_end", "pvm_recv", ANY, 99, ANY, "base");
	ok(pvm_recv(tids[1], 12), "recv");
	ok(pvm_kill(tids[1]), "kill");
	X("special_end", "pvm_kill", tids[1], ANY, ANY, "base");
	ok(pvm_delinfo(G ".box", 0, 0), "delinfo");
	X("special_end", "pvm_delinfo", -1, ANY, ANY, "base");
	ok(pvm_lvgroup(G), "lvgroup");
	X("group_end", "pvm_lvgroup", -1, ANY, ANY, "base");
	printf("pvm_calls done\n");
	fflush(stdout);
	pvm_exit();
	return 0;
}

/* ---- children --------------------------------------------------------------- */

/* The group calls a child makes (root: instance 0, the master). */
static void child_groups(void)
{
	int v[2] = {3, 4}, r[2];

	ok(pvm_barrier(G, 3), "barrier");
	X("group_end", "pvm_barrier", -1, ANY, ANY, "base");
	ok(pvm_reduce(PvmSum, v, 2, PVM_INT, 20, G, 0), "reduce");
	X("group_end", "pvm_reduce", 0, 20, 8, "base");
	ok(pvm_gather(NULL, v, 2, PVM_INT, 21, G, 0), "gather");
	ok(pvm_scatter(r, NULL, 2, PVM_INT, 22, G, 0), "scatter");
	X("group_end", "pvm_scatter", 0, 22, 8, "base");
}

static int child(int n)
{
	int v[4] = {0}, rt, rg, rl, ctx, old, bufid;
	struct timeval tmo = {5, 0};

	tids[0] = pvm_parent();
	X("special_end", "pvm_parent", tids[0], ANY, ANY, "base");
	signal(SIGUSR1, on_usr1);
	ok(pvm_joingroup(G), "joingroup");
	child_groups();
	if (n == 1) {
		ok(pvm_recv(tids[0], 1), "recv");
		X("recv_end", "pvm_recv", tids[0], 1, 20, "base");
	} else {
		ok(pvm_precv(tids[0], 2, v, 4, PVM_INT, &rt, &rg, &rl),
		   "precv");
		X("recv_end", "pvm_precv", tids[0], 2, 12, "base");
	}
	ok(pvm_recv(-1, 3), "recv");
	X("recv_end", "pvm_recv", tids[0], 3, 8, "base");
	ok(pvm_trecv(tids[0], 4, &tmo), "trecv");
	X("recv_end", "pvm_trecv", tids[0], 4, 4, "base");
	if (n == 1) {
		send_ints(tids[0], 5, 1);
		ok(pvm_psend(tids[0], 7, v, 4, PVM_INT), "psend");
		ok(pvm_recv(tids[0], 9), "recv");
		ok(pvm_upkint(&ctx, 1, 1), "upkint");
		old = pvm_setcontext(ctx);
		ok(pvm_recv(tids[0], 10), "recv");
		X("recv_end", "pvm_recv", tids[0], 10, 8, "ctx");
		send_ints(tids[0], 11, 1);
		X("send_end", "pvm_send", tids[0], 11, 4, "ctx");
		pvm_setcontext(old);
		ok(pvm_recv(tids[0], 15), "recv");
		bufid = ok(pvm_recvinfo(G ".box", 0, PvmMboxDefault),
		           "recvinfo");
		X("special_end", "pvm_recvinfo", ANY, ANY, 4, "base");
		(void)bufid;
		send_ints(tids[0], 12, 1);
		ok(pvm_recv(tids[0], 13), "recv"); /* killed meanwhile */
		return 0;
	}
	send_ints(tids[0], 6, 2);
	send_ints(tids[0], 8, 3);
	while (!got_sig) /* pvm_sendsig from the master */
		(void)pvm_trecv(tids[0], 14, &(struct timeval){0, 10000});
	ok(pvm_lvgroup(G), "lvgroup");
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	mytid = pvm_mytid();
	if (mytid < 0) {
		pvm_perror("pvm_calls");
		return 1;
	}
	if (argc > 2 && strcmp(argv[1], "child") == 0)
		me = strcmp(argv[2], "1") == 0 ? "c1" : "c2";
	open_x();
	X("special_end", "pvm_mytid", -1, ANY, ANY, "base");
	if (strcmp(me, "m") == 0) {
		tids[0] = mytid;
		return master();
	}
	return child(strcmp(me, "c1") == 0 ? 1 : 2);
}
