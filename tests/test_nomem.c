/**
 * @file test_nomem.c
 * @brief One rank out of memory in the middle of a call: no hang, the error on every rank.
 *
 * What it proves, with the runtime's test hook TILA_TEST_ALLOC_FAIL=RANK:K[+][:KIND] (the
 * K-th allocation of KIND on rank RANK fails; `+`: and every later one; armed at each
 * descriptor creation), the last rank failing, on every grid's squarest shape:
 *  - a task's arguments (args), the third on that rank and then (`+`) all of them, while
 *    dgeqrf submits (the flat tree, whose panels cross ranks, and the PANEL scheme, whose
 *    updates register workspace tiles): dgeqrf returns TILA_ERR_NOMEM on every rank and
 *    nothing waits for ever (the rank still submits every task, doing nothing, so that the
 *    ranks' messages match);
 *  - dgeqrf's own arrays (work), before it submits anything: TILA_ERR_NOMEM on every rank
 *    and A exactly as it was (nothing was written);
 *  - a descriptor's layout or storage (desc): the creation fails on every rank, A NULL;
 *  - after each failure, with the hook off, a dgeqrf on new matrices (their tags taken after
 *    the failed call's, its workspace tiles' included) has the residual
 *    ||A - Q R||_F / (m ||A||_F eps) < tol: the ranks' tags still agree;
 *  - a norm's partial results (work: the partials service's state, its array, a partial):
 *    dlange returns TILA_ERR_NOMEM on every rank, and a dgeqrf right after it
 *    on matrices made before it (the PANEL scheme: its workspace tiles book the next tags,
 *    with no descriptor creation between to agree on them) has the residual above: the
 *    failing rank booked the partials' tags as the others did.
 *  - a tile kernel refusing an argument, a bug in Tila (the hook TILA_TEST_KERNEL_ARG=RANK:K:
 *    the first answer heard on the last rank reads -1): dpotrf returns TILA_ERR_INTERNAL on
 *    every rank instead of stopping the program, and with the hook off the next dpotrf
 *    succeeds.
 * A hang shows as the run's timeout (tests/run-tests.sh).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cblas.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "tila_test.h"

/* Every rank's verdict, and'ed: what tila_test_check reports. */
static int all_ranks(int ok)
{
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

static void hook(const char *value) { tila_test_setenv("TILA_TEST_ALLOC_FAIL", value); }

/* A and its T (tree), A random from seed; 0 or the creations' first failure. */
static int qr_pair(tila_desc_t **A, tila_desc_t **T, int n, int nb, tila_qr_tree_t tree,
                   const tila_dist_t *dist, unsigned long long seed)
{
    *T = NULL;
    int rc = tila_desc_create(A, TILA_REAL64, n, n, nb, nb, dist);
    if (!rc) rc = tila_dplrnt(*A, seed);
    if (!rc) rc = tila_desc_create_qr_t(T, *A, nb < 4 ? nb : 4, tree);
    return rc;
}

/* ||A0 - Q R||_F / (n ||A0||_F eps) of a dgeqrf of A (its T made), A0 gathered on rank 0
 * before; -1 on an error (rc: a failure before).  Nothing between the call and dgeqrf
 * creates a descriptor (whose creation would agree on the next tag). */
static double qr_check(int rc, tila_desc_t *A, tila_desc_t *T, double *a0, int n, int nb,
                       const tila_dist_t *dist)
{
    tila_desc_t *Q = NULL;
    double *r = malloc(sizeof(double) * n * n), *q = malloc(sizeof(double) * n * n), err = -1;
    if (!rc) rc = tila_dgeqrf(A, T);
    if (!rc) rc = tila_desc_create(&Q, TILA_REAL64, n, n, nb, nb, dist);
    if (!rc) rc = tila_dorgqr(A, T, Q);
    if (!rc) rc = tila_desc_gather(A, 0, r, n);
    if (!rc) rc = tila_desc_gather(Q, 0, q, n);
    if (!rc && tila_comm_rank() == 0) {
        for (int j = 0; j < n; j++)
            for (int i = j + 1; i < n; i++)
                r[(size_t)j * n + i] = 0;
        double *qr = malloc(sizeof(double) * n * n);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, q, n, r, n, 0.0, qr,
                    n);
        err = tila_test_diff_fro(TILA_REAL64, n, n, qr, n, a0, n) / (n * DBL_EPSILON);
        free(qr);
    }
    free(r);
    free(q);
    tila_desc_destroy(&Q);
    return err;
}

/* qr_check of a dgeqrf on fresh matrices. */
static double qr_residual(int n, int nb, tila_qr_tree_t tree, const tila_dist_t *dist)
{
    tila_desc_t *A = NULL, *T = NULL;
    int rc = qr_pair(&A, &T, n, nb, tree, dist, 11);
    double *a0 = malloc(sizeof(double) * n * n);
    if (!rc) rc = tila_desc_gather(A, 0, a0, n);
    double err = qr_check(rc, A, T, a0, n, nb, dist);
    free(a0);
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
    return err;
}

/* A one norm with the hook set to `value` while it runs (its code), then qr_check of a dgeqrf
 * (PANEL) on matrices made before it. */
static int failing_norm(const char *value, int n, int nb, const tila_dist_t *dist, double *err)
{
    tila_desc_t *A = NULL, *T = NULL, *N = NULL, *D = NULL;
    int rc = qr_pair(&A, &T, n, nb, TILA_QR_TREE_PANEL, dist, 11);
    double *a0 = malloc(sizeof(double) * n * n);
    if (!rc) rc = tila_desc_gather(A, 0, a0, n);
    if (!rc) rc = tila_desc_create(&N, TILA_REAL64, n, n, nb, nb, dist);
    if (!rc) rc = tila_dplrnt(N, 3);
    hook(value);
    double norm;
    /* D's creation arms the hook: it counts from the norm's allocations. */
    int got = rc ? rc : tila_desc_create(&D, TILA_REAL64, 1, 1, 1, 1, NULL);
    if (!got) got = tila_dlange(TILA_NORM_ONE, N, &norm);
    hook(NULL);
    *err = qr_check(rc, A, T, a0, n, nb, dist);
    free(a0);
    tila_desc_destroy(&D);
    tila_desc_destroy(&N);
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
    return got;
}

/* dgeqrf with the hook set to `value` while it runs: its code, and whether A is unchanged. */
static int failing_geqrf(const char *value, int n, int nb, tila_qr_tree_t tree,
                         const tila_dist_t *dist, int *intact)
{
    tila_desc_t *A = NULL, *T = NULL;
    double *before = malloc(sizeof(double) * n * n), *after = malloc(sizeof(double) * n * n);
    int rc = qr_pair(&A, &T, n, nb, tree, dist, 5);
    if (!rc) rc = tila_desc_gather(A, 0, before, n);
    hook(value);
    /* T again, so that the hook counts from the call (each creation arms it). */
    tila_desc_destroy(&T);
    if (!rc) rc = tila_desc_create_qr_t(&T, A, nb < 4 ? nb : 4, tree);
    int got = rc ? rc : tila_dgeqrf(A, T);
    hook(NULL);
    tila_desc_destroy(&T);
    *intact = 0;
    if (!rc && !tila_desc_gather(A, 0, after, n))
        *intact = tila_comm_rank() != 0 || !memcmp(before, after, sizeof(double) * n * n);
    tila_desc_destroy(&A);
    free(before);
    free(after);
    return got;
}

/* A kernel's illegal argument fails the call on every rank; the next call runs. */
static void kernel_refuses(const tila_dist_t *dist, int last)
{
    const int n = 48, nb = 12;
    char value[32];
    tila_desc_t *A = NULL, *D = NULL;
    int rc = tila_desc_create(&A, TILA_REAL64, n, n, nb, nb, dist);
    if (!rc) rc = tila_dplgsy(n, A, 7);
    snprintf(value, sizeof value, "%d:1", last);
    setenv("TILA_TEST_KERNEL_ARG", value, 1);
    if (!rc) rc = tila_desc_create(&D, TILA_REAL64, 1, 1, 1, 1, dist); /* arms the hook */
    int bad = rc ? rc : tila_dpotrf(TILA_LOWER, A);
    unsetenv("TILA_TEST_KERNEL_ARG");
    tila_desc_destroy(&D);
    int good = tila_desc_create(&D, TILA_REAL64, 1, 1, 1, 1, dist); /* disarms it */
    if (!good) good = tila_dplgsy(n, A, 7);
    if (!good) good = tila_dpotrf(TILA_LOWER, A);
    tila_test_check(all_ranks(bad == TILA_ERR_INTERNAL && good == 0), "nomem", 'd', 0,
                    "dpotrf n=%d nb=%d TILA_TEST_KERNEL_ARG=%s: rc=%d (%s), then rc=%d", n, nb,
                    value, bad, tila_strerror(bad), good);
    tila_desc_destroy(&D);
    tila_desc_destroy(&A);
}

void tila_test_nomem(const tila_test_opts_t *o)
{
    int grids[8][2], ngrids = tila_test_grids(grids, 8), last = tila_comm_size() - 1;
    /* The squarest grid: from 4 ranks on, the flat tree's panels cross ranks both ways. */
    tila_dist_t dist = { .p = grids[ngrids / 2][0], .q = grids[ngrids / 2][1] };
    const int n = 48, nb = 12;
    static const tila_qr_tree_t trees[] = { TILA_QR_TREE_FLAT, TILA_QR_TREE_PANEL };
    static const char *const kinds[] = { "%d:3:args", "%d:3+:args", "%d:1:work" };
    char value[32];
    if (tila_comm_rank() == 0)
        fprintf(stderr, "tila-tests nomem: the out-of-memory and BUG messages below are "
                        "expected\n");
    kernel_refuses(&dist, last);
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < 3; k++) {
            const char *tree = t ? "panel" : "flat";
            snprintf(value, sizeof value, kinds[k], last);
            int intact, rc = failing_geqrf(value, n, nb, trees[t], &dist, &intact);
            int work = strstr(value, "work") != NULL;
            tila_test_check(all_ranks(rc == TILA_ERR_NOMEM && (!work || intact)), "nomem", 'd', 0,
                            "dgeqrf n=%d nb=%d tree=%s TILA_TEST_ALLOC_FAIL=%s: rc=%d%s", n, nb,
                            tree, value, rc, work ? (intact ? ", A intact" : ", A changed") : "");
            double err = qr_residual(n, nb, trees[t], &dist);
            tila_test_check(err >= 0 && err < o->tol, "nomem", 'd', err,
                            "dgeqrf n=%d nb=%d tree=%s after that failure", n, nb, tree);
        }
    /* A descriptor: its layout (1), its storage (2, where the rank owns tiles). */
    for (int k = 1; k <= 2; k++) {
        tila_desc_t *A = (tila_desc_t *)(void *)value; /* not NULL: a failure must clear it */
        snprintf(value, sizeof value, "%d:%d:desc", last, k);
        hook(value);
        int rc = tila_desc_create(&A, TILA_REAL64, n, n, nb, nb, &dist);
        hook(NULL);
        tila_test_check(all_ranks(rc == TILA_ERR_NOMEM && A == NULL), "nomem", '-', 0,
                        "desc_create n=%d nb=%d TILA_TEST_ALLOC_FAIL=%s: rc=%d", n, nb, value, rc);
        if (rc == 0) tila_desc_destroy(&A);
    }
    double err = qr_residual(n, nb, TILA_QR_TREE_FLAT, &dist);
    tila_test_check(err >= 0 && err < o->tol, "nomem", 'd', err,
                    "dgeqrf n=%d nb=%d tree=flat after the failed creations", n, nb);
    /* A norm's partials: their state (1), their array (2), the first partial (3).  (Unset,
     * the hook is disarmed at the next creation only: a failure that repeats, `+`, would
     * fail dgeqrf's arrays too.) */
    for (int k = 1; k <= 3; k++) {
        snprintf(value, sizeof value, "%d:%d:work", last, k);
        int rc = failing_norm(value, n, nb, &dist, &err);
        tila_test_check(all_ranks(rc == TILA_ERR_NOMEM) && err >= 0 && err < o->tol, "nomem",
                        'd', err,
                        "dlange n=%d nb=%d TILA_TEST_ALLOC_FAIL=%s: rc=%d, then dgeqrf "
                        "tree=panel on matrices made before it",
                        n, nb, value, rc);
    }
}
