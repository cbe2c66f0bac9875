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

int addressed(int n)
{
	int i, s = 0, *p = &s;
	volatile int v = 0;
	int arr[4] = {0};

	for (i = 0; i < n; i++)
		*p += i + v + arr[i % 4];
	return s;
}

int constant(const int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += n;
	return s;
}
