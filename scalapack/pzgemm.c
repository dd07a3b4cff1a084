/**
 * @file pzgemm.c
 * @brief PBLAS's pzgemm and pztrsm on Tila.
 *
 * Tila runs them on the operands in place, when every operand has the same square blocks
 * (of at least TILA_SCALAPACK_MIN_NB) in one context and starts equally far into its first
 * block row and block column (a first tile of its own size when that is not 0): the
 * dimensions the routine pairs are then tiled alike.  The operands may sit anywhere on the
 * grid (Tila moves the tiles a product needs).  Anything
 * else goes to PBLAS: its own redistribution of misaligned operands is what a copy would
 * do.  The smallest of the dimensions is held against TILA_SCALAPACK_MIN_N: a product
 * with a thin side costs its latency, not its flops.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "tila_scalapack.h"

#ifdef COMPLEX
enum { IS_COMPLEX = 1 };
#else
enum { IS_COMPLEX = 0 };
#endif

static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

/**
 * PZGEMM( TRANSA, TRANSB, M, N, K, ALPHA, A, IA, JA, DESCA, B, IB, JB, DESCB, BETA, C, IC,
 * JC, DESCC ), as PBLAS defines it: sub(C) = alpha op(sub(A)) op(sub(B)) + beta sub(C).
 */
TILA_SL_EXPORT void pzgemm_(const char *transa, const char *transb, const int *m, const int *n,
                            const int *k, const tila_complex64_t *alpha, const tila_complex64_t *a,
                            const int *ia, const int *ja, const int *desca,
                            const tila_complex64_t *b, const int *ib, const int *jb,
                            const int *descb, const tila_complex64_t *beta, tila_complex64_t *c,
                            const int *ic, const int *jc, const int *descc, size_t ta_len,
                            size_t tb_len)
{
    static tila_sl_routine_t routine = { .name = "PZGEMM", .symbol = "pzgemm_" };
    tila_trans_t ta, tb;
    int oka = tila_letter_trans(transa, &ta, IS_COMPLEX),
        okb = tila_letter_trans(transb, &tb, IS_COMPLEX);
    if (oka && okb && *m > 0 && *n > 0 && *k > 0) {
        tila_sl_mat_t A, B, C;
        tila_sl_pblas_mat(&A, a, *ia, *ja, desca, ta == TILA_NOTRANS ? *m : *k,
                          ta == TILA_NOTRANS ? *k : *m);
        tila_sl_pblas_mat(&B, b, *ib, *jb, descb, tb == TILA_NOTRANS ? *k : *n,
                          tb == TILA_NOTRANS ? *n : *k);
        tila_sl_pblas_mat(&C, c, *ic, *jc, descc, *m, *n);
        tila_sl_mat_t *mats[] = { &C, &A, &B };
        int ok = tila_sl_desc_ok(&A) && tila_sl_desc_ok(&B) && tila_sl_desc_ok(&C);
        tila_sl_call_t call;
        if (tila_sl_inplace_begin(&call, &routine, mats, 3, TILA_COMPLEX64, 1, min3(*m, *n, *k),
                                  ok)) {
            int rc = tila_zgemm(ta, tb, *alpha, A.A, B.A, *beta, C.A);
            if (tila_sl_inplace_end(&call, mats, 3, 1, TILA_COMPLEX64, rc) <= 0) return;
        }
    }
    typeof(pzgemm_) *real = tila_sl_real(&routine);
    real(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc,
         ta_len, tb_len);
}

/**
 * PZTRSM( SIDE, UPLO, TRANSA, DIAG, M, N, ALPHA, A, IA, JA, DESCA, B, IB, JB, DESCB ), as
 * PBLAS defines it: sub(B) = alpha op(sub(A))^-1 sub(B) (SIDE 'L') or alpha sub(B)
 * op(sub(A))^-1 ('R'), sub(A) triangular.
 */
TILA_SL_EXPORT void pztrsm_(const char *side, const char *uplo, const char *transa,
                            const char *diag, const int *m, const int *n,
                            const tila_complex64_t *alpha, const tila_complex64_t *a, const int *ia,
                            const int *ja, const int *desca, tila_complex64_t *b, const int *ib,
                            const int *jb, const int *descb, size_t side_len, size_t uplo_len,
                            size_t ta_len, size_t diag_len)
{
    static tila_sl_routine_t routine = { .name = "PZTRSM", .symbol = "pztrsm_" };
    tila_side_t tside;
    tila_uplo_t tuplo;
    tila_trans_t ta;
    tila_diag_t tdiag;
    int letters = tila_letter_side(side, &tside) && tila_letter_uplo(uplo, &tuplo) &&
                  tila_letter_trans(transa, &ta, IS_COMPLEX) && tila_letter_diag(diag, &tdiag);
    if (letters && *m > 0 && *n > 0) {
        int na = tside == TILA_LEFT ? *m : *n;
        tila_sl_mat_t A, B;
        tila_sl_pblas_mat(&A, a, *ia, *ja, desca, na, na);
        tila_sl_pblas_mat(&B, b, *ib, *jb, descb, *m, *n);
        tila_sl_mat_t *mats[] = { &B, &A };
        int ok = tila_sl_desc_ok(&A) && tila_sl_desc_ok(&B);
        tila_sl_call_t call;
        if (tila_sl_inplace_begin(&call, &routine, mats, 2, TILA_COMPLEX64, 1, *m < *n ? *m : *n,
                                  ok)) {
            int rc = tila_ztrsm(tside, tuplo, ta, tdiag, *alpha, A.A, B.A);
            if (tila_sl_inplace_end(&call, mats, 2, 1, TILA_COMPLEX64, rc) <= 0) return;
        }
    }
    typeof(pztrsm_) *real = tila_sl_real(&routine);
    real(side, uplo, transa, diag, m, n, alpha, a, ia, ja, desca, b, ib, jb, descb, side_len,
         uplo_len, ta_len, diag_len);
}
