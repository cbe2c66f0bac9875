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
 * Table entries (BP_TABLE's bps): [id, file, line, flags, ignore].
 * Ignore counts are kept per process.  Not thread-safe, like the rest of
 * the runtime.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bp_live.h"
#include "paravt_rt.h"
#include "pvt_ctl.h"
#include "rt_core.h"
#include "wire_fmt.h"
#include "wire_msg.h"

/* How long the task waits for its table (then it goes on without). */
#define BL_TABLE_NS (10ull * 1000000000ull)

/* One live breakpoint. */
typedef struct bl_ent {
	uint32_t id;     /* the console's breakpoint number */
	char *file;      /* source file as the instrumenter wrote it */
	int line;        /* line */
	uint32_t flags;  /* PVT_BPF_* */
	uint64_t ignore; /* passes still to ignore in this process */
} bl_ent;

static volatile uint32_t bl_zero;               /* armed while unattached */
volatile uint32_t *pvt__armp = &bl_zero;        /* paravt_rt.h */

static struct {
	pvt_ctl *ctl;        /* the mapped page, or NULL */
	bl_ent *ent;         /* the table (owned) */
	size_t n, cap;       /* entries used, allocated */
	uint32_t gen;        /* its generation */
	int step;            /* PVT_STEP_* in force, 0 none */
	uint32_t step_depth; /* stack depth at the stop it started from */
	int step_line;       /* line of that stop */
	uint32_t why;        /* breakpoint of the pending stop, 0 none */
} bl;

/* Frees the table's entries. */
static void bl_clear(void)
{
	size_t i;

	for (i = 0; i < bl.n; i++)
		free(bl.ent[i].file);
	bl.n = 0;
}

/* Sets or clears the task's byte of the armed word. */
static void bl_task_armed(int on)
{
	if (bl.ctl != NULL)
		bl.ctl->armed.b[PVT_CTL_BY_TASK] = on ? 1 : 0;
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
	return 0;
}

/* Adds one entry [id, file, line, flags, ignore] of BP_TABLE.  0, or -1
 * (malformed or out of memory). */
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
 * (counting this pass), or 0. */
static uint32_t bl_match(const char *file, int line)
{
	bl_ent *e;
	size_t i;

	for (i = 0; i < bl.n; i++) {
		e = &bl.ent[i];
		if (e->line != line || !(e->flags & PVT_BPF_ENABLED) ||
		    strcmp(e->file, file) != 0)
			continue;
		if (e->ignore > 0) {
			e->ignore--;
			continue;
		}
		return e->id;
	}
	return 0;
}

/* The line probe (paravt_rt.h). */
int para_vt_line(pvt_unit *unit, const char *file, int line)
{
	pvt_ctl *c = bl.ctl;
	uint32_t id;

	(void)unit;
	if (c == NULL || pvt__rt_peer() == NULL)
		return 0;
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
	id = bl_match(file, line);
	bl.why = id;
	return id != 0;
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
	bl_task_armed(0);
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
