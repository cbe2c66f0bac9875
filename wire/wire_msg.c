/*
 * wire_msg.c — the message catalog and typed encoders/decoders
 * (see wire_msg.h for the table and the decoding rules).
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "wire_msg.h"

static const struct {
	uint32_t type;
	const char *name;
	const char *fields;
} wire_table[] = {
#define WIRE_ROW_(n, name, fields) {n, #name, fields},
	WIRE_MESSAGES(WIRE_ROW_)
#undef WIRE_ROW_
};

#define WIRE_NTYPES ((int)(sizeof wire_table / sizeof wire_table[0]))

const char *wire_type_name(uint32_t type)
{
	int i;

	for (i = 0; i < WIRE_NTYPES; i++)
		if (wire_table[i].type == type)
			return wire_table[i].name;
	return NULL;
}

const char *wire_type_fields(uint32_t type)
{
	int i;

	for (i = 0; i < WIRE_NTYPES; i++)
		if (wire_table[i].type == type)
			return wire_table[i].fields;
	return NULL;
}

int wire_type_count(void)
{
	return WIRE_NTYPES;
}

uint32_t wire_type_at(int i)
{
	return i >= 0 && i < WIRE_NTYPES ? wire_table[i].type : 0;
}

/* ---- packing helpers -------------------------------------------------- */

static void wire_pk_str(msgpack_packer *pk, const char *s)
{
	size_t n = strlen(s);

	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, s, n);
}

/* One frame holding a single string field. */
static int wire_pack_str1(wire_buf *out, uint32_t type, uint32_t seq,
			  const char *s, size_t max)
{
	wire_enc e;

	if (wire_enc_begin(&e, out, type, seq, 1) == 0)
		wire_pk_str(wire_enc_packer(&e), s);
	return wire_enc_end(&e, max);
}

/* ---- decoding helpers ------------------------------------------------- */

static int wire_bad(char *err, size_t errlen, const wire_msg *m,
		    const char *what)
{
	const char *name = wire_type_name(m->type);

	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s: %s", name ? name : "message", what);
	return WIRE_EMALFORMED;
}

static int wire_need(const wire_msg *m, uint32_t n, char *err, size_t errlen)
{
	char what[64];

	if (m->nf >= n)
		return 0;
	snprintf(what, sizeof what, "has %u fields, needs %u", m->nf, n);
	return wire_bad(err, errlen, m, what);
}

/* True if a msgpack string holds a NUL byte.  msgpack-c gives an empty
 * string a NULL pointer, which memchr must not see. */
static bool wire_str_has_nul(const msgpack_object_str *s)
{
	return s->size > 0 && memchr(s->ptr, '\0', s->size) != NULL;
}

/* Copies a msgpack string (size < cap, checked) into dst with a NUL. */
static void wire_str_copy(char *dst, const msgpack_object_str *s)
{
	if (s->size > 0)
		memcpy(dst, s->ptr, s->size);
	dst[s->size] = '\0';
}

/* Copies string field i into dst (cap bytes with NUL); refuses longer ones
 * and strings with an embedded NUL. */
static int wire_get_str(const wire_msg *m, uint32_t i, char *dst, size_t cap,
			const char *field, char *err, size_t errlen)
{
	const msgpack_object *o = &m->f[i];
	char what[96];

	if (o->type != MSGPACK_OBJECT_STR) {
		snprintf(what, sizeof what, "field %s is not a string", field);
		return wire_bad(err, errlen, m, what);
	}
	if (o->via.str.size >= cap || wire_str_has_nul(&o->via.str)) {
		snprintf(what, sizeof what,
			 "field %s too long or has a NUL byte", field);
		return wire_bad(err, errlen, m, what);
	}
	wire_str_copy(dst, &o->via.str);
	return 0;
}

static int wire_get_u64(const wire_msg *m, uint32_t i, uint64_t *v,
			const char *field, char *err, size_t errlen)
{
	const msgpack_object *o = &m->f[i];
	char what[96];

	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
		snprintf(what, sizeof what,
			 "field %s is not an unsigned integer", field);
		return wire_bad(err, errlen, m, what);
	}
	*v = o->via.u64;
	return 0;
}

static int wire_get_u32(const wire_msg *m, uint32_t i, uint32_t *v,
			const char *field, char *err, size_t errlen)
{
	uint64_t x = 0;
	char what[96];

	if (wire_get_u64(m, i, &x, field, err, errlen) != 0)
		return WIRE_EMALFORMED;
	if (x > UINT32_MAX) {
		snprintf(what, sizeof what, "field %s out of range", field);
		return wire_bad(err, errlen, m, what);
	}
	*v = (uint32_t)x;
	return 0;
}

static int wire_get_str1(const wire_msg *m, uint32_t type, char *dst,
			 size_t cap, const char *field, char *err,
			 size_t errlen)
{
	if (m->type != type)
		return wire_bad(err, errlen, m, "unexpected message type");
	if (wire_need(m, 1, err, errlen) != 0)
		return WIRE_EMALFORMED;
	return wire_get_str(m, 0, dst, cap, field, err, errlen);
}

/* ---- HELLO ------------------------------------------------------------ */

/* Copies src into dst (cap bytes), truncating; always NUL-terminated. */
static void wire_copy(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void wire_host_id(char *buf, size_t n)
{
	FILE *f;

	if (n == 0)
		return;
	buf[0] = '\0';
	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f == NULL)
		return;
	if (fgets(buf, (int)n, f) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

int wire_hello_local_peer(const wire_hello *me, const wire_hello *h)
{
	return me->host[0] != '\0' && strcmp(me->host, h->host) == 0;
}

void wire_hello_local(wire_hello *h, const char *role, const char *node,
		      const char *port)
{
	struct utsname u;

	memset(h, 0, sizeof *h);
	h->version = WIRE_PROTO_VERSION;
	snprintf(h->role, sizeof h->role, "%s", role);
	if (uname(&u) == 0) {
		wire_copy(h->os, sizeof h->os, u.sysname);
		wire_copy(h->os_release, sizeof h->os_release, u.release);
		wire_copy(h->arch, sizeof h->arch, u.machine);
		wire_copy(h->node, sizeof h->node, u.nodename);
	}
	if (node != NULL)
		snprintf(h->node, sizeof h->node, "%s", node);
	snprintf(h->port, sizeof h->port, "%s", port ? port : "unknown");
	wire_abi_local(&h->abi);
	snprintf(h->software, sizeof h->software, "paravt %s", PARAVT_VERSION);
	wire_host_id(h->host, sizeof h->host);
}

/* The ABI travels as a map: type name -> [size, align]. */
static void wire_pk_abi(msgpack_packer *pk, const wire_abi *a)
{
	int t;

	msgpack_pack_map(pk, WIRE_CT_COUNT);
	for (t = 0; t < WIRE_CT_COUNT; t++) {
		wire_pk_str(pk, wire_ctype_name(t));
		msgpack_pack_array(pk, 2);
		msgpack_pack_uint8(pk, a->size[t]);
		msgpack_pack_uint8(pk, a->align[t]);
	}
}

int wire_pack_hello(wire_buf *out, uint32_t seq, const wire_hello *h,
		    size_t max)
{
	wire_enc e;
	msgpack_packer *pk;
	uint32_t i, ncaps;

	/* Never announce more caps than the array holds. */
	ncaps = h->ncaps < WIRE_CAPS_MAX ? h->ncaps : WIRE_CAPS_MAX;
	if (wire_enc_begin(&e, out, WIRE_HELLO, seq, 12) == 0) {
		pk = wire_enc_packer(&e);
		msgpack_pack_uint32(pk, h->version);
		wire_pk_str(pk, h->role);
		wire_pk_str(pk, h->node);
		wire_pk_str(pk, h->os);
		wire_pk_str(pk, h->os_release);
		wire_pk_str(pk, h->arch);
		wire_pk_str(pk, h->abi.byte_order);
		wire_pk_abi(pk, &h->abi);
		wire_pk_str(pk, h->port);
		msgpack_pack_array(pk, ncaps);
		for (i = 0; i < ncaps; i++)
			wire_pk_str(pk, h->caps[i]);
		wire_pk_str(pk, h->software);
		wire_pk_str(pk, h->host);
	}
	return wire_enc_end(&e, max);
}

/* Reads one map entry "name": [size, align] into a. Unknown names are
 * ignored (a later version may describe more types). */
static int wire_get_abi_entry(const msgpack_object_kv *kv, wire_abi *a)
{
	const msgpack_object *v = &kv->val;
	int t;

	if (kv->key.type != MSGPACK_OBJECT_STR || v->type !=
	    MSGPACK_OBJECT_ARRAY || v->via.array.size != 2 ||
	    v->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    v->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    v->via.array.ptr[0].via.u64 > 255 ||
	    v->via.array.ptr[1].via.u64 > 255)
		return -1;
	for (t = 0; t < WIRE_CT_COUNT; t++) {
		const char *n = wire_ctype_name(t);

		if (strlen(n) == kv->key.via.str.size &&
		    memcmp(n, kv->key.via.str.ptr, kv->key.via.str.size) == 0) {
			a->size[t] = (uint8_t)v->via.array.ptr[0].via.u64;
			a->align[t] = (uint8_t)v->via.array.ptr[1].via.u64;
		}
	}
	return 0;
}

static int wire_get_abi(const wire_msg *m, uint32_t i, wire_abi *a, char *err,
			size_t errlen)
{
	const msgpack_object *o = &m->f[i];
	uint32_t k;
	int t;

	if (o->type != MSGPACK_OBJECT_MAP)
		return wire_bad(err, errlen, m, "field abi is not a map");
	for (k = 0; k < o->via.map.size; k++)
		if (wire_get_abi_entry(&o->via.map.ptr[k], a) != 0)
			return wire_bad(err, errlen, m,
					"field abi has a bad entry");
	for (t = 0; t < WIRE_CT_COUNT; t++)
		if (a->size[t] == 0 || a->align[t] == 0)
			return wire_bad(err, errlen, m,
					"field abi misses a scalar type");
	if (strcmp(a->byte_order, "little") != 0 &&
	    strcmp(a->byte_order, "big") != 0)
		return wire_bad(err, errlen, m,
				"byte_order is neither little nor big");
	return 0;
}

static int wire_get_caps(const wire_msg *m, uint32_t i, wire_hello *h,
			 char *err, size_t errlen)
{
	const msgpack_object *o = &m->f[i];
	const msgpack_object *c;
	uint32_t k;

	if (o->type != MSGPACK_OBJECT_ARRAY)
		return wire_bad(err, errlen, m, "field caps is not an array");
	h->ncaps = 0;
	for (k = 0; k < o->via.array.size; k++) {
		c = &o->via.array.ptr[k];
		if (c->type != MSGPACK_OBJECT_STR)
			return wire_bad(err, errlen, m,
					"field caps has a non-string");
		if (wire_str_has_nul(&c->via.str))
			return wire_bad(err, errlen, m,
					"field caps has a NUL byte");
		if (h->ncaps == WIRE_CAPS_MAX || c->via.str.size >= 32)
			continue; /* more than we keep: ignored */
		wire_str_copy(h->caps[h->ncaps++], &c->via.str);
	}
	return 0;
}

int wire_unpack_hello(const wire_msg *m, wire_hello *h, char *err,
		      size_t errlen)
{
	memset(h, 0, sizeof *h);
	if (m->type != WIRE_HELLO)
		return wire_bad(err, errlen, m, "unexpected message type");
	if (wire_need(m, 1, err, errlen) != 0 ||
	    wire_get_u32(m, 0, &h->version, "version", err, errlen) != 0)
		return WIRE_EMALFORMED;
	if (wire_need(m, 12, err, errlen) != 0 ||
	    wire_get_str(m, 1, h->role, sizeof h->role, "role", err,
			 errlen) != 0 ||
	    wire_get_str(m, 2, h->node, sizeof h->node, "node", err,
			 errlen) != 0 ||
	    wire_get_str(m, 3, h->os, sizeof h->os, "os", err, errlen) != 0 ||
	    wire_get_str(m, 4, h->os_release, sizeof h->os_release,
			 "os_release", err, errlen) != 0 ||
	    wire_get_str(m, 5, h->arch, sizeof h->arch, "arch", err,
			 errlen) != 0 ||
	    wire_get_str(m, 6, h->abi.byte_order, sizeof h->abi.byte_order,
			 "byte_order", err, errlen) != 0 ||
	    wire_get_abi(m, 7, &h->abi, err, errlen) != 0 ||
	    wire_get_str(m, 8, h->port, sizeof h->port, "port", err,
			 errlen) != 0 ||
	    wire_get_caps(m, 9, h, err, errlen) != 0 ||
	    wire_get_str(m, 10, h->software, sizeof h->software, "software",
			 err, errlen) != 0 ||
	    wire_get_str(m, 11, h->host, sizeof h->host, "host", err,
			 errlen) != 0)
		return WIRE_EMALFORMED;
	return 0;
}

int wire_hello_check(const wire_hello *peer, const char *want_role, char *err,
		     size_t errlen)
{
	if (peer->version != WIRE_PROTO_VERSION) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "protocol version mismatch: "
				 "peer speaks version %u, this is paravt %s "
				 "speaking version %d", peer->version,
				 PARAVT_VERSION, WIRE_PROTO_VERSION);
		return WIRE_EVERSION;
	}
	if (want_role != NULL && strcmp(peer->role, want_role) != 0) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "peer says it is a %s, expected "
				 "a %s", peer->role, want_role);
		return WIRE_EPROTO;
	}
	return 0;
}

/* ---- AUTH, AUTH_OK, BYE, SESSION_OPEN: one string each ---------------- */

int wire_pack_auth(wire_buf *out, uint32_t seq, const char *token,
		   size_t max)
{
	return wire_pack_str1(out, WIRE_AUTH, seq, token, max);
}

int wire_unpack_auth(const wire_msg *m, char token[WIRE_TOKEN_MAX],
		     char *err, size_t errlen)
{
	return wire_get_str1(m, WIRE_AUTH, token, WIRE_TOKEN_MAX, "token", err,
			     errlen);
}

int wire_pack_auth_ok(wire_buf *out, uint32_t seq, const char *how,
		      size_t max)
{
	return wire_pack_str1(out, WIRE_AUTH_OK, seq, how, max);
}

int wire_unpack_auth_ok(const wire_msg *m, char how[WIRE_NAME_MAX],
			char *err, size_t errlen)
{
	return wire_get_str1(m, WIRE_AUTH_OK, how, WIRE_NAME_MAX, "how", err,
			     errlen);
}

int wire_pack_bye(wire_buf *out, uint32_t seq, const char *reason,
		  size_t max)
{
	return wire_pack_str1(out, WIRE_BYE, seq, reason, max);
}

int wire_unpack_bye(const wire_msg *m, char reason[WIRE_TEXT_MAX], char *err,
		    size_t errlen)
{
	return wire_get_str1(m, WIRE_BYE, reason, WIRE_TEXT_MAX, "reason",
			     err, errlen);
}

int wire_pack_session_open(wire_buf *out, uint32_t seq, const char *console,
			   size_t max)
{
	return wire_pack_str1(out, WIRE_SESSION_OPEN, seq, console, max);
}

int wire_unpack_session_open(const wire_msg *m, char console[WIRE_NAME_MAX],
			     char *err, size_t errlen)
{
	return wire_get_str1(m, WIRE_SESSION_OPEN, console, WIRE_NAME_MAX,
			     "console", err, errlen);
}

/* ---- ERROR ------------------------------------------------------------ */

int wire_pack_error(wire_buf *out, uint32_t seq, int code, uint32_t ref_seq,
		    const char *message, size_t max)
{
	char text[WIRE_TEXT_MAX];
	wire_enc e;
	msgpack_packer *pk;

	snprintf(text, sizeof text, "%s", message); /* enforce the limit */
	if (wire_enc_begin(&e, out, WIRE_ERROR, seq, 3) == 0) {
		pk = wire_enc_packer(&e);
		msgpack_pack_uint32(pk, (uint32_t)(code < 0 ? -code : code));
		msgpack_pack_uint32(pk, ref_seq);
		wire_pk_str(pk, text);
	}
	return wire_enc_end(&e, max);
}

int wire_unpack_error(const wire_msg *m, wire_error_msg *e, char *err,
		      size_t errlen)
{
	memset(e, 0, sizeof *e);
	if (m->type != WIRE_ERROR)
		return wire_bad(err, errlen, m, "unexpected message type");
	if (wire_need(m, 3, err, errlen) != 0 ||
	    wire_get_u32(m, 0, &e->code, "code", err, errlen) != 0 ||
	    wire_get_u32(m, 1, &e->ref_seq, "ref_seq", err, errlen) != 0 ||
	    wire_get_str(m, 2, e->message, sizeof e->message, "message", err,
			 errlen) != 0)
		return WIRE_EMALFORMED;
	return 0;
}

/* ---- PING, PONG, SESSION_OK: integers --------------------------------- */

static int wire_pack_u64s(wire_buf *out, uint32_t type, uint32_t seq,
			  const uint64_t *v, uint32_t n, size_t max)
{
	wire_enc e;
	uint32_t i;

	if (wire_enc_begin(&e, out, type, seq, n) == 0)
		for (i = 0; i < n; i++)
			msgpack_pack_uint64(wire_enc_packer(&e), v[i]);
	return wire_enc_end(&e, max);
}

static int wire_unpack_u64s(const wire_msg *m, uint32_t type, uint64_t *v,
			    uint32_t n, const char *const *names, char *err,
			    size_t errlen)
{
	uint32_t i;

	if (m->type != type)
		return wire_bad(err, errlen, m, "unexpected message type");
	if (wire_need(m, n, err, errlen) != 0)
		return WIRE_EMALFORMED;
	for (i = 0; i < n; i++)
		if (wire_get_u64(m, i, &v[i], names[i], err, errlen) != 0)
			return WIRE_EMALFORMED;
	return 0;
}

int wire_pack_ping(wire_buf *out, uint32_t seq, uint64_t t_console,
		   size_t max)
{
	return wire_pack_u64s(out, WIRE_PING, seq, &t_console, 1, max);
}

int wire_unpack_ping(const wire_msg *m, uint64_t *t_console, char *err,
		     size_t errlen)
{
	static const char *const names[] = {"t_console"};

	return wire_unpack_u64s(m, WIRE_PING, t_console, 1, names, err,
				errlen);
}

int wire_pack_pong(wire_buf *out, uint32_t seq, const wire_pong *p,
		   size_t max)
{
	uint64_t v[3];

	v[0] = p->t_console;
	v[1] = p->t_recv;
	v[2] = p->t_send;
	return wire_pack_u64s(out, WIRE_PONG, seq, v, 3, max);
}

int wire_unpack_pong(const wire_msg *m, wire_pong *p, char *err,
		     size_t errlen)
{
	static const char *const names[] = {"t_console", "t_recv", "t_send"};
	uint64_t v[3];

	if (wire_unpack_u64s(m, WIRE_PONG, v, 3, names, err, errlen) != 0)
		return WIRE_EMALFORMED;
	p->t_console = v[0];
	p->t_recv = v[1];
	p->t_send = v[2];
	return 0;
}

int wire_pack_session_ok(wire_buf *out, uint32_t seq, uint64_t session,
			 size_t max)
{
	return wire_pack_u64s(out, WIRE_SESSION_OK, seq, &session, 1, max);
}

int wire_unpack_session_ok(const wire_msg *m, uint64_t *session, char *err,
			   size_t errlen)
{
	static const char *const names[] = {"session"};

	return wire_unpack_u64s(m, WIRE_SESSION_OK, session, 1, names, err,
				errlen);
}

/* ---- small utilities -------------------------------------------------- */

uint64_t wire_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool wire_token_equal(const char *a, const char *b)
{
	size_t la = strnlen(a, WIRE_TOKEN_MAX), lb = strnlen(b, WIRE_TOKEN_MAX);
	unsigned char diff = (unsigned char)(la != lb);
	size_t i;

	/* Always WIRE_TOKEN_MAX rounds, whatever the lengths. */
	for (i = 0; i < WIRE_TOKEN_MAX; i++)
		diff |= (unsigned char)((i < la ? a[i] : 0) ^ (i < lb ? b[i] : 0));
	return diff == 0;
}
