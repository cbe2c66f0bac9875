/*
 * td_probe.c — the typedesc test program (C99 + POSIX), built for every
 * port and run natively or under qemu.  It plays the part of a task
 * stopped at a breakpoint:
 *
 *   td_probe -o FILE   writes the evaluated type table, the scope
 *                      [[name, type, addr]...] and the value of every
 *                      variable (td_pack_value) to FILE, as msgpack
 *   td_probe --serve   writes table and scope to stdout, then answers
 *                      requests [request, follow] read from stdin with
 *                      [rc, value-or-nil] until EOF (td_serve)
 *
 * Exit status 0, or 1 with a message on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "td_node.h"
#include "td_probe.h"

/* Writes the whole buffer to fd.  0 or -1. */
static int probe_write(int fd, const msgpack_sbuffer *sb)
{
	size_t off = 0;
	ssize_t n;

	while (off < sb->size) {
		n = write(fd, sb->data + off, sb->size - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

/* Packs table and scope. */
static int probe_header(msgpack_packer *pk)
{
	const td_var *v;
	uint32_t n, i;
	int rc = td_table_pack(pk, &td_probe_table);

	v = td_fixture_scope(&n);
	if (rc || msgpack_pack_array(pk, n))
		return TD_EWRITE;
	for (i = 0; i < n; i++) {
		if (msgpack_pack_array(pk, 3) ||
		    msgpack_pack_str_with_body(pk, v[i].name,
		                               strlen(v[i].name)) ||
		    msgpack_pack_uint32(pk, v[i].type) ||
		    msgpack_pack_uint64(pk, (uint64_t)(uintptr_t)v[i].addr))
			return TD_EWRITE;
	}
	return 0;
}

/* -o FILE: header, then every variable's value. */
static int probe_file(const char *path)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	const td_var *v;
	uint32_t n, i;
	int rc, fd;
	FILE *f;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	rc = probe_header(&pk);
	v = td_fixture_scope(&n);
	for (i = 0; i < n && rc == 0; i++)
		rc = td_pack_value(&pk, &td_probe_table, v[i].type, v[i].addr,
		                   NULL);
	f = rc == 0 ? fopen(path, "wb") : NULL;
	fd = f ? fileno(f) : -1;
	if (rc == 0 && (fd < 0 || probe_write(fd, &sb) < 0))
		rc = TD_EWRITE;
	if (f != NULL && fclose(f) != 0)
		rc = TD_EWRITE;
	msgpack_sbuffer_destroy(&sb);
	if (rc)
		fprintf(stderr, "td_probe: %s: %s\n", path, td_strerror(rc));
	return rc ? 1 : 0;
}

/* Answers one [request, follow] message into sb. */
static void probe_answer(msgpack_packer *pk, msgpack_sbuffer *sb,
                         const msgpack_object *o)
{
	td_request req;
	td_limits lim;
	size_t mark = sb->size;
	int rc = TD_EMALFORMED;

	td_limits_default(&lim);
	if (o->type == MSGPACK_OBJECT_ARRAY && o->via.array.size == 2 &&
	    o->via.array.ptr[1].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    td_request_unpack(&o->via.array.ptr[0], &req) == 0) {
		lim.follow = (uint32_t)o->via.array.ptr[1].via.u64 % 64;
		msgpack_pack_array(pk, 2);
		msgpack_pack_int(pk, 0);
		rc = td_serve(pk, &td_probe_table, &req, &lim);
		if (rc == 0)
			return;
	}
	sb->size = mark;
	msgpack_pack_array(pk, 2);
	msgpack_pack_int(pk, rc);
	msgpack_pack_nil(pk);
}

/* --serve: header on stdout, then one answer per request on stdin. */
static int probe_serve(void)
{
	msgpack_unpacker up;
	msgpack_unpacked msg;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	ssize_t n;
	int rc = 0;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	if (probe_header(&pk) || probe_write(1, &sb) < 0)
		return 1;
	if (!msgpack_unpacker_init(&up, 4096))
		return 1;
	msgpack_unpacked_init(&msg);
	for (;;) {
		if (!msgpack_unpacker_reserve_buffer(&up, 4096))
			break;
		n = read(0, msgpack_unpacker_buffer(&up), 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		msgpack_unpacker_buffer_consumed(&up, (size_t)n);
		while (msgpack_unpacker_next(&up, &msg) ==
		       MSGPACK_UNPACK_SUCCESS) {
			msgpack_sbuffer_clear(&sb);
			probe_answer(&pk, &sb, &msg.data);
			if (probe_write(1, &sb) < 0)
				rc = 1;
		}
	}
	msgpack_unpacked_destroy(&msg);
	msgpack_unpacker_destroy(&up);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* Chooses the mode; see the top of the file. */
int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "-o") == 0)
		return probe_file(argv[2]);
	if (argc == 2 && strcmp(argv[1], "--serve") == 0)
		return probe_serve();
	fprintf(stderr, "usage: td_probe -o FILE | --serve\n");
	return 2;
}
