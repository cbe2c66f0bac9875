/*
 * td_fixture.c — the variables of the typedesc test program: a linked
 * list, a ring (cyclic list), a union, bit-fields, a 2-D array of structs
 * through a typedef chain, a long double, strings, a dangling pointer (to
 * an unmapped page), a wild pointer, an enum, qualified variables and a
 * function pointer.  The same values on every architecture, except
 * g_long = LONG_MAX, which differs by ABI on purpose.
 */
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

#include "td_probe.h"

/* The function the function pointer points to. */
static int td_square(int x)
{
	return x * x;
}

static struct cell g_cells[3] = {{1, NULL}, {2, NULL}, {3, NULL}};
static struct cell g_ringc[2] = {{10, NULL}, {20, NULL}};
static struct cell *g_list, *g_ring, *g_wild;
static union num g_num = {1078530011};
static struct flags g_flags = {5, -3, 1, 300};
static pos_t g_grid[2][3];
static long double g_ld = 0.1L;
static char *g_str = "hello, world";
static char *g_nullstr;
static int *g_dangling;
static enum color g_color = BLUE;
static const int g_ci = -42;
static volatile long g_vol = -7;
static long g_long = LONG_MAX;
static int (*g_fn)(int) = td_square;
static int g_arr[10];
static int g_big[300];
static void *g_vp;
static struct all g_all = {'A',
                           -5,
                           200,
                           -300,
                           60000,
                           -70000,
                           4000000000u,
                           -123456,
                           123456,
                           -9000000000LL,
                           18000000000000000000ULL,
                           3.14159274f,
                           2.718281828459045,
                           3.25L,
                           1,
                           GREEN,
                           7,
                           9,
                           "abc",
                           "hello",
                           td_square};

/* The scope of the breakpoint, in declaration order. */
static const td_var g_scope[] = {
    {"g_all", TID_ALL, &g_all},
    {"g_list", TID_CELLP, &g_list},
    {"g_ring", TID_CELLP, &g_ring},
    {"g_num", TID_NUM, &g_num},
    {"g_flags", TID_FLAGS, &g_flags},
    {"g_grid", TID_GRID, &g_grid},
    {"g_ld", TID_LDOUBLE, &g_ld},
    {"g_str", TID_CHARP, &g_str},
    {"g_nullstr", TID_CHARP, &g_nullstr},
    {"g_dangling", TID_INTP, &g_dangling},
    {"g_wild", TID_CELLP, &g_wild},
    {"g_color", TID_COLOR, &g_color},
    {"g_ci", TID_CINT, &g_ci},
    {"g_vol", TID_VLONG, (const void *)(uintptr_t)&g_vol},
    {"g_long", TID_LONG, &g_long},
    {"g_fn", TID_FNP, &g_fn},
    {"g_arr", TID_INT10, &g_arr},
    {"g_big", TID_INT300, &g_big},
    {"g_vp", TID_VOIDP, &g_vp},
};

/* A pointer into a page that was mapped, written and unmapped again
 * (/dev/zero: MAP_ANONYMOUS is not in POSIX 2008). */
static int *td_make_dangling(void)
{
	int fd = open("/dev/zero", O_RDWR);
	void *p = fd < 0 ? MAP_FAILED
	                 : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE,
	                        fd, 0);

	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED)
		return (int *)(uintptr_t)0x10;
	*(int *)p = 99;
	munmap(p, 4096);
	return p;
}

/* Fills the variables that need code, once. */
static void td_fixture_init(void)
{
	int i, j;

	g_cells[0].next = &g_cells[1];
	g_cells[1].next = &g_cells[2];
	g_list = &g_cells[0];
	g_ringc[0].next = &g_ringc[1];
	g_ringc[1].next = &g_ringc[0];
	g_ring = &g_ringc[0];
	g_wild = (struct cell *)(uintptr_t)0xdead0;
	g_dangling = td_make_dangling();
	g_vp = &g_arr[0];
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++) {
			g_grid[i][j].x = (short)(10 * i + j);
			g_grid[i][j].y = -(long)(100 * i + j);
		}
	for (i = 0; i < 10; i++)
		g_arr[i] = i * i;
	for (i = 0; i < 300; i++)
		g_big[i] = i;
}

/* Initialises the variables on first use; see td_probe.h. */
const td_var *td_fixture_scope(uint32_t *n)
{
	static int done;

	if (!done) {
		td_fixture_init();
		done = 1;
	}
	*n = (uint32_t)(sizeof g_scope / sizeof g_scope[0]);
	return g_scope;
}
