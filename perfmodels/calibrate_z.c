/**
 * @file calibrate_z.c
 * @brief tila-calibrate's workload in one precision: every codelet on one tile size.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

/* The PANEL (CHOLQR) scheme's QR of one column of m x nb: one GEQRT_COL (CHOLQR_COL) of
 * that height. */
static int panel_column(int m, int nb, int ib, tila_qr_tree_t tree, unsigned long long seed)
{
    tila_desc_t *A, *T = NULL;
    int rc = tila_desc_create(&A, TILA_COMPLEX64, m, nb, nb, nb, NULL);
    if (rc) return rc;
    rc = tila_zplrnt(A, seed);
    rc |= tila_desc_create_qr_t(&T, A, ib, tree);
    rc |= rc ? 0 : tila_zgeqrf(A, T);
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
    return rc;
}

/* A Cholesky factorization of an n x n matrix with its panels solved by the diagonal
 * tile's inverse (TRTRI, TRSM_INV; every panel: inv:inf), as on GPUs. */
static int potrf_by_inverse(int n, int nb, unsigned long long seed)
{
    tila_desc_t *A;
    int rc = tila_desc_create(&A, TILA_COMPLEX64, n, n, nb, nb, NULL);
    if (rc) return rc;
    const char *v = getenv("TILA_POTRF_TRSM");
    char *old = v ? strdup(v) : NULL;
    setenv("TILA_POTRF_TRSM", "inv:inf", 1);
    rc = tila_zplghe((double)n, A, seed);
    rc |= rc ? 0 : tila_zpotrf(TILA_LOWER, A);
    if (old)
        setenv("TILA_POTRF_TRSM", old, 1);
    else
        unsetenv("TILA_POTRF_TRSM");
    free(old);
    tila_desc_destroy(&A);
    return rc;
}

/*
 * An n = 4 nb matrix (square tiles, no edge tile, so every task has the calibrated
 * size): generators, copies, a product, a product with no inner dimension (LASCAL),
 * norms, a positive definite solve (POTRF, TRSM, HERK/SYRK, GEMM) and a factorization
 * with its panels by the inverse (TRTRI, TRSM_INV), a QR factorization
 * with the flat tree and Q^H applied (GEQRT, TSQRT, UNMQR, TSMQR), one of a tall
 * matrix with the binary tree (TTQRT, TTMQR), and one with the PANEL scheme (GEQRT_COL,
 * TRMM) whose T is then rebuilt from scalar factors (LARFT_COL).  Its columns are 1 to 4
 * tiles tall; single columns of 5 to panel_tiles tiles time the taller GEQRT_COL.  Each
 * height is timed in one setting only: a height timed both in this matrix and alone
 * measured two populations apart by more than StarPU's 50 %, and StarPU kept flushing it.
 */
int tila_calibrate_zworkload(int nb, int panel_tiles, unsigned long long seed)
{
    int n = 4 * nb, ib = tila_calibrate_ib(nb), rc;
    double norm;
    tila_desc_t *A, *B, *C, *E, *F, *G, *T, *TG, *TP;
    tila_desc_create(&A, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_desc_create(&B, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_desc_create(&C, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_desc_create(&E, TILA_COMPLEX64, n, 0, nb, nb, NULL);
    tila_desc_create(&F, TILA_COMPLEX64, 0, n, nb, nb, NULL);
    rc = tila_zplghe((double)n, A, seed);
    rc |= tila_zplrnt(B, seed + 1);
    rc |= tila_zlaset(TILA_GENERAL, 0, 0, C);
    rc |= tila_zlacpy(TILA_GENERAL, B, C);
    rc |= tila_zgeadd(0.5, B, 2.0, C);
    rc |= tila_zgemm(TILA_NOTRANS, TILA_NOTRANS, 1, B, B, 1, C);
    rc |= tila_zgemm(TILA_NOTRANS, TILA_NOTRANS, 1, E, F, 0.5, C);
    rc |= tila_zlange(TILA_NORM_ONE, B, &norm);
    rc |= tila_zlange(TILA_NORM_FRO, B, &norm);
    rc |= tila_zlantr(TILA_NORM_MAX, TILA_LOWER, TILA_NONUNIT, B, &norm);
    rc |= tila_zlansy(TILA_NORM_INF, TILA_LOWER, A, &norm);
    rc |= tila_zposv(TILA_LOWER, A, B);
    rc |= potrf_by_inverse(n, nb, seed + 4);
    tila_desc_create(&G, TILA_COMPLEX64, 4 * n, 2 * nb, nb, nb, NULL);
    rc |= tila_zplrnt(G, seed + 2);
    rc |= tila_desc_create_qr_t(&T, C, ib, TILA_QR_TREE_FLAT);
    rc |= tila_desc_create_qr_t(&TG, G, ib, TILA_QR_TREE_BINARY);
    rc |= tila_zgeqrf(C, T);
    rc |= tila_zunmqr(TILA_LEFT, TILA_CONJTRANS, C, T, B);
    rc |= tila_zgeqrf(G, TG);
    rc |= tila_desc_create_qr_t(&TP, B, ib, TILA_QR_TREE_PANEL);
    rc |= tila_zgeqrf(B, TP);
    tila_complex64_t *tau = malloc(sizeof *tau * (size_t)n);
    for (int j = 0; tau && j < n; j++)
        tau[j] = 1.5; /* not 0: ?larft skips the reflectors whose tau is 0 */
    rc |= tau ? tila_zlarft(B, tau, TP) : TILA_ERR_NOMEM;
    free(tau);
    for (int h = 5; h <= panel_tiles && !rc; h++) {
        rc = panel_column(h * nb, nb, ib, TILA_QR_TREE_PANEL, seed + 3);
        rc |= rc ? 0 : panel_column(h * nb, nb, ib, TILA_QR_TREE_CHOLQR, seed + 3);
    }
    tila_desc_destroy(&TP);
    tila_desc_destroy(&T);
    tila_desc_destroy(&TG);
    tila_desc_destroy(&G);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&C);
    tila_desc_destroy(&E);
    tila_desc_destroy(&F);
    return rc;
}
