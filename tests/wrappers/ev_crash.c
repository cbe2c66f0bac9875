/*
 * ev_crash.c — test program for 92-wrappers-crash: a traced task that
 * records a few events through the runtime's own probe interface
 * (rt_event.h, as a wrapper does) and then dies of SIGSEGV.  Its
 * buffered records (never flushed: fewer than a buffer, well within the
 * 100 ms timer) and TASK_CRASH must still reach the daemon.
 *
 *   ev_crash N      N fake sends (default 5), then the crash
 */
#include <stdlib.h>

#include "paravt_rt.h"
#include "rt_event.h"

/* One fake send to peer with tag, as para_vt_pvm_send records it. */
static void fake_send(int peer, int tag)
{
	pvt__ev_probe pr;

	if (!pvt__ev_begin(&pr, PVT_EV_SEND_START, PVT_OP_PVM_SEND, __FILE__,
	                   __func__, __LINE__, peer, tag, 100 + tag, 0, 0, 0))
		return;
	pvt__ev_call(&pr);
	pvt__ev_end(&pr, PVT_EV_SEND_END, peer, tag, 100 + tag, 0, 0);
}

/* Writes through a null pointer. */
static void crash_here(volatile int *p)
{
	para_vt_fn_enter("crash_here", __FILE__, __LINE__);
	*p = 42;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5, i;

	para_vt_start();
	for (i = 0; i < n; i++)
		fake_send(7, i);
	crash_here(NULL);
	return 0;
}
