/*
 * Runs a script of IPAMIR calls from standard input and prints every answer (the Rust test
 * checks them against Oll and an independent cost computation).
 *
 *   n N            the variables the answers cover (1..N)
 *   h L1 ... 0     ipamir_add_hard of each literal, the 0 included
 *   w L W          ipamir_add_soft_lit(L, W)
 *   u L            ipamir_assume(L)
 *   s              ipamir_solve; prints "s R", then for R = 30 or 10 "o COST" and
 *                  "v" with ipamir_val_lit(v) for v in 1..N
 */
#include <stdio.h>

#include "grim_ipasir.h"
#include "driver_common.h"

static int step(void *solver, char op, int num_vars) {
    int lit;
    unsigned long long weight;
    switch (op) {
    case 'h':
        return read_clause(solver, ipamir_add_hard);
    case 'w':
        if (scanf("%d %llu", &lit, &weight) != 2) return 2;
        ipamir_add_soft_lit(solver, lit, (uint64_t)weight);
        return 0;
    case 'u':
        if (scanf("%d", &lit) != 1) return 2;
        ipamir_assume(solver, lit);
        return 0;
    case 's': {
        int result = ipamir_solve(solver);
        printf("s %d\n", result);
        if (result == 30 || result == 10) {
            printf("o %llu\n", (unsigned long long)ipamir_val_obj(solver));
            print_values(solver, ipamir_val_lit, num_vars);
        }
        return 0;
    }
    default:
        return 2;
    }
}

int main(void) {
    return run_driver(ipamir_init, ipamir_signature, ipamir_release, step);
}
