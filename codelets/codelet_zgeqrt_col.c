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
#include "core/core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda/cuda_z.h"
#endif

struct zgeqrt_col_args {
    tila_cl_base_t base;
    int m, n, mb;
};

/*
 * The task's buffers are the panel's tiles, then T, then the scratch vector.  Fills a
 * freshly allocated array of the tiles' pointers (*ptrs) and leading dimensions (*ld);
 * returns the number of tiles, or 0 after recording TILA_ERR_NOMEM.
 */
static int col_tiles(void *buffers[], const struct zgeqrt_col_args *a, void ***ptrs, int **ld)
{
    int count = (a->m + a->mb - 1) / a->mb;
    *ptrs = malloc(sizeof **ptrs * (size_t)count);
    *ld = malloc(sizeof **ld * (size_t)count);
    if (!*ptrs || !*ld) {
        free(*ptrs);
        free(*ld);
        tila_cl_fail(&a->base, TILA_ERR_NOMEM);
        return 0;
    }
    for (int i = 0; i < count; i++) {
        (*ptrs)[i] = (void *)STARPU_MATRIX_GET_PTR(buffers[i]);
        (*ld)[i] = (int)STARPU_MATRIX_GET_LD(buffers[i]);
    }
    return count;
}

static void zgeqrt_col_cpu(void *buffers[], void *cl_arg)
{
    const struct zgeqrt_col_args *a = cl_arg;
    void **tiles;
    int *ld, count;
    if (tila_cl_skip(&a->base) || !(count = col_tiles(buffers, a, &tiles, &ld)))
        return;
    tila_core_zgeqrt_col(a->m, a->n, a->mb, (tila_complex64_t *const *)tiles, ld,
                         (tila_complex64_t *)STARPU_MATRIX_GET_PTR(buffers[count]),
                         (int)STARPU_MATRIX_GET_LD(buffers[count]),
                         (tila_complex64_t *)STARPU_VECTOR_GET_PTR(buffers[count + 1]));
    free(tiles);
    free(ld);
}

#ifdef TILA_USE_CUDA
static void zgeqrt_col_cuda(void *buffers[], void *cl_arg)
{
    const struct zgeqrt_col_args *a = cl_arg;
    void **tiles;
    int *ld, count;
    if (tila_cl_skip(&a->base) || !(count = col_tiles(buffers, a, &tiles, &ld)))
        return;
    cuDoubleComplex *T = (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[count]);
    cuDoubleComplex *panel = (cuDoubleComplex *)STARPU_VECTOR_GET_PTR(buffers[count + 1]);
    cuDoubleComplex *tau = panel + (size_t)a->m * a->n;
    int ldt = (int)STARPU_MATRIX_GET_LD(buffers[count]);
    size_t dbytes, hbytes;
    tila_cuda_zgeqrt_worksize(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n, a->n,
                              panel, a->m, tau, T, ldt, &dbytes, &hbytes);
    tila_cuda_zgeqrt_col(tila_cusolver_handle(), tila_cusolver_params(),
                         starpu_cuda_get_local_stream(), a->m, a->n, a->mb,
                         (cuDoubleComplex *const *)tiles, ld, T, ldt, panel, tau,
                         tila_cuda_workspace(dbytes), dbytes, tila_cuda_host_workspace(hbytes),
                         hbytes);
    free(tiles);
    free(ld);
}
#endif

static struct starpu_perfmodel zgeqrt_col_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zgeqrt_col",
};

struct starpu_codelet tila_cl_zgeqrt_col = {
    .name = "zgeqrt_col",
    .cpu_funcs = { zgeqrt_col_cpu },
#ifdef TILA_USE_CUDA
    .cuda_funcs = { zgeqrt_col_cuda },
    .cuda_flags = { STARPU_CUDA_ASYNC },
#endif
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* the panel's tiles, T, the scratch */
    .model = &zgeqrt_col_model,
};

/** Scratch elements of the panel kernels for panels of at most m x n. */
size_t tila_zgeqrt_col_scratch(int m, int n)
{
    return (size_t)m * (size_t)n + (size_t)n * (size_t)n;
}

/**
 * A: the handles of the ceil(m / mb) tiles of the panel, top down; T: a tile of at least
 * min(m, n) x min(m, n); work: a vector of tila_zgeqrt_col_scratch(m, n) elements.
 */
int tila_insert_zgeqrt_col(const tila_task_t *t, int m, int n, int mb,
                           const starpu_data_handle_t *A, starpu_data_handle_t T,
                           starpu_data_handle_t work)
{
    int count = (m + mb - 1) / mb;
    struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(count + 2));
    if (!descr)
        return TILA_ERR_NOMEM;
    for (int i = 0; i < count; i++)
        descr[i] = (struct starpu_data_descr){ .handle = A[i], .mode = STARPU_RW };
    descr[count] = (struct starpu_data_descr){ .handle = T, .mode = STARPU_W };
    descr[count + 1] = (struct starpu_data_descr){ .handle = work, .mode = STARPU_SCRATCH };
    struct zgeqrt_col_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (!rc) {
        if (a)
            *a = (struct zgeqrt_col_args){ a->base, m, n, mb };
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zgeqrt_col,
                                    STARPU_CL_ARGS, a, a ? sizeof *a : 0,
                                    STARPU_DATA_MODE_ARRAY, descr, count + 2,
                                    TILA_TASK_OPTIONS(t, "zgeqrt_col", tila_zgeqrf_flops(m, n)),
                                    0);
        rc = tila_task_submitted(t, rc);
    }
    free(descr);
    return rc;
}
