/*
 * dmn_loop.h — the daemon's one event loop (STYLE rule 11).
 *
 * A small poll(2) loop in the style of Redis' ae: file descriptors are
 * registered with three callbacks (readable, writable, EOF/error) and one
 * context pointer; write interest is switched on only while the owner has
 * output queued; one-shot timers fire on the monotonic clock.  Callbacks
 * may add or remove descriptors and timers, including their own.
 * Capacity is fixed when the loop is made, so nothing grows with input.
 */
#ifndef PARAVT_DMN_LOOP_H
#define PARAVT_DMN_LOOP_H

#include <stdint.h>

typedef struct dmn_loop dmn_loop;

/* Called when fd is readable, writable, or has failed/hung up. */
typedef void (*dmn_io_fn)(dmn_loop *l, int fd, void *ctx);
/* Called once when a timer expires; the timer is already gone. */
typedef void (*dmn_timer_fn)(dmn_loop *l, long id, void *ctx);

typedef struct dmn_io_ops {
	dmn_io_fn on_read;  /* fd readable (also at EOF: read returns 0) */
	dmn_io_fn on_write; /* fd writable and write interest is on */
	dmn_io_fn on_error; /* POLLERR/POLLNVAL, or hang-up with no data */
} dmn_io_ops;

/* Makes a loop with room for max_fds descriptors and max_timers timers
 * to start with (both grow when full).  NULL when out of memory.  Free with dmn_loop_free. */
dmn_loop *dmn_loop_new(int max_fds, int max_timers);
/* Frees the loop (not the descriptors); NULL is a no-op. */
void dmn_loop_free(dmn_loop *l);

/* Watches fd for reading (read != 0) with ops (borrowed; must outlive the
 * registration) and ctx.  0, or -1 out of memory or when fd is there. */
int dmn_loop_add(dmn_loop *l, int fd, const dmn_io_ops *ops, void *ctx,
		 int read);
/* Turns read or write interest of a registered fd on or off. */
void dmn_loop_want_read(dmn_loop *l, int fd, int on);
void dmn_loop_want_write(dmn_loop *l, int fd, int on);
/* Forgets fd (does not close it).  Unknown fds are ignored. */
void dmn_loop_del(dmn_loop *l, int fd);

/* Starts a one-shot timer of ms milliseconds.  Returns its id (> 0), or
 * -1 out of memory. */
long dmn_timer_add(dmn_loop *l, unsigned ms, dmn_timer_fn fn, void *ctx);
/* Cancels a timer; ids that already fired or are <= 0 are ignored. */
void dmn_timer_del(dmn_loop *l, long id);

/* Runs until dmn_loop_stop.  0, or -1 if poll failed (errno set). */
int dmn_loop_run(dmn_loop *l);
/* Makes dmn_loop_run return after the current round. */
void dmn_loop_stop(dmn_loop *l);

#endif
