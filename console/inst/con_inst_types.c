/*
 * con_inst_types.c — the unit's type table (ParaVT's UsedTypeTable),
 * built from libclang types and emitted as C99 source that the TARGET
 * compiler evaluates, in the shape of tests/typedesc/td_probe_types.c.
 *
 * Every entry that can be named at file scope gets a typedef pvt__tN, so
 * that sizeof, TD_ALIGNOF, TD_SIGNED and offsetof apply to arrays, pointers
 * and qualified types alike (typedefs compose: "typedef pvt__t3
 * pvt__t7[4];").  Entries are deduplicated by a structural key: qualifiers
 * plus kind plus the ids of their parts, or the declaration's USR for
 * records, enums and typedefs.  A record is registered before its members
 * are described, so self-referential structs terminate.
 *
 * What cannot be named at file scope:
 *   - an unnamed struct/union reached through a typedef is named by the
 *     typedef; one that is a member of a nameable struct is described
 *     through a member path (sizeof(((struct s *)0)->in), offsets as
 *     differences of offsetof; alignment 1);
 *   - any other unnamed or function-local record is opaque (no size): a
 *     pointer to it is still described (as a pointer), a variable of it is
 *     not recorded;
 *   - an unnamed enum is sized as its integer type on the host's compiler.
 * Types declared in system headers are opaque under their public name
 * (FILE, size_t): their layout differs between platforms.
 *
 * This file turns libclang types into entries; the table's store (array
 * and hash index) is con_inst_typetab.c, its C text con_inst_emit.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_inst_int.h"
#include "td.h"

/* Names of the scalar kinds, index = enum td_kind (up to TD_LDOUBLE). */
static const char *const ci_scalar_names[] = {
    "void",          "_Bool",
    "char",          "signed char",
    "unsigned char", "short",
    "unsigned short", "int",
    "unsigned int",  "long",
    "unsigned long", "long long",
    "unsigned long long", "float",
    "double",        "long double"};

/* Qualifier bits of ty. */
static unsigned ci_quals(CXType ty)
{
	return (clang_isConstQualifiedType(ty) ? TD_Q_CONST : 0) |
	       (clang_isVolatileQualifiedType(ty) ? TD_Q_VOLATILE : 0);
}

/* ty without Elaborated sugar ("struct cell" as written). */
static CXType ci_strip_elab(CXType ty)
{
	while (ty.kind == CXType_Elaborated)
		ty = clang_Type_getNamedType(ty);
	return ty;
}

/* td kind of a builtin scalar type, or -1. */
static int ci_builtin_kind(enum CXTypeKind k)
{
	switch (k) {
	case CXType_Void: return TD_VOID;
	case CXType_Bool: return TD_BOOL;
	case CXType_Char_U:
	case CXType_Char_S: return TD_CHAR;
	case CXType_SChar: return TD_SCHAR;
	case CXType_UChar: return TD_UCHAR;
	case CXType_Short: return TD_SHORT;
	case CXType_UShort: return TD_USHORT;
	case CXType_Int: return TD_INT;
	case CXType_UInt: return TD_UINT;
	case CXType_Long: return TD_LONG;
	case CXType_ULong: return TD_ULONG;
	case CXType_LongLong: return TD_LLONG;
	case CXType_ULongLong: return TD_ULLONG;
	case CXType_Float: return TD_FLOAT;
	case CXType_Double: return TD_DOUBLE;
	case CXType_LongDouble: return TD_LDOUBLE;
	default: return -1;
	}
}

/* Appends "key" for ty's declaration: prefix, quals and USR. */
static int ci_decl_key(wire_buf *k, char pfx, unsigned quals, CXCursor d)
{
	CXString usr = clang_getCursorUSR(d);
	int rc = ci_printf(k, "%u%c%s", quals, pfx, clang_getCString(usr));

	clang_disposeString(usr);
	return rc;
}

/* 1 if the declaration is at file scope and has a name. */
static int ci_decl_named(CXCursor d, char **name)
{
	CXCursor p = clang_getCursorSemanticParent(d);
	char *s = ci_cxdup(clang_getCursorSpelling(d));

	*name = s;
	return s && *s && !strchr(s, '(') && !clang_Cursor_isAnonymous(d) &&
	       clang_getCursorKind(p) == CXCursor_TranslationUnit;
}

/* 1 if d is declared in a system header. */
static int ci_decl_system(CXCursor d)
{
	return clang_Location_isInSystemHeader(clang_getCursorLocation(d));
}

/* Naming of a record or enum: a file-scope name, a typedef name, or a
 * member path inside a nameable outer type. */
typedef struct ci_naming {
	const char *tdname; /* typedef that names an unnamed tag, or NULL */
	const char *outer;  /* path records: outer type's C name */
	const char *path;   /* path records: member path */
} ci_naming;

static int ci_type_q(ci_types *t, CXType ty, unsigned quals,
		     const ci_naming *nm, wire_buf *why);

/* Context of the member visitor. */
typedef struct ci_fieldctx {
	ci_types *t;  /* the table */
	int id;       /* record entry being filled */
	int failed;   /* out of memory */
} ci_fieldctx;

/* Appends a member to entry id.  0 or -1. */
static int ci_add_member(ci_types *t, int id, const char *name, int type,
			 int width)
{
	ci_type *e = &t->v[id];
	ci_member *m = realloc(e->mem, (e->nmem + 1) * sizeof *m);

	if (!m)
		return -1;
	e->mem = m;
	m[e->nmem].name = strdup(name);
	if (!m[e->nmem].name)
		return -1;
	m[e->nmem].type = type;
	m[e->nmem].width = width;
	e->nmem++;
	return 0;
}

/* Id of a member's type: unnamed records and enums through a member path
 * in the record entry rec; others as usual.  -1 if not describable. */
static int ci_member_type(ci_types *t, int rec, CXType ft, const char *fname,
			  wire_buf *why)
{
	CXType s = ci_strip_elab(ft);
	ci_naming nm = {NULL, NULL, NULL};
	char *dname = NULL, *path = NULL;
	int id;

	if (s.kind == CXType_Record || s.kind == CXType_Enum) {
		CXCursor d = clang_getTypeDeclaration(s);

		if (!ci_decl_named(d, &dname) && !ci_decl_system(d)) {
			const ci_type *r = &t->v[rec];
			size_t n = strlen(fname) + (r->path ? strlen(r->path) : 0) + 2;

			path = malloc(n);
			if (!path)
				goto out;
			snprintf(path, n, "%s%s%s", r->path ? r->path : "",
				 r->path ? "." : "", fname);
			nm.outer = r->path ? r->outer : r->decl;
			nm.path = path;
		}
	}
	id = ci_type_q(t, nm.path ? s : ft, ci_quals(ft), nm.path ? &nm : NULL,
		       why);
	free(dname);
	free(path);
	return id;
out:
	free(dname);
	t->failed = 1;
	return -1;
}

/* clang_Type_visitFields callback: describes one member. */
static enum CXVisitorResult ci_field(CXCursor c, CXClientData data)
{
	ci_fieldctx *fc = data;
	ci_types *t = fc->t;
	char *fname = ci_cxdup(clang_getCursorSpelling(c));
	int width = clang_Cursor_isBitField(c) ? clang_getFieldDeclBitWidth(c)
					       : 0;
	wire_buf why;
	int mid;

	wire_buf_init(&why, 4096);
	if (!fname)
		goto nomem;
	if (!*fname) {
		if (!clang_Cursor_isBitField(c))
			ci_printf(t->notes,
				  "note: an anonymous member of %s is not "
				  "described\n",
				  t->v[fc->id].name);
		goto out;
	}
	mid = ci_member_type(t, fc->id, clang_getCursorType(c), fname, &why);
	if (mid >= 0 && (width || ci_sized(t, mid))) {
		if (ci_add_member(t, fc->id, fname, mid, width) < 0)
			goto nomem;
	} else if (!t->failed) {
		ci_printf(t->notes, "note: member '%s' of %s is not described%s%s\n",
			  fname, t->v[fc->id].name, why.len ? ": " : "",
			  why.len ? wire_buf_head(&why) : "");
	}
out:
	free(fname);
	wire_buf_destroy(&why);
	return t->failed ? CXVisit_Break : CXVisit_Continue;
nomem:
	t->failed = 1;
	goto out;
}

/* Sets the entry's C name or member path from the naming.  0 or -1. */
static int ci_set_naming(ci_types *t, int id, const char *decl,
			 const ci_naming *nm)
{
	ci_type *e = &t->v[id];

	if (nm && nm->path) {
		e->outer = strdup(nm->outer);
		e->path = strdup(nm->path);
		if (!e->outer || !e->path)
			return -1;
	} else if (decl && !(e->decl = strdup(decl))) {
		return -1;
	}
	return 0;
}

/* Entry for a struct or union (decl d, qualifiers quals).  The
 * unqualified entry owns the members; a qualified one shares them. */
static int ci_record(ci_types *t, CXType ty, CXCursor d, unsigned quals,
		     const ci_naming *nm)
{
	wire_buf k, nb;
	char *tag = NULL, *cname = NULL;
	int union_ = clang_getCursorKind(d) == CXCursor_UnionDecl;
	int named = ci_decl_named(d, &tag), sys = ci_decl_system(d);
	int id = -1, uq = -1;
	ci_fieldctx fc;

	wire_buf_init(&k, 65536);
	wire_buf_init(&nb, 65536);
	if (quals && (uq = ci_record(t, ty, d, 0, nm)) < 0)
		goto out;
	if (ci_decl_key(&k, 'R', quals, d) < 0)
		goto nomem;
	if ((id = ci_find(t, wire_buf_head(&k))) >= 0)
		goto out;
	if (named || sys)
		ci_printf(&nb, "%s %s", union_ ? "union" : "struct", tag);
	else
		ci_printf(&nb, "%s", nm && nm->tdname ? nm->tdname
			  : union_ ? "union <anonymous>" : "struct <anonymous>");
	if (!nb.len)
		goto nomem;
	cname = strdup(wire_buf_head(&nb));
	wire_buf_reset(&nb);
	if (!cname || ci_printf(&nb, "%s%s", ci_qual_str(quals), cname) < 0)
		goto nomem;
	id = ci_new(t, wire_buf_head(&k), wire_buf_head(&nb),
		    union_ ? TD_UNION : TD_STRUCT, quals);
	if (id < 0)
		goto out;
	if (ci_set_naming(t, id, named || sys ? cname
				 : nm && nm->tdname ? nm->tdname : NULL, nm) < 0)
		goto nomem;
	t->v[id].complete = clang_Type_getSizeOf(ty) >= 0 &&
			    (named || sys || nm);
	t->v[id].mem_of = uq;
	if (uq >= 0 || sys || !t->v[id].complete)
		goto out;
	fc.t = t;
	fc.id = id;
	fc.failed = 0;
	clang_Type_visitFields(ty, ci_field, &fc);
	if (t->failed)
		id = -1;
	goto out;
nomem:
	t->failed = 1;
	id = -1;
out:
	free(tag);
	free(cname);
	wire_buf_destroy(&k);
	wire_buf_destroy(&nb);
	return id;
}

/* Context of the enum constant visitor. */
typedef struct ci_enumctx {
	ci_types *t; /* the table */
	int id;      /* enum entry */
} ci_enumctx;

/* clang_visitChildren callback: one enumerator. */
static enum CXChildVisitResult ci_enumerator(CXCursor c, CXCursor parent,
					     CXClientData data)
{
	ci_enumctx *ec = data;
	ci_type *e = &ec->t->v[ec->id];
	ci_const *v;

	if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl)
		return CXChildVisit_Continue;
	v = realloc(e->cst, (e->ncst + 1) * sizeof *v);
	if (!v)
		goto nomem;
	e->cst = v;
	v[e->ncst].name = ci_cxdup(clang_getCursorSpelling(c));
	if (!v[e->ncst].name)
		goto nomem;
	v[e->ncst].val = clang_getEnumConstantDeclValue(c);
	e->ncst++;
	return CXChildVisit_Continue;
nomem:
	ec->t->failed = 1;
	return CXChildVisit_Break;
}

/* Entry for an enum type (decl d).  Unnamed enums without a typedef are
 * sized as their integer type on the host compiler. */
static int ci_enum(ci_types *t, CXCursor d, unsigned quals,
		   const ci_naming *nm)
{
	wire_buf k, nb;
	char *tag = NULL, *itype = NULL;
	int named = ci_decl_named(d, &tag), id = -1;
	CXType it = clang_getEnumDeclIntegerType(d);
	ci_enumctx ec;

	wire_buf_init(&k, 65536);
	wire_buf_init(&nb, 65536);
	if (ci_decl_key(&k, 'E', quals, d) < 0)
		goto nomem;
	if ((id = ci_find(t, wire_buf_head(&k))) >= 0)
		goto out;
	itype = ci_cxdup(clang_getTypeSpelling(it));
	if (named)
		ci_printf(&nb, "%senum %s", ci_qual_str(quals), tag);
	else
		ci_printf(&nb, "%s%s", ci_qual_str(quals),
			  nm && nm->tdname ? nm->tdname : "enum <anonymous>");
	if (!itype || !nb.len)
		goto nomem;
	id = ci_new(t, wire_buf_head(&k), wire_buf_head(&nb), TD_ENUM, quals);
	if (id < 0)
		goto out;
	wire_buf_reset(&nb);
	ci_printf(&nb, "enum %s", tag);
	if (ci_set_naming(t, id, named ? wire_buf_head(&nb)
				 : nm && nm->tdname ? nm->tdname : itype, nm) < 0)
		goto nomem;
	t->v[id].complete = 1;
	t->v[id].integral = 1;
	t->v[id].host_signed = it.kind == CXType_Int || it.kind == CXType_Long ||
			       it.kind == CXType_LongLong;
	ec.t = t;
	ec.id = id;
	clang_visitChildren(d, ci_enumerator, &ec);
	if (t->failed)
		id = -1;
	goto out;
nomem:
	t->failed = 1;
	id = -1;
out:
	free(tag);
	free(itype);
	wire_buf_destroy(&k);
	wire_buf_destroy(&nb);
	return id;
}

/* Entry for a scalar, named by decl (a builtin name, or a system typedef
 * such as size_t whose width differs between platforms). */
int ci_scalar(ci_types *t, int kind, unsigned quals, const char *decl,
	      const char *keyx)
{
	char key[512], name[300];
	int id;

	snprintf(key, sizeof key, "%uB%d%s", quals, kind, keyx);
	if ((id = ci_find(t, key)) >= 0)
		return id;
	snprintf(name, sizeof name, "%s%s", ci_qual_str(quals), decl);
	if ((id = ci_new(t, key, name, kind, quals)) < 0)
		return -1;
	if (!(t->v[id].decl = strdup(decl))) {
		t->failed = 1;
		return -1;
	}
	t->v[id].complete = kind != TD_VOID;
	t->v[id].integral = kind != TD_VOID && kind < TD_FLOAT;
	return id;
}

/* Entry for a type declared by a system header under its typedef name:
 * a scalar of the host's kind, or an opaque sized struct. */
static int ci_system_typedef(ci_types *t, CXType ty, CXCursor d,
			     unsigned quals, const char *name)
{
	CXType c = clang_getCanonicalType(ty);
	int kind = ci_builtin_kind(c.kind), id;
	wire_buf k;

	if (kind > TD_VOID) {
		CXString usr = clang_getCursorUSR(d);

		id = ci_scalar(t, kind, quals, name, clang_getCString(usr));
		clang_disposeString(usr);
		return id;
	}
	wire_buf_init(&k, 65536);
	if (ci_decl_key(&k, 'O', quals, d) < 0)
		id = -1;
	else if ((id = ci_find(t, wire_buf_head(&k))) < 0 &&
		 (id = ci_new(t, wire_buf_head(&k), name, TD_STRUCT, quals)) >= 0) {
		t->v[id].decl = strdup(name);
		t->v[id].complete = clang_Type_getSizeOf(ty) >= 0;
		if (!t->v[id].decl)
			id = -1;
	}
	wire_buf_destroy(&k);
	if (id < 0)
		t->failed = 1;
	return id;
}

/* Entry for a typedef type. */
static int ci_typedef(ci_types *t, CXType ty, unsigned quals, wire_buf *why)
{
	CXCursor d = clang_getTypeDeclaration(ty);
	CXType under = clang_getTypedefDeclUnderlyingType(d), su;
	char *name = NULL;
	wire_buf k;
	ci_naming nm = {NULL, NULL, NULL};
	int id = -1, base;

	wire_buf_init(&k, 65536);
	if (!ci_decl_named(d, &name)) {
		id = name ? ci_type_q(t, under, quals | ci_quals(under), NULL,
				      why)
			  : -1;
		goto out;
	}
	if (ci_decl_system(d)) {
		id = ci_system_typedef(t, ty, d, quals, name);
		goto out;
	}
	if (ci_decl_key(&k, 'T', quals, d) < 0)
		goto out;
	if ((id = ci_find(t, wire_buf_head(&k))) >= 0)
		goto out;
	su = ci_strip_elab(under);
	nm.tdname = name;
	if (su.kind == CXType_Record || su.kind == CXType_Enum)
		base = ci_type_q(t, su, ci_quals(under), &nm, why);
	else
		base = ci_type_q(t, under, ci_quals(under), NULL, why);
	if (base < 0)
		goto out;
	wire_buf_reset(&k);
	if (ci_decl_key(&k, 'T', quals, d) < 0)
		goto out;
	if ((id = ci_find(t, wire_buf_head(&k))) >= 0)
		goto out;
	{
		char nbuf[512];

		snprintf(nbuf, sizeof nbuf, "%s%s", ci_qual_str(quals), name);
		id = ci_new(t, wire_buf_head(&k), nbuf, TD_TYPEDEF, quals);
	}
	if (id >= 0) {
		t->v[id].base = base;
		t->v[id].decl = strdup(name);
		t->v[id].complete = ci_sized(t, base);
		if (!t->v[id].decl)
			id = -1;
	}
out:
	if (id < 0 && !name)
		t->failed = 1;
	free(name);
	wire_buf_destroy(&k);
	return id;
}

/* Entry for a pointer (a function pointer is its own kind). */
static int ci_pointer(ci_types *t, CXType ty, unsigned quals, wire_buf *why)
{
	CXType pt = clang_getPointeeType(ty);
	CXType pc = clang_getCanonicalType(pt);
	char key[64], *name;
	int base = 0, kind = TD_POINTER, id;

	if (pc.kind == CXType_FunctionProto || pc.kind == CXType_FunctionNoProto)
		kind = TD_FUNCPTR;
	else if ((base = ci_type_q(t, pt, ci_quals(pt), NULL, why)) < 0)
		return -1;
	snprintf(key, sizeof key, "%u%c%d", quals, kind == TD_POINTER ? 'P' : 'F',
		 base);
	if ((id = ci_find(t, key)) >= 0)
		return id;
	name = ci_cxdup(clang_getTypeSpelling(ty));
	if (!name) {
		t->failed = 1;
		return -1;
	}
	id = ci_new(t, key, name, kind, quals);
	free(name);
	if (id >= 0) {
		t->v[id].base = base;
		t->v[id].complete = 1;
	}
	return id;
}

/* Entry for an array of known or unknown size. */
static int ci_array(ci_types *t, CXType ty, wire_buf *why)
{
	CXType et = clang_getArrayElementType(ty);
	long long n = ty.kind == CXType_ConstantArray ? clang_getArraySize(ty)
						     : -1;
	char key[96], *name;
	int base = ci_type_q(t, et, ci_quals(et), NULL, why), id;

	if (base < 0)
		return -1;
	snprintf(key, sizeof key, "A%d:%lld", base, n);
	if ((id = ci_find(t, key)) >= 0)
		return id;
	name = ci_cxdup(clang_getTypeSpelling(ty));
	if (!name) {
		t->failed = 1;
		return -1;
	}
	id = ci_new(t, key, name, TD_ARRAY, 0);
	free(name);
	if (id >= 0) {
		t->v[id].base = base;
		t->v[id].count = n < 0 ? 0 : (unsigned long long)n;
		t->v[id].complete = n >= 0 && ci_sized(t, base);
	}
	return id;
}

/* Says why ty cannot be described. */
static int ci_unsupported(CXType ty, wire_buf *why, const char *what)
{
	CXString s = clang_getTypeSpelling(ty);

	if (why)
		ci_printf(why, "%s %s", what, clang_getCString(s));
	clang_disposeString(s);
	return -1;
}

/* Entry for ty with the given qualifiers (ty's own are ignored); nm names
 * an unnamed record or enum.  -1 when it cannot be described. */
static int ci_type_q(ci_types *t, CXType ty, unsigned quals,
		     const ci_naming *nm, wire_buf *why)
{
	int kind;

	if (t->failed)
		return -1;
	ty = ci_strip_elab(ty);
	kind = ci_builtin_kind(ty.kind);
	if (kind >= 0)
		return ci_scalar(t, kind, quals, ci_scalar_names[kind], "");
	switch (ty.kind) {
	case CXType_Pointer: return ci_pointer(t, ty, quals, why);
	case CXType_ConstantArray:
	case CXType_IncompleteArray: return ci_array(t, ty, why);
	case CXType_Typedef: return ci_typedef(t, ty, quals, why);
	case CXType_Record:
		return ci_record(t, ty, clang_getTypeDeclaration(ty), quals, nm);
	case CXType_Enum:
		return ci_enum(t, clang_getTypeDeclaration(ty), quals, nm);
	case CXType_VariableArray:
		return ci_unsupported(ty, why, "variable length array");
	default: return ci_unsupported(ty, why, "unsupported type");
	}
}

/* Public entry: the id of ty (with its qualifiers), or -1. */
int ci_type_id(ci_types *t, CXType ty, wire_buf *why)
{
	int id;

	if (!t->n && ci_scalar(t, TD_VOID, 0, "void", "") != 0)
		return -1;
	id = ci_type_q(t, ty, ci_quals(ty), NULL, why);
	if (id >= 0 && !ci_sized(t, id)) {
		if (why)
			ci_printf(why, "its type %s cannot be named at file "
				  "scope or is incomplete", t->v[id].name);
		return -1;
	}
	return id;
}
