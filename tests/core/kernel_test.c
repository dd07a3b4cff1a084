/**
 * @file kernel_test.c
 * @brief Harness of the CPU tile kernel tests: command line, reporting, generators, differences.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

int kernel_test_passed, kernel_test_failed, kernel_test_skipped;

/* ---- Reporting ------------------------------------------------------------------------ */

static void vreport(const char *status, const char *name, char prec, double error, const char *fmt,
                    va_list ap)
{
    printf("%s %s %c ", status, name, prec);
    vprintf(fmt, ap);
    printf(" error=%.3g\n", error);
    fflush(stdout);
}

void kernel_report(const char *status, const char *name, char prec, double error, const char *fmt,
                   ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(status, name, prec, error, fmt, ap);
    va_end(ap);
    if (!strcmp(status, "PASS"))
        kernel_test_passed++;
    else if (!strcmp(status, "SKIP"))
        kernel_test_skipped++;
    else
        kernel_test_failed++;
}

int kernel_check(int ok, const char *name, char prec, double error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(ok ? "PASS" : "FAIL", name, prec, error, fmt, ap);
    va_end(ap);
    if (ok)
        kernel_test_passed++;
    else
        kernel_test_failed++;
    return ok;
}

int kernel_check_codes(const char *name, char prec, int ncalls, const int *got, const int *want)
{
    for (int i = 0; i < ncalls; i++)
        if (got[i] != want[i])
            return kernel_check(0, name, prec, 0,
                                "bad arguments: call %d of %d returned %d, expected %d", i + 1,
                                ncalls, got[i], want[i]);
    return kernel_check(1, name, prec, 0, "bad arguments: %d calls return -i", ncalls);
}

/* ---- Precisions and enums --------------------------------------------------------------- */

char kernel_prec_letter(tila_prec_t prec) { return "sdcz"[prec]; }

char kernel_letter(int value)
{
    switch (value) {
    case TILA_NOTRANS: return 'N';
    case TILA_TRANS: return 'T';
    case TILA_CONJTRANS: return 'C';
    case TILA_UPPER: return 'U';
    case TILA_LOWER: return 'L';
    case TILA_GENERAL: return 'G';
    case TILA_NONUNIT: return 'N';
    case TILA_UNIT: return 'U';
    case TILA_LEFT: return 'L';
    case TILA_RIGHT: return 'R';
    default: return '?';
    }
}

int kernel_in_triangle(tila_uplo_t uplo, int i, int j)
{
    return uplo == TILA_UPPER ? i <= j : i >= j;
}

char kernel_lapack_uplo(tila_uplo_t uplo)
{
    return uplo == TILA_UPPER ? 'U' : uplo == TILA_LOWER ? 'L' : 'A';
}

size_t kernel_elem_size(tila_prec_t prec)
{
    static const size_t size[4] = { sizeof(float), sizeof(double), sizeof(float complex),
                                    sizeof(double complex) };
    return size[prec];
}

double kernel_eps(tila_prec_t prec)
{
    return prec == TILA_REAL32 || prec == TILA_COMPLEX32 ? FLT_EPSILON : DBL_EPSILON;
}

/* Number of reals per element, and the real at index r of the array. */
static int parts(tila_prec_t prec)
{
    return prec == TILA_COMPLEX32 || prec == TILA_COMPLEX64 ? 2 : 1;
}

static int single(tila_prec_t prec) { return prec == TILA_REAL32 || prec == TILA_COMPLEX32; }

static void set_real(tila_prec_t prec, void *A, size_t r, double v)
{
    if (single(prec))
        ((float *)A)[r] = (float)v;
    else
        ((double *)A)[r] = v;
}

static double get_real(tila_prec_t prec, const void *A, size_t r)
{
    return single(prec) ? ((const float *)A)[r] : ((const double *)A)[r];
}

/* ---- Arrays ------------------------------------------------------------------------------ */

int *kernel_panel_rows(int m, int mb, int *count)
{
    int top = mb > 0 ? mb : -mb, *rows = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
    if (!rows) {
        fprintf(stderr, "tila-kernel-tests: out of memory\n");
        exit(1);
    }
    *count = 0;
    for (int r = 0; r < m; r += rows[(*count)++]) {
        int h = mb > 0 ? mb : 1 + (*count * 5 + 3) % top;
        rows[*count] = h < m - r ? h : m - r;
    }
    return rows;
}

void *kernel_alloc(tila_prec_t prec, int ld, int n)
{
    size_t count = (size_t)(ld > 1 ? ld : 1) * (n > 1 ? n : 1);
    void *A = malloc(count * kernel_elem_size(prec));
    if (!A) {
        fprintf(stderr, "tila-kernel-tests: out of memory\n");
        exit(1);
    }
    for (size_t r = 0; r < count * parts(prec); r++)
        set_real(prec, A, r, NAN);
    return A;
}

void *kernel_dup(tila_prec_t prec, int ld, int n, const void *A)
{
    void *B = kernel_alloc(prec, ld, n);
    memcpy(B, A, (size_t)(ld > 1 ? ld : 1) * (n > 1 ? n : 1) * kernel_elem_size(prec));
    return B;
}

/* Uniform in [-0.5, 0.5) from (seed, k): SplitMix64's finaliser of the counter. */
static double uniform(unsigned long long seed, unsigned long long k)
{
    unsigned long long x = seed * 0x9e3779b97f4a7c15ull + k + 0x632be59bd9b4e019ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (double)(x >> 11) * 0x1.0p-53 - 0.5;
}

void kernel_fill(tila_prec_t prec, int m, int n, void *A, int lda, unsigned long long seed)
{
    int p = parts(prec);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            for (int part = 0; part < p; part++) {
                /* The counter of (i, j, part): independent of lda and of the precision. */
                unsigned long long k = (((unsigned long long)j << 24) + (unsigned)i) * 2 + part;
                set_real(prec, A, ((size_t)j * lda + i) * p + part, uniform(seed, k));
            }
}

void kernel_set(tila_prec_t prec, int m, int n, void *A, int lda, double re, double im)
{
    int p = parts(prec);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            set_real(prec, A, ((size_t)j * lda + i) * p, re);
            if (p == 2) set_real(prec, A, ((size_t)j * lda + i) * p + 1, im);
        }
}

int kernel_equal(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y, int ldy)
{
    size_t e = kernel_elem_size(prec);
    if (m <= 0) return 1;
    for (int j = 0; j < n; j++)
        if (memcmp((const char *)X + (size_t)j * ldx * e, (const char *)Y + (size_t)j * ldy * e,
                   (size_t)m * e))
            return 0;
    return 1;
}

int kernel_untouched(tila_prec_t prec, int m, int n, int ld, const void *X, const void *X0)
{
    size_t e = kernel_elem_size(prec);
    if (m < 0) m = 0;
    return kernel_equal(prec, ld - m, n, (const char *)X + m * e, ld, (const char *)X0 + m * e, ld);
}

/* ||X - Y||_F^2 in *num, ||Y||_F^2 in *den. */
static void sums(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y, int ldy,
                 double *num, double *den)
{
    int p = parts(prec);
    *num = *den = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            for (int part = 0; part < p; part++) {
                double x = get_real(prec, X, ((size_t)j * ldx + i) * p + part);
                double y = get_real(prec, Y, ((size_t)j * ldy + i) * p + part);
                *num += (x - y) * (x - y);
                *den += y * y;
            }
}

double kernel_diff_fro(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y,
                       int ldy)
{
    double num, den;
    sums(prec, m, n, X, ldx, Y, ldy, &num, &den);
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

double kernel_dist_fro(tila_prec_t prec, int m, int n, const void *X, int ldx, const void *Y,
                       int ldy)
{
    double num, den;
    sums(prec, m, n, X, ldx, Y, ldy, &num, &den);
    return sqrt(num);
}

double kernel_ratio(double num, double den)
{
    if (den > 0) return num / den;
    return num > 0 ? INFINITY : num;
}

void kernel_sweep_uplo_shapes(void (*run)(tila_uplo_t uplo, int m, int n,
                                          unsigned long long seed),
                              unsigned long long seed)
{
    static const int sizes[][2] = { { 0, 3 }, { 3, 0 },   { 1, 1 }, { 5, 9 },
                                    { 9, 5 }, { 16, 16 }, { 33, 7 } };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER, TILA_GENERAL };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int u = 0; u < 3; u++)
            run(uplos[u], sizes[s][0], sizes[s][1], seed += 2);
}

/* ---- Command line ------------------------------------------------------------------------ */

static void usage(FILE *f, const kernel_suite_t *suites, int nsuites)
{
    fprintf(f, "usage: tila-kernel-tests [SUITE ...] [--prec sdcz] [--seed S]\nsuites:");
    for (int s = 0; s < nsuites; s++)
        fprintf(f, " %s", suites[s].name);
    fprintf(f, "\n");
}

/* 0, or -1 after a message for a bad command line. */
static int parse(int argc, char **argv, const kernel_suite_t *suites, int nsuites, kernel_opts_t *o,
                 int *selected)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--prec") && v && strlen(v) > 0 && strlen(v) < sizeof o->prec &&
            strspn(v, "sdcz") == strlen(v)) {
            snprintf(o->prec, sizeof o->prec, "%s", v);
            i++;
            continue;
        }
        if (!strcmp(a, "--seed") && v) {
            char *end;
            o->seed = strtoull(v, &end, 10);
            if (*v && !*end) {
                i++;
                continue;
            }
        }
        int s;
        for (s = 0; s < nsuites && strcmp(a, suites[s].name); s++)
            ;
        if (s == nsuites) {
            fprintf(stderr, "tila-kernel-tests: unknown or incomplete argument '%s'\n", a);
            usage(stderr, suites, nsuites);
            return -1;
        }
        selected[s] = 1;
    }
    return 0;
}

int kernel_test_main(int argc, char **argv, const kernel_suite_t *suites, int nsuites)
{
    kernel_opts_t opts = { "sdcz", 3872 };
    int *selected = calloc((size_t)nsuites, sizeof *selected), any = 0;
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout, suites, nsuites);
        free(selected);
        return 0;
    }
    if (!selected || parse(argc, argv, suites, nsuites, &opts, selected)) {
        free(selected);
        return 2;
    }
    /* The tests put NaN where a kernel must not read, and LAPACKE's own NaN checks of the
     * reference calls would refuse those inputs. */
    LAPACKE_set_nancheck(0);
    for (int s = 0; s < nsuites; s++)
        any |= selected[s];
    for (int s = 0; s < nsuites; s++) {
        if (any && !selected[s]) continue;
        for (int p = 0; p < 4; p++)
            if (suites[s].run[p] && strchr(opts.prec, kernel_prec_letter((tila_prec_t)p)))
                suites[s].run[p](&opts);
    }
    free(selected);
    printf("%d passed, %d failed, %d skipped\n", kernel_test_passed, kernel_test_failed,
           kernel_test_skipped);
    return kernel_test_failed ? 1 : kernel_test_passed ? 0 : 77;
}
