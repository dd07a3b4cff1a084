/**
 * @file tila_codelet.h
 * @brief Internal: what every codelet file shares: the runtime beneath it, tile access,
 * how a codelet runs its kernel and hears its return code, its perfmodel, its arguments
 * and its flops.
 *
 * A codelet file, in order: its argument struct (tila_cl_base_t first); <op>_kernel, which
 * calls the worker's tile kernel (the CUDA one under TILA_USE_CUDA on a CUDA worker, the
 * CPU one otherwise) and returns its info and name; <op>_run, StarPU's function on both
 * kinds of workers, which is tila_cl_run (skip, kernel, check); its perfmodel
 * (TILA_CL_*_MODEL) and starpu_codelet (TILA_CL_FUNCS); its insert helper (tila_cl_args,
 * then starpu_mpi_task_insert with TILA_TASK_OPTIONS, then tila_task_submitted).  A few
 * keep their own CPU and CUDA functions, tila_cl_skip and tila_cl_check written out: potrf,
 * trtri and zlag2c (on a GPU they skip n = 0 or read a status back in a host function) and
 * the norms (codelet_zlange.c).
 *
 * Where each tile operation lives, by its LAPACK or BLAS name: the codelet and its insert
 * helper in codelets/codelet_z<file>.c (declared in codelets_z.h), its kernels in
 * kernels/cpu/core_z<file>.c and kernels/cuda/cuda_z<file>.{c,cu}, unless said otherwise
 * (real precisions: herk is syrk, hemm symm, unmqr ormqr, plghe plgsy).
 *
 *   LAPACK / BLAS name           <file>     notes
 *   gemm                         gemm
 *   trsm, trmm                   trxm       kernels core_ztrsm.c, core_ztrmm.c, cuda_ztrsm.c,
 *                                           cuda_ztrmm.c
 *   trsm by the inverse          trsm_inv   GEMM with trtri's inverse (TILA_POTRF_TRSM=inv)
 *   trtri                        trtri
 *   herk, hemm                   herk, hemm
 *   R = B - A X, A Hermitian in  hemm_col   the mixed solve's residual in one task, by
 *     tiles (one block column)              the tile kernels (TILA_POSV_FUSED)
 *   potrf                        potrf
 *   geqrt, unmqr                 geqrt, unmqr
 *   tsqrt, ttqrt                 tpqrt      LAPACK's tpqrt: a triangle on a square or a
 *                                           triangle
 *   tsmqr, ttmqr                 tpmqrt     LAPACK's tpmqrt: their Q on a pair of tiles
 *   geqrt of a panel of tiles    geqrt_col  tila_insert_zpanel_col: the panels' common insert
 *   larft of a panel of tiles    larft_col
 *   CholeskyQR of a panel        cholqr_col with unhr_col (core_zcholqr_col.c)
 *   lange, lansy, lanhe, lantr   lange      every norm's tile kernels (core_zlange.c,
 *                                           cuda_zlange.cu); kernels/lan_z.h, tila_lan_order.h
 *   lacpy, laset, lascal, geadd  lacpy, laset, lascal, geadd
 *   iamax over columns           colamax
 *   plrnt, plghe                 plrnt, plghe   the random matrices (kernels/tila_rand.h)
 *   lag2c (double to single)     lag2c      declared in codelets_zc.h (mixed precision)
 *   lag2c, potrs, lag2z of a     zcpotrs    the mixed solve's correction in one task,
 *     block column (mixed)                  by the tile kernels above (no kernel file of
 *                                           its own; TILA_POSV_FUSED); codelets_zc.h
 *   gemm, herk on TF32/BF16/FP16 zcgemm_lp  GEMM_LP, HERK_LP: single tiles, the inputs in
 *     inputs (tensor cores)                 the format (the mixed solve's factorization);
 *                                           declared in codelets_zc.h
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_CODELET_H
#define TILA_CODELET_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tila_runtime.h"

/*
 * A codelet's CUDA implementation, in its starpu_codelet initializer: `f` where Tila is built
 * with CUDA.  Under simulation (StarPU built with SimGrid), CUDA workers are simulated
 * whether or not Tila is built with CUDA, and StarPU calls no codelet function there: it
 * only needs to see that a CUDA implementation exists, which a stand-in that does nothing
 * tells it (StarPU's manual, "Simulation").  Elsewhere, none.
 */
#if defined(TILA_USE_CUDA)
#define TILA_CL_CUDA(f) .cuda_funcs = { f }, .cuda_flags = { STARPU_CUDA_ASYNC },
#elif defined(STARPU_SIMGRID)
static inline void tila_cl_simulated(void *buffers[], void *cl_arg)
{
    (void)buffers;
    (void)cl_arg;
}
#define TILA_CL_CUDA(f) .cuda_funcs = { tila_cl_simulated }, .cuda_flags = { STARPU_CUDA_ASYNC },
#else
#define TILA_CL_CUDA(f)
#endif

/*
 * A codelet's one function `f` (whose body is tila_cl_run, which tells the workers apart),
 * in its starpu_codelet initializer: for CPU workers, and for CUDA workers as TILA_CL_CUDA
 * gives them.
 */
#if defined(TILA_USE_CUDA)
#define TILA_CL_FUNCS(f)                                                                           \
    .cpu_funcs = { f }, .cuda_funcs = { f }, .cuda_flags = { STARPU_CUDA_ASYNC }
#elif defined(STARPU_SIMGRID)
#define TILA_CL_FUNCS(f)                                                                           \
    .cpu_funcs = { f }, .cuda_funcs = { tila_cl_simulated }, .cuda_flags = { STARPU_CUDA_ASYNC }
#else
#define TILA_CL_FUNCS(f) .cpu_funcs = { f }
#endif

/** A starpu_perfmodel initializer: the times StarPU records for each footprint, under the
 * model's file name `sym`. */
#define TILA_CL_HISTORY_MODEL(sym)                                                                 \
    {                                                                                              \
        .type = STARPU_HISTORY_BASED, .symbol = (sym)                                              \
    }

/** A starpu_perfmodel initializer: a size^b (perfmodels/README.md) under the model's file
 * name `sym`, the size from the function `size` (NULL: StarPU's, the buffers' bytes). */
#define TILA_CL_REGRESSION_MODEL(sym, size)                                                        \
    {                                                                                              \
        .type = STARPU_REGRESSION_BASED, .symbol = (sym), .size_base = (size)                      \
    }

/**
 * A codelet's call of its tile kernel, run by tila_cl_run: on the task's buffers with the
 * codelet's arguments `cl_arg`, the CUDA kernel on a CUDA worker (tila_cl_on_cuda; in
 * builds with CUDA) and the CPU kernel elsewhere.  It sets *kernel to the name of the kernel
 * it called (for tila_cl_check's message) and returns the kernel's info.
 */
typedef int tila_cl_call_t(void *buffers[], const void *cl_arg, const char **kernel);

/** 1 when the calling worker is a CUDA worker (a codelet function's CUDA implementation). */
static inline int tila_cl_on_cuda(void)
{
    return starpu_worker_get_type(starpu_worker_get_id()) == STARPU_CUDA_WORKER;
}

/**
 * The body of a codelet function on CPU and CUDA workers alike: nothing when the task's
 * sequence has failed (tila_cl_skip); otherwise `call`, and its kernel's info heard by
 * tila_cl_check (iinfo 0).
 */
static inline void tila_cl_run(void *buffers[], void *cl_arg, tila_cl_call_t *call)
{
    const tila_cl_base_t *base = cl_arg;
    if (tila_cl_skip(base)) return;
    const char *kernel = "";
    int info = call(buffers, cl_arg, &kernel);
    tila_cl_check(base, kernel, info, 0);
}

/**
 * An insert helper's first step: the arguments of task t (tila_task_args) where t runs, in
 * *copy, set to `args` (a codelet's argument struct of `size` bytes) but for the base that
 * tila_task_args wrote; NULL on the other ranks.  @return tila_task_args's answer.
 */
static inline int tila_cl_args(const tila_task_t *t, const void *args, size_t size, void **copy)
{
    const size_t base = sizeof(tila_cl_base_t);
    int rc = tila_task_args(t, size, copy);
    if (!rc && *copy) memcpy((char *)*copy + base, (const char *)args + base, size - base);
    return rc;
}

/** 1 in the complex precisions. */
static inline int tila_cl_complex(tila_prec_t prec)
{
    return prec == TILA_COMPLEX32 || prec == TILA_COMPLEX64;
}

/**
 * Flops of m n k multiply-adds in precision `prec` (GEMM's count, LAPACK's): 2 m n k in
 * real arithmetic, 8 m n k in complex (a complex multiply-add is 4 real ones).
 */
static inline double tila_cl_gemm_flops(tila_prec_t prec, double m, double n, double k)
{
    return (tila_cl_complex(prec) ? 8.0 : 2.0) * m * n * k;
}

/** Flops of a POTRF of order n in precision `prec`, n^3 / 3 multiply-adds (TRTRI's too). */
static inline double tila_cl_potrf_flops(tila_prec_t prec, int n)
{
    return (tila_cl_complex(prec) ? 4.0 / 3.0 : 1.0 / 3.0) * n * n * n;
}

/** Flops of a HERK (SYRK) on one n x n triangle with k columns, in precision `prec`. */
static inline double tila_cl_herk_flops(tila_prec_t prec, int n, int k)
{
    return tila_cl_complex(prec) ? 4.0 * k * n * (n + 1) / 2 : 1.0 * k * n * (n + 1);
}

/** A matrix buffer of a task as a kernel takes it: its address and leading dimension. */
typedef struct tila_cl_tile_s {
    void *ptr;
    int ld;
} tila_cl_tile_t;

/** Buffer `buffer` of a codelet function (a StarPU matrix interface). */
static inline tila_cl_tile_t tila_cl_tile(void *buffer)
{
    return (tila_cl_tile_t){ .ptr = (void *)STARPU_MATRIX_GET_PTR(buffer),
                             .ld = (int)STARPU_MATRIX_GET_LD(buffer) };
}

/** Address of a vector buffer of a codelet function. */
static inline void *tila_cl_vector(void *buffer) { return (void *)STARPU_VECTOR_GET_PTR(buffer); }

/** Bytes of a vector buffer of a codelet function. */
static inline size_t tila_cl_vector_bytes(void *buffer)
{
    return (size_t)STARPU_VECTOR_GET_NX(buffer) * STARPU_VECTOR_GET_ELEMSIZE(buffer);
}

/** The index among the pairs (i, k), i >= k, of mt block rows, k by k and i down from k,
 * of the pair (i, k): a task over a Hermitian matrix's or a factor's stored tiles
 * (tila_insert_zhemm_col, tila_insert_zcpotrs) takes them in that order. */
static inline int tila_cl_pair(int mt, int i, int k) { return k * mt - k * (k - 1) / 2 + (i - k); }

/* ---- A column of tiles as one panel (GEQRT_COL, CHOLQR_COL, LARFT_COL) ---- */

/** The arguments of the panel factorizations GEQRT_COL and CHOLQR_COL
 * (tila_insert_zpanel_col): the panel, m x n in `count` tiles. */
typedef struct tila_cl_panel_args_s {
    tila_cl_base_t base;
    int m, n, count;
} tila_cl_panel_args_t;

/** `bytes` rounded up to a multiple of 8, where a pointer array may start. */
static inline size_t tila_cl_align8(size_t bytes) { return (bytes + 7) / 8 * 8; }

/** Bytes of the tiles' addresses, leading dimensions and rows of a panel of `count` tiles. */
static inline size_t tila_cl_panel_arrays_bytes(int count)
{
    return (size_t)count * (sizeof(void *) + 2 * sizeof(int));
}

/**
 * The first `count` buffers of a task, a panel's tiles of any heights: their addresses,
 * leading dimensions and rows, written into `room` (tila_cl_panel_arrays_bytes of memory
 * the task already has: its scratch on a CPU, the worker's host workspace on a GPU), so
 * that no task allocates.
 */
static inline void tila_cl_panel_tiles(void *buffers[], int count, void *room, void ***ptrs,
                                       int **ld, int **rows)
{
    *ptrs = room;
    *ld = (int *)(*ptrs + count);
    *rows = *ld + count;
    for (int i = 0; i < count; i++) {
        tila_cl_tile_t tile = tila_cl_tile(buffers[i]);
        (*ptrs)[i] = tile.ptr;
        (*ld)[i] = tile.ld;
        (*rows)[i] = (int)STARPU_MATRIX_GET_NX(buffers[i]);
    }
}

/** A panel's buffers on a CPU worker (tila_cl_cpu_panel). */
typedef struct tila_cl_cpu_panel_s {
    void **tiles;     /**< the tiles' addresses, top down */
    int *ld, *rows;   /**< their leading dimensions and rows */
    tila_cl_tile_t T; /**< buffer `count`: T */
    char *work;       /**< buffer `count + 1`: the scratch, the kernel's work first */
} tila_cl_cpu_panel_t;

/**
 * A panel codelet's buffers on a CPU worker: the first `count` (the panel's tiles, their
 * arrays written after the kernel's `work_bytes` of the scratch: tila_cl_panel_tiles), T,
 * then the scratch.
 */
static inline tila_cl_cpu_panel_t tila_cl_cpu_panel(void *buffers[], int count, size_t work_bytes)
{
    tila_cl_cpu_panel_t p = { .T = tila_cl_tile(buffers[count]),
                              .work = tila_cl_vector(buffers[count + 1]) };
    tila_cl_panel_tiles(buffers, count, p.work + work_bytes, &p.tiles, &p.ld, &p.rows);
    return p;
}

#ifdef TILA_USE_CUDA
/**
 * A panel kernel's workspaces on a CUDA worker (tila_cuda_workspace): the device one of
 * dbytes in *dwork, and the host one with cuSOLVER's hbytes in *host, then the arrays of the
 * first `count` buffers (tila_cl_panel_tiles: read while the calls are queued, before the
 * codelet returns).  @return 0, TILA_ERR_NOMEM or TILA_ERR_DEVICE.
 */
static inline int tila_cl_cuda_panel_workspace(void *buffers[], int count, size_t dbytes,
                                               size_t hbytes, void **dwork, void **host,
                                               void ***tiles, int **ld, int **rows)
{
    size_t arrays = tila_cl_align8(hbytes);
    int rc = tila_cuda_workspace(dbytes, dwork, arrays + tila_cl_panel_arrays_bytes(count), host);
    if (!rc) tila_cl_panel_tiles(buffers, count, (char *)*host + arrays, tiles, ld, rows);
    return rc;
}
/**
 * The number of reflectors from which a CUDA QR kernel forms a block's T by the UT
 * transform (tila_cuda_zlarft_blocks: two HERKs and a TRTRI) rather than cuSOLVER's
 * larft, a matrix-vector product a reflector: TILA_CUDA_LARFT=xlarft gives 0 (larft on
 * every block), ut 1 (the UT transform on every block), auto (default) 128.  Read at every
 * task.
 */
static inline int tila_cl_larft_ut_min(void)
{
    const char *v = getenv("TILA_CUDA_LARFT");
    if (v && !strcmp(v, "xlarft")) return 0;
    if (v && !strcmp(v, "ut")) return 1;
    return 128;
}
#endif

/**
 * The panel kernels' performance-model footprint: StarPU's default (every buffer's shape)
 * but the last buffer, the scratch, which is sized for the matrix's first, tallest
 * column.  So a column of a given height and tile size is one history entry in every
 * matrix, and a calibration of those heights times it in any run (perfmodels/README.md).
 */
static inline uint32_t tila_cl_panel_footprint(struct starpu_task *task)
{
    uint32_t footprint = 0;
    for (unsigned i = 0; i + 1 < STARPU_TASK_GET_NBUFFERS(task); i++) {
        starpu_data_handle_t handle = STARPU_TASK_GET_HANDLE(task, i);
        uint32_t shape = starpu_data_get_interface_ops(handle)->footprint(handle);
        shape = starpu_hash_crc32c_be(shape, (uint32_t)starpu_data_get_interface_id(handle));
        footprint = starpu_hash_crc32c_be(shape, footprint);
    }
    return footprint;
}

/** A panel kernel's starpu_perfmodel initializer: the times StarPU records for each
 * footprint (tila_cl_panel_footprint: one per column height), under the model's file name
 * `sym`. */
#define TILA_CL_PANEL_MODEL(sym)                                                                   \
    {                                                                                              \
        .type = STARPU_HISTORY_BASED, .symbol = (sym), .footprint = tila_cl_panel_footprint        \
    }

/** Which tile kernel a norm's tile task runs. */
typedef enum tila_lan_kind_e {
    TILA_LAN_GE, /**< general tile */
    TILA_LAN_TR, /**< trapezoid (diagonal tile of a triangular matrix) */
    TILA_LAN_SY, /**< diagonal tile of a symmetric matrix */
    TILA_LAN_HE  /**< diagonal tile of a Hermitian matrix */
} tila_lan_kind_t;

/** A tile of a norm's task over many tiles (tila_insert_zlange_tiles). */
typedef struct tila_cl_lan_tile_s {
    tila_lan_kind_t kind; /**< TILA_LAN_GE or TILA_LAN_TR */
    tila_uplo_t uplo;     /**< TR: the trapezoid */
    tila_diag_t diag;     /**< TR: unit or not */
    int m, n;             /**< its rows and columns */
    size_t off;           /**< where its partial starts in the task's vector */
} tila_cl_lan_tile_t;

/**
 * The size StarPU's regression models (`a size^b`, perfmodels/README.md) see for a BLAS-3
 * tile task of any shape (StarPU's size_base): the bytes of `ntiles` square tiles of the
 * edge whose cube is m n k, the task's flops up to a constant.  A square task's size is
 * its tiles' bytes, StarPU's default, so models calibrated on square tiles keep their
 * meaning; a rectangular one (a tiling of any sizes, a matrix's last tiles) is timed as
 * the square task of its flops, where its bytes would time a thin tile as a square one
 * many times its work (a 4032 x 64 slice's gemm update by bytes: 12 times its flops).
 */
static inline size_t tila_cl_blas3_size(size_t elem, int ntiles, int m, int n, int k)
{
    double edge = cbrt((double)m * n * k);
    return (size_t)llround(ntiles * (double)elem * edge * edge);
}

/**
 * Elements of the QR codelets' scratch buffer (GEQRT, TPQRT, UNMQR, TPMQRT) for a matrix of
 * tiles at most mb x nb (T's tiles ib x nb), updating tiles `other` wide in the dimension Q
 * does not touch: LAPACK's ib x max(nb, other) work on CPUs; the GPU kernels need more
 * (tila_qr_work_*): the update kernels a copy of V's block besides W, the panel kernels tau
 * and the stacked triangle and tile, whose rows are the tile's (mb, which exceeds nb in
 * a tall matrix's tiles: nb is clamped to n).
 */
static inline size_t tila_qr_scratch_elems(int ib, int mb, int nb, int other)
{
    size_t wide = (size_t)(other > nb ? other : nb);
#ifdef TILA_USE_CUDA
    (void)ib;
    size_t rows = (size_t)(mb > nb ? mb : nb);
    return (size_t)nb + 2 * rows * wide;
#else
    (void)mb;
    return (size_t)ib * wide;
#endif
}

/*
 * Elements of scratch each QR tile kernel uses on the tiles of one task: LAPACK's work for
 * the CPU kernel and, in CUDA builds, the larger of that and what the GPU kernel puts
 * there (kernels/cuda), since StarPU may run the task on either kind of worker.
 */
static inline size_t tila_qr_work_max(size_t cpu, size_t gpu)
{
#ifdef TILA_USE_CUDA
    return cpu > gpu ? cpu : gpu;
#else
    (void)gpu;
    return cpu;
#endif
}
/** GEQRT of an m x n tile: LAPACK's nb x n; the GPU's tau. */
static inline size_t tila_qr_work_geqrt(int m, int n, int ib)
{
    int k = m < n ? m : n, nb = ib < k ? ib : k;
    return tila_qr_work_max((size_t)nb * (size_t)n, (size_t)k);
}
/** TPQRT of an n-column triangle over an m x n tile: LAPACK's nb x n; the GPU's tau and
 * the stacked (n + m) x n matrix. */
static inline size_t tila_qr_work_tpqrt(int m, int n, int ib)
{
    int nb = ib < n ? ib : n;
    return tila_qr_work_max((size_t)nb * (size_t)n, (size_t)n + ((size_t)n + (size_t)m) * n);
}
/** UNMQR and TPMQRT of k reflectors on m x n: LAPACK's nb x n (left) or m x nb (right);
 * the GPU's block of V (at most its order by nb) and W. */
static inline size_t tila_qr_work_update(int left, int m, int n, int k, int ib)
{
    size_t nb = (size_t)(ib < k ? ib : k);
    return tila_qr_work_max(nb * (size_t)(left ? n : m), nb * ((size_t)m + (size_t)n));
}

/**
 * 0 when the scratch vector `buffer` holds `need` elements; otherwise, named on stderr,
 * -pos (the kernel's work argument refused: a bug in Tila, which tila_cl_check reports)
 * instead of a kernel writing past it.
 */
static inline int tila_cl_scratch(void *buffer, size_t need, int pos)
{
    size_t nx = STARPU_VECTOR_GET_NX(buffer);
    if (nx >= need) return 0;
    tila_error("tila_cl_scratch", "a QR kernel's scratch holds %zu elements, it needs %zu", nx,
               need);
    return -pos;
}

#endif /* TILA_CODELET_H */
