/**
 * @file codelet_zpotrf.c
 * @brief POTRF tile codelet: Cholesky factorization of a diagonal tile.
 * @precisions normal z -> c d s
 *
 * A tile that is not positive definite reports LAPACK's info shifted to the global
 * column (iinfo + info) through the request.  On a CUDA worker the status is copied to
 * pinned memory on the worker's stream and read by a host function queued behind it,
 * so the stream never blocks.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "core/core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda/cuda_kernel.h"
#include "cuda/cuda_z.h"
#endif

struct zpotrf_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    int n;
    int iinfo;      /**< global index of the tile's first column */
    int lwork;      /**< CUDA workspace elements (the scratch buffer holds them + devinfo) */
    int *info_host; /**< CUDA: pinned slot the status is copied to */
};

static void zpotrf_cpu(void *buffers[], void *cl_arg)
{
    const struct zpotrf_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    int info = tila_core_zpotrf(a->uplo, a->n, A.ptr, A.ld);
    tila_cl_check(&a->base, "tila_core_zpotrf", info, a->iinfo);
}

#ifdef TILA_USE_CUDA
static void CUDART_CB zpotrf_cuda_status(void *cl_arg)
{
    const struct zpotrf_args *a = cl_arg;
    if (*a->info_host > 0) tila_cl_fail(&a->base, a->iinfo + *a->info_host);
}

static void zpotrf_cuda(void *buffers[], void *cl_arg)
{
    struct zpotrf_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cuDoubleComplex *work = tila_cl_vector(buffers[1]);
    int *devinfo = (int *)(work + a->lwork);
    a->info_host = tila_cuda_info_slot();
    int info = tila_cuda_zpotrf(tila_cusolver_handle(), a->uplo, a->n, A.ptr, A.ld, work, a->lwork,
                                devinfo);
    tila_cl_check(&a->base, "tila_cuda_zpotrf", info, 0);
    TILA_CUDA_CHECK(
        cudaMemcpyAsync(a->info_host, devinfo, sizeof(int), cudaMemcpyDeviceToHost, stream));
    /* The args outlive this: StarPU frees them once the stream has passed this point. */
    TILA_CUDA_CHECK(cudaLaunchHostFunc(stream, zpotrf_cuda_status, a));
}
#endif

static struct starpu_perfmodel zpotrf_model = {
    .type = STARPU_REGRESSION_BASED, /* a size^b (perfmodels/README.md) */
    .symbol = "tila_zpotrf",
};

struct starpu_codelet tila_cl_zpotrf = {
    .name = "zpotrf",
    .cpu_funcs = { zpotrf_cpu },
    TILA_CL_CUDA(zpotrf_cuda)
    .nbuffers = 2,
    .modes = { STARPU_RW, STARPU_SCRATCH },
    .model = &zpotrf_model,
};

/* Bytes of the scratch buffer a CUDA potrf of an n x n tile needs (workspace + devinfo). */
size_t tila_zpotrf_scratch_size(tila_uplo_t uplo, int n, int *lwork)
{
    *lwork = 0;
#ifdef TILA_USE_CUDA
    if (starpu_cuda_worker_get_count() > 0)
        *lwork = tila_cuda_zpotrf_lwork(tila_cusolver_query_handle(), uplo, n);
#else
    (void)uplo;
    (void)n;
#endif
    return sizeof(tila_complex64_t) * (size_t)*lwork + sizeof(int);
}

int tila_insert_zpotrf(const tila_task_t *t, tila_uplo_t uplo, int n, starpu_data_handle_t A,
                       int iinfo, int lwork, starpu_data_handle_t work)
{
    struct zpotrf_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a)
        *a = (struct zpotrf_args){
            .base = a->base, .uplo = uplo, .n = n, .iinfo = iinfo, .lwork = lwork, .info_host = NULL
        };
#if defined(COMPLEX)
    double flops = 4.0 / 3.0 * n * n * n;
#else
    double flops = 1.0 / 3.0 * n * n * n;
#endif
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zpotrf, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_RW, A, STARPU_SCRATCH, work,
                                TILA_TASK_OPTIONS(t, "zpotrf", flops), 0);
    return tila_task_submitted(t, rc);
}
