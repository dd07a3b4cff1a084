/**
 * @file codelet_zlarft_col.c
 * @brief LARFT_COL codelet: the triangular factor T of the block reflector of a column of
 *        tiles from its reflectors (V, as ?geqrf leaves it) and their scalar factors tau:
 *        the PANEL scheme's T, rebuilt from what LAPACK and ScaLAPACK keep.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>

#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

/* tau travels in the arguments: a few scalars, read on the executing rank only. */
struct zlarft_col_args {
    tila_cl_base_t base;
    int m, k, count; /**< the panel: m rows in `count` tiles, k reflectors */
    tila_complex64_t tau[];
};

/* Bytes of the gathered m x k panel and (on a GPU) tau after it, up to where the tiles'
 * arrays start. */
static size_t col_work_bytes(int m, int k)
{
    return tila_cl_align8(((size_t)m * k + (size_t)k) * sizeof(tila_complex64_t));
}

/* Flops of ?larft for k reflectors of length m (leading terms: the inner products of
 * the reflectors, then the triangular products), 4 times as many in complex. */
static double zlarft_flops(int m, int k)
{
    double flops = ((double)m - k / 3.0) * k * k;
#if defined(COMPLEX)
    flops *= 4;
#endif
    return flops;
}

/* The task's buffers are the panel's tiles (read), then T, then the scratch vector. */

#ifdef TILA_USE_CUDA
static int zlarft_col_cuda(void *buffers[], const struct zlarft_col_args *a)
{
    int count = a->count;
    tila_cl_tile_t T = tila_cl_tile(buffers[count]);
    cuDoubleComplex *panel = tila_cl_vector(buffers[count + 1]);
    cuDoubleComplex *tau = panel + (size_t)a->m * a->k;
    size_t dbytes, hbytes;
    void *dwork = NULL, *host = NULL, **tiles = NULL;
    int *ld = NULL, *rows = NULL;
    int info =
        tila_cuda_zlarft_blocks_worksize(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->k,
                                         a->k, panel, a->m, tau, T.ptr, T.ld, &dbytes, &hbytes);
    /* The scratch is in device memory: the tile arrays go after cuSOLVER's host workspace. */
    if (!info)
        info = tila_cl_cuda_panel_workspace(buffers, count, dbytes, hbytes, &dwork, &host, &tiles,
                                            &ld, &rows);
    if (!info)
        info = tila_cuda_zlarft_col(
            tila_cublas_handle(), tila_cl_larft_ut_min(), tila_cusolver_handle(),
            tila_cusolver_params(), starpu_cuda_get_local_stream(), a->m, a->k, rows,
            (const cuDoubleComplex *const *)tiles, ld, (const cuDoubleComplex *)a->tau, T.ptr, T.ld,
            panel, tau, dwork, dbytes, host, hbytes);
    if (!info && hbytes) info = tila_cuda_host_workspace_queued();
    return info;
}
#endif

/* T of the panel's k reflectors by the worker's kernel (tila_cl_run). */
static int zlarft_col_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zlarft_col_args *a = cl_arg;
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zlarft_col";
        return zlarft_col_cuda(buffers, a);
    }
#endif
    *kernel = "tila_core_zlarft_col";
    tila_cl_cpu_panel_t P = tila_cl_cpu_panel(buffers, a->count, col_work_bytes(a->m, a->k));
    return tila_core_zlarft_col(a->m, a->k, P.rows, (const tila_complex64_t *const *)P.tiles, P.ld,
                                a->tau, P.T.ptr, P.T.ld, (tila_complex64_t *)P.work);
}

static void zlarft_col_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zlarft_col_kernel);
}

/* per column height: tila-calibrate --panel-tiles */
static struct starpu_perfmodel zlarft_col_model = TILA_CL_PANEL_MODEL("tila_zlarft_col");

struct starpu_codelet tila_cl_zlarft_col = {
    .name = "zlarft_col",
    TILA_CL_FUNCS(zlarft_col_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* the panel's tiles, T, the scratch */
    .model = &zlarft_col_model,
};

/**
 * Scratch elements of the LARFT_COL kernels for panels of at most m rows and k reflectors
 * in at most `count` tiles: the gathered panel (and, on a GPU, tau after it), then the
 * tiles' addresses, leading dimensions and rows.
 */
size_t tila_zlarft_col_scratch(int m, int k, int count)
{
    size_t bytes = col_work_bytes(m, k) + tila_cl_panel_arrays_bytes(count);
    return (bytes + sizeof(tila_complex64_t) - 1) / sizeof(tila_complex64_t);
}

/**
 * A: the handles of the `count` tiles of the panel, top down (read), of any heights that
 * add up to m; tau: its k scalar factors (copied into the task); T: a tile of at least
 * k x k; work: a vector of at least tila_zlarft_col_scratch(m, k, count) elements.
 */
int tila_insert_zlarft_col(const tila_task_t *t, int m, int k, int count,
                           const starpu_data_handle_t *A, const tila_complex64_t *tau,
                           starpu_data_handle_t T, starpu_data_handle_t work)
{
    struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(count + 2));
    if (!descr) return TILA_ERR_NOMEM;
    for (int i = 0; i < count; i++)
        descr[i] = (struct starpu_data_descr){ .handle = A[i], .mode = STARPU_R };
    descr[count] = (struct starpu_data_descr){ .handle = T, .mode = tila_task_write(t, T) };
    descr[count + 1] = (struct starpu_data_descr){ .handle = work, .mode = STARPU_SCRATCH };
    struct zlarft_col_args *a;
    size_t size = sizeof *a + sizeof(tila_complex64_t) * (size_t)k;
    int rc = tila_task_args(t, size, (void **)&a);
    if (!rc) {
        if (a) {
            a->m = m;
            a->k = k;
            a->count = count;
            for (int j = 0; j < k; j++)
                a->tau[j] = tau[j];
        }
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlarft_col, STARPU_CL_ARGS, a,
                                    a ? size : 0, STARPU_DATA_MODE_ARRAY, descr, count + 2,
                                    TILA_TASK_OPTIONS(t, "zlarft_col", zlarft_flops(m, k)), 0);
        rc = tila_task_submitted(t, rc);
    }
    free(descr);
    return rc;
}
