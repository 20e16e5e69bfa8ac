/*
 * ipasir.h -- the incremental SAT interface IPASIR, with the prototypes of the SAT Race 2015
 * header, as implemented by grimoire (libgrim_ipasir). Link with -lgrim_ipasir.
 *
 * grimoire's additions to the standard text are the "Misuse" paragraphs: every misuse below
 * has a defined outcome (the call does nothing, or answers 0), and grim_last_error() (in
 * grim_ipasir.h) says what was wrong. The only contract that cannot be checked is that a
 * non-null solver pointer came from ipasir_init() and was not released.
 *
 * Literals are non-zero ints as in DIMACS: v or -v for variable v >= 1. Variables exist as
 * soon as a literal names them. INT_MIN is not a literal (its negation overflows).
 *
 * States: INPUT -> ipasir_solve -> SAT (10) | UNSAT (20) | INPUT (0); ipasir_add and
 * ipasir_assume return the solver to INPUT.
 */
#ifndef ipasir_h_INCLUDED
#define ipasir_h_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

/* The library's name and version ("grimoire X.Y.Z"), a static string. */
const char * ipasir_signature (void);

/* A new solver, in state INPUT. Never NULL (an allocation failure aborts). */
void * ipasir_init (void);

/*
 * Frees the solver; the pointer is dangling afterwards.
 * Misuse: NULL, an IPAMIR handle, or a call from inside a callback of a running
 * ipasir_solve: nothing happens.
 */
void ipasir_release (void * solver);

/*
 * Adds lit_or_zero to the clause being built; 0 ends the clause. Clauses cannot be removed
 * (use an activation literal and assumptions). State after: INPUT.
 * Misuse: INT_MIN is refused; the clause it was part of is dropped at its 0, and because the
 * formula is then not the one the caller added, every later ipasir_solve answers 0.
 */
void ipasir_add (void * solver, int lit_or_zero);

/*
 * Assumes lit for the next ipasir_solve only. State after: INPUT.
 * Misuse: 0 or INT_MIN makes the next ipasir_solve answer 0 without searching (then the bad
 * assumption is forgotten).
 */
void ipasir_assume (void * solver, int lit);

/*
 * Solves the clauses under the assumptions, then clears the assumptions.
 * Returns 10 (SAT), 20 (UNSAT) or 0 (interrupted: the terminate callback, grim_terminate,
 * a grim_set_*_limit; or a malformed question, see Misuse). State after: SAT, UNSAT, INPUT.
 * Misuse: NULL or an IPAMIR handle: 0. An unterminated clause (ipasir_add without its 0):
 * answers 0 and keeps the clause, which a later ipasir_add(solver, 0) can still end.
 */
int ipasir_solve (void * solver);

/*
 * In state SAT: lit if lit is true in the model, -lit if false, 0 if its variable occurs in
 * no clause (either value satisfies).
 * Misuse: any other state, 0 or INT_MIN: returns 0.
 */
int ipasir_val (void * solver, int lit);

/*
 * In state UNSAT: 1 if assumption lit is in the failed set (a subset of the assumptions that
 * is unsatisfiable with the clauses), 0 otherwise. Not an assumption: 0.
 * Misuse: any other state, 0 or INT_MIN: returns 0.
 */
int ipasir_failed (void * solver, int lit);

/*
 * Sets the terminate callback (NULL removes it): called with `state` before each search and
 * at every conflict, on the thread running ipasir_solve; a non-zero return stops the solve,
 * which answers 0. Any state; the state is unchanged.
 * Misuse: a call from inside the callback itself is refused (see grim_last_error).
 */
void ipasir_set_terminate (void * solver, void * state, int (*terminate)(void * state));

/*
 * Sets the learn callback (NULL removes it) for learned clauses of at most max_length
 * literals, each passed as a zero-terminated array valid during the call.
 * grimoire exports learned units (after each solve, each once; the caller's own unit clauses
 * excluded). Longer learned clauses are not exported: the engine has no hook for them yet.
 */
void ipasir_set_learn (void * solver, void * state, int max_length, void (*learn)(void * state, int * clause));

#ifdef __cplusplus
}
#endif

#endif
