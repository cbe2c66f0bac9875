/*
 * test_bp_model.c — unit tests of the console's breakpoint model
 * (breakpoints/bp_model.h), the parts record breakpoints added: the
 * record list of `break LOC record VARS` (commas, blanks, expressions,
 * empty items refused, every local), its text for `info breakpoints`,
 * a list replaced, and ordinary breakpoints that record nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bp_model.h"

/* A model with one breakpoint at prog.c:41 (returned in *b). */
static void ut_one(bp_model *m, bp **b)
{
	char err[128];

	bp_model_init(m);
	assert_int_equal(bp_add(m, "prog.c:41", 0, b, err, sizeof err), 0);
	assert_int_equal((*b)->record, 0);
}

/* "i, sum" and "i,sum" give the same two items; blanks are trimmed. */
static void test_record_list(void **state)
{
	char err[128], text[256];
	bp_model m;
	bp *b;

	(void)state;
	ut_one(&m, &b);
	assert_int_equal(bp_set_record(b, " i,  sum ", err, sizeof err), 0);
	assert_int_equal(b->record, 1);
	assert_int_equal(b->nrec, 2);
	assert_string_equal(b->rec[0], "i");
	assert_string_equal(b->rec[1], "sum");
	bp_record_text(b, text, sizeof text);
	assert_string_equal(text, "i, sum");
	assert_int_equal(bp_set_record(b, "p->next->v,a[2]@3, *q", err,
				       sizeof err), 0);
	assert_int_equal(b->nrec, 3);
	assert_string_equal(b->rec[0], "p->next->v");
	assert_string_equal(b->rec[1], "a[2]@3");
	assert_string_equal(b->rec[2], "*q");
	bp_model_destroy(&m);
}

/* No list: every local. */
static void test_record_every_local(void **state)
{
	char err[128], text[256];
	bp_model m;
	bp *b;

	(void)state;
	ut_one(&m, &b);
	assert_int_equal(bp_set_record(b, "", err, sizeof err), 0);
	assert_int_equal(b->record, 1);
	assert_int_equal(b->nrec, 0);
	bp_record_text(b, text, sizeof text);
	assert_string_equal(text, "every local");
	bp_model_destroy(&m);
}

/* An empty item (",,", a leading or trailing comma, only blanks between
 * commas) is refused with a sentence, and the breakpoint is left an
 * ordinary one. */
static void test_record_empty_items(void **state)
{
	static const char *const bad[] = {"i,,sum", ",i", "i,", "i, ,sum",
					  " , "};
	char err[128], text[256];
	bp_model m;
	size_t k;
	bp *b;

	(void)state;
	ut_one(&m, &b);
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		err[0] = '\0';
		assert_int_equal(bp_set_record(b, bad[k], err, sizeof err),
				 BP_EARG);
		assert_non_null(strstr(err, "empty name"));
		assert_int_equal(b->record, 0);
		assert_int_equal(b->nrec, 0);
		bp_record_text(b, text, sizeof text);
		assert_string_equal(text, "");
	}
	bp_model_destroy(&m);
}

/* A breakpoint a build creates from a #pragma records nothing; deleting
 * a record breakpoint frees its list (checked by sanitizers/valgrind). */
static void test_record_pragma_and_delete(void **state)
{
	char err[128];
	bp_model m;
	bp *b;

	(void)state;
	ut_one(&m, &b);
	assert_int_equal(bp_set_record(b, "x", err, sizeof err), 0);
	assert_int_equal(bp_land(&m, 7, "prog.c", 12, "main", 0, 0, 1, NULL,
				 0), 0);
	assert_int_equal(bp_find(&m, 7)->record, 0);
	assert_int_equal(bp_delete(&m, b->id, err, sizeof err), 0);
	assert_null(bp_find(&m, 1));
	assert_int_equal(bp_count(&m), 1);
	bp_model_destroy(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_list),
		cmocka_unit_test(test_record_every_local),
		cmocka_unit_test(test_record_empty_items),
		cmocka_unit_test(test_record_pragma_and_delete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
