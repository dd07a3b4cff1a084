/**
 * @file zlange.c
 * @brief Norms of general, trapezoidal, symmetric and Hermitian distributed matrices.
 * @precisions normal z -> c d s
 *
 * Each stored tile is read once, by a task on its owner, into a partial result of its
 * own on that rank: its column sums (one norm; a symmetric matrix's diagonal tiles),
 * its row sums (infinity norm), its max or its Frobenius pair; an off-diagonal tile of
 * a symmetric or Hermitian matrix gives its column sums to its block column and its
 * row sums to the block column of its transpose.  No task depends on another and no
 * tile or partial crosses ranks: the partials are reduced across ranks at the
 * sequence's wait, in the allreduce that agrees on the status, and for Frobenius and the
 * sums that cross ranks one or two more (lan_reduce.c, which says what the value depends
 * on: the tile size only).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>
#include <string.h>

#include "codelets_z.h"
#include "lan_reduce.h"
#include "tila_runtime.h"

/* A batch: this rank's tiles of one device (-1: its CPUs), read by one task. */
typedef struct zlan_batch_s {
    int count, cap;
    int *m, *n, *first, *size; /**< the tiles and their partials' labels and sizes */
    tila_cl_lan_tile_t *tile;
} zlan_batch_t;

/* What one call submits with. */
typedef struct zlan_ctx_s {
    tila_task_t t;
    tila_lan_t *lan;
    tila_norm_t norm;
    tila_desc_t *A;
    int batch;           /**< zlan_batching's answer */
    int nbatch;          /**< batches: one per device of this rank and one for its CPUs */
    zlan_batch_t *batches; /**< [device + 1] */
} zlan_ctx_t;

/*
 * Which tiles of a general or trapezoidal matrix this rank reads in one task per device
 * (TILA_NORM_BATCH): 1 for auto (or unset: a GPU's tiles; a task per tile on the CPUs,
 * which each take one), 2 for on (the CPUs' too, in one task: the same path and bits as a
 * GPU's, for the tests), 0 for off (a task per tile everywhere).  A rank decides for its
 * own tiles alone: the partials of a batch are those of its tiles, in one vector.
 */
static int zlan_batching(void)
{
    const char *v = getenv("TILA_NORM_BATCH");
    /* Simulated too: every node description has the batch's model (tools/sim-node-model.py,
     * tila_dlange_tiles: one launch and the tiles' bytes at the kernel's read rate). */
    const int automatic = 1;
    if (!v || !*v || !strcmp(v, "auto")) return automatic;
    if (!strcmp(v, "on")) return 2;
    if (!strcmp(v, "off")) return 0;
    tila_error("tila_zlange", "TILA_NORM_BATCH=%s is none of auto, on and off: auto taken", v);
    return automatic;
}

/* The most tiles of a batch (a GPU's grid spans them in its second dimension). */
#define ZLAN_BATCH_MAX 4096

/* A tile's partial: `count` sums from `first` (one, infinity) as given, or the max (one
 * entry) or the Frobenius pair, labelled 0. */
static void zlan_label(const zlan_ctx_t *c, int *first, int *count)
{
    if (c->norm == TILA_NORM_MAX || c->norm == TILA_NORM_FRO)
        *first = 0, *count = c->norm == TILA_NORM_MAX ? 1 : 2;
}

/* The partial of `count` sums from `first` (zlan_label's). */
static int zlan_part(zlan_ctx_t *c, int first, int count, starpu_data_handle_t *h)
{
    zlan_label(c, &first, &count);
    return tila_lan_part(c->lan, c->t.rank, first, count, h);
}

/* Submit batch b (device b - 1) of c: its partials in one vector, its tiles in one task. */
static int zlan_batch_flush(zlan_ctx_t *c, zlan_batch_t *b)
{
    if (b->count == 0) return TILA_SUCCESS;
    tila_desc_t *A = c->A;
    starpu_data_handle_t h, *tiles = malloc(sizeof *tiles * (size_t)b->count);
    int rc = tiles ? TILA_SUCCESS : TILA_ERR_NOMEM;
    for (int i = 0, off = 0; i < b->count; i++) {
        b->tile[i].off = off;
        off += b->size[i];
    }
    tila_task_on(&c->t, A, b->m[0], b->n[0]);
    if (!rc) rc = tila_lan_part_run(c->lan, c->t.rank, b->count, b->first, b->size, &h);
    for (int i = 0; !rc && i < b->count; i++)
        tiles[i] = tila_task_tile(&c->t, A, b->m[i], b->n[i]);
    if (!rc) rc = tila_insert_zlange_tiles(&c->t, c->norm, b->count, b->tile, tiles, h);
    free(tiles);
    b->count = 0;
    return rc;
}

/* Tile (m, n) of this rank, on device dev (-1: the CPUs), into its device's batch. */
static int zlan_batch_add(zlan_ctx_t *c, int dev, tila_lan_kind_t kind, tila_uplo_t uplo,
                          tila_diag_t diag, int m, int n, int first, int size)
{
    zlan_batch_t *b = &c->batches[dev + 1];
    if (b->count == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        int *mm = realloc(b->m, sizeof *mm * (size_t)cap);
        if (mm) b->m = mm;
        int *nn = realloc(b->n, sizeof *nn * (size_t)cap);
        if (nn) b->n = nn;
        int *ff = realloc(b->first, sizeof *ff * (size_t)cap);
        if (ff) b->first = ff;
        int *ss = realloc(b->size, sizeof *ss * (size_t)cap);
        if (ss) b->size = ss;
        tila_cl_lan_tile_t *tt = realloc(b->tile, sizeof *tt * (size_t)cap);
        if (tt) b->tile = tt;
        if (!mm || !nn || !ff || !ss || !tt) return TILA_ERR_NOMEM;
        b->cap = cap;
    }
    tila_desc_t *A = c->A;
    int i = b->count++;
    b->m[i] = m;
    b->n[i] = n;
    b->first[i] = first;
    b->size[i] = size;
    b->tile[i] = (tila_cl_lan_tile_t){ .kind = kind,
                                    .uplo = uplo,
                                    .diag = diag,
                                    .m = tila_tile_rows(A, m),
                                    .n = tila_tile_cols(A, n) };
    return b->count == ZLAN_BATCH_MAX ? zlan_batch_flush(c, b) : TILA_SUCCESS;
}

/*
 * Tile (m, n) with the given tile kernel into a partial of its own: its column sums for
 * the one norm and the diagonal tiles of a symmetric matrix, its row sums for the
 * infinity norm.
 */
static int zlan_tile(zlan_ctx_t *c, tila_lan_kind_t kind, tila_uplo_t uplo, tila_diag_t diag, int m,
                     int n)
{
    tila_desc_t *A = c->A;
    int rows = tila_tile_rows(A, m), cols = tila_tile_cols(A, n), rc;
    int byrow = c->norm == TILA_NORM_INF && (kind == TILA_LAN_GE || kind == TILA_LAN_TR);
    int first = byrow ? A->row0[m] : A->col0[n], size = byrow ? rows : cols;
    starpu_data_handle_t h;
    tila_task_on(&c->t, A, m, n);
    if (c->t.rank == tila_comm_rank() && (kind == TILA_LAN_GE || kind == TILA_LAN_TR)) {
        int dev = tila_desc_tile_device(A, m, n);
        zlan_label(c, &first, &size);
        if (c->batch == 2 || (c->batch == 1 && dev >= 0))
            return zlan_batch_add(c, dev, kind, uplo, diag, m, n, first, size);
    }
    if ((rc = zlan_part(c, first, size, &h)) || !h) return rc;
    return tila_insert_zlange(&c->t, c->norm, kind, uplo, diag, rows, cols,
                              tila_task_tile(&c->t, A, m, n), h);
}

/* Off-diagonal tile (m, n) of a symmetric or Hermitian matrix. */
static int zlan_offdiag(zlan_ctx_t *c, int m, int n)
{
    tila_desc_t *A = c->A;
    int rows = tila_tile_rows(A, m), cols = tila_tile_cols(A, n), rc;
    starpu_data_handle_t col, row;
    tila_task_on(&c->t, A, m, n);
    if ((rc = zlan_part(c, A->col0[n], cols, &col)) ||
        (rc = zlan_part(c, A->row0[m], rows, &row)) || !col)
        return rc;
    return tila_insert_zlansy_offdiag(&c->t, c->norm, rows, cols, tila_task_tile(&c->t, A, m, n),
                                      col, row);
}

/* Submit the tile tasks: the stored tiles (the trapezoid or triangle `uplo`). */
static int zlan_tiles(zlan_ctx_t *c, tila_lan_kind_t kind, tila_uplo_t uplo, tila_diag_t diag)
{
    tila_desc_t *A = c->A;
    int rc = 0;
    for (int n = 0; n < A->nt && !rc; n++)
        for (int m = 0; m < A->mt && !rc; m++) {
            tila_uplo_t part = kind == TILA_LAN_GE ? TILA_GENERAL : tila_tile_part(uplo, m, n);
            if (part == TILA_TILE_NONE) continue;
            if (m == n && (kind == TILA_LAN_SY || kind == TILA_LAN_HE))
                rc = zlan_tile(c, kind, uplo, TILA_NONUNIT, m, n);
            else if (kind == TILA_LAN_SY || kind == TILA_LAN_HE)
                rc = zlan_offdiag(c, m, n);
            else
                rc = zlan_tile(c, part == TILA_GENERAL ? TILA_LAN_GE : TILA_LAN_TR, part, diag, m,
                               n);
        }
    return rc;
}

/* Submit the norm of A (arguments checked); *value is written at the sequence's wait. */
static int zlan_submit(tila_norm_t norm, tila_lan_kind_t kind, tila_uplo_t uplo, tila_diag_t diag,
                       tila_desc_t *A, double *value, tila_sequence_t *seq, tila_request_t *req)
{
    if (A->m == 0 || A->n == 0) {
        *value = 0;
        return TILA_SUCCESS;
    }
    /* The sums: of the columns (one; symmetric: both), of the rows (infinity); a unit
     * diagonal's ones start those with a diagonal entry, as in LAPACK's ?lantr. */
    int sums = norm == TILA_NORM_INF && kind != TILA_LAN_SY && kind != TILA_LAN_HE ? A->m : A->n;
    int nones = kind == TILA_LAN_TR && diag == TILA_UNIT ? (A->m < A->n ? A->m : A->n) : 0;
    if (norm == TILA_NORM_MAX || norm == TILA_NORM_FRO) sums = 1, nones = 0;
    zlan_ctx_t c = { .t = tila_task_init(seq, req, 0),
                     .norm = norm,
                     .A = A,
                     .batch = kind == TILA_LAN_GE || kind == TILA_LAN_TR ? zlan_batching() : 0,
                     .nbatch = tila_cuda_ndevices() + 1 };
    c.lan = tila_lan_create(seq, norm, sums, nones, A->mt, A->nt, sizeof *value, value);
    c.batches = c.batch ? calloc((size_t)c.nbatch, sizeof *c.batches) : NULL;
    int rc = c.lan && (c.batches || !c.batch) ? zlan_tiles(&c, kind, uplo, diag) : TILA_ERR_NOMEM;
    for (int b = 0; c.batches && b < c.nbatch; b++) {
        int brc = rc ? TILA_SUCCESS : zlan_batch_flush(&c, &c.batches[b]);
        rc = rc ? rc : brc;
        zlan_batch_t *x = &c.batches[b];
        free(x->m);
        free(x->n);
        free(x->first);
        free(x->size);
        free(x->tile);
    }
    free(c.batches);
    if (!c.lan) {
        tila_sequence_fail(seq, req, rc);
        return rc;
    }
    tila_lan_submitted(c.lan, seq, req, rc);
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
    tila_call_begin(seq, req);
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
    tila_call_begin(seq, req);
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
    tila_call_begin(seq, req);
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
