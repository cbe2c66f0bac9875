/*
 * dmn_shm.c — mapping a task's shared file (dmn_work.h).
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
		    lstat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() ||
		    now - st.st_mtime < (time_t)min_age ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (unlink(path) == 0) {
			*bytes += (uint64_t)st.st_size;
			n++;
		}
	}
	(void)closedir(dp);
	return n;
}
