/* con_hang_cmd.c — placeholder until this module lands. */
#include <stdio.h>
#include "con_cmd.h"
#include "con_sub.h"
#include "wire.h"
int con_info_hang(int argc, char **argv, char *err, size_t errlen) { (void)argc; snprintf(err, errlen, "%s: not available yet", argv[0]); return WIRE_EARG; }
