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

/* A = alpha A by the worker's kernel (tila_cl_run). */
static int zlascal_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zlascal_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zlascal";
        return tila_cuda_zlascal(tila_cublas_handle(), a->m, a->n, tila_cuda_zscalar(a->alpha),
                                 A.ptr, A.ld);
    }
#endif
    *kernel = "tila_core_zlascal";
    return tila_core_zlascal(a->m, a->n, a->alpha, A.ptr, A.ld);
}

static void zlascal_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zlascal_kernel);
}

static struct starpu_perfmodel zlascal_model = TILA_CL_HISTORY_MODEL("tila_zlascal");

struct starpu_codelet tila_cl_zlascal = {
    .name = "zlascal",
    TILA_CL_FUNCS(zlascal_run),
    .nbuffers = 1,
    .modes = { STARPU_RW },
    .model = &zlascal_model,
};

int tila_insert_zlascal(const tila_task_t *t, int m, int n, tila_complex64_t alpha,
                        starpu_data_handle_t A)
{
    struct zlascal_args args = { .m = m, .n = n, .alpha = alpha };
    struct zlascal_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlascal, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_RW, A,
                                TILA_TASK_OPTIONS(t, "zlascal", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}
