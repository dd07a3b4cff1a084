/**
 * @file desc_copy.c
 * @brief Scatter a matrix held on one rank into a descriptor, gather it back.
 *
 * Both wrap the root's column-major array as a descriptor whose tiles all live on
 * the root, and copy tile by tile with the LACPY codelet: StarPU-MPI moves each tile
 * between the root and its owner, overlapped with the copies.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_runtime.h"

static int tila_rank_root(int m, int n, void *arg)
{
    (void)m;
    (void)n;
    return *(const int *)arg;
}

static int tila_lacpy_any(tila_desc_t *src, tila_desc_t *dst)
{
    switch (dst->prec) {
    case TILA_REAL32: return tila_slacpy(TILA_GENERAL, src, dst);
    case TILA_REAL64: return tila_dlacpy(TILA_GENERAL, src, dst);
    case TILA_COMPLEX32: return tila_clacpy(TILA_GENERAL, src, dst);
    default: return tila_zlacpy(TILA_GENERAL, src, dst);
    }
}

static int tila_desc_copy(const char *func, tila_desc_t *A, int root, void *a, int lda, int into_A)
{
    int rc = tila_check_init(func);
    if (rc) return rc;
    tila_resume(); /* every Tila call brings the workers back (after tila_pause) */
    if (!A) {
        tila_error(func, "A is NULL");
        return -1;
    }
    if (root < 0 || root >= tila_comm_size()) {
        tila_error(func, "root = %d is not a rank of [0, %d)", root, tila_comm_size());
        return -2;
    }
    int here = root == tila_comm_rank();
    if (here && !a && A->m > 0 && A->n > 0) {
        tila_error(func, "a is NULL on the root");
        rc = -3;
    }
    else if (here && lda < (A->m > 1 ? A->m : 1)) {
        tila_error(func, "lda = %d < max(1, m = %d)", lda, A->m);
        rc = -4;
    }
    /* Only the root can check its array (the others have rc = 0, a failure is
     * negative): every rank follows its verdict. */
    if (tila_allreduce(&rc, 1, MPI_INT, MPI_MIN)) return TILA_ERR_MPI;
    if (rc) return rc;
    tila_dist_t dist = { .rank_of = tila_rank_root, .rank_arg = &root };
    tila_desc_t *W;
    rc = tila_desc_create_lapack_like(&W, A, here ? a : NULL, here ? lda : (A->m > 1 ? A->m : 1),
                                      &dist);
    if (rc) return rc;
    rc = into_A ? tila_lacpy_any(W, A) : tila_lacpy_any(A, W);
    tila_desc_destroy(&W);
    return rc;
}

int tila_desc_scatter(tila_desc_t *A, int root, const void *a, int lda)
{
    /* The root's array is only read: the copy goes from it into A. */
    return tila_desc_copy("tila_desc_scatter", A, root, (void *)a, lda, 1);
}

int tila_desc_gather(tila_desc_t *A, int root, void *a, int lda)
{
    return tila_desc_copy("tila_desc_gather", A, root, a, lda, 0);
}
