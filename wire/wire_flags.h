/*
 * wire_flags.h — which compiler and linker flags a BUILD may carry.
 *
 * The console's `load` takes the flags of a user's Makefile and sends
 * them in BUILD (cflags for every compile step, ldflags for the link);
 * the daemon passes them to its port's compiler as argv words, never
 * through a shell.  Both sides check every flag with the same rules, so
 * that a typo fails at `load` and a peer that skips the console's check
 * still cannot make the node's compiler write outside the build
 * directory, run another program or load code into itself.
 *
 * The rules (paravt(1), load, lists them for users):
 *   compile: -DNAME[=V] -UNAME -IDIR -iquoteDIR -isystemDIR -idirafterDIR
 *            -includeFILE -std= -O* -g* -W<warning> -w -pedantic*
 *            -ansi -pthread -m<machine> -f<feature> -MD -MMD -MP
 *            -save-temps[=cwd|obj]
 *   link:    -lLIB -l:FILE -LDIR -pthread -static -static-libgcc
 *            -rdynamic -no-pie -pie -s -m<machine> -f<feature> -O* -g*
 *            -Wl,ITEM,... with the linker options listed in wire_flags.c
 * A DIR or FILE is absolute (read on the node) or relative to the build
 * directory without ".." or "." components.  A value after "=" in -m
 * and -f flags must not hold a '/' (it could name a file elsewhere).
 * Refused with a reason: -o (the output), -c -S -E -M -MM -x -shared
 * (change what is produced), -MF -MT -MQ (name files), -B -specs
 * --sysroot -wrapper -fplugin (run or load other code), -Wa, -Wp,
 * -Xlinker -Xassembler -Xpreprocessor (options for other tools), and
 * any word that is not an option.
 *
 * Node-side code: C99 only.
 */
#ifndef PARAVT_WIRE_FLAGS_H
#define PARAVT_WIRE_FLAGS_H

#include <stddef.h>

/* Where a flag goes. */
enum wire_flag_kind {
	WIRE_FLAG_COMPILE, /* every compile step (BUILD cflags) */
	WIRE_FLAG_LINK     /* the link step (BUILD ldflags) */
};

/*
 * Checks one flag of kind (enum wire_flag_kind).  Returns 0, or
 * WIRE_EARG with a sentence in err that names the flag and says why
 * ("-o refused: it names the output file; ...").  err may be NULL.
 */
int wire_flag_check(const char *flag, int kind, char *err, size_t errlen);

/* True if flag is one a linker takes (-l, -L, -Wl,): `load` sends these
 * to the link step. */
int wire_flag_is_link(const char *flag);

/*
 * mpirun options a RUN of kind "mpi" may pass (its launch field), from
 * Open MPI 4.1's mpirun(1): -np/-n N, -x VAR[=VALUE], --map-by,
 * --rank-by, --bind-to, -npernode, -N, -npersocket, --cpus-per-proc,
 * --cpu-set, --stdin, --wdir, --mca/--gmca KEY VALUE (not the MCA
 * parameters paravt sets: plm_rsh_agent, plm, ...), and the switches
 * --oversubscribe, --nooversubscribe, --use-hwthread-cpus,
 * --report-bindings, --display-map, --display-allocation,
 * --timestamp-output, --tag-output, --merge-stderr-to-stdout, --nolocal,
 * --bynode, --byslot, -q, -v (with one or two dashes where mpirun takes
 * both).  Refused with the reason: --host and the hostfile options (paravt
 * makes the hostfile), --prefix and --launch-agent, --output-filename,
 * --xml, --xterm, --app, -am, --tune, --preload-*, --timeout.
 *
 * wire_mpirun_opt checks the option at w[0] with the n - 1 words after
 * it: the number of words it takes (1 + its values), or WIRE_EARG with a
 * sentence in err (err may be NULL).
 */
int wire_mpirun_opt(char *const *w, int n, char *err, size_t errlen);

/* True if w is mpirun's -np (or a synonym: --np, -n, -c). */
int wire_mpirun_is_np(const char *w);

#endif
