/*
 * test_wire_token.c — unit tests of the token file (wire_token.h).
 *
 * Each test works in a fresh 0700 directory under /tmp made by the setup
 * function and removed (with everything in it) by the teardown.  Covers
 * creation (0700 directory, 0600 file, 64 hex characters), refusal of a
 * wider mode with a sentence naming it, missing, empty and too long files,
 * symlinks, directories, the default path, and processes that create the
 * file at the same moment (one token for all, no error, no leftovers).
 * One registered list at the bottom.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit_util.h"
#include "wire_token.h"

/* Temporary directory of the running test. */
static char dir[256];

static int setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/pvt-token-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* Writes path = dir/name into buf. */
static const char *in_dir(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
	return buf;
}

/* Creates dir/name with the given content and mode. */
static const char *make_file(char *buf, size_t n, const char *name,
			     const char *content, size_t len, mode_t mode)
{
	int fd;

	in_dir(buf, n, name);
	fd = open(buf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
	assert_int_equal(chmod(buf, mode), 0);
	return buf;
}

/* Loads path and expects WIRE_EAUTH with `word` in the sentence. */
static void expect_refused(const char *path, int create, const char *word)
{
	char tok[WIRE_TOKEN_MAX], err[512];

	err[0] = '\0';
	assert_int_equal(wire_token_load(path, create, tok, err, sizeof err),
			 WIRE_EAUTH);
	if (strstr(err, word) == NULL)
		fail_msg("sentence \"%s\" lacks \"%s\"", err, word);
	assert_non_null(strstr(err, path));
}

static void test_create(void **state)
{
	char path[300], sub[300], tok[WIRE_TOKEN_MAX], tok2[WIRE_TOKEN_MAX];
	char err[512];
	struct stat st;
	size_t i;

	in_dir(sub, sizeof sub, "dot-paravt");
	in_dir(path, sizeof path, "dot-paravt/token");
	assert_int_equal(wire_token_load(path, 1, tok, err, sizeof err), 0);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(strlen(tok), 64);
	for (i = 0; i < 64; i++)
		assert_non_null(strchr("0123456789abcdef", tok[i]));
	/* loading again gives the same token, and does not recreate it */
	assert_int_equal(wire_token_load(path, 1, tok2, err, sizeof err), 0);
	assert_string_equal(tok, tok2);
	assert_true(wire_token_equal(tok, tok2));
}

static void test_existing_ok(void **state)
{
	char path[300], tok[WIRE_TOKEN_MAX];

	make_file(path, sizeof path, "t", "abc\r\n", 5, 0600);
	assert_int_equal(wire_token_load(path, 0, tok, NULL, 0), 0);
	assert_string_equal(tok, "abc");
	make_file(path, sizeof path, "t2", "xyz", 3, 0400);
	assert_int_equal(wire_token_load(path, 0, tok, NULL, 0), 0);
	assert_string_equal(tok, "xyz");
}

static void test_mode_too_open(void **state)
{
	char path[300];

	make_file(path, sizeof path, "t", "abc\n", 4, 0644);
	expect_refused(path, 0, "0644");
	expect_refused(path, 1, "0644"); /* create never loosens a check */
	make_file(path, sizeof path, "t", "abc\n", 4, 0640);
	expect_refused(path, 0, "0640");
	make_file(path, sizeof path, "t", "abc\n", 4, 0602);
	expect_refused(path, 0, "0602");
}

static void test_missing(void **state)
{
	char path[300];

	in_dir(path, sizeof path, "nope");
	expect_refused(path, 0, "No such file");
}

static void test_empty(void **state)
{
	char path[300];

	make_file(path, sizeof path, "t", "", 0, 0600);
	expect_refused(path, 0, "empty");
	make_file(path, sizeof path, "t", "\n", 1, 0600);
	expect_refused(path, 0, "empty");
}

static void test_too_long(void **state)
{
	char path[300], big[400], tok[WIRE_TOKEN_MAX];

	memset(big, 'a', sizeof big);
	make_file(path, sizeof path, "t", big, sizeof big, 0600);
	expect_refused(path, 0, "too long");
	make_file(path, sizeof path, "t", big, WIRE_TOKEN_MAX, 0600);
	expect_refused(path, 0, "too long");
	make_file(path, sizeof path, "t", big, WIRE_TOKEN_MAX - 1, 0600);
	assert_int_equal(wire_token_load(path, 0, tok, NULL, 0), 0);
	assert_int_equal(strlen(tok), WIRE_TOKEN_MAX - 1);
}

static void test_symlink_refused(void **state)
{
	char path[300], link[300];

	make_file(path, sizeof path, "real", "abc\n", 4, 0600);
	in_dir(link, sizeof link, "link");
	assert_int_equal(symlink(path, link), 0);
	expect_refused(link, 0, "symbolic link");
	expect_refused(link, 1, "symbolic link");
}

static void test_directory_refused(void **state)
{
	char path[300];

	in_dir(path, sizeof path, "d");
	assert_int_equal(mkdir(path, 0700), 0);
	expect_refused(path, 0, "not a regular file");
	expect_refused(path, 1, "not a regular file");
}

static void test_default_path(void **state)
{
	char buf[512], *old = getenv("HOME");
	char save[256];

	snprintf(save, sizeof save, "%s", old ? old : "");
	setenv("HOME", "/home/x", 1);
	assert_int_equal(wire_token_default_path(buf, sizeof buf), 0);
	assert_string_equal(buf, "/home/x/.paravt/token");
	assert_int_equal(wire_token_default_path(buf, 10), WIRE_EARG);
	unsetenv("HOME");
	assert_int_equal(wire_token_default_path(buf, sizeof buf), WIRE_EARG);
	setenv("HOME", "", 1);
	assert_int_equal(wire_token_default_path(buf, sizeof buf), WIRE_EARG);
	if (old != NULL)
		setenv("HOME", save, 1);
}

#define RACERS 16
#define ROUNDS 20

/* What a racer reports, in one write (atomic on a pipe). */
struct race_result {
	int rc;
	char tok[WIRE_TOKEN_MAX];
};

/* Child: waits for the gate to open, loads (creating) path, and writes
 * its result into out. */
static void racer(int gate, int out, const char *path)
{
	struct race_result res;
	char c, err[256];

	memset(&res, 0, sizeof res);
	alarm(30);
	(void)read(gate, &c, 1);
	res.rc = wire_token_load(path, 1, res.tok, err, sizeof err);
	if (res.rc != 0)
		fprintf(stderr, "racer %ld: %s\n", (long)getpid(), err);
	(void)write(out, &res, sizeof res);
	_exit(0);
}

/* Entries of directory d (. and .. not counted). */
static int entries(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(dp);
	return n;
}

/* RACERS processes create one token file at once, ROUNDS times: every
 * one succeeds with the same token, and only the token file is left. */
static void test_create_race(void **state)
{
	char sub[300], path[320], first[WIRE_TOKEN_MAX];
	struct race_result res;
	int gate[2], out[2], round, i;
	pid_t kids[RACERS];

	for (round = 0; round < ROUNDS; round++) {
		snprintf(sub, sizeof sub, "%s/h%d", dir, round);
		snprintf(path, sizeof path, "%s/token", sub);
		assert_int_equal(pipe(gate), 0);
		assert_int_equal(pipe(out), 0);
		for (i = 0; i < RACERS; i++) {
			kids[i] = fork();
			assert_true(kids[i] >= 0);
			if (kids[i] == 0) {
				close(gate[1]);
				racer(gate[0], out[1], path);
			}
		}
		close(gate[0]);
		close(out[1]);
		close(gate[1]); /* opens the gate: every read returns 0 */
		for (i = 0; i < RACERS; i++) {
			assert_int_equal(read(out[0], &res, sizeof res),
					 sizeof res);
			assert_int_equal(res.rc, 0);
			assert_int_equal(strlen(res.tok), 64);
			if (i == 0)
				memcpy(first, res.tok, sizeof first);
			assert_string_equal(res.tok, first);
		}
		close(out[0]);
		for (i = 0; i < RACERS; i++)
			assert_int_equal(waitpid(kids[i], NULL, 0), kids[i]);
		assert_int_equal(entries(sub), 1);
	}
}

#define TT(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TT(test_create),
		TT(test_create_race),
		TT(test_existing_ok),
		TT(test_mode_too_open),
		TT(test_missing),
		TT(test_empty),
		TT(test_too_long),
		TT(test_symlink_refused),
		TT(test_directory_refused),
		TT(test_default_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
