/**
 * @file codelet_zgeadd.c
 * @brief GEADD tile codelet: B = alpha A + beta B.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zgeadd_args {
    tila_cl_base_t base;
    int m, n;
    tila_complex64_t alpha, beta;
};

/* B = alpha A + beta B by the worker's kernel (tila_cl_run). */
static int zgeadd_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zgeadd_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zgeadd";
        return tila_cuda_zgeadd(tila_cublas_handle(), a->m, a->n, tila_cuda_zscalar(a->alpha),
                                A.ptr, A.ld, tila_cuda_zscalar(a->beta), B.ptr, B.ld);
    }
#endif
    *kernel = "tila_core_zgeadd";
    return tila_core_zgeadd(a->m, a->n, a->alpha, A.ptr, A.ld, a->beta, B.ptr, B.ld);
}

static void zgeadd_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zgeadd_kernel);
}

static struct starpu_perfmodel zgeadd_model = TILA_CL_HISTORY_MODEL("tila_zgeadd");

struct starpu_codelet tila_cl_zgeadd = {
    .name = "zgeadd",
    TILA_CL_FUNCS(zgeadd_run),
    /* A read; B overwritten (beta = 0: never read, so a workspace tile that holds
     * nothing yet can be the target) or updated: the modes are given per task. */
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &zgeadd_model,
};

int tila_insert_zgeadd(const tila_task_t *t, int m, int n, tila_complex64_t alpha,
                       starpu_data_handle_t A, tila_complex64_t beta, starpu_data_handle_t B)
{
    struct zgeadd_args args = { .m = m, .n = n, .alpha = alpha, .beta = beta };
    double flops = tila_cl_gemm_flops(TILA_COMPLEX64, m, n, 1);
    struct zgeadd_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zgeadd, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A,
                                beta == (tila_complex64_t)0 ? tila_task_write(t, B) : STARPU_RW, B,
                                TILA_TASK_OPTIONS(t, "zgeadd", flops), 0);
    return tila_task_submitted(t, rc);
}
