/**
 * @file cuda_test.h
 * @brief Harness of the CUDA tile kernel tests: the device, its handles, and copies
 * between host and device arrays.
 *
 * The CUDA kernel tests run each tile kernel of kernels/cuda and its CPU twin of
 * kernels/cpu on the same tiles, with no StarPU and no MPI, and compare the results
 * (tests/cuda/test_zcuda.c says with what tolerance, and why).  They reuse the CPU kernel
 * tests' harness (tests/core/kernel_test.h): options, reporting, generators, differences.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CUDA_TEST_H
#define CUDA_TEST_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include "kernel_test.h"

/** The handles every test uses, all on one stream. */
typedef struct cuda_test_ctx_s {
    cudaStream_t stream;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    cusolverDnParams_t params;
} cuda_test_ctx_t;

extern cuda_test_ctx_t cuda_test;

/** A device copy of the ld x n host array h (at least one element). */
void *cuda_test_put(tila_prec_t prec, int ld, int n, const void *h);

/** A device array of `bytes` bytes (at least one), every byte 0xff (NaN in any precision). */
void *cuda_test_alloc(size_t bytes);

/** Wait for the stream, then copy the ld x n device array d into h. */
void cuda_test_get(tila_prec_t prec, int ld, int n, void *h, const void *d);

/** cudaFree, and the stream's errors checked. */
void cuda_test_free(void *d);

/* ---- One entry point per suite and precision (test_zcuda.c) ---- */
void tila_test_scuda_blas(const kernel_opts_t *o);
void tila_test_dcuda_blas(const kernel_opts_t *o);
void tila_test_ccuda_blas(const kernel_opts_t *o);
void tila_test_zcuda_blas(const kernel_opts_t *o);
void tila_test_scuda_aux(const kernel_opts_t *o);
void tila_test_dcuda_aux(const kernel_opts_t *o);
void tila_test_ccuda_aux(const kernel_opts_t *o);
void tila_test_zcuda_aux(const kernel_opts_t *o);
void tila_test_scuda_potrf(const kernel_opts_t *o);
void tila_test_dcuda_potrf(const kernel_opts_t *o);
void tila_test_ccuda_potrf(const kernel_opts_t *o);
void tila_test_zcuda_potrf(const kernel_opts_t *o);
void tila_test_scuda_lange(const kernel_opts_t *o);
void tila_test_dcuda_lange(const kernel_opts_t *o);
void tila_test_ccuda_lange(const kernel_opts_t *o);
void tila_test_zcuda_lange(const kernel_opts_t *o);
void tila_test_scuda_qr(const kernel_opts_t *o);
void tila_test_dcuda_qr(const kernel_opts_t *o);
void tila_test_ccuda_qr(const kernel_opts_t *o);
void tila_test_zcuda_qr(const kernel_opts_t *o);
void tila_test_scuda_inv(const kernel_opts_t *o);
void tila_test_dcuda_inv(const kernel_opts_t *o);
void tila_test_ccuda_inv(const kernel_opts_t *o);
void tila_test_zcuda_inv(const kernel_opts_t *o);

#endif /* CUDA_TEST_H */
