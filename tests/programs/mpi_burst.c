/*
 * mpi_burst.c — test program: one rank makes traced MPI calls as fast as
 * it can (MPI_Iprobe, two records each) and counts the calls it has
 * completed in a shared file, so that a test can kill it with SIGKILL in
 * the middle of the burst and compare what paravt received with what the
 * program did.
 *
 *   mpi_burst COUNTFILE [CALLS]
 *
 * COUNTFILE is made 8 bytes long and mapped; after every call its first
 * 8 bytes hold the number of calls done (a plain store: the file is the
 * test's evidence, not paravt's).  Without CALLS the program runs until
 * it is killed; with CALLS it makes that many and prints "burst done N".
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	volatile uint64_t *done;
	uint64_t i, calls = 0;
	int fd, flag = 0;

	MPI_Init(&argc, &argv);
	if (argc < 2) {
		fprintf(stderr, "usage: mpi_burst COUNTFILE [CALLS]\n");
		MPI_Finalize();
		return 2;
	}
	if (argc > 2)
		calls = strtoull(argv[2], NULL, 10);
	fd = open(argv[1], O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, 8) != 0 ||
	    (done = mmap(NULL, 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
	            MAP_FAILED) {
		perror(argv[1]);
		MPI_Finalize();
		return 2;
	}
	for (i = 0; calls == 0 || i < calls; i++) {
		MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag,
		           MPI_STATUS_IGNORE);
		*done = i + 1;
	}
	printf("burst done %llu\n", (unsigned long long)calls);
	MPI_Finalize();
	return 0;
}
