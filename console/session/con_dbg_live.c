/*
 * con_dbg_live.c — live breakpoints (con_dbg.h): a breakpoint set after
 * the build lands on a line probe of that build (con_inst_site_at: the
 * first statement at or after its line, as a debugger moves it), and the
 * session's table of such breakpoints goes to every node (BP_SET), which
 * arms the processes that run and those that start later; `interrupt`
 * (STOP) stops every running process at its next statement.  See
 * wrappers/pvt_ctl.h and paravt-protocol(5), "Live breakpoints".
 */
#include <stdio.h>
#include <string.h>

#include <msgpack.h>

#include "con_dbg_int.h"
#include "paravt_rt.h"

/* See con_dbg.h. */
int con_dbg_live_land(bp *b, char *note, size_t notelen, char *err,
		      size_t errlen)
{
	const con_inst_result *r = &con_dbg.inst;
	const con_inst_site *s;
	long i;

	note[0] = '\0';
	if (!con_dbg.have_inst) {
		snprintf(err, errlen, "no build yet: `build` first");
		return WIRE_ESTATE;
	}
	i = b->func != NULL ? con_inst_site_func(r, b->func)
			    : con_inst_site_at(r, b->file, b->line);
	if (i < 0) {
		if (b->func != NULL)
			snprintf(err, errlen, "no function %s() with a "
				 "statement in the build", b->func);
		else
			snprintf(err, errlen, "no code at or after line %d "
				 "of %s in the build", b->line, b->file);
		return WIRE_EARG;
	}
	s = &r->sites[i];
	if (bp_land_live(&con_dbg.bps, b->id, r->units[s->unit], s->line,
			 r->funcs[s->func], s->unit) != 0) {
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	if (b->file != NULL && s->line != b->line)
		snprintf(note, notelen, "breakpoint %d moved to %s:%d (no code "
			 "on line %d)", b->id, r->units[s->unit], s->line,
			 b->line);
	return 0;
}

/* Packs the live breakpoints as BP_SET's bps into sb. */
static int con_live_pack(msgpack_sbuffer *sb)
{
	msgpack_packer pk;
	uint32_t n = 0, flags;
	const bp *b;

	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	for (b = con_dbg.bps.head; b != NULL; b = b->next)
		n += b->live;
	if (msgpack_pack_array(&pk, n) != 0)
		return -1;
	for (b = con_dbg.bps.head; b != NULL; b = b->next) {
		if (!b->live)
			continue;
		flags = (b->enabled ? PVT_BPF_ENABLED : 0) |
			(b->temp ? PVT_BPF_TEMP : 0);
		if (msgpack_pack_array(&pk, 5) != 0 ||
		    msgpack_pack_uint32(&pk, (uint32_t)b->id) != 0 ||
		    msgpack_pack_str_with_body(&pk, b->at_file,
					       strlen(b->at_file)) != 0 ||
		    msgpack_pack_uint32(&pk, (uint32_t)b->at_line) != 0 ||
		    msgpack_pack_uint32(&pk, flags) != 0 ||
		    msgpack_pack_uint32(&pk, b->ignore) != 0)
			return -1;
	}
	return 0;
}

/* See con_dbg.h. */
int con_dbg_live_sync(char *err, size_t errlen)
{
	static uint64_t gen;
	msgpack_sbuffer sb;
	con_node *n;
	int rc = 0, r;

	msgpack_sbuffer_init(&sb);
	if (con_live_pack(&sb) != 0) {
		msgpack_sbuffer_destroy(&sb);
		snprintf(err, errlen, "out of memory");
		return WIRE_ENOMEM;
	}
	gen++;
	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!n->up)
			continue;
		r = wire_pack(wire_peer_out(&n->peer), WIRE_BP_SET,
			      wire_peer_seq(&n->peer), n->peer.max_frame, gen,
			      (const void *)sb.data, sb.size);
		r = con_dbg_flush(n, r, err, errlen);
		if (r < 0 && rc == 0)
			rc = r;
	}
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* See con_dbg.h. */
int con_dbg_interrupt(int *nodes, char *err, size_t errlen)
{
	con_node *n;
	int rc = 0, r;

	*nodes = 0;
	for (n = con_node_first(); n != NULL; n = n->next) {
		if (!n->up)
			continue;
		r = wire_pack(wire_peer_out(&n->peer), WIRE_STOP,
			      wire_peer_seq(&n->peer), n->peer.max_frame,
			      (uint64_t)0);
		r = con_dbg_flush(n, r, err, errlen);
		if (r < 0 && rc == 0)
			rc = r;
		else if (r == 0)
			(*nodes)++;
	}
	return rc;
}
