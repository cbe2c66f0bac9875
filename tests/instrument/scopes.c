/* scopes.c — instrumenter test input: scopes, shadowing, globals. */
#include <stdio.h>

int g_used = 1;
int g_unused = 2;
static double s_file = 3.5;

struct cell {
	int v;
	struct cell *next;
};

int sum(int n, const struct cell *list)
{
	int total = 0;
	static int calls;

	calls++;
	{
		int inner = n;
		total += inner;
	}
	{
		int other = 2;

		total += other + g_used;
	}
	for (int i = 0; i < n; i++) {
		int n = i;
		total += n;
	}
	while (list) {
		total += list->v;
		list = list->next;
	}
	return total + (int)s_file;
}

void hello(void)
{
	puts("hello");
}

int main(void)
{
	struct cell b = {2, NULL}, a = {1, &b};
	int r;

	hello();
	r = sum(3, &a);
	printf("%d\n", r);
	if (r > 100)
		return 1;
	return 0;
}
