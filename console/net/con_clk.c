/*
 * con_clk.c — the clock registry (con_clk.h): per node, its PING/PONG
 * samples in the order they were taken, and the model ana_clock_fit makes
 * of them, fitted again only when samples were added since.
 *
 * A node keeps at most CON_CLK_SAMPLES_MAX samples.  When it is full, the
 * oldest sample after the first CON_CLK_KEEP_FIRST goes: those are the
 * burst taken when the node was added, which anchors the drift estimate at
 * the start of the run, while the newest samples anchor its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_clk.h"
#include "wire.h"

#define CON_CLK_NAME_MAX 64    /* node names (console names are shorter) */
#define CON_CLK_KEEP_FIRST 16  /* samples never dropped: the first ones */

/* One node's samples and its cached model. */
typedef struct con_clk_node {
	char name[CON_CLK_NAME_MAX];  /* console name of the node */
	ana_clock_sample *s;          /* samples, oldest first; owned */
	size_t n, cap;                /* samples held, allocated */
	int fitted;                   /* model is up to date */
	ana_clock model;              /* last fit */
	ana_link link;                /* the measured path, valid 0 none */
	struct con_clk_node *next;    /* next node, or NULL */
} con_clk_node;

static con_clk_node *con_clk_nodes; /* the registry */

/* The entry of node, or NULL. */
static con_clk_node *con_clk_find(const char *node)
{
	con_clk_node *c;

	for (c = con_clk_nodes; c != NULL; c = c->next)
		if (strcmp(c->name, node) == 0)
			return c;
	return NULL;
}

/* The entry of node, created empty if needed; NULL when out of memory. */
static con_clk_node *con_clk_get(const char *node)
{
	con_clk_node *c = con_clk_find(node);

	if (c != NULL)
		return c;
	c = calloc(1, sizeof *c);
	if (c == NULL)
		return NULL;
	strncpy(c->name, node, sizeof c->name - 1);
	c->next = con_clk_nodes;
	con_clk_nodes = c;
	return c;
}

/* Frees one entry. */
static void con_clk_free(con_clk_node *c)
{
	free(c->s);
	free(c);
}

/* Makes room for one more sample: grows the array, or, when it holds the
 * maximum, drops the oldest sample after the first ones.  0 or
 * WIRE_ENOMEM. */
static int con_clk_room(con_clk_node *c)
{
	ana_clock_sample *s;
	size_t cap;

	if (c->n == CON_CLK_SAMPLES_MAX) {
		memmove(&c->s[CON_CLK_KEEP_FIRST], &c->s[CON_CLK_KEEP_FIRST + 1],
			(c->n - CON_CLK_KEEP_FIRST - 1) * sizeof *c->s);
		c->n--;
		return 0;
	}
	if (c->n < c->cap)
		return 0;
	cap = c->cap == 0 ? 32 : c->cap * 2;
	if (cap > CON_CLK_SAMPLES_MAX)
		cap = CON_CLK_SAMPLES_MAX;
	s = realloc(c->s, cap * sizeof *s);
	if (s == NULL)
		return WIRE_ENOMEM;
	c->s = s;
	c->cap = cap;
	return 0;
}

/* Forgets every node. */
void con_clk_reset(void)
{
	con_clk_node *c, *next;

	for (c = con_clk_nodes; c != NULL; c = next) {
		next = c->next;
		con_clk_free(c);
	}
	con_clk_nodes = NULL;
}

/* Appends a sample of node and hands it to the trace file writer. */
static con_clk_listener_fn *con_clk_listener;

void con_clk_listen(con_clk_listener_fn *fn)
{
	con_clk_listener = fn;
}

int con_clk_add(const char *node, const ana_clock_sample *s)
{
	con_clk_node *c = con_clk_get(node);

	if (c == NULL || con_clk_room(c) != 0)
		return WIRE_ENOMEM;
	c->s[c->n++] = *s;
	c->fitted = 0;
	if (con_clk_listener != NULL)
		con_clk_listener(node, s);
	return 0;
}

/* The model of node, fitted again if samples came since the last fit. */
int con_clk_model(const char *node, ana_clock *out)
{
	con_clk_node *c = con_clk_find(node);

	memset(out, 0, sizeof *out);
	if (c == NULL || c->n == 0)
		return WIRE_EARG;
	if (!c->fitted) {
		if (ana_clock_fit(c->s, c->n, &c->model) != 0)
			return WIRE_EARG;
		c->fitted = 1;
	}
	*out = c->model;
	return 0;
}

/* The samples of node, oldest first. */
size_t con_clk_samples(const char *node, const ana_clock_sample **s)
{
	con_clk_node *c = con_clk_find(node);

	*s = c != NULL ? c->s : NULL;
	return c != NULL ? c->n : 0;
}

/* Unlinks and frees node's entry. */
int con_clk_set_link(const char *node, const ana_link *l)
{
	con_clk_node *c = con_clk_get(node);

	if (c == NULL)
		return WIRE_ENOMEM;
	c->link = *l;
	return 0;
}

int con_clk_link(const char *node, ana_link *out)
{
	const con_clk_node *c = con_clk_find(node);

	memset(out, 0, sizeof *out);
	if (c == NULL || !c->link.valid)
		return WIRE_EARG;
	*out = c->link;
	return 0;
}

void con_clk_link_text(const ana_link *l, char *buf, size_t n)
{
	snprintf(buf, n, "round trip %.3f ms, %.1f MB/s to it, %.1f MB/s "
		 "from it (transfers of %llu and %llu bytes)",
		 (double)l->rtt_ns / 1e6, l->up_bps / 1e6, l->down_bps / 1e6,
		 (unsigned long long)l->up_bytes,
		 (unsigned long long)l->down_bytes);
}

void con_clk_forget(const char *node)
{
	con_clk_node **pp = &con_clk_nodes, *c;

	while (*pp != NULL && strcmp((*pp)->name, node) != 0)
		pp = &(*pp)->next;
	if (*pp == NULL)
		return;
	c = *pp;
	*pp = c->next;
	con_clk_free(c);
}
