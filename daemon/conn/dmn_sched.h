/*
 * dmn_sched.h — how the kernel schedules the daemon beside the program
 * it traces.
 *
 * Where a traced program's processes fill the node's processors (an
 * unpaced ping-pong's two ranks on two cores), every wake-up of the
 * daemon (its drain timer, a console's acknowledgement, a task's frame)
 * took a rank off its processor at once: Linux lets a process that wakes
 * preempt one that runs.  The daemon's work there is throughput, not
 * latency (draining rings, relaying events), so on Linux it runs as
 * SCHED_BATCH: it waits for the running process's time slice to end
 * instead, and gets its fair share of the processor all the same.  The
 * policy passes to children at fork (SCHED_RESET_ON_FORK resets only
 * real-time policies), so the programs, builds and pvmds the daemon
 * starts are given back the policy it had before (dmn_sched_child):
 * they run as they would plainly.
 */
#ifndef PARAVT_DMN_SCHED_H
#define PARAVT_DMN_SCHED_H

#include <stddef.h>

/* Makes the calling process SCHED_BATCH, keeping its policy before for
 * dmn_sched_child.  1 done, 0 not available on this system, -1 failed
 * (a sentence in err). */
int dmn_sched_batch(char *err, size_t errlen);

/* In a child after fork: back to the policy the daemon had before
 * dmn_sched_batch (nothing when it was not called).  0 or -1. */
int dmn_sched_child(void);

#endif
