/**
 * @file main.c
 * @brief tila-tests: runs the named test suites (all by default) under mpirun.
 *
 * Usage: tila-tests [SUITE ...] [--prec sdcz] [--m LIST] [--n LIST] [--k LIST]
 *                   [--nb LIST] [--ib LIST] [--seed S] [--tol T] [--tiles uniform|random]
 * LIST is "a,b,c", "first:last" or "first:last:step", or several of those joined by
 * commas (at most TILA_TEST_MAXLIST values).  A size option replaces that size in every
 * case of a suite's own sweep by each value of its list (several options: their cross
 * product); the sizes not given keep the suite's values, and cases that the options make
 * equal run once.  Which sizes each suite takes:
 *   gen    m, n (plghe: m), nb            gemm   m, n, k, nb (geadd: m, n, nb)
 *   trsm   m, n, nb                       potrf  n, nb (also the non-definite cases)
 *   geqrf  m, n, nb, ib (ib > nb: SKIP)   gels   m, n, nb, ib (m < n or ib > nb: SKIP)
 *   lange  m, n, nb (the general, trapezoidal, symmetric sweep; single's large sum: n, nb)
 *   posv_mixed  fixed sizes (d and z: dsposv, zcposv; conditions 1e2 to 1e9, overflow)
 * --tiles random gives every matrix the suites create tiles of random sizes, 1 to 3 nb rows
 * or columns for the tile size nb asked for (tila_test_desc_create).
 * The other cases (NaN and scaling in lange, the failed sequence in potrf, desc, errors,
 * copy, sequence, nomem) have fixed sizes.  An unknown argument or a malformed list is an
 * error (exit 2).  One line per configuration on rank 0, then "N passed, N failed, N
 * skipped".
 * Exit 0 when nothing failed, 1 otherwise, 77 when everything was skipped.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tila_test.h"
#include "tests_s.h"
#include "tests_d.h"
#include "tests_c.h"
#include "tests_z.h"
#include "tests_ds.h"
#include "tests_zc.h"

#define TILA_TEST_PREC(name)                                                                       \
    {                                                                                              \
        tila_test_s##name, tila_test_d##name, tila_test_c##name, tila_test_z##name                 \
    }
static const tila_test_t suites[] = {
    { "desc", tila_test_desc, { 0 } },
    { "errors", tila_test_errors, { 0 } },
    { "copy", tila_test_copy, { 0 } },
    { "sequence", tila_test_sequence, { 0 } },
    { "nomem", tila_test_nomem, { 0 } },
    { "gen", NULL, TILA_TEST_PREC(gen) },
    { "gemm", NULL, TILA_TEST_PREC(gemm) },
    { "trsm", NULL, TILA_TEST_PREC(trsm) },
    { "potrf", NULL, TILA_TEST_PREC(potrf) },
    /* QR */
    { "geqrf", NULL, TILA_TEST_PREC(geqrf) },
    { "gels", NULL, TILA_TEST_PREC(gels) },
    { "cholqr", NULL, TILA_TEST_PREC(cholqr) },
    { "lange", NULL, TILA_TEST_PREC(lange) },
    /* Mixed precision: d (with s) and z (with c) */
    { "posv_mixed", NULL, { NULL, tila_test_dsposv, NULL, tila_test_zcposv } },
};
#define NSUITES (sizeof suites / sizeof suites[0])

/* "a,b:c:d,...": 0, or -1 when malformed, empty or longer than TILA_TEST_MAXLIST. */
static int parse_list(const char *s, tila_test_list_t *l)
{
    l->n = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a, step = 1;
        if (end == s) return -1;
        if (*end == ':') {
            const char *from = end + 1;
            b = strtol(from, &end, 10);
            if (end == from) return -1;
            if (*end == ':') {
                from = end + 1;
                step = strtol(from, &end, 10);
                if (end == from || step <= 0) return -1;
            }
        }
        for (long v = a; v <= b; v += step) {
            if (l->n == TILA_TEST_MAXLIST) return -1;
            l->v[l->n++] = (int)v;
        }
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        s = end;
    }
    return l->n > 0 ? 0 : -1;
}

static int parse(int argc, char **argv, tila_test_opts_t *o, int *selected)
{
    memset(o, 0, sizeof *o);
    strcpy(o->prec, "sdcz");
    o->seed = 3872;
    o->tol = 50;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        tila_test_list_t *list = !strcmp(a, "--m")    ? &o->m
                                 : !strcmp(a, "--n")  ? &o->n
                                 : !strcmp(a, "--k")  ? &o->k
                                 : !strcmp(a, "--nb") ? &o->nb
                                 : !strcmp(a, "--ib") ? &o->ib
                                                      : NULL;
        if (list) {
            if (!v || parse_list(v, list)) {
                fprintf(stderr,
                        "tila-tests: %s takes a list: a,b,c or first:last:step "
                        "(at most %d values), not '%s'\n",
                        a, TILA_TEST_MAXLIST, v ? v : "");
                return -1;
            }
            i++;
            continue;
        }
        if (!strcmp(a, "--prec") && v) {
            if (!*v || strspn(v, "sdcz") != strlen(v) || strlen(v) >= sizeof o->prec) {
                fprintf(stderr, "tila-tests: --prec takes letters of sdcz, not '%s'\n", v);
                return -1;
            }
            strcpy(o->prec, v);
            i++;
            continue;
        }
        if (!strcmp(a, "--seed") && v) {
            o->seed = strtoull(v, NULL, 10);
            i++;
            continue;
        }
        if (!strcmp(a, "--tiles") && v && (!strcmp(v, "uniform") || !strcmp(v, "random"))) {
            tila_test_tiles_random = !strcmp(v, "random");
            i++;
            continue;
        }
        if (!strcmp(a, "--tol") && v) {
            o->tol = atof(v);
            i++;
            continue;
        }
        size_t s;
        for (s = 0; s < NSUITES && strcmp(a, suites[s].name); s++)
            ;
        if (s == NSUITES) {
            fprintf(stderr, "tila-tests: unknown argument '%s'\nsuites:", a);
            for (s = 0; s < NSUITES; s++)
                fprintf(stderr, " %s", suites[s].name);
            fprintf(stderr, "\n");
            return -1;
        }
        selected[s] = 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    tila_test_opts_t opts;
    int selected[NSUITES] = { 0 }, any = 0;
    int rc = tila_init(&argc, &argv);
    if (rc) {
        fprintf(stderr, "tila-tests: tila_init: %s\n", tila_strerror(rc));
        return rc == TILA_ERR_NO_WORKER ? 77 : 1;
    }
    if (parse(argc, argv, &opts, selected)) {
        tila_finalize();
        return 2;
    }
    tila_test_tiles_seed = opts.seed;
    for (size_t s = 0; s < NSUITES; s++)
        any |= selected[s];
    for (size_t s = 0; s < NSUITES; s++) {
        if (any && !selected[s]) continue;
        if (suites[s].run) suites[s].run(&opts);
        for (int p = 0; p < 4; p++)
            if (suites[s].run_prec[p] && strchr(opts.prec, tila_test_prec_letter((tila_prec_t)p)))
                suites[s].run_prec[p](&opts);
    }
    if (tila_comm_rank() == 0)
        printf("%d passed, %d failed, %d skipped\n", tila_test_passed, tila_test_failed,
               tila_test_skipped);
    int failed = tila_test_failed, ran = tila_test_passed + tila_test_failed;
    tila_finalize();
    return failed ? 1 : ran ? 0 : 77;
}
