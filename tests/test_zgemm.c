/**
 * @file test_zgemm.c
 * @brief Tiled gemm against CBLAS on the gathered matrices.
 * @precisions normal z -> c d s
 *
 * What it proves: for every op(A), op(B), sizes with partial edge tiles, empty
 * dimensions (or the sizes given, see main.c) and every P x Q grid of the world,
 * C = alpha op(A) op(B) + beta C computed by tasks on the distributed tiles equals CBLAS's
 * product on the same matrices, within the rounding error of a dot product of length k:
 * ||C - C_ref||_F / ((|alpha| ||A||_F ||B||_F + |beta| ||C0||_F) (k + 2) eps) < tol.
 * Also geadd, B = alpha A + beta B with A and B on different grids, within 2 eps.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "tests_z.h"

static const char *trans_name(tila_trans_t t)
{
    return t == TILA_NOTRANS ? "N" : t == TILA_TRANS ? "T" : "C";
}

/* A random m x n descriptor and, on rank 0, its gathered copy. */
static tila_desc_t *random_desc(int m, int n, int nb, const int grid[2], unsigned long long seed,
                                tila_complex64_t **copy)
{
    tila_desc_t *A;
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_test_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, &dist);
    tila_zplrnt(A, seed);
    *copy = malloc(sizeof(tila_complex64_t) * (size_t)(m > 1 ? m : 1) * (n > 1 ? n : 1));
    tila_desc_gather(A, 0, *copy, m > 1 ? m : 1);
    return A;
}

static void run_one(const tila_test_opts_t *o, tila_trans_t ta, tila_trans_t tb, int m, int n,
                    int k, int nb, const int grid[2])
{
    tila_complex64_t alpha = 1.5, beta = -0.75;
#if defined(COMPLEX)
    alpha -= 0.5 * I;
    beta += 0.25 * I;
#endif
    tila_complex64_t *a, *b, *c0, *c;
    int am = ta == TILA_NOTRANS ? m : k, an = ta == TILA_NOTRANS ? k : m;
    int bm = tb == TILA_NOTRANS ? k : n, bn = tb == TILA_NOTRANS ? n : k;
    tila_desc_t *A = random_desc(am, an, nb, grid, o->seed, &a);
    tila_desc_t *B = random_desc(bm, bn, nb, grid, o->seed + 1, &b);
    tila_desc_t *C = random_desc(m, n, nb, grid, o->seed + 2, &c0);
    int rc = tila_zgemm(ta, tb, alpha, A, B, beta, C);
    c = malloc(sizeof(tila_complex64_t) * (size_t)(m > 1 ? m : 1) * (n > 1 ? n : 1));
    tila_desc_gather(C, 0, c, m > 1 ? m : 1);

    double err = 0;
    if (tila_comm_rank() == 0 && m > 0 && n > 0) {
        double na = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', am, an, a, am > 1 ? am : 1);
        double nbm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', bm, bn, b, bm > 1 ? bm : 1);
        double nc = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, c0, m);
        cblas_zgemm(CblasColMajor, (enum CBLAS_TRANSPOSE)ta, (enum CBLAS_TRANSPOSE)tb, m, n, k,
                    CBLAS_SADDR(alpha), a, am > 1 ? am : 1, b, bm > 1 ? bm : 1, CBLAS_SADDR(beta),
                    c0, m);
        for (size_t i = 0; i < (size_t)m * n; i++)
            c[i] -= c0[i];
        double scale = (cabs(alpha) * na * nbm + cabs(beta) * nc) * (k + 2) * DBL_EPSILON;
        err = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, c, m) / (scale > 0 ? scale : 1);
    }
    tila_test_check(rc == 0 && err < o->tol && !isnan(err), "gemm",
                    tila_test_prec_letter(TILA_COMPLEX64), err,
                    "transa=%s transb=%s m=%d n=%d k=%d nb=%d grid=%dx%d rc=%d", trans_name(ta),
                    trans_name(tb), m, n, k, nb, grid[0], grid[1], rc);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&C);
    free(a);
    free(b);
    free(c0);
    free(c);
}

/* B = alpha A + beta B with A and B on different grids: within 2 eps of the same sum. */
static void geadd_one(const tila_test_opts_t *o, tila_complex64_t beta, int m, int n, int nb,
                      const int grid_a[2], const int grid_b[2])
{
    tila_complex64_t alpha = 1.5, *a, *b0, *b;
#if defined(COMPLEX)
    alpha -= 0.5 * I;
#endif
    tila_desc_t *A = random_desc(m, n, nb, grid_a, o->seed, &a);
    tila_desc_t *B = random_desc(m, n, nb, grid_b, o->seed + 1, &b0);
    int rc = tila_zgeadd(alpha, A, beta, B);
    b = malloc(sizeof(tila_complex64_t) * (size_t)(m > 1 ? m : 1) * (n > 1 ? n : 1));
    tila_desc_gather(B, 0, b, m > 1 ? m : 1);
    double err = 0;
    if (tila_comm_rank() == 0 && m > 0 && n > 0) {
        double scale = (cabs(alpha) * LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, a, m) +
                        cabs(beta) * LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, b0, m)) *
                       2 * DBL_EPSILON;
        for (size_t i = 0; i < (size_t)m * n; i++)
            b[i] -= alpha * a[i] + beta * b0[i];
        err = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, b, m) / (scale > 0 ? scale : 1);
    }
    tila_test_check(rc == 0 && err < o->tol && !isnan(err), "geadd",
                    tila_test_prec_letter(TILA_COMPLEX64), err,
                    "beta=%g m=%d n=%d nb=%d grids A %dx%d B %dx%d rc=%d", creal(beta), m, n, nb,
                    grid_a[0], grid_a[1], grid_b[0], grid_b[1], rc);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a);
    free(b0);
    free(b);
}

void tila_test_zgemm(const tila_test_opts_t *o)
{
    /* Edge tiles (sizes not multiples of nb), n < nb, empty m, n and k. */
    static const int sizes[][4] = {
        /* m, n, nb, k (geadd: m, n, nb) */
        { 37, 29, 8, 41 }, { 64, 48, 16, 32 }, { 5, 7, 16, 3 },  { 1, 1, 4, 1 },
        { 0, 9, 4, 5 },    { 9, 0, 4, 5 },     { 12, 10, 4, 0 },
    };
    static const tila_trans_t ops[][2] = {
        { TILA_NOTRANS, TILA_NOTRANS },
        { TILA_TRANS, TILA_NOTRANS },
        { TILA_NOTRANS, TILA_CONJTRANS },
        { TILA_CONJTRANS, TILA_TRANS },
    };
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    tila_test_seen_t gemm_seen = { 0 }, geadd_seen = { 0 };
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    tila_test_sizes_t z;
    for (int g = 0; g < ngrids; g++)
        for (int s = 0; s < nsizes; s++)
            for (tila_test_sizes(&z, 4, (const tila_test_list_t *[]){ &o->m, &o->n, &o->nb, &o->k },
                                 sizes[s]);
                 tila_test_sizes_next(&z);) {
                int m = z.v[0], n = z.v[1], nb = z.v[2], k = z.v[3];
                if (!tila_test_once(&gemm_seen, 5, (int[]){ g, m, n, k, nb })) continue;
                for (size_t t = 0; t < sizeof ops / sizeof ops[0]; t++)
                    run_one(o, ops[t][0], ops[t][1], m, n, k, nb, grids[g]);
            }
    /* geadd: beta general, 0 and 1 (the kernel's three ways), A and B distributed apart. */
    tila_complex64_t betas[] = { -0.75, 0, 1 };
#if defined(COMPLEX)
    betas[0] += 0.25 * I;
#endif
    for (int g = 0; g < ngrids; g++)
        for (int s = 0; s < nsizes; s++)
            for (tila_test_sizes(&z, 3, (const tila_test_list_t *[]){ &o->m, &o->n, &o->nb },
                                 sizes[s]);
                 tila_test_sizes_next(&z);) {
                int m = z.v[0], n = z.v[1], nb = z.v[2];
                if (!tila_test_once(&geadd_seen, 4, (int[]){ g, m, n, nb })) continue;
                for (size_t b = 0; b < sizeof betas / sizeof betas[0]; b++)
                    geadd_one(o, betas[b], m, n, nb, grids[g], grids[ngrids - 1 - g]);
            }
    tila_test_seen_free(&gemm_seen);
    tila_test_seen_free(&geadd_seen);
}
