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

#define MAX_ASSUMPTIONS 1024

int main(void) {
    void *solver = ipasir_init();
    int assumptions[MAX_ASSUMPTIONS];
    int num_assumptions = 0;
    int num_vars = 0;
    char op[4];
    printf("c %s\n", ipasir_signature());
    while (scanf("%3s", op) == 1) {
        int lit;
        long long limit;
        switch (op[0]) {
        case 'n':
            if (scanf("%d", &num_vars) != 1) return 2;
            break;
        case 'a':
            do {
                if (scanf("%d", &lit) != 1) return 2;
                ipasir_add(solver, lit);
            } while (lit != 0);
            break;
        case 'u':
            if (scanf("%d", &lit) != 1 || num_assumptions == MAX_ASSUMPTIONS) return 2;
            assumptions[num_assumptions++] = lit;
            ipasir_assume(solver, lit);
            break;
        case 'p':
            if (scanf("%d", &lit) != 1) return 2;
            grim_set_phase(solver, lit);
            break;
        case 'l':
            if (scanf("%lld", &limit) != 1) return 2;
            grim_set_conflict_limit(solver, (int64_t)limit);
            break;
        case 's': {
            int result = ipasir_solve(solver);
            printf("s %d\n", result);
            if (result == 10) {
                printf("v");
                for (int v = 1; v <= num_vars; v++) printf(" %d", ipasir_val(solver, v));
                printf("\n");
            } else if (result == 20) {
                printf("f");
                for (int i = 0; i < num_assumptions; i++)
                    printf(" %d", ipasir_failed(solver, assumptions[i]));
                printf("\n");
            }
            num_assumptions = 0;
            break;
        }
        default:
            return 2;
        }
    }
    ipasir_release(solver);
    return 0;
}
