/* con_tfile_cmd.c — placeholder until this module lands. */
#include <stdio.h>
#include "con_cmd.h"
#include "con_sub.h"
#include "wire.h"
int con_cmd_open(int argc, char **argv, char *err, size_t errlen) { (void)argc; snprintf(err, errlen, "%s: not available yet", argv[0]); return WIRE_EARG; }
int con_trace_file(int argc, char **argv, char *err, size_t errlen) { (void)argc; snprintf(err, errlen, "%s: not available yet", argv[0]); return WIRE_EARG; }
int con_sub_trace_info(int argc, char **argv) { (void)argc; fprintf(stderr, "paravt: %s: not available yet\n", argv[0]); return 2; }
