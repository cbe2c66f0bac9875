/*
 * dmn_net.h — the daemon's TCP side: listen address parsing and checking,
 * the listening socket, accepting into dmn_conn, and the small files
 * (--port-file, --pid-file) written atomically for scripts and tests.
 *
 * IPv4 only for now (inet_pton, no resolver: the node side is linked
 * statically and must build on AIX).
 */
#ifndef PARAVT_DMN_NET_H
#define PARAVT_DMN_NET_H

#include <stddef.h>

#include "dmn_conn.h"

#define DMN_DEFAULT_LISTEN "127.0.0.1:7420"

typedef struct dmn_addr {
	char host[64];      /* dotted IPv4 address as given */
	unsigned port;      /* 0..65535; 0 = ephemeral */
	int loopback;       /* address is in 127.0.0.0/8 */
	unsigned char a[4]; /* the address, network order */
} dmn_addr;

/* Parses "A.B.C.D:PORT".  0, or -1 with a sentence in err. */
int dmn_addr_parse(const char *s, dmn_addr *a, char *err, size_t errlen);

/* Opens a non-blocking listening socket on a.  Returns the fd and sets
 * *port to the bound port, or -1 with a sentence in err. */
int dmn_listen(const dmn_addr *a, unsigned *port, char *err, size_t errlen);

/* Watches the listening socket fd: each new connection goes to
 * dmn_conn_open(srv, ...).  0, or -1 when the loop is full. */
int dmn_accept_start(dmn_server *srv, int fd);

/* Writes text to path through path.tmp and rename(2), so readers never see
 * a partial file.  0, or -1 with errno set. */
int dmn_write_file(const char *path, const char *text);

#endif
