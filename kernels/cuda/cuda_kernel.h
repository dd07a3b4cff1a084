/**
 * @file cuda_kernel.h
 * @brief Internal: what the GPU tile kernels share (status checks, enum conversions).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CUDA_KERNEL_H
#define CUDA_KERNEL_H

#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "tila_cuda_status.h"
#include "tila_types.h"

/* Return a Tila kernel's status (an illegal argument, TILA_ERR_DEVICE) unless it is 0. */
#define TILA_CUDA_PASS(kernel_call)                                                                \
    do {                                                                                           \
        int tila_rc_ = (kernel_call);                                                              \
        if (tila_rc_ != 0) return tila_rc_;                                                        \
    } while (0)

/* In a test or benchmark program, not the library: a failing call stops the program. */
#define TILA_CUDA_ASSERT(call)                                                                     \
    do {                                                                                           \
        int tila_status_ = (int)(call);                                                            \
        if (tila_status_ != 0) {                                                                   \
            tila_cuda_failed(#call, __FILE__, __LINE__, tila_status_);                             \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/*
 * After a kernel launch: the launch's error, if any.  The thread's last error is shared
 * with StarPU's CUDA driver, which polls its tasks' events on this same thread
 * (cudaEventQuery): a cudaErrorNotReady it may leave there is not the launch's.
 */
#define TILA_CUDA_LAUNCHED()                                                                       \
    do {                                                                                           \
        cudaError_t tila_err_ = cudaGetLastError();                                                \
        if (tila_err_ != cudaErrorNotReady) TILA_CUDA_CHECK(tila_err_);                            \
    } while (0)

static inline cublasOperation_t tila_cublas_op(tila_trans_t t)
{
    return t == TILA_NOTRANS ? CUBLAS_OP_N : t == TILA_TRANS ? CUBLAS_OP_T : CUBLAS_OP_C;
}

/* op(Q) is Q or Q^H: TILA_NOTRANS or TILA_CONJTRANS, and TILA_TRANS in real arithmetic,
 * where cuBLAS's OP_C is OP_T (z-sources define COMPLEX before including this). */
static inline int tila_cuda_valid_trans_qr(tila_trans_t t)
{
#if defined(COMPLEX)
    return t == TILA_NOTRANS || t == TILA_CONJTRANS;
#else
    return t == TILA_NOTRANS || t == TILA_TRANS || t == TILA_CONJTRANS;
#endif
}

static inline cublasFillMode_t tila_cublas_fill(tila_uplo_t uplo)
{
    return uplo == TILA_UPPER ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

static inline int tila_cuda_max1(int x) { return x > 1 ? x : 1; }
static inline int tila_cuda_min(int x, int y) { return x < y ? x : y; }

/* The panel kernels' tiles: each of at least one row, adding up to m rows (m = 0: none). */
static inline int tila_cuda_panel_rows(int m, const int *mbs)
{
    int r = 0;
    for (int i = 0; r < m; r += mbs[i++])
        if (mbs[i] < 1) return 0;
    return r == m;
}

/* Argument checks of the cuBLAS triangular kernels TRSM and TRMM (tila_cuda_ztrsm's
 * numbering): 0, or -i for the first invalid argument i. */
static inline int tila_cuda_check_trxm(tila_side_t side, int m, int n, int lda, int ldb)
{
    if (m < 0) return -6;
    if (n < 0) return -7;
    if (lda < tila_cuda_max1(side == TILA_LEFT ? m : n)) return -10;
    if (ldb < tila_cuda_max1(m)) return -12;
    return 0;
}

/* Threads per block of the element-wise kernels, and blocks to cover m x n. */
#define TILA_CUDA_BLOCK 256
static inline unsigned tila_cuda_grid(int m, int n)
{
    long long total = (long long)m * n;
    long long blocks = (total + TILA_CUDA_BLOCK - 1) / TILA_CUDA_BLOCK;
    return (unsigned)(blocks < 65535 * 32 ? (blocks > 0 ? blocks : 1) : 65535 * 32);
}

/*
 * Blocked compact-WY application: the b-th block visited of the blocks of nb of the k
 * reflectors, in order (forward) or in reverse; returns its first reflector, its size in *kb.
 */
static inline int tila_cuda_wy_block(int b, int k, int nb, int forward, int *kb)
{
    int nblocks = (k + nb - 1) / nb, j = (forward ? b : nblocks - 1 - b) * nb;
    *kb = nb < k - j ? nb : k - j;
    return j;
}

#endif /* CUDA_KERNEL_H */
