/*
 * test_wire_msg.c — unit tests of the message catalog and the typed
 * encoders/decoders (wire_msg.h), plus the error names (wire.h).
 *
 * Most decoder tests are driven by one table, `specs`, that gives every
 * message's field kinds and string limits.  Payloads are built by hand with
 * a msgpack packer so that any field can be replaced by a value of the
 * wrong type, dropped, lengthened or given an embedded NUL.  One registered
 * list at the bottom.
 */
#include <stdio.h>

#include "unit_util.h"
#include "wire_fmt.h"

/* Field kinds: u = u32, U = u64, s = string, m = ABI map, a = caps array. */
typedef struct spec {
	uint32_t type;
	const char *kinds;
	size_t cap[12]; /* string limits with the NUL (0: not a string) */
} spec;

static const spec specs[] = {
	{WIRE_HELLO, "ussssssmsass",
	 {0, 16, 64, 64, 64, 64, 8, 0, 64, 0, 64, 64}},
	{WIRE_AUTH, "s", {WIRE_TOKEN_MAX}},
	{WIRE_AUTH_OK, "s", {WIRE_NAME_MAX}},
	{WIRE_ERROR, "uus", {0, 0, WIRE_TEXT_MAX}},
	{WIRE_BYE, "s", {WIRE_TEXT_MAX}},
	{WIRE_PING, "U", {0}},
	{WIRE_PONG, "UUU", {0}},
	{WIRE_SESSION_OPEN, "s", {WIRE_NAME_MAX}},
	{WIRE_SESSION_OK, "U", {0}},
};
#define NSPECS (sizeof specs / sizeof specs[0])
#define HELLO_BYTE_ORDER 6 /* index of the byte_order field */

/* Wrong values: nil, bool, negative int, float, str, bin, array, map, ext. */
static const char wrong_kinds[] = "nbifsBamx";

/* How one field is to be spoiled. */
typedef struct spoil {
	int field;      /* index of the field to spoil, -1 for none */
	char wrong;     /* a wrong_kinds letter, or 0 */
	size_t strlen;  /* with wrong == 0: a string of this many 'a's */
	int nul;        /* ... with a NUL byte in the middle */
} spoil;

/* Packs a valid ABI map (the foreign machine's), optionally leaving out
 * type `skip` (-1 for none). */
static void pack_abi(msgpack_packer *pk, int skip)
{
	wire_hello h;
	int t;

	ut_hello_foreign(&h);
	msgpack_pack_map(pk, WIRE_CT_COUNT - (skip >= 0));
	for (t = 0; t < WIRE_CT_COUNT; t++) {
		if (t == skip)
			continue;
		ut_pk_str(pk, wire_ctype_name(t));
		msgpack_pack_array(pk, 2);
		msgpack_pack_uint8(pk, h.abi.size[t]);
		msgpack_pack_uint8(pk, h.abi.align[t]);
	}
}

/* Packs a value of wrong kind w. */
static void pack_wrong(msgpack_packer *pk, char w)
{
	switch (w) {
	case 'n': msgpack_pack_nil(pk); break;
	case 'b': msgpack_pack_true(pk); break;
	case 'i': msgpack_pack_int8(pk, -3); break;
	case 'f': msgpack_pack_double(pk, 1.5); break;
	case 's': ut_pk_str(pk, "str"); break;
	case 'B': msgpack_pack_bin(pk, 2); msgpack_pack_bin_body(pk, "ab", 2);
		break;
	case 'a': msgpack_pack_array(pk, 1); msgpack_pack_uint8(pk, 1); break;
	case 'm': msgpack_pack_map(pk, 1); msgpack_pack_uint8(pk, 1);
		msgpack_pack_uint8(pk, 2); break;
	default: msgpack_pack_ext(pk, 1, 3); msgpack_pack_ext_body(pk, "e", 1);
		break;
	}
}

/* Packs a string of n 'a's, with a NUL in the middle if nul. */
static void pack_long_str(msgpack_packer *pk, size_t n, int nul)
{
	char buf[1024];

	assert_true(n < sizeof buf);
	memset(buf, 'a', n);
	if (nul && n > 0)
		buf[n / 2] = '\0';
	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, buf, n);
}

/* Packs the valid value of field j of kind k. */
static void pack_valid(msgpack_packer *pk, const spec *s, int j, char k)
{
	switch (k) {
	case 'u': msgpack_pack_uint32(pk, 7); break;
	case 'U': msgpack_pack_uint64(pk, (1ull << 40) + (uint64_t)j); break;
	case 'm': pack_abi(pk, -1); break;
	case 'a':
		msgpack_pack_array(pk, 2);
		ut_pk_str(pk, "cap1");
		ut_pk_str(pk, "cap2");
		break;
	default:
		ut_pk_str(pk, s->type == WIRE_HELLO && j == HELLO_BYTE_ORDER ?
			  "big" : "abc");
	}
}

/*
 * Builds message s with its first nf fields (plus `extra` nil fields),
 * spoiled as sp says, decodes the frame into *m (decoder kept in *d).
 */
static void build(const spec *s, int nf, int extra, const spoil *sp,
		  wire_dec *d, wire_msg *m)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	int j;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, (size_t)(2 + nf + extra));
	msgpack_pack_uint32(&pk, s->type);
	msgpack_pack_uint32(&pk, 5);
	for (j = 0; j < nf; j++) {
		if (sp == NULL || sp->field != j)
			pack_valid(&pk, s, j, s->kinds[j]);
		else if (sp->wrong != 0)
			pack_wrong(&pk, sp->wrong);
		else
			pack_long_str(&pk, sp->strlen, sp->nul);
	}
	for (j = 0; j < extra; j++)
		msgpack_pack_nil(&pk);
	assert_int_equal(ut_decode_sb(d, &sb, m, NULL, 0), 1);
	msgpack_sbuffer_destroy(&sb);
}

/* Builds and decodes; returns the typed decoder's result. */
static int try(const spec *s, int nf, int extra, const spoil *sp,
	       ut_out *o, char *err, size_t errlen)
{
	wire_dec d;
	wire_msg m;
	int rc;

	build(s, nf, extra, sp, &d, &m);
	err[0] = '\0';
	rc = ut_unpack_as(s->type, &m, o, err, errlen);
	wire_dec_destroy(&d);
	return rc;
}

/* Asserts a refusal whose sentence names the message. */
static void assert_refused(const spec *s, int rc, const char *err)
{
	if (rc != WIRE_EMALFORMED)
		fail_msg("%s accepted a bad message", wire_type_name(s->type));
	assert_non_null(strstr(err, wire_type_name(s->type)));
}

/* ---- decoders driven by the table ------------------------------------- */

static void test_valid_and_extra_fields(void **state)
{
	ut_out o;
	char err[256];
	size_t i;
	int n;

	for (i = 0; i < NSPECS; i++) {
		n = (int)strlen(specs[i].kinds);
		assert_int_equal(try(&specs[i], n, 0, NULL, &o, err,
				     sizeof err), 0);
		assert_int_equal(try(&specs[i], n, 3, NULL, &o, err,
				     sizeof err), 0);
	}
}

static void test_wrong_type_every_field(void **state)
{
	ut_out o;
	char err[256];
	spoil sp = {0};
	size_t i, w;
	int n;

	for (i = 0; i < NSPECS; i++) {
		n = (int)strlen(specs[i].kinds);
		for (sp.field = 0; sp.field < n; sp.field++) {
			for (w = 0; wrong_kinds[w] != '\0'; w++) {
				sp.wrong = wrong_kinds[w];
				if (sp.wrong == specs[i].kinds[sp.field])
					continue; /* same kind: not wrong */
				assert_refused(&specs[i],
					       try(&specs[i], n, 0, &sp, &o,
						   err, sizeof err), err);
			}
		}
	}
}

static void test_too_few_fields(void **state)
{
	ut_out o;
	char err[256];
	size_t i;
	int nf;

	for (i = 0; i < NSPECS; i++)
		for (nf = 0; nf < (int)strlen(specs[i].kinds); nf++)
			assert_refused(&specs[i],
				       try(&specs[i], nf, 0, NULL, &o, err,
					   sizeof err), err);
}

static void test_string_limits(void **state)
{
	ut_out o;
	char err[256];
	spoil sp = {0};
	size_t i, cap;

	for (i = 0; i < NSPECS; i++) {
		int n = (int)strlen(specs[i].kinds);

		for (sp.field = 0; sp.field < n; sp.field++) {
			cap = specs[i].cap[sp.field];
			if (specs[i].kinds[sp.field] != 's')
				continue;
			sp.nul = 0;
			sp.strlen = cap; /* no room for the NUL */
			assert_refused(&specs[i], try(&specs[i], n, 0, &sp, &o,
						      err, sizeof err), err);
			sp.strlen = 700;
			assert_refused(&specs[i], try(&specs[i], n, 0, &sp, &o,
						      err, sizeof err), err);
			sp.strlen = 5;
			sp.nul = 1;
			assert_refused(&specs[i], try(&specs[i], n, 0, &sp, &o,
						      err, sizeof err), err);
			if (specs[i].type == WIRE_HELLO &&
			    sp.field == HELLO_BYTE_ORDER)
				continue; /* "aaaaaaa" is not a byte order */
			sp.nul = 0;
			sp.strlen = cap - 1; /* the longest that fits */
			assert_int_equal(try(&specs[i], n, 0, &sp, &o, err,
					     sizeof err), 0);
			sp.strlen = 0; /* empty: msgpack-c gives a NULL ptr */
			assert_int_equal(try(&specs[i], n, 0, &sp, &o, err,
					     sizeof err), 0);
		}
	}
}

static void test_u32_fields_range(void **state)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	wire_dec d;
	wire_msg m;
	wire_error_msg e;
	char err[256];

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 5);
	msgpack_pack_uint32(&pk, WIRE_ERROR);
	msgpack_pack_uint32(&pk, 1);
	msgpack_pack_uint64(&pk, 1ull << 32);
	msgpack_pack_uint32(&pk, 1);
	ut_pk_str(&pk, "m");
	assert_int_equal(ut_decode_sb(&d, &sb, &m, NULL, 0), 1);
	assert_int_equal(wire_unpack_error(&m, &e, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_non_null(strstr(err, "code"));
	wire_dec_destroy(&d);
	msgpack_sbuffer_destroy(&sb);
}

static void test_u64_extremes(void **state)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;
	wire_pong p = {0, UINT64_MAX, 1}, q;
	uint64_t v = 0;

	wire_buf_init(&b, 4096);
	assert_int_equal(wire_pack_pong(&b, 1, &p, 4096), 0);
	assert_int_equal(ut_decode(&d, wire_buf_head(&b), wire_buf_used(&b),
				   4096, &m, NULL, 0), 1);
	assert_int_equal(wire_unpack_pong(&m, &q, NULL, 0), 0);
	assert_memory_equal(&p, &q, sizeof p);
	wire_dec_destroy(&d);
	wire_buf_reset(&b);
	assert_int_equal(wire_pack_session_ok(&b, 1, UINT64_MAX, 4096), 0);
	assert_int_equal(ut_decode(&d, wire_buf_head(&b), wire_buf_used(&b),
				   4096, &m, NULL, 0), 1);
	assert_int_equal(wire_unpack_session_ok(&m, &v, NULL, 0), 0);
	assert_true(v == UINT64_MAX);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

static void test_wrong_message_type(void **state)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;
	ut_out o;
	char err[256];
	size_t i;

	wire_buf_init(&b, 4096);
	assert_int_equal(wire_pack_ping(&b, 1, 2, 4096), 0);
	assert_int_equal(ut_decode(&d, wire_buf_head(&b), wire_buf_used(&b),
				   4096, &m, NULL, 0), 1);
	m.type = 99; /* no decoder accepts a type that is not its own */
	assert_int_equal(wire_unpack_hello(&m, &o.hello, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(wire_unpack_auth(&m, o.str, NULL, 0), WIRE_EMALFORMED);
	assert_int_equal(wire_unpack_auth_ok(&m, o.str, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(wire_unpack_error(&m, &o.error, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(wire_unpack_bye(&m, o.str, NULL, 0), WIRE_EMALFORMED);
	assert_int_equal(wire_unpack_ping(&m, &o.u64, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_non_null(strstr(err, "unexpected"));
	assert_int_equal(wire_unpack_pong(&m, &o.pong, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(wire_unpack_session_open(&m, o.str, NULL, 0),
			 WIRE_EMALFORMED);
	assert_int_equal(wire_unpack_session_ok(&m, &o.u64, NULL, 0),
			 WIRE_EMALFORMED);
	for (i = 0; i < NSPECS; i++) /* and the decoders tolerate err NULL */
		(void)ut_unpack_as(specs[i].type, &m, &o, NULL, 0);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

/* ---- HELLO ------------------------------------------------------------ */

/* Packs and decodes h; returns the decoder result, fills *out. */
static int hello_round(const wire_hello *h, wire_hello *out)
{
	wire_buf b;
	wire_dec d;
	wire_msg m;
	int rc;

	wire_buf_init(&b, 1u << 16);
	assert_int_equal(wire_pack_hello(&b, 9, h, 1u << 16), 0);
	assert_int_equal(ut_decode(&d, wire_buf_head(&b), wire_buf_used(&b),
				   1u << 16, &m, NULL, 0), 1);
	assert_int_equal(m.type, WIRE_HELLO);
	assert_int_equal(m.seq, 9);
	rc = wire_unpack_hello(&m, out, NULL, 0);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
	return rc;
}

static void test_hello_foreign_round_trip(void **state)
{
	wire_hello h, g;

	ut_hello_foreign(&h);
	assert_int_equal(hello_round(&h, &g), 0);
	assert_memory_equal(&h, &g, sizeof h);
	assert_string_equal(g.abi.byte_order, "big");
	assert_int_equal(g.abi.size[WIRE_CT_LONG], 4);
	assert_int_equal(g.abi.size[WIRE_CT_PTR], 4);
	assert_int_equal(g.abi.size[WIRE_CT_LDOUBLE], 16);
}

static void test_hello_local_round_trip(void **state)
{
	wire_hello h, g;

	wire_hello_local(&h, "console", NULL, "linux-x86_64");
	assert_int_equal(h.version, WIRE_PROTO_VERSION);
	assert_int_equal(h.abi.size[WIRE_CT_LONG], sizeof(long));
	assert_int_equal(h.abi.size[WIRE_CT_PTR], sizeof(void *));
	assert_true(strlen(h.node) > 0);
	assert_int_equal(hello_round(&h, &g), 0);
	assert_memory_equal(&h, &g, sizeof h);
	wire_hello_local(&h, "daemon", "n1", NULL);
	assert_string_equal(h.node, "n1");
	assert_string_equal(h.port, "unknown");
}

/* The host id: this machine's boot id, the same in every HELLO of the
 * machine; a peer is local only when both ids are known and equal. */
static void test_hello_host(void **state)
{
	wire_hello me, peer, g;
	char boot[WIRE_NAME_MAX] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (f != NULL) {
		assert_non_null(fgets(boot, sizeof boot, f));
		boot[strcspn(boot, "\n")] = '\0';
		fclose(f);
	}
	wire_hello_local(&me, "console", NULL, NULL);
	wire_hello_local(&peer, "daemon", "n1", NULL);
	assert_string_equal(me.host, boot);
	assert_int_equal(hello_round(&peer, &g), 0);
	assert_string_equal(g.host, boot);
	assert_int_equal(wire_hello_local_peer(&me, &g), boot[0] != '\0');
	snprintf(g.host, sizeof g.host, "another-machine");
	assert_false(wire_hello_local_peer(&me, &g));
	me.host[0] = g.host[0] = '\0'; /* neither knows: not local */
	assert_false(wire_hello_local_peer(&me, &g));
}

static void test_hello_caps_limits(void **state)
{
	wire_hello h, g;
	uint32_t i;

	ut_hello_foreign(&h);
	h.ncaps = WIRE_CAPS_MAX;
	memset(h.caps, 0, sizeof h.caps);
	for (i = 0; i < WIRE_CAPS_MAX; i++)
		snprintf(h.caps[i], sizeof h.caps[i], "cap%u", i);
	assert_int_equal(hello_round(&h, &g), 0);
	assert_memory_equal(&h, &g, sizeof h);
	/* a caller asking for more caps than exist still gets a valid frame */
	h.ncaps = WIRE_CAPS_MAX + 5;
	assert_int_equal(hello_round(&h, &g), 0);
	assert_int_equal(g.ncaps, WIRE_CAPS_MAX);
	assert_string_equal(g.software, h.software);
}

/* HELLO with field 7 (abi) replaced by a custom map, or byte_order set. */
static int hello_abi(void (*abi)(msgpack_packer *), const char *order,
		     char *err, size_t errlen)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	wire_dec d;
	wire_msg m;
	wire_hello h;
	int rc, j;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 14);
	msgpack_pack_uint32(&pk, WIRE_HELLO);
	msgpack_pack_uint32(&pk, 1);
	for (j = 0; j < 12; j++) {
		if (j == 7 && abi != NULL)
			abi(&pk);
		else if (j == HELLO_BYTE_ORDER && order != NULL)
			ut_pk_str(&pk, order);
		else
			pack_valid(&pk, &specs[0], j, specs[0].kinds[j]);
	}
	assert_int_equal(ut_decode_sb(&d, &sb, &m, NULL, 0), 1);
	err[0] = '\0';
	rc = wire_unpack_hello(&m, &h, err, errlen);
	wire_dec_destroy(&d);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

static void abi_no_long(msgpack_packer *pk) { pack_abi(pk, WIRE_CT_LONG); }
static void abi_no_ldouble(msgpack_packer *pk)
{
	pack_abi(pk, WIRE_CT_LDOUBLE);
}

/* A map entry "int": value, for the shapes below. */
static void abi_one(msgpack_packer *pk, int shape)
{
	msgpack_pack_map(pk, 1);
	if (shape == 3)
		msgpack_pack_uint8(pk, 1); /* key not a string */
	else
		ut_pk_str(pk, "int");
	switch (shape) {
	case 0: msgpack_pack_uint8(pk, 4); break;             /* not array */
	case 1: msgpack_pack_array(pk, 3); msgpack_pack_uint8(pk, 4);
		msgpack_pack_uint8(pk, 4); msgpack_pack_uint8(pk, 4); break;
	case 2: msgpack_pack_array(pk, 2); msgpack_pack_uint16(pk, 256);
		msgpack_pack_uint8(pk, 4); break;             /* size 256 */
	default: msgpack_pack_array(pk, 2); msgpack_pack_uint8(pk, 4);
		msgpack_pack_uint8(pk, 4); break;
	}
}
static void abi_not_array(msgpack_packer *pk) { abi_one(pk, 0); }
static void abi_three(msgpack_packer *pk) { abi_one(pk, 1); }
static void abi_256(msgpack_packer *pk) { abi_one(pk, 2); }
static void abi_int_key(msgpack_packer *pk) { abi_one(pk, 3); }

/* A full map plus an unknown type and a zero-sized double. */
static void abi_extra_key(msgpack_packer *pk)
{
	msgpack_pack_map(pk, 1);
	ut_pk_str(pk, "int128");
	msgpack_pack_array(pk, 2);
	msgpack_pack_uint8(pk, 16);
	msgpack_pack_uint8(pk, 16);
}

static void test_hello_abi_refused(void **state)
{
	char err[256];

	assert_int_equal(hello_abi(NULL, NULL, err, sizeof err), 0);
	assert_int_equal(hello_abi(abi_no_long, NULL, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_non_null(strstr(err, "misses"));
	assert_int_equal(hello_abi(abi_no_ldouble, NULL, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(hello_abi(abi_not_array, NULL, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(hello_abi(abi_three, NULL, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(hello_abi(abi_256, NULL, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(hello_abi(abi_int_key, NULL, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(hello_abi(abi_extra_key, NULL, err, sizeof err),
			 WIRE_EMALFORMED); /* only an unknown type: misses all */
	assert_int_equal(hello_abi(NULL, "middle", err, sizeof err),
			 WIRE_EMALFORMED);
	assert_non_null(strstr(err, "byte_order"));
	assert_int_equal(hello_abi(NULL, "", err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(hello_abi(NULL, "little", err, sizeof err), 0);
}

/* Caps given as [str, 1]: a non-string, or with a NUL byte. */
static int hello_caps(int mode)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	wire_dec d;
	wire_msg m;
	wire_hello h;
	int rc, j, k;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 14);
	msgpack_pack_uint32(&pk, WIRE_HELLO);
	msgpack_pack_uint32(&pk, 1);
	for (j = 0; j < 12; j++) {
		if (j != 9) {
			pack_valid(&pk, &specs[0], j, specs[0].kinds[j]);
			continue;
		}
		msgpack_pack_array(&pk, mode == 2 ? 40 : 2);
		ut_pk_str(&pk, "ok");
		if (mode == 0)
			msgpack_pack_uint8(&pk, 1);
		else if (mode == 1)
			pack_long_str(&pk, 4, 1);
		else
			for (k = 0; k < 39; k++)
				pack_long_str(&pk, (size_t)k, 0);
	}
	assert_int_equal(ut_decode_sb(&d, &sb, &m, NULL, 0), 1);
	rc = wire_unpack_hello(&m, &h, NULL, 0);
	if (mode == 2) { /* more than kept: the first 16 short ones */
		assert_int_equal(h.ncaps, WIRE_CAPS_MAX);
		assert_string_equal(h.caps[0], "ok");
		assert_string_equal(h.caps[15], "aaaaaaaaaaaaaa");
	}
	wire_dec_destroy(&d);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

static void test_hello_caps_refused(void **state)
{
	assert_int_equal(hello_caps(0), WIRE_EMALFORMED);
	assert_int_equal(hello_caps(1), WIRE_EMALFORMED);
	assert_int_equal(hello_caps(2), 0);
}

static void test_hello_version_read_first(void **state)
{
	ut_out o;
	char err[256];
	spoil sp = {3, 'n', 0, 0};

	assert_int_equal(try(&specs[0], 11, 0, &sp, &o, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(o.hello.version, 7);
	assert_int_equal(try(&specs[0], 1, 0, NULL, &o, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(o.hello.version, 7);
	sp.field = 0; /* the version itself broken: not stored */
	assert_int_equal(try(&specs[0], 11, 0, &sp, &o, err, sizeof err),
			 WIRE_EMALFORMED);
	assert_int_equal(o.hello.version, 0);
}

static void test_hello_check(void **state)
{
	wire_hello h;
	char err[256], want[64];

	ut_hello_foreign(&h);
	err[0] = '\0';
	assert_int_equal(wire_hello_check(&h, "daemon", err, sizeof err), 0);
	assert_int_equal(wire_hello_check(&h, NULL, err, sizeof err), 0);
	assert_int_equal(wire_hello_check(&h, "console", err, sizeof err),
			 WIRE_EPROTO);
	assert_non_null(strstr(err, "daemon"));
	assert_non_null(strstr(err, "console"));
	h.version = WIRE_PROTO_VERSION + 41;
	assert_int_equal(wire_hello_check(&h, "daemon", err, sizeof err),
			 WIRE_EVERSION);
	snprintf(want, sizeof want, "version %d", WIRE_PROTO_VERSION + 41);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof want, "version %d", WIRE_PROTO_VERSION);
	assert_non_null(strstr(err, want));
	assert_int_equal(wire_hello_check(&h, "daemon", NULL, 0),
			 WIRE_EVERSION);
	assert_int_equal(wire_hello_check(&h, "daemon", err, 8),
			 WIRE_EVERSION);
	assert_int_equal(strlen(err), 7); /* truncated, terminated */
}

/* ---- ERROR encoder ---------------------------------------------------- */

static void test_error_encoder(void **state)
{
	char longmsg[2000];
	wire_buf b;
	wire_dec d;
	wire_msg m;
	wire_error_msg e;

	memset(longmsg, 'z', sizeof longmsg - 1);
	longmsg[sizeof longmsg - 1] = '\0';
	wire_buf_init(&b, 1u << 16);
	assert_int_equal(wire_pack_error(&b, 3, WIRE_EVERSION, 77, longmsg,
					 1u << 16), 0);
	assert_int_equal(ut_decode(&d, wire_buf_head(&b), wire_buf_used(&b),
				   1u << 16, &m, NULL, 0), 1);
	assert_int_equal(wire_unpack_error(&m, &e, NULL, 0), 0);
	assert_int_equal(e.code, 4);
	assert_int_equal(e.ref_seq, 77);
	assert_int_equal(strlen(e.message), WIRE_TEXT_MAX - 1);
	wire_dec_destroy(&d);
	wire_buf_destroy(&b);
}

/* ---- tokens, errors, the table ---------------------------------------- */

static void test_token_equal(void **state)
{
	char a[WIRE_TOKEN_MAX], b[WIRE_TOKEN_MAX];

	assert_true(wire_token_equal("", ""));
	assert_true(wire_token_equal("abc", "abc"));
	assert_false(wire_token_equal("abc", "abd"));
	assert_false(wire_token_equal("abc", "xbc"));
	assert_false(wire_token_equal("abc", "ab"));
	assert_false(wire_token_equal("ab", "abc"));
	assert_false(wire_token_equal("", "a"));
	memset(a, 'f', sizeof a - 1);
	a[sizeof a - 1] = '\0';
	memcpy(b, a, sizeof a);
	assert_true(wire_token_equal(a, b));
	b[sizeof b - 2] = 'e';
	assert_false(wire_token_equal(a, b));
}

static void test_error_names(void **state)
{
	const char *seen[32];
	int c, k;

	for (c = 0; c >= WIRE_ESTATE; c--) {
		const char *name = wire_errname(c);
		const char *text = wire_strerror(c);

		assert_non_null(name);
		assert_non_null(text);
		assert_string_not_equal(name, "E?");
		assert_string_not_equal(text, "unknown error");
		assert_true(c == 0 ? strcmp(name, "OK") == 0 : name[0] == 'E');
		assert_string_equal(wire_errname(-c), name);
		assert_string_equal(wire_strerror(-c), text);
		for (k = 0; k < -c; k++)
			assert_string_not_equal(seen[k], name);
		seen[-c] = name;
	}
	assert_string_equal(wire_errname(WIRE_EVERSION), "EVERSION");
	assert_string_equal(wire_errname(WIRE_ETIMEOUT), "ETIMEOUT");
	assert_string_equal(wire_errname(-99), "E?");
	assert_string_equal(wire_strerror(99), "unknown error");
	assert_string_equal(wire_errname(WIRE_ESTATE - 1), "E?");
}

/* The spec of message type t, or NULL. */
static const spec *spec_of(uint32_t t)
{
	size_t k;

	for (k = 0; k < NSPECS; k++)
		if (specs[k].type == t)
			return &specs[k];
	return NULL;
}

/* The message table: the typed messages match their specs; every row has
 * increasing numbers, a name, and one type letter per field. */
static void test_type_table(void **state)
{
	static const char *const names[] = {
		"HELLO", "AUTH", "AUTH_OK", "ERROR", "BYE", "PING", "PONG",
		"LINK_PROBE", "LINK_ECHO", "SESSION_OPEN", "SESSION_OK",
	};
	static const uint32_t unknown[] = {0, 6, 15, 20, 31, 37, 47, 255,
					   UINT32_MAX};
	int i, nw;
	const char *f;

	assert_true(wire_type_count() >= (int)NSPECS);
	for (i = 0; i < wire_type_count(); i++) {
		uint32_t t = wire_type_at(i);

		const spec *sp = spec_of(t);

		if (i < (int)(sizeof names / sizeof names[0]))
			assert_string_equal(wire_type_name(t), names[i]);
		assert_non_null(wire_type_name(t));
		f = wire_type_fields(t);
		assert_non_null(f);
		for (nw = 0; *f != '\0'; f++) /* fields in the table */
			nw += *f == ':';
		if (sp != NULL)
			assert_int_equal(nw, (int)strlen(sp->kinds));
		assert_non_null(wire_type_format(t));
		assert_int_equal(nw, (int)strlen(wire_type_format(t)));
		if (i > 0)
			assert_true(t > wire_type_at(i - 1));
	}
	for (i = 0; i < (int)NSPECS; i++) /* every spec is in the table */
		assert_non_null(wire_type_name(specs[i].type));
	assert_int_equal(wire_type_at(-1), 0);
	assert_int_equal(wire_type_at(wire_type_count()), 0);
	for (i = 0; i < (int)(sizeof unknown / sizeof unknown[0]); i++) {
		assert_null(wire_type_name(unknown[i]));
		assert_null(wire_type_fields(unknown[i]));
	}
	assert_null(wire_ctype_name(-1));
	assert_null(wire_ctype_name(WIRE_CT_COUNT));
	assert_string_equal(wire_ctype_name(WIRE_CT_LDOUBLE), "long double");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_and_extra_fields),
		cmocka_unit_test(test_wrong_type_every_field),
		cmocka_unit_test(test_too_few_fields),
		cmocka_unit_test(test_string_limits),
		cmocka_unit_test(test_u32_fields_range),
		cmocka_unit_test(test_u64_extremes),
		cmocka_unit_test(test_wrong_message_type),
		cmocka_unit_test(test_hello_foreign_round_trip),
		cmocka_unit_test(test_hello_local_round_trip),
		cmocka_unit_test(test_hello_host),
		cmocka_unit_test(test_hello_caps_limits),
		cmocka_unit_test(test_hello_abi_refused),
		cmocka_unit_test(test_hello_caps_refused),
		cmocka_unit_test(test_hello_version_read_first),
		cmocka_unit_test(test_hello_check),
		cmocka_unit_test(test_error_encoder),
		cmocka_unit_test(test_token_equal),
		cmocka_unit_test(test_error_names),
		cmocka_unit_test(test_type_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
