#!/bin/sh
# tests/tools/layers.sh — checks the layers of console/ and daemon/: the
# graph of modules derived from the `#include "..."` lines has no cycle,
# and no module includes one of a room above its own (console/README,
# daemon/README).  With --symbols it checks the built room libraries the
# same way: no object of a room uses a function defined in a room it may
# not include (what the linker would otherwise take from any order).
#
#   tests/tools/layers.sh [--symbols] [--quiet]
#
# A module is a header and the files named after it: con_dbg.h,
# con_dbg_int.h, con_dbg.c and con_dbg_build.c are the module con_dbg
# (the longest header stem of the same folder that starts the file's
# name, followed by '_' or the end); a module's internal header (X_int.h,
# or one listed in INTERNAL) belongs to it; a file no header names is a
# module of its own (cli/cmd_node.c).  Headers outside console/ and daemon/
# (wire/, typedesc/, breakpoints/, wrappers/, system headers) are below
# every room and are not followed.
#
# Exit status: 0 clean, 1 a cycle or a wrong include (each printed with
# the file and line that makes it), 2 usage or set-up error.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2

# Rooms, and the rooms below each that it may include ("main" is a file
# directly in console/ or daemon/).
RULES='
console/main    console/cli console/session console/inst console/trace console/net console/ana
console/cli     console/session console/inst console/trace console/net console/ana
console/session console/inst console/trace console/net console/ana
console/inst    -
console/trace   console/net console/ana
console/net     console/ana
console/ana     -
daemon/main     daemon/relay daemon/work daemon/conn
daemon/relay    daemon/work daemon/conn
daemon/work     daemon/conn
daemon/conn     -
'

# Internal headers not named X_int.h, and the module each belongs to.
INTERNAL='
console/ana/ana_pass.h console/ana/ana
'

symbols=0 quiet=0
for a in "$@"; do
	case $a in
	--symbols) symbols=1 ;;
	--quiet) quiet=1 ;;
	-h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "layers: unknown argument '$a' (see --help)" >&2; exit 2 ;;
	esac
done

tmp=$(mktemp -d /tmp/pvt-layers-XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# room FILE: the room of a source file (console/net, daemon/main, ...).
room_of() {
	case $1 in
	console/*/*|daemon/*/*) echo "${1%/*}" ;;
	console/*) echo console/main ;;
	daemon/*) echo daemon/main ;;
	esac
}

# Every source file, its room and its module: "FILE ROOM MODULE".
find console daemon -name '*.[ch]' | LC_ALL=C sort >"$tmp/files"
while read -r f; do
	printf '%s %s\n' "$f" "$(room_of "$f")"
done <"$tmp/files" |
awk -v internal="$INTERNAL" '
	BEGIN { k = split(internal, l, "\n")
		for (i = 1; i <= k; i++) if (split(l[i], w, " ") == 2) owner[w[1]] = w[2] }
	{ file[NR] = $1; room[NR] = $2; n = NR
	  d = $1; sub(/\/[^\/]*$/, "", d); b = $1; sub(/^.*\//, "", b)
	  dir[NR] = d; base[NR] = b
	  if (b ~ /\.h$/) { s = b; sub(/\.h$/, "", s); stems[d] = stems[d] " " s } }
	END {
		for (i = 1; i <= n; i++) {
			stem = base[i]; sub(/\.[ch]$/, "", stem)
			best = ""; k = split(stems[dir[i]], st, " ")
			for (j = 1; j <= k; j++)
				if ((stem == st[j] || index(stem, st[j] "_") == 1) &&
				    length(st[j]) > length(best))
					best = st[j]
			if (best == "") best = stem
			if (best ~ /_int$/ && index(stems[dir[i]] " ", " " substr(best, 1, length(best) - 4) " ") > 0)
				best = substr(best, 1, length(best) - 4)
			m = dir[i] "/" best
			if ((m ".h") in owner) m = owner[m ".h"]
			print file[i], room[i], m
		}
	}' >"$tmp/modules"

# Every include of a header of console/ or daemon/, resolved the way the
# compiler's -I list finds it (the including file's folder first, then
# any room): "FILE LINE HEADERPATH".
awk 'FILENAME == ARGV[1] { if ($1 ~ /\.h$/) { b = $1; sub(/^.*\//, "", b); where[b] = where[b] " " $1 }; next }
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		h = $0; sub(/^[^"]*"/, "", h); sub(/".*$/, "", h)
		sub(/^(\.\.\/)+/, "", h); b = h; sub(/^.*\//, "", b)
		if (!(b in where)) next
		d = FILENAME; sub(/\/[^\/]*$/, "", d)
		if (index(where[b], " " d "/" b) > 0) { print FILENAME, FNR, d "/" b; next }
		k = split(where[b], w, " "); if (k != 1) { print FILENAME, FNR, "AMBIGUOUS:" b; next }
		print FILENAME, FNR, w[1]
	}' "$tmp/files" $(cat "$tmp/files") >"$tmp/includes"

echo "$RULES" | awk 'NF { printf "%s", $1; for (i = 2; i <= NF; i++) printf " %s", $i; print "" }' >"$tmp/rules"

# The check: wrong includes, then cycles between modules.
awk -v quiet="$quiet" '
	FILENAME == ARGV[1] { allowed[$1] = " " $0 " "; next }
	FILENAME == ARGV[2] { room[$1] = $2; mod[$1] = $3; next }
	{
		f = $1; line = $2; h = $3
		if (h ~ /^AMBIGUOUS:/) {
			printf "layers: %s:%s: header %s is in more than one room\n", f, line, substr(h, 11)
			bad++; next
		}
		rf = room[f]; rh = room[h]
		if (rf != rh && index(allowed[rf], " " rh " ") == 0) {
			printf "layers: %s:%s: %s includes %s, a room it may not include (%s)\n", \
				f, line, rf, rh, h
			bad++
		}
		a = mod[f]; b = mod[h]
		if (a != b && !((a, b) in edge)) {
			edge[a, b] = f ":" line; out[a] = out[a] " " b; nodes[a] = 1; nodes[b] = 1
		}
	}
	function visit(m,    k, i, nx, c, p) {
		state[m] = 1; stack[++depth] = m
		k = split(out[m], nx, " ")
		for (i = 1; i <= k; i++) {
			if (state[nx[i]] == 1) {
				c = nx[i]; p = ""
				for (j = depth; j >= 1; j--) { p = stack[j] " -> " p; if (stack[j] == c) break }
				printf "layers: cycle: %s%s\n", p, c
				for (j = depth; j >= 1 && stack[j] != c; j--) ;
				for (; j <= depth; j++) {
					to = (j < depth) ? stack[j + 1] : c
					printf "layers:   %s -> %s at %s\n", stack[j], to, edge[stack[j], to]
				}
				bad++
			} else if (state[nx[i]] == 0) {
				visit(nx[i])
			}
		}
		depth--; state[m] = 2
	}
	END {
		for (m in nodes) if (state[m] == 0) visit(m)
		ne = 0; for (e in edge) ne++
		if (!quiet || bad) printf "layers: %d modules, %d include edges between them, %d problems\n", \
			length(nodes), ne, bad + 0
		exit bad ? 1 : 0
	}' "$tmp/rules" "$tmp/modules" "$tmp/includes"
status=$?

[ "$symbols" = 1 ] || exit $status

# --symbols: the same rule on the functions the built objects use.  The
# objects of a room are build/<console|PORT>/obj/<room path>/*.o.
objs=$(find build/console/obj/console build/linux-x86_64/obj/daemon \
	-name '*.o' 2>/dev/null)
[ -n "$objs" ] || { echo "layers: --symbols: nothing built (run make)" >&2; exit 2; }
# "D|U SYMBOL ROOM SOURCE" for every object whose source still exists
# (an object of a moved file is stale).
{ nm -A -g --defined-only $objs | sed 's/^/D /'; nm -A -u $objs | sed 's/^/U /'; } |
awk 'FILENAME == ARGV[1] { exists[$1] = 1; next }
	{ o = $2; sub(/:.*$/, "", o); sym = $NF
	  src = o; sub(/^build\/[^\/]*\/obj\//, "", src); sub(/\.o$/, ".c", src)
	  if (!(src in exists)) next
	  n = split(src, part, "/")
	  room = (n > 2) ? part[1] "/" part[2] : part[1] "/main"
	  print $1, sym, room, src }' "$tmp/files" - >"$tmp/syms"
awk -v quiet="$quiet" 'FILENAME == ARGV[1] { allowed[$1] = " " $0 " "; next }
	$1 == "D" { def[$2] = $3; dsrc[$2] = $4; next }
	{ use[++n] = $0 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if (!(u[2] in def)) continue
			rd = def[u[2]]
			if (rd != u[3]) cross++
			if (rd != u[3] && index(allowed[u[3]], " " rd " ") == 0) {
				if (seen[u[4], u[2]]++) continue
				printf "layers: %s (%s) uses %s of %s (%s)\n", u[4], u[3], u[2], dsrc[u[2]], rd
				bad++
			}
		}
		if (!quiet || bad) printf "layers: %d calls between rooms, %d of them wrong\n", cross, bad + 0
		exit bad ? 1 : 0
	}' "$tmp/rules" "$tmp/syms" || status=1
exit $status
