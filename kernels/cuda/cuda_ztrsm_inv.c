/**
 * @file cuda_ztrsm_inv.c
 * @brief GPU tile kernel: a triangular solve applied as a product with the triangle's
 *        inverse (a copy of B, then cuBLAS's GEMM).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/**
 * tila_core_ztrsm_inv on the GPU: B copied into W on `stream` (the handle's), then one
 * GEMM B = alpha op(T) W (left) or alpha W op(T) (right).  Same arguments after the handle
 * and stream, numbered from 3.  @return 0, -i if argument i is invalid, or TILA_ERR_DEVICE.
 */
int tila_cuda_ztrsm_inv(cublasHandle_t handle, cudaStream_t stream, tila_side_t side,
                        tila_trans_t trans, int m, int n, cuDoubleComplex alpha,
                        const cuDoubleComplex *T, int ldt, cuDoubleComplex *B, int ldb,
                        cuDoubleComplex *W, int ldw)
{
    int rc = tila_args_trsm_inv(side, trans, m, n, ldt, ldb, ldw, 2);
    if (rc || m == 0 || n == 0) return rc;
    size_t elem = sizeof(cuDoubleComplex);
    TILA_CUDA_CHECK(cudaMemcpy2DAsync(W, elem * (size_t)ldw, B, elem * (size_t)ldb,
                                      elem * (size_t)m, (size_t)n, cudaMemcpyDeviceToDevice,
                                      stream));
    cuDoubleComplex zero = tila_cuda_zscalar(0);
    if (side == TILA_LEFT)
        TILA_CUDA_PASS(tila_cuda_zgemm(handle, trans, TILA_NOTRANS, m, n, m, alpha, T, ldt, W, ldw,
                                       zero, B, ldb));
    else
        TILA_CUDA_PASS(tila_cuda_zgemm(handle, TILA_NOTRANS, trans, m, n, n, alpha, W, ldw, T, ldt,
                                       zero, B, ldb));
    return 0;
}
