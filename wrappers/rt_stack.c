/*
 * rt_stack.c — the shadow call stack of an instrumented task (rt_core.h).
 *
 * para_vt_fn_enter / para_vt_fn_exit are the function entry and exit
 * templates; they run on every call of the user's program, so they only
 * store three words into a fixed array: no allocation, no lock, no system
 * call.  PVT_RT_STACK_MAX frames are stored; deeper calls are counted so
 * that the stack is right again when they return.  Breakpoints update the
 * line of the innermost frame.  "The last known location" (reported when
 * the task crashes) is the innermost frame after an entry or exit, or the
 * breakpoint the task passed last.
 *
 * An exit that does not match the innermost frame (a longjmp skipped some
 * exits) pops down to the frame of that function if it is on the stack,
 * and is ignored otherwise.  The stack is maintained even when the task
 * is not attached to a daemon: it costs the same few stores.
 */
#include <string.h>

#include "paravt_rt.h"
#include "rt_core.h"
#include "rt_event.h"

/* The stack: stored frames, the true depth, the last known location. */
static struct {
	pvt__rt_loc frame[PVT_RT_STACK_MAX]; /* frame[0] is the outermost */
	uint32_t depth;                      /* calls active (may exceed MAX) */
	pvt__rt_loc last;                    /* last known location */
} rt_stk;

/* True if the two function names are the same (generated literals are
 * usually the same pointer). */
static int rt_same_func(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Function entry template (paravt_rt.h). */
void para_vt_fn_enter(const char *func, const char *file, int line)
{
	pvt__rt_loc here;

	here.func = func;
	here.file = file;
	here.line = line;
	if (rt_stk.depth < PVT_RT_STACK_MAX)
		rt_stk.frame[rt_stk.depth] = here;
	if (rt_stk.depth < UINT32_MAX)
		rt_stk.depth++;
	rt_stk.last = here;
	if (pvt__ev_fnmode)
		pvt__ev_fn(PVT_EV_FN_ENTER, func, file, line);
}

/* New depth after an exit from func at the stored depth d (d <= MAX):
 * the index of the innermost frame of func, or d if there is none. */
static uint32_t rt_exit_depth(uint32_t d, const char *func)
{
	uint32_t i = d;

	while (i > 0) {
		i--;
		if (rt_same_func(rt_stk.frame[i].func, func))
			return i;
	}
	return d;
}

/* Function exit template (paravt_rt.h). */
void para_vt_fn_exit(const char *func, const char *file, int line)
{
	uint32_t d = rt_stk.depth;

	if (pvt__ev_fnmode)
		pvt__ev_fn(PVT_EV_FN_EXIT, func, file, line);
	if (d == 0)
		return;
	if (d > PVT_RT_STACK_MAX)
		d--; /* an unstored frame: cannot be checked */
	else
		d = rt_exit_depth(d, func);
	rt_stk.depth = d;
	if (d > 0 && d <= PVT_RT_STACK_MAX) {
		rt_stk.last = rt_stk.frame[d - 1];
	} else {
		rt_stk.last.func = func;
		rt_stk.last.file = file;
		rt_stk.last.line = line;
	}
}

/* See rt_core.h. */
void pvt__rt_stack_break(const char *func, const char *file, int line)
{
	uint32_t d = rt_stk.depth;

	rt_stk.last.func = func;
	rt_stk.last.file = file;
	rt_stk.last.line = line;
	if (d > 0 && d <= PVT_RT_STACK_MAX &&
	    rt_same_func(rt_stk.frame[d - 1].func, func)) {
		rt_stk.frame[d - 1].file = file;
		rt_stk.frame[d - 1].line = line;
	}
}

/* See rt_core.h. */
pvt__rt_loc pvt__rt_stack_last(void)
{
	return rt_stk.last;
}

/* Packs a string cut at max bytes (NULL as ""). */
static int rt_pack_str(msgpack_packer *pk, const char *s, size_t max)
{
	size_t n = 0;

	if (s == NULL)
		s = "";
	while (n < max && s[n] != '\0')
		n++;
	return msgpack_pack_str_with_body(pk, s, n);
}

/* Packs one [func, file, line]. */
static int rt_pack_loc(msgpack_packer *pk, const pvt__rt_loc *l, size_t maxstr)
{
	if (msgpack_pack_array(pk, 3) || rt_pack_str(pk, l->func, maxstr) ||
	    rt_pack_str(pk, l->file, maxstr))
		return -1;
	return msgpack_pack_int64(pk, l->line);
}

/* See rt_core.h. */
int pvt__rt_stack_pack(msgpack_packer *pk, uint32_t max, size_t maxstr)
{
	uint32_t depth = rt_stk.depth, stored, n, i;
	pvt__rt_loc lost = {"...", "", 0};
	int more;

	if (depth == 0) {
		if (rt_stk.last.func == NULL)
			return msgpack_pack_array(pk, 0);
		return msgpack_pack_array(pk, 1) ||
		       rt_pack_loc(pk, &rt_stk.last, maxstr);
	}
	stored = depth < PVT_RT_STACK_MAX ? depth : PVT_RT_STACK_MAX;
	more = depth > stored;
	n = stored < max ? stored : max;
	if (msgpack_pack_array(pk, n + (more ? 1 : 0)))
		return -1;
	if (more) {
		lost.line =
		    (int)((depth - stored) > 0x7fffffff ? 0x7fffffff
		                                        : depth - stored);
		if (rt_pack_loc(pk, &lost, maxstr))
			return -1;
	}
	for (i = 0; i < n; i++)
		if (rt_pack_loc(pk, &rt_stk.frame[stored - 1 - i], maxstr))
			return -1;
	return 0;
}
