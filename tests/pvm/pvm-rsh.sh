#!/bin/sh
# tests/pvm/pvm-rsh.sh — the remote shell the master pvmd uses to start the
# pvmd of another "host" (a network namespace on this machine).
#
# pvmd runs it as   $PVM_RSH HOST [-l USER] [-n] COMMAND [ARGS...]
# (rsh's interface: the words after the host are one command line for the
# remote shell) and talks to the started pvmd over its stdin/stdout, so
# this script must exec, keeping both.
#
# Configuration, from the environment the master pvmd passes down:
#   PVM_RSH_NETNS   "HOST=NAMESPACE ..." — where each host lives
#   PVM_TMP         each remote host gets its own $PVM_TMP/host-HOST, as a
#                   real machine would have its own /tmp (namespaces share
#                   the file system; without this, tasks on host B would
#                   find host A's pvmd socket file).
#
# The tracing issue replaces this script with one that asks the node's
# paravtd to run the command; keep its interface exactly this.
host=${1-}
[ -n "$host" ] || { echo "usage: pvm-rsh.sh HOST [-l USER] [-n] COMMAND..." >&2; exit 2; }
shift
while [ $# -gt 0 ]; do
	case $1 in
	-l) shift 2 ;;
	-n) shift ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "pvm-rsh: no command for $host" >&2; exit 2; }

ns=""
for m in ${PVM_RSH_NETNS-}; do
	[ "${m%%=*}" = "$host" ] && ns=${m#*=}
done
[ -n "$ns" ] || { echo "pvm-rsh: unknown host $host (PVM_RSH_NETNS=${PVM_RSH_NETNS-})" >&2; exit 1; }

if [ -n "${PVM_TMP-}" ]; then
	PVM_TMP=$PVM_TMP/host-$host
	mkdir -p "$PVM_TMP" || exit 1
	export PVM_TMP
fi
echo "pvm-rsh: $host ($ns): $*" >>"${PVM_RSH_LOG:-/dev/null}" 2>/dev/null
exec ip netns exec "$ns" /bin/sh -c "$*"
