/**
 * @file cuda_ztpmqrt.c
 * @brief GPU tile kernel: apply the Q of a triangle-on-pentagon QR to a pair of tiles (cuBLAS).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/*
 * Blocked compact-WY application, as ?tpmqrt does it, on cuBLAS.  Block j of kb <= ib
 * reflectors has V_j = [I; V2_j] where V2_j (as in ?tpmqrt) is the first mb rows of
 * V(:, j : j + kb): its first mb - lb rows full, its last lb rows upper trapezoidal.  When
 * lb > 0 the trapezoid is copied into the workspace with its lower part zeroed, so that the
 * products are plain gemms (the TS kernel, l = 0, uses V in place):
 *   left:  W = A(j:j+kb, :) + V2_j^H B(0:mb, :),  W = op(T_j) W,
 *          A(j:j+kb, :) -= W,  B(0:mb, :) -= V2_j W
 *   right: W = A(:, j:j+kb) + B(:, 0:mb) V2_j,    W = W op(T_j),
 *          A(:, j:j+kb) -= W,  B(:, 0:mb) -= W V2_j^H
 * Q^H from the left and Q from the right take the blocks in order, the others in reverse.
 */
int tila_cuda_ztpmqrt(cublasHandle_t handle, tila_side_t side, tila_trans_t trans, int m, int n,
                      int k, int l, int ib, const cuDoubleComplex *V, int ldv,
                      const cuDoubleComplex *T, int ldt, cuDoubleComplex *A, int lda,
                      cuDoubleComplex *B, int ldb, cuDoubleComplex *work)
{
    int left = side == TILA_LEFT, notrans = trans == TILA_NOTRANS, nb = tila_min(ib, k);
    int rc = tila_args_tpmqrt(side, trans, m, n, k, l, ib, ldv, ldt, lda, ldb, 1);
    if (rc || m == 0 || n == 0 || k == 0) return rc;
    int nv = left ? m : n; /* rows of V */
    cublasOperation_t opT = notrans ? CUBLAS_OP_N : CUBLAS_OP_C;
    cuDoubleComplex one = tila_cuda_zscalar(1.0), mone = tila_cuda_zscalar(-1.0),
                    zero = tila_cuda_zscalar(0.0);
    cudaStream_t stream;
    TILA_CUDA_CHECK(cublasGetStream(handle, &stream));
    for (int b = 0, kb; b * nb < k; b++) {
        int j = tila_cuda_wy_block(b, k, nb, left != notrans, &kb);
        /* As ?tpmqrt: V_j's first mb rows, the last lb of them its triangle. */
        int mb = tila_min(nv - l + j + kb, nv);
        int lb = j + 1 >= l ? 0 : mb - nv + l - j;
        const cuDoubleComplex *Vj = V + (size_t)j * ldv;
        int ldvj = ldv;
        cuDoubleComplex *W = work;
        if (lb > 0) {
            cuDoubleComplex *Vd = work;
            W = work + (size_t)mb * kb;
            tila_cuda_zlacpy(stream, TILA_GENERAL, mb - lb, kb, Vj, ldv, Vd, mb);
            tila_cuda_zlaset(stream, TILA_LOWER, lb, kb, zero, zero, Vd + mb - lb, mb);
            tila_cuda_zlacpy(stream, TILA_UPPER, lb, kb, Vj + mb - lb, ldv, Vd + mb - lb, mb);
            Vj = Vd;
            ldvj = mb;
        }
        const cuDoubleComplex *Tj = T + (size_t)j * ldt;
        if (left) {
            cuDoubleComplex *Aj = A + j;
            tila_cuda_zlacpy(stream, TILA_GENERAL, kb, n, Aj, lda, W, kb);
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, kb, n, mb, &one, Vj, ldvj,
                                        B, ldb, &one, W, kb));
            TILA_CUDA_CHECK(cublasZtrmm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, opT,
                                        CUBLAS_DIAG_NON_UNIT, kb, n, &one, Tj, ldt, W, kb, W, kb));
            TILA_CUDA_CHECK(cublasZgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, kb, n, &one, Aj, lda,
                                        &mone, W, kb, Aj, lda));
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, mb, n, kb, &mone, Vj,
                                        ldvj, W, kb, &one, B, ldb));
        }
        else {
            cuDoubleComplex *Aj = A + (size_t)j * lda;
            tila_cuda_zlacpy(stream, TILA_GENERAL, m, kb, Aj, lda, W, m);
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, kb, mb, &one, B, ldb,
                                        Vj, ldvj, &one, W, m));
            TILA_CUDA_CHECK(cublasZtrmm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, opT,
                                        CUBLAS_DIAG_NON_UNIT, m, kb, &one, Tj, ldt, W, m, W, m));
            TILA_CUDA_CHECK(cublasZgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, kb, &one, Aj, lda,
                                        &mone, W, m, Aj, lda));
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_C, m, mb, kb, &mone, W, m,
                                        Vj, ldvj, &one, B, ldb));
        }
    }
    return 0;
}
