/**
 * @file codelet_zplghe.c
 * @brief PLGHE tile codelet: a tile of the seeded random Hermitian matrix, diagonal shifted.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zplghe_args {
    tila_cl_base_t base;
    double bump;
    int m, n, i0, j0;
    unsigned long long seed;
};

/* A = the random Hermitian matrix's tile by the worker's kernel (tila_cl_run). */
static int zplghe_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zplghe_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zplghe";
        return tila_cuda_zplghe(starpu_cuda_get_local_stream(), a->bump, a->m, a->n, A.ptr, A.ld,
                                a->i0, a->j0, a->seed);
    }
#endif
    *kernel = "tila_core_zplghe";
    return tila_core_zplghe(a->bump, a->m, a->n, A.ptr, A.ld, a->i0, a->j0, a->seed);
}

static void zplghe_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zplghe_kernel);
}

static struct starpu_perfmodel zplghe_model = TILA_CL_HISTORY_MODEL("tila_zplghe");

struct starpu_codelet tila_cl_zplghe = {
    .name = "zplghe",
    TILA_CL_FUNCS(zplghe_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A W (tila_task_write) */
    .model = &zplghe_model,
};

int tila_insert_zplghe(const tila_task_t *t, double bump, int m, int n, starpu_data_handle_t A,
                       int i0, int j0, unsigned long long seed)
{
    struct zplghe_args args = { .bump = bump, .m = m, .n = n, .i0 = i0, .j0 = j0, .seed = seed };
    struct zplghe_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zplghe, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, tila_task_write(t, A), A,
                                TILA_TASK_OPTIONS(t, "zplghe", 0), 0);
    return tila_task_submitted(t, rc);
}
