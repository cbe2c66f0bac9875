/*
 * test_dmn_shm.c — unit tests of removing what tasks and jobs left in
 * memory (daemon/work/dmn_shm.c): dmn_shm_rmtree (a tree with files,
 * nested directories and links, which are removed and never followed;
 * the count and the bytes; a missing path; a tree too deep) and
 * dmn_shm_sweep (only the files and directories of a prefix whose pid
 * has ended and that are old enough).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dmn_work.h"

/* A fresh temporary directory for one test. */
typedef struct tdir {
	char path[256];
} tdir;

static int tdir_setup(void **state)
{
	tdir *t = calloc(1, sizeof *t);

	assert_non_null(t);
	strcpy(t->path, "/tmp/test_dmn_shm.XXXXXX");
	assert_non_null(mkdtemp(t->path));
	*state = t;
	return 0;
}

static int tdir_teardown(void **state)
{
	tdir *t = *state;
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->path);
	(void)system(cmd);
	free(t);
	return 0;
}

/* Writes n bytes into dir/name. */
static void put_file(const char *dir, const char *name, size_t n)
{
	char path[512];
	FILE *f;
	size_t i;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	for (i = 0; i < n; i++)
		fputc('x', f);
	assert_int_equal(fclose(f), 0);
}

/* Makes dir/name (a directory). */
static void put_dir(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0700), 0);
}

/* Whether dir/name exists (a link itself counts). */
static int there(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

/* Sets dir/name's times to secs ago. */
static void age(const char *dir, const char *name, long secs)
{
	char path[512];
	struct timeval tv[2];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	gettimeofday(&tv[0], NULL);
	tv[0].tv_sec -= secs;
	tv[1] = tv[0];
	assert_int_equal(utimes(path, tv), 0);
}

/* A pid that has ended (a child, reaped). */
static pid_t dead_pid(void)
{
	pid_t p = fork();

	assert_true(p >= 0);
	if (p == 0)
		_exit(0);
	assert_int_equal(waitpid(p, NULL, 0), p);
	return p;
}

/* A tree of files, directories and links goes whole; what a link points
 * to stays; the count holds every entry, the bytes the files'. */
static void test_rmtree(void **state)
{
	tdir *t = *state;
	char path[512], target[512];
	uint64_t bytes = 0;

	put_dir(t->path, "keep");
	put_file(t->path, "keep/precious", 7);
	put_dir(t->path, "job");
	put_file(t->path, "job/seg.0", 100);
	put_file(t->path, "job/seg.1", 50);
	put_dir(t->path, "job/ompi");
	put_dir(t->path, "job/ompi/pid.1");
	put_file(t->path, "job/ompi/pid.1/contact.txt", 3);
	snprintf(target, sizeof target, "%s/keep", t->path);
	snprintf(path, sizeof path, "%s/job/ompi/link", t->path);
	assert_int_equal(symlink(target, path), 0);
	snprintf(path, sizeof path, "%s/job", t->path);
	/* job, seg.0, seg.1, ompi, pid.1, contact.txt, link */
	assert_int_equal(dmn_shm_rmtree(path, &bytes), 7);
	assert_int_equal(bytes, 153);
	assert_false(there(t->path, "job"));
	assert_true(there(t->path, "keep/precious"));
	/* a missing path, a NULL count */
	assert_int_equal(dmn_shm_rmtree(path, NULL), -1);
	assert_int_equal(errno, ENOENT);
	/* a link given as the path is removed, not followed */
	snprintf(path, sizeof path, "%s/alias", t->path);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(dmn_shm_rmtree(path, NULL), 1);
	assert_false(there(t->path, "alias"));
	assert_true(there(t->path, "keep/precious"));
}

/* A tree deeper than any job's is refused at its depth, not followed
 * down for ever; what is above it stays as it was found. */
static void test_rmtree_deep(void **state)
{
	tdir *t = *state;
	char rel[512] = "deep";
	int i;

	put_dir(t->path, rel);
	for (i = 0; i < 20; i++) {
		strcat(rel, "/d");
		put_dir(t->path, rel);
	}
	snprintf(rel, sizeof rel, "%s/deep", t->path);
	assert_int_equal(dmn_shm_rmtree(rel, NULL), -1);
	assert_int_equal(errno, ELOOP);
	assert_true(there(t->path, "deep"));
}

/* The sweep removes only names with the prefix whose pid has ended and
 * that were changed long enough ago: files and whole directories. */
static void test_sweep(void **state)
{
	tdir *t = *state;
	char name[64];
	uint64_t bytes = 0;
	pid_t dead = dead_pid();

	snprintf(name, sizeof name, "mpi-9-%ld-1", (long)dead);
	put_dir(t->path, name); /* dead, old: goes */
	snprintf(name, sizeof name, "mpi-9-%ld-1/seg", (long)dead);
	put_file(t->path, name, 10);
	snprintf(name, sizeof name, "mpi-9-%ld-1", (long)dead);
	age(t->path, name, 120);
	snprintf(name, sizeof name, "mpi-9-%ld-2", (long)dead);
	put_file(t->path, name, 5); /* dead, old, a file: goes */
	age(t->path, name, 120);
	snprintf(name, sizeof name, "mpi-9-%ld-3", (long)dead);
	put_dir(t->path, name); /* dead but new: stays */
	snprintf(name, sizeof name, "mpi-9-%ld-1", (long)getpid());
	put_dir(t->path, name); /* running: stays */
	age(t->path, name, 120);
	snprintf(name, sizeof name, "mpi-8-%ld-1", (long)dead);
	put_dir(t->path, name); /* another prefix: stays */
	age(t->path, name, 120);
	assert_int_equal(dmn_shm_sweep(t->path, "mpi-9-", 60, &bytes), 2);
	assert_int_equal(bytes, 15);
	snprintf(name, sizeof name, "mpi-9-%ld-1", (long)dead);
	assert_false(there(t->path, name));
	snprintf(name, sizeof name, "mpi-9-%ld-2", (long)dead);
	assert_false(there(t->path, name));
	snprintf(name, sizeof name, "mpi-9-%ld-3", (long)dead);
	assert_true(there(t->path, name));
	snprintf(name, sizeof name, "mpi-9-%ld-1", (long)getpid());
	assert_true(there(t->path, name));
	snprintf(name, sizeof name, "mpi-8-%ld-1", (long)dead);
	assert_true(there(t->path, name));
	/* a directory that cannot be read */
	assert_int_equal(dmn_shm_sweep("/nonexistent/dir", "mpi-", 0, &bytes),
	                 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rmtree, tdir_setup,
		                                tdir_teardown),
		cmocka_unit_test_setup_teardown(test_rmtree_deep, tdir_setup,
		                                tdir_teardown),
		cmocka_unit_test_setup_teardown(test_sweep, tdir_setup,
		                                tdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
