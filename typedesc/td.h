/*
 * td.h — paravt type descriptions: the model shared by node and console.
 *
 * This follows ParaVT's TYPE_DESC (type id, pointer level, sign, name,
 * handler, members, base type) and its UsedTypeTable: only the types that
 * recorded variables use are described.  The console knows names and shapes
 * from the sources; only the target compiler knows sizes and offsets, so the
 * instrumenter emits a td_table as C source whose numbers are expressions
 * the target evaluates (sizeof, offsetof, ((T)-1 < 0)).  The node sends the
 * evaluated table once per build (td_table_pack, td_node.h) and serialises
 * values with one generic walker; the console decodes table and values
 * (td_con.h).
 *
 * Layout of the model:
 *   td_type    one entry; its id is its index in the table.  Pointer levels
 *              and array dimensions are chains of entries through `base`
 *              (int ** = pointer -> pointer -> int; int a[2][3] = array(2)
 *              of array(3) of int).  A qualified type (const, volatile) is
 *              its own entry with `quals` set; it may share the members of
 *              the unqualified entry.
 *   td_member  struct/union member: offset, or for a bit-field its width
 *              and a generated accessor (bit-fields have no offset).
 *   td_const   an enum constant.
 *
 * Canonical value form (what td_pack_value writes, see DESIGN "Wire
 * protocol"): integers and enums as msgpack ints, float/double as float64,
 * _Bool as bool, long double as ext TD_EXT_LDOUBLE, pointers and function
 * pointers as ext TD_EXT_PTR, char arrays as str, char * as
 * [ptr-ext, str | ext TD_EXT_STRCUT | nil], structs and unions as arrays in
 * member order, arrays as arrays (a cut array ends with ext TD_EXT_MORE),
 * memory that cannot be read as ext TD_EXT_UNREADABLE.
 *
 * Every number in this file is part of the protocol: never renumber.
 * C99: included by node and console code alike.
 */
#ifndef PARAVT_TD_H
#define PARAVT_TD_H

#include <stddef.h>
#include <stdint.h>

/* Table format version, sent with every table; bump when the form changes. */
#define TD_FORMAT_VERSION 1

/* Kinds of type entries.  Wire numbers: never reorder. */
enum td_kind {
	TD_VOID = 0,
	TD_BOOL = 1,
	TD_CHAR = 2, /* plain char; is_signed tells the target's choice */
	TD_SCHAR = 3,
	TD_UCHAR = 4,
	TD_SHORT = 5,
	TD_USHORT = 6,
	TD_INT = 7,
	TD_UINT = 8,
	TD_LONG = 9,
	TD_ULONG = 10,
	TD_LLONG = 11,
	TD_ULLONG = 12,
	TD_FLOAT = 13,
	TD_DOUBLE = 14,
	TD_LDOUBLE = 15,
	TD_ENUM = 16,
	TD_STRUCT = 17,
	TD_UNION = 18,
	TD_ARRAY = 19,   /* base = element type, count = elements */
	TD_POINTER = 20, /* base = target type (TD_VOID entry for void *) */
	TD_FUNCPTR = 21, /* pointer to function; shown as an address */
	TD_TYPEDEF = 22, /* base = the type it names */
	TD_KIND_COUNT
};

/* Qualifier bits of td_type.quals. */
#define TD_Q_CONST 1u
#define TD_Q_VOLATILE 2u

/* Extension type codes of the canonical value form. */
enum td_ext {
	TD_EXT_PTR = 1,        /* 8-byte big-endian address + 1 validity byte */
	TD_EXT_LDOUBLE = 2,    /* 8-byte big-endian float64 + native bytes */
	TD_EXT_UNREADABLE = 3, /* 8-byte big-endian address of the object */
	TD_EXT_STRCUT = 4,     /* string bytes, cut at the length cap */
	TD_EXT_MORE = 5 /* 8-byte big-endian count of elements left out */
};

/* Validity byte of a TD_EXT_PTR value. */
enum td_ptrstate {
	TD_PTR_NULL = 0,       /* the null pointer */
	TD_PTR_OK = 1,         /* the pointed-to object is readable */
	TD_PTR_UNREADABLE = 2, /* not mapped or not readable */
	TD_PTR_UNCHECKED = 3,  /* not checked (void *, function, checks off) */
	TD_PTR_MISALIGNED = 4  /* not aligned for its target type */
};

/* Steps of a value request (td_request): how to get from a variable to the
 * value to serialise.  Wire numbers: never reorder. */
enum td_step_op {
	TD_STEP_MEMBER = 1, /* arg = member index (struct or union) */
	TD_STEP_INDEX = 2,  /* arg = index (array element, or p[arg]) */
	TD_STEP_DEREF = 3,  /* *p (or a[0] of an array) */
	TD_STEP_SLICE = 4   /* last step only: arg elements from here on */
};

/* Error codes: 0 or negative.  td_strerror() gives a sentence. */
enum td_error {
	TD_OK = 0,
	TD_ENOMEM = -1, /* out of memory */
	TD_EMALFORMED =
	    -2,         /* input bytes are not a valid table/value/request */
	TD_EARG = -3,   /* bad argument from the caller */
	TD_ETYPE = -4,  /* type id unknown or of the wrong kind */
	TD_ERANGE = -5, /* index or slice outside the array */
	TD_EDEPTH = -6, /* nesting deeper than the limit */
	TD_EWRITE = -7, /* the packer's write callback failed */
	TD_EPATH = -8,  /* value path not valid (message in err buffer) */
	TD_EUNREADABLE = -9 /* memory on the way to the value is unreadable */
};

/* Hard limits that decoders enforce on untrusted input. */
#define TD_MAX_TYPES 65536u
#define TD_MAX_MEMBERS 4096u
#define TD_MAX_CONSTS 65536u
#define TD_MAX_STEPS 64u
#define TD_MAX_NAME 256u

/* For generated tables (evaluated by the target compiler, C99):
 * alignment of type T (T must be writable as "T t": use a typedef for
 * arrays and function pointers), and 1 if T is signed.  TD_SIGNED is the
 * ((T)-1 < 0) of the design, compared with 1 so that compilers do not warn
 * "always false" for unsigned T. */
/* clang-format off */
#define TD_ALIGNOF(T) ((uint32_t)offsetof(struct { char td_c_; T td_m_; }, td_m_))
/* clang-format on */
#define TD_SIGNED(T) ((T)-1 < (T)1)

/* A generated bit-field accessor: returns the field of the struct at obj,
 * converted to uint64_t (a signed field's value is sign-extended first). */
typedef uint64_t (*td_bitget)(const void *obj);

/* One struct or union member. */
typedef struct td_member {
	const char *name;   /* member name; "" for an unnamed member */
	uint32_t type;      /* type id of the member */
	uint64_t offset;    /* byte offset (offsetof); 0 for bit-fields */
	uint32_t bit_width; /* 0: not a bit-field; else width in bits */
	td_bitget get;      /* bit-fields, node side: accessor; else NULL */
} td_member;

/* One enum constant. */
typedef struct td_const {
	const char *name; /* enumerator */
	int64_t value;    /* its value */
} td_const;

/* One type entry. */
typedef struct td_type {
	uint32_t id;              /* equals the index in td_table.types */
	uint8_t kind;             /* enum td_kind */
	uint8_t quals;            /* TD_Q_* bits */
	uint8_t is_signed;        /* integers, char, enums: 1 if signed */
	const char *name;         /* C spelling: "int", "struct cell *" */
	uint64_t size;            /* sizeof on the target */
	uint32_t align;           /* alignment on the target */
	uint32_t base;            /* pointer/array/typedef target, or 0 */
	uint64_t count;           /* arrays: number of elements */
	uint32_t nmembers;        /* structs and unions */
	const td_member *members; /* nmembers entries */
	uint32_t nconsts;         /* enums */
	const td_const *consts;   /* nconsts entries */
} td_type;

/* A whole table: the UsedTypeTable of one build. */
typedef struct td_table {
	const char *build;    /* build identifier chosen by the instrumenter */
	uint32_t ntypes;      /* number of entries */
	const td_type *types; /* entries; types[i].id == i */
} td_table;

/* One step of a request. */
typedef struct td_step {
	uint8_t op;   /* enum td_step_op */
	uint64_t arg; /* member index, element index or slice length */
} td_step;

/* A value request: start at a variable (type and address on the target),
 * apply the steps, serialise what is there. */
typedef struct td_request {
	uint32_t type;               /* type id of the variable */
	uint64_t addr;               /* its address on the target */
	uint32_t nsteps;             /* steps used */
	td_step steps[TD_MAX_STEPS]; /* the path */
} td_request;

/* Limits of one serialisation. */
typedef struct td_limits {
	uint32_t max_elems;  /* array elements before a TD_EXT_MORE cut */
	uint32_t max_string; /* string bytes before a TD_EXT_STRCUT cut */
	uint32_t max_depth;  /* nesting of aggregates (guards bad tables) */
	uint32_t follow;     /* pointer levels followed automatically */
	uint8_t check_ptrs;  /* probe pointer targets for readability */
	uint8_t strings;     /* follow char * to show the string */
} td_limits;

/* Fills l with the defaults: 200 elements, 200 bytes, depth 32, follow 0,
 * pointer checks and strings on. */
void td_limits_default(td_limits *l);

/* Static English sentence for a TD_E* code. */
const char *td_strerror(int err);

/* Entry of id in t, or NULL if id is out of range. */
const td_type *td_type_get(const td_table *t, uint32_t id);

/* Follows typedefs (and nothing else) from id; NULL on a bad id or a
 * chain longer than the table (a loop). */
const td_type *td_type_strip(const td_table *t, uint32_t id);

/* Name of a kind ("struct", "pointer"); static; "?" when out of range. */
const char *td_kind_name(int kind);

/* 1 for the integer kinds that have no structure (bool, char..ullong). */
int td_kind_is_int(int kind);

/* Checks, without allocating, that buf starts with one complete msgpack
 * object whose container counts the bytes can hold (msgpack-c allocates
 * for announced counts before reading them).  Call it before decoding
 * untrusted bytes.  0 with *used = the object's length, or TD_EMALFORMED. */
int td_msgpack_check(const void *buf, size_t len, size_t *used);

/* Encoding helpers for the fixed-size big-endian fields of the ext types. */
void td_put_be64(unsigned char *p, uint64_t v);
uint64_t td_get_be64(const unsigned char *p);

#endif
