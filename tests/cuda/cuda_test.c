/**
 * @file cuda_test.c
 * @brief Host-device copies of the CUDA kernel tests (cuda_test.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "cuda_kernel.h"
#include "cuda_test.h"

static size_t bytes_of(tila_prec_t prec, int ld, int n)
{
    size_t b = kernel_elem_size(prec) * (size_t)(ld > 0 ? ld : 1) * (size_t)(n > 0 ? n : 1);
    return b;
}

void *cuda_test_alloc(size_t bytes)
{
    void *d = NULL;
    TILA_CUDA_ASSERT(cudaMalloc(&d, bytes > 0 ? bytes : 1));
    TILA_CUDA_ASSERT(cudaMemset(d, 0xff, bytes > 0 ? bytes : 1));
    return d;
}

void *cuda_test_put(tila_prec_t prec, int ld, int n, const void *h)
{
    size_t bytes = bytes_of(prec, ld, n);
    void *d = cuda_test_alloc(bytes);
    if (ld > 0 && n > 0) TILA_CUDA_ASSERT(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

void cuda_test_get(tila_prec_t prec, int ld, int n, void *h, const void *d)
{
    TILA_CUDA_ASSERT(cudaStreamSynchronize(cuda_test.stream));
    if (ld > 0 && n > 0)
        TILA_CUDA_ASSERT(cudaMemcpy(h, d, bytes_of(prec, ld, n), cudaMemcpyDeviceToHost));
}

void cuda_test_free(void *d)
{
    TILA_CUDA_ASSERT(cudaStreamSynchronize(cuda_test.stream));
    TILA_CUDA_ASSERT(cudaGetLastError());
    TILA_CUDA_ASSERT(cudaFree(d));
}
