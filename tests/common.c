/**
 * @file common.c
 * @brief Test harness: option lists, grids, reporting agreed on all ranks.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tila_test.h"

int tila_test_passed, tila_test_failed, tila_test_skipped;
int tila_test_tiles_random;
unsigned long long tila_test_tiles_seed;

/* Tile i (from 0) of a dimension in tiles of about `nb`, under --tiles random: a
 * SplitMix64 hash of (seed, nb, i), 1 to 3 nb. */
static int tila_test_random_tile(int nb, int i)
{
    unsigned long long z =
        tila_test_tiles_seed + 0x9e3779b97f4a7c15ULL * ((unsigned long long)nb << 32 | (unsigned)i);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return 1 + (int)(z % (3ULL * (unsigned)nb));
}

/* The sizes of a dimension of `len` under --tiles random (the last tile cut at len); NULL
 * when out of memory. */
static int *tila_test_random_tiling(int len, int nb, int *count)
{
    int *sizes = malloc(sizeof(int) * (size_t)(len > 0 ? len : 1));
    *count = 0;
    for (int at = 0; sizes && at < len; at += sizes[(*count)++]) {
        int s = tila_test_random_tile(nb, *count);
        sizes[*count] = s < len - at ? s : len - at;
    }
    return sizes;
}

/* Both creations under --tiles random; a = NULL and lda = 0: Tila's own storage. */
static int tila_test_create(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int m, int n,
                            int mb, int nb, const tila_dist_t *dist)
{
    int mt, nt, rc = TILA_ERR_NOMEM;
    int *mbs = tila_test_random_tiling(m, mb, &mt), *nbs = tila_test_random_tiling(n, nb, &nt);
    if (mbs && nbs)
        rc = lda ? tila_desc_create_lapack_tiled(A, prec, a, lda, mt, mbs, nt, nbs, dist)
                 : tila_desc_create_tiled(A, prec, mt, mbs, nt, nbs, dist);
    free(mbs);
    free(nbs);
    return rc;
}

int tila_test_qr_ib(const tila_desc_t *A, int ib)
{
    return ib < tila_desc_nb(A) ? ib : tila_desc_nb(A);
}

int tila_test_desc_create(tila_desc_t **A, tila_prec_t prec, int m, int n, int mb, int nb,
                          const tila_dist_t *dist)
{
    if (!tila_test_tiles_random || m < 0 || n < 0 || mb <= 0 || nb <= 0)
        return tila_desc_create(A, prec, m, n, mb, nb, dist);
    return tila_test_create(A, prec, NULL, 0, m, n, mb, nb, dist);
}

int tila_test_desc_create_lapack(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int m, int n,
                                 int mb, int nb, const tila_dist_t *dist)
{
    if (!tila_test_tiles_random || m < 0 || n < 0 || mb <= 0 || nb <= 0 || lda <= 0)
        return tila_desc_create_lapack(A, prec, a, lda, m, n, mb, nb, dist);
    return tila_test_create(A, prec, a, lda, m, n, mb, nb, dist);
}

const char *tila_test_qr_tree_name(const tila_desc_t *T)
{
    tila_qr_tree_t tree = tila_desc_qr_tree(T);
    return tree == TILA_QR_TREE_BINARY   ? "tree"
           : tree == TILA_QR_TREE_PANEL  ? "panel"
           : tree == TILA_QR_TREE_CHOLQR ? "cholqr"
                                         : "flat";
}

char tila_test_prec_letter(tila_prec_t prec) { return "sdcz"[prec]; }

static void tila_test_vreport(const char *status, const char *name, char prec, double error,
                              const char *fmt, va_list ap)
{
    if (tila_comm_rank() != 0) return;
    printf("%s %s %c ", status, name, prec);
    vprintf(fmt, ap);
    printf(" error=%.3g\n", error);
    fflush(stdout);
}

void tila_test_report(const char *status, const char *name, char prec, double error,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tila_test_vreport(status, name, prec, error, fmt, ap);
    va_end(ap);
    if (!strcmp(status, "PASS"))
        tila_test_passed++;
    else if (!strcmp(status, "SKIP"))
        tila_test_skipped++;
    else
        tila_test_failed++;
}

int tila_test_check(int ok, const char *name, char prec, double error, const char *fmt, ...)
{
    va_list ap;
    /* Rank 0 decides, so that every rank counts the same. */
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    va_start(ap, fmt);
    tila_test_vreport(ok ? "PASS" : "FAIL", name, prec, error, fmt, ap);
    va_end(ap);
    if (ok)
        tila_test_passed++;
    else
        tila_test_failed++;
    return ok;
}

tila_test_list_t tila_test_sweep(const tila_test_list_t *opt, int n, const int own[])
{
    if (opt && opt->n > 0) return *opt;
    tila_test_list_t list = { .n = n < TILA_TEST_MAXLIST ? n : TILA_TEST_MAXLIST };
    memcpy(list.v, own, sizeof *own * (size_t)list.n);
    return list;
}

tila_test_list_t tila_test_values(const tila_test_list_t *opt, int own)
{
    return tila_test_sweep(opt, 1, &own);
}

void tila_test_sizes(tila_test_sizes_t *s, int count, const tila_test_list_t *const opts[],
                     const int own[])
{
    s->count = count < TILA_TEST_MAXSIZES ? count : TILA_TEST_MAXSIZES;
    for (int d = 0; d < s->count; d++) {
        s->lists[d] = tila_test_values(opts[d], own[d]);
        s->at[d] = 0;
    }
    if (s->count > 0) s->at[s->count - 1] = -1;
}

int tila_test_sizes_next(tila_test_sizes_t *s)
{
    int d = s->count - 1;
    for (int e = 0; e < s->count; e++)
        if (s->lists[e].n <= 0) return 0;
    if (d < 0) return 0;
    /* Advance the last position; one that passes its list's end restarts and carries. */
    while (++s->at[d] >= s->lists[d].n) {
        if (d == 0) return 0;
        s->at[d--] = 0;
    }
    for (d = 0; d < s->count; d++)
        s->v[d] = s->lists[d].v[s->at[d]];
    return 1;
}

void tila_test_setenv(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* The user mapping of tila_test_dist: tile (m, n) on rank (m (m + 1) / 2 + n) mod size. */
static int scattered(int m, int n, void *arg) { return (m * (m + 1) / 2 + n) % *(int *)arg; }

tila_dist_t tila_test_dist(const int grid[2], int *size)
{
    if (!grid[0]) return (tila_dist_t){ .rank_of = scattered, .rank_arg = size };
    return (tila_dist_t){ .p = grid[0], .q = grid[1] };
}

const char *tila_test_grid_name(const int grid[2], char *buf, size_t len)
{
    if (grid[0]) snprintf(buf, len, "%dx%d", grid[0], grid[1]);
    return grid[0] ? buf : "user";
}

int tila_test_once(tila_test_seen_t *seen, int width, const int config[])
{
    for (int c = 0; c < seen->count; c++)
        if (!memcmp(seen->v + (size_t)c * width, config, sizeof *config * (size_t)width)) return 0;
    if (seen->count == seen->capacity) {
        int capacity = seen->capacity ? 2 * seen->capacity : 64;
        int *v = realloc(seen->v, sizeof *v * (size_t)capacity * width);
        if (!v) return 1; /* run it again rather than not at all */
        seen->v = v;
        seen->capacity = capacity;
    }
    memcpy(seen->v + (size_t)seen->count++ * width, config, sizeof *config * (size_t)width);
    return 1;
}

void tila_test_seen_free(tila_test_seen_t *seen)
{
    free(seen->v);
    *seen = (tila_test_seen_t){ 0 };
}

int tila_test_grids(int grids[][2], int max)
{
    int size = tila_comm_size(), n = 0;
    for (int p = 1; p <= size && n < max; p++)
        if (size % p == 0) {
            grids[n][0] = p;
            grids[n][1] = size / p;
            n++;
        }
    return n;
}

double tila_test_diff_fro(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y,
                          int ldy)
{
    double num = 0, den = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            size_t x = (size_t)j * ldx + i, y = (size_t)j * ldy + i;
            double d, r;
            switch (prec) {
            case TILA_REAL32:
                d = (double)((const float *)X)[x] - ((const float *)Y)[y];
                r = ((const float *)Y)[y];
                break;
            case TILA_REAL64:
                d = ((const double *)X)[x] - ((const double *)Y)[y];
                r = ((const double *)Y)[y];
                break;
            case TILA_COMPLEX32:
                d = cabs((double complex)((const float complex *)X)[x] -
                         ((const float complex *)Y)[y]);
                r = cabsf(((const float complex *)Y)[y]);
                break;
            default:
                d = cabs(((const double complex *)X)[x] - ((const double complex *)Y)[y]);
                r = cabs(((const double complex *)Y)[y]);
                break;
            }
            num += d * d;
            den += r * r;
        }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}
