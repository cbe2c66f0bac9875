/* types.h — user header of the instrumenter's every-type test program. */
#ifndef TYPES_H
#define TYPES_H

enum color { RED, GREEN = 5, BLUE = -1 };

struct cell {
	int v;
	struct cell *next;
};

union num {
	int i;
	float f;
};

struct flags {
	unsigned a : 3;
	int b : 4;
	_Bool c : 1;
	unsigned d : 9;
	int : 0;
};

typedef struct pt {
	short x;
	long y;
} point_t;
typedef point_t pos_t;

typedef struct {
	int key;
	struct {
		char tag;
		int n : 5;
	} in;
	union {
		long l;
		double d;
	} u;
} pair_t;

typedef int (*binop_t)(int, int);

#endif
