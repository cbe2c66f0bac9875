/*
 * bp_live.c — live breakpoints and stepping in the task: the control page
 * (wrappers/pvt_ctl.h), the line probe para_vt_line (paravt_rt.h), the
 * task's copy of its session's breakpoint table, and the step state.
 *
 * At start-up an attached task makes its control page and names it to
 * the daemon (CTL_PAGE); pvt__armp then points at the page's `armed`
 * word instead of the runtime's zero word.  A probe calls para_vt_line
 * only while that word is not zero; para_vt_line answers whether the
 * task stops before this statement:
 *   - the daemon asked for a stop (`stop` moved): an interrupt;
 *   - the task is stepping and this statement ends the step (step: any;
 *     next: at the depth of the stop or outer; finish: outer; until: as
 *     next, but at the same depth only past the stop's line);
 *   - an enabled breakpoint of the table is at (file, line) and its
 *     ignore count is used up.
 * A new table generation is fetched first (BP_TABLE_GET -> BP_TABLE,
 * served like a stop: the only message the task waits for then).  The
 * stop itself is para_vt_break(unit, PVT_BP_LIVE, ...), which reports
 * the breakpoint bp_live_reason() names (0 for an interrupt or a step).
 *
 * Table entries (BP_TABLE's bps): [id, file, line, flags, ignore] and,
 * for a condition the console could compile, its code (bp_code.h): the
 * stop is then decided in para_vt_break, which has the site's variables,
 * by running it (bp_cond.c); a false condition costs no message.
 * Ignore counts are kept per process, and count passes where the
 * condition holds.
 *
 * Watchpoints (WATCH at a stop: an object and whether it is a local of
 * the current frame) keep a copy of the object's bytes; while there is
 * one, every statement compares them (the task's byte of `armed` stays
 * on) and a difference stops the process, after a WATCH_HIT that names
 * the line executed before (the one that changed it); a local's
 * watchpoint ends, with a stop, when its frame returns.  A watchpoint
 * whose id the table no longer lists is dropped at the next refresh.
 * Not thread-safe, like the rest of the runtime.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bp_cond.h"
#include "bp_live.h"
#include "paravt_rt.h"
#include "pvt_ctl.h"
#include "rt_core.h"
#include "wire_fmt.h"
#include "wire_msg.h"

/* How long the task waits for its table (then it goes on without). */
#define BL_TABLE_NS (10ull * 1000000000ull)

/* How long it waits at start for the daemon to map its page. */
#define BL_ATTACH_NS (2ull * 1000000000ull)

/* One live breakpoint. */
typedef struct bl_ent {
	uint32_t id;     /* the console's breakpoint number */
	char *file;      /* source file as the instrumenter wrote it */
	int line;        /* line */
	uint32_t flags;  /* PVT_BPF_* */
	uint64_t ignore; /* passes still to ignore in this process */
	bp_cond *cond;   /* its condition, run here (owned), or NULL: the
			    console decides at each stop */
} bl_ent;

static volatile uint32_t bl_zero;               /* armed while unattached */
volatile uint32_t *pvt__armp = &bl_zero;        /* paravt_rt.h */

/* One watchpoint. */
typedef struct bl_watch {
	uint32_t id;         /* the console's breakpoint number */
	unsigned char *addr; /* the object */
	size_t size;         /* its bytes */
	unsigned char *old;  /* their copy (owned) */
	uint32_t depth;      /* frame depth it lives in, 0 for a global */
} bl_watch;

static struct {
	pvt_ctl *ctl;        /* the mapped page, or NULL */
	bl_watch *w;         /* watchpoints (owned) */
	size_t nw, capw;     /* used, allocated */
	int prev_line;       /* line of the statement before this one */
	uint32_t why_watch;  /* the stop is a watchpoint's: PVT_WATCH_* */
	int why_at;          /* ... and the line that changed it */
	bl_ent *ent;         /* the table (owned) */
	size_t n, cap;       /* entries used, allocated */
	uint32_t gen;        /* its generation */
	int step;            /* PVT_STEP_* in force, 0 none */
	uint32_t step_depth; /* stack depth at the stop it started from */
	int step_line;       /* line of that stop */
	uint32_t why;        /* breakpoint of the pending stop, 0 none */
	bl_ent *pending;     /* its entry when a condition decides it */
	const pvt_unit *after_unit; /* a probe's stop just ended here */
	int after_line;      /* ... at this line */
	uint32_t after_depth; /* ... at this stack depth */
} bl;

/* Frees the table's entries. */
static void bl_clear(void)
{
	size_t i;

	for (i = 0; i < bl.n; i++) {
		free(bl.ent[i].file);
		bp_cond_free(bl.ent[i].cond);
	}
	bl.n = 0;
	bl.pending = NULL;
}

/* Sets or clears the task's byte of the armed word (on while stepping
 * or watching). */
static void bl_task_armed(int on)
{
	if (bl.ctl != NULL)
		bl.ctl->armed.b[PVT_CTL_BY_TASK] =
		    (on || bl.nw > 0) ? 1 : 0;
}

/* Drops watchpoint k. */
static void bl_watch_drop(size_t k)
{
	free(bl.w[k].old);
	bl.w[k] = bl.w[--bl.nw];
}

/* True if the table lists id as a watchpoint. */
static int bl_watch_listed(uint32_t id)
{
	size_t i;

	for (i = 0; i < bl.n; i++)
		if (bl.ent[i].id == id && (bl.ent[i].flags & PVT_BPF_WATCH))
			return 1;
	return 0;
}

/* Makes the page file next to the daemon's socket, maps it and fills
 * its header.  The path goes into path.  The mapping, or NULL. */
static pvt_ctl *bl_page_make(char *path, size_t n)
{
	const char *sock = getenv("PARAVT_SOCK"), *slash;
	pvt_ctl *c;
	void *m;
	int fd;

	if (sock == NULL || (slash = strrchr(sock, '/')) == NULL ||
	    snprintf(path, n, "%.*s/ctl-%ld", (int)(slash - sock), sock,
	             (long)getpid()) >= (int)n)
		return NULL;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, PVT_CTL_SIZE) != 0 ||
	    (m = mmap(NULL, PVT_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
	              fd, 0)) == MAP_FAILED) {
		(void)close(fd);
		(void)unlink(path);
		return NULL;
	}
	(void)close(fd);
	c = m;
	memset(c, 0, sizeof *c);
	c->magic = PVT_CTL_MAGIC;
	c->version = PVT_CTL_VERSION;
	c->size = PVT_CTL_SIZE;
	return c;
}

/* Waits (BL_ATTACH_NS at most) until the daemon has mapped page c and
 * set its byte of `armed` (it writes `attached` last): breakpoints set
 * before the run are then armed before main's first statement, and a
 * loop that has a probe-free copy (entered once, armed or not) sees
 * them.  A busy daemon only delays the arming. */
static void bl_wait_attached(const pvt_ctl *c)
{
	uint64_t end = wire_now_ns() + BL_ATTACH_NS;
	struct timespec ts = {0, 20000};

	while (!c->attached && wire_now_ns() < end)
		(void)nanosleep(&ts, NULL);
}

/* pthread_atfork: a child of fork() has its parent's page mapped; it
 * must not take its stops, and its probes go back to the zero word. */
static void bl_atfork_child(void)
{
	pvt__armp = &bl_zero;
	bl.ctl = NULL;
}

/* See bp_live.h. */
int pvt__bl_start(void)
{
	wire_peer *p = pvt__rt_peer();
	char path[512];
	pvt_ctl *c;

	if (p == NULL || !pvt__rt_daemon_can("ctl1"))
		return -1;
	if ((c = bl_page_make(path, sizeof path)) == NULL)
		return -1;
	if (wire_pack(wire_peer_out(p), WIRE_CTL_PAGE, wire_peer_seq(p),
	              p->max_frame, pvt__rt_proc(), path) != 0 ||
	    pvt__rt_push() != 0) {
		(void)unlink(path);
		(void)munmap((void *)c, PVT_CTL_SIZE);
		return -1;
	}
	bl.ctl = c;
	pvt__armp = &c->armed.word;
	(void)pthread_atfork(NULL, NULL, bl_atfork_child);
	bl_wait_attached(c);
	return 0;
}

/* Adds one entry [id, file, line, flags, ignore, (code)] of BP_TABLE.
 * 0, or -1 (malformed or out of memory).  Code the task cannot take is
 * left to the console (the entry stops, and the console decides). */
static int bl_add(const msgpack_object *o)
{
	const msgpack_object *f;
	bl_ent *e;

	if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 5)
		return -1;
	f = o->via.array.ptr;
	if (f[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    f[1].type != MSGPACK_OBJECT_STR ||
	    f[2].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    f[3].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    f[4].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    f[2].via.u64 > 0x7fffffff)
		return -1;
	if (bl.n == bl.cap) {
		size_t cap = bl.cap ? 2 * bl.cap : 16;
		bl_ent *ne = realloc(bl.ent, cap * sizeof *ne);

		if (ne == NULL)
			return -1;
		bl.ent = ne;
		bl.cap = cap;
	}
	e = &bl.ent[bl.n];
	e->file = malloc(f[1].via.str.size + 1);
	if (e->file == NULL)
		return -1;
	memcpy(e->file, f[1].via.str.ptr, f[1].via.str.size);
	e->file[f[1].via.str.size] = '\0';
	e->id = (uint32_t)f[0].via.u64;
	e->line = (int)f[2].via.u64;
	e->flags = (uint32_t)f[3].via.u64;
	e->ignore = f[4].via.u64;
	e->cond = o->via.array.size > 5 ? bp_cond_decode(&f[5]) : NULL;
	bl.n++;
	return 0;
}

/* Takes BP_TABLE m as the task's table.  0, or a WIRE_E* code. */
static int bl_take(const wire_msg *m)
{
	const msgpack_object *bps;
	uint64_t proc, gen;
	char err[160];
	uint32_t i;

	if (wire_unpack(m, err, sizeof err, &proc, &gen, &bps) != 0 ||
	    proc != pvt__rt_proc() || bps->type != MSGPACK_OBJECT_ARRAY)
		return WIRE_EMALFORMED;
	bl_clear();
	for (i = 0; i < bps->via.array.size; i++)
		if (bl_add(&bps->via.array.ptr[i]) != 0)
			return WIRE_EMALFORMED;
	bl.gen = (uint32_t)gen;
	for (i = bl.nw; i-- > 0;)
		if (!bl_watch_listed(bl.w[i].id))
			bl_watch_drop(i);
	bl_task_armed(bl.step != 0);
	return 0;
}

/* Asks for the table and waits for it.  On failure the task goes on
 * with no live breakpoints until the next generation. */
static void bl_refresh(void)
{
	wire_peer *p = pvt__rt_peer();
	uint32_t want = bl.ctl->gen;
	wire_msg m;
	int rc;

	bl.gen = want; /* not asked again for this one, whatever happens */
	bl.ctl->gen_read = want;
	if (p == NULL)
		return;
	if (wire_pack(wire_peer_out(p), WIRE_BP_TABLE_GET, wire_peer_seq(p),
	              p->max_frame, pvt__rt_proc()) != 0 ||
	    pvt__rt_push() != 0)
		return;
	for (;;) {
		rc = wire_peer_wait(p, &m, wire_now_ns() + BL_TABLE_NS);
		if (rc < 0) {
			pvt__rt_detach("no breakpoint table from the daemon");
			return;
		}
		if (m.type == WIRE_BP_TABLE)
			break;
		if (pvt__bp_handle(&m) < 0)
			return;
	}
	if (bl_take(&m) != 0) {
		bl_clear();
		(void)wire_peer_send_error(p, WIRE_EMALFORMED, m.seq,
		                           "malformed BP_TABLE");
		(void)pvt__rt_push();
	}
}

/* True if the step in force ends at this statement. */
static int bl_step_ends(int line)
{
	uint32_t d = pvt__rt_stack_depth();

	switch (bl.step) {
	case PVT_STEP_STEP:
		return 1;
	case PVT_STEP_NEXT:
		return d <= bl.step_depth;
	case PVT_STEP_FINISH:
		return d < bl.step_depth;
	case PVT_STEP_UNTIL:
		return d < bl.step_depth ||
		       (d == bl.step_depth && line > bl.step_line);
	default:
		return 0;
	}
}

/* The enabled breakpoint at (file, line) whose ignore count is used up
 * (counting this pass), or 0.  A breakpoint with a condition the task
 * runs is pending: para_vt_break decides (pvt__bl_decide). */
static uint32_t bl_match(const char *file, int line)
{
	bl_ent *e;
	size_t i;

	for (i = 0; i < bl.n; i++) {
		e = &bl.ent[i];
		if (e->line != line || !(e->flags & PVT_BPF_ENABLED) ||
		    (e->flags & PVT_BPF_WATCH) || strcmp(e->file, file) != 0)
			continue;
		if (e->cond != NULL) {
			bl.pending = e;
			return e->id;
		}
		if (e->ignore > 0) {
			e->ignore--;
			continue;
		}
		return e->id;
	}
	return 0;
}

/* The watchpoint that stops the task here (why_watch and why_at set),
 * or 0. */
static uint32_t bl_watch_check(void)
{
	uint32_t d = pvt__rt_stack_depth(), id;
	size_t i;

	for (i = 0; i < bl.nw; i++) {
		bl_watch *w = &bl.w[i];

		if (w->depth != 0 && d < w->depth) {
			bl.why_watch = PVT_WATCH_GONE;
			id = w->id;
			bl_watch_drop(i);
			return id;
		}
		if (memcmp(w->addr, w->old, w->size) != 0) {
			memcpy(w->old, w->addr, w->size);
			bl.why_watch = PVT_WATCH_CHANGED;
			bl.why_at = bl.prev_line;
			return w->id;
		}
	}
	return 0;
}

/* The line probe (paravt_rt.h). */
int para_vt_line(pvt_unit *unit, const char *file, int line)
{
	pvt_ctl *c = bl.ctl;
	uint32_t id;

	(void)unit;
	bl.after_unit = NULL; /* a statement later than that stop */
	if (c == NULL || pvt__rt_peer() == NULL)
		return 0;
	if (bl.nw > 0 && (id = bl_watch_check()) != 0) {
		bl.why = id;
		bl.prev_line = line;
		return 1;
	}
	bl.prev_line = line;
	if (c->stop != c->stop_seen) {
		c->stop_seen = c->stop;
		bl.why = 0;
		return 1;
	}
	if (c->gen != bl.gen)
		bl_refresh();
	if (bl.step != 0 && bl_step_ends(line)) {
		bl.why = 0;
		return 1;
	}
	bl.pending = NULL;
	id = bl_match(file, line);
	bl.why = id;
	return id != 0;
}

/* See bp_live.h. */
int pvt__bl_decide(const pvt_unit *unit, const pvt_var *vars, uint32_t nvars)
{
	bl_ent *e = bl.pending;
	int r;

	bl.pending = NULL;
	if (e == NULL)
		return 1;
	r = bp_cond_run(e->cond, unit->table, vars, nvars);
	if (r == 0)
		return 0;
	if (r > 0 && e->ignore > 0) {
		e->ignore--;
		return 0;
	}
	return 1; /* it holds, or the console says why it cannot be run */
}

/* See bp_live.h. */
void pvt__bl_resumed(const pvt_unit *unit, int line)
{
	bl.after_unit = unit;
	bl.after_line = line;
	bl.after_depth = pvt__rt_stack_depth();
}

/* See bp_live.h. */
int pvt__bl_just_stopped_at(const pvt_unit *unit, int line)
{
	int same = bl.after_unit != NULL && bl.after_unit == unit &&
		   bl.after_line == line &&
		   bl.after_depth == pvt__rt_stack_depth();

	bl.after_unit = NULL;
	return same;
}

/* See bp_live.h. */
uint32_t pvt__bl_reason(void)
{
	return bl.why;
}

/* See bp_live.h. */
void pvt__bl_stopped(int line)
{
	bl.step = 0;
	bl.step_line = line;
	bl.step_depth = pvt__rt_stack_depth();
	bl_task_armed(0); /* stays on while there are watchpoints */
}

/* See bp_live.h. */
int pvt__bl_step(int mode)
{
	if (mode < PVT_STEP_STEP || mode > PVT_STEP_UNTIL || bl.ctl == NULL)
		return -1;
	bl.step = mode;
	bl_task_armed(1);
	return 0;
}

/* See bp_live.h. */
int pvt__bl_watch(uint32_t id, void *addr, size_t size, int local)
{
	bl_watch *nw;
	size_t i;

	if (bl.ctl == NULL || size == 0)
		return -1;
	for (i = 0; i < bl.nw; i++)
		if (bl.w[i].id == id)
			break;
	if (i == bl.nw) {
		if (bl.nw == bl.capw) {
			size_t cap = bl.capw ? 2 * bl.capw : 4;

			nw = realloc(bl.w, cap * sizeof *nw);
			if (nw == NULL)
				return -1;
			bl.w = nw;
			bl.capw = cap;
		}
		memset(&bl.w[i], 0, sizeof bl.w[i]);
		bl.nw++;
	}
	free(bl.w[i].old);
	bl.w[i].old = malloc(size);
	if (bl.w[i].old == NULL) {
		bl_watch_drop(i);
		return -1;
	}
	memcpy(bl.w[i].old, addr, size);
	bl.w[i].id = id;
	bl.w[i].addr = addr;
	bl.w[i].size = size;
	bl.w[i].depth = local ? pvt__rt_stack_depth() : 0;
	bl_task_armed(bl.step != 0);
	return 0;
}

/* See bp_live.h. */
uint32_t pvt__bl_watch_why(int *at)
{
	uint32_t w = bl.why_watch;

	*at = bl.why_at;
	bl.why_watch = 0;
	bl.why_at = 0;
	return w;
}
