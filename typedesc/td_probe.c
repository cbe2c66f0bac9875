/*
 * td_probe.c — readability probe for addresses taken from the program.
 *
 * A pointer is never trusted.  Before the walker reads through one, it asks
 * the kernel to copy one byte of every page in the range into a private
 * pipe: write(2) fails with EFAULT for an unmapped or unreadable page
 * instead of raising SIGSEGV, and the byte is read back to keep the pipe
 * empty.  Works with plain POSIX, and under qemu-user (which checks guest
 * pages on syscalls).  The pipe is non-blocking and close-on-exec.
 *
 * Pages found readable are remembered in a small direct-mapped cache for
 * the rest of one walk (td_probe_begin clears it): a stopped task does not
 * unmap memory while it is being serialised, and a list of a thousand
 * cells in a few pages then costs a few probes, not a thousand.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "td_node.h"

/* The probe pipe; -1 while closed. */
static int td_pfd[2] = {-1, -1};

/* Page size, looked up once. */
static size_t td_page;

/* Readable pages of the current walk (page numbers; 0 = empty slot). */
#define TD_PCACHE 64
static uintptr_t td_pcache[TD_PCACHE];

/* Forgets the cached pages: called at the start of every walk. */
void td_probe_begin(void)
{
	memset(td_pcache, 0, sizeof td_pcache);
}

/* Sets O_NONBLOCK and FD_CLOEXEC on fd.  0 or -1. */
static int td_fd_setup(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Opens the pipe on first use.  0 or -1. */
static int td_probe_open(void)
{
	long ps;

	if (td_pfd[0] >= 0)
		return 0;
	if (pipe(td_pfd) < 0)
		return -1;
	if (td_fd_setup(td_pfd[0]) < 0 || td_fd_setup(td_pfd[1]) < 0) {
		td_probe_close();
		return -1;
	}
	ps = sysconf(_SC_PAGESIZE);
	td_page = ps > 0 ? (size_t)ps : 4096;
	return 0;
}

/* Releases the pipe. */
void td_probe_close(void)
{
	if (td_pfd[0] >= 0)
		close(td_pfd[0]);
	if (td_pfd[1] >= 0)
		close(td_pfd[1]);
	td_pfd[0] = td_pfd[1] = -1;
}

/* 1 if the byte at a is readable.  Drains what it wrote. */
static int td_probe_byte(const char *a)
{
	uintptr_t page = (uintptr_t)a / td_page;
	uintptr_t *slot = &td_pcache[page % TD_PCACHE];
	char c;
	ssize_t n;

	if (page != 0 && *slot == page)
		return 1;

	do
		n = write(td_pfd[1], a, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return 0;
	do
		n = read(td_pfd[0], &c, 1);
	while (n < 0 && errno == EINTR);
	*slot = page;
	return 1;
}

/* Calls probe on the first byte of every page touched by [addr,
 * addr + len).  1 if every call said 1. */
static int td_probe_pages(const void *addr, size_t len,
                          int (*probe)(char *a))
{
	uintptr_t a = (uintptr_t)addr, end, next;

	if (len == 0)
		return 1;
	if (addr == NULL || a + (len - 1) < a || td_probe_open() < 0)
		return 0;
	end = a + (len - 1);
	for (;;) {
		if (!probe((char *)a))
			return 0;
		next = (a / td_page + 1) * td_page;
		if (next == 0 || next > end)
			break;
		a = next;
	}
	return 1;
}

/* td_probe_byte for td_probe_pages. */
static int td_probe_rbyte(char *a)
{
	return td_probe_byte(a);
}

/* One probe per page touched by [addr, addr + len). */
int td_readable(const void *addr, size_t len)
{
	return td_probe_pages(addr, len, td_probe_rbyte);
}

/* 1 if the byte at a can be written: the kernel reads it into the pipe
 * and writes it back in place (EFAULT, never SIGSEGV, for a page that is
 * read-only); the byte is the same, so memory does not change. */
static int td_probe_wbyte(char *a)
{
	char c;
	ssize_t n;

	do
		n = write(td_pfd[1], a, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return 0;
	do
		n = read(td_pfd[0], a, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1)
		return 1;
	do /* not writable: drain the byte */
		n = read(td_pfd[0], &c, 1);
	while (n < 0 && errno == EINTR);
	return 0;
}

/* One write probe per page touched by [addr, addr + len). */
int td_writable(void *addr, size_t len)
{
	return td_probe_pages(addr, len, td_probe_wbyte);
}
