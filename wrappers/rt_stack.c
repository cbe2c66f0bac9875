/*
 * rt_stack.c — the shadow call stack of an instrumented task (rt_core.h).
 *
 * para_vt_fn_enter / para_vt_fn_exit are the function entry and exit
 * templates; they run on every call of the user's program, so they only
 * store a few words into a fixed array: no allocation, no lock, no system
 * call.  PVT_RT_STACK_MAX frames are stored; deeper calls are counted so
 * that the stack is right again when they return.
 *
 * Lines: the instrumenter writes `pvt__line = N;` before every statement
 * of a block (paravt_rt.h), so pvt__line is the line the innermost
 * function is executing.  An entry saves the caller's pvt__line in the new
 * frame (the line of the call) and sets the function's own; an exit puts
 * the caller's back.  So frame i is at line saved[i + 1], the innermost at
 * pvt__line, and a crash is reported at the statement that faulted (or at
 * the call of an uninstrumented function that did).  Code without the
 * markers (hand-instrumented) has the lines of entries and breakpoints.
 * "The last known location" (reported when the task crashes) is the
 * innermost frame at its current line, or the breakpoint the task passed
 * last when no frame is active.
 *
 * An exit that does not match the innermost frame (a longjmp skipped some
 * exits) pops down to the frame of that function if it is on the stack,
 * and is ignored otherwise.  The stack is maintained even when the task
 * is not attached to a daemon: it costs the same few stores.
 *
 * Variables of outer frames: while the process is armed, a statement
 * that makes a call records the variables in scope there
 * (para_vt_frame, a copy into memory of the frame's own); at a stop they are sent for each outer frame still at
 * the line they were recorded at, so `up` can print its variables.  An
 * entry forgets the new frame's; a frame that made its call while the
 * process was not armed has none.
 */
#include <stdlib.h>
#include <string.h>

#include "paravt_rt.h"
#include "rt_core.h"
#include "rt_event.h"

/* The statement line of the innermost function (paravt_rt.h). */
volatile int pvt__line;

/* The stack: stored frames, the true depth, the last known location. */
static struct {
	pvt__rt_loc frame[PVT_RT_STACK_MAX]; /* frame[0] is the outermost */
	int saved[PVT_RT_STACK_MAX];         /* pvt__line of the caller when
						frame i was entered */
	uint32_t depth;                      /* calls active (may exceed MAX) */
	pvt__rt_loc last;                    /* last known location */
} rt_stk;

/* The variables recorded per stored frame (para_vt_frame). */
static struct {
	pvt_var *v;      /* a copy (owned); names and addresses the program's */
	uint32_t n, cap; /* used, allocated */
	int line;        /* the line they are for; 0: none */
	pvt_unit *unit;  /* the unit (type table) */
} rt_fv[PVT_RT_STACK_MAX];

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
	if (rt_stk.depth < PVT_RT_STACK_MAX) {
		rt_stk.frame[rt_stk.depth] = here;
		rt_stk.saved[rt_stk.depth] = pvt__line;
		rt_fv[rt_stk.depth].line = 0;
	}
	pvt__line = line;
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
	if (d < PVT_RT_STACK_MAX)
		pvt__line = rt_stk.saved[d]; /* the caller's line again */
	if (d > 0 && d <= PVT_RT_STACK_MAX) {
		rt_stk.last = rt_stk.frame[d - 1];
		if (pvt__line > 0)
			rt_stk.last.line = pvt__line;
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
		pvt__line = line;
	}
}

/* The current line of stored frame i (of the stored top..): the
 * innermost is at pvt__line, an outer one at the line of its call;
 * 0 (unknown) gives the frame's own line. */
static int rt_frame_line(uint32_t i, uint32_t top)
{
	int l = i + 1 == top ? pvt__line : rt_stk.saved[i + 1];

	return l > 0 ? l : rt_stk.frame[i].line;
}

/* See rt_core.h. */
/* See rt_core.h. */
uint32_t pvt__rt_stack_depth(void)
{
	return rt_stk.depth;
}

pvt__rt_loc pvt__rt_stack_last(void)
{
	pvt__rt_loc l = rt_stk.last;
	uint32_t d = rt_stk.depth;

	if (d > 0 && d <= PVT_RT_STACK_MAX) {
		l = rt_stk.frame[d - 1];
		l.line = rt_frame_line(d - 1, d);
	}
	return l;
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

/* The call-site template (paravt_rt.h): a copy of the variables in
 * scope at line of the innermost frame. */
void para_vt_frame(pvt_unit *unit, int line, const pvt_var *vars,
		   uint32_t n)
{
	uint32_t d = rt_stk.depth;
	pvt_var *nv;

	if (d == 0 || d > PVT_RT_STACK_MAX)
		return;
	d--;
	rt_fv[d].line = 0;
	if (n > rt_fv[d].cap) {
		nv = realloc(rt_fv[d].v, n * sizeof *nv);
		if (nv == NULL)
			return;
		rt_fv[d].v = nv;
		rt_fv[d].cap = n;
	}
	if (n > 0)
		memcpy(rt_fv[d].v, vars, n * sizeof *vars);
	rt_fv[d].n = n;
	rt_fv[d].unit = unit;
	rt_fv[d].line = line;
}

/* True if stored frame i of top has variables for the line it is at
 * (the innermost's come with the stop itself). */
static int rt_fv_valid(uint32_t i, uint32_t top)
{
	return i + 1 < top && rt_fv[i].line > 0 &&
	       rt_fv[i].line == rt_stk.saved[i + 1] && rt_fv[i].unit != NULL;
}

/* See rt_core.h. */
pvt_unit *pvt__rt_stack_unit(uint32_t k)
{
	uint32_t d = rt_stk.depth;

	if (d > PVT_RT_STACK_MAX || k >= d || !rt_fv_valid(d - 1 - k, d))
		return NULL;
	return rt_fv[d - 1 - k].unit;
}

/* See rt_core.h. */
int pvt__rt_stack_pack(msgpack_packer *pk, uint32_t max, size_t maxstr)
{
	return pvt__rt_stack_pack_vars(pk, max, maxstr, NULL);
}

/* Packs stored frame i of top: [func, file, line], or with pack and
 * variables recorded [func, file, line, unit id, vars]. */
static int rt_pack_frame(msgpack_packer *pk, uint32_t i, uint32_t top,
			 int more, size_t maxstr, pvt__rt_vars_fn *pack)
{
	pvt__rt_loc l = rt_stk.frame[i];

	if (!more) /* (deeper unstored calls: pvt__line is theirs) */
		l.line = rt_frame_line(i, top);
	if (pack == NULL || more || !rt_fv_valid(i, top))
		return rt_pack_loc(pk, &l, maxstr);
	return msgpack_pack_array(pk, 5) || rt_pack_str(pk, l.func, maxstr) ||
	       rt_pack_str(pk, l.file, maxstr) ||
	       msgpack_pack_int64(pk, l.line) ||
	       msgpack_pack_uint32(pk, rt_fv[i].unit->id) ||
	       pack(pk, rt_fv[i].v, rt_fv[i].n);
}

/* See rt_core.h. */
int pvt__rt_stack_pack_vars(msgpack_packer *pk, uint32_t max, size_t maxstr,
			    pvt__rt_vars_fn *pack)
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
		if (rt_pack_frame(pk, stored - 1 - i, stored, more, maxstr,
				  pack))
			return -1;
	return 0;
}
