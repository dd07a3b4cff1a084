/**
 * @file partials.c
 * @brief The partials service: a call's per-tile partial results (a norm's column sums, a
 * tile's column maxima), each on the rank of the task that writes it, registered here,
 * brought home as the tasks end, folded at the wait.
 *
 * A partial is registered on the rank whose task writes it (home: main memory, a tag of
 * the call's booked range) and nowhere else: no partial crosses ranks.  Every rank walks
 * the call's partials in the same order (tila_partials_add), so the tags agree; a rank
 * short of memory for one of its own (TILA_ALLOC_WORK, as a driver's own arrays) still
 * takes the tag.  Where GPUs write them, each is
 * asked home as its task ends (tila_data_bring_home), so that collecting them at the wait
 * (unregistering) finds them there.  What is folded is the caller's: the norms' exact sums
 * (drivers/lan_reduce.c) read the partials one by one; maxima (tila_partials_maxima) fold
 * here, as 64-bit keys that ride in the allreduce agreeing on the wait's status.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tila_partials.h"

/* One partial on this rank: its own vector, or a segment of a run's (tila_partials_add_run),
 * whose first segment holds the vector and its handle. */
typedef struct partial_s {
    void *x; /**< count elements */
    starpu_data_handle_t h; /**< NULL: a run's later segment */
    int first, count;
} partial_t;

struct tila_partials_s {
    tila_wait_hook_t hook; /**< first member: the maxima's fold is a wait hook */
    int64_t tag_base, max; /**< the tags booked: tag_base + [0, max) */
    int64_t n;             /**< partials of every rank so far: the index of the next one */
    size_t eltsize;
    partial_t *part; /**< this rank's */
    size_t nlocal, cap;
    int collected; /**< unregistered: the values are in part[].x */
    int nomem;     /**< a partial of this rank could not be made */
    int len;       /**< maxima: how many, and where they go */
    double *maxima;
};

int64_t tila_key(double x)
{
    int64_t k;
    x = isnan(x) ? (double)NAN : x > 0 ? x : 0;
    memcpy(&k, &x, sizeof k);
    return k;
}

void tila_key_max(int64_t *k, double x)
{
    int64_t kx = tila_key(x);
    *k = kx > *k ? kx : *k;
}

double tila_key_value(int64_t k)
{
    double x;
    memcpy(&x, &k, sizeof x);
    return x;
}

tila_partials_t *tila_partials_create(int64_t max, size_t eltsize)
{
    int64_t tag_base = tila_tag_book(max);
    tila_partials_t *P = tila_calloc(TILA_ALLOC_WORK, 1, sizeof *P);
    if (P) *P = (tila_partials_t){ .tag_base = tag_base, .max = max, .eltsize = eltsize };
    return P;
}

/* Room for `more` partials of this rank. */
static int partials_room(tila_partials_t *P, size_t more)
{
    if (P->nlocal + more <= P->cap) return TILA_SUCCESS;
    size_t cap = P->cap ? 2 * P->cap : 64;
    while (cap < P->nlocal + more)
        cap *= 2;
    partial_t *part =
        tila_alloc_fails(TILA_ALLOC_WORK) ? NULL : realloc(P->part, cap * sizeof *part);
    if (!part) return TILA_ERR_NOMEM;
    P->part = part;
    P->cap = cap;
    return TILA_SUCCESS;
}

int tila_partials_add_run(tila_partials_t *P, int rank, int nseg, const int *firsts,
                          const int *counts, starpu_data_handle_t *h)
{
    *h = NULL;
    if (P->n >= P->max) return TILA_ERR_STARPU; /* more than create booked */
    int64_t tag = P->tag_base + P->n++;
    if (rank != tila_rt.rank) return TILA_SUCCESS;
    size_t total = 0;
    for (int s = 0; s < nseg; s++)
        total += (size_t)counts[s];
    void *x = NULL;
    if (nseg < 1 || total < 1 || total > UINT32_MAX || partials_room(P, (size_t)nseg) ||
        !(x = tila_malloc(TILA_ALLOC_WORK, total * P->eltsize))) {
        P->nomem = 1;
        return TILA_ERR_NOMEM;
    }
    memset(x, 0xff, total * P->eltsize);
    size_t at = 0;
    for (int s = 0; s < nseg; s++) {
        P->part[P->nlocal + (size_t)s] = (partial_t){
            .x = (char *)x + at * P->eltsize, .first = firsts[s], .count = counts[s]
        };
        at += (size_t)counts[s];
    }
    partial_t *p = &P->part[P->nlocal];
    starpu_vector_data_register(&p->h, STARPU_MAIN_RAM, (uintptr_t)x, (uint32_t)total,
                                P->eltsize);
    starpu_mpi_data_register_comm(p->h, tag, rank, tila_starpu_comm());
    P->nlocal += (size_t)nseg;
    *h = p->h;
    return TILA_SUCCESS;
}

int tila_partials_add(tila_partials_t *P, int rank, int first, int count, starpu_data_handle_t *h)
{
    return tila_partials_add_run(P, rank, 1, &first, &count, h);
}

void tila_partials_submitted(tila_partials_t *P)
{
    for (size_t i = 0; i < P->nlocal; i++)
        if (P->part[i].h) tila_data_bring_home(P->part[i].h);
}

void tila_partials_collect(tila_partials_t *P)
{
    for (size_t i = 0; !P->collected && i < P->nlocal; i++)
        if (P->part[i].h) starpu_data_unregister(P->part[i].h);
    P->collected = 1;
}

size_t tila_partials_count(const tila_partials_t *P) { return P->nlocal; }
int tila_partials_first(const tila_partials_t *P, size_t i) { return P->part[i].first; }
int tila_partials_size(const tila_partials_t *P, size_t i) { return P->part[i].count; }

double tila_partials_entry(const tila_partials_t *P, size_t i, int e)
{
    const void *x = P->part[i].x;
    return P->eltsize == sizeof(float) ? ((const float *)x)[e] : ((const double *)x)[e];
}

void tila_partials_fold_max(const tila_partials_t *P, int64_t *key)
{
    for (size_t i = 0; i < P->nlocal; i++)
        for (int e = 0; e < P->part[i].count; e++)
            tila_key_max(&key[P->part[i].first + e], tila_partials_entry(P, i, e));
}

void tila_partials_destroy(tila_partials_t *P)
{
    if (!P) return;
    tila_partials_collect(P);
    for (size_t i = 0; i < P->nlocal; i++)
        if (P->part[i].h) free(P->part[i].x); /* a run's segments share its first's */
    free(P->part);
    free(P);
}

/* ---- Maxima at the wait ----------------------------------------------------------------- */

static int maxima_keys(tila_wait_hook_t *hook, int64_t *key)
{
    tila_partials_t *P = (tila_partials_t *)hook;
    tila_partials_collect(P);
    for (int j = 0; j < P->len; j++)
        tila_key_max(&key[j], 0);
    tila_partials_fold_max(P, key);
    return P->nomem ? TILA_ERR_NOMEM : TILA_SUCCESS;
}

static int maxima_write(tila_wait_hook_t *hook, int status, int run, const int64_t *key)
{
    tila_partials_t *P = (tila_partials_t *)hook;
    (void)status;
    for (int j = 0; run && P->maxima && j < P->len; j++)
        P->maxima[j] = tila_key_value(key[j]);
    tila_partials_destroy(P);
    return TILA_SUCCESS;
}

tila_partials_t *tila_partials_maxima(tila_sequence_t *seq, int len, int64_t max, size_t eltsize,
                                      double *maxima)
{
    tila_sequence_keys(seq, len);
    tila_partials_t *P = tila_partials_create(max, eltsize);
    if (P) P->len = len, P->maxima = maxima;
    return P;
}

void tila_partials_maxima_submitted(tila_partials_t *P, tila_sequence_t *seq)
{
    tila_partials_submitted(P);
    P->hook.nkeys = P->len;
    P->hook.keys = maxima_keys;
    P->hook.fn = maxima_write;
    tila_sequence_on_wait(seq, &P->hook);
}
