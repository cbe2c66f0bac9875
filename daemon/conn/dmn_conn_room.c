/*
 * dmn_conn_room.c — the connection table and the limits that keep the
 * owner in (dmn_conn.h, dmn_conn_open): slots that grow, and the
 * eviction of the oldest unauthenticated connections when an address or
 * the whole server has too many.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmn_conn.h"
#include "dmn_conn_int.h"
#include "dmn_log.h"
#include "wire_fmt.h"

/* A free slot in srv->conns (the table doubles when full), or -1 out of
 * memory. */
int dmn_server_slot(dmn_server *srv)
{
	dmn_conn **v;
	int i, cap;

	for (i = 0; i < srv->cap_conns; i++)
		if (srv->conns[i] == NULL)
			return i;
	cap = srv->cap_conns > 0 ? srv->cap_conns * 2 : DMN_CONNS_START;
	v = realloc(srv->conns, (size_t)cap * sizeof *v);
	if (v == NULL)
		return -1;
	for (i = srv->cap_conns; i < cap; i++)
		v[i] = NULL;
	srv->conns = v;
	i = srv->cap_conns;
	srv->cap_conns = cap;
	return i;
}

/* True if c is a console connection that has not authenticated yet. */
static int dmn_conn_preauth(const dmn_conn *c)
{
	return c != NULL && !c->task && !c->closing &&
	       c->state != DMN_ST_READY;
}

/* Unauthenticated connections from host (all when host is NULL); *oldest
 * gets the oldest of them (NULL if none). */
static int dmn_server_preauth(const dmn_server *srv, const char *host,
			      dmn_conn **oldest)
{
	dmn_conn *c;
	int i, n = 0;

	*oldest = NULL;
	for (i = 0; i < srv->cap_conns; i++) {
		c = srv->conns[i];
		if (!dmn_conn_preauth(c) ||
		    (host != NULL && strcmp(c->host, host) != 0))
			continue;
		n++;
		if (*oldest == NULL || c->id < (*oldest)->id)
			*oldest = c;
	}
	return n;
}

/* The address holding the most unauthenticated connections; its oldest
 * into *oldest (NULL if there are none). */
static void dmn_server_greediest(const dmn_server *srv, dmn_conn **oldest)
{
	dmn_conn *c, *o;
	int i, n, best = 0;

	*oldest = NULL;
	for (i = 0; i < srv->cap_conns; i++) {
		c = srv->conns[i];
		if (!dmn_conn_preauth(c))
			continue;
		n = dmn_server_preauth(srv, c->host, &o);
		if (n > best) {
			best = n;
			*oldest = o;
		}
	}
}

/* Drops unauthenticated connection c to make room for a newer one: one
 * ERROR EBUSY frame if the socket takes it at once, then closed.  The
 * log gets a summary at most every DMN_EVICT_LOG_MS. */
static void dmn_conn_evict(dmn_conn *c, const char *why)
{
	dmn_server *srv = c->srv;
	uint64_t now = wire_now_ns();

	wire_peer_send_error(&c->peer, WIRE_EBUSY, 0, why);
	(void)wire_peer_flush(&c->peer);
	srv->evicted++;
	if (now - srv->evict_log_ns >= (uint64_t)DMN_EVICT_LOG_MS * 1000000u) {
		dmn_log(DMN_WARN, "dropped %llu unauthenticated connection(s) "
			"to make room for newer ones (last from %s: %s)",
			(unsigned long long)srv->evicted, c->host, why);
		srv->evicted = 0;
		srv->evict_log_ns = now;
	}
	dmn_conn_drop(c, why);
}

/* Makes room for a new unauthenticated connection from host within
 * DMN_MAX_PREAUTH_ADDR and DMN_MAX_PREAUTH (see dmn_conn_open). */
void dmn_server_make_room(dmn_server *srv, const char *host)
{
	char why[128];
	dmn_conn *o;

	while (dmn_server_preauth(srv, host, &o) >= DMN_MAX_PREAUTH_ADDR &&
	       o != NULL) {
		snprintf(why, sizeof why, "dropped: too many unauthenticated "
			 "connections from %s (limit %d)", host,
			 DMN_MAX_PREAUTH_ADDR);
		dmn_conn_evict(o, why);
	}
	while (dmn_server_preauth(srv, NULL, &o) >= DMN_MAX_PREAUTH) {
		dmn_server_greediest(srv, &o);
		if (o == NULL)
			break;
		snprintf(why, sizeof why, "dropped: too many unauthenticated "
			 "connections (limit %d)", DMN_MAX_PREAUTH);
		dmn_conn_evict(o, why);
	}
}
