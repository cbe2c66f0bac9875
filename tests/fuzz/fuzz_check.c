/*
 * fuzz_check.c — libFuzzer target: wire_msgpack_check must agree with
 * msgpack-c.
 *
 * wire_msgpack_check is the bounds pass run before msgpack-c unpacks a
 * frame.  If it accepts the first N bytes of an input, msgpack-c must
 * unpack exactly those N bytes (unless the object nests deeper than
 * msgpack-c's fixed parser stack, which it refuses cleanly); the object
 * packed again must pass the check with its own length; and no shorter
 * prefix may pass.  msgpack-c is only run on inputs the check accepted,
 * because on the others it may try to allocate 4 G elements.  The
 * property is tried at offsets 0, 1, 4 and 5 so that frame seeds (with a
 * length header and the fuzz_frame schedule byte) reach the payload too.
 */
#include <stdint.h>
#include <stdlib.h>

#include <msgpack.h>

#include "wire.h"
#include "wire_frame.h"

#define FZ_DEEP 40 /* deeper than msgpack-c's stack of 32 */

/* Moves *pos past one msgpack head; returns 1 and the number of child
 * objects in *count for arrays and maps.  Input already checked. */
static int fz_head(const uint8_t *p, size_t *pos, uint64_t *count)
{
	uint8_t c = p[(*pos)++];
	uint64_t v = 0, fixed = 0;
	int lb = 0, mul = 0, i;

	if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3)
		return 0;
	if (c <= 0x8f || (c >= 0x90 && c <= 0x9f)) {
		*count = (uint64_t)(c & 0x0f) * (c <= 0x8f ? 2 : 1);
		return 1;
	}
	if (c <= 0xbf) {
		*pos += c & 0x1f;
		return 0;
	}
	switch (c) {
	case 0xc4: case 0xd9: lb = 1; break;
	case 0xc5: case 0xda: lb = 2; break;
	case 0xc6: case 0xdb: lb = 4; break;
	case 0xc7: lb = 1; fixed = 1; break;
	case 0xc8: lb = 2; fixed = 1; break;
	case 0xc9: lb = 4; fixed = 1; break;
	case 0xca: case 0xce: case 0xd2: fixed = 4; break;
	case 0xcb: case 0xcf: case 0xd3: fixed = 8; break;
	case 0xcc: case 0xd0: fixed = 1; break;
	case 0xcd: case 0xd1: case 0xd4: fixed = 2; break;
	case 0xd5: fixed = 3; break;
	case 0xd6: fixed = 5; break;
	case 0xd7: fixed = 9; break;
	case 0xd8: fixed = 17; break;
	case 0xdc: lb = 2; mul = 1; break;
	case 0xdd: lb = 4; mul = 1; break;
	case 0xde: lb = 2; mul = 2; break;
	default: lb = 4; mul = 2; break; /* 0xdf */
	}
	for (i = 0; i < lb; i++)
		v = (v << 8) | p[(*pos)++];
	if (mul > 0) {
		*count = v * (uint64_t)mul;
		return 1;
	}
	*pos += (size_t)(v + fixed);
	return 0;
}

/* Depth of nested containers (capped at FZ_DEEP).  Empty ones count:
 * msgpack-c checks its stack before it looks at the count. */
static int fz_depth(const uint8_t *p, size_t *pos, int depth)
{
	uint64_t count = 0, i;
	int d, max = depth + 1;

	if (!fz_head(p, pos, &count))
		return depth;
	if (depth + 1 >= FZ_DEEP)
		return FZ_DEEP;
	for (i = 0; i < count; i++) {
		d = fz_depth(p, pos, depth + 1);
		if (d > max)
			max = d;
		if (max >= FZ_DEEP)
			break;
	}
	return max;
}

/* Packs obj again and checks the check accepts exactly its bytes. */
static void fz_repack(const msgpack_object *obj)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_object(&pk, *obj);
	if (wire_msgpack_check((const unsigned char *)sb.data, sb.size) !=
	    (long)sb.size)
		abort();
	msgpack_sbuffer_destroy(&sb);
}

/* The agreement property on p[0..n). */
static void fz_agree(const uint8_t *p, size_t n)
{
	long len = wire_msgpack_check(p, n);
	msgpack_unpacked u;
	msgpack_unpack_return r;
	size_t off = 0, pos = 0;
	int deep;

	if (len < 0)
		return;
	if ((size_t)len > n || len == 0)
		abort();
	if (wire_msgpack_check(p, (size_t)len - 1) >= 0)
		abort(); /* a shorter prefix cannot be a whole object */
	deep = fz_depth(p, &pos, 0) > 32;
	if (!deep && pos != (size_t)len)
		abort();
	msgpack_unpacked_init(&u);
	r = msgpack_unpack_next(&u, (const char *)p, n, &off);
	if (r == MSGPACK_UNPACK_SUCCESS) {
		if (deep || off != (size_t)len)
			abort();
		fz_repack(&u.data);
	} else if (!deep) {
		abort();
	}
	msgpack_unpacked_destroy(&u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t offs[] = {0, 1, 4, 5};
	size_t i;

	for (i = 0; i < sizeof offs / sizeof offs[0]; i++)
		if (size > offs[i])
			fz_agree(data + offs[i], size - offs[i]);
	return 0;
}
