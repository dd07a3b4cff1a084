/**
 * @file pzlacon.c
 * @brief ScaLAPACK's pzlacon with its EST defined on entry, as ScaLAPACK fixed it after 2.2.
 *
 * PZLACON (the norm estimator behind p?porfs, p?pocon and the other condition estimates)
 * keeps its estimate in a saved ESTWORK that it reloads from EST at every entry, while it
 * sets EST only when it finishes: on the calls in between, ESTOLD is whatever the caller's
 * EST variable held, in p?porfs an uninitialised local.  Where that garbage differs from one
 * process to the next, the processes of a column disagree on "converged" and leave the
 * estimation loop at different calls, and the program hangs in its next collective.  Runs of
 * plain ScaLAPACK mostly leave the same garbage on every process; Tila's calls leave
 * different stacks (ScaLAPACK's own LLT tester hangs in pdporfs at 4 ranks without this).
 * Reference ScaLAPACK sets EST to zero on entry since its pull request 122 (2025); this
 * wrapper does the same in front of the real routine, so every process takes the same path.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "tila_scalapack.h"

/**
 * PZLACON( N, V, IV, JV, DESCV, X, IX, JX, DESCX, [ISGN,] EST, KASE ) (ISGN in the real
 * precisions), as ScaLAPACK defines it, with EST = 0 on entry.
 */
TILA_SL_EXPORT void pzlacon_(const int *n, tila_complex64_t *v, const int *iv, const int *jv,
                             const int *descv, tila_complex64_t *x, const int *ix, const int *jx,
                             const int *descx,
#ifndef COMPLEX
                             int *isgn,
#endif
                             double *est, int *kase)
{
    static tila_sl_routine_t routine = { .name = "PZLACON", .symbol = "pzlacon_" };
    typeof(pzlacon_) *real = tila_sl_real(&routine);
    *est = 0;
    real(n, v, iv, jv, descv, x, ix, jx, descx,
#ifndef COMPLEX
         isgn,
#endif
         est, kase);
}
