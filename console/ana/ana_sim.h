/*
 * ana_sim.h — performance prediction from a trace (issue 15): what the
 * recorded run would take on another machine.
 *
 * The machine (ana_sim_mach.c) is the multi-level model of Klinov's DVM
 * predictor: nodes with a CPU speed relative to the traced node and a
 * number of cores (processes that run at once at full speed; more
 * processes than cores share them), the mapping of the trace's processes
 * to nodes, and any number of network levels, each with a latency, a
 * time per byte (or a bandwidth) and a number of parallel links.  Level 0
 * joins the processes of one node; level 1 joins nodes; a node may name
 * its groups from the innermost out ("group rack0 room1"): two nodes talk
 * over level 1 + k, k the first place from which on their groups agree
 * (same rack: level 1, same room: level 2, else level 3), never above
 * the top level.  Its text form is paravt-machine(5): ana_sim_parse reads it
 * (errors give FILE:LINE:COL), ana_sim_format writes it, ana_sim_describe
 * estimates the traced machine from an analysed trace, ana_sim_set changes
 * one parameter (paravt predict --sweep).
 *
 * The simulation (ana_sim.c) replays the compensated trace (ev.c_ns of
 * ana_analyze: paravt's own time removed) on the machine: every event of
 * a process follows the one before it after the recorded interval scaled
 * by its node's CPU factor (1 / speed, times processes / cores when the
 * node is oversubscribed), except that a receive END cannot come before
 * its message arrives (the matched send's START plus the message's
 * transfer time on the level between the two nodes, after waiting for a
 * free link) and a group END not before the STARTs of the members it
 * waits for plus the group's transfer time (a tree: ceil(log2 P) steps,
 * twice for all-to-all).  Matching is ana_match's: a wildcard receive
 * takes the message it took in the recorded run.  The traversal is
 * ana_walk's (dependencies first), the group instances ana_ginst's.
 *
 * Two models of a message's time (ana_sim_opts.pure):
 *   - residual (default): a message keeps what its recorded time had
 *     beyond the traced machine's model (software overhead, daemon hops)
 *     and changes by the difference between the target's model and the
 *     traced machine's: predicting the traced machine itself gives the
 *     recorded (compensated) times back;
 *   - pure: a message takes the target model's latency + bytes * time per
 *     byte alone (the papers' model; exact in hand-computable cases).
 *
 * Nothing here prints or does I/O.  Functions return 0 or a negative
 * ANA_E* code, with a sentence in err where the user can fix something.
 */
#ifndef PARAVT_ANA_SIM_H
#define PARAVT_ANA_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "ana.h"
#include "ana_stats.h"

#define ANA_SIM_GROUPS_MAX 8 /* group names a node may have (levels 2..9) */

/* One network level. */
typedef struct ana_sim_level {
	char name[ANA_NAME_MAX];
	double lat_ns;     /* latency */
	double byte_ns;    /* time per byte, 0: no bandwidth limit */
	uint32_t links;    /* transfers at once on the level, 0: unlimited */
	double buf_bytes;  /* a send returns when all but this much of its
			      message has crossed the level (the
			      transport's buffers); < 0: unlimited (it
			      returns as recorded) */
} ana_sim_level;

/* One node of the machine. */
typedef struct ana_sim_node {
	char name[ANA_NAME_MAX];
	double speed;      /* CPU speed relative to the traced node (> 0) */
	double calls;      /* the same for the own time of communicating
			      calls (sends, receives, group calls,
			      MPI_Wait*); 0: as speed */
	uint32_t cores;    /* processes that run at once at full speed */
	double start_ns;   /* a process placed here starts so much later
			      than it did in the traced run (an emulated
			      CPU loading the program, a quota throttling
			      it); >= 0 */
	uint32_t ngroups;  /* groups named (<= ANA_SIM_GROUPS_MAX) */
	char group[ANA_SIM_GROUPS_MAX][ANA_NAME_MAX]; /* at level 2, 3, ... */
} ana_sim_node;

/* A process of the trace placed on a node. */
typedef struct ana_sim_map {
	char proc[ANA_NAME_MAX]; /* the trace's process name ("p3") */
	uint32_t node;           /* index into nodes */
} ana_sim_map;

/* How fast sends from processes on one node to processes on another push
 * their message through a level with a transport buffer (the part beyond
 * the buffer), relative to the traced run, when that is slower than the
 * level's model gives: a CPU quota or an emulated CPU at either end slows
 * the copying, whatever the network.  Measured from a sample
 * (ana_sim_speeds); without an entry, the level's model alone. */
typedef struct ana_sim_push {
	uint32_t from, to;  /* nodes */
	double speed;       /* > 0 */
} ana_sim_push;

typedef struct ana_sim_machine {
	ana_sim_level *lv;  uint32_t nlv, lv_cap;
	ana_sim_node *node; uint32_t nnode, node_cap;
	ana_sim_map *map;   uint32_t nmap, map_cap;
	ana_sim_push *push; uint32_t npush, push_cap;
} ana_sim_machine;

/* ---- the machine (ana_sim_mach.c) ---- */

/* An empty machine, or NULL; free with ana_sim_machine_free (NULL ok). */
ana_sim_machine *ana_sim_machine_new(void);
void ana_sim_machine_free(ana_sim_machine *m);
/* A deep copy of m, or NULL (out of memory); the caller frees. */
ana_sim_machine *ana_sim_machine_dup(const ana_sim_machine *m);

/* Parses the text form (len bytes of text; name is what errors call the
 * file).  *out gets a new machine (the caller frees) or NULL.  0, or
 * ANA_EARG with "NAME:LINE:COL: what is wrong" in err, or ANA_ENOMEM. */
int ana_sim_parse(const char *text, size_t len, const char *name,
		  ana_sim_machine **out, char *err, size_t errlen);

/* The text form of m, NUL-terminated (the caller frees), or NULL. */
char *ana_sim_format(const ana_sim_machine *m);

/* The level between nodes from the paths paravt measured to the nodes
 * where tr's processes ran (ana_node.link): the path between two nodes
 * is taken as the slower of their paths to the console, which from a
 * cluster's front end or from one of the nodes crosses the same kind of
 * link: the largest one-way latency (half the round trip) and the lowest
 * rate either way.  1 with *lat_ns, *byte_ns and a "# ..." line in note
 * (when not NULL),
 * or 0 when fewer than two such nodes ran processes or one was not
 * measured. */
int ana_sim_link_level(const ana_trace *tr, double *lat_ns, double *byte_ns,
		       char *note, size_t n);

/* The machine the analysed trace tr ran on: its nodes (speed 1, as many
 * cores as processes ran there), every process mapped where it ran, a
 * level "core" between processes of one node and, if there are several
 * nodes, a level "net" between them, each with the latency and time per
 * byte fitted to the run's messages that were waited for (compensated
 * receive END minus send START against bytes), "net" measured instead
 * when ana_sim_link_level has it; the levels between nodes
 * of a PVM program get a transport buffer of 64 KiB (PVM's direct route
 * sets 32 KiB socket buffers at both ends: a send of a large message
 * returns when all but that has crossed), others none.  *out: the caller
 * frees.
 * 0 or a code. */
int ana_sim_describe(ana_trace *tr, ana_sim_machine **out);

/* A rate measured from a sample: the base's time for what the sample
 * did over the sample's own. */
typedef struct ana_sim_rate {
	double speed;            /* base_ns / sample_ns; 0: nothing matched */
	uint64_t matched;        /* sample intervals the base also has */
	uint64_t unmatched;      /* the others (not counted) */
	int64_t sample_ns;       /* the sample's time in the matched ones */
	int64_t base_ns;         /* the base's mean time of the same, summed */
	int64_t unmatched_ns;    /* the sample's time in the others */
	uint64_t warmup;         /* matched ones left out as warm-up (the
				    first of their key; computation only) */
	int64_t warmup_ns;       /* the sample's time in those */
	double warmup_base_ns;   /* the base's time of the same: its first
				    of the key when it had several, else
				    its mean */
} ana_sim_rate;

/* A node's speeds for one program, measured from a sample run of it
 * (ana_sim_speeds). */
typedef struct ana_sim_speed {
	char node[ANA_NAME_MAX]; /* the sample's node */
	uint32_t procs;          /* sample processes that ran there */
	ana_sim_rate comp;       /* computation between calls: node speed */
	ana_sim_rate calls;      /* the own time of calls that do not wait */
	ana_sim_rate *push;      /* [n]: sends to entry k's node pushing
				    their message (ana_sim_push) */
	double start_ns;         /* its processes' start, later than in the
				    base by so much on average (< 0:
				    sooner), relative to the first
				    process's start in each */
	uint32_t starts;         /* processes that gave start_ns (not the
				    first to start, found in the base) */
	double warmup_ns;        /* a process's warm-up beyond the
				    base's: the first segment of each key
				    against the base's first at
				    comp.speed, over its processes */
} ana_sim_speed;

/* The speeds of every node of the nsamples analysed traces samples (runs
 * of the same program, fewer steps will do; several are taken together,
 * as one longer sample, their sums added before any rate is formed)
 * relative to the node base ran on.
 * comp: the computation segments of the sample (ana_stats_segments,
 * outside every call) that start and end at the same source lines, kinds
 * and ops as segments of base take base's mean length of those over
 * their own, summed per node.  calls: the same for the START-to-END
 * intervals of receives whose message's send had ended before they
 * began (they wait for no other process, nor for the network); its speed
 * is 0 (the calls go at the node's speed) with fewer than 10 such
 * receives or less than 1 ms of the base's time in them.  push[k]: the
 * same for the sends of 4 KiB or more to entry k's node whose receive
 * had begun before they did (0 with fewer than 5, or less than 1 ms of
 * the base's time in them).  The first computation segment of a key the
 * sample has more than once is left out of comp (its warm-up), as the
 * base's first ones are left out of its means, and what those took
 * beyond the base's first ones at comp's speed, per process, is
 * warmup_ns.  start_ns:
 * how much later than in base its processes started, each against the
 * first process to start in its trace (that one not counted; processes
 * known as the segments are), averaged over the samples' processes.
 * *out: *n entries in the order the nodes first run a process (free with ana_sim_speeds_free).  0, ANA_EARG with
 * err (a node with no matching computation), or ANA_ENOMEM. */
int ana_sim_speeds(ana_trace *base, ana_trace *const *samples,
		   uint32_t nsamples, ana_sim_speed **out, uint32_t *n,
		   char *err, size_t errlen);
void ana_sim_speeds_free(ana_sim_speed *sp, uint32_t n);

/* A sample whose speeds disagree with the others' (ana_sim_sample_odd). */
#define ANA_SIM_SAMPLE_SPREAD 0.10 /* off the samples' median by more */
typedef struct ana_sim_odd {
	int left_out;            /* 1: not to be taken with the others */
	char node[ANA_NAME_MAX]; /* the node where its speed was furthest
				    off */
	double speed;            /* its computation's speed there */
	double median;           /* the median of the samples' speeds there */
} ana_sim_odd;

/* Which of the nsamples samples to leave out of ana_sim_speeds: with 3
 * or more, each sample's computation speed on every node is measured
 * alone, and a sample whose speed on a node that at least 3 samples ran
 * on is off the median of theirs by more than ANA_SIM_SAMPLE_SPREAD of
 * it is marked in odd[] (nsamples entries: one short run beside
 * something else on its core, or the first after a build, can be a
 * third slower than the others, and taken together it would move the
 * speed by as much as it is long).  A sample that cannot be measured
 * alone is not judged; when every sample would be left out, none is.
 * The number left out, or ANA_ENOMEM. */
int ana_sim_sample_odd(ana_trace *base, ana_trace *const *samples,
		       uint32_t nsamples, ana_sim_odd *odd);

/* Sets one parameter to value (paravt predict --sweep):
 *   latency, bandwidth, per-byte, links,  every level but level 0 (the
 *   buffer
 *                                         only level if there is one)
 *   LEVEL.latency ...                     one level
 *   speed, calls, cores, start            every node
 *   NODE.speed, NODE.calls, NODE.cores,   one node
 *   NODE.start
 *   PROC.node                             where a process runs
 * Values as in the file (50us, 1GB/s, 0.5).  0 or ANA_EARG with err. */
int ana_sim_set(ana_sim_machine *m, const char *param, const char *value,
		char *err, size_t errlen);

/* Sets the speed of node and, unless NULL, the speed of its calls
 * (values as in the file), adding the node (1 core, no groups, no
 * process mapped) when m has none of that name.  0, ANA_EARG with err,
 * or ANA_ENOMEM. */
int ana_sim_set_node(ana_sim_machine *m, const char *node, const char *speed,
		     const char *calls, char *err, size_t errlen);

/* The index of the node called name in m, or -1. */
int ana_sim_find_node(const ana_sim_machine *m, const char *name);

/* The node of process p of tr in m: its map line, else a node with the
 * name of the node it ran on; -1 when neither. */
int ana_sim_proc_node(const ana_trace *tr, const ana_sim_machine *m,
		      uint32_t p);

/* Sets the push speed of sends from node from to node to (ana_sim_push),
 * adding the entry when m has none.  0, ANA_EARG with err (no such
 * node, a speed not above 0) or ANA_ENOMEM. */
int ana_sim_set_push(ana_sim_machine *m, const char *from, const char *to,
		     double speed, char *err, size_t errlen);

/* The level between nodes a and b of m (0 when a == b). */
uint32_t ana_sim_level_of(const ana_sim_machine *m, uint32_t a, uint32_t b);

/* ---- the simulation (ana_sim.c) ---- */

typedef struct ana_sim_opts {
	int pure;     /* 1: pure model of messages; 0: residual (above) */
	const ana_sim_machine *traced; /* the machine the trace ran on (the
				  residual model's reference); NULL:
				  ana_sim_describe of the trace */
} ana_sim_opts;

/* The DVM characteristics (Klinov) of a run of time T with P tasks:
 * idle_i = T - T_i (the task's processor had nothing to do: it started
 * late or ended early), imbalance_i = max_j comp_j - comp_i, lost_i = T -
 * comp_i (communication, waiting and idling); the job's are the sums, and
 * its parallel efficiency sum(comp_i) / (P T). */
typedef struct ana_sim_dvm {
	int64_t time_ns;              /* T: first event to last */
	int64_t *idle_ns, *imb_ns, *lost_ns; /* [ntasks] */
	int64_t idle_total, imb_total, lost_total;
	double par_eff;
} ana_sim_dvm;

typedef struct ana_sim_result {
	ana_stats pred;      /* the figures of info efficiency, predicted */
	ana_stats rec;       /* the same, recorded (compensated) */
	ana_sim_dvm pdvm, rdvm; /* DVM characteristics, same two */
	int64_t *s_ns;       /* [events]: predicted time of every event, per
				process in event order */
	uint32_t *node;      /* [ntasks]: the machine's node of each task */
	uint64_t events;     /* events simulated */
	uint64_t forced;     /* events a dependency cycle forced */
	uint64_t link_waits; /* messages that waited for a free link */
} ana_sim_result;

/* Simulates the analysed trace tr (ana_analyze is run if it was not) on
 * m.  Every process of tr must be mapped to a node of m.  *r is filled
 * (free with ana_sim_result_free).  tr's times are left as they were
 * (the simulation borrows c_ns and o_ns and puts them back).  0, ANA_EARG
 * with err (mapping), or ANA_ENOMEM. */
int ana_sim_run(ana_trace *tr, const ana_sim_machine *m,
		const ana_sim_opts *o, ana_sim_result *r, char *err,
		size_t errlen);
void ana_sim_result_free(ana_sim_result *r);

/* Swaps the predicted times of r into tr's c_ns (and back, a second
 * call), so that what reads the compensated view (the HTML report) shows
 * the predicted run. */
void ana_sim_swap(ana_trace *tr, ana_sim_result *r);

/* The DVM characteristics of figures st.  0 or ANA_ENOMEM; free with
 * ana_sim_dvm_free. */
int ana_sim_dvm_compute(const ana_stats *st, ana_sim_dvm *d);
void ana_sim_dvm_free(ana_sim_dvm *d);

/* ---- the search for the best mapping (ana_sim_best.c) ---- */

/* One mapping found by ana_sim_best. */
typedef struct ana_sim_choice {
	uint32_t *node;     /* [nprocs]: node of each process (owned) */
	int64_t time_ns;    /* predicted run time */
	double eff;         /* predicted E (STK, job) */
	double par_eff;     /* predicted parallel efficiency (DVM) */
} ana_sim_choice;

/* What the search did. */
typedef struct ana_sim_search {
	uint64_t evaluated;  /* mappings simulated */
	uint64_t pruned;     /* moves skipped: the node was equivalent to
				one tried (same speed, calls, cores and
				groups, no push speeds, both empty) */
	uint32_t rounds;     /* improving moves made */
	double space;        /* mappings there are: nodes ^ processes */
} ana_sim_search;

/* Searches the mappings of tr's processes to m's nodes for the smallest
 * predicted run time whose E is at least min_eff, as Klinov searches
 * processor configurations: by classes of mappings that differ in one
 * process's node only, taking the best of each class (a local minimum)
 * and moving to the best of all classes, until no class improves; nodes
 * that cannot differ (same speed, calls, cores and groups, no push
 * speeds, both empty) are tried once.  It starts from m's mapping.  best[0..nbest) get the best
 * distinct mappings seen that meet min_eff, fastest first (*nfound of
 * them; free each with ana_sim_choice_free); *s what it did.  0, ANA_EARG
 * with err, or ANA_ENOMEM. */
int ana_sim_best(ana_trace *tr, const ana_sim_machine *m,
		 const ana_sim_opts *o, double min_eff, uint32_t nbest,
		 ana_sim_choice *best, uint32_t *nfound, ana_sim_search *s,
		 char *err, size_t errlen);
void ana_sim_choice_free(ana_sim_choice *c);

#endif
