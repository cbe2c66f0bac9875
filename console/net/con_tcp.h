/*
 * con_tcp.h — TCP helpers of the console: splitting "HOST:PORT" and
 * connecting with a time limit.
 *
 * The console reaches a daemon that listens on a plain TCP port (loopback or
 * a trusted cluster network) through these two functions; the result is a
 * connected, non-blocking socket that wire_io_fd() turns into a transport.
 * Like the wire library they never print: they return 0 or a negative
 * WIRE_E* code and fill the caller's err buffer with a sentence.
 */
#ifndef PARAVT_CON_TCP_H
#define PARAVT_CON_TCP_H

#include <stddef.h>

/* Splits "HOST:PORT" or "[V6ADDR]:PORT" into host and port strings.
 * 0, or WIRE_EARG with err filled (missing port, bad port number, too
 * long). */
int con_tcp_split(const char *addr, char *host, size_t hostlen, char *port,
		  size_t portlen, char *err, size_t errlen);

/* Sends small frames at once (TCP_NODELAY): each waits for an answer,
 * so Nagle's algorithm would hold a step's frame until the delayed ACK
 * (about 40 ms).  Errors are ignored. */
void con_tcp_nodelay(int fd);

/* Resolves host and port and connects to the first address that answers
 * within timeout_ms in total.  0 with *fd set (caller closes), or
 * WIRE_EARG (name does not resolve), WIRE_ETIMEOUT or WIRE_EIO, with a
 * sentence in err. */
int con_tcp_connect(const char *host, const char *port, int timeout_ms,
		    int *fd, char *err, size_t errlen);

#endif
