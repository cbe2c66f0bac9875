/* pragma.c — instrumenter test input: #pragma paravt break. */
int twice(int x)
{
	int y = x * 2;

#pragma paravt break
	y += 1;
#if 0
#pragma paravt break
#endif
	return y;
}

int main(void)
{
	int v = twice(3);
	#  pragma   paravt   break
	return v == 7 ? 0 : 1;
}
