/**
 * @file lan_reduce.c
 * @brief The norms' reduction across ranks: every tile task leaves its partial result
 * (the tile's column or row sums, its max, its Frobenius pair) on its own rank; at the
 * sequence's wait each rank folds its partials and allreduces combine the ranks: the
 * first keys ride in the allreduce that agrees on the status (a wait hook's keys), and
 * Frobenius and the sums that cross ranks take one or two of their own.  O(log P)
 * messages, none of them on the tasks' path.
 *
 * What the value depends on: the tile size, nothing else (not the grid, the mapping, the
 * number of ranks or the workers).
 *  - Max: the largest partial, NaN first.  The allreduce takes the maximum of the bit
 *    patterns of the partials as integers, which orders non-negative doubles as their
 *    values, NaN (made positive) above Inf.
 *  - Sums (one, infinity) and the Frobenius sum of squares: each is the sum of its tiles'
 *    partials, taken exactly (up to 2^-60 of the result) and rounded once.  A first
 *    allreduce finds the largest partial of each sum, 2^E f (f in [1/2, 1)); each partial,
 *    scaled by 2^-E, is pre-rounded to two fixed grids (Demmel and Nguyen's reproducible
 *    summation, two folds): x = q1 + q2 + r, q1 a multiple of 2^(k-52), q2 of 2^(2k-106),
 *    r below 2^(2k-107), with 2^(k-2) at least the number of terms.  Sums of such q1
 *    (q2) are exact in any order, so the MPI_SUM of the second allreduce gives the same
 *    bits whatever order it adds in.  A sum whose partials all lie on one rank (the
 *    columns of a 1 x q grid) is finished there, to the same bits, and only its rank's
 *    largest such sum crosses, with the status; with no sum shared, no allreduce beyond
 *    the status's (what it saves: bench/LOG.md).
 * A tile's own partial is LAPACK's sum over the tile, in LAPACK's order: a column sum
 * differs from LAPACK's running sum by the roundings of the partials (about mb eps
 * relative, against m eps for the running sum itself).  NaN anywhere gives NaN; Inf
 * gives Inf; a sum or Frobenius norm beyond the largest double gives Inf, and the scaled
 * Frobenius sum cannot overflow before that.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lan_reduce.h"

enum { LAN_NONE = -1, LAN_SHARED = -2 }; /* a sum's owner: no partial yet, several ranks */

struct tila_lan_s {
    tila_wait_hook_t hook; /**< first member: the reduction is the sequence's hook */
    tila_norm_t norm;
    int len, nones;
    double sig[2]; /**< 1.5 2^k and 1.5 2^(2k-54): the pre-rounding grids */
    size_t realsize;
    void *value;
    tila_partials_t *P; /**< the partials (runtime/partials.c), labelled by their first sum */
    int *owner; /**< one, infinity: the rank of sum j's partials, LAN_SHARED if several */
    int *slot, ns; /**< one, infinity: sum j's index among the ns shared ones, or -1 */
    int64_t *skey; /**< their largest terms */
    double *sfold; /**< their folds */
};

/* The hook's first keys: Frobenius' three (lan_fro), the others' one (lan_sums). */
static int lan_nkeys(tila_norm_t norm) { return norm == TILA_NORM_FRO ? 3 : 1; }

tila_lan_t *tila_lan_create(tila_sequence_t *seq, tila_norm_t norm, int len, int nones, int mt,
                            int nt, size_t realsize, void *value)
{
    tila_sequence_keys(seq, lan_nkeys(norm));
    /* The partials' tags are booked first, by every rank, for as many partials as a call
     * can have (two a tile, the unit diagonal's one): the tags of the next data agree
     * whatever becomes of this call. */
    tila_partials_t *P = tila_partials_create(2 * (int64_t)mt * nt + 1, realsize);
    int sums = norm == TILA_NORM_ONE || norm == TILA_NORM_INF;
    tila_lan_t *l = calloc(1, sizeof *l);
    int *owner = sums ? malloc((size_t)len * sizeof *owner) : NULL;
    if (!P || !l || (sums && !owner)) {
        tila_partials_destroy(P);
        free(l);
        free(owner);
        return NULL;
    }
    for (int j = 0; sums && j < len; j++)
        owner[j] = j < nones ? 0 : LAN_NONE; /* rank 0 adds the unit diagonal */
    /* At most two partials per tile per sum (a symmetric off-diagonal tile feeds two
     * block columns), plus the unit diagonal's one: 2^(k-2) terms or fewer. */
    int k;
    frexp(2.0 * mt * nt + 1, &k);
    k += 2;
    *l = (tila_lan_t){ .norm = norm,
                       .owner = owner,
                       .len = len,
                       .nones = nones,
                       .sig = { ldexp(1.5, k), ldexp(1.5, 2 * k - 54) },
                       .realsize = realsize,
                       .value = value,
                       .P = P };
    return l;
}

int tila_lan_part_run(tila_lan_t *l, int rank, int nseg, const int *firsts, const int *counts,
                      starpu_data_handle_t *h)
{
    /* Its task starts it at zero (codelets/codelet_zlange.c), in STARPU_W. */
    int rc = tila_partials_add_run(l->P, rank, nseg, firsts, counts, h);
    if (rc == TILA_ERR_STARPU) return rc; /* more than create allowed for */
    for (int s = 0; l->owner && s < nseg; s++)
        for (int j = firsts[s]; j < firsts[s] + counts[s]; j++)
            l->owner[j] = l->owner[j] == LAN_NONE || l->owner[j] == rank ? rank : LAN_SHARED;
    return rc;
}

int tila_lan_part(tila_lan_t *l, int rank, int first, int count, starpu_data_handle_t *h)
{
    return tila_lan_part_run(l, rank, 1, &first, &count, h);
}

/* Entry e of this rank's partial p, exactly, as a double. */
static double lan_get(const tila_lan_t *l, size_t p, int e)
{
    return tila_partials_entry(l->P, p, e);
}

/* *value = v, rounded to the caller's precision. */
static void lan_set(tila_lan_t *l, double v)
{
    if (l->realsize == sizeof(float))
        *(float *)l->value = (float)v;
    else
        *(double *)l->value = v;
}

/* ---- Exact sums ------------------------------------------------------------------------ */

/* Add x in [0, 1] to the two folds s[0], s[1] (see the file's comment). */
static void lan_deposit(const double sig[2], double x, double s[2])
{
    double q1 = (x + sig[0]) - sig[0];
    double r = x - q1;
    s[0] += q1;
    s[1] += (r + sig[1]) - sig[1];
}

/* Add term t of a sum whose largest term is `max` (2^E f) to its folds. */
static void lan_add(const double sig[2], double max, double t, double s[2])
{
    int e;
    if (!isfinite(max) || max == 0) return; /* the sum is max itself */
    frexp(max, &e);
    lan_deposit(sig, ldexp(t, -e), s);
}

/* The sum of the folds s[0], s[1] scaled back, or the special value max. */
static double lan_total(double max, const double s[2])
{
    int e;
    if (!isfinite(max) || max == 0) return max;
    frexp(max, &e);
    return ldexp(s[0] + s[1], e);
}

static double lan_nanmax(double a, double b) { return isnan(b) || b > a ? b : a; }

/* Where entry j of this rank's partials goes: its sum's index in key and fold (the
 * sums this rank finishes alone, indexed by j) or in the sums that cross ranks (their
 * slot); -1 when it goes to the other kind. */
static int lan_index(const tila_lan_t *l, const int *slot, int shared, int j)
{
    if (shared) return slot[j];
    return l->owner && l->owner[j] == tila_comm_rank() ? j : -1;
}

/* The largest term of each of this rank's sums of one kind (lan_index) into key. */
static void lan_keys(const tila_lan_t *l, const int *slot, int shared, int64_t *key)
{
    for (size_t p = 0; p < tila_partials_count(l->P); p++)
        for (int e = 0; e < tila_partials_size(l->P, p); e++) {
            int s = lan_index(l, slot, shared, tila_partials_first(l->P, p) + e);
            if (s >= 0) tila_key_max(&key[s], lan_get(l, p, e));
        }
    for (int j = 0; tila_comm_rank() == 0 && j < l->nones; j++) {
        int s = lan_index(l, slot, shared, j);
        if (s >= 0) tila_key_max(&key[s], 1);
    }
}

/* Every term of this rank's sums of one kind into their folds, by their largest terms. */
static void lan_folds(const tila_lan_t *l, const int *slot, int shared, const int64_t *key,
                      double *fold)
{
    for (size_t p = 0; p < tila_partials_count(l->P); p++)
        for (int e = 0; e < tila_partials_size(l->P, p); e++) {
            int s = lan_index(l, slot, shared, tila_partials_first(l->P, p) + e);
            if (s >= 0) lan_add(l->sig, tila_key_value(key[s]), lan_get(l, p, e), &fold[2 * s]);
        }
    for (int j = 0; tila_comm_rank() == 0 && j < l->nones; j++) {
        int s = lan_index(l, slot, shared, j);
        if (s >= 0) lan_add(l->sig, tila_key_value(key[s]), 1, &fold[2 * s]);
    }
}

/* The largest of n sums from their largest terms and folds. */
static double lan_largest(int n, const int64_t *key, const double *fold)
{
    double v = 0;
    for (int s = 0; s < n; s++)
        v = lan_nanmax(v, lan_total(tila_key_value(key[s]), &fold[2 * s]));
    return v;
}

/*
 * Max, one and infinity norms.  A sum whose partials all lie on one rank (each column of
 * a 1 x q grid, the rows of a p x 1 grid, a matrix of one tile) is finished on it, with
 * the same bits as across ranks (its largest term is the same; the folds are exact).
 * The first key, which crosses with the status: the largest partial (max), or the
 * largest sum this rank finished.  The sums that cross ranks (every rank knows which
 * from the calls of tila_lan_part) take two allreduces more: their largest terms, then
 * their folds.  Everything is allocated here, before the status is agreed, so that a rank
 * short of memory fails the status instead of leaving the others in an allreduce.
 */
static int lan_sums_first(tila_lan_t *l, int64_t *key0)
{
    if (l->norm == TILA_NORM_MAX) { /* every partial is one entry, labelled 0 */
        tila_partials_fold_max(l->P, key0);
        return TILA_SUCCESS;
    }
    int len = l->len, rc = TILA_ERR_NOMEM;
    int64_t *key = calloc((size_t)len, sizeof *key);
    double *fold = calloc(2 * (size_t)len, sizeof *fold);
    if (!key || !fold || !(l->slot = malloc((size_t)len * sizeof *l->slot))) goto out;
    for (int j = 0; j < len; j++)
        l->slot[j] = l->owner[j] == LAN_SHARED ? l->ns++ : -1;
    /* + 1: never calloc(0), whose NULL would read as out of memory */
    l->skey = calloc((size_t)l->ns + 1, sizeof *l->skey);
    l->sfold = calloc(2 * (size_t)l->ns + 1, sizeof *l->sfold);
    if (!l->skey || !l->sfold) goto out;
    lan_keys(l, l->slot, 0, key);
    lan_folds(l, l->slot, 0, key, fold);
    *key0 = tila_key(lan_largest(len, key, fold));
    lan_keys(l, l->slot, 1, l->skey);
    rc = TILA_SUCCESS;
out:
    free(key);
    free(fold);
    return rc;
}

static int lan_sums(tila_lan_t *l, int64_t key0)
{
    double v = tila_key_value(key0);
    if (l->ns > 0) {
        if (tila_allreduce(l->skey, l->ns, MPI_INT64_T, MPI_MAX)) return TILA_ERR_MPI;
        lan_folds(l, l->slot, 1, l->skey, l->sfold);
        if (tila_allreduce(l->sfold, 2 * l->ns, MPI_DOUBLE, MPI_SUM)) return TILA_ERR_MPI;
        v = lan_nanmax(v, lan_largest(l->ns, l->skey, l->sfold));
    }
    lan_set(l, v);
    return TILA_SUCCESS;
}

/* ---- Frobenius --------------------------------------------------------------------------- */

enum lan_fro_kind { LAN_ZERO, LAN_TERM, LAN_INF, LAN_NAN };

/*
 * What a Frobenius pair (scale, sumsq) adds: scale^2 sumsq = f 2^e with f in [1/2, 1),
 * nothing, Inf or NaN (the kernels' pairs say Inf or NaN by their sumsq).
 */
static enum lan_fro_kind lan_fro_term(const tila_lan_t *l, size_t p, double *f, int *e)
{
    double pair[2] = { lan_get(l, p, 0), lan_get(l, p, 1) };
    if (isnan(pair[0]) || isnan(pair[1])) return LAN_NAN;
    if (isinf(pair[1])) return LAN_INF;
    if (pair[0] == 0 || pair[1] == 0) return LAN_ZERO;
    int es, eq, et;
    double fs = frexp(pair[0], &es), fq = frexp(pair[1], &eq);
    *f = frexp(fs * fs * fq, &et);
    *e = et + 2 * es + eq;
    return LAN_TERM;
}

/* Frobenius' first keys: the largest exponent of a term, any Inf, any NaN. */
static void lan_fro_first(const tila_lan_t *l, int64_t key[3])
{
    double f;
    int e;
    for (size_t p = 0; p < tila_partials_count(l->P); p++) {
        enum lan_fro_kind kind = lan_fro_term(l, p, &f, &e);
        if (kind == LAN_TERM && e > key[0]) key[0] = e;
        if (kind == LAN_INF) key[1] = 1;
        if (kind == LAN_NAN) key[2] = 1;
    }
}

/* The terms scaled by the largest exponent into two folds, summed across ranks. */
static int lan_fro(tila_lan_t *l, const int64_t key[3])
{
    if (key[2] > 0 || key[1] > 0 || key[0] == INT64_MIN) {
        lan_set(l, key[2] > 0 ? (double)NAN : key[1] > 0 ? (double)INFINITY : 0);
        return TILA_SUCCESS;
    }
    int top = (int)(key[0] + (key[0] & 1)); /* even: its square root is a power of two */
    double f, fold[2] = { 0, 0 };
    int e;
    for (size_t p = 0; p < tila_partials_count(l->P); p++)
        if (lan_fro_term(l, p, &f, &e) == LAN_TERM)
            lan_deposit(l->sig, ldexp(f, e - top), fold);
    if (tila_allreduce(fold, 2, MPI_DOUBLE, MPI_SUM)) return TILA_ERR_MPI;
    lan_set(l, ldexp(sqrt(fold[0] + fold[1]), top / 2));
    return TILA_SUCCESS;
}

/* ---- At the wait --------------------------------------------------------------------- */

static int lan_first(tila_wait_hook_t *hook, int64_t *key)
{
    tila_lan_t *l = (tila_lan_t *)hook;
    tila_partials_collect(l->P);
    if (l->norm != TILA_NORM_FRO) return lan_sums_first(l, key);
    lan_fro_first(l, key);
    return TILA_SUCCESS;
}

static int lan_wait(tila_wait_hook_t *hook, int status, int run, const int64_t *key)
{
    tila_lan_t *l = (tila_lan_t *)hook;
    int rc = TILA_SUCCESS;
    tila_partials_collect(l->P);
    if (run && status == 0) rc = l->norm == TILA_NORM_FRO ? lan_fro(l, key) : lan_sums(l, key[0]);
    tila_partials_destroy(l->P);
    free(l->owner);
    free(l->slot);
    free(l->skey);
    free(l->sfold);
    free(l);
    return rc;
}

void tila_lan_submitted(tila_lan_t *l, tila_sequence_t *seq, tila_request_t *req, int rc)
{
    tila_partials_submitted(l->P); /* each home as its task ends */
    if (rc) tila_sequence_fail(seq, req, rc);
    l->hook.nkeys = lan_nkeys(l->norm);
    l->hook.keys = lan_first;
    l->hook.fn = lan_wait;
    tila_sequence_on_wait(seq, &l->hook);
}
