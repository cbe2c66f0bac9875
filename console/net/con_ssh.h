/*
 * con_ssh.h — reaching a node's daemon through SSH (libssh2).
 *
 * A node given as ssh://[user@]host[:port][/path/to/paravtd] is reached by
 * an SSH connection that either runs "PATH --stdio" on the remote side (the
 * default; the channel then carries the protocol) or, with a tunnel port,
 * opens a direct-tcpip channel to 127.0.0.1:PORT as seen from the remote
 * host, where a paravtd listens on its loopback.  Either way the result is
 * a wire_io, so the rest of the console does not know SSH is involved.
 *
 * Host keys are checked against known_hosts: an unknown key is refused
 * unless accept_unknown is set (it is then added to the file), a changed
 * key is always refused unless accept_changed is set.  Authentication tries
 * the SSH agent, then the key file given, then ~/.ssh/id_ed25519,
 * id_ecdsa and id_rsa.
 */
#ifndef PARAVT_CON_SSH_H
#define PARAVT_CON_SSH_H

#include <stddef.h>

#include "wire_peer.h"

typedef struct con_ssh_opts {
	char user[64];          /* remote user; "" means $USER */
	char host[256];         /* host name or numeric address */
	int port;               /* SSH port, 22 by default */
	char remote_cmd[512];   /* command run remotely; "" = "paravtd --stdio" */
	int tunnel_port;        /* > 0: direct-tcpip to remote 127.0.0.1:port
				   instead of running remote_cmd */
	char key_file[1024];    /* private key; "" = agent, then ~/.ssh/id_* */
	char known_hosts[1024]; /* "" = ~/.ssh/known_hosts */
	int accept_unknown;     /* trust and record a host key never seen */
	int accept_changed;     /* trust a host key that differs from the file */
	int timeout_ms;         /* connect + handshake + auth limit */
} con_ssh_opts;

/* Parses "ssh://[user@]host[:port][/path]" into o (other fields zeroed,
 * path becomes remote_cmd "PATH --stdio").  0, or -1 with err filled. */
int con_ssh_parse_url(const char *url, con_ssh_opts *o, char *err,
		      size_t errlen);

/* Connects, checks the host key, authenticates and opens the channel.
 * On success fills io (non-blocking transport; io->close ends the channel,
 * the session and the socket) and returns 0.  Otherwise returns -1 with a
 * sentence in err naming the step that failed (connect, host key,
 * authentication, exec, tunnel). */
int con_ssh_open(const con_ssh_opts *o, wire_io *io, char *err,
		 size_t errlen);

#endif
