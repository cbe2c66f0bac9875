/*
 * ev_crash.c — test program for 92-wrappers-crash: a traced task that
 * records a few events through the runtime's own probe interface
 * (rt_event.h, as a wrapper does) and then dies of SIGSEGV.  Its
 * buffered records (never flushed: fewer than a buffer, well within the
 * 100 ms timer) and TASK_CRASH must still reach the daemon.
 *
 *   ev_crash N      N fake sends (default 5), a fake receive, the crash
 *
 * The receive marks its call's return (pvt__ev_ret) and then works
 * EV_CRASH_WORK_NS before it ends the probe, as a wrapper reading a
 * status: its END's time is the return, not the work's end.  Then two
 * timed probes (pvt__ev_begin_at, as the PVM wrappers make): in the
 * first the wrapper works EV_CRASH_SPIN_NS before the call and as long
 * after its return, and both must be in Δ; in the second it sleeps
 * EV_CRASH_WORK_NS before the call, which must not be (a process off its
 * processor is not paravt's work).
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

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

#define EV_CRASH_WORK_NS 20000000L /* 20 ms */

/* One fake receive from peer with tag whose wrapper works
 * EV_CRASH_WORK_NS between the call's return and the probe's end. */
static void fake_recv(int peer, int tag)
{
	struct timespec ts = {0, EV_CRASH_WORK_NS};
	pvt__ev_probe pr;

	if (!pvt__ev_begin(&pr, PVT_EV_RECV_START, PVT_OP_PVM_RECV, __FILE__,
	                   __func__, __LINE__, peer, tag, -1, 0, 0, 0))
		return;
	pvt__ev_call(&pr);
	pvt__ev_ret(&pr);
	(void)nanosleep(&ts, NULL);
	pvt__ev_end(&pr, PVT_EV_RECV_END, peer, tag, 8, 0, 0);
}

/* A wrapper's work, however slow: 20 us, a tenth of PVT_RING_STALL_NS
 * (under qemu on a loaded host a spin of 100 us took over 200). */
#define EV_CRASH_SPIN_NS 20000L

/* Spins on the clock for ns. */
static void spin(uint64_t ns)
{
	uint64_t t = pvt__ev_now();

	while (pvt__ev_now() - t < ns)
		;
}

/* One fake send through a timed probe whose wrapper works spin_ns from
 * its entry to the call and as long from the call's return to the
 * probe's end, and sleeps sleep_ns (off its processor) before it. */
static void fake_timed_send(int peer, int tag, long spin_ns, long sleep_ns)
{
	struct timespec ts = {0, sleep_ns};
	uint64_t t0 = pvt__ev_now();
	pvt__ev_probe pr;

	if (sleep_ns > 0)
		(void)nanosleep(&ts, NULL);
	spin((uint64_t)spin_ns);
	if (!pvt__ev_begin_at(&pr, t0, PVT_EV_SEND_START, PVT_OP_PVM_SEND,
	                      __FILE__, __func__, __LINE__, peer, tag, 8, 0, 0,
	                      0))
		return;
	pvt__ev_call(&pr);
	pvt__ev_ret(&pr);
	spin((uint64_t)spin_ns);
	pvt__ev_end(&pr, PVT_EV_SEND_END, peer, tag, 8, 0, 0);
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
	fake_recv(7, 99);
	fake_timed_send(7, 100, EV_CRASH_SPIN_NS, 0);
	fake_timed_send(7, 101, 0, EV_CRASH_WORK_NS);
	crash_here(NULL);
	return 0;
}
