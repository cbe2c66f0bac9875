/*
 * con_ana.h — the analysis of what the console holds: builds an ana_trace
 * (console/ana/ana.h) from the event store (con_ev.h: every source, its
 * string table and events) and the clock registry (con_clk.h), runs the
 * passes, and keeps the result until new events arrive, so that trace
 * show, trace check, info efficiency/matrix/balance/hang, report and
 * export share one analysis.  Live runs and trace files read back
 * (con_tfile_load) look the same here.
 */
#ifndef PARAVT_CON_ANA_H
#define PARAVT_CON_ANA_H

#include <stddef.h>

#include "ana.h"

/* The analysed trace of the events stored so far (ana_analyze done,
 * order sorted in ANA_VIEW_COMP).  Rebuilt when events arrived since the
 * last call; borrowed until the next call or con_ana_reset.  NULL with a
 * sentence in err when no events are stored or memory ran out. */
ana_trace *con_ana_get(char *err, size_t errlen);

/* The event store source (con_ev_src_at index) of analysis process
 * proc, and back (ANA_NONE when unknown). */
size_t con_ana_src_of(uint32_t proc);
uint32_t con_ana_proc_of(size_t src);

/* Where the arch text of a node that is not up comes from ("PORT
 * MACHINE" into buf, "" when unknown): a trace file's node records
 * (con_tfile_load sets it). */
typedef void con_ana_arch_fn(const char *node, char *buf, size_t n);
void con_ana_set_arch_fn(con_ana_arch_fn *fn);

/* Forgets the cached analysis (and a trace being streamed). */
void con_ana_reset(void);

/* The cached analysis handed over to the caller (free it with
 * ana_free; NULL when there is none), and forgotten here: the next load
 * of a trace file does not free it, so that two traces can be held. */
ana_trace *con_ana_take(void);

/* Streaming, for a trace file read only to be analysed (trace-info,
 * export, report): after con_ev_reset, con_ana_stream_begin makes every
 * event stored from then on go straight into a new analysis instead of
 * the event store's ring (con_ev_set_sink), so a trace needs the memory
 * of its analysis only (about ANA_STREAM_EV_BYTES per event, not that
 * plus CON_EV_REC_BYTES); con_ana_stream_end fits the clock models, runs
 * the passes and makes the result what con_ana_get returns.  The store
 * keeps sources, strings and counters but no events: trace show and
 * trace dump have nothing to show.  0, or an ANA_E* code (with err). */
int con_ana_stream_begin(void);
int con_ana_stream_end(char *err, size_t errlen);

#define ANA_STREAM_EV_BYTES (sizeof(ana_ev) + 2 * sizeof(ana_ref))

/* Parses "--view comp|order|raw" among argv (removing nothing); returns
 * the ana_view, or -1 with err for a bad value. */
int con_ana_view_arg(int argc, char **argv, char *err, size_t errlen);

#endif
