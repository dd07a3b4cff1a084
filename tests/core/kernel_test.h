/**
 * @file kernel_test.h
 * @brief Harness of the CPU tile kernel tests: options, reporting, generators, differences.
 *
 * The kernel tests run the tile kernels of kernels/cpu on plain arrays, with no StarPU
 * and no MPI, and compare them with LAPACKE and CBLAS.  This harness is precision-free:
 * its helpers take the element type as a tila_prec_t and compute in double.  The
 * precision-specific helpers are in kernel_ztest.c.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef KERNEL_TEST_H
#define KERNEL_TEST_H

#include <stddef.h>

#include "tila_types.h"

/** Options of tila-kernel-tests. */
typedef struct kernel_opts_s {
    char prec[5];            /**< precisions to run, a subset of "sdcz" */
    unsigned long long seed; /**< base seed of every generated matrix */
} kernel_opts_t;

/** A suite: one entry point per precision, indexed like tila_prec_t (s, d, c, z). */
typedef struct kernel_suite_s {
    const char *name;
    void (*run[4])(const kernel_opts_t *opts);
} kernel_suite_t;

/**
 * The whole program: parse `[SUITE ...] [--prec sdcz] [--seed S]`, run the selected
 * suites (all by default) in the selected precisions, print "N passed, N failed, N
 * skipped".  @return 0 when nothing failed, 1 when something failed, 2 for a bad
 * command line, 77 when nothing ran.
 */
int kernel_test_main(int argc, char **argv, const kernel_suite_t *suites, int nsuites);

/** Counters of reported configurations. */
extern int kernel_test_passed, kernel_test_failed, kernel_test_skipped;

/** Print "STATUS name prec details error=x" and count it (status PASS, FAIL or SKIP). */
void kernel_report(const char *status, const char *name, char prec, double error, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));

/** kernel_report with PASS when ok, else FAIL; returns ok. */
int kernel_check(int ok, const char *name, char prec, double error, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/**
 * The argument checks of a kernel: got[i] (what the kernel returned for bad call i) must
 * be want[i] (-position of the bad argument, or 0).  One line for the lot, naming the
 * first call that returned something else.  @return 1 when all matched.
 */
int kernel_check_codes(const char *name, char prec, int ncalls, const int *got, const int *want);

/** kernel_check_codes over a table of calls and one of expected codes, whose lengths must
 * agree (checked when compiling: a call left without its code would go unchecked). */
#define KERNEL_CHECK_CODES(name, prec, got, want)                                                  \
    do {                                                                                           \
        _Static_assert(sizeof(got) / sizeof((got)[0]) == sizeof(want) / sizeof((want)[0]),         \
                       "one expected code per call");                                              \
        kernel_check_codes(name, prec, (int)(sizeof(want) / sizeof((want)[0])), got, want);        \
    } while (0)

/** The letter of a precision: 's', 'd', 'c' or 'z'. */
char kernel_prec_letter(tila_prec_t prec);

/** 1 when entry (i, j) is in the uplo triangle (diagonal included). */
int kernel_in_triangle(tila_uplo_t uplo, int i, int j);

/** LAPACK's letter of a Tila enum value (trans, uplo, diag, side): 'N', 'T', 'C', 'U', ... */
char kernel_letter(int value);

/** The uplo letter LAPACK's lacpy/laset take: 'U', 'L', or 'A' for the whole matrix. */
char kernel_lapack_uplo(tila_uplo_t uplo);

/** Bytes per element. */
size_t kernel_elem_size(tila_prec_t prec);

/** Machine epsilon of the precision (DBL_EPSILON or FLT_EPSILON), as a double. */
double kernel_eps(tila_prec_t prec);

/**
 * A new ld x n column-major array (at least one element) with every entry NaN (every
 * part of complex entries): what a kernel must not read or write stays NaN and shows.
 */
void *kernel_alloc(tila_prec_t prec, int ld, int n);

/**
 * The row counts of a panel of m rows in tiles (the panel kernels' mbs): mb > 0, tiles of
 * mb rows, the last one partial; mb < 0, tiles of 1 to -mb rows in an irregular order.
 * *count: the number of tiles.  Free the array.
 */
int *kernel_panel_rows(int m, int mb, int *count);

/** A new copy of the ld x n array A. */
void *kernel_dup(tila_prec_t prec, int ld, int n, const void *A);

/**
 * Entries (i, j), i < m, j < n, of A = uniform numbers in [-0.5, 0.5) (real and imaginary
 * parts), each a function of (seed, i, j) alone (a SplitMix64 counter generator); the rows
 * m..lda-1 are not touched.
 */
void kernel_fill(tila_prec_t prec, int m, int n, void *A, int lda, unsigned long long seed);

/** Entries (i, j), i < m, j < n, of A = re + i im (im ignored in real precisions). */
void kernel_set(tila_prec_t prec, int m, int n, void *A, int lda, double re, double im);

/** 1 when the m x n parts of X and Y hold the same bits (NaN equals the same NaN). */
int kernel_equal(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y, int ldy);

/**
 * 1 when rows m..ld-1 of the n columns of X and X0 (both ld apart) hold the same bits:
 * a kernel that works on the leading m rows has not written below them.
 */
int kernel_untouched(tila_prec_t prec, int m, int n, int ld, const void *X, const void *X0);

/** ||X - Y||_F / ||Y||_F of the m x n parts, or ||X - Y||_F when Y is 0 (NaN if any is). */
double kernel_diff_fro(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y,
                       int ldy);

/** ||X - Y||_F of the m x n parts (NaN if any entry is). */
double kernel_dist_fro(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y,
                       int ldy);

/** num / den for a scaled error: 0 / 0 is 0, x / 0 is +Inf for x > 0, NaN stays NaN. */
double kernel_ratio(double num, double den);

/** run(uplo, m, n, seed) on the element-wise kernels' shapes (empty, 1 x 1, wide, tall,
 * square, odd) with each of upper, lower and general, seeds seed + 2, seed + 4, ... */
void kernel_sweep_uplo_shapes(void (*run)(tila_uplo_t uplo, int m, int n,
                                          unsigned long long seed),
                              unsigned long long seed);

#endif /* KERNEL_TEST_H */
