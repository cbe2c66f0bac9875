/*
 * td_probe.h — the typedesc test program: types that use every kind the
 * type descriptions cover, the variables of its one "breakpoint", and the
 * hand-written type table (td_probe_types.c) that stands for what the
 * instrumenter will generate.  Shared by the probe program (every port)
 * and the host unit tests.  C99.
 */
#ifndef PARAVT_TD_PROBE_H
#define PARAVT_TD_PROBE_H

#include "td.h"

/* An enum with a negative constant. */
enum color { RED, GREEN = 5, BLUE = -1 };

/* A self-referential struct: linked lists and a ring. */
struct cell {
	int v;             /* payload */
	struct cell *next; /* next cell or NULL */
};

/* A union: the same bits seen as int and as float. */
union num {
	int i;   /* integer view */
	float f; /* float view */
};

/* Bit-fields: unsigned, signed, _Bool. */
struct flags {
	unsigned int a : 3; /* 0..7 */
	signed int b : 4;   /* -8..7 */
	_Bool c : 1;        /* flag */
	unsigned int d : 9; /* 0..511 */
};

/* A small struct reached through a typedef chain. */
struct pt {
	short x; /* column */
	long y;  /* row; long: size differs by ABI, value does not */
};
typedef struct pt point_t;
typedef point_t pos_t;

/* One of every scalar, qualifiers, a string and a function pointer. */
struct all {
	char c;
	signed char sc;
	unsigned char uc;
	short s;
	unsigned short us;
	int i;
	unsigned int u;
	long l;
	unsigned long ul;
	long long ll;
	unsigned long long ull;
	float f;
	double d;
	long double ld;
	_Bool b;
	enum color col;
	const int ci;
	volatile unsigned int vu;
	char name[16];
	const char *str;
	int (*fn)(int);
};

/* A variable of the breakpoint: name, type id, address. */
typedef struct td_var {
	const char *name; /* as in the source */
	uint32_t type;    /* type id in td_probe_table */
	const void *addr; /* its address in this process */
} td_var;

/* Type ids of the hand-written table (index in the table). */
enum td_probe_ids {
	TID_VOID,
	TID_BOOL,
	TID_CHAR,
	TID_SCHAR,
	TID_UCHAR,
	TID_SHORT,
	TID_USHORT,
	TID_INT,
	TID_UINT,
	TID_LONG,
	TID_ULONG,
	TID_LLONG,
	TID_ULLONG,
	TID_FLOAT,
	TID_DOUBLE,
	TID_LDOUBLE,
	TID_COLOR,
	TID_CELL,
	TID_CELLP,
	TID_NUM,
	TID_FLAGS,
	TID_PT,
	TID_POINT_T,
	TID_POS_T,
	TID_ROW,
	TID_GRID,
	TID_CCHAR,
	TID_CCHARP,
	TID_NAME16,
	TID_CINT,
	TID_VUINT,
	TID_FNP,
	TID_INTP,
	TID_ALL,
	TID_INT10,
	TID_INT300,
	TID_CHARP,
	TID_VLONG,
	TID_VOIDP,
	TID_COUNT
};

/* The table (td_probe_types.c). */
extern const td_table td_probe_table;

/* Builds the variables (list, ring, dangling pointer...) once and returns
 * the scope: *n variables, static storage (td_fixture.c). */
const td_var *td_fixture_scope(uint32_t *n);

#endif
