/**
 * @file layer.c
 * @brief libtila_scalapack's core: starting Tila on the first call, choosing each call's
 *        path, Tila's views of ScaLAPACK matrices, and the real routines behind.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tila_scalapack.h"

/* BLACS and ScaLAPACK's tools, Fortran calling convention. */
void blacs_gridinfo_(const int *ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *rsrc,
               const int *csrc, const int *ctxt, const int *lld, int *info);

static struct {
    int started; /* tila_init was called here: tila_finalize at MPI_Finalize */
    int failed;  /* Tila cannot run (agreed by every rank): every call goes to the real routines */
    int min_n;   /* TILA_SCALAPACK_MIN_N, agreed (agree_once) */
    int *all;    /* the calls' agreement: 4 integers per rank */
    int *ranks;  /* the call's grid: tila_sl_call_t.ranks */
} sl;

static const char *const path_text[TILA_SL_NPATHS] = {
    "Tila, in place on the caller's blocks",
    "Tila, on copies in its own tile size",
    "ScaLAPACK (below TILA_SCALAPACK_MIN_N)",
    "ScaLAPACK (the BLACS grid is not every MPI rank)",
    "ScaLAPACK (an illegal argument, reported by it)",
    "ScaLAPACK (blocks Tila cannot use in place)",
    "ScaLAPACK (a case left to it)",
    "ScaLAPACK (Tila did not start, or failed before it wrote the caller's data)",
    "failed in Tila after it had begun to write the caller's data in place (INFO = -10000)",
};

/* The book of calls (dropin/calls.c). */
static tila_layer_book_t book = { .path_text = path_text,
                                  .npaths = TILA_SL_NPATHS,
                                  .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * For tests and diagnostics: how many calls of routine `name` (as ScaLAPACK prints it:
 * "PDPOTRF") took path `path` (tila_sl_path_t) on this process so far; -1 for a path out
 * of range.
 */
TILA_SL_EXPORT long tila_scalapack_calls(const char *name, int path)
{
    return tila_layer_calls(&book, name, path);
}

static void stop(void);

static int world_rank(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/*
 * Below this order the real routine runs: Tila's fixed cost per call (registering the
 * tiles, the tasks' start, the wait's agreement) exceeds what it saves (bench/LOG.md).
 */
static int min_n(void) { return tila_layer_env_int("TILA_SCALAPACK_MIN_N", 2048); }

/*
 * Smaller blocks are copied into Tila's tiles: StarPU's cost per task would dominate.  At
 * n = 8192 copies beat Tila in place on 64-blocks (pdgeqrf, 2 ranks) and on 128-blocks at
 * one rank (pdpotrf), and tie at two (bench/LOG.md, "The preloaded ScaLAPACK program at
 * n = 8192").
 */
static int min_nb(void) { return tila_layer_env_int("TILA_SCALAPACK_MIN_NB", 256); }

/* Process row of global row i (1-based) of a matrix with descriptor desc (INDXG2P). */
static int row_owner(const int *desc, int i, int nprow)
{
    return (desc[TILA_SL_RSRC] + (i - 1) / desc[TILA_SL_MB]) % nprow;
}

/* Process column of global column j (1-based) (INDXG2P). */
static int col_owner(const int *desc, int j, int npcol)
{
    return (desc[TILA_SL_CSRC] + (j - 1) / desc[TILA_SL_NB]) % npcol;
}

/* Local index (0-based) of global column j (1-based) on its process column (INDXG2L). */
static size_t col_local(const int *desc, int j, int npcol)
{
    int nb = desc[TILA_SL_NB];
    return (size_t)((j - 1) / (nb * npcol)) * nb + (size_t)((j - 1) % nb);
}

int tila_sl_desc_ok(const tila_sl_mat_t *M)
{
    const int *d = M->desc;
    if (d[TILA_SL_DTYPE] != 1 || M->m < 0 || M->n < 0 || M->ia < 1 || M->ja < 1 ||
        d[TILA_SL_M] < 0 || d[TILA_SL_N] < 0 || d[TILA_SL_MB] < 1 || d[TILA_SL_NB] < 1 ||
        d[TILA_SL_LLD] < 1)
        return 0;
    int nprow, npcol, myrow, mycol;
    blacs_gridinfo_(&d[TILA_SL_CTXT], &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1 || npcol < 1 || d[TILA_SL_RSRC] < 0 || d[TILA_SL_RSRC] >= nprow ||
        d[TILA_SL_CSRC] < 0 || d[TILA_SL_CSRC] >= npcol)
        return 0;
    int locr = numroc_(&d[TILA_SL_M], &d[TILA_SL_MB], &myrow, &d[TILA_SL_RSRC], &nprow);
    int locc = numroc_(&d[TILA_SL_N], &d[TILA_SL_NB], &mycol, &d[TILA_SL_CSRC], &npcol);
    if (d[TILA_SL_LLD] < locr && locc > 0) return 0;
    return M->ia + M->m - 1 <= d[TILA_SL_M] && M->ja + M->n - 1 <= d[TILA_SL_N];
}

/* Without the real routine this rank cannot take part in a collective call the others are
 * making: returning would leave them waiting for ever, so the run ends (MPI's way, after
 * tila_layer_real said why) where the LAPACK layer returns an error. */
void *tila_sl_real(tila_sl_routine_t *r)
{
    void *real = tila_layer_real(r, "ScaLAPACK", "-ltila_scalapack -lscalapack-openmpi");
    if (!real) MPI_Abort(MPI_COMM_WORLD, 1);
    return real;
}

int tila_sl_agree(const tila_sl_call_t *c, int rc)
{
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rc)
        fprintf(stderr, "[tila rank %d] %s: Tila failed: %s (%d)\n", world_rank(),
                c->routine->name, tila_strerror(rc), rc);
    return worst;
}

int tila_sl_finish(tila_sl_call_t *c, tila_sl_mat_t *const *M, int count, int written,
                   tila_prec_t prec, int rc, int begun, tila_sl_path_t path)
{
    rc = tila_sl_agree(c, rc);
    /* Tila has written the caller's data where it began on a written matrix in place, or
     * tried to store a copy back (a store that failed may have written part of it). */
    int touched = 0;
    for (int k = 0; k < written; k++)
        touched |= begun && !M[k]->tile;
    for (int k = 0; k < count; k++) {
        int store = !rc && k < written, stored = tila_sl_close(c, M[k], prec, store);
        touched |= store;
        if (!rc) rc = stored;
    }
    if (!rc) {
        tila_sl_end(c, path);
        return 0;
    }
    if (!touched) {
        tila_sl_end(c, TILA_SL_OFF);
        return 1;
    }
    if (world_rank() == 0)
        fprintf(stderr,
                "[tila] %s: Tila failed (%s) after it had begun to write the caller's data in "
                "place, which is undefined (INFO = %d where the routine has one)\n",
                c->routine->name, tila_strerror(rc), TILA_SL_LOST_INFO);
    tila_sl_end(c, TILA_SL_LOST);
    return -1;
}

void tila_sl_end(tila_sl_call_t *c, tila_sl_path_t path)
{
    tila_layer_at_finalize(stop);
    tila_layer_count(&book, c->routine, path, world_rank() == 0);
    /* After a call that went as far as Tila (every rank does): the program's own work
     * gets the cores back until the next one. */
    if (c->ranks && sl.started) tila_pause();
    c->ranks = NULL;
}

void tila_sl_count(tila_sl_routine_t *r, tila_sl_path_t path)
{
    tila_sl_call_t c = { .routine = r };
    tila_sl_end(&c, path);
}

static int refuse(tila_sl_call_t *c, tila_sl_path_t path)
{
    tila_sl_end(c, path);
    return 0;
}

/*
 * At the first call whose grid spans every rank (every rank is in it): rank 0's
 * TILA_SCALAPACK_MIN_N, for the rest of the run, and the buffers of the calls' agreement.
 * Both decide whether a call enters Tila's collectives, so every rank must decide alike,
 * whatever its own environment (a variable set on the launch node only) or memory.
 */
static int agree_once(void)
{
    static int done;
    if (done) return !sl.failed;
    done = 1;
    int world, rank = world_rank();
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    sl.all = malloc(sizeof(int) * 4 * (size_t)world);
    sl.ranks = malloc(sizeof(int) * (size_t)world);
    int mine[2] = { !sl.all || !sl.ranks, rank == 0 ? min_n() : -1 }, agreed[2];
    MPI_Allreduce(mine, agreed, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    sl.min_n = agreed[1];
    if (agreed[0]) {
        if (mine[0]) fprintf(stderr, "[tila] no memory to start: ScaLAPACK runs every call\n");
        sl.failed = 1;
    }
    return !sl.failed;
}

int tila_sl_begin(tila_sl_call_t *c, tila_sl_routine_t *r, int ctxt, int size, int args_ok)
{
    memset(c, 0, sizeof *c);
    c->routine = r;
    c->ctxt = ctxt;
    blacs_gridinfo_(&ctxt, &c->nprow, &c->npcol, &c->myrow, &c->mycol);
    /* Tila's communicator is MPI_COMM_WORLD: a grid of fewer ranks stays with ScaLAPACK,
     * and so does every call before the grid is known to span the world (no collective). */
    int world = 0, up = 0;
    MPI_Initialized(&up);
    if (up) MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (c->nprow < 1 || c->npcol < 1 || c->nprow * c->npcol != world)
        return refuse(c, TILA_SL_GRID);
    if (!agree_once()) return refuse(c, TILA_SL_OFF);
    if (size < sl.min_n) return refuse(c, TILA_SL_SMALL);
    if (!tila_initialized()) {
        /* tila_init's result is the same on every rank */
        int rc = tila_init(NULL, NULL);
        if (rc) {
            fprintf(stderr, "[tila] %s: Tila did not start (%s): ScaLAPACK runs every call\n",
                    r->name, tila_strerror(rc));
            sl.failed = 1;
            return refuse(c, TILA_SL_OFF);
        }
        sl.started = 1;
    }
    /* Every process's grid position, verdict on its arguments and TILA_SCALAPACK_MIN_NB,
     * in one collective: rank 0's MIN_NB holds for the call on every rank. */
    int mine[4] = { c->myrow, c->mycol, args_ok != 0, min_nb() };
    MPI_Allgather(mine, 4, MPI_INT, sl.all, 4, MPI_INT, MPI_COMM_WORLD);
    c->ranks = sl.ranks;
    c->min_nb = sl.all[3];
    int ok = 1;
    for (int k = 0; k < world; k++) {
        const int *them = sl.all + 4 * k;
        ok &= them[2];
        c->ranks[them[0] * c->npcol + them[1]] = k;
    }
    return ok ? 1 : refuse(c, TILA_SL_ARGS);
}

/* Where sub(M) starts in its first block row and block column. */
static int row_offset(const tila_sl_mat_t *M) { return (M->ia - 1) % M->desc[TILA_SL_MB]; }
static int col_offset(const tila_sl_mat_t *M) { return (M->ja - 1) % M->desc[TILA_SL_NB]; }

/*
 * Can Tila use M's blocks as its tiles (cut where sub(M) starts and ends inside one: a first
 * tile of its own size): blocks of at least the minimum tile size (TILA_SCALAPACK_MIN_NB),
 * and if `square`, square blocks with sub(M) as far into its first block row as into its
 * first block column (its diagonal runs through square tiles)?
 */
static int in_place(const tila_sl_mat_t *M, int square, int small)
{
    const int *d = M->desc;
    int mb = d[TILA_SL_MB], nb = d[TILA_SL_NB];
    /* A dimension within one block has no tiles too small. */
    return (!square || (mb == nb && row_offset(M) == col_offset(M))) &&
           (mb >= small || M->m <= mb - row_offset(M)) &&
           (nb >= small || M->n <= nb - col_offset(M));
}

/* tila_sl_inplace_begin with blocks of at least `scale` times TILA_SCALAPACK_MIN_NB. */
static int inplace_begin(tila_sl_call_t *c, tila_sl_routine_t *r, tila_sl_mat_t *const *M,
                         int count, tila_prec_t prec, int square, int size, int args_ok, int scale)
{
    if (!tila_sl_begin(c, r, M[0]->desc[TILA_SL_CTXT], size, args_ok)) return 0;
    for (int k = 0; k < count; k++) {
        const int *d = M[k]->desc, *d0 = M[0]->desc;
        /* One phase for every operand's rows and columns: the dimensions a routine pairs
         * are tiled alike. */
        if (!in_place(M[k], square, scale * c->min_nb) || d[TILA_SL_CTXT] != d0[TILA_SL_CTXT] ||
            d[TILA_SL_MB] != d0[TILA_SL_MB] || d[TILA_SL_NB] != d0[TILA_SL_NB] ||
            row_offset(M[k]) != row_offset(M[0]) || col_offset(M[k]) != col_offset(M[0]))
            return refuse(c, TILA_SL_LAYOUT);
    }
    for (int k = 0; k < count; k++)
        if (tila_sl_open(c, M[k], prec, 0, 1)) {
            while (k-- > 0)
                tila_sl_close(c, M[k], prec, 0);
            return refuse(c, TILA_SL_OFF);
        }
    return 1;
}

int tila_sl_inplace_begin(tila_sl_call_t *c, tila_sl_routine_t *r, tila_sl_mat_t *const *M,
                          int count, tila_prec_t prec, int square, int size, int args_ok)
{
    return inplace_begin(c, r, M, count, prec, square, size, args_ok, 1);
}

int tila_sl_inplace_end(tila_sl_call_t *c, tila_sl_mat_t *const *M, int count, int written,
                        tila_prec_t prec, int rc)
{
    return tila_sl_finish(c, M, count, written, prec, rc, 1, TILA_SL_INPLACE);
}

int tila_sl_norm_begin(tila_sl_call_t *c, tila_sl_routine_t *r, tila_sl_mat_t *M, tila_prec_t prec,
                       int square, int slow_there, int args_ok)
{
    return inplace_begin(c, r, &M, 1, prec, square, M->m > M->n ? M->m : M->n, args_ok,
                         slow_there ? 1 : 2);
}

int tila_sl_norm_end(tila_sl_call_t *c, tila_sl_mat_t *M, tila_prec_t prec, int rc)
{
    return tila_sl_inplace_end(c, &M, 1, 0, prec, rc);
}

void tila_sl_pblas_mat(tila_sl_mat_t *M, const void *a, int ia, int ja, const int *desc, int m,
                       int n)
{
    *M = (tila_sl_mat_t){ .a = (void *)a, .ia = ia, .ja = ja, .desc = desc, .m = m, .n = n };
    /* Type 2: DTYPE, CTXT, M, N, IMB, INB, MB, NB, RSRC, CSRC, LLD. */
    if (desc[TILA_SL_DTYPE] == 2 && desc[4] == desc[6] && desc[5] == desc[7]) {
        const int d[9] = { 1,       desc[1], desc[2], desc[3], desc[6],
                           desc[7], desc[8], desc[9], desc[10] };
        memcpy(M->desc1, d, sizeof d);
        M->desc = M->desc1;
    }
}

int tila_sl_factor_ok(const tila_sl_mat_t *M)
{
    const int *d = M->desc;
    return tila_sl_desc_ok(M) && M->m == M->n && (M->ia - 1) % d[TILA_SL_MB] == 0 &&
           (M->ja - 1) % d[TILA_SL_NB] == 0 && d[TILA_SL_MB] == d[TILA_SL_NB];
}

int tila_sl_solve_ok(const tila_sl_mat_t *A, const tila_sl_mat_t *B)
{
    const int *da = A->desc, *db = B->desc;
    if (!tila_sl_factor_ok(A) || !tila_sl_desc_ok(B)) return 0;
    int nprow, npcol, myrow, mycol;
    blacs_gridinfo_(&da[TILA_SL_CTXT], &nprow, &npcol, &myrow, &mycol);
    return B->m == A->n && db[TILA_SL_CTXT] == da[TILA_SL_CTXT] &&
           (B->ia - 1) % db[TILA_SL_MB] == 0 &&
           row_owner(da, A->ia, nprow) == row_owner(db, B->ia, nprow) &&
           db[TILA_SL_MB] == da[TILA_SL_NB];
}

int tila_sl_factor_tile(const tila_sl_call_t *c, const tila_sl_mat_t *A, const tila_sl_mat_t *B,
                        int size, int most)
{
    return in_place(A, 1, c->min_nb) && (!B || in_place(B, 0, c->min_nb))
               ? 0
               : tila_layer_tile(size, most);
}

int tila_sl_open_factor(const tila_sl_call_t *c, tila_sl_mat_t *A, tila_sl_mat_t *B, int size,
                        int most, tila_prec_t prec)
{
    int tile = tila_sl_factor_tile(c, A, B, size, most);
    if (tila_sl_open(c, A, prec, tile, 1)) return -1;
    if (B && tila_sl_open(c, B, prec, tile, 1)) {
        tila_sl_close(c, A, prec, 0);
        return -1;
    }
    return tile ? TILA_SL_COPY : TILA_SL_INPLACE;
}

/*
 * ---- A copy in tile x tile blocks: the exchange between the caller's blocks and it --------
 *
 * Small blocks are copied into a ScaLAPACK array in tile x tile blocks over the same grid,
 * from process (0, 0), in one MPI_Alltoallv each way (p?gemr2d did this before, but exits
 * the program when it runs out of memory).  Each dimension is one list per process row (or
 * column) of the local indices a process sends to it and receives from it; a message is
 * the product of a row list and a column list, column by column.  Its room (the lists and
 * both directions' buffers) is taken with the copy, so that a copy that could be made can
 * always be stored back.
 */

/* One dimension of the exchange: for each process p of the dimension, the local indices
 * (in `idx`, from off[p] to off[p + 1]) of the caller's entries it receives (`give`) and of
 * the copy's entries it sends here (`take`), both in increasing global order. */
typedef struct {
    int *give, *give_off, *take, *take_off;
} xaxis_t;

/* The room of a copy's exchange (tila_sl_mat_t.xbuf): the lists of both dimensions, then
 * the caller's local entries and the copy's, each as one buffer. */
typedef struct {
    xaxis_t rows, cols;
    int *counts; /* per world rank: caller side, copy side, and their offsets (4 x world) */
    char *mine, *copied;
    size_t nmine, ncopied;
} xroom_t;

/* Fill one dimension's lists: n entries from global index start of a dimension in blocks of
 * `block` from process src (the caller's), and in blocks of `tile` from 0 (the copy's),
 * over `procs` processes, this one `me`.  (Counted, summed into offsets, filled with the
 * offsets as cursors, which then stand one list further: shifted back.) */
static void xaxis_fill(xaxis_t *x, int n, int start, int block, int src, int tile, int procs,
                       int me)
{
    for (int p = 0; p <= procs; p++)
        x->give_off[p] = x->take_off[p] = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            int g = start + i;
            int owner = (src + g / block) % procs, dest = (i / tile) % procs;
            if (owner == me) {
                if (pass == 0)
                    x->give_off[dest + 1]++;
                else
                    x->give[x->give_off[dest]++] = (g / (block * procs)) * block + g % block;
            }
            if (dest == me) {
                if (pass == 0)
                    x->take_off[owner + 1]++;
                else
                    x->take[x->take_off[owner]++] = (i / (tile * procs)) * tile + i % tile;
            }
        }
        if (pass == 0)
            for (int p = 0; p < procs; p++) {
                x->give_off[p + 1] += x->give_off[p];
                x->take_off[p + 1] += x->take_off[p];
            }
    }
    for (int p = procs; p > 0; p--) {
        x->give_off[p] = x->give_off[p - 1];
        x->take_off[p] = x->take_off[p - 1];
    }
    x->give_off[0] = x->take_off[0] = 0;
}

/* The exchange's room for M (M->copy taken), or NULL (out of memory, or a count too large
 * for MPI's int). */
static xroom_t *xroom_alloc(const tila_sl_call_t *c, const tila_sl_mat_t *M, size_t es)
{
    int world = c->nprow * c->npcol, np = c->nprow, nq = c->npcol;
    xroom_t *x = calloc(1, sizeof *x);
    int *ints =
        x ? malloc(sizeof(int) * (2 * (size_t)M->m + 2 * (size_t)M->n + 4 * (size_t)(np + 1) +
                                  4 * (size_t)(nq + 1) + 4 * (size_t)world))
          : NULL;
    if (!ints) {
        free(x);
        return NULL;
    }
    x->rows = (xaxis_t){ ints, ints + M->m, ints + M->m + np + 1, ints + 2 * M->m + np + 1 };
    int *next = ints + 2 * M->m + 2 * (np + 1);
    x->cols = (xaxis_t){ next, next + M->n, next + M->n + nq + 1, next + 2 * M->n + nq + 1 };
    x->counts = next + 2 * M->n + 2 * (nq + 1);
    const int *d = M->desc;
    xaxis_fill(&x->rows, M->m, M->ia - 1, d[TILA_SL_MB], d[TILA_SL_RSRC], M->tile, np, c->myrow);
    xaxis_fill(&x->cols, M->n, M->ja - 1, d[TILA_SL_NB], d[TILA_SL_CSRC], M->tile, nq, c->mycol);
    x->nmine = (size_t)x->rows.give_off[np] * (size_t)x->cols.give_off[nq];
    x->ncopied = (size_t)x->rows.take_off[np] * (size_t)x->cols.take_off[nq];
    if (x->nmine <= INT32_MAX && x->ncopied <= INT32_MAX) {
        x->mine = malloc(es * (x->nmine ? x->nmine : 1));
        x->copied = malloc(es * (x->ncopied ? x->ncopied : 1));
    }
    if (!x->mine || !x->copied) {
        free(x->mine);
        free(x->copied);
        free(ints);
        free(x);
        return NULL;
    }
    return x;
}

static void xroom_free(void *room)
{
    xroom_t *x = room;
    if (!x) return;
    free(x->mine);
    free(x->copied);
    free(x->rows.give);
    free(x);
}

/* Copy es bytes (4, 8 or 16: the four precisions) from src to dst. */
static inline void xcopy(char *dst, const char *src, size_t es)
{
    memcpy(dst, src, es == 4 ? 4 : es == 8 ? 8 : 16);
}

/* Pack (or unpack, `out` 0) the local entries of the array a (lld) that the lists' (rows,
 * rsel) x (cols, csel) name, process by process over the grid, into (from) buf. */
static void xpack(const tila_sl_call_t *c, int *const *lists, char *a, size_t lld, char *buf,
                  size_t es, int out)
{
    size_t k = 0;
    for (int pr = 0; pr < c->nprow; pr++)
        for (int pc = 0; pc < c->npcol; pc++)
            for (int jj = lists[3][pc]; jj < lists[3][pc + 1]; jj++)
                for (int ii = lists[1][pr]; ii < lists[1][pr + 1]; ii++, k++) {
                    char *e = a + ((size_t)lists[2][jj] * lld + (size_t)lists[0][ii]) * es;
                    if (out)
                        xcopy(buf + k * es, e, es);
                    else
                        xcopy(e, buf + k * es, es);
                }
}

/*
 * The exchange: the caller's entries of sub(M) into the copy (`in`), or the copy's back;
 * collective over the call's grid (every rank).  The buffers are packed process by
 * process in the grid's order, which the world ranks of c->ranks permute.
 */
static int xchange(const tila_sl_call_t *c, tila_sl_mat_t *M, size_t es, int in)
{
    xroom_t *x = M->xbuf;
    int world = c->nprow * c->npcol;
    int *give_rows[4] = { x->rows.give, x->rows.give_off, x->cols.give, x->cols.give_off };
    int *take_rows[4] = { x->rows.take, x->rows.take_off, x->cols.take, x->cols.take_off };
    int *scnt = x->counts, *sdsp = scnt + world, *rcnt = sdsp + world, *rdsp = rcnt + world;
    int *const *send = in ? give_rows : take_rows, *const *recv = in ? take_rows : give_rows;
    for (int pr = 0, at_s = 0, at_r = 0; pr < c->nprow; pr++)
        for (int pc = 0; pc < c->npcol; pc++) {
            int r = c->ranks[pr * c->npcol + pc];
            scnt[r] = (send[1][pr + 1] - send[1][pr]) * (send[3][pc + 1] - send[3][pc]);
            rcnt[r] = (recv[1][pr + 1] - recv[1][pr]) * (recv[3][pc + 1] - recv[3][pc]);
            sdsp[r] = at_s, rdsp[r] = at_r;
            at_s += scnt[r], at_r += rcnt[r];
        }
    char *caller = (char *)M->a, *copy = M->copy;
    size_t lld = (size_t)M->desc[TILA_SL_LLD], cld = (size_t)M->copy_desc[TILA_SL_LLD];
    char *sbuf = in ? x->mine : x->copied, *rbuf = in ? x->copied : x->mine;
    xpack(c, send, in ? caller : copy, in ? lld : cld, sbuf, es, 1);
    MPI_Datatype entry;
    MPI_Type_contiguous((int)es, MPI_BYTE, &entry);
    MPI_Type_commit(&entry);
    int rc = MPI_Alltoallv(sbuf, scnt, sdsp, entry, rbuf, rcnt, rdsp, entry, MPI_COMM_WORLD);
    MPI_Type_free(&entry);
    if (rc != MPI_SUCCESS) return TILA_ERR_MPI;
    xpack(c, recv, in ? copy : caller, in ? cld : lld, rbuf, es, 0);
    return 0;
}

/*
 * Is M's copy Tila's own tiles, filled by retiling a view of the caller's blocks (wherever
 * sub(M) starts): blocks of at least 32 x 32 (fewer tasks than entries / 1024)?  Else the
 * copy is a ScaLAPACK array in tile x tile blocks, filled by the exchange above.  (Their
 * costs at n = 8192 in 128-blocks: bench/LOG.md.)
 */
static int retiles(const tila_sl_mat_t *M)
{
    const int *d = M->desc;
    return d[TILA_SL_MB] * d[TILA_SL_NB] >= 32 * 32;
}

/* Rank of tile (m, n) of a copy: block-cyclic over the call's grid from its process (0, 0). */
static int copy_rank(int m, int n, void *arg)
{
    const tila_sl_call_t *c = arg;
    return c->ranks[(m % c->nprow) * c->npcol + n % c->npcol];
}

/* Copy the caller's submatrix into M's tiles (`in`) or back, through a view of its blocks;
 * the result agreed by every rank. */
static int retile(const tila_sl_call_t *c, tila_sl_mat_t *M, tila_prec_t prec, int in)
{
    typedef int lacpy_fn(tila_uplo_t, tila_desc_t *, tila_desc_t *);
    static lacpy_fn *const lacpy[] = { tila_slacpy, tila_dlacpy, tila_clacpy, tila_zlacpy };
    const int *d = M->desc;
    tila_scalapack_grid_t grid = { c->nprow, c->npcol, c->ranks, d[TILA_SL_RSRC], d[TILA_SL_CSRC] };
    tila_desc_t *V = NULL;
    int rc = tila_desc_create_scalapack_sub(&V, prec, M->a, d[TILA_SL_LLD], M->ia - 1, M->ja - 1,
                                            M->m, M->n, d[TILA_SL_MB], d[TILA_SL_NB], &grid);
    /* the view agreed before the copy, whose tasks and wait every rank must enter */
    rc = tila_sl_agree(c, rc);
    if (!rc) rc = tila_sl_agree(c, lacpy[prec](TILA_GENERAL, in ? V : M->A, in ? M->A : V));
    if (V) tila_desc_destroy(&V);
    return rc;
}

int tila_sl_open(const tila_sl_call_t *c, tila_sl_mat_t *M, tila_prec_t prec, int tile, int load)
{
    const int *d = M->desc;
    tila_scalapack_grid_t grid = { c->nprow, c->npcol, c->ranks, d[TILA_SL_RSRC], d[TILA_SL_CSRC] };
    M->A = NULL;
    M->copy = NULL;
    M->xbuf = NULL;
    M->tile = tile;
    int rc;
    if (!tile) {
        rc = tila_desc_create_scalapack_sub(&M->A, prec, M->a, d[TILA_SL_LLD], M->ia - 1, M->ja - 1,
                                            M->m, M->n, d[TILA_SL_MB], d[TILA_SL_NB], &grid);
        rc = tila_sl_agree(c, rc);
        if (rc && M->A) tila_desc_destroy(&M->A);
        return rc;
    }
    if (retiles(M)) {
        tila_dist_t dist = { .rank_of = copy_rank, .rank_arg = (void *)c };
        rc = tila_sl_agree(c, tila_desc_create(&M->A, prec, M->m, M->n, tile, tile, &dist));
        if (!rc && load) rc = retile(c, M, prec, 1);
        if (rc && M->A) tila_desc_destroy(&M->A);
        return rc;
    }
    /* The copy: a ScaLAPACK array in tile x tile blocks over the same grid, from (0, 0). */
    int zero = 0, info;
    int mloc = numroc_(&M->m, &tile, &c->myrow, &zero, &c->nprow);
    int nloc = numroc_(&M->n, &tile, &c->mycol, &zero, &c->npcol);
    int lld = mloc > 1 ? mloc : 1;
    descinit_(M->copy_desc, &M->m, &M->n, &tile, &tile, &zero, &zero, &c->ctxt, &lld, &info);
    size_t es = tila_prec_size(prec), bytes = (size_t)lld * (size_t)nloc * es;
    if (bytes) M->copy = malloc(bytes);
    if (M->copy || !bytes) M->xbuf = xroom_alloc(c, M, es);
    rc = tila_sl_agree(c, (bytes && !M->copy) || !M->xbuf ? TILA_ERR_NOMEM : 0);
    if (!rc && load && M->m > 0 && M->n > 0) rc = tila_sl_agree(c, xchange(c, M, es, 1));
    grid.rsrc = grid.csrc = 0;
    if (!rc)
        rc = tila_sl_agree(c, tila_desc_create_scalapack_sub(&M->A, prec, M->copy, lld, 0, 0, M->m,
                                                             M->n, tile, tile, &grid));
    if (rc) {
        if (M->A) tila_desc_destroy(&M->A);
        free(M->copy);
        xroom_free(M->xbuf);
        M->copy = M->xbuf = NULL;
    }
    return rc;
}

int tila_sl_close(const tila_sl_call_t *c, tila_sl_mat_t *M, tila_prec_t prec, int store)
{
    int rc = M->tile && store && retiles(M) ? retile(c, M, prec, 0) : 0;
    tila_desc_destroy(&M->A);
    if (!M->tile || retiles(M)) return rc;
    if (store && M->m > 0 && M->n > 0)
        rc = tila_sl_agree(c, xchange(c, M, tila_prec_size(prec), 0));
    free(M->copy);
    xroom_free(M->xbuf);
    M->copy = M->xbuf = NULL;
    return rc;
}

/* ---- Tila's end, at the start of MPI_Finalize ---------------------------------------- */

/* Where Tila ran a call, and its end when this library started it. */
static void stop(void)
{
    tila_layer_summary(&book, world_rank() == 0);
    if (sl.started) tila_finalize();
    sl.started = 0;
    free(sl.all);
    free(sl.ranks);
    sl.all = sl.ranks = NULL;
    sl.failed = 1; /* MPI is gone */
}

int tila_sl_geqrf_lwork(const tila_sl_mat_t *A)
{
    const int *d = A->desc;
    int nprow, npcol, myrow, mycol;
    blacs_gridinfo_(&d[TILA_SL_CTXT], &nprow, &npcol, &myrow, &mycol);
    int iarow = row_owner(d, A->ia, nprow), iacol = col_owner(d, A->ja, npcol);
    int rows = A->m + (A->ia - 1) % d[TILA_SL_MB], cols = A->n + (A->ja - 1) % d[TILA_SL_NB];
    int mp0 = numroc_(&rows, &d[TILA_SL_MB], &myrow, &iarow, &nprow);
    int nq0 = numroc_(&cols, &d[TILA_SL_NB], &mycol, &iacol, &npcol);
    return d[TILA_SL_NB] * (mp0 + nq0 + d[TILA_SL_NB]);
}

int tila_sl_tau_alloc(const tila_sl_call_t *c, const tila_sl_mat_t *A, const tila_desc_t *T,
                      tila_prec_t prec, tila_sl_tau_t *room)
{
    size_t es = tila_prec_size(prec);
    int k = A->m < A->n ? A->m : A->n;
    room->all = k > 0 ? malloc(es * (size_t)k) : NULL;
    int rc = k > 0 && !room->all ? TILA_ERR_NOMEM : 0;
    room->gather = NULL;
    if (!rc && k > 0) rc = tila_layer_qr_tau_alloc(T, 0, &room->gather);
    rc = tila_sl_agree(c, rc);
    if (rc) tila_sl_tau_free(room);
    return rc;
}

void tila_sl_tau_free(tila_sl_tau_t *room)
{
    free(room->gather);
    free(room->all);
    room->gather = room->all = NULL;
}

int tila_sl_put_tau(const tila_sl_call_t *c, const tila_sl_mat_t *A, tila_desc_t *T, void *tau,
                    tila_prec_t prec, const tila_sl_tau_t *room)
{
    size_t es = tila_prec_size(prec);
    int k = A->m < A->n ? A->m : A->n;
    if (k == 0) return 0;
    char *all = room->all;
    int rc = tila_sl_agree(c, tila_layer_qr_tau(T, k, all, 0, room->gather));
    if (rc) return rc;
    MPI_Bcast(all, (int)(es * (size_t)k), MPI_BYTE, 0, MPI_COMM_WORLD);
    for (int j = 0; j < k; j++) {
        int g = A->ja + j;
        if (col_owner(A->desc, g, c->npcol) == c->mycol)
            memcpy((char *)tau + col_local(A->desc, g, c->npcol) * es, all + (size_t)j * es, es);
    }
    return 0;
}

void *tila_sl_get_tau(const tila_sl_call_t *c, const tila_sl_mat_t *A, int k, const void *tau,
                      tila_prec_t prec)
{
    /* Each factor from one process, zeros from the others: a sum that rounds nothing. */
    size_t es = tila_prec_size(prec);
    int single = prec == TILA_REAL32 || prec == TILA_COMPLEX32;
    int parts = (int)(es / (single ? sizeof(float) : sizeof(double)));
    char *all = calloc(k > 0 ? (size_t)k : 1, es);
    if (tila_sl_agree(c, all ? 0 : TILA_ERR_NOMEM)) {
        free(all);
        return NULL;
    }
    if (row_owner(A->desc, A->ia, c->nprow) == c->myrow)
        for (int j = 0; j < k; j++) {
            int g = A->ja + j;
            if (col_owner(A->desc, g, c->npcol) == c->mycol)
                memcpy(all + (size_t)j * es,
                       (const char *)tau + col_local(A->desc, g, c->npcol) * es, es);
        }
    MPI_Allreduce(MPI_IN_PLACE, all, k * parts, single ? MPI_FLOAT : MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    return all;
}
