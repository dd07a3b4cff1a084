/**
 * @file codelet_zcholqr_col.c
 * @brief CHOLQR_COL codelet: QR of a column of tiles by Cholesky QR and Householder
 *        reconstruction (V and R in place), the triangular factor of its block reflector in a
 *        T tile: the result of GEQRT_COL, in gemm-rate work.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>
#include <string.h>

#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

/* Bytes of the kernels' work (tila_core_zcholqr_col_work), up to where the arrays start. */
static size_t cholqr_work_bytes(int m, int n)
{
    return tila_cl_align8(tila_core_zcholqr_col_work(m, n) * sizeof(tila_complex64_t));
}

/* The task's buffers are the panel's tiles, then T, then the scratch vector. */

/*
 * Whether the panel's solves A R^{-1} go by R's inverse and a GEMM a tile (where its
 * condition allows: tila_core_zcholqr_inverse_ok) rather than a TRSM a tile:
 * TILA_CHOLQR_SOLVE=inv or trsm; auto (or unset) takes the inverse on GPUs, whose TRSM on
 * a tall tile runs far below their GEMM (bench/LOG.md), and TRSM on CPUs, where the
 * single-threaded TRSM is near GEMM's rate and the inverse would double the flops.  Read
 * at every task, so that a program (or the suite) may change it between calls.
 */
static int cholqr_inverse(int cuda)
{
    const char *v = getenv("TILA_CHOLQR_SOLVE");
    if (!v || !*v || !strcmp(v, "auto")) return cuda;
    if (!strcmp(v, "inv")) return 1;
    if (!strcmp(v, "trsm")) return 0;
    static int said; /* a race prints it twice at most */
    if (!said) {
        said = 1;
        tila_error("tila_zgeqrf", "TILA_CHOLQR_SOLVE=%s is none of inv, trsm and auto: auto taken",
                   v);
    }
    return cuda;
}

#ifdef TILA_USE_CUDA
/*
 * The rounds run on the device and wait for it after each Cholesky factorization (the next
 * step depends on its values); the small LU of the reconstruction runs here on the host
 * buffers (tila_core_zunhr_col), and the rest of it on the device again.  Each round's Gram
 * matrix is one batched GEMM over the tiles (TILA_CUDA_CHOLQR_BATCH=off: a HERK a tile,
 * each filling a few of the GPU's multiprocessors; compared in tools/gpu-diag).
 */
static int zcholqr_col_cuda(void *buffers[], const tila_cl_panel_args_t *a)
{
    int count = a->count, m = a->m, n = a->n;
    tila_cl_tile_t T = tila_cl_tile(buffers[count]);
    cuDoubleComplex *work = tila_cl_vector(buffers[count + 1]);
    size_t nn = (size_t)n * n;
    cuDoubleComplex *panel = work + 2 * nn + n, *tau = panel + (size_t)m * n;
    size_t dbytes, hsolver, hown;
    void *dwork = NULL, *host = NULL, **tiles = NULL;
    int *ld = NULL, *rows = NULL, done = 0, path = 2, inverse = cholqr_inverse(1);
    double rcond = 0.0;
    int info = tila_cuda_zcholqr_col_worksize(tila_cusolver_handle(), tila_cusolver_params(), m, n,
                                              panel, tau, T.ptr, T.ld, &dbytes, &hsolver, &hown);
    size_t hs = tila_cl_align8(hsolver);
    if (!info)
        info = tila_cl_cuda_panel_workspace(buffers, count, dbytes, hs + hown, &dwork, &host,
                                            &tiles, &ld, &rows);
    void *own = (char *)host + hs;
    static int batch = -1; /* read once; threads that race read the same value */
    if (batch < 0) {
        const char *v = getenv("TILA_CUDA_CHOLQR_BATCH");
        batch = !(v && strcmp(v, "off") == 0);
    }
    if (!info)
        info = tila_cuda_zcholqr_col(tila_cublas_handle(), tila_cusolver_handle(),
                                     tila_cusolver_params(), starpu_cuda_get_local_stream(), m, n,
                                     rows, (cuDoubleComplex *const *)tiles, ld, T.ptr, T.ld, work,
                                     dwork, dbytes, host, hsolver, own, batch, inverse,
                                     tila_cl_larft_ut_min(), &done, &path, &rcond);
    if (!info && done) {
        cuDoubleComplex *Q, *D;
        tila_cuda_zcholqr_col_host(own, n, &Q, &D);
        /* L, U and D here; T on the device (tila_cuda_zcholqr_col_finish). */
        info = tila_core_zunhr_col(n, (tila_complex64_t *)Q, n, NULL, n, (tila_complex64_t *)D);
        /* kappa(U R) <= kappa(U) kappa(R), U on Q's upper triangle, as the CPU kernel. */
        if (inverse)
            inverse = tila_core_zcholqr_inverse_ok(
                tila_core_zcholqr_rcond(n, (tila_complex64_t *)Q, n) * rcond, n);
        if (!info)
            info = tila_cuda_zcholqr_col_finish(tila_cublas_handle(), tila_cusolver_handle(),
                                                starpu_cuda_get_local_stream(), m, n, rows,
                                                (cuDoubleComplex *const *)tiles, ld, T.ptr, T.ld,
                                                work, dwork, dbytes, host, hsolver, own, inverse);
    }
    /* Queued copies and cuSOLVER read the host workspace after this function returns. */
    if (!info) info = tila_cuda_host_workspace_queued();
    return info;
}
#endif

/* The panel's CholeskyQR (its Householder reflectors in the tiles and T) by the worker's
 * kernel (tila_cl_run). */
static int zcholqr_col_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const tila_cl_panel_args_t *a = cl_arg;
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zcholqr_col";
        return zcholqr_col_cuda(buffers, a);
    }
#endif
    *kernel = "tila_core_zcholqr_col";
    tila_cl_cpu_panel_t P = tila_cl_cpu_panel(buffers, a->count, cholqr_work_bytes(a->m, a->n));
    return tila_core_zcholqr_col(a->m, a->n, P.rows, (tila_complex64_t *const *)P.tiles, P.ld,
                                 P.T.ptr, P.T.ld, (tila_complex64_t *)P.work, cholqr_inverse(0),
                                 NULL, NULL);
}

static void zcholqr_col_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zcholqr_col_kernel);
}

/* per column height, as GEQRT_COL's */
static struct starpu_perfmodel zcholqr_col_model = TILA_CL_PANEL_MODEL("tila_zcholqr_col");

struct starpu_codelet tila_cl_zcholqr_col = {
    .name = "zcholqr_col",
    TILA_CL_FUNCS(zcholqr_col_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* the panel's tiles, T, the scratch */
    .model = &zcholqr_col_model,
};

/**
 * Scratch elements of the CHOLQR_COL kernels for panels of at most m x n in at most `count`
 * tiles: tila_core_zcholqr_col_work(m, n), then the tiles' addresses, leading dimensions and
 * rows.
 */
size_t tila_zcholqr_col_scratch(int m, int n, int count)
{
    size_t bytes = cholqr_work_bytes(m, n) + tila_cl_panel_arrays_bytes(count);
    return (bytes + sizeof(tila_complex64_t) - 1) / sizeof(tila_complex64_t);
}

/**
 * A: the handles of the `count` tiles of the panel, top down, of any heights that add up
 * to m; T: a tile of at least min(m, n) x min(m, n); work: a vector of at least
 * tila_zcholqr_col_scratch(m, n, count) elements.
 */
int tila_insert_zcholqr_col(const tila_task_t *t, int m, int n, int count,
                            const starpu_data_handle_t *A, starpu_data_handle_t T,
                            starpu_data_handle_t work)
{
    return tila_insert_zpanel_col(t, &tila_cl_zcholqr_col, "zcholqr_col", m, n, count, A, T,
                                  work);
}
