/*
 * td_probe_types.c — the type table of the test program, written by hand
 * in exactly the form the instrumenter will generate: every size, offset,
 * alignment and signedness is an expression that the TARGET compiler
 * evaluates (TD_SIGNED is the ((T)-1 < 0) of the design), so the same source
 * gives the right table on x86_64, s390x and i386.  Bit-fields get tiny
 * accessor functions (they have no offset).
 */
#include <stddef.h>

#include "td_probe.h"

/* A scalar entry of kind k for C type T. */
#define TD_SCALAR(id, k, T, nm)                                                \
	{                                                                      \
		id, k, 0, TD_SIGNED(T), nm, sizeof(T), TD_ALIGNOF(T), 0, 0, 0, \
		    NULL, 0, NULL                                              \
	}

/* Names for types that cannot be written as "T t" directly. */
typedef int (*td_fnp_t)(int);
typedef pos_t td_row_t[3];
typedef pos_t td_grid_t[2][3];
typedef char td_name16_t[16];
typedef int td_int10_t[10];
typedef int td_int300_t[300];

/* Accessors of struct flags' bit-fields. */
static uint64_t td_get_flags_a(const void *o)
{
	return (uint64_t)((const struct flags *)o)->a;
}

/* Signed field: sign-extended to 64 bits first. */
static uint64_t td_get_flags_b(const void *o)
{
	return (uint64_t)(int64_t)((const struct flags *)o)->b;
}

/* _Bool field. */
static uint64_t td_get_flags_c(const void *o)
{
	return (uint64_t)((const struct flags *)o)->c;
}

/* 9-bit unsigned field. */
static uint64_t td_get_flags_d(const void *o)
{
	return (uint64_t)((const struct flags *)o)->d;
}

static const td_const td_color_consts[] = {
    {"RED", RED},
    {"GREEN", GREEN},
    {"BLUE", BLUE},
};

static const td_member td_cell_members[] = {
    {"v", TID_INT, offsetof(struct cell, v), 0, NULL},
    {"next", TID_CELLP, offsetof(struct cell, next), 0, NULL},
};

static const td_member td_num_members[] = {
    {"i", TID_INT, offsetof(union num, i), 0, NULL},
    {"f", TID_FLOAT, offsetof(union num, f), 0, NULL},
};

static const td_member td_flags_members[] = {
    {"a", TID_UINT, 0, 3, td_get_flags_a},
    {"b", TID_INT, 0, 4, td_get_flags_b},
    {"c", TID_BOOL, 0, 1, td_get_flags_c},
    {"d", TID_UINT, 0, 9, td_get_flags_d},
};

static const td_member td_pt_members[] = {
    {"x", TID_SHORT, offsetof(struct pt, x), 0, NULL},
    {"y", TID_LONG, offsetof(struct pt, y), 0, NULL},
};

/* Member of struct all named m, of type id t. */
#define TD_ALL(m, t)                                                           \
	{                                                                      \
#m, t, offsetof(struct all, m), 0, NULL                        \
	}

static const td_member td_all_members[] = {
    TD_ALL(c, TID_CHAR),      TD_ALL(sc, TID_SCHAR),   TD_ALL(uc, TID_UCHAR),
    TD_ALL(s, TID_SHORT),     TD_ALL(us, TID_USHORT),  TD_ALL(i, TID_INT),
    TD_ALL(u, TID_UINT),      TD_ALL(l, TID_LONG),     TD_ALL(ul, TID_ULONG),
    TD_ALL(ll, TID_LLONG),    TD_ALL(ull, TID_ULLONG), TD_ALL(f, TID_FLOAT),
    TD_ALL(d, TID_DOUBLE),    TD_ALL(ld, TID_LDOUBLE), TD_ALL(b, TID_BOOL),
    TD_ALL(col, TID_COLOR),   TD_ALL(ci, TID_CINT),    TD_ALL(vu, TID_VUINT),
    TD_ALL(name, TID_NAME16), TD_ALL(str, TID_CCHARP), TD_ALL(fn, TID_FNP),
};

/* Number of elements of a static array. */
#define TD_N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static const td_type td_probe_types[TID_COUNT] = {
    {TID_VOID, TD_VOID, 0, 0, "void", 0, 1, 0, 0, 0, NULL, 0, NULL},
    TD_SCALAR(TID_BOOL, TD_BOOL, _Bool, "_Bool"),
    TD_SCALAR(TID_CHAR, TD_CHAR, char, "char"),
    TD_SCALAR(TID_SCHAR, TD_SCHAR, signed char, "signed char"),
    TD_SCALAR(TID_UCHAR, TD_UCHAR, unsigned char, "unsigned char"),
    TD_SCALAR(TID_SHORT, TD_SHORT, short, "short"),
    TD_SCALAR(TID_USHORT, TD_USHORT, unsigned short, "unsigned short"),
    TD_SCALAR(TID_INT, TD_INT, int, "int"),
    TD_SCALAR(TID_UINT, TD_UINT, unsigned int, "unsigned int"),
    TD_SCALAR(TID_LONG, TD_LONG, long, "long"),
    TD_SCALAR(TID_ULONG, TD_ULONG, unsigned long, "unsigned long"),
    TD_SCALAR(TID_LLONG, TD_LLONG, long long, "long long"),
    TD_SCALAR(TID_ULLONG, TD_ULLONG, unsigned long long, "unsigned long long"),
    TD_SCALAR(TID_FLOAT, TD_FLOAT, float, "float"),
    TD_SCALAR(TID_DOUBLE, TD_DOUBLE, double, "double"),
    TD_SCALAR(TID_LDOUBLE, TD_LDOUBLE, long double, "long double"),
    {TID_COLOR, TD_ENUM, 0, TD_SIGNED(enum color), "enum color",
     sizeof(enum color), TD_ALIGNOF(enum color), 0, 0, 0, NULL,
     TD_N(td_color_consts), td_color_consts},
    {TID_CELL, TD_STRUCT, 0, 0, "struct cell", sizeof(struct cell),
     TD_ALIGNOF(struct cell), 0, 0, TD_N(td_cell_members), td_cell_members, 0,
     NULL},
    {TID_CELLP, TD_POINTER, 0, 0, "struct cell *", sizeof(struct cell *),
     TD_ALIGNOF(struct cell *), TID_CELL, 0, 0, NULL, 0, NULL},
    {TID_NUM, TD_UNION, 0, 0, "union num", sizeof(union num),
     TD_ALIGNOF(union num), 0, 0, TD_N(td_num_members), td_num_members, 0,
     NULL},
    {TID_FLAGS, TD_STRUCT, 0, 0, "struct flags", sizeof(struct flags),
     TD_ALIGNOF(struct flags), 0, 0, TD_N(td_flags_members), td_flags_members,
     0, NULL},
    {TID_PT, TD_STRUCT, 0, 0, "struct pt", sizeof(struct pt),
     TD_ALIGNOF(struct pt), 0, 0, TD_N(td_pt_members), td_pt_members, 0, NULL},
    {TID_POINT_T, TD_TYPEDEF, 0, 0, "point_t", sizeof(point_t),
     TD_ALIGNOF(point_t), TID_PT, 0, 0, NULL, 0, NULL},
    {TID_POS_T, TD_TYPEDEF, 0, 0, "pos_t", sizeof(pos_t), TD_ALIGNOF(pos_t),
     TID_POINT_T, 0, 0, NULL, 0, NULL},
    {TID_ROW, TD_ARRAY, 0, 0, "pos_t [3]", sizeof(td_row_t),
     TD_ALIGNOF(td_row_t), TID_POS_T, 3, 0, NULL, 0, NULL},
    {TID_GRID, TD_ARRAY, 0, 0, "pos_t [2][3]", sizeof(td_grid_t),
     TD_ALIGNOF(td_grid_t), TID_ROW, 2, 0, NULL, 0, NULL},
    {TID_CCHAR, TD_CHAR, TD_Q_CONST, TD_SIGNED(char), "const char",
     sizeof(const char), TD_ALIGNOF(const char), 0, 0, 0, NULL, 0, NULL},
    {TID_CCHARP, TD_POINTER, 0, 0, "const char *", sizeof(const char *),
     TD_ALIGNOF(const char *), TID_CCHAR, 0, 0, NULL, 0, NULL},
    {TID_NAME16, TD_ARRAY, 0, 0, "char [16]", sizeof(td_name16_t),
     TD_ALIGNOF(td_name16_t), TID_CHAR, 16, 0, NULL, 0, NULL},
    {TID_CINT, TD_INT, TD_Q_CONST, 1, "const int", sizeof(const int),
     TD_ALIGNOF(const int), 0, 0, 0, NULL, 0, NULL},
    {TID_VUINT, TD_UINT, TD_Q_VOLATILE, 0, "volatile unsigned int",
     sizeof(volatile unsigned int), TD_ALIGNOF(volatile unsigned int), 0, 0, 0,
     NULL, 0, NULL},
    {TID_FNP, TD_FUNCPTR, 0, 0, "int (*)(int)", sizeof(td_fnp_t),
     TD_ALIGNOF(td_fnp_t), 0, 0, 0, NULL, 0, NULL},
    {TID_INTP, TD_POINTER, 0, 0, "int *", sizeof(int *), TD_ALIGNOF(int *),
     TID_INT, 0, 0, NULL, 0, NULL},
    {TID_ALL, TD_STRUCT, 0, 0, "struct all", sizeof(struct all),
     TD_ALIGNOF(struct all), 0, 0, TD_N(td_all_members), td_all_members, 0,
     NULL},
    {TID_INT10, TD_ARRAY, 0, 0, "int [10]", sizeof(td_int10_t),
     TD_ALIGNOF(td_int10_t), TID_INT, 10, 0, NULL, 0, NULL},
    {TID_INT300, TD_ARRAY, 0, 0, "int [300]", sizeof(td_int300_t),
     TD_ALIGNOF(td_int300_t), TID_INT, 300, 0, NULL, 0, NULL},
    {TID_CHARP, TD_POINTER, 0, 0, "char *", sizeof(char *), TD_ALIGNOF(char *),
     TID_CHAR, 0, 0, NULL, 0, NULL},
    {TID_VLONG, TD_LONG, TD_Q_VOLATILE, 1, "volatile long",
     sizeof(volatile long), TD_ALIGNOF(volatile long), 0, 0, 0, NULL, 0, NULL},
    {TID_VOIDP, TD_POINTER, 0, 0, "void *", sizeof(void *), TD_ALIGNOF(void *),
     TID_VOID, 0, 0, NULL, 0, NULL},
};

const td_table td_probe_table = {"td_probe", TID_COUNT, td_probe_types};
