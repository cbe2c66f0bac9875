/*
 * fuzz_typedesc.c — libFuzzer target for what a console decodes from a
 * node it does not trust: type tables (TYPE_TABLE), values (VALUE) and
 * their printing, and value paths resolved against such a table.
 *
 * Input layout: two bytes (big-endian) give the length L of a msgpack
 * type table that follows; the rest is one msgpack value.  A table that
 * decodes is then used to print the value as each of its first 64 types,
 * and to resolve a few paths (the fixed set below) over a variable "v"
 * of the type named by the value's first byte, printing the value as the
 * answer.  Everything must fail cleanly or succeed; the sanitizers catch
 * the rest.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "td_con.h"
#include "wire_frame.h"
#include "wire_buf.h"

static const char *const fz_paths[] = {
	"v", "*v", "v[0]", "v[3]", "v.a", "v->next", "v->next->next",
	"v[1][2]", "*v[2]", "v[0]@4", "&v", "v.a.b[1]", "(v)",
};

/* Prints v as type id and through each path; everything is discarded. */
static void fz_use(const td_table *t, const msgpack_object *v, uint8_t pick)
{
	td_scope_var var = {"v", 0, 0x1000};
	td_path_result res;
	wire_buf out;
	char err[256];
	uint32_t id;
	size_t i;

	wire_buf_init(&out, 1u << 20);
	for (id = 0; id < t->ntypes && id < 64; id++) {
		wire_buf_reset(&out);
		(void)td_value_print(&out, t, id, v, 1, err, sizeof err);
	}
	if (t->ntypes > 0)
		var.type = pick % t->ntypes;
	for (i = 0; i < sizeof fz_paths / sizeof *fz_paths; i++) {
		if (td_path_eval(t, &var, 1, fz_paths[i], &res, err,
				 sizeof err) != 0)
			continue;
		wire_buf_reset(&out);
		(void)td_result_print(&out, t, &res, v, err, sizeof err);
	}
	wire_buf_destroy(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	msgpack_unpacked u;
	td_table *t = NULL;
	char err[256];
	size_t len, off = 0;

	if (size < 2)
		return 0;
	len = ((size_t)data[0] << 8) | data[1];
	if (len > size - 2)
		len = size - 2;
	if (td_table_decode_buf((const char *)data + 2, len, &t, err,
				sizeof err) != 0) {
		if (t != NULL)
			abort(); /* a failed decode must leave no table */
		return 0;
	}
	msgpack_unpacked_init(&u);
	/* a VALUE's bytes arrive in a frame the decoder has bounds-checked */
	if (wire_msgpack_check(data + 2 + len, size - 2 - len) > 0 &&
	    msgpack_unpack_next(&u, (const char *)data + 2 + len,
				size - 2 - len, &off) == MSGPACK_UNPACK_SUCCESS)
		fz_use(t, &u.data, size > 2 + len ? data[2 + len] : 0);
	msgpack_unpacked_destroy(&u);
	td_table_free(t);
	return 0;
}
