/**
 * @file codelet_zlascal.c
 * @brief LASCAL tile codelet: A = alpha A.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zlascal_args {
    tila_cl_base_t base;
    int m, n;
    tila_complex64_t alpha;
};

static void zlascal_cpu(void *buffers[], void *cl_arg)
{
    const struct zlascal_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    int info = tila_core_zlascal(a->m, a->n, a->alpha, A.ptr, A.ld);
    tila_cl_check(&a->base, "tila_core_zlascal", info, 0);
}

#ifdef TILA_USE_CUDA
static void zlascal_cuda(void *buffers[], void *cl_arg)
{
    const struct zlascal_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    int info = tila_cuda_zlascal(tila_cublas_handle(), a->m, a->n,
                                 tila_cuda_zscalar(a->alpha), A.ptr, A.ld);
    tila_cl_check(&a->base, "tila_cuda_zlascal", info, 0);
}
#endif

static struct starpu_perfmodel zlascal_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zlascal",
};

struct starpu_codelet tila_cl_zlascal = {
    .name = "zlascal",
    .cpu_funcs = { zlascal_cpu },
    TILA_CL_CUDA(zlascal_cuda)
    .nbuffers = 1,
    .modes = { STARPU_RW },
    .model = &zlascal_model,
};

int tila_insert_zlascal(const tila_task_t *t, int m, int n, tila_complex64_t alpha,
                        starpu_data_handle_t A)
{
    struct zlascal_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a) *a = (struct zlascal_args){ .base = a->base, .m = m, .n = n, .alpha = alpha };
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlascal, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_RW, A,
                                TILA_TASK_OPTIONS(t, "zlascal", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}
