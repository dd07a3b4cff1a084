/**
 * @file core_ztrsm.c
 * @brief Tile kernel: triangular solve with several right-hand sides (CBLAS).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/* Below this order the triangle is solved by BLAS's own TRSM. */
#define TRSM_RECURSION_CUTOFF 64

/*
 * Recursive TRSM (as in ReLAPACK): split the triangle of order k in two, solve with one
 * diagonal block, update the other part of B with one GEMM, solve with the other block.
 * Most flops then run in GEMM, at GEMM's speed, about twice OpenBLAS's single-threaded
 * TRSM's on 320..768 tiles (bench/LOG.md).  The same operations as a blocked TRSM, so the
 * same backward stability.
 */
static void ztrsm_rec(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                      int m, int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                      tila_complex64_t *B, int ldb)
{
    int k = side == TILA_LEFT ? m : n;
    if (k <= TRSM_RECURSION_CUTOFF) {
        cblas_ztrsm(CblasColMajor, (enum CBLAS_SIDE)side, (enum CBLAS_UPLO)uplo,
                    tila_cblas_trans(trans), (enum CBLAS_DIAG)diag, m, n, CBLAS_SADDR(alpha), A,
                    lda, B, ldb);
        return;
    }
    int k1 = (k / 2 + 7) / 8 * 8, k2 = k - k1;
    const tila_complex64_t *A11 = A, *A22 = A + k1 + (size_t)k1 * lda;
    /* The stored off-diagonal block: A21 (lower) or A12 (upper).  op(A) is lower
     * triangular when uplo is lower and A is not transposed, or upper and transposed;
     * then op(off) is op(A)'s block 21, otherwise its block 12. */
    const tila_complex64_t *off = uplo == TILA_LOWER ? A + k1 : A + (size_t)k1 * lda;
    int op_lower = (uplo == TILA_LOWER) == (trans == TILA_NOTRANS);
    tila_complex64_t one = 1.0, mone = -1.0;
    /* B = [B1; B2] (left) or [B1 B2] (right), B1 facing A11.  The half solved first is
     * the one whose unknowns do not depend on the other half. */
    int m1 = side == TILA_LEFT ? k1 : m, n1 = side == TILA_LEFT ? n : k1;
    int m2 = side == TILA_LEFT ? k2 : m, n2 = side == TILA_LEFT ? n : k2;
    tila_complex64_t *B1 = B;
    tila_complex64_t *B2 = side == TILA_LEFT ? B + k1 : B + (size_t)k1 * ldb;
    int first_is_1 = (side == TILA_LEFT) == op_lower;
    const tila_complex64_t *Af = first_is_1 ? A11 : A22, *As = first_is_1 ? A22 : A11;
    tila_complex64_t *Bf = first_is_1 ? B1 : B2, *Bs = first_is_1 ? B2 : B1;
    int mf = first_is_1 ? m1 : m2, nf = first_is_1 ? n1 : n2;
    int ms = first_is_1 ? m2 : m1, ns = first_is_1 ? n2 : n1;

    /* X_first = alpha op(A_f)^-1 B_first; B_second = alpha B_second - op(off) X_first
     * (left) or - X_first op(off) (right); X_second = op(A_s)^-1 B_second. */
    ztrsm_rec(side, uplo, trans, diag, mf, nf, alpha, Af, lda, Bf, ldb);
    if (side == TILA_LEFT)
        cblas_zgemm(CblasColMajor, tila_cblas_trans(trans), CblasNoTrans, ms, ns, mf,
                    CBLAS_SADDR(mone), off, lda, Bf, ldb, CBLAS_SADDR(alpha), Bs, ldb);
    else
        cblas_zgemm(CblasColMajor, CblasNoTrans, tila_cblas_trans(trans), ms, ns, nf,
                    CBLAS_SADDR(mone), Bf, ldb, off, lda, CBLAS_SADDR(alpha), Bs, ldb);
    ztrsm_rec(side, uplo, trans, diag, ms, ns, one, As, lda, Bs, ldb);
}

/**
 * B = alpha op(A)^-1 B (side TILA_LEFT) or alpha B op(A)^-1 (TILA_RIGHT), A triangular
 * (uplo, diag), B m x n.  @param lda >= max(1, m or n, the order of A); ldb >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_ztrsm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag, int m,
                    int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    tila_complex64_t *B, int ldb)
{
    int rc = tila_args_trxm(side, uplo, trans, diag, m, n, lda, ldb, 0);
    if (rc || m == 0 || n == 0) return rc;
    if (side == TILA_LEFT && n == 1 && alpha != 0.0) {
        /* One column: BLAS's solve of a vector, faster than the recursion (bench/LOG.md).
         * alpha = 0 stays below: B = 0 whatever A holds. */
        if (alpha != 1.0) cblas_zscal(m, CBLAS_SADDR(alpha), B, 1);
        cblas_ztrsv(CblasColMajor, (enum CBLAS_UPLO)uplo, tila_cblas_trans(trans),
                    (enum CBLAS_DIAG)diag, m, A, lda, B, 1);
        return 0;
    }
    ztrsm_rec(side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
    return 0;
}
