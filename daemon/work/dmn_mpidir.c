/*
 * dmn_mpidir.c — where an MPI run's shared files go (dmn_work.h).
 *
 * Open MPI keeps a job's session directory ($TMPDIR/ompi.HOST.UID/pid.N:
 * its contact file, PMIx's shared stores) and each rank's shared-memory
 * segment (/dev/shm/vader_segment.HOST.JOB.RANK, 4 MiB) until the job
 * ends, and removes them then.  A job that is killed (`kill`, a run's
 * --timeout, the hang watchdog: paravtd kills mpirun's process group)
 * leaves them behind, and in /dev/shm they hold memory until a reboot:
 * 59 session directories and 187 segments (748 MiB) had piled up here
 * from two days of tests.
 *
 * So an MPI run on this host alone gets a directory of its own in memory,
 * next to the event rings (pvt_ring_memdir): mpi-NS-PID-PROC, NS the
 * daemon's pid namespace, PID the daemon's pid, PROC mpirun's process
 * number.  mpirun gets it as OMPI_MCA_orte_tmpdir_base and
 * OMPI_MCA_btl_vader_backing_directory (both passed on to the ranks),
 * unless the daemon's own environment sets them, and the daemon removes
 * it with everything in it when mpirun has ended.  A directory whose
 * daemon (same namespace) no longer runs is removed when the next MPI
 * run starts.  Runs across hosts keep Open MPI's places (the directory
 * would not exist on the other hosts), and so does a run when the
 * memory file system has less than DMN_MPIDIR_FREE free: a job's files
 * take 4 MiB a rank and some MiB of PMIx's stores, and in a file system
 * too small for them MPI_Init fails ("PMIX ERROR: OUT-OF-RESOURCE").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_work.h"
#include "pvt_ring.h"

#define DMN_MPIDIR_PREFIX "mpi-"
#define DMN_MPIDIR_SWEEP_S 60 /* a directory changed within: left alone */
#define DMN_MPIDIR_FREE ((uint64_t)256 << 20) /* bytes free it needs */

/* The variables that name the directory to Open MPI. */
static const char *const mpidir_vars[] = {
	"OMPI_MCA_orte_tmpdir_base",            /* session directory */
	"OMPI_MCA_btl_vader_backing_directory", /* ranks' segments */
	NULL
};

/* This process's pid namespace ("pid:[N]" of /proc/self/ns/pid), or 0
 * where there is none to read. */
static unsigned long mpidir_ns(void)
{
	char link[64];
	ssize_t n = readlink("/proc/self/ns/pid", link, sizeof link - 1);
	const char *p;

	if (n <= 0)
		return 0;
	link[n] = '\0';
	p = strchr(link, '[');
	return p == NULL ? 0 : strtoul(p + 1, NULL, 10);
}

/* The prefix of this namespace's directories, "mpi-NS-". */
static void mpidir_prefix(char *buf, size_t n)
{
	snprintf(buf, n, DMN_MPIDIR_PREFIX "%lu-", mpidir_ns());
}

/* Removes from mem (the memory directory) the directories of prefix pre
 * (this namespace's) whose daemons no longer run, and logs it. */
static void mpidir_sweep(const char *mem, const char *pre)
{
	uint64_t bytes = 0;
	int n = dmn_shm_sweep(mem, pre, DMN_MPIDIR_SWEEP_S, &bytes);

	if (n > 0)
		dmn_log(DMN_INFO, "MPI runs: removed %d director%s of %llu "
		        "bytes from %s: their daemons ended before their jobs "
		        "did", n, n == 1 ? "y" : "ies",
		        (unsigned long long)bytes, mem);
}

/* Whether the file system of dir has DMN_MPIDIR_FREE free; if not,
 * says so in the log for process num. */
static int mpidir_room(const char *dir, uint64_t num)
{
	struct statvfs sv;
	uint64_t avail;

	if (statvfs(dir, &sv) != 0)
		return 0;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail >= DMN_MPIDIR_FREE)
		return 1;
	dmn_log(DMN_INFO, "proc %llu: %s has %llu MiB free, less than %llu: "
	        "Open MPI's files go to its own places",
	        (unsigned long long)num, dir,
	        (unsigned long long)(avail >> 20),
	        (unsigned long long)(DMN_MPIDIR_FREE >> 20));
	return 0;
}

/* See dmn_work.h. */
void dmn_mpidir_use(dmn_proc *p, dmn_argv *e)
{
	char mem[DMN_PATH_MAX], pre[48];
	int i;

	p->mpidir[0] = '\0';
	for (i = 0; mpidir_vars[i] != NULL; i++)
		if (getenv(mpidir_vars[i]) != NULL)
			return; /* the daemon's user chose */
	if (pvt_ring_memdir(mem, sizeof mem, 1) == NULL)
		return; /* no memory file system: Open MPI's own places */
	mpidir_prefix(pre, sizeof pre);
	mpidir_sweep(mem, pre);
	if (!mpidir_room(mem, p->num))
		return;
	if (snprintf(p->mpidir, sizeof p->mpidir, "%s/%s%ld-%llu", mem, pre,
	             (long)getpid(), (unsigned long long)p->num) >=
	    (int)sizeof p->mpidir) {
		p->mpidir[0] = '\0';
		return;
	}
	(void)dmn_shm_rmtree(p->mpidir, NULL); /* a dead daemon's, same pid */
	if (mkdir(p->mpidir, 0700) != 0) {
		dmn_log(DMN_WARN, "proc %llu: %s: %s; Open MPI's files go to "
		        "its own places", (unsigned long long)p->num,
		        p->mpidir, strerror(errno));
		p->mpidir[0] = '\0';
		return;
	}
	for (i = 0; mpidir_vars[i] != NULL; i++)
		dmn_argv_addf(e, "%s=%s", mpidir_vars[i], p->mpidir);
}

/* See dmn_work.h. */
void dmn_mpidir_done(dmn_proc *p)
{
	uint64_t bytes = 0;
	int n;

	if (p->mpidir[0] == '\0')
		return;
	n = dmn_shm_rmtree(p->mpidir, &bytes);
	if (n < 0)
		dmn_log(DMN_WARN, "proc %llu: could not remove %s: %s",
		        (unsigned long long)p->num, p->mpidir,
		        strerror(errno));
	else if (n > 1) /* more than the directory: mpirun did not */
		dmn_log(DMN_INFO, "proc %llu: removed %d file(s) of %llu bytes "
		        "that the MPI job left in %s",
		        (unsigned long long)p->num, n - 1,
		        (unsigned long long)bytes, p->mpidir);
	p->mpidir[0] = '\0';
}

