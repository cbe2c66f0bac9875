/*
 * dmn_port.h — the port this daemon builds user programs with, known at
 * run time.
 *
 * The settings come from ports/$(PORT).mk: daemon/module.mk writes make's
 * expanded values into build/$(PORT)/include/pvt_portconf.h and this
 * module compiles them in, then splits each into words at blanks (no
 * quoting, no shell).  The paravt runtime (lib/libparavt.a and include/)
 * is found next to the daemon binary (BIN/../lib, BIN/../include) unless
 * --runtime-dir names another directory holding lib/ and include/.
 */
#ifndef PARAVT_DMN_PORT_H
#define PARAVT_DMN_PORT_H

#include <stddef.h>

#define DMN_WORDS_MAX 64  /* words in one port setting */
#define DMN_PATH_MAX 1024 /* longest path the daemon handles */

/* One setting split into words. */
typedef struct dmn_words {
	char *buf; /* copy of the text, split in place; owned */
	char *w[DMN_WORDS_MAX + 1]; /* the words, NULL-terminated */
	int n;                      /* words used */
} dmn_words;

/* The port, ready to build argument vectors from. */
typedef struct dmn_port {
	const char *name;          /* PORT_NAME; static */
	dmn_words cc;              /* CC: the compiler (maybe with words) */
	dmn_words cflags;          /* PORT_CFLAGS */
	dmn_words ldflags;         /* PORT_LDFLAGS */
	dmn_words libs;            /* MSGPACK_LIBS */
	dmn_words prefix;          /* RUN_PREFIX (qemu for emulated ports) */
	dmn_words pvm_cflags;      /* PVM_CFLAGS (PVM builds) */
	dmn_words pvm_libs;        /* PVM_LIBS (PVM builds) */
	const char *pvm_arch;      /* PVM_ARCH ("LINUX64"); static */
	const char *sysroot;       /* SYSROOT of an emulated port, or ""
	                              (its usr/bin/pvmd, pvmgs); static */
	int native;                /* PORT_NATIVE = yes: runs without qemu */
	char rt_dir[DMN_PATH_MAX]; /* runtime directory (lib/, include/) */
	char rt_lib[DMN_PATH_MAX]; /* rt_dir/lib/libparavt.a */
	char rt_include[DMN_PATH_MAX]; /* rt_dir/include */
	char rt_pvm[DMN_PATH_MAX];     /* rt_dir/lib/libparavt_pvm.a */
	char rt_mpi[DMN_PATH_MAX];     /* rt_dir/lib/libparavt_mpi.a */
} dmn_port;

/*
 * Fills p from the compiled-in settings.  The runtime directory is
 * runtime_dir if not NULL, else the parent of the directory holding argv0
 * (made absolute with realpath, or found in PATH when it has no slash).
 * 0, or -1 with a sentence in err.  Free with dmn_port_destroy.
 */
int dmn_port_init(dmn_port *p, const char *argv0, const char *runtime_dir,
                  char *err, size_t errlen);
void dmn_port_destroy(dmn_port *p);

/* Splits text at blanks into w (a copy is kept).  0, or -1 when out of
 * memory or over DMN_WORDS_MAX words. */
int dmn_words_split(dmn_words *w, const char *text);
void dmn_words_free(dmn_words *w);

/* snprintf for paths: 0, or -1 (errno ENAMETOOLONG) if the result did not
 * fit in cap bytes. */
int dmn_pathf(char *out, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
