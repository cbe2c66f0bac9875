#!/bin/sh
# 89-report.sh — the figures and the HTML report of a real PVM run (the
# master/worker program of 85-trace-pvm.sh, 6 workers, a real daemon and
# the session's own pvmd), captured with `trace file`:
#   - info efficiency: one line per task with T >= C >= W >= 0 and
#     computing = T - C, E_i = computing / T, E between E_min and E_max;
#   - info matrix: the total equals the matched pairs of `trace check`,
#     the master sends to each worker and each worker to the master only;
#     info matrix --bytes and info balance print one row per task;
#   - report -o r.html from the console, paravt report TRACE -o r2.html
#     from the trace file, and report -o r4.html after open TRACE (whose
#     info matrix is the live one): svg#timeline with one line.msg per matched
#     pair, blocks that carry their source file:line, svg#matrix with a
#     rect.cell per pair of tasks, svg#balance with the polygons,
#     table#efficiency with a row per task; nothing refers to the
#     network (no http:// or https://);
#   - paravt report: --help exits 0, a usage error 2, an unreadable trace
#     or an unwritable report 1;
#   - headless Chromium renders r.html: the screenshot is a PNG with many
#     distinct colours (a blank page has one).
. "$(dirname "$0")/../lib/common.sh"
grep -rq WIRE_NODE_EVENTS "$TOP"/daemon 2>/dev/null ||
	skip "paravtd does not forward events yet (no NODE_EVENTS in daemon/)"
[ -x /usr/lib/pvm3/lib/pvmd ] || [ -x /usr/bin/pvmd ] || [ -e /usr/lib/pvm3 ] ||
	skip "PVM is not installed"
command -v python3 >/dev/null || skip "no python3"
start_daemon nat linux-x86_64
cd "$T" || fail "cd $T"
P=$TOP/tests/programs
# shellcheck disable=SC2154
timeout 90 "$PARAVT" -n -e "node add nat 127.0.0.1:$DPORT_nat" \
	-e "load --pvm $P/pvm_master.c $P/pvm_worker.c" -e "build" \
	-e "trace file $T/run.pvt" -e "run pvm pvm_master 6" \
	-e "trace file off" -e "trace check" -e "info efficiency" \
	-e "info efficiency --view raw" -e "info matrix" \
	-e "info matrix --bytes" -e "info balance" \
	-e "report -o $T/r.html" >"$T/out" 2>&1 ||
	{ cat "$T/out"; cat "$T/nat.log"; fail "console failed"; }
cat "$T/out"
expect_grep '^\[p1\] OK' "$T/out" "the master did not finish"

# ---- info efficiency ---------------------------------------------------
EFF='^p[0-9]+ +nat +t[0-9a-f]+ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[01]\.[0-9]{3}$'
[ "$(grep -cE "$EFF" "$T/out")" -eq 14 ] ||
	fail "info efficiency: not 7 task lines in each of two views"
grep -E "$EFF" "$T/out" | awk '{
	t = $4; c = $5; w = $6; comp = $7; e = $8
	if (t <= 0 || c < 0 || w < 0 || c > t + 0.001 || w > c + 0.001) bad = bad " " $1 ": T C W"
	d = t - c - comp; if (d < -0.002 || d > 0.002) bad = bad " " $1 ": comp != T - C"
	# the figures are rounded to 3 decimals: E_i * T = comp within that
	d = e * t - comp; tol = 0.0006 * t + 0.0012
	if (d < -tol || d > tol) bad = bad " " $1 ": E_i"
} END { if (bad != "") { print bad; exit 1 } }' || fail "info efficiency figures inconsistent"
grep -E '^job +E [01]\.[0-9]{3} +E_min [01]\.[0-9]{3} +E_max [01]\.[0-9]{3} ' "$T/out" |
	awk '{ if ($5 > $3 + 0.0005 || $3 > $7 + 0.0005) exit 1 } END { if (NR != 2) exit 1 }' ||
	fail "job line: E not between E_min and E_max"
expect_grep '^job .*\(compensated times, span [0-9.]+ ms\)$' "$T/out"
expect_grep '^job .*\(measured \(raw\) times, ' "$T/out"
ok "info efficiency: 7 tasks, T >= C >= W, E_i = (T - C) / T, E_min <= E <= E_max"

# ---- info matrix / balance ---------------------------------------------
pairs=$(sed -n 's/^matched pairs: \([0-9]*\), multicast pairs: \([0-9]*\).*/\1 \2/p' "$T/out")
[ -n "$pairs" ] || fail "trace check printed no matched pairs"
# shellcheck disable=SC2086
set -- $pairs
N=$(($1 + $2))
[ "$N" -ge 12 ] || fail "only $N matched messages for 6 workers"
expect_grep "^total $N messages between 7 tasks " "$T/out"
# the master (row p1) sends to every worker, each worker only to p1
sed -n '/^msgs /,/^total .* messages /p' "$T/out" >"$T/matrix"
awk '$1 == "p1" { for (i = 3; i <= 8; i++) if ($i < 1) exit 1 }
     $1 ~ /^p[2-7]$/ { if ($2 < 1) exit 1; for (i = 3; i <= 8; i++) if ($i != 0) exit 1 }' \
	"$T/matrix" || { cat "$T/matrix"; fail "matrix: not master <-> workers"; }
[ "$(grep -cE '^p[1-7] ' "$T/matrix")" -eq 7 ] || fail "matrix rows"
expect_grep '^bytes +p1 +p2 ' "$T/out"
expect_grep '^total [0-9]+ bytes between 7 tasks' "$T/out"
[ "$(grep -cE '^p[1-7] +nat +[0-9]+\.[0-9]{3} +[0-9.]+% +[-+][0-9.]+% ' "$T/out")" -eq 7 ] ||
	fail "info balance: not 7 task lines"
expect_grep '^mean [0-9.]+ ms  max [0-9.]+ ms  imbalance ' "$T/out"
ok "info matrix: $N messages master <-> workers, = trace check; bytes and balance"

# ---- the HTML report ----------------------------------------------------
expect_grep "^Report written to $T/r.html \(7 tasks, $N messages matched, compensated times\)\.$" "$T/out"
# check_html FILE: the parts of the report are there.
check_html() {
	[ -s "$1" ] || fail "no $1"
	for id in timeline matrix balance; do
		grep -q "<svg id=\"$id\"" "$1" || fail "$1: no svg#$id"
	done
	grep -q '<table id="efficiency"' "$1" || fail "$1: no table#efficiency"
	m=$(grep -o '<line class="msg"' "$1" | wc -l)
	[ "$m" -eq "$N" ] || fail "$1: $m send -> receive lines, $N matched pairs"
	c=$(grep -o '<rect class="cell"' "$1" | wc -l)
	[ "$c" -eq 49 ] || fail "$1: $c matrix cells, not 7 x 7"
	grep -q '<polygon class="load" points="[0-9.]*,[0-9.]*' "$1" || fail "$1: no load polygon"
	grep -q '<polygon class="mean"' "$1" || fail "$1: no mean polygon"
	grep -Eq '<rect class="blk wait"[^>]* data-src="[^"]*pvm_master\.c:[0-9]+"' "$1" ||
		fail "$1: no receive block of the master with its source line"
	grep -Eq '<rect class="blk send"[^>]* data-src="[^"]*pvm_worker\.c:[0-9]+"' "$1" ||
		fail "$1: no send block of a worker with its source line"
	r=$(grep -o '<tr><td class="l">p[0-9]* t[0-9a-f]*</td>' "$1" | wc -l)
	[ "$r" -eq 7 ] || fail "$1: $r efficiency rows"
	! grep -Eq 'https?://' "$1" || fail "$1 refers to the network"
}
check_html "$T/r.html"
ok "report -o r.html: $N lines, 49 cells, polygons, 7 table rows, self-contained"

"$PARAVT" report "$T/run.pvt" -o "$T/r2.html" >"$T/sub.out" 2>&1 ||
	{ cat "$T/sub.out"; fail "paravt report TRACE failed"; }
expect_grep "^Report written to $T/r2.html \(7 tasks, $N messages" "$T/sub.out"
check_html "$T/r2.html"
grep -q "<title>paravt report: $T/run.pvt" "$T/r2.html" || fail "r2.html: title"
ok "paravt report TRACE -o r2.html: the same parts from the trace file"

# The same figures from the trace file opened in the console.
"$PARAVT" -n -e "open $T/run.pvt" -e "info matrix" -e "info efficiency" \
	-e "report -o $T/r4.html" >"$T/open.out" 2>&1 ||
	{ cat "$T/open.out"; fail "open + info matrix + report failed"; }
sed -n '/^msgs /,/^total .* messages /p' "$T/open.out" >"$T/matrix2"
diff -u "$T/matrix" "$T/matrix2" || fail "info matrix differs after open"
[ "$(grep -cE "$EFF" "$T/open.out")" -eq 7 ] || fail "info efficiency after open"
check_html "$T/r4.html"
grep -q '<title>paravt report: console: pvm_master pvm_worker, ' "$T/r4.html" ||
	fail "r4.html: title does not name what the trace recorded"
ok "open run.pvt: the same matrix, 7 efficiency lines, report"


"$PARAVT" report --help >"$T/help" 2>&1 || fail "report --help failed"
expect_grep '^usage: paravt report ' "$T/help"
"$PARAVT" report >"$T/e" 2>&1; [ $? -eq 2 ] || fail "report without a trace: not 2"
"$PARAVT" report "$T/run.pvt" --bogus >"$T/e" 2>&1; [ $? -eq 2 ] || fail "bad option: not 2"
echo garbage >"$T/garbage"
"$PARAVT" report "$T/garbage" -o "$T/r3.html" >"$T/e" 2>&1; rc=$?
[ $rc -eq 1 ] || { cat "$T/e"; fail "unreadable trace: exit $rc, not 1"; }
[ ! -e "$T/r3.html" ] || fail "a report was written from garbage"
"$PARAVT" report "$T/run.pvt" -o "$T/no/such/dir/r.html" >"$T/e" 2>&1; rc=$?
[ $rc -eq 1 ] || { cat "$T/e"; fail "unwritable report: exit $rc, not 1"; }
expect_grep "^paravt: $T/no/such/dir/r.html: No such file or directory$" "$T/e"
ok "paravt report: --help 0, usage 2, unreadable trace 1, unwritable report 1"

# ---- rendered by headless Chromium ----------------------------------------
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || skip "no chromium (make deps installs it); the report itself passed"
timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$T/chrome" --screenshot="$T/shot.png" \
	--window-size=1400,1800 "file://$T/r.html" >"$T/chrome.log" 2>&1
[ -s "$T/shot.png" ] || { cat "$T/chrome.log"; fail "no screenshot"; }
# Distinct colours of the screenshot (PNG decoded with zlib: 8-bit RGB or
# RGBA, any filter); a blank page has one.
colours=$(python3 - "$T/shot.png" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(d):
    n, typ = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, seen, i = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 2):
        seen.add(bytes(line[x:x + 3]))
    prev = line
print(len(seen))
EOF
) || fail "the screenshot is not a readable PNG"
[ "$colours" -ge 20 ] || fail "screenshot has $colours colours: blank?"
[ -n "${PARAVT_TEST_KEEP:-}" ] && cp "$T/shot.png" "$T/r.html" "$PARAVT_TEST_KEEP"/
ok "headless Chromium screenshot: $(wc -c <"$T/shot.png") bytes, $colours colours"
