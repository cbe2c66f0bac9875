# Port: aix-xlc — AIX 7.x on POWER with IBM XL C (xlc / xlclang).
# UNTESTED: written from IBM's documentation; no AIX machine is reachable
# from here, so nothing in this file has been compiled or run.
#
# - 64-bit objects need -q64 (and OBJECT_MODE=64 for ar/ld); the default is
#   32-bit.  Both are big-endian.  In 64-bit mode long and pointers are 8.
# - -qlanglvl=extc99 gives C99 plus the POSIX/AIX extensions the node side
#   uses; -D_ALL_SOURCE exposes them in the system headers.
# - Threads: -qthreaded (xlc_r) is not needed; the node side is single-threaded.
# - msgpack-c has to be built on the node (cmake, or the AIX Toolbox RPM
#   msgpack-c); point MSGPACK_* at it.
# - PVM's architecture name for AIX on POWER is AIX46K (32-bit) or AIX5SP64.
PORT_NAME     = aix-xlc
PORT_OS       = AIX
PORT_ARCH     = powerpc64
PVM_ARCH      = AIX5SP64
CC            = xlc
AR            = ar -X64
PORT_CFLAGS   = -q64 -O2 -g -qlanglvl=extc99 -D_ALL_SOURCE
PORT_LDFLAGS  = -q64
MSGPACK_CFLAGS = -I/opt/freeware/include
MSGPACK_LIBS  = -L/opt/freeware/lib64 -lmsgpackc
PVM_CFLAGS    = -I$(PVM_ROOT)/include
PVM_LIBS      = -L$(PVM_ROOT)/lib/$(PVM_ARCH) -lpvm3
RUN_PREFIX    =
PORT_NATIVE   = yes
