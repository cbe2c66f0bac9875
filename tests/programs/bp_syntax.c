/*
 * bp_syntax.c — test program of the debugger (80-debug-errors): does not
 * compile; the error is on the line marked ERROR.
 */
int main(void)
{
	int x = 1
	return x; /* ERROR */
}
