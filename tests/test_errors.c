/**
 * @file test_errors.c
 * @brief Bad input: each call returns its documented code and submits nothing.
 *
 * What it proves: negative sizes, nb <= 0, NULL pointers, a P x Q grid that does
 * not match the world, a user mapping that answers outside the world, descriptors of
 * the wrong precision or of mismatched sizes, and bad enums are refused with -i (the
 * position of the argument, as in LAPACK) or the named code, on every rank, with a
 * message on stderr and without crashing or hanging.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_test.h"

static int bad_rank(int m, int n, void *arg)
{
    (void)arg;
    return m + n == 1 ? -1 : 0;
}

static void expect(int got, int want, const char *what)
{
    tila_test_check(got == want, "errors", '-', 0, "%s: got %d want %d", what, got, want);
}

void tila_test_errors(const tila_test_opts_t *o)
{
    (void)o;
    tila_desc_t *A = NULL, *B = NULL, *C = NULL, *Z = NULL;
    int size = tila_comm_size();
    double x[4];
    if (tila_comm_rank() == 0)
        fprintf(stderr, "tila-tests errors: the messages below are expected\n");
    expect(tila_desc_create(NULL, TILA_REAL64, 4, 4, 2, 2, NULL), -1, "desc_create A=NULL");
    expect(tila_desc_create(&A, (tila_prec_t)7, 4, 4, 2, 2, NULL), -2, "desc_create prec=7");
    expect(tila_desc_create(&A, TILA_REAL64, -1, 4, 2, 2, NULL), -3, "desc_create m=-1");
    expect(tila_desc_create(&A, TILA_REAL64, 4, -5, 2, 2, NULL), -4, "desc_create n=-5");
    expect(tila_desc_create(&A, TILA_REAL64, 4, 4, 0, 2, NULL), -5, "desc_create mb=0");
    expect(tila_desc_create(&A, TILA_REAL64, 4, 4, 2, -2, NULL), -6, "desc_create nb=-2");
    tila_dist_t grid = { .p = size + 1, .q = 1 };
    expect(tila_desc_create(&A, TILA_REAL64, 4, 4, 2, 2, &grid), TILA_ERR_GRID,
           "desc_create grid (P+1)x1");
    tila_dist_t grid0 = { .p = 0, .q = 2 };
    expect(tila_desc_create(&A, TILA_REAL64, 4, 4, 2, 2, &grid0), TILA_ERR_GRID,
           "desc_create grid 0x2");
    tila_dist_t user = { .rank_of = bad_rank };
    expect(tila_desc_create(&A, TILA_REAL64, 4, 4, 2, 2, &user), -7,
           "desc_create mapping gives rank -1");
    expect(A == NULL, 1, "desc_create leaves A NULL on failure");
    expect(tila_desc_create_lapack(&A, TILA_REAL64, x, 1, 2, 2, 1, 1, NULL), -4,
           "desc_create_lapack lda=1 < m=2");
    expect(tila_desc_create_lapack(&A, TILA_REAL64, NULL, 2, 2, 2, 1, 1, NULL), -3,
           "desc_create_lapack a=NULL");
    expect(tila_desc_create_scalapack(&A, TILA_REAL64, x, 2, 2, 2, 1, 1, size, 2), TILA_ERR_GRID,
           "desc_create_scalapack grid Px2");
    static const int sz[] = { 2, 3, 1 }, zero[] = { 2, 0 };
    expect(tila_desc_create_tiled(&A, TILA_REAL64, -1, sz, 3, sz, NULL), -3,
           "desc_create_tiled mt=-1");
    expect(tila_desc_create_tiled(&A, TILA_REAL64, 2, NULL, 3, sz, NULL), -4,
           "desc_create_tiled mbs=NULL");
    expect(tila_desc_create_tiled(&A, TILA_REAL64, 2, zero, 3, sz, NULL), -4,
           "desc_create_tiled mbs[1]=0");
    expect(tila_desc_create_tiled(&A, TILA_REAL64, 3, sz, -2, sz, NULL), -5,
           "desc_create_tiled nt=-2");
    expect(tila_desc_create_tiled(&A, TILA_REAL64, 3, sz, 2, zero, NULL), -6,
           "desc_create_tiled nbs[1]=0");
    expect(tila_desc_create_tiled(&A, TILA_REAL64, 3, sz, 3, sz, &user), -7,
           "desc_create_tiled mapping gives rank -1");
    expect(tila_desc_create_lapack_tiled(&A, TILA_REAL64, x, 5, 3, sz, 3, sz, NULL), -4,
           "desc_create_lapack_tiled lda=5 < m=6");
    /* Rows tiled otherwise than columns: not for a triangle, Cholesky or the tiled QR. */
    static const int other[] = { 3, 3 };
    expect(tila_desc_create_tiled(&A, TILA_REAL64, 3, sz, 2, other, NULL), 0, "desc_create_tiled");
    expect(tila_dpotrf(TILA_LOWER, A), -2, "dpotrf rows tiled otherwise than columns");
    expect(tila_dlantr(TILA_NORM_ONE, TILA_LOWER, TILA_NONUNIT, A, x), -4,
           "dlantr rows tiled otherwise than columns");
    expect(tila_desc_create_qr_t(&B, A, 1, TILA_QR_TREE_FLAT), -2,
           "desc_create_qr_t rows tiled otherwise than columns");
    tila_desc_destroy(&A);

    tila_desc_create(&A, TILA_REAL64, 6, 5, 2, 2, NULL);
    tila_desc_create(&B, TILA_REAL64, 5, 4, 2, 2, NULL);
    tila_desc_create(&C, TILA_REAL64, 6, 4, 2, 2, NULL);
    tila_desc_create(&Z, TILA_COMPLEX64, 6, 4, 2, 2, NULL);
    expect(tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1, A, B, 0, C), 0, "dgemm valid");
    expect(tila_dgemm((tila_trans_t)0, TILA_NOTRANS, 1, A, B, 0, C), -1, "dgemm transa=0");
    expect(tila_dgemm(TILA_NOTRANS, (tila_trans_t)99, 1, A, B, 0, C), -2, "dgemm transb=99");
    expect(tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1, NULL, B, 0, C), -4, "dgemm A=NULL");
    expect(tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1, A, B, 0, Z), -7, "dgemm C complex");
    expect(tila_dgemm(TILA_TRANS, TILA_NOTRANS, 1, A, B, 0, C), -4, "dgemm op(A) rows != C rows");
    expect(tila_dgemm(TILA_NOTRANS, TILA_TRANS, 1, A, B, 0, C), -5, "dgemm op(B) mismatched");
    expect(tila_dgemm_async(TILA_NOTRANS, TILA_NOTRANS, 1, A, B, 0, C, NULL, NULL), -8,
           "dgemm_async seq=NULL");
    expect(tila_dlacpy((tila_uplo_t)5, A, A), -1, "dlacpy uplo=5");
    expect(tila_dlacpy(TILA_GENERAL, A, C), -3, "dlacpy B of another size");
    expect(tila_dgeadd(1, A, 1, C), -4, "dgeadd B of another size");
    expect(tila_zgeadd(1, Z, 1, C), -4, "zgeadd B real");
    expect(tila_zlaset(TILA_UPPER, 0, 1, A), -4, "zlaset on a real matrix");
    expect(tila_dplgsy(1, A, 1), -2, "dplgsy non-square");
    expect(tila_desc_scatter(A, size, x, 6), -2, "scatter root=size");
    expect(tila_desc_gather(A, 0, x, 1), -4, "gather lda=1 < m (on the root)");
    expect(tila_sequence_create(NULL), -1, "sequence_create NULL");
    expect(tila_sequence_wait(NULL), -1, "sequence_wait NULL");
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&C);
    tila_desc_destroy(&Z);
    expect(tila_desc_destroy(&A), 0, "desc_destroy twice");
}
