/*
 * dmn_sched.c — the daemon's scheduling policy (dmn_sched.h).
 */
#if defined(__linux__)
#define _GNU_SOURCE /* SCHED_BATCH */
#endif
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "dmn_sched.h"

#if defined(__linux__) && defined(SCHED_BATCH)
static int sched_was = -1;          /* the policy before, -1 unchanged */
static struct sched_param sched_sp; /* and its parameters */

int dmn_sched_batch(char *err, size_t errlen)
{
	struct sched_param sp;
	int was = sched_getscheduler(0);

	if (was < 0 || sched_getparam(0, &sched_sp) != 0) {
		snprintf(err, errlen, "sched_getscheduler: %s",
			 strerror(errno));
		return -1;
	}
	memset(&sp, 0, sizeof sp);
	if (sched_setscheduler(0, SCHED_BATCH, &sp) != 0) {
		snprintf(err, errlen, "SCHED_BATCH: %s", strerror(errno));
		return -1;
	}
	sched_was = was;
	return 1;
}

int dmn_sched_child(void)
{
	if (sched_was < 0)
		return 0;
	return sched_setscheduler(0, sched_was, &sched_sp) == 0 ? 0 : -1;
}
#else
int dmn_sched_batch(char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return 0;
}

int dmn_sched_child(void)
{
	return 0;
}
#endif
