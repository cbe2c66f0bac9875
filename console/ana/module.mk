# console/ana/module.mk — libpvtana.a, the analysis of recorded runs
# (console/ana/*.c, C11, host only): trace model, clock models, matching,
# compensation, order, figures, hang diagnosis and the exports.  Linked
# into paravt, the unit tests and the benchmarks.
ANA_SRCS := $(wildcard console/ana/*.c)
ANA_OBJS := $(ANA_SRCS:%.c=build/console/obj/%.o)
ANA_LIB := build/console/lib/libpvtana.a
# libotf2 (Debian's libotf2-trace-dev): the OTF2 export.
ANA_LIBS := -lotf2 -lm

$(ANA_LIB): $(ANA_OBJS)
	$(Q)mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $(ANA_OBJS)
