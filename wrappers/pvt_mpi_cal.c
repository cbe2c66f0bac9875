/*
 * pvt_mpi_cal.c — what the MPI wrappers cost beyond their probes'
 * calibrated time, timed at MPI_Init (pvt_mpi.h: pvt__mpi_calibrate).
 *
 * Two parts, both added to Δ at every MPI call's start:
 *   - the wrappers' own work a call (the communicator, the peer's world
 *     rank, the size, the status): a send and a receive of no bytes from
 *     the rank to itself, through the wrappers and plainly, in pairs
 *     (pvt__ev_wrap_cost), less an empty probe's cost;
 *   - what they add to a message's way between two ranks beyond that:
 *     on a shared-memory transport a traced round trip takes longer
 *     than its probes and wrappers take when timed alone (on the
 *     machine this was written on 61 ns more a round trip where those
 *     make 44).  Rank 2k times it with rank 2k+1 of the same host:
 *     blocks of round trips through the wrappers and plainly, in turn
 *     (pvt__ev_run_cost); half a round trip's extra less a call's
 *     probes and wrappers is the part a message's way holds beyond them.
 * The partner ranks first tell each other whether they can time (tracing
 * into a ring, no busy probes), whether their host runs more ranks than
 * it has processors, and its name, and go on only when both can on one
 * host that is not crowded, so neither waits for the other alone; after
 * the timing they share their figures (each timed the same round
 * trips).  The part is used when the blocks agree well enough
 * (CAL_SPREAD: over 51 blocks the median's standard error is about a
 * seventh of the quartiles' distance, so a distance of three times a
 * call's probes and wrappers leaves the part, half a round trip's, an
 * error of about a fifth of those) and is positive and no larger than
 * those.
 * Only when PARAVT_MPI_PAIR is 1 (paravtd sets it for the MPI runs it
 * starts, whose ranks all run the wrappers), in a world mpirun started
 * (not spawned): a rank of another program that does not run them would
 * leave its partner waiting in MPI_Init.  PARAVT_SHOW_COST=1 prints each
 * rank's figures on stderr.
 *
 * All of it runs inside MPI_Init, before the program can post a receive
 * that these messages could match, on MPI_COMM_WORLD with tag 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "pvt_mpi.h"

#define CAL_TAG 0     /* the calibration's messages */
#define CAL_HOST 256  /* host name bytes exchanged */
#define CAL_WARM 100  /* plain round trips before timing */
#define CAL_BLOCK 20  /* round trips a block (pvt__ev_run_cost) */
#define CAL_RT_RECS 4 /* records a traced round trip writes */
#define CAL_SPREAD 3  /* the blocks' quartiles at most this many times a
			 call's probes and wrappers apart */

/* What the path's timing found (the report's words). */
enum cal_path {
	CAL_OFF,      /* PARAVT_MPI_PAIR not 1, or a spawned world */
	CAL_ALONE,    /* no partner rank */
	CAL_CANNOT,   /* this rank or its partner cannot time */
	CAL_ELSEWHERE,/* the partner is on another host */
	CAL_CROWDED,  /* more ranks on the host than processors */
	CAL_NONE,     /* no more than the probes and wrappers */
	CAL_WIDE,     /* blocks too far apart to tell */
	CAL_LARGE,    /* more than the probes and wrappers again */
	CAL_FOUND
};

static int cal_peer; /* the partner's world rank */
static int cal_first;/* this rank sends first */

/* A message of no bytes from the process to itself on MPI_COMM_WORLD:
 * with send, MPI_Send (through the wrapper or, with plain, PMPI_Send)
 * into a receive posted before it; else MPI_Recv of a send posted
 * before it.  The other side is always plain and matched at once, so
 * neither call waits; the wrapped one takes the path a real transfer
 * takes through its wrapper (the peer's world rank, the size, the status
 * read back), which a call on MPI_PROC_NULL skips. */
static void cal_self(int send, int plain)
{
	int me = pvt__mpi_self();
	MPI_Request rq;

	if (send) {
		(void)PMPI_Irecv(NULL, 0, MPI_BYTE, me, CAL_TAG, MPI_COMM_WORLD,
		                 &rq);
		(void)(plain ? PMPI_Send : MPI_Send)(NULL, 0, MPI_BYTE, me,
		                                     CAL_TAG, MPI_COMM_WORLD);
	} else {
		(void)PMPI_Isend(NULL, 0, MPI_BYTE, me, CAL_TAG, MPI_COMM_WORLD,
		                 &rq);
		(void)(plain ? PMPI_Recv : MPI_Recv)(NULL, 0, MPI_BYTE, me,
		                                     CAL_TAG, MPI_COMM_WORLD,
		                                     MPI_STATUS_IGNORE);
	}
	(void)PMPI_Wait(&rq, MPI_STATUS_IGNORE);
}

static void cal_send(void)
{
	cal_self(1, 0);
}

static void cal_psend(void)
{
	cal_self(1, 1);
}

static void cal_recv(void)
{
	cal_self(0, 0);
}

static void cal_precv(void)
{
	cal_self(0, 1);
}

/* One round trip of an int with the partner, through the wrappers or,
 * with plain, not. */
static void cal_rt(int plain)
{
	int v = 0;

	if (cal_first)
		(void)(plain ? PMPI_Send : MPI_Send)(&v, 1, MPI_INT, cal_peer,
		                                     CAL_TAG, MPI_COMM_WORLD);
	(void)(plain ? PMPI_Recv : MPI_Recv)(&v, 1, MPI_INT, cal_peer, CAL_TAG,
	                                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (!cal_first)
		(void)(plain ? PMPI_Send : MPI_Send)(&v, 1, MPI_INT, cal_peer,
		                                     CAL_TAG, MPI_COMM_WORLD);
}

static void cal_rt_wrapped(void)
{
	cal_rt(0);
}

static void cal_rt_plain(void)
{
	cal_rt(1);
}

/* This rank's partner for the path's timing (world rank r ^ 1), or -1:
 * none, a spawned world, or PARAVT_MPI_PAIR not 1. */
static int cal_partner(int *why)
{
	const char *on = getenv("PARAVT_MPI_PAIR");
	MPI_Comm parent = MPI_COMM_NULL;
	int me = pvt__mpi_self(), n = 0;

	*why = CAL_OFF;
	if (on == NULL || strcmp(on, "1") != 0 || me < 0 ||
	    PMPI_Comm_get_parent(&parent) != MPI_SUCCESS ||
	    parent != MPI_COMM_NULL)
		return -1;
	*why = CAL_ALONE;
	if (PMPI_Comm_size(MPI_COMM_WORLD, &n) != MPI_SUCCESS || (me ^ 1) >= n)
		return -1;
	return me ^ 1;
}

/* Whether this host runs more ranks of the job than it has processors
 * (Open MPI's and MPICH's count of the host's ranks; not known: no):
 * ranks that wait for one another's processor time nothing of their
 * own. */
static int cal_crowded(void)
{
	const char *n = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (n == NULL)
		n = getenv("MPI_LOCALNRANKS");
	return n != NULL && cpus > 0 && strtol(n, NULL, 10) > cpus;
}

/* Tells partner p whether this rank can time (can), whether its host is
 * crowded and its name, and learns the same: CAL_FOUND when both can on
 * one host that is not crowded. */
static int cal_agree(int p, int can)
{
	char mine[CAL_HOST + 1], theirs[CAL_HOST + 1];

	memset(mine, 0, sizeof mine);
	mine[0] = can ? (cal_crowded() ? '2' : '1') : '0';
	if (gethostname(mine + 1, CAL_HOST - 1) != 0)
		mine[1] = '\0';
	if (PMPI_Sendrecv(mine, CAL_HOST, MPI_CHAR, p, CAL_TAG, theirs, CAL_HOST,
	                  MPI_CHAR, p, CAL_TAG, MPI_COMM_WORLD,
	                  MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return CAL_CANNOT;
	theirs[CAL_HOST] = '\0';
	if (mine[0] == '0' || theirs[0] == '0')
		return CAL_CANNOT;
	if (strcmp(mine + 1, theirs + 1) != 0)
		return CAL_ELSEWHERE;
	return mine[0] == '2' || theirs[0] == '2' ? CAL_CROWDED : CAL_FOUND;
}

/* Both ranks' figures in one: the mean of the round trips' extra and
 * the larger spread (each rank timed the same round trips). */
static void cal_share(int p, int64_t *rt, int64_t *spread)
{
	int64_t mine[2] = {*rt, *spread}, theirs[2];

	if (PMPI_Sendrecv(mine, 2, MPI_INT64_T, p, CAL_TAG, theirs, 2,
	                  MPI_INT64_T, p, CAL_TAG, MPI_COMM_WORLD,
	                  MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return;
	*rt = (mine[0] + theirs[0]) / 2;
	*spread = mine[1] > theirs[1] ? mine[1] : theirs[1];
}

/* The part of a message's way beyond probe + wrap (a call's calibrated
 * probes and wrappers), ns a call, timed with the partner; *rt and
 * *spread: a round trip's extra and its blocks' quartiles' distance,
 * *why: what was found. */
static uint64_t cal_path(int can, uint64_t own, int64_t *rt, int64_t *spread,
                         int *why)
{
	int p = cal_partner(why), i;
	int64_t more;

	*rt = *spread = 0;
	cal_peer = p;
	if (p < 0 || (*why = cal_agree(p, can)) != CAL_FOUND)
		return 0;
	cal_first = pvt__mpi_self() < p;
	for (i = 0; i < CAL_WARM; i++)
		cal_rt_plain();
	*rt = pvt__ev_run_cost(cal_rt_wrapped, cal_rt_plain, CAL_BLOCK,
	                       CAL_RT_RECS, spread);
	cal_share(p, rt, spread);
	more = *rt / 2 - (int64_t)own; /* two messages a round trip */
	if (*spread < 0 || *spread > CAL_SPREAD * (int64_t)own)
		*why = CAL_WIDE;
	else if (more <= 0)
		*why = CAL_NONE;
	else if (more > (int64_t)own)
		*why = CAL_LARGE;
	return *why == CAL_FOUND ? (uint64_t)more : 0;
}

/* PARAVT_SHOW_COST's line. */
static void cal_show(uint64_t probe, uint64_t wrap, uint64_t path,
                     int64_t rt, int64_t spread, int why)
{
	char how[160];

	switch (why) {
	case CAL_OFF:
		snprintf(how, sizeof how, "not timed (PARAVT_MPI_PAIR not 1, "
		         "or a spawned world)");
		break;
	case CAL_ALONE:
		snprintf(how, sizeof how, "not timed (no partner rank)");
		break;
	case CAL_CANNOT:
		snprintf(how, sizeof how, "not timed (this rank or rank %d "
		         "does not trace into a ring)", cal_peer);
		break;
	case CAL_ELSEWHERE:
		snprintf(how, sizeof how, "not timed (rank %d is on another "
		         "host)", cal_peer);
		break;
	case CAL_CROWDED:
		snprintf(how, sizeof how, "not timed (more ranks than "
		         "processors on this host or rank %d's)", cal_peer);
		break;
	default:
		snprintf(how, sizeof how, "%s (with rank %d: %lld ns more a "
		         "round trip, blocks' quartiles %lld ns apart)",
		         why == CAL_FOUND ? "timed" :
		         why == CAL_NONE ? "none: no more than the probes" :
		         why == CAL_WIDE ? "not used: too spread" :
		                           "not used: too large",
		         cal_peer, (long long)rt, (long long)spread);
		break;
	}
	fprintf(stderr, "paravt: rank %d: a probe %llu ns, the wrappers %llu "
	        "ns a call, on a message's way %llu ns a call more: %s\n",
	        pvt__mpi_self(), (unsigned long long)probe,
	        (unsigned long long)wrap, (unsigned long long)path, how);
}

/* See pvt_mpi.h. */
void pvt__mpi_calibrate(int tracing, uint64_t *wrap_ns)
{
	const char *show = getenv("PARAVT_SHOW_COST");
	int can = tracing && pvt__ev_can_time() && pvt__mpi_self() >= 0;
	uint64_t probe = pvt__ev_probe_ns(), wrap = 0, path;
	int64_t rt, spread;
	int why;

	if (can)
		wrap = (pvt__ev_wrap_cost(cal_send, cal_psend) +
		        pvt__ev_wrap_cost(cal_recv, cal_precv)) / 2;
	*wrap_ns = wrap; /* the timed round trips add it, as calls will */
	path = cal_path(can, probe + wrap, &rt, &spread, &why);
	*wrap_ns = wrap + path;
	if (tracing && show != NULL && strcmp(show, "1") == 0)
		cal_show(probe, wrap, path, rt, spread, why);
}
