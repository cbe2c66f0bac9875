/*
 * wire_abi.h — a portable description of a machine's C ABI.
 *
 * Every node tells the console its byte order and the size and alignment of
 * the C scalar types, measured by its own compiler.  The console never
 * assumes them: later, type descriptions and raw values are interpreted
 * with the numbers a node reported here.
 */
#ifndef PARAVT_WIRE_ABI_H
#define PARAVT_WIRE_ABI_H

#include <stdint.h>

/* The scalar types described, in wire order.  Never reorder. */
enum wire_ctype {
	WIRE_CT_CHAR,
	WIRE_CT_SHORT,
	WIRE_CT_INT,
	WIRE_CT_LONG,
	WIRE_CT_LLONG,
	WIRE_CT_PTR,
	WIRE_CT_FLOAT,
	WIRE_CT_DOUBLE,
	WIRE_CT_LDOUBLE,
	WIRE_CT_COUNT
};

typedef struct wire_abi {
	char byte_order[8];             /* "little" or "big" */
	uint8_t size[WIRE_CT_COUNT];    /* sizeof, bytes */
	uint8_t align[WIRE_CT_COUNT];   /* alignment inside a struct, bytes */
} wire_abi;

/* Fills a with the ABI of the compiler that built this code. */
void wire_abi_local(wire_abi *a);

/* Name of a type in the table ("long double"); NULL if out of range. */
const char *wire_ctype_name(int t);

#endif
