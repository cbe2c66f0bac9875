/*
 * dmn_share.c — paravt's share of the traced processes' wait for a CPU
 * (dmn_share.h): reading schedstat files, the daemon's processor time,
 * and the charge of each process.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dmn_cgroup.h"
#include "dmn_share.h"
#include "pvt_ring.h"

/* The run-queue wait (ns) of the schedstat file open at fd: its second
 * field.  0, or -1. */
static int share_stat(int fd, uint64_t *wait)
{
	char b[128];
	unsigned long long r, w;
	ssize_t n = pread(fd, b, sizeof b - 1, 0);

	if (n <= 0)
		return -1;
	b[n] = '\0';
	if (sscanf(b, "%llu %llu", &r, &w) != 2)
		return -1;
	*wait = w;
	return 0;
}

/* This process's processor time, ns. */
static uint64_t share_own_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t dmn_share_pool_add(dmn_share_pool *p, uint64_t fresh)
{
	p->fresh = fresh;
	return fresh + p->carry;
}

void dmn_share_pool_end(dmn_share_pool *p, uint64_t waits)
{
	uint64_t all = p->fresh + p->carry;
	uint64_t left = all > waits ? all - waits : 0;

	p->carry = left < p->fresh ? left : p->fresh;
}

void dmn_share_init(dmn_share *s)
{
	memset(s, 0, sizeof *s);
	s->fd = s->cg_fd = s->st_fd = -2;
}

void dmn_share_close(dmn_share *s)
{
	if (s->fd >= 0)
		close(s->fd);
	if (s->cg_fd >= 0)
		close(s->cg_fd);
	if (s->st_fd >= 0)
		close(s->st_fd);
	s->fd = s->cg_fd = s->st_fd = -1;
}

/* Opens /proc/PID/FILE (pid 0: /proc/self/FILE): the descriptor, or
 * -1. */
static int share_open_proc(long pid, const char *file)
{
	char path[64];
	int fd;

	if (pid > 0)
		snprintf(path, sizeof path, "/proc/%ld/%s", pid, file);
	else
		snprintf(path, sizeof path, "/proc/self/%s", file);
	fd = open(path, O_RDONLY);
#ifdef FD_CLOEXEC
	if (fd >= 0)
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
#endif
	return fd;
}

/* The processor field (the 39th) of the stat file open at fd, or -1.
 * The second field, the command's name in parentheses, may hold spaces
 * and parentheses of its own: the fields after it are counted from the
 * last ')'. */
static int share_stat_cpu(int fd)
{
	char b[1024], *p;
	ssize_t n = pread(fd, b, sizeof b - 1, 0);
	int field = 2, cpu;

	if (n <= 0)
		return -1;
	b[n] = '\0';
	if ((p = strrchr(b, ')')) == NULL)
		return -1;
	while (*p != '\0' && field < 39) {
		if (*p++ == ' ')
			field++;
	}
	return field == 39 && sscanf(p, "%d", &cpu) == 1 ? cpu : -1;
}

int dmn_share_cpu(dmn_share *s, long pid)
{
	if (pid <= 0) {
		if (s->st_fd >= 0)
			close(s->st_fd);
		s->st_fd = -1;
		return -1;
	}
	if (s->st_fd == -2)
		s->st_fd = share_open_proc(pid, "stat");
	return s->st_fd >= 0 ? share_stat_cpu(s->st_fd) : -1;
}

int dmn_share_own_cpu(void)
{
	static int fd = -2;

	if (fd == -2)
		fd = share_open_proc(0, "stat");
	return fd >= 0 ? share_stat_cpu(fd) : -1;
}

/* Reads the throttled time of pid's cgroup into s->thr_now (finding
 * and opening its cpu.stat the first time); it stays when unreadable. */
static void share_throttled(dmn_share *s, long pid)
{
	char path[1024];
	uint64_t t, periods;
	int first = s->cg_fd == -2;

	if (first)
		s->cg_fd = dmn_cgroup_stat_path(pid, path, sizeof path) == 0
		         ? dmn_cgroup_open(path) : -1;
	if (s->cg_fd < 0 ||
	    dmn_cgroup_throttled(s->cg_fd, &t, &periods) != 0)
		return;
	if (first)
		s->thr = t; /* the base: throttled before it was traced */
	s->thr_now = t < s->thr ? s->thr : t;
	/* nr_periods keeps its count after a quota is lifted: only its
	   growth says that one is enforced (and it stands still while the
	   group is idle: once seen, the flag stays) */
	if (!first && periods > s->periods)
		s->quota = 1;
	s->periods = periods;
}

/* This daemon's processor time at the last sample, 0 none yet: one
 * figure of the process. */
static uint64_t share_last_cpu;

uint64_t dmn_share_daemon_ns(void)
{
	uint64_t cpu = share_own_ns(), d;

	d = share_last_cpu != 0 && cpu > share_last_cpu ? cpu - share_last_cpu
							: 0;
	share_last_cpu = cpu;
	return d;
}

uint64_t dmn_share_read(dmn_share *s, long pid)
{
	uint64_t wait;

	if (pid <= 0)
		dmn_share_close(s); /* it ended */
	else if (s->fd == -2)
		s->fd = share_open_proc(pid, "schedstat");
	if (pid > 0)
		share_throttled(s, pid);
	if (s->fd < 0 || share_stat(s->fd, &wait) != 0) {
		s->now = s->wait;
		return 0;
	}
	s->now = wait;
	if (wait < s->wait)
		s->wait = wait; /* a counter that went back: a new base */
	return wait - s->wait;
}

void dmn_share_begin(dmn_share *s, long pid)
{
	if (pid <= 0)
		return;
	(void)dmn_share_read(s, pid);
	s->wait = s->base = s->now;
}

void dmn_share_start(dmn_share *s, int64_t wait)
{
	uint64_t w = (uint64_t)wait, read = s->wait - s->base;

	if (s->started)
		return;
	s->started = 1;
	if (wait < 0 || w <= s->base)
		return;
	if (w >= s->wait) { /* all read so far was before it */
		s->pre = s->x1;
		s->wait = w;
	} else { /* its part of what was charged */
		s->pre = (uint64_t)((double)s->x1 * (double)(w - s->base) /
		                    (double)read);
	}
}

uint64_t dmn_share_told(dmn_share *s, int64_t wait)
{
	s->now = wait > 0 && (uint64_t)wait > s->wait ? (uint64_t)wait
	                                              : s->wait;
	return s->now - s->wait;
}

double dmn_share_fraction(uint64_t p, uint64_t sum_wait)
{
	if (p == 0 || sum_wait == 0)
		return 0;
	return p >= sum_wait ? 1.0 : (double)p / (double)sum_wait;
}

/* The wait read at this sample, ns. */
static uint64_t share_new_wait(const dmn_share *s)
{
	return s->now > s->wait ? s->now - s->wait : 0;
}

uint64_t dmn_share_free(const dmn_share *s, double f)
{
	double left = (double)share_new_wait(s) * (1.0 - f);
	uint64_t thr = s->thr_now > s->thr ? s->thr_now - s->thr : 0;

	return left > (double)thr ? (uint64_t)(left - (double)thr) : 0;
}

void dmn_share_self(dmn_share *s, uint32_t self_us)
{
	uint32_t d = self_us - s->self_us; /* modulo 2^32 */

	s->self_us = self_us;
	s->self_new += (uint64_t)d * 1000u;
	s->self_all += (uint64_t)d * 1000u;
}

/* Takes from x, the charge of a sample, what the process charged itself
 * since the last one (and what it charged beyond earlier samples'):
 * what is left for the relay to place.  A process that charged itself
 * more keeps the rest as credit against the next samples. */
static uint64_t share_less_self(dmn_share *s, uint64_t x)
{
	uint64_t self = s->self_new + s->credit;

	s->self_new = 0;
	if (self > x) {
		s->credit = self - x;
		return 0;
	}
	s->credit = 0;
	return x - self;
}

double dmn_share_told_frac(const dmn_share *s)
{
	if (s->throttled)
		return 0; /* its long gaps hold its quota's waits */
	return s->w_avg > 0 ? s->x_avg / s->w_avg : -1;
}

/* What its ring says now (ev_share_tell stores it after each sample):
 * dmn_share_told_frac in [0, 1], 0 for none. */
static double share_told_now(const dmn_share *s)
{
	double f = dmn_share_told_frac(s);

	return f < 0 ? 0 : f > 1 ? 1 : f;
}

void dmn_share_hold(dmn_share *s)
{
	s->hold = 1;
}

void dmn_share_charge(dmn_share *s, double f, double g, uint64_t now)
{
	uint64_t w = share_new_wait(s), xd = (uint64_t)((double)w * f);
	uint64_t x = xd + (uint64_t)((double)dmn_share_free(s, f) * g);

	if (x > w)
		x = w;
	s->f_told = share_told_now(s);
	s->frac = w > 0 ? (double)x / (double)w : f;
	s->throttled = s->thr_now > s->thr;
	s->x_avg = s->x_avg * DMN_SHARE_KEEP + (double)x;
	s->w_avg = s->w_avg * DMN_SHARE_KEEP + (double)w;
	x = share_less_self(s, x);
	if (!s->hold || s->t1 == 0) { /* a new interval */
		s->x0 = s->x1;
		s->t0 = s->t1;
		s->xd = 0;
	}
	s->hold = 0;
	s->x1 += x;
	s->last_w = w;
	s->xd += xd < x ? xd : x;
	s->t1 = now;
	s->wait = s->now;
	s->thr = s->thr_now;
	memset(s->plan_w, 0, sizeof s->plan_w);
	memset(s->done_w, 0, sizeof s->done_w);
	memset(s->win, 0, sizeof s->win);
	s->done_x = s->x0;
	s->rate = s->t1 > s->t0 ? (double)(s->x1 - s->x0) /
	                          (double)(s->t1 - s->t0) : 0;
}

void dmn_share_exit(dmn_share *s, int64_t wait, uint64_t t)
{
	if (wait < 0 || s->t1 == 0 || (uint64_t)wait <= s->wait ||
	    t <= s->t1)
		return;
	s->now = (uint64_t)wait;
	dmn_share_charge(s, s->frac, 0, t);
}

/* The room for paravt's share in the gap from an event at pt with Δ pd
 * to one at t with Δ d: the gap less the time its Δ grew in it
 * (paravt's own time, counted already: a wait for a full ring, a stop
 * at a breakpoint, busy probes). */
static uint64_t share_room(uint64_t t, uint64_t d, uint64_t pt,
                           uint64_t pd)
{
	uint64_t g = t > pt ? t - pt : 0, own = d > pd ? d - pd : 0;

	return g > own ? g - own : 0;
}

/* The room of a gap of g ns whose own Δ grew own ns (share_room): where
 * the process looked at its wait in the gap (longer than
 * PVT_RING_STALL_NS, and it had been told a fraction f), no more than
 * the part of the wait it left, own (1 - f) / f. */
static uint64_t share_room_left(const dmn_share *s, uint64_t g,
                                uint64_t own, uint64_t room)
{
	double f = s->f_told, left;

	if (g <= PVT_RING_STALL_NS || f <= 0)
		return room;
	left = (double)own * (1 - f) / f;
	return left < (double)room ? (uint64_t)left : room;
}

/* A weight in a plan: time x beyond DMN_SHARE_GAP_NS. */
static uint64_t share_beyond(uint64_t x)
{
	return x > DMN_SHARE_GAP_NS ? x - DMN_SHARE_GAP_NS : 0;
}

/* The weights by kind (DMN_SHARE_W_*) of the event at t with own Δ d,
 * after one at pt with pd: its room (share_room) beyond
 * DMN_SHARE_GAP_NS, of the part of its gap in the daemon's window
 * (less the growth of its own Δ), and of the rest of its room; 0 when
 * it has none (at once when the gap is that short: nearly every event
 * of a busy process, twice each). */
static inline uint64_t share_weights(const dmn_share *s, uint64_t t,
                                     uint64_t d, uint64_t pt, uint64_t pd,
                                     uint64_t *w)
{
	uint64_t a, b, own, in, room;

	if (t <= pt + DMN_SHARE_GAP_NS) /* the room is no more than that */
		return 0;
	a = pt > s->win[0] ? pt : s->win[0];
	b = t < s->win[1] ? t : s->win[1];
	own = d > pd ? d - pd : 0;
	in = b > a ? b - a : 0;
	room = share_room_left(s, t - pt, own, share_room(t, d, pt, pd));
	w[DMN_SHARE_W_GAP] = share_beyond(room);
	if (w[DMN_SHARE_W_GAP] == 0) /* (the others are less) */
		return 0;
	in = in > own ? in - own : 0;
	in = in < room ? in : room;
	w[DMN_SHARE_W_DAEMON] = share_beyond(in);
	w[DMN_SHARE_W_OUT] = share_beyond(room - in);
	return w[DMN_SHARE_W_GAP];
}

void dmn_share_plan_begin(dmn_share *s, uint64_t d0, uint64_t d1)
{
	memset(s->plan_w, 0, sizeof s->plan_w);
	memset(s->done_w, 0, sizeof s->done_w);
	s->win[0] = d0;
	s->win[1] = d1;
	s->done_x = s->x0;
	s->plan_t = s->last_t;
	s->plan_d = s->last_d;
}

void dmn_share_plan_add(dmn_share *s, uint64_t t, uint64_t d)
{
	uint64_t w[3];
	int k;

	if (s->t1 != 0 && t > s->t0 && t <= s->t1 && s->plan_t != 0 &&
	    t > s->plan_t && share_weights(s, t, d, s->plan_t, s->plan_d, w))
		for (k = 0; k < 3; k++)
			s->plan_w[k] += w[k];
	s->plan_t = t;
	s->plan_d = d;
}

/* Of the part x of the charge weighed by kind k (by its weights, or by
 * the gaps' where no gap has any of its kind), what the events up to
 * one of weights w have: done_w[k] grows by that event's weight. */
static uint64_t share_part(dmn_share *s, int k, uint64_t x,
                           const uint64_t *w)
{
	int by = s->plan_w[k] != 0 ? k : DMN_SHARE_W_GAP;
	uint64_t all = s->plan_w[by], *done = &s->done_w[k];

	*done = w[by] < all - *done ? *done + w[by] : all;
	return (uint64_t)((double)x * ((double)*done / (double)all));
}

/* The share at t in (t0, t1] by the plan, or else in time.  Called for
 * every event the daemon relays: by the plan, the share changes only
 * after a long gap (divisions then), else it is a multiplication. */
static uint64_t share_within(dmn_share *s, uint64_t t, uint64_t d)
{
	uint64_t w[3];

	if (s->x1 == s->x0)
		return s->x0;
	if (s->plan_w[DMN_SHARE_W_GAP] == 0)
		return s->x0 + (uint64_t)(s->rate * (double)(t - s->t0));
	if (s->last_t == 0 || t <= s->last_t ||
	    !share_weights(s, t, d, s->last_t, s->last_d, w))
		return s->done_x;
	s->done_x = s->x0 +
	            share_part(s, DMN_SHARE_W_DAEMON, s->xd, w) +
	            share_part(s, DMN_SHARE_W_OUT, s->x1 - s->x0 - s->xd, w);
	return s->done_x;
}

uint64_t dmn_share_at(dmn_share *s, uint64_t t, uint64_t d)
{
	uint64_t x, room;

	if (s->t1 == 0 || t > s->t1)
		x = s->x1;
	else if (t <= s->t0 || s->t1 <= s->t0)
		x = s->x0;
	else
		x = share_within(s, t, d);
	x = x > s->pre + s->over ? x - s->pre - s->over : 0;
	if (x < s->given)
		x = s->given;
	if (s->last_t != 0 &&
	    x - s->given > (room = share_room(t, d, s->last_t, s->last_d))) {
		s->over += x - s->given - room; /* it would go back in time */
		x = s->given + room;
	}
	s->given = x;
	s->last_t = t;
	s->last_d = d;
	return x;
}
