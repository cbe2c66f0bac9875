/*
 * bench_tfile.c — trace file throughput: N million synthetic canonical
 * events written through the console's writer (con_tfile_events, one
 * record per batch, the file flushed to the kernel after each batch as
 * during a run), then read back into the event store (con_tfile_load).
 * Prints MB/s, events/s and bytes per event.
 *
 *   bench_tfile [MILLIONS] [BATCH] [DIR]   (default 2, 256, /tmp)
 *
 * The events look like a PVM run's: increasing seq and node times, sends
 * and receives with tags, bytes and source lines, spread over 8
 * processes, packed as daemons send them (wire_evpk.h).  The batches are
 * packed and unpacked once before the clock starts, so only the writer is
 * measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "con_ev.h"
#include "con_tfile.h"
#include "wire_evpk.h"

#define BENCH_PROCS 8
#define BENCH_BATCHES 64 /* distinct batches, cycled */

/* Monotonic seconds. */
static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Packs batch k of n events into sb, as a daemon sends them: one packed
 * bin (wire_evpk.h). */
static int bench_pack(msgpack_sbuffer *sb, unsigned k, unsigned n)
{
	msgpack_packer pk;
	uint64_t seq = (uint64_t)k * n, t = 4123288208155ull + seq * 5300;
	unsigned char *b = malloc(WIRE_EVPK_HEAD + (size_t)n * WIRE_EVPK_MAX);
	wire_evpk_enc w;
	wire_ev e;
	size_t len;
	unsigned i;

	if (b == NULL)
		return -1;
	len = wire_evpk_begin(&w, b, n);
	for (i = 0; i < n; i++, seq++, t += 5300 + (i * 7919) % 1000) {
		memset(&e, 0, sizeof e);
		e.seq = seq;
		e.kind = (uint16_t)(3 + i % 4); /* send/recv */
		e.op = (uint16_t)(1 + i % 3);
		e.t_ns = t;
		e.delta_ns = 1840 + seq * 180;
		e.file = 1;
		e.func = 2;
		e.line = 57 + (int)(i % 90);
		e.peer = 0x40001 + (int)(i % BENCH_PROCS);
		e.tag = 11 + (int)(i % 3);
		e.bytes = 220 + (int64_t)(i % 50) * 4;
		len += wire_evpk_put(&w, b + len, &e);
	}
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_bin(&pk, len);
	msgpack_pack_bin_body(&pk, b, len);
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	double millions = argc > 1 ? atof(argv[1]) : 2.0, t0, tw, tr;
	unsigned batch = argc > 2 ? (unsigned)atoi(argv[2]) : 256, k;
	const char *dir = argc > 3 ? argv[3] : "/tmp";
	msgpack_unpacked u[BENCH_BATCHES];
	msgpack_sbuffer sb[BENCH_BATCHES];
	uint64_t n, total, nb;
	char path[512], err[600], note[200];
	struct stat st;
	long recs;

	if (millions <= 0 || batch == 0 || batch > 65536) {
		fprintf(stderr, "usage: bench_tfile [MILLIONS] [BATCH] [DIR]\n");
		return 2;
	}
	for (k = 0; k < BENCH_BATCHES; k++) {
		msgpack_sbuffer_init(&sb[k]);
		msgpack_unpacked_init(&u[k]);
		if (bench_pack(&sb[k], k, batch) != 0 ||
		    msgpack_unpack_next(&u[k], sb[k].data, sb[k].size, NULL) !=
		    MSGPACK_UNPACK_SUCCESS)
			return 1;
	}
	nb = (uint64_t)(millions * 1e6) / batch;
	total = nb * batch;
	snprintf(path, sizeof path, "%s/bench_tfile.%d.pvt", dir, (int)getpid());
	if (con_tfile_open(path, "bench_tfile", 1, NULL, err, sizeof err) < 0) {
		fprintf(stderr, "bench_tfile: %s\n", err);
		return 1;
	}
	t0 = bench_now();
	for (n = 0; n < nb; n++)
		con_tfile_events("bench", (uint32_t)(n % BENCH_PROCS),
				 (int)(n % BENCH_PROCS) + 1,
				 &u[n % BENCH_BATCHES].data);
	if (con_tfile_close("bench", 0, err, sizeof err) < 0) {
		fprintf(stderr, "bench_tfile: %s\n", err);
		unlink(path);
		return 1;
	}
	tw = bench_now() - t0;
	stat(path, &st);
	con_ev_set_max(total < 16 ? 16 : (size_t)total);
	t0 = bench_now();
	recs = con_tfile_load(path, note, sizeof note, err, sizeof err);
	tr = bench_now() - t0;
	unlink(path);
	if (recs < 0) {
		fprintf(stderr, "bench_tfile: %s\n", err);
		return 1;
	}
	printf("== trace file (%s, %llu events in batches of %u, a flush per "
	       "batch)\n", dir, (unsigned long long)total, batch);
	printf("  %-10s %10s %14s %12s\n", "", "MB/s", "events/s", "s");
	printf("  %-10s %10.1f %14.0f %12.3f\n", "write",
	       (double)st.st_size / 1e6 / tw, (double)total / tw, tw);
	printf("  %-10s %10.1f %14.0f %12.3f\n", "read",
	       (double)st.st_size / 1e6 / tr, (double)total / tr, tr);
	printf("  size: %lld bytes, %.1f bytes per event\n",
	       (long long)st.st_size, (double)st.st_size / (double)total);
	for (k = 0; k < BENCH_BATCHES; k++) {
		msgpack_unpacked_destroy(&u[k]);
		msgpack_sbuffer_destroy(&sb[k]);
	}
	return 0;
}
