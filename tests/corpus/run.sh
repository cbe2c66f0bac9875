#!/bin/sh
# tests/corpus/run.sh — runs real PVM and MPI programs that nobody on this
# project wrote, each once plainly and once under paravt, and compares:
#   - the C examples of Debian's pvm-examples package (installed with
#     apt-get when missing), table in tests/corpus/pvm.table;
#   - MPICH's own test suite (test/mpi of `apt-get source mpich`: pt2pt,
#     coll, comm, group), built against Open MPI with MPICH's util/mtest*.c.
# Nothing of either is in the repository: both are fetched from Debian's
# archive at run time into the work directory ($PARAVT_CORPUS_DIR, default
# build/corpus).  For each program: output lines (order aside, after a
# filter that masks tids, times, host names and paths), exit status, and
# from the trace (`paravt trace-info`, `paravt -e 'open F' -e 'trace
# check'`) unmatched sends/receives, receives before their send,
# repaired events and inversions.  One line per program, then a summary.
# See tests/corpus/README.  Not part of `make check` (it takes long).
#
# usage: sh tests/corpus/run.sh [--plain-only] [--list] [--pvm-only]
#            [--mpi-only] [--timeout SECS] [--mpich-dirs 'DIR...']
#            [--keep-traces] [PATTERN...]
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$TOP/tests/corpus
PARAVT=$TOP/build/linux-x86_64/bin/paravt
PARAVTD=$TOP/build/linux-x86_64/bin/paravtd
W=${PARAVT_CORPUS_DIR:-$TOP/build/corpus}
LIMIT=90
PLAIN_ONLY=0 LIST_ONLY=0 DO_PVM=1 DO_MPI=1 KEEP=0
MPICH_DIRS=${PARAVT_CORPUS_MPICH_DIRS:-"pt2pt coll comm group init attr info topo errhan datatype"}
PATTERNS=""

usage() {
	sed -n 's/^# usage: //p; s/^#            /    /p' "$0" | sed -n '1,3p' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--plain-only) PLAIN_ONLY=1 ;;
	--list) LIST_ONLY=1 ;;
	--pvm-only) DO_MPI=0 ;;
	--mpi-only) DO_PVM=0 ;;
	--keep-traces) KEEP=1 ;;
	--timeout) [ $# -ge 2 ] || usage; LIMIT=$2; shift
		case $LIMIT in '' | *[!0-9]*) echo "run.sh: --timeout takes seconds" >&2; exit 2 ;; esac ;;
	--mpich-dirs) [ $# -ge 2 ] || usage; MPICH_DIRS=$2; shift ;;
	-h | --help) usage ;;
	-*) echo "run.sh: unknown option $1" >&2; usage ;;
	*) PATTERNS="$PATTERNS $1" ;;
	esac
	shift
done

# ---- temp dir, process tag, cleanup ----------------------------------------
# Every process this script starts carries PARAVT_CORPUS_RUN=$T in its
# environment; the exit hook kills them by PID (plus the daemon and the
# private pvmds), whatever the way out: end, failure, Ctrl-C, TERM.
T=$(mktemp -d /tmp/paravt-corpus.XXXXXX) || exit 2
export PARAVT_CORPUS_RUN="$T"
export TMPDIR="$T"
CUR="" DPID=""
# The plain MPI runs put their shared-memory segments (4 MiB a rank,
# /dev/shm by default) in a directory of this script's in memory,
# emptied after each run: a run killed at the time limit would leave
# them there until a reboot.  (Traced runs have paravtd's, dmn_mpidir.)
MD=""
[ -d /dev/shm ] && [ -w /dev/shm ] && MD=$(mktemp -d /dev/shm/paravt-corpus.XXXXXX)

_tagged_pids() {
	(
		_tag=$PARAVT_CORPUS_RUN
		unset PARAVT_CORPUS_RUN
		grep -lzs "^PARAVT_CORPUS_RUN=$_tag\$" /proc/[0-9]*/environ 2>/dev/null |
			sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$"
	)
}
# kill_pids PID...: TERM, up to 3 s, then KILL (bounded).
kill_pids() {
	[ $# -gt 0 ] || return 0
	kill "$@" 2>/dev/null
	_i=0
	while [ $_i -lt 30 ]; do
		_alive=""
		for _p in "$@"; do
			[ -e "/proc/$_p" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$_p/stat" 2>/dev/null &&
				_alive="$_alive $_p"
		done
		[ -z "$_alive" ] && return 0
		sleep 0.1; _i=$((_i + 1))
	done
	# shellcheck disable=SC2086
	kill -9 $_alive 2>/dev/null
	return 0
}
cleanup() {
	rc=$?
	set +e
	trap '' INT TERM HUP
	[ -n "$CUR" ] && kill_pids $CUR
	[ -n "$DPID" ] && kill_pids $DPID
	# shellcheck disable=SC2046
	kill_pids $(_tagged_pids | sort -u)
	rm -rf "$T"
	[ -n "$MD" ] && rm -rf "$MD"
	exit $rc
}
trap cleanup EXIT
trap 'echo "run.sh: interrupted" >&2; exit 130' INT TERM HUP

die() { echo "run.sh: $*" >&2; exit 2; }
note() { echo "run.sh: $*" >&2; }

# bounded SECS OUT ERR CMD...: runs CMD in the background with no standard
# input, at most SECS seconds (TERM, then KILL 5 s later), output to OUT
# and ERR (one file, in the order written, when they are the same name);
# returns its status (124: time limit).  In the background, and
# never inside a subshell of ours, so that a signal to this script runs
# its trap at once.  $B_DIR (default .) is its directory, $B_IN (default
# /dev/null) its standard input; both are reset after each call.
B_DIR=. B_IN=/dev/null
bounded() {
	_s=$1 _o=$2 _e=$3; shift 3
	if [ "$_o" = "$_e" ]; then
		(cd "$B_DIR" && exec timeout -k 5 "$_s" "$@") <"$B_IN" >"$_o" 2>&1 &
	else
		(cd "$B_DIR" && exec timeout -k 5 "$_s" "$@") <"$B_IN" >"$_o" 2>"$_e" &
	fi
	CUR=$!
	B_DIR=. B_IN=/dev/null
	wait "$CUR"
	_rc=$?
	CUR=""
	return $_rc
}

# selected NAME: true when NAME matches one of the patterns (or none given).
selected() {
	[ -z "$PATTERNS" ] && return 0
	for _p in $PATTERNS; do
		printf '%s\n' "$1" | grep -Eq -- "$_p" && return 0
	done
	return 1
}

# ---- fetching the corpus from Debian ---------------------------------------
need_root() { [ "$(id -u)" = 0 ] || die "$1 needs root (apt-get); run as root or fetch it once as root"; }

fetch_pvm() {
	if ! dpkg -s pvm-examples >/dev/null 2>&1 || [ ! -e /usr/share/doc/pvm-examples/examples.tar.gz ]; then
		need_root "installing pvm-examples"
		note "installing Debian's pvm-examples (apt-get install pvm-examples)"
		bounded 600 "$T/apt.out" "$T/apt.err" env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y --no-install-recommends pvm-examples ||
			{ cat "$T/apt.out" "$T/apt.err" >&2; die "apt-get install pvm-examples failed"; }
	fi
	command -v pvmd >/dev/null || die "no pvmd (install pvm and pvm-dev)"
	PVMSRC=$W/pvm
	if [ ! -e "$PVMSRC/gexamples/gexamp.c" ] || [ ! -e "$PVMSRC/examples/hello.c" ]; then
		rm -rf "$PVMSRC"
		mkdir -p "$PVMSRC" || die "cannot make $PVMSRC"
		for _a in examples gexamples; do
			tar -xzf "/usr/share/doc/pvm-examples/$_a.tar.gz" -C "$PVMSRC" ||
				die "cannot unpack $_a.tar.gz"
		done
		# The tar files carry prebuilt LINUX64 objects: not ours to run.
		rm -rf "$PVMSRC/examples/LINUX64" "$PVMSRC/gexamples/LINUX64"
	fi
}

# has_deb_src: true when apt has a deb-src entry for Debian's main archive
# (one-line or deb822 format).
has_deb_src() {
	grep -Eqs '^deb-src .*deb\.debian\.org/debian ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
	for _f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$_f" ] || continue
		awk 'BEGIN { RS = ""; found = 0 }
			/(^|\n)Types:[^\n]*deb-src/ && /(^|\n)URIs:[^\n]*deb\.debian\.org\/debian([ \/\n]|$)/ &&
			!/(^|\n)Enabled: *no/ { found = 1 }
			END { exit !found }' "$_f" && return 0
	done
	return 1
}

# add_deb_src: a separate deb822 file with Types: deb-src for the URIs and
# suites of Debian's own entry (idempotent: nothing when one exists).
add_deb_src() {
	has_deb_src && return 0
	need_root "adding a deb-src entry"
	_src=/etc/apt/sources.list.d/debian.sources
	_new=/etc/apt/sources.list.d/paravt-corpus-src.sources
	if [ -e "$_src" ]; then
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
			/(^|\n)URIs:[^\n]*deb\.debian\.org\/debian([ \/\n]|$)/ {
				sub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print }' \
			"$_src" >"$T/src.sources"
	fi
	if [ ! -s "$T/src.sources" ]; then
		_suite=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-bookworm}")
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$_suite" >"$T/src.sources"
	fi
	cp "$T/src.sources" "$_new" || die "cannot write $_new"
	note "added $_new (Types: deb-src for Debian's archive, needed by apt-get source)"
	apt_update_for_src
}

# apt_update_for_src: apt-get update, once more after a pause if a
# mirror was syncing; an index that still fails (another architecture's,
# the security archive's) does not matter as long as apt now knows
# mpich's source package.
apt_update_for_src() {
	bounded 600 "$T/apt.out" "$T/apt.err" apt-get update && return 0
	note "apt-get update failed; once more in 30 s: $(grep -m1 '^E:' "$T/apt.err")"
	sleep 30
	bounded 600 "$T/apt.out" "$T/apt.err" apt-get update && return 0
	if apt-cache showsrc mpich >/dev/null 2>&1; then
		note "apt-get update failed for some index, but mpich's source is known: going on"
		return 0
	fi
	cat "$T/apt.err" >&2
	die "apt-get update failed"
}

fetch_mpich() {
	command -v mpicc >/dev/null && command -v mpirun >/dev/null ||
		die "no Open MPI (mpicc, mpirun): apt-get install libopenmpi-dev openmpi-bin"
	MPISRC=""
	for _d in "$W"/mpi/mpich-*/test/mpi; do
		[ -e "$_d/util/mtest.c" ] && MPISRC=$_d
	done
	if [ -z "$MPISRC" ]; then
		add_deb_src
		rm -rf "$W/mpi"
		mkdir -p "$W/mpi" || die "cannot make $W/mpi"
		note "fetching MPICH's source package (apt-get source mpich) into $W/mpi"
		B_DIR=$W/mpi
		bounded 900 "$T/src.out" "$T/src.err" apt-get source mpich ||
			{ tail -20 "$T/src.out" "$T/src.err" >&2; die "apt-get source mpich failed"; }
		for _d in "$W"/mpi/mpich-*/test/mpi; do
			[ -e "$_d/util/mtest.c" ] && MPISRC=$_d
		done
		[ -n "$MPISRC" ] || die "no test/mpi/util/mtest.c in the unpacked MPICH source"
	fi
	# The configure-made header of MPICH's test suite, for Open MPI on
	# this Linux: strict MPI (no MPICH extensions), C99 types, POSIX.
	MPICONF=$W/mpi/conf
	mkdir -p "$MPICONF"
	cat >"$MPICONF/mpitestconf.h" <<-'EOF'
	/* mpitestconf.h — written by paravt's tests/corpus/run.sh in place of
	 * the header MPICH's configure makes: the test suite built against
	 * Open MPI on Linux, strict MPI (no MPICH-only extensions). */
	#ifndef MPITESTCONF_H_INCLUDED
	#define MPITESTCONF_H_INCLUDED
	#define USE_STRICT_MPI 1
	#define HAVE_STDARG_H 1
	#define HAVE_STDLIB_H 1
	#define HAVE_STRING_H 1
	#define HAVE_STRINGS_H 1
	#define HAVE_STDINT_H 1
	#define HAVE_INTTYPES_H 1
	#define HAVE_UNISTD_H 1
	#define HAVE_SYS_TIME_H 1
	#define HAVE_SYS_TYPES_H 1
	#define HAVE_SYS_STAT_H 1
	#define HAVE_SYS_RESOURCE_H 1
	#define HAVE_GETRUSAGE 1
	#define HAVE_USLEEP 1
	#define HAVE_STRDUP 1
	#define HAVE_LONG_DOUBLE 1
	#define HAVE_LONG_LONG 1
	#define HAVE__BOOL 1
	#define HAVE_FLOAT__COMPLEX 1
	#define HAVE_DOUBLE__COMPLEX 1
	#define HAVE_LONG_DOUBLE__COMPLEX 1
	#define HAVE_MPI_IO 1
	#define HAVE_MPI_WIN_CREATE 1
	#define HAVE_MPI_SPAWN 1
	#define HAVE_PTHREAD_H 1
	#define STDC_HEADERS 1
	#define SIZEOF_INT 4
	#define SIZEOF_LONG 8
	#define SIZEOF_LONG_LONG 8
	#define SIZEOF_SHORT 2
	#define SIZEOF_VOID_P 8
	#define SIZEOF_MPI_OFFSET 8
	#define POINTERINT_t long
	#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
	#endif
	EOF
}

# ---- the program lists -----------------------------------------------------
# One line per entry in $T/pvm.list / $T/mpi.list (fields separated by |):
#   pvm: NAME|SOURCES|FLAGS|MASTER ARGS|STDIN|FILTER   or  NAME|!REASON
#   mpi: NAME|DIR|SOURCES|FLAGS|NP|ARGS|NOTE           or  NAME|!REASON
list_pvm() {
	sed -e 's/^[ 	]*//' -e '/^#/d' -e '/^$/d' "$HERE/pvm.table" |
		awk -F'|' '{
			for (i = 1; i <= NF; i++) { gsub(/^[ \t]+|[ \t]+$/, "", $i) }
			if ($1 ~ /^!/) { n = $1; sub(/^! */, "", n); print "pvm/" n "|!" $2 }
			else print "pvm/" $1 "|" $2 "|" $3 "|" $4 "|" $5 "|" $6
		}' >"$T/pvm.list"
}

# mpich_sources DIR: per-program sources and flags of DIR's Makefile.am
# (automake's NAME_SOURCES / NAME_CPPFLAGS / NAME_LDADD), as
# NAME|SOURCES|FLAGS lines.
mpich_sources() {
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$MPISRC/$1/Makefile.am" |
		awk '/^[A-Za-z0-9_]+_(SOURCES|CPPFLAGS|LDADD) *=/ {
			split($0, kv, "="); key = kv[1]; gsub(/ /, "", key)
			val = substr($0, index($0, "=") + 1)
			gsub(/\$\((AM_CPPFLAGS|LDADD)\)/, "", val); gsub(/^ +| +$/, "", val); gsub(/  +/, " ", val)
			n = key; sub(/_(SOURCES|CPPFLAGS|LDADD)$/, "", n)
			if (key ~ /_SOURCES$/) src[n] = val; else flg[n] = flg[n] " " val
			names[n] = 1 }
			END { for (n in names) { f = flg[n]; gsub(/^ +/, "", f); print n "|" src[n] "|" f } }'
}

# list_mpich: the tests of each directory's testlist, each name once (its
# first line without env=, else its first line); skipped with the reason:
# large-memory tests, strict=false ones (MPICH extensions), those that
# use MPICH's dtpools library or MPIX_/MPIR_ calls.
list_mpich() {
	: >"$T/mpi.list"
	for _dir in $MPICH_DIRS; do
		_tl=$MPISRC/$_dir/testlist
		[ -e "$_tl" ] || _tl=$_tl.in
		[ -e "$_tl" ] || { note "no testlist in $_dir: skipped"; continue; }
		mpich_sources "$_dir" >"$T/srcmap"
		awk -v dir="$_dir" -v srcmap="$T/srcmap" -v src="$MPISRC" '
			BEGIN { FS = "|"; while ((getline l < srcmap) > 0) { split(l, a, "|"); S[a[1]] = a[2]; F[a[1]] = a[3] } FS = " " }
			/^[ \t]*(#|$)/ { next }
			{
				large = ($1 ~ /^@/); name = $1; sub(/^@[a-z]+@/, "", name)
				if (name in seen && !(seen[name] == "env" && $0 !~ /env=/)) next
				seen[name] = ($0 ~ /env=/) ? "env" : "plain"
				np = $2; args = ""; note = ""; why = ""
				for (i = 3; i <= NF; i++) {
					if ($i ~ /^arg=/) args = args " " substr($i, 5)
					else if ($i ~ /^mem=/) why = "needs " substr($i, 5) " GB of memory (testlist mem=)"
					else if ($i ~ /^strict=false/) why = "strict=false in testlist: an MPICH extension"
					else if ($i ~ /^mpiversion=/) { v = substr($i, 12); if (v + 0 > 3.1) why = "needs MPI " v " (Open MPI 4.1 has 3.1)" }
					else if ($i ~ /^xfail=/) note = "xfail in MPICH"
					else if ($i ~ /^env=/) note = note (note == "" ? "" : ", ") "MPICH env " substr($i, 5) " not set"
					else if ($i ~ /^timeLimit=/) { }
					else if ($i ~ /\//) { }
				}
				if (large && why == "") why = "a large test (@largetest@ in testlist)"
				s = (name in S && S[name] != "") ? S[name] : name ".c"
				gsub(/^ +/, "", args)
				E[name] = why; L[name] = dir "|" s "|" F[name] "|" np "|" args "|" note
				if (!(name in ord)) { ord[name] = ++n; O[n] = name }
			}
			END { for (i = 1; i <= n; i++) { nm = O[i]
				if (E[nm] != "") print "mpich/" dir "/" nm "|!" E[nm]
				else print "mpich/" dir "/" nm "|" L[nm] } }' "$_tl" >"$T/dir.list"
		# Sources that need what only MPICH has.
		while IFS='|' read -r _n _d _s _f _np _a _no; do
			case $_d in !*) echo "$_n|$_d"; continue ;; esac
			_why=""
			for _x in $_s; do
				_p=$MPISRC/$_dir/$_x
				[ -e "$_p" ] || { _why="no source $_x in $_dir"; break; }
				if grep -q 'mtest_dtp\.h\|DTP_pool' "$_p"; then
					_why="uses MPICH's dtpools library (mtest_dtp.h)"; break
				fi
				_m=$(grep -o 'MPI[XR]_[A-Za-z_]*' "$_p" | sort -u | head -3 | tr '\n' ' ')
				[ -n "$_m" ] && { _why="calls MPICH-only ${_m% }"; break; }
			done
			if [ -n "$_why" ]; then echo "$_n|!$_why"; else echo "$_n|$_d|$_s|$_f|$_np|$_a|$_no"; fi
		done <"$T/dir.list" >>"$T/mpi.list"
	done
}

# ---- output filters --------------------------------------------------------
HOSTNAME_=$(hostname 2>/dev/null || echo localhost)
# common_filter: masks what differs between any two runs: PVM tids (hex,
# with or without t/0x, and in decimal), absolute paths (to the file
# name), the host name, dates and times of day; trailing blanks; empty
# lines dropped.
common_filter() {
	sed -e "s/\\b$HOSTNAME_\\b/HOST/g" \
		-e 's|/[^ :<>"]*/\([^/ :<>"]*\)|\1|g' \
		-e 's/\bt[0-9a-f]\{5,8\}\b/tTID/g' \
		-e 's/\b0x[0-9a-f]\{5,8\}\b/tTID/g' \
		-e 's/\b26[0-9]\{4\}\b/TIDDEC/g' \
		-e 's/[0-9][0-9]:[0-9][0-9]:[0-9][0-9]/HH:MM:SS/g' \
		-e 's/[ 	]*$//' -e '/^$/d'
}

# ---- the paravt daemon -----------------------------------------------------
start_daemon() {
	rm -f "$T/d.port"
	"$PARAVTD" --listen 127.0.0.1:0 --port-file "$T/d.port" --name corpus \
		--log "$T/d.log" </dev/null >"$T/d.out" 2>&1 &
	DPID=$!
	_i=0
	while [ ! -s "$T/d.port" ] && [ $_i -lt 200 ]; do sleep 0.1; _i=$((_i + 1)); done
	[ -s "$T/d.port" ] || { cat "$T/d.log" "$T/d.out" >&2; die "paravtd did not start"; }
	DPORT=$(cat "$T/d.port")
}
# ensure_daemon: restarts the daemon if it died (and says so).
ensure_daemon() {
	if [ -z "$DPID" ] || ! kill -0 "$DPID" 2>/dev/null; then
		[ -n "$DPID" ] && { note "paravtd (pid $DPID) died; its log:"; tail -5 "$T/d.log" >&2; DAEMON_DEATHS=$((DAEMON_DEATHS + 1)); }
		start_daemon
	fi
}
DAEMON_DEATHS=0

# paravt_run DIR STDIN-FILE|- LOADARGS... -- RUNCMD...: `paravt trace` into
# DIR/trace.pvtrace; output DIR/pv.out, DIR/pv.err; sets PV_RC.
paravt_run() {
	_d=$1 _in=$2; shift 2
	ensure_daemon
	[ "$_in" = - ] || set -- --stdin "$_in" "$@"
	set -- trace -o "$_d/trace.pvtrace" --node "corpus=127.0.0.1:$DPORT" --timeout "$LIMIT" "$@"
	B_DIR=$_d/pv
	bounded $((LIMIT + 120)) "$_d/pv.out" "$_d/pv.err" "$PARAVT" "$@"
	PV_RC=$?
}

# build_refused DIR: true when paravt trace stopped before running because
# load or build failed (exit 2, no process started); sets BUILD_ERR to
# paravt's first error line.
build_refused() {
	[ "$PV_RC" = 2 ] || return 1
	grep -q '^\[p[0-9]* started' "$1/pv.out" && return 1
	BUILD_ERR=$(grep -h -m1 'error' "$1/pv.err" "$1/pv.out" | sed "s|$W/[a-z]*/||g" | cut -c1-160)
	[ -n "$BUILD_ERR" ] || BUILD_ERR="paravt trace exited 2: $(head -n 1 "$1/pv.err" | cut -c1-120)"
	return 0
}

# analyse DIR: trace-info and trace check of DIR/trace.pvtrace; sets
# UNM_S UNM_R VIOL REP INV INV2 (or "?" when unreadable) and ANA_ERR.
analyse() {
	_d=$1
	UNM_S="?" UNM_R="?" VIOL="?" REP="?" INV="?" INV2="?" ANA_ERR="" MOVE=""
	if [ ! -s "$_d/trace.pvtrace" ]; then ANA_ERR="no trace file"; return; fi
	bounded 300 "$_d/info.out" "$_d/info.err" "$PARAVT" trace-info "$_d/trace.pvtrace" ||
		ANA_ERR="trace-info exited $?: $(head -c 200 "$_d/info.err" | head -n 1)"
	bounded 300 "$_d/check.out" "$_d/check.err" "$PARAVT" -n -e "open $_d/trace.pvtrace" -e "trace check" ||
		ANA_ERR="${ANA_ERR:+$ANA_ERR; }trace check exited $?: $(head -n 1 "$_d/check.err" | cut -c1-200)"
	_l=$(sed -n 's/^unmatched: \([0-9]*\) sends, \([0-9]*\) receives$/\1 \2/p' "$_d/check.out" | head -n 1)
	[ -n "$_l" ] && { UNM_S=${_l% *}; UNM_R=${_l#* }; }
	VIOL=$(sed -n 's/^measured order: \([0-9]*\) receives* before.*/\1/p' "$_d/check.out" | head -n 1)
	REP=$(sed -n 's/.*logical clock repaired \([0-9]*\) event.*/\1/p' "$_d/check.out" | head -n 1)
	MOVE=$(sed -n 's/.*logical clock repaired .*(largest move \(.*\))$/\1/p' "$_d/check.out" | head -n 1)
	INV=$(sed -n 's/^inversions in the global order: \([0-9]*\)$/\1/p' "$_d/check.out" | head -n 1)
	INV2=$(sed -n 's/^inversions in the repaired measured order: \([0-9]*\)$/\1/p' "$_d/check.out" | head -n 1)
	: "${VIOL:=?}" "${REP:=?}" "${INV:=?}" "${INV2:=?}"
}

# pv_lines FILE: the program's own output lines in paravt's output
# ("[p3] text", "[p3 r2] text"), prefix removed.
pv_lines() { sed -n 's/^\[p[0-9][0-9]*\( r[0-9][0-9]*\)\{0,1\}\] //p' "$1"; }
# pv_status FILE PROC: "0", "SIGSEGV", ... of PROC (p1) in paravt's output.
pv_status() {
	sed -n -e "s/^\[$2 exited with status \(-\{0,1\}[0-9]*\)\]\$/\1/p" \
		-e "s/^\[$2 killed by signal \(SIG[A-Z0-9]*\).*/\1/p" "$1" | tail -n 1
}
# pv_crashes FILE: processes killed by a signal other than the run's own
# kill at the time limit, as "p3 SIGSEGV at ..." lines.
pv_crashes() {
	sed -n 's/^\[\(p[0-9]*\) killed by signal \(SIG[A-Z0-9]*.*\)\]$/\1 \2/p' "$1" |
		grep -v ' SIGKILL$\| SIGTERM$'
}

# compare_out PLAIN PARAVT FILTER: sorted filtered lines of both; sets
# OUT_SAME (same|-A+B) and writes DIR/out.diff.
compare_out() {
	_pl=$1 _pv=$2 _f=$3
	common_filter <"$_pl" | { if [ "$_f" = - ]; then cat; else sed -e "$_f"; fi; } | LC_ALL=C sort >"$_pl.cmp"
	common_filter <"$_pv" | { if [ "$_f" = - ]; then cat; else sed -e "$_f"; fi; } | LC_ALL=C sort >"$_pv.cmp"
	if cmp -s "$_pl.cmp" "$_pv.cmp"; then OUT_SAME=same
	else
		diff "$_pl.cmp" "$_pv.cmp" >"${_pl%/*}/out.diff"
		_m=$(grep -c '^<' "${_pl%/*}/out.diff") _p=$(grep -c '^>' "${_pl%/*}/out.diff")
		OUT_SAME="-$_m+$_p"
	fi
}

# ---- one result line -------------------------------------------------------
FMT='%-34s %-7s %-7s %-9s %-15s %-5s %-5s %-5s %s\n'
header() {
	# shellcheck disable=SC2059
	printf "$FMT" PROGRAM PLAIN PARAVT OUTPUT UNMATCHED VIOL REP INV RESULT
}
# result NAME PLAIN PARAVT OUTPUT UNM VIOL REP INV VERDICT
result() {
	# shellcheck disable=SC2059
	printf "$FMT" "$@" | tee -a "$RESULTS"
}

# verdict: PASS or FAIL with the reasons, from the globals of one run.
# $1: plain status, $2: paravt status, $3: kind-specific extra reasons.
verdict() {
	_r=""
	[ "$1" = "$2" ] || _r="$_r; status $1 plainly, $2 under paravt"
	case $PV_RC in
	2) _r="$_r; paravt trace: set-up error ($(grep -m1 -i 'error\|fail\|cannot\|unknown' "$D/pv.err" "$D/pv.out" 2>/dev/null | sed 's/^[^:]*://' | cut -c1-120))" ;;
	3) _r="$_r; paravt trace: time limit ($LIMIT s)" ;;
	4) _r="$_r; paravt trace: ended as hung" ;;
	5) _r="$_r; paravt trace: interrupted" ;;
	124 | 137) _r="$_r; paravt trace itself did not end in $((LIMIT + 120)) s" ;;
	0 | 1) ;;
	*) _r="$_r; paravt trace exited $PV_RC" ;;
	esac
	_c=$(pv_crashes "$D/pv.out" | head -n 2 | tr '\n' ';' | sed 's/;$//')
	[ -n "$_c" ] && _r="$_r; crash: $_c"
	[ "$OUT_SAME" = same ] || _r="$_r; output differs ($OUT_SAME lines)"
	if [ -n "$ANA_ERR" ]; then _r="$_r; $ANA_ERR"
	else
		[ "$UNM_S/$UNM_R" = 0/0 ] || _r="$_r; unmatched $UNM_S sends $UNM_R receives"
		[ "$VIOL" = 0 ] || _r="$_r; $VIOL receives before their send"
		[ "$REP" = 0 ] || _r="$_r; $REP events repaired${MOVE:+ (largest move $MOVE)}"
		[ "$INV" = 0 ] && [ "$INV2" = 0 ] || _r="$_r; inversions $INV/$INV2"
	fi
	_r="$_r$3"
	if [ -z "$_r" ]; then VERDICT=PASS; else VERDICT="FAIL ${_r#; }"; fi
}

# ---- PVM programs ------------------------------------------------------------
PVM_UID=$(id -u)
# pvm_plain_vm DIR: a private pvmd (PVM_TMP=DIR/pvmtmp, HOME=DIR/home with
# the programs in DIR/home/pvm3/bin/LINUX64); sets PVM_DPID.
pvm_plain_vm() {
	_d=$1
	mkdir -p "$_d/pvmtmp"
	rm -f "$_d/pvmtmp/pvmd.$PVM_UID"
	(export PVM_TMP="$_d/pvmtmp" HOME="$_d/home"; cd "$_d/home" && exec pvmd </dev/null >"$_d/pvmd.out" 2>&1) &
	PVM_DPID=$!
	_i=0
	while [ ! -s "$_d/pvmtmp/pvmd.$PVM_UID" ] && [ $_i -lt 150 ]; do sleep 0.1; _i=$((_i + 1)); done
	[ -s "$_d/pvmtmp/pvmd.$PVM_UID" ]
}
# pvm_vm_pids DIR: processes of that virtual machine (environment holds
# its PVM_TMP), but the pvmd itself.
pvm_vm_pids() {
	(
		unset PVM_TMP
		grep -lzs "^PVM_TMP=$1/pvmtmp\$" /proc/[0-9]*/environ 2>/dev/null |
			sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$"
	)
}
# pvm_tasks_left DIR: how many processes of the VM are left but pvmd and
# the group server.
pvm_tasks_left() {
	_n=0
	for _p in $(pvm_vm_pids "$1"); do
		_c=$(cat "/proc/$_p/comm" 2>/dev/null) || continue
		case $_c in pvmd* | pvmgs | timeout) ;; *) grep -q '^[0-9]* (.*) Z' "/proc/$_p/stat" 2>/dev/null || _n=$((_n + 1)) ;; esac
	done
	echo $_n
}
pvm_halt_vm() {
	_d=$1
	if kill -0 "$PVM_DPID" 2>/dev/null; then
		(export PVM_TMP="$_d/pvmtmp" HOME="$_d/home"; printf 'halt\n' | timeout -k 2 10 pvm >/dev/null 2>&1) 2>/dev/null
		_i=0
		while kill -0 "$PVM_DPID" 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
	fi
	kill_pids "$PVM_DPID"
	wait "$PVM_DPID" 2>/dev/null
	# shellcheck disable=SC2046
	kill_pids $(pvm_vm_pids "$_d")
}

# run_pvm LINE: one entry of the PVM list.
run_pvm() {
	IFS='|' read -r NAME SRCS FLAGS CMD STDIN FILTER <<-EOF
	$1
	EOF
	D=$W/runs/$NAME
	rm -rf "$D"; mkdir -p "$D/pv" "$D/home/pvm3/bin/LINUX64"
	BIN=$D/home/pvm3/bin/LINUX64
	[ "$FLAGS" = - ] && FLAGS=""
	_in=-
	if [ "$STDIN" != - ]; then
		# shellcheck disable=SC2059
		printf "$STDIN" >"$D/stdin"
		_in=$D/stdin
	fi
	# Plain build: each source with a main is a program, the others are
	# linked into every one (as the package's Makefile does with taskf.o).
	_libs="" _mains=""
	for _s in $SRCS; do
		if grep -Eq '^[a-z ]*main *\(' "$PVMSRC/$_s"; then _mains="$_mains $_s"; else _libs="$_libs $PVMSRC/$_s"; fi
	done
	_berr=""
	for _s in $_mains; do
		_p=$(basename "$_s" .c)
		# shellcheck disable=SC2086
		cc -g -w $FLAGS -o "$BIN/$_p" "$PVMSRC/$_s" $_libs -lgpvm3 -lpvm3 >>"$D/build.log" 2>&1 ||
			_berr="plain build of $_p failed: $(grep -m1 'error' "$D/build.log" | cut -c1-100)"
	done
	ln -sf /usr/lib/pvm3/lib/pvmgs "$BIN/pvmgs"
	_m=${CMD%% *}
	_args=""; [ "$_m" != "$CMD" ] && _args=${CMD#* }
	if [ -n "$_berr" ]; then
		result "$NAME" build - - - - - - "NOT RUN $_berr"
		PVM_NOTRUN=$((PVM_NOTRUN + 1)); return
	fi
	# Plain run: master's stdout and stderr, and the lines the pvmd logs
	# for the tasks it spawned (their stdout and stderr).  Not those of
	# PVM's group server starting: when several tasks join a group at
	# once each starts a pvmgs, and every copy but one logs "libpvm
	# [tTID]: Group Server already running?: ..." (in two pieces that the
	# pvmd may log as two lines): PVM's own race, 0 to N-1 times.
	if ! pvm_plain_vm "$D"; then
		pvm_halt_vm "$D"
		result "$NAME" pvmd - - - - - - "NOT RUN private pvmd did not start"
		PVM_NOTRUN=$((PVM_NOTRUN + 1)); return
	fi
	mkdir -p "$D/plainrun"
	B_DIR=$D/plainrun
	[ "$_in" = - ] || B_IN=$_in
	# shellcheck disable=SC2086
	bounded "$LIMIT" "$D/plain.out" "$D/plain.out" \
		env PVM_TMP="$D/pvmtmp" HOME="$D/home" "$BIN/$_m" $_args
	PL_RC=$?
	# Spawned tasks may still run (and print): up to 10 s more.
	_i=0
	while [ "$(pvm_tasks_left "$D")" != 0 ] && [ $_i -lt 20 ]; do sleep 0.5; _i=$((_i + 1)); done
	pvm_halt_vm "$D"
	{ cat "$D/plain.out"
	  sed -n 's/^\[t80040000\] [0-9/]* [0-9:]* \[t[0-9a-f]*\] //p' "$D/pvmtmp/pvml.$PVM_UID" 2>/dev/null |
		grep -v -e '^EOF$' -e 'Group Server already running?' -e '^libpvm \[t[0-9a-f]*\]: *$'
	} >"$D/plain.lines"
	PL_ST=$PL_RC
	[ $PL_RC = 124 ] || [ $PL_RC = 137 ] && PL_ST=timeout
	if [ $PLAIN_ONLY = 1 ]; then
		result "$NAME" "$PL_ST" - - - - - - "plain only"
		return
	fi
	if [ "$PL_ST" = timeout ]; then
		result "$NAME" "$PL_ST" - - - - - - "NOT RUN under paravt: the plain run reaches the time limit ($LIMIT s)"
		PVM_NOTRUN=$((PVM_NOTRUN + 1))
		return
	fi
	# Under paravt: the same sources and flags, run pvm MASTER ARGS.
	# Compiler flags other than load's own go through --cflags.
	set -- --pvm
	_cf=""
	for _f in $FLAGS; do
		case $_f in -D* | -U* | -I* | -l* | -L* | -O* | -g | -std=*) set -- "$@" "$_f" ;; *) _cf="$_cf $_f" ;; esac
	done
	[ -n "$_cf" ] && set -- "$@" --cflags "${_cf# }"
	for _s in $SRCS; do set -- "$@" "$PVMSRC/$_s"; done
	# shellcheck disable=SC2086
	paravt_run "$D" "$_in" "$@" -- run pvm "$_m" $_args
	_x=""
	if build_refused "$D"; then
		# Not buildable through paravt: the plain build, by --exec
		# (libparavt_pvm.so preloaded; spawned tasks from its directory).
		mv "$D/pv.out" "$D/pv-build.out"; mv "$D/pv.err" "$D/pv-build.err"
		# shellcheck disable=SC2086
		paravt_run "$D" "$_in" --exec "$BIN/$_m" -- run pvm $_args
		_x="; paravt cannot build it ($BUILD_ERR): figures from --exec of the plain build"
		PVM_EXEC=$((PVM_EXEC + 1))
	fi
	PV_ST=$(pv_status "$D/pv.out" p1)
	[ -n "$PV_ST" ] || PV_ST="none"
	[ $PV_RC = 3 ] && PV_ST=timeout
	pv_lines "$D/pv.out" >"$D/pv.lines"
	compare_out "$D/plain.lines" "$D/pv.lines" "$FILTER"
	analyse "$D"
	verdict "$PL_ST" "$PV_ST" "$_x"
	result "$NAME" "$PL_ST" "$PV_ST" "$OUT_SAME" "$UNM_S/$UNM_R" "$VIOL" "$REP" "$INV/$INV2" "$VERDICT"
	case $VERDICT in PASS) PVM_PASS=$((PVM_PASS + 1)) ;; *) PVM_FAIL=$((PVM_FAIL + 1)) ;; esac
	[ $KEEP = 1 ] || rm -f "$D/trace.pvtrace"
}

# ---- MPICH tests -------------------------------------------------------------
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
# plain_mpi OUT NP PROG ARGS...: one plain run (bounded, in $B_DIR), its
# segments in MD/plain, removed after it; returns its status.
plain_mpi() {
	_po=$1 _pn=$2; shift 2
	[ -n "$MD" ] && mkdir -p "$MD/plain"
	# shellcheck disable=SC2086
	bounded "$LIMIT" "$_po" "$_po" env \
		${MD:+OMPI_MCA_btl_vader_backing_directory=$MD/plain} \
		$MPIRUN -np "$_pn" "$@"
	_prc=$?
	[ -n "$MD" ] && rm -rf "$MD/plain"
	return $_prc
}
run_mpi() {
	IFS='|' read -r NAME DIR SRCS FLAGS NP ARGS NOTE <<-EOF
	$1
	EOF
	D=$W/runs/$NAME
	rm -rf "$D"; mkdir -p "$D/pv" "$D/plainrun"
	_main=${SRCS%% *}
	_prog=$(basename "$_main" .c)
	set -- -I"$MPICONF" -I"$MPISRC/include"
	# shellcheck disable=SC2086
	for _f in $FLAGS; do
		case $_f in -lm | -D* | -U* | -I*) set -- "$@" "$_f" ;; esac
	done
	_uflags="$*"
	set --
	for _s in $SRCS; do set -- "$@" "$MPISRC/$DIR/$_s"; done
	set -- "$@" "$MPISRC/util/mtest.c" "$MPISRC/util/mtest_common.c" "$MPISRC/util/mtest_single.c"
	# MPICH's libdtypes (util/dtypes.c) for the tests that use it.
	grep -q 'MTestDatatype2' "$MPISRC/$DIR/$_main" && set -- "$@" "$MPISRC/util/dtypes.c"
	_srcs="$*"
	# shellcheck disable=SC2086
	if ! mpicc -g -w $_uflags -o "$D/$_prog" $_srcs -lm >"$D/build.log" 2>&1; then
		_e=$(grep -o "undefined reference to \`[A-Za-z_0-9]*'" "$D/build.log" | sort -u | head -3 | sed "s/undefined reference to//; s/[\`']//g" | tr '\n' ' ')
		if [ -n "$_e" ]; then _e="undefined:${_e% }"
		else _e=$(grep -m1 'error' "$D/build.log" | sed 's/^[^:]*:[0-9:]* //' | cut -c1-100); fi
		result "$NAME" build - - - - - - "NOT RUN plain build (Open MPI mpicc) failed: $_e"
		MPI_NOTRUN=$((MPI_NOTRUN + 1)); return
	fi
	MPI_BUILT=$((MPI_BUILT + 1))
	B_DIR=$D/plainrun
	# shellcheck disable=SC2086
	plain_mpi "$D/plain.out" "$NP" "$D/$_prog" $ARGS
	PL_RC=$?
	PL_ST=$PL_RC
	[ $PL_RC = 124 ] || [ $PL_RC = 137 ] && PL_ST=timeout
	_plok=0
	[ $PL_RC = 0 ] && grep -q 'No Errors' "$D/plain.out" && _plok=1
	[ $_plok = 1 ] && MPI_PLAIN_OK=$((MPI_PLAIN_OK + 1))
	cp "$D/plain.out" "$D/plain.lines"
	if [ $PLAIN_ONLY = 1 ]; then
		if [ $_plok = 1 ]; then _v="plain only: No Errors"; else _v="plain only: FAILS plainly"; fi
		result "$NAME" "$PL_ST" - - - - - - "$_v${NOTE:+ ($NOTE)}"
		return
	fi
	if [ "$PL_ST" = timeout ]; then
		# Not worth another $LIMIT s: it cannot count either way.
		result "$NAME" "$PL_ST" - - - - - - "PLAIN-FAIL reaches the time limit ($LIMIT s) without paravt: not run under paravt${NOTE:+ ($NOTE)}"
		MPI_PLAIN_FAIL=$((MPI_PLAIN_FAIL + 1))
		return
	fi
	# shellcheck disable=SC2086
	paravt_run "$D" - --mpi $_uflags $_srcs -- run mpi -np "$NP" $( [ -n "$ARGS" ] && echo "$_prog" ) $ARGS
	_xb=""
	if build_refused "$D"; then
		mv "$D/pv.out" "$D/pv-build.out"; mv "$D/pv.err" "$D/pv-build.err"
		# shellcheck disable=SC2086
		paravt_run "$D" - --exec "$D/$_prog" -- run mpi -np "$NP" $ARGS
		_xb="; paravt cannot build it ($BUILD_ERR): figures from --exec of the plain build"
		MPI_EXEC=$((MPI_EXEC + 1))
	fi
	PV_ST=$(pv_status "$D/pv.out" p1)
	[ -n "$PV_ST" ] || PV_ST="none"
	[ $PV_RC = 3 ] && PV_ST=timeout
	pv_lines "$D/pv.out" >"$D/pv.lines"
	compare_out "$D/plain.lines" "$D/pv.lines" -
	analyse "$D"
	_pvok=0
	[ $PV_RC = 0 ] && grep -q 'No Errors' "$D/pv.lines" && _pvok=1
	_crash=$(pv_crashes "$D/pv.out" | head -n 1)
	# A run that reaches the limit under paravt is blamed on paravt only
	# if the plain program finishes every time: it runs plainly twice
	# more, and one of those reaching the limit too makes it a plain
	# failure (a hang of the MPI library's, not of paravt's).
	if [ $_plok = 1 ] && [ "$PV_ST" = timeout ]; then
		_hangs=0
		for _k in 2 3; do
			B_DIR=$D/plainrun
			# shellcheck disable=SC2086
			plain_mpi "$D/plain$_k.out" "$NP" "$D/$_prog" $ARGS
			_r=$?
			[ $_r = 124 ] || [ $_r = 137 ] && _hangs=$((_hangs + 1))
		done
		if [ $_hangs -gt 0 ]; then
			_plok=0
			MPI_PLAIN_OK=$((MPI_PLAIN_OK - 1))
			PL_ST="0,timeout"
		fi
	fi
	if [ $_plok = 1 ]; then
		[ $_pvok = 1 ] && MPI_PV_OK=$((MPI_PV_OK + 1))
		[ -n "$_crash" ] && MPI_CRASH=$((MPI_CRASH + 1))
		[ "$UNM_S/$UNM_R" != 0/0 ] && MPI_UNM=$((MPI_UNM + 1))
		[ "$REP" != 0 ] && MPI_REP=$((MPI_REP + 1))
		_x=$_xb
		[ $_pvok = 1 ] || _x="$_x; no 'No Errors' under paravt"
		verdict "$PL_ST" "$PV_ST" "$_x"
		case $VERDICT in PASS) MPI_PASS=$((MPI_PASS + 1)) ;; *) MPI_FAIL=$((MPI_FAIL + 1)) ;; esac
	elif [ "$PL_ST" = "0,timeout" ]; then
		VERDICT="PLAIN-FAIL hangs without paravt too: $_hangs of 2 more plain runs reached the time limit ($LIMIT s): not counted"
		MPI_PLAIN_FAIL=$((MPI_PLAIN_FAIL + 1))
	else
		VERDICT="PLAIN-FAIL fails without paravt (status $PL_ST$(grep -q 'No Errors' "$D/plain.out" || echo ', no "No Errors"')): not counted"
		MPI_PLAIN_FAIL=$((MPI_PLAIN_FAIL + 1))
	fi
	result "$NAME" "$PL_ST" "$PV_ST" "$OUT_SAME" "$UNM_S/$UNM_R" "$VIOL" "$REP" "$INV/$INV2" "$VERDICT${NOTE:+ ($NOTE)}"
	[ $KEEP = 1 ] || rm -f "$D/trace.pvtrace" "$D/$_prog"
}

# ---- main ----------------------------------------------------------------------
PVM_PASS=0 PVM_FAIL=0 PVM_NOTRUN=0 PVM_EXCL=0 PVM_EXEC=0 MPI_EXEC=0
MPI_BUILT=0 MPI_NOTRUN=0 MPI_EXCL=0 MPI_PLAIN_OK=0 MPI_PV_OK=0 MPI_CRASH=0
MPI_UNM=0 MPI_REP=0 MPI_PASS=0 MPI_FAIL=0 MPI_PLAIN_FAIL=0
[ -x "$PARAVT" ] && [ -x "$PARAVTD" ] || [ $LIST_ONLY = 1 ] || [ $PLAIN_ONLY = 1 ] ||
	die "no $PARAVT or $PARAVTD: run make first"
mkdir -p "$W" || die "cannot make $W"
W=$(cd "$W" && pwd)
case $W/ in "$TOP"/build/*) ;; "$TOP"/*) die "the work directory $W is inside the repository (use build/corpus or one outside)" ;; esac
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_ROOT=${PVM_ROOT:-/usr/lib/pvm3}
unset PVM_EXPORT PVM_VMID PVM_TMP PARAVT_SESSION PARAVT_SOCK PARAVT_SESSION_DIR PARAVT_TRACE 2>/dev/null || true
RESULTS=$W/results.txt
: >"$RESULTS"
T0=$(date +%s)

[ $DO_PVM = 1 ] && { fetch_pvm; list_pvm; }
[ $DO_MPI = 1 ] && { fetch_mpich; list_mpich; }
[ $DO_PVM = 1 ] || : >"$T/pvm.list"
[ $DO_MPI = 1 ] || : >"$T/mpi.list"

if [ $LIST_ONLY = 1 ]; then
	cat "$T/pvm.list" "$T/mpi.list" | while IFS='|' read -r _n _a _b _c _d _e _f; do
		selected "$_n" || continue
		case $_a in
		!*) printf '%-34s EXCLUDED: %s\n' "$_n" "${_a#!}" ;;
		*) case $_n in
			pvm/*) printf '%-34s run pvm %s  (sources: %s%s%s)\n' "$_n" "$_c" "$_a" \
				"$( [ "$_b" != - ] && echo "; flags $_b")" "$( [ "$_d" != - ] && echo "; stdin")" ;;
			*) printf '%-34s mpirun -np %s %s  (%s%s)\n' "$_n" "$_d" "${_b%% *} $_e" "$_a/$_b" "${_f:+; $_f}" ;;
			esac ;;
		esac
	done
	exit 0
fi

[ $PLAIN_ONLY = 1 ] || start_daemon
header | tee -a "$RESULTS"
while IFS= read -r line; do
	_n=${line%%|*}
	selected "$_n" || continue
	case ${line#*|} in
	!*) result "$_n" - - - - - - - "EXCLUDED ${line#*|!}"; PVM_EXCL=$((PVM_EXCL + 1)); continue ;;
	esac
	run_pvm "$line"
done <"$T/pvm.list"
while IFS= read -r line; do
	_n=${line%%|*}
	selected "$_n" || continue
	case ${line#*|} in
	!*) result "$_n" - - - - - - - "EXCLUDED ${line#*|!}"; MPI_EXCL=$((MPI_EXCL + 1)); continue ;;
	esac
	run_mpi "$line"
done <"$T/mpi.list"

T1=$(date +%s)
{
	echo
	echo "summary ($(date -u '+%Y-%m-%d %H:%M UTC'), $((T1 - T0)) s, per-program limit $LIMIT s$( [ $PLAIN_ONLY = 1 ] && echo ', plain runs only'))"
	echo "PVM examples:  $((PVM_PASS + PVM_FAIL)) run: $PVM_PASS PASS, $PVM_FAIL FAIL; $PVM_NOTRUN not run (plain build, pvmd or plain time limit), $PVM_EXCL excluded"
	echo "               $PVM_EXEC not buildable through paravt (traced with --exec instead)"
	echo "MPICH tests:   $MPI_BUILT built ($MPI_NOTRUN did not build with Open MPI, $MPI_EXCL excluded);"
	echo "               pass plainly $MPI_PLAIN_OK; of those: pass under paravt $MPI_PV_OK, crash $MPI_CRASH,"
	echo "               unmatched > 0 in $MPI_UNM, repairs > 0 in $MPI_REP; PASS (all checks) $MPI_PASS, FAIL $MPI_FAIL;"
	echo "               $MPI_PLAIN_FAIL fail without paravt (not counted); $MPI_EXEC not buildable through paravt (--exec)"
	[ $DAEMON_DEATHS = 0 ] || echo "paravtd died $DAEMON_DEATHS times (restarted)"
	echo "details: $W/runs/NAME/ (plain.lines, pv.out, out.diff, info.out, check.out)"
} | tee -a "$RESULTS"
[ $((PVM_FAIL + MPI_FAIL)) = 0 ]
