/**
 * @file codelet_zlaset.c
 * @brief LASET tile codelet: off-diagonal entries = alpha, diagonal = beta.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zlaset_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    int m, n;
    tila_complex64_t alpha, beta;
};

/* A's off-diagonal entries = alpha, its diagonal = beta, by the worker's kernel (tila_cl_run). */
static int zlaset_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zlaset_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zlaset";
        return tila_cuda_zlaset(starpu_cuda_get_local_stream(), a->uplo, a->m, a->n,
                                tila_cuda_zscalar(a->alpha), tila_cuda_zscalar(a->beta), A.ptr,
                                A.ld);
    }
#endif
    *kernel = "tila_core_zlaset";
    return tila_core_zlaset(a->uplo, a->m, a->n, a->alpha, a->beta, A.ptr, A.ld);
}

static void zlaset_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zlaset_kernel);
}

static struct starpu_perfmodel zlaset_model = TILA_CL_HISTORY_MODEL("tila_zlaset");

struct starpu_codelet tila_cl_zlaset = {
    .name = "zlaset",
    TILA_CL_FUNCS(zlaset_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A: W or RW, per task (tila_insert_zlaset) */
    .model = &zlaset_model,
};

int tila_insert_zlaset(const tila_task_t *t, tila_uplo_t uplo, int m, int n, tila_complex64_t alpha,
                       tila_complex64_t beta, starpu_data_handle_t A)
{
    struct zlaset_args args = { .uplo = uplo, .m = m, .n = n, .alpha = alpha, .beta = beta };
    struct zlaset_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    /* RW: a triangular LASET keeps the tile's other part; a whole one reads nothing, so a
     * workspace tile that holds nothing yet can be its target (tila_task_write). */
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlaset, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0,
                                uplo == TILA_GENERAL ? tila_task_write(t, A) : STARPU_RW, A,
                                TILA_TASK_OPTIONS(t, "zlaset", 0), 0);
    return tila_task_submitted(t, rc);
}
