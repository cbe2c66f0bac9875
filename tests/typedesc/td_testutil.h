/*
 * td_testutil.h — helpers shared by the typedesc unit tests: run a value
 * or a path through the whole chain (node pack -> msgpack bytes -> console
 * decode -> print) and mask addresses.  Header-only, static functions.
 */
#ifndef PARAVT_TD_TESTUTIL_H
#define PARAVT_TD_TESTUTIL_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_con.h"
#include "td_node.h"
#include "td_probe.h"

/* The table as the console sees it (decoded from the node's bytes). */
static td_table *tu_table;

/* Replaces every 0x<hex> in s by 0xADDR, in place (s has room: it only
 * shrinks or keeps length for addresses of 4+ digits; short ones grow, so
 * the result goes to a new heap string). */
static inline char *tu_mask(const char *s)
{
	char *out = malloc(strlen(s) * 3 + 1), *o = out;

	while (*s) {
		if (s[0] == '0' && s[1] == 'x' &&
		    isxdigit((unsigned char)s[2])) {
			s += 2;
			while (isxdigit((unsigned char)*s))
				s++;
			memcpy(o, "0xADDR", 6);
			o += 6;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	return out;
}

/* Decodes the node's table once. */
static inline int tu_setup(void **state)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	char err[256];
	int rc;

	(void)state;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	rc = td_table_pack(&pk, &td_probe_table);
	if (rc == 0)
		rc = td_table_decode_buf(sb.data, sb.size, &tu_table, err,
		                         sizeof err);
	if (rc)
		fprintf(stderr, "setup: %s\n", err);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* Frees the decoded table and the probe pipe. */
static inline int tu_teardown(void **state)
{
	(void)state;
	td_table_free(tu_table);
	tu_table = NULL;
	td_probe_close();
	return 0;
}

/* Prints object v of the result res into a new string (masked if mask);
 * on error returns "ERR: <sentence>". */
static inline char *tu_print_obj(const td_path_result *res,
                                 const msgpack_object *v, int mask)
{
	char err[256], *s, *m;
	wire_buf b;
	int rc;

	wire_buf_init(&b, 1 << 22);
	rc = td_result_print(&b, tu_table, res, v, err, sizeof err);
	if (rc) {
		s = malloc(strlen(err) + 6);
		sprintf(s, "ERR: %s", err);
	} else {
		s = strndup(wire_buf_head(&b), wire_buf_used(&b));
	}
	wire_buf_destroy(&b);
	if (!mask)
		return s;
	m = tu_mask(s);
	free(s);
	return m;
}

/* Unpacks bytes and prints them as res; "ERR: ..." on failure. */
static inline char *tu_print_bytes(const td_path_result *res, const char *buf,
                                   size_t len, int mask)
{
	msgpack_unpacked u;
	size_t off = 0;
	char *s;

	msgpack_unpacked_init(&u);
	if (td_msgpack_check(buf, len, &off) ||
	    (off = 0, msgpack_unpack_next(&u, buf, len, &off)) !=
	        MSGPACK_UNPACK_SUCCESS)
		s = strdup("ERR: unpack");
	else
		s = tu_print_obj(res, &u.data, mask);
	msgpack_unpacked_destroy(&u);
	return s;
}

/* Variable of the fixture scope by name. */
static inline const td_var *tu_var(const char *name)
{
	uint32_t n, i;
	const td_var *v = td_fixture_scope(&n);

	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

/* Packs variable name with td_pack_value (limits lim or defaults) and
 * prints it through the console side.  Caller frees. */
static inline char *tu_var_text(const char *name, const td_limits *lim,
                                int mask)
{
	const td_var *v = tu_var(name);
	td_path_result res;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	char *s;
	int rc;

	if (v == NULL)
		return strdup("ERR: no such variable");
	memset(&res, 0, sizeof res);
	res.type = v->type;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	rc = td_pack_value(&pk, &td_probe_table, v->type, v->addr, lim);
	s = rc ? strdup("ERR: pack")
	       : tu_print_bytes(&res, sb.data, sb.size, mask);
	msgpack_sbuffer_destroy(&sb);
	return s;
}

/* The scope as the console knows it. */
static inline uint32_t tu_scope(td_scope_var *out, uint32_t max)
{
	uint32_t n, i;
	const td_var *v = td_fixture_scope(&n);

	for (i = 0; i < n && i < max; i++) {
		out[i].name = v[i].name;
		out[i].type = v[i].type;
		out[i].addr = (uint64_t)(uintptr_t)v[i].addr;
	}
	return i;
}

/* Evaluates path on the console, sends the request through its wire form
 * to td_serve, prints the answer.  "ERR: ..." for path or node errors. */
static inline char *tu_path_text(const char *path, uint32_t follow, int mask)
{
	td_scope_var scope[64];
	uint32_t n = tu_scope(scope, 64);
	td_path_result res;
	td_request req;
	td_limits lim;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_unpacked u;
	char err[256], *s = NULL;
	size_t off = 0;
	int rc;

	rc = td_path_eval(tu_table, scope, n, path, &res, err, sizeof err);
	if (rc) {
		s = malloc(strlen(err) + 6);
		sprintf(s, "ERR: %s", err);
		return s;
	}
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_unpacked_init(&u);
	if (td_request_pack(&pk, &res.req) ||
	    msgpack_unpack_next(&u, sb.data, sb.size, &off) !=
	        MSGPACK_UNPACK_SUCCESS ||
	    td_request_unpack(&u.data, &req))
		s = strdup("ERR: request wire form");
	msgpack_sbuffer_clear(&sb);
	td_limits_default(&lim);
	lim.follow = follow;
	if (s == NULL && (rc = td_serve(&pk, &td_probe_table, &req, &lim))) {
		s = malloc(128);
		sprintf(s, "ERR: node: %s", td_strerror(rc));
	}
	if (s == NULL)
		s = tu_print_bytes(&res, sb.data, sb.size, mask);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	return s;
}

/* Asserts that got equals want, then frees got. */
#define TU_EQ(got, want)                                                       \
	do {                                                                   \
		char *g_ = (got);                                              \
		assert_string_equal(g_, (want));                               \
		free(g_);                                                      \
	} while (0)

#endif
