/**
 * @file desc.c
 * @brief Distributed tile matrices: layout, distribution, registration with StarPU-MPI.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tila_runtime_private.h"

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
    free((*A)->row0);
    free((*A)->col0);
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
            A->device[k] = (d >= 0 && d < tila_rt.ncuda) || d == TILA_DEVICE_CPU ? d : -1;
        }
    return TILA_SUCCESS;
}

/*
 * One dimension's tiling as the caller gave it: `len` elements in tiles of `size`, the first
 * one starting `off` elements into a tile (size - off long) and the last one partial; or
 * `count` tiles of sizes[0 .. count - 1]; or `count` tiles from another descriptor's
 * `period` tiles, boundaries bounds[0 .. period], over and over.
 */
typedef struct tila_axis_s {
    int len, size, off;
    int count;
    int given;         /**< sizes or bounds given (count tiles), else uniform (len, size) */
    const int *sizes;  /**< given sizes, or NULL */
    const int *bounds; /**< given boundaries, or NULL */
    int period;        /**< with bounds: their tiles, repeated up to count */
} tila_axis_t;

/* Tile i's size (i < the axis's count); `at` the elements before it. */
static int64_t tila_axis_tile(const tila_axis_t *ax, int i, int64_t at)
{
    if (ax->bounds) return (int64_t)ax->bounds[i % ax->period + 1] - ax->bounds[i % ax->period];
    if (ax->given) return ax->sizes[i];
    int64_t full = i == 0 ? ax->size - ax->off : ax->size;
    return ax->len - at < full ? ax->len - at : full;
}

/* Checks the axis (its length at argument pos, its tile sizes at pos + 2 for a uniform
 * tiling, pos + 1 otherwise) and counts its tiles, allocating nothing. */
static int tila_axis_check(const char *func, const char *name, const tila_axis_t *ax, int pos,
                           int *count)
{
    if (!ax->given) {
        if (ax->len < 0) {
            tila_error(func, "%c = %d < 0", name[0], ax->len);
            return -pos;
        }
        if (ax->size <= 0) {
            tila_error(func, "%s = %d <= 0", name, ax->size);
            return -(pos + 2);
        }
        *count = ax->len ? (int)(((int64_t)ax->len + ax->off + ax->size - 1) / ax->size) : 0;
        return TILA_SUCCESS;
    }
    if (ax->count < 0) {
        tila_error(func, "%ct = %d < 0", name[0], ax->count);
        return -pos;
    }
    if (ax->count > 0 && !ax->sizes && !ax->bounds) {
        tila_error(func, "%s is NULL", name);
        return -(pos + 1);
    }
    int64_t at = 0;
    for (int i = 0; i < ax->count; i++) {
        int64_t sz = tila_axis_tile(ax, i, at);
        if (sz < 1 || at + sz > INT32_MAX) {
            tila_error(
                func, sz < 1 ? "%s[%d] = %lld < 1" : "%s[%d] = %lld: the dimension passes 2^31 - 1",
                name, i, (long long)sz);
            return -(pos + 1);
        }
        at += sz;
    }
    *count = ax->count;
    return TILA_SUCCESS;
}

/* The boundaries of a checked axis of `count` tiles (NULL: out of memory), and its nominal
 * tile size: the uniform tiling's, no larger than the axis (what workspaces are sized by:
 * a tile size asked far past the matrix must not make them that large), or the largest
 * tile. */
static int *tila_axis_boundaries(const tila_axis_t *ax, int count, int *nominal)
{
    int *b = malloc(sizeof(int) * ((size_t)count + 1));
    if (!b) return NULL;
    int64_t at = 0;
    int largest = 0;
    b[0] = 0;
    for (int i = 0; i < count; i++) {
        int sz = (int)tila_axis_tile(ax, i, at);
        at += sz;
        b[i + 1] = (int)at;
        largest = sz > largest ? sz : largest;
    }
    if (ax->given)
        *nominal = largest ? largest : 1;
    else
        *nominal = ax->len > 0 && ax->len < ax->size ? ax->len : ax->size;
    return b;
}

/*
 * Everything but storage and registration.  Returns 0 or -i, where the rows' tiling is
 * argument pos_m of the public function (m, or mt and its sizes), followed by the columns'
 * and dist.
 */
static int tila_desc_alloc(const char *func, tila_desc_t **out, tila_prec_t prec,
                           const tila_axis_t *rows, const tila_axis_t *cols,
                           const tila_dist_t *dist, int pos_m)
{
    int rc = tila_check_init(func);
    if (rc) return rc;
    tila_resume(); /* every Tila call brings the workers back (after tila_pause) */
    tila_alloc_hook_arm();
    if (!out) {
        tila_error(func, "A is NULL");
        return -1;
    }
    *out = NULL;
    if (tila_prec_size(prec) == 0) {
        tila_error(func, "illegal precision %d", (int)prec);
        return -2;
    }
    /* A uniform tiling's arguments are m, n, mb, nb; a given one's mt, mbs, nt, nbs. */
    int pos_n = rows->given ? pos_m + 2 : pos_m + 1;
    int mt, nt, mb, nb;
    if (!rows->given && rows->len >= 0 && cols->len < 0) {
        /* m, n, then the tile sizes: the arguments' order. */
        tila_error(func, "n = %d < 0", cols->len);
        return -pos_n;
    }
    if ((rc = tila_axis_check(func, rows->given ? "mbs" : "mb", rows, pos_m, &mt))) return rc;
    if ((rc = tila_axis_check(func, cols->given ? "nbs" : "nb", cols, pos_n, &nt))) return rc;
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
    /* Every rank creates descriptors in the same order, and takes their tags here, before
     * anything that may fail on one rank only (memory): the tag ranges agree whatever
     * becomes of this one. */
    int64_t tag_base = tila_tag_book((int64_t)mt * nt);
    tila_desc_t *A = tila_calloc(TILA_ALLOC_DESC, 1, sizeof *A);
    if (!A) return TILA_ERR_NOMEM;
    A->row0 = tila_axis_boundaries(rows, mt, &mb);
    A->col0 = tila_axis_boundaries(cols, nt, &nb);
    if (!A->row0 || !A->col0) {
        tila_desc_free_layout(&A);
        return TILA_ERR_NOMEM;
    }
    /* StarPU 1.3 counts a matrix's elements in 32 bits (nx * ny in its sizes and
     * transfers): a larger tile would be silently cut. */
    if ((int64_t)mb * nb > (int64_t)UINT32_MAX) {
        tila_error(func,
                   "tiles of up to %d x %d = %lld elements: StarPU counts a tile's elements in "
                   "32 bits (at most %lu); choose smaller tiles",
                   mb, nb, (long long)mb * nb, (unsigned long)UINT32_MAX);
        tila_desc_free_layout(&A);
        return cols->given ? -(pos_n + 1) : -(pos_n + 2);
    }
    A->tag_base = tag_base;
    A->prec = prec;
    A->eltsize = tila_prec_size(prec);
    A->mt = mt;
    A->nt = nt;
    A->m = A->row0[mt];
    A->n = A->col0[nt];
    A->mb = mb;
    A->nb = nb;
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

static void tila_storage_free(void *p, size_t bytes);

/* FNV-1a over n ints, 32 bits at a time, from h. */
static uint64_t tila_hash_ints(uint64_t h, const int *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint32_t)v[i]) * 0x100000001b3ULL;
    return h;
}

/*
 * Creation is collective: every rank must make the same matrix, or the tags and messages of
 * every routine on it would stop matching.  One allreduce (64-bit maxima) settles it where
 * every rank has done what it does alone (its arguments, its memory, its array): the status
 * (a rank that failed fails the creation everywhere, the most negative code winning), the
 * next tag (the largest: a rank that stopped before taking this matrix's tags catches up),
 * and, where there is a layout, hashes of the precision, the tiling of each dimension and
 * the tiles' ranks, each with its negation, so that the maxima agree only when every rank's
 * hash is the same (a tiling computed from rank-local facts, as the hybrid balance is, would
 * otherwise give each rank another matrix).  The tile sizes' arguments (mb or mbs, nb or
 * nbs, after pos_m, the rows' first) and the distribution's (pos_m + 4) name a mismatch; a
 * rank without a layout (it failed) takes no part in the comparison.  On failure the
 * layout and storage are freed, *A is NULL on every rank.  Collective (nothing to exchange
 * on one rank).
 */
static int tila_desc_agree(const char *func, tila_desc_t **A, int rc, const tila_axis_t *rows,
                           const tila_axis_t *cols, int pos_m)
{
    enum { STATUS, TAG, HASH, NHASH = 4, NKEYS = HASH + 2 * NHASH };
    static const char *const what[NHASH] = { "precisions", "tilings of the rows",
                                             "tilings of the columns", "tiles' ranks" };
    /* The tile sizes' arguments: mbs and nbs, or mb and nb. */
    int pos_n = rows->given ? pos_m + 2 : pos_m + 1;
    const int pos[NHASH] = { 2, rows->given ? pos_m + 1 : pos_m + 2,
                             cols->given ? pos_n + 1 : pos_n + 2, pos_m + 4 };
    tila_desc_t *d = A ? *A : NULL;
    int64_t key[NKEYS] = { [STATUS] = -(int64_t)rc, [TAG] = tila_tag_next() };
    uint64_t h[NHASH] = { 0 };
    if (d) {
        const uint64_t basis = 0xcbf29ce484222325ULL;
        int prec = (int)d->prec, rowsz[2] = { d->mt, d->mb }, colsz[2] = { d->nt, d->nb };
        h[0] = tila_hash_ints(basis, &prec, 1);
        h[1] = tila_hash_ints(tila_hash_ints(basis, rowsz, 2), d->row0, (size_t)d->mt + 1);
        h[2] = tila_hash_ints(tila_hash_ints(basis, colsz, 2), d->col0, (size_t)d->nt + 1);
        h[3] = tila_hash_ints(basis, d->owner, (size_t)d->mt * d->nt);
    }
    for (int i = 0; i < NHASH; i++) {
        int64_t v = (int64_t)(h[i] >> 1);
        key[HASH + 2 * i] = d ? v : INT64_MIN;
        key[HASH + 2 * i + 1] = d ? -v : INT64_MIN;
    }
    int mpi = tila_rt.size > 1 ? tila_allreduce(key, NKEYS, MPI_INT64_T, MPI_MAX) : 0;
    if (mpi) {
        rc = rc ? rc : mpi;
    }
    else {
        tila_tag_agree(key[TAG]);
        rc = (int)-key[STATUS];
        for (int i = 0; i < NHASH && !rc; i++) {
            int64_t most = key[HASH + 2 * i], least = -key[HASH + 2 * i + 1];
            if (most == INT64_MIN || most == least) continue;
            tila_error(func,
                       "the ranks' %s differ (argument %d): every rank must create the same "
                       "matrix; a tiling or mapping computed from facts of its own rank (such as "
                       "tila_hybrid_balance_models's balance) must be agreed on first",
                       what[i], pos[i]);
            rc = -pos[i];
        }
    }
    if (rc && d) {
        if (d->storage) tila_storage_free(d->storage, d->storage_size);
        tila_desc_free_layout(A);
    }
    return rc;
}

/*
 * Where the tiles this rank owns are: Tila's own packed storage, the caller's column-major
 * matrix, or a ScaLAPACK local array.
 */
typedef struct tila_tile_src_s {
    void *base;
    int ld;
    size_t cursor; /**< packed: elements placed so far */
    int p, q;      /**< ScaLAPACK: the process grid */
    int bi, bj;    /**< ScaLAPACK: global block row and column of tile (0, 0) */
    int mb, nb;    /**< ScaLAPACK: the blocks' rows and columns */
    int oi, oj;    /**< ScaLAPACK: where tile (0, 0) starts in its block */
} tila_tile_src_t;

typedef void *(*tila_tile_ptr_fn)(const tila_desc_t *A, int m, int n, tila_tile_src_t *src,
                                  int *tile_ld);

/*
 * Register the tiles this rank owns, at `ptr(m, n)` with leading dimension `tile_ld`, or,
 * without `ptr`, with no home (node -1): StarPU allocates each where a task first writes
 * it (a workspace's, tila_desc_create_twin).  The
 * others get a placeholder (home node -1, for StarPU-MPI to fill) when a task this rank runs
 * first names them (tila_tile_placeholder, tila_task_tile): a rank names few of the tiles it
 * does not own (a norm, none), and a StarPU handle costs kilobytes (its replicate on every
 * memory node), so a 10^6 matrix in 1024-tiles would have cost every rank gigabytes.
 */
static void tila_desc_register(tila_desc_t *A, tila_tile_ptr_fn tile_ptr, tila_tile_src_t *src)
{
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++) {
            size_t k = (size_t)n * A->mt + m;
            if (A->owner[k] != tila_rt.rank) continue;
            int tld = tila_tile_rows(A, m);
            void *ptr = tile_ptr ? tile_ptr(A, m, n, src, &tld) : NULL;
            starpu_matrix_data_register(
                &A->handles[k], tile_ptr ? STARPU_MAIN_RAM : -1, (uintptr_t)ptr, (uint32_t)tld,
                (uint32_t)tila_tile_rows(A, m), (uint32_t)tila_tile_cols(A, n), A->eltsize);
            starpu_mpi_data_register_comm(A->handles[k], A->tag_base + (int64_t)k, A->owner[k],
                                          tila_starpu_comm());
        }
}

starpu_data_handle_t tila_tile_placeholder(const tila_desc_t *A, int m, int n)
{
    /* Threads submitting to the same descriptor register a tile once. */
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    size_t k = (size_t)n * A->mt + m;
    pthread_mutex_lock(&lock);
    starpu_data_handle_t h = A->handles[k];
    if (!h) {
        int rows = tila_tile_rows(A, m);
        starpu_matrix_data_register(&h, -1, 0, (uint32_t)rows, (uint32_t)rows,
                                    (uint32_t)tila_tile_cols(A, n), A->eltsize);
        starpu_mpi_data_register_comm(h, A->tag_base + (int64_t)k, A->owner[k], tila_starpu_comm());
        __atomic_store_n(&A->handles[k], h, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return h;
}

void tila_tile_flush(const tila_desc_t *A, int m, int n)
{
    /* A rank that never registered the tile has no copy of it and sent none. */
    starpu_data_handle_t h = tila_tile_registered(A, m, n);
    if (h) starpu_mpi_cache_flush(tila_starpu_comm(), h);
}

/*
 * Tila's own storage: this rank's tiles one after the other in the order they are
 * registered (column-major over tiles), each contiguous.
 */
static void *tila_tile_ptr_packed(const tila_desc_t *A, int m, int n, tila_tile_src_t *src,
                                  int *tile_ld)
{
    void *ptr = (char *)src->base + src->cursor * A->eltsize;
    *tile_ld = tila_tile_rows(A, m);
    src->cursor += (size_t)tila_tile_rows(A, m) * tila_tile_cols(A, n);
    return ptr;
}

/* The caller's full column-major matrix. */
static void *tila_tile_ptr_lapack(const tila_desc_t *A, int m, int n, tila_tile_src_t *src,
                                  int *tile_ld)
{
    *tile_ld = src->ld;
    return (char *)src->base + ((size_t)A->col0[n] * src->ld + (size_t)A->row0[m]) * A->eltsize;
}

/*
 * A ScaLAPACK local array: tile (m, n) is (part of) global block (bi + m, bj + n), the
 * ((bi + m) / p, (bj + n) / q)-th block of its owner's local array whatever the source
 * process (ScaLAPACK's INDXG2L); the first tile row and column start oi rows and oj
 * columns into theirs.
 */
static size_t tila_scalapack_local_row(const tila_tile_src_t *src, int m)
{
    return (size_t)((src->bi + m) / src->p) * src->mb + (m == 0 ? src->oi : 0);
}

static size_t tila_scalapack_local_col(const tila_tile_src_t *src, int n)
{
    return (size_t)((src->bj + n) / src->q) * src->nb + (n == 0 ? src->oj : 0);
}

static void *tila_tile_ptr_scalapack(const tila_desc_t *A, int m, int n, tila_tile_src_t *src,
                                     int *tile_ld)
{
    *tile_ld = src->ld;
    return (char *)src->base +
           (tila_scalapack_local_col(src, n) * src->ld + tila_scalapack_local_row(src, m)) *
               A->eltsize;
}

#ifdef STARPU_SIMGRID
#include <sys/mman.h>

/*
 * Under simulation no kernel touches a tile: the local tiles get address space that no
 * memory backs (MAP_NORESERVE, so not even Linux's overcommit heuristic counts it), which
 * a simulated rank of any size can have.  A folded allocation (StarPU's, SMPI's) is one
 * mapping of the whole size, refused past the machine's memory: n = 65536 on one rank here.
 */
static int tila_storage_alloc(void **p, size_t bytes)
{
    *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
              0);
    return *p == MAP_FAILED ? (*p = NULL, -1) : 0;
}

static void tila_storage_free(void *p, size_t bytes) { munmap(p, bytes); }
#else
/* The local tiles, in memory that CUDA copies from and to without staging. */
static int tila_storage_alloc(void **p, size_t bytes)
{
    return starpu_malloc_flags(p, bytes, STARPU_MALLOC_PINNED);
}

static void tila_storage_free(void *p, size_t bytes)
{
    starpu_free_flags(p, bytes, STARPU_MALLOC_PINNED);
}
#endif

/* Tila's own storage for the tiles this rank owns, registered; or, without `home`, no
 * storage: the tiles registered without a home (tila_desc_register). */
static int tila_desc_create_homed(const char *func, tila_desc_t **A, tila_prec_t prec,
                                  const tila_axis_t *rows, const tila_axis_t *cols,
                                  const tila_dist_t *dist, int home)
{
    int rc = tila_desc_alloc(func, A, prec, rows, cols, dist, 3);
    if (rc == TILA_ERR_NOT_INITIALIZED) return rc;
    tila_desc_t *d = rc || !home ? NULL : *A;
    size_t elems = 0;
    for (int j = 0; d && j < d->nt; j++)
        for (int i = 0; i < d->mt; i++)
            if (d->owner[(size_t)j * d->mt + i] == tila_rt.rank)
                elems += (size_t)tila_tile_rows(d, i) * tila_tile_cols(d, j);
    if (elems > 0) {
        size_t bytes = elems * d->eltsize;
        if (tila_alloc_fails(TILA_ALLOC_DESC) || tila_storage_alloc(&d->storage, bytes) != 0) {
            tila_error(func, "cannot allocate %zu bytes for the local tiles", bytes);
            d->storage = NULL;
            rc = TILA_ERR_NOMEM;
        }
        else {
            d->storage_size = bytes;
        }
    }
    if ((rc = tila_desc_agree(func, A, rc, rows, cols, 3))) return rc;
    tila_tile_src_t src = { .base = (*A)->storage };
    tila_desc_register(*A, home ? tila_tile_ptr_packed : NULL, &src);
    return TILA_SUCCESS;
}

static int tila_desc_create_axes(const char *func, tila_desc_t **A, tila_prec_t prec,
                                 const tila_axis_t *rows, const tila_axis_t *cols,
                                 const tila_dist_t *dist)
{
    return tila_desc_create_homed(func, A, prec, rows, cols, dist, 1);
}

int tila_desc_create(tila_desc_t **A, tila_prec_t prec, int m, int n, int mb, int nb,
                     const tila_dist_t *dist)
{
    tila_axis_t rows = { .len = m, .size = mb }, cols = { .len = n, .size = nb };
    return tila_desc_create_axes("tila_desc_create", A, prec, &rows, &cols, dist);
}

int tila_desc_create_nohome(tila_desc_t **A, tila_prec_t prec, int m, int n, int mb, int nb,
                            const tila_dist_t *dist)
{
    tila_axis_t rows = { .len = m, .size = mb }, cols = { .len = n, .size = nb };
    return tila_desc_create_homed("tila_desc_create_nohome", A, prec, &rows, &cols, dist, 0);
}

int tila_desc_create_tiled(tila_desc_t **A, tila_prec_t prec, int mt, const int *mbs, int nt,
                           const int *nbs, const tila_dist_t *dist)
{
    tila_axis_t rows = { .count = mt, .given = 1, .sizes = mbs },
                cols = { .count = nt, .given = 1, .sizes = nbs };
    return tila_desc_create_axes("tila_desc_create_tiled", A, prec, &rows, &cols, dist);
}

/* Does this rank own a tile of A? */
static int tila_desc_owns_any(const tila_desc_t *A)
{
    for (size_t k = 0; k < (size_t)A->mt * A->nt; k++)
        if (A->owner[k] == tila_rt.rank) return 1;
    return 0;
}

/* Checks of the wrappers' array: this rank's own (tila_desc_agree settles them on all). */
static int tila_desc_check_array(const char *func, const tila_desc_t *A, const void *a, int lda,
                                 int lda_min)
{
    if (!a && tila_desc_owns_any(A)) {
        tila_error(func, "a is NULL but this rank owns tiles");
        return -3;
    }
    if (lda < (lda_min > 1 ? lda_min : 1)) {
        tila_error(func, "lda = %d < max(1, %d)", lda, lda_min);
        return -4;
    }
    return TILA_SUCCESS;
}

/* The caller's column-major array, each tile this rank owns registered in place. */
static int tila_desc_create_lapack_axes(const char *func, tila_desc_t **A, tila_prec_t prec,
                                        void *a, int lda, const tila_axis_t *rows,
                                        const tila_axis_t *cols, const tila_dist_t *dist)
{
    int rc = tila_desc_alloc(func, A, prec, rows, cols, dist, 5);
    if (rc == TILA_ERR_NOT_INITIALIZED) return rc;
    if (!rc) rc = tila_desc_check_array(func, *A, a, lda, (*A)->m);
    if ((rc = tila_desc_agree(func, A, rc, rows, cols, 5))) return rc;
    tila_tile_src_t src = { .base = a, .ld = lda };
    tila_desc_register(*A, tila_tile_ptr_lapack, &src);
    return TILA_SUCCESS;
}

int tila_desc_create_lapack(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int m, int n,
                            int mb, int nb, const tila_dist_t *dist)
{
    tila_axis_t rows = { .len = m, .size = mb }, cols = { .len = n, .size = nb };
    return tila_desc_create_lapack_axes("tila_desc_create_lapack", A, prec, a, lda, &rows, &cols,
                                        dist);
}

int tila_desc_create_lapack_tiled(tila_desc_t **A, tila_prec_t prec, void *a, int lda, int mt,
                                  const int *mbs, int nt, const int *nbs, const tila_dist_t *dist)
{
    tila_axis_t rows = { .count = mt, .given = 1, .sizes = mbs },
                cols = { .count = nt, .given = 1, .sizes = nbs };
    return tila_desc_create_lapack_axes("tila_desc_create_lapack_tiled", A, prec, a, lda, &rows,
                                        &cols, dist);
}

/* `count` tiles of another descriptor's axis of `tiles` tiles (boundaries `bounds`), over
 * and over. */
static tila_axis_t tila_axis_like(const int *bounds, int tiles, int count)
{
    return (tila_axis_t){ .count = count, .given = 1, .bounds = bounds, .period = tiles };
}

int tila_desc_create_lapack_like(tila_desc_t **W, const tila_desc_t *A, void *a, int lda,
                                 const tila_dist_t *dist)
{
    tila_axis_t rows = tila_axis_like(A->row0, A->mt, A->mt),
                cols = tila_axis_like(A->col0, A->nt, A->nt);
    return tila_desc_create_lapack_axes("tila_desc_create_lapack", W, A->prec, a, lda, &rows, &cols,
                                        dist);
}

/* Tile (m, n) where A's tile (m, n mod A->nt) lives: its rank, its device. */
static int tila_like_rank(int m, int n, void *arg)
{
    const tila_desc_t *A = arg;
    return A->owner[(size_t)(n % A->nt) * A->mt + m];
}

static int tila_like_device(int m, int n, int ndevices, void *arg)
{
    const tila_desc_t *A = arg;
    (void)ndevices;
    return A->device[(size_t)(n % A->nt) * A->mt + m];
}

tila_dist_t tila_dist_like(const tila_desc_t *A)
{
    return (tila_dist_t){ .rank_of = tila_like_rank,
                          .rank_arg = (void *)A,
                          .device_of = tila_like_device,
                          .device_arg = (void *)A };
}

int tila_desc_create_twin(tila_desc_t **W, const tila_desc_t *A, tila_prec_t prec)
{
    tila_axis_t rows = tila_axis_like(A->row0, A->mt, A->mt),
                cols = tila_axis_like(A->col0, A->nt, A->nt);
    tila_dist_t dist = tila_dist_like(A);
    /* No storage: the tiles registered without a home (tila_desc_register). */
    int rc = tila_desc_alloc("tila_desc_create_twin", W, prec, &rows, &cols, &dist, 3);
    if (rc == TILA_ERR_NOT_INITIALIZED) return rc;
    rc = tila_desc_agree("tila_desc_create_twin", W, rc, &rows, &cols, 3);
    if (!rc) tila_desc_register(*W, NULL, NULL);
    return rc;
}

int tila_desc_create_qr_layout(tila_desc_t **T, const tila_desc_t *A, int mt, int mb, int times,
                               const tila_dist_t *dist)
{
    static const char *func = "tila_desc_create_qr_t";
    if ((int64_t)mt * mb > INT32_MAX || (int64_t)times * A->nt > INT32_MAX) {
        /* Every rank finds the same: A is the same matrix everywhere. */
        tila_error(func, "T would have %lld x %lld tiles of %d rows: past 2^31 - 1 rows or tiles",
                   (long long)mt, (long long)times * A->nt, mb);
        *T = NULL;
        return TILA_ERR_NOMEM;
    }
    tila_axis_t rows = { .len = mt * mb, .size = mb },
                cols = tila_axis_like(A->col0, A->nt, times * A->nt);
    return tila_desc_create_axes(func, T, A->prec, &rows, &cols, dist);
}

/* Owner of tile (m, n) of a ScaLAPACK submatrix (tila_desc_create_scalapack_sub). */
typedef struct tila_scalapack_map_s {
    const tila_scalapack_grid_t *grid;
    int bi, bj;
} tila_scalapack_map_t;

static int tila_scalapack_rank(int m, int n, void *arg)
{
    const tila_scalapack_map_t *map = arg;
    const tila_scalapack_grid_t *g = map->grid;
    int r = (g->rsrc + map->bi + m) % g->p, c = (g->csrc + map->bj + n) % g->q;
    return g->ranks ? g->ranks[r * g->q + c] : r * g->q + c;
}

/* Is `grid` a process grid over Tila's ranks, each rank once? */
static int tila_scalapack_grid_check(const char *func, const tila_scalapack_grid_t *g)
{
    if (!g || g->p <= 0 || g->q <= 0 || g->p * g->q != tila_rt.size) {
        tila_error(func, "the process grid %d x %d does not match the %d MPI rank(s)", g ? g->p : 0,
                   g ? g->q : 0, tila_rt.size);
        return TILA_ERR_GRID;
    }
    if (g->rsrc < 0 || g->rsrc >= g->p || g->csrc < 0 || g->csrc >= g->q) {
        tila_error(func, "source process (%d, %d) outside the %d x %d grid", g->rsrc, g->csrc, g->p,
                   g->q);
        return TILA_ERR_GRID;
    }
    if (!g->ranks) return TILA_SUCCESS;
    char *seen = calloc((size_t)tila_rt.size, 1);
    if (!seen) return TILA_ERR_NOMEM;
    int rc = TILA_SUCCESS;
    for (int k = 0; k < tila_rt.size && !rc; k++) {
        int r = g->ranks[k];
        if (r < 0 || r >= tila_rt.size || seen[r]++) {
            tila_error(func, "grid process %d has rank %d: every rank of [0, %d) must appear once",
                       k, r, tila_rt.size);
            rc = TILA_ERR_GRID;
        }
    }
    free(seen);
    return rc;
}

int tila_desc_create_scalapack_sub(tila_desc_t **A, tila_prec_t prec, void *a, int lld, int i0,
                                   int j0, int m, int n, int mb, int nb,
                                   const tila_scalapack_grid_t *grid)
{
    static const char *func = "tila_desc_create_scalapack_sub";
    int rc = tila_check_init(func);
    if (rc) return rc;
    tila_resume(); /* every Tila call brings the workers back (after tila_pause) */
    if (A) *A = NULL;
    rc = tila_scalapack_grid_check(func, grid);
    if (!rc && i0 < 0) {
        tila_error(func, "i0 = %d < 0", i0);
        rc = -5;
    }
    if (!rc && j0 < 0) {
        tila_error(func, "j0 = %d < 0", j0);
        rc = -6;
    }
    tila_scalapack_map_t map = { grid, mb > 0 ? i0 / mb : 0, nb > 0 ? j0 / nb : 0 };
    tila_dist_t dist = { .rank_of = tila_scalapack_rank, .rank_arg = &map };
    tila_axis_t rows = { .len = m, .size = mb, .off = mb > 0 && i0 > 0 ? i0 % mb : 0 },
                cols = { .len = n, .size = nb, .off = nb > 0 && j0 > 0 ? j0 % nb : 0 };
    if (!rc) rc = tila_desc_alloc(func, A, prec, &rows, &cols, &dist, 7);
    tila_tile_src_t src = { .base = a,
                            .ld = lld,
                            .p = grid ? grid->p : 1,
                            .q = grid ? grid->q : 1,
                            .bi = map.bi,
                            .bj = map.bj,
                            .mb = mb,
                            .nb = nb,
                            .oi = rows.off,
                            .oj = cols.off };
    if (!rc) {
        /* The local array must hold the rows of every block this rank owns. */
        tila_desc_t *d = *A;
        size_t need = 0;
        for (int n = 0; n < d->nt; n++)
            for (int m = 0; m < d->mt; m++)
                if (d->owner[(size_t)n * d->mt + m] == tila_rt.rank) {
                    size_t end = tila_scalapack_local_row(&src, m) + (size_t)tila_tile_rows(d, m);
                    need = end > need ? end : need;
                }
        rc = tila_desc_check_array(func, d, a, lld, need > INT32_MAX ? INT32_MAX : (int)need);
    }
    if ((rc = tila_desc_agree(func, A, rc, &rows, &cols, 7))) return rc;
    tila_desc_register(*A, tila_tile_ptr_scalapack, &src);
    return TILA_SUCCESS;
}

int tila_desc_create_scalapack(tila_desc_t **A, tila_prec_t prec, void *a, int lld, int m, int n,
                               int mb, int nb, int p, int q)
{
    tila_scalapack_grid_t grid = { .p = p, .q = q };
    int rc = tila_desc_create_scalapack_sub(A, prec, a, lld, 0, 0, m, n, mb, nb, &grid);
    /* Arguments 5 to 11 of the general form are 5 to 8 here (m n mb nb) and the grid. */
    return rc <= -7 && rc > -1000 ? rc + 2 : rc;
}

int tila_desc_destroy(tila_desc_t **A)
{
    if (!A || !*A) return TILA_SUCCESS;
    tila_desc_t *d = *A;
    if (d->held) {
        tila_error("tila_desc_destroy", "the matrix is in use by %s until its sequence's wait",
                   d->held);
        return -1;
    }
    if (tila_watch_stuck()) {
        /* tasks of a call that could not finish may hold its tiles for ever (watch.c):
         * each tile goes once they are done, its storage is left to the process */
        for (size_t k = 0; k < (size_t)d->mt * d->nt; k++)
            if (d->handles[k]) starpu_data_unregister_submit(d->handles[k]);
        tila_desc_free_layout(A);
        return TILA_ERR_STUCK;
    }
    tila_resume(); /* its tiles may wait on a worker to come home */
    /* Unregistering waits for the tasks using each tile and brings owned tiles home. */
    for (size_t k = 0; k < (size_t)d->mt * d->nt; k++)
        if (d->handles[k]) starpu_data_unregister(d->handles[k]);
    if (d->storage) tila_storage_free(d->storage, d->storage_size);
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

int tila_desc_tile_rows(const tila_desc_t *A, int m)
{
    return A && m >= 0 && m < A->mt ? tila_tile_rows(A, m) : -1;
}

int tila_desc_tile_cols(const tila_desc_t *A, int n)
{
    return A && n >= 0 && n < A->nt ? tila_tile_cols(A, n) : -1;
}

int tila_desc_tile_row0(const tila_desc_t *A, int m)
{
    return A && m >= 0 && m <= A->mt ? A->row0[m] : -1;
}

int tila_desc_tile_col0(const tila_desc_t *A, int n)
{
    return A && n >= 0 && n <= A->nt ? A->col0[n] : -1;
}

int tila_tiling_equal(int ta, const int *a, int tb, const int *b)
{
    return ta == tb && memcmp(a, b, sizeof(int) * ((size_t)ta + 1)) == 0;
}

int tila_tiling_diagonal(const tila_desc_t *A)
{
    int k = A->mt < A->nt ? A->mt : A->nt, d = A->m < A->n ? A->m : A->n;
    if (memcmp(A->row0, A->col0, sizeof(int) * (size_t)k)) return 0;
    /* Past the last diagonal tile's first row, the diagonal must end inside it. */
    int end_r = A->row0[k], end_c = A->col0[k];
    return (end_r < end_c ? end_r : end_c) >= d;
}

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
    return tila_desc_in(A, m, n) ? tila_tile_placeholder(A, m, n) : NULL;
}
