# Port: linux-s390x-qemu — IBM Z, big-endian, LP64, emulated with qemu-user.
# Cross-compiled with Debian's s390x-linux-gnu-gcc; everything is linked
# statically (the target msgpack-c comes from the s390x .debs that
# ports/deps.sh unpacks into build/sysroot/s390x), then run as
# "qemu-s390x -L /usr/s390x-linux-gnu prog".  The sysroot's include
# directory is given first: the cross gcc searches /usr/include last and
# would otherwise silently take the host's headers.
PORT_NAME     = linux-s390x-qemu
PORT_OS       = Linux
PORT_ARCH     = s390x
PVM_ARCH      = LINUXS390
CC            = s390x-linux-gnu-gcc
AR            = s390x-linux-gnu-ar
SYSROOT       = $(TOP)/build/sysroot/s390x
PORT_CFLAGS   = -O2 -g
PORT_LDFLAGS  = -static
MSGPACK_CFLAGS = -I$(SYSROOT)/usr/include
MSGPACK_LIBS  = $(SYSROOT)/usr/lib/s390x-linux-gnu/libmsgpackc.a
PVM_CFLAGS    = -I$(SYSROOT)/usr/include
# PVM: static from the sysroot (ports/deps.sh, sysroot version 2); groups
# need libgpvm3 first, and libpvm3 needs libtirpc (XDR).
PVM_LIBS      = $(SYSROOT)/usr/lib/s390x-linux-gnu/libgpvm3.a \
                $(SYSROOT)/usr/lib/s390x-linux-gnu/libpvm3.a \
                $(SYSROOT)/usr/lib/s390x-linux-gnu/libtirpc.a
# Debian's libpvm3 exports pvmmyctx: the wrappers read the context there
# (para_vt_pvm.c).  Only the runtime's build uses this key.
PVM_WRAP_CFLAGS = -DPVT_PVM_MYCTX
RUN_PREFIX    = qemu-s390x -L /usr/s390x-linux-gnu
PORT_NATIVE   = no
