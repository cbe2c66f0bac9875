/*
 * wire_flags.c — the compiler and linker flags a BUILD may carry
 * (wire_flags.h has the rules).
 *
 * Layout: refusals with their reasons (checked first, so that a refused
 * flag is never taken by a broader family below); directory and value
 * checks; the compile families; the link families and the -Wl, items;
 * the entry points.
 */
#include <stdio.h>
#include <string.h>

#include "wire.h"
#include "wire_flags.h"

/* A flag family refused, and why. */
typedef struct wire_flag_no {
	const char *prefix; /* the flag, or its start */
	int exact;          /* 1: only the whole word; 0: any word it starts */
	const char *why;    /* the reason, after "refused: " */
} wire_flag_no;

static const wire_flag_no wire_flag_refused[] = {
	{"-o", 0, "it names the output file; the node names the program "
	 "after its main source and keeps every file in the build "
	 "directory"},
	{"-c", 1, "paravt compiles and links by itself"},
	{"-S", 1, "paravt compiles and links by itself"},
	{"-E", 1, "paravt compiles and links by itself"},
	{"-M", 1, "paravt compiles and links by itself"},
	{"-MM", 1, "paravt compiles and links by itself"},
	{"-shared", 1, "paravt builds programs, not libraries"},
	{"-x", 0, "the language is C"},
	{"-MF", 0, "it names a file to write"},
	{"-MT", 0, "it names a dependency target"},
	{"-MQ", 0, "it names a dependency target"},
	{"-B", 0, "it makes the compiler run other programs"},
	{"-specs", 0, "it makes the compiler run other programs"},
	{"--sysroot", 0, "it changes where the node's compiler finds its "
	 "system"},
	{"-wrapper", 1, "it makes the compiler run other programs"},
	{"-fplugin", 0, "it loads code into the compiler"},
	{"-iplugindir", 0, "it loads code into the compiler"},
	{"-Wa,", 0, "it passes options to the assembler"},
	{"-Wp,", 0, "it passes options to the preprocessor"},
	{"-Xlinker", 1, "use -Wl,OPTION"},
	{"-Xassembler", 1, "it passes options to the assembler"},
	{"-Xpreprocessor", 1, "it passes options to the preprocessor"},
	{NULL, 0, NULL}};

/* Linker options allowed after -Wl, (an item equal to one, or starting
 * with one followed by '='). */
static const char *const wire_flag_ld_ok[] = {
	"-rpath", "--rpath", "-rpath-link", "--rpath-link", "-R",
	"--as-needed", "--no-as-needed", "--start-group", "--end-group",
	"-(", "-)", "-Bstatic", "-Bdynamic", "-E", "--export-dynamic",
	"--no-export-dynamic", "-z", "--gc-sections", "--no-gc-sections",
	"--no-undefined", "--allow-shlib-undefined", "-O1", "-O2",
	"--whole-archive", "--no-whole-archive", "--allow-multiple-definition",
	"--copy-dt-needed-entries", "--no-copy-dt-needed-entries", "--wrap",
	"--defsym", "--enable-new-dtags", "--disable-new-dtags",
	"--hash-style", "--build-id", "--eh-frame-hdr", "-Bsymbolic",
	"--no-relax", "--relax", "-znoexecstack", "--icf", NULL};

/* Linker options of that list whose value is the next item. */
static const char *const wire_flag_ld_arg[] = {"-rpath", "--rpath",
					       "-rpath-link", "--rpath-link",
					       "-R", "-z", NULL};

/* Writes "FLAG refused: WHY" into err.  Returns WIRE_EARG. */
static int wire_flag_no_(const char *flag, const char *why, char *err,
			 size_t errlen)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "flag '%.200s' refused: %s", flag, why);
	return WIRE_EARG;
}

/* The entry of wire_flag_refused that flag falls under, or NULL. */
static const wire_flag_no *wire_flag_refusal(const char *flag)
{
	const wire_flag_no *r;

	for (r = wire_flag_refused; r->prefix != NULL; r++)
		if (r->exact ? strcmp(flag, r->prefix) == 0 :
		    strncmp(flag, r->prefix, strlen(r->prefix)) == 0)
			return r;
	return NULL;
}

/* ---- values ------------------------------------------------------------- */

/* True if dir is absolute, or relative with no empty, ".", ".." or
 * option-like component (so it stays inside the build directory). */
static int wire_flag_dir_ok(const char *dir)
{
	const char *p, *end;
	size_t n;

	if (dir[0] == '/')
		return 1;
	if (dir[0] == '\0')
		return 0;
	for (p = dir;; p = end + 1) {
		end = strchr(p, '/');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n == 0 && end == NULL && p != dir)
			return 1; /* a trailing slash */
		if (n == 0 || (n == 1 && p[0] == '.') || p[0] == '-' ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (end == NULL)
			return 1;
	}
}

/* True if s is a C identifier start followed by identifier bytes, up to
 * the end or an '=' (for -D). */
static int wire_flag_macro_ok(const char *s)
{
	size_t i;

	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
	      s[0] == '_'))
		return 0;
	for (i = 1; s[i] != '\0' && s[i] != '='; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* True if every byte of s is in set. */
static int wire_flag_only(const char *s, const char *set)
{
	return strspn(s, set) == strlen(s);
}

#define WIRE_FLAG_WORD "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
		       "0123456789_-+.=,:"

/* -m and -f: a word, and any value after '=' without '/'. */
static int wire_flag_feature(const char *flag, char *err, size_t errlen)
{
	if (flag[2] == '\0' || !wire_flag_only(flag + 2, WIRE_FLAG_WORD))
		return wire_flag_no_(flag, "a -m or -f option is a word, with "
				     "no '/' in its value (it could name a "
				     "file outside the build directory)",
				     err, errlen);
	return 0;
}

/* ---- compile ------------------------------------------------------------ */

/* Flags that take a directory or file attached: -IDIR etc.  The length
 * of the prefix flag starts with, or 0. */
static size_t wire_flag_path_prefix(const char *flag)
{
	static const char *const pfx[] = {"-isystem", "-idirafter", "-iquote",
					  "-include", "-I", NULL};
	int i;

	for (i = 0; pfx[i] != NULL; i++)
		if (strncmp(flag, pfx[i], strlen(pfx[i])) == 0)
			return strlen(pfx[i]);
	return 0;
}

/* Checks a compile flag that is not refused.  0 or WIRE_EARG. */
static int wire_flag_compile(const char *flag, char *err, size_t errlen)
{
	size_t k = wire_flag_path_prefix(flag);

	if (k > 0) {
		if (flag[k] != '\0' && wire_flag_dir_ok(flag + k))
			return 0;
		return wire_flag_no_(flag, "the directory or file must be "
				     "attached (-Idir) and absolute, or "
				     "relative inside the build without '..'",
				     err, errlen);
	}
	if (flag[1] == 'D' || flag[1] == 'U') {
		if (wire_flag_macro_ok(flag + 2) &&
		    (flag[1] == 'D' || strchr(flag, '=') == NULL))
			return 0;
		return wire_flag_no_(flag, "-D and -U need a macro name "
				     "attached (-DNAME, -DNAME=VALUE, -UNAME)",
				     err, errlen);
	}
	if ((strncmp(flag, "-std=", 5) == 0 && flag[5] != '\0' &&
	     wire_flag_only(flag + 5, "abcdefghijklmnopqrstuvwxyz0123456789+"))
	    || strcmp(flag, "-w") == 0 || strcmp(flag, "-ansi") == 0 ||
	    strcmp(flag, "-MD") == 0 || strcmp(flag, "-MMD") == 0 ||
	    strcmp(flag, "-MP") == 0 || strcmp(flag, "-save-temps") == 0 ||
	    strcmp(flag, "-save-temps=cwd") == 0 ||
	    strcmp(flag, "-save-temps=obj") == 0 ||
	    strncmp(flag, "-pedantic", 9) == 0)
		return 0;
	if (strncmp(flag, "-W", 2) == 0 && flag[2] != '\0' &&
	    strchr(flag, ',') == NULL && strchr(flag, '/') == NULL)
		return 0;
	return -1; /* not a compile-only family */
}

/* ---- link --------------------------------------------------------------- */

/* True if item is on wire_flag_ld_ok (equal, or followed by '='). */
static int wire_flag_ld_item_ok(const char *item, const char *const *list)
{
	size_t n;
	int i;

	for (i = 0; list[i] != NULL; i++) {
		n = strlen(list[i]);
		if (strncmp(item, list[i], n) == 0 &&
		    (item[n] == '\0' || (item[n] == '=' && list == wire_flag_ld_ok)))
			return 1;
	}
	return 0;
}

/* -Wl,ITEM,...: each item on the list (a value after -rpath or -z may be
 * anything without a comma).  0 or WIRE_EARG. */
static int wire_flag_wl(const char *flag, char *err, size_t errlen)
{
	char item[256], why[320];
	const char *p = flag + 4, *end;
	int value_next = 0;
	size_t n;

	if (*p == '\0')
		return wire_flag_no_(flag, "-Wl, needs linker options", err,
				     errlen);
	for (;; p = end + 1) {
		end = strchr(p, ',');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n == 0 || n >= sizeof item)
			return wire_flag_no_(flag, "an empty or overlong "
					     "linker option", err, errlen);
		memcpy(item, p, n);
		item[n] = '\0';
		if (value_next) {
			value_next = 0;
		} else if (!wire_flag_ld_item_ok(item, wire_flag_ld_ok)) {
			snprintf(why, sizeof why, "the linker option '%.100s' "
				 "is not one paravt passes (output files, maps "
				 "and scripts are refused; see paravt(1), "
				 "load)", item);
			return wire_flag_no_(flag, why, err, errlen);
		} else {
			value_next = wire_flag_ld_item_ok(item,
							  wire_flag_ld_arg);
		}
		if (end == NULL)
			break;
	}
	if (value_next)
		return wire_flag_no_(flag, "a linker option lacks its value",
				     err, errlen);
	return 0;
}

/* Checks a link flag that is not refused.  0, WIRE_EARG, or -1 when it
 * is of no link-only family. */
static int wire_flag_link(const char *flag, char *err, size_t errlen)
{
	if (strncmp(flag, "-l", 2) == 0) {
		if (flag[2] != '\0' &&
		    wire_flag_only(flag + 2, WIRE_FLAG_WORD) &&
		    strchr(flag, '=') == NULL && strchr(flag, ',') == NULL)
			return 0;
		return wire_flag_no_(flag, "-l needs a library name attached "
				     "(-lm, -l:libx.a)", err, errlen);
	}
	if (strncmp(flag, "-L", 2) == 0) {
		if (flag[2] != '\0' && wire_flag_dir_ok(flag + 2))
			return 0;
		return wire_flag_no_(flag, "-L needs a directory attached, "
				     "absolute or inside the build", err,
				     errlen);
	}
	if (strncmp(flag, "-Wl,", 4) == 0)
		return wire_flag_wl(flag, err, errlen);
	if (strcmp(flag, "-static") == 0 || strcmp(flag, "-static-libgcc") == 0 ||
	    strcmp(flag, "-rdynamic") == 0 || strcmp(flag, "-no-pie") == 0 ||
	    strcmp(flag, "-pie") == 0 || strcmp(flag, "-s") == 0)
		return 0;
	return -1;
}

/* ---- entry points ------------------------------------------------------- */

int wire_flag_is_link(const char *flag)
{
	return strncmp(flag, "-l", 2) == 0 || strncmp(flag, "-L", 2) == 0 ||
	       strncmp(flag, "-Wl,", 4) == 0;
}

int wire_flag_check(const char *flag, int kind, char *err, size_t errlen)
{
	const wire_flag_no *r;
	int rc;

	if (flag[0] != '-' || flag[1] == '\0')
		return wire_flag_no_(flag, "it is not an option", err, errlen);
	if ((r = wire_flag_refusal(flag)) != NULL)
		return wire_flag_no_(flag, r->why, err, errlen);
	if (strcmp(flag, "-pthread") == 0 ||
	    (strncmp(flag, "-O", 2) == 0 &&
	     wire_flag_only(flag + 2, "abcdefghijklmnopqrstuvwxyz0123456789")) ||
	    (strncmp(flag, "-g", 2) == 0 &&
	     wire_flag_only(flag + 2, "abcdefghijklmnopqrstuvwxyz0123456789-")))
		return 0;
	if (flag[1] == 'm' || flag[1] == 'f')
		return wire_flag_feature(flag, err, errlen);
	rc = kind == WIRE_FLAG_LINK ? wire_flag_link(flag, err, errlen) :
	     wire_flag_compile(flag, err, errlen);
	if (rc != -1)
		return rc;
	if (kind == WIRE_FLAG_COMPILE && wire_flag_link(flag, NULL, 0) != -1)
		return wire_flag_no_(flag, "it is a linker flag (give it to "
				     "load as is, or after --ldflags)", err,
				     errlen);
	if (kind == WIRE_FLAG_LINK && wire_flag_compile(flag, NULL, 0) != -1)
		return wire_flag_no_(flag, "it is a compiler flag (give it to "
				     "load as is, or after --cflags)", err,
				     errlen);
	return wire_flag_no_(flag, "it is not on the list of flags paravt "
			     "passes to the node's compiler (see paravt(1), "
			     "load)", err, errlen);
}

/* ---- mpirun options ----------------------------------------------------- */

/* One mpirun option: its names, how many values follow, and why it is
 * refused (NULL: allowed). */
typedef struct wire_mpirun_opt_def {
	const char *names;  /* "|-np|--np|-n|" */
	int nvals;          /* words after it */
	const char *why;    /* reason of a refusal, or NULL */
} wire_mpirun_opt_def;

static const wire_mpirun_opt_def wire_mpirun_opts[] = {
	{"|-np|--np|-n|-c|", 1, NULL},
	{"|-x|", 1, NULL},
	{"|--map-by|-map-by|--rank-by|-rank-by|--bind-to|-bind-to|", 1, NULL},
	{"|-npernode|--npernode|-N|-npersocket|--npersocket|", 1, NULL},
	{"|--cpus-per-proc|-cpus-per-proc|--cpus-per-rank|-cpus-per-rank|"
	 "--cpu-set|-cpu-set|--stdin|-stdin|--wdir|-wdir|--wd|-wd|", 1, NULL},
	{"|--mca|-mca|--gmca|-gmca|", 2, NULL},
	{"|--oversubscribe|-oversubscribe|--nooversubscribe|"
	 "-nooversubscribe|--use-hwthread-cpus|-use-hwthread-cpus|"
	 "--report-bindings|-report-bindings|--display-map|-display-map|"
	 "--display-allocation|-display-allocation|--timestamp-output|"
	 "-timestamp-output|--tag-output|-tag-output|--merge-stderr-to-stdout|"
	 "-merge-stderr-to-stdout|--nolocal|-nolocal|--bynode|-bynode|"
	 "--byslot|-byslot|-q|--quiet|-v|--verbose|--allow-run-as-root|", 0,
	 NULL},
	{"|--host|-host|-H|--hostfile|-hostfile|--machinefile|-machinefile|"
	 "--default-hostfile|-default-hostfile|", 1, "paravt makes the hostfile "
	 "from the up nodes of the master's port"},
	{"|--prefix|-prefix|--launch-agent|-launch-agent|", 1, "paravt starts "
	 "Open MPI's daemons on the other nodes itself"},
	{"|--output-filename|-output-filename|--xml-file|-xml-file|--xterm|"
	 "-xterm|", 1, "paravt shows each rank's output as its own"},
	{"|--xml|-xml|", 0, "paravt shows each rank's output as its own"},
	{"|--app|-app|", 1, "a run starts one program"},
	{"|-am|--am|--tune|-tune|", 1, "it reads parameter files"},
	{"|--preload-binary|-preload-binary|-s|", 0, "it copies files to the "
	 "nodes"},
	{"|--preload-files|-preload-files|", 1, "it copies files to the nodes"},
	{"|--timeout|-timeout|", 1, "--timeout before the options is paravt's "
	 "own time limit; mpirun's is not passed"},
	{NULL, 0, NULL}};

/* MCA parameters paravt sets itself. */
static const char *const wire_mpirun_mca_own[] = {
	"plm_rsh_agent", "orte_rsh_agent", "plm_rsh_args", "orte_launch_agent",
	"plm", "plm_rsh_no_tree_spawn", "orte_tag_output", NULL};

/* The definition of option name, or NULL. */
static const wire_mpirun_opt_def *wire_mpirun_find(const char *name)
{
	const wire_mpirun_opt_def *d;
	char key[64];

	if (strlen(name) + 3 > sizeof key || strchr(name, '|') != NULL)
		return NULL;
	snprintf(key, sizeof key, "|%s|", name);
	for (d = wire_mpirun_opts; d->names != NULL; d++)
		if (strstr(d->names, key) != NULL)
			return d;
	return NULL;
}

/* Checks the values of an allowed option.  0 or WIRE_EARG. */
static int wire_mpirun_vals(char *const *w, char *err, size_t errlen)
{
	int i;

	if (strcmp(w[0], "-x") == 0 && !wire_flag_macro_ok(w[1])) {
		snprintf(err, errlen, "mpirun option -x %.200s refused: -x "
			 "takes VAR or VAR=VALUE", w[1]);
		return WIRE_EARG;
	}
	if (strstr(w[0], "mca") == NULL)
		return 0;
	if (!wire_flag_only(w[1], "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ||
	    w[1][0] == '\0') {
		snprintf(err, errlen, "mpirun option %s %.200s refused: not an "
			 "MCA parameter name", w[0], w[1]);
		return WIRE_EARG;
	}
	for (i = 0; wire_mpirun_mca_own[i] != NULL; i++)
		if (strcmp(w[1], wire_mpirun_mca_own[i]) == 0) {
			snprintf(err, errlen, "mpirun option %s %s refused: "
				 "paravt sets it (the daemons on the other "
				 "nodes start through paravt)", w[0], w[1]);
			return WIRE_EARG;
		}
	return 0;
}

int wire_mpirun_opt(char *const *w, int n, char *err, size_t errlen)
{
	const wire_mpirun_opt_def *d = wire_mpirun_find(w[0]);
	char tmp[8];

	if (err == NULL) {
		err = tmp;
		errlen = sizeof tmp;
	}
	if (d == NULL) {
		snprintf(err, errlen, "mpirun option '%.200s' is not on paravt's "
			 "list (see paravt(1), run mpi)", w[0]);
		return WIRE_EARG;
	}
	if (d->why != NULL) {
		snprintf(err, errlen, "mpirun option %.200s refused: %s", w[0],
			 d->why);
		return WIRE_EARG;
	}
	if (n < 1 + d->nvals) {
		snprintf(err, errlen, "mpirun option %.200s needs %d value%s",
			 w[0], d->nvals, d->nvals == 1 ? "" : "s");
		return WIRE_EARG;
	}
	if (d->nvals > 0 && wire_mpirun_vals(w, err, errlen) != 0)
		return WIRE_EARG;
	return 1 + d->nvals;
}

int wire_mpirun_is_np(const char *w)
{
	return strcmp(w, "-np") == 0 || strcmp(w, "--np") == 0 ||
	       strcmp(w, "-n") == 0 || strcmp(w, "-c") == 0;
}
