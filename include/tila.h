/**
 * @file tila.h
 * @brief Tila: tiled dense linear algebra on StarPU-MPI (umbrella header).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_H
#define TILA_H

#include <stddef.h>
#include <mpi.h>
#include <starpu.h>

#include "tila_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is the library's interface (built with -fvisibility=hidden). */
#pragma GCC visibility push(default)

/* ---- Runtime --------------------------------------------------------------------------- */

/**
 * Start Tila: MPI (with MPI_THREAD_MULTIPLE) if not yet initialised, StarPU if not yet
 * initialised, and StarPU-MPI on MPI_COMM_WORLD.  What the caller had already started is
 * left to the caller: tila_finalize stops only what tila_init started.
 * STARPU_* environment variables keep their meaning (STARPU_NCPU, STARPU_NCUDA, STARPU_SCHED).
 * The program's signal handlers stay (StarPU's only with STARPU_CATCH_SIGNALS=1; an MPI that
 * Tila starts is asked for none); where StarPU's models cannot be written, they go to a
 * folder under $TMPDIR or /tmp, said on stderr.  After a tila_finalize that stopped the MPI
 * tila_init had started, or in a child forked from a process where Tila ran, tila_init
 * fails (TILA_ERR_MPI: MPI starts once per process).  Collective over MPI_COMM_WORLD.
 * @param argc, argv  the program's arguments, or NULL.
 * @return TILA_SUCCESS, TILA_ERR_MPI, TILA_ERR_STARPU or TILA_ERR_NO_WORKER.
 */
int tila_init(int *argc, char ***argv);

/**
 * tila_init on the processes of `comm`: MPI_COMM_WORLD (tila_init), or MPI_COMM_SELF, Tila on
 * this process alone, nothing collective with other processes (the drop-in LAPACK layer's
 * start: a LAPACK call is one process's).  On MPI_COMM_SELF, where MPI is not yet
 * initialised, it starts for this process alone even in a process that a launcher started
 * (mpirun of a program without MPI of its own): outside the launcher's job, a world of one
 * process, whose node's CPUs are shared with the launcher's other processes there; where MPI
 * runs already, its world must be this process alone (StarPU-MPI's end is collective over
 * MPI_COMM_WORLD).  Nothing when Tila runs already (tila_comm_size says on how many ranks).
 * @return as tila_init; -3 for another communicator; TILA_ERR_MPI on MPI_COMM_SELF in a
 *         world of several processes.
 */
int tila_init_comm(int *argc, char ***argv, MPI_Comm comm);

/** Stop what tila_init started, after every submitted task has completed. Collective. */
int tila_finalize(void);

/** 1 between tila_init and tila_finalize, else 0. */
int tila_initialized(void);

/**
 * Let the program have the node between Tila's calls: wait for every submitted task
 * (StarPU's, the program's own included) and message, then pause StarPU's workers and let
 * StarPU-MPI's progress thread block, so that no thread of Tila's or StarPU's wakes up
 * until the next Tila call, which resumes them (or tila_resume).  Without it, idle
 * workers rest on their own once no task of Tila's has been pending for 1 ms (a wake-up
 * every 100 ms each; the progress thread blocks), and the next call wakes them: a program
 * that calls Tila now and then need not pause.  The drop-in layers call it at the end of
 * every call they run on Tila.  A program that submits StarPU tasks of its own calls
 * tila_resume first.  Collective.
 * @return TILA_SUCCESS or TILA_ERR_NOT_INITIALIZED.
 */
int tila_pause(void);

/** Undo tila_pause (every Tila call does it on entry); nothing when not paused. Local. */
int tila_resume(void);

/**
 * With TILA_TRACE=FILE in the environment at tila_init, Tila writes a line for every task a
 * rank runs (StarPU's profiling times, the worker, its data) to FILE (FILE.RANK on several
 * ranks; bench/tila-trace reports on them): this writes a mark there, which begins a window
 * named `label` (the bytes that crossed each bus since the previous mark are written with
 * it), and the tasks recorded so far.  Nothing without a trace.  Local.
 */
void tila_trace_mark(const char *label);

/** This process's rank and the number of ranks in Tila's communicator. */
int tila_comm_rank(void);
int tila_comm_size(void);

/** Number of CUDA devices that have a StarPU worker on this node. */
int tila_cuda_ndevices(void);

/** The message for a return code. */
const char *tila_strerror(int code);

/* ---- Distributed tile matrices ---------------------------------------------------------- */

/** Size in bytes of one element of the given precision. */
size_t tila_prec_size(tila_prec_t prec);

/**
 * Create an m x n matrix of mb x nb tiles (the last row and column of tiles may be
 * partial), distributed by `dist` (NULL: the default 2D block-cyclic grid).  Tila
 * allocates only the tiles this rank owns, each contiguous (ld = its row count); the
 * others are registered as placeholders that StarPU-MPI fills when a task needs them.
 * mb and nb past m and n are taken as m and n (tila_desc_mb / nb report the sizes used); a
 * tile of 2^32 elements or more is refused (-6: StarPU counts a tile's elements in 32 bits).
 * Collective: every rank passes the same arguments, descriptors are created in the
 * same order on every rank (each gets its own range of MPI tags).  Every creation checks
 * it, in one allreduce (none on one rank): where the ranks' precisions, tilings or tiles'
 * ranks differ, it fails on every rank with the -i of the argument that differs (mb, nb,
 * dist; mbs, nbs for tiles of any sizes); where a rank cannot allocate, or was given an
 * illegal argument, it fails on every rank with that code.  A is NULL on failure.
 * @return 0, -i for argument i, TILA_ERR_GRID when p * q is not the number of ranks,
 *         TILA_ERR_NOMEM, TILA_ERR_NOT_INITIALIZED.
 */
int tila_desc_create(tila_desc_t **A, tila_prec_t prec, int m, int n, int mb, int nb,
                     const tila_dist_t *dist);

/**
 * Like tila_desc_create, but without storage of Tila's: each tile this rank owns is
 * allocated by StarPU where a task first writes it (on its GPU for a GPU's tile, in main
 * memory for a CPU's) and stays there until another worker needs it, so a matrix that only
 * GPUs use never takes host memory nor the time to pin it.  Its
 * contents are undefined until written (a generator, tila_dlaset, a copy); reading it back
 * (tila_desc_gather, tila_dlacpy) works as for any matrix.  Arguments, checks and errors
 * as tila_desc_create's.
 */
int tila_desc_create_nohome(tila_desc_t **A, tila_prec_t prec, int m, int n, int mb, int nb,
                            const tila_dist_t *dist);

/**
 * Create a matrix of tiles of any sizes: tile row m is mbs[m] rows high, tile column n is
 * nbs[n] columns wide (each >= 1; the matrix is sum(mbs) x sum(nbs)), distributed by
 * `dist` as tila_desc_create's.  Every routine takes such matrices; where it pairs two
 * dimensions (A's rows with C's rows in gemm, a triangle's rows with its columns) their
 * tilings must be the same (a -i error otherwise), and routines on triangles and the tiled
 * QR need square diagonal tiles: the same row and column boundaries up to where the
 * shorter dimension ends.  tila_desc_mb / nb report the largest tile row and column.
 * Collective: every rank passes the same sizes (checked as tila_desc_create's: a tiling
 * computed from one rank's own facts, such as tila_hybrid_balance_models's balance, must be
 * agreed on first, or the creation fails on every rank with -4 or -6).
 * @return 0, -i for argument i (a size < 1 is its array's), TILA_ERR_GRID, TILA_ERR_NOMEM,
 *         TILA_ERR_NOT_INITIALIZED.
 */
int tila_desc_create_tiled(tila_desc_t **A, tila_prec_t prec, int mt, const int *mbs, int nt,
                           const int *nbs, const tila_dist_t *dist);

/**
 * Like tila_desc_create, but over the caller's column-major m x n array `a` with
 * leading dimension lda, with no copy: each tile this rank owns is registered in place
 * (ld = lda).  On one rank this is "use my LAPACK matrix".  Tiles of other ranks are
 * never touched; `a` may be NULL on a rank that owns no tile.  `a` must stay valid
 * until tila_desc_destroy, which leaves the results in it.
 */
int tila_desc_create_lapack(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int m, int n,
                            int mb, int nb, const tila_dist_t *dist);

/**
 * A tiling of a dimension of n that shrinks toward its end, for tila_desc_create_tiled: each
 * tile a ratio-th of what is left of the dimension, at most nb and at least nb_min (the last
 * one what remains).  A factorization's last steps wait on one another: smaller tiles there
 * shorten its critical path while the large ones before keep the updates at the kernels'
 * best rate.  Local (no collective); pure.
 * @param sizes  room for the tiles' sizes (n / nb_min + 1 is enough), or NULL to count them.
 * @return the number of tiles, or -i for argument i (n < 0, nb < 1, nb_min outside
 *         [1, nb], ratio < 1).
 */
int tila_tiling_shrink(int n, int nb, int nb_min, int ratio, int *sizes);

/**
 * The tiling of a dimension of n under Song and Dongarra's distribution (tila_hybrid_t):
 * top-level tiles of B from the start, each cut into s - 1 slices of b then the rest of it
 * (B - (s - 1) b; all of it when s = 1), the last top-level tile cut where n ends.
 * @param sizes  room for the tiles (n / B * s + s is enough), or NULL to count them.
 * @return the number of tiles, or -1 (n < 0), -2 (h NULL or not a valid distribution).
 */
int tila_hybrid_tiling(const tila_hybrid_t *h, int n, int *sizes);

/**
 * The distribution of a matrix tiled by tila_hybrid_tiling (rows and columns): tile (m, n)
 * on the node of its top-level tile, (m / s mod P) Q + n / s mod Q; on that node, a tile in
 * a GPU slice column on a GPU (cycled over the node's GPUs by the node's top-level tile
 * column), a tile in a CPU slice column on the host's CPU workers only (TILA_DEVICE_CPU).
 * Without GPUs every tile is the CPUs'.  h must outlive the tila_desc_create_tiled call.
 */
tila_dist_t tila_hybrid_dist(const tila_hybrid_t *h);

/**
 * Choose h->b so that a node's CPU cores and GPUs finish a top-level tile column's updates
 * together (the paper's appendix A.1, with the node's actual workers): the CPU slices carry
 * the share cpus x cpu_rate / (cpus x cpu_rate + gpus x gpu_rate) of the width, so
 * (s - 1) b = B cpus cpu_rate / (cpus cpu_rate + gpus gpu_rate), b rounded to a multiple of
 * `align` (at least `align`, at most B / s so that the GPU slice stays the widest).  The
 * rates are GEMM rates (GFLOP/s, from calibrated models: tila-calibrate, or StarPU's
 * starpu_perfmodel_display) of one core on b-wide tiles and one GPU on the GPU slice.
 * @return 0, or -1 (h NULL, s < 2 or B < s), -2 / -4 (a rate <= 0), -3 / -5 (a count < 1
 *         or < 0), -6 (align < 1).
 */
int tila_hybrid_balance(tila_hybrid_t *h, double cpu_rate, int cpus, double gpu_rate, int gpus,
                        int align);

/**
 * tila_hybrid_balance with the rates this rank's performance models give (after tila_init):
 * StarPU's regression of Tila's GEMM in precision prec (calibrated by tila-calibrate, or a
 * simulated node's description) on one CPU worker for a CPU slice's update (W x b, inner
 * dimension W = B - (s - 1) b) and on one CUDA worker for the GPU slice's (W x W x W), with
 * this rank's CPU and CUDA workers counted; the rates depend on b, so b is recomputed from
 * B / s until it repeats.  Local (no collective): on nodes alike every rank finds the same b;
 * elsewhere agree on one (a broadcast) before tiling with it, which tila_desc_create_tiled
 * checks.
 * @return 0 (h->b set), TILA_ERR_NOT_INITIALIZED, -1 (h NULL, s < 2 or B < s), -2 (prec),
 *         -3 (align < 1), TILA_ERR_NO_WORKER (no CPU worker), TILA_ERR_STARPU (no model, or
 *         one that cannot time those tasks: the message names the model and the sizes to
 *         calibrate); h unchanged on an error.
 */
int tila_hybrid_balance_models(tila_hybrid_t *h, tila_prec_t prec, int align);

/** tila_desc_create_lapack with tiles of any sizes (tila_desc_create_tiled). */
int tila_desc_create_lapack_tiled(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int mt,
                                  const int *mbs, int nt, const int *nbs, const tila_dist_t *dist);

/**
 * Wrap a ScaLAPACK local array with no copy: the global m x n matrix is distributed
 * 2D block-cyclically in mb x nb blocks over a p x q row-major process grid (BLACS's
 * default order, rank = prow * q + pcol, source process 0), and `a` is this rank's
 * local part with local leading dimension lld.
 */
int tila_desc_create_scalapack(tila_desc_t **A, tila_prec_t prec, void *a, int lld, int m, int n,
                               int mb, int nb, int p, int q);

/**
 * The general form: the m x n submatrix at 0-based global row i0 and column j0 of a
 * matrix distributed 2D block-cyclically in mb x nb blocks over the process grid `grid`
 * (any order, any source process), `a` being this rank's local array (leading dimension
 * lld), with no copy.  Tila's tiles are the global matrix's blocks, cut at the
 * submatrix's edges: where it starts inside a block (i0 % mb or j0 % nb not 0), its first
 * tile row or column is the rest of that block, a tile of its own size (tiles of any sizes,
 * tila_desc_create_tiled: a triangle or Cholesky then needs i0 % mb == j0 % nb and mb ==
 * nb, as ScaLAPACK's own routines do), and the last ones stop at its end.  In ScaLAPACK's
 * terms, for a descriptor DESCA and 1-based IA, JA: mb, nb, lld, rsrc, csrc = DESCA(5, 6, 9,
 * 7, 8), i0 = IA - 1, j0 = JA - 1.  Collective.
 * @return 0, -i for argument i, TILA_ERR_GRID when the grid is not a grid of every rank
 *         once, TILA_ERR_NOMEM, TILA_ERR_NOT_INITIALIZED.
 */
int tila_desc_create_scalapack_sub(tila_desc_t **A, tila_prec_t prec, void *a, int lld, int i0,
                                   int j0, int m, int n, int mb, int nb,
                                   const tila_scalapack_grid_t *grid);

/** Wait for the tasks using A, unregister and free everything; sets *A to NULL. Collective. */
int tila_desc_destroy(tila_desc_t **A);

/** Copy the column-major m x n matrix `a` (lda) held on rank `root` into A. Collective. */
int tila_desc_scatter(tila_desc_t *A, int root, const void *a, int lda);

/** Copy A into the column-major array `a` (lda) on rank `root`. Collective. */
int tila_desc_gather(tila_desc_t *A, int root, void *a, int lda);

/** Dimensions, tile sizes (the largest, for tiles of any sizes) and tile counts. */
int tila_desc_m(const tila_desc_t *A);
int tila_desc_n(const tila_desc_t *A);
int tila_desc_mb(const tila_desc_t *A);
int tila_desc_nb(const tila_desc_t *A);
int tila_desc_mt(const tila_desc_t *A);
int tila_desc_nt(const tila_desc_t *A);
tila_prec_t tila_desc_prec(const tila_desc_t *A);

/** Rows of tile row m, columns of tile column n (-1 outside the matrix). */
int tila_desc_tile_rows(const tila_desc_t *A, int m);
int tila_desc_tile_cols(const tila_desc_t *A, int n);

/** First global row of tile row m, first global column of tile column n (0 <= m <= mt:
 * row0(mt) is the number of rows; -1 outside). */
int tila_desc_tile_row0(const tila_desc_t *A, int m);
int tila_desc_tile_col0(const tila_desc_t *A, int n);

/** Rank owning tile (m, n). */
int tila_desc_tile_rank(const tila_desc_t *A, int m, int n);

/** CUDA device of tile (m, n) on its owner, TILA_DEVICE_CPU (the owner's CPUs only), or -1
 * (any worker; not owned here, or no GPU). */
int tila_desc_tile_device(const tila_desc_t *A, int m, int n);

/** StarPU handle of tile (m, n), to use A's tiles in one's own tasks. */
starpu_data_handle_t tila_desc_tile_handle(const tila_desc_t *A, int m, int n);

/* ---- Sequences and requests ------------------------------------------------------------- */

/** Create an empty sequence. @return 0, -1 if seq is NULL, TILA_ERR_NOMEM. */
int tila_sequence_create(tila_sequence_t **seq);

/**
 * Wait until the tasks submitted in `seq` on this rank have completed, and no other
 * task (a task of another sequence or of the user's may still run), then agree on
 * the status on every rank.  A call that can no longer finish (no task of Tila's ran,
 * started or ended and no message moved on any rank for TILA_STUCK_TIMEOUT seconds,
 * 60 by default, while every rank waited in this call: StarPU could not allocate a
 * buffer a task needs, or a message never came) fails with TILA_ERR_STUCK on every rank;
 * its tasks stay in StarPU, later calls return TILA_ERR_STUCK, and tila_finalize leaves
 * StarPU running so that the process can finalize MPI and exit.  Collective.
 * @return the sequence's status: 0, or the first failure (LAPACK's info, e.g. +k),
 *         the same on every rank.  Every request of the sequence gets its own status.
 */
int tila_sequence_wait(tila_sequence_t *seq);

/** Status so far on this rank (no waiting, no communication). */
int tila_sequence_status(const tila_sequence_t *seq);

/** Destroy a sequence after waiting for it. */
int tila_sequence_destroy(tila_sequence_t **seq);

/* ---- Tiled QR ---------------------------------------------------------------------------- */

/**
 * Create the descriptor T of the block reflector factors of a QR factorization of A
 * (tila_<p>geqrf) with inner block size ib, and fix its scheme (tila_qr_tree_t): T is then
 * passed unchanged to tila_<p>geqrf and to tila_<p>unmqr / ungqr / gels, which replay it.
 * FLAT and BINARY: T has A's precision, tile rows of ib rows and A's tile columns (tile
 * (m, n) is ib x (A's tile column n mod A.nt): the factors of blocks of at most ib
 * reflectors side by side, ib need not divide the width), A.mt x A.nt tiles for the flat
 * tree and A.mt x 2 A.nt for the binary tree (the second half holds the tree's
 * triangle-on-triangle factors); tile (m, n) lives where A's tile (m, n mod A.nt) does.
 * PANEL: one row of A.nt tiles nb rows high (nb: tila_desc_nb(A)) and A's tile columns
 * wide, the whole triangular factor of each tile column's block reflector, tile (0, n)
 * where A's tile (n, n) lives (ib is checked, not used).  CHOLQR: PANEL's T; tila_<p>geqrf
 * factors each panel by Cholesky QR with Householder reconstruction (the same V, R and T),
 * its fallbacks included (tila_qr_tree_t).
 * TILA_QR_TREE_AUTO, when A has more than twice as many tile rows as tile columns, takes
 * CHOLQR if every tile column of A lives on one rank (P = 1) and every rank has a GPU, the
 * binary tree otherwise; for other shapes PANEL when every tile column lives on one rank,
 * and FLAT otherwise.  Collective (AUTO's ranks agree on their GPUs by an allreduce).
 * @param A   the matrix to factor, square diagonal tiles (mb = nb, or tiles of any sizes
 *            whose row and column boundaries agree: tila_desc_create_tiled).
 * @param ib  1 <= ib <= nb (tila_desc_nb(A)); smaller ib: fewer flops in the updates,
 *            slower kernels.
 * @return 0, -i for argument i, TILA_ERR_NOMEM, TILA_ERR_NOT_INITIALIZED, TILA_ERR_MPI.
 */
int tila_desc_create_qr_t(tila_desc_t **T, const tila_desc_t *A, int ib, tila_qr_tree_t tree);

/** Scheme recorded in a T made by tila_desc_create_qr_t (FLAT, BINARY, PANEL or CHOLQR). */
tila_qr_tree_t tila_desc_qr_tree(const tila_desc_t *T);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
#include "tila_s.h"
#include "tila_d.h"
#include "tila_c.h"
#include "tila_z.h"
#include "tila_che.h"
#include "tila_zhe.h"
#include "tila_ds.h"
#include "tila_zc.h"
#endif

#endif /* TILA_H */
