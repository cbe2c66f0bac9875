/*
 * dmn_share.h — paravt's share of the time the traced processes of this
 * node waited for a CPU.
 *
 * Where the program's processes fill the node's cores, the processor
 * time this daemon takes comes out of theirs: they wait in the run
 * queue, and their measured times grow by that wait as by the probes'
 * own cost.  The relay adds a process's share
 * of that wait to the Δ (delta_ns) of its events, so that compensation
 * takes it out as it takes out the probes'.
 *
 * At each sample (the relay's drain timer): each process's new run-queue
 * wait W_i (Linux: the second field of /proc/PID/schedstat) and paravt's
 * processor time P since the sample before: this daemon's
 * (CLOCK_PROCESS_CPUTIME_ID) and what the session's console, when it
 * runs on this machine, reported it took for this daemon's events
 * (CONSOLE_CPU, summed by the relay).  Process i is charged
 * W_i x min(1, P / sum W): never more than paravt used, shared by the
 * waits; the rest of the waiting is for other processes, the program's
 * own among them.  The console's part C is shared out after the
 * daemon's own D, over what is left of each wait less the time the
 * process's CPU cgroup was throttled (dmn_cgroup.h): a process that
 * used up its group's CPU quota waits for the quota, not for a console
 * outside the group (the daemon, in the group with it, took from the
 * quota).  So process i gets W_i f + F_i g, f = min(1, D / sum W),
 * F_i = max(0, W_i (1 - f) - T_i), g = min(1, C / sum F).
 *
 * Where the relay knows which processes stood on the daemon's own
 * processor when its last drain began (dmn_share_cpu: Linux's
 * /proc/PID/stat, read for those that waited for a CPU since the sample
 * before), those are the ones it put in the run queue: D goes to their
 * waits first (min(1, D / the sum of theirs)), and only what is left of
 * D to the others' waits.  Two ranks
 * that fill two cores, one waiting for the daemon and the other for the
 * console, then each get their own waiter's part, not both a share of
 * each.
 *
 * Where in the interval between two samples the charge goes: a wait for
 * a CPU is a stall of at least a context switch, and it lengthens the
 * gap between two events of the process in which it falls.  Before the
 * records of the interval are read (they are all in the ring then), the
 * relay plans: the weight of an event is its gap since the one before,
 * less the growth of its own Δ in the gap (paravt's time counted
 * already: a full ring's wait, a stop at a breakpoint, where the process
 * did not wait for a CPU), beyond DMN_SHARE_GAP_NS, and an event's
 * share is the interval's start
 * charge plus the charge in proportion to the weights up to it.  So
 * a ping-pong whose round trips take 0.3 us gets the charge where a rank
 * stood still for the daemon, not spread over every round trip.  Where
 * the relay knows when the daemon last drained (the plan's window), the
 * daemon's part of the charge (the fraction f) is weighed by the part
 * of each gap in the window, and the rest (the console's) by the part
 * out of it: of two ranks that both stood still while the daemon ran,
 * one waited for the CPU and the other spun for its message, and only
 * the first one's wait grew: its charge goes where the daemon ran, and
 * the second one's (the console took its CPU after) goes where it was
 * not just waiting for the first one's message (compensation
 * recomputes that wait from the send).  A part that no gap has weight
 * of its kind for is weighed by the gaps as above.  Without
 * a plan (records that came as EVENTS frames, or no gap that long) the
 * charge grows linearly in time.  A share is never less than the last
 * one given, so Δ never decreases; and it never grows by more than the
 * time since the event before less the growth of the event's own Δ, so
 * compensated time never goes back: a charge larger than the gaps it
 * falls in (the waits were not where the events show them) is kept out
 * of every later share and counted in over.  A process's wait before
 * its first record (its start, loading, the message library's start-up:
 * PROG_START carries it, dmn_share_start) is not charged either, nor,
 * where PROG_START says nothing, its wait before the relay first saw it
 * (dmn_share_begin); what was charged of it is counted in pre.
 *
 * The process knows its stalls better: after a gap of more than 200 us
 * (PVT_RING_STALL_NS) between two records it reads its own wait for a
 * CPU in it and puts the fraction of the last samples
 * (dmn_share_told_frac: its ring's share_frac) into its own Δ at the
 * record after the gap (wrappers/rt_stall.h), and says how much in all
 * (its ring's self_us, dmn_share_self).  A sample then places only its
 * charge less what the process charged itself since the sample before;
 * where the process charged itself more (it used a larger fraction than
 * this sample's, or a stall charged here already ended before it was
 * read), the difference is credit taken from the next samples' charges.
 * And a gap the process looked at that way gets no more weight in a
 * plan than the part of its wait it left: its Δ's growth there is
 * fraction f of the wait (f_told, what it was told in the interval), so
 * (1 - f) / f of that growth.  A long gap in which it found no wait (it
 * spun on a free processor while the daemon ran on another, or after
 * the daemon ran) gets none: the charge goes to the gaps where the
 * waits were, the short ones it did not look at among them.
 * Where schedstat is missing (a system other than Linux, a kernel
 * without schedstats) nothing is charged and Δ is the probes' alone.
 * With several sessions, each sample shares out the time the daemon
 * took since the last sample of any of them.
 *
 * A wait shows in schedstat only when the process runs again: a drain
 * that keeps a rank off its processor past the next sample (the drain
 * is long, and the next one follows at once) shows its time in D at
 * that sample and its wait at the one after.  So the daemon's and the
 * console's time that a sample found no new wait for is shared out at
 * the next sample with that one's (dmn_share_pool), and no later: time
 * that ran on an idle processor is not kept for waits that come later
 * from elsewhere.  And where the relay could not take a sample's
 * records from the ring after it (the queue to the console was
 * backlogged, or filled in the drain), the next sample's charge goes
 * over them too (dmn_share_hold): the interval of the sample before
 * grows to the new sample, so that its plan covers them, where they
 * would have had all of the earlier charge at once.
 */
#ifndef PARAVT_DMN_SHARE_H
#define PARAVT_DMN_SHARE_H

#include <stddef.h>
#include <stdint.h>

#define DMN_SHARE_GAP_NS 2000 /* a gap this long or shorter holds no stall */
#define DMN_SHARE_KEEP 0.9    /* of the fraction told to a process, the
				 weight of the samples before the last */

/* One process. */
typedef struct dmn_share {
	int fd;           /* its schedstat, -1 none, -2 not opened yet */
	int cg_fd;        /* its CPU cgroup's cpu.stat, the same */
	int st_fd;        /* its /proc/PID/stat, the same */
	int hold;         /* records of the last interval stayed in the
	                     ring after its drain (dmn_share_hold) */
	int hit;          /* it stood on the daemon's processor when the
	                     daemon's last drain began */
	uint64_t last_w;  /* the wait read at the last sample */
	uint64_t wait;    /* its run-queue wait at the last sample, ns */
	uint64_t now;     /* the same read at this sample (dmn_share_read) */
	uint64_t thr;     /* its cgroup's throttled time at the last sample */
	uint64_t thr_now; /* ... at this sample */
	uint64_t x0, t0;  /* charge, and node time, at the sample before */
	uint64_t x1, t1;  /* ... at the last sample (t1 0: none yet) */
	double frac;      /* the fraction charged at the last sample */
	uint64_t given;   /* the largest share handed out */
	uint64_t pre;     /* charge left out: waits before its first
	                     record, ns */
	uint64_t over;    /* charge left out: more than the gaps between
	                     its records, ns */
	uint64_t base;    /* its wait when the relay first saw it */
	int started;      /* its first record was seen */
	uint64_t last_t;  /* time of the event given a share last */
	uint64_t last_d;  /* its own Δ (before its share) */
	uint64_t xd;      /* the daemon's part of x1 - x0 (the rest is the
	                     console's) */
	uint64_t win[2];  /* the plan's window: the daemon drained from
	                     win[0] to win[1] */
	uint64_t plan_w[3]; /* weight of the events of (t0, t1] planned:
	                       by their gaps, in the window, out of it
	                       (DMN_SHARE_W_*); [0] 0: none */
	uint64_t plan_t;  /* time of the event planned last */
	uint64_t plan_d;  /* its own Δ */
	uint64_t done_w[3]; /* weight of the planned events given their
	                       share: [DAEMON] of the daemon's part, [OUT]
	                       of the rest */
	uint64_t done_x;  /* the share at done_w */
	double rate;      /* unplanned: charge a ns of (t0, t1] */
	uint32_t self_us; /* the ring's self_us at the last sample */
	uint64_t self_new;/* ns the process charged itself since then */
	uint64_t self_all;/* ... in all */
	uint64_t credit;  /* ns it charged itself beyond the samples'
	                     charges so far: taken from the next ones */
	int throttled;    /* its CPU cgroup was throttled in the last
	                     sample: it is told 0 */
	int quota;        /* its CPU cgroup enforced a quota while it was
	                     traced (it counted quota periods between two
	                     samples): the relay samples it often
	                     (DMN_EV_RING_QUOTA_MS) for the rest of its run */
	uint64_t periods; /* the quota periods it counted (nr_periods,
	                     cumulative) at the last sample */
	double x_avg, w_avg; /* its charges and waits, each sample's added
	                        to DMN_SHARE_KEEP of the ones before: the
	                        fraction the process is told
	                        (dmn_share_told_frac) */
	double f_told;    /* the fraction it had been told in the last
	                     interval (0 none): of its gaps longer than
	                     PVT_RING_STALL_NS, it charged itself that part of
	                     the wait */
} dmn_share;

/* paravt's processor time of one kind (the daemon's or the
 * console's) shared out at the samples, with what the last sample found
 * no wait for. */
typedef struct dmn_share_pool {
	uint64_t fresh; /* the time taken since the last sample, ns */
	uint64_t carry; /* of the last sample's, what no wait took */
} dmn_share_pool;

/* Begins a sample: fresh ns taken since the last one.  Returns the time
 * to share out: fresh and what the last sample carried. */
uint64_t dmn_share_pool_add(dmn_share_pool *p, uint64_t fresh);

/* Ends it: the time was shared over waits ns in all; what they did not
 * take, up to this sample's own fresh time, goes to the next sample. */
void dmn_share_pool_end(dmn_share_pool *p, uint64_t waits);

/* A process not sampled yet. */
void dmn_share_init(dmn_share *s);
/* Closes its schedstat and cpu.stat. */
void dmn_share_close(dmn_share *s);

/* The processor time this daemon took since the last call, ns (0 the
 * first time). */
uint64_t dmn_share_daemon_ns(void);

/* The processor process pid last ran on or waits for (opening its
 * stat file the first time; pid 0: it ended, and it is closed), or -1
 * where that is not known. */
int dmn_share_cpu(dmn_share *s, long pid);
/* The same of this daemon: the one it runs on. */
int dmn_share_own_cpu(void);

/* Reads process pid's run-queue wait into s->now and its cgroup's
 * throttled time into s->thr_now (opening the files the first time; pid
 * 0: it ended, they are closed): the wait since the last sample (the
 * first time: since the process started), ns; 0 when it cannot be
 * read. */
uint64_t dmn_share_read(dmn_share *s, long pid);

/* As dmn_share_read, from the process's own word for its wait (its
 * PROG_EXIT's, once it ended and its schedstat is gone). */
uint64_t dmn_share_told(dmn_share *s, int64_t wait);

/* What is left of the wait read, once the fraction f of it is charged,
 * less the time its cgroup was throttled since the last sample: what
 * the console's time is shared over. */
uint64_t dmn_share_free(const dmn_share *s, double f);

/* Process pid is seen for the first time: its wait so far is the base
 * of its first sample (pid 0, not known yet: the first sample's read
 * is). */
void dmn_share_begin(dmn_share *s, long pid);

/* Its first record says it had waited wait ns (PROG_START's bytes; -1
 * unknown, or a first record of another kind): what it waited before
 * is not paravt's.  A sample that has not read that far starts there;
 * of a charge made already, that wait's part is left out. */
void dmn_share_start(dmn_share *s, int64_t wait);

/* The fraction of each process's new wait that is the daemon's: p, its
 * processor time, over sum_wait, the processes' new waits, at most 1. */
double dmn_share_fraction(uint64_t p, uint64_t sum_wait);

/* The process says (its ring's self_us) it put self_us us in all of its
 * waits for a CPU into its own Δ, where it found them: at a record
 * after a long gap, the part share_frac of the wait in the gap
 * (dmn_share_told_frac; rt_stall.h).  Call it before
 * dmn_share_read: that much less of the next charge is the relay's to
 * place. */
void dmn_share_self(dmn_share *s, uint32_t self_us);

/* The fraction of its waits for a CPU the process is told to charge
 * itself where it finds them (its ring's share_frac): of the last
 * samples' waits, what they charged, the older ones weighing less
 * (DMN_SHARE_KEEP a sample); a single sample's fraction swings with the
 * moment the console's reports come.  -1 when no sample had a wait; 0
 * when the process's CPU cgroup was throttled in the last sample: its
 * long gaps then hold waits for its quota, which it cannot tell from
 * waits for paravt (the relay leaves the throttled time to the
 * daemon's part alone, dmn_share_free). */
double dmn_share_told_frac(const dmn_share *s);

/* The records of the interval up to the last sample were not all
 * taken from the process's ring after it: the next sample's interval
 * starts where the last one did (see above). */
void dmn_share_hold(dmn_share *s);

/* Ends the sample at node time now: charges s the fraction f of the
 * wait read and the fraction g of what is left of it
 * (dmn_share_free), less what the process charged itself
 * (dmn_share_self); frac becomes the fraction of the whole. */
void dmn_share_charge(dmn_share *s, double f, double g, uint64_t now);

/* The plan's weights by kind (plan_w, done_w). */
enum { DMN_SHARE_W_GAP, DMN_SHARE_W_DAEMON, DMN_SHARE_W_OUT };

/* Plans where the last charge goes: begin (the daemon last drained from
 * node time d0 to d1; 0 and 0: not known), then add the time t and own
 * Δ d (before any share) of every record not given a share yet, in
 * order. */
void dmn_share_plan_begin(dmn_share *s, uint64_t d0, uint64_t d1);
void dmn_share_plan_add(dmn_share *s, uint64_t t, uint64_t d);

/* The process's exit at node time t says it waited wait ns in all
 * (PROG_EXIT's bytes, -1 unknown): what it waited since the last sample
 * is charged at the last sample's fraction, so the exit's share holds
 * the whole run.  Where the records since that sample are still at
 * hand, a plan (dmn_share_plan_begin) puts it in their gaps. */
void dmn_share_exit(dmn_share *s, int64_t wait, uint64_t t);

/* The share of the next event, at node time t with its own Δ d (see
 * above). */
uint64_t dmn_share_at(dmn_share *s, uint64_t t, uint64_t d);

#endif
