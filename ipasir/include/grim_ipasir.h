/*
 * grim_ipasir.h -- grimoire's extras beside IPASIR and IPAMIR (libgrim_ipasir).
 * Includes both standard headers. Every function accepts NULL (and does nothing, or returns
 * 0 / NULL); those marked "either" accept a handle from ipasir_init or from ipamir_init.
 */
#ifndef grim_ipasir_h_INCLUDED
#define grim_ipasir_h_INCLUDED

#include <stdint.h>

#include "ipasir.h"
#include "ipamir.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Either. The most recent misuse of `solver` (a call refused or answered 0 because of its
 * arguments or the solver's state, or refused because another call on the handle was
 * running), or NULL if none since grim_clear_error. Valid until the next call on `solver`.
 */
const char * grim_last_error (void * solver);

/* Either. Forgets the recorded misuse. */
void grim_clear_error (void * solver);

/*
 * Either. Stops the running solve, or the next one if none runs; callable from another thread
 * or a signal handler (one atomic store). The stopped solve answers 0 (IPAMIR: 10 or 0).
 */
void grim_terminate (void * solver);

/*
 * Either. Limits every later solve to `limit` conflicts (IPAMIR: over all engine calls of one
 * ipamir_solve); negative removes the limit. Reaching it answers 0 (IPAMIR: 10 or 0).
 */
void grim_set_conflict_limit (void * solver, int64_t limit);

/* Either. As grim_set_conflict_limit, in propagated literals. */
void grim_set_propagation_limit (void * solver, int64_t limit);

/*
 * IPASIR. Prefers lit true on every decision of its variable (a phase; overrides saved and
 * target phases). Misuse: 0 or INT_MIN: ignored.
 */
void grim_set_phase (void * solver, int lit);

/* IPASIR. Removes the phase preference of lit's variable (the sign is ignored). */
void grim_clear_phase (void * solver, int lit);

/*
 * IPASIR. lit or -lit when the clauses alone fix lit's value (a level-0 fact found so far),
 * 0 otherwise. Any state.
 */
int grim_fixed (void * solver, int lit);

/*
 * IPASIR. Sets an engine option by name (grim-sat --help-options lists them, with ranges).
 * Returns 1 when set, 0 when refused (unknown name, bad value, NULL or non-UTF-8 string).
 */
int grim_set_option (void * solver, const char * name, const char * value);

#ifdef __cplusplus
}
#endif

#endif
