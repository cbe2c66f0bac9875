#!/bin/sh
# tests/integration/05-docs.sh — the documentation matches the code.
#
#   - every man page in man/*.[158] renders with groff -wall and no warning;
#   - paravt-protocol.5 documents every entry of WIRE_MESSAGES
#     (wire/wire_msg.h: number, name and field list, and no entry that is
#     not in the table), every error of wire/wire.c with its number from
#     wire/wire.h, the protocol version, the frame limits and the ABI type
#     names — so adding a message or an error without documenting it fails;
#   - if the console and the daemon are built, their --help contains every
#     option word of their man page's SYNOPSIS, and --version prints the
#     version of wire/wire.h;
#   - libparavt.3 has a row for every MPI and PVM call the wrappers define
#     (wrappers/pvt_mpi*.c, wrappers/paravt_pvm.h) and no row for a call
#     they do not;
#   - README.md gives the two set-up commands.
# Every problem is reported before the test fails.
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"
cd "$TOP" || fail "no $TOP"

PROTO=man/paravt-protocol.5
bad=0
problem() { echo "PROBLEM: $*" >&2; bad=$((bad + 1)); }

command -v groff >/dev/null 2>&1 || skip "groff is not installed"

# ---- every man page renders cleanly ------------------------------------
pages=0
for m in man/*.1 man/*.3 man/*.5 man/*.8; do
	[ -f "$m" ] || continue
	pages=$((pages + 1))
	if ! groff -mandoc -Tutf8 -wall "$m" >/dev/null 2>"$T/groff.err" ||
	    [ -s "$T/groff.err" ]; then
		sed 's/^/  /' "$T/groff.err" >&2
		problem "$m: groff -mandoc -Tutf8 -wall complains"
	else
		ok "$m renders without warnings"
	fi
done
[ "$pages" -gt 0 ] || problem "no man pages in man/"
[ -f "$PROTO" ] || fail "$PROTO is missing"

# ---- the message table --------------------------------------------------
# One line per entry: "NUMBER NAME field field ...", read from the
# X-macro (its lines end in a backslash; field strings may be split into
# adjacent literals).
awk '
/^#define[ \t]+WIRE_MESSAGES\(X\)/ { on = 1; next }
on {
	line = $0
	cont = (line ~ /\\[ \t]*$/)
	sub(/\\[ \t]*$/, "", line)
	buf = buf " " line
	if (!cont) on = 0
}
END {
	n = split(buf, part, /X\(/)
	for (i = 2; i <= n; i++) {
		s = part[i]
		if (!match(s, /^[ \t]*[0-9]+[ \t]*,[ \t]*[A-Z_0-9]+/))
			continue
		head = substr(s, RSTART, RLENGTH)
		gsub(/[ \t]/, "", head)
		split(head, hn, ",")
		f = ""
		while (match(s, /"[^"]*"/)) {
			f = f substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
		}
		gsub(/:[a-zA-Z]/, "", f)
		gsub(/[ \t]+/, " ", f)
		sub(/^ /, "", f)
		sub(/ $/, "", f)
		print hn[1], hn[2], f
	}
}' wire/wire_msg.h >"$T/messages"
nmsg=$(wc -l <"$T/messages")
[ "$nmsg" -gt 0 ] || fail "could not parse WIRE_MESSAGES in wire/wire_msg.h"
echo "WIRE_MESSAGES has $nmsg entries:"
sed 's/^/  /' "$T/messages"

# The documented rows: ".It NUM Ta NAME Ta FROM Ta FIELDS" in MESSAGE TABLE.
sed -n '/^\.Sh MESSAGE TABLE/,/^\.El/p' "$PROTO" |
	grep -E '^\.It [0-9]+ Ta ' >"$T/rows" || true
while read -r num name fields; do
	row=$(grep -E "^\.It $num Ta $name Ta " "$T/rows")
	if [ -z "$row" ]; then
		problem "$PROTO: message $num $name is not in the MESSAGE TABLE"
		continue
	fi
	case "$row" in
	*" Ta $fields"|*" Ta${fields}") ok "message $num $name documented with fields: $fields" ;;
	*) problem "$PROTO: message $num $name: fields should be \"$fields\"; row is: $row" ;;
	esac
done <"$T/messages"
# And nothing documented that the table does not have.
while read -r _it num _ta name _rest; do
	grep -q "^$num $name\( \|\$\)" "$T/messages" ||
		problem "$PROTO: documents message $num $name, which WIRE_MESSAGES does not have"
done <"$T/rows"
# The numbers in the same order as the table.
a=$(awk '{ printf "%s ", $1 }' "$T/messages")
b=$(awk '{ printf "%s ", $2 }' "$T/rows")
[ "$a" = "$b" ] || problem "$PROTO: message order \"$b\" differs from WIRE_MESSAGES \"$a\""

# ---- the error codes -----------------------------------------------------
sed -n 's/.*{WIRE_\(E[A-Z0-9]*\), *"\(E[A-Z0-9]*\)".*/\1 \2/p' wire/wire.c >"$T/errnames"
sed -n 's/.*WIRE_\(E[A-Z0-9]*\) *= *-\([0-9][0-9]*\).*/\1 \2/p' wire/wire.h >"$T/errnums"
nerr=$(wc -l <"$T/errnames")
[ "$nerr" -gt 0 ] || fail "could not parse the error table of wire/wire.c"
while read -r sym name; do
	num=$(awk -v s="$sym" '$1 == s { print $2 }' "$T/errnums")
	[ -n "$num" ] || { problem "wire/wire.h has no number for WIRE_$sym"; continue; }
	if grep -Eq "^\.It $num Ta Er $name( |\$)" "$PROTO"; then
		ok "error $num $name documented"
	else
		problem "$PROTO: error $num $name is not in the error table"
	fi
done <"$T/errnames"
[ "$(wc -l <"$T/errnums")" -eq "$nerr" ] ||
	problem "wire/wire.h and wire/wire.c list a different number of errors"

# ---- version, limits, ABI names --------------------------------------------
pv=$(sed -n 's/^#define WIRE_PROTO_VERSION \([0-9][0-9]*\).*/\1/p' wire/wire.h)
sv=$(sed -n 's/^#define PARAVT_VERSION "\(.*\)".*/\1/p' wire/wire.h)
if [ -z "$pv" ] || [ -z "$sv" ]; then
	fail "cannot read the versions in wire/wire.h"
fi
grep -q "protocol version $pv, spoken by paravt $sv" "$PROTO" ||
	problem "$PROTO does not say \"protocol version $pv, spoken by paravt $sv\""
for lim in WIRE_FRAME_MAX_DEFAULT WIRE_FRAME_MAX_HARD; do
	expr=$(sed -n "s/^#define $lim (\(.*\))\$/\1/p" wire/wire.h | tr -d 'u')
	[ -n "$expr" ] || { problem "cannot read $lim"; continue; }
	# shellcheck disable=SC2004 # expr is "16 * 1024 * 1024", not a name
	bytes=$(($expr))
	grep -q "($bytes bytes)" "$PROTO" || problem "$PROTO does not give $lim ($bytes bytes)"
done
awk '/wire_ctype_names\[.*=/ { on = 1 } on { print } on && /};/ { exit }' \
	wire/wire_abi.c | grep -o '"[^"]*"' >"$T/ctypes"
[ -s "$T/ctypes" ] || problem "cannot read the C type names of wire/wire_abi.c"
while read -r q; do
	grep -q "^\.Qq $(echo "$q" | tr -d '"')\( [,.;]\)\{0,1\}\$" "$PROTO" ||
		problem "$PROTO: ABI type $q is not listed"
done <"$T/ctypes"

# ---- the programs' --help and --version --------------------------------------
# Option words (starting with "-") of a rendered SYNOPSIS or usage text.
optwords() {
	tr '[]|' '   ' | sed 's/\.\.\.//g' | tr -s ' \t' '\n' | grep -E '^-' | sort -u
}
check_prog() { # check_prog BIN MANPAGE
	bin=$1 man=$2 name=$(basename "$1")
	if [ ! -x "$bin" ]; then
		echo "note: $bin not built; its --help is not checked"
		return 0
	fi
	[ -f "$man" ] || { problem "$bin is built but $man is missing"; return 0; }
	groff -mandoc -Tascii -rLL=300n -P-cbou "$man" 2>/dev/null |
		awk '/^SYNOPSIS/ { on = 1; next } on && /^[A-Z]/ { exit } on' \
		>"$T/$name.synopsis"
	[ -s "$T/$name.synopsis" ] || { problem "$man has no SYNOPSIS"; return 0; }
	optwords <"$T/$name.synopsis" >"$T/$name.want"
	timeout 10 "$bin" --help >"$T/$name.help" 2>&1 ||
		problem "$name --help exits with status $?"
	optwords <"$T/$name.help" >"$T/$name.have"
	missing=$(comm -23 "$T/$name.want" "$T/$name.have" | tr '\n' ' ')
	if [ -n "$missing" ]; then
		echo "--- SYNOPSIS of $man:"; cat "$T/$name.synopsis"
		echo "--- $name --help:"; cat "$T/$name.help"
		problem "$name --help lacks option words of its SYNOPSIS: $missing"
	else
		ok "$name --help has every option of the SYNOPSIS of $man"
	fi
	line=$(tr -s ' \t\n' '   ' <"$T/$name.synopsis" | sed 's/^ //; s/ $//')
	tr -s ' \t' '  ' <"$T/$name.help" | grep -qF -- "$line" ||
		echo "note: $name --help does not print the SYNOPSIS line verbatim: $line"
	timeout 10 "$bin" --version >"$T/$name.version" 2>&1 ||
		problem "$name --version exits with status $?"
	if grep -qF "$sv" "$T/$name.version"; then
		ok "$name --version: $(head -n 1 "$T/$name.version")"
	else
		problem "$name --version does not print $sv: $(head -n 3 "$T/$name.version")"
	fi
}
check_prog "$PARAVT" man/paravt.1
check_prog "$PARAVTD" man/paravtd.8

# ---- libparavt.3: every wrapped call ---------------------------------------
LIB3=man/libparavt.3
sed -n 's/^int \(MPI_[A-Za-z_]*\)(.*/\1/p' wrappers/pvt_mpi*.c >"$T/w.mpi"
sed -n 's/^[a-z_]* para_vt_\(pvm_[a-z_]*\)(PARAVT_PVM_ARGS.*/\1/p' \
	wrappers/paravt_pvm.h >"$T/w.pvm"
cat "$T/w.mpi" "$T/w.pvm" | sort -u >"$T/wrapped"
sed -n 's/^\.It \([Mp][Pv][Im]_[A-Za-z_]*\) Ta .*/\1/p' "$LIB3" | sort -u >"$T/documented"
[ "$(wc -l <"$T/wrapped")" -gt 100 ] || problem "found only $(wc -l <"$T/wrapped") wrappers"
missing=$(comm -23 "$T/wrapped" "$T/documented" | tr '\n' ' ')
extra=$(comm -13 "$T/wrapped" "$T/documented" | tr '\n' ' ')
[ -z "$missing" ] || problem "$LIB3 lacks wrapped calls: $missing"
[ -z "$extra" ] || problem "$LIB3 documents calls no wrapper defines: $extra"
[ -z "$missing$extra" ] &&
	ok "$LIB3 documents the $(wc -l <"$T/wrapped") wrapped calls, no more"

# ---- README ----------------------------------------------------------------
for c in "make demo" "make check"; do
	if grep -qF "$c" README.md 2>/dev/null; then
		ok "README.md mentions $c"
	else
		problem "README.md does not mention \"$c\""
	fi
done

[ "$bad" -eq 0 ] || fail "$bad documentation problem(s)"
ok "documentation matches the code"
