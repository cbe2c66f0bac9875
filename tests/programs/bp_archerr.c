/*
 * bp_archerr.c — test program of the debugger (80-debug-errors): compiles
 * everywhere but on 32-bit x86, where the line marked ERROR is an error
 * that only the node's own compiler sees (the console parses for its own
 * architecture).  So one node's build fails and the others still run.
 */
#include <stdio.h>

int main(void)
{
	int n = 2;

#if defined(__i386__)
	n = undeclared_on_i386; /* ERROR */
#endif
	printf("n %d\n", n); /* BP:main */
	return 0;
}
