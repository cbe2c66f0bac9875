/*
 * gen_seeds.c — writes the seed inputs of the fuzzers into a directory
 * (tests/fuzz/seeds; `make fuzz-seeds` regenerates them).
 *
 * Every seed uses fuzz_frame's layout: a schedule byte (k = byte & 7),
 * k chunk sizes, then a stream of frames.  There is one valid frame of each
 * message type, all of them in one stream read in odd chunks, a local
 * HELLO, and a few hostile frames (count bomb, deep nesting, oversized).
 */
#include <stdio.h>
#include <string.h>

#include "wire.h"
#include "wire_buf.h"
#include "wire_frame.h"
#include "wire_msg.h"

static const char *outdir;

/* Writes prefix + the buffer's bytes to outdir/name. */
static int put(const char *name, const void *pre, size_t npre,
	       const wire_buf *b)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (f == NULL)
		return -1;
	fwrite(pre, 1, npre, f);
	fwrite(wire_buf_head(b), 1, wire_buf_used(b), f);
	return fclose(f);
}

/* Packs message number i of the catalogue with sample values. */
static int pack_one(wire_buf *b, int i)
{
	wire_hello h;
	wire_pong p = {1, 2, 3};

	switch (i) {
	case 0:
		wire_hello_local(&h, "daemon", "seed", "linux-x86_64");
		h.ncaps = 2;
		strcpy(h.caps[0], "ping");
		strcpy(h.caps[1], "session");
		return wire_pack_hello(b, 1, &h, 4096);
	case 1: return wire_pack_auth(b, 2, "0123456789abcdef", 4096);
	case 2: return wire_pack_auth_ok(b, 3, "token", 4096);
	case 3: return wire_pack_error(b, 4, WIRE_EBUSY, 3, "busy", 4096);
	case 4: return wire_pack_bye(b, 5, "quit", 4096);
	case 5: return wire_pack_ping(b, 6, 123456789, 4096);
	case 6: return wire_pack_pong(b, 7, &p, 4096);
	case 7: return wire_pack_session_open(b, 8, "console", 4096);
	default: return wire_pack_session_ok(b, 9, 42, 4096);
	}
}

/* Writes the hostile seeds: raw frames given as bytes. */
static int put_raw(const char *name, const void *bytes, size_t n)
{
	static const unsigned char k0 = 0;
	wire_buf b;
	int rc;

	wire_buf_init(&b, 1u << 16);
	wire_buf_append(&b, bytes, n);
	rc = put(name, &k0, 1, &b);
	wire_buf_destroy(&b);
	return rc;
}

int main(int argc, char **argv)
{
	static const unsigned char k0 = 0, sched[] = {3, 0, 6, 255};
	static const unsigned char bomb[] = {0, 0, 0, 8, 0x93, 1, 1, 0xdd,
					     0xff, 0xff, 0xff, 0xff};
	static const unsigned char big[] = {0, 1, 0, 0, 0x92, 1, 1};
	unsigned char deep[64] = {0, 0, 0, 60, 0x93, 1, 1};
	wire_buf b, all;
	char name[64];
	int i;

	outdir = argc > 1 ? argv[1] : "tests/fuzz/seeds";
	wire_buf_init(&all, 1u << 16);
	for (i = 0; i < wire_type_count(); i++) {
		wire_buf_init(&b, 1u << 16);
		if (pack_one(&b, i) != 0 || pack_one(&all, i) != 0)
			return 1;
		snprintf(name, sizeof name, "frame-%s",
			 wire_type_name(wire_type_at(i)));
		if (put(name, &k0, 1, &b) != 0)
			return 1;
		wire_buf_destroy(&b);
	}
	if (put("stream-all-chunked", sched, sizeof sched, &all) != 0)
		return 1;
	memset(deep + 7, 0x91, sizeof deep - 8);
	deep[sizeof deep - 1] = 0x90;
	if (put_raw("bad-count-bomb", bomb, sizeof bomb) != 0 ||
	    put_raw("bad-oversized", big, sizeof big) != 0 ||
	    put_raw("bad-deep", deep, sizeof deep) != 0)
		return 1;
	wire_buf_destroy(&all);
	return 0;
}
