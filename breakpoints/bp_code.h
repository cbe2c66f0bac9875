/*
 * bp_code.h — the code of a breakpoint condition: what the console
 * compiles `break ... if EXPR` into (console/session/con_expr.c,
 * con_dbg_cond.c) and the task runs at every pass (bp_cond.c), so that a
 * false condition costs the task a few loads and compares and no message.
 *
 * The code is one msgpack array of instructions, each an array whose
 * first element is the instruction (BP_C_*), run in order over a stack
 * of numbers (bp_num.h); the condition holds when the number left on top
 * is true.  Variables are named as the breakpoint's site lists them
 * (pvt_var, paravt_rt.h): by index, with the name and the type id the
 * console saw, which the task checks before it trusts the index; a path
 * from the variable is a list of typedesc steps (td.h), some of whose
 * array indexes come from the stack.  Sizes, offsets and byte order are
 * the task's own, from its type table: the same code runs on every port.
 *
 *   [PUSH, kind, value]            a number (kind: bp_num_kind)
 *   [LOAD, var, name, type, steps, dyn]
 *                                  the value at the path; steps is
 *                                  [[op, arg]...], dyn the positions of
 *                                  the steps whose arg is popped (the
 *                                  last one first)
 *   [ADDR, var, name, type, steps, dyn]   its address
 *   [BIN, op] [UN, op] [CAST, ctype]      bp_num_binary/unary/cast_ctype
 *   [ANDTHEN, n]  pop; if false push 0 and skip n instructions
 *   [ORELSE, n]   pop; if true push 1 and skip n instructions
 *   [BOOL]        replace the top by 0 or 1
 *   [JZ, n]       pop; if false skip n instructions
 *   [JMP, n]      skip n instructions
 *
 * Wire numbers: never reorder.  Limits: BP_CODE_MAX instructions,
 * BP_CODE_STACK numbers deep; the task refuses code beyond them (the
 * console then decides the condition itself).
 */
#ifndef PARAVT_BP_CODE_H
#define PARAVT_BP_CODE_H

enum bp_code_ins {
	BP_C_PUSH = 1,
	BP_C_LOAD = 2,
	BP_C_ADDR = 3,
	BP_C_BIN = 4,
	BP_C_UN = 5,
	BP_C_CAST = 6,
	BP_C_ANDTHEN = 7,
	BP_C_ORELSE = 8,
	BP_C_BOOL = 9,
	BP_C_JZ = 10,
	BP_C_JMP = 11
};

#define BP_CODE_MAX 256  /* instructions */
#define BP_CODE_STACK 32 /* numbers on the stack */

#endif
