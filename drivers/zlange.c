/**
 * @file zlange.c
 * @brief Norms of general, trapezoidal, symmetric and Hermitian distributed matrices.
 * @precisions normal z -> c d s
 *
 * Reduction, with no blocking call: tile partials -> chain partials -> one value ->
 * every rank.
 *  1. Chains.  The tiles are folded into partial results by chains of tasks, each task
 *     on the owner of its tile: it folds the tile into the partial in place when the
 *     previous tile was on the same rank, else it reads the previous partial
 *     (StarPU-MPI brings it over) and writes a new one on its own rank; chains run:
 *     down each tile column for the one norm (partials: the column sums), along each
 *     tile row for the infinity norm (the row sums), either way for max (one value)
 *     and Frobenius (a (scale, sumsq) pair), whichever gives more chains.  A chain
 *     adds its tiles in LAPACK's order, so the sums are those of LAPACK to the bit
 *     whatever the grid, the tile size or the workers.  Symmetric and Hermitian
 *     matrices have one chain per block column of the full matrix; an off-diagonal
 *     tile is read once and feeds two chains, its column sums to its own block column
 *     and its row sums to the block column of its transpose.
 *  2. Combination.  A second chain folds the end of every chain into one partial
 *     (NaN-propagating max of the sums or maxima; Frobenius pairs added by the rule
 *     that keeps the larger scale, which cannot overflow, unlike summing
 *     scale^2 sumsq), each step on the rank where that chain ended.
 *  3. Delivery.  One task on every rank reads the final partial (StarPU-MPI sends it)
 *     and writes the norm into the caller's variable there.
 * The partials are vectors of a workspace (drivers/workspace.c), unregistered as soon
 * as everything is submitted: StarPU frees each after its last use.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>

#include "codelets_z.h"
#include "tila_runtime.h"

/* A chain of partials: the latest one, where it was written, its length. */
typedef struct zlan_chain_s {
    starpu_data_handle_t cur;
    int rank, len;
} zlan_chain_t;

/* What one call submits with. */
typedef struct zlan_ctx_s {
    tila_task_t t;
    tila_workspace_t ws;
    tila_norm_t norm;
    tila_desc_t *A;
} zlan_ctx_t;

/* Length of a partial: the sums of `count` rows or columns, one max or one pair. */
static int zlan_len(tila_norm_t norm, int count)
{
    return norm == TILA_NORM_MAX ? 1 : norm == TILA_NORM_FRO ? 2 : count;
}

/* A new partial written by a task on `rank`. */
static int zlan_vector(zlan_ctx_t *c, int rank, int len, starpu_data_handle_t *h)
{
    *h = tila_workspace_vector(&c->ws, rank, len);
    return *h ? TILA_SUCCESS : TILA_ERR_NOMEM;
}

/* Start chain *ch on `rank`: `nones` ones then zeros. */
static int zlan_start(zlan_ctx_t *c, zlan_chain_t *ch, int rank, int len, int nones)
{
    int rc = zlan_vector(c, rank, len, &ch->cur);
    if (rc) return rc;
    ch->rank = rank;
    ch->len = len;
    tila_task_on_rank(&c->t, rank);
    return tila_insert_zlan_init(&c->t, len, nones, ch->cur);
}

/*
 * Fold tile (m, n) into chain *ch with the given tile kernel: in place when the
 * partial is on the tile's rank already, else into a new partial there.
 */
static int zlan_tile(zlan_ctx_t *c, zlan_chain_t *ch, tila_lan_kind_t kind, tila_uplo_t uplo,
                     tila_diag_t diag, int m, int n)
{
    tila_desc_t *A = c->A;
    starpu_data_handle_t in = ch->cur;
    int rc = 0;
    tila_task_on(&c->t, A, m, n);
    if (c->t.rank == ch->rank)
        in = NULL;
    else if ((rc = zlan_vector(c, c->t.rank, ch->len, &ch->cur)))
        return rc;
    ch->rank = c->t.rank;
    return tila_insert_zlange(&c->t, c->norm, kind, uplo, diag, tila_tile_rows(A, m),
                              tila_tile_cols(A, n), tila_tile(A, m, n), in, ch->cur, ch->len);
}

/*
 * Fold the chains into one partial, then write the norm into *value on every rank.
 * Each combination runs where its chain ended.
 */
static int zlan_finish(zlan_ctx_t *c, const zlan_chain_t *chains, int nchains, double *value)
{
    int acclen = zlan_len(c->norm, 1);
    zlan_chain_t acc;
    int rc = zlan_start(c, &acc, chains[0].rank, acclen, 0);
    for (int k = 0; k < nchains && !rc; k++) {
        starpu_data_handle_t out;
        if ((rc = zlan_vector(c, chains[k].rank, acclen, &out))) break;
        tila_task_on_rank(&c->t, chains[k].rank);
        rc = tila_insert_zlan_combine(&c->t, c->norm, chains[k].len, chains[k].cur, acc.cur, out,
                                      acclen);
        acc.cur = out;
    }
    for (int r = 0; r < tila_rt.size && !rc; r++) {
        tila_task_on_rank(&c->t, r);
        rc = tila_insert_zlan_result(&c->t, c->norm, acc.cur, value);
    }
    return rc;
}

/*
 * General (kind GE) or trapezoidal (TR) matrix: chains down the tile columns or along
 * the tile rows over the tiles of the trapezoid.  With a unit diagonal the one and
 * infinity sums start at one on the rows/columns that have a diagonal entry.
 */
static int zlan_general(zlan_ctx_t *c, tila_lan_kind_t kind, tila_uplo_t uplo, tila_diag_t diag,
                        zlan_chain_t *chains, int *nchains)
{
    tila_desc_t *A = c->A;
    int bycol = c->norm == TILA_NORM_ONE || (c->norm != TILA_NORM_INF && A->nt >= A->mt);
    int nchain = bycol ? A->nt : A->mt, nlink = bycol ? A->mt : A->nt;
    int ndiag = A->m < A->n ? A->m : A->n;
    int unit = kind == TILA_LAN_TR && diag == TILA_UNIT && c->norm != TILA_NORM_MAX &&
               c->norm != TILA_NORM_FRO;
    int rc = 0;
    *nchains = 0;
    for (int k = 0; k < nchain && !rc; k++) {
        zlan_chain_t *ch = &chains[*nchains];
        int started = 0;
        for (int l = 0; l < nlink && !rc; l++) {
            int m = bycol ? l : k, n = bycol ? k : l;
            tila_uplo_t part = kind == TILA_LAN_GE ? TILA_GENERAL : tila_tile_part(uplo, m, n);
            if (part == TILA_TILE_NONE) continue;
            if (!started) {
                int count = bycol ? tila_tile_cols(A, k) : tila_tile_rows(A, k);
                int first = k * (bycol ? A->nb : A->mb), nones = unit ? ndiag - first : 0;
                nones = nones < 0 ? 0 : nones > count ? count : nones;
                rc = zlan_start(c, ch, tila_desc_tile_rank(A, m, n), zlan_len(c->norm, count),
                                nones);
                started = 1;
            }
            if (!rc)
                rc = zlan_tile(c, ch, part == TILA_GENERAL ? TILA_LAN_GE : TILA_LAN_TR, part, diag,
                               m, n);
        }
        *nchains += started;
    }
    return rc;
}

/*
 * Symmetric or Hermitian matrix, triangle `uplo` stored: chain k is block column k of
 * the full matrix, fed in row order: the stored tiles of block row k before the
 * diagonal (lower) or of block column k (upper), the diagonal tile, then the stored
 * tiles after it, each through its row or column sums.  Submitting the stored tiles
 * row by row (lower) or column by column (upper) feeds every chain in that order.
 */
static int zlan_symmetric(zlan_ctx_t *c, tila_lan_kind_t kind, tila_uplo_t uplo,
                          zlan_chain_t *chains)
{
    tila_desc_t *A = c->A;
    int nt = A->nt, rc = 0;
    for (int k = 0; k < nt && !rc; k++) {
        int m = uplo == TILA_LOWER ? k : 0, n = uplo == TILA_LOWER ? 0 : k;
        rc = zlan_start(c, &chains[k], tila_desc_tile_rank(A, m, n),
                        zlan_len(c->norm, tila_tile_cols(A, k)), 0);
    }
    for (int i = 0; i < nt && !rc; i++)
        for (int j = 0; j <= i && !rc; j++) {
            /* Tile (m, n) of the stored triangle, the j-th of block row/column i. */
            int m = uplo == TILA_LOWER ? i : j, n = uplo == TILA_LOWER ? j : i;
            if (m == n) {
                rc = zlan_tile(c, &chains[m], kind, uplo, TILA_NONUNIT, m, m);
                continue;
            }
            zlan_chain_t *col = &chains[n], *row = &chains[m];
            starpu_data_handle_t colout, rowout;
            tila_task_on(&c->t, A, m, n);
            if ((rc = zlan_vector(c, c->t.rank, col->len, &colout)) ||
                (rc = zlan_vector(c, c->t.rank, row->len, &rowout)))
                break;
            rc = tila_insert_zlansy_offdiag(&c->t, c->norm, tila_tile_rows(A, m),
                                            tila_tile_cols(A, n), tila_tile(A, m, n), col->cur,
                                            row->cur, colout, rowout, col->len, row->len);
            col->cur = colout;
            row->cur = rowout;
            col->rank = row->rank = c->t.rank;
        }
    return rc;
}

/* Submit the norm of A (arguments checked) and write it into *value on every rank. */
static int zlan_submit(tila_norm_t norm, tila_lan_kind_t kind, tila_uplo_t uplo, tila_diag_t diag,
                       tila_desc_t *A, double *value, tila_sequence_t *seq, tila_request_t *req)
{
    if (A->m == 0 || A->n == 0) {
        *value = 0;
        return TILA_SUCCESS;
    }
    zlan_ctx_t c = { .t = tila_task_init(seq, req, 0), .norm = norm, .A = A };
    int nmax = A->mt > A->nt ? A->mt : A->nt, nchains = A->nt, rc;
    zlan_chain_t *chains = malloc(sizeof *chains * (size_t)nmax);
    if (!chains) return TILA_ERR_NOMEM;
    tila_workspace_init(&c.ws, sizeof(double));
    if (kind == TILA_LAN_GE || kind == TILA_LAN_TR)
        rc = zlan_general(&c, kind, uplo, diag, chains, &nchains);
    else
        rc = zlan_symmetric(&c, kind, uplo, chains);
    if (!rc) rc = zlan_finish(&c, chains, nchains, value);
    tila_workspace_release(&c.ws);
    free(chains);
    return rc;
}

static int zlan_check_norm(const char *func, tila_norm_t norm)
{
    if (norm == TILA_NORM_MAX || norm == TILA_NORM_ONE || norm == TILA_NORM_INF ||
        norm == TILA_NORM_FRO)
        return 0;
    return tila_illegal_value(func, 1, "norm", (int)norm,
                              "TILA_NORM_MAX, TILA_NORM_ONE, TILA_NORM_INF or TILA_NORM_FRO");
}

static int zlan_check_value(const char *func, int pos, const double *value)
{
    if (value) return 0;
    tila_error(func, "argument %d (value) is NULL", pos);
    return -pos;
}

int tila_zlange_async(tila_norm_t norm, tila_desc_t *A, double *value, tila_sequence_t *seq,
                      tila_request_t *req)
{
    static const char *func = "tila_zlange";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = zlan_check_norm(func, norm))) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = zlan_check_value(func, 3, value))) return rc;
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    return zlan_submit(norm, TILA_LAN_GE, TILA_GENERAL, TILA_NONUNIT, A, value, seq, req);
}

int tila_zlange(tila_norm_t norm, tila_desc_t *A, double *value)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zlange", &s);
    return rc ? rc : tila_sync_end(&s, tila_zlange_async(norm, A, value, s.seq, &s.req));
}

int tila_zlantr_async(tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, tila_desc_t *A,
                      double *value, tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zlantr";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = zlan_check_norm(func, norm))) return rc;
    if ((rc = tila_check_triangle(func, 2, uplo))) return rc;
    if ((rc = tila_check_diag(func, 3, diag))) return rc;
    if ((rc = tila_check_desc(func, 4, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_triangle_tiles(func, 4, uplo, A))) return rc;
    if ((rc = zlan_check_value(func, 5, value))) return rc;
    if ((rc = tila_check_sequence(func, 6, seq, req))) return rc;
    return zlan_submit(norm, TILA_LAN_TR, uplo, diag, A, value, seq, req);
}

int tila_zlantr(tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, tila_desc_t *A, double *value)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zlantr", &s);
    return rc ? rc
              : tila_sync_end(&s, tila_zlantr_async(norm, uplo, diag, A, value, s.seq, &s.req));
}

/* Checks of tila_zlansy and tila_zlanhe, then the submission. */
static int zlan_symmetric_async(const char *func, tila_lan_kind_t kind, tila_norm_t norm,
                                tila_uplo_t uplo, tila_desc_t *A, double *value,
                                tila_sequence_t *seq, tila_request_t *req)
{
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = zlan_check_norm(func, norm))) return rc;
    if ((rc = tila_check_triangle(func, 2, uplo))) return rc;
    if ((rc = tila_check_desc(func, 3, "A", A, TILA_COMPLEX64))) return rc;
    if (A->m != A->n) {
        tila_error(func, "argument 3 (A) is %d x %d: a symmetric matrix is square", A->m, A->n);
        return -3;
    }
    if ((rc = tila_check_triangle_tiles(func, 3, uplo, A))) return rc;
    if ((rc = zlan_check_value(func, 4, value))) return rc;
    if ((rc = tila_check_sequence(func, 5, seq, req))) return rc;
    return zlan_submit(norm, kind, uplo, TILA_NONUNIT, A, value, seq, req);
}

/* Synchronous tila_zlansy or tila_zlanhe. */
static int zlan_symmetric_sync(const char *func, tila_lan_kind_t kind, tila_norm_t norm,
                               tila_uplo_t uplo, tila_desc_t *A, double *value)
{
    tila_sync_t s;
    int rc = tila_sync_begin(func, &s);
    return rc ? rc
              : tila_sync_end(
                    &s, zlan_symmetric_async(func, kind, norm, uplo, A, value, s.seq, &s.req));
}

int tila_zlansy_async(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value,
                      tila_sequence_t *seq, tila_request_t *req)
{
    return zlan_symmetric_async("tila_zlansy", TILA_LAN_SY, norm, uplo, A, value, seq, req);
}

int tila_zlansy(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value)
{
    return zlan_symmetric_sync("tila_zlansy", TILA_LAN_SY, norm, uplo, A, value);
}

#if defined(COMPLEX)
int tila_zlanhe_async(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value,
                      tila_sequence_t *seq, tila_request_t *req)
{
    return zlan_symmetric_async("tila_zlanhe", TILA_LAN_HE, norm, uplo, A, value, seq, req);
}

int tila_zlanhe(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value)
{
    return zlan_symmetric_sync("tila_zlanhe", TILA_LAN_HE, norm, uplo, A, value);
}
#endif
