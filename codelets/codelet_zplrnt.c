/**
 * @file codelet_zplrnt.c
 * @brief PLRNT tile codelet: a tile of the seeded random matrix.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zplrnt_args {
    tila_cl_base_t base;
    int m, n, i0, j0;
    unsigned long long seed;
};

/* A = the random matrix's tile by the worker's kernel (tila_cl_run). */
static int zplrnt_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zplrnt_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zplrnt";
        return tila_cuda_zplrnt(starpu_cuda_get_local_stream(), a->m, a->n, A.ptr, A.ld, a->i0,
                                a->j0, a->seed);
    }
#endif
    *kernel = "tila_core_zplrnt";
    return tila_core_zplrnt(a->m, a->n, A.ptr, A.ld, a->i0, a->j0, a->seed);
}

static void zplrnt_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zplrnt_kernel);
}

static struct starpu_perfmodel zplrnt_model = TILA_CL_HISTORY_MODEL("tila_zplrnt");

struct starpu_codelet tila_cl_zplrnt = {
    .name = "zplrnt",
    TILA_CL_FUNCS(zplrnt_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A W (tila_task_write) */
    .model = &zplrnt_model,
};

int tila_insert_zplrnt(const tila_task_t *t, int m, int n, starpu_data_handle_t A, int i0, int j0,
                       unsigned long long seed)
{
    struct zplrnt_args args = { .m = m, .n = n, .i0 = i0, .j0 = j0, .seed = seed };
    struct zplrnt_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zplrnt, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, tila_task_write(t, A), A,
                                TILA_TASK_OPTIONS(t, "zplrnt", 0), 0);
    return tila_task_submitted(t, rc);
}
