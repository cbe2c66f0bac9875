/*
 * con_tfile.h — paravt's trace file: a versioned, append-only stream of
 * MessagePack records, written while events arrive so that a killed
 * console or a crashed machine leaves a trace readable up to the last
 * whole record, and read back into the console's event store so that the
 * commands of a live run (info procs, stats, trace show, print of recorded
 * variables, the analysis) work on it.
 *
 * Layout and record types: see paravt-trace(5) (man/paravt-trace.5) and
 * the comment at the top of con_tfile.c.  The writer is one per console;
 * its hooks are no-ops while no file is open, so the message handlers call
 * them unconditionally.
 */
#ifndef PARAVT_CON_TFILE_H
#define PARAVT_CON_TFILE_H

#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

#include "ana.h"

#define CON_TFILE_VERSION 1

/* Starts writing path (created; an existing file is refused unless
 * overwrite).  command is recorded in the header (what was run).  The
 * nodes already up and their clock samples are written at once.  0, or a
 * WIRE_E* code with err. */
int con_tfile_open(const char *path, const char *command, int overwrite,
		   char *err, size_t errlen);

/* True while a file is being written. */
int con_tfile_active(void);

/* Path of the file being written ("" when none). */
const char *con_tfile_path(void);

/* Hooks (no-ops when no file is open).  Arguments as the console got
 * them: a node's HELLO/arch, a clock sample, a NODE_EVENTS batch, an
 * EVENT_STRINGS table, EVENTS_LOST, a process start/exit, and the values
 * a `record` breakpoint captured (one call per variable). */
void con_tfile_node(const char *node, const char *arch);
void con_tfile_clock(const char *node, const ana_clock_sample *s);
void con_tfile_proc(const char *node, uint32_t proc, int pid_id,
		    const char *program);
void con_tfile_events(const char *node, uint32_t proc, int pid_id,
		      const msgpack_object *events);
void con_tfile_strings(const char *node, uint32_t proc, int pid_id,
		       uint64_t first, const msgpack_object *strings);
void con_tfile_lost(const char *node, uint32_t proc, int pid_id,
		    uint64_t count);
void con_tfile_exit(int pid_id, const char *how, int64_t code);
void con_tfile_var(int pid_id, int bp, const char *file, int line,
		   uint64_t hit, const char *name, const char *value);

/* Flushes what was written to the kernel (called after each batch and by
 * the wait loop); a write error closes the file and is reported once on
 * stderr by the next con_tfile_take_error. */
void con_tfile_flush(void);

/* The sentence of a write error since the last call, or NULL. */
const char *con_tfile_take_error(void);

/* Writes the end record (how the run ended, its exit status) and closes.
 * 0 or a code with err. */
int con_tfile_close(const char *how, int status, char *err, size_t errlen);

/* Reads a trace file into the console's event store (after con_ev_reset)
 * and the clock registry.  Returns the records read (>= 0); when the file
 * ends inside a record, note gets a sentence ("truncated at byte N after
 * R whole records") and the records before it are kept.  A file that is
 * not a paravt trace, or of another version, is a WIRE_E* code with err. */
long con_tfile_load(const char *path, char *note, size_t notelen,
		    char *err, size_t errlen);

#endif
