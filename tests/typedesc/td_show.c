/*
 * td_show.c — host tool of the typedesc tests: the console half.
 *
 *   td_show -f FILE            decodes what "td_probe -o FILE" wrote
 *                              (table, scope, one value per variable) and
 *                              prints "name = value" per variable
 *   td_show [-s] -p PATHS -- PROBE-COMMAND...
 *                              runs the probe command (e.g. "qemu-s390x -L
 *                              ... td_probe --serve"), reads its table and
 *                              scope, then for each line of PATHS evaluates
 *                              the value path, sends the request, and
 *                              prints "path = value" or "path: error: ...".
 *                              A line "+N path" follows N pointer levels.
 *                              -s first prints "sizeof(T) = N" per type.
 *
 * Exit status: 0, 1 on a decoding or I/O failure (message on stderr).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "td_con.h"
#include "td_node.h"

/* Everything the tool holds about the probe. */
typedef struct show {
	msgpack_unpacker up;  /* input stream */
	msgpack_unpacked msg; /* last object */
	int in;               /* fd to read from */
	td_table *t;          /* decoded table */
	td_scope_var *vars;   /* scope */
	char **names;         /* names of the scope (owned) */
	uint32_t nvars;       /* number of variables */
} show;

/* Reads the next msgpack object from s->in into s->msg.  0 or -1. */
static int show_next(show *s)
{
	ssize_t n;

	for (;;) {
		switch (msgpack_unpacker_next(&s->up, &s->msg)) {
		case MSGPACK_UNPACK_SUCCESS:
			return 0;
		case MSGPACK_UNPACK_CONTINUE:
			break;
		default:
			return -1;
		}
		if (!msgpack_unpacker_reserve_buffer(&s->up, 65536))
			return -1;
		n = read(s->in, msgpack_unpacker_buffer(&s->up), 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		msgpack_unpacker_buffer_consumed(&s->up, (size_t)n);
	}
}

/* Decodes the scope [[name, type, addr]...]. */
static int show_scope(show *s, const msgpack_object *o)
{
	const msgpack_object *f;
	uint32_t i;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size > 10000)
		return -1;
	s->nvars = o->via.array.size;
	s->vars = calloc(s->nvars + 1, sizeof *s->vars);
	s->names = calloc(s->nvars + 1, sizeof *s->names);
	if (s->vars == NULL || s->names == NULL)
		return -1;
	for (i = 0; i < s->nvars; i++) {
		f = o->via.array.ptr[i].via.array.ptr;
		if (o->via.array.ptr[i].type != MSGPACK_OBJECT_ARRAY ||
		    o->via.array.ptr[i].via.array.size != 3 ||
		    f[0].type != MSGPACK_OBJECT_STR ||
		    f[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
		    f[2].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
			return -1;
		s->names[i] = strndup(f[0].via.str.ptr, f[0].via.str.size);
		s->vars[i].name = s->names[i];
		s->vars[i].type = (uint32_t)f[1].via.u64;
		s->vars[i].addr = f[2].via.u64;
	}
	return 0;
}

/* Reads table and scope. */
static int show_header(show *s)
{
	char err[256];
	int rc;

	if (show_next(s) < 0) {
		fprintf(stderr, "td_show: no type table\n");
		return -1;
	}
	rc = td_table_decode(&s->msg.data, &s->t, err, sizeof err);
	if (rc) {
		fprintf(stderr, "td_show: table: %s\n", err);
		return -1;
	}
	if (show_next(s) < 0 || show_scope(s, &s->msg.data) < 0) {
		fprintf(stderr, "td_show: bad scope\n");
		return -1;
	}
	return 0;
}

/* Prints "label = value" for value v of type id (or a slice in res). */
static void show_print(show *s, const char *label, const td_path_result *res,
                       const msgpack_object *v)
{
	char err[256];
	wire_buf b;
	int rc;

	wire_buf_init(&b, 1 << 20);
	rc = td_result_print(&b, s->t, res, v, err, sizeof err);
	if (rc)
		printf("%s: bad value: %s\n", label, err);
	else
		printf("%s = %.*s\n", label, (int)wire_buf_used(&b),
		       wire_buf_head(&b));
	wire_buf_destroy(&b);
}

/* -s: one line per type with its size on this node. */
static void show_sizes(show *s)
{
	uint32_t i;

	for (i = 0; i < s->t->ntypes; i++)
		printf("sizeof(%s) = %llu\n", s->t->types[i].name,
		       (unsigned long long)s->t->types[i].size);
}

/* -f FILE mode. */
static int show_file(show *s)
{
	td_path_result res;
	uint32_t i;

	if (show_header(s) < 0)
		return 1;
	for (i = 0; i < s->nvars; i++) {
		if (show_next(s) < 0) {
			fprintf(stderr, "td_show: value %u missing\n", i);
			return 1;
		}
		memset(&res, 0, sizeof res);
		res.type = s->vars[i].type;
		show_print(s, s->vars[i].name, &res, &s->msg.data);
	}
	return 0;
}

/* Sends one request (with follow) to fd; 0 or -1. */
static int show_send(int fd, const td_request *req, unsigned follow)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	int rc;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	rc = msgpack_pack_array(&pk, 2) || td_request_pack(&pk, req) ||
	     msgpack_pack_unsigned_int(&pk, follow);
	if (rc == 0 && write(fd, sb.data, sb.size) != (ssize_t)sb.size)
		rc = -1;
	msgpack_sbuffer_destroy(&sb);
	return rc ? -1 : 0;
}

/* One path line: evaluate, ask, print. */
static int show_path(show *s, int out, char *line)
{
	td_path_result res;
	const msgpack_object *a;
	unsigned follow = 0;
	char err[256];
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	if (line[0] == 0 || line[0] == '#')
		return 0;
	if (sscanf(line, "+%u %n", &follow, &n) == 1 && n > 0)
		line += n;
	if (td_path_eval(s->t, s->vars, s->nvars, line, &res, err,
	                 sizeof err)) {
		printf("%s: error: %s\n", line, err);
		return 0;
	}
	if (show_send(out, &res.req, follow) < 0 || show_next(s) < 0)
		return -1;
	a = &s->msg.data;
	if (a->type != MSGPACK_OBJECT_ARRAY || a->via.array.size != 2)
		return -1;
	if (a->via.array.ptr[0].type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		printf("%s: node error: %s\n", line,
		       td_strerror((int)a->via.array.ptr[0].via.i64));
	else
		show_print(s, line, &res, &a->via.array.ptr[1]);
	return 0;
}

/* Starts argv with pipes; sets *to (its stdin) and s->in (its stdout). */
static pid_t show_spawn(char **argv, show *s, int *to)
{
	int pin[2], pout[2];
	pid_t pid;

	if (pipe(pin) < 0 || pipe(pout) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		close(pin[0]), close(pin[1]), close(pout[0]), close(pout[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	*to = pin[1];
	s->in = pout[0];
	return pid;
}

/* -p PATHS -- CMD mode. */
static int show_live(show *s, const char *paths, int sizes, char **cmd)
{
	char line[1024];
	int to = -1, rc = 0, st;
	FILE *f = fopen(paths, "r");
	pid_t pid;

	if (f == NULL) {
		perror(paths);
		return 1;
	}
	pid = show_spawn(cmd, s, &to);
	if (pid < 0 || show_header(s) < 0)
		rc = 1;
	if (rc == 0 && sizes)
		show_sizes(s);
	while (rc == 0 && fgets(line, sizeof line, f) != NULL)
		if (show_path(s, to, line) < 0) {
			fprintf(stderr, "td_show: probe stopped answering\n");
			rc = 1;
		}
	fclose(f);
	close(to);
	if (pid > 0 && (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	                WEXITSTATUS(st) != 0)) {
		fprintf(stderr, "td_show: probe failed\n");
		rc = 1;
	}
	return rc;
}

/* Frees what show_header allocated. */
static void show_destroy(show *s)
{
	uint32_t i;

	for (i = 0; s->names != NULL && i < s->nvars; i++)
		free(s->names[i]);
	free(s->names);
	free(s->vars);
	td_table_free(s->t);
	msgpack_unpacked_destroy(&s->msg);
	msgpack_unpacker_destroy(&s->up);
}

/* Prints the synopsis and exits 2. */
static void usage(void)
{
	fprintf(stderr, "usage: td_show -f FILE | "
	                "td_show [-s] -p PATHS -- PROBE-COMMAND...\n");
	exit(2);
}

/* Parses the options and runs one of the two modes. */
int main(int argc, char **argv)
{
	const char *paths = NULL;
	int sizes = 0, i = 1, rc;
	show s;

	memset(&s, 0, sizeof s);
	if (!msgpack_unpacker_init(&s.up, 65536))
		return 1;
	msgpack_unpacked_init(&s.msg);
	if (argc == 3 && strcmp(argv[1], "-f") == 0) {
		s.in = open(argv[2], O_RDONLY);
		if (s.in < 0) {
			perror(argv[2]);
			return 1;
		}
		rc = show_file(&s);
		close(s.in);
		show_destroy(&s);
		return rc;
	}
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-s") == 0)
			sizes = 1;
		else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			paths = argv[++i];
		else
			usage();
	}
	if (paths == NULL || i + 1 >= argc)
		usage();
	rc = show_live(&s, paths, sizes, argv + i + 1);
	show_destroy(&s);
	return rc;
}
