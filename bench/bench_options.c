/**
 * @file bench_options.c
 * @brief The options shared by tila-bench-run and tila-sim-run, and the letters that name
 * a norm or a QR scheme.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "bench_run.h"

/* posv_mixed's --factor: fp32, tf32, bf16 or fp16 (tila_factor_t); 1 when it is one. */
static int bench_factor(const char *v, int *factor)
{
    static const char *const names[] = { "fp32", "tf32", "bf16", "fp16" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(v, names[i])) {
            *factor = TILA_FACTOR_FP32 + i;
            return 1;
        }
    return 0;
}

int bench_parse_options(int argc, char **argv, int first, bench_cfg_t *c)
{
    for (int i = first; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int *dst = !strcmp(a, "--m")              ? &c->m
                   : !strcmp(a, "--n")            ? &c->n
                   : !strcmp(a, "--k")            ? &c->k
                   : !strcmp(a, "--nrhs")         ? &c->nrhs
                   : !strcmp(a, "--nb")           ? &c->nb
                   : !strcmp(a, "--ib")           ? &c->ib
                   : !strcmp(a, "--p")            ? &c->p
                   : !strcmp(a, "--q")            ? &c->q
                   : !strcmp(a, "--shrink-min")   ? &c->shrink_min
                   : !strcmp(a, "--shrink-ratio") ? &c->shrink_ratio
                   : !strcmp(a, "--hybrid-B")     ? &c->hybrid_B
                   : !strcmp(a, "--hybrid-s")     ? &c->hybrid_s
                   : !strcmp(a, "--hybrid-b")     ? &c->hybrid_b
                   : !strcmp(a, "--double")       ? &c->dbl
                   : !strcmp(a, "--reps")         ? &c->reps
                   : !strcmp(a, "--warmup")       ? &c->warmup
                                                  : NULL;
        if (!v) return -1;
        if (dst)
            *dst = atoi(v);
        else if (!strcmp(a, "--variant"))
            c->variant = v[0];
        else if (!strcmp(a, "--cond"))
            c->cond = strtod(v, NULL);
        else if (!strcmp(a, "--factor") && bench_factor(v, &c->factor))
            ;
        else if (!strcmp(a, "--seed"))
            c->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--check") && (!strcmp(v, "host") || !strcmp(v, "device")))
            c->check_device = !strcmp(v, "device");
        else
            return -1;
    }
    if (!c->m) c->m = c->n;
    if (!c->k) c->k = c->n;
    return c->n > 0 && c->nb > 0 && c->nrhs > 0 && c->reps > 0 && c->warmup >= 0 ? 0 : -1;
}

tila_norm_t bench_norm(char v)
{
    return v == 'O'   ? TILA_NORM_ONE
           : v == 'I' ? TILA_NORM_INF
           : v == 'F' ? TILA_NORM_FRO
                      : TILA_NORM_MAX;
}

tila_qr_tree_t bench_qr_tree(char v)
{
    switch (v) {
    case 'f': return TILA_QR_TREE_FLAT;
    case 'b': return TILA_QR_TREE_BINARY;
    case 'p': return TILA_QR_TREE_PANEL;
    case 'c': return TILA_QR_TREE_CHOLQR;
    default: return TILA_QR_TREE_AUTO;
    }
}

int bench_desc_tiled(tila_desc_t **A, int m, int n, bench_tiling_fn *tiling, const void *arg,
                     const tila_dist_t *dist)
{
    int mt = tiling(m, NULL, arg), nt = tiling(n, NULL, arg);
    if (mt < 0 || nt < 0) return mt < 0 ? mt : nt;
    int *mbs = malloc(sizeof(int) * (size_t)(mt + 1)),
        *nbs = malloc(sizeof(int) * (size_t)(nt + 1));
    int rc = TILA_ERR_NOMEM;
    if (mbs && nbs) {
        tiling(m, mbs, arg);
        tiling(n, nbs, arg);
        rc = tila_desc_create_tiled(A, TILA_REAL64, mt, mbs, nt, nbs, dist);
    }
    free(mbs);
    free(nbs);
    return rc;
}
