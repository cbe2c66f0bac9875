/* ana_trace.c — placeholder until the trace model lands. */
#include "ana.h"
ana_trace *ana_new(void) { return 0; }
