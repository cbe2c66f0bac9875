/*
 * dmn_cgroup.h — how long a process's CPU cgroup was throttled: the time
 * its CPU quota (cgroup v1 cpu.cfs_quota_us, v2 cpu.max) kept every
 * process of the group off the processors.
 *
 * The CPU share (dmn_share.h) takes that time out of the waits it
 * shares the console's processor time over: a process in a group that
 * used up its quota waits for its quota, not for a console outside the
 * group.  Linux only (/proc/PID/cgroup, /proc/self/mountinfo); elsewhere
 * no file is found and nothing is taken out.
 */
#ifndef PARAVT_DMN_CGROUP_H
#define PARAVT_DMN_CGROUP_H

#include <stddef.h>
#include <stdint.h>

/* The path of the cpu.stat of process pid's CPU cgroup into buf (n
 * bytes): 0, or -1 when there is none (no cgroup with the cpu
 * controller, not Linux, the process gone, the path too long). */
int dmn_cgroup_stat_path(long pid, char *buf, size_t n);

/* Opens a cpu.stat path (close-on-exec): the descriptor, or -1. */
int dmn_cgroup_open(const char *path);

/* The group's throttled time so far, ns, from its cpu.stat open at fd
 * (v1 throttled_time in ns, v2 throttled_usec), and into *periods (when
 * not NULL) the quota periods it counted (nr_periods: more than 0 only
 * where a quota is set, 0 when the line is missing): 0, or -1 when the
 * throttled time cannot be read. */
int dmn_cgroup_throttled(int fd, uint64_t *ns, uint64_t *periods);

#endif
