/*
 * ana_match.c — matching (ana.h, pass 2): pairs sends and receives and
 * groups the members of collective calls.
 *
 * Point to point: a channel is (source process, destination process,
 * tag, comm: the MPI communicator or the PVM message context).  The
 * successful sends of a channel (in the source's order) and the
 * receives that got a message from it (in the destination's order; a
 * wildcard receive counts on the channel of the source and tag it actually
 * got, RECV_END.peer and .tag) are paired first with first, second with
 * second (PVM and MPI keep messages of one pair of tasks and one tag in
 * order).  Counting sort by channel: two passes over the events, one hash
 * lookup per send or receive (none when a task's send or receive goes to
 * the same channel as its last one), no allocation per event.  The group
 * ENDs are filed by op in the same two passes.
 *
 * Multicast: pvm_mcast records each destination (MCAST_DEST), which is
 * then a send of its channel like any other.  pvm_bcast (and pvm_mcast
 * in traces of layout 1) does not, so a multicast of (source, tag,
 * context) is a candidate for every receiver.  At a
 * receive of (source, tag) the candidates are the next unmatched send of
 * its channel and the oldest multicast of (source, tag) this receiver has
 * not consumed; the send is taken when no multicast is left, when the
 * channel still has at least as many sends as receives, or when the send
 * came first in the source's program order; else the multicast.  A
 * multicast's match is its first receiver.
 *
 * A send the process died inside (its START open, ANA_F_OPEN, and the
 * process's last event a CRASH: killed by a signal, as pvm_kill does) is
 * the last send of its channel: the receiver may have its message
 * already (PVM's direct route delivers before pvm_send returns).  It is
 * paired like a completed send when its channel has a receive left for
 * it, and is not counted unmatched when none is (whether it left is
 * unknown).  The receive's partner is then the START.
 *
 * Group calls (barrier, reduce, gather, scatter, the MPI collectives):
 * the k-th call of an op on one communicator (PVM: one group) in each
 * process is instance k of that op there (ana_group_key); its members'
 * ENDs form a ring through .match.
 */
#include <stdlib.h>
#include <string.h>

#include "ana_pass.h"
#include "pvt_event.h"

/* A channel (src, dst, tag, comm); dst == ANA_NONE: the multicasts of
 * (src, tag, comm). */
typedef struct chan {
	uint32_t src, dst;
	int32_t tag;
	uint32_t comm;
	uint32_t nsend, nrecv; /* sends (multicasts), receives */
	uint32_t fill_s, fill_r;
	uint64_t soff, roff;   /* first slot in sends[] / recvs[] */
} chan;

typedef struct chan_tab {
	chan *v;
	uint32_t n;
	uint32_t *slot;        /* [cap]: index + 1 into v, 0 empty */
	uint32_t cap;          /* power of two */
	uint32_t vcap;
} chan_tab;

/* The channel a process's last send or receive went to. */
typedef struct chan_memo {
	uint32_t p, idx;        /* process (ANA_NONE: empty), channel */
	int32_t peer, tag;
	uint32_t comm;
} chan_memo;

typedef struct matcher {
	ana_ctx c;              /* a copy of the caller's (not freed here) */
	chan_tab t;
	ana_ref *sends, *recvs; /* by channel */
	chan_memo last[2];      /* last channel of a send [0], receive [1] */
	ana_kmap gmap;          /* group key -> index */
	uint64_t *goff;         /* [ngkeys + 1]: counts, then offsets */
	uint32_t ngkeys, gcap;
	uint64_t ngroup;
	ana_ref *by_key;        /* group ENDs by key, process, order */
} matcher;

/* Kinds of the events the matcher looks at (SEND_END .. GROUP_END,
 * MCAST_DEST). */
static inline bool matter(const ana_ev *e)
{
	return (e->kind >= PVT_EV_SEND_END && e->kind <= PVT_EV_GROUP_END) ||
	       e->kind == PVT_EV_MCAST_DEST;
}

/* Whether (p, e) is a send process p died inside (see the top). */
static bool died_in_send(const ana_trace *tr, uint32_t p, const ana_ev *e)
{
	const ana_proc *pr = &tr->procs[p];

	return e->kind == PVT_EV_SEND_START && (e->flags & ANA_F_OPEN) &&
	       e->peer >= 0 && pr->nev > 0 &&
	       pr->ev[pr->nev - 1].kind == PVT_EV_CRASH;
}

static uint32_t chan_hash(uint32_t src, uint32_t dst, int32_t tag,
			  uint32_t comm)
{
	uint64_t h = (uint64_t)src * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)dst << 32 | (uint32_t)tag) * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)comm * 0x165667b19e3779f9ull;
	return (uint32_t)(h >> 32 ^ h);
}

/* Doubles the slot table. */
static int tab_grow(chan_tab *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : 256, i, h;
	uint32_t *slot = calloc(cap, sizeof *slot);

	if (slot == NULL)
		return ANA_ENOMEM;
	for (i = 0; i < t->n; i++) {
		h = chan_hash(t->v[i].src, t->v[i].dst, t->v[i].tag,
			      t->v[i].comm);
		while (slot[h & (cap - 1)])
			h++;
		slot[h & (cap - 1)] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

/* The channel (src, dst, tag, comm), created if add; NULL if absent or
 * out of memory (add). */
static chan *tab_get(chan_tab *t, uint32_t src, uint32_t dst, int32_t tag,
		     uint32_t comm, int add)
{
	uint32_t h, k;
	chan *v;

	if (t->cap == 0 && (!add || tab_grow(t) < 0))
		return NULL;
	for (h = chan_hash(src, dst, tag, comm);; h++) {
		k = t->slot[h & (t->cap - 1)];
		if (k == 0)
			break;
		v = &t->v[k - 1];
		if (v->src == src && v->dst == dst && v->tag == tag &&
		    v->comm == comm)
			return v;
	}
	if (!add)
		return NULL;
	if (t->n == t->vcap) {
		uint32_t vcap = t->vcap ? t->vcap * 2 : 64;

		v = realloc(t->v, vcap * sizeof *v);
		if (v == NULL)
			return NULL;
		t->v = v;
		t->vcap = vcap;
	}
	t->v[t->n] = (chan){.src = src, .dst = dst, .tag = tag, .comm = comm};
	t->slot[h & (t->cap - 1)] = ++t->n;
	if (t->n * 2 > t->cap && tab_grow(t) < 0)
		return NULL;
	return &t->v[t->n - 1];
}

/* Whether multicast END (p, i) named its destinations (MCAST_DEST
 * records follow): then they are its channels' sends, not it. */
static bool has_dests(const ana_trace *tr, uint32_t p, uint32_t i)
{
	return i + 1 < tr->procs[p].nev &&
	       tr->procs[p].ev[i + 1].kind == PVT_EV_MCAST_DEST;
}

/* The channel event (p, i) belongs to (a send, a receive or a multicast),
 * or NULL; *is_recv tells which side.  Flags an unknown peer. */
static chan *chan_of(matcher *m, uint32_t p, uint32_t i, int add,
		     int *is_recv, int *err)
{
	ana_ev *e = &m->c.tr->procs[p].ev[i];
	uint32_t q;
	chan *ch = NULL;

	*is_recv = 0;
	if (ana_is_mcast(e)) {
		if (has_dests(m->c.tr, p, i))
			return NULL;
		ch = tab_get(&m->t, p, ANA_NONE, e->tag, e->comm, add);
	} else if (ana_is_send(e) || ana_is_recv(e) ||
		   died_in_send(m->c.tr, p, e)) {
		int r = *is_recv = e->kind == PVT_EV_RECV_END;

		if (m->last[r].p == p && m->last[r].peer == e->peer &&
		    m->last[r].tag == e->tag && m->last[r].comm == e->comm)
			return &m->t.v[m->last[r].idx]; /* a task talks to few */
		q = ana_ctx_proc(&m->c, e->peer);
		if (q == ANA_NONE) {
			e->flags |= ANA_F_UNMATCHED;
			return NULL;
		}
		ch = r ? tab_get(&m->t, q, p, e->tag, e->comm, add)
		       : tab_get(&m->t, p, q, e->tag, e->comm, add);
		if (ch != NULL)
			m->last[r] = (chan_memo){p, (uint32_t)(ch - m->t.v),
						 e->peer, e->tag, e->comm};
	} else {
		return NULL;
	}
	if (ch == NULL && add)
		*err = ANA_ENOMEM;
	return ch;
}

/* Flags a wildcard receive END (p, i) and counts an event chan_of
 * flagged (its peer is not a process of the trace). */
static void note_flags(matcher *m, uint32_t p, uint32_t i, ana_ev *e)
{
	const ana_ev *s;

	if (ana_is_recv(e) && (s = ana_ctx_start(&m->c, p, i)) != NULL &&
	    s->peer == -1) /* PVM -1, MPI_ANY_SOURCE */
		e->flags |= ANA_F_WILDCARD;
	if (!(e->flags & ANA_F_UNMATCHED))
		return;
	if (e->kind == PVT_EV_RECV_END)
		m->c.tr->sum.unmatched_recvs++;
	else
		m->c.tr->sum.unmatched_sends++;
}

/* Counts group END e under its key (a new key gets the next index). */
static int count_group(matcher *m, const ana_ev *e)
{
	uint32_t j, cap;
	uint64_t *v;

	if (ana_kmap_get(&m->gmap, ana_group_key(e), m->ngkeys, &j) < 0)
		return ANA_ENOMEM;
	if (j == m->ngkeys) {
		if (m->ngkeys + 2 > m->gcap) {
			cap = m->gcap ? m->gcap * 2 : 64;
			v = realloc(m->goff, cap * sizeof *v);
			if (v == NULL)
				return ANA_ENOMEM;
			m->goff = v;
			m->gcap = cap;
		}
		m->goff[++m->ngkeys] = 0;
		m->goff[0] = 0;
	}
	m->goff[j + 1]++;
	m->ngroup++;
	return 0;
}

/* The index of group END e's key (counted before). */
static uint32_t group_index(matcher *m, const ana_ev *e)
{
	uint32_t j = 0;

	(void)ana_kmap_get(&m->gmap, ana_group_key(e), m->ngkeys, &j);
	return j;
}

/* Pass 1: counts the sends and receives of every channel and the group
 * ENDs of every key, flags the wildcard receives. */
static int count_chans(matcher *m)
{
	ana_trace *tr = m->c.tr;
	uint32_t p, i;
	int is_recv, err = 0;
	chan *ch;

	for (p = 0; p < tr->nprocs; p++)
		for (i = 0; i < tr->procs[p].nev; i++) {
			ana_ev *e = &tr->procs[p].ev[i];

			if (!matter(e) && !died_in_send(tr, p, e))
				continue;
			if (ana_group_mode(e) != ANA_G_NONE) {
				if ((err = count_group(m, e)) < 0)
					return err;
				continue;
			}
			ch = chan_of(m, p, i, 1, &is_recv, &err);
			if (err)
				return err;
			if (ch && is_recv)
				ch->nrecv++;
			else if (ch)
				ch->nsend++;
			note_flags(m, p, i, e);
		}
	return 0;
}

/* Pass 2: lays the channels and group keys out and files every event in
 * its slot. */
static int fill_chans(matcher *m)
{
	ana_trace *tr = m->c.tr;
	uint64_t ns = 0, nr = 0;
	uint32_t p, i, k;
	int is_recv, err = 0;
	chan *ch;

	for (k = 0; k < m->t.n; k++) {
		m->t.v[k].soff = ns;
		m->t.v[k].roff = nr;
		ns += m->t.v[k].nsend;
		nr += m->t.v[k].nrecv;
	}
	for (k = 1; k <= m->ngkeys; k++)
		m->goff[k] += m->goff[k - 1];
	m->sends = malloc((ns + 1) * sizeof *m->sends);
	m->recvs = malloc((nr + 1) * sizeof *m->recvs);
	m->by_key = malloc((m->ngroup + 1) * sizeof *m->by_key);
	if (m->sends == NULL || m->recvs == NULL || m->by_key == NULL)
		return ANA_ENOMEM;
	for (p = 0; p < tr->nprocs; p++)
		for (i = 0; i < tr->procs[p].nev; i++) {
			ana_ev *e = &tr->procs[p].ev[i];

			if (!matter(e) && !died_in_send(tr, p, e))
				continue;
			if (ana_group_mode(e) != ANA_G_NONE) {
				m->by_key[m->goff[group_index(m, e)]++] =
					(ana_ref){p, i};
				continue;
			}
			ch = chan_of(m, p, i, 0, &is_recv, &err);
			if (ch && is_recv)
				m->recvs[ch->roff + ch->fill_r++] =
					(ana_ref){p, i};
			else if (ch)
				m->sends[ch->soff + ch->fill_s++] =
					(ana_ref){p, i};
		}
	return 0;
}

static void link_pair(ana_trace *tr, ana_ref s, ana_ref r)
{
	ana_ev *es = ana_get(tr, s), *er = ana_get(tr, r);

	er->match = s;
	if (es->match.proc == ANA_NONE)
		es->match = r;
}

/* Pass 3: pairs the receives of channel ch with its sends and with the
 * multicasts of its source and tag. */
static void pair_chan(matcher *m, chan *ch)
{
	ana_trace *tr = m->c.tr;
	chan *mc = tab_get(&m->t, ch->src, ANA_NONE, ch->tag, ch->comm, 0);
	uint32_t si = 0, mi = 0, ri;
	const ana_ref *snd = m->sends + ch->soff;

	for (ri = 0; ri < ch->nrecv; ri++) {
		ana_ref r = m->recvs[ch->roff + ri];
		int have_s = si < ch->nsend, have_m = mc && mi < mc->nsend;
		ana_ref mr = have_m ? m->sends[mc->soff + mi] : r;

		if (have_s && (!have_m || ch->nsend - si >= ch->nrecv - ri ||
			       snd[si].idx < mr.idx)) {
			link_pair(tr, snd[si++], r);
			tr->sum.pairs++;
		} else if (have_m) {
			link_pair(tr, mr, r);
			mi++;
			tr->sum.mcast_pairs++;
		} else {
			ana_get(tr, r)->flags |= ANA_F_UNMATCHED;
			tr->sum.unmatched_recvs++;
		}
	}
	for (; si < ch->nsend; si++) {
		if (ana_get(tr, snd[si])->kind == PVT_EV_SEND_START)
			continue; /* died inside: maybe never sent */
		ana_get(tr, snd[si])->flags |= ANA_F_UNMATCHED;
		tr->sum.unmatched_sends++;
	}
}

/* Multicasts no receiver consumed are unmatched sends. */
static void flag_lone_mcasts(matcher *m, chan *mc)
{
	uint32_t k;

	for (k = 0; k < mc->nsend; k++) {
		ana_ev *e = ana_get(m->c.tr, m->sends[mc->soff + k]);

		if (e->match.proc == ANA_NONE) {
			e->flags |= ANA_F_UNMATCHED;
			m->c.tr->sum.unmatched_sends++;
		}
	}
}

/* ---- groups ------------------------------------------------------------ */

/* Links the k-th group END of one key in every process into rings (seg:
 * that key's group ENDs by process, then order; first and cnt: scratch
 * of nprocs entries). */
static void ring_key(ana_trace *tr, const ana_ref *seg, uint64_t n,
		     uint64_t *first, uint32_t *cnt)
{
	uint32_t np = tr->nprocs, p, k, maxk = 0;
	uint64_t j;

	memset(cnt, 0, np * sizeof *cnt);
	for (j = n; j-- > 0;) {
		p = seg[j].proc;
		first[p] = j;
		if (++cnt[p] > maxk)
			maxk = cnt[p];
	}
	for (k = 0; k < maxk; k++) {
		ana_ref head = {ANA_NONE, ANA_NONE}, prev = head;
		uint32_t members = 0;

		for (p = 0; p < np; p++) {
			if (cnt[p] <= k)
				continue;
			ana_ref r = seg[first[p] + k];

			if (members++ == 0)
				head = r;
			else
				ana_get(tr, prev)->match = r;
			prev = r;
		}
		if (members > 1) {
			ana_get(tr, prev)->match = head;
			tr->sum.groups++;
		}
	}
}

/* Rings the group ENDs of each key (fill_chans filed them by key;
 * goff[j] is now the end of key j's run). */
static int match_groups(matcher *m)
{
	ana_trace *tr = m->c.tr;
	uint64_t j, *first;
	uint32_t *cnt, g;
	int rc = ANA_ENOMEM;

	if (m->ngroup == 0)
		return 0;
	first = malloc((tr->nprocs + 1) * sizeof *first);
	cnt = malloc((tr->nprocs + 1) * sizeof *cnt);
	if (first == NULL || cnt == NULL)
		goto out_free;
	for (g = 0, j = 0; g < m->ngkeys; j = m->goff[g++])
		if (m->goff[g] > j)
			ring_key(tr, m->by_key + j, m->goff[g] - j, first, cnt);
	rc = 0;
out_free:
	free(first);
	free(cnt);
	return rc;
}

/* ---- the pass ---------------------------------------------------------- */

/* Forgets the summary of earlier passes (ana_pass.h; the events' flags
 * and matches are cleared by ana_ctx_init with reset). */
void ana_clear_results(ana_trace *tr)
{
	uint64_t n = 0;
	uint32_t p;

	for (p = 0; p < tr->nprocs; p++)
		n += tr->procs[p].nev;
	memset(&tr->sum, 0, sizeof tr->sum);
	tr->sum.events = n;
	tr->stage = 0;
}

int ana_match_run(ana_ctx *c)
{
	matcher m = {.c = *c};
	uint32_t k;
	int rc;

	m.last[0].p = m.last[1].p = ANA_NONE;
	rc = count_chans(&m);
	if (rc == 0)
		rc = fill_chans(&m);
	if (rc < 0)
		goto out_free;
	for (k = 0; k < m.t.n; k++)
		if (m.t.v[k].dst != ANA_NONE)
			pair_chan(&m, &m.t.v[k]);
	for (k = 0; k < m.t.n; k++)
		if (m.t.v[k].dst == ANA_NONE)
			flag_lone_mcasts(&m, &m.t.v[k]);
	rc = match_groups(&m);
	if (rc == 0)
		c->tr->stage = 1;
out_free:
	free(m.t.v);
	free(m.t.slot);
	free(m.sends);
	free(m.recvs);
	free(m.by_key);
	free(m.goff);
	ana_kmap_free(&m.gmap);
	return rc;
}

int ana_match(ana_trace *tr)
{
	ana_ctx c;
	int rc;

	if (tr == NULL)
		return ANA_EARG;
	ana_clear_results(tr);
	rc = ana_ctx_init(&c, tr, 1);
	if (rc < 0)
		return rc;
	rc = ana_match_run(&c);
	ana_ctx_free(&c);
	return rc;
}
