/*
 * dmn_log.h — the daemon's log: one line per event, with a timestamp, the
 * process id and a level, written to stderr or to a file (--log).
 *
 * Never stdout: in --stdio mode stdout carries the protocol.  Every line is
 * flushed at once so that tests and operators see it immediately.
 */
#ifndef PARAVT_DMN_LOG_H
#define PARAVT_DMN_LOG_H

enum dmn_level {
	DMN_DEBUG, /* chatter, off unless asked for */
	DMN_INFO,  /* connections, sessions, start and stop */
	DMN_WARN,  /* refused peers, protocol errors */
	DMN_ERROR  /* the daemon itself cannot go on */
};

/* Sends the log to path (appended, created 0600) or to stderr when path is
 * NULL.  0, or -1 with errno set (the log stays on stderr). */
int dmn_log_open(const char *path);

/* Closes a log file opened by dmn_log_open; later lines go to stderr. */
void dmn_log_close(void);

/* Writes one line: "YYYY-mm-ddTHH:MM:SS paravtd[pid] LEVEL: message". */
void dmn_log(int level, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
