/*
 * con_node_int.h — what the files of the con_node module share
 * (con_node.c: the table, transport, handshake, connecting and watching;
 * con_node_clock.c: pings and clock re-sampling; con_node_link.c: the
 * link probe).  Not for use outside
 * console/net/con_node*.c.
 */
#ifndef PARAVT_CON_NODE_INT_H
#define PARAVT_CON_NODE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "con_node.h"

/* Marks n down with reason (copied first: it may live in n->peer) and
 * closes its transport. */
void con_node_down(con_node *n, const char *reason);

/* Flushes output and waits (deadline: CON_NODE_WAIT_NS) for a frame of
 * type want, skipping anything else but ERROR and BYE.  0 with *m
 * (borrowed until the next read), the code of an ERROR answer with its
 * sentence in err (*broken = 0), or a transport failure, BYE or timeout
 * with *broken = 1 (the connection cannot be used any more). */
int con_node_expect(con_node *n, uint32_t want, wire_msg *m, int *broken,
		    char *err, size_t errlen);

/* Takes CON_NODE_PINGS samples on a node just opened and keeps the best
 * (con_node_clock.c).  0 or a code with err. */
int con_node_clock_init(con_node *n, char *err, size_t errlen);

/* Measures the path to a node just opened (con_node_link.c) into the
 * clock registry.  0 (also when the daemon does not know LINK_PROBE or
 * PARAVT_LINK_PROBE=0), or the code of a failure that broke the
 * connection, with err. */
int con_node_link_measure(con_node *n, char *err, size_t errlen);

/* Reads the re-sampling interval of the environment, the first time
 * only (con_node_clock.c). */
void con_node_clock_start(void);

#endif
