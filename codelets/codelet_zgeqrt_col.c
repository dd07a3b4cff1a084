/**
 * @file codelet_zgeqrt_col.c
 * @brief GEQRT_COL codelet: QR of a column of tiles as one panel (V and R in place), the
 *        whole triangular factor of its block reflector in a T tile.
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

/* Bytes of the CPU kernel's work (m n + n n elements), up to where the arrays start. */
static size_t col_work_bytes(int m, int n)
{
    return tila_cl_align8(((size_t)m * n + (size_t)n * n) * sizeof(tila_complex64_t));
}

/* The task's buffers are the panel's tiles, then T, then the scratch vector. */

#ifdef TILA_USE_CUDA
static int zgeqrt_col_cuda(void *buffers[], const tila_cl_panel_args_t *a)
{
    int count = a->count;
    tila_cl_tile_t T = tila_cl_tile(buffers[count]);
    cuDoubleComplex *panel = tila_cl_vector(buffers[count + 1]);
    cuDoubleComplex *tau = panel + (size_t)a->m * a->n;
    size_t dbytes, hbytes;
    void *dwork = NULL, *host = NULL, **tiles = NULL;
    int *ld = NULL, *rows = NULL;
    int info = tila_cuda_zgeqrt_worksize(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n,
                                         a->n, panel, a->m, tau, T.ptr, T.ld, &dbytes, &hbytes);
    /* The scratch is in device memory: the tile arrays go after cuSOLVER's host workspace. */
    if (!info)
        info = tila_cl_cuda_panel_workspace(buffers, count, dbytes, hbytes, &dwork, &host, &tiles,
                                            &ld, &rows);
    if (!info)
        info = tila_cuda_zgeqrt_col(tila_cublas_handle(), tila_cl_larft_ut_min(),
                                    tila_cusolver_handle(), tila_cusolver_params(),
                                    starpu_cuda_get_local_stream(), a->m, a->n, rows,
                                    (cuDoubleComplex *const *)tiles, ld, T.ptr, T.ld, panel, tau,
                                    dwork, dbytes, host, hbytes);
    /* The tile arrays are read at queuing: the event guards cuSOLVER's part only. */
    if (!info && hbytes) info = tila_cuda_host_workspace_queued();
    return info;
}
#endif

/* The panel's QR factorization (its reflectors in the tiles and T) by the worker's kernel
 * (tila_cl_run). */
static int zgeqrt_col_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const tila_cl_panel_args_t *a = cl_arg;
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zgeqrt_col";
        return zgeqrt_col_cuda(buffers, a);
    }
#endif
    *kernel = "tila_core_zgeqrt_col";
    tila_cl_cpu_panel_t P = tila_cl_cpu_panel(buffers, a->count, col_work_bytes(a->m, a->n));
    return tila_core_zgeqrt_col(a->m, a->n, P.rows, (tila_complex64_t *const *)P.tiles, P.ld,
                                P.T.ptr, P.T.ld, (tila_complex64_t *)P.work);
}

static void zgeqrt_col_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zgeqrt_col_kernel);
}

/* per column height: tila-calibrate --panel-tiles */
static struct starpu_perfmodel zgeqrt_col_model = TILA_CL_PANEL_MODEL("tila_zgeqrt_col");

struct starpu_codelet tila_cl_zgeqrt_col = {
    .name = "zgeqrt_col",
    TILA_CL_FUNCS(zgeqrt_col_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* the panel's tiles, T, the scratch */
    .model = &zgeqrt_col_model,
};

/**
 * Scratch elements of the panel kernels for panels of at most m x n in at most `count`
 * tiles: the CPU kernel's m n + n n, then the tiles' addresses, leading dimensions and rows.
 */
size_t tila_zgeqrt_col_scratch(int m, int n, int count)
{
    size_t bytes = col_work_bytes(m, n) + tila_cl_panel_arrays_bytes(count);
    return (bytes + sizeof(tila_complex64_t) - 1) / sizeof(tila_complex64_t);
}

/**
 * A panel factorization's task (GEQRT_COL, CHOLQR_COL: codelet cl, task name `name`): A,
 * the handles of the `count` tiles of the panel, top down, of any heights that add up to
 * m; T: a tile of at least min(m, n) x min(m, n); work: a vector of the codelet's scratch.
 */
int tila_insert_zpanel_col(const tila_task_t *t, struct starpu_codelet *cl, const char *name,
                           int m, int n, int count, const starpu_data_handle_t *A,
                           starpu_data_handle_t T, starpu_data_handle_t work)
{
    struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(count + 2));
    if (!descr) return TILA_ERR_NOMEM;
    for (int i = 0; i < count; i++)
        descr[i] = (struct starpu_data_descr){ .handle = A[i], .mode = STARPU_RW };
    descr[count] = (struct starpu_data_descr){ .handle = T, .mode = tila_task_write(t, T) };
    descr[count + 1] = (struct starpu_data_descr){ .handle = work, .mode = STARPU_SCRATCH };
    tila_cl_panel_args_t *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (!rc) {
        if (a) *a = (tila_cl_panel_args_t){ .base = a->base, .m = m, .n = n, .count = count };
        rc = starpu_mpi_task_insert(tila_starpu_comm(), cl, STARPU_CL_ARGS, a, a ? sizeof *a : 0,
                                    STARPU_DATA_MODE_ARRAY, descr, count + 2,
                                    TILA_TASK_OPTIONS(t, name, tila_zgeqrf_flops(m, n)), 0);
        rc = tila_task_submitted(t, rc);
    }
    free(descr);
    return rc;
}

/**
 * A: the handles of the `count` tiles of the panel, top down, of any heights that add up
 * to m; T: a tile of at least min(m, n) x min(m, n); work: a vector of at least
 * tila_zgeqrt_col_scratch(m, n, count) elements.
 */
int tila_insert_zgeqrt_col(const tila_task_t *t, int m, int n, int count,
                           const starpu_data_handle_t *A, starpu_data_handle_t T,
                           starpu_data_handle_t work)
{
    return tila_insert_zpanel_col(t, &tila_cl_zgeqrt_col, "zgeqrt_col", m, n, count, A, T, work);
}
