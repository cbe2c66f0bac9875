#!/bin/sh
# tests/integration/06-build-deps.sh — the build's package check and its
# quiet output, in a clone of this repository (nothing is uninstalled:
# PARAVT_DEPS_FAKE_MISSING makes ports/deps.sh count a package as absent).
#
#   - without the cross sysroots, make stops naming build/sysroot/s390x;
#   - ports/deps.sh --check takes well under a second when all is present;
#   - with libmsgpack-dev "missing", make (and make node PORT=...) stops at
#     once, non-zero, naming the package and saying to run make deps as
#     root, before any compiler runs (no build/linux-* directory appears);
#   - make help and make clean still work with a package missing;
#   - ports/deps.sh off a terminal prints one line ("deps: all present"),
#     no progress;
#   - with all present, building the wire library prints exactly one line
#     a step ("CC    wire/wire.c", "AR    build/...") and V=1 prints the
#     full commands instead (mkdir too);
#   - every recipe line of Makefile and the module.mk files is quiet (starts
#     with @, $(Q) or $(call say,...)), so no rule prints its command;
#   - sub-makes (make nodes) print no "Entering directory".
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../lib/common.sh"

command -v git >/dev/null 2>&1 || skip "git is not installed"
command -v dpkg-query >/dev/null 2>&1 || skip "no dpkg-query (not Debian)"
[ -f "$TOP/build/sysroot/s390x/.done" ] || skip "no build/sysroot (run make deps)"
"$TOP/ports/deps.sh" --check >/dev/null 2>&1 || skip "packages missing here (run make deps)"

# The clone's make must not inherit the caller's make (make check).
unset MAKEFLAGS MAKELEVEL MFLAGS V PARAVT_DEPS_FAKE_MISSING
C=$T/c
git clone -q "$TOP" "$C" || fail "git clone $TOP"
cd "$C" || fail "no clone"

# mk LOG ARGS...: runs make in the clone (bounded), output in LOG; prints
# make's exit status.
mk() {
	_log=$1; shift
	timeout 120 make "$@" >"$_log" 2>&1
	echo $?
}

# ---- no sysroots: make names them ----------------------------------------
rc=$(mk "$T/nosys.log")
[ "$rc" -ne 0 ] || fail "make succeeded without build/sysroot"
expect_grep 'missing or old target libraries: build/sysroot/s390x' "$T/nosys.log"
expect_grep "run 'make deps' as root" "$T/nosys.log"
[ ! -d build/linux-x86_64 ] || fail "make compiled something before stopping"
ok "missing sysroots stop make (exit $rc)"

mkdir -p build
cp -a "$TOP/build/sysroot" build/ || fail "copy build/sysroot"

# ---- the check is fast ---------------------------------------------------
t0=$(date +%s%N)
ports/deps.sh --check >/dev/null 2>&1 || fail "deps.sh --check fails in the clone"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "ports/deps.sh --check: ${ms} ms"
[ "$ms" -lt 500 ] || fail "ports/deps.sh --check took ${ms} ms (limit 500)"
ok "check takes ${ms} ms"

# ---- off a terminal, deps.sh prints one line and no progress -------------
ports/deps.sh >"$T/deps.log" 2>&1 </dev/null || { cat "$T/deps.log"; fail "deps.sh"; }
[ "$(cat "$T/deps.log")" = "deps: all present" ] ||
	{ cat -A "$T/deps.log"; fail "deps.sh printed more than 'deps: all present'"; }
ok "deps.sh off a terminal: one line"

# ---- a package missing: make stops at once ------------------------------
export PARAVT_DEPS_FAKE_MISSING=libmsgpack-dev
rc=$(mk "$T/miss.log")
cat "$T/miss.log"
[ "$rc" -ne 0 ] || fail "make succeeded with libmsgpack-dev missing"
expect_grep '^deps: missing Debian packages: libmsgpack-dev$' "$T/miss.log"
expect_grep "run 'make deps' as root to install them" "$T/miss.log"
expect_no_grep 'error:|msgpack\.h|^CC ' "$T/miss.log" "a compiler ran"
[ ! -d build/linux-x86_64 ] || fail "make compiled something before stopping"
[ "$(wc -l <"$T/miss.log")" -le 3 ] || fail "more than the message"
ok "make stops naming libmsgpack-dev (exit $rc)"

rc=$(mk "$T/node.log" node PORT=linux-s390x-qemu)
[ "$rc" -ne 0 ] || fail "make node PORT=linux-s390x-qemu succeeded"
expect_grep 'missing Debian packages: libmsgpack-dev' "$T/node.log"
[ ! -d build/linux-s390x-qemu ] || fail "make node compiled something"
ok "make node PORT=linux-s390x-qemu stops too"

export PARAVT_DEPS_FAKE_MISSING="pvm libcmocka-dev"
rc=$(mk "$T/two.log" test-bins)
[ "$rc" -ne 0 ] || fail "make test-bins succeeded with two packages missing"
expect_grep 'missing Debian packages: pvm libcmocka-dev$' "$T/two.log"
ok "two missing packages are both named"
export PARAVT_DEPS_FAKE_MISSING=libmsgpack-dev

rc=$(mk "$T/help.log" help)
[ "$rc" -eq 0 ] || { cat "$T/help.log"; fail "make help failed with a package missing"; }
expect_grep 'V=1' "$T/help.log" "make help does not mention V=1"
rc=$(mk "$T/clean.log" clean)
[ "$rc" -eq 0 ] || { cat "$T/clean.log"; fail "make clean failed with a package missing"; }
ok "make help and make clean need no package"
unset PARAVT_DEPS_FAKE_MISSING

# ---- all present: quiet steps, V=1 full commands -------------------------
LIB=build/linux-x86_64/lib/libpvtwire.a
rc=$(mk "$T/quiet.log" "$LIB")
cat "$T/quiet.log"
[ "$rc" -eq 0 ] || fail "make $LIB failed"
nsrc=$(grep -o 'wire/[a-z_]*\.c' wire/module.mk | sort -u | wc -l)
[ "$nsrc" -gt 0 ] || fail "no WIRE_SRCS in wire/module.mk"
expect_grep '^CC    wire/wire\.c$' "$T/quiet.log"
expect_grep "^AR    $LIB\$" "$T/quiet.log"
[ "$(grep -c '^CC    wire/' "$T/quiet.log")" -eq "$nsrc" ] ||
	fail "not one CC line per wire source ($nsrc)"
expect_no_grep '-std=c99|^cc |Entering directory' "$T/quiet.log" \
	"quiet make printed a command"
[ "$(wc -l <"$T/quiet.log")" -eq $((nsrc + 1)) ] ||
	fail "quiet make printed more than one line a step"
ok "quiet: $((nsrc + 1)) lines for $nsrc sources and the archive"

rm -f "$LIB" build/linux-x86_64/obj/wire/wire.o
rc=$(mk "$T/v1.log" V=1 "$LIB")
cat "$T/v1.log"
[ "$rc" -eq 0 ] || fail "make V=1 $LIB failed"
expect_grep '^cc .*-std=c99 .*-c -o build/linux-x86_64/obj/wire/wire\.o wire/wire\.c$' \
	"$T/v1.log" "V=1 does not show the compiler command"
expect_grep "ar rcs $LIB " "$T/v1.log" "V=1 does not show the ar command"
expect_grep '^mkdir -p build/linux-x86_64/obj/wire/$' "$T/v1.log" \
	"V=1 does not show mkdir"
expect_no_grep '^CC    ' "$T/v1.log" "V=1 printed short lines"
ok "V=1 shows the full commands"

# ---- every rule is quiet --------------------------------------------------
# A recipe line (tab first, not the continuation of the line before) must
# start with @, $(Q) or $(call say,...) ($$(Q) and $$(call say,...) in a
# define expanded by $(eval)).
mkfiles=$(git ls-files Makefile '*module.mk')
[ "$(echo "$mkfiles" | wc -l)" -gt 5 ] || fail "git ls-files found no module.mk"
for f in $mkfiles; do
	awk -v f="$f" '/^\t/ && prev !~ /\\$/ &&
		$0 !~ /^\t(@|\$\$?\(Q\)|\$\$?\(call say,)/ {
		print f ":" NR ": " $0 } { prev = $0 }' "$f"
done >"$T/loud.txt"
[ ! -s "$T/loud.txt" ] || { cat "$T/loud.txt"; fail "recipe lines that print their command"; }
ok "every recipe line of $(echo "$mkfiles" | wc -l) make files is quiet"

# ---- sub-makes print no directory ---------------------------------------
rc=$(mk "$T/nodes.log" -n nodes)
[ "$rc" -eq 0 ] || { cat "$T/nodes.log"; fail "make -n nodes failed"; }
expect_grep 'build/linux-s390x-qemu/' "$T/nodes.log" "make -n nodes ran no sub-make"
expect_no_grep 'Entering directory|Leaving directory' "$T/nodes.log" \
	"a sub-make printed its directory"
ok "make nodes: no 'Entering directory'"
