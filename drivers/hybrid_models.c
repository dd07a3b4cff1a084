/**
 * @file hybrid_models.c
 * @brief tila_hybrid_balance_models: the CPU slice width b of Song and Dongarra's
 * distribution from this node's calibrated performance models.
 *
 * The rates tila_hybrid_balance weighs are GEMM rates on the updates each kind of worker
 * does: a core on a CPU slice's tile (W x b, inner dimension W, W = B - (s - 1) b the GPU
 * slice's width: the largest part of those updates), a GPU on the GPU slice's (W x W x W).
 * They come from the regression StarPU fitted for Tila's GEMM codelet on each kind of
 * worker (perfmodels/README.md: time = alpha size^beta, size as codelets/tila_codelet.h's
 * tila_cl_blas3_size gives it), and they depend on b: from b = B / s, b is recomputed
 * until it repeats (the paper's appendix A.1 iterates alike).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>

#include "tila_codelet.h"
#include "tila_runtime.h"

/* GFLOP/s of the gemm m x n x k on worker w under `model`, or 0 (message said why). */
static double hybrid_gemm_rate(struct starpu_perfmodel *model, const char *symbol, size_t elem,
                               int w, int m, int n, int k)
{
    struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(w, STARPU_NMAX_SCHED_CTXS);
    struct starpu_perfmodel_per_arch *per = starpu_perfmodel_get_model_per_arch(model, arch, 0);
    const struct starpu_perfmodel_regression_model *r = per ? &per->regression : NULL;
    double size = (double)tila_cl_blas3_size(elem, 3, m, n, k);
    char name[64];
    starpu_worker_get_name(w, name, sizeof name);
    if (!r || !r->valid || size < 0.9 * r->minx || size > 1.1 * r->maxx) {
        tila_error("tila_hybrid_balance_models",
                   "the model %s cannot time a %d x %d x %d gemm on %s: %s (calibrate with "
                   "tila-calibrate at tile sizes around %.0f)",
                   symbol, m, n, k, name,
                   !r || !r->valid ? "not calibrated there" : "outside its calibrated sizes",
                   cbrt((double)m * n * k));
        return 0;
    }
    double us = r->alpha * pow(size, r->beta);
    return us > 0 ? 2.0 * m * n * k / us * 1e-3 : 0;
}

int tila_hybrid_balance_models(tila_hybrid_t *h, tila_prec_t prec, int align)
{
    static const char *func = "tila_hybrid_balance_models";
    static const char letter[] = { 's', 'd', 'c', 'z' };
    int rc = tila_check_init(func);
    if (rc) return rc;
    tila_resume(); /* every Tila call brings the workers back (after tila_pause) */
    if (!h || h->s < 2 || h->B < h->s)
        return tila_illegal_value(func, 1, "h", h ? h->s : 0, "a distribution with s >= 2, B >= s");
    if ((unsigned)prec > TILA_COMPLEX64)
        return tila_illegal_value(func, 2, "prec", (int)prec, "a tila_prec_t");
    if (align < 1) return tila_illegal_value(func, 3, "align", align, ">= 1");
    int cpu = -1, gpu = -1, cpus = 0, gpus = 0;
    for (int w = 0; w < (int)starpu_worker_get_count(); w++) {
        enum starpu_worker_archtype type = starpu_worker_get_type(w);
        if (type == STARPU_CPU_WORKER) cpus++, cpu = cpu < 0 ? w : cpu;
        if (type == STARPU_CUDA_WORKER) gpus++, gpu = gpu < 0 ? w : gpu;
    }
    if (cpus == 0) {
        tila_error(func, "this rank has no CPU worker to give CPU slices to");
        return TILA_ERR_NO_WORKER;
    }
    char symbol[16];
    snprintf(symbol, sizeof symbol, "tila_%cgemm", letter[prec]);
    struct starpu_perfmodel model = { .type = STARPU_REGRESSION_BASED };
    if (starpu_perfmodel_load_symbol(symbol, &model)) {
        tila_error(func, "no performance model %s on this machine (tila-calibrate makes it)",
                   symbol);
        return TILA_ERR_STARPU;
    }
    size_t elem = tila_prec_size(prec);
    tila_hybrid_t t = *h;
    t.b = h->B / h->s;
    rc = TILA_ERR_STARPU;
    for (int round = 0; round < 16; round++) {
        int W = t.B - (t.s - 1) * t.b, b = t.b;
        double rc_cpu = hybrid_gemm_rate(&model, symbol, elem, cpu, W, b, W);
        double rc_gpu = gpus ? hybrid_gemm_rate(&model, symbol, elem, gpu, W, W, W) : 1;
        if (!(rc_cpu > 0) || !(rc_gpu > 0)) break;
        tila_hybrid_balance(&t, rc_cpu, cpus, rc_gpu, gpus, align);
        rc = TILA_SUCCESS;
        if (t.b == b) break;
    }
    starpu_perfmodel_unload_model(&model);
    if (rc == TILA_SUCCESS) h->b = t.b;
    return rc;
}
