/*
 * dmn_ctl.c — live breakpoints on the node (dmn_work.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <msgpack.h>

#include "dmn_log.h"
#include "dmn_work.h"
#include "pvt_ctl.h"
#include "wire_fmt.h"

/* Sets the daemon's byte of p's page from the session's table and the
 * stop p has not obeyed yet. */
static void ctl_arm(dmn_proc *p)
{
	pvt_ctl *c = p->ctl;

	if (c == NULL)
		return;
	c->armed.b[PVT_CTL_BY_DAEMON] =
	    (p->sess->nbps > 0 || c->stop != c->stop_seen) ? 1 : 0;
}

/* See dmn_work.h. */
int dmn_ctl_page(dmn_work *w, dmn_proc *p, const wire_msg *m, char *err,
                 size_t errlen)
{
	char path[WIRE_TEXT_MAX];
	uint64_t proc;
	pvt_ctl *c;

	(void)w;
	if (wire_unpack(m, err, errlen, &proc, path, sizeof path) != 0)
		return WIRE_EMALFORMED;
	if (p->ctl != NULL) {
		snprintf(err, errlen, "a second control page");
		return WIRE_ESTATE;
	}
	c = dmn_shm_map(p, path, "ctl-", PVT_CTL_SIZE, "control page", err,
	                errlen);
	if (c == NULL)
		return WIRE_EARG;
	if (c->magic != PVT_CTL_MAGIC || c->version != PVT_CTL_VERSION ||
	    c->size != PVT_CTL_SIZE) {
		snprintf(err, errlen, "control page: layout %u, this daemon "
		         "reads %u", c->version, PVT_CTL_VERSION);
		(void)munmap((void *)c, PVT_CTL_SIZE);
		return WIRE_EARG;
	}
	(void)unlink(path);
	p->ctl = c;
	c->gen = (uint32_t)p->sess->bps_gen;
	if (p->stop_early)
		c->stop++; /* the task stops at its first statement */
	p->stop_early = 0;
	ctl_arm(p);
	c->attached = 1; /* last: the task waits for it, then reads armed */
	return 0;
}

/* See dmn_work.h. */
void dmn_ctl_forget(dmn_proc *p)
{
	if (p->ctl != NULL)
		(void)munmap((void *)p->ctl, PVT_CTL_SIZE);
	p->ctl = NULL;
}

/* See dmn_work.h. */
void dmn_ctl_table(dmn_work *w, dmn_proc *p, dmn_conn *c, const wire_msg *m)
{
	static const char empty[1] = {(char)0x90}; /* [] */
	const dmn_sess *s = p->sess;
	wire_peer *out = dmn_conn_peer(c);
	int rc;

	(void)w;
	if (out == NULL)
		return;
	rc = wire_pack(wire_peer_out(out), WIRE_BP_TABLE, wire_peer_seq(out),
	               out->max_frame, p->num, s->bps_gen,
	               (const void *)(s->bps != NULL ? s->bps : empty),
	               s->bps != NULL ? s->bps_len : sizeof empty);
	if (rc != 0)
		dmn_conn_fail(c, rc, m->seq, "breakpoint table too large", 0);
	dmn_conn_kick(c);
}

/* Checks one entry [id, file, line, flags, ignore, (code)]; the code of
 * a condition is the task's to check (breakpoints/bp_cond.c). */
static int ctl_entry_ok(const msgpack_object *o)
{
	const msgpack_object *f;
	int i;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 5)
		return 0;
	f = o->via.array.ptr;
	for (i = 0; i < 5; i++)
		if (i != 1 && f[i].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
			return 0;
	return f[1].type == MSGPACK_OBJECT_STR && f[1].via.str.size > 0;
}

/* Takes bps as s's table (packed again into s->bps).  0 or -1 out of
 * memory. */
static int ctl_keep(dmn_sess *s, const msgpack_object *bps, uint64_t gen)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	if (msgpack_pack_object(&pk, *bps) != 0) {
		msgpack_sbuffer_destroy(&sb);
		return -1;
	}
	free(s->bps);
	s->bps_len = sb.size; /* release empties sb */
	s->bps = msgpack_sbuffer_release(&sb);
	s->nbps = bps->via.array.size;
	s->bps_gen = gen;
	return 0;
}

/* See dmn_work.h. */
void dmn_ctl_bp_set(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	const msgpack_object *bps;
	char err[WIRE_TEXT_MAX];
	dmn_sess *s;
	uint64_t gen;
	uint32_t i;
	int k;

	if (wire_unpack(m, err, sizeof err, &gen, &bps) != 0) {
		dmn_work_err(c, WIRE_EMALFORMED, m->seq, "%s", err);
		return;
	}
	if ((s = dmn_work_cur(w, err, sizeof err)) == NULL) {
		dmn_work_err(c, WIRE_ESTATE, m->seq, "%s", err);
		return;
	}
	if (bps->type != MSGPACK_OBJECT_ARRAY) {
		dmn_work_err(c, WIRE_EMALFORMED, m->seq, "bps: not an array");
		return;
	}
	for (i = 0; i < bps->via.array.size; i++)
		if (!ctl_entry_ok(&bps->via.array.ptr[i])) {
			dmn_work_err(c, WIRE_EMALFORMED, m->seq,
			             "breakpoint %u: not [id, file, line, "
			             "flags, ignore]", i + 1);
			return;
		}
	if (ctl_keep(s, bps, gen) != 0) {
		dmn_work_err(c, WIRE_ENOMEM, m->seq, "out of memory");
		return;
	}
	for (k = 0; k < w->cap_procs; k++)
		if (w->procs[k] != NULL && w->procs[k]->sess == s &&
		    w->procs[k]->ctl != NULL) {
			w->procs[k]->ctl->gen = (uint32_t)gen;
			ctl_arm(w->procs[k]);
		}
	dmn_log(DMN_INFO, "session %llu: %u live breakpoints (gen %llu)",
	        (unsigned long long)s->id, s->nbps, (unsigned long long)gen);
}

/* See dmn_work.h. */
void dmn_ctl_stop(dmn_work *w, dmn_conn *c, const wire_msg *m)
{
	char err[WIRE_TEXT_MAX];
	dmn_proc *p;
	dmn_sess *s;
	uint64_t proc;
	int k, n = 0;

	if (wire_unpack(m, err, sizeof err, &proc) != 0) {
		dmn_work_err(c, WIRE_EMALFORMED, m->seq, "%s", err);
		return;
	}
	if ((s = dmn_work_cur(w, err, sizeof err)) == NULL) {
		dmn_work_err(c, WIRE_ESTATE, m->seq, "%s", err);
		return;
	}
	for (k = 0; k < w->cap_procs; k++) {
		p = w->procs[k];
		if (p == NULL || p->sess != s || p->exited ||
		    (proc != 0 && p->num != proc))
			continue;
		if (p->ctl == NULL && proc != 0 && p->task == NULL &&
		    !p->foreign) {
			p->stop_early = 1; /* started, not connected yet */
			n++;
			continue;
		}
		if (p->ctl == NULL)
			continue;
		p->ctl->stop++;
		ctl_arm(p);
		n++;
	}
	if (n == 0 && proc != 0)
		dmn_work_err(c, WIRE_EARG, m->seq, "proc %llu cannot be "
		             "stopped (not running here, or not instrumented)",
		             (unsigned long long)proc);
}

/* See dmn_work.h.  A stop asked while p was already stopped (at a
 * breakpoint of its own) is moot: taken back, or p would stop again at
 * its first statement. */
void dmn_ctl_resumed(dmn_proc *p)
{
	if (p->ctl != NULL)
		p->ctl->stop = p->ctl->stop_seen;
	p->stop_early = 0;
	ctl_arm(p);
}

/* See dmn_work.h. */
void dmn_ctl_sess_free(dmn_sess *s)
{
	free(s->bps);
	s->bps = NULL;
	s->nbps = 0;
}
