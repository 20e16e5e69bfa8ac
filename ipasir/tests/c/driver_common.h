/*
 * The script loop the two drivers (sat_driver.c, maxsat_driver.c) share: a script is a
 * sequence of ops, each a letter followed by its numbers, read from standard input. `n N`
 * (the variables the answers cover, 1..N) is read here; every other op goes to the driver's
 * step function. Included by both drivers from this directory (`#include "..."` looks next to
 * the including file first, so the compile in c_abi.rs needs no extra -I).
 */
#ifndef GRIM_DRIVER_COMMON_H
#define GRIM_DRIVER_COMMON_H

#include <stdio.h>

/* Reads the numbers of `op`, makes its calls and prints its answers; returns 0, or 2 on a
 * malformed op. `num_vars` is the last `n` (0 before any). */
typedef int (*driver_step)(void *solver, char op, int num_vars);

/* Reads literals up to and including the terminating 0 and passes each to `add`; returns 0,
 * or 2 if the script ends or holds a non-number first. */
static int read_clause(void *solver, void (*add)(void *, int)) {
    int lit;
    do {
        if (scanf("%d", &lit) != 1) return 2;
        add(solver, lit);
    } while (lit != 0);
    return 0;
}

/* Prints "v" and `val` of each variable 1..num_vars on one line. */
static void print_values(void *solver, int (*val)(void *, int), int num_vars) {
    printf("v");
    for (int v = 1; v <= num_vars; v++) printf(" %d", val(solver, v));
    printf("\n");
}

/* Creates a solver with `init`, prints "c" and its `signature`, runs the script on standard
 * input through `step`, and releases the solver; returns the exit code: 0, or 2 on a
 * malformed script (the solver is then left unreleased, as the process ends). */
static int run_driver(void *(*init)(void), const char *(*signature)(void),
                      void (*release)(void *), driver_step step) {
    void *solver = init();
    int num_vars = 0;
    char op[4];
    printf("c %s\n", signature());
    while (scanf("%3s", op) == 1) {
        if (op[0] == 'n') {
            if (scanf("%d", &num_vars) != 1) return 2;
        } else if (step(solver, op[0], num_vars) != 0) {
            return 2;
        }
    }
    release(solver);
    return 0;
}

#endif
