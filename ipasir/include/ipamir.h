/*
 * ipamir.h -- the incremental MaxSAT interface IPAMIR (MaxSAT Evaluation, incremental track),
 * as implemented by grimoire (libgrim_ipasir) over its OLL optimiser. Link with -lgrim_ipasir.
 *
 * As in ipasir.h, each "Misuse" paragraph is grimoire's defined outcome of a misuse, and
 * grim_last_error() (grim_ipasir.h) says what was wrong.
 *
 * Semantics: hard clauses and soft literals accumulate; a soft literal lit of weight w costs w
 * when lit is true (a unit soft clause -lit); assumptions hold for the next solve only. An
 * optimal solution satisfies the hard clauses and the assumptions and minimises the summed
 * weight of the soft literals it sets true.
 *
 * States: INPUT -> ipamir_solve -> OPTIMAL (30) | SAT (10) | UNSAT (20) | INPUT (0) | ERROR (40).
 * The return codes are the ones the track's reference applications read: 20 is UNSAT, as in
 * IPASIR (two sentences of the original header's prose swap 10 and 20).
 */
#ifndef ipamir_h_INCLUDED
#define ipamir_h_INCLUDED

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's name and version, a static string. */
const char * ipamir_signature (void);

/* A new solver, in state INPUT. Never NULL. */
void * ipamir_init (void);

/* Frees the solver. Misuse: NULL, an IPASIR handle, or from inside a callback: nothing. */
void ipamir_release (void * solver);

/*
 * Adds lit_or_zero to the hard clause being built; 0 ends it. State after: INPUT.
 * Misuse: INT_MIN is refused; its clause is dropped and every later ipamir_solve answers 0.
 * In state ERROR: ignored.
 */
void ipamir_add_hard (void * solver, int32_t lit_or_zero);

/*
 * Declares lit soft with weight `weight` (setting lit true costs weight); declaring it again
 * changes its weight, and weight 0 makes it free. State after: INPUT.
 * Misuse: 0 or INT_MIN: ignored. In state ERROR: ignored.
 */
void ipamir_add_soft_lit (void * solver, int32_t lit, uint64_t weight);

/*
 * Assumes lit for the next ipamir_solve only (assuming -lit of a soft literal hardens it).
 * State after: INPUT.
 * Misuse: 0 or INT_MIN makes the next ipamir_solve answer 0. In state ERROR: ignored.
 */
void ipamir_assume (void * solver, int32_t lit);

/*
 * Optimises. Returns 30 (an optimal solution; OPTIMAL), 10 (a solution whose optimality was
 * not proven: the search was interrupted; SAT), 20 (no solution; UNSAT), 0 (interrupted
 * before any solution; INPUT), 40 (the soft weights overflow 64 bits or the instance needs
 * more variables than the engine holds; ERROR, after which only ipamir_release is accepted).
 * Misuse: NULL or an IPASIR handle: 40. An invalid assumption or a dropped clause (above), or
 * an unterminated hard clause (kept): 0.
 */
int ipamir_solve (void * solver);

/*
 * In state OPTIMAL or SAT: the summed weight of the soft literals the solution sets true.
 * Misuse: any other state: UINT64_MAX.
 */
uint64_t ipamir_val_obj (void * solver);

/*
 * In state OPTIMAL or SAT: lit if true in the solution, -lit if false, 0 if its variable was
 * never named. Misuse: any other state, 0 or INT_MIN: 0.
 */
int32_t ipamir_val_lit (void * solver, int32_t lit);

/*
 * Sets the terminate callback (NULL removes it): polled before the search, every 1000
 * conflicts and at every improved solution, on the thread running ipamir_solve; non-zero
 * stops the solve (10 with the best solution so far, or 0). Any state; unchanged.
 */
void ipamir_set_terminate (void * solver, void * state, int (*terminate)(void * state));

#ifdef __cplusplus
}
#endif

#endif
