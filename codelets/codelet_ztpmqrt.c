/**
 * @file codelet_ztpmqrt.c
 * @brief TSMQR and TTMQR tile codelets: apply the Q of TSQRT / TTQRT to a pair of tiles.
 * @precisions normal z -> c d s
 *
 * Both are ?tpmqrt, with l = 0 (TS) or l = the rows of the eliminated triangle (TT); like
 * codelet_ztpqrt.c they share the functions and have their own perfmodels.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct ztpmqrt_args {
    tila_cl_base_t base;
    tila_side_t side;
    tila_trans_t trans;
    int m, n, k, l, ib;
};

/* A and B = op(Q) [A; B] (or [A B] op(Q)), Q of the pair's reflectors V, T, by the worker's
 * kernel (tila_cl_run), once the scratch is checked (tila_cl_scratch: the work argument's
 * position in that kernel). */
static int ztpmqrt_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct ztpmqrt_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]),
                   V = tila_cl_tile(buffers[2]), T = tila_cl_tile(buffers[3]);
    int cuda = tila_cl_on_cuda();
    *kernel = cuda ? "tila_cuda_ztpmqrt" : "tila_core_ztpmqrt";
    int info = tila_cl_scratch(buffers[4],
                               tila_qr_work_update(a->side == TILA_LEFT, a->m, a->n, a->k, a->ib),
                               cuda ? 17 : 16);
    if (info) return info;
#ifdef TILA_USE_CUDA
    if (cuda)
        return tila_cuda_ztpmqrt(tila_cublas_handle(), a->side, a->trans, a->m, a->n, a->k, a->l,
                                 a->ib, V.ptr, V.ld, T.ptr, T.ld, A.ptr, A.ld, B.ptr, B.ld,
                                 tila_cl_vector(buffers[4]));
#endif
    return tila_core_ztpmqrt(a->side, a->trans, a->m, a->n, a->k, a->l, a->ib, V.ptr, V.ld, T.ptr,
                             T.ld, A.ptr, A.ld, B.ptr, B.ld, tila_cl_vector(buffers[4]));
}

static void ztpmqrt_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, ztpmqrt_kernel);
}

static struct starpu_perfmodel ztsmqr_model = TILA_CL_HISTORY_MODEL("tila_ztsmqr");

static struct starpu_perfmodel zttmqr_model = TILA_CL_HISTORY_MODEL("tila_zttmqr");

struct starpu_codelet tila_cl_ztsmqr = {
    .name = "ztsmqr",
    TILA_CL_FUNCS(ztpmqrt_run),
    .nbuffers = 5,
    .modes = { STARPU_RW, STARPU_RW, STARPU_R, STARPU_R, STARPU_SCRATCH },
    .model = &ztsmqr_model,
};

struct starpu_codelet tila_cl_zttmqr = {
    .name = "zttmqr",
    TILA_CL_FUNCS(ztpmqrt_run),
    .nbuffers = 5,
    .modes = { STARPU_RW, STARPU_RW, STARPU_R, STARPU_R, STARPU_SCRATCH },
    .model = &zttmqr_model,
};

static int ztpmqrt_insert(const tila_task_t *t, struct starpu_codelet *cl, const char *name,
                          tila_side_t side, tila_trans_t trans, int m, int n, int k, int l, int ib,
                          starpu_data_handle_t A, starpu_data_handle_t B, starpu_data_handle_t V,
                          starpu_data_handle_t T, starpu_data_handle_t work)
{
    struct ztpmqrt_args
        args = { .side = side, .trans = trans, .m = m, .n = n, .k = k, .l = l, .ib = ib },
        *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    /* 4 (rows of v_j) times the other dimension per reflector, summed over the k. */
    double flops = 4.0 * m * n * k - 2.0 * l * l * (side == TILA_LEFT ? n : m);
#if defined(COMPLEX)
    flops *= 4;
#endif
    rc = starpu_mpi_task_insert(tila_starpu_comm(), cl, STARPU_CL_ARGS, a, a ? sizeof *a : 0,
                                STARPU_RW, A, STARPU_RW, B, STARPU_R, V, STARPU_R, T,
                                STARPU_SCRATCH, work, TILA_TASK_OPTIONS(t, name, flops), 0);
    return tila_task_submitted(t, rc);
}

int tila_insert_ztsmqr(const tila_task_t *t, tila_side_t side, tila_trans_t trans, int m, int n,
                       int k, int ib, starpu_data_handle_t A, starpu_data_handle_t B,
                       starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t work)
{
    return ztpmqrt_insert(t, &tila_cl_ztsmqr, "ztsmqr", side, trans, m, n, k, 0, ib, A, B, V, T,
                          work);
}

int tila_insert_zttmqr(const tila_task_t *t, tila_side_t side, tila_trans_t trans, int m, int n,
                       int k, int l, int ib, starpu_data_handle_t A, starpu_data_handle_t B,
                       starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t work)
{
    return ztpmqrt_insert(t, &tila_cl_zttmqr, "zttmqr", side, trans, m, n, k, l, ib, A, B, V, T,
                          work);
}
