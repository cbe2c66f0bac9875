# Makefile — builds paravt: the node side (wire library, paravtd) for one
# port, the console for the host, the tests, and the documented targets.
#
#   make                 node side for the host port + console
#   make node PORT=P     node side only, for port P (ports/P.mk), into build/P
#   make nodes           node side for every port that can be built here
#   make deps            install missing Debian packages and the target
#                        libraries in build/sysroot (ports/deps.sh; as root)
#   make check           deps, build, all tests; ends "N passed, N failed"
#   make demo            deps, build, show the main job
#   make fuzz            run the fuzzers for a while (FUZZ_SECONDS)
#   make bench           deps, build, run every benchmark (tests/bench/run.sh)
#   make validate        deps, build, check predictions against reruns (root)
#   make test-bins       build the test programs only; make check-only runs them
#   make install PREFIX=/usr/local
#   make clean           remove the build (not build/sysroot)
#   make V=1 ...         show the full commands (default: one line a step)
#
# Each folder adds its sources in its own module.mk.  Dependencies are
# tracked automatically (-MMD).  A goal that builds first checks that the
# Debian packages are there (ports/deps.sh --check) and stops naming the
# missing ones.

TOP := $(CURDIR)

# ---- quiet builds ------------------------------------------------------
# A step prints one short line, a tag and what it makes or compiles
# ("CC wire/wire.c", "LD build/linux-x86_64/bin/paravtd"); V=1 prints the
# full commands instead.  A recipe line starts with $(call say,TAG,WHAT)
# directly followed by its command; other recipe lines start with $(Q).
# Inside a shell command, $(call step,TAG,WHAT) prints the step line only
# when the step happens (a generated file that did not change prints
# none).  Warnings and errors are never hidden.
V ?= 0
ifeq ($(V),1)
Q :=
step =
say =
else
Q := @
step = printf '%-5s %s\n' '$(1)' '$(2)';
say = @$(call step,$(1),$(2))
endif
MAKEFLAGS += --no-print-directory
HOST_PORT := linux-x86_64
PORT ?= $(HOST_PORT)
include ports/$(PORT).mk

B := build/$(PORT)
HB := build/$(HOST_PORT)
PREFIX ?= /usr/local
BUILD_PORTS := linux-x86_64 linux-s390x-qemu linux-i386-qemu

WARN := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
# Node side: C99 + POSIX so that it builds on AIX as well.
NODE_CFLAGS = -std=c99 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 \
	$(MSGPACK_CFLAGS) $(WARN) $(PORT_CFLAGS) -Iwire \
	-DPVT_PORT_NAME='"$(PORT_NAME)"' -MMD -MP
NODE_LDFLAGS = $(PORT_LDFLAGS)

# Console side: C11, host compiler, console-only libraries.
HOSTCC ?= cc
CON_PKGS := readline libssh2 msgpack
# libclang (the instrumenter): Debian's libclang-dev, LLVM 14 layout.
LLVM_DIR ?= /usr/lib/llvm-14
CON_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -Iwire -Iconsole $(CON_INCLUDES) \
	-Iwrappers -Itypedesc -Ibreakpoints -I$(LLVM_DIR)/include \
	$(shell pkg-config --cflags $(CON_PKGS) 2>/dev/null) \
	-DPVT_PORT_NAME='"$(HOST_PORT)"' -MMD -MP
CON_LIBS = $(shell pkg-config --libs $(CON_PKGS) 2>/dev/null || \
	echo -lreadline -lssh2 -lmsgpackc) \
	-L$(LLVM_DIR)/lib -lclang -Wl,-rpath,$(LLVM_DIR)/lib

.PHONY: all node nodes deps check demo fuzz bench install clean help
all: node console

help:
	@sed -n '1,/^$$/p' Makefile | sed -e '/^$$/d' -e 's/^# \{0,1\}//'

# ---- packages ------------------------------------------------------------
# Every goal but these checks the Debian packages and the cross sysroots
# first (one dpkg-query, a few milliseconds) and stops at once, naming what
# is missing (ports/deps.sh prints that on stderr), rather than with a
# compiler error.  deps, check, demo, bench and validate install what is
# missing instead.
NODEPS_GOALS := deps check demo bench validate help clean
ifneq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
PVT_DEPS_OUT := $(shell ports/deps.sh --check)
ifneq ($(.SHELLSTATUS),0)
$(error run 'make deps' as root to install them, then make again)
endif
endif

include wire/module.mk
-include typedesc/module.mk
-include wrappers/module.mk
-include breakpoints/module.mk
include daemon/module.mk
include console/module.mk
include tests/module.mk

node: $(NODE_TARGETS)

nodes:
	$(Q)for p in $(BUILD_PORTS); do \
		$(MAKE) node PORT=$$p || exit 1; \
	done

# Step lines name the port of a node-side object of another port, and the
# console's build of a source outside console/ (typedesc/td_common.c is
# compiled for both sides), so that no two steps print the same line.
PTAG := $(if $(filter-out $(HOST_PORT),$(PORT)),[$(PORT)] )
CTAG = $(if $(filter console/%,$<),,[console] )

$(B)/obj/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(call say,CC,$(PTAG)$<)$(CC) $(NODE_CFLAGS) -c -o $@ $<

build/console/obj/%.o: %.c
	$(Q)mkdir -p $(dir $@)
	$(call say,CC,$(CTAG)$<)$(HOSTCC) $(CON_CFLAGS) -c -o $@ $<

deps:
	$(Q)ports/deps.sh

install: all
	$(call say,INST,$(DESTDIR)$(PREFIX))install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/sbin \
		$(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man3 \
		$(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(PREFIX)/share/man/man8 \
		$(DESTDIR)$(PREFIX)/share/paravt/ports
	$(Q)install -m 755 $(CONSOLE_BIN) $(DESTDIR)$(PREFIX)/bin/paravt
	$(Q)install -m 755 $(DAEMON_BIN) $(DESTDIR)$(PREFIX)/sbin/paravtd
	$(Q)install -m 644 man/paravt.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	$(Q)install -m 644 man/libparavt.3 $(DESTDIR)$(PREFIX)/share/man/man3/
	$(Q)install -m 644 man/paravt-protocol.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	$(Q)install -m 644 man/paravt-trace.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	$(Q)install -m 644 man/paravtd.8 $(DESTDIR)$(PREFIX)/share/man/man8/
	$(Q)install -m 644 ports/*.mk $(DESTDIR)$(PREFIX)/share/paravt/ports/

clean:
	$(call say,RM,build/linux-* build/console build/tests)rm -rf build/linux-* build/console build/tests

-include $(shell find build -path build/sysroot -prune -o -name '*.d' -type f -print 2>/dev/null)
