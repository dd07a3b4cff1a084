/**
 * @file codelet_zgeqrt.c
 * @brief GEQRT tile codelet: QR of a tile, V and R in place, block factors in a T tile.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zgeqrt_args {
    tila_cl_base_t base;
    int m, n, ib;
};

/* A's QR factorization, its reflectors in A and T, by the worker's kernel (tila_cl_run), once
 * the scratch is checked (tila_cl_scratch: the work argument's position in that kernel); on a
 * GPU with cuSOLVER's workspaces in the worker's. */
static int zgeqrt_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zgeqrt_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), T = tila_cl_tile(buffers[1]);
    int cuda = tila_cl_on_cuda();
    *kernel = cuda ? "tila_cuda_zgeqrt" : "tila_core_zgeqrt";
    int info = tila_cl_scratch(buffers[2], tila_qr_work_geqrt(a->m, a->n, a->ib), cuda ? 10 : 8);
    if (info) return info;
#ifdef TILA_USE_CUDA
    if (cuda) {
        cuDoubleComplex *tau = tila_cl_vector(buffers[2]);
        size_t dbytes, hbytes;
        void *dwork = NULL, *hwork = NULL;
        info = tila_cuda_zgeqrt_worksize(tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n,
                                         a->ib, A.ptr, A.ld, tau, T.ptr, T.ld, &dbytes, &hbytes);
        if (!info) info = tila_cuda_workspace(dbytes, &dwork, hbytes, &hwork);
        if (!info)
            info =
                tila_cuda_zgeqrt(tila_cublas_handle(), tila_cl_larft_ut_min(),
                                 tila_cusolver_handle(), tila_cusolver_params(), a->m, a->n, a->ib,
                                 A.ptr, A.ld, T.ptr, T.ld, tau, dwork, dbytes, hwork, hbytes);
        if (!info && hbytes) info = tila_cuda_host_workspace_queued();
        return info;
    }
#endif
    return tila_core_zgeqrt(a->m, a->n, a->ib, A.ptr, A.ld, T.ptr, T.ld,
                            tila_cl_vector(buffers[2]));
}

static void zgeqrt_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zgeqrt_kernel);
}

static struct starpu_perfmodel zgeqrt_model = TILA_CL_HISTORY_MODEL("tila_zgeqrt");

struct starpu_codelet tila_cl_zgeqrt = {
    .name = "zgeqrt",
    TILA_CL_FUNCS(zgeqrt_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A RW, T W (tila_task_write), work SCRATCH */
    .model = &zgeqrt_model,
};

/**
 * Flops of a QR factorization of an m x n matrix, LAPACK's leading terms:
 * 2 m n^2 - 2 n^3 / 3 for m >= n (2 n m^2 - 2 m^3 / 3 otherwise), 4 times that in complex.
 */
double tila_zgeqrf_flops(int m, int n)
{
    double big = m > n ? m : n, k = m < n ? m : n;
    double flops = 2 * big * k * k - 2 * k * k * k / 3;
#if defined(COMPLEX)
    flops *= 4;
#endif
    return flops;
}

int tila_insert_zgeqrt(const tila_task_t *t, int m, int n, int ib, starpu_data_handle_t A,
                       starpu_data_handle_t T, starpu_data_handle_t work)
{
    struct zgeqrt_args args = { .m = m, .n = n, .ib = ib };
    struct zgeqrt_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zgeqrt, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_RW, A, tila_task_write(t, T), T,
                                STARPU_SCRATCH, work,
                                TILA_TASK_OPTIONS(t, "zgeqrt", tila_zgeqrf_flops(m, n)), 0);
    return tila_task_submitted(t, rc);
}
