/**
 * @file cuda_ztpqrt.c
 * @brief GPU tile kernel: QR of a triangle stacked on a pentagonal tile (cuSOLVER).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cusolverDn.h>

#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/*
 * cuSOLVER has no ?tpqrt.  The kernel factors the stacked (n + m) x n matrix
 * S = [triu(A); B with zeros outside its pentagon] with tila_cuda_zgeqrt.  The
 * reflectors are exactly ?tpqrt's: in column j the rows of S that are structurally zero
 * (top rows below j, bottom rows below B's pentagon) are zero when H(j) is formed and no
 * earlier reflector touches them, so v_j is e_j on top and zero outside the pentagon
 * below; the per-block T factors are then those of ?tpqrt too.  R goes back into A's upper
 * triangle and V into B's pentagon; nothing else of A or B is written.
 */

/* S = [triu(A); pentagon of B], ld n + m. */
static int stack_in(cudaStream_t stream, int m, int n, int l, const cuDoubleComplex *A, int lda,
                    const cuDoubleComplex *B, int ldb, cuDoubleComplex *S, int lds)
{
    cuDoubleComplex zero = tila_cuda_zscalar(0.0);
    TILA_CUDA_PASS(tila_cuda_zlaset(stream, TILA_LOWER, n, n, zero, zero, S, lds));
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_UPPER, n, n, A, lda, S, lds));
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_GENERAL, m - l, n, B, ldb, S + n, lds));
    if (l == 0) return 0;
    TILA_CUDA_PASS(tila_cuda_zlaset(stream, TILA_LOWER, l, n, zero, zero, S + n + m - l, lds));
    return tila_cuda_zlacpy(stream, TILA_UPPER, l, n, B + m - l, ldb, S + n + m - l, lds);
}

/* R into A's upper triangle, V into B's pentagon. */
static int stack_out(cudaStream_t stream, int m, int n, int l, const cuDoubleComplex *S, int lds,
                     cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb)
{
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_UPPER, n, n, S, lds, A, lda));
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_GENERAL, m - l, n, S + n, lds, B, ldb));
    if (l == 0) return 0;
    return tila_cuda_zlacpy(stream, TILA_UPPER, l, n, S + n + m - l, lds, B + m - l, ldb);
}

/** Device and host workspace (bytes) of tila_cuda_ztpqrt (a query; `work` as passed to it).
 * @return 0 or TILA_ERR_DEVICE. */
int tila_cuda_ztpqrt_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int n,
                              int ib, cuDoubleComplex *T, int ldt, cuDoubleComplex *work,
                              size_t *dbytes, size_t *hbytes)
{
    return tila_cuda_zgeqrt_worksize(solver, params, n + m, n, ib, work + n, n + m, work, T, ldt,
                                     dbytes, hbytes);
}

/**
 * Same result and contract as tila_core_ztpqrt, on the stream of `solver`.
 * @param work  n + (n + m) n elements of device memory (tau and the stacked matrix).
 * @param dwork, dbytes, hwork, hbytes  at least what tila_cuda_ztpqrt_worksize gives.
 */
int tila_cuda_ztpqrt(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int n, int l,
                     int ib, cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb,
                     cuDoubleComplex *T, int ldt, cuDoubleComplex *work, void *dwork, size_t dbytes,
                     void *hwork, size_t hbytes)
{
    int rc = tila_args_tpqrt(m, n, l, ib, lda, ldb, ldt, 2);
    if (rc || m == 0 || n == 0) return rc;
    cudaStream_t stream;
    TILA_CUDA_CHECK(cusolverDnGetStream(solver, &stream));
    cuDoubleComplex *tau = work, *S = work + n;
    int lds = n + m;
    TILA_CUDA_PASS(stack_in(stream, m, n, l, A, lda, B, ldb, S, lds));
    TILA_CUDA_PASS(tila_cuda_zgeqrt(NULL, 0, solver, params, lds, n, ib, S, lds, T, ldt, tau, dwork,
                                    dbytes, hwork, hbytes));
    return stack_out(stream, m, n, l, S, lds, A, lda, B, ldb);
}
