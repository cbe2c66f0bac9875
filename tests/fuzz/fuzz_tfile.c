/*
 * fuzz_tfile.c — libFuzzer target for the trace-file reader
 * (con_tfile_load: `open`, `trace-info`, `report` and `export` read files
 * from anywhere).
 *
 * Input: the bytes of a file.  One that starts like a msgpack array is a
 * trace file: it is written to a temporary file and read either as `open`
 * reads it (into an emptied event store) or, for an odd size, as
 * trace-info does (straight into the analysis: matching, clocks, order).  Any result is
 * fine; the sanitizers catch the rest.  Any other input is text: line by
 * line it goes to the command-line splitter that scripts and the REPL
 * use, and to the parser of nodes-file lines (paravt trace --nodes).
 *
 * Seeds (tests/fuzz/seeds-tfile): `paravt trace` of tests/programs/
 * mpi_pingpong.c (-np 2, N=1), pvm_ring.c (2 1) and a one-line program
 * (events as 72-byte records, format version 2), the same ping-pong in
 * format 3 (mpi-packed: events packed against the event before) and in
 * format 4 (mpi-kinds: packed by kind, wire_evpk.h), and
 * tests/tools/gentrace with 2 round trips (events as arrays of integers,
 * as format version 1 had them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con_cmd.h"
#include "con_ev.h"
#include "con_tfile.h"

static char fz_path[64];

/* Splits each line of data as a command line, and parses it as a line of
 * a nodes file (paravt trace --nodes: `node add LINE`, parsed only). */
static void fz_lines(const uint8_t *data, size_t size)
{
	char line[1024], add[1100], buf[2400], *argv[64], err[256];
	con_node_spec spec;
	size_t i = 0, n;
	int argc;

	while (i < size) {
		for (n = 0; i + n < size && data[i + n] != '\n' &&
			    n < sizeof line - 1; n++)
			line[n] = data[i + n] ? (char)data[i + n] : ' ';
		line[n] = '\0';
		i += n + 1;
		(void)con_cmd_split(line, buf, sizeof buf, argv, 64,
				    line[0] == '#', err, sizeof err);
		snprintf(add, sizeof add, "add %s", line);
		argc = con_cmd_split(add, buf, sizeof buf, argv, 64, 0, err,
				     sizeof err);
		if (argc > 0)
			(void)con_node_cmd_parse_add(argc, argv, &spec, err,
						     sizeof err);
	}
}

/* True if data starts like a msgpack array (a trace file's records). */
static int fz_is_trace(const uint8_t *data, size_t size)
{
	return size > 0 && ((data[0] & 0xf0) == 0x90 || data[0] == 0xdc ||
			    data[0] == 0xdd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char note[512], err[512];
	FILE *f;

	if (!fz_is_trace(data, size)) {
		fz_lines(data, size);
		return 0;
	}
	if (fz_path[0] == '\0')
		snprintf(fz_path, sizeof fz_path, "/tmp/fuzz_tfile.%ld",
			 (long)getpid());
	f = fopen(fz_path, "wb");
	if (f == NULL)
		abort();
	if (fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	con_ev_reset();
	if (size & 1)
		(void)con_tfile_load_analysed(fz_path, note, sizeof note, err,
					      sizeof err);
	else
		(void)con_tfile_load(fz_path, note, sizeof note, err,
				     sizeof err);
	con_ev_reset();
	unlink(fz_path);
	return 0;
}
