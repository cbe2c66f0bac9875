/* labels.c — instrumenter test input: case and goto labels. */
int f(int x)
{
	switch (x) {
	case 1:
		x++;
		break;
	default:
		x--;
	}
	if (x)
		goto done;
	x = 5;
done:
	return x;
}
