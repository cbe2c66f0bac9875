/*
 * con_inst_int.h — private interface between the instrumenter's modules
 * (console only; see con_inst.h for the public API).
 *
 *   con_inst.c          con_inst_run: parse every source, ship files, notes
 *   con_inst_scope.c    walk of function bodies: variables in scope,
 *                       return statements, templates
 *   con_inst_break.c    breakpoint landing and the variables recorded
 *   con_inst_types.c    the unit's type table (UsedTypeTable) built from
 *                       libclang types
 *   con_inst_typetab.c  the type table's store: entries, hash index
 *   con_inst_emit.c     the type table written out as C source
 *   con_inst_rewrite.c  edit list applied to the original text, prologue
 *
 * Everything is per translation unit (ci_unit); strings are built in
 * wire_buf, the project's one growable buffer.
 */
#ifndef PARAVT_CON_INST_INT_H
#define PARAVT_CON_INST_INT_H

#include <clang-c/Index.h>
#include <stdarg.h>
#include <stddef.h>

#include "con_inst.h"
#include "wire_buf.h"

/* Hard maximum of any generated text (a whole instrumented file). */
#define CI_BUF_MAX ((size_t)512 << 20)

/* Kinds of breakpoint requests. */
enum ci_req_kind {
	CI_REQ_LINE = 0,  /* file:line */
	CI_REQ_FUNC = 1,  /* function name */
	CI_REQ_PRAGMA = 2 /* #pragma paravt break */
};

/* A breakpoint request that this unit must place. */
typedef struct ci_req {
	int kind;         /* enum ci_req_kind */
	int id;           /* breakpoint number */
	int line;         /* requested line (LINE, PRAGMA) */
	size_t off;       /* PRAGMA: byte offset of the pragma line */
	const char *func; /* FUNC: function name (borrowed from the spec) */
	int temp;         /* tbreak */
	int spec;         /* index in opts->bps, or -1 for a pragma */
	int placed;       /* 1 once it landed */
	int in_func;      /* LINE/PRAGMA: 1 if some function contains it */
} ci_req;

/* One insertion or replacement in the original text. */
typedef struct ci_edit {
	size_t off;  /* byte offset in the original text */
	size_t del;  /* bytes of the original replaced (0: insertion) */
	int prio;    /* order among edits at the same offset */
	size_t seq;  /* creation order, the last tie-breaker */
	char *text;  /* text to insert; owned */
} ci_edit;

/* Order of edits at one offset. */
enum ci_prio {
	CI_PRIO_ENTER = 0, /* function entry template after '{' */
	CI_PRIO_LINE = 1,  /* statement line template "pvt__line = N; " */
	CI_PRIO_BREAK = 2, /* breakpoint block */
	CI_PRIO_STMT = 3   /* return rewrite, exit before '}' */
};

/* One struct/union member of a type entry. */
typedef struct ci_member {
	char *name;   /* member name; owned */
	int type;     /* type id */
	int width;    /* bit-field width, 0 if not a bit-field */
} ci_member;

/* One enum constant. */
typedef struct ci_const {
	char *name;    /* enumerator; owned */
	long long val; /* value */
} ci_const;

/* One type entry of the unit's table (index = type id). */
typedef struct ci_type {
	int kind;          /* enum td_kind */
	unsigned quals;    /* TD_Q_* */
	char *key;         /* dedupe key; owned */
	char *name;        /* C spelling shown to the user; owned */
	char *decl;        /* "struct cell", "pos_t", "int": what the typedef
			      pvt__tN names, or NULL when not nameable; owned */
	char *outer;       /* path records: C name of the enclosing type */
	char *path;        /* path records: member path in outer ("in") */
	int base;          /* pointer/array/typedef target */
	unsigned long long count; /* arrays */
	int complete;      /* 1 if sizeof is valid */
	int integral;      /* 1 if is_signed is meaningful */
	int host_signed;   /* signedness known on the host (path enums) */
	ci_member *mem;    /* members (records); owned */
	size_t nmem;
	int mem_of;        /* qualified record: members of this entry, or -1 */
	ci_const *cst;     /* enum constants; owned */
	size_t ncst;
} ci_type;

/* A unit's type table under construction. */
typedef struct ci_types {
	ci_type *v;      /* entries */
	size_t n, cap;   /* used, allocated */
	int *hash;       /* open addressing over key: index+1, 0 = empty */
	size_t hcap;     /* slots in hash (power of two) */
	wire_buf *notes; /* where to say what was left out (borrowed) */
	int failed;      /* out of memory */
} ci_types;

/* Everything about one translation unit being instrumented. */
typedef struct ci_unit {
	const con_inst_opts *o;   /* the run's options (borrowed) */
	int index;                /* unit index (pvt_unit.id) */
	const char *path;         /* source path as loaded (borrowed) */
	CXTranslationUnit tu;     /* parsed unit */
	CXFile file;              /* the main file */
	const char *src;          /* its text (owned by the unit) */
	size_t srclen;            /* bytes in src */
	ci_edit *edits;           /* text edits; owned */
	size_t nedits, capedits;  /* used, allocated */
	ci_req *reqs;             /* breakpoints to place here; owned */
	size_t nreqs;
	ci_types types;           /* type table */
	con_inst_result *res;     /* landed breakpoints go here (borrowed) */
	wire_buf *notes;          /* notes for the user (borrowed) */
	char *err;                /* error sentence buffer (borrowed) */
	size_t errlen;
	void *ctx;                /* the run (con_inst.c; borrowed) */
	int nplaced;              /* breakpoints placed in this unit */
	int nprobes;              /* line probes put in this unit */
	int failed;               /* an error was set */
} ci_unit;

/* Appends formatted text to b; 0, or -1 (too long / no memory). */
int ci_printf(wire_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Like ci_printf with a va_list. */
int ci_vprintf(wire_buf *b, const char *fmt, va_list ap);

/* Heap copy of a CXString's text (disposes s).  Caller frees; NULL only
 * on out of memory. */
char *ci_cxdup(CXString s);

/* Heap copy of b's contents as a NUL-terminated string; caller frees. */
char *ci_buf_str(wire_buf *b);

/* Appends s to b as the body of a C string literal (escaped). */
int ci_cstr(wire_buf *b, const char *s);

/* Sets the unit's error sentence (first one wins); returns -1. */
int ci_fail(ci_unit *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Line (1-based) and byte offset of where loc expands in the main file;
 * 0 if it is not in the main file. */
int ci_loc(ci_unit *u, CXSourceLocation loc, unsigned *line, size_t *off);

/* Adds an edit (text copied).  0 or -1 (out of memory, error set). */
int ci_edit_add(ci_unit *u, size_t off, size_t del, int prio,
		const char *text);

/* Walks every function defined in the main file: templates, returns,
 * breakpoints (con_inst_scope.c).  0 or -1 with the unit's error set. */
int ci_scope_walk(ci_unit *u);

/* A variable visible in the walk. */
typedef struct ci_local {
	CXCursor c;  /* its declaration */
	char *name;  /* spelling; owned */
	int scope;   /* enum pvt_scope */
} ci_local;

/* State of one function's instrumentation. */
typedef struct ci_fn {
	ci_unit *u;          /* the unit */
	CXCursor fn;         /* the function definition */
	char *name;          /* function name; owned */
	char *rtype;         /* return type spelling for a declaration, or
				NULL when it cannot be spelled so */
	int is_main;         /* main: start/exit templates */
	int is_void;         /* returns void */
	unsigned first_line; /* first line of the definition */
	unsigned end_line;   /* line of the closing brace */
	size_t body_off;     /* offset of '{' */
	size_t body_end;     /* offset of '}' */
	ci_local *loc;       /* visible locals (stack; params first) */
	size_t nloc, caploc;
	ci_local *glob;      /* referenced globals (unique) */
	size_t nglob, capglob;
	size_t last_cand;    /* offset of the last candidate + 1 */
	int func_ix;         /* its index in the result's funcs, -1 none */
	int failed;          /* error set or out of memory */
} ci_fn;

/* Frees one breakpoint's strings and variables (con_inst.c). */
void ci_bp_free(con_inst_bp *bp);

/* Appends unit file to res->units and function name to res->funcs
 * (con_inst_break.c).  The new index, or -1 out of memory. */
int ci_res_unit(con_inst_result *res, const char *file);
int ci_res_func(con_inst_result *res, const char *name);

/* Offset just past statement s (its ';' included), or 0 when it cannot
 * be told (con_inst_scope.c). */
size_t ci_stmt_end(ci_fn *f, CXCursor s);

/* A plain innermost loop (no call, no loop, no label, return, goto or
 * static inside) gets a copy without probes that runs while nothing is
 * armed: `if (!*pvt__armp) { COPY } else LOOP` (con_inst_loop.c).  0, or
 * -1 with the unit's error set. */
int ci_loop_version(ci_fn *f, CXCursor s);

/* Puts the line probe of statement line at off (after the line
 * template): `if (*pvt__armp && para_vt_line(...)) { vars;
 * para_vt_break(..., PVT_BP_LIVE, ...); }`, or for a statement that
 * makes a call (frame) `if (*pvt__armp) { vars; para_vt_frame(...);
 * if (para_vt_line(...)) para_vt_break(...); }`, and records the site
 * (con_inst_break.c).  0, or -1 with the unit's error set. */
int ci_probe(ci_fn *f, size_t off, unsigned line, int frame);

/* 1 if request r is for a line inside function f (con_inst_break.c). */
int ci_req_in_fn(const ci_fn *f, const ci_req *r);

/* Handles a candidate statement s of f's walk (body_child: a direct
 * child of the body): places every request that lands there
 * (con_inst_break.c).  0, or -1 with the unit's error set. */
int ci_candidate(ci_fn *f, CXCursor s, int body_child);

/* Type table store (con_inst_typetab.c): an empty table whose entry 0
 * will be void (notes borrowed), and freeing everything it owns. */
void ci_types_init(ci_types *t, wire_buf *notes);
void ci_types_destroy(ci_types *t);

/* Id of the entry with this structural key, or -1 (con_inst_typetab.c). */
int ci_find(const ci_types *t, const char *key);

/* Appends a zeroed entry with key and name (both copied); its id, or -1
 * with t->failed set (con_inst_typetab.c). */
int ci_new(ci_types *t, const char *key, const char *name, int kind,
	   unsigned quals);

/* "const volatile " prefix for quals (static storage). */
const char *ci_qual_str(unsigned q);

/* 1 if the entry has a typedef pvt__tN (it can be named at file scope). */
int ci_named(const ci_types *t, int id);

/* 1 if sizeof of the entry can be written on the target (a variable or
 * member of this type can be described). */
int ci_sized(const ci_types *t, int id);

/* Entry for a scalar of td kind `kind`, named by decl, with keyx added
 * to its key; its id, or -1 (con_inst_types.c). */
int ci_scalar(ci_types *t, int kind, unsigned quals, const char *decl,
	      const char *keyx);

/* Type id describing t, adding entries as needed; -1 when the type cannot
 * be described at file scope (why is appended to why, if non-NULL). */
int ci_type_id(ci_types *t, CXType ty, wire_buf *why);

/* Appends the C99 text of the table, the td_table and the pvt_unit
 * definition to out (con_inst_emit.c).  0 or -1. */
int ci_types_emit(ci_types *t, wire_buf *out, const char *build,
		  int unit);

/* Applies the unit's edits to its text, adds prologue and epilogue;
 * *out is the whole instrumented file (con_inst_rewrite.c).  0 or -1. */
int ci_rewrite(ci_unit *u, wire_buf *out);

#endif
