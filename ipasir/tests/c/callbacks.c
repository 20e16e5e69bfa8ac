/*
 * The callbacks: terminate stops a hard solve after a given number of polls (answer 0) and a
 * later solve without it finishes (answer 20); learn receives zero-terminated unit clauses
 * that the formula implies; grim_terminate before a solve stops that solve only; IPAMIR's
 * terminate stops an optimisation. Prints results as "key value" lines for the Rust test.
 */
#include <stdio.h>

#include "grim_ipasir.h"

static int polls;
static int stop_after;
static int stop_at_poll(void *state) {
    (void)state;
    return ++polls > stop_after;
}

static int learned_units;
static int learned_bad;
static void on_learn(void *state, int *clause) {
    int *count = state;
    if (clause[0] == 0 || clause[1] != 0) learned_bad++;
    else {
        (*count)++;
        printf("learned %d\n", clause[0]);
    }
}

/* The pigeonhole formula PHP(n+1, n): UNSAT and hard enough to need many conflicts. */
static void pigeonhole(void *s, int n, void (*add)(void *, int)) {
    int pigeons = n + 1;
    for (int p = 0; p < pigeons; p++) {
        for (int h = 0; h < n; h++) add(s, p * n + h + 1);
        add(s, 0);
    }
    for (int h = 0; h < n; h++)
        for (int p = 0; p < pigeons; p++)
            for (int q = p + 1; q < pigeons; q++) {
                add(s, -(p * n + h + 1));
                add(s, -(q * n + h + 1));
                add(s, 0);
            }
}

static void add_hard(void *s, int lit) { ipamir_add_hard(s, lit); }

int main(void) {
    void *s = ipasir_init();
    pigeonhole(s, 7, ipasir_add);
    stop_after = 50;
    ipasir_set_terminate(s, NULL, stop_at_poll);
    printf("stopped %d\n", ipasir_solve(s));
    printf("polls %d\n", polls);
    ipasir_set_terminate(s, NULL, NULL);
    grim_terminate(s);
    printf("grim_terminate %d\n", ipasir_solve(s));
    printf("after %d\n", ipasir_solve(s));
    ipasir_release(s);

    /* Learned units: ten gadgets (-a v b) and (-a v -b), each implying -a, and the caller's own
     * unit 99. With elimination off and phase a for each a, deciding a conflicts at once and
     * the engine learns the unit -a (deciding b first would propagate -a instead: the count
     * is at least one, not exactly ten). */
    void *t = ipasir_init();
    grim_set_option(t, "eliminate", "0");
    ipasir_set_learn(t, &learned_units, 1, on_learn);
    for (int g = 0; g < 10; g++) {
        int a = 2 * g + 1, b = 2 * g + 2;
        grim_set_phase(t, a);
        ipasir_add(t, -a); ipasir_add(t, b); ipasir_add(t, 0);
        ipasir_add(t, -a); ipasir_add(t, -b); ipasir_add(t, 0);
    }
    ipasir_add(t, 99);
    ipasir_add(t, 0); /* the caller's own unit: not reported */
    printf("solve %d\n", ipasir_solve(t));
    printf("units %d bad %d\n", learned_units, learned_bad);
    printf("solve %d\n", ipasir_solve(t));
    printf("units %d\n", learned_units); /* each once */
    ipasir_release(t);

    /* IPAMIR: stop an optimisation at once, then let it finish. */
    void *m = ipamir_init();
    pigeonhole(m, 7, add_hard);
    ipamir_add_hard(m, 1000);
    ipamir_add_hard(m, 0);
    polls = 0;
    stop_after = 0;
    ipamir_set_terminate(m, NULL, stop_at_poll);
    printf("maxsat stopped %d\n", ipamir_solve(m));
    ipamir_set_terminate(m, NULL, NULL);
    printf("maxsat after %d\n", ipamir_solve(m));
    ipamir_release(m);
    return 0;
}
