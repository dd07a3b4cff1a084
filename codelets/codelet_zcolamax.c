/**
 * @file codelet_zcolamax.c
 * @brief COLAMAX tile codelet: the largest entry of each column of a tile, into a vector
 * (the stopping test of mixed-precision refinement, as LAPACK's i?amax measures); and of
 * each tile of a block column in one task (tila_insert_zcolamax_tiles).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

/* Buffers: `count` tiles of n columns (their rows each its own), then the vector whose
 * segment i (n entries from i n) takes tile i's maxima. */
struct zcolamax_args {
    tila_cl_base_t base;
    int n, count;
};

/* Each tile's column maxima into its segment of the vector by the worker's kernel
 * (tila_cl_run). */
static int zcolamax_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zcolamax_args *a = cl_arg;
    double *work = tila_cl_vector(buffers[a->count]);
    int rc = 0;
    for (int i = 0; i < a->count && !rc; i++) {
        tila_cl_tile_t A = tila_cl_tile(buffers[i]);
        int m = (int)STARPU_MATRIX_GET_NX(buffers[i]);
#ifdef TILA_USE_CUDA
        if (tila_cl_on_cuda()) {
            *kernel = "tila_cuda_zcolamax";
            rc = tila_cuda_zcolamax(starpu_cuda_get_local_stream(), m, a->n, A.ptr, A.ld,
                                    work + (size_t)i * a->n);
            continue;
        }
#endif
        *kernel = "tila_core_zcolamax";
        rc = tila_core_zcolamax(m, a->n, A.ptr, A.ld, work + (size_t)i * a->n);
    }
    return rc;
}

static void zcolamax_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zcolamax_kernel);
}

static struct starpu_perfmodel zcolamax_model = TILA_CL_HISTORY_MODEL("tila_zcolamax");

struct starpu_codelet tila_cl_zcolamax = {
    .name = "zcolamax",
    TILA_CL_FUNCS(zcolamax_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* the tiles R, work W (tila_task_write) */
    .model = &zcolamax_model,
};

/** work (a vector of n reals of the precision) = the largest entry of each of the m x n
 * tile A's columns. */
int tila_insert_zcolamax(const tila_task_t *t, int m, int n, starpu_data_handle_t A,
                         starpu_data_handle_t work)
{
    return tila_insert_zcolamax_tiles(t, 1, m, n, &A, work);
}

/** The same for `count` tiles of n columns and m rows in all, in one task: tile i's maxima
 * into entries i n .. i n + n - 1 of work (count n reals of the precision). */
int tila_insert_zcolamax_tiles(const tila_task_t *t, int count, int m, int n,
                               const starpu_data_handle_t *A, starpu_data_handle_t work)
{
    struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(count + 1));
    if (!descr) return TILA_ERR_NOMEM;
    for (int i = 0; i < count; i++)
        descr[i] = (struct starpu_data_descr){ .handle = A[i], .mode = STARPU_R };
    descr[count] = (struct starpu_data_descr){ .handle = work, .mode = tila_task_write(t, work) };
    struct zcolamax_args args = { .n = n, .count = count }, *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    double flops = (double)m * n;
    if (!rc) {
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zcolamax, STARPU_CL_ARGS, a,
                                    a ? sizeof *a : 0, STARPU_DATA_MODE_ARRAY, descr, count + 1,
                                    TILA_TASK_OPTIONS(t, "zcolamax",
                                                      count > 1 ? tila_task_gpu_flops(t, flops)
                                                                : flops),
                                    0);
        rc = tila_task_submitted(t, rc);
    }
    free(descr);
    return rc;
}
