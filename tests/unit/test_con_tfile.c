/*
 * test_con_tfile.c — unit tests of the trace file (console/con_tfile.c,
 * con_tfile_load.c; paravt-trace(5)), linked with the console objects:
 *   - a file written through the hooks (strings, events, losses, clock
 *     samples, a process start and end, recorded variables, the end) reads
 *     back into the event store with the same counters, string names,
 *     clock samples and metadata;
 *   - a file opened after events arrived holds what the store had (the
 *     same events, in arrival order, with their console times);
 *   - the file cut at EVERY byte offset: below the end of the header the
 *     load fails with the "not even the header" case (0 records and a
 *     note), above it returns the records before the cut with the note
 *     "truncated at byte N after R whole records", N <= the cut, N a
 *     record boundary (the first N bytes read without a note), and the
 *     events read never decrease as the cut grows;
 *   - batches with the daemon's summary are stored by it (counters and
 *     state as the summary says) and decoded when events are read, in
 *     arrival order; duplicates are dropped, pending batches beyond the
 *     store's maximum forgotten and counted, a malformed one found late
 *     leaves the numbers with a note, a bad summary is ignored (its batch
 *     decoded) with a note;
 *   - garbage after whole records is "unreadable data"; another version,
 *     a non-trace, an existing file without overwrite, a second open and
 *     a load while writing are refused with a sentence.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "con_clk.h"
#include "con_ev.h"
#include "con_tfile.h"
#include "../wrappers/pvt_event.h"
#include "wire.h"
#include "wire_ev.h"
#include "wire_evpk.h"
#include "wire_evsum.h"

static char ut_dir[64]; /* a private directory for the files */

/* path of name in the test directory, in buf. */
static const char *ut_path(const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", ut_dir, name);
	return buf;
}

/* Unpacks the msgpack bytes of sb into u (caller destroys). */
static const msgpack_object *ut_obj(msgpack_sbuffer *sb, msgpack_unpacked *u)
{
	msgpack_unpacked_init(u);
	assert_int_equal(msgpack_unpack_next(u, sb->data, sb->size, NULL),
			 MSGPACK_UNPACK_SUCCESS);
	return &u->data;
}

/* A batch of n canonical events of a process from seq on: a PROG_START
 * (seq 0, tid 0x40001), then SEND_START/SEND_END pairs at line 57. */
static void ut_batch(msgpack_sbuffer *sb, uint64_t seq, unsigned n)
{
	msgpack_packer pk;
	unsigned i;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, n);
	for (i = 0; i < n; i++, seq++) {
		int kind = seq == 0 ? PVT_EV_PROG_START :
			   seq % 2 ? PVT_EV_SEND_START : PVT_EV_SEND_END;

		msgpack_pack_array(&pk, 13);
		msgpack_pack_uint64(&pk, seq);
		msgpack_pack_int(&pk, kind);
		msgpack_pack_int(&pk, seq == 0 ? 0 : PVT_OP_PVM_SEND);
		msgpack_pack_uint64(&pk, 1000000000ull + seq * 1000);
		msgpack_pack_uint64(&pk, seq * 10);
		msgpack_pack_int(&pk, 1);
		msgpack_pack_int(&pk, 2);
		msgpack_pack_int(&pk, 57);
		msgpack_pack_int(&pk, seq == 0 ? 0x40001 : 0x40002);
		msgpack_pack_int(&pk, seq == 0 ? -1 : 7);
		msgpack_pack_int(&pk, seq == 0 ? -1 : 320);
		msgpack_pack_int(&pk, 0);
		msgpack_pack_int(&pk, seq == 0 ? PVT_EVENT_VERSION : 0);
	}
}

/* The string table ["prog.c", "main"] from id 1. */
static void ut_strings(msgpack_sbuffer *sb)
{
	msgpack_packer pk;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 2);
	msgpack_pack_str_with_body(&pk, "prog.c", 6);
	msgpack_pack_str_with_body(&pk, "main", 4);
}

/* Writes path through the hooks: 2 processes, 4 batches of 25 events,
 * 3 lost, 3 clock samples, a start, an exit, 2 variables, the end. */
static void ut_write(const char *path)
{
	char err[600];
	msgpack_sbuffer sb;
	msgpack_unpacked u;
	ana_clock_sample cs;
	int i, p;

	con_ev_reset(); /* open writes what the store holds: nothing */
	assert_int_equal(con_tfile_open(path, "unit test", 1, NULL, err, sizeof err),
			 0);
	assert_true(con_tfile_active());
	assert_string_equal(con_tfile_path(), path);
	for (i = 0; i < 3; i++) {
		cs.t0 = 100 + i * 1000000;
		cs.t1 = cs.t0 + 5000500;
		cs.t2 = cs.t1 + 100;
		cs.t3 = cs.t0 + 1100;
		con_tfile_clock("n1", &cs);
	}
	con_tfile_proc("n1", 7, 1, "prog");
	ut_strings(&sb);
	for (p = 0; p < 2; p++)
		con_tfile_strings("n1", 7 + (uint32_t)p, 1 + p, 1,
				  ut_obj(&sb, &u));
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	for (i = 0; i < 4; i++) {
		ut_batch(&sb, (uint64_t)(i / 2) * 25, 25);
		con_tfile_events("n1", 7 + (uint32_t)(i % 2), 1 + i % 2,
				 ut_obj(&sb, &u));
		msgpack_unpacked_destroy(&u);
		msgpack_sbuffer_destroy(&sb);
	}
	con_tfile_lost("n1", 8, 2, 3);
	con_tfile_var(1, 1, "/src/prog.c", 57, 1, "n", "50");
	con_tfile_var(2, 1, "/src/prog.c", 57, 2, "n", "63");
	con_tfile_exit(1, "exit", 0);
	assert_null(con_tfile_take_error());
	assert_int_equal(con_tfile_close("off", 0, err, sizeof err), 0);
	assert_false(con_tfile_active());
}

/* Everything written is read back. */
static void test_roundtrip(void **state)
{
	const con_tfile_meta *m;
	const ana_clock_sample *cs;
	char path[128], note[200], err[600];
	con_ev_stats t;
	con_ev_src *s;

	(void)state;
	ut_write(ut_path("rt.pvt", path, sizeof path));
	assert_int_equal(con_tfile_load(path, note, sizeof note, err,
					sizeof err), 17);
	assert_string_equal(note, "");
	con_ev_totals(&t);
	assert_int_equal(t.n.events, 100);
	assert_int_equal(t.n.sends, 48);  /* 24 SEND_END per process */
	assert_int_equal(t.lost, 3);
	assert_int_equal(con_ev_nsrcs(), 2);
	s = con_ev_src_find("n1", 7);
	assert_non_null(s);
	assert_int_equal(s->pid_id, 1);
	assert_true(s->state.have_tid);
	assert_int_equal(s->state.tid, 0x40001);
	assert_string_equal(con_ev_str(s, s->state.file), "prog.c");
	assert_string_equal(con_ev_str(s, s->state.func), "main");
	assert_int_equal(con_clk_samples("n1", &cs), 3);
	assert_int_equal(cs[2].t1, 100 + 2 * 1000000 + 5000500);
	m = con_tfile_loaded();
	assert_int_equal(m->version, CON_TFILE_VERSION);
	assert_string_equal(m->command, "unit test");
	assert_int_equal(m->nnodes, 1);
	assert_string_equal(m->nodes[0].name, "n1");
	assert_int_equal(m->nodes[0].clocks, 3);
	assert_int_equal(m->nprocs, 1);
	assert_string_equal(m->procs[0].program, "prog");
	assert_true(m->procs[0].ended);
	assert_string_equal(m->procs[0].how, "exit");
	assert_int_equal(m->nvars, 2);
	assert_string_equal(m->vars[1].value, "63");
	assert_true(m->ended);
	assert_string_equal(m->end_how, "off");
	assert_int_equal(m->skipped, 0);
	assert_false(m->truncated);
	assert_int_equal(m->cut_at, m->size);
}

/* A file opened after events arrived holds the store's events. */
static void test_open_mid_run(void **state)
{
	char path[128], note[200], err[600];
	msgpack_sbuffer sb;
	msgpack_unpacked u;
	int64_t tcon[3];
	uint64_t k;

	(void)state;
	con_ev_reset();
	ut_strings(&sb);
	assert_int_equal(con_ev_strings("n2", 3, 5, 1, ut_obj(&sb, &u), err,
					sizeof err), 0);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	ut_batch(&sb, 0, 3);
	assert_int_equal(con_ev_add_batch("n2", 3, 5, 777, ut_obj(&sb, &u),
					  NULL, err, sizeof err), 3);
	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(&sb);
	for (k = 0; k < 3; k++)
		tcon[k] = con_ev_get(k)->t_con_ns;
	ut_path("mid.pvt", path, sizeof path);
	assert_int_equal(con_tfile_open(path, "mid", 1, NULL, err, sizeof err), 0);
	assert_int_equal(con_tfile_close("off", 0, err, sizeof err), 0);
	assert_int_equal(con_tfile_load(path, note, sizeof note, err,
					sizeof err), 5);
	assert_int_equal(con_ev_next(), 3);
	for (k = 0; k < 3; k++) {
		assert_int_equal(con_ev_get(k)->seq, k);
		assert_int_equal(con_ev_get(k)->t_con_ns, tcon[k]);
		assert_int_equal(con_ev_get(k)->peer, k ? 0x40002 : 0x40001);
		assert_true(con_ev_get(k)->bytes == (k ? 320 : -1));
		assert_int_equal(con_ev_get(k)->line, 57);
	}
	assert_string_equal(con_ev_str(con_ev_src_find("n2", 3), 2), "main");
}

/* Event number seq of the test batches (i-th of its batch); kind 0
 * (invalid) when i is bad. */
static void ut_bin_ev(wire_ev *e, uint64_t seq, unsigned i, unsigned bad)
{
	memset(e, 0, sizeof *e);
	e->seq = seq;
	e->kind = i == bad ? 0 : seq == 0 ? PVT_EV_PROG_START :
		  seq % 2 ? PVT_EV_SEND_START : PVT_EV_SEND_END;
	e->op = seq == 0 ? 0 : PVT_OP_PVM_SEND;
	e->t_ns = 1000000000ull + seq * 1000;
	e->delta_ns = seq * 10;
	e->file = 1;
	e->func = 2;
	e->line = 57;
	e->peer = seq == 0 ? 0x40001 : 0x40002;
	e->tag = seq == 0 ? -1 : 7;
	e->bytes = seq == 0 ? -1 : 320;
	e->aux = seq == 0 ? PVT_EVENT_VERSION : -5;
	e->comm = 9;
	e->ref = (uint32_t)seq + 100;
}

/* Packs a bin of n canonical records (wire_ev.h) from seq on, like
 * ut_batch's, into sb, less its last cut bytes; kind 0 (invalid) for the
 * record number bad. */
static void ut_bin_batch(msgpack_sbuffer *sb, uint64_t seq, unsigned n,
			 size_t cut, unsigned bad)
{
	unsigned char rec[WIRE_EV_SIZE];
	msgpack_packer pk;
	wire_ev e;
	unsigned i;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_bin(&pk, (size_t)n * WIRE_EV_SIZE - cut);
	for (i = 0; i < n; i++, seq++) {
		ut_bin_ev(&e, seq, i, bad);
		wire_ev_put(rec, &e);
		msgpack_pack_bin_body(&pk, rec, i + 1 < n ? sizeof rec
				      : sizeof rec - cut);
	}
}

/* The same events packed (wire_evpk.h), less the last cut bytes or with
 * extra zero bytes after them. */
static void ut_pk_batch(msgpack_sbuffer *sb, uint64_t seq, unsigned n,
			size_t cut, size_t extra, unsigned bad)
{
	unsigned char b[WIRE_EVPK_HEAD + 8 * WIRE_EVPK_MAX + 8] = {0};
	msgpack_packer pk;
	wire_evpk_enc w;
	wire_ev e;
	size_t len;
	unsigned i;

	assert_true(n <= 8 && extra <= 8);
	len = wire_evpk_begin(&w, b, n);
	for (i = 0; i < n; i++, seq++) {
		ut_bin_ev(&e, seq, i, bad);
		len += wire_evpk_put(&w, b + len, &e);
	}
	len = len - cut + extra;
	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_bin(&pk, len);
	msgpack_pack_bin_body(&pk, b, len);
}

/* Stores the batch in sb as source ("node", 2, pid 4), frees sb: what
 * con_ev_add_batch returned. */
static int ut_add(const char *node, msgpack_sbuffer *sb, char *err,
		  size_t errlen)
{
	msgpack_unpacked u;
	int r = con_ev_add_batch(node, 2, 4, 0, ut_obj(sb, &u), NULL, err,
				 errlen);

	msgpack_unpacked_destroy(&u);
	msgpack_sbuffer_destroy(sb);
	return r;
}

/* Event seq 3 of the test batches (ut_bin_ev), stored field by field. */
static void ut_check_seq3(const con_ev_rec *e)
{
	assert_int_equal(e->seq, 3);
	assert_int_equal(e->kind, PVT_EV_SEND_START);
	assert_int_equal(e->op, PVT_OP_PVM_SEND);
	assert_true(e->t_ns == 1000003000ull && e->delta_ns == 30);
	assert_int_equal(e->line, 57);
	assert_int_equal(e->peer, 0x40002);
	assert_int_equal(e->tag, 7);
	assert_true(e->bytes == 320);
	assert_int_equal(e->aux, -5);
	assert_int_equal(e->comm, 9);
	assert_int_equal(e->ref, 103);
}

/* Batches as daemons send them now, packed: stored field by field as
 * the fixed records are; a batch cut short, with bytes after its last
 * event, or with an event of no known kind is refused with a sentence
 * (the events before stay). */
static void test_packed_batches(void **state)
{
	char err[300];
	msgpack_sbuffer sb;
	msgpack_packer pk;
	const con_ev_rec *e;

	(void)state;
	con_ev_reset();
	ut_pk_batch(&sb, 0, 4, 0, 0, 99);
	assert_int_equal(ut_add("n4", &sb, err, sizeof err), 4);
	ut_check_seq3(con_ev_get(3));
	e = con_ev_get(0);
	assert_true(e->bytes == -1 && e->tag == -1 &&
		    e->aux == PVT_EVENT_VERSION);
	ut_pk_batch(&sb, 4, 3, 1, 0, 99);
	assert_int_equal(ut_add("n4", &sb, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "packed event 2 is cut or malformed"));
	assert_int_equal(con_ev_next(), 6); /* seq 4 and 5 went in */
	ut_pk_batch(&sb, 6, 2, 0, 1, 99);
	assert_int_equal(ut_add("n4", &sb, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "bytes after the last of 2 packed"));
	ut_pk_batch(&sb, 8, 3, 0, 0, 1);
	assert_int_equal(ut_add("n4", &sb, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "seq 9: a field is out of range"));
	/* the mark and a count larger than the bytes */
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_bin(&pk, 3);
	msgpack_pack_bin_body(&pk, "\xff\x09\x00", 3);
	assert_int_equal(ut_add("n4", &sb, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "count is cut or larger than its bytes"));
	assert_int_equal(con_ev_next(), 9);
}

/* Stores the packed batch in sb (seq first.., n events) with a summary
 * of its events as ut_bin_ev makes them, its bytes_out and line set to
 * marks no event has, its count set to count; frees sb: what
 * con_ev_add_batch returned. */
static int ut_add_sum(msgpack_sbuffer *sb, uint64_t first, unsigned n,
		      uint64_t count)
{
	msgpack_sbuffer ss;
	msgpack_unpacked u, us;
	msgpack_packer pk;
	wire_evstate st;
	wire_evcnt c = {0};
	wire_ev e;
	char err[300];
	unsigned i;
	int r;

	wire_evstate_init(&st);
	for (i = 0; i < n; i++) {
		ut_bin_ev(&e, first + i, i, 99);
		wire_evsum_add(&c, &st, &e);
	}
	c.bytes_out = 4242; /* what no decoding would find */
	c.events = count;
	st.line = 99;
	msgpack_sbuffer_init(&ss);
	msgpack_packer_init(&pk, &ss, msgpack_sbuffer_write);
	assert_int_equal(wire_evsum_pack(&pk, first, &c, &st), 0);
	r = con_ev_add_batch("n5", 2, 4, 0, ut_obj(sb, &u), ut_obj(&ss, &us),
			     err, sizeof err);
	msgpack_unpacked_destroy(&u);
	msgpack_unpacked_destroy(&us);
	msgpack_sbuffer_destroy(sb);
	msgpack_sbuffer_destroy(&ss);
	return r;
}

/* Batches with the daemon's summary: see the top of the file. */
static void test_summarised_batches(void **state)
{
	msgpack_sbuffer sb;
	const con_ev_src *s;
	const char *note;
	uint64_t k;

	(void)state;
	con_ev_reset();
	con_ev_set_max(16);
	/* the first batch is decoded at once (the zero of time) */
	ut_pk_batch(&sb, 0, 4, 0, 0, 99);
	assert_int_equal(ut_add_sum(&sb, 0, 4, 4), 4);
	s = con_ev_src_find("n5", 2);
	assert_non_null(s);
	assert_int_equal(s->st.n.bytes_out, 320); /* decoded, not summed */
	/* the next is stored by its summary, decoded when read */
	ut_pk_batch(&sb, 4, 4, 0, 0, 99);
	assert_int_equal(ut_add_sum(&sb, 4, 4, 4), 4);
	assert_int_equal(con_ev_next(), 8);
	assert_int_equal(s->st.n.events, 8);
	assert_int_equal(s->st.n.bytes_out, 320 + 4242);
	assert_int_equal(s->state.line, 99);
	assert_int_equal(s->next_seq, 8);
	assert_null(con_ev_take_error());
	ut_check_seq3(con_ev_get(3));
	for (k = 4; k < 8; k++)
		assert_int_equal(con_ev_get(k)->seq, k);
	/* sent again: dropped and counted */
	ut_pk_batch(&sb, 4, 4, 0, 0, 99);
	assert_int_equal(ut_add_sum(&sb, 4, 4, 4), 0);
	assert_int_equal(s->st.dups, 4);
	/* 5 batches of 8 pending: the oldest are forgotten undecoded */
	for (k = 0; k < 5; k++) {
		ut_pk_batch(&sb, 8 + k * 8, 8, 0, 0, 99);
		assert_int_equal(ut_add_sum(&sb, 8 + k * 8, 8, 8), 8);
	}
	assert_int_equal(con_ev_next(), 48);
	assert_int_equal(con_ev_oldest(), 32);
	assert_int_equal(con_ev_dropped(), 32);
	for (k = 32; k < 48; k++)
		assert_int_equal(con_ev_get(k)->seq, k);
	assert_null(con_ev_get(31));
	/* malformed (event 2 of no kind): found when read */
	ut_pk_batch(&sb, 48, 5, 0, 0, 2);
	assert_int_equal(ut_add_sum(&sb, 48, 5, 5), 5);
	assert_int_equal(con_ev_next(), 53);
	assert_non_null(con_ev_get(49));
	assert_int_equal(con_ev_next(), 50);
	assert_null(con_ev_get(50));
	note = con_ev_take_error();
	assert_non_null(note);
	assert_non_null(strstr(note, "3 events not stored"));
	assert_non_null(strstr(note, "n5 p4"));
	assert_null(con_ev_take_error());
	/* a summary that does not count its batch: decoded, with a note */
	ut_pk_batch(&sb, 53, 3, 0, 0, 99);
	assert_int_equal(ut_add_sum(&sb, 53, 3, 7), 3);
	note = con_ev_take_error();
	assert_non_null(note);
	assert_non_null(strstr(note, "counts 7 events of a batch of 3"));
	assert_int_equal(con_ev_get(52)->seq, 55);
	con_ev_set_max(CON_EV_MAX);
}

/* Batches as daemons send them, bins of records: stored field by field;
 * a bin that is not whole records, or a record of no known kind, is
 * refused with a sentence (earlier events stay). */
static void test_bin_batches(void **state)
{
	char err[300];
	msgpack_sbuffer sb;

	(void)state;
	con_ev_reset();
	ut_bin_batch(&sb, 0, 4, 0, 99);
	assert_int_equal(ut_add("n3", &sb, err, sizeof err), 4);
	ut_check_seq3(con_ev_get(3));
	ut_bin_batch(&sb, 4, 3, 1, 99);
	assert_int_equal(ut_add("n3", &sb, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "72-byte records"));
	ut_bin_batch(&sb, 4, 3, 0, 1);
	assert_int_equal(ut_add("n3", &sb, err, sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "seq 5: a field is out of range"));
	assert_int_equal(con_ev_next(), 5); /* seq 4 went in before seq 5 */
}

/* Reads the whole of path into *d; returns its size. */
static size_t ut_slurp(const char *path, char **d)
{
	FILE *f = fopen(path, "rb");
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*d = malloc((size_t)n);
	assert_non_null(*d);
	assert_int_equal(fread(*d, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return (size_t)n;
}

/* Writes the first n bytes of d to path. */
static void ut_spit(const char *path, const char *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	fclose(f);
}

/* Loads path: the records, note and the events stored. */
static long ut_load(const char *path, char *note, uint64_t *events)
{
	char err[600];
	long r = con_tfile_load(path, note, 200, err, sizeof err);

	*events = con_ev_next();
	return r;
}

/* The file cut at every byte offset. */
static void test_cut_everywhere(void **state)
{
	char full[128], cut[128], note[200];
	uint64_t ev, prev = 0, at;
	size_t n, off, header = 0;
	long r, recs;
	char *d;

	(void)state;
	ut_write(ut_path("full.pvt", full, sizeof full));
	n = ut_slurp(full, &d);
	ut_path("cut.pvt", cut, sizeof cut);
	for (off = 1; off < n; off++) {
		ut_spit(cut, d, off);
		r = ut_load(cut, note, &ev);
		assert_true(r >= 0);
		assert_true(con_tfile_loaded()->truncated ||
			    off == con_tfile_loaded()->cut_at);
		if (r == 0) {
			/* inside the header: nothing, and a note */
			assert_int_equal(header, 0);
			assert_non_null(strstr(note, "truncated at byte 0 "
					       "after 0 whole records"));
			continue;
		}
		if (header == 0)
			header = off;
		assert_true(ev >= prev);
		prev = ev;
		at = con_tfile_loaded()->cut_at;
		assert_true(at <= off);
		if (at == off) {
			assert_string_equal(note, "");
			continue;
		}
		assert_non_null(strstr(note, "truncated at byte "));
		recs = r;
		/* the first at bytes are whole records by themselves */
		ut_spit(cut, d, at);
		assert_int_equal(ut_load(cut, note, &ev), recs);
		assert_string_equal(note, "");
	}
	assert_true(header > 14);
	assert_int_equal(prev, 100);
	free(d);
}

/* Unreadable files and refusals. */
static void test_refusals(void **state)
{
	char path[128], other[128], note[200], err[600];
	size_t n;
	char *d;

	(void)state;
	ut_write(ut_path("g.pvt", path, sizeof path));
	n = ut_slurp(path, &d);
	/* garbage after whole records: 0xc1 is never valid msgpack */
	d = realloc(d, n + 3);
	memcpy(d + n, "\xc1\x01\x02", 3);
	ut_spit(path, d, n + 3);
	assert_int_equal(con_tfile_load(path, note, sizeof note, err,
					sizeof err), 17);
	assert_non_null(strstr(note, "unreadable data at byte"));
	/* version 5 */
	d[14] = 5;
	ut_spit(path, d, n);
	assert_int_equal(con_tfile_load(path, note, sizeof note, err,
					sizeof err), WIRE_EVERSION);
	assert_non_null(strstr(err, "format version 5; this paravt reads "
			       "versions 1 to 4"));
	/* not a trace */
	ut_spit(path, "\x93\x01\x02\x03", 4);
	assert_int_equal(con_tfile_load(path, note, sizeof note, err,
					sizeof err), WIRE_EMALFORMED);
	assert_non_null(strstr(err, "is not a paravt trace file"));
	free(d);
	/* an existing file, a second open, a load while writing */
	assert_true(con_tfile_open(path, "x", 0, NULL, err, sizeof err) < 0);
	assert_non_null(strstr(err, "--force overwrites it"));
	assert_int_equal(con_tfile_open(path, "x", 1, NULL, err, sizeof err), 0);
	assert_true(con_tfile_open(ut_path("o.pvt", other, sizeof other), "x",
				   1, NULL, err, sizeof err) < 0);
	assert_non_null(strstr(err, "already writing"));
	assert_int_equal(con_tfile_load(path, note, sizeof note, err,
					sizeof err), WIRE_ESTATE);
	assert_int_equal(con_tfile_close("off", 0, err, sizeof err), 0);
	/* a write error closes the file, reported once */
	assert_true(con_tfile_open("/dev/full", "x", 1, NULL, err, sizeof err) < 0);
	assert_non_null(strstr(err, "No space left on device"));
	assert_false(con_tfile_active());
	assert_null(con_tfile_take_error());
}

/* Makes the private directory. */
static int ut_setup(void **state)
{
	(void)state;
	snprintf(ut_dir, sizeof ut_dir, "/tmp/test_con_tfile.XXXXXX");
	return mkdtemp(ut_dir) != NULL ? 0 : -1;
}

/* Removes it. */
static int ut_teardown(void **state)
{
	const char *names[] = {"rt.pvt", "mid.pvt", "full.pvt", "cut.pvt",
			       "g.pvt", "o.pvt"};
	char path[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof names / sizeof *names; i++)
		unlink(ut_path(names[i], path, sizeof path));
	return rmdir(ut_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_open_mid_run),
		cmocka_unit_test(test_bin_batches),
		cmocka_unit_test(test_packed_batches),
		cmocka_unit_test(test_summarised_batches),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, ut_setup, ut_teardown);
}
