/**
 * @file cuda_ztrsm.c
 * @brief GPU tile kernel: triangular solve with several right-hand sides (cuBLAS).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** cuBLAS's trsm on `handle` (its stream); same arguments and checks as tila_core_ztrsm. */
int tila_cuda_ztrsm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                    tila_diag_t diag, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex *A,
                    int lda, cuDoubleComplex *B, int ldb)
{
    int rc = tila_args_trxm_sizes(side, m, n, lda, ldb, 1);
    if (rc || m == 0 || n == 0) return rc;
    TILA_CUDA_CHECK(cublasZtrsm(handle, tila_cublas_side(side), tila_cublas_fill(uplo),
                                tila_cublas_op(trans), tila_cublas_diag(diag), m, n, &alpha, A, lda,
                                B, ldb));
    return 0;
}

/**
 * The same solve as tila_cuda_ztrsm, with the triangle halved until it has at most `leaf`
 * rows (leaf < 1: no halving): each half solved by cuBLAS's trsm, the block that couples
 * them applied by one gemm, so that most of the flops run at gemm's rate (cuBLAS's trsm
 * runs a 2048-tile at a sixth of its gemm's rate; MAGMA builds its trsm the same way).
 * op(A) lower solves its first half first from the left, its second first from the right;
 * op(A) upper the other way round.  alpha scales the first half's solve and, through the
 * gemm's beta, the second half's right-hand side.
 */
int tila_cuda_ztrsm_rec(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo,
                        tila_trans_t trans, tila_diag_t diag, int m, int n, cuDoubleComplex alpha,
                        const cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb, int leaf)
{
    int rc = tila_args_trxm_sizes(side, m, n, lda, ldb, 1);
    if (rc || m == 0 || n == 0) return rc;
    int left = side == TILA_LEFT, k = left ? m : n;
    cuDoubleComplex zero = tila_cuda_zscalar(0.0), one = tila_cuda_zscalar(1.0),
                    mone = tila_cuda_zscalar(-1.0);
    /* alpha = 0: B = 0 without reading A (cuBLAS's trsm), as LAPACK's. */
    if (leaf < 1 || k <= leaf || !memcmp(&alpha, &zero, sizeof alpha))
        return tila_cuda_ztrsm(handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
    int k1 = k / 2, k2 = k - k1;
    int lower = (uplo == TILA_LOWER) == (trans == TILA_NOTRANS); /* op(A) lower */
    const cuDoubleComplex *A11 = A, *A22 = A + k1 + (size_t)k1 * lda;
    /* The stored off-diagonal block: A21 (k2 x k1) or A12 (k1 x k2); op() of it couples. */
    const cuDoubleComplex *C = uplo == TILA_LOWER ? A + k1 : A + (size_t)k1 * lda;
    cublasOperation_t op = tila_cublas_op(trans);
    cuDoubleComplex *B1 = B, *B2 = left ? B + k1 : B + (size_t)k1 * ldb;
    /* The half solved first (f, of order kf) and the other (s): the first half first when
     * op(A) is lower from the left or upper from the right. */
    int first = left == lower, kf = first ? k1 : k2, ks = first ? k2 : k1;
    const cuDoubleComplex *Af = first ? A11 : A22, *As = first ? A22 : A11;
    cuDoubleComplex *Bf = first ? B1 : B2, *Bs = first ? B2 : B1;
    TILA_CUDA_PASS(tila_cuda_ztrsm_rec(handle, side, uplo, trans, diag, left ? kf : m,
                                       left ? n : kf, alpha, Af, lda, Bf, ldb, leaf));
    if (left)
        TILA_CUDA_CHECK(cublasZgemm(handle, op, CUBLAS_OP_N, ks, n, kf, &mone, C, lda, Bf, ldb,
                                    &alpha, Bs, ldb));
    else
        TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, op, m, ks, kf, &mone, Bf, ldb, C, lda,
                                    &alpha, Bs, ldb));
    return tila_cuda_ztrsm_rec(handle, side, uplo, trans, diag, left ? ks : m, left ? n : ks, one,
                               As, lda, Bs, ldb, leaf);
}
