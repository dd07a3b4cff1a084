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

/* The QR factorization of the triangle A on the tile (or triangle) B, its reflectors in B and
 * T, by the worker's kernel (tila_cl_run), once the scratch is checked (tila_cl_scratch: the
 * work argument's position in that kernel); on a GPU with cuSOLVER's workspaces in the
 * worker's. */
static int ztpqrt_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct ztpqrt_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]),
                   T = tila_cl_tile(buffers[2]);
    int cuda = tila_cl_on_cuda();
    *kernel = cuda ? "tila_cuda_ztpqrt" : "tila_core_ztpqrt";
    int info = tila_cl_scratch(buffers[3], tila_qr_work_tpqrt(a->m, a->n, a->ib), cuda ? 13 : 11);
    if (info) return info;
#ifdef TILA_USE_CUDA
    if (cuda) {
        cuDoubleComplex *work = tila_cl_vector(buffers[3]);
        size_t dbytes, hbytes;
        void *dwork = NULL, *hwork = NULL;
        info = tila_cuda_ztpqrt_worksize(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n,
                                         a->ib, T.ptr, T.ld, work, &dbytes, &hbytes);
        if (!info) info = tila_cuda_workspace(dbytes, &dwork, hbytes, &hwork);
        if (!info)
            info = tila_cuda_ztpqrt(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n,
                                    a->l, a->ib, A.ptr, A.ld, B.ptr, B.ld, T.ptr, T.ld, work, dwork,
                                    dbytes, hwork, hbytes);
        if (!info && hbytes) info = tila_cuda_host_workspace_queued();
        return info;
    }
#endif
    return tila_core_ztpqrt(a->m, a->n, a->l, a->ib, A.ptr, A.ld, B.ptr, B.ld, T.ptr, T.ld,
                            tila_cl_vector(buffers[3]));
}

static void ztpqrt_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, ztpqrt_kernel);
}

static struct starpu_perfmodel ztsqrt_model = TILA_CL_HISTORY_MODEL("tila_ztsqrt");

static struct starpu_perfmodel zttqrt_model = TILA_CL_HISTORY_MODEL("tila_zttqrt");

struct starpu_codelet tila_cl_ztsqrt = {
    .name = "ztsqrt",
    TILA_CL_FUNCS(ztpqrt_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A, B RW, T W (tila_task_write), work SCRATCH */
    .model = &ztsqrt_model,
};

struct starpu_codelet tila_cl_zttqrt = {
    .name = "zttqrt",
    TILA_CL_FUNCS(ztpqrt_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A, B RW, T W (tila_task_write), work SCRATCH */
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
    struct ztpqrt_args args = { .m = m, .n = n, .l = l, .ib = ib };
    struct ztpqrt_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
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
