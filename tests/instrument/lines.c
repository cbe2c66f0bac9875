/* lines.c — instrumenter test input: original line numbers survive.
 * Every function gets templates, breakpoints are set on lines 14 and 20;
 * compiled with -DPVT_TEST_ERROR the #error on line 24 must be reported
 * at lines.c:24, and the static assertions check __LINE__. */
typedef struct {
	int a;
} box_t;

static box_t make(int a)
{
	box_t b;

	b.a = a;
	return b;
}

int main(void)
{
	box_t b = make(2);
	_Static_assert(__LINE__ == 20, "line 20");
	if (b.a != 2)
		return 1;
#ifdef PVT_TEST_ERROR
#error deliberate error on line 24
#endif
	_Static_assert(__LINE__ == 26, "line 26");
	return 0;
}
