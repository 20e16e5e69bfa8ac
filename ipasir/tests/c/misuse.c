/*
 * Every documented misuse of the C interfaces, with the outcome ipasir.h / ipamir.h /
 * grim_ipasir.h promise. Prints one line per failed expectation and exits 1 if any failed,
 * 0 otherwise. Meant to run under the Rust test (and, where available, under valgrind).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "grim_ipasir.h"

static int failures = 0;

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            printf("FAILED line %d: %s\n", __LINE__, #cond);                          \
            failures++;                                                               \
        }                                                                             \
    } while (0)

static int error_mentions(void *solver, const char *text) {
    const char *e = grim_last_error(solver);
    return e != NULL && strstr(e, text) != NULL;
}

/* A terminate callback that calls back into the solver it is stopping (refused) and stops. */
static void *reentrant_target;
static int reentrant_calls;
static int reenter(void *state) {
    (void)state;
    reentrant_calls++;
    ipasir_add(reentrant_target, 1);
    ipasir_add(reentrant_target, 0);
    ipasir_release(reentrant_target); /* must not free the solver under the running solve */
    return 1;
}

int main(void) {
    /* NULL handles: nothing happens, neutral answers. */
    ipasir_release(NULL);
    ipasir_add(NULL, 1);
    ipasir_assume(NULL, 1);
    EXPECT(ipasir_solve(NULL) == 0);
    EXPECT(ipasir_val(NULL, 1) == 0);
    EXPECT(ipasir_failed(NULL, 1) == 0);
    ipasir_set_terminate(NULL, NULL, NULL);
    ipasir_set_learn(NULL, NULL, 1, NULL);
    EXPECT(grim_last_error(NULL) == NULL);
    grim_clear_error(NULL);
    grim_terminate(NULL);
    grim_set_conflict_limit(NULL, 5);
    grim_set_phase(NULL, 1);
    EXPECT(grim_fixed(NULL, 1) == 0);
    EXPECT(grim_set_option(NULL, "seed", "1") == 0);
    ipamir_release(NULL);
    ipamir_add_hard(NULL, 1);
    ipamir_add_soft_lit(NULL, 1, 1);
    ipamir_assume(NULL, 1);
    EXPECT(ipamir_solve(NULL) == 40);
    EXPECT(ipamir_val_obj(NULL) == UINT64_MAX);
    EXPECT(ipamir_val_lit(NULL, 1) == 0);
    EXPECT(strncmp(ipasir_signature(), "grimoire ", 9) == 0);
    EXPECT(strcmp(ipasir_signature(), ipamir_signature()) == 0);

    /* Reading answers in the wrong state. */
    void *s = ipasir_init();
    EXPECT(ipasir_val(s, 1) == 0);
    EXPECT(error_mentions(s, "needs state SAT") && error_mentions(s, "INPUT"));
    grim_clear_error(s);
    EXPECT(grim_last_error(s) == NULL);
    ipasir_add(s, 1);
    ipasir_add(s, 0);
    EXPECT(ipasir_solve(s) == 10);
    EXPECT(ipasir_val(s, 1) == 1);
    EXPECT(ipasir_val(s, 7) == 0); /* a variable in no clause */
    EXPECT(ipasir_failed(s, 1) == 0);
    EXPECT(error_mentions(s, "needs state UNSAT") && error_mentions(s, "SAT"));
    EXPECT(ipasir_val(s, 0) == 0);
    EXPECT(error_mentions(s, "not a literal"));
    EXPECT(ipasir_val(s, INT_MIN) == 0);
    ipasir_add(s, 2); /* back to INPUT: the model is gone */
    EXPECT(ipasir_val(s, 1) == 0);
    ipasir_add(s, 3);
    ipasir_add(s, 0); /* (2 v 3) */

    /* An unterminated clause: solve answers 0 and keeps it; ending it makes solve work. */
    ipasir_add(s, -1);
    EXPECT(ipasir_solve(s) == 0);
    EXPECT(error_mentions(s, "still open"));
    ipasir_add(s, -2);
    ipasir_add(s, 0); /* (-1 v -2) */
    EXPECT(ipasir_solve(s) == 10);
    EXPECT(ipasir_val(s, 1) == 1 && ipasir_val(s, 2) == 2 ? 0 : 1); /* not both true */

    /* An invalid assumption: the next solve answers 0, the one after works again. */
    ipasir_assume(s, 0);
    EXPECT(ipasir_solve(s) == 0);
    EXPECT(error_mentions(s, "invalid assumption"));
    EXPECT(ipasir_solve(s) == 10);

    /* UNSAT under an assumption; failed answers for assumptions and non-assumptions. */
    ipasir_assume(s, -1);
    ipasir_assume(s, 3);
    EXPECT(ipasir_solve(s) == 20);
    EXPECT(ipasir_failed(s, -1) == 1);
    EXPECT(ipasir_failed(s, 3) == 0);
    EXPECT(ipasir_failed(s, 5) == 0);
    EXPECT(grim_fixed(s, 1) == 1); /* the unit clause */

    /* Options by name. */
    EXPECT(grim_set_option(s, "seed", "3") == 1);
    EXPECT(grim_set_option(s, "no_such_option", "3") == 0);
    EXPECT(error_mentions(s, "no_such_option"));
    EXPECT(grim_set_option(s, "seed", NULL) == 0);

    /* A handle of the other interface is refused like NULL. */
    void *m = ipamir_init();
    ipasir_add(m, 1);
    ipasir_add(m, 0);
    EXPECT(ipasir_solve(m) == 0);
    ipasir_release(m); /* refused: m is still usable below */
    ipamir_add_hard(s, 1);
    EXPECT(ipamir_solve(s) == 40);
    ipamir_release(s); /* refused: s is still usable below */
    EXPECT(ipasir_solve(s) == 10);

    /* INT_MIN in a clause: the clause is dropped and every later solve answers 0. */
    void *lost = ipasir_init();
    ipasir_add(lost, 1);
    ipasir_add(lost, INT_MIN);
    ipasir_add(lost, 0);
    EXPECT(error_mentions(lost, "dropped"));
    EXPECT(ipasir_solve(lost) == 0);
    ipasir_add(lost, 2);
    ipasir_add(lost, 0);
    EXPECT(ipasir_solve(lost) == 0);
    ipasir_release(lost);

    /* Calls from inside a callback on the same handle are refused (no aliasing, no free). */
    void *r = ipasir_init();
    reentrant_target = r;
    for (int i = 1; i <= 8; i++) { ipasir_add(r, i); ipasir_add(r, -(i % 8 + 1)); ipasir_add(r, 0); }
    ipasir_set_terminate(r, NULL, reenter);
    EXPECT(ipasir_solve(r) == 0);
    EXPECT(reentrant_calls == 1);
    EXPECT(error_mentions(r, "refused because another call"));
    ipasir_set_terminate(r, NULL, NULL);
    EXPECT(ipasir_solve(r) == 10);
    ipasir_release(r);

    /* IPAMIR misuse. */
    EXPECT(ipamir_val_obj(m) == UINT64_MAX);
    EXPECT(error_mentions(m, "needs state OPTIMAL or SAT"));
    ipamir_add_soft_lit(m, 0, 3);
    EXPECT(error_mentions(m, "not a literal"));
    ipamir_add_hard(m, 1);
    ipamir_add_hard(m, 2);
    ipamir_add_hard(m, 0);
    ipamir_add_soft_lit(m, 1, 3);
    ipamir_add_soft_lit(m, 2, 5);
    EXPECT(ipamir_solve(m) == 30);
    EXPECT(ipamir_val_obj(m) == 3);
    EXPECT(ipamir_val_lit(m, 1) == 1 && ipamir_val_lit(m, 2) == -2);
    EXPECT(ipamir_val_lit(m, 9) == 0);
    ipamir_add_soft_lit(m, 1, 9); /* new weight: now x2 is cheaper */
    EXPECT(ipamir_val_obj(m) == UINT64_MAX); /* INPUT again */
    EXPECT(ipamir_solve(m) == 30);
    EXPECT(ipamir_val_obj(m) == 5);
    ipamir_assume(m, -2);
    EXPECT(ipamir_solve(m) == 30);
    EXPECT(ipamir_val_obj(m) == 9);
    ipamir_assume(m, -1);
    ipamir_assume(m, -2);
    EXPECT(ipamir_solve(m) == 20);
    /* Weights that overflow 64 bits: 40 and state ERROR, then only release. */
    ipamir_add_soft_lit(m, 3, UINT64_MAX);
    ipamir_add_soft_lit(m, 4, UINT64_MAX);
    EXPECT(ipamir_solve(m) == 40);
    EXPECT(error_mentions(m, "overflow"));
    ipamir_add_hard(m, 5);
    EXPECT(error_mentions(m, "state ERROR"));
    EXPECT(ipamir_solve(m) == 40);
    ipamir_release(m);

    ipasir_release(s);
    if (failures) printf("%d expectation(s) failed\n", failures);
    else printf("all expectations held\n");
    return failures ? 1 : 0;
}
