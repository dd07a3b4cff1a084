/**
 * @file cuda_kernel.h
 * @brief Internal: what the GPU tile kernels share (status checks, enum conversions).  Their
 * argument checks are tila_kernel_args.h, shared with the CPU kernels, which each kernel
 * includes itself: the codelets include this header and do not see kernels/.
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

static inline cublasFillMode_t tila_cublas_fill(tila_uplo_t uplo)
{
    return uplo == TILA_UPPER ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

static inline cublasSideMode_t tila_cublas_side(tila_side_t side)
{
    return side == TILA_LEFT ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
}

static inline cublasDiagType_t tila_cublas_diag(tila_diag_t diag)
{
    return diag == TILA_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
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
