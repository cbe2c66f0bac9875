/*
 * cmd_node.c — the `node` subcommands: add, list, remove, reconnect,
 * ping (table con_node_cmds, declared in con_cmd.h).
 *
 * Each body parses its words, calls con_node.c and prints its result on
 * stdout; errors go back to con_cmd_exec() as a sentence.  The node table
 * is printed through one row builder used twice: once to measure the
 * columns, once to print them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_clk.h"
#include "con_cmd.h"
#include "con_node.h"
#include "wire.h"

#define CON_LIST_COLS 13   /* columns of `node list` */
#define CON_LIST_CELL 160  /* widest cell, bytes */
#define CON_FMT_RTT "%.2fms"   /* round-trip times */
#define CON_FMT_OFF "%+.3fms"  /* clock offsets */
#define CON_FMT_ERR "%.3fms"   /* error bounds */
#define CON_FMT_PPM "%+.3fppm" /* clock drifts */

static int con_node_cmd_add(int argc, char **argv, char *err, size_t errlen);
static int con_node_cmd_list(int argc, char **argv, char *err,
			     size_t errlen);
static int con_node_cmd_remove(int argc, char **argv, char *err,
			       size_t errlen);
static int con_node_cmd_reconnect(int argc, char **argv, char *err,
				  size_t errlen);
static int con_node_cmd_ping(int argc, char **argv, char *err,
			     size_t errlen);

/* Option words of `node add`, for completion. */
static const char *const con_node_add_flags[] = {
	"--token-file", "--attach", "--tunnel", "--key", "--known-hosts",
	"--accept-new-host-key", "--accept-changed-host-key", NULL
};

const con_cmd con_node_cmds[] = {
	{"add", "node add NAME HOST:PORT [--token-file FILE] "
		"[--attach[=SESSION]]\n"
		"  node add NAME ssh://[USER@]HOST[:PORT][/PATH/TO/paravtd] "
		"[--tunnel PORT]\n"
		"           [--key FILE] [--known-hosts FILE] "
		"[--accept-new-host-key]\n"
		"           [--accept-changed-host-key] [--token-file FILE]",
	 "connect to a node's daemon and add it",
	 "Connects to the paravtd of a node, checks its protocol version,\n"
	 "authenticates with the token (--token-file, else the console's\n"
	 "--token-file, else ~/.paravt/token), opens a session, estimates\n"
	 "its clock offset and measures how fast the path carries data each\n"
	 "way (transfers of 16 KiB to 4 MiB; PARAVT_LINK_PROBE=0 skips it;\n"
	 "the trace keeps the figures, trace check shows them).  NAME is\n"
	 "1-32 of A-Z a-z 0-9 _ . - and unique.\n"
	 "Over ssh:// the remote side runs \"paravtd --stdio\" (or PATH\n"
	 "--stdio), or with --tunnel PORT the channel goes to the daemon on\n"
	 "the remote 127.0.0.1:PORT.  Keys come from the agent, --key or\n"
	 "~/.ssh/id_*; an unknown or changed host key is refused unless\n"
	 "--accept-new-host-key or --accept-changed-host-key is given.\n"
	 "Each console has a session of its own: it sees only the processes\n"
	 "it started.  When a console goes away (killed, connection lost)\n"
	 "its session stays on the node with its processes and their events\n"
	 "(paravtd --orphan-timeout, 10 minutes by default); --attach takes\n"
	 "back the session detached last (--attach=N: session N), with its\n"
	 "processes, what they printed meanwhile (up to 8 MiB), their stops\n"
	 "and exits, and every event not yet received.  A console that\n"
	 "loses its connection takes its own session back when it\n"
	 "reconnects.",
	 con_node_cmd_add, NULL, CON_ARG_NONE, con_node_add_flags},
	{"list", "node list",
	 "show the nodes, their machines and clocks",
	 "One line per node: name, address, state (up, or down with the\n"
	 "reason), OS, CPU, byte order, sizes of long and pointer in bytes,\n"
	 "port, smallest round-trip time, then the clock model fitted to\n"
	 "all the node's ping samples: OFFSET (daemon minus console at the\n"
	 "last sample, \xc2\xb1 its error bound), DRIFT (ppm: microseconds the\n"
	 "offset grows per second) and SAMPLES (how many).  Samples are\n"
	 "taken when the node is added, by node ping, and in bursts of 4\n"
	 "every PARAVT_CLOCK_INTERVAL seconds (default 2) while run or\n"
	 "continue waits.",
	 con_node_cmd_list, NULL, CON_ARG_NONE, NULL},
	{"remove", "node remove NAME",
	 "disconnect a node and forget it",
	 "Says goodbye to the node's daemon, closes the connection and\n"
	 "removes the node from the table.",
	 con_node_cmd_remove, NULL, CON_ARG_NODE, NULL},
	{"reconnect", "node reconnect NAME",
	 "connect again to a node with the same settings",
	 "Closes the node's connection if it is still open and connects\n"
	 "again with the address and options it was added with.",
	 con_node_cmd_reconnect, NULL, CON_ARG_NODE, NULL},
	{"ping", "node ping NAME [COUNT]",
	 "measure round trips and the clock offset",
	 "Sends COUNT (default 4, at most 1000) timed pings and prints each\n"
	 "round trip and offset; the best sample becomes the node's clock\n"
	 "estimate.  Every sample joins the node's clock model (see node\n"
	 "list), printed last:\n"
	 "  NAME: clock model: offset OFF \xc2\xb1" "ERR, drift D, N samples",
	 con_node_cmd_ping, NULL, CON_ARG_NODE, NULL},
	{NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL}
};

/* ---- helpers ---------------------------------------------------------- */

/* The node called name, or NULL with err filled. */
static con_node *con_node_cmd_get(const char *name, char *err, size_t errlen)
{
	con_node *n = con_node_find(name);

	if (n == NULL)
		snprintf(err, errlen, "no node named '%s' (see 'node list')",
			 name);
	return n;
}

/* Formats nanoseconds as milliseconds with a printf format such as
 * "%.2fms"; a value that rounds to zero is printed as +0 (never -0). */
static void con_node_cmd_ms(char *buf, size_t n, int64_t ns, const char *fmt)
{
	double ms = (double)ns / 1e6;

	if (ms > -0.0005 && ms < 0.0005)
		ms = 0.0;
	snprintf(buf, n, fmt, ms);
}

/* The cells of n's fitted clock model: offset at the last sample with
 * its bound, drift, samples.  0, or -1 (cells untouched) when the node has
 * no model. */
static int con_node_cmd_model(const con_node *n, char *off, char *drift,
			      char *count, size_t len)
{
	const ana_clock_sample *s;
	char o[32], e[32];
	size_t ns = con_clk_samples(n->spec.name, &s);
	ana_clock m;
	int64_t t;

	if (ns == 0 || con_clk_model(n->spec.name, &m) != 0 || !m.valid)
		return -1;
	t = s[ns - 1].t1;
	con_node_cmd_ms(o, sizeof o, t - ana_clock_to_console(&m, t),
			CON_FMT_OFF);
	con_node_cmd_ms(e, sizeof e, m.err_ns, CON_FMT_ERR);
	snprintf(off, len, "%s \xc2\xb1%s", o, e);
	snprintf(drift, len, CON_FMT_PPM, m.drift * 1e6);
	snprintf(count, len, "%zu", ns);
	return 0;
}

/* Prints the line that says a node is up. */
static void con_node_cmd_print_up(const con_node *n)
{
	char rtt[32], off[32];

	con_node_cmd_ms(rtt, sizeof rtt, n->clock.rtt_ns, CON_FMT_RTT);
	con_node_cmd_ms(off, sizeof off, n->clock.offset_ns, CON_FMT_OFF);
	printf("node %s is up: %s %s, %s-endian, %s, session %llu, "
	       "rtt %s, offset %s\n", n->spec.name, n->hello.os,
	       n->hello.arch, n->hello.abi.byte_order, n->hello.port,
	       (unsigned long long)n->session, rtt, off);
}

/* If argv[*i] is flag ("--x VALUE" or "--x=VALUE"), stores VALUE in
 * *val, advances *i past it and returns 1; 0 if it is another word;
 * -1 when the value is missing. */
static int con_node_cmd_flag(int argc, char **argv, int *i,
			     const char *flag, const char **val)
{
	size_t n = strlen(flag);

	if (strncmp(argv[*i], flag, n) != 0)
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

/* Copies a flag value into a fixed field; 0 or -1 when too long. */
static int con_node_cmd_copy(char *dst, size_t n, const char *val)
{
	return snprintf(dst, n, "%s", val) < (int)n ? 0 : -1;
}

/* Applies one option word of `node add` to spec (ssh options land in
 * spec->ssh; their use without ssh:// is checked later).  1 if the word
 * was an option, 0 if not, -1 with err on a bad value. */
static int con_node_cmd_option(int argc, char **argv, int *i,
			       con_node_spec *spec, int *ssh_only,
			       char *err, size_t errlen)
{
	const char *v = NULL, *flag = argv[*i];
	int r, bad = 0;
	char *end;

	if (strcmp(flag, "--attach") == 0)
		return spec->attach = 1;
	if (strncmp(flag, "--attach=", 9) == 0) {
		spec->attach = 1;
		spec->attach_id = strtoull(flag + 9, &end, 10);
		if (flag[9] < '1' || flag[9] > '9' || *end != '\0') {
			snprintf(err, errlen, "node add: bad session in %s "
				 "(a session number)", flag);
			return -1;
		}
		return 1;
	}
	if (strcmp(flag, "--accept-new-host-key") == 0)
		return *ssh_only = spec->ssh.accept_unknown = 1;
	if (strcmp(flag, "--accept-changed-host-key") == 0)
		return *ssh_only = spec->ssh.accept_changed = 1;
	if ((r = con_node_cmd_flag(argc, argv, i, "--token-file", &v)) > 0)
		bad = con_node_cmd_copy(spec->token_file,
					sizeof spec->token_file, v);
	else if (r == 0 && (r = con_node_cmd_flag(argc, argv, i, "--key",
						  &v)) > 0)
		bad = con_node_cmd_copy(spec->ssh.key_file,
					sizeof spec->ssh.key_file, v);
	else if (r == 0 && (r = con_node_cmd_flag(argc, argv, i,
						  "--known-hosts", &v)) > 0)
		bad = con_node_cmd_copy(spec->ssh.known_hosts,
					sizeof spec->ssh.known_hosts, v);
	else if (r == 0 && (r = con_node_cmd_flag(argc, argv, i, "--tunnel",
						  &v)) > 0) {
		spec->ssh.tunnel_port = (int)strtol(v, &end, 10);
		bad = *end != '\0' || spec->ssh.tunnel_port < 1 ||
		      spec->ssh.tunnel_port > 65535;
	}
	if (r > 0 && strcmp(flag, "--token-file") != 0 &&
	    strncmp(flag, "--token-file=", 13) != 0)
		*ssh_only = 1;
	if (r < 0 || bad) {
		snprintf(err, errlen, "node add: %s for %s",
			 r < 0 ? "missing value" : "bad value", flag);
		return -1;
	}
	return r;
}

/* ---- node add --------------------------------------------------------- */

int con_node_cmd_parse_add(int argc, char **argv, con_node_spec *spec,
				  char *err, size_t errlen)
{
	const char *pos[2];
	int i, r, npos = 0, ssh_only = 0;
	con_ssh_opts keep;

	memset(spec, 0, sizeof *spec);
	for (i = 1; i < argc; i++) {
		r = con_node_cmd_option(argc, argv, &i, spec, &ssh_only, err,
					errlen);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (argv[i][0] == '-' || npos == 2) {
			snprintf(err, errlen, "node add: unexpected '%s'; "
				 "try 'help node add'", argv[i]);
			return -1;
		}
		pos[npos++] = argv[i];
	}
	if (npos != 2) {
		snprintf(err, errlen, "usage: node add NAME HOST:PORT|ssh://"
			 "[USER@]HOST[:PORT][/PATH] [OPTIONS]");
		return -1;
	}
	if (con_node_cmd_copy(spec->name, sizeof spec->name, pos[0]) != 0 ||
	    con_node_cmd_copy(spec->addr, sizeof spec->addr, pos[1]) != 0) {
		snprintf(err, errlen, "node add: name or address too long");
		return -1;
	}
	spec->is_ssh = strncmp(pos[1], "ssh://", 6) == 0;
	if (!spec->is_ssh) {
		if (!ssh_only)
			return 0;
		snprintf(err, errlen, "node add: the SSH options need an "
			 "ssh:// address");
		return -1;
	}
	keep = spec->ssh;
	if (con_ssh_parse_url(pos[1], &spec->ssh, err, errlen) != 0)
		return -1;
	spec->ssh.tunnel_port = keep.tunnel_port;
	spec->ssh.accept_unknown = keep.accept_unknown;
	spec->ssh.accept_changed = keep.accept_changed;
	memcpy(spec->ssh.key_file, keep.key_file, sizeof keep.key_file);
	memcpy(spec->ssh.known_hosts, keep.known_hosts,
	       sizeof keep.known_hosts);
	return 0;
}

/* node add NAME ADDRESS [OPTIONS] */
static int con_node_cmd_add(int argc, char **argv, char *err, size_t errlen)
{
	con_node_spec spec;
	int rc;

	if (con_node_cmd_parse_add(argc, argv, &spec, err, errlen) != 0)
		return WIRE_EARG;
	rc = con_node_add(&spec, err, errlen);
	if (rc == 0)
		con_node_cmd_print_up(con_node_find(spec.name));
	return rc;
}

/* ---- node list -------------------------------------------------------- */

/* Fills the cells of one row of `node list` (n NULL: the header). */
static void con_node_cmd_row(const con_node *n,
			     char cell[CON_LIST_COLS][CON_LIST_CELL])
{
	static const char *const head[CON_LIST_COLS] = {
		"NAME", "ADDRESS", "STATE", "OS", "ARCH", "ORDER", "LONG",
		"PTR", "PORT", "RTT", "OFFSET", "DRIFT", "SAMPLES"
	};
	const wire_hello *h;
	char off[32], err[32];
	int i;

	for (i = 0; i < CON_LIST_COLS; i++)
		snprintf(cell[i], CON_LIST_CELL, "%s", n == NULL ? head[i] :
			 "-");
	if (n == NULL)
		return;
	h = &n->hello;
	snprintf(cell[0], CON_LIST_CELL, "%s", n->spec.name);
	snprintf(cell[1], CON_LIST_CELL, "%.150s", n->spec.addr);
	if (n->up)
		snprintf(cell[2], CON_LIST_CELL, "up");
	else
		snprintf(cell[2], CON_LIST_CELL, "down (%.140s)", n->reason);
	if (n->have_hello) {
		snprintf(cell[3], CON_LIST_CELL, "%s", h->os);
		snprintf(cell[4], CON_LIST_CELL, "%s", h->arch);
		snprintf(cell[5], CON_LIST_CELL, "%s", h->abi.byte_order);
		snprintf(cell[6], CON_LIST_CELL, "%u",
			 h->abi.size[WIRE_CT_LONG]);
		snprintf(cell[7], CON_LIST_CELL, "%u",
			 h->abi.size[WIRE_CT_PTR]);
		snprintf(cell[8], CON_LIST_CELL, "%s", h->port);
	}
	if (!n->up || !n->clock.valid)
		return;
	con_node_cmd_ms(cell[9], CON_LIST_CELL, n->clock.rtt_ns, CON_FMT_RTT);
	if (con_node_cmd_model(n, cell[10], cell[11], cell[12],
			       CON_LIST_CELL) == 0)
		return;
	con_node_cmd_ms(off, sizeof off, n->clock.offset_ns, CON_FMT_OFF);
	con_node_cmd_ms(err, sizeof err, n->clock.err_ns, CON_FMT_ERR);
	snprintf(cell[10], CON_LIST_CELL, "%s \xc2\xb1%s", off, err);
}

/* Widens w to fit the row of n (NULL: header) or, with print, prints it. */
static void con_node_cmd_line(const con_node *n, int w[CON_LIST_COLS],
			      int print)
{
	char cell[CON_LIST_COLS][CON_LIST_CELL];
	int i, len;

	con_node_cmd_row(n, cell);
	for (i = 0; i < CON_LIST_COLS; i++) {
		len = (int)strlen(cell[i]);
		if (!print && len > w[i])
			w[i] = len;
		if (print && i < CON_LIST_COLS - 1)
			printf("%-*s  ", w[i], cell[i]);
	}
	if (print)
		printf("%s\n", cell[CON_LIST_COLS - 1]);
}

/* node list */
static int con_node_cmd_list(int argc, char **argv, char *err, size_t errlen)
{
	int w[CON_LIST_COLS] = {0};
	const con_node *n;

	if (argc != 1) {
		snprintf(err, errlen, "usage: node list");
		return WIRE_EARG;
	}
	if (con_node_first() == NULL) {
		printf("no nodes; add one with 'node add NAME HOST:PORT'\n");
		return 0;
	}
	con_node_cmd_line(NULL, w, 0);
	for (n = con_node_first(); n != NULL; n = n->next)
		con_node_cmd_line(n, w, 0);
	con_node_cmd_line(NULL, w, 1);
	for (n = con_node_first(); n != NULL; n = n->next)
		con_node_cmd_line(n, w, 1);
	return 0;
}

/* ---- node remove, reconnect, ping ------------------------------------- */

/* node remove NAME */
static int con_node_cmd_remove(int argc, char **argv, char *err,
			       size_t errlen)
{
	con_node *n;

	if (argc != 2) {
		snprintf(err, errlen, "usage: node remove NAME");
		return WIRE_EARG;
	}
	n = con_node_cmd_get(argv[1], err, errlen);
	if (n == NULL)
		return WIRE_EARG;
	con_node_remove(n);
	printf("node %s removed\n", argv[1]);
	return 0;
}

/* node reconnect NAME */
static int con_node_cmd_reconnect(int argc, char **argv, char *err,
				  size_t errlen)
{
	con_node *n;
	int rc;

	if (argc != 2) {
		snprintf(err, errlen, "usage: node reconnect NAME");
		return WIRE_EARG;
	}
	n = con_node_cmd_get(argv[1], err, errlen);
	if (n == NULL)
		return WIRE_EARG;
	rc = con_node_reconnect(n, err, errlen);
	if (rc == 0)
		con_node_cmd_print_up(n);
	return rc;
}

/* node ping NAME [COUNT] */
static int con_node_cmd_ping(int argc, char **argv, char *err, size_t errlen)
{
	char rtt[32], off[64], drift[64], count_s[64], *end;
	int64_t sum = 0, min = INT64_MAX, max = 0;
	con_clock s;
	con_node *n;
	long i, count = 4;
	int rc;

	if (argc == 3)
		count = strtol(argv[2], &end, 10);
	if (argc < 2 || argc > 3 || (argc == 3 && *end != '\0') ||
	    count < 1 || count > 1000) {
		snprintf(err, errlen, "usage: node ping NAME [COUNT] "
			 "(COUNT 1-1000)");
		return WIRE_EARG;
	}
	n = con_node_cmd_get(argv[1], err, errlen);
	if (n == NULL)
		return WIRE_EARG;
	for (i = 1; i <= count; i++) {
		rc = con_node_ping(n, &s, err, errlen);
		if (rc < 0)
			return rc;
		con_node_cmd_ms(rtt, sizeof rtt, s.rtt_ns, CON_FMT_RTT);
		con_node_cmd_ms(off, sizeof off, s.offset_ns, CON_FMT_OFF);
		printf("%s: ping %ld: rtt %s offset %s\n", n->spec.name, i,
		       rtt, off);
		sum += s.rtt_ns;
		min = s.rtt_ns < min ? s.rtt_ns : min;
		max = s.rtt_ns > max ? s.rtt_ns : max;
	}
	printf("%s: %ld pings, rtt min/avg/max %.3f/%.3f/%.3fms\n",
	       n->spec.name, count, (double)min / 1e6,
	       (double)sum / (double)count / 1e6, (double)max / 1e6);
	if (con_node_cmd_model(n, off, drift, count_s, sizeof off) == 0)
		printf("%s: clock model: offset %s, drift %s, %s samples\n",
		       n->spec.name, off, drift, count_s);
	return 0;
}
