/*
 * con_sub.h — paravt's one-shot subcommands, chosen by the first argument
 * (`paravt trace -o OUT -- run pvm prog`, `paravt trace-info FILE`,
 * `paravt report FILE -o report.html`, `paravt export FILE ...`).  Each
 * gets argv from its own name on (argv[0] = "trace", ...), prints its own
 * errors and returns the process's exit status.  main.c dispatches;
 * the bodies live with the modules they drive.
 */
#ifndef PARAVT_CON_SUB_H
#define PARAVT_CON_SUB_H

/* Batch capture (con_batch.c). */
int con_sub_trace(int argc, char **argv);

/* Summary of a trace file (cmd_file.c). */
int con_sub_trace_info(int argc, char **argv);

/* HTML report of a trace file (cmd_report.c). */
int con_sub_report(int argc, char **argv);

/* OTF2 / Chrome JSON export of a trace file (cmd_export.c). */
int con_sub_export(int argc, char **argv);
/* Performance prediction from a trace file (cmd_predict.c). */
int con_sub_predict(int argc, char **argv);
/* Sessions left on nodes: listed, or one taken back (con_attach.c). */
int con_sub_attach(int argc, char **argv);

#endif
