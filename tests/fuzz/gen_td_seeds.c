/*
 * gen_td_seeds.c — writes the seeds of fuzz_typedesc and fuzz_request
 * from the typedesc test program's table and variables
 * (tests/typedesc/td_probe_types.c, td_fixture.c): for every variable,
 * the table followed by the value a node serves for it (the input layout
 * of fuzz_typedesc), and the request for it, plain and with a step (the
 * input of fuzz_request).
 *
 *   gen_td_seeds DIR      writes DIR/typedesc/var-NAME, DIR/request/...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <msgpack.h>

#include "td_node.h"
#include "td_probe.h"

/* Writes n bytes of p to dir/sub/name.  0 or -1. */
static int gs_write(const char *dir, const char *sub, const char *name,
		    const void *p, size_t n)
{
	char path[1024];
	FILE *f;
	int bad;

	snprintf(path, sizeof path, "%s/%s", dir, sub);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (f == NULL)
		return -1;
	bad = fwrite(p, 1, n, f) != n;
	return fclose(f) != 0 || bad ? -1 : 0;
}

/* The seed of fuzz_typedesc for variable v: [len16][table][value]. */
static int gs_typedesc(const char *dir, const td_var *v)
{
	msgpack_sbuffer tb, vb;
	msgpack_packer pk;
	td_request req;
	td_limits lim;
	char name[128], *buf;
	int rc = -1;

	msgpack_sbuffer_init(&tb);
	msgpack_sbuffer_init(&vb);
	msgpack_packer_init(&pk, &tb, msgpack_sbuffer_write);
	if (td_table_pack(&pk, &td_probe_table) != 0 || tb.size > 65535)
		goto out;
	memset(&req, 0, sizeof req);
	req.type = v->type;
	req.addr = (uint64_t)(uintptr_t)v->addr;
	td_limits_default(&lim);
	msgpack_packer_init(&pk, &vb, msgpack_sbuffer_write);
	if (td_serve(&pk, &td_probe_table, &req, &lim) != 0)
		goto out;
	buf = malloc(2 + tb.size + vb.size);
	if (buf == NULL)
		goto out;
	buf[0] = (char)(tb.size >> 8);
	buf[1] = (char)tb.size;
	memcpy(buf + 2, tb.data, tb.size);
	memcpy(buf + 2 + tb.size, vb.data, vb.size);
	snprintf(name, sizeof name, "var-%s", v->name);
	rc = gs_write(dir, "typedesc", name, buf, 2 + tb.size + vb.size);
	free(buf);
out:
	msgpack_sbuffer_destroy(&tb);
	msgpack_sbuffer_destroy(&vb);
	return rc;
}

/* The seeds of fuzz_request for variable v: the plain request and one
 * with an index step. */
static int gs_request(const char *dir, const td_var *v)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	td_request req;
	char name[128];
	int rc = 0, k;

	for (k = 0; k < 2 && rc == 0; k++) {
		memset(&req, 0, sizeof req);
		req.type = v->type;
		req.addr = (uint64_t)(uintptr_t)v->addr;
		if (k == 1) {
			req.nsteps = 1;
			req.steps[0].op = TD_STEP_INDEX;
			req.steps[0].arg = 2;
		}
		msgpack_sbuffer_init(&sb);
		msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
		snprintf(name, sizeof name, "req%d-%s", k, v->name);
		rc = td_request_pack(&pk, &req) != 0 ? -1
			: gs_write(dir, "request", name, sb.data, sb.size);
		msgpack_sbuffer_destroy(&sb);
	}
	return rc;
}

int main(int argc, char **argv)
{
	const td_var *vars;
	uint32_t n, i;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_td_seeds DIR\n");
		return 2;
	}
	vars = td_fixture_scope(&n);
	for (i = 0; i < n; i++)
		if (gs_typedesc(argv[1], &vars[i]) != 0 ||
		    gs_request(argv[1], &vars[i]) != 0) {
			fprintf(stderr, "gen_td_seeds: %s: %s\n", vars[i].name,
				strerror(errno));
			return 1;
		}
	printf("gen_td_seeds: %u variables\n", n);
	td_probe_close();
	return 0;
}
