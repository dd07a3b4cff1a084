/**
 * @file main.c
 * @brief tila-tests: runs the named test suites (all by default) under mpirun.
 *
 * Usage: tila-tests [SUITE ...] [--prec sdcz] [--m LIST] [--n LIST] [--k LIST]
 *                   [--nb LIST] [--ib LIST] [--seed S] [--tol T] [--verbose]
 * LIST is "a,b,c" or "first:last:step".  One line per configuration on rank 0, then
 * "N passed, N failed, N skipped".  Exit 0 when nothing failed, 1 otherwise, 77 when
 * everything was skipped.
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

#define TILA_TEST_PREC(name) { tila_test_s##name, tila_test_d##name, tila_test_c##name, \
                               tila_test_z##name }
static const tila_test_t suites[] = {
    { "desc", tila_test_desc, { 0 } },
    { "errors", tila_test_errors, { 0 } },
    { "copy", tila_test_copy, { 0 } },
    { "sequence", tila_test_sequence, { 0 } },
    { "gen", NULL, TILA_TEST_PREC(gen) },
    { "gemm", NULL, TILA_TEST_PREC(gemm) },
    { "trsm", NULL, TILA_TEST_PREC(trsm) },
    { "potrf", NULL, TILA_TEST_PREC(potrf) },
    /* QR */
    { "geqrf", NULL, TILA_TEST_PREC(geqrf) },
    { "gels", NULL, TILA_TEST_PREC(gels) },
    { "lange", NULL, TILA_TEST_PREC(lange) },
};
#define NSUITES (sizeof suites / sizeof suites[0])

static int parse_list(const char *s, tila_test_list_t *l)
{
    l->n = 0;
    while (*s && l->n < TILA_TEST_MAXLIST) {
        char *end;
        long a = strtol(s, &end, 10), b = a, step = 1;
        if (end == s)
            return -1;
        if (*end == ':') {
            b = strtol(end + 1, &end, 10);
            if (*end == ':')
                step = strtol(end + 1, &end, 10);
            if (step <= 0)
                return -1;
        }
        for (long v = a; v <= b && l->n < TILA_TEST_MAXLIST; v += step)
            l->v[l->n++] = (int)v;
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        s = end;
    }
    return 0;
}

static int parse(int argc, char **argv, tila_test_opts_t *o, int *selected)
{
    memset(o, 0, sizeof *o);
    strcpy(o->prec, "sdcz");
    o->seed = 3872;
    o->tol = 50;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        tila_test_list_t *list = !strcmp(a, "--m") ? &o->m : !strcmp(a, "--n") ? &o->n
                               : !strcmp(a, "--k") ? &o->k : !strcmp(a, "--nb") ? &o->nb
                               : !strcmp(a, "--ib") ? &o->ib : NULL;
        if (list && v && !parse_list(v, list)) { i++; continue; }
        if (!strcmp(a, "--prec") && v) { snprintf(o->prec, sizeof o->prec, "%s", v); i++; continue; }
        if (!strcmp(a, "--seed") && v) { o->seed = strtoull(v, NULL, 10); i++; continue; }
        if (!strcmp(a, "--tol") && v) { o->tol = atof(v); i++; continue; }
        if (!strcmp(a, "--verbose")) { o->verbose = 1; continue; }
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
    for (size_t s = 0; s < NSUITES; s++)
        any |= selected[s];
    for (size_t s = 0; s < NSUITES; s++) {
        if (any && !selected[s])
            continue;
        if (suites[s].run)
            suites[s].run(&opts);
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
