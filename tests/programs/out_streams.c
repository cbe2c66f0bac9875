/*
 * out_streams.c — writes stdout and stderr in pieces that cross, as
 * libpvm's messages do ("libpvm [t40001]: " and the rest are two writes
 * to stderr while the program prints to stdout): each piece is one
 * write(2), with a pause after it so that whoever reads the two pipes
 * sees them apart.  The lines as written, per stream:
 *   stderr: "err A: half and the rest", "err B: no newline at the end"
 *   stdout: "out 1", "out 2: half and the rest", "out 3"
 * (tests/integration/95-output-streams.sh).
 */
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Writes s to fd in one call, then pauses 150 ms. */
static void piece(int fd, const char *s)
{
	struct timespec ts = {0, 150000000L};

	if (write(fd, s, strlen(s)) < 0)
		return;
	nanosleep(&ts, NULL);
}

int main(void)
{
	piece(2, "err A: half");
	piece(1, "out 1\n");
	piece(2, " and the rest\n");
	piece(1, "out 2: half");
	piece(2, "err B: no newline");
	piece(1, " and the rest\nout 3\n");
	piece(2, " at the end");
	return 0;
}
