/* types.c — instrumenter test input that uses every kind of type. */
#include <stdio.h>
#include <string.h>

#include "types.h"

static struct cell g_cells[3] = {{1, NULL}, {2, NULL}, {3, NULL}};
static struct cell *g_list;
static union num g_num = {1078530011};
static struct flags g_flags = {5, -3, 1, 300};
static pos_t g_grid[2][3];
static long double g_ld = 0.1L;
static char *g_str = "hello, world";
static enum color g_color = BLUE;
static const int g_ci = -42;
static volatile long g_vol = -7;
static pair_t g_pair = {7, {'x', -3}, {9}};
static size_t g_size = 12;
static FILE *g_out;
unsigned char g_bytes[4] = {1, 2, 3, 4};

/* Adds. */
static int add(int a, int b)
{
	return a + b;
}

/* Walks the list. */
static long walk(const struct cell *c, binop_t op)
{
	long s = 0;

	while (c) {
		s = op((int)s, c->v);
		c = c->next;
	}
	return s;
}

/* Fills the grid. */
static void fill(int rows)
{
	int i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < 3; j++) {
			g_grid[i][j].x = (short)(10 * i + j);
			g_grid[i][j].y = -(long)(100 * i + j);
		}
	if (rows < 0)
		return;
}

static struct pt origin(void)
{
	struct pt p = {0, 0};
	return p;
}

int main(int argc, char **argv)
{
	binop_t op = add;
	char name[16] = "abc";
	const char *cp = name;
	struct { int hidden; } local_anon = {4};
	register int reg = 3;
	int vla_n = argc + 2;
	double vla[vla_n];
	long sum;

	g_out = stdout;
	g_cells[0].next = &g_cells[1];
	g_cells[1].next = &g_cells[2];
	g_list = &g_cells[0];
	fill(2);
	vla[0] = 1.5;
	sum = walk(g_list, op);
#pragma paravt break
	fprintf(g_out, "%ld %d %u %d %d %u\n", sum, g_num.i, g_flags.a,
		g_flags.b, g_flags.c, g_flags.d);
	fprintf(g_out, "%d %ld %s %s %d %d %ld\n", g_grid[1][2].x,
		g_grid[1][2].y, g_str, cp, g_color, g_ci, g_vol);
	fprintf(g_out, "%d %c %d %ld %zu %d %d %.1f %d\n", g_pair.key,
		g_pair.in.tag, g_pair.in.n, g_pair.u.l, g_size,
		local_anon.hidden, reg, vla[0], g_bytes[3]);
	fprintf(g_out, "%.2Lf %d %s\n", g_ld, origin().x, argv[0] ? "ok" : "?");
	return (int)(sum % 7);
}
