/*
 * pvt_pvm_preload.c — the pvm_* names of libparavt_pvm.so: with
 * LD_PRELOAD=libparavt_pvm.so a PVM program built without paravt (only
 * linked with the shared libpvm3) is traced, without source locations.
 *
 * Each pvm_X here calls para_vt_pvm_X (para_vt_pvm.c, compiled for this
 * library with PVT_PVM_PRELOAD, so that its real calls go to the next
 * definition of the name: libpvm3's) with no call site.  A call made
 * while a wrapper is running — libgpvm3's pvm_bcast calling pvm_mcast,
 * libpvm3 calling its own exported functions — goes straight to the real
 * function, so one call of the program is one probe.  The runtime is
 * single-threaded, like PVM 3.4's library.
 *
 * Only the user's programs are traced.  PVM_EXPORT carries LD_PRELOAD
 * to every task pvmd starts, PVM's own included: the group server pvmgs,
 * which a task's first group call starts and which runs until the pvmd
 * halts (traced, the run would wait for it to its time limit).  So a task
 * that pvmd spawned (PVMEPID set, no PARAVT_PROC: not the daemon's own
 * process, which is what the user named with --exec) and whose program
 * is PVM's or the system's — named pvmgs, or its file (links resolved)
 * under PVM_ROOT (default /usr/lib/pvm3), /usr/bin, /bin, /usr/sbin,
 * /sbin, /usr/lib or /usr/libexec — is left alone: every pvm_* call goes
 * straight to libpvm3 and the runtime never starts (pre_foreign).
 *
 * Build: into libparavt_pvm.so with the runtime's PIC objects
 * (wrappers/module.mk), linked with -ldl.
 */
#include <limits.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/time.h>

#include <pvm3.h>

#define PARAVT_PVM_NO_MACROS
#include "paravt_pvm.h"
#include "pvt_pvm_real.h"

/* Calls of the program being traced now (0 or 1; more when PVM calls
 * its own exported names); stays 1 in a program of PVM's or the
 * system's (pre_foreign), whose calls all go straight to libpvm3. */
static int pre_depth;

/* True if path (absolute, links resolved) is dir or under it. */
static int pre_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' ||
	                                      path[n] == '\0');
}

/* True if this process is a task pvmd spawned from a program of PVM's or
 * the system's (see the top of the file); false when it cannot tell. */
static int pre_foreign(void)
{
	static const char *const sys[] = {"/usr/bin", "/bin", "/usr/sbin",
	                                  "/sbin", "/usr/lib", "/usr/libexec",
	                                  NULL};
	char exe[PATH_MAX], root[PATH_MAX];
	const char *pr = getenv("PVM_ROOT"), *base;
	ssize_t n;
	int i;

	if (getenv("PVMEPID") == NULL || getenv("PARAVT_PROC") != NULL)
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	base = strrchr(exe, '/') != NULL ? strrchr(exe, '/') + 1 : exe;
	if (strcmp(base, "pvmgs") == 0)
		return 1;
	if (realpath(pr != NULL && *pr != '\0' ? pr : "/usr/lib/pvm3",
	             root) != NULL && pre_under(exe, root))
		return 1;
	for (i = 0; sys[i] != NULL; i++)
		if (pre_under(exe, sys[i]))
			return 1;
	return 0;
}

/* Once, before the first call: a foreign program's calls all go straight
 * to libpvm3 from now on (pre_depth stays 1). */
static void pre_once(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	if (pre_foreign())
		pre_depth = 1;
}

/* See pvt_pvm_real.h. */
void *pvt__pvm_real(const char *name)
{
	static const char msg[] = "paravt: libparavt_pvm.so: the program's "
	                          "libraries define no ";
	void *p = dlsym(RTLD_NEXT, name);

	if (p == NULL) {
		(void)write(2, msg, sizeof msg - 1);
		(void)write(2, name, strlen(name));
		(void)write(2, "\n", 1);
		_exit(127);
	}
	return p;
}

/* The lookups declared in pvt_pvm_real.h. */
#define PRE_REAL_FN_(ret, name, params)                                     \
	ret (*pvt__pvm_real_##name(void)) params                            \
	{                                                                   \
		static ret (*fp) params;                                    \
		if (fp == NULL)                                             \
			*(void **)&fp = pvt__pvm_real(#name);               \
		return fp;                                                  \
	}
PVT_PVM_REALS(PRE_REAL_FN_)
#undef PRE_REAL_FN_

/* The body of an exported pvm_NAME(ARGS...) returning type T: the real
 * call when nested, else the wrapper. */
#define PRE(T, name, ...)                                                   \
	T rc;                                                               \
	pre_once();                                                         \
	if (pre_depth)                                                      \
		return PVM_REAL(name)(__VA_ARGS__);                         \
	pre_depth++;                                                        \
	rc = para_vt_##name(NULL, NULL, 0, __VA_ARGS__);                    \
	pre_depth--;                                                        \
	return rc

/* The same for a call without arguments. */
#define PRE0(name)                                                          \
	int rc;                                                             \
	pre_once();                                                         \
	if (pre_depth)                                                      \
		return PVM_REAL(name)();                                    \
	pre_depth++;                                                        \
	rc = para_vt_##name(NULL, NULL, 0);                                 \
	pre_depth--;                                                        \
	return rc

int pvm_send(int tid, int tag) { PRE(int, pvm_send, tid, tag); }
int pvm_psend(int tid, int tag, void *buf, int len, int type)
{
	PRE(int, pvm_psend, tid, tag, buf, len, type);
}
int pvm_recv(int tid, int tag) { PRE(int, pvm_recv, tid, tag); }
int pvm_nrecv(int tid, int tag) { PRE(int, pvm_nrecv, tid, tag); }
int pvm_trecv(int tid, int tag, struct timeval *tmo)
{
	PRE(int, pvm_trecv, tid, tag, tmo);
}
int pvm_precv(int tid, int tag, void *buf, int len, int type, int *rtid,
              int *rtag, int *rlen)
{
	PRE(int, pvm_precv, tid, tag, buf, len, type, rtid, rtag, rlen);
}
int pvm_probe(int tid, int tag) { PRE(int, pvm_probe, tid, tag); }
int pvm_mcast(int *tids, int n, int tag) { PRE(int, pvm_mcast, tids, n, tag); }
int pvm_bcast(char *group, int tag) { PRE(int, pvm_bcast, group, tag); }
int pvm_joingroup(char *group) { PRE(int, pvm_joingroup, group); }
int pvm_lvgroup(char *group) { PRE(int, pvm_lvgroup, group); }
int pvm_barrier(char *group, int n) { PRE(int, pvm_barrier, group, n); }
int pvm_reduce(void (*fn)(int *, void *, void *, int *, int *), void *data,
               int count, int type, int tag, char *group, int root)
{
	PRE(int, pvm_reduce, fn, data, count, type, tag, group, root);
}
int pvm_gather(void *res, void *data, int count, int type, int tag,
               char *group, int root)
{
	PRE(int, pvm_gather, res, data, count, type, tag, group, root);
}
int pvm_scatter(void *res, void *data, int count, int type, int tag,
                char *group, int root)
{
	PRE(int, pvm_scatter, res, data, count, type, tag, group, root);
}
int pvm_mytid(void) { PRE0(pvm_mytid); }
int pvm_parent(void) { PRE0(pvm_parent); }
int pvm_spawn(char *task, char **argv, int flag, char *where, int n,
              int *tids)
{
	PRE(int, pvm_spawn, task, argv, flag, where, n, tids);
}
int pvm_exit(void) { PRE0(pvm_exit); }
int pvm_kill(int tid) { PRE(int, pvm_kill, tid); }
int pvm_sendsig(int tid, int sig) { PRE(int, pvm_sendsig, tid, sig); }
int pvm_addhosts(char **hosts, int n, int *infos)
{
	PRE(int, pvm_addhosts, hosts, n, infos);
}
int pvm_delhosts(char **hosts, int n, int *infos)
{
	PRE(int, pvm_delhosts, hosts, n, infos);
}
int pvm_initsend(int enc) { PRE(int, pvm_initsend, enc); }
int pvm_notify(int what, int tag, int n, int *tids)
{
	PRE(int, pvm_notify, what, tag, n, tids);
}
int pvm_halt(void) { PRE0(pvm_halt); }
int pvm_gettid(char *group, int inst) { PRE(int, pvm_gettid, group, inst); }
int pvm_getinst(char *group, int tid) { PRE(int, pvm_getinst, group, tid); }
int pvm_gsize(char *group) { PRE(int, pvm_gsize, group); }
int pvm_freezegroup(char *group, int size)
{
	PRE(int, pvm_freezegroup, group, size);
}
int pvm_putinfo(char *name, int bufid, int flags)
{
	PRE(int, pvm_putinfo, name, bufid, flags);
}
int pvm_recvinfo(char *name, int index, int flags)
{
	PRE(int, pvm_recvinfo, name, index, flags);
}
int pvm_delinfo(char *name, int index, int flags)
{
	PRE(int, pvm_delinfo, name, index, flags);
}
int pvm_getmboxinfo(char *pattern, int *n, struct pvmmboxinfo **classes)
{
	PRE(int, pvm_getmboxinfo, pattern, n, classes);
}
int pvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp)
{
	PRE(int, pvm_tasks, where, ntask, taskp);
}
int pvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp)
{
	PRE(int, pvm_config, nhost, narch, hostp);
}
int pvm_pstat(int tid) { PRE(int, pvm_pstat, tid); }
int pvm_mstat(char *host) { PRE(int, pvm_mstat, host); }
int pvm_hostsync(int host, struct timeval *clk, struct timeval *delta)
{
	PRE(int, pvm_hostsync, host, clk, delta);
}
int pvm_siblings(int **tids) { PRE(int, pvm_siblings, tids); }
int (*pvm_recvf(int (*fn)(int, int, int)))(int (*)(int, int, int))
{
	para_vt_recvf_fn rc;

	pre_once();
	if (pre_depth)
		return PVM_REAL(pvm_recvf)(fn);
	pre_depth++;
	rc = para_vt_pvm_recvf(NULL, NULL, 0, fn);
	pre_depth--;
	return (pvt__pvm_recvf_ret)(void (*)(void))rc;
}
int pvm_addmhf(int src, int tag, int ctx, int (*fn)(int))
{
	PRE(int, pvm_addmhf, src, tag, ctx, fn);
}
int pvm_delmhf(int id) { PRE(int, pvm_delmhf, id); }
