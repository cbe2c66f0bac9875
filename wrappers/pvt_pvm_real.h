/*
 * pvt_pvm_real.h — how the PVM wrappers (para_vt_pvm.c) reach the real
 * PVM functions: PVM_REAL(pvm_send)(tid, tag).
 *
 * Built into libparavt_pvm.a (a program built through paravt, whose
 * calls the macros of paravt_pvm.h turn into para_vt_pvm_* calls), the
 * real function is just the function.  Built with PVT_PVM_PRELOAD into
 * libparavt_pvm.so, which defines the pvm_* names itself
 * (pvt_pvm_preload.c) so that a preloaded library traces a program built
 * elsewhere, the real function is the next definition of the name after
 * this library, found once with dlsym(RTLD_NEXT) and kept.  A name that
 * cannot be found ends the program with a message saying which: there
 * is nothing sensible to call instead.
 *
 * Internal to the runtime.  C99 + POSIX (dlsym).
 */
#ifndef PARAVT_PVT_PVM_REAL_H
#define PARAVT_PVT_PVM_REAL_H

/* What pvm3.h says pvm_recvf returns (sic: a function of a matching
 * function; the value is the previous matching function). */
typedef int (*pvt__pvm_recvf_ret)(int (*)(int, int, int));

#ifndef PVT_PVM_PRELOAD

#define PVM_REAL(f) f

#else

/* The real functions: X(return type, name, parameter types). */
#define PVT_PVM_REALS(X)                                                    \
	X(int, pvm_send, (int, int))                                       \
	X(int, pvm_psend, (int, int, void *, int, int))                    \
	X(int, pvm_recv, (int, int))                                       \
	X(int, pvm_nrecv, (int, int))                                      \
	X(int, pvm_trecv, (int, int, struct timeval *))                    \
	X(int, pvm_precv, (int, int, void *, int, int, int *, int *, int *)) \
	X(int, pvm_probe, (int, int))                                      \
	X(int, pvm_mcast, (int *, int, int))                               \
	X(int, pvm_bcast, (char *, int))                                   \
	X(int, pvm_joingroup, (char *))                                    \
	X(int, pvm_lvgroup, (char *))                                      \
	X(int, pvm_barrier, (char *, int))                                 \
	X(int, pvm_reduce, (void (*)(int *, void *, void *, int *, int *), \
	                    void *, int, int, int, char *, int))           \
	X(int, pvm_gather, (void *, void *, int, int, int, char *, int))   \
	X(int, pvm_scatter, (void *, void *, int, int, int, char *, int))  \
	X(int, pvm_mytid, (void))                                          \
	X(int, pvm_parent, (void))                                         \
	X(int, pvm_spawn, (char *, char **, int, char *, int, int *))      \
	X(int, pvm_exit, (void))                                           \
	X(int, pvm_kill, (int))                                            \
	X(int, pvm_sendsig, (int, int))                                    \
	X(int, pvm_addhosts, (char **, int, int *))                        \
	X(int, pvm_delhosts, (char **, int, int *))                        \
	X(int, pvm_initsend, (int))                                        \
	X(int, pvm_notify, (int, int, int, int *))                         \
	X(int, pvm_halt, (void))                                           \
	X(int, pvm_gettid, (char *, int))                                  \
	X(int, pvm_getinst, (char *, int))                                 \
	X(int, pvm_gsize, (char *))                                        \
	X(int, pvm_freezegroup, (char *, int))                             \
	X(int, pvm_putinfo, (char *, int, int))                            \
	X(int, pvm_recvinfo, (char *, int, int))                           \
	X(int, pvm_delinfo, (char *, int, int))                            \
	X(int, pvm_getmboxinfo, (char *, int *, struct pvmmboxinfo **))    \
	X(int, pvm_tasks, (int, int *, struct pvmtaskinfo **))             \
	X(int, pvm_config, (int *, int *, struct pvmhostinfo **))          \
	X(int, pvm_pstat, (int))                                           \
	X(int, pvm_mstat, (char *))                                        \
	X(int, pvm_hostsync, (int, struct timeval *, struct timeval *))    \
	X(int, pvm_siblings, (int **))                                     \
	X(pvt__pvm_recvf_ret, pvm_recvf, (para_vt_recvf_fn))                 \
	X(int, pvm_addmhf, (int, int, int, int (*)(int)))                  \
	X(int, pvm_delmhf, (int))                                          \
	X(int, pvm_bufinfo, (int, int *, int *, int *))                    \
	X(int, pvm_getsbuf, (void))                                        \
	X(int, pvm_getcontext, (void))

/* pvt__pvm_real_NAME(): the real function, looked up on first use
 * (pvt_pvm_preload.c). */
#define PVT_PVM_REAL_DECL_(ret, name, params)                               \
	ret (*pvt__pvm_real_##name(void)) params;
PVT_PVM_REALS(PVT_PVM_REAL_DECL_)
#undef PVT_PVM_REAL_DECL_

#define PVM_REAL(f) (pvt__pvm_real_##f())

#endif

#endif
