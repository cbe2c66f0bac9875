/* con_export_cmd.c — placeholder until this module lands. */
#include <stdio.h>
#include "con_cmd.h"
#include "con_sub.h"
#include "wire.h"
int con_trace_export(int argc, char **argv, char *err, size_t errlen) { (void)argc; snprintf(err, errlen, "%s: not available yet", argv[0]); return WIRE_EARG; }
int con_sub_export(int argc, char **argv) { (void)argc; fprintf(stderr, "paravt: %s: not available yet\n", argv[0]); return 2; }
