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

/* Prepares an empty table whose entry 0 is void. */
void ci_types_init(ci_types *t, wire_buf *notes)
{
	memset(t, 0, sizeof *t);
	t->notes = notes;
}

/* Frees one entry's strings and arrays. */
static void ci_type_clear(ci_type *e)
{
	size_t i;

	free(e->key);
	free(e->name);
	free(e->decl);
	free(e->outer);
	free(e->path);
	for (i = 0; i < e->nmem; i++)
		free(e->mem[i].name);
	free(e->mem);
	for (i = 0; i < e->ncst; i++)
		free(e->cst[i].name);
	free(e->cst);
}

/* Frees the table. */
void ci_types_destroy(ci_types *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		ci_type_clear(&t->v[i]);
	free(t->v);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

/* FNV-1a hash of a key. */
static size_t ci_hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Id of the entry with this key, or -1. */
static int ci_find(const ci_types *t, const char *key)
{
	size_t i;

	if (!t->hcap)
		return -1;
	for (i = ci_hash(key) & (t->hcap - 1); t->hash[i];
	     i = (i + 1) & (t->hcap - 1))
		if (!strcmp(t->v[t->hash[i] - 1].key, key))
			return t->hash[i] - 1;
	return -1;
}

/* Rebuilds the hash index with room for twice the entries.  0 or -1. */
static int ci_rehash(ci_types *t)
{
	size_t cap = t->hcap ? t->hcap * 2 : 64, i, j;
	int *h = calloc(cap, sizeof *h);

	if (!h)
		return -1;
	for (i = 0; i < t->n; i++) {
		for (j = ci_hash(t->v[i].key) & (cap - 1); h[j];
		     j = (j + 1) & (cap - 1))
			;
		h[j] = (int)i + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = cap;
	return 0;
}

/* Appends a zeroed entry with key and name (copied); its id, or -1. */
static int ci_new(ci_types *t, const char *key, const char *name, int kind,
		  unsigned quals)
{
	ci_type *e;
	size_t j;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		ci_type *v = realloc(t->v, cap * sizeof *v);

		if (!v)
			goto fail;
		t->v = v;
		t->cap = cap;
	}
	if ((t->n + 1) * 2 > t->hcap && ci_rehash(t) < 0)
		goto fail;
	e = &t->v[t->n];
	memset(e, 0, sizeof *e);
	e->key = strdup(key);
	e->name = strdup(name);
	if (!e->key || !e->name) {
		ci_type_clear(e);
		goto fail;
	}
	e->kind = kind;
	e->quals = quals;
	e->mem_of = -1;
	for (j = ci_hash(key) & (t->hcap - 1); t->hash[j];
	     j = (j + 1) & (t->hcap - 1))
		;
	t->hash[j] = (int)t->n + 1;
	return (int)t->n++;
fail:
	t->failed = 1;
	return -1;
}

/* Qualifier bits of ty. */
static unsigned ci_quals(CXType ty)
{
	return (clang_isConstQualifiedType(ty) ? TD_Q_CONST : 0) |
	       (clang_isVolatileQualifiedType(ty) ? TD_Q_VOLATILE : 0);
}

/* "const volatile " prefix for quals (static). */
static const char *ci_qual_str(unsigned q)
{
	static const char *const s[] = {"", "const ", "volatile ",
					"const volatile "};
	return s[q & 3];
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

/* 1 if the entry has a typedef pvt__tN (it can be named at file scope). */
static int ci_named(const ci_types *t, int id)
{
	const ci_type *e = &t->v[id];

	if (e->path)
		return 0;
	if (e->kind == TD_ARRAY)
		return ci_named(t, e->base);
	return e->decl != NULL || e->kind == TD_POINTER ||
	       e->kind == TD_FUNCPTR;
}

/* 1 if sizeof of the entry can be written on the target (a variable or
 * member of this type can be described). */
static int ci_sized(const ci_types *t, int id)
{
	const ci_type *e = &t->v[id];

	return e->complete && (e->path || ci_named(t, id));
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
static int ci_scalar(ci_types *t, int kind, unsigned quals, const char *decl,
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

/* Appends the typedef pvt__tN of entry id, if it has one. */
static int ci_emit_typedef(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	const char *q = ci_qual_str(e->quals);

	if (!ci_named(t, id))
		return 0;
	switch (e->kind) {
	case TD_POINTER:
		if (ci_named(t, e->base))
			return ci_printf(o, "typedef pvt__t%d *%spvt__t%d;\n",
					 e->base, q, id);
		return ci_printf(o, "typedef void *%spvt__t%d;\n", q, id);
	case TD_FUNCPTR:
		return ci_printf(o, "typedef void (*%spvt__t%d)(void);\n", q,
				 id);
	case TD_ARRAY:
		if (e->count || e->complete)
			return ci_printf(o, "typedef pvt__t%d pvt__t%d[%llu];\n",
					 e->base, id, e->count);
		return ci_printf(o, "typedef pvt__t%d pvt__t%d[];\n", e->base,
				 id);
	default:
		return ci_printf(o, "typedef %s%s pvt__t%d;\n", q, e->decl, id);
	}
}

/* Appends, for member m of record entry r, the C expression that reads
 * it from "o" (accessors) or its offset (offsetof). */
static int ci_emit_access(const ci_types *t, int r, const ci_member *m,
			  wire_buf *o, int offset)
{
	const ci_type *e = &t->v[r];

	if (e->path && offset)
		return ci_printf(o, "offsetof(%s, %s.%s) - offsetof(%s, %s)",
				 e->outer, e->path, m->name, e->outer, e->path);
	if (e->path)
		return ci_printf(o, "((const %s *)((const char *)o - "
				 "offsetof(%s, %s)))->%s.%s",
				 e->outer, e->outer, e->path, e->path, m->name);
	if (offset)
		return ci_printf(o, "offsetof(pvt__t%d, %s)", r, m->name);
	return ci_printf(o, "((const pvt__t%d *)o)->%s", r, m->name);
}

/* Appends the member array (and bit-field accessors) of entry id. */
static int ci_emit_members(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	size_t i;
	int rc = 0;

	for (i = 0; i < e->nmem; i++) {
		if (!e->mem[i].width)
			continue;
		rc |= ci_printf(o, "/* Bit-field %s of %s. */\nstatic uint64_t "
				"pvt__bf_%d_%zu(const void *o)\n{\n\treturn "
				"(uint64_t)",
				e->mem[i].name, e->name, id, i);
		rc |= ci_emit_access(t, id, &e->mem[i], o, 0);
		rc |= ci_printf(o, ";\n}\n\n");
	}
	rc |= ci_printf(o, "static const td_member pvt__m%d[] = {\n", id);
	for (i = 0; i < e->nmem; i++) {
		rc |= ci_printf(o, "    {\"%s\", %d, ", e->mem[i].name,
				e->mem[i].type);
		if (e->mem[i].width) {
			rc |= ci_printf(o, "0, %d, pvt__bf_%d_%zu},\n",
					e->mem[i].width, id, i);
			continue;
		}
		rc |= ci_emit_access(t, id, &e->mem[i], o, 1);
		rc |= ci_printf(o, ", 0, NULL},\n");
	}
	return rc | ci_printf(o, "};\n\n");
}

/* Appends the constant array of enum entry id. */
static int ci_emit_consts(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	size_t i;
	int rc = ci_printf(o, "static const td_const pvt__c%d[] = {\n", id);

	for (i = 0; i < e->ncst; i++) {
		if (e->cst[i].val == (-9223372036854775807LL - 1))
			rc |= ci_printf(o, "    {\"%s\", -9223372036854775807LL"
					" - 1},\n", e->cst[i].name);
		else
			rc |= ci_printf(o, "    {\"%s\", %lldLL},\n",
					e->cst[i].name, e->cst[i].val);
	}
	return rc | ci_printf(o, "};\n\n");
}

/* Appends the size and alignment expressions of entry id. */
static int ci_emit_size(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];

	if (!e->complete)
		return ci_printf(o, "0, 1");
	if (e->path)
		return ci_printf(o, "sizeof(((%s *)0)->%s), 1", e->outer,
				 e->path);
	return ci_printf(o, "sizeof(pvt__t%d), TD_ALIGNOF(pvt__t%d)", id, id);
}

/* Appends the td_type initialiser of entry id. */
static int ci_emit_entry(const ci_types *t, int id, wire_buf *o)
{
	const ci_type *e = &t->v[id];
	int mid = e->mem_of >= 0 ? e->mem_of : id;
	const ci_type *me = &t->v[mid];
	int rc = ci_printf(o, "    {%d, %d, %u, ", id, e->kind, e->quals);

	if (e->integral && !e->path)
		rc |= ci_printf(o, "TD_SIGNED(pvt__t%d), \"", id);
	else
		rc |= ci_printf(o, "%d, \"", e->integral && e->host_signed);
	rc |= ci_cstr(o, e->name);
	rc |= ci_printf(o, "\", ");
	rc |= ci_emit_size(t, id, o);
	rc |= ci_printf(o, ", %d, %lluu, ", e->base, e->count);
	if (me->nmem)
		rc |= ci_printf(o, "PVT__N(pvt__m%d), pvt__m%d, ", mid, mid);
	else
		rc |= ci_printf(o, "0, NULL, ");
	if (e->ncst)
		rc |= ci_printf(o, "PVT__N(pvt__c%d), pvt__c%d},\n", id, id);
	else
		rc |= ci_printf(o, "0, NULL},\n");
	return rc;
}

/* Appends the whole table, the td_table and the pvt_unit definition. */
int ci_types_emit(ci_types *t, wire_buf *o, const char *build, int unit)
{
	size_t i;
	int rc = 0;

	if (!t->n && ci_scalar(t, TD_VOID, 0, "void", "") != 0)
		return -1;
	rc |= ci_printf(o, "\n/* paravt: the type table of this unit "
			"(generated; evaluated by the target compiler). */\n"
			"#define PVT__N(a) ((uint32_t)(sizeof(a) / "
			"sizeof((a)[0])))\n");
	for (i = 0; i < t->n; i++)
		rc |= ci_emit_typedef(t, (int)i, o);
	rc |= ci_printf(o, "\n");
	for (i = 0; i < t->n; i++) {
		if (t->v[i].nmem)
			rc |= ci_emit_members(t, (int)i, o);
		if (t->v[i].ncst)
			rc |= ci_emit_consts(t, (int)i, o);
	}
	rc |= ci_printf(o, "static const td_type pvt__types[%zu] = {\n", t->n);
	for (i = 0; i < t->n; i++)
		rc |= ci_emit_entry(t, (int)i, o);
	rc |= ci_printf(o, "};\n\nstatic const td_table pvt__table = {\"");
	rc |= ci_cstr(o, build ? build : "");
	rc |= ci_printf(o, ":%d\", %zu, pvt__types};\n", unit, t->n);
	rc |= ci_printf(o, "static pvt_unit pvt__unit = {&pvt__table, %d, 0};\n",
			unit);
	return rc ? -1 : 0;
}
