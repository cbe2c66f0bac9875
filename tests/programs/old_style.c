/*
 * old_style.c — a program in the C of old examples, as pvm-examples'
 * starter.c is written: K&R definitions, an implicit int main, functions
 * used without their header, `return;` in a function returning int, and
 * `exit()` without a status.  gcc builds it with warnings only when given
 * -fno-builtin-exit (without it gcc refuses the bare exit(): "too few
 * arguments to function 'exit'"); libclang, which paravt's instrumenter
 * parses with, refuses the bare exit() the same way and makes an error
 * of the `return;` that gcc only warns about.  CHAR_IS_UNSIGNED compiles
 * only where char is unsigned (-funsigned-char), so that a flag reaching
 * gcc but not the instrumenter (or the reverse) is seen.
 * (tests/integration/94-load-dialect.sh)
 *
 * Usage: old_style [anything]   (with an argument it leaves by exit())
 */
#include <stdio.h>

#ifdef CHAR_IS_UNSIGNED
typedef char old_style_check[(char)-1 > 0 ? 1 : -1];
#endif

int next_of(n)
int n;
{
	if (n < 0)
		return; /* gcc: a warning; clang: an error unless told */
	return n + 1;
}

main(argc, argv)
int argc;
char **argv;
{
	printf("next of 41 is %d\n", next_of(41));
	fflush(stdout);
	if (argc > 1)
		exit(); /* the status is whatever: as starter.c does */
	exit(0);
}
