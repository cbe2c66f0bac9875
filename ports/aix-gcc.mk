# Port: aix-gcc — AIX 7.x on POWER with GCC from the AIX Toolbox.
# UNTESTED: written from IBM's and GCC's documentation; no AIX machine is
# reachable from here, so nothing in this file has been compiled or run.
#
# - -maix64 builds 64-bit objects (the default is 32-bit); ar needs -X64.
# - -pthread is not needed: the node side is single-threaded.
# - long double on AIX is 64-bit (same as double) unless -mlong-double-128.
PORT_NAME     = aix-gcc
PORT_OS       = AIX
PORT_ARCH     = powerpc64
PVM_ARCH      = AIX5SP64
CC            = gcc
AR            = ar -X64
PORT_CFLAGS   = -maix64 -O2 -g -D_ALL_SOURCE
PORT_LDFLAGS  = -maix64
MSGPACK_CFLAGS = -I/opt/freeware/include
MSGPACK_LIBS  = -L/opt/freeware/lib64 -lmsgpackc
PVM_CFLAGS    = -I$(PVM_ROOT)/include
PVM_LIBS      = -L$(PVM_ROOT)/lib/$(PVM_ARCH) -lpvm3
RUN_PREFIX    =
PORT_NATIVE   = yes
