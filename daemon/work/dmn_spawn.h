/*
 * dmn_spawn.h — starting child programs without a shell: argument vectors,
 * fork + execvp in a new process group, stdin from /dev/null (or a pipe,
 * or a file the caller opened), output on
 * non-blocking pipes that the event loop reads.
 *
 * Used for the compiler and linker of a remote build (dmn_build.c) and for
 * the user's programs (dmn_run.c).  Nothing here waits: the caller reaps
 * its children with waitpid(WNOHANG) from a timer (dmn_work.c).
 */
#ifndef PARAVT_DMN_SPAWN_H
#define PARAVT_DMN_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

#define DMN_ARGV_MAX 1024 /* words in one command line */

/* An argument vector under construction.  Words are borrowed or owned
 * (copied); dmn_argv_free releases the owned ones. */
typedef struct dmn_argv {
	char *v[DMN_ARGV_MAX + 1];       /* the words, NULL-terminated */
	unsigned char own[DMN_ARGV_MAX]; /* v[i] was allocated here */
	int n;                           /* words used */
	int full;                        /* a word did not fit or no memory */
} dmn_argv;

/* Makes a empty vector. */
void dmn_argv_init(dmn_argv *a);
/* Frees the owned words; the vector is empty again. */
void dmn_argv_free(dmn_argv *a);
/* The words of a separated by blanks, in buf (cut at cap bytes), for
 * logs; returns buf. */
const char *dmn_argv_text(const dmn_argv *a, char *buf, size_t cap);
/* Appends s, borrowed (it must outlive the vector's use). */
void dmn_argv_add(dmn_argv *a, const char *s);
/* Appends the NULL-terminated list w (borrowed). */
void dmn_argv_addv(dmn_argv *a, char *const *w);
/* Appends a copy of the formatted text (owned). */
void dmn_argv_addf(dmn_argv *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* What to start. */
typedef struct dmn_spawn_req {
	char *const *argv; /* argv[0] is looked up in PATH (execvp) */
	const char *dir;   /* working directory of the child */
	char *const *env;  /* "NAME=value" added to the environment, or NULL */
	int merge;         /* stderr shares the stdout pipe */
	int *in;           /* not NULL: stdin is a pipe, *in its write end
	                      (non-blocking, close-on-exec; the caller's) */
	const int *in_file; /* not NULL (and in NULL): stdin reads the open
	                       file *in_file (the caller keeps and closes
	                       it) */
} dmn_spawn_req;

/*
 * Starts r->argv as the leader of a new process group, stdin /dev/null
 * (or a pipe, r->in, or a file, r->in_file).  out[0] gets the
 * read end of its stdout pipe, out[1] that of its stderr pipe (-1 with
 * merge); both non-blocking and close-on-exec, owned by the caller.  If
 * exec fails the child writes a sentence to its stderr and exits 127.
 * Returns the pid, or -1 with a sentence in err.
 */
pid_t dmn_spawn(const dmn_spawn_req *r, int out[2], char *err, size_t errlen);

/* Sets O_NONBLOCK and FD_CLOEXEC on fd.  0 or -1. */
int dmn_fd_prepare(int fd);

#endif
