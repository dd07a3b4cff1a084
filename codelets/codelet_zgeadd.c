/**
 * @file codelet_zgeadd.c
 * @brief GEADD tile codelet: B = alpha A + beta B.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
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

static void zgeadd_cpu(void *buffers[], void *cl_arg)
{
    const struct zgeadd_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]);
    int info = tila_core_zgeadd(a->m, a->n, a->alpha, A.ptr, A.ld, a->beta, B.ptr, B.ld);
    tila_cl_check(&a->base, "tila_core_zgeadd", info, 0);
}

#ifdef TILA_USE_CUDA
static void zgeadd_cuda(void *buffers[], void *cl_arg)
{
    const struct zgeadd_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]);
    int info =
        tila_cuda_zgeadd(tila_cublas_handle(), a->m, a->n, tila_cuda_zscalar(a->alpha),
                         A.ptr, A.ld, tila_cuda_zscalar(a->beta), B.ptr, B.ld);
    tila_cl_check(&a->base, "tila_cuda_zgeadd", info, 0);
}
#endif

static struct starpu_perfmodel zgeadd_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zgeadd",
};

struct starpu_codelet tila_cl_zgeadd = {
    .name = "zgeadd",
    .cpu_funcs = { zgeadd_cpu },
    TILA_CL_CUDA(zgeadd_cuda)
    /* A read; B overwritten (beta = 0: never read, so a workspace tile that holds
     * nothing yet can be the target) or updated: the modes are given per task. */
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &zgeadd_model,
};

int tila_insert_zgeadd(const tila_task_t *t, int m, int n, tila_complex64_t alpha,
                       starpu_data_handle_t A, tila_complex64_t beta, starpu_data_handle_t B)
{
    struct zgeadd_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a)
        *a = (struct zgeadd_args){ .base = a->base, .m = m, .n = n, .alpha = alpha, .beta = beta };
#if defined(COMPLEX)
    double flops = 8.0 * m * n;
#else
    double flops = 2.0 * m * n;
#endif
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zgeadd, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A,
                                beta == (tila_complex64_t)0 ? tila_task_write(t, B) : STARPU_RW, B,
                                TILA_TASK_OPTIONS(t, "zgeadd", flops), 0);
    return tila_task_submitted(t, rc);
}
