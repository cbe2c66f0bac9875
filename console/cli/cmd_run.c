/*
 * cmd_run.c — the commands that run a build: `run` (con_cmd.h), then
 * `continue` and `kill`, and the wait for the processes to settle that
 * run and continue share (and paravt trace, con_batch.c):
 *
 *   run [NODE...] [--timeout SECS] [--exec PATH [ARGS...]] [-- ARGS...]
 *       [< FILE]
 *   run pvm [NODE] [--timeout SECS] (MASTER | --exec PATH) [ARGS...]
 *       [< FILE]
 *   run mpi [NODE] [--timeout SECS] [MPIRUN-OPTION...] -np N
 *       (PROG | --exec PATH) [ARGS...] [< FILE]
 *
 * "< FILE" (or "<FILE") must be the last words: the console reads FILE
 * and the run's first process (each plain program, the PVM master, MPI
 * rank 0) gets its bytes as standard input, then EOF; without it,
 * standard input is at EOF.  MASTER and PROG must be programs of the
 * last build: a name that is not is an error, never an argument.
 * --exec PATH runs a program that exists on the node instead of a build
 * (MPI programs through LD_PRELOAD of libparavt_mpi.so, PVM programs of
 * libparavt_pvm.so).  mpirun's options are checked against the list in
 * wire_flags.h here and again by the daemon.
 *
 * Layout: the input file; run pvm/mpi's words; run mpi's options; the
 * command; continue, kill and the wait.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "con_cmd.h"
#include "con_cmd_int.h"
#include "con_dbg.h"
#include "con_ev.h"
#include "wire.h"
#include "wire_flags.h"

#define CON_DBG_QUIET_SECS 0.2  /* events are over after this silence */
#define CON_DBG_QUIET_MAX 3.0   /* longest wait for that silence */

/* What one run command asked for (words borrowed from argv). */
typedef struct con_run_cmd {
	const char *kind;     /* "plain", "pvm", "mpi" */
	const char *node;     /* run pvm/mpi: the node, or NULL */
	char prog[WIRE_TEXT_MAX]; /* run pvm/mpi: the program, or "" */
	double secs;          /* --timeout */
	const char *in_file;  /* < FILE, or NULL */
	con_run_opts o;       /* exec, stdin, launch */
	char **args;          /* the program's arguments */
	int nargs;
} con_run_cmd;

/* ---- the input file ----------------------------------------------------- */

/* Takes "< FILE" or "<FILE" off the end of argv into c->in_file.  0, or
 * -1 with err when a "<" word stands elsewhere. */
static int con_run_redirect(int *argc, char **argv, con_run_cmd *c, char *err,
			    size_t errlen)
{
	int i, n = *argc;

	if (n >= 2 && strcmp(argv[n - 2], "<") == 0) {
		c->in_file = argv[n - 1];
		n -= 2;
	} else if (n >= 2 && argv[n - 1][0] == '<' && argv[n - 1][1] != '\0') {
		c->in_file = argv[n - 1] + 1;
		n -= 1;
	}
	for (i = 1; i < n; i++)
		if (argv[i][0] == '<') {
			snprintf(err, errlen, "run: '< FILE' must come last");
			return -1;
		}
	*argc = n;
	return 0;
}

/* Reads c->in_file into c->o (caller frees in_data).  0, or -1 with
 * err. */
static int con_run_read_input(con_run_cmd *c, char *err, size_t errlen)
{
	struct stat st;
	char *data;
	FILE *f;

	if (c->in_file == NULL)
		return 0;
	f = fopen(c->in_file, "rb");
	if (f == NULL || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "run: cannot read %s%s%s", c->in_file,
			 f != NULL ? ": not a regular file" : ": ",
			 f != NULL ? "" : strerror(errno));
		if (f != NULL)
			fclose(f);
		return -1;
	}
	if ((uint64_t)st.st_size > WIRE_FRAME_MAX_HARD / 2) {
		snprintf(err, errlen, "run: %s has %lld bytes; standard input "
			 "travels in one frame of at most %u", c->in_file,
			 (long long)st.st_size, WIRE_FRAME_MAX_HARD / 2);
		fclose(f);
		return -1;
	}
	data = malloc((size_t)st.st_size + 1);
	if (data == NULL ||
	    fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		snprintf(err, errlen, "run: cannot read %s", c->in_file);
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	c->o.in_data = data;
	c->o.in_len = (size_t)st.st_size;
	return 0;
}

/* ---- run pvm/mpi's words ------------------------------------------------ */

/* The program name of word: its base name without ".c", into buf. */
static void con_run_prog_name(const char *word, char *buf, size_t n)
{
	const char *slash = strrchr(word, '/'), *s = slash ? slash + 1 : word;
	size_t len = strlen(s);

	if (len > 2 && strcmp(s + len - 2, ".c") == 0)
		len -= 2;
	snprintf(buf, n, "%.*s", (int)len, s);
}

/* True if name is a program of the last build. */
static int con_run_is_prog(const char *name)
{
	char **progs;
	size_t n, i;

	progs = con_dbg_programs(&n);
	for (i = 0; i < n; i++)
		if (strcmp(progs[i], name) == 0)
			return 1;
	return 0;
}

/* At argv[*i]: "--exec PATH" sets c->o.exec, leaves *i at PATH and
 * returns 1; 0 if not there; -1 with err (also for a second one). */
static int con_run_exec(int argc, char **argv, int *i, con_run_cmd *c,
			char *err, size_t errlen)
{
	if (strcmp(argv[*i], "--exec") != 0)
		return 0;
	if (c->o.exec != NULL) {
		snprintf(err, errlen, "run: --exec given twice");
		return -1;
	}
	if (*i + 1 >= argc || argv[*i + 1][0] != '/') {
		snprintf(err, errlen, "run: --exec needs the absolute path of "
			 "a program on the node");
		return -1;
	}
	c->o.exec = argv[++*i]; /* *i: the last word taken */
	return 1;
}

/* Reads the leading [NODE] [--timeout SECS] [--exec PATH] of run pvm/mpi
 * from argv[*i]: a word that names a node (and no program of the build)
 * is the node.
 * 0 or -1 with err. */
static int con_run_lead(int argc, char **argv, int *i, con_run_cmd *c,
			char *err, size_t errlen)
{
	int r;

	for (; *i < argc; ++*i) {
		r = con_cmd_dbg_timeout(argc, argv, i, &c->secs, err, errlen);
		if (r == 0)
			r = con_run_exec(argc, argv, i, c, err, errlen);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (c->node != NULL || con_node_find(argv[*i]) == NULL ||
		    con_run_is_prog(argv[*i]))
			return 0;
		c->node = argv[*i];
	}
	return 0;
}

/* ---- run mpi's options -------------------------------------------------- */

/* Takes mpirun's options (with -np N) from argv[*i] up to the program or
 * --exec into c->o.launch (words borrowed; "-np" for its synonyms).  0
 * or -1 with err. */
static int con_run_mpi_opts(int argc, char **argv, int *i, con_run_cmd *c,
			    char *err, size_t errlen)
{
	char why[WIRE_TEXT_MAX], *end;
	long np;
	int k, r;

	for (; *i < argc && argv[*i][0] == '-' && strcmp(argv[*i], "--");
	     *i += k) {
		r = con_cmd_dbg_timeout(argc, argv, i, &c->secs, err, errlen);
		if (r == 0)
			r = con_run_exec(argc, argv, i, c, err, errlen);
		if (r != 0) {
			k = 1;
			if (r < 0)
				return -1;
			continue;
		}
		k = wire_mpirun_opt(argv + *i, argc - *i, why, sizeof why);
		if (k < 0) {
			snprintf(err, errlen, "run mpi: %s", why);
			return -1;
		}
		if (wire_mpirun_is_np(argv[*i])) {
			np = strtol(argv[*i + 1], &end, 10);
			if (*end != '\0' || np < 1 || np > 9999) {
				snprintf(err, errlen, "run mpi: -np needs a "
					 "number from 1 to 9999, not '%s'",
					 argv[*i + 1]);
				return -1;
			}
			c->o.nranks = (int)np;
			argv[*i] = "-np";
		}
		for (r = 0; r < k; r++)
			c->o.launch[c->o.nlaunch++] = argv[*i + r];
	}
	if (c->o.nranks == 0) {
		snprintf(err, errlen, "usage: run mpi [NODE] [--timeout SECS] "
			 "[MPIRUN-OPTION...] -np N (PROG | --exec PATH) "
			 "[ARGS...] [< FILE]");
		return -1;
	}
	if (*i < argc && strcmp(argv[*i], "--") == 0)
		++*i;
	return 0;
}

/* run pvm / run mpi after the kind word: fills c.  0 or -1 with err. */
static int con_run_kind_words(int argc, char **argv, con_run_cmd *c,
			      char *err, size_t errlen)
{
	int i = 2, r, mpi = strcmp(c->kind, "mpi") == 0;
	char **progs;
	size_t np;

	if (con_run_lead(argc, argv, &i, c, err, errlen) < 0 ||
	    (mpi && con_run_mpi_opts(argc, argv, &i, c, err, errlen) < 0))
		return -1;
	r = i < argc && c->o.exec == NULL ?
	    con_run_exec(argc, argv, &i, c, err, errlen) : 0;
	if (r < 0)
		return -1;
	if (r > 0)
		i++;
	if (c->o.exec == NULL && i < argc) {
		con_run_prog_name(argv[i++], c->prog, sizeof c->prog);
	} else if (c->o.exec == NULL && !mpi) {
		snprintf(err, errlen, "usage: run pvm [NODE] [--timeout SECS] "
			 "(MASTER | --exec PATH) [ARGS...] [< FILE]");
		return -1;
	} else if (c->o.exec == NULL) {
		progs = con_dbg_programs(&np);
		snprintf(c->prog, sizeof c->prog, "%s", np > 0 ? progs[0] : "");
	}
	c->args = argv + i;
	c->nargs = argc - i;
	return 0;
}

/* run [NODE...] after "run": nodes compacted to argv[1..*nnodes].  0 or
 * -1 with err. */
static int con_run_plain_words(int argc, char **argv, int *nnodes,
			       con_run_cmd *c, char *err, size_t errlen)
{
	int i, r;

	*nnodes = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		r = con_run_exec(argc, argv, &i, c, err, errlen);
		if (r < 0)
			return -1;
		if (r > 0) {
			if (++i < argc && strcmp(argv[i], "--") == 0)
				i++;
			break;
		}
		r = con_cmd_dbg_timeout(argc, argv, &i, &c->secs, err, errlen);
		if (r < 0)
			return -1;
		if (r == 0)
			argv[1 + (*nnodes)++] = argv[i];
	}
	c->args = argv + i;
	c->nargs = argc - i;
	return 0;
}

/* ---- the command -------------------------------------------------------- */

int con_cmd_dbg_run(int argc, char **argv, char *err, size_t errlen)
{
	con_run_cmd c;
	int rc = WIRE_EARG, nnodes = 0;

	memset(&c, 0, sizeof c);
	c.secs = CON_DBG_RUN_SECS;
	c.kind = argc > 1 && (strcmp(argv[1], "pvm") == 0 ||
			      strcmp(argv[1], "mpi") == 0) ? argv[1] : "plain";
	c.o.launch = calloc((size_t)argc + 1, sizeof *c.o.launch);
	if (c.o.launch == NULL) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	if (con_run_redirect(&argc, argv, &c, err, errlen) < 0 ||
	    (strcmp(c.kind, "plain") != 0 ?
	     con_run_kind_words(argc, argv, &c, err, errlen) :
	     con_run_plain_words(argc, argv, &nnodes, &c, err, errlen)) < 0 ||
	    con_run_read_input(&c, err, errlen) < 0)
		goto out_free;
	if (strcmp(c.kind, "plain") == 0)
		rc = con_dbg_run(argv + 1, nnodes, c.args, c.nargs, &c.o, err,
				 errlen);
	else
		rc = con_dbg_run_kind(c.kind, c.node, c.prog, c.args, c.nargs,
				      &c.o, err, errlen);
	if (rc < 0) {
		if (strcmp(c.kind, "plain") != 0 &&
		    strncmp(err, "run ", 4) != 0) {
			char tmp[CON_CMD_ERR];

			snprintf(tmp, sizeof tmp, "run %s: %s", c.kind, err);
			snprintf(err, errlen, "%s", tmp);
		}
		goto out_free;
	}
	con_cmd_dbg_settle(c.secs);
	if (strcmp(c.kind, "plain") == 0 && con_dbg_proc_first() == NULL) {
		snprintf(err, errlen, "run: no process started");
		rc = WIRE_ESTATE;
	}
out_free:
	free((void *)c.o.in_data);
	free(c.o.launch);
	return rc;
}

/* ---- continue, kill and the wait -------------------------------------- */

/* Reads "--timeout SECS" at argv[*i] into *secs.  1 if it was there, 0
 * if not, -1 with err. */
int con_cmd_dbg_timeout(int argc, char **argv, int *i, double *secs,
			char *err, size_t errlen)
{
	char *end;

	if (strcmp(argv[*i], "--timeout") != 0)
		return 0;
	if (*i + 1 >= argc || (*secs = strtod(argv[*i + 1], &end), *end) ||
	    !(*secs > 0 && *secs <= 86400)) {
		snprintf(err, errlen, "%s: --timeout needs 0 < SECS <= 86400",
			 argv[0]);
		return -1;
	}
	++*i;
	return 1;
}

/* Says which processes are still running after a wait that timed out. */
static void con_cmd_dbg_still_running(double secs)
{
	con_proc *p;

	printf("[still running after %g s:", secs);
	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->state == CON_PROC_RUNNING)
			printf(" p%d", p->id);
	printf("; use continue to wait more, or kill]\n");
}

/* Wait condition: no event batch arrived for CON_DBG_QUIET_SECS (the
 * last batches of processes that just ended are in). */
static int con_cmd_dbg_quiet(void *ctx)
{
	uint64_t last = con_ev_last_arrival(), now = wire_now_ns();

	return now - last > (uint64_t)(CON_DBG_QUIET_SECS * 1e9);
}

/* True if some process is stopped at a breakpoint. */
static int con_cmd_dbg_any_stopped(void)
{
	con_proc *p;

	for (p = con_dbg_proc_first(); p != NULL; p = p->next)
		if (p->state == CON_PROC_STOPPED)
			return 1;
	return 0;
}

/* Waits until the processes settle and reports a timeout or Ctrl-C.
 * When every process ended and events arrived, waits on a little for
 * the last batches, and again for processes that started meanwhile (PVM
 * workers, MPI ranks whose PROC_START came late).  A stop at a
 * breakpoint gives the prompt back at once. */
static int con_cmd_dbg_settled_rc; /* how the last settle ended */

void con_cmd_dbg_settle(double secs)
{
	int rc;

	con_hang_watchdog(1);
	rc = con_cmd_dbg_wait(con_dbg_settled, NULL, secs);
	if (rc == 0 && con_ev_last_arrival() != 0 &&
	    !con_cmd_dbg_any_stopped()) {
		con_cmd_dbg_wait(con_cmd_dbg_quiet, NULL, CON_DBG_QUIET_MAX);
		rc = con_cmd_dbg_wait(con_dbg_settled, NULL, secs);
	}
	con_hang_watchdog(0);
	if (rc == WIRE_ETIMEOUT)
		con_cmd_dbg_still_running(secs);
	if (rc == WIRE_ESTATE)
		printf("[interrupted: processes go on; see info procs]\n");
	con_ev_cmd_live_flush();
	if (rc == CON_DBG_EWATCH)
		printf("[stopped waiting: %s]\n", con_dbg_watch_why());
	con_cmd_dbg_settled_rc = rc;
	con_cmd_display_show();
}

/* How the wait of the last run or continue ended: 0 (settled),
 * WIRE_ETIMEOUT, WIRE_ESTATE (interrupted) or CON_DBG_EWATCH. */
int con_cmd_dbg_last_settle(void)
{
	return con_cmd_dbg_settled_rc;
}

/* Resumes every stopped process of spec (the focus, or all in stop-mode
 * all).  0, or WIRE_ESTATE with err when none is stopped. */
static int con_cmd_resume_set(const char *spec, char *err, size_t errlen)
{
	con_proc **v;
	size_t n, i;
	int any = 0;

	if (con_pset_resolve(spec, &v, &n, err, errlen) < 0)
		return WIRE_EARG;
	for (i = 0; i < n; i++)
		if (v[i]->state == CON_PROC_STOPPED &&
		    con_dbg_resume(v[i], err, errlen) == 0)
			any = 1;
	free(v);
	if (!any && strcmp(spec, "stopped") == 0)
		snprintf(err, errlen, "no process is stopped");
	else if (!any)
		snprintf(err, errlen, "no process of %s is stopped", spec);
	return any ? 0 : WIRE_ESTATE;
}

/* continue [PROC...|all] [--timeout SECS] */
int con_cmd_dbg_continue(int argc, char **argv, char *err, size_t errlen)
{
	double secs = CON_DBG_RUN_SECS;
	int i, r, any = 0, all = 0;
	con_proc *p;

	con_dbg_init();
	for (i = 1; i < argc; i++) {
		r = con_cmd_dbg_timeout(argc, argv, &i, &secs, err, errlen);
		if (r < 0)
			return WIRE_EARG;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "all") == 0) {
			all = 1;
			continue;
		}
		p = con_dbg_proc_find(argv[i], err, errlen);
		if (p == NULL || con_dbg_resume(p, err, errlen) < 0)
			return WIRE_EARG;
		any = 1;
	}
	for (p = con_dbg_proc_first(); all && p != NULL; p = p->next)
		if (p->state == CON_PROC_STOPPED) {
			if (con_dbg_resume(p, err, errlen) < 0)
				return WIRE_EIO;
			any = 1;
		}
	if (!any && !all && (con_pset_focus() != NULL || con_dbg_stop_all())) {
		r = con_cmd_resume_set(con_pset_focus() != NULL ?
				       con_pset_focus() : "stopped", err, errlen);
		if (r < 0)
			return r;
	} else if (!any && !all) {
		p = con_dbg_current();
		if (p == NULL) {
			snprintf(err, errlen, "no current process (run first)");
			return WIRE_ESTATE;
		}
		if (con_dbg_resume(p, err, errlen) < 0)
			return WIRE_ESTATE;
	} else if (!any) {
		snprintf(err, errlen, "no process is stopped");
		return WIRE_ESTATE;
	}
	con_cmd_dbg_settle(secs);
	return 0;
}

/* kill [PROC|all] */
int con_cmd_dbg_kill(int argc, char **argv, char *err, size_t errlen)
{
	con_proc *p = NULL;
	int rc;

	con_dbg_init();
	if (argc > 2) {
		snprintf(err, errlen, "usage: kill [PROC|all]");
		return WIRE_EARG;
	}
	if (argc == 2 && strcmp(argv[1], "all") != 0) {
		p = con_dbg_proc_find(argv[1], err, errlen);
		if (p == NULL)
			return WIRE_EARG;
	}
	rc = con_dbg_kill(p, err, errlen);
	if (rc < 0)
		return rc;
	if (con_cmd_dbg_wait(con_dbg_killed, p, CON_DBG_KILL_SECS) < 0) {
		snprintf(err, errlen, "kill: processes still alive after %g s",
			 CON_DBG_KILL_SECS);
		return WIRE_ETIMEOUT;
	}
	return 0;
}
