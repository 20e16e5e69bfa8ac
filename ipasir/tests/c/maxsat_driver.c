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

int main(void) {
    void *solver = ipamir_init();
    int num_vars = 0;
    char op[4];
    printf("c %s\n", ipamir_signature());
    while (scanf("%3s", op) == 1) {
        int lit;
        unsigned long long weight;
        switch (op[0]) {
        case 'n':
            if (scanf("%d", &num_vars) != 1) return 2;
            break;
        case 'h':
            do {
                if (scanf("%d", &lit) != 1) return 2;
                ipamir_add_hard(solver, lit);
            } while (lit != 0);
            break;
        case 'w':
            if (scanf("%d %llu", &lit, &weight) != 2) return 2;
            ipamir_add_soft_lit(solver, lit, (uint64_t)weight);
            break;
        case 'u':
            if (scanf("%d", &lit) != 1) return 2;
            ipamir_assume(solver, lit);
            break;
        case 's': {
            int result = ipamir_solve(solver);
            printf("s %d\n", result);
            if (result == 30 || result == 10) {
                printf("o %llu\nv", (unsigned long long)ipamir_val_obj(solver));
                for (int v = 1; v <= num_vars; v++) printf(" %d", ipamir_val_lit(solver, v));
                printf("\n");
            }
            break;
        }
        default:
            return 2;
        }
    }
    ipamir_release(solver);
    return 0;
}
