# Port: linux-i386-qemu — 32-bit x86 (ILP32, little-endian), run with
# qemu-i386 so that it behaves like any other emulated node.  long and
# pointers are 4 bytes, long long is 8 with 4-byte alignment, long double is
# 12 bytes: the layout differences a 32-bit AIX node would also show.
# Cross-compiled with i686-linux-gnu-gcc and linked statically against the
# i386 msgpack-c unpacked into build/sysroot/i386 by ports/deps.sh.
PORT_NAME     = linux-i386-qemu
PORT_OS       = Linux
PORT_ARCH     = i686
PVM_ARCH      = LINUX
CC            = i686-linux-gnu-gcc
AR            = i686-linux-gnu-ar
SYSROOT       = $(TOP)/build/sysroot/i386
PORT_CFLAGS   = -O2 -g
PORT_LDFLAGS  = -static
MSGPACK_CFLAGS = -I$(SYSROOT)/usr/include
MSGPACK_LIBS  = $(SYSROOT)/usr/lib/i386-linux-gnu/libmsgpackc.a
PVM_CFLAGS    = -I$(SYSROOT)/usr/include
# PVM: static from the sysroot (ports/deps.sh, sysroot version 2); groups
# need libgpvm3 first, and libpvm3 needs libtirpc (XDR).
PVM_LIBS      = $(SYSROOT)/usr/lib/i386-linux-gnu/libgpvm3.a \
                $(SYSROOT)/usr/lib/i386-linux-gnu/libpvm3.a \
                $(SYSROOT)/usr/lib/i386-linux-gnu/libtirpc.a
# Debian's libpvm3 exports pvmmyctx: the wrappers read the context there
# (para_vt_pvm.c).  Only the runtime's build uses this key.
PVM_WRAP_CFLAGS = -DPVT_PVM_MYCTX
RUN_PREFIX    = qemu-i386 -L /usr/i686-linux-gnu
PORT_NATIVE   = no
