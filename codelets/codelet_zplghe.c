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

static void zplghe_cpu(void *buffers[], void *cl_arg)
{
    const struct zplghe_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    int info = tila_core_zplghe(a->bump, a->m, a->n, A.ptr, A.ld, a->i0, a->j0, a->seed);
    tila_cl_check(&a->base, "tila_core_zplghe", info, 0);
}

#ifdef TILA_USE_CUDA
static void zplghe_cuda(void *buffers[], void *cl_arg)
{
    const struct zplghe_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    int info = tila_cuda_zplghe(starpu_cuda_get_local_stream(), a->bump, a->m, a->n, A.ptr, A.ld,
                                a->i0, a->j0, a->seed);
    tila_cl_check(&a->base, "tila_cuda_zplghe", info, 0);
}
#endif

static struct starpu_perfmodel zplghe_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zplghe",
};

struct starpu_codelet tila_cl_zplghe = {
    .name = "zplghe",
    .cpu_funcs = { zplghe_cpu },
    TILA_CL_CUDA(zplghe_cuda).nbuffers = STARPU_VARIABLE_NBUFFERS, /* A W (tila_task_write) */
    .model = &zplghe_model,
};

int tila_insert_zplghe(const tila_task_t *t, double bump, int m, int n, starpu_data_handle_t A,
                       int i0, int j0, unsigned long long seed)
{
    struct zplghe_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a)
        *a = (struct zplghe_args){
            .base = a->base, .bump = bump, .m = m, .n = n, .i0 = i0, .j0 = j0, .seed = seed
        };
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zplghe, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, tila_task_write(t, A), A,
                                TILA_TASK_OPTIONS(t, "zplghe", 0), 0);
    return tila_task_submitted(t, rc);
}
