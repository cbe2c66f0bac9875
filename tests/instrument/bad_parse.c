/* bad_parse.c — instrumenter test input with a syntax error on line 4. */
int f(int a)
{
	return a +;
}
