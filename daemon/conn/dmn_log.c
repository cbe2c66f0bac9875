/*
 * dmn_log.c — the daemon's line logger (dmn_log.h).
 *
 * State is one FILE pointer: stderr by default, or a file opened in append
 * mode.  Each call formats the whole line into a local buffer first and
 * writes it with one fputs, so lines never interleave within a process.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "dmn_log.h"

static FILE *dmn_log_fp; /* log file, or NULL for stderr */

int dmn_log_open(const char *path)
{
	int fd;
	FILE *fp;

	if (path == NULL)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd < 0)
		return -1;
	fp = fdopen(fd, "a");
	if (fp == NULL) {
		close(fd);
		return -1;
	}
	dmn_log_close();
	dmn_log_fp = fp;
	return 0;
}

void dmn_log_close(void)
{
	if (dmn_log_fp != NULL)
		fclose(dmn_log_fp);
	dmn_log_fp = NULL;
}

/* Short upper-case name of a level. */
static const char *dmn_level_name(int level)
{
	switch (level) {
	case DMN_DEBUG:
		return "DEBUG";
	case DMN_INFO:
		return "INFO";
	case DMN_WARN:
		return "WARN";
	default:
		return "ERROR";
	}
}

void dmn_log(int level, const char *fmt, ...)
{
	char line[1024], stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	va_list ap;
	int n;

	if (level < DMN_INFO)
		return;
	if (localtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		stamp[0] = '\0';
	n = snprintf(line, sizeof line, "%s paravtd[%ld] %s: ", stamp,
		     (long)getpid(), dmn_level_name(level));
	if (n < 0 || (size_t)n >= sizeof line)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	va_end(ap);
	fprintf(dmn_log_fp != NULL ? dmn_log_fp : stderr, "%s\n", line);
	fflush(dmn_log_fp != NULL ? dmn_log_fp : stderr);
}
