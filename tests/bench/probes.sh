#!/bin/sh
# tests/bench/probes.sh — what the line probes cost a program that is not
# being debugged (issue 14): a compute-bound 2-D stencil
# (tests/bench/progs/stencil.c) built three ways — plainly with -O2,
# instrumented without line probes (inst_tool -P), instrumented as paravt
# builds it — and run without paravt (probes disarmed) RUNS times each,
# alternately.  Prints the median seconds of the sweeps and the ratios
# probes / no probes and probes / plain.
#
#   tests/bench/probes.sh [RUNS]        (default 5)
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
RUNS=${1:-5}
TOOL=build/tests/inst_tool
INC=build/linux-x86_64/include
LIBS="build/linux-x86_64/lib/libparavt.a -lmsgpackc -lpthread"
for f in "$TOOL" build/linux-x86_64/lib/libparavt.a; do
	[ -e "$f" ] || { echo "probes: skipped ($f not built)"; exit 0; }
done
tmp=$(mktemp -d /tmp/pvt-probes-XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
SRC=tests/bench/progs/stencil.c

"$TOOL" -o "$tmp/p" "$SRC" >/dev/null && "$TOOL" -P -o "$tmp/n" "$SRC" >/dev/null ||
	{ echo "probes: instrumenting failed"; exit 1; }
# shellcheck disable=SC2086
cc -O2 -o "$tmp/plain" "$SRC" &&
	cc -O2 -w -I"$INC" -o "$tmp/noprobes" "$tmp/n/stencil.c" $LIBS &&
	cc -O2 -w -I"$INC" -o "$tmp/probes" "$tmp/p/stencil.c" $LIBS ||
	{ echo "probes: build failed"; exit 1; }

# median FILE: the median of the numbers in FILE.
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
i=0
while [ "$i" -lt "$RUNS" ]; do
	for k in plain noprobes probes; do
		env -u PARAVT_SOCK "$tmp/$k" | sed -n 's/^time //p' >>"$tmp/$k.t" ||
			{ echo "probes: $k failed"; exit 1; }
	done
	i=$((i + 1))
done
p=$(median "$tmp/plain.t") n=$(median "$tmp/noprobes.t") q=$(median "$tmp/probes.t")
echo "line probes (2-D stencil 512x512, 1000 sweeps, $RUNS runs each, medians):"
awk -v p="$p" -v n="$n" -v q="$q" 'BEGIN {
	printf "  plain -O2 %.3f s, instrumented without probes %.3f s, with probes (disarmed) %.3f s\n", p, n, q
	printf "  probes / no probes %.3f (goal <= 1.03), probes / plain %.3f (goal <= 1.10)\n", q / n, q / p }'
