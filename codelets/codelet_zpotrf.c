/**
 * @file codelet_zpotrf.c
 * @brief POTRF tile codelet: Cholesky factorization of a diagonal tile.
 * @precisions normal z -> c d s
 *
 * A tile that is not positive definite reports LAPACK's info shifted to the global
 * column (iinfo + info) through the request.  On a CUDA worker cuSOLVER's workspace
 * (sized by a query on the worker's own handle) and its status are in the worker's device
 * workspace; the status is copied to pinned memory on the worker's stream and read by a
 * host function queued behind it, so the stream never blocks.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_kernel.h"
#include "cuda_z.h"
#endif

struct zpotrf_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    int n;
    int iinfo;      /**< global index of the tile's first column */
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
    if (tila_cl_skip(&a->base) || a->n == 0) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cusolverDnHandle_t solver = tila_cusolver_handle();
    int lwork;
    void *dwork = NULL;
    a->info_host = tila_cuda_info_slot();
    int info = tila_cuda_zpotrf_lwork(solver, a->uplo, a->n, A.ptr, A.ld, &lwork);
    if (!info)
        info = tila_cuda_workspace(TILA_CUDA_INFO_BYTES + sizeof(cuDoubleComplex) * (size_t)lwork,
                                   &dwork, 0, NULL);
    int *devinfo = dwork;
    if (!info)
        info = tila_cuda_zpotrf(solver, a->uplo, a->n, A.ptr, A.ld,
                                (cuDoubleComplex *)((char *)dwork + TILA_CUDA_INFO_BYTES), lwork,
                                devinfo);
    if (!info)
        info = TILA_CUDA_STATUS(
            cudaMemcpyAsync(a->info_host, devinfo, sizeof(int), cudaMemcpyDeviceToHost, stream));
    /* The args outlive this: StarPU frees them once the stream has passed this point. */
    if (!info) info = TILA_CUDA_STATUS(cudaLaunchHostFunc(stream, zpotrf_cuda_status, a));
    tila_cl_check(&a->base, "tila_cuda_zpotrf", info, 0);
}
#endif

static struct starpu_perfmodel zpotrf_model = TILA_CL_REGRESSION_MODEL("tila_zpotrf", NULL);

struct starpu_codelet tila_cl_zpotrf = {
    .name = "zpotrf",
    .cpu_funcs = { zpotrf_cpu },
    TILA_CL_CUDA(zpotrf_cuda)
    .nbuffers = 1,
    .modes = { STARPU_RW },
    .model = &zpotrf_model,
};

int tila_insert_zpotrf(const tila_task_t *t, tila_uplo_t uplo, int n, starpu_data_handle_t A,
                       int iinfo)
{
    struct zpotrf_args args = { .uplo = uplo, .n = n, .iinfo = iinfo, .info_host = NULL };
    double flops = tila_cl_potrf_flops(TILA_COMPLEX64, n);
    struct zpotrf_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zpotrf, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_RW, A,
                                TILA_TASK_OPTIONS(t, "zpotrf", flops), 0);
    return tila_task_submitted(t, rc);
}
