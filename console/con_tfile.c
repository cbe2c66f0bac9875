/* con_tfile.c — placeholder until the trace file writer lands. */
#include "con_tfile.h"
#include "wire.h"
#include <stdio.h>

int con_tfile_open(const char *path, const char *command, int overwrite,
		   char *err, size_t errlen)
{ (void)path; (void)command; (void)overwrite; snprintf(err, errlen, "trace files are not available yet"); return WIRE_EARG; }
int con_tfile_active(void) { return 0; }
const char *con_tfile_path(void) { return ""; }
void con_tfile_node(const char *node, const char *arch) { (void)node; (void)arch; }
void con_tfile_clock(const char *node, const ana_clock_sample *s) { (void)node; (void)s; }
void con_tfile_proc(const char *node, uint32_t proc, int pid_id, const char *program) { (void)node; (void)proc; (void)pid_id; (void)program; }
void con_tfile_events(const char *node, uint32_t proc, int pid_id, const msgpack_object *events) { (void)node; (void)proc; (void)pid_id; (void)events; }
void con_tfile_strings(const char *node, uint32_t proc, int pid_id, uint64_t first, const msgpack_object *strings) { (void)node; (void)proc; (void)pid_id; (void)first; (void)strings; }
void con_tfile_lost(const char *node, uint32_t proc, int pid_id, uint64_t count) { (void)node; (void)proc; (void)pid_id; (void)count; }
void con_tfile_exit(int pid_id, const char *how, int64_t code) { (void)pid_id; (void)how; (void)code; }
void con_tfile_var(int pid_id, int bp, const char *file, int line, uint64_t hit, const char *name, const char *value) { (void)pid_id; (void)bp; (void)file; (void)line; (void)hit; (void)name; (void)value; }
void con_tfile_flush(void) {}
const char *con_tfile_take_error(void) { return NULL; }
int con_tfile_close(const char *how, int status, char *err, size_t errlen) { (void)how; (void)status; (void)err; (void)errlen; return 0; }
long con_tfile_load(const char *path, char *note, size_t notelen, char *err, size_t errlen)
{ (void)path; (void)note; (void)notelen; snprintf(err, errlen, "trace files are not available yet"); return WIRE_EARG; }
