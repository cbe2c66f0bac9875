/*
 * fuzz_request.c — libFuzzer target for the node's decoding of value
 * requests (INSPECT: what a task is asked to read from its memory).
 *
 * Input: one msgpack object.  It goes through td_request_unpack; a
 * request that decodes must have at most TD_MAX_STEPS steps, and packed
 * again and decoded it must give the same request (abort() otherwise).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "td_node.h"
#include "wire_frame.h"

/* Packs r and decodes it again into *back.  0 or -1. */
static int fz_again(const td_request *r, td_request *back)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_unpacked u;
	int rc = -1;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_unpacked_init(&u);
	if (td_request_pack(&pk, r) == 0 &&
	    msgpack_unpack_next(&u, sb.data, sb.size, NULL) ==
		    MSGPACK_UNPACK_SUCCESS &&
	    td_request_unpack(&u.data, back) == 0)
		rc = 0;
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	msgpack_unpacked u;
	td_request r, back;
	uint32_t i;

	msgpack_unpacked_init(&u);
	/* a request arrives in a frame the decoder has bounds-checked */
	if (wire_msgpack_check(data, size) > 0 &&
	    msgpack_unpack_next(&u, (const char *)data, size, NULL) ==
		    MSGPACK_UNPACK_SUCCESS &&
	    td_request_unpack(&u.data, &r) == 0) {
		if (r.nsteps > TD_MAX_STEPS)
			abort();
		memset(&back, 0, sizeof back);
		if (fz_again(&r, &back) != 0 || back.type != r.type ||
		    back.addr != r.addr || back.nsteps != r.nsteps)
			abort();
		for (i = 0; i < r.nsteps; i++)
			if (back.steps[i].op != r.steps[i].op ||
			    back.steps[i].arg != r.steps[i].arg)
				abort();
	}
	msgpack_unpacked_destroy(&u);
	return 0;
}
