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
    tila_test_list_t ib;    /**< inner block sizes (QR) */
    char prec[5];           /**< precisions to run, subset of "sdcz" */
    unsigned long long seed;
    double tol;             /**< threshold on scaled residuals */
    int verbose;
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

/**
 * Report one configuration on rank 0: "PASS|FAIL|SKIP name prec details error=...".
 * `ok` must be the same on every rank (compute it from agreed values).
 */
void tila_test_report(const char *status, const char *name, char prec, double error,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/** PASS when ok (on rank 0's view, broadcast to all), else FAIL; returns ok. */
int tila_test_check(int ok, const char *name, char prec, double error, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/** Values of `list`, or the defaults when the option was not given. */
const tila_test_list_t *tila_test_list(const tila_test_list_t *list,
                                       const tila_test_list_t *defaults);

/** The P x Q grids of the world size to cover: 1x1; 1x2, 2x1; 2x2, 1x4, 4x1 ... */
int tila_test_grids(int grids[][2], int max);

/** Counters of this process (rank 0's are the ones that count). */
extern int tila_test_passed, tila_test_failed, tila_test_skipped;

/** The letter of a precision. */
char tila_test_prec_letter(tila_prec_t prec);
/** "flat", "tree" (binary) or "panel": the scheme recorded in a QR T. */
const char *tila_test_qr_tree_name(const tila_desc_t *T);

/** Relative error ||X - Y||_F / ||Y||_F of two column-major arrays (0 if both are 0). */
double tila_test_diff_fro(tila_prec_t prec, int m, int n, const void *X, int ldx,
                          const void *Y, int ldy);

#endif /* TILA_TEST_H */
