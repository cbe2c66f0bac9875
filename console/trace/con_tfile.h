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

#define CON_TFILE_VERSION 4

/* Goes on writing the trace file path after its last whole record
 * (cut_at, from con_tfile_load's meta): no header, and nothing of the
 * store (paravt trace --attach).  0 or a code with err. */
int con_tfile_open_append(const char *path, uint64_t cut_at, char *err,
			  size_t errlen);

/* What con_tfile_open asks its caller for: a con_tfile_proc of every
 * process it knows (ended 0, before the stored events), then a
 * con_tfile_exit of each that ended (ended 1, after them). */
typedef void con_tfile_procs_fn(int ended);

/* Starts writing path (created; an existing file is refused unless
 * overwrite).  command is recorded in the header (what was run).  The
 * nodes already up and their clock samples, procs' records (may be
 * NULL) and the events stored so far are written at once.  0, or a
 * WIRE_E* code with err. */
int con_tfile_open(const char *path, const char *command, int overwrite,
		   con_tfile_procs_fn *procs, char *err, size_t errlen);

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
void con_tfile_waited(const char *node, uint32_t proc, int pid_id,
		      uint64_t waits, uint64_t us);
void con_tfile_lost(const char *node, uint32_t proc, int pid_id,
		    uint64_t count);
void con_tfile_exit(int pid_id, const char *how, int64_t code);
/* A breakpoint type table (TYPE_TABLE) of a process's unit, as the node
 * sent it: lets a reader decode values of that unit later. */
void con_tfile_types(const char *node, uint32_t proc, int pid_id,
		     uint64_t unit, const msgpack_object *table);
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

/* Reads a trace file into the console's event store (after con_ev_reset;
 * the store is made unbounded: every event is kept, about
 * CON_EV_REC_BYTES each, until `trace keep N`) and the clock registry.
 * Running out of memory fails the load with a sentence (WIRE_ENOMEM).  Returns the records read (>= 0); when the file
 * ends inside a record, note gets a sentence ("truncated at byte N after
 * R whole records") and the records before it are kept.  A file that is
 * not a paravt trace, or of another version, is a WIRE_E* code with err. */
long con_tfile_load(const char *path, char *note, size_t notelen,
		    char *err, size_t errlen);

/* The same, for a trace read only to be analysed (paravt trace-info,
 * export, report): the events go straight into the analysis
 * (con_ana_stream_begin), not into the store, so a trace needs about
 * ANA_STREAM_EV_BYTES of memory per event instead of that plus
 * CON_EV_REC_BYTES; con_ana_get then returns that analysis. */
long con_tfile_load_analysed(const char *path, char *note, size_t notelen,
			     char *err, size_t errlen);

/* ---- what con_tfile_load read besides the events ---- */

#define CON_TFILE_NAME_MAX 64

/* A node of a trace file. */
typedef struct con_tfile_node_info {
	char name[CON_TFILE_NAME_MAX];  /* console name */
	char arch[128];                 /* arch/ABI description */
	char port[CON_TFILE_NAME_MAX];  /* ports/ name, "" unknown */
	char machine[CON_TFILE_NAME_MAX]; /* uname machine, "" unknown */
	char software[CON_TFILE_NAME_MAX]; /* "paravt 0.1.0", "" unknown */
	uint64_t clocks;                /* clock samples read */
} con_tfile_node_info;

/* A process of a trace file (proc records, and exit records by pid_id). */
typedef struct con_tfile_proc_info {
	char node[CON_TFILE_NAME_MAX];  /* node ("" if only an exit) */
	uint32_t proc;                  /* the daemon's process number */
	int pid_id;                     /* pN */
	char program[256];              /* program, "" unknown */
	int ended;                      /* an exit record was read */
	char how[16];                   /* "exit", "signal", "crash" */
	int64_t code;                   /* exit status or signal */
} con_tfile_proc_info;

/* A recorded variable (var record). */
typedef struct con_tfile_var_info {
	int pid_id, bp, line;
	uint64_t hit;
	char *file, *name, *value;      /* owned by the table */
} con_tfile_var_info;

/* Everything but the events (borrowed until the next con_tfile_load). */
typedef struct con_tfile_meta {
	uint32_t version;               /* format version of the header */
	int64_t created;                /* unix time the file was started */
	char host[256];                 /* console host */
	char command[1024];             /* what was run */
	con_tfile_node_info *nodes;     /* in order of first sight */
	size_t nnodes;
	con_tfile_proc_info *procs;
	size_t nprocs;
	con_tfile_var_info *vars;
	size_t nvars;
	uint64_t ntypes;                /* type tables ("types" records) */
	int ended;                      /* an end record was read */
	char end_how[64];               /* its how */
	int64_t end_status;             /* its status */
	uint64_t records;               /* whole records read */
	uint64_t skipped;               /* malformed or unknown ones skipped */
	uint64_t size;                  /* bytes of the file */
	int truncated;                  /* the file ends inside a record */
	uint64_t cut_at;                /* byte where the last whole record
					   ends (== size when complete) */
} con_tfile_meta;

/* The metadata of the last con_tfile_load (zeroed before each). */
const con_tfile_meta *con_tfile_loaded(void);

/* The node called name of the last load, or NULL. */
const con_tfile_node_info *con_tfile_loaded_node(const char *name);

#endif
