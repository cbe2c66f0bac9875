/*
 * pvt_mpi_comm.c — communicators in the MPI wrappers (pvt_mpi.h): ids
 * that are the same on every member, rank translation to MPI_COMM_WORLD,
 * and the wrappers of the calls that create and free communicators.
 *
 * Id.  MPI gives a process no name for a communicator that the other
 * members share, and asking them (a broadcast at every creation) would
 * add communication the program does not do.  Instead every member works
 * the id out alone from what it has in common with the others: the
 * members' world ranks in rank order (for an intercommunicator both
 * groups, the one holding the smaller world rank first), and how many
 * communicators with exactly these members this process has created
 * before.  Creations are collective and ordered, so the count agrees on
 * every member: MPI_Comm_dup of MPI_COMM_WORLD twice gives two different
 * ids, each the same everywhere.  MPI_COMM_WORLD is 0.  A communicator
 * the wrappers did not see being created (made before tracing started,
 * or by MPI_Comm_idup until its completion) gets the id of its members
 * alone, which is the same everywhere but not told apart from another
 * such one with the same members.
 *
 * Ranks.  Each communicator's ranks (local group, and remote group of an
 * intercommunicator) are translated to world ranks once, when it is
 * first seen; a point-to-point call then costs one table lookup (none for
 * MPI_COMM_WORLD, and none for the communicator of the previous call).
 */
#include <stdlib.h>
#include <string.h>

#include "pvt_mpi.h"

#define COMM_UNSEEN 0xffffffffu /* creation count of a communicator
				   whose creation was not seen */

static pvt__mpi_comm comm_world = {0, 0, 0, 0, NULL, NULL, 1};
static pvt__mpi_comm comm_unknown = {0xfffffffeu, 0, 0, 0, NULL, NULL, 0};
static pvt__mpi_map comm_tab;      /* handle -> pvt__mpi_comm * */
static pvt__mpi_map comm_count;    /* members' hash -> creations + 1 */
static uint64_t comm_last_key;     /* the communicator of the last call */
static const pvt__mpi_comm *comm_last;
static int32_t comm_me = -1;       /* world rank, once known */

/* FNV-1a over n 32-bit values, continuing from h. */
static uint64_t comm_fnv(uint64_t h, const int32_t *v, int n)
{
	int i, b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 4; b++) {
			h ^= (uint64_t)(((uint32_t)v[i] >> (8 * b)) & 0xffu);
			h *= 0x100000001b3ull;
		}
	return h;
}

/* The world ranks of group g's members in rank order: a new array of
 * *n, or NULL. */
static int32_t *comm_world_ranks(MPI_Group g, int *n)
{
	MPI_Group w;
	int *in, *out, i, k;
	int32_t *r = NULL;

	if (PMPI_Group_size(g, &k) != MPI_SUCCESS || k <= 0)
		return NULL;
	in = malloc((size_t)k * sizeof *in);
	out = malloc((size_t)k * sizeof *out);
	if (in != NULL && out != NULL &&
	    PMPI_Comm_group(MPI_COMM_WORLD, &w) == MPI_SUCCESS) {
		for (i = 0; i < k; i++)
			in[i] = i;
		if (PMPI_Group_translate_ranks(g, k, in, w, out) ==
			    MPI_SUCCESS &&
		    (r = malloc((size_t)k * sizeof *r)) != NULL)
			for (i = 0; i < k; i++)
				r[i] = out[i] == MPI_UNDEFINED ? -1 : out[i];
		PMPI_Group_free(&w);
	}
	free(in);
	free(out);
	*n = r != NULL ? k : 0;
	return r;
}

/* Fills ci's groups from communicator c.  0 or -1. */
static int comm_groups(pvt__mpi_comm *ci, MPI_Comm c)
{
	MPI_Group g;
	int flag = 0;

	if (PMPI_Comm_test_inter(c, &flag) != MPI_SUCCESS)
		return -1;
	ci->inter = flag;
	if (PMPI_Comm_group(c, &g) != MPI_SUCCESS)
		return -1;
	ci->world = comm_world_ranks(g, &ci->size);
	PMPI_Group_free(&g);
	if (ci->world == NULL)
		return -1;
	if (!ci->inter)
		return 0;
	if (PMPI_Comm_remote_group(c, &g) != MPI_SUCCESS)
		return -1;
	ci->rworld = comm_world_ranks(g, &ci->rsize);
	PMPI_Group_free(&g);
	return ci->rworld != NULL ? 0 : -1;
}

/* The hash of ci's members (both groups of an intercommunicator, the one
 * with the smaller first world rank first). */
static uint64_t comm_members(const pvt__mpi_comm *ci)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int32_t hdr[2] = {ci->inter, ci->size};
	const int32_t *a = ci->world, *b = ci->rworld;
	int na = ci->size, nb = ci->rsize;

	if (ci->inter && nb > 0 && (na == 0 || b[0] < a[0])) {
		a = ci->rworld;
		b = ci->world;
		na = ci->rsize;
		nb = ci->size;
		hdr[1] = na;
	}
	h = comm_fnv(h, hdr, 2);
	h = comm_fnv(h, a, na);
	hdr[1] = nb;
	h = comm_fnv(h, hdr + 1, 1);
	return comm_fnv(h, b, nb);
}

/* The id of members hash h created for the count-th time (COMM_UNSEEN:
 * not seen being created).  Never 0 (MPI_COMM_WORLD's) nor the unknown
 * entry's. */
static uint32_t comm_id(uint64_t h, uint32_t count)
{
	int32_t c = (int32_t)count;
	uint32_t id;

	h = comm_fnv(h, &c, 1);
	id = (uint32_t)(h ^ (h >> 32));
	return id == 0 || id == comm_unknown.id ? 1 : id;
}

/* How many communicators with members h this process created before
 * (and counts this one).  COMM_UNSEEN when out of memory. */
static uint32_t comm_count_next(uint64_t h)
{
	uintptr_t v = (uintptr_t)pvt__mpi_map_get(&comm_count, h);
	uint32_t before = v ? (uint32_t)(v - 1) : 0;

	if (pvt__mpi_map_put(&comm_count, h, (void *)(uintptr_t)(before + 2)))
		return COMM_UNSEEN;
	return before;
}

/* A new entry for c, kept in the table: seen, a communicator whose
 * creation this process saw (else its id says it was not); NULL when out
 * of memory. */
static pvt__mpi_comm *comm_new(MPI_Comm c, int seen)
{
	pvt__mpi_comm *ci = calloc(1, sizeof *ci);
	uint64_t h;

	if (ci == NULL)
		return NULL;
	if (comm_groups(ci, c) != 0)
		goto out_free;
	h = comm_members(ci);
	ci->id = comm_id(h, seen ? comm_count_next(h) : COMM_UNSEEN);
	if (pvt__mpi_map_put(&comm_tab, pvt__mpi_key(&c, sizeof c), ci) != 0)
		goto out_free;
	return ci;
out_free:
	free(ci->world);
	free(ci->rworld);
	free(ci);
	return NULL;
}

/* See pvt_mpi.h. */
const pvt__mpi_comm *pvt__mpi_comm_of(MPI_Comm c)
{
	uint64_t k;
	pvt__mpi_comm *ci;

	if (c == MPI_COMM_WORLD) {
		if (comm_world.size == 0)
			(void)PMPI_Comm_size(c, &comm_world.size);
		return &comm_world;
	}
	k = pvt__mpi_key(&c, sizeof c);
	if (comm_last != NULL && k == comm_last_key)
		return comm_last;
	ci = pvt__mpi_map_get(&comm_tab, k);
	if (ci == NULL && (ci = comm_new(c, 0)) == NULL)
		return &comm_unknown;
	comm_last_key = k;
	comm_last = ci;
	return ci;
}

/* See pvt_mpi.h. */
uint32_t pvt__mpi_comm_made(MPI_Comm c)
{
	pvt__mpi_comm *ci;

	if (c == MPI_COMM_NULL)
		return 0;
	pvt__mpi_comm_gone(c); /* a stale handle of a freed one */
	ci = comm_new(c, 1);
	return ci != NULL ? ci->id : comm_unknown.id;
}

/* See pvt_mpi.h. */
void pvt__mpi_comm_gone(MPI_Comm c)
{
	uint64_t k = pvt__mpi_key(&c, sizeof c);

	(void)pvt__mpi_map_del(&comm_tab, k); /* the entry stays allocated */
	if (k == comm_last_key)
		comm_last = NULL;
}

/* The world rank of rank r of n ranks in tab. */
static int32_t comm_xlate(const int32_t *tab, int n, int r)
{
	return tab != NULL && r >= 0 && r < n ? tab[r] : -1;
}

/* See pvt_mpi.h. */
int32_t pvt__mpi_peer(const pvt__mpi_comm *ci, int rank)
{
	if (rank == MPI_PROC_NULL)
		return PVT_PEER_NULL;
	if (rank < 0)
		return -1; /* MPI_ANY_SOURCE */
	if (ci->world_ok)
		return rank;
	if (ci->inter)
		return comm_xlate(ci->rworld, ci->rsize, rank);
	return comm_xlate(ci->world, ci->size, rank);
}

/* See pvt_mpi.h. */
int32_t pvt__mpi_root(const pvt__mpi_comm *ci, int root)
{
	if (root == MPI_ROOT)
		return pvt__mpi_self();
	return pvt__mpi_peer(ci, root);
}

/* See pvt_mpi.h. */
int32_t pvt__mpi_self(void)
{
	int r = -1;

	if (comm_me < 0 && PMPI_Comm_rank(MPI_COMM_WORLD, &r) == MPI_SUCCESS)
		comm_me = r;
	return comm_me;
}

/* See pvt_mpi.h (the order is comm_members'). */
int32_t pvt__mpi_side(const pvt__mpi_comm *ci)
{
	if (!ci->inter || ci->world == NULL || ci->rworld == NULL ||
	    ci->size <= 0 || ci->rsize <= 0)
		return -1;
	return ci->rworld[0] < ci->world[0] ? 1 : 0;
}

/* ---- creation and release ------------------------------------------------ */

/* A creation's probe on parent comm: GROUP records (every member calls),
 * aux = the parent's size. */
static int comm_begin(pvt__ev_probe *pr, int op, MPI_Comm comm)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);

	if (!pvt__mpi_begin(pr, PVT_EV_GROUP_START, op, -1, -1, -1, ci->size,
	                    ci->id, 0))
		return 0;
	pvt__mpi_flush();
	pvt__ev_call(pr);
	return 1;
}

/* Ends a creation: registers the new communicator (ref = its id, aux =
 * its size). */
static int comm_end(pvt__ev_probe *pr, int rc, MPI_Comm *out)
{
	int n = 0;

	if (rc == MPI_SUCCESS && out != NULL && *out != MPI_COMM_NULL) {
		pr->ref = pvt__mpi_comm_made(*out);
		(void)PMPI_Comm_size(*out, &n);
	}
	pvt__ev_end(pr, PVT_EV_GROUP_END, -1, -1, -1, rc, n);
	return rc;
}

/* The body of a creation wrapper: probe, real call, registration. */
#define COMM_MAKE(op, comm, out, call)                                      \
	pvt__ev_probe pr;                                                   \
	if (!comm_begin(&pr, op, comm)) {                                   \
		int rc_ = call;                                             \
		if (rc_ == MPI_SUCCESS && (out) != NULL)                    \
			(void)pvt__mpi_comm_made(*(out));                   \
		return rc_;                                                 \
	}                                                                   \
	return comm_end(&pr, call, out)

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_COMM_DUP, comm, newcomm,
	          PMPI_Comm_dup(comm, newcomm));
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_COMM_DUP_WITH_INFO, comm, newcomm,
	          PMPI_Comm_dup_with_info(comm, info, newcomm));
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_COMM_SPLIT, comm, newcomm,
	          PMPI_Comm_split(comm, color, key, newcomm));
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_COMM_SPLIT_TYPE, comm, newcomm,
	          PMPI_Comm_split_type(comm, type, key, info, newcomm));
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_COMM_CREATE, comm, newcomm,
	          PMPI_Comm_create(comm, group, newcomm));
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                          MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_COMM_CREATE_GROUP, comm, newcomm,
	          PMPI_Comm_create_group(comm, group, tag, newcomm));
}

int MPI_Intercomm_create(MPI_Comm local, int lleader, MPI_Comm bridge,
                         int rleader, int tag, MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_INTERCOMM_CREATE, local, newcomm,
	          PMPI_Intercomm_create(local, lleader, bridge, rleader, tag,
	                                newcomm));
}

int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_INTERCOMM_MERGE, inter, newcomm,
	          PMPI_Intercomm_merge(inter, high, newcomm));
}

int MPI_Cart_create(MPI_Comm old, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *cart)
{
	COMM_MAKE(PVT_OP_MPI_CART_CREATE, old, cart,
	          PMPI_Cart_create(old, ndims, dims, periods, reorder, cart));
}

int MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_CART_SUB, comm, newcomm,
	          PMPI_Cart_sub(comm, remain, newcomm));
}

int MPI_Graph_create(MPI_Comm old, int nnodes, const int index[],
                     const int edges[], int reorder, MPI_Comm *graph)
{
	COMM_MAKE(PVT_OP_MPI_GRAPH_CREATE, old, graph,
	          PMPI_Graph_create(old, nnodes, index, edges, reorder,
	                            graph));
}

int MPI_Dist_graph_create(MPI_Comm old, int n, const int nodes[],
                          const int degrees[], const int targets[],
                          const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_DIST_GRAPH_CREATE, old, newcomm,
	          PMPI_Dist_graph_create(old, n, nodes, degrees, targets,
	                                 weights, info, reorder, newcomm));
}

int MPI_Dist_graph_create_adjacent(MPI_Comm old, int indeg,
                                   const int sources[], const int sweights[],
                                   int outdeg, const int dests[],
                                   const int dweights[], MPI_Info info,
                                   int reorder, MPI_Comm *newcomm)
{
	COMM_MAKE(PVT_OP_MPI_DIST_GRAPH_CREATE_ADJACENT, old, newcomm,
	          PMPI_Dist_graph_create_adjacent(old, indeg, sources,
	                                          sweights, outdeg, dests,
	                                          dweights, info, reorder,
	                                          newcomm));
}

/* MPI_Comm_idup: GROUP_START now, GROUP_END when the request completes
 * (the new communicator is valid only then). */
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(comm);
	pvt__mpi_req info;
	pvt__ev_probe pr;
	uint32_t id = pvt__mpi_new_id();
	int rc;

	if (!pvt__mpi_begin(&pr, PVT_EV_GROUP_START, PVT_OP_MPI_COMM_IDUP, -1,
	                    -1, -1, ci->size, ci->id, id))
		return PMPI_Comm_idup(comm, newcomm, req);
	pvt__ev_call(&pr);
	rc = PMPI_Comm_idup(comm, newcomm, req);
	memset(&info, 0, sizeof info);
	info.kind = PVT__MPI_R_IDUP;
	info.op = PVT_OP_MPI_COMM_IDUP;
	info.id = id;
	info.ci = ci;
	info.root = -1;
	info.newcomm = newcomm;
	if (rc != MPI_SUCCESS || pvt__mpi_req_add(*req, &info) != 0)
		pvt__ev_end(&pr, PVT_EV_GROUP_END, -1, -1, -1, rc, 0);
	else
		pvt__ev_close(&pr);
	return rc;
}

/* Releases: SPECIAL records on the communicator, which is forgotten. */
static int comm_release(int op, MPI_Comm *comm, int free_it)
{
	const pvt__mpi_comm *ci = pvt__mpi_comm_of(*comm);
	MPI_Comm c = *comm;
	pvt__ev_probe pr;
	int rc, traced;

	traced = pvt__mpi_begin(&pr, PVT_EV_SPECIAL_START, op, -1, -1, -1, 0,
	                        ci->id, 0);
	if (traced)
		pvt__ev_call(&pr);
	rc = free_it ? PMPI_Comm_free(comm) : PMPI_Comm_disconnect(comm);
	if (rc == MPI_SUCCESS)
		pvt__mpi_comm_gone(c);
	if (traced)
		pvt__ev_end(&pr, PVT_EV_SPECIAL_END, -1, -1, -1, rc, 0);
	return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
	return comm_release(PVT_OP_MPI_COMM_FREE, comm, 1);
}

int MPI_Comm_disconnect(MPI_Comm *comm)
{
	return comm_release(PVT_OP_MPI_COMM_DISCONNECT, comm, 0);
}
