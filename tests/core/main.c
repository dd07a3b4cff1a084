/**
 * @file main.c
 * @brief tila-kernel-tests: the CPU tile kernels against LAPACKE and CBLAS, no StarPU, no MPI.
 *
 * Usage: tila-kernel-tests [SUITE ...] [--prec sdcz] [--seed S]
 * Runs the named suites (all by default) in the named precisions.  One line per
 * configuration, "PASS|FAIL|SKIP core_<kernel> <p> <details> error=<x>", then "N passed,
 * N failed, N skipped".  Exit 0 when nothing failed, 1 otherwise, 2 for a bad command
 * line, 77 when nothing ran.  An unknown argument prints the list of suites.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "kernel_test.h"
#include "kerneltests_s.h"
#include "kerneltests_d.h"
#include "kerneltests_c.h"
#include "kerneltests_z.h"
#include "kerneltests_ds.h"
#include "kerneltests_zc.h"

/* A kernel whose name is the same in every precision, and one whose real-arithmetic name
 * differs (herk -> syrk, unmqr -> ormqr, plghe -> plgsy: the generator renames them). */
#define SUITE2(name, real)                                                                         \
    {                                                                                              \
#name,                                                                                     \
        {                                                                                          \
            tila_test_s##real##_core, tila_test_d##real##_core, tila_test_c##name##_core,          \
                tila_test_z##name##_core                                                           \
        }                                                                                          \
    }
#define SUITE(name) SUITE2(name, name)

static const kernel_suite_t suites[] = {
    SUITE(gemm),
    SUITE(gemm2),
    SUITE(lacpy),
    SUITE(laset),
    SUITE(lascal),
    SUITE(geadd),
    SUITE(plrnt),
    SUITE2(plghe, plgsy),
    SUITE(potrf),
    SUITE(trsm),
    SUITE(trmm),
    SUITE2(herk, syrk),
    SUITE2(hemm, symm),
    SUITE(colamax),
    SUITE(trtri),
    SUITE(trsm_inv),
    /* between precisions: d with s, z with c */
    { "lag2c", { NULL, tila_test_dlag2s_core, NULL, tila_test_zlag2c_core } },
    { "gemm_lp", { NULL, tila_test_dsgemm_lp_core, NULL, tila_test_zcgemm_lp_core } },
    /* QR */
    SUITE(geqrt),
    SUITE(geqrt_col),
    SUITE(cholqr_col),
    SUITE(larft_col),
    SUITE2(unmqr, ormqr),
    SUITE(tpqrt),
    SUITE(tpmqrt),
    /* lange, lantr, lansy, lanhe, lansy_offdiag, lan_init/combine/value */
    SUITE(lange),
};

int main(int argc, char **argv)
{
    return kernel_test_main(argc, argv, suites, (int)(sizeof suites / sizeof suites[0]));
}
