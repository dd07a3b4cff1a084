/**
 * @file desc.c
 * @brief Distributed tile matrices: layout, distribution, registration with StarPU-MPI.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tila_runtime.h"

size_t tila_prec_size(tila_prec_t prec)
{
    static const size_t size[] = { 4, 8, 8, 16 };
    return (unsigned)prec <= TILA_COMPLEX64 ? size[prec] : 0;
}

/* 2D block-cyclic over a row-major P x Q grid (BLACS's default order). */
static int tila_desc_rank_2dbc(const tila_desc_t *A, int m, int n)
{
    return (m % A->p) * A->q + n % A->q;
}

/* Default device level: tiles cycled over the node's GPUs by local tile column. */
static int tila_desc_device_default(const tila_desc_t *A, int m, int n, int ndev)
{
    (void)m;
    return (A->q ? n / A->q : n) % ndev;
}

static void tila_desc_free_layout(tila_desc_t **A)
{
    free((*A)->owner);
    free((*A)->device);
    free((*A)->handles);
    free(*A);
    *A = NULL;
}

/* Most square P x Q with P <= Q and P * Q = size. */
static void tila_default_grid(int size, int *p, int *q)
{
    int r = (int)sqrt((double)size);
    while (r > 1 && size % r)
        r--;
    *p = r;
    *q = size / r;
}

/* Owner and device of every tile; checks the user's mapping answers. */
static int tila_desc_place(const char *func, tila_desc_t *A, int pos_dist)
{
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++) {
            size_t k = (size_t)n * A->mt + m;
            int r = A->rank_of ? A->rank_of(m, n, A->rank_arg) : tila_desc_rank_2dbc(A, m, n);
            if (r < 0 || r >= tila_rt.size) {
                tila_error(func,
                           "the rank mapping gives rank %d to tile (%d, %d), "
                           "outside [0, %d)",
                           r, m, n, tila_rt.size);
                return -pos_dist;
            }
            A->owner[k] = r;
            A->device[k] = -1;
            if (r != tila_rt.rank || tila_rt.ncuda == 0) continue;
            int d = A->device_of ? A->device_of(m, n, tila_rt.ncuda, A->device_arg)
                                 : tila_desc_device_default(A, m, n, tila_rt.ncuda);
            A->device[k] = d >= 0 && d < tila_rt.ncuda ? d : -1;
        }
    return TILA_SUCCESS;
}

/*
 * Everything but storage and registration.  Returns 0 or -i, where m is argument
 * pos_m of the public function, followed by n, mb, nb and dist.
 */
static int tila_desc_alloc(const char *func, tila_desc_t **out, tila_prec_t prec, int m, int n,
                           int mb, int nb, const tila_dist_t *dist, int pos_m)
{
    int rc = tila_check_init(func);
    if (rc) return rc;
    if (!out) {
        tila_error(func, "A is NULL");
        return -1;
    }
    *out = NULL;
    if (tila_prec_size(prec) == 0) {
        tila_error(func, "illegal precision %d", (int)prec);
        return -2;
    }
    if (m < 0) {
        tila_error(func, "m = %d < 0", m);
        return -pos_m;
    }
    if (n < 0) {
        tila_error(func, "n = %d < 0", n);
        return -(pos_m + 1);
    }
    if (mb <= 0) {
        tila_error(func, "mb = %d <= 0", mb);
        return -(pos_m + 2);
    }
    if (nb <= 0) {
        tila_error(func, "nb = %d <= 0", nb);
        return -(pos_m + 3);
    }
    tila_dist_t d = dist ? *dist : (tila_dist_t){ 0 };
    if (!d.rank_of) {
        if (d.p == 0 && d.q == 0) tila_default_grid(tila_rt.size, &d.p, &d.q);
        if (d.p <= 0 || d.q <= 0 || d.p * d.q != tila_rt.size) {
            tila_error(func,
                       "grid P x Q = %d x %d does not match the %d MPI rank(s): "
                       "choose P * Q = %d (or run mpirun -np %d)",
                       d.p, d.q, tila_rt.size, tila_rt.size, d.p > 0 && d.q > 0 ? d.p * d.q : 1);
            return TILA_ERR_GRID;
        }
    }
    tila_desc_t *A = calloc(1, sizeof *A);
    if (!A) return TILA_ERR_NOMEM;
    A->prec = prec;
    A->eltsize = tila_prec_size(prec);
    A->m = m;
    A->n = n;
    A->mb = mb;
    A->nb = nb;
    A->mt = (m + mb - 1) / mb;
    A->nt = (n + nb - 1) / nb;
    A->p = d.rank_of ? 0 : d.p;
    A->q = d.rank_of ? 0 : d.q;
    A->rank_of = d.rank_of;
    A->rank_arg = d.rank_arg;
    A->device_of = d.device_of;
    A->device_arg = d.device_arg;
    size_t ntiles = (size_t)A->mt * A->nt;
    A->owner = malloc(sizeof(int) * (ntiles ? ntiles : 1));
    A->device = malloc(sizeof(int) * (ntiles ? ntiles : 1));
    A->handles = calloc(ntiles ? ntiles : 1, sizeof(starpu_data_handle_t));
    if (!A->owner || !A->device || !A->handles) {
        rc = TILA_ERR_NOMEM;
        goto fail;
    }
    rc = tila_desc_place(func, A, pos_m + 4);
    if (rc) goto fail;
    *out = A;
    return TILA_SUCCESS;
fail:
    tila_desc_free_layout(&A);
    return rc;
}

/*
 * Register every tile: the ones this rank owns at `ptr(m, n)` with leading dimension
 * `ld(m)`, the others as placeholders (home node -1) for StarPU-MPI to fill.
 */
typedef void *(*tila_tile_ptr_fn)(const tila_desc_t *A, int m, int n, void *base, int ld,
                                  int *tile_ld, size_t *cursor);

static void tila_desc_register(tila_desc_t *A, tila_tile_ptr_fn tile_ptr, void *base, int ld)
{
    size_t cursor = 0;
    /* Every rank creates descriptors in the same order, so tag ranges agree. */
    A->tag_base = tila_rt.next_tag;
    tila_rt.next_tag += (int64_t)A->mt * A->nt;
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++) {
            size_t k = (size_t)n * A->mt + m;
            int rows = tila_tile_rows(A, m), cols = tila_tile_cols(A, n);
            if (A->owner[k] == tila_rt.rank) {
                int tld;
                void *ptr = tile_ptr(A, m, n, base, ld, &tld, &cursor);
                starpu_matrix_data_register(&A->handles[k], STARPU_MAIN_RAM, (uintptr_t)ptr,
                                            (uint32_t)tld, (uint32_t)rows, (uint32_t)cols,
                                            A->eltsize);
            }
            else {
                starpu_matrix_data_register(&A->handles[k], -1, 0, (uint32_t)rows, (uint32_t)rows,
                                            (uint32_t)cols, A->eltsize);
            }
            starpu_mpi_data_register(A->handles[k], A->tag_base + (int64_t)k, A->owner[k]);
        }
}

/*
 * Tila's own storage: this rank's tiles one after the other in the order they are
 * registered (column-major over tiles), each contiguous; *cursor counts elements.
 */
static void *tila_tile_ptr_packed(const tila_desc_t *A, int m, int n, void *base, int ld,
                                  int *tile_ld, size_t *cursor)
{
    (void)ld;
    void *ptr = (char *)base + *cursor * A->eltsize;
    *tile_ld = tila_tile_rows(A, m);
    *cursor += (size_t)tila_tile_rows(A, m) * tila_tile_cols(A, n);
    return ptr;
}

/* The caller's full column-major matrix. */
static void *tila_tile_ptr_lapack(const tila_desc_t *A, int m, int n, void *base, int ld,
                                  int *tile_ld, size_t *cursor)
{
    (void)cursor;
    *tile_ld = ld;
    return (char *)base + ((size_t)n * A->nb * ld + (size_t)m * A->mb) * A->eltsize;
}

/* A ScaLAPACK local array: tile (m, n) is the (m / p, n / q)-th local block. */
static void *tila_tile_ptr_scalapack(const tila_desc_t *A, int m, int n, void *base, int ld,
                                     int *tile_ld, size_t *cursor)
{
    (void)cursor;
    *tile_ld = ld;
    return (char *)base +
           ((size_t)(n / A->q) * A->nb * ld + (size_t)(m / A->p) * A->mb) * A->eltsize;
}

int tila_desc_create(tila_desc_t **A, tila_prec_t prec, int m, int n, int mb, int nb,
                     const tila_dist_t *dist)
{
    int rc = tila_desc_alloc("tila_desc_create", A, prec, m, n, mb, nb, dist, 3);
    if (rc) return rc;
    tila_desc_t *d = *A;
    size_t elems = 0;
    for (int j = 0; j < d->nt; j++)
        for (int i = 0; i < d->mt; i++)
            if (d->owner[(size_t)j * d->mt + i] == tila_rt.rank)
                elems += (size_t)tila_tile_rows(d, i) * tila_tile_cols(d, j);
    if (elems > 0) {
        d->storage_size = elems * d->eltsize;
        if (starpu_malloc_flags(&d->storage, d->storage_size, STARPU_MALLOC_PINNED) != 0) {
            tila_error("tila_desc_create", "cannot allocate %zu bytes for the local tiles",
                       d->storage_size);
            tila_desc_free_layout(A);
            return TILA_ERR_NOMEM;
        }
    }
    tila_desc_register(d, tila_tile_ptr_packed, d->storage, 0);
    return TILA_SUCCESS;
}

/* Does this rank own a tile of A? */
static int tila_desc_owns_any(const tila_desc_t *A)
{
    for (size_t k = 0; k < (size_t)A->mt * A->nt; k++)
        if (A->owner[k] == tila_rt.rank) return 1;
    return 0;
}

/* Checks of the wrappers' array; on failure frees the descriptor. */
static int tila_desc_check_array(const char *func, tila_desc_t **A, const void *a, int lda,
                                 int lda_min)
{
    int rc = 0;
    if (!a && tila_desc_owns_any(*A)) {
        tila_error(func, "a is NULL but this rank owns tiles");
        rc = -3;
    }
    else if (lda < (lda_min > 1 ? lda_min : 1)) {
        tila_error(func, "lda = %d < max(1, %d)", lda, lda_min);
        rc = -4;
    }
    /* Each rank checks its own array; all must agree to go on together. */
    int mrc = tila_allreduce(&rc, 1, MPI_INT, MPI_MIN);
    rc = rc ? rc : mrc;
    if (rc) tila_desc_free_layout(A);
    return rc;
}

int tila_desc_create_lapack(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int m, int n,
                            int mb, int nb, const tila_dist_t *dist)
{
    static const char *func = "tila_desc_create_lapack";
    int rc = tila_desc_alloc(func, A, prec, m, n, mb, nb, dist, 5);
    if (rc) return rc;
    rc = tila_desc_check_array(func, A, a, lda, m);
    if (rc) return rc;
    tila_desc_register(*A, tila_tile_ptr_lapack, a, lda);
    return TILA_SUCCESS;
}

int tila_desc_create_scalapack(tila_desc_t **A, tila_prec_t prec, void *a, int lld, int m, int n,
                               int mb, int nb, int p, int q)
{
    static const char *func = "tila_desc_create_scalapack";
    tila_dist_t dist = { .p = p, .q = q };
    if (p <= 0 || q <= 0) {
        tila_error(func, "grid %d x %d: p and q must be positive", p, q);
        return TILA_ERR_GRID;
    }
    int rc = tila_desc_alloc(func, A, prec, m, n, mb, nb, &dist, 5);
    if (rc) return rc;
    /* Local rows of this rank: full blocks of its grid row, plus a partial one. */
    int prow = tila_rt.rank / q, mloc = 0;
    for (int i = prow; i < (*A)->mt; i += p)
        mloc += tila_tile_rows(*A, i);
    rc = tila_desc_check_array(func, A, a, lld, mloc);
    if (rc) return rc;
    tila_desc_register(*A, tila_tile_ptr_scalapack, a, lld);
    return TILA_SUCCESS;
}

int tila_desc_destroy(tila_desc_t **A)
{
    if (!A || !*A) return TILA_SUCCESS;
    tila_desc_t *d = *A;
    /* Unregistering waits for the tasks using each tile and brings owned tiles home. */
    for (size_t k = 0; k < (size_t)d->mt * d->nt; k++)
        if (d->handles[k]) starpu_data_unregister(d->handles[k]);
    if (d->storage) starpu_free_flags(d->storage, d->storage_size, STARPU_MALLOC_PINNED);
    tila_desc_free_layout(A);
    return TILA_SUCCESS;
}

int tila_desc_m(const tila_desc_t *A) { return A->m; }
int tila_desc_n(const tila_desc_t *A) { return A->n; }
int tila_desc_mb(const tila_desc_t *A) { return A->mb; }
int tila_desc_nb(const tila_desc_t *A) { return A->nb; }
int tila_desc_mt(const tila_desc_t *A) { return A->mt; }
int tila_desc_nt(const tila_desc_t *A) { return A->nt; }
tila_prec_t tila_desc_prec(const tila_desc_t *A) { return A->prec; }

static int tila_desc_in(const tila_desc_t *A, int m, int n)
{
    return A && m >= 0 && m < A->mt && n >= 0 && n < A->nt;
}

int tila_desc_tile_rank(const tila_desc_t *A, int m, int n)
{
    return tila_desc_in(A, m, n) ? A->owner[(size_t)n * A->mt + m] : -1;
}

int tila_desc_tile_device(const tila_desc_t *A, int m, int n)
{
    return tila_desc_in(A, m, n) ? A->device[(size_t)n * A->mt + m] : -1;
}

starpu_data_handle_t tila_desc_tile_handle(const tila_desc_t *A, int m, int n)
{
    return tila_desc_in(A, m, n) ? tila_tile(A, m, n) : NULL;
}
