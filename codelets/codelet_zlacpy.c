/**
 * @file codelet_zlacpy.c
 * @brief LACPY tile codelet: B = A on a triangle or everywhere, or a rectangle of A into a
 *        rectangle of B (a copy between two tilings).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zlacpy_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    int m, n;
    int ai, aj, bi, bj; /* the rectangle's first entry in A and in B */
};

/* Offset of entry (i, j) of a tile with leading dimension ld. */
static size_t at(int i, int j, int ld) { return (size_t)i + (size_t)j * (size_t)ld; }

/* B's rectangle = A's by the worker's kernel (tila_cl_run). */
static int zlacpy_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zlacpy_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zlacpy";
        return tila_cuda_zlacpy(starpu_cuda_get_local_stream(), a->uplo, a->m, a->n,
                                (cuDoubleComplex *)A.ptr + at(a->ai, a->aj, A.ld), A.ld,
                                (cuDoubleComplex *)B.ptr + at(a->bi, a->bj, B.ld), B.ld);
    }
#endif
    *kernel = "tila_core_zlacpy";
    return tila_core_zlacpy(a->uplo, a->m, a->n, (tila_complex64_t *)A.ptr + at(a->ai, a->aj, A.ld),
                            A.ld, (tila_complex64_t *)B.ptr + at(a->bi, a->bj, B.ld), B.ld);
}

static void zlacpy_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zlacpy_kernel);
}

static struct starpu_perfmodel zlacpy_model = TILA_CL_HISTORY_MODEL("tila_zlacpy");

struct starpu_codelet tila_cl_zlacpy = {
    .name = "zlacpy",
    TILA_CL_FUNCS(zlacpy_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* modes per task: see tila_insert_zlacpy */
    .model = &zlacpy_model,
};

static int insert(const tila_task_t *t, const struct zlacpy_args *args, starpu_data_handle_t A,
                  starpu_data_handle_t B, enum starpu_data_access_mode mode)
{
    struct zlacpy_args *a;
    int rc = tila_cl_args(t, args, sizeof *args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlacpy, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, mode, B,
                                TILA_TASK_OPTIONS(t, "zlacpy", 0), 0);
    return tila_task_submitted(t, rc);
}

/**
 * B = A on the triangle uplo of the m x n tiles.  With TILA_GENERAL, B is m x n and
 * written without being read (it may be a workspace tile holding nothing yet); a
 * triangular copy reads B too, to keep its other part.
 */
int tila_insert_zlacpy(const tila_task_t *t, tila_uplo_t uplo, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t B)
{
    struct zlacpy_args args = { .uplo = uplo, .m = m, .n = n };
    return insert(t, &args, A, B, uplo == TILA_GENERAL ? tila_task_write(t, B) : STARPU_RW);
}

/**
 * B(bi:bi+m, bj:bj+n) = A(ai:ai+m, aj:aj+n) (0-based offsets in the tiles); B is read too
 * unless `whole` (the rectangle is all of B).
 */
int tila_insert_zlacpy_at(const tila_task_t *t, int m, int n, starpu_data_handle_t A, int ai,
                          int aj, starpu_data_handle_t B, int bi, int bj, int whole)
{
    struct zlacpy_args args = {
        .uplo = TILA_GENERAL, .m = m, .n = n, .ai = ai, .aj = aj, .bi = bi, .bj = bj
    };
    return insert(t, &args, A, B, whole ? tila_task_write(t, B) : STARPU_RW);
}
