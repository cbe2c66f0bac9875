/*
 * con_clk.h — the clock registry: every node's PING/PONG samples, taken
 * when the node is added and again every few seconds while a run goes on,
 * and the model (offset, drift, error bound) ana_clock_fit makes of them.
 * Live nodes feed it (con_node.c); a trace file read back feeds it from
 * its clock records (trace/con_tfile_load.c); the analysis reads the
 * models (trace/con_ana.c).  Nodes are named by their console name.
 * It also keeps what the link probe measured of the path to each node
 * (con_node_link.c; a trace's link records).
 */
#ifndef PARAVT_CON_CLK_H
#define PARAVT_CON_CLK_H

#include <stddef.h>

#include "ana.h"

#define CON_CLK_SAMPLES_MAX 4096 /* samples kept per node (oldest go,
				    except the first window's) */

/* Told of every sample con_clk_add takes (the trace file writer, which
 * records it: con_tfile_open sets it). */
typedef void con_clk_listener_fn(const char *node, const ana_clock_sample *s);
void con_clk_listen(con_clk_listener_fn *fn);

/* Forgets every node's samples. */
void con_clk_reset(void);

/* Adds one sample of node (and tells the listener).  0 or WIRE_ENOMEM. */
int con_clk_add(const char *node, const ana_clock_sample *s);

/* Fills *out with node's fitted model.  0, or WIRE_EARG when the node has
 * no samples (*out is then the identity: valid = 0). */
int con_clk_model(const char *node, ana_clock *out);

/* The samples of node, oldest first (borrowed until the next add/reset);
 * returns how many. */
size_t con_clk_samples(const char *node, const ana_clock_sample **s);

/* Sets / reads the measured path to node.  Set: 0 or WIRE_ENOMEM;
 * read: 0, or WIRE_EARG when none was measured (*out zeroed). */
int con_clk_set_link(const char *node, const ana_link *l);
int con_clk_link(const char *node, ana_link *out);

/* "round trip 0.061 ms, 1890.3 MB/s to it, 2210.7 MB/s from it
 * (transfers of 4194304 and 4194304 bytes)": l in words, into buf. */
void con_clk_link_text(const ana_link *l, char *buf, size_t n);

/* Forgets node (node remove). */
void con_clk_forget(const char *node);

#endif
