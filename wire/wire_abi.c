/*
 * wire_abi.c — measures the local C ABI with the compiler that builds it.
 *
 * Alignment is taken as the offset of a member placed after a char, which
 * is what the type gets inside a struct (C99 has no _Alignof; on i386 this
 * is 4 for double and long long, as the SysV i386 ABI says).
 */
#include <stddef.h>
#include <string.h>

#include "wire_abi.h"

#define WIRE_ALIGN_OF(T) offsetof(struct { char c; T t; }, t)

static const char *const wire_ctype_names[WIRE_CT_COUNT] = {
	"char", "short", "int", "long", "long long",
	"pointer", "float", "double", "long double",
};

const char *wire_ctype_name(int t)
{
	return t >= 0 && t < WIRE_CT_COUNT ? wire_ctype_names[t] : NULL;
}

void wire_abi_local(wire_abi *a)
{
	const unsigned int one = 1;

	memset(a, 0, sizeof *a);
	strcpy(a->byte_order, *(const unsigned char *)&one ? "little" : "big");
	a->size[WIRE_CT_CHAR] = sizeof(char);
	a->size[WIRE_CT_SHORT] = sizeof(short);
	a->size[WIRE_CT_INT] = sizeof(int);
	a->size[WIRE_CT_LONG] = sizeof(long);
	a->size[WIRE_CT_LLONG] = sizeof(long long);
	a->size[WIRE_CT_PTR] = sizeof(void *);
	a->size[WIRE_CT_FLOAT] = sizeof(float);
	a->size[WIRE_CT_DOUBLE] = sizeof(double);
	a->size[WIRE_CT_LDOUBLE] = sizeof(long double);
	a->align[WIRE_CT_CHAR] = WIRE_ALIGN_OF(char);
	a->align[WIRE_CT_SHORT] = WIRE_ALIGN_OF(short);
	a->align[WIRE_CT_INT] = WIRE_ALIGN_OF(int);
	a->align[WIRE_CT_LONG] = WIRE_ALIGN_OF(long);
	a->align[WIRE_CT_LLONG] = WIRE_ALIGN_OF(long long);
	a->align[WIRE_CT_PTR] = WIRE_ALIGN_OF(void *);
	a->align[WIRE_CT_FLOAT] = WIRE_ALIGN_OF(float);
	a->align[WIRE_CT_DOUBLE] = WIRE_ALIGN_OF(double);
	a->align[WIRE_CT_LDOUBLE] = WIRE_ALIGN_OF(long double);
}
