/**
 * @file main.c
 * @brief tila-cuda-kernel-tests: every tile kernel that has a CUDA and a CPU
 * implementation, run on the same tiles by both and compared; no StarPU, no MPI.
 *
 * Usage: tila-cuda-kernel-tests [SUITE ...] [--prec sdcz] [--seed S]
 * Suites: blas (gemm, trsm, trmm, herk/syrk, lascal, geadd), aux (lacpy, laset, plrnt,
 * plghe/plgsy), potrf, lange (every norm kernel, to the bit), qr (geqrt, unmqr, tpqrt,
 * tpmqrt, geqrt_col, larft_col), inv (trtri, trsm_inv: potrf's panel by the inverse).
 * One line per configuration, "PASS|FAIL|SKIP cuda_<kernel> <p> <details> error=<x>", then
 * "N passed, N failed, N skipped".  Exit 0 when nothing failed, 1 otherwise, 2 for a bad
 * command line, 77 without a CUDA device.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

#include "cuda_kernel.h"
#include "cuda_test.h"
#include "cuda_test_ds.h"
#include "cuda_test_zc.h"

cuda_test_ctx_t cuda_test;

#define SUITE(name)                                                                                \
    {                                                                                              \
#name,                                                                                     \
        {                                                                                          \
            tila_test_scuda_##name, tila_test_dcuda_##name, tila_test_ccuda_##name,                \
                tila_test_zcuda_##name                                                             \
        }                                                                                          \
    }

static const kernel_suite_t suites[] = {
    SUITE(blas),
    SUITE(aux),
    SUITE(potrf),
    SUITE(lange),
    SUITE(qr),
    SUITE(inv),
    /* between precisions: d with s, z with c */
    { "lag2c", { NULL, tila_test_dcuda_lag2c, NULL, tila_test_zcuda_lag2c } },
    { "gemm_lp", { NULL, tila_test_dsgemm_lp_cuda, NULL, tila_test_zcgemm_lp_cuda } },
};

int main(int argc, char **argv)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        printf("SKIP no CUDA device (%s)\n0 passed, 0 failed, 1 skipped\n",
               err != cudaSuccess ? cudaGetErrorString(err) : "none found");
        return 77;
    }
    TILA_CUDA_ASSERT(cudaStreamCreate(&cuda_test.stream));
    TILA_CUDA_ASSERT(cublasCreate(&cuda_test.blas));
    TILA_CUDA_ASSERT(cublasSetStream(cuda_test.blas, cuda_test.stream));
    TILA_CUDA_ASSERT(cusolverDnCreate(&cuda_test.solver));
    TILA_CUDA_ASSERT(cusolverDnSetStream(cuda_test.solver, cuda_test.stream));
    TILA_CUDA_ASSERT(cusolverDnCreateParams(&cuda_test.params));
    int rc = kernel_test_main(argc, argv, suites, (int)(sizeof suites / sizeof suites[0]));
    TILA_CUDA_ASSERT(cudaStreamSynchronize(cuda_test.stream));
    cusolverDnDestroyParams(cuda_test.params);
    cusolverDnDestroy(cuda_test.solver);
    cublasDestroy(cuda_test.blas);
    cudaStreamDestroy(cuda_test.stream);
    return rc;
}
