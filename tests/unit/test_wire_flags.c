/*
 * test_wire_flags.c — unit tests of the BUILD flag rules and the mpirun
 * option list (wire_flags.h).
 *
 * Flags a Makefile has are accepted for the compile or the link; every
 * refused family gets its reason; a flag of the wrong kind is told where
 * it belongs; -Wl, lists are checked item by item.  mpirun options: the
 * allow-list with its values, the refusals with their reasons, the MCA
 * parameters paravt sets.  One registered list at the bottom.
 */
#include <string.h>

#include "unit_util.h"
#include "wire.h"
#include "wire_flags.h"

/* Checks flag of kind; returns the sentence (static) or NULL if ok. */
static const char *why(const char *flag, int kind)
{
	static char err[512];

	err[0] = '\0';
	return wire_flag_check(flag, kind, err, sizeof err) == 0 ? NULL : err;
}

#define OK_C(f) assert_null(why(f, WIRE_FLAG_COMPILE))
#define OK_L(f) assert_null(why(f, WIRE_FLAG_LINK))
#define NO(f, k, text) assert_non_null(strstr(why(f, k) ? why(f, k) : "", text))

static void test_compile_ok(void **state)
{
	const char *const ok[] = {"-DNDEBUG", "-DN=3", "-DMSG=\"a b\"", "-UX",
				  "-Iinclude", "-I/usr/include/libxml2",
				  "-isystem/opt/x/include", "-iquoteinc",
				  "-includeconfig.h", "-std=c99", "-std=gnu11",
				  "-O", "-O2", "-Os", "-Ofast", "-g", "-g3",
				  "-ggdb", "-Wall", "-Wextra", "-Wno-unused",
				  "-w", "-pedantic", "-ansi", "-pthread",
				  "-march=native", "-m64", "-fopenmp",
				  "-fno-strict-aliasing", "-fsanitize=address",
				  "-MMD", "-MP", "-save-temps=obj", NULL};
	int i;

	for (i = 0; ok[i] != NULL; i++)
		if (why(ok[i], WIRE_FLAG_COMPILE) != NULL)
			fail_msg("%s refused: %s", ok[i],
				 why(ok[i], WIRE_FLAG_COMPILE));
}

static void test_link_ok(void **state)
{
	OK_L("-lm");
	OK_L("-lgpvm3");
	OK_L("-l:libfoo.a");
	OK_L("-L/usr/lib/x86_64-linux-gnu");
	OK_L("-Llib");
	OK_L("-pthread");
	OK_L("-static");
	OK_L("-fopenmp");
	OK_L("-O2");
	OK_L("-Wl,--as-needed");
	OK_L("-Wl,-rpath,/opt/lib");
	OK_L("-Wl,-z,now");
	OK_L("-Wl,--start-group,-Bstatic");
	OK_L("-Wl,--wrap=malloc");
}

static void test_refused(void **state)
{
	NO("-o", WIRE_FLAG_COMPILE, "names the output file");
	NO("-o/tmp/x", WIRE_FLAG_LINK, "names the output file");
	NO("-c", WIRE_FLAG_COMPILE, "compiles and links by itself");
	NO("-E", WIRE_FLAG_COMPILE, "compiles and links by itself");
	NO("-shared", WIRE_FLAG_LINK, "not libraries");
	NO("-xc++", WIRE_FLAG_COMPILE, "language is C");
	NO("-MFdeps", WIRE_FLAG_COMPILE, "names a file");
	NO("-B/tmp", WIRE_FLAG_COMPILE, "run other programs");
	NO("-specs=x", WIRE_FLAG_LINK, "run other programs");
	NO("--sysroot=/", WIRE_FLAG_COMPILE, "system");
	NO("-fplugin=/tmp/p.so", WIRE_FLAG_COMPILE, "loads code");
	NO("-fplugin=p", WIRE_FLAG_COMPILE, "loads code");
	NO("-Wa,-adhln", WIRE_FLAG_COMPILE, "assembler");
	NO("-Wp,-MD,x", WIRE_FLAG_COMPILE, "preprocessor");
	NO("-Xlinker", WIRE_FLAG_LINK, "-Wl,");
	NO("-fprofile-generate=/tmp", WIRE_FLAG_COMPILE, "no '/'");
	NO("-I../outside", WIRE_FLAG_COMPILE, "without '..'");
	NO("-I", WIRE_FLAG_COMPILE, "attached");
	NO("-Dx y", WIRE_FLAG_COMPILE, "macro name");
	NO("-D1X", WIRE_FLAG_COMPILE, "macro name");
	NO("-UX=1", WIRE_FLAG_COMPILE, "macro name");
	NO("-l", WIRE_FLAG_LINK, "library name");
	NO("-lm,x", WIRE_FLAG_LINK, "library name");
	NO("-L../x", WIRE_FLAG_LINK, "directory");
	NO("-Wl,-Map,/tmp/map", WIRE_FLAG_LINK, "'-Map'");
	NO("-Wl,-o,/tmp/x", WIRE_FLAG_LINK, "'-o'");
	NO("-Wl,--output=/tmp/x", WIRE_FLAG_LINK, "'--output=/tmp/x'");
	NO("-Wl,-T,script.ld", WIRE_FLAG_LINK, "'-T'");
	NO("-Wl,-rpath", WIRE_FLAG_LINK, "lacks its value");
	NO("-Wl,", WIRE_FLAG_LINK, "needs linker options");
	NO("prog.c", WIRE_FLAG_COMPILE, "not an option");
	NO("-", WIRE_FLAG_COMPILE, "not an option");
	NO("--frobnicate", WIRE_FLAG_COMPILE, "not on the list");
	NO("-lm", WIRE_FLAG_COMPILE, "linker flag");
	NO("-Wl,--as-needed", WIRE_FLAG_COMPILE, "linker flag");
	NO("-DX", WIRE_FLAG_LINK, "compiler flag");
	NO("-Wall", WIRE_FLAG_LINK, "compiler flag");
	/* the sentence names the flag */
	NO("-o", WIRE_FLAG_COMPILE, "flag '-o' refused: ");
}

static void test_is_link(void **state)
{
	assert_true(wire_flag_is_link("-lm"));
	assert_true(wire_flag_is_link("-L/x"));
	assert_true(wire_flag_is_link("-Wl,-z,now"));
	assert_false(wire_flag_is_link("-O2"));
	assert_false(wire_flag_is_link("-DX"));
}

/* wire_mpirun_opt on a NULL-terminated word list; the count or -1, with
 * the sentence in err. */
static int mo(char **w, char *err, size_t n)
{
	int k = 0;

	while (w[k] != NULL)
		k++;
	err[0] = '\0';
	return wire_mpirun_opt(w, k, err, n);
}

static void test_mpirun(void **state)
{
	char err[512];
	char *np[] = {"-np", "4", NULL}, *x[] = {"-x", "FOO=bar baz", NULL};
	char *xbad[] = {"-x", "1FOO", NULL}, *mca[] = {"--mca", "btl", "tcp,self",
						      NULL};
	char *mpl[] = {"--mca", "plm_rsh_agent", "/bin/sh", NULL};
	char *mbad[] = {"-mca", "a-b", "1", NULL}, *map[] = {"--map-by", "node",
							   NULL};
	char *sw[] = {"--report-bindings", "prog", NULL};
	char *host[] = {"--host", "a,b", NULL}, *hf[] = {"-hostfile", "h", NULL};
	char *of[] = {"--output-filename", "/tmp/o", NULL};
	char *unk[] = {"--frobnicate", NULL}, *short_[] = {"--mca", "btl", NULL};
	char *to[] = {"--timeout", "5", NULL}, *npn[] = {"-npernode", "2", NULL};

	assert_int_equal(mo(np, err, sizeof err), 2);
	assert_true(wire_mpirun_is_np("-np") && wire_mpirun_is_np("-n") &&
		    !wire_mpirun_is_np("-N"));
	assert_int_equal(mo(x, err, sizeof err), 2);
	assert_int_equal(mo(mca, err, sizeof err), 3);
	assert_int_equal(mo(map, err, sizeof err), 2);
	assert_int_equal(mo(npn, err, sizeof err), 2);
	assert_int_equal(mo(sw, err, sizeof err), 1);
	assert_int_equal(mo(xbad, err, sizeof err), WIRE_EARG);
	assert_non_null(strstr(err, "VAR or VAR=VALUE"));
	assert_int_equal(mo(mpl, err, sizeof err), WIRE_EARG);
	assert_non_null(strstr(err, "paravt sets it"));
	assert_int_equal(mo(mbad, err, sizeof err), WIRE_EARG);
	assert_non_null(strstr(err, "not an MCA parameter name"));
	assert_int_equal(mo(host, err, sizeof err), WIRE_EARG);
	assert_non_null(strstr(err, "paravt makes the hostfile"));
	assert_int_equal(mo(hf, err, sizeof err), WIRE_EARG);
	assert_int_equal(mo(of, err, sizeof err), WIRE_EARG);
	assert_non_null(strstr(err, "output as its own"));
	assert_int_equal(mo(unk, err, sizeof err), WIRE_EARG);
	assert_non_null(strstr(err, "not on paravt's list"));
	assert_int_equal(mo(short_, err, sizeof err), WIRE_EARG);
	assert_non_null(strstr(err, "needs 2 values"));
	assert_int_equal(mo(to, err, sizeof err), WIRE_EARG);
	assert_int_equal(wire_mpirun_opt(np, 2, NULL, 0), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_ok),
		cmocka_unit_test(test_link_ok),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_is_link),
		cmocka_unit_test(test_mpirun),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
