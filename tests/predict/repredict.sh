#!/bin/sh
# tests/predict/repredict.sh — predicts again, with the paravt built now,
# every case of validations kept with VAL_KEEP=DIR (tests/predict/
# validate.sh): the same base traces, samples and measured spans, so that
# a change of the model is judged on many runs in seconds instead of a
# new validation of five minutes each.
#
#   tests/predict/repredict.sh DIR...
#
# For each case of DIR/table: `paravt predict BASE --describe --sample
# SAMPLE [--sample SAMPLE2]...` (every sample kept), the condition set as validate.sh sets it (the worker mapped to
# c for s390x, the net level's bandwidth for bw: VAL_RATE, 200mbit by
# default), then `paravt predict BASE --machine`; one line per case
# (measured, predicted, error), a line per DIR (cases, mean and largest
# error), and a last line over all of them with the cases beyond 10%.
# Exit status 0, 1 when a case could not be predicted, 2 for bad usage.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
PARAVT=$TOP/build/linux-x86_64/bin/paravt
case "${1:-}" in
-h|--help|"")
	sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'
	[ $# -gt 0 ] && exit 0 || exit 2 ;;
esac
[ -x "$PARAVT" ] || { echo "repredict: no $PARAVT (make)" >&2; exit 2; }
RATE=${VAL_RATE:-200mbit}
BW=$(echo "$RATE" | awk '/mbit$/ { sub(/mbit/, ""); print $0 / 8 "MB/s"; exit }
	/gbit$/ { sub(/gbit/, ""); print $0 / 8 "GB/s"; exit } { print "?" }')
[ "$BW" != "?" ] || { echo "repredict: VAL_RATE in mbit or gbit" >&2; exit 2; }
tmp=$(mktemp -d /tmp/pvt-repredict-XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
rc=0

# errors FILE [LABEL]: the summary line of the case lines in FILE.
errors() {
	awk -v l="${2:-}" '{ e = $NF; gsub(/[()%+]/, "", e); e = e + 0
		if (e < 0) e = -e; s += e; n++; if (e > m) m = e; if (e > 10) o++ }
	END { if (n > 0) printf "%scases %d: mean %.1f%%, largest %.1f%%, %d beyond 10%%\n",
		l, n, s / n, m, o }' "$1"
}

: >"$tmp/all"
for d in "$@"; do
	[ -s "$d/table" ] || { echo "repredict: $d: no table (VAL_KEEP=$d make validate)" >&2; rc=1; continue; }
	: >"$tmp/dir"
	tail -n +2 "$d/table" | while read -r prog pat c rest; do
		b=$d/$prog.$pat
		ss=""
		for f in "$b.$c".sample.pvtrace "$b.$c".sample[0-9]*.pvtrace; do
			[ -f "$f" ] && ss="$ss --sample $f"
		done
		if ! "$PARAVT" predict "$b.base.pvtrace" --describe $ss \
			-o "$tmp/m.conf" >"$tmp/out" 2>&1; then
			echo "$prog $pat $c: --describe --sample failed: $(tail -n 1 "$tmp/out")" >&2
			echo x >"$tmp/failed"
			continue
		fi
		w=$(sed -n 's/^map \(p[0-9]*\) b$/\1/p' "$b.base.conf")
		case $c in
		s390x) sed "s/^map $w b\$/map $w c/" "$tmp/m.conf" >"$tmp/n.conf" ;;
		bw) awk -v bw="$BW" '$1 == "level" && $2 == "net" { $6 = bw } { print }' \
			"$tmp/m.conf" >"$tmp/n.conf" ;;
		*) cp "$tmp/m.conf" "$tmp/n.conf" ;;
		esac
		pr=$("$PARAVT" predict "$b.base.pvtrace" --machine "$tmp/n.conf" 2>/dev/null |
			awk '/^predicted run time/ { print $4 }')
		[ -n "$pr" ] || { echo "$prog $pat $c: predict failed" >&2; echo x >"$tmp/failed"; continue; }
		awk -v p="$prog" -v t="$pat" -v c="$c" -v m="$(cat "$b.$c.span")" -v r="$pr" \
			'BEGIN { printf "%-4s %-8s %-6s measured %9.1f predicted %9.1f (%+.1f%%)\n",
				p, t, c, m, r, 100 * (r - m) / m }'
	done >"$tmp/dir"
	cat "$tmp/dir"
	errors "$tmp/dir" "$d: "
	cat "$tmp/dir" >>"$tmp/all"
done
[ $# -gt 1 ] && errors "$tmp/all" "all: "
[ -e "$tmp/failed" ] && rc=1
exit $rc
