/**
 * @file tests_zc.h
 * @brief Test suites of the mixed-precision routines, double complex with single complex.
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_ZC_H
#define TESTS_ZC_H

#include "tila_test.h"

void tila_test_zcposv(const tila_test_opts_t *opts);

#endif /* TESTS_ZC_H */
