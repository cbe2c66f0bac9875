#!/bin/sh
# ports/deps.sh — install what paravt needs from Debian's archive, and unpack
# the target-architecture libraries the emulated ports link against.
#
# Usage: ports/deps.sh [--check]
#   Installs only what is missing, so a second run takes about a second.
#   --check  only report what is missing, on stderr, and exit 1 if anything
#            is (one dpkg-query: a few milliseconds; make runs it before
#            every build).  Without dpkg-query (not Debian) it checks
#            nothing and exits 0.
# PARAVT_DEPS_FAKE_MISSING="pkg ...": for tests, these packages count as
# not installed (tests/integration/06-build-deps.sh).
# Output: one line a step ("deps: installing: ...").  On a terminal, a long
# step (the package lists, the installation, the downloads and unpacking of
# the target libraries) also shows its progress on one line that it
# rewrites; apt's own output is not shown, its errors are.
# Nothing is downloaded from anywhere but Debian's package archive.
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
PKGS="gcc make pkg-config clang pvm pvm-dev libssh2-1-dev libmsgpack-dev
libreadline-dev libclang-dev libcmocka-dev openssh-server openssh-client
qemu-user gcc-s390x-linux-gnu libc6-dev-s390x-cross gcc-i686-linux-gnu
libc6-dev-i386-cross tmux iproute2 procps psmisc groff-base
libopenmpi-dev openmpi-bin libotf2-trace-dev otf2-tools chromium util-linux
perl"
# Target libraries unpacked (not installed) into build/sysroot/<arch>:
# msgpack-c for the node side, plus PVM 3.4.6 so that (a) the target's own
# pvmd (and pvmgs) runs under "qemu-<arch> -L build/sysroot/<arch>" as a
# second PVM host, and (b) PVM test tasks link statically against the
# target's libpvm3.a/libgpvm3.a and libtirpc.a (tests/pvm/pvm-cluster.sh).
# The runtime list is what the target pvmd's dynamic loader asks for.
SYSROOT_ARCHS="s390x i386"
SYSROOT_DEBS="libmsgpack-dev libmsgpackc2
pvm libpvm3 pvm-dev libtirpc3 libtirpc-dev libc6 libgcc-s1
libgssapi-krb5-2 libkrb5-3 libk5crypto3 libcom-err2 libkrb5support0 libkeyutils1"
# Bump when SYSROOT_DEBS changes: a sysroot whose .done holds another
# version is rebuilt.
SYSROOT_VERSION="2 msgpack+pvm"

check_only=no
[ "${1-}" = "--check" ] && check_only=yes

if [ "$check_only" = yes ] && ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: no dpkg-query (not Debian): nothing checked"
	exit 0
fi

# One dpkg-query for the whole list; a package it does not know is simply
# absent from its output.
# shellcheck disable=SC2086
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' $PKGS 2>/dev/null |
	sed -n 's/^\([^ ]*\) install ok installed$/\1/p' | tr '\n' ' ')"
missing=""
for p in $PKGS; do
	case " ${PARAVT_DEPS_FAKE_MISSING-} " in *" $p "*) missing="$missing $p"; continue ;; esac
	case "$installed" in *" $p "*) ;; *) missing="$missing $p" ;; esac
done

need_sysroot=""
for a in $SYSROOT_ARCHS; do
	v=$(cat "$TOP/build/sysroot/$a/.done" 2>/dev/null || true)
	[ "$v" = "$SYSROOT_VERSION" ] || need_sysroot="$need_sysroot $a"
done

if [ "$check_only" = yes ]; then
	[ -z "$missing$need_sysroot" ] && { echo "deps: all present"; exit 0; }
	[ -n "$missing" ] && echo "deps: missing Debian packages:$missing" >&2
	for a in $need_sysroot; do
		echo "deps: missing or old target libraries: build/sysroot/$a" >&2
	done
	exit 1
fi

[ -z "$missing$need_sysroot" ] && { echo "deps: all present"; exit 0; }

if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install:$missing$need_sysroot" >&2
	echo "deps: run 'sudo make deps' once" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive

# Progress on a terminal: "deps: WHAT  42% what apt is doing", rewritten in
# place and cleared when the step ends.
tty=no cols=80
if [ -t 1 ]; then
	tty=yes
	c=$(stty size 2>/dev/null </dev/tty | cut -d' ' -f2) || true
	[ "${c:-0}" -gt 30 ] 2>/dev/null && cols=$c
fi
show() {
	[ "$tty" = yes ] || return 0
	printf '\r\033[K%.*s' $((cols - 1)) "$*"
}
show_end() {
	[ "$tty" = yes ] || return 0
	printf '\r\033[K'
}

# apt_run WHAT ARGS...: apt-get ARGS; stdout dropped, stderr shown.  On a
# terminal, apt's status lines (APT::Status-Fd: "dlstatus:ID:PCT:TEXT",
# "pmstatus:PKG:PCT:TEXT") drive show.  The exit status is apt-get's (sh
# has no pipefail: the status travels down the pipe as a last "rc:-:N" line).
apt_run() {
	what=$1; shift
	if [ "$tty" = no ]; then
		apt-get "$@" </dev/null >/dev/null
		return
	fi
	# (set -e would end the left side at a failing apt-get: hence && ||.)
	rc=$({ { apt-get -o APT::Status-Fd=3 "$@" 3>&1 >/dev/null </dev/null &&
		r=0 || r=$?; echo "rc:-:$r"; } | apt_progress "$what"; } 3>&1 >&4)
	show_end
	return "${rc:-1}"
} 4>&1
apt_progress() {
	while IFS=: read -r kind _ pct text; do
		case $kind in
		dlstatus | pmstatus) show "deps: $1  ${pct%%.*}% $text" ;;
		rc) echo "$pct" >&3 ;;
		esac
	done
}

updated=no
apt_update() {
	[ "$updated" = yes ] && return 0
	echo "deps: updating the package lists"
	# A mirror in the middle of a sync can fail one index; the packages we
	# need are usually still resolvable, so a failed update is a warning.
	apt_run "updating the package lists" update -q 2>/dev/null ||
		echo "deps: warning: apt-get update reported errors; continuing" >&2
	updated=yes
}

if [ -n "$missing" ]; then
	echo "deps: installing:$missing"
	apt_update
	# shellcheck disable=SC2086
	apt_run installing install -y -q --no-install-recommends $missing
fi

for a in $need_sysroot; do
	if ! dpkg --print-foreign-architectures | grep -qx "$a"; then
		dpkg --add-architecture "$a"
		updated=no
	fi
	apt_update
	dir="$TOP/build/sysroot/$a"
	dl="$TOP/build/sysroot/$a.debs"
	rm -rf "$dir" "$dl"
	mkdir -p "$dir" "$dl"
	debs=""
	for p in $SYSROOT_DEBS; do debs="$debs $p:$a"; done
	echo "deps: unpacking $(echo "$SYSROOT_DEBS" | wc -w) $a packages into build/sysroot/$a"
	# apt-get download writes into the current directory.
	# shellcheck disable=SC2086
	(cd "$dl" && apt_run "downloading for $a" download -q $debs 2>/dev/null) || {
		echo "deps: apt-get download$debs failed" >&2
		exit 1
	}
	n=$(find "$dl" -name "*.deb" | wc -l) i=0
	for f in "$dl"/*.deb; do
		i=$((i + 1))
		show "deps: unpacking for $a  $i/$n ${f##*/}"
		dpkg-deb -x "$f" "$dir"
	done
	show_end
	rm -rf "$dl"
	echo "$SYSROOT_VERSION" >"$dir/.done"
done
echo "deps: done"
