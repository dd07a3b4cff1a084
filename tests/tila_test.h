/**
 * @file tila_test.h
 * @brief Test harness shared by every test file: options, reporting, grids.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_TEST_H
#define TILA_TEST_H

#include <stdio.h>

#include "tila.h"

#define TILA_TEST_MAXLIST 64

/** An integer option: a list of values, from "a,b,c" and ranges "first:last:step". */
typedef struct tila_test_list_s {
    int n;
    int v[TILA_TEST_MAXLIST];
} tila_test_list_t;

/** Options every test takes; empty lists mean "the test's own sweep". */
typedef struct tila_test_opts_s {
    tila_test_list_t m, n, k, nb;
    tila_test_list_t ib; /**< inner block sizes (QR) */
    char prec[5];        /**< precisions to run, subset of "sdcz" */
    unsigned long long seed;
    double tol; /**< threshold on scaled residuals */
} tila_test_opts_t;

/** A suite: a precision-free entry point, or one per precision (indexed like tila_prec_t). */
typedef struct tila_test_s {
    const char *name;
    void (*run)(const tila_test_opts_t *opts);
    void (*run_prec[4])(const tila_test_opts_t *opts);
} tila_test_t;

/* Precision-free suites. */
void tila_test_desc(const tila_test_opts_t *opts);
void tila_test_errors(const tila_test_opts_t *opts);
void tila_test_copy(const tila_test_opts_t *opts);
void tila_test_sequence(const tila_test_opts_t *opts);
void tila_test_nomem(const tila_test_opts_t *opts);

/**
 * Report one configuration on rank 0: "PASS|FAIL|SKIP name prec details error=...".
 * `ok` must be the same on every rank (compute it from agreed values).
 */
void tila_test_report(const char *status, const char *name, char prec, double error,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/** PASS when ok (on rank 0's view, broadcast to all), else FAIL; returns ok. */
int tila_test_check(int ok, const char *name, char prec, double error, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/**
 * The values a suite runs for one size: the option's list when it was given (opt may be
 * NULL: no option), else the suite's own `n` values `own` (n <= TILA_TEST_MAXLIST).  A
 * suite loops over one such list per size, so that it runs the cross product of the lists
 * given and keeps its own sweep for the sizes not given.
 */
tila_test_list_t tila_test_sweep(const tila_test_list_t *opt, int n, const int own[]);

/** tila_test_sweep with one own value: that of the suite's case at hand. */
tila_test_list_t tila_test_values(const tila_test_list_t *opt, int own);

#define TILA_TEST_MAXSIZES 6

/**
 * The cross product of the lists of sizes one case of a suite runs: for size d, the list
 * tila_test_values(opts[d], own[d]) (the option's list when given, else the case's own
 * value).  Start it with tila_test_sizes, then each tila_test_sizes_next puts the next
 * combination in v, the last size varying fastest, as nested loops over the lists would.
 */
typedef struct tila_test_sizes_s {
    int count;                                  /**< sizes, at most TILA_TEST_MAXSIZES */
    tila_test_list_t lists[TILA_TEST_MAXSIZES]; /**< the values of each size */
    int at[TILA_TEST_MAXSIZES];                 /**< the position in each list */
    int v[TILA_TEST_MAXSIZES];                  /**< the combination at hand */
} tila_test_sizes_t;

void tila_test_sizes(tila_test_sizes_t *s, int count, const tila_test_list_t *const opts[],
                     const int own[]);

/** 1 with the next combination in s->v, 0 when all have been given. */
int tila_test_sizes_next(tila_test_sizes_t *s);

/** The configurations a suite has run (see tila_test_once); starts zeroed: { 0 }. */
typedef struct tila_test_seen_s {
    int count, capacity;
    int *v;
} tila_test_seen_t;

/**
 * 1 the first time `config` (`width` ints, the same width at every call on one `seen`:
 * every value that decides what a call runs and checks) is given, 0 after.  Lists given
 * can make a suite's cases equal (rows that differ only in the sizes they replace); the
 * suite asks before each configuration and runs it once.  Its own sweep never repeats.
 */
int tila_test_once(tila_test_seen_t *seen, int width, const int config[]);

/**
 * The tiling every suite's matrices get (--tiles): 0, the uniform mb x nb tiles the suite
 * asks for; 1, tiles of random sizes from 1 to 3 mb (3 nb), drawn from --seed and the tile
 * size alone, so that two dimensions of one length and tile size are tiled alike on every
 * rank and a shorter one is a prefix of a longer one (the diagonal tiles stay square).
 */
extern int tila_test_tiles_random;
extern unsigned long long tila_test_tiles_seed;

/** tila_desc_create and tila_desc_create_lapack with the tiling of --tiles; a uniform
 * tiling's errors (m < 0, mb <= 0, ...) are tila_desc_create's. */
int tila_test_desc_create(tila_desc_t **A, tila_prec_t prec, int m, int n, int mb, int nb,
                          const tila_dist_t *dist);
int tila_test_desc_create_lapack(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int m, int n,
                                 int mb, int nb, const tila_dist_t *dist);

/** The inner block size of a test's QR T on A: ib, at most A's widest tile column (a random
 * tiling's may be narrower than the tile size asked for). */
int tila_test_qr_ib(const tila_desc_t *A, int ib);

/** Set the environment variable `name` to `value`, or unset it when value is NULL. */
void tila_test_setenv(const char *name, const char *value);

/**
 * The distribution of a test's grid: P x Q block-cyclic, or for the grid 0 x 0 the user
 * mapping, which sends a panel's rows to the *size ranks in no cyclic order (size must
 * live as long as the distribution).
 */
tila_dist_t tila_test_dist(const int grid[2], int *size);

/** A grid's name in the report lines: "PxQ" (in buf), or "user" for the grid 0 x 0. */
const char *tila_test_grid_name(const int grid[2], char *buf, size_t len);

/** Release what tila_test_once recorded. */
void tila_test_seen_free(tila_test_seen_t *seen);

/** The P x Q grids of the world size to cover: 1x1; 1x2, 2x1; 2x2, 1x4, 4x1 ... */
int tila_test_grids(int grids[][2], int max);

/** Counters of this process (rank 0's are the ones that count). */
extern int tila_test_passed, tila_test_failed, tila_test_skipped;

/** The letter of a precision. */
char tila_test_prec_letter(tila_prec_t prec);
/** "flat", "tree" (binary) or "panel": the scheme recorded in a QR T. */
const char *tila_test_qr_tree_name(const tila_desc_t *T);

/** Relative error ||X - Y||_F / ||Y||_F of two column-major arrays (0 if both are 0). */
double tila_test_diff_fro(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y,
                          int ldy);

#endif /* TILA_TEST_H */
