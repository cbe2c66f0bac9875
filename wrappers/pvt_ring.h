/*
 * pvt_ring.h — the shared-memory event ring between a task and its node's
 * daemon (layout version PVT_RING_VERSION): the runtime writes records
 * (pvt_event.h) into it, the daemon drains it on its own schedule.
 *
 * The task creates the ring as a file in a private directory of the
 * daemon's user (0700, no link): in memory where the system has a memory
 * file system for it (pvt_ring_memdir), else in its session's socket
 * directory; it maps it MAP_SHARED, and names it to the
 * daemon once (EVENT_RING on its socket); the daemon maps it too and
 * removes the file, so nothing is left behind, and keeps the mapping
 * until it has drained what the task wrote — also when the task was
 * killed.  Emitting an event is then a store: no system call, no lock
 * (one writer, one reader).
 *
 *   offset 0                 the header below (192 bytes)
 *   offset 192               cap records of PVT_EVENT_SIZE bytes; record
 *                            n (from 0) is in slot n % cap
 *   offset 192 + cap * 64    str_cap bytes of names: entries of a 4-byte
 *                            id, a 4-byte length and the bytes, padded
 *                            to a multiple of 8; ids run on 1, 2, ...
 *
 * Counters are 32 bits so that every store of one is whole on 32-bit
 * ports too; they wrap, and a reader takes differences modulo 2^32 (a
 * ring holds fewer than 2^31 records).  The writer publishes a counter
 * after what it covers (a release store), the reader reads it before
 * what it covers (an acquire load): pvt_ring_load / pvt_ring_store.
 * Everything is in the task's native byte order: only a daemon of the
 * same port reads it.
 *
 * Bump PVT_RING_VERSION when anything here changes.
 */
#ifndef PARAVT_PVT_RING_H
#define PARAVT_PVT_RING_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pvt_event.h"

#define PVT_RING_MAGIC 0x70767472u /* "pvtr" */
#define PVT_RING_VERSION 2
#define PVT_RING_HDR 192            /* bytes before the records */
/* The default size, in records (1 MiB, a core's L2 on the machine it
 * was measured on).  Where two ranks fill both cores, a 4 MiB ring left
 * the compensated round trip of a ping-pong about 5% further from the
 * plain one, and took 6% less traced time (tests/bench/HISTORY.md,
 * sixteenth session). */
#define PVT_RING_DEFAULT 16384
#define PVT_RING_MIN 64
#define PVT_RING_MAX (1u << 24)     /* records (1 GiB) */
#define PVT_RING_STRS (64u << 10)   /* bytes of names */

/* The memory file system rings go to where there is one (Linux's), and
 * the environment variable that names another (for tests: a small
 * tmpfs). */
#define PVT_RING_MEMFS "/dev/shm"
#define PVT_RING_MEMFS_ENV "PARAVT_RING_MEMFS"

/* A ring file's name in its directory: this, the task's pid, '-' and a
 * number (the daemon maps only such names, and removes those left by
 * tasks that ended). */
#define PVT_RING_FILE_PREFIX "ring-"

/* share_frac of 1 (pvt_ring_hdr). */
#define PVT_RING_FRAC_ONE 65536u

/* A gap between two records longer than this, ns: the task reads its
 * wait for a CPU in it and charges itself share_frac of it (pvt_ring_hdr;
 * the daemon places less there, daemon/relay/dmn_share.h). */
#define PVT_RING_STALL_NS 200000u

/* Flags (pvt_ring_hdr.flags). */
#define PVT_RING_F_DROP 0x1u /* a full ring drops records (and counts
				them) instead of making the task wait */

typedef struct pvt_ring_hdr {
	/* written once by the task before it names the ring */
	uint32_t magic;           /* PVT_RING_MAGIC */
	uint32_t version;         /* PVT_RING_VERSION */
	uint32_t rec_size;        /* PVT_EVENT_SIZE */
	uint32_t cap;             /* records, a power of two */
	uint32_t str_cap;         /* bytes of the name area */
	uint32_t flags;           /* PVT_RING_F_* */
	uint32_t first_lo;        /* number of the ring's record 0 in the */
	uint32_t first_hi;        /* process's events (sent through the
				     socket before the ring existed) */
	uint32_t pad0[8];
	/* written by the task */
	volatile uint32_t head;   /* records written */
	volatile uint32_t str_head; /* bytes of names written */
	volatile uint32_t dropped; /* records dropped (PVT_RING_F_DROP) */
	volatile uint32_t waits;  /* times the task waited for room */
	volatile uint32_t wait_us; /* microseconds it waited */
	volatile uint32_t str_lost; /* names that did not fit (id 0) */
	volatile uint32_t closed; /* 1: no more records will come */
	volatile uint32_t self_us; /* microseconds of its waits for a CPU
				      the task put into its own delta
				      (share_frac of each wait it
				      measured), in all, modulo 2^32 */
	uint32_t pad1[8];
	/* written by the daemon */
	volatile uint32_t tail;   /* records read */
	volatile uint32_t attached; /* 1: the daemon maps the ring */
	volatile uint32_t share_frac; /* the part of the task's waits for a
					 CPU that was paravt's in the last
					 samples, in PVT_RING_FRAC_ONE; 0
					 none (the task then reads and
					 charges nothing itself) */
	uint32_t pad2[13];
} pvt_ring_hdr;

/* Fails to compile if the header is not PVT_RING_HDR bytes. */
typedef char pvt__ring_hdr_check[sizeof(pvt_ring_hdr) == PVT_RING_HDR ? 1
									: -1];

/* pvt_ring_memdir_path: the name of the directory for rings in memory,
 * "MEMFS/paravt-<uid>" (MEMFS is $PARAVT_RING_MEMFS or PVT_RING_MEMFS),
 * in buf of n bytes (NULL: too long).  pvt_ring_memdir: the same, made when
 * missing if make, and only if it is a directory of this user's, mode
 * 0700, not a link (else another user could read or change the rings).
 * A ring file on a disk's file system (/tmp's, where the session's
 * sockets are) has its pages written back now and then: the kernel's
 * writeback and the page faults after it take time from the program
 * that compensation cannot see.  buf, or NULL where there is no such
 * directory (no memory file system: AIX; or it is not usable). */
static inline const char *pvt_ring_memdir_path(char *buf, size_t n)
{
	const char *fs = getenv(PVT_RING_MEMFS_ENV);

	if (fs == NULL || fs[0] != '/')
		fs = PVT_RING_MEMFS;
	if (snprintf(buf, n, "%s/paravt-%lu", fs,
	             (unsigned long)geteuid()) >= (int)n)
		return NULL;
	return buf;
}

static inline const char *pvt_ring_memdir(char *buf, size_t n, int make)
{
	struct stat st;

	if (pvt_ring_memdir_path(buf, n) == NULL)
		return NULL;
	if (make && mkdir(buf, 0700) != 0 && errno != EEXIST)
		return NULL;
	if (lstat(buf, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 077) != 0)
		return NULL;
	return buf;
}

/* Bytes of a ring of cap records and str_cap bytes of names. */
#define PVT_RING_BYTES(cap, str_cap) \
	((uint64_t)PVT_RING_HDR + (uint64_t)(cap) * PVT_EVENT_SIZE + (str_cap))

/* Acquire load and release store of a shared counter: what a counter
 * covers is written before it is stored and read after it is loaded.
 * With GCC and clang these are the __atomic builtins (a plain move on
 * x86); other compilers (IBM XL C on AIX) get a full barrier. */
static inline uint32_t pvt_ring_load(const volatile uint32_t *p)
{
#if defined(__GNUC__) || defined(__clang__)
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#else
	uint32_t v = *p;

	__sync_synchronize();
	return v;
#endif
}

static inline void pvt_ring_store(volatile uint32_t *p, uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
#else
	__sync_synchronize();
	*p = v;
#endif
}

#endif
