/**
 * @file codelet_zunmqr.c
 * @brief UNMQR tile codelet: apply Q or Q^H of a GEQRT tile to a tile, left or right.
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

struct zunmqr_args {
    tila_cl_base_t base;
    tila_side_t side;
    tila_trans_t trans;
    int m, n, k, ib;
};

/* C = op(Q) C or C op(Q), Q = I - V T V^H, by the worker's kernel (tila_cl_run), once the
 * scratch is checked (tila_cl_scratch: the work argument's position in that kernel). */
static int zunmqr_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zunmqr_args *a = cl_arg;
    tila_cl_tile_t V = tila_cl_tile(buffers[0]), T = tila_cl_tile(buffers[1]),
                   C = tila_cl_tile(buffers[2]);
    int cuda = tila_cl_on_cuda();
    *kernel = cuda ? "tila_cuda_zunmqr" : "tila_core_zunmqr";
    int info = tila_cl_scratch(buffers[3],
                               tila_qr_work_update(a->side == TILA_LEFT, a->m, a->n, a->k, a->ib),
                               cuda ? 14 : 13);
    if (info) return info;
#ifdef TILA_USE_CUDA
    if (cuda)
        return tila_cuda_zunmqr(tila_cublas_handle(), a->side, a->trans, a->m, a->n, a->k, a->ib,
                                V.ptr, V.ld, T.ptr, T.ld, C.ptr, C.ld, tila_cl_vector(buffers[3]));
#endif
    return tila_core_zunmqr(a->side, a->trans, a->m, a->n, a->k, a->ib, V.ptr, V.ld, T.ptr, T.ld,
                            C.ptr, C.ld, tila_cl_vector(buffers[3]));
}

static void zunmqr_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zunmqr_kernel);
}

static struct starpu_perfmodel zunmqr_model = TILA_CL_HISTORY_MODEL("tila_zunmqr");

struct starpu_codelet tila_cl_zunmqr = {
    .name = "zunmqr",
    TILA_CL_FUNCS(zunmqr_run),
    .nbuffers = 4,
    .modes = { STARPU_R, STARPU_R, STARPU_RW, STARPU_SCRATCH },
    .model = &zunmqr_model,
};

int tila_insert_zunmqr(const tila_task_t *t, tila_side_t side, tila_trans_t trans, int m, int n,
                       int k, int ib, starpu_data_handle_t V, starpu_data_handle_t T,
                       starpu_data_handle_t C, starpu_data_handle_t work)
{
    struct zunmqr_args args = { .side = side, .trans = trans, .m = m, .n = n, .k = k, .ib = ib };
    struct zunmqr_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    /* ?ormqr's count: 2 k (2 m n) - k^2 times the other dimension. */
    double K = k, flops = 4.0 * m * n * K - 2.0 * K * K * (side == TILA_LEFT ? n : m);
#if defined(COMPLEX)
    flops *= 4;
#endif
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zunmqr, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, V, STARPU_R, T, STARPU_RW, C,
                                STARPU_SCRATCH, work, TILA_TASK_OPTIONS(t, "zunmqr", flops), 0);
    return tila_task_submitted(t, rc);
}
