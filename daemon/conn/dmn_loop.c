/*
 * dmn_loop.c — poll(2)-based event loop (dmn_loop.h).
 *
 * Layout: an array of fd slots and an array of timer slots, each doubled
 * when full (the sizes given to dmn_loop_new are where they start).  Each
 * round builds a pollfd array from the live slots, remembering each slot's
 * generation; a slot removed or reused by a callback during the round has a
 * new generation and is skipped, so callbacks can close anything safely.
 * The poll timeout is the time to the nearest timer.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "dmn_loop.h"
#include "wire_msg.h"

typedef struct dmn_fd_slot {
	int fd;                  /* descriptor, -1 when the slot is free */
	unsigned gen;            /* bumped on every add and del */
	short events;            /* POLLIN/POLLOUT interest */
	const dmn_io_ops *ops;   /* callbacks; borrowed */
	void *ctx;               /* passed to the callbacks */
} dmn_fd_slot;

typedef struct dmn_timer {
	long id;          /* > 0 while armed, 0 when free */
	uint64_t due_ns;  /* wire_now_ns() deadline */
	dmn_timer_fn fn;  /* callback */
	void *ctx;        /* passed to fn */
} dmn_timer;

struct dmn_loop {
	dmn_fd_slot *fds;      /* max_fds slots */
	int max_fds;           /* capacity of fds */
	dmn_timer *timers;     /* max_timers slots */
	int max_timers;        /* capacity of timers */
	long next_id;          /* last timer id handed out */
	struct pollfd *pfds;   /* scratch array for poll, max_fds entries */
	int *slot_of;          /* pfds index -> fds index */
	unsigned *gen_of;      /* pfds index -> generation at build time */
	int stop;              /* set by dmn_loop_stop */
};

dmn_loop *dmn_loop_new(int max_fds, int max_timers)
{
	dmn_loop *l = calloc(1, sizeof *l);
	int i;

	if (l == NULL)
		return NULL;
	l->max_fds = max_fds;
	l->max_timers = max_timers;
	l->fds = calloc((size_t)max_fds, sizeof *l->fds);
	l->timers = calloc((size_t)max_timers, sizeof *l->timers);
	l->pfds = calloc((size_t)max_fds, sizeof *l->pfds);
	l->slot_of = calloc((size_t)max_fds, sizeof *l->slot_of);
	l->gen_of = calloc((size_t)max_fds, sizeof *l->gen_of);
	if (l->fds == NULL || l->timers == NULL || l->pfds == NULL ||
	    l->slot_of == NULL || l->gen_of == NULL)
		goto out_free;
	for (i = 0; i < max_fds; i++)
		l->fds[i].fd = -1;
	return l;
out_free:
	dmn_loop_free(l);
	return NULL;
}

void dmn_loop_free(dmn_loop *l)
{
	if (l == NULL)
		return;
	free(l->fds);
	free(l->timers);
	free(l->pfds);
	free(l->slot_of);
	free(l->gen_of);
	free(l);
}

/* The slot watching fd, or NULL. */
static dmn_fd_slot *dmn_loop_find(dmn_loop *l, int fd)
{
	int i;

	for (i = 0; i < l->max_fds; i++)
		if (l->fds[i].fd == fd && fd >= 0)
			return &l->fds[i];
	return NULL;
}

/* Doubles the fd arrays (slots and the per-round scratch; indices stay
 * valid, so a round in progress goes on).  0 or -1 out of memory. */
static int dmn_loop_grow_fds(dmn_loop *l)
{
	int i, cap = l->max_fds * 2;
	dmn_fd_slot *f;
	struct pollfd *pf;
	int *so;
	unsigned *go;

	if ((f = realloc(l->fds, (size_t)cap * sizeof *f)) == NULL)
		return -1;
	l->fds = f;
	if ((pf = realloc(l->pfds, (size_t)cap * sizeof *pf)) == NULL)
		return -1;
	l->pfds = pf;
	if ((so = realloc(l->slot_of, (size_t)cap * sizeof *so)) == NULL)
		return -1;
	l->slot_of = so;
	if ((go = realloc(l->gen_of, (size_t)cap * sizeof *go)) == NULL)
		return -1;
	l->gen_of = go;
	for (i = l->max_fds; i < cap; i++) {
		memset(&l->fds[i], 0, sizeof l->fds[i]);
		l->fds[i].fd = -1;
	}
	l->max_fds = cap;
	return 0;
}

/* A free fd slot (the arrays grow when full), or NULL out of memory. */
static dmn_fd_slot *dmn_loop_free_slot(dmn_loop *l)
{
	int i;

	for (i = 0; i < l->max_fds; i++)
		if (l->fds[i].fd < 0)
			return &l->fds[i];
	if (dmn_loop_grow_fds(l) != 0)
		return NULL;
	return &l->fds[i];
}

int dmn_loop_add(dmn_loop *l, int fd, const dmn_io_ops *ops, void *ctx,
		 int read)
{
	dmn_fd_slot *s;

	if (fd < 0 || dmn_loop_find(l, fd) != NULL)
		return -1;
	s = dmn_loop_free_slot(l);
	if (s == NULL)
		return -1;
	s->fd = fd;
	s->gen++;
	s->events = read ? POLLIN : 0;
	s->ops = ops;
	s->ctx = ctx;
	return 0;
}

/* Sets or clears one interest bit of fd. */
static void dmn_loop_interest(dmn_loop *l, int fd, short bit, int on)
{
	dmn_fd_slot *s = dmn_loop_find(l, fd);

	if (s == NULL)
		return;
	if (on)
		s->events |= bit;
	else
		s->events &= (short)~bit;
}

void dmn_loop_want_read(dmn_loop *l, int fd, int on)
{
	dmn_loop_interest(l, fd, POLLIN, on);
}

void dmn_loop_want_write(dmn_loop *l, int fd, int on)
{
	dmn_loop_interest(l, fd, POLLOUT, on);
}

void dmn_loop_del(dmn_loop *l, int fd)
{
	dmn_fd_slot *s = dmn_loop_find(l, fd);

	if (s == NULL)
		return;
	s->fd = -1;
	s->gen++;
	s->ops = NULL;
	s->ctx = NULL;
}

/* Doubles the timer array.  0 or -1 out of memory. */
static int dmn_loop_grow_timers(dmn_loop *l)
{
	int cap = l->max_timers * 2;
	dmn_timer *t = realloc(l->timers, (size_t)cap * sizeof *t);

	if (t == NULL)
		return -1;
	memset(t + l->max_timers, 0, (size_t)(cap - l->max_timers) * sizeof *t);
	l->timers = t;
	l->max_timers = cap;
	return 0;
}

long dmn_timer_add(dmn_loop *l, unsigned ms, dmn_timer_fn fn, void *ctx)
{
	int i;

	for (i = 0; i < l->max_timers; i++)
		if (l->timers[i].id == 0)
			break;
	if (i == l->max_timers && dmn_loop_grow_timers(l) != 0)
		return -1;
	l->timers[i].id = ++l->next_id;
	l->timers[i].due_ns = wire_now_ns() + (uint64_t)ms * 1000000u;
	l->timers[i].fn = fn;
	l->timers[i].ctx = ctx;
	return l->timers[i].id;
}

void dmn_timer_del(dmn_loop *l, long id)
{
	int i;

	for (i = 0; i < l->max_timers && id > 0; i++)
		if (l->timers[i].id == id)
			l->timers[i].id = 0;
}

void dmn_loop_stop(dmn_loop *l)
{
	l->stop = 1;
}

/* Milliseconds until the nearest timer (-1: none, wait forever). */
static int dmn_loop_timeout(dmn_loop *l)
{
	uint64_t now = wire_now_ns(), best = UINT64_MAX;
	int i;

	for (i = 0; i < l->max_timers; i++)
		if (l->timers[i].id != 0 && l->timers[i].due_ns < best)
			best = l->timers[i].due_ns;
	if (best == UINT64_MAX)
		return -1;
	if (best <= now)
		return 0;
	if (best - now > 3600000000000ull)
		return 3600000;
	return (int)((best - now + 999999) / 1000000);
}

/* Fires every timer that is due; each is disarmed before its callback. */
static void dmn_loop_fire_timers(dmn_loop *l)
{
	uint64_t now = wire_now_ns();
	dmn_timer t;
	int i;

	for (i = 0; i < l->max_timers; i++) {
		if (l->timers[i].id == 0 || l->timers[i].due_ns > now)
			continue;
		t = l->timers[i];
		l->timers[i].id = 0;
		t.fn(l, t.id, t.ctx);
	}
}

/* Fills l->pfds from the live slots; returns how many. */
static int dmn_loop_build(dmn_loop *l)
{
	int i, n = 0;

	for (i = 0; i < l->max_fds; i++) {
		if (l->fds[i].fd < 0)
			continue;
		l->pfds[n].fd = l->fds[i].fd;
		l->pfds[n].events = l->fds[i].events;
		l->pfds[n].revents = 0;
		l->slot_of[n] = i;
		l->gen_of[n] = l->fds[i].gen;
		n++;
	}
	return n;
}

/* Calls the callbacks for pfds entry k, unless its slot changed since the
 * round began (then the event belongs to a descriptor that is gone). */
static void dmn_loop_dispatch(dmn_loop *l, int k)
{
	dmn_fd_slot *s = &l->fds[l->slot_of[k]];
	short re = l->pfds[k].revents;
	int fd = l->pfds[k].fd;

	if (re == 0 || s->gen != l->gen_of[k])
		return;
	if (re & (POLLERR | POLLNVAL)) {
		s->ops->on_error(l, fd, s->ctx);
		return;
	}
	if (re & (POLLIN | POLLHUP)) {
		if (s->ops->on_read != NULL && (s->events & POLLIN))
			s->ops->on_read(l, fd, s->ctx);
		else if (s->ops->on_error != NULL && (re & POLLHUP))
			s->ops->on_error(l, fd, s->ctx);
	}
	s = &l->fds[l->slot_of[k]]; /* a callback may have grown the array */
	if ((re & POLLOUT) && s->gen == l->gen_of[k] &&
	    s->ops->on_write != NULL)
		s->ops->on_write(l, fd, s->ctx);
}

int dmn_loop_run(dmn_loop *l)
{
	int n, k, r;

	l->stop = 0;
	while (!l->stop) {
		n = dmn_loop_build(l);
		r = poll(l->pfds, (nfds_t)n, dmn_loop_timeout(l));
		if (r < 0 && errno != EINTR)
			return -1;
		for (k = 0; r > 0 && k < n && !l->stop; k++)
			dmn_loop_dispatch(l, k);
		if (!l->stop)
			dmn_loop_fire_timers(l);
	}
	return 0;
}
