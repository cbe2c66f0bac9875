# Port: linux-x86_64 — the native node (and the console host).
# Little-endian, LP64. Runs directly; nothing to emulate.
# Format: plain "KEY = value" lines; make includes this file and paravtd
# reads the same keys when it builds user programs for this node.
PORT_NAME     = linux-x86_64
PORT_OS       = Linux
PORT_ARCH     = x86_64
PVM_ARCH      = LINUX64
CC            = cc
AR            = ar
PORT_CFLAGS   = -O2 -g
PORT_LDFLAGS  =
MSGPACK_CFLAGS =
MSGPACK_LIBS  = -lmsgpackc
PVM_CFLAGS    =
PVM_LIBS      = -lgpvm3 -lpvm3
# Debian's libpvm3 exports pvmmyctx: the wrappers read the context there
# (para_vt_pvm.c).  Only the runtime's build uses this key.
PVM_WRAP_CFLAGS = -DPVT_PVM_MYCTX
RUN_PREFIX    =
PORT_NATIVE   = yes
