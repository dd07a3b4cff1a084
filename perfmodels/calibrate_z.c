/**
 * @file calibrate_z.c
 * @brief tila-calibrate's workload in one precision: every codelet on one tile size.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "calibrate.h"

/*
 * An n = 4 nb matrix (square tiles, no edge tile, so every task has the calibrated
 * size): generators, copies, a product, a product with no inner dimension (LASCAL),
 * and a positive definite solve (POTRF, TRSM, HERK/SYRK, GEMM).
 */
int tila_calibrate_zworkload(int nb, unsigned long long seed)
{
    int n = 4 * nb, rc;
    tila_desc_t *A, *B, *C, *E, *F;
    tila_desc_create(&A, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_desc_create(&B, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_desc_create(&C, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_desc_create(&E, TILA_COMPLEX64, n, 0, nb, nb, NULL);
    tila_desc_create(&F, TILA_COMPLEX64, 0, n, nb, nb, NULL);
    rc = tila_zplghe((double)n, A, seed);
    rc |= tila_zplrnt(B, seed + 1);
    rc |= tila_zlaset(TILA_GENERAL, 0, 0, C);
    rc |= tila_zlacpy(TILA_GENERAL, B, C);
    rc |= tila_zgemm(TILA_NOTRANS, TILA_NOTRANS, 1, B, B, 1, C);
    rc |= tila_zgemm(TILA_NOTRANS, TILA_NOTRANS, 1, E, F, 0.5, C);
    rc |= tila_zposv(TILA_LOWER, A, B);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&C);
    tila_desc_destroy(&E);
    tila_desc_destroy(&F);
    return rc;
}
