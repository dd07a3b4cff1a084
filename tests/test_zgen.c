/**
 * @file test_zgen.c
 * @brief The seeded generators give the same matrix whatever the distribution.
 * @precisions normal z -> c d s
 *
 * What it proves: tila_zplrnt and tila_zplghe, run by each tile's owner, produce
 * bit-identical matrices for every P x Q grid of the world and for several tile sizes
 * (compared with the first grid and tile size; the sizes and tile sizes given replace the
 * test's, see main.c), the entries lie in [-0.5, 0.5), and plghe's matrix is exactly
 * Hermitian with a real diagonal shifted by bump (so every later test can build its
 * inputs this way).  tila_zlacpy between two tilings of the matrix (rectangular tiles, a tile
 * of B inside one of A's or across several, another grid) copies it bit for bit.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests_z.h"

/* Generate m x n (plghe when herm) on a grid and tile size; gather on rank 0. */
static tila_complex64_t *generate(int herm, int m, int n, int nb, const int grid[2],
                                  unsigned long long seed, double bump)
{
    tila_desc_t *A;
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_complex64_t *a = calloc((size_t)m * n + 1, sizeof *a);
    tila_test_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, &dist);
    if (herm)
        tila_zplghe(bump, A, seed);
    else
        tila_zplrnt(A, seed);
    tila_desc_gather(A, 0, a, m > 1 ? m : 1);
    tila_desc_destroy(&A);
    return a;
}

/* Entries in range; for plghe, Hermitian with diagonal Re(x) + bump. */
static int well_formed(int herm, int m, int n, const tila_complex64_t *a, double bump)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            tila_complex64_t x = a[(size_t)j * m + i];
            double re = creal(x) - (herm && i == j ? bump : 0);
            if (!(re >= -0.5 && re < 0.5)) return 0;
#if defined(COMPLEX)
            if (!(cimag(x) >= -0.5 && cimag(x) < 0.5) || (herm && i == j && cimag(x) != 0))
                return 0;
            if (herm && x != conj(a[(size_t)i * m + j])) return 0;
#else
            if (herm && x != a[(size_t)i * m + j]) return 0;
#endif
        }
    return 1;
}

/*
 * tila_zplrnt's m x n matrix in nb x nb tiles on grid g0, copied by tila_zlacpy into mb2 x nb2
 * tiles on grid g; gathered on rank 0.
 */
static tila_complex64_t *retiled(int m, int n, int nb, const int g0[2], int mb2, int nb2,
                                 const int g[2], unsigned long long seed)
{
    tila_desc_t *A, *B;
    tila_dist_t d0 = { .p = g0[0], .q = g0[1] }, dist = { .p = g[0], .q = g[1] };
    tila_complex64_t *b = calloc((size_t)m * n + 1, sizeof *b);
    tila_test_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, &d0);
    tila_test_desc_create(&B, TILA_COMPLEX64, m, n, mb2, nb2, &dist);
    tila_zplrnt(A, seed);
    int rc = tila_zlacpy(TILA_GENERAL, A, B);
    tila_desc_gather(B, 0, b, m > 1 ? m : 1);
    tila_desc_destroy(&B);
    tila_desc_destroy(&A);
    if (rc) b[0] = NAN; /* shows as a difference */
    return b;
}

/* One size: the reference on the first grid and tile size, then every other grid and size. */
static void run_size(const tila_test_opts_t *o, int herm, int m, int n, const tila_test_list_t *nbs,
                     int grids[][2], int ngrids)
{
    const double bump = 45;
    const int nb0 = nbs->v[0];
    tila_complex64_t *ref = generate(herm, m, n, nb0, grids[0], o->seed, bump);
    int ok = well_formed(herm, m, n, ref, bump);
    tila_test_check(ok, herm ? "plghe" : "plrnt", tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "m=%d n=%d nb=%d grid=%dx%d range%s", m, n, nb0, grids[0][0], grids[0][1],
                    herm ? "+hermitian" : "");
    for (int g = 0; g < ngrids; g++)
        for (int b = 0; b < nbs->n; b++) {
            if (g == 0 && b == 0) continue;
            tila_complex64_t *a = generate(herm, m, n, nbs->v[b], grids[g], o->seed, bump);
            int same = !memcmp(a, ref, sizeof *a * (size_t)m * n);
            tila_test_check(
                same, herm ? "plghe" : "plrnt", tila_test_prec_letter(TILA_COMPLEX64), same ? 0 : 1,
                "m=%d n=%d nb=%d grid=%dx%d same-bits-as nb=%d "
                "grid=%dx%d",
                m, n, nbs->v[b], grids[g][0], grids[g][1], nb0, grids[0][0], grids[0][1]);
            free(a);
            if (herm) continue;
            /* The reference retiled: tiles across several of A's, and tiles inside one. */
            const int shapes[2][2] = { { nbs->v[b], nbs->v[b] + 3 },
                                       { nb0 > 1 ? nb0 / 2 : 1, nb0 > 1 ? nb0 / 2 : 1 } };
            for (int k = 0; k < 2; k++) {
                const int *t = shapes[k];
                a = retiled(m, n, nb0, grids[0], t[0], t[1], grids[g], o->seed);
                same = !memcmp(a, ref, sizeof *a * (size_t)m * n);
                tila_test_check(same, "lacpy", tila_test_prec_letter(TILA_COMPLEX64), same ? 0 : 1,
                                "m=%d n=%d retile nb=%d grid=%dx%d -> %dx%d tiles grid=%dx%d", m, n,
                                nb0, grids[0][0], grids[0][1], t[0], t[1], grids[g][0],
                                grids[g][1]);
                free(a);
            }
        }
    free(ref);
}

void tila_test_zgen(const tila_test_opts_t *o)
{
    static const int sizes[][2] = { { 45, 45 }, { 33, 20 }, { 1, 1 }, { 0, 7 } };
    static const int own_nbs[] = { 8, 5, 64 };
    tila_test_seen_t seen = { 0 };
    tila_test_list_t nbs = tila_test_sweep(&o->nb, 3, own_nbs);
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    for (int herm = 0; herm < 2; herm++)
        for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
            tila_test_list_t ms = tila_test_values(&o->m, sizes[s][0]);
            tila_test_list_t ns = tila_test_values(&o->n, sizes[s][1]);
            for (int i = 0; i < ms.n; i++)
                for (int j = 0; j < ns.n; j++) {
                    /* plghe's matrix is m x m: n is not one of its sizes. */
                    int m = ms.v[i], n = herm ? m : ns.v[j];
                    if (tila_test_once(&seen, 3, (int[]){ herm, m, n }))
                        run_size(o, herm, m, n, &nbs, grids, ngrids);
                }
        }
    tila_test_seen_free(&seen);
}
