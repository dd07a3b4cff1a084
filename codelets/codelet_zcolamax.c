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

/* work = the largest entry of each column of A by the worker's kernel (tila_cl_run). */
static int zcolamax_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zcolamax_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zcolamax";
        return tila_cuda_zcolamax(starpu_cuda_get_local_stream(), a->m, a->n, A.ptr, A.ld,
                                  tila_cl_vector(buffers[1]));
    }
#endif
    *kernel = "tila_core_zcolamax";
    return tila_core_zcolamax(a->m, a->n, A.ptr, A.ld, tila_cl_vector(buffers[1]));
}

static void zcolamax_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zcolamax_kernel);
}

static struct starpu_perfmodel zcolamax_model = TILA_CL_HISTORY_MODEL("tila_zcolamax");

struct starpu_codelet tila_cl_zcolamax = {
    .name = "zcolamax",
    TILA_CL_FUNCS(zcolamax_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A R, work W (tila_task_write) */
    .model = &zcolamax_model,
};

/** work (a vector of n reals of the precision) = the largest entry of each of the m x n
 * tile A's columns. */
int tila_insert_zcolamax(const tila_task_t *t, int m, int n, starpu_data_handle_t A,
                         starpu_data_handle_t work)
{
    struct zcolamax_args args = { .m = m, .n = n };
    struct zcolamax_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zcolamax, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, tila_task_write(t, work), work,
                                TILA_TASK_OPTIONS(t, "zcolamax", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}
