/*
 * con_tfile_load.c — the trace file reader (con_tfile_load, con_tfile.h;
 * the format is paravt-trace(5), the writer con_tfile.c).
 *
 * The file is mapped and unpacked one record at a time with
 * msgpack_unpack_next.  The first record must be the header of this
 * format version; every later record is dispatched by its type: events,
 * string tables and losses go to the event store (con_ev.h) as if a node
 * had just sent them, clock samples to the clock registry (con_clk.h),
 * and nodes, processes, exits, recorded variables and the end record to
 * the metadata con_tfile_loaded() returns.  Unknown record types and
 * extra trailing fields are skipped (a newer minor writer); a known
 * record with wrong fields is skipped and counted.
 *
 * A file that ends inside a record (a console killed while writing, a
 * copy cut short) or that has unreadable bytes after some records is
 * read up to the last whole record, and the note says where.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "con_ana.h"
#include "con_clk.h"
#include "con_ev.h"
#include "con_tfile.h"
#include "td_con.h"
#include "wire.h"
#include "wire_frame.h"

#define CON_TFILE_MAGIC "paravt-trace"

#define CON_TFILE_RD_NOMEM (-2) /* a reader ran out of memory (fatal) */
#define CON_TFILE_RECORD_MAX ((size_t)64 << 20) /* larger: unreadable */

static con_tfile_meta con_tfm; /* what the last load read */
static int con_tfile_stream;   /* loading straight into the analysis */

/* ---- field access ----------------------------------------------------- */

/* A record being read: its fields. */
typedef struct con_tfile_rec {
	const msgpack_object *f; /* fields, f[0] the type */
	uint32_t n;              /* number of fields */
} con_tfile_rec;

/* Copies field i if it is a string into buf.  0 or -1. */
static int con_tfile_fstr(const con_tfile_rec *r, uint32_t i, char *buf,
			  size_t n)
{
	const msgpack_object *o = &r->f[i];

	if (i >= r->n || o->type != MSGPACK_OBJECT_STR)
		return -1;
	snprintf(buf, n, "%.*s", (int)o->via.str.size, o->via.str.ptr);
	return 0;
}

/* Field i as a signed integer.  0 or -1. */
static int con_tfile_fint(const con_tfile_rec *r, uint32_t i, int64_t *v)
{
	const msgpack_object *o = &r->f[i];

	if (i >= r->n)
		return -1;
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
	    o->via.u64 <= (uint64_t)INT64_MAX) {
		*v = (int64_t)o->via.u64;
		return 0;
	}
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*v = o->via.i64;
		return 0;
	}
	return -1;
}

/* The (node, proc, pid_id) triple at fields 1..3.  0 or -1. */
static int con_tfile_fsrc(const con_tfile_rec *r, char *node, size_t n,
			  uint32_t *proc, int *pid_id)
{
	int64_t p, id;

	if (con_tfile_fstr(r, 1, node, n) < 0 || con_tfile_fint(r, 2, &p) < 0 ||
	    con_tfile_fint(r, 3, &id) < 0 || p < 0 || p > UINT32_MAX ||
	    id < 0 || id > INT32_MAX)
		return -1;
	*proc = (uint32_t)p;
	*pid_id = (int)id;
	return 0;
}

/* The string value of key in map o into buf ("" when absent). */
static void con_tfile_mapstr(const msgpack_object *o, const char *key,
			     char *buf, size_t n)
{
	const msgpack_object_kv *kv;
	uint32_t i;

	buf[0] = '\0';
	if (o->type != MSGPACK_OBJECT_MAP)
		return;
	for (i = 0; i < o->via.map.size; i++) {
		kv = &o->via.map.ptr[i];
		if (kv->key.type == MSGPACK_OBJECT_STR &&
		    kv->val.type == MSGPACK_OBJECT_STR &&
		    kv->key.via.str.size == strlen(key) &&
		    memcmp(kv->key.via.str.ptr, key, strlen(key)) == 0) {
			snprintf(buf, n, "%.*s", (int)kv->val.via.str.size,
				 kv->val.via.str.ptr);
			return;
		}
	}
}

/* ---- the metadata ------------------------------------------------------ */

/* Frees the metadata and zeroes it. */
static void con_tfile_meta_free(void)
{
	size_t i;

	for (i = 0; i < con_tfm.nvars; i++) {
		free(con_tfm.vars[i].file);
		free(con_tfm.vars[i].name);
		free(con_tfm.vars[i].value);
	}
	free(con_tfm.vars);
	free(con_tfm.nodes);
	free(con_tfm.procs);
	memset(&con_tfm, 0, sizeof con_tfm);
}

/* The metadata of the last load. */
const con_tfile_meta *con_tfile_loaded(void)
{
	return &con_tfm;
}

/* The node called name of the last load, or NULL. */
const con_tfile_node_info *con_tfile_loaded_node(const char *name)
{
	size_t i;

	for (i = 0; i < con_tfm.nnodes; i++)
		if (strcmp(con_tfm.nodes[i].name, name) == 0)
			return &con_tfm.nodes[i];
	return NULL;
}

/* Grows *v (of *n elements of size sz) by one zeroed element; returns
 * it, or NULL when out of memory. */
static void *con_tfile_push(void **v, size_t *n, size_t sz)
{
	char *p = realloc(*v, (*n + 1) * sz);

	if (p == NULL)
		return NULL;
	memset(p + *n * sz, 0, sz);
	*v = p;
	return p + (*n)++ * sz;
}

/* The node entry called name, created when new; NULL when out of
 * memory. */
static con_tfile_node_info *con_tfile_meta_node(const char *name)
{
	con_tfile_node_info *n;
	size_t i;

	for (i = 0; i < con_tfm.nnodes; i++)
		if (strcmp(con_tfm.nodes[i].name, name) == 0)
			return &con_tfm.nodes[i];
	n = con_tfile_push((void **)&con_tfm.nodes, &con_tfm.nnodes,
			   sizeof *n);
	if (n != NULL)
		snprintf(n->name, sizeof n->name, "%s", name);
	return n;
}

/* The process entry pN, created when new; NULL when out of memory. */
static con_tfile_proc_info *con_tfile_meta_proc(int pid_id)
{
	con_tfile_proc_info *p;
	size_t i;

	for (i = 0; i < con_tfm.nprocs; i++)
		if (con_tfm.procs[i].pid_id == pid_id)
			return &con_tfm.procs[i];
	p = con_tfile_push((void **)&con_tfm.procs, &con_tfm.nprocs,
			   sizeof *p);
	if (p != NULL)
		p->pid_id = pid_id;
	return p;
}

/* ---- records ---------------------------------------------------------- */

/* ["node", NAME, ARCH, {HELLO}] */
static int con_tfile_rd_node(const con_tfile_rec *r)
{
	char name[CON_TFILE_NAME_MAX];
	con_tfile_node_info *n;

	if (con_tfile_fstr(r, 1, name, sizeof name) < 0 || name[0] == '\0' ||
	    (n = con_tfile_meta_node(name)) == NULL ||
	    con_tfile_fstr(r, 2, n->arch, sizeof n->arch) < 0)
		return -1;
	if (r->n > 3) {
		con_tfile_mapstr(&r->f[3], "port", n->port, sizeof n->port);
		con_tfile_mapstr(&r->f[3], "arch", n->machine,
				 sizeof n->machine);
		con_tfile_mapstr(&r->f[3], "software", n->software,
				 sizeof n->software);
	}
	return 0;
}

/* ["link", NODE, RTT_NS, UP_BPS, DOWN_BPS, UP_BYTES, DOWN_BYTES] */
static int con_tfile_rd_link(const con_tfile_rec *r)
{
	char name[CON_TFILE_NAME_MAX];
	int64_t rtt, up, down, ub, db;
	ana_link l;

	if (con_tfile_fstr(r, 1, name, sizeof name) < 0 ||
	    con_tfile_fint(r, 2, &rtt) < 0 || con_tfile_fint(r, 3, &up) < 0 ||
	    con_tfile_fint(r, 4, &down) < 0 ||
	    con_tfile_fint(r, 5, &ub) < 0 || con_tfile_fint(r, 6, &db) < 0 ||
	    rtt < 0 || up <= 0 || down <= 0 || ub <= 0 || db <= 0)
		return -1;
	memset(&l, 0, sizeof l);
	l.valid = 1;
	l.rtt_ns = rtt;
	l.up_bps = (double)up;
	l.down_bps = (double)down;
	l.up_bytes = (uint64_t)ub;
	l.down_bytes = (uint64_t)db;
	return con_clk_set_link(name, &l) < 0 ? -1 : 0;
}

/* ["clock", NODE, T0, T1, T2, T3] */
static int con_tfile_rd_clock(const con_tfile_rec *r)
{
	char name[CON_TFILE_NAME_MAX];
	con_tfile_node_info *n;
	ana_clock_sample s;

	if (con_tfile_fstr(r, 1, name, sizeof name) < 0 ||
	    con_tfile_fint(r, 2, &s.t0) < 0 || con_tfile_fint(r, 3, &s.t1) < 0 ||
	    con_tfile_fint(r, 4, &s.t2) < 0 || con_tfile_fint(r, 5, &s.t3) < 0)
		return -1;
	n = con_tfile_meta_node(name);
	if (n != NULL)
		n->clocks++;
	return con_clk_add(name, &s) < 0 ? -1 : 0;
}

/* ["proc", NODE, PROC, PID_ID, PROGRAM] */
static int con_tfile_rd_proc(const con_tfile_rec *r)
{
	char node[CON_TFILE_NAME_MAX];
	con_tfile_proc_info *p;
	uint32_t proc;
	int id;

	if (con_tfile_fsrc(r, node, sizeof node, &proc, &id) < 0 ||
	    (p = con_tfile_meta_proc(id)) == NULL)
		return -1;
	snprintf(p->node, sizeof p->node, "%s", node);
	p->proc = proc;
	if (con_tfile_fstr(r, 4, p->program, sizeof p->program) < 0)
		p->program[0] = '\0';
	return 0;
}

/* ["events", NODE, PROC, PID_ID, [EVENT...], OFFSET_NS] */
static int con_tfile_rd_events(const con_tfile_rec *r)
{
	char node[CON_TFILE_NAME_MAX], why[200];
	int64_t off = 0;
	uint32_t proc;
	int id;

	if (con_tfile_fsrc(r, node, sizeof node, &proc, &id) < 0 || r->n < 5)
		return -1;
	if (r->n > 5 && con_tfile_fint(r, 5, &off) < 0)
		return -1;
	switch (con_ev_add_batch(node, proc, id, off, &r->f[4], NULL, why,
				 sizeof why)) {
	case WIRE_ENOMEM:
		return CON_TFILE_RD_NOMEM;
	case WIRE_EMALFORMED:
		return -1;
	default:
		return 0;
	}
}

/* ["strings", NODE, PROC, PID_ID, FIRST, [STR...]] */
static int con_tfile_rd_strings(const con_tfile_rec *r)
{
	char node[CON_TFILE_NAME_MAX], why[200];
	int64_t first;
	uint32_t proc;
	int id;

	if (con_tfile_fsrc(r, node, sizeof node, &proc, &id) < 0 ||
	    con_tfile_fint(r, 4, &first) < 0 || first < 1 || r->n < 6)
		return -1;
	return con_ev_strings(node, proc, id, (uint64_t)first, &r->f[5], why,
			      sizeof why) < 0 ? -1 : 0;
}

/* ["lost", NODE, PROC, PID_ID, COUNT] */
static int con_tfile_rd_lost(const con_tfile_rec *r)
{
	char node[CON_TFILE_NAME_MAX];
	int64_t count;
	uint32_t proc;
	int id;

	if (con_tfile_fsrc(r, node, sizeof node, &proc, &id) < 0 ||
	    con_tfile_fint(r, 4, &count) < 0 || count < 0)
		return -1;
	con_ev_lost(node, proc, id, (uint64_t)count);
	return 0;
}

/* ["waited", NODE, PROC, PID_ID, WAITS, US] */
static int con_tfile_rd_waited(const con_tfile_rec *r)
{
	char node[CON_TFILE_NAME_MAX];
	int64_t waits, us;
	uint32_t proc;
	int id;

	if (con_tfile_fsrc(r, node, sizeof node, &proc, &id) < 0 ||
	    con_tfile_fint(r, 4, &waits) < 0 || waits < 0 ||
	    con_tfile_fint(r, 5, &us) < 0 || us < 0)
		return -1;
	con_ev_waited(node, proc, id, (uint64_t)waits, (uint64_t)us);
	return 0;
}

/* ["exit", PID_ID, HOW, CODE] */
static int con_tfile_rd_exit(const con_tfile_rec *r)
{
	con_tfile_proc_info *p;
	int64_t id, code;
	char how[16];

	if (con_tfile_fint(r, 1, &id) < 0 || id < 0 || id > INT32_MAX ||
	    con_tfile_fstr(r, 2, how, sizeof how) < 0 ||
	    con_tfile_fint(r, 3, &code) < 0 ||
	    (p = con_tfile_meta_proc((int)id)) == NULL)
		return -1;
	p->ended = 1;
	snprintf(p->how, sizeof p->how, "%s", how);
	p->code = code;
	return 0;
}

/* ["var", PID_ID, BP, FILE, LINE, HIT, NAME, VALUE] */
static int con_tfile_rd_var(const con_tfile_rec *r)
{
	char file[1024], name[512], value[4096];
	int64_t id, bp, line, hit;
	con_tfile_var_info *v;

	if (con_tfile_fint(r, 1, &id) < 0 || con_tfile_fint(r, 2, &bp) < 0 ||
	    con_tfile_fstr(r, 3, file, sizeof file) < 0 ||
	    con_tfile_fint(r, 4, &line) < 0 || con_tfile_fint(r, 5, &hit) < 0 ||
	    con_tfile_fstr(r, 6, name, sizeof name) < 0 ||
	    con_tfile_fstr(r, 7, value, sizeof value) < 0 || hit < 0)
		return -1;
	v = con_tfile_push((void **)&con_tfm.vars, &con_tfm.nvars, sizeof *v);
	if (v == NULL)
		return -1;
	v->pid_id = (int)id;
	v->bp = (int)bp;
	v->line = (int)line;
	v->hit = (uint64_t)hit;
	v->file = strdup(file);
	v->name = strdup(name);
	v->value = strdup(value);
	return v->file != NULL && v->name != NULL && v->value != NULL ? 0 : -1;
}

/* ["types", NODE, PROC, PID_ID, UNIT, TABLE]: the table must decode. */
static int con_tfile_rd_types(const con_tfile_rec *r)
{
	char node[CON_TFILE_NAME_MAX], why[200];
	td_table *t;
	int64_t unit;
	uint32_t proc;
	int id;

	if (con_tfile_fsrc(r, node, sizeof node, &proc, &id) < 0 ||
	    con_tfile_fint(r, 4, &unit) < 0 || unit < 0 || r->n < 6 ||
	    td_table_decode(&r->f[5], &t, why, sizeof why) != 0)
		return -1;
	td_table_free(t);
	con_tfm.ntypes++;
	return 0;
}

/* ["end", HOW, STATUS] */
static int con_tfile_rd_end(const con_tfile_rec *r)
{
	if (con_tfile_fstr(r, 1, con_tfm.end_how, sizeof con_tfm.end_how) < 0 ||
	    con_tfile_fint(r, 2, &con_tfm.end_status) < 0)
		return -1;
	con_tfm.ended = 1;
	return 0;
}

/* The record types after the header. */
static const struct {
	const char *type;
	int (*read)(const con_tfile_rec *r);
} con_tfile_readers[] = {
	{"node", con_tfile_rd_node},
	{"clock", con_tfile_rd_clock},
	{"link", con_tfile_rd_link},
	{"proc", con_tfile_rd_proc},
	{"events", con_tfile_rd_events},
	{"strings", con_tfile_rd_strings},
	{"lost", con_tfile_rd_lost},
	{"waited", con_tfile_rd_waited},
	{"exit", con_tfile_rd_exit},
	{"var", con_tfile_rd_var},
	{"types", con_tfile_rd_types},
	{"end", con_tfile_rd_end},
};

/* Reads one record after the header; a record of unknown type, or one
 * that is not an array starting with a string, or a known one with wrong
 * fields, is counted as skipped.  0, or CON_TFILE_RD_NOMEM when the
 * store could not take the record's events (the load fails: nothing is
 * dropped silently). */
static int con_tfile_record(const msgpack_object *o)
{
	con_tfile_rec r;
	size_t i;
	int rc;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size == 0 ||
	    o->via.array.ptr[0].type != MSGPACK_OBJECT_STR) {
		con_tfm.skipped++;
		return 0;
	}
	r.f = o->via.array.ptr;
	r.n = o->via.array.size;
	for (i = 0; i < sizeof con_tfile_readers / sizeof *con_tfile_readers;
	     i++)
		if (r.f[0].via.str.size == strlen(con_tfile_readers[i].type) &&
		    memcmp(r.f[0].via.str.ptr, con_tfile_readers[i].type,
			   r.f[0].via.str.size) == 0) {
			rc = con_tfile_readers[i].read(&r);
			if (rc == CON_TFILE_RD_NOMEM)
				return rc;
			if (rc < 0)
				con_tfm.skipped++;
			return 0;
		}
	con_tfm.skipped++;
	return 0;
}

/* ---- header and loop -------------------------------------------------- */

/* True if the n bytes of d can be the start of a header (a fixarray,
 * then the string "paravt-trace"), i.e. a header cut short. */
static int con_tfile_magic_prefix(const char *d, size_t n)
{
	static const char magic[] = "\xac" CON_TFILE_MAGIC;
	size_t k = n - 1 < sizeof magic - 1 ? n - 1 : sizeof magic - 1;

	return n >= 1 && (unsigned char)d[0] >= 0x92 &&
	       (unsigned char)d[0] <= 0x9f && memcmp(d + 1, magic, k) == 0;
}

/* Checks the header o of path.  0, or a code with err. */
static int con_tfile_header(const char *path, const msgpack_object *o,
			    char *err, size_t errlen)
{
	con_tfile_rec r = {o->via.array.ptr, o->via.array.size};
	int64_t v = -1;

	if (o->type != MSGPACK_OBJECT_ARRAY || r.n < 2 ||
	    r.f[0].type != MSGPACK_OBJECT_STR ||
	    r.f[0].via.str.size != strlen(CON_TFILE_MAGIC) ||
	    memcmp(r.f[0].via.str.ptr, CON_TFILE_MAGIC, r.f[0].via.str.size)) {
		snprintf(err, errlen, "%s is not a paravt trace file (it does "
			 "not start with a paravt-trace header)", path);
		return WIRE_EMALFORMED;
	}
	if (con_tfile_fint(&r, 1, &v) < 0 || v < 1 || v > CON_TFILE_VERSION) {
		snprintf(err, errlen, "%s is a paravt trace of format version "
			 "%lld; this paravt reads versions 1 to %d", path,
			 (long long)v, CON_TFILE_VERSION);
		return WIRE_EVERSION;
	}
	con_tfm.version = (uint32_t)v;
	if (con_tfile_fint(&r, 2, &v) == 0)
		con_tfm.created = v;
	con_tfile_fstr(&r, 3, con_tfm.host, sizeof con_tfm.host);
	con_tfile_fstr(&r, 4, con_tfm.command, sizeof con_tfm.command);
	return 0;
}

/* Notes where the readable part of the file ends. */
static void con_tfile_cut(size_t at, const char *what, char *note,
			  size_t notelen)
{
	con_tfm.truncated = 1;
	con_tfm.cut_at = at;
	snprintf(note, notelen, "%s at byte %zu after %llu whole records",
		 what, at, (unsigned long long)con_tfm.records);
}

/* The record at d + *off (the file is n bytes), as msgpack_unpack_next,
 * after a bounds pass (wire_msgpack_measure) so that no count the bytes
 * cannot hold makes msgpack-c allocate for it: such a record, or one
 * over CON_TFILE_RECORD_MAX bytes, is CONTINUE (truncated) or PARSE_ERROR
 * (an invalid byte). */
static msgpack_unpack_return con_tfile_unpack(msgpack_unpacked *u,
					      const char *d, size_t n,
					      size_t *off)
{
	long len;
	int cut;

	len = wire_msgpack_measure((const unsigned char *)d + *off, n - *off,
				   &cut);
	if (len < 0)
		return cut ? MSGPACK_UNPACK_CONTINUE : MSGPACK_UNPACK_PARSE_ERROR;
	if ((size_t)len > CON_TFILE_RECORD_MAX)
		return MSGPACK_UNPACK_PARSE_ERROR;
	return msgpack_unpack_next(u, d, *off + (size_t)len, off);
}

/* Reads the records of the mapped file d (n bytes).  Returns the records
 * read, or a code with err when the first one is not a header of this
 * version. */
static long con_tfile_records(const char *path, const char *d, size_t n,
			      char *note, size_t notelen, char *err,
			      size_t errlen)
{
	msgpack_unpacked u;
	msgpack_unpack_return ret;
	size_t off = 0, good = 0;
	long rc = 0;

	msgpack_unpacked_init(&u);
	while (off < n) {
		ret = con_tfile_unpack(&u, d, n, &off);
		if (ret != MSGPACK_UNPACK_SUCCESS &&
		    ret != MSGPACK_UNPACK_EXTRA_BYTES) {
			if (con_tfm.records == 0 &&
			    (ret != MSGPACK_UNPACK_CONTINUE ||
			     !con_tfile_magic_prefix(d, n))) {
				snprintf(err, errlen, "%s is not a paravt trace "
					 "file (it does not start with a "
					 "paravt-trace header)", path);
				rc = WIRE_EMALFORMED;
			} else {
				con_tfile_cut(good, ret == MSGPACK_UNPACK_CONTINUE ?
					      "truncated" : "unreadable data",
					      note, notelen);
			}
			break;
		}
		if (con_tfm.records == 0)
			rc = con_tfile_header(path, &u.data, err, errlen);
		else if (con_tfile_record(&u.data) == CON_TFILE_RD_NOMEM) {
			snprintf(err, errlen, "out of memory reading %s after "
				 "%llu events (%s: about %zu bytes each)", path,
				 (unsigned long long)con_ev_next(),
				 con_tfile_stream ? "the analysis of a trace "
				 "file holds every event" : "the console keeps "
				 "every event of a trace file in memory, and "
				 "its analysis as much again",
				 con_tfile_stream ? ANA_STREAM_EV_BYTES :
				 CON_EV_REC_BYTES);
			rc = WIRE_ENOMEM;
		}
		if (rc < 0)
			break;
		con_tfm.records++;
		good = off;
	}
	msgpack_unpacked_destroy(&u);
	if (rc == 0 && !con_tfm.truncated)
		con_tfm.cut_at = good;
	return rc < 0 ? rc : (long)con_tfm.records;
}

/* Maps path.  0 with *d and *n (an empty file: WIRE_EMALFORMED), or a
 * code with err. */
static int con_tfile_map(const char *path, const char **d, size_t *n,
			 char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *m;

	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return WIRE_EIO;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		snprintf(err, errlen, "%s is %s, not a paravt trace file", path,
			 S_ISREG(st.st_mode) ? "empty" : "not a regular file");
		close(fd);
		return WIRE_EMALFORMED;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return WIRE_EIO;
	}
	*d = m;
	*n = (size_t)st.st_size;
	return 0;
}

/* The arch text of a node of the last load (con_ana_arch_fn). */
static void con_tfile_node_arch(const char *node, char *buf, size_t n)
{
	const con_tfile_node_info *tn = con_tfile_loaded_node(node);

	buf[0] = '\0';
	if (tn != NULL && tn->port[0] != '\0')
		snprintf(buf, n, "%s %s", tn->port, tn->machine);
}

/* Reads path into the event store and the clock registry. */
long con_tfile_load(const char *path, char *note, size_t notelen,
		    char *err, size_t errlen)
{
	const char *d;
	size_t n;
	long rc;

	note[0] = '\0';
	if (con_tfile_active()) {
		snprintf(err, errlen, "a trace file is being written (%s): "
			 "trace file off first", con_tfile_path());
		return WIRE_ESTATE;
	}
	rc = con_tfile_map(path, &d, &n, err, errlen);
	if (rc < 0)
		return rc;
	con_tfile_meta_free();
	con_ev_reset();
	con_clk_reset();
	con_ana_reset();
	con_ana_set_arch_fn(con_tfile_node_arch);
	con_tfm.size = n;
	/* a file is read whole, and stays whole (until trace keep N) */
	con_ev_set_max(CON_EV_UNBOUNDED);
	if (con_tfile_stream && con_ana_stream_begin() != 0) {
		snprintf(err, errlen, "out of memory");
		rc = WIRE_ENOMEM;
	} else {
		rc = con_tfile_records(path, d, n, note, notelen, err, errlen);
	}
	if (rc >= 0 && con_tfile_stream &&
	    con_ana_stream_end(err, errlen) != 0)
		rc = WIRE_ENOMEM;
	munmap((void *)d, n);
	if (rc < 0) {
		con_ev_reset();
		con_clk_reset();
		con_ana_reset();
	}
	return rc;
}

/* Reads path straight into the analysis (con_ana.h: streaming). */
long con_tfile_load_analysed(const char *path, char *note, size_t notelen,
			     char *err, size_t errlen)
{
	long rc;

	con_tfile_stream = 1;
	rc = con_tfile_load(path, note, notelen, err, errlen);
	con_tfile_stream = 0;
	return rc;
}
