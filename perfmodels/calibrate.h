/**
 * @file calibrate.h
 * @brief tila-calibrate: workloads that run every codelet on one tile size.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CALIBRATE_H
#define CALIBRATE_H

#include "tila.h"

int tila_calibrate_sworkload(int nb, unsigned long long seed);
int tila_calibrate_dworkload(int nb, unsigned long long seed);
int tila_calibrate_cworkload(int nb, unsigned long long seed);
int tila_calibrate_zworkload(int nb, unsigned long long seed);

#endif /* CALIBRATE_H */
