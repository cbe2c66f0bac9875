/*
 * con_tfile.c — the trace file writer (con_tfile.h; the format is
 * paravt-trace(5)).
 *
 * A trace file is a stream of MessagePack records, each an array whose
 * first element names its type:
 *
 *   ["paravt-trace", VERSION, CREATED, HOST, COMMAND]      first, once
 *   ["node", NAME, ARCH, {HELLO fields}]                   a node
 *   ["clock", NODE, T0, T1, T2, T3]                        a PING/PONG
 *   ["link", NODE, RTT_NS, UP_BPS, DOWN_BPS, UP_B, DOWN_B] the path to it
 *   ["proc", NODE, PROC, PID_ID, PROGRAM]                  a process
 *   ["strings", NODE, PROC, PID_ID, FIRST, [STR...]]       string table
 *   ["events", NODE, PROC, PID_ID, [EVENT...], OFFSET_NS]  a batch
 *   ["lost", NODE, PROC, PID_ID, COUNT]                    events lost
 *   ["waited", NODE, PROC, PID_ID, WAITS, US]              a full ring
 *   ["exit", PID_ID, HOW, CODE]                            a process end
 *   ["var", PID_ID, BP, FILE, LINE, HIT, NAME, VALUE]      a recorded var
 *   ["end", HOW, STATUS]                                   last, once
 *
 * Events are a packed bin of canonical events (wire_evpk.h), copied as
 * the node sent them in NODE_EVENTS (format version 3 packed each event
 * against the one before, version 2 had a bin of 72-byte records,
 * version 1 an array of 15-integer arrays; the reader takes all four).  The writer is append-only: records go through a
 * msgpack packer into the writer's own buffer, which is written to the
 * kernel when full and after each hook (PARAVT_TRACE_FSYNC=1 adds an
 * fsync), so a console killed at
 * any moment leaves whole records up to the last flush and at most one
 * cut record after them, which the reader (con_tfile_load.c) drops.
 *
 * Layout: the state and the packer; write errors; small record helpers;
 * the node table (a node's record is written the first time its name is
 * seen); open (header, nodes, what the store holds already); the hooks;
 * flush and close.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "con_clk.h"
#include "con_ev.h"
#include "con_node.h"
#include "con_tfile.h"
#include "wire.h"
#include "wire_ev.h"
#include "wire_evpk.h"

#define CON_TFILE_BUF (256u * 1024u) /* the write buffer */
#define CON_TFILE_BATCH 4096u        /* events per record when re-packing
					the store */
#define CON_TFILE_AHEAD (16u << 20)  /* bytes of the file reserved ahead */

/* The file being written (one per console). */
static struct {
	int f;                    /* the file's descriptor, -1 when none */
	char path[CON_NODE_PATH_MAX]; /* its path */
	char *buf;                /* bytes not written yet; owned */
	size_t len;               /* bytes in buf */
	msgpack_packer pk;        /* packs into f */
	int sync;                 /* fsync after each flush */
	char (*nodes)[CON_NODE_NAME_MAX]; /* nodes written; owned */
	size_t nnodes;            /* entries in nodes */
	char error[600];          /* last write error */
	int error_new;            /* error not taken yet */
	int failed;               /* the file was closed by an error */
	int err_no;               /* its errno */
	uint64_t off;             /* bytes in the file */
	uint64_t ahead;           /* blocks reserved up to here (ahead) */
	int no_ahead;             /* the file system cannot reserve */
} con_tf = {.f = -1};

/* ---- write errors ----------------------------------------------------- */

/* Frees the node table. */
static void con_tfile_forget(void)
{
	free(con_tf.nodes);
	con_tf.nodes = NULL;
	con_tf.nnodes = 0;
}

/* Gives back the blocks reserved beyond the end of the file. */
static void con_tfile_unreserve(void)
{
	if (con_tf.ahead > con_tf.off && ftruncate(con_tf.f, (off_t)con_tf.off))
		(void)0; /* the blocks stay reserved; the file is whole */
	con_tf.ahead = 0;
}

/* Reserves the file's blocks CON_TFILE_AHEAD bytes at a time before the
 * writes reach them, the size unchanged (fallocate with KEEP_SIZE): a
 * file system such as ext4 then allocates once per reservation instead
 * of at every page written, which is a good part of what writing events
 * costs.  Where it cannot (another system, a file system without it, a
 * full disk), writes allocate as before; blocks reserved beyond the end
 * are given back at close (a killed console leaves them to the file,
 * beyond its end: the content is the same). */
static void con_tfile_ahead(size_t n)
{
#ifdef FALLOC_FL_KEEP_SIZE
	while (!con_tf.no_ahead && con_tf.off + n > con_tf.ahead) {
		if (fallocate(con_tf.f, FALLOC_FL_KEEP_SIZE,
			      (off_t)con_tf.ahead, CON_TFILE_AHEAD) != 0)
			con_tf.no_ahead = 1;
		else
			con_tf.ahead += CON_TFILE_AHEAD;
	}
#else
	(void)n;
#endif
}

/* A write to the file failed with errno e: closes it (the run goes on
 * without it) and keeps the sentence for con_tfile_take_error. */
static void con_tfile_fail(int e)
{
	if (con_tf.f < 0)
		return;
	con_tfile_unreserve();
	snprintf(con_tf.error, sizeof con_tf.error,
		 "trace file %.400s: write failed (%s); it ends here, the run "
		 "goes on", con_tf.path, strerror(e != 0 ? e : EIO));
	con_tf.error_new = 1;
	con_tf.failed = 1;
	con_tf.err_no = e != 0 ? e : EIO;
	close(con_tf.f);
	con_tf.f = -1;
	con_tf.len = 0;
	con_tfile_forget();
}

/* Writes n bytes of p to the file.  0, or -1 after con_tfile_fail. */
static int con_tfile_put(const char *p, size_t n)
{
	ssize_t w;

	con_tfile_ahead(n);
	while (n > 0) {
		w = write(con_tf.f, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			con_tfile_fail(w < 0 ? errno : ENOSPC);
			return -1;
		}
		p += w;
		n -= (size_t)w;
		con_tf.off += (uint64_t)w;
	}
	return 0;
}

/* Writes the buffer to the file.  0 or -1. */
static int con_tfile_drain(void)
{
	size_t n = con_tf.len;

	con_tf.len = 0;
	return con_tfile_put(con_tf.buf, n);
}

/* The packer's write callback: appends to the buffer (a piece larger
 * than the buffer goes straight to the file). */
static int con_tfile_write(void *data, const char *buf, size_t len)
{
	(void)data;
	if (con_tf.f < 0)
		return -1;
	if (con_tf.len + len > CON_TFILE_BUF && con_tfile_drain() < 0)
		return -1;
	if (len > CON_TFILE_BUF)
		return con_tfile_put(buf, len);
	memcpy(con_tf.buf + con_tf.len, buf, len);
	con_tf.len += len;
	return 0;
}

/* ---- record helpers --------------------------------------------------- */

/* Packs a string (NULL as ""). */
static void con_tfile_str(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	msgpack_pack_str(&con_tf.pk, n);
	msgpack_pack_str_body(&con_tf.pk, s != NULL ? s : "", n);
}

/* Starts a record of n elements (the type included) of type. */
static void con_tfile_rec(const char *type, size_t n)
{
	msgpack_pack_array(&con_tf.pk, n);
	con_tfile_str(type);
}

/* Packs the (node, proc, pid_id) triple of a source. */
static void con_tfile_src(const char *node, uint32_t proc, int pid_id)
{
	con_tfile_str(node);
	msgpack_pack_uint32(&con_tf.pk, proc);
	msgpack_pack_int(&con_tf.pk, pid_id);
}

/* Packs a key and a string value of a map. */
static void con_tfile_kv(const char *key, const char *val)
{
	con_tfile_str(key);
	con_tfile_str(val);
}

/* ---- nodes ------------------------------------------------------------ */

/* The ABI of hello in one line ("s390x, big-endian, long 8, pointer
 * 8"), the arch field of a node record. */
static void con_tfile_arch_text(const wire_hello *h, char *buf, size_t n)
{
	snprintf(buf, n, "%.24s, %.8s-endian, long %u, pointer %u", h->arch,
		 h->abi.byte_order, h->abi.size[WIRE_CT_LONG],
		 h->abi.size[WIRE_CT_PTR]);
}

/* Packs the HELLO fields of h as a map (the full ABI: byte order, and
 * size and alignment of each C scalar type by name). */
static void con_tfile_hello(const wire_hello *h)
{
	int t;

	msgpack_pack_map(&con_tf.pk, 9);
	con_tfile_kv("host", h->node);
	con_tfile_kv("os", h->os);
	con_tfile_kv("os_release", h->os_release);
	con_tfile_kv("arch", h->arch);
	con_tfile_kv("port", h->port);
	con_tfile_kv("software", h->software);
	con_tfile_kv("byte_order", h->abi.byte_order);
	con_tfile_str("size");
	msgpack_pack_map(&con_tf.pk, WIRE_CT_COUNT);
	for (t = 0; t < WIRE_CT_COUNT; t++) {
		con_tfile_str(wire_ctype_name(t));
		msgpack_pack_uint8(&con_tf.pk, h->abi.size[t]);
	}
	con_tfile_str("align");
	msgpack_pack_map(&con_tf.pk, WIRE_CT_COUNT);
	for (t = 0; t < WIRE_CT_COUNT; t++) {
		con_tfile_str(wire_ctype_name(t));
		msgpack_pack_uint8(&con_tf.pk, h->abi.align[t]);
	}
}

/* True if node's record was written. */
static int con_tfile_node_known(const char *node)
{
	size_t i;

	for (i = 0; i < con_tf.nnodes; i++)
		if (strcmp(con_tf.nodes[i], node) == 0)
			return 1;
	return 0;
}

/* Writes node's link record when the path to it was measured. */
static void con_tfile_link_rec(const char *node)
{
	ana_link l;

	if (con_clk_link(node, &l) != 0)
		return;
	con_tfile_rec("link", 7);
	con_tfile_str(node);
	msgpack_pack_int64(&con_tf.pk, l.rtt_ns);
	msgpack_pack_uint64(&con_tf.pk, (uint64_t)(l.up_bps + 0.5));
	msgpack_pack_uint64(&con_tf.pk, (uint64_t)(l.down_bps + 0.5));
	msgpack_pack_uint64(&con_tf.pk, l.up_bytes);
	msgpack_pack_uint64(&con_tf.pk, l.down_bytes);
}

/* Writes node's record: arch as given, or (NULL) made from the node's
 * HELLO; the HELLO map when the console has one, else nil. */
static void con_tfile_node_rec(const char *node, const char *arch)
{
	const con_node *n = con_node_find(node);
	const wire_hello *h = n != NULL && n->have_hello ? &n->hello : NULL;
	char text[128] = "";
	void *v;

	if (arch == NULL && h != NULL)
		con_tfile_arch_text(h, text, sizeof text);
	con_tfile_rec("node", 4);
	con_tfile_str(node);
	con_tfile_str(arch != NULL ? arch : text);
	if (h != NULL)
		con_tfile_hello(h);
	else
		msgpack_pack_nil(&con_tf.pk);
	con_tfile_link_rec(node);
	if (con_tf.f < 0 || con_tfile_node_known(node))
		return;
	v = realloc(con_tf.nodes, (con_tf.nnodes + 1) * sizeof *con_tf.nodes);
	if (v == NULL)
		return; /* written again next time: harmless */
	con_tf.nodes = v;
	snprintf(con_tf.nodes[con_tf.nnodes++], CON_NODE_NAME_MAX, "%s",
		 node);
}

/* Writes node's record if it was not written yet. */
static void con_tfile_node_seen(const char *node)
{
	if (!con_tfile_node_known(node))
		con_tfile_node_rec(node, NULL);
}

/* Writes one clock sample record. */
static void con_tfile_clock_rec(const char *node, const ana_clock_sample *s)
{
	con_tfile_rec("clock", 6);
	con_tfile_str(node);
	msgpack_pack_int64(&con_tf.pk, s->t0);
	msgpack_pack_int64(&con_tf.pk, s->t1);
	msgpack_pack_int64(&con_tf.pk, s->t2);
	msgpack_pack_int64(&con_tf.pk, s->t3);
}

/* ---- open: what the console holds already ------------------------------ */

/* Writes the header record. */
static void con_tfile_header(const char *command)
{
	char host[256];

	if (gethostname(host, sizeof host) != 0)
		snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	con_tfile_rec("paravt-trace", 5);
	msgpack_pack_uint32(&con_tf.pk, CON_TFILE_VERSION);
	msgpack_pack_int64(&con_tf.pk, (int64_t)time(NULL));
	con_tfile_str(host);
	con_tfile_str(command);
}

/* Every node the console has a HELLO of, with its clock samples. */
static void con_tfile_nodes(void)
{
	const ana_clock_sample *s;
	con_node *n;
	size_t i, k;

	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!n->have_hello)
			continue;
		con_tfile_node_rec(n->spec.name, NULL);
		k = con_clk_samples(n->spec.name, &s);
		for (i = 0; i < k; i++)
			con_tfile_clock_rec(n->spec.name, &s[i]);
	}
}

/* The string table of source s as one record (ids 1.., nil for ids
 * never named). */
static void con_tfile_src_strings(const con_ev_src *s)
{
	size_t i;

	if (s->nstrs < 2)
		return;
	con_tfile_rec("strings", 6);
	con_tfile_src(s->node, s->proc, s->pid_id);
	msgpack_pack_uint64(&con_tf.pk, 1);
	msgpack_pack_array(&con_tf.pk, s->nstrs - 1);
	for (i = 1; i < s->nstrs; i++)
		if (s->strs[i] != NULL)
			con_tfile_str(s->strs[i]);
		else
			msgpack_pack_nil(&con_tf.pk);
}

/* Stored event e as a canonical one in *w. */
static void con_tfile_ev(wire_ev *w, const con_ev_rec *e)
{
	w->seq = e->seq;
	w->t_ns = e->t_ns;
	w->delta_ns = e->delta_ns;
	w->bytes = e->bytes;
	w->kind = e->kind;
	w->op = e->op;
	w->file = e->file;
	w->func = e->func;
	w->line = e->line;
	w->peer = e->peer;
	w->tag = e->tag;
	w->result = e->result;
	w->aux = e->aux;
	w->comm = e->comm;
	w->ref = e->ref;
}

/* The clock offset event e was stored with. */
static int64_t con_tfile_ev_offset(const con_ev_rec *e)
{
	return (int64_t)e->t_ns - e->t_con_ns;
}

/* Writes the stored events from arrival number *num on as one events
 * record: the run of events of the same source and offset, at most
 * CON_TFILE_BATCH.  Advances *num past them. */
static void con_tfile_store_batch(uint64_t *num)
{
	const con_ev_rec *e = con_ev_get(*num), *x;
	const con_ev_src *s = con_ev_src_at(e->src);
	int64_t off = con_tfile_ev_offset(e);
	uint64_t end = con_ev_next(), k, n;
	unsigned char *pk;
	wire_evpk_enc w;
	wire_ev ev;
	size_t len;

	for (n = 1; n < CON_TFILE_BATCH && *num + n < end; n++) {
		x = con_ev_get(*num + n);
		if (x->src != e->src || con_tfile_ev_offset(x) != off)
			break;
	}
	pk = malloc(WIRE_EVPK_HEAD + (size_t)n * WIRE_EVPK_MAX);
	if (pk == NULL) {
		con_tfile_fail(ENOMEM);
		*num = end;
		return;
	}
	len = wire_evpk_begin(&w, pk, n);
	for (k = 0; k < n; k++) {
		con_tfile_ev(&ev, con_ev_get(*num + k));
		len += wire_evpk_put(&w, pk + len, &ev);
	}
	con_tfile_rec("events", 6);
	con_tfile_src(s->node, s->proc, s->pid_id);
	msgpack_pack_bin(&con_tf.pk, len);
	msgpack_pack_bin_body(&con_tf.pk, pk, len);
	msgpack_pack_int64(&con_tf.pk, off);
	free(pk);
	*num += n;
}

/* What the event store holds: each source's string table and losses,
 * then the events in arrival order.  The events the store has forgotten
 * (its ring was full) cannot be written. */
static void con_tfile_store(void)
{
	const con_ev_src *s;
	uint64_t num;
	size_t i;

	for (i = 0; i < con_ev_nsrcs() && con_tf.f >= 0; i++) {
		s = con_ev_src_at(i);
		con_tfile_node_seen(s->node);
		con_tfile_src_strings(s);
		if (s->st.lost > 0)
			con_tfile_lost(s->node, s->proc, s->pid_id,
				       s->st.lost);
		if (s->st.waits > 0)
			con_tfile_waited(s->node, s->proc, s->pid_id,
					 s->st.waits, s->st.wait_us);
	}
	num = con_ev_oldest();
	while (num < con_ev_next() && con_tf.f >= 0)
		con_tfile_store_batch(&num);
}

/* Makes fd (owned) the file being written as path: buffer, packer,
 * PARAVT_TRACE_FSYNC.  0, or WIRE_ENOMEM with err (fd closed). */
static int con_tfile_start(int fd, const char *path, char *err,
			   size_t errlen)
{
	const char *sync = getenv("PARAVT_TRACE_FSYNC");
	off_t off;

	if (con_tf.buf == NULL && (con_tf.buf = malloc(CON_TFILE_BUF)) == NULL) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		return WIRE_ENOMEM;
	}
	con_tf.f = fd;
	con_tf.len = 0;
	con_tf.off = con_tf.ahead = 0;
	con_tf.no_ahead = 0;
	if ((off = lseek(fd, 0, SEEK_END)) > 0) /* appending: the end */
		con_tf.off = con_tf.ahead = (uint64_t)off;
	signal(SIGXFSZ, SIG_IGN); /* a file size limit is an EFBIG error */
	snprintf(con_tf.path, sizeof con_tf.path, "%s", path);
	msgpack_packer_init(&con_tf.pk, NULL, con_tfile_write);
	con_tf.sync = sync != NULL && strcmp(sync, "0") != 0 && *sync != '\0';
	con_tf.failed = 0;
	con_tf.error_new = 0;
	con_clk_listen(con_tfile_clock);
	return 0;
}

/* Opens path for writing: a new file, or truncated with overwrite.
 * 0 or a code with err. */
static int con_tfile_create(const char *path, int overwrite, char *err,
			    size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC |
		      (overwrite ? O_TRUNC : O_EXCL), 0644);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == EEXIST ? " (--force overwrites it)" : "");
		return errno == EEXIST ? WIRE_ESTATE : WIRE_EIO;
	}
	return con_tfile_start(fd, path, err, errlen);
}

int con_tfile_open_append(const char *path, uint64_t cut_at, char *err,
			  size_t errlen)
{
	int fd;

	if (con_tf.f >= 0) {
		snprintf(err, errlen, "already writing the trace file %s",
			 con_tf.path);
		return WIRE_ESTATE;
	}
	if (truncate(path, (off_t)cut_at) != 0 ||
	    (fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return WIRE_EIO;
	}
	return con_tfile_start(fd, path, err, errlen);
}

/* Starts writing path. */
int con_tfile_open(const char *path, const char *command, int overwrite,
		   con_tfile_procs_fn *procs, char *err, size_t errlen)
{
	int rc;

	if (con_tf.f >= 0) {
		snprintf(err, errlen, "already writing the trace file %s "
			 "(trace file off first)", con_tf.path);
		return WIRE_ESTATE;
	}
	rc = con_tfile_create(path, overwrite, err, errlen);
	if (rc < 0)
		return rc;
	con_tfile_header(command != NULL ? command : "");
	con_tfile_nodes();
	if (procs != NULL)
		procs(0);
	con_tfile_store();
	if (procs != NULL)
		procs(1);
	con_tfile_flush();
	if (con_tf.f < 0) {
		snprintf(err, errlen, "%s: write failed (%s)", path,
			 strerror(con_tf.err_no));
		con_tf.error_new = 0;
		con_tf.failed = 0;
		return WIRE_EIO;
	}
	return 0;
}

/* True while writing. */
int con_tfile_active(void)
{
	return con_tf.f >= 0;
}

/* The path being written. */
const char *con_tfile_path(void)
{
	return con_tf.f >= 0 ? con_tf.path : "";
}

/* ---- hooks ------------------------------------------------------------ */

/* A node's record (again, when its HELLO changed). */
void con_tfile_node(const char *node, const char *arch)
{
	if (con_tf.f < 0)
		return;
	con_tfile_node_rec(node, arch);
	con_tfile_flush();
}

/* A clock sample. */
void con_tfile_clock(const char *node, const ana_clock_sample *s)
{
	if (con_tf.f < 0)
		return;
	con_tfile_node_seen(node);
	con_tfile_clock_rec(node, s);
	con_tfile_flush();
}

/* A process started. */
void con_tfile_proc(const char *node, uint32_t proc, int pid_id,
		    const char *program)
{
	if (con_tf.f < 0)
		return;
	con_tfile_node_seen(node);
	con_tfile_rec("proc", 5);
	con_tfile_src(node, proc, pid_id);
	con_tfile_str(program);
	con_tfile_flush();
}

/* A NODE_EVENTS batch, with the clock offset the store used. */
void con_tfile_events(const char *node, uint32_t proc, int pid_id,
		      const msgpack_object *events)
{
	const con_node *n;

	if (con_tf.f < 0)
		return;
	con_tfile_node_seen(node);
	n = con_node_find(node);
	con_tfile_rec("events", 6);
	con_tfile_src(node, proc, pid_id);
	msgpack_pack_object(&con_tf.pk, *events);
	msgpack_pack_int64(&con_tf.pk, n != NULL ? n->clock.offset_ns : 0);
	con_tfile_flush();
}

/* An EVENT_STRINGS table. */
void con_tfile_strings(const char *node, uint32_t proc, int pid_id,
		       uint64_t first, const msgpack_object *strings)
{
	if (con_tf.f < 0)
		return;
	con_tfile_node_seen(node);
	con_tfile_rec("strings", 6);
	con_tfile_src(node, proc, pid_id);
	msgpack_pack_uint64(&con_tf.pk, first);
	msgpack_pack_object(&con_tf.pk, *strings);
	con_tfile_flush();
}

/* EVENTS_LOST. */
void con_tfile_lost(const char *node, uint32_t proc, int pid_id,
		    uint64_t count)
{
	if (con_tf.f < 0)
		return;
	con_tfile_rec("lost", 5);
	con_tfile_src(node, proc, pid_id);
	msgpack_pack_uint64(&con_tf.pk, count);
	con_tfile_flush();
}

/* EVENTS_WAITED. */
void con_tfile_waited(const char *node, uint32_t proc, int pid_id,
		      uint64_t waits, uint64_t us)
{
	if (con_tf.f < 0)
		return;
	con_tfile_rec("waited", 6);
	con_tfile_src(node, proc, pid_id);
	msgpack_pack_uint64(&con_tf.pk, waits);
	msgpack_pack_uint64(&con_tf.pk, us);
	con_tfile_flush();
}

/* A process ended: how ("exit", "signal", "crash") and its code. */
void con_tfile_exit(int pid_id, const char *how, int64_t code)
{
	if (con_tf.f < 0)
		return;
	con_tfile_rec("exit", 4);
	msgpack_pack_int(&con_tf.pk, pid_id);
	con_tfile_str(how);
	msgpack_pack_int64(&con_tf.pk, code);
	con_tfile_flush();
}

/* A type table of one unit of a process. */
void con_tfile_types(const char *node, uint32_t proc, int pid_id,
		     uint64_t unit, const msgpack_object *table)
{
	if (con_tf.f < 0)
		return;
	con_tfile_node_seen(node);
	con_tfile_rec("types", 6);
	con_tfile_src(node, proc, pid_id);
	msgpack_pack_uint64(&con_tf.pk, unit);
	msgpack_pack_object(&con_tf.pk, *table);
	con_tfile_flush();
}

/* A variable a `record` breakpoint captured. */
void con_tfile_var(int pid_id, int bp, const char *file, int line,
		   uint64_t hit, const char *name, const char *value)
{
	if (con_tf.f < 0)
		return;
	con_tfile_rec("var", 8);
	msgpack_pack_int(&con_tf.pk, pid_id);
	msgpack_pack_int(&con_tf.pk, bp);
	con_tfile_str(file);
	msgpack_pack_int(&con_tf.pk, line);
	msgpack_pack_uint64(&con_tf.pk, hit);
	con_tfile_str(name);
	con_tfile_str(value);
	con_tfile_flush();
}

/* ---- flush and close -------------------------------------------------- */

/* Hands the buffer to the kernel (and to the disk with sync). */
void con_tfile_flush(void)
{
	if (con_tf.f < 0 || con_tfile_drain() < 0)
		return;
	if (con_tf.sync && fsync(con_tf.f) != 0)
		con_tfile_fail(errno);
}

/* The write error not taken yet. */
const char *con_tfile_take_error(void)
{
	if (!con_tf.error_new)
		return NULL;
	con_tf.error_new = 0;
	return con_tf.error;
}

/* Writes the end record and closes. */
int con_tfile_close(const char *how, int status, char *err, size_t errlen)
{
	int fd;

	if (con_tf.f < 0) {
		if (!con_tf.failed)
			return 0;
		snprintf(err, errlen, "%s", con_tf.error);
		con_tf.failed = 0;
		con_tf.error_new = 0;
		return WIRE_EIO;
	}
	con_tfile_rec("end", 3);
	con_tfile_str(how);
	msgpack_pack_int(&con_tf.pk, status);
	con_tfile_flush();
	if (con_tf.f < 0)
		return con_tfile_close(how, status, err, errlen);
	con_tfile_unreserve();
	fd = con_tf.f;
	con_tf.f = -1;
	con_tfile_forget();
	if (close(fd) != 0) {
		snprintf(err, errlen, "trace file %s: %s", con_tf.path,
			 strerror(errno));
		return WIRE_EIO;
	}
	return 0;
}
