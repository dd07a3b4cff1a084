/**
 * @file zlarft.c
 * @brief The PANEL scheme's T from reflectors and scalar factors that LAPACK's ?geqrf (or
 *        ScaLAPACK's p?geqrf) left: so that tila_zunmqr, ungqr and gels apply their Q.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>

#include "drivers_z.h"

int tila_zlarft_async(tila_desc_t *A, const tila_complex64_t *tau, tila_desc_t *T,
                      tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zlarft";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_desc(func, 1, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_square_tiles(func, 1, "the tiled QR", A))) return rc;
    if ((rc = tila_check_qr_t(func, 3, A, T))) return rc;
    if (!tila_qr_panel_layout(T)) {
        tila_error(func, "argument 3 (T) is not of the PANEL scheme: create it with "
                         "tila_desc_create_qr_t(&T, A, ib, TILA_QR_TREE_PANEL)");
        return -3;
    }
    int kt = A->mt < A->nt ? A->mt : A->nt;
    if (kt > 0 && !tau) {
        tila_error(func, "argument 2 (tau) is NULL");
        return -2;
    }
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    tila_call_begin(seq, req);
    if (kt == 0) return 0;
    starpu_data_handle_t *col = tila_malloc(TILA_ALLOC_WORK, sizeof *col * (size_t)A->mt), work;
    if ((rc = tila_submit_agree(col ? 0 : TILA_ERR_NOMEM))) {
        free(col);
        return rc;
    }
    tila_scratch_register(&work, tila_zlarft_col_scratch(A->m, A->nb, A->mt), T->eltsize);
    tila_task_t t = tila_task_init(seq, req, 0);
    for (int k = 0; k < kt && !rc; k++) {
        tila_task_on(&t, A, k, k);
        for (int i = k; i < A->mt; i++)
            col[i - k] = tila_task_tile(&t, A, i, k);
        rc = tila_insert_zlarft_col(&t, A->m - A->row0[k], tila_zqr_col_k(A, k), A->mt - k, col,
                                    tau + A->col0[k], tila_task_tile(&t, T, 0, k), work);
    }
    tila_scratch_release(&work);
    free(col);
    return rc;
}

/**
 * The PANEL-scheme T of LAPACK's reflectors: see include/tila_z.h.
 */
int tila_zlarft(tila_desc_t *A, const tila_complex64_t *tau, tila_desc_t *T)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zlarft", &s);
    return rc ? rc : tila_sync_end(&s, tila_zlarft_async(A, tau, T, s.seq, &s.req));
}
