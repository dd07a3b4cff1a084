/**
 * @file codelet_zcolamax.c
 * @brief COLAMAX tile codelet: the largest entry of each column of a tile, into a vector
 * (the stopping test of mixed-precision refinement, as LAPACK's i?amax measures).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zcolamax_args {
    tila_cl_base_t base;
    int m, n;
};

static void zcolamax_cpu(void *buffers[], void *cl_arg)
{
    const struct zcolamax_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    int info = tila_core_zcolamax(a->m, a->n, A.ptr, A.ld, tila_cl_vector(buffers[1]));
    tila_cl_check(&a->base, "tila_core_zcolamax", info, 0);
}

#ifdef TILA_USE_CUDA
static void zcolamax_cuda(void *buffers[], void *cl_arg)
{
    const struct zcolamax_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    int info = tila_cuda_zcolamax(starpu_cuda_get_local_stream(), a->m, a->n, A.ptr, A.ld,
                                  tila_cl_vector(buffers[1]));
    tila_cl_check(&a->base, "tila_cuda_zcolamax", info, 0);
}
#endif

static struct starpu_perfmodel zcolamax_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zcolamax",
};

struct starpu_codelet tila_cl_zcolamax = {
    .name = "zcolamax",
    .cpu_funcs = { zcolamax_cpu },
    TILA_CL_CUDA(zcolamax_cuda).nbuffers =
        STARPU_VARIABLE_NBUFFERS, /* A R, work W (tila_task_write) */
    .model = &zcolamax_model,
};

/** work (a vector of n reals of the precision) = the largest entry of each of the m x n
 * tile A's columns. */
int tila_insert_zcolamax(const tila_task_t *t, int m, int n, starpu_data_handle_t A,
                         starpu_data_handle_t work)
{
    struct zcolamax_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a) *a = (struct zcolamax_args){ .base = a->base, .m = m, .n = n };
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zcolamax, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, tila_task_write(t, work), work,
                                TILA_TASK_OPTIONS(t, "zcolamax", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}
