/*
 * con_inst.h — the source-to-source instrumenter (libclang; console only).
 *
 * Input: the program's C sources with the compiler options that parse
 * them (-I, -D, -std...), and the static breakpoints (file:line or
 * function; `#pragma paravt break` lines in the sources are found here).
 * Output: the files to ship to every node — each source rewritten with
 * ParaVT's templates (see breakpoints/paravt_rt.h for the exact form),
 * #line directives so that diagnostics and events name the user's original
 * file and line, and the user's own headers it includes — plus, for each
 * breakpoint, where it really landed and which variables it records.
 *
 * Paths: files are shipped relative to a root directory (the deepest
 * directory that contains every source and user header); #line directives
 * carry the path as the user gave it to `load`.
 */
#ifndef PARAVT_CON_INST_H
#define PARAVT_CON_INST_H

#include <stddef.h>
#include <stdint.h>

/* A breakpoint as the user set it. */
typedef struct con_bp_spec {
	int id;           /* breakpoint number shown to the user (>= 1) */
	const char *file; /* "foo.c" for file:line, NULL for a function */
	int line;         /* line for file:line */
	const char *func; /* function name, or NULL */
	int temp;         /* tbreak: stop once */
} con_bp_spec;

/* A generated or copied file to ship. */
typedef struct con_inst_file {
	char *name;  /* path relative to the root, "src/foo.c"; owned */
	char *data;  /* contents; owned */
	size_t len;  /* bytes in data */
	int is_source; /* 1: compile it; 0: header */
} con_inst_file;

/* One recorded variable of a breakpoint (for info locals / globals). */
typedef struct con_inst_var {
	char *name;  /* as in the source; owned */
	char *type;  /* C spelling of its type; owned */
	int scope;   /* enum pvt_scope (breakpoints/paravt_rt.h) */
} con_inst_var;

/* Where a breakpoint landed. */
typedef struct con_inst_bp {
	int id;            /* user's number; pragma breakpoints get new ones */
	char *file;        /* file as given to load; owned */
	int line;          /* line of the statement it stops before */
	int req_line;      /* line the user asked for (0 for a function bp) */
	char *func;        /* enclosing function; owned */
	int unit;          /* translation unit index (pvt_unit.id) */
	int temp;          /* tbreak */
	int from_pragma;   /* set by #pragma paravt break */
	con_inst_var *vars; /* variables recorded, in pvt_var order; owned */
	size_t nvars;
} con_inst_bp;

/* A statement with a line probe (paravt_rt.h: para_vt_line): where a
 * live breakpoint or a step can stop. */
typedef struct con_inst_site {
	int unit;   /* translation unit index (pvt_unit.id) */
	int line;   /* its line */
	int func;   /* index of its function in the result's funcs */
} con_inst_site;

/* Everything one instrumentation run produced. */
typedef struct con_inst_result {
	con_inst_file *files; /* sources and headers to ship; owned */
	size_t nfiles;
	con_inst_bp *bps;     /* one per breakpoint that landed; owned */
	size_t nbps;
	con_inst_site *sites; /* every line probe, in source order per
				 unit; owned */
	size_t nsites;
	char **funcs;         /* names of the functions sites are in;
				 owned */
	size_t nfuncs;
	char **units;         /* file of each unit (as loaded); owned */
	size_t nunits;
	char *notes;          /* lines for the user ("breakpoint 2 moved
				 from foo.c:10 to foo.c:12"), or NULL; owned */
	double seconds;       /* time spent (for the bench) */
	size_t lines;         /* source lines processed */
	char *root;           /* absolute directory the file names are
				 relative to; owned */
} con_inst_result;

/* Options of one run. */
typedef struct con_inst_opts {
	const char *const *sources; /* paths of the .c files, as loaded */
	size_t nsources;
	const char *const *cflags;  /* -I, -D, -U, -std options */
	size_t ncflags;
	const con_bp_spec *bps;     /* breakpoints set by the user */
	size_t nbps;
	int next_bp_id;             /* first id for pragma breakpoints */
	const char *build_id;       /* label stored in the type tables */
	int no_probes;              /* 1: no line probes (what they cost
				       is measured against this; live
				       breakpoints and stepping need them) */
	int pvm;                    /* unused, keep 0: the PVM wrapper
				       header is not injected here; a BUILD
				       with -DPARAVT_PVM=1 has the daemon
				       compile with -include paravt_pvm.h
				       (con_dbg_build.c) */
} con_inst_opts;

/*
 * Parses and instruments.  0 with *res filled (free it with
 * con_inst_result_free), or -1 with a sentence in err: a source that does
 * not parse (with the first diagnostic, file:line), a breakpoint outside
 * any function or after the last statement, an unknown function.
 */
int con_inst_run(const con_inst_opts *o, con_inst_result *res, char *err,
		 size_t errlen);

/*
 * Rewrites one compiler option for the shipped layout, where the daemon
 * compiles in the directory that holds the shipped files: "-IDIR" or
 * "-iquoteDIR" (joined form) with DIR inside res->root becomes relative to
 * the root ("-Iinclude", "-I."); any other option is copied unchanged.
 * Relative DIRs are taken from the console's current directory.  Caller
 * frees; NULL on out of memory.
 */
char *con_inst_rel_cflag(const con_inst_result *res, const char *flag);

/* 1 if a breakpoint's file names the source at path: same string, same
 * real path, or same base name when the spec gives no directory. */
int con_inst_same_file(const char *spec, const char *path);

/* The site where a breakpoint set on file:line after the build stops:
 * the first line probe at or after line in the unit file names (as a
 * debugger moves a breakpoint to the next line with code).  Its index
 * in res->sites, or -1 when the file is not a unit or has no code from
 * line on. */
long con_inst_site_at(const con_inst_result *res, const char *file,
		      int line);

/* The first site of function func (its first statement), or -1. */
long con_inst_site_func(const con_inst_result *res, const char *func);

/* Frees everything in res (NULL-safe) and zeroes it. */
void con_inst_result_free(con_inst_result *res);

#endif
