/*
 * wire_token.h — the per-user secret token file shared by console and daemon.
 *
 * The token is a line of 64 hex characters in a file that only its owner
 * may read (mode 0600 or stricter).  A file whose mode grants anything to
 * group or others is refused, as ssh refuses a private key.  By default the
 * file is $HOME/.paravt/token; the daemon creates it (directory 0700, file
 * 0600, bytes from /dev/urandom) when it does not exist.
 */
#ifndef PARAVT_WIRE_TOKEN_H
#define PARAVT_WIRE_TOKEN_H

#include <stddef.h>

#include "wire_msg.h"

/* Writes $HOME/.paravt/token into buf.  0, or WIRE_EARG if HOME is unset
 * or the path does not fit. */
int wire_token_default_path(char *buf, size_t n);

/* Reads the token at path into tok.  With create != 0 a missing file is
 * created first.  0, or WIRE_EAUTH with a sentence in err: missing file,
 * mode wider than 0600, not a regular file, empty or malformed content. */
int wire_token_load(const char *path, int create, char tok[WIRE_TOKEN_MAX],
		    char *err, size_t errlen);

#endif
