/*
 * con_out.h — the console's bound on what one process prints.
 *
 * Every line a process writes reaches the console (con_dbg_hook.c
 * assembles the lines).  The first PARAVT_OUTPUT_CAP bytes of a process's
 * lines (default CON_OUT_CAP_DEFAULT; `paravt trace --output-cap`) are
 * shown; the lines beyond go, with those shown, to a file
 * (con_out_dir()/pN.out, kept after the console ends) and are counted,
 * so that a program that loops printing a prompt can neither flood the
 * terminal nor keep the console from its time limit.  The first line not
 * shown is replaced by a note naming the file; when the process ends (or
 * the console does) a note says how many bytes were not shown.  The file
 * itself stops at PARAVT_OUTPUT_FILE_CAP bytes (default
 * CON_OUT_FILE_CAP_DEFAULT; 0: no limit), which the last note says too.
 *
 * Notes go back to the caller as sentences (the caller queues them as
 * the process's events); nothing here prints.
 */
#ifndef PARAVT_CON_OUT_H
#define PARAVT_CON_OUT_H

#include <stddef.h>
#include <stdint.h>

#define CON_OUT_CAP_DEFAULT (1u << 20)          /* bytes shown per process */
#define CON_OUT_FILE_CAP_DEFAULT (1ull << 30)   /* bytes kept in its file */

/* What one process has printed (zeroed at creation; con_out_free). */
typedef struct con_out {
	uint64_t shown;    /* bytes of lines shown (with their newlines) */
	uint64_t dropped;  /* bytes of lines not shown */
	uint64_t filed;    /* bytes written to the file */
	uint64_t unkept;   /* bytes beyond the file's limit */
	char *kept;        /* the lines shown, until the cap (owned) */
	size_t nkept;
	void *file;        /* FILE * of the spill file, or NULL */
	char path[512];    /* its path, "" until made */
	int failed;        /* the file could not be written */
} con_out;

/* Bytes shown per process (PARAVT_OUTPUT_CAP, read at each call). */
uint64_t con_out_cap(void);

/* Takes one line (without its newline) of process pid_id; nl: a newline
 * ended it (else the line was cut, and the file gets no newline: it
 * holds the bytes as written).  Returns 1 if the caller shows it; 0 if
 * not (it went to the file).  When the line is the first not shown, note
 * gets a sentence for the user, else "". */
int con_out_line(con_out *o, int pid_id, const char *line, int nl,
		 char *note, size_t notelen);

/* At the end of the process: note gets "N bytes of output not shown
 * ..." when lines were dropped, else "".  Closes the file (the counters
 * stay). */
void con_out_end(con_out *o, char *note, size_t notelen);

/* Frees o's memory and closes its file. */
void con_out_free(con_out *o);

/* The directory of the spill files ("" until one was made). */
const char *con_out_dir(void);

#endif
