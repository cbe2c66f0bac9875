/*
 * test_dmn_share.c — unit tests of paravt's share of the CPU wait
 * (daemon/relay/dmn_share.c): the fraction, the charge, where the planned
 * charge goes, its cap at the gaps, the base at the first sight and at
 * the first record, the daemon's window,
 * reading real schedstat files, the processor a process is on and the
 * daemon's processor time, the console's part, a cgroup's throttled
 * time, what the process charged itself and the weight of the gaps it
 * looked at.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "dmn_cgroup.h"
#include "dmn_share.h"

/* Charges s as if its wait had grown by w since the last sample. */
static void charge(dmn_share *s, uint64_t w, double f, uint64_t now)
{
	s->now = s->wait + w;
	dmn_share_charge(s, f, 0, now);
}

/* Plans s's last charge over the n records at t (own Δ d, NULL: 0),
 * with no daemon's window, checks that the weights of the gaps add up
 * to gap_w, then that record i gets the share want[i]. */
static void plan_check(dmn_share *s, const uint64_t *t, const uint64_t *d,
                       size_t n, uint64_t gap_w, const uint64_t *want)
{
	size_t i;

	dmn_share_plan_begin(s, 0, 0);
	for (i = 0; i < n; i++)
		dmn_share_plan_add(s, t[i], d != NULL ? d[i] : 0);
	assert_int_equal(s->plan_w[DMN_SHARE_W_GAP], gap_w);
	for (i = 0; i < n; i++)
		assert_int_equal(dmn_share_at(s, t[i], d != NULL ? d[i] : 0),
		                 want[i]);
}

static void test_fraction(void **state)
{
	(void)state;
	assert_true(dmn_share_fraction(0, 100) == 0.0);
	assert_true(dmn_share_fraction(100, 0) == 0.0);
	assert_true(dmn_share_fraction(50, 200) == 0.25);
	/* the daemon used more than the processes waited: all, no more */
	assert_true(dmn_share_fraction(300, 200) == 1.0);
}

/* Without a plan the charge grows linearly between two samples, and a
 * share never goes back. */
static void test_linear(void **state)
{
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	assert_int_equal(dmn_share_at(&s, 500, 0), 0); /* nothing sampled */
	charge(&s, 0, 1.0, 1000);   /* the first sample: the base */
	charge(&s, 400, 0.5, 2000); /* 200 charged over (1000, 2000] */
	assert_int_equal(s.x1, 200);
	assert_int_equal(dmn_share_at(&s, 1000, 0), 0);
	assert_int_equal(dmn_share_at(&s, 1500, 0), 100);
	assert_int_equal(dmn_share_at(&s, 2000, 0), 200);
	assert_int_equal(dmn_share_at(&s, 2600, 0), 200); /* after the sample */
	/* an event from before, read late, gets no less than the last */
	assert_int_equal(dmn_share_at(&s, 1200, 0), 200);
	dmn_share_close(&s);
}

/* A plan puts the charge in the gaps longer than DMN_SHARE_GAP_NS, in
 * proportion to their excess: events 100 ns apart, one gap of 2000 +
 * 30000 and one of 2000 + 10000 ns; 4000 ns charged. */
static void test_plan(void **state)
{
	uint64_t t[] = {10100, 10200, 42200, 42300, 54300, 54400};
	uint64_t want[] = {0, 0, 3000, 3000, 4000, 4000};
	dmn_share s;
	size_t i;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 10000);
	assert_int_equal(dmn_share_at(&s, 10000, 0), 0); /* the last before */
	charge(&s, 4000, 1.0, 60000);
	dmn_share_plan_begin(&s, 0, 0);
	for (i = 0; i < 6; i++)
		dmn_share_plan_add(&s, t[i], 0);
	dmn_share_plan_add(&s, 70000, 0); /* after the sample: not planned */
	assert_int_equal(s.plan_w[DMN_SHARE_W_GAP], 40000);
	for (i = 0; i < 6; i++)
		assert_int_equal(dmn_share_at(&s, t[i], 0), want[i]);
	assert_int_equal(dmn_share_at(&s, 70000, 0), 4000);
	/* a new sample drops the plan: linear again */
	charge(&s, 1000, 1.0, 80000);
	assert_int_equal(s.plan_w[DMN_SHARE_W_GAP], 0);
	assert_int_equal(dmn_share_at(&s, 75000, 0), 4750);
	dmn_share_close(&s);
}

/* A gap the process's own Δ grew in (a wait for a full ring, a stop at
 * a breakpoint) is paravt's time counted already, not a wait for a CPU:
 * only what is left of it beyond DMN_SHARE_GAP_NS has weight.  The gap
 * of 32000 ns before 42200 holds 25000 ns of Δ (7000 left: weight
 * 5000); the one of 12000 before 54300 holds none (weight 10000): of
 * 3000 ns charged, 1000 and 2000.  A gap its Δ grew more than it lasted
 * has no weight. */
static void test_plan_own(void **state)
{
	uint64_t t[] = {10100, 10200, 42200, 42300, 54300, 54400, 90000};
	uint64_t d[] = {50, 60, 25060, 25070, 25070, 25080, 99999};
	uint64_t want[] = {0, 0, 1000, 1000, 3000, 3000, 3000};
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 10000);
	assert_int_equal(dmn_share_at(&s, 10000, 40), 0);
	charge(&s, 3000, 1.0, 95000);
	plan_check(&s, t, d, 7, 15000, want);
	dmn_share_close(&s);
}

/* Where the relay knows when the daemon drained, the daemon's part of a
 * charge goes by the part of each gap in the window, and the rest by
 * the part out of it, not by the gaps' lengths.  Gaps of 10000 (from
 * 10100 to 20100: 6000 in the window [12000, 18000], 4000 out) and of
 * 20000 (from 20200 to 40200, all out); 4000 ns charged, 3000 the
 * daemon's (f 0.75) and 1000 the rest.  By the gaps (weights 8000 and
 * 18000) the first would get 1230, as it does when no gap falls in the
 * window. */
static void test_plan_window(void **state)
{
	uint64_t t[] = {10100, 20100, 20200, 40200, 40300};
	uint64_t want[2][5] = {{0, 3100, 3100, 4000, 4000},
	                       {0, 1230, 1230, 4000, 4000}};
	uint64_t win[2][2] = {{12000, 18000}, {50000, 60000}};
	uint64_t pw[2][3] = {{26000, 4000, 20000}, {26000, 0, 26000}};
	dmn_share s;
	size_t i;
	int k, j;

	(void)state;
	for (k = 0; k < 2; k++) {
		dmn_share_init(&s);
		charge(&s, 0, 1.0, 10000);
		assert_int_equal(dmn_share_at(&s, 10000, 0), 0);
		s.now = s.wait + 4000;
		dmn_share_charge(&s, 0.75, 1.0, 50000);
		assert_int_equal(s.xd, 3000);
		assert_int_equal(s.last_w, 4000);
		dmn_share_plan_begin(&s, win[k][0], win[k][1]);
		for (i = 0; i < 5; i++)
			dmn_share_plan_add(&s, t[i], 0);
		for (j = 0; j < 3; j++)
			assert_int_equal(s.plan_w[j], pw[k][j]);
		for (i = 0; i < 5; i++)
			assert_int_equal(dmn_share_at(&s, t[i], 0), want[k][i]);
		assert_int_equal(s.over, 0);
		dmn_share_close(&s);
	}
}

/* The processor a process is on, from its stat file: a child whose name
 * holds ") " and " (" (the fields are counted from the last ')'), and
 * this process.  pid 0 closes the file. */
static void test_cpu(void **state)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char path[64], name[32] = "";
	dmn_share s;
	pid_t pid;
	int cpu, i;
	FILE *f;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		(void)prctl(PR_SET_NAME, "p) q (r", 0, 0, 0);
		pause();
		_exit(0);
	}
	snprintf(path, sizeof path, "/proc/%ld/comm", (long)pid);
	for (i = 0; i < 500 && strncmp(name, "p) q (r", 7) != 0; i++) {
		if ((f = fopen(path, "r")) != NULL) {
			if (fgets(name, sizeof name, f) == NULL)
				name[0] = '\0';
			fclose(f);
		}
		usleep(10000);
	}
	assert_string_equal(name, "p) q (r\n");
	dmn_share_init(&s);
	cpu = dmn_share_cpu(&s, (long)pid);
	assert_true(cpu >= 0 && cpu < ncpu);
	assert_true(s.st_fd >= 0);
	assert_int_equal(dmn_share_cpu(&s, 0), -1);
	assert_int_equal(s.st_fd, -1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cpu = dmn_share_own_cpu();
	assert_true(cpu >= 0 && cpu < ncpu);
	dmn_share_close(&s);
}

/* A charge larger than the gaps it falls in would run compensated time
 * backwards: a share grows by at most the time since the event before
 * (less its own Δ growth), and what does not fit is left out of every
 * later share and counted.  50000 ns charged over one gap of 10000: the
 * share there is 10000, 40000 over; the next sample's 1000 follows. */
static void test_cap(void **state)
{
	uint64_t t[] = {10100, 20100, 20200, 40000};
	uint64_t want[] = {0, 10000, 10000, 11000};
	dmn_share s;
	size_t i;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 10000);
	assert_int_equal(dmn_share_at(&s, 10000, 0), 0);
	charge(&s, 50000, 1.0, 30000);
	dmn_share_plan_begin(&s, 0, 0);
	for (i = 0; i < 3; i++)
		dmn_share_plan_add(&s, t[i], 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(dmn_share_at(&s, t[i], 0), want[i]);
	assert_int_equal(s.over, 40000);
	charge(&s, 1000, 1.0, 40000);
	assert_int_equal(dmn_share_at(&s, t[3], 0), want[3]);
	for (i = 1; i < 4; i++) /* compensated time never goes back */
		assert_true(t[i] - want[i] >= t[i - 1] - want[i - 1]);
	/* the room is less the event's own Δ growth: 300 ns of gap, 250 of
	 * it paravt's already, 50 left for a charge of 1000 */
	charge(&s, 1000, 1.0, 40300);
	assert_int_equal(dmn_share_at(&s, 40300, 250), 11050);
	assert_int_equal(s.over, 40950);
	dmn_share_close(&s);
}

/* The wait a process had before the relay saw it is not charged: begin
 * takes it as the base, and the first sample reads only what follows.
 * pid 0 (not known yet) leaves the first sample to open and read. */
static void test_begin(void **state)
{
	dmn_share s;
	uint64_t w0;

	(void)state;
	dmn_share_init(&s);
	dmn_share_begin(&s, 0);
	assert_int_equal(s.fd, -2);
	assert_int_equal(s.wait, 0);
	dmn_share_begin(&s, (long)getpid());
	if (s.fd < 0) {
		skip(); /* no schedstat here */
		return;
	}
	w0 = s.wait;
	assert_int_equal(s.now, w0);
	assert_int_equal(dmn_share_read(&s, (long)getpid()), s.now - w0);
	assert_true(s.now >= w0);
	dmn_share_close(&s);
	/* without begin, the first read is the whole wait since the start */
	dmn_share_init(&s);
	assert_true(dmn_share_read(&s, (long)getpid()) >= w0);
	dmn_share_close(&s);
}

/* The first record's wait (PROG_START): what the process waited before
 * it is not charged.  Not read yet: the sample starts there.  Read and
 * charged already: that wait's part of the charge is left out (all of
 * it when every read was before the record).  Once only. */
static void test_start(void **state)
{
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	s.wait = s.base = 100;
	dmn_share_start(&s, 300);
	assert_int_equal(s.wait, 300);
	assert_int_equal(s.pre, 0);
	charge(&s, 40, 1.0, 1000); /* only what followed the record */
	assert_int_equal(s.x1, 40);
	dmn_share_start(&s, 5000); /* once only */
	assert_int_equal(s.wait, 340);
	/* a sample read 1000 ns past the base and charged half: the
	   record came at 500 of them, so 250 of the 500 charged stay out */
	dmn_share_init(&s);
	s.wait = s.base = 100;
	charge(&s, 1000, 0.5, 1000);
	dmn_share_start(&s, 600);
	assert_int_equal(s.pre, 250);
	assert_int_equal(dmn_share_at(&s, 2000, 0), 250);
	/* every read before the record: all charged stays out */
	dmn_share_init(&s);
	s.wait = s.base = 100;
	charge(&s, 300, 0.5, 1000);
	dmn_share_start(&s, 700);
	assert_int_equal(s.pre, 150);
	assert_int_equal(s.wait, 700);
	assert_int_equal(dmn_share_at(&s, 2000, 0), 0);
	/* a first record that says nothing: as before */
	dmn_share_init(&s);
	dmn_share_start(&s, -1);
	assert_true(s.started && s.wait == 0 && s.pre == 0);
}

/* An exit's charge, planned over the records since the last sample,
 * goes where the process stood still, not all into the gap before the
 * exit (100 ns here, where 2000 would not fit).  Its own word for its
 * wait (told) is read as schedstat is. */
static void test_exit_plan(void **state)
{
	uint64_t t[] = {20100, 50100, 50200, 50300};
	uint64_t want[] = {500, 2500, 2500, 2500};
	dmn_share s;
	size_t i;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 10000);
	charge(&s, 1000, 0.5, 20000);
	assert_int_equal(dmn_share_at(&s, 20000, 0), 500);
	dmn_share_exit(&s, (int64_t)s.wait + 4000, 50300);
	assert_int_equal(s.x1, 2500);
	dmn_share_plan_begin(&s, 0, 0);
	for (i = 0; i < 4; i++)
		dmn_share_plan_add(&s, t[i], 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(dmn_share_at(&s, t[i], 0), want[i]);
	assert_int_equal(s.over, 0);
	/* told: as a read, never back */
	assert_int_equal(dmn_share_told(&s, (int64_t)s.wait + 70), 70);
	assert_int_equal(dmn_share_told(&s, 5), 0);
	assert_int_equal(dmn_share_told(&s, -1), 0);
}

/* The console's part: after the daemon's fraction f, over what is left
 * of the wait less the cgroup's throttled time.  W 1000, throttled 600,
 * f 0.2: 200 for the daemon, 1000 * 0.8 - 600 = 200 left, half of it
 * (g 0.5) to the console: 300.  Throttled 900: nothing left, 200.
 * Never more than the wait. */
static void test_console_part(void **state)
{
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	s.thr_now = 600;
	s.now = 1000;
	assert_int_equal(dmn_share_free(&s, 0.2), 200);
	dmn_share_charge(&s, 0.2, 0.5, 1000);
	assert_int_equal(s.x1, 300);
	assert_int_equal(s.thr, 600); /* the base of the next sample */
	assert_true(s.frac == 0.3);
	s.thr_now = 1500;
	s.now = 2000;
	assert_int_equal(dmn_share_free(&s, 0.2), 0);
	dmn_share_charge(&s, 0.2, 1.0, 2000);
	assert_int_equal(s.x1, 500);
	s.now = 3000;
	s.thr_now = 1500; /* not throttled: all of it can be charged */
	assert_int_equal(dmn_share_free(&s, 0.5), 500);
	dmn_share_charge(&s, 1.0, 1.0, 3000);
	assert_int_equal(s.x1, 1500);
	dmn_share_close(&s);
}

/* The daemon's time a sample finds no wait for (the rank it keeps off
 * its processor has not run again: its wait is not in schedstat yet)
 * goes to the next sample, and no further: 2600 us with no wait, then
 * 200 with 2800 of waits: all 2800 shared out.  What no wait takes is
 * carried only up to the sample's own time: 2600 then 100 with no
 * waits at either carries 100, not 2700, and a third sample with no
 * time of its own carries nothing. */
static void test_pool(void **state)
{
	/* each sample: its fresh time, the waits it found; what it
	   shares out, what it carries */
	static const uint64_t step[][4] = {
		{2600, 0, 2600, 2600}, /* no wait yet: all carried */
		{200, 2800, 2800, 0},  /* the wait comes: all shared */
		{1000, 300, 1000, 700}, /* what the waits left */
		{2600, 0, 3300, 2600}, /* up to this sample's own */
		{100, 0, 2700, 100},
		{0, 0, 100, 0},        /* none of its own: nothing */
	};
	dmn_share_pool p = {0};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof step / sizeof step[0]; i++) {
		assert_int_equal(dmn_share_pool_add(&p, step[i][0]),
		                 step[i][2]);
		dmn_share_pool_end(&p, step[i][1]);
		assert_int_equal(p.carry, step[i][3]);
	}
}

/* Records the relay could not take after a sample (dmn_share_hold) get
 * the next sample's charge by one plan with theirs: the interval stays
 * (1000, ...] and grows to the new sample, its daemon part too.  A gap
 * of 2000 + 6000 before the sample at 10000 and one of 2000 + 2000
 * after it; 1000 charged at 10000, 3000 more at 20000: 3000 and 4000
 * by the weights 6000 and 2000, where the first would have had all of
 * the 1000 at once and the second the 3000. */
static void test_hold(void **state)
{
	uint64_t t[] = {1100, 9100, 9200, 13200, 13300};
	uint64_t want[] = {0, 3000, 3000, 4000, 4000};
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 1000);
	assert_int_equal(dmn_share_at(&s, 1000, 0), 0);
	charge(&s, 1000, 1.0, 10000);
	dmn_share_hold(&s); /* its records stayed in the ring */
	charge(&s, 3000, 1.0, 20000);
	assert_int_equal(s.t0, 1000);
	assert_int_equal(s.x0, 0);
	assert_int_equal(s.x1, 4000);
	assert_int_equal(s.xd, 4000);
	assert_int_equal(s.hold, 0); /* once */
	plan_check(&s, t, NULL, 5, 8000, want);
	assert_int_equal(s.over, 0);
	/* the next sample, not held, starts a new interval */
	charge(&s, 1000, 1.0, 30000);
	assert_int_equal(s.t0, 20000);
	assert_int_equal(s.x0, 4000);
	assert_int_equal(s.xd, 1000);
	dmn_share_close(&s);
}

/* What the process charged itself (its ring's self_us) is taken from
 * the sample's charge: the relay places the rest; more than the charge
 * is kept as credit against the next samples; frac stays the fraction
 * of the whole wait (what the process is told to charge itself); the
 * counter wraps at 2^32 us. */
static void test_self_charge(void **state)
{
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 1000);      /* the base */
	dmn_share_self(&s, 3);         /* 3 us by the process itself */
	charge(&s, 10000, 0.5, 2000);  /* 5000 charged, 3000 of it placed */
	assert_int_equal(s.x1 - s.x0, 2000);
	assert_true(s.frac == 0.5);
	assert_int_equal(s.credit, 0);
	dmn_share_self(&s, 10);        /* 7 us more */
	charge(&s, 8000, 0.5, 3000);   /* 4000: nothing left to place */
	assert_int_equal(s.x1 - s.x0, 0);
	assert_int_equal(s.credit, 3000);
	assert_true(s.frac == 0.5);
	charge(&s, 10000, 0.5, 4000);  /* 5000 less the credit */
	assert_int_equal(s.x1 - s.x0, 2000);
	assert_int_equal(s.credit, 0);
	assert_int_equal(s.self_all, 10000);
	/* the counter wraps: 0xfffffffe us then 1 us is 3 us more */
	s.self_us = 0xfffffffeu;
	dmn_share_self(&s, 1);
	assert_int_equal(s.self_new, 3000);
	assert_int_equal(s.self_all, 13000);
	dmn_share_close(&s);
}

/* A gap longer than PVT_RING_STALL_NS is one the process looked at: it
 * charged itself fraction f of its wait there, so its Δ's growth is f
 * of that wait and the plan gives it no more weight than the rest,
 * (1 - f) / f of the growth.  Told 0.5 (one sample at 0.5): a long gap
 * of 300000 ns with 100000 of Δ (weight 100000 less 2000), one of
 * 300000 with none (the process found no wait there: weight 0), and a
 * short one of 50000 it did not look at (weight 48000); of 14600 ns
 * charged (after the 1000 of the sample before), 9800 and 4800.  Before the process was told anything (f
 * 0), the long gaps weigh as the others do. */
static void test_plan_looked(void **state)
{
	uint64_t t[] = {10100, 310100, 610100, 660100};
	uint64_t d[] = {0, 100000, 100000, 100000};
	uint64_t want[] = {1000, 10800, 10800, 15600};
	dmn_share s;

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 10000);
	charge(&s, 2000, 0.5, 10050); /* told 0.5 from here */
	assert_true(dmn_share_told_frac(&s) == 0.5);
	charge(&s, 29200, 0.5, 700000);
	assert_true(s.f_told == 0.5);
	plan_check(&s, t, d, 4, 98000 + 0 + 48000, want);
	dmn_share_close(&s);

	dmn_share_init(&s);
	charge(&s, 0, 1.0, 10000);
	charge(&s, 29200, 0.5, 700000); /* nothing told before: f 0 */
	assert_true(s.f_told == 0.0);
	dmn_share_plan_begin(&s, 0, 0);
	dmn_share_plan_add(&s, 10000, 0);
	dmn_share_plan_add(&s, 310100, 0);
	assert_int_equal(s.plan_w[DMN_SHARE_W_GAP], 300100 - 2000);
	dmn_share_close(&s);
}

/* The fraction a process is told: none before a sample with a wait;
 * then of the samples' charges over their waits, each older sample
 * weighing DMN_SHARE_KEEP less: 1000 at 0.5 then 1000 at 0.25 is
 * (500 * 0.9 + 250) / (1000 * 0.9 + 1000); 0 after a sample in which
 * its cgroup was throttled. */
static void test_told_frac(void **state)
{
	dmn_share s;
	double want = (500 * DMN_SHARE_KEEP + 250) /
	              (1000 * DMN_SHARE_KEEP + 1000);

	(void)state;
	dmn_share_init(&s);
	charge(&s, 0, 1.0, 1000);
	assert_true(dmn_share_told_frac(&s) < 0);
	charge(&s, 1000, 0.5, 2000);
	assert_true(dmn_share_told_frac(&s) == 0.5);
	charge(&s, 1000, 0.25, 3000);
	assert_true(dmn_share_told_frac(&s) > want - 1e-9 &&
	            dmn_share_told_frac(&s) < want + 1e-9);
	assert_true(s.frac == 0.25); /* the exit's: the last sample's */
	s.thr_now = s.thr + 100; /* its cgroup was throttled: told 0 */
	charge(&s, 1000, 0.25, 4000);
	assert_true(dmn_share_told_frac(&s) == 0.0);
	charge(&s, 1000, 0.25, 5000); /* not since: told again */
	assert_true(dmn_share_told_frac(&s) > 0.25);
	dmn_share_close(&s);
}

/* A cgroup's cpu.stat: v1's throttled_time (ns) and v2's throttled_usec,
 * read again from the start; garbage refused; this process's own group
 * found where it has the cpu controller, and no group for a process
 * that does not exist. */
static void test_cgroup(void **state)
{
	char dir[] = "/tmp/pvt-cg-XXXXXX", path[1200], own[1024];
	uint64_t ns = 0, periods = 9;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/cpu.stat", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("nr_periods 4\nnr_throttled 2\nthrottled_time 123456\n", f);
	fclose(f);
	assert_true((fd = dmn_cgroup_open(path)) >= 0);
	assert_int_equal(dmn_cgroup_throttled(fd, &ns, &periods), 0);
	assert_int_equal(ns, 123456);
	assert_int_equal(periods, 4); /* a quota is set */
	assert_int_equal(dmn_cgroup_throttled(fd, &ns, NULL), 0); /* again */
	assert_int_equal(ns, 123456);
	close(fd);
	f = fopen(path, "w");
	fputs("usage_usec 10\nnr_throttled 1\nthrottled_usec 5\n", f);
	fclose(f);
	assert_true((fd = dmn_cgroup_open(path)) >= 0);
	assert_int_equal(dmn_cgroup_throttled(fd, &ns, &periods), 0);
	assert_int_equal(ns, 5000);
	assert_int_equal(periods, 0); /* no nr_periods line: no quota */
	close(fd);
	f = fopen(path, "w");
	fputs("nr_throttled_time 7\n", f); /* not the field */
	fclose(f);
	assert_true((fd = dmn_cgroup_open(path)) >= 0);
	assert_int_equal(dmn_cgroup_throttled(fd, &ns, NULL), -1);
	close(fd);
	unlink(path);
	rmdir(dir);
	assert_int_equal(dmn_cgroup_stat_path(999999999, own, sizeof own), -1);
	assert_int_equal(dmn_cgroup_stat_path(0, own, sizeof own), -1);
	if (dmn_cgroup_stat_path((long)getpid(), own, sizeof own) != 0) {
		skip(); /* no cgroup with the cpu controller here */
		return;
	}
	assert_non_null(strstr(own, "/cpu.stat"));
	assert_true((fd = dmn_cgroup_open(own)) >= 0);
	assert_int_equal(dmn_cgroup_throttled(fd, &ns, NULL), 0);
	close(fd);
	assert_int_equal(dmn_cgroup_stat_path((long)getpid(), own, 8), -1);
}

/* Writes text into path (the test's cpu.stat). */
static void put_stat(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The quota flag (the relay's drain period): set once the group's quota
 * periods grow while the process is traced, and kept; not set by a count
 * left from a quota lifted before. */
static void test_quota(void **state)
{
	char dir[] = "/tmp/pvt-cgq-XXXXXX", path[1200];
	dmn_share s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/cpu.stat", dir);
	put_stat(path, "nr_periods 10\nnr_throttled 2\nthrottled_time 5\n");
	dmn_share_init(&s);
	s.fd = -1; /* no schedstat: only the cgroup is read */
	s.cg_fd = dmn_cgroup_open(path);
	assert_true(s.cg_fd >= 0);
	s.periods = 10; /* as if read at a sample before */
	(void)dmn_share_read(&s, (long)getpid());
	assert_int_equal(s.quota, 0); /* 10 then 10: lifted or idle */
	put_stat(path, "nr_periods 14\nnr_throttled 3\nthrottled_time 9\n");
	(void)dmn_share_read(&s, (long)getpid());
	assert_int_equal(s.quota, 1); /* it grew: enforced */
	(void)dmn_share_read(&s, (long)getpid());
	assert_int_equal(s.quota, 1); /* idle for a sample: kept */
	dmn_share_close(&s);
	/* a new process (its own cgroup, whatever it counted before): the
	   first reading is only the base */
	dmn_share_init(&s);
	s.fd = -1;
	(void)dmn_share_read(&s, (long)getpid());
	assert_int_equal(s.quota, 0);
	dmn_share_close(&s);
	unlink(path);
	rmdir(dir);
}

/* Reading: this process's own schedstat (Linux), a process that does not
 * exist, and pid 0 (ended). */
static void test_read(void **state)
{
	dmn_share s;
	struct timespec d = {0, 20000000};

	(void)state;
	dmn_share_init(&s);
	assert_int_equal(dmn_share_read(&s, 0), 0);
	assert_int_equal(s.fd, -1);
	dmn_share_init(&s);
	assert_int_equal(dmn_share_read(&s, 999999999), 0);
	assert_int_equal(s.fd, -1);
	dmn_share_init(&s);
	(void)dmn_share_read(&s, (long)getpid());
	if (s.fd < 0) {
		skip(); /* no schedstat here */
		return;
	}
	dmn_share_charge(&s, 1.0, 0, 1);
	nanosleep(&d, NULL);
	(void)dmn_share_read(&s, (long)getpid()); /* a wait only grows */
	assert_true(s.now >= s.wait);
	(void)dmn_share_read(&s, 0);
	assert_int_equal(s.fd, -1);
}

/* The daemon's processor time: this process's since the last call, 0
 * the first time. */
static void test_daemon_ns(void **state)
{
	volatile unsigned long x = 0;
	unsigned long i;

	(void)state;
	(void)dmn_share_daemon_ns();
	for (i = 0; i < 20000000; i++)
		x += i;
	assert_true(dmn_share_daemon_ns() > 1000000); /* more than 1 ms */
	assert_true(dmn_share_daemon_ns() < 1000000); /* nothing since */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fraction),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_own),
		cmocka_unit_test(test_plan_window),
		cmocka_unit_test(test_plan_looked),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_begin),
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_exit_plan),
		cmocka_unit_test(test_console_part),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_self_charge),
		cmocka_unit_test(test_told_frac),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_quota),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_daemon_ns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
