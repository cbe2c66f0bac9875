/*
 * td_node.h — the target side of typedesc (libpvttd.a, C99 + POSIX).
 *
 * Linked into instrumented user programs.  It serialises the evaluated type
 * table once per build, serialises any value from (type id, address) with
 * one generic walker, and serves value requests (td_request) that the
 * console built from a value path.  Every pointer taken from the program's
 * memory is probed for readability before it is followed (td_readable), so
 * a dangling or wild pointer is reported as unreadable, never a crash.
 *
 * Output goes through a msgpack_packer (its write callback decides where:
 * socket, file, buffer).  Functions return 0 or a negative TD_E* code and
 * never print.  Not thread-safe: the runtime calls it from a stopped task.
 */
#ifndef PARAVT_TD_NODE_H
#define PARAVT_TD_NODE_H

#include "td.h"
#include <msgpack.h>

/* Writes the whole table t as one msgpack array:
 * ["paravt-td", TD_FORMAT_VERSION, build, [type...]] with
 * type = [id, kind, quals, signed, name, size, align, base, count,
 *         [[name, type, offset, bit_width]...], [[name, value]...]].
 * 0 or TD_EWRITE. */
int td_table_pack(msgpack_packer *pk, const td_table *t);

/* Serialises the value of type id at addr (an address the caller knows to
 * be valid, e.g. a variable's) in the canonical form (td.h).  Pointers
 * inside are probed before being followed.  lim may be NULL (defaults).
 * 0, TD_ETYPE (bad table entry), TD_EDEPTH or TD_EWRITE. */
int td_pack_value(msgpack_packer *pk, const td_table *t, uint32_t id,
                  const void *addr, const td_limits *lim);

/* Serves a request: follows req's steps from its variable, checking every
 * index and probing every address (the request's own address too), then
 * serialises the value found (a slice as an array).  Memory found
 * unreadable on the way is packed as TD_EXT_UNREADABLE.  Nothing is packed
 * when an error is returned: TD_ETYPE, TD_ERANGE, TD_EARG, TD_EWRITE. */
int td_serve(msgpack_packer *pk, const td_table *t, const td_request *req,
             const td_limits *lim);

/* 1 if len bytes at addr can be read without a fault, else 0.  Probes one
 * byte per page by writing it into a private pipe (EFAULT, never SIGSEGV).
 * The pipe is opened on first use; td_probe_close releases it. */
int td_readable(const void *addr, size_t len);

/* 1 if len bytes at addr can be written without a fault (each page's
 * first byte is read and written back unchanged through the probe pipe),
 * else 0. */
int td_writable(void *addr, size_t len);

/* Finds the object req names (not a bit-field, not a slice) and checks
 * that it can be read: its type id and address.  0; TD_ETYPE, TD_ERANGE,
 * TD_EARG, TD_EUNREADABLE. */
int td_locate(const td_table *t, const td_request *req, uint32_t *type,
              void **addr);

/* td_locate for a request that starts at a variable of this process (a
 * breakpoint condition's): what lies inside the variable is not probed,
 * only memory reached through a pointer (the page cache is reset first,
 * so nothing checked before counts).  Same returns. */
int td_locate_own(const td_table *t, const td_request *req, uint32_t *type,
                  void **addr);

/* Reads an integer of n bytes (1, 2, 4, 8) at p, sign-extended if sgn,
 * into *v.  0, or TD_ETYPE for another size. */
int td_read_int(const void *p, uint64_t n, int sgn, uint64_t *v);

/* Stores value v (canonical form: an integer, a bool, a float64) into
 * the object req names: an integer, char, bool, enum, floating point or
 * pointer (to 0 only) object, not const, not a bit-field, converted to
 * its size, signedness and the node's byte order.  0; TD_ETYPE (not such
 * an object), TD_ERANGE (the value does not fit), TD_EARG (const, or a
 * pointer set to other than 0), TD_EUNREADABLE (memory on the way, or
 * the object, cannot be read or written). */
int td_store(const td_table *t, const td_request *req,
             const msgpack_object *v);

/* Forgets the pages td_readable found readable.  td_pack_value and
 * td_serve call it when they start; call it before a series of
 * td_readable calls of your own if memory may have changed since. */
void td_probe_begin(void);

/* Closes the probe pipe (reopened on demand). */
void td_probe_close(void);

/* Writes a request as [type, addr, [[op, arg]...]].  0 or TD_EWRITE. */
int td_request_pack(msgpack_packer *pk, const td_request *req);

/* Reads a request from a decoded msgpack object, checking every field.
 * 0 or TD_EMALFORMED. */
int td_request_unpack(const msgpack_object *o, td_request *req);

#endif
