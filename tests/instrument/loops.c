/* loops.c — instrumenter test input: which loops get a probe-free copy. */
int plain(int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += i;
	return s;
}

int g(int);
int calls(int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += g(i);
	return s;
}

int nested(int n)
{
	int i, j, s = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			s += j;
	return s;
}
