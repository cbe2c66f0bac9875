/*
 * pvt_mpi_wait.c — requests in the MPI wrappers (pvt_mpi.h): the table
 * of requests whose completion must be recorded, and the calls that
 * start, complete and drop requests:
 *   MPI_Wait MPI_Waitall MPI_Waitany MPI_Waitsome
 *   MPI_Test MPI_Testall MPI_Testany MPI_Testsome
 *       SPECIAL_START/END around the completions they find (aux = the
 *       number of requests; the END of a Test* has result = flag), and
 *       for every followed request that completed, inside: a receive's
 *       RECV_END (source, tag, bytes from its status; peer -1 when it
 *       was cancelled) or a nonblocking collective's GROUP_END, with op
 *       the posting call and ref its id, like the post's START
 *   MPI_Start MPI_Startall
 *       SPECIAL records around each started persistent request's own:
 *       a send's SEND_START/END, a receive's RECV_START (its END comes
 *       at completion), op = the *_init call, ref = the request's id
 *   MPI_Request_free MPI_Cancel
 *       SPECIAL records, ref = the request's id.  A receive freed while
 *       active still takes its message (MPI 3.1 section 3.7.3: the
 *       request "will be deallocated" once the communication completes;
 *       the MPI Forum's reading is that MPI_Finalize completes it), but
 *       the program can no longer learn when: its RECV_END is recorded
 *       inside MPI_Finalize, after PMPI_Finalize returned (the time by
 *       which it is surely complete), with the source and tag it asked
 *       for (peer -1 if it asked for any source: then it cannot be
 *       matched), bytes -1 and aux PVT_RECV_FREED (pvt_event.h).
 * Requests the table does not hold (sends, whose message was recorded at
 * the post) cost one failed lookup each.
 *
 * Entries come from a pool that grows by blocks and never moves, so a
 * pointer found before a call stays good after it; the statuses and
 * entries a multi-request call needs live in scratch arrays that grow.
 */
#include <stdlib.h>
#include <string.h>

#include "pvt_mpi.h"

#define REQ_BLOCK 256 /* entries the pool grows by */

static pvt__mpi_map req_tab;    /* request -> pvt__mpi_req * */
static pvt__mpi_req *req_free;  /* free entries */
static pvt__mpi_req *req_freed; /* active receives the program freed
				   (MPI_Request_free): completed by
				   MPI_Finalize at the latest */

/* Scratch of the multi-request calls. */
static struct {
	MPI_Status *st;        /* statuses for callers that ignore them */
	int nst;
	MPI_Request *key;      /* the requests as they were before the call */
	pvt__mpi_req **ent;    /* their entries, or NULL */
	int nent;
} req_scr;

/* An entry from the pool, or NULL when out of memory. */
static pvt__mpi_req *req_alloc(void)
{
	pvt__mpi_req *b, *e;
	int i;

	if (req_free == NULL) {
		if ((b = malloc(REQ_BLOCK * sizeof *b)) == NULL)
			return NULL;
		for (i = 0; i < REQ_BLOCK; i++) {
			b[i].next_free = req_free;
			req_free = &b[i];
		}
	}
	e = req_free;
	req_free = e->next_free;
	return e;
}

/* See pvt_mpi.h. */
int pvt__mpi_req_add(MPI_Request r, const pvt__mpi_req *info)
{
	uint64_t k = pvt__mpi_key(&r, sizeof r);
	pvt__mpi_req *e = req_alloc(), *old;

	if (e == NULL)
		return -1;
	*e = *info;
	old = pvt__mpi_map_get(&req_tab, k);
	if (pvt__mpi_map_put(&req_tab, k, e) != 0) {
		e->next_free = req_free;
		req_free = e;
		return -1;
	}
	if (old != NULL) { /* a handle MPI reused: the old one is done */
		old->next_free = req_free;
		req_free = old;
	}
	return 0;
}

/* See pvt_mpi.h. */
pvt__mpi_req *pvt__mpi_req_find(MPI_Request r)
{
	if (r == MPI_REQUEST_NULL || req_tab.n == 0)
		return NULL;
	return pvt__mpi_map_get(&req_tab, pvt__mpi_key(&r, sizeof r));
}

/* See pvt_mpi.h. */
void pvt__mpi_req_forget(MPI_Request r)
{
	pvt__mpi_req *e = pvt__mpi_map_del(&req_tab, pvt__mpi_key(&r, sizeof r));

	if (e != NULL) {
		e->next_free = req_free;
		req_free = e;
	}
}

/* Records the end of receive e from status st (NULL: unknown). */
static void req_recv_done(const pvt__mpi_req *e, const MPI_Status *st,
                          int err)
{
	int cancelled = 0;
	int32_t peer = -1, tag = -1;
	int64_t bytes = -1;

	if (st != NULL && err == MPI_SUCCESS &&
	    PMPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS && !cancelled) {
		if (st->MPI_SOURCE == MPI_PROC_NULL) {
			peer = PVT_PEER_NULL;
			bytes = 0;
		} else {
			peer = pvt__mpi_peer(e->ci, st->MPI_SOURCE);
			tag = st->MPI_TAG;
			bytes = pvt__mpi_got(st, e->type);
		}
	}
	pvt__ev_mark(PVT_EV_RECV_END, e->op, peer, tag, bytes, err, cancelled,
	             e->ci->id, e->id);
}

/* See pvt_mpi.h. */
void pvt__mpi_req_done(MPI_Request r, pvt__mpi_req *e, const MPI_Status *st,
                       int err)
{
	int n = 0;

	switch (e->kind) {
	case PVT__MPI_R_RECV:
	case PVT__MPI_R_PRECV:
		if (e->kind == PVT__MPI_R_RECV || e->active)
			req_recv_done(e, st, err);
		break;
	case PVT__MPI_R_IDUP:
		if (err == MPI_SUCCESS && e->newcomm != NULL) {
			(void)pvt__mpi_comm_made(*e->newcomm);
			(void)PMPI_Comm_size(*e->newcomm, &n);
		}
		pvt__ev_mark(PVT_EV_GROUP_END, e->op, -1, -1, -1, err, n,
		             e->ci->id, e->id);
		break;
	case PVT__MPI_R_COLL:
		pvt__ev_mark(PVT_EV_GROUP_END, e->op, e->root,
		             pvt__mpi_side(e->ci), e->bytes,
		             err, e->ci->size, e->ci->id, e->id);
		break;
	default:
		break;
	}
	e->active = 0;
	if (e->kind != PVT__MPI_R_PSEND && e->kind != PVT__MPI_R_PRECV)
		pvt__mpi_req_forget(r);
}

/* See pvt_mpi.h. */
MPI_Status *pvt__mpi_statuses(int n)
{
	MPI_Status *st;

	if (n <= req_scr.nst)
		return req_scr.st;
	if ((st = realloc(req_scr.st, (size_t)n * sizeof *st)) == NULL)
		return NULL;
	req_scr.st = st;
	req_scr.nst = n;
	return st;
}

/* Looks up n requests before a call: req_scr.key/ent[0..n).  Returns how
 * many are followed, or -1 when the scratch cannot grow (nothing is
 * recorded for them then). */
static int req_lookup(int n, const MPI_Request *reqs)
{
	MPI_Request *k;
	pvt__mpi_req **e;
	int i, found = 0;

	if (n > req_scr.nent) {
		k = realloc(req_scr.key, (size_t)n * sizeof *k);
		if (k != NULL)
			req_scr.key = k;
		e = realloc(req_scr.ent, (size_t)n * sizeof *e);
		if (e != NULL)
			req_scr.ent = e;
		if (k == NULL || e == NULL)
			return -1;
		req_scr.nent = n;
	}
	for (i = 0; i < n; i++) {
		req_scr.key[i] = reqs[i];
		req_scr.ent[i] = pvt__mpi_req_find(reqs[i]);
		found += req_scr.ent[i] != NULL;
	}
	return found;
}

/* The statuses array to pass: the caller's, or scratch when it ignores
 * them and followed requests need them (NULL: keep ignoring). */
static MPI_Status *req_sts(MPI_Status *sts, int n, int found)
{
	MPI_Status *s;

	if (sts != MPI_STATUSES_IGNORE || found <= 0)
		return sts;
	s = pvt__mpi_statuses(n);
	return s != NULL ? s : MPI_STATUSES_IGNORE;
}

/* Records request i of the lookup as completed with status st. */
static void req_done_at(int i, const MPI_Status *st, int err)
{
	if (req_scr.ent[i] != NULL)
		pvt__mpi_req_done(req_scr.key[i], req_scr.ent[i], st, err);
}

/* After a call that completed every request of the lookup (rc: its
 * result; with MPI_ERR_IN_STATUS each status says, and MPI_ERR_PENDING
 * ones did not complete). */
static void req_all_done(int n, const MPI_Status *s, int rc)
{
	int i, err;

	if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS)
		return;
	for (i = 0; i < n; i++) {
		err = rc == MPI_SUCCESS || s == MPI_STATUSES_IGNORE
		              ? MPI_SUCCESS
		              : s[i].MPI_ERROR;
		if (err == MPI_ERR_PENDING)
			continue;
		req_done_at(i, s != MPI_STATUSES_IGNORE ? &s[i] : NULL, err);
	}
}

/* After Waitsome/Testsome: the out completed requests indices[k]. */
static void req_some_done(int out, const int *idx, const MPI_Status *s,
                          int rc)
{
	int k;

	if ((rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) ||
	    out == MPI_UNDEFINED)
		return;
	for (k = 0; k < out; k++)
		req_done_at(idx[k], s != MPI_STATUSES_IGNORE ? &s[k] : NULL,
		            s != MPI_STATUSES_IGNORE && rc != MPI_SUCCESS
		                    ? s[k].MPI_ERROR
		                    : MPI_SUCCESS);
}

/* Starts a wait or test probe (op, n requests); a wait flushes first. */
static int req_begin(pvt__ev_probe *pr, int op, int n, int wait)
{
	if (!pvt__mpi_begin(pr, PVT_EV_SPECIAL_START, op, -1, -1, -1, n, 0, 0))
		return 0;
	if (wait)
		pvt__mpi_flush();
	pvt__ev_call(pr);
	return 1;
}

/* Ends a wait or test probe (result: rc, or the flag of a test). */
static int req_end(pvt__ev_probe *pr, int rc, int result, int n)
{
	pvt__ev_end(pr, PVT_EV_SPECIAL_END, -1, -1, -1, result, n);
	return rc;
}

/* ---- one request ------------------------------------------------------------ */

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	MPI_Request r = *req;
	pvt__mpi_req *e = pvt__mpi_req_find(r);
	pvt__ev_probe pr;
	MPI_Status st;
	int rc, flag = 0;

	if (!pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_WAIT, -1,
	                    -1, -1, 1, 0, 0))
		return PMPI_Wait(req, status);
	if (pvt__ev_pending() &&
	    (PMPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE) !=
	         MPI_SUCCESS ||
	     !flag))
		(void)pvt__ev_flush();
	pvt__ev_call(&pr);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Wait(req, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	if (e != NULL)
		pvt__mpi_req_done(r, e, &st, rc);
	return req_end(&pr, rc, rc, 1);
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	MPI_Request r = *req;
	pvt__mpi_req *e = pvt__mpi_req_find(r);
	pvt__ev_probe pr;
	MPI_Status st;
	int rc;

	if (!req_begin(&pr, PVT_OP_MPI_TEST, 1, 0))
		return PMPI_Test(req, flag, status);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Test(req, flag, &st);
	if (status != MPI_STATUS_IGNORE && rc == MPI_SUCCESS && *flag)
		*status = st;
	if (e != NULL && rc == MPI_SUCCESS && *flag)
		pvt__mpi_req_done(r, e, &st, rc);
	return req_end(&pr, rc, rc == MPI_SUCCESS ? *flag : rc, 1);
}

/* ---- several requests ------------------------------------------------------- */

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	pvt__ev_probe pr;
	MPI_Status *s;
	int rc, found;

	if (!req_begin(&pr, PVT_OP_MPI_WAITALL, n, 1))
		return PMPI_Waitall(n, reqs, sts);
	found = req_lookup(n, reqs);
	s = req_sts(sts, n, found);
	rc = PMPI_Waitall(n, reqs, s);
	if (found > 0)
		req_all_done(n, s, rc);
	return req_end(&pr, rc, rc, n);
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	pvt__ev_probe pr;
	MPI_Status *s;
	int rc, found;

	if (!req_begin(&pr, PVT_OP_MPI_TESTALL, n, 0))
		return PMPI_Testall(n, reqs, flag, sts);
	found = req_lookup(n, reqs);
	s = req_sts(sts, n, found);
	rc = PMPI_Testall(n, reqs, flag, s);
	if (found > 0 && *flag)
		req_all_done(n, s, rc);
	return req_end(&pr, rc, rc == MPI_SUCCESS ? *flag : rc, n);
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	pvt__ev_probe pr;
	MPI_Status st;
	int rc, found;

	if (!req_begin(&pr, PVT_OP_MPI_WAITANY, n, 1))
		return PMPI_Waitany(n, reqs, index, status);
	found = req_lookup(n, reqs);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Waitany(n, reqs, index, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	if (found > 0 && rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
		req_done_at(*index, &st, rc);
	return req_end(&pr, rc, rc, n);
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
                MPI_Status *status)
{
	pvt__ev_probe pr;
	MPI_Status st;
	int rc, found;

	if (!req_begin(&pr, PVT_OP_MPI_TESTANY, n, 0))
		return PMPI_Testany(n, reqs, index, flag, status);
	found = req_lookup(n, reqs);
	pvt__mpi_status_in(&st, status);
	rc = PMPI_Testany(n, reqs, index, flag, &st);
	if (status != MPI_STATUS_IGNORE && rc == MPI_SUCCESS && *flag)
		*status = st;
	if (found > 0 && rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
		req_done_at(*index, &st, rc);
	return req_end(&pr, rc, rc == MPI_SUCCESS ? *flag : rc, n);
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *out, int idx[],
                 MPI_Status sts[])
{
	pvt__ev_probe pr;
	MPI_Status *s;
	int rc, found;

	if (!req_begin(&pr, PVT_OP_MPI_WAITSOME, n, 1))
		return PMPI_Waitsome(n, reqs, out, idx, sts);
	found = req_lookup(n, reqs);
	s = req_sts(sts, n, found);
	rc = PMPI_Waitsome(n, reqs, out, idx, s);
	if (found > 0)
		req_some_done(*out, idx, s, rc);
	return req_end(&pr, rc, rc, n);
}

int MPI_Testsome(int n, MPI_Request reqs[], int *out, int idx[],
                 MPI_Status sts[])
{
	pvt__ev_probe pr;
	MPI_Status *s;
	int rc, found;

	if (!req_begin(&pr, PVT_OP_MPI_TESTSOME, n, 0))
		return PMPI_Testsome(n, reqs, out, idx, sts);
	found = req_lookup(n, reqs);
	s = req_sts(sts, n, found);
	rc = PMPI_Testsome(n, reqs, out, idx, s);
	if (found > 0)
		req_some_done(*out, idx, s, rc);
	return req_end(&pr, rc, rc == MPI_SUCCESS ? *out : rc, n);
}

/* ---- persistent requests, release ------------------------------------------ */

/* Records what starting persistent request e does before the real call:
 * a send's SEND_START, a receive's RECV_START. */
static void req_start_before(pvt__mpi_req *e)
{
	int kind = e->kind == PVT__MPI_R_PSEND ? PVT_EV_SEND_START
	                                       : PVT_EV_RECV_START;

	if (e->kind != PVT__MPI_R_PSEND && e->kind != PVT__MPI_R_PRECV)
		return;
	pvt__ev_mark(kind, e->op, e->peer, e->tag,
	             kind == PVT_EV_SEND_START ? e->bytes : -1, 0, 0, e->ci->id,
	             e->id);
}

/* After the real start (rc): a send's SEND_END; the request is active. */
static void req_start_after(pvt__mpi_req *e, int rc)
{
	if (e->kind == PVT__MPI_R_PSEND)
		pvt__ev_mark(PVT_EV_SEND_END, e->op, e->peer, e->tag, e->bytes,
		             rc, 0, e->ci->id, e->id);
	else if (e->kind == PVT__MPI_R_PRECV && rc != MPI_SUCCESS)
		pvt__ev_mark(PVT_EV_RECV_END, e->op, -1, -1, -1, rc, 0,
		             e->ci->id, e->id);
	e->active = rc == MPI_SUCCESS;
}

int MPI_Start(MPI_Request *req)
{
	pvt__mpi_req *e = pvt__mpi_req_find(*req);
	pvt__ev_probe pr;
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, PVT_OP_MPI_START, -1,
	                    -1, -1, 1, e ? e->ci->id : 0, e ? e->id : 0))
		return PMPI_Start(req);
	if (e != NULL)
		req_start_before(e);
	pvt__ev_call(&pr);
	rc = PMPI_Start(req);
	if (e != NULL)
		req_start_after(e, rc);
	return req_end(&pr, rc, rc, 1);
}

int MPI_Startall(int n, MPI_Request reqs[])
{
	pvt__ev_probe pr;
	int rc, i, found;

	if (!req_begin(&pr, PVT_OP_MPI_STARTALL, n, 0))
		return PMPI_Startall(n, reqs);
	found = req_lookup(n, reqs);
	for (i = 0; found > 0 && i < n; i++)
		if (req_scr.ent[i] != NULL)
			req_start_before(req_scr.ent[i]);
	rc = PMPI_Startall(n, reqs);
	for (i = 0; found > 0 && i < n; i++)
		if (req_scr.ent[i] != NULL)
			req_start_after(req_scr.ent[i], rc);
	return req_end(&pr, rc, rc, n);
}

/* Moves the entry of active receive r, which the program frees, from
 * the table to the freed list (pvt__mpi_req_finalize records its END). */
static void req_keep_freed(MPI_Request r, pvt__mpi_req *e)
{
	if (pvt__mpi_map_del(&req_tab, pvt__mpi_key(&r, sizeof r)) == NULL)
		return;
	e->next_free = req_freed;
	req_freed = e;
}

/* See pvt_mpi.h. */
void pvt__mpi_req_finalize(void)
{
	pvt__mpi_req *e;

	while ((e = req_freed) != NULL) {
		req_freed = e->next_free;
		pvt__ev_mark(PVT_EV_RECV_END, e->op, e->peer,
		             e->tag == MPI_ANY_TAG ? -1 : e->tag, -1, MPI_SUCCESS,
		             PVT_RECV_FREED, e->ci->id, e->id);
		e->next_free = req_free;
		req_free = e;
	}
}

/* MPI_Request_free and MPI_Cancel: SPECIAL records, ref = the request's
 * id; a freed request is forgotten, a freed active receive kept for
 * MPI_Finalize (above). */
static int req_drop(int op, MPI_Request *req)
{
	MPI_Request r = *req;
	pvt__mpi_req *e = pvt__mpi_req_find(r);
	pvt__ev_probe pr;
	int rc, traced;

	traced = pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, op, -1, -1, -1, 0,
	                        e ? e->ci->id : 0, e ? e->id : 0);
	if (traced)
		pvt__ev_call(&pr);
	rc = op == PVT_OP_MPI_CANCEL ? PMPI_Cancel(req)
	                             : PMPI_Request_free(req);
	if (op == PVT_OP_MPI_REQUEST_FREE && rc == MPI_SUCCESS && e != NULL) {
		if (e->kind == PVT__MPI_R_RECV ||
		    (e->kind == PVT__MPI_R_PRECV && e->active))
			req_keep_freed(r, e);
		else
			pvt__mpi_req_forget(r);
	}
	if (traced)
		pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc, 0);
	return rc;
}

int MPI_Request_free(MPI_Request *req)
{
	return req_drop(PVT_OP_MPI_REQUEST_FREE, req);
}

int MPI_Cancel(MPI_Request *req)
{
	return req_drop(PVT_OP_MPI_CANCEL, req);
}
