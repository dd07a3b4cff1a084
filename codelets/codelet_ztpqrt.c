/**
 * @file codelet_ztpqrt.c
 * @brief TSQRT and TTQRT tile codelets: QR of a triangle stacked on a square or a triangle.
 * @precisions normal z -> c d s
 *
 * Both are LAPACK's ?tpqrt operation (recursive on the CPU: core_ztpqrt.c),
 * with l = 0 (TS: the tile below is full) or l = its rows (TT: the tile below is a
 * triangle from GEQRT, its reflectors below the diagonal are left untouched),
 * so they share the functions and differ in their perfmodels, which the scheduler needs
 * apart: a TT kernel costs about a third of a TS one.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct ztpqrt_args {
    tila_cl_base_t base;
    int m, n, l, ib;
};

static void ztpqrt_cpu(void *buffers[], void *cl_arg)
{
    const struct ztpqrt_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]),
                   T = tila_cl_tile(buffers[2]);
    int info = tila_cl_scratch(buffers[3], tila_qr_work_tpqrt(a->m, a->n, a->ib), 11);
    if (!info)
        info = tila_core_ztpqrt(a->m, a->n, a->l, a->ib, A.ptr, A.ld, B.ptr, B.ld, T.ptr, T.ld,
                                tila_cl_vector(buffers[3]));
    tila_cl_check(&a->base, "tila_core_ztpqrt", info, 0);
}

#ifdef TILA_USE_CUDA
static void ztpqrt_cuda(void *buffers[], void *cl_arg)
{
    const struct ztpqrt_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]),
                   T = tila_cl_tile(buffers[2]);
    cuDoubleComplex *work = tila_cl_vector(buffers[3]);
    size_t dbytes, hbytes;
    void *dwork = NULL, *hwork = NULL;
    int info = tila_cl_scratch(buffers[3], tila_qr_work_tpqrt(a->m, a->n, a->ib), 13);
    if (!info)
        info = tila_cuda_ztpqrt_worksize(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n,
                                         a->ib, T.ptr, T.ld, work, &dbytes, &hbytes);
    if (!info) info = tila_cuda_workspace(dbytes, &dwork, hbytes, &hwork);
    if (!info)
        info = tila_cuda_ztpqrt(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n, a->l,
                                a->ib, A.ptr, A.ld, B.ptr, B.ld, T.ptr, T.ld, work, dwork, dbytes,
                                hwork, hbytes);
    if (!info && hbytes) info = tila_cuda_host_workspace_queued();
    tila_cl_check(&a->base, "tila_cuda_ztpqrt", info, 0);
}
#endif

static struct starpu_perfmodel ztsqrt_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_ztsqrt",
};

static struct starpu_perfmodel zttqrt_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zttqrt",
};

struct starpu_codelet tila_cl_ztsqrt = {
    .name = "ztsqrt",
    .cpu_funcs = { ztpqrt_cpu },
    TILA_CL_CUDA(ztpqrt_cuda).nbuffers =
        STARPU_VARIABLE_NBUFFERS, /* A, B RW, T W (tila_task_write), work SCRATCH */
    .model = &ztsqrt_model,
};

struct starpu_codelet tila_cl_zttqrt = {
    .name = "zttqrt",
    .cpu_funcs = { ztpqrt_cpu },
    TILA_CL_CUDA(ztpqrt_cuda).nbuffers =
        STARPU_VARIABLE_NBUFFERS, /* A, B RW, T W (tila_task_write), work SCRATCH */
    .model = &zttqrt_model,
};

/* Householder flops of ?tpqrt: 4 (rows of v_j) (n - j) summed over the n columns. */
static double ztpqrt_flops(int m, int n, int l)
{
    double M = m, N = n, L = l;
    double flops =
        2 * N * N * (M - L) + 4 * (L * L * N / 2 - L * L * L / 3 + L * (N - L) * (N - L) / 2);
#if defined(COMPLEX)
    flops *= 4;
#endif
    return flops;
}

static int ztpqrt_insert(const tila_task_t *t, struct starpu_codelet *cl, const char *name, int m,
                         int n, int l, int ib, starpu_data_handle_t A, starpu_data_handle_t B,
                         starpu_data_handle_t T, starpu_data_handle_t work)
{
    struct ztpqrt_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a) *a = (struct ztpqrt_args){ .base = a->base, .m = m, .n = n, .l = l, .ib = ib };
    rc =
        starpu_mpi_task_insert(tila_starpu_comm(), cl, STARPU_CL_ARGS, a, a ? sizeof *a : 0,
                               STARPU_RW, A, STARPU_RW, B, tila_task_write(t, T), T, STARPU_SCRATCH,
                               work, TILA_TASK_OPTIONS(t, name, ztpqrt_flops(m, n, l)), 0);
    return tila_task_submitted(t, rc);
}

int tila_insert_ztsqrt(const tila_task_t *t, int m, int n, int ib, starpu_data_handle_t A,
                       starpu_data_handle_t B, starpu_data_handle_t T, starpu_data_handle_t work)
{
    return ztpqrt_insert(t, &tila_cl_ztsqrt, "ztsqrt", m, n, 0, ib, A, B, T, work);
}

int tila_insert_zttqrt(const tila_task_t *t, int m, int n, int ib, starpu_data_handle_t A,
                       starpu_data_handle_t B, starpu_data_handle_t T, starpu_data_handle_t work)
{
    return ztpqrt_insert(t, &tila_cl_zttqrt, "zttqrt", m, n, m, ib, A, B, T, work);
}
