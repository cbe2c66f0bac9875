/*
 * dmn_build.c — remote build: FILE_PUT writes the console's files into a
 * build directory, BUILD compiles and links them with the port's compiler
 * and the paravt runtime (dmn_work.h).
 *
 * Names from the console are checked before anything touches the disk:
 * relative, no "." or ".." or empty components, no component starting
 * with '-' (it would read as an option), only [A-Za-z0-9._+-/], at most
 * DMN_NAME_MAX bytes.  Files are then created component by component with
 * openat(O_NOFOLLOW) and O_CREAT|O_EXCL, so a link planted in the build
 * directory is refused, never followed.
 *
 * A build runs asynchronously: one child per step (each source compiled to
 * SOURCE.o, then the link), its output collected from a pipe, the next
 * step started by the reaper when one ends.  Its end is BUILD_RESULT;
 * compiler errors are ok=false with the compiler's own text.
 *
 * The console's flags (wire_flags.h, checked again here) go to every
 * compile step after the port's (cflags) and, with the ldflags after the
 * objects and the runtime, to the link (so -pthread or -fopenmp reach
 * both, and -lm resolves what the objects need).
 *
 * Two cflags are also requests: "-DPARAVT_PVM=1" compiles with
 * "-include paravt_pvm.h" and the port's PVM_CFLAGS and links
 * libparavt_pvm.a and PVM_LIBS (the PVM wrappers); "-DPARAVT_MPI=1"
 * compiles with "-include paravt_mpi.h" (call sites of MPI calls) and
 * compiles and links with mpicc (native ports only) and links
 * libparavt_mpi.a (the PMPI wrappers) before libparavt.a.
 *
 * Layout: name and flag checks, FILE_PUT, job life, steps, BUILD.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmn_log.h"
#include "dmn_spawn.h"
#include "dmn_work.h"
#include "wire_flags.h"
#include "wire_fmt.h"

#define DMN_CFLAGS_MAX 256 /* extra compiler (or linker) flags in one BUILD */

/* ---- checks -------------------------------------------------------------- */

/* True for the bytes allowed in a shipped name. */
static int dmn_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
	       ch == '+' || ch == '-' || ch == '/';
}

int dmn_build_name_ok(const char *name, int allow_dot, char *err, size_t errlen)
{
	const char *p, *end;
	size_t n = strlen(name);

	if (allow_dot && strcmp(name, ".") == 0)
		return 0;
	if (n == 0 || n > DMN_NAME_MAX) {
		snprintf(err, errlen, "is empty or longer than %d bytes",
		         DMN_NAME_MAX);
		return -1;
	}
	for (p = name; *p != '\0'; p++)
		if (!dmn_name_char(*p)) {
			snprintf(err, errlen,
			         "has a character outside "
			         "[A-Za-z0-9._+-/]");
			return -1;
		}
	for (p = name;; p = end + 1) {
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if (name[0] == '/' || (n == 2 && strncmp(p, "..", 2) == 0)) {
			snprintf(err, errlen, "escapes the build directory");
			return -1;
		}
		if (n == 0 || (n == 1 && p[0] == '.') || p[0] == '-') {
			snprintf(err, errlen,
			         "has an empty, \".\" or "
			         "option-like component");
			return -1;
		}
		if (end == NULL)
			return 0;
	}
}

/* Checks one extra flag from BUILD (wire_flags.h: the same rules as the
 * console's load).  0, or -1 with a sentence. */
static int dmn_flag_ok(const char *f, int link, char *err, size_t errlen)
{
	char why[WIRE_TEXT_MAX];

	if (wire_flag_check(f, link ? WIRE_FLAG_LINK : WIRE_FLAG_COMPILE, why,
	                    sizeof why) == 0)
		return 0;
	snprintf(err, errlen, "BUILD: %.400s", why);
	return -1;
}

/* ---- FILE_PUT ------------------------------------------------------------ */

dmn_build *dmn_build_get(dmn_sess *s, uint64_t id, int make, char *err,
                         size_t errlen)
{
	dmn_build *b;
	int i, fr = -1;

	for (i = 0; i < DMN_MAX_BUILDS; i++) {
		if (s->builds[i] != NULL && s->builds[i]->id == id)
			return s->builds[i];
		if (s->builds[i] == NULL && fr < 0)
			fr = i;
	}
	if (!make) {
		snprintf(err, errlen, "no build %llu in this session",
		         (unsigned long long)id);
		return NULL;
	}
	if (fr < 0) {
		snprintf(err, errlen, "too many builds (limit %d)",
		         DMN_MAX_BUILDS);
		return NULL;
	}
	b = calloc(1, sizeof *b);
	if (b == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->id = id;
	if (dmn_pathf(b->dir, sizeof b->dir, "%s/b%llu", s->dir,
	              (unsigned long long)id) != 0 ||
	    (mkdir(b->dir, 0700) != 0 && errno != EEXIST)) {
		snprintf(err, errlen, "%s: %s", b->dir, strerror(errno));
		free(b);
		return NULL;
	}
	s->builds[fr] = b;
	return b;
}

/* Opens (making it 0700 if needed) directory name under dirfd, never
 * following a link.  The new fd, or -1 with errno. */
static int dmn_subdir(int dirfd, const char *name)
{
	if (mkdirat(dirfd, name, 0700) != 0 && errno != EEXIST)
		return -1;
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

/* Writes all of data to fd.  0 or -1. */
static int dmn_write_all(int fd, const char *data, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = write(fd, data, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		data += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Creates name (checked) under dir with data.  0, or -1 with errno. */
static int dmn_put(const char *dir, const char *name, unsigned mode,
                   const char *data, size_t n)
{
	char part[DMN_NAME_MAX + 1], *p, *slash;
	int dfd, nfd, fd, rc = -1, saved;

	if (strlen(name) >= sizeof part) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(part, name, strlen(name) + 1);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	for (p = part; dfd >= 0 && (slash = strchr(p, '/')) != NULL;
	     p = slash + 1) {
		*slash = '\0';
		nfd = dmn_subdir(dfd, p);
		close(dfd);
		dfd = nfd;
	}
	if (dfd < 0)
		return -1;
	fd = openat(dfd, p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
	            (mode & 0111) ? 0755 : 0644);
	if (fd >= 0) {
		rc = dmn_write_all(fd, data, n);
		saved = errno;
		close(fd);
		if (rc != 0)
			unlinkat(dfd, p, 0);
		errno = saved;
	}
	saved = errno;
	close(dfd);
	errno = saved;
	return rc;
}

void dmn_build_file_put(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	char name[DMN_NAME_MAX + 2], err[WIRE_TEXT_MAX], why[128];
	uint64_t id, mode;
	const char *data;
	size_t n;
	dmn_sess *s;
	dmn_build *b;

	if (wire_unpack(m, err, sizeof err, &id, name, sizeof name, &mode,
	                &data, &n) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "FILE_PUT: %s", err);
		return;
	}
	if (dmn_build_name_ok(name, 0, why, sizeof why) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq, "FILE_PUT: path %.300s %s",
		             name, why);
		return;
	}
	if ((s = dmn_work_cur(w, err, sizeof err)) == NULL ||
	    (b = dmn_build_get(s, id, 1, err, sizeof err)) == NULL) {
		dmn_work_err(c, WIRE_ESTATE, m->seq, "FILE_PUT: %s", err);
		return;
	}
	if (b->job != NULL || b->nfiles >= DMN_BUILD_FILES ||
	    b->bytes + n > DMN_BUILD_BYTES) {
		dmn_work_err(c, WIRE_EARG, m->seq, "FILE_PUT: build %llu %s",
		             (unsigned long long)id,
		             b->job ? "is compiling"
		                    : "is over its limit (256 files, 64 MiB)");
		return;
	}
	if (dmn_put(b->dir, name, (unsigned)mode, data, n) != 0) {
		dmn_work_err(c, WIRE_EARG, m->seq,
		             "FILE_PUT: cannot create "
		             "%.300s in build %llu: %s",
		             name, (unsigned long long)id,
		             errno == EEXIST ? "something is already there"
		                             : strerror(errno));
		return;
	}
	b->nfiles++;
	b->bytes += n;
}

/* ---- job life ------------------------------------------------------------ */

/* Frees a string vector of n entries. */
static void dmn_strv_free(char **v, uint32_t n)
{
	uint32_t i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

/* Closes the output pipe of j's step. */
static void dmn_job_close_fd(dmn_work *w, dmn_job *j)
{
	if (j->fd < 0)
		return;
	dmn_loop_del(w->srv->loop, j->fd);
	close(j->fd);
	j->fd = -1;
}

/* Frees a job that is in no table: its vectors, diagnostics and itself. */
static void dmn_job_discard(dmn_job *j)
{
	dmn_strv_free(j->srcs, j->nsrcs);
	dmn_strv_free(j->cflags, j->ncflags);
	dmn_strv_free(j->ldflags, j->nldflags);
	wire_buf_destroy(&j->diag);
	free(j);
}

/* Frees j and takes it off the tables. */
static void dmn_job_free(dmn_work *w, dmn_job *j)
{
	int i;

	for (i = 0; i < DMN_MAX_JOBS; i++)
		if (w->jobs[i] == j)
			w->jobs[i] = NULL;
	dmn_job_close_fd(w, j);
	j->build->job = NULL;
	j->sess->njobs--;
	dmn_job_discard(j);
}

/* Appends text to j's diagnostics, up to DMN_DIAG_MAX. */
static void dmn_job_note(dmn_job *j, const char *text, size_t n)
{
	size_t room = DMN_DIAG_MAX - wire_buf_used(&j->diag);

	if (n > room) {
		n = room;
		j->truncated = 1;
	}
	if (n > 0)
		wire_buf_append(&j->diag, text, n);
}

/* Reads what the step's pipe has; closes it at EOF. */
static void dmn_job_read(dmn_loop *l, int fd, void *ctx)
{
	dmn_job *j = ctx;
	char buf[4096];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n > 0) {
			dmn_job_note(j, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			dmn_job_close_fd(j->work, j);
		return;
	}
}

static const dmn_io_ops dmn_job_ops = {dmn_job_read, NULL, dmn_job_read};

/* Sends BUILD_RESULT for j to the controller and frees j. */
static void dmn_job_finish(dmn_work *w, dmn_job *j)
{
	static const char trunc[] = "\n[paravtd: diagnostics truncated]\n";
	dmn_sess *s = j->sess;
	wire_peer *p = dmn_work_ctl_of(w, j->sess);
	int ok = !j->failed && !j->timed_out;

	if (j->truncated)
		wire_buf_append(&j->diag, trunc, sizeof trunc - 1);
	dmn_log(DMN_INFO, "session %llu: build %llu %s",
	        (unsigned long long)s->id, (unsigned long long)j->build->id,
	        ok ? "succeeded" : "failed");
	if (p != NULL) {
		if (wire_pack(&p->out, WIRE_BUILD_RESULT, wire_peer_seq(p),
		              p->max_frame, (uint64_t)j->build->id, ok,
		              j->program, (const void *)wire_buf_head(&j->diag),
		              wire_buf_used(&j->diag)) != 0)
			dmn_log(DMN_WARN,
			        "build %llu: result too large to send",
			        (unsigned long long)j->build->id);
		dmn_work_kick(w);
	}
	dmn_job_free(w, j);
	dmn_work_sess_check(w, s);
}

/* Builds the command line of j's next step into a. */
static void dmn_job_argv(dmn_work *w, dmn_job *j, dmn_argv *a)
{
	const dmn_port *pt = &w->port;
	uint32_t i;

	if (j->mpi)
		dmn_argv_add(a, "mpicc");
	else
		dmn_argv_addv(a, pt->cc.w);
	if (j->step < j->nsrcs) {
		dmn_argv_addv(a, pt->cflags.w);
		dmn_argv_addf(a, "-I%s", pt->rt_include);
		if (j->pvm) {
			dmn_argv_addv(a, pt->pvm_cflags.w);
			dmn_argv_add(a, "-include");
			dmn_argv_add(a, "paravt_pvm.h");
		}
		if (j->mpi) { /* call sites for the PMPI wrappers */
			dmn_argv_add(a, "-include");
			dmn_argv_add(a, "paravt_mpi.h");
		}
		for (i = 0; i < j->ncflags; i++)
			dmn_argv_add(a, j->cflags[i]);
		dmn_argv_add(a, "-c");
		dmn_argv_add(a, j->srcs[j->step]);
		dmn_argv_add(a, "-o");
		dmn_argv_addf(a, "%s.o", j->srcs[j->step]);
		return;
	}
	dmn_argv_addv(a, pt->ldflags.w);
	for (i = 0; i < j->ncflags; i++) /* -pthread, -fopenmp, -O... */
		dmn_argv_add(a, j->cflags[i]);
	for (i = 0; i < j->nsrcs; i++)
		dmn_argv_addf(a, "%s.o", j->srcs[i]);
	if (j->pvm)
		dmn_argv_add(a, pt->rt_pvm);
	if (j->mpi)
		dmn_argv_add(a, pt->rt_mpi);
	if (access(pt->rt_lib, R_OK) == 0)
		dmn_argv_add(a, pt->rt_lib);
	for (i = 0; i < j->nldflags; i++) /* -L, -l, -Wl, after the objects */
		dmn_argv_add(a, j->ldflags[i]);
	dmn_argv_addv(a, pt->libs.w);
	if (j->pvm)
		dmn_argv_addv(a, pt->pvm_libs.w);
	dmn_argv_add(a, "-o");
	dmn_argv_add(a, j->program);
}

/* Starts j's next step.  0, or -1 (noted in the diagnostics). */
static int dmn_job_step(dmn_work *w, dmn_job *j)
{
	dmn_spawn_req r;
	dmn_argv a;
	char err[256];
	int fds[2];

	dmn_argv_init(&a);
	dmn_job_argv(w, j, &a);
	memset(&r, 0, sizeof r);
	r.argv = a.v;
	r.dir = j->build->dir;
	r.merge = 1;
	j->pid = a.full ? -1 : dmn_spawn(&r, fds, err, sizeof err);
	if (a.full)
		snprintf(err, sizeof err, "command line too long");
	dmn_argv_free(&a);
	if (j->pid < 0) {
		j->pid = 0;
		snprintf(err + strlen(err), sizeof err - strlen(err), "\n");
		dmn_job_note(j, "paravtd: ", 9);
		dmn_job_note(j, err, strlen(err));
		return -1;
	}
	j->fd = fds[0];
	if (dmn_loop_add(w->srv->loop, j->fd, &dmn_job_ops, j, 1) != 0) {
		close(j->fd);
		j->fd = -1;
	}
	return 0;
}

/* Starts the next step: every source is compiled even after one failed
 * (all diagnostics at once), the link only if all compiled.  Finishes j
 * when nothing is left to start. */
static void dmn_job_next(dmn_work *w, dmn_job *j)
{
	while (j->step < j->nsrcs || (j->step == j->nsrcs && !j->failed)) {
		if (dmn_job_step(w, j) == 0)
			return;
		j->failed = 1;
		j->step++;
	}
	dmn_job_finish(w, j);
}

void dmn_build_poll(dmn_work *w, dmn_job *j)
{
	char note[96];
	int st;

	if (!j->timed_out && wire_now_ns() > j->deadline) {
		j->timed_out = 1;
		kill(-j->pid, SIGKILL);
		snprintf(note, sizeof note,
		         "paravtd: build killed after %d "
		         "s\n",
		         DMN_BUILD_SECONDS);
		dmn_job_note(j, note, strlen(note));
	}
	if (waitpid(j->pid, &st, WNOHANG) != j->pid)
		return;
	if (j->fd >= 0)
		dmn_job_read(w->srv->loop, j->fd, j); /* what is left */
	dmn_job_close_fd(w, j);
	j->pid = 0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		j->failed = 1;
	if (j->timed_out) {
		dmn_job_finish(w, j);
		return;
	}
	j->step++;
	dmn_job_next(w, j);
}

void dmn_build_kill_all(dmn_work *w)
{
	dmn_job *j;
	int i;

	for (i = 0; i < DMN_MAX_JOBS; i++) {
		j = w->jobs[i];
		if (j == NULL)
			continue;
		if (j->pid > 0) {
			kill(-j->pid, SIGKILL);
			waitpid(j->pid, NULL, 0);
		}
		dmn_job_free(w, j);
	}
}

/* ---- BUILD --------------------------------------------------------------- */

/* What dmn_strv_copy checks the entries as. */
enum { DMN_STRV_SOURCES, DMN_STRV_CFLAGS, DMN_STRV_LDFLAGS };

/* Copies the checked entries of a string array (what: DMN_STRV_*) into a
 * new vector.  0, or -1 with a sentence in err (*out is then NULL). */
static int dmn_strv_copy(const msgpack_object *arr, uint32_t max, int what,
                         char ***out, uint32_t *n, char *err, size_t errlen)
{
	int flags = what != DMN_STRV_SOURCES;
	char item[WIRE_TEXT_MAX], why[128];
	uint32_t i, k = arr->via.array.size;

	*out = NULL;
	*n = 0;
	if (k > max) {
		snprintf(err, errlen, "BUILD: more than %u %s", max,
		         flags ? "flags" : "sources");
		return -1;
	}
	*out = calloc(k + 1, sizeof **out);
	for (i = 0; *out != NULL && i < k; i++, (*n)++) {
		if (wire_strv_get(arr, i, item, sizeof item) != 0) {
			snprintf(err, errlen, "BUILD: entry %u too long", i);
			goto out_free;
		}
		if (flags && dmn_flag_ok(item, what == DMN_STRV_LDFLAGS, err,
		                         errlen) != 0)
			goto out_free;
		if (!flags && dmn_build_name_ok(item, 0, why, sizeof why)) {
			snprintf(err, errlen, "BUILD: source %.300s %s", item,
			         why);
			goto out_free;
		}
		if (((*out)[i] = malloc(strlen(item) + 1)) == NULL)
			break;
		strcpy((*out)[i], item);
	}
	if (*out != NULL && *n == k)
		return 0;
	snprintf(err, errlen, "BUILD: out of memory");
out_free:
	dmn_strv_free(*out, *n);
	*out = NULL;
	return -1;
}

/* Checks BUILD's fields into a new job (not started).  NULL with err. */
static dmn_job *dmn_job_new(const wire_msg *m, uint64_t *id, char *err,
                            size_t errlen)
{
	const msgpack_object *srcs, *cflags, *ldflags;
	char why[128];
	uint32_t i;
	dmn_job *j = calloc(1, sizeof *j);

	if (j == NULL) {
		snprintf(err, errlen, "BUILD: out of memory");
		return NULL;
	}
	j->fd = -1;
	wire_buf_init(&j->diag, DMN_DIAG_MAX + 64);
	if (wire_unpack(m, err, errlen, id, j->program, sizeof j->program,
	                &srcs, &cflags, &ldflags) != 0)
		goto out_free;
	if (dmn_build_name_ok(j->program, 0, why, sizeof why) != 0) {
		snprintf(err, errlen, "BUILD: program %.300s %s", j->program,
		         why);
		goto out_free;
	}
	if (srcs->via.array.size == 0) {
		snprintf(err, errlen, "BUILD: no sources");
		goto out_free;
	}
	if (dmn_strv_copy(srcs, DMN_BUILD_FILES, DMN_STRV_SOURCES, &j->srcs,
	                  &j->nsrcs, err, errlen) != 0 ||
	    dmn_strv_copy(cflags, DMN_CFLAGS_MAX, DMN_STRV_CFLAGS, &j->cflags,
	                  &j->ncflags, err, errlen) != 0 ||
	    dmn_strv_copy(ldflags, DMN_CFLAGS_MAX, DMN_STRV_LDFLAGS,
	                  &j->ldflags, &j->nldflags, err, errlen) != 0)
		goto out_free;
	for (i = 0; i < j->ncflags; i++) {
		j->pvm |= strcmp(j->cflags[i], "-DPARAVT_PVM=1") == 0;
		j->mpi |= strcmp(j->cflags[i], "-DPARAVT_MPI=1") == 0;
	}
	return j;
out_free:
	dmn_job_discard(j);
	return NULL;
}

/* A free slot in w->jobs, or -1. */
static int dmn_job_slot(const dmn_work *w)
{
	int i;

	for (i = 0; i < DMN_MAX_JOBS; i++)
		if (w->jobs[i] == NULL)
			return i;
	return -1;
}

void dmn_build_start(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	char err[WIRE_TEXT_MAX];
	uint64_t id;
	dmn_sess *s = NULL;
	dmn_build *b = NULL;
	dmn_job *j;
	int slot;

	j = dmn_job_new(m, &id, err, sizeof err);
	if (j == NULL) {
		dmn_work_err(c, WIRE_EARG, m->seq, "%s", err);
		return;
	}
	if (j->mpi && !w->port.native) {
		dmn_work_err(c, WIRE_EARG, m->seq, "BUILD: -DPARAVT_MPI=1 "
		             "only on native ports (this daemon is %s)",
		             w->port.name);
		dmn_job_discard(j);
		return;
	}
	slot = dmn_job_slot(w);
	if ((s = dmn_work_cur(w, err, sizeof err)) == NULL ||
	    (b = dmn_build_get(s, id, 1, err, sizeof err)) == NULL ||
	    b->job != NULL || slot < 0) {
		dmn_work_err(c, WIRE_ESTATE, m->seq, "BUILD: %s",
		             slot < 0           ? "too many builds at once"
		             : s && b && b->job ? "this build is already "
		                                  "compiling"
		                                : err);
		dmn_job_discard(j);
		return;
	}
	j->work = w;
	j->sess = s;
	j->build = b;
	j->ref_seq = m->seq;
	j->deadline = wire_now_ns() + (uint64_t)DMN_BUILD_SECONDS * 1000000000u;
	b->job = j;
	s->njobs++;
	w->jobs[slot] = j;
	dmn_log(DMN_INFO, "session %llu: build %llu: %u source(s) -> %s",
	        (unsigned long long)s->id, (unsigned long long)id, j->nsrcs,
	        j->program);
	dmn_job_next(w, j);
	dmn_work_reap_soon(w);
}
