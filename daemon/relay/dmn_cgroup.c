/*
 * dmn_cgroup.c — the throttled time of a process's CPU cgroup
 * (dmn_cgroup.h): finding its cpu.stat through /proc/PID/cgroup and the
 * cgroup mounts, and reading it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn_cgroup.h"

#define CG_LINE 1024

/* Whether word w is one of the comma-separated words of list. */
static int cg_has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, w, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* Process pid's cgroup of the cpu controller into path (n bytes), and
 * whether it is in the v2 hierarchy (*v2): a v1 line naming cpu wins
 * over the v2 line (the controller is then on v1).  0, or -1. */
static int cg_of(long pid, char *path, size_t n, int *v2)
{
	char file[64], line[CG_LINE], *c1, *c2;
	int found = 0;
	FILE *f;

	snprintf(file, sizeof file, "/proc/%ld/cgroup", pid);
	if ((f = fopen(file, "r")) == NULL)
		return -1;
	while (found != 1 && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((c1 = strchr(line, ':')) == NULL ||
		    (c2 = strchr(c1 + 1, ':')) == NULL ||
		    strlen(c2 + 1) >= n)
			continue;
		*c2 = '\0';
		if (cg_has_word(c1 + 1, "cpu"))
			found = 1;
		else if (strcmp(line, "0") == 0 && c1[1] == '\0' && !found)
			found = 2;
		else
			continue;
		*v2 = found == 2;
		snprintf(path, n, "%s", c2 + 1);
	}
	fclose(f);
	return found ? 0 : -1;
}

/* The mount of the cgroup hierarchy (v2, or v1 with the cpu controller)
 * from one /proc/self/mountinfo line: its mount point and the root of
 * the hierarchy it shows, into mnt and root (n bytes each).  0, or -1
 * when the line is another mount. */
static int cg_mount_of(char *line, int v2, char *mnt, char *root, size_t n)
{
	char *sep = strstr(line, " - "), *f[5], *type, *opts, *save = NULL;
	int i;

	if (sep == NULL)
		return -1;
	*sep = '\0';
	type = strtok_r(sep + 3, " ", &save);
	(void)strtok_r(NULL, " ", &save); /* the source */
	opts = strtok_r(NULL, " \n", &save);
	if (type == NULL || opts == NULL ||
	    (v2 ? strcmp(type, "cgroup2") != 0
	        : strcmp(type, "cgroup") != 0 || !cg_has_word(opts, "cpu")))
		return -1;
	save = NULL;
	for (i = 0; i < 5; i++)
		if ((f[i] = strtok_r(i ? NULL : line, " ", &save)) == NULL)
			return -1;
	if (strlen(f[3]) >= n || strlen(f[4]) >= n)
		return -1;
	snprintf(root, n, "%s", f[3]);
	snprintf(mnt, n, "%s", f[4]);
	return 0;
}

int dmn_cgroup_stat_path(long pid, char *buf, size_t n)
{
	char cg[CG_LINE], line[CG_LINE], mnt[CG_LINE], root[CG_LINE];
	const char *rel;
	size_t rl;
	int v2, found = 0;
	FILE *f;

	if (pid <= 0 || cg_of(pid, cg, sizeof cg, &v2) != 0 ||
	    (f = fopen("/proc/self/mountinfo", "r")) == NULL)
		return -1;
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = cg_mount_of(line, v2, mnt, root, sizeof mnt) == 0;
	fclose(f);
	if (!found)
		return -1;
	rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
	if (rl > 0 && (strncmp(cg, root, rl) != 0 ||
	               (cg[rl] != '/' && cg[rl] != '\0')))
		return -1; /* the group is outside what this mount shows */
	rel = cg + rl;
	if (strcmp(rel, "/") == 0)
		rel = "";
	if ((size_t)snprintf(buf, n, "%s%s/cpu.stat", mnt, rel) >= n)
		return -1;
	return 0;
}

int dmn_cgroup_open(const char *path)
{
	int fd = open(path, O_RDONLY);

#ifdef FD_CLOEXEC
	if (fd >= 0)
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
#endif
	return fd;
}

/* The value of the line "name N" of text b into *v: 0, or -1 when no
 * line starts with name. */
static int cg_field(const char *b, const char *name, uint64_t *v)
{
	size_t n = strlen(name);
	const char *p = b;

	while (p != NULL) {
		if (strncmp(p, name, n) == 0 && p[n] == ' ') {
			*v = strtoull(p + n + 1, NULL, 10);
			return 0;
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return -1;
}

int dmn_cgroup_throttled(int fd, uint64_t *ns, uint64_t *periods)
{
	char b[1024];
	ssize_t n = pread(fd, b, sizeof b - 1, 0);
	uint64_t us;

	if (n <= 0)
		return -1;
	b[n] = '\0';
	if (periods != NULL && cg_field(b, "nr_periods", periods) != 0)
		*periods = 0;
	if (cg_field(b, "throttled_time", ns) == 0) /* v1: ns */
		return 0;
	if (cg_field(b, "throttled_usec", &us) != 0) /* v2: us */
		return -1;
	*ns = us * 1000u;
	return 0;
}
