/**
 * @file cuda_zunmqr.c
 * @brief GPU tile kernel: apply Q or Q^H of a tile QR (compact WY) to a tile (cuBLAS).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/*
 * Blocked compact-WY application, as ?gemqrt does it, on cuBLAS: for each block of
 * kb <= ib reflectors, H_j = I - V_j T_j V_j^H with V_j unit lower trapezoidal.  V_j is
 * first copied into the workspace with its unit diagonal and zero upper triangle made
 * explicit, so that both products with it are plain gemms:
 *   left:  W = V_j^H C(j:, :),  W = op(T_j) W,  C(j:, :) -= V_j W
 *   right: W = C(:, j:) V_j,    W = W op(T_j),  C(:, j:) -= W V_j^H
 * Q^H from the left and Q from the right take the blocks in order, the other two in
 * reverse order.
 */
int tila_cuda_zunmqr(cublasHandle_t handle, tila_side_t side, tila_trans_t trans, int m, int n,
                     int k, int ib, const cuDoubleComplex *V, int ldv, const cuDoubleComplex *T,
                     int ldt, cuDoubleComplex *C, int ldc, cuDoubleComplex *work)
{
    int left = side == TILA_LEFT, notrans = trans == TILA_NOTRANS, nb = tila_min(ib, k);
    int rc = tila_args_unmqr(side, trans, m, n, k, ib, ldv, ldt, ldc, 1);
    if (rc || m == 0 || n == 0 || k == 0) return rc;
    cuDoubleComplex one = tila_cuda_zscalar(1.0), mone = tila_cuda_zscalar(-1.0),
                    zero = tila_cuda_zscalar(0.0);
    cublasOperation_t opT = notrans ? CUBLAS_OP_N : CUBLAS_OP_C;
    cudaStream_t stream;
    TILA_CUDA_CHECK(cublasGetStream(handle, &stream));
    for (int b = 0, kb; b * nb < k; b++) {
        int j = tila_cuda_wy_block(b, k, nb, left != notrans, &kb);
        int rows = (left ? m : n) - j; /* rows of V_j: Q's order less j */
        cuDoubleComplex *Vd = work, *W = work + (size_t)rows * kb;
        tila_cuda_zlacpy(stream, TILA_LOWER, rows, kb, V + (size_t)j * ldv + j, ldv, Vd, rows);
        tila_cuda_zlaset(stream, TILA_UPPER, kb, kb, zero, one, Vd, rows);
        const cuDoubleComplex *Tj = T + (size_t)j * ldt;
        if (left) {
            cuDoubleComplex *Cj = C + j;
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_C, CUBLAS_OP_N, kb, n, rows, &one, Vd,
                                        rows, Cj, ldc, &zero, W, kb));
            TILA_CUDA_CHECK(cublasZtrmm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, opT,
                                        CUBLAS_DIAG_NON_UNIT, kb, n, &one, Tj, ldt, W, kb, W, kb));
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, rows, n, kb, &mone, Vd,
                                        rows, W, kb, &one, Cj, ldc));
        }
        else {
            cuDoubleComplex *Cj = C + (size_t)j * ldc;
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, kb, rows, &one, Cj,
                                        ldc, Vd, rows, &zero, W, m));
            TILA_CUDA_CHECK(cublasZtrmm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, opT,
                                        CUBLAS_DIAG_NON_UNIT, m, kb, &one, Tj, ldt, W, m, W, m));
            TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, CUBLAS_OP_C, m, rows, kb, &mone, W, m,
                                        Vd, rows, &one, Cj, ldc));
        }
    }
    return 0;
}
