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

const char *tila_test_qr_tree_name(const tila_desc_t *T)
{
    tila_qr_tree_t tree = tila_desc_qr_tree(T);
    return tree == TILA_QR_TREE_BINARY ? "tree" : tree == TILA_QR_TREE_PANEL ? "panel" : "flat";
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
