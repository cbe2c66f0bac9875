/*
 * con_ev_fmt.c — names, filters and the display line of stored events
 * (con_ev.h).
 *
 * Layout: op and class names; filters (parse, text, match); the display
 * line.  The line keeps one shape for every kind:
 *
 *   [pN NODE] +SECONDS WORD   DETAIL  FILE:LINE FUNC
 *
 * where WORD is the class (send, recv, mcast, group, special, start,
 * exit, crash, break, enter, leave) and DETAIL says what the call did:
 * "-> t4000a tag 7  320 B" for a send, "<- t40001 tag 12  48 B" for a
 * receive (the source actually received from, also for wildcards).  PVM
 * peers are tids in PVM's own hex form (t4000a); MPI peers are ranks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_ev.h"
#include "../wrappers/pvt_event.h"
#include "wire.h"

/* The words of enum con_ev_class, in order. */
static const char *const con_ev_class_words[CON_EVC_COUNT] = {
	"start", "exit", "func", "send", "recv", "mcast", "group", "special",
	"break", "crash"};

/* ---- names ------------------------------------------------------------ */

/* Name of an op. */
const char *con_ev_op_name(unsigned op)
{
	return pvt_op_name(op);
}

/* The class of a kind. */
int con_ev_class_of(unsigned kind)
{
	static const signed char c[PVT_EV_KIND_MAX + 1] = {
		-1, CON_EVC_START, CON_EVC_EXIT, CON_EVC_FUNC, CON_EVC_FUNC,
		CON_EVC_SEND, CON_EVC_SEND, CON_EVC_RECV, CON_EVC_RECV,
		CON_EVC_MCAST, CON_EVC_MCAST, CON_EVC_GROUP, CON_EVC_GROUP,
		CON_EVC_SPECIAL, CON_EVC_SPECIAL, CON_EVC_BREAK,
		CON_EVC_BREAK, CON_EVC_CRASH, CON_EVC_MCAST};

	return kind <= PVT_EV_KIND_MAX ? c[kind] : -1;
}

/* ---- filters ---------------------------------------------------------- */

/* Adds the pN numbers of the comma list s to f.  0 or -1 with err. */
static int con_ev_filter_procs(char *s, con_ev_filter *f, char *err,
			       size_t errlen)
{
	char *w, *end, *save = NULL;
	long id;

	for (w = strtok_r(s, ",", &save); w != NULL;
	     w = strtok_r(NULL, ",", &save)) {
		id = strtol(w[0] == 'p' ? w + 1 : w, &end, 10);
		if (*end != '\0' || end == w || id < 1 || id > 1000000 ||
		    f->nprocs == CON_EV_FILTER_PROCS) {
			snprintf(err, errlen, "trace filter: bad process '%s' "
				 "(pN, at most %d)", w, CON_EV_FILTER_PROCS);
			return -1;
		}
		f->procs[f->nprocs++] = (int)id;
	}
	return 0;
}

/* Adds the classes of the comma list s to f.  0 or -1 with err. */
static int con_ev_filter_kinds(char *s, con_ev_filter *f, char *err,
			       size_t errlen)
{
	char *w, *save = NULL;
	int c;

	for (w = strtok_r(s, ",", &save); w != NULL;
	     w = strtok_r(NULL, ",", &save)) {
		for (c = 0; c < CON_EVC_COUNT; c++)
			if (strcmp(w, con_ev_class_words[c]) == 0)
				break;
		if (strcmp(w, "all") == 0) {
			f->kinds |= (1u << CON_EVC_COUNT) - 1;
			continue;
		}
		if (c == CON_EVC_COUNT) {
			snprintf(err, errlen, "trace filter: unknown kind '%s' "
				 "(start exit func send recv mcast group "
				 "special break crash all)", w);
			return -1;
		}
		f->kinds |= 1u << c;
	}
	return 0;
}

/* Parses the filter words. */
int con_ev_filter_parse(int argc, char **argv, con_ev_filter *f, char *err,
			size_t errlen)
{
	char buf[1024];
	int i, rc;

	memset(f, 0, sizeof *f);
	for (i = 0; i < argc; i++) {
		snprintf(buf, sizeof buf, "%s", argv[i]);
		if (strncmp(buf, "proc=", 5) == 0)
			rc = con_ev_filter_procs(buf + 5, f, err, errlen);
		else if (strncmp(buf, "kind=", 5) == 0)
			rc = con_ev_filter_kinds(buf + 5, f, err, errlen);
		else {
			snprintf(err, errlen, "trace filter: expected proc=LIST"
				 " or kind=LIST, not '%s'", argv[i]);
			rc = -1;
		}
		if (rc < 0)
			return WIRE_EARG;
	}
	return 0;
}

/* Writes the filter's words. */
void con_ev_filter_text(const con_ev_filter *f, char *buf, size_t n)
{
	size_t used = 0;
	int i, c;

	buf[0] = '\0';
	for (i = 0; i < f->nprocs && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%sp%d",
					 i == 0 ? "proc=" : ",", f->procs[i]);
	for (i = 0, c = 0; c < CON_EVC_COUNT && used < n; c++)
		if (f->kinds & (1u << c))
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
						 i++ == 0 ? (used ? " kind=" :
							     "kind=") : ",",
						 con_ev_class_words[c]);
}

/* True if e's class is shown when no kind is asked for. */
static int con_ev_default_shown(const con_ev_rec *e)
{
	switch (e->kind) {
	case PVT_EV_PROG_START: case PVT_EV_PROG_EXIT: case PVT_EV_CRASH:
	case PVT_EV_BREAK_START:
		return 1;
	case PVT_EV_FN_ENTER: case PVT_EV_FN_EXIT: case PVT_EV_BREAK_END:
		return 0;
	default:
		return e->kind % 2 == 0; /* the *_END kinds are even */
	}
}

/* True if e passes f (see con_ev.h). */
int con_ev_match(const con_ev_filter *f, const con_ev_rec *e, int every)
{
	const con_ev_src *s = con_ev_src_at(e->src);
	int i, c = con_ev_class_of(e->kind), in = f->nprocs == 0;

	for (i = 0; i < f->nprocs && s != NULL; i++)
		in |= f->procs[i] == s->pid_id;
	if (!in || c < 0)
		return 0;
	if (every)
		return f->kinds == 0 || (f->kinds & (1u << c)) != 0;
	if (f->kinds == 0)
		return con_ev_default_shown(e);
	if (!(f->kinds & (1u << c)))
		return 0;
	/* a START is shown only where it is the whole story */
	return e->kind == PVT_EV_FN_ENTER || e->kind == PVT_EV_BREAK_START ||
	       con_ev_default_shown(e);
}

/* ---- the display line ------------------------------------------------- */

/* A peer as the user knows it: PVM tid "t4000a" (a pvmd's too:
 * "t80000000"), MPI rank "3"; -1 (a wildcard not resolved) "any". */
static void con_ev_peer(const con_ev_rec *e, char *buf, size_t n)
{
	if (e->peer == -1)
		snprintf(buf, n, "any");
	else if (e->peer == PVT_PEER_NULL && pvt_op_is_mpi(e->op))
		snprintf(buf, n, "MPI_PROC_NULL");
	else if (e->op < PVT_OP_MPI_INIT)
		snprintf(buf, n, "t%x", (unsigned)e->peer);
	else
		snprintf(buf, n, "rank %d", e->peer);
}

/* Where e's message matches, when it is not the default place: " comm
 * 5e1a03c2" (an MPI communicator other than MPI_COMM_WORLD), " ctx 3" (a
 * PVM context other than the base one); "" otherwise. */
static void con_ev_where(const con_ev_rec *e, char *buf, size_t n)
{
	buf[0] = '\0';
	if (e->comm != 0 && pvt_op_is_mpi(e->op))
		snprintf(buf, n, " comm %08x", (unsigned)e->comm);
	else if (e->comm != 0 && e->op < PVT_OP_MPI_INIT)
		snprintf(buf, n, " ctx %u", (unsigned)e->comm);
}

/* Message details: "-> t4000a tag 7  320 B". */
static void con_ev_msg(const con_ev_rec *e, const char *arrow, char *buf,
		       size_t n)
{
	char peer[32], tag[24] = "", bytes[32] = "", where[32];

	con_ev_peer(e, peer, sizeof peer);
	con_ev_where(e, where, sizeof where);
	if (e->tag >= 0)
		snprintf(tag, sizeof tag, " tag %d", e->tag);
	if (e->bytes >= 0)
		snprintf(bytes, sizeof bytes, "  %lld B", (long long)e->bytes);
	snprintf(buf, n, "%s %s%s%s%s", arrow, peer, tag, where, bytes);
}

/* True if e's result is a PVM tid (pvm_mytid, pvm_parent, pvm_gettid
 * that succeeded). */
static int con_ev_tid_result(const con_ev_rec *e)
{
	return e->kind == PVT_EV_SPECIAL_END && e->result > 0 &&
	       (e->op == PVT_OP_PVM_MYTID || e->op == PVT_OP_PVM_PARENT ||
		e->op == PVT_OP_PVM_GETTID);
}

/* True if e names another PVM task in peer (the first task pvm_spawn
 * started, the task pvm_kill or pvm_sendsig is about). */
static int con_ev_tid_peer(const con_ev_rec *e)
{
	return e->kind == PVT_EV_SPECIAL_END && e->peer > 0 &&
	       (e->op == PVT_OP_PVM_SPAWN || e->op == PVT_OP_PVM_KILL ||
		e->op == PVT_OP_PVM_SENDSIG);
}

/* The WORD and DETAIL of e. */
static void con_ev_detail(const con_ev_rec *e, const con_ev_src *s,
			  const char **word, char *buf, size_t n)
{
	const char *op = con_ev_op_name(e->op);
	int c = con_ev_class_of(e->kind);

	*word = c >= 0 ? con_ev_class_words[c] : "?";
	buf[0] = '\0';
	switch (e->kind) {
	case PVT_EV_SEND_END: case PVT_EV_SEND_START:
	case PVT_EV_MCAST_DEST:
		con_ev_msg(e, "->", buf, n);
		break;
	case PVT_EV_RECV_END:
		if (e->op != PVT_OP_PVM_PROBE && e->result <= 0 &&
		    e->op < PVT_OP_MPI_INIT)
			snprintf(buf, n, "%s: no message (%d)", op, e->result);
		else
			con_ev_msg(e, "<-", buf, n);
		break;
	case PVT_EV_PROG_START:
		if (e->peer >= 0 && s != NULL && s->state.mpi)
			snprintf(buf, n, "rank %d", e->peer);
		else if (e->peer >= 0)
			snprintf(buf, n, "tid t%x", (unsigned)e->peer);
		break;
	case PVT_EV_PROG_EXIT:
		snprintf(buf, n, "status %d", e->aux);
		break;
	case PVT_EV_CRASH:
		snprintf(buf, n, "signal %d", e->aux);
		break;
	case PVT_EV_BREAK_START: case PVT_EV_BREAK_END:
		snprintf(buf, n, "breakpoint %d", e->aux);
		break;
	case PVT_EV_FN_ENTER: case PVT_EV_FN_EXIT:
		*word = e->kind == PVT_EV_FN_ENTER ? "enter" : "leave";
		snprintf(buf, n, "%s", con_ev_str(s, e->func));
		break;
	default:
		if (con_ev_tid_result(e))
			snprintf(buf, n, "%s = t%x", op, (unsigned)e->result);
		else
			snprintf(buf, n, "%s = %d", op, e->result);
		if (con_ev_tid_peer(e))
			snprintf(buf + strlen(buf), n - strlen(buf), " -> t%x",
				 (unsigned)e->peer);
		if (e->op < PVT_OP_MPI_INIT && e->ref != 0) /* group, mailbox */
			snprintf(buf + strlen(buf), n - strlen(buf), " '%s'",
				 con_ev_str(s, e->ref));
		else if (e->comm != 0 && pvt_op_is_mpi(e->op))
			snprintf(buf + strlen(buf), n - strlen(buf),
				 " comm %08x", (unsigned)e->comm);
		if (e->tag >= 0)
			snprintf(buf + strlen(buf), n - strlen(buf), " tag %d",
				 e->tag);
		if (e->bytes >= 0)
			snprintf(buf + strlen(buf), n - strlen(buf), "  %lld B",
				 (long long)e->bytes);
	}
}

/* Cuts the spaces at the end of s. */
static void con_ev_rtrim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
}

/* The display line of e. */
char *con_ev_format(const con_ev_rec *e, int raw, int64_t t0_con_ns,
		    char *buf, size_t n)
{
	const con_ev_src *s = con_ev_src_at(e->src);
	char who[64], where[600], detail[128];
	const char *word;

	snprintf(who, sizeof who, "[p%d %s]", s != NULL ? s->pid_id : 0,
		 s != NULL ? s->node : "?");
	con_ev_detail(e, s, &word, detail, sizeof detail);
	where[0] = '\0';
	if (e->line > 0)
		snprintf(where, sizeof where, "  %.300s:%d %.200s",
			 con_ev_str(s, e->file), e->line,
			 con_ev_str(s, e->func));
	if (raw)
		snprintf(buf, n, "%s seq %llu t %llu delta %llu %-7s %s%s "
			 "%s result %d aux %d comm %u ref %u%s", who,
			 (unsigned long long)e->seq,
			 (unsigned long long)e->t_ns,
			 (unsigned long long)e->delta_ns, word,
			 e->kind % 2 == 1 && e->kind >= PVT_EV_SEND_START &&
			 e->kind < PVT_EV_CRASH ? "start " : "",
			 con_ev_op_name(e->op), detail, e->result, e->aux,
			 (unsigned)e->comm, (unsigned)e->ref, where);
	else
		snprintf(buf, n, "%s %+.6f %-7s %s%s", who,
			 (double)(e->t_con_ns - t0_con_ns) / 1e9, word, detail,
			 where);
	con_ev_rtrim(buf);
	return buf;
}
