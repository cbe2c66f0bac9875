/*
 * dmn_shm.c — mapping a task's shared file, and removing what tasks and
 * jobs left in memory (dmn_work.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dmn_work.h"

/* Whether path is "DIR/PREFIX..." with no other slash and no "..", DIR
 * being the first n bytes of dir. */
static int shm_path_in(const char *path, const char *dir, size_t n,
                       const char *prefix)
{
	return n > 0 && strncmp(path, dir, n) == 0 && path[n] == '/' &&
	       strncmp(path + n + 1, prefix, strlen(prefix)) == 0 &&
	       strchr(path + n + 1, '/') == NULL &&
	       strstr(path + n + 1, "..") == NULL;
}

/* The length of the directory part of sock (0 if none). */
static size_t shm_dir_len(const char *sock)
{
	const char *slash = strrchr(sock, '/');

	return slash == NULL ? 0 : (size_t)(slash - sock);
}

/* See dmn_work.h. */
void *dmn_shm_map(const dmn_proc *p, const char *path, const char *prefix,
                  size_t len, const char *what, char *err, size_t errlen)
{
	const char *s = p->sess->sock, *ss = p->sess->ssock;

	if (shm_path_in(path, s, shm_dir_len(s), prefix))
		return dmn_shm_file(path, s, shm_dir_len(s), prefix, len, what,
		                    err, errlen);
	return dmn_shm_file(path, ss, shm_dir_len(ss), prefix, len, what, err,
	                    errlen);
}

/* See dmn_work.h. */
void *dmn_shm_file(const char *path, const char *dir, size_t dirlen,
                   const char *prefix, size_t len, const char *what,
                   char *err, size_t errlen)
{
	struct stat st;
	void *m;
	int fd;

	if (!shm_path_in(path, dir, dirlen, prefix)) {
		snprintf(err, errlen, "%s %s refused: not in this session's "
		         "directory", what, path);
		return NULL;
	}
	fd = open(path, O_RDWR | O_NOFOLLOW);
	if (fd < 0) {
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (size_t)st.st_size != len) {
		snprintf(err, errlen, "%s %s refused: not a regular file of "
		         "ours of %lu bytes", what, path, (unsigned long)len);
		(void)close(fd);
		return NULL;
	}
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	(void)close(fd);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	return m;
}

/* See dmn_work.h. */
int dmn_shm_drop(const char *path, const char *dir, size_t dirlen,
                 const char *prefix)
{
	struct stat st;

	if (!shm_path_in(path, dir, dirlen, prefix) ||
	    lstat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid())
		return -1;
	return unlink(path);
}

/* The pid in a name "PREFIX<pid>-...", or 0 when it has none. */
static long shm_name_pid(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, n) != 0 || name[n] < '1' || name[n] > '9')
		return 0;
	pid = strtol(name + n, &end, 10);
	return *end == '-' && pid > 0 ? pid : 0;
}

#define SHM_TREE_DEPTH 16 /* deeper than any job's tree: refused */
#define SHM_TREE_PASSES 3 /* readdir may miss entries removed under it */

static int shm_rmtree_at(int at, const char *name, int depth,
                         uint64_t *bytes);

/* Removes what directory fd holds (depth: its own): the entries
 * removed, or -1 (errno) with what could be removed gone. */
static int shm_rmtree_in(int fd, int depth, uint64_t *bytes)
{
	struct dirent *d;
	DIR *dp;
	int n = 0, k, rc = 0, pass, fd2;

	for (pass = 0; pass < SHM_TREE_PASSES; pass++) {
		if ((fd2 = dup(fd)) < 0 || (dp = fdopendir(fd2)) == NULL) {
			if (fd2 >= 0)
				(void)close(fd2);
			return -1;
		}
		rewinddir(dp);
		k = 0;
		while ((d = readdir(dp)) != NULL) {
			if (strcmp(d->d_name, ".") == 0 ||
			    strcmp(d->d_name, "..") == 0)
				continue;
			if ((rc = shm_rmtree_at(fd, d->d_name, depth + 1,
			                        bytes)) < 0)
				break;
			k += rc;
		}
		(void)closedir(dp);
		n += k;
		if (rc < 0 || k == 0)
			break;
	}
	return rc < 0 ? -1 : n;
}

/* Removes name in directory at, a file or link (never followed) or a
 * directory with all in it: the entries removed, or -1 (errno). */
static int shm_rmtree_at(int at, const char *name, int depth,
                         uint64_t *bytes)
{
	struct stat st;
	int fd, n;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(at, name, 0) != 0)
			return -1;
		if (bytes != NULL && S_ISREG(st.st_mode))
			*bytes += (uint64_t)st.st_size;
		return 1;
	}
	if (depth > SHM_TREE_DEPTH) {
		errno = ELOOP;
		return -1;
	}
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	n = shm_rmtree_in(fd, depth, bytes);
	(void)close(fd);
	if (n < 0 || unlinkat(at, name, AT_REMOVEDIR) != 0)
		return -1;
	return n + 1;
}

/* See dmn_work.h. */
int dmn_shm_rmtree(const char *path, uint64_t *bytes)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return -1;
	if (S_ISDIR(st.st_mode) && st.st_uid != geteuid()) {
		errno = EPERM;
		return -1;
	}
	return shm_rmtree_at(AT_FDCWD, path, 0, bytes);
}

/* See dmn_work.h. */
int dmn_shm_sweep(const char *dir, const char *prefix, unsigned min_age,
                  uint64_t *bytes)
{
	char path[DMN_PATH_MAX];
	struct dirent *d;
	struct stat st;
	time_t now = time(NULL);
	DIR *dp = opendir(dir);
	long pid;
	int n = 0;

	if (dp == NULL)
		return -1;
	while ((d = readdir(dp)) != NULL) {
		if ((pid = shm_name_pid(d->d_name, prefix)) == 0 ||
		    snprintf(path, sizeof path, "%s/%s", dir, d->d_name) >=
		    (int)sizeof path ||
		    lstat(path, &st) != 0 ||
		    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) ||
		    st.st_uid != geteuid() ||
		    now - st.st_mtime < (time_t)min_age ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (dmn_shm_rmtree(path, bytes) > 0)
				n++;
		} else if (unlink(path) == 0) {
			*bytes += (uint64_t)st.st_size;
			n++;
		}
	}
	(void)closedir(dp);
	return n;
}
