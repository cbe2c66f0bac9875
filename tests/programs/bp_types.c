/*
 * bp_types.c — test program of the debugger (tests/integration/80-debug-*,
 * 35-tmux-debug): one variable of every type kind the type descriptions
 * cover, with values that are the same on every architecture except where
 * the ABI itself differs (ul and szlong below).
 *
 * Lines the tests set breakpoints on carry a marker comment "BP:NAME";
 * the tests find their numbers with grep, so the file can change.
 *   BP:main   in main, after every variable is set (locals, globals)
 *   BP:walk   in walk, a function called from main (parameters, stack)
 *   BP:nocode a comment line: a breakpoint there moves to the next line
 * It prints "total 73" and exits 0.
 */
#include <stdio.h>
#include <stdlib.h>

struct node {             /* a linked list */
	int v;
	struct node *next;
};

union num {               /* a union: both views of the same bits */
	int i;
	float f;
};

struct flags {            /* bit-fields, one of them signed */
	unsigned int a : 3;
	signed int b : 4;
	unsigned int c : 1;
};

struct cell {             /* element of a 2-D array of structs */
	short s;
	double d;
	char name[8];
};

enum color { RED, GREEN = 5, BLUE };

typedef int myint;        /* a typedef chain */
typedef myint counter_t;
typedef int (*unop)(int); /* a function pointer type */

int g_count = 3;               /* a global */
static struct cell grid[2][3]; /* a file static */
const volatile int cv = 7;     /* const and volatile */

/* The function pointer's target. */
static int square(int x)
{
	return x * x;
}

/* Sums the list plus depth. */
static int walk(struct node *head, int depth)
{
	struct node *p;
	int sum = 0;

	for (p = head; p != NULL; p = p->next)
		sum += p->v;
	sum += depth; /* BP:walk */
	return sum;
}

/* Fills the grid with values that print the same everywhere. */
static void fill(void)
{
	int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++) {
			grid[i][j].s = (short)(i * 10 + j);
			grid[i][j].d = i + j / 4.0;
			snprintf(grid[i][j].name, sizeof grid[i][j].name,
				 "c%d%d", i, j);
		}
}

int main(void)
{
	struct node n3 = {30, NULL};
	struct node n2 = {20, &n3};
	struct node n1 = {10, &n2};
	struct node *list = &n1;
	union num u;
	struct flags fl = {5, -3, 1};
	long double ld = 2.5L;
	const char *msg = "hello, world";
	int *dangling = (int *)16;
	enum color col = BLUE;
	counter_t cnt = 42;
	unop fp = square;
	unsigned long ul = (unsigned long)-1;
	int szlong = (int)sizeof(long);
	int total = 0;

	u.i = 0x40490fdb;
	fill();
	/* BP:nocode */
	total = walk(list, g_count + cv) + fp(2) - cnt / 42; /* BP:main */
	printf("total %d\n", total);
	if (col != BLUE || fl.a != 5 || ld != 2.5L || msg[0] != 'h' ||
	    dangling == NULL || ul == 0 || szlong == 0 || u.i == 0 ||
	    grid[1][2].s != 12)
		return 1;
	return total == 73 ? 0 : 1;
}
