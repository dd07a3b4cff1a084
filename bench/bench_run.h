/**
 * @file bench_run.h
 * @brief tila-bench-run: one routine, one implementation, one configuration, timed.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include "tila.h"

/** Where the operands live for the implementation being timed. */
typedef enum { BENCH_TILA, BENCH_LAPACKE, BENCH_SCALAPACK } bench_impl_t;

/** How an operand is generated: Tila's seeded generators, or (BENCH_SPD_COND) a symmetric
 * positive definite matrix of a chosen condition number made on rank 0 and scattered. */
typedef enum { BENCH_RANDOM, BENCH_SPD, BENCH_ZERO, BENCH_SPD_COND } bench_fill_t;

#define BENCH_MAXOPS 4

/** An operand: its size, content, and its three possible layouts. */
typedef struct bench_op_s {
    int m, n;
    bench_fill_t fill;
    double cond;         /**< BENCH_SPD_COND: the 2-norm condition number */
    double *in;          /**< rank 0: the input, column-major, kept for the check */
    double *full;        /**< rank 0: what LAPACKE works on, then the result */
    tila_desc_t *desc;   /**< Tila's distributed matrix */
    double *local;       /**< ScaLAPACK's local array */
    double *local_in;    /**< its content as generated, to restore it between calls */
    int lld, desc_sl[9]; /**< ScaLAPACK's local leading dimension and descriptor */
    int nloc;            /**< ScaLAPACK's local columns (at least 1) */
} bench_op_t;

typedef struct bench_cfg_s {
    const char *routine;
    bench_impl_t impl;
    char variant; /**< norm letter, uplo, ... */
    int m, n, k, nrhs, nb, ib, p, q;
    /** Tila's tiles shrinking toward the end of each dimension (tila_tiling_shrink), from nb
     * down to shrink_min, a shrink_ratio-th of what is left; shrink_ratio 0: uniform nb. */
    int shrink_min, shrink_ratio;
    /** tila-sim-run: Song and Dongarra's distribution (tila_hybrid_t) with top-level tiles
     * of hybrid_B, hybrid_s slices, CPU slices of hybrid_b; hybrid_B 0: uniform nb. */
    int hybrid_B, hybrid_s, hybrid_b;
    unsigned long long seed;
    int rank, size, ictxt;
    int nops;
    bench_op_t op[BENCH_MAXOPS];
    double value; /**< a routine's scalar result (a norm) */
    double cond;  /**< --cond: the SPD operand's condition number (0: Tila's generator's) */
    int dbl;      /**< --double 1: the double-precision solve instead of the mixed one */
    int factor;   /**< --factor: the mixed solve's factorization (tila_factor_t; 0: its default) */
    int iter;     /**< a mixed solve's iteration count (RESULT's iter=), INT_MIN if none */
    char mixed[80]; /**< a mixed solve's report (RESULT's path= classic= gmres= cycles=); "" */
    int reps;     /**< --reps: timed calls in the process (tila-bench-run), after... */
    int warmup;   /**< --warmup: ...these untimed ones, each on the operands as generated */
    /** --check device: Tila's result checked by Tila's own calls where it lies (on a GPU's
     * tiles), no copy of the operands on rank 0, nothing gathered (the routine's
     * check_device; a routine without one is checked on rank 0 as with --check host). */
    int check_device;
    tila_desc_t *aux; /**< a routine's descriptor kept across its calls (geqrf's T) */
} bench_cfg_t;

/** A routine: its operands, the timed call for each implementation, the check. */
typedef struct bench_routine_s {
    const char *name;
    void (*setup)(bench_cfg_t *c);          /**< declare the operands */
    int (*prepare)(bench_cfg_t *c);         /**< untimed work before the call, or NULL */
    int (*run)(bench_cfg_t *c);             /**< the timed call; 0 on success */
    double (*check)(bench_cfg_t *c);        /**< on rank 0, from the ops' full arrays */
    double (*amount)(const bench_cfg_t *c); /**< LAPACK's flop count, or bytes read */
    const char *unit;                       /**< "GFLOP/s" or "GB/s" */
    /** Tila only, on every rank, after the last call: the same residual as check, by Tila's
     * calls on the operands where they lie, or NULL (check on rank 0). */
    double (*check_device)(bench_cfg_t *c);
    /** check reads the inputs (the ops' `in`) and c->value alone: nothing is gathered. */
    int check_reads_inputs;
} bench_routine_t;

/* For the routines' check_device (run.c). */
/** An m x n matrix tiled and distributed as the operands are; NULL (said) on failure. */
tila_desc_t *bench_like(const bench_cfg_t *c, int m, int n);
/** D filled as operand i was generated (its generator and seed). */
void bench_fill_as(bench_cfg_t *c, int i, tila_desc_t *D);
/** ||D||_F. */
double bench_fro(tila_desc_t *D);

void bench_add_op(bench_cfg_t *c, int m, int n, bench_fill_t fill);

/**
 * The options from argv[first] on (bench_options.c): --m --n --k --nrhs --nb --ib --p --q
 * --reps --warmup N, --variant V, --seed S, --check host|device, --factor fp32|tf32|bf16|fp16;
 * m and k default to n.  0, or -1 on an unknown or
 * incomplete option, or n, nb, nrhs or reps not positive, or warmup negative.
 */
int bench_parse_options(int argc, char **argv, int first, bench_cfg_t *c);

/** The norm a variant letter names (O, I, F; else max), and the QR scheme (f, b, p; else
 * automatic). */
tila_norm_t bench_norm(char v);
tila_qr_tree_t bench_qr_tree(char v);

/** A tiling of one dimension: the tiles of `len` into sizes (NULL: count them); their
 * count, or a negative Tila error. */
typedef int bench_tiling_fn(int len, int *sizes, const void *arg);

/** An m x n double matrix with rows and columns tiled by `tiling`, distributed by dist;
 * 0 or a Tila error. */
int bench_desc_tiled(tila_desc_t **A, int m, int n, bench_tiling_fn *tiling, const void *arg,
                     const tila_dist_t *dist);

extern const bench_routine_t bench_gemm, bench_potrf, bench_potrs, bench_posv, bench_posv_mixed,
    bench_geqrf, bench_lange;

#endif /* BENCH_RUN_H */
