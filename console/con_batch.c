/* con_batch.c — placeholder until this module lands. */
#include <stdio.h>
#include "con_cmd.h"
#include "con_sub.h"
#include "wire.h"
int con_sub_trace(int argc, char **argv) { (void)argc; fprintf(stderr, "paravt: %s: not available yet\n", argv[0]); return 2; }
