/*
 * Runs a script of IPASIR calls read from standard input and prints every answer, so that the
 * Rust test can replay the same calls on grim_solver::Solver and compare.
 *
 *   n N            the variables the answers cover (1..N)
 *   a L1 ... 0     ipasir_add of each literal, the 0 included
 *   u L            ipasir_assume(L)
 *   p L            grim_set_phase(L)
 *   l C            grim_set_conflict_limit(C)
 *   s              ipasir_solve; prints "s R", then for R = 10 "v" and ipasir_val(v) for v in
 *                  1..N, for R = 20 "f" and ipasir_failed(L) for each assumption of that solve
 *
 * Exits 0, or 2 on a malformed script.
 */
#include <stdio.h>
#include <stdlib.h>

#include "grim_ipasir.h"
#include "driver_common.h"

#define MAX_ASSUMPTIONS 1024

/* The assumptions of the solve to come, for the "f" line after it. */
static int assumptions[MAX_ASSUMPTIONS];
static int num_assumptions = 0;

static int step(void *solver, char op, int num_vars) {
    int lit;
    long long limit;
    switch (op) {
    case 'a':
        return read_clause(solver, ipasir_add);
    case 'u':
        if (scanf("%d", &lit) != 1 || num_assumptions == MAX_ASSUMPTIONS) return 2;
        assumptions[num_assumptions++] = lit;
        ipasir_assume(solver, lit);
        return 0;
    case 'p':
        if (scanf("%d", &lit) != 1) return 2;
        grim_set_phase(solver, lit);
        return 0;
    case 'l':
        if (scanf("%lld", &limit) != 1) return 2;
        grim_set_conflict_limit(solver, (int64_t)limit);
        return 0;
    case 's': {
        int result = ipasir_solve(solver);
        printf("s %d\n", result);
        if (result == 10) {
            print_values(solver, ipasir_val, num_vars);
        } else if (result == 20) {
            printf("f");
            for (int i = 0; i < num_assumptions; i++)
                printf(" %d", ipasir_failed(solver, assumptions[i]));
            printf("\n");
        }
        num_assumptions = 0;
        return 0;
    }
    default:
        return 2;
    }
}

int main(void) {
    return run_driver(ipasir_init, ipasir_signature, ipasir_release, step);
}
