/**
 * @file codelet_zlan.c
 * @brief Workspace codelets of the norms: start a partial, combine partials, deliver
 * the norm to the caller's variable.  Tiny tasks on vectors of reals, CPU only.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core/core_z.h"

/* ---- Start of a chain --------------------------------------------------------------- */

struct zlan_init_args {
    tila_cl_base_t base;
    int len, nones;
};

static void zlan_init_cpu(void *buffers[], void *cl_arg)
{
    const struct zlan_init_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_core_zlan_init(a->len, a->nones, tila_cl_vector(buffers[0]));
}

struct starpu_codelet tila_cl_zlan_init = {
    .name = "zlan_init",
    .cpu_funcs = { zlan_init_cpu },
    .nbuffers = 1,
    .modes = { STARPU_W },
};

int tila_insert_zlan_init(const tila_task_t *t, int len, int nones, starpu_data_handle_t out)
{
    struct zlan_init_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a) *a = (struct zlan_init_args){ .base = a->base, .len = len, .nones = nones };
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlan_init, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_W, out,
                                TILA_TASK_OPTIONS(t, "zlan_init", 0), 0);
    return tila_task_submitted(t, rc);
}

/* ---- out = in (+) part -------------------------------------------------------------- */

struct zlan_combine_args {
    tila_cl_base_t base;
    tila_norm_t norm;
    int len, acclen;
};

static void zlan_combine_cpu(void *buffers[], void *cl_arg)
{
    const struct zlan_combine_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    const double *in = tila_cl_vector(buffers[1]);
    double *out = tila_cl_vector(buffers[2]);
    for (int k = 0; k < a->acclen; k++)
        out[k] = in[k];
    int info = tila_core_zlan_combine(a->norm, a->len, tila_cl_vector(buffers[0]), out);
    tila_cl_check(&a->base, "tila_core_zlan_combine", info, 0);
}

struct starpu_codelet tila_cl_zlan_combine = {
    .name = "zlan_combine",
    .cpu_funcs = { zlan_combine_cpu },
    .nbuffers = 3,
    .modes = { STARPU_R, STARPU_R, STARPU_W },
};

int tila_insert_zlan_combine(const tila_task_t *t, tila_norm_t norm, int len,
                             starpu_data_handle_t part, starpu_data_handle_t in,
                             starpu_data_handle_t out, int acclen)
{
    struct zlan_combine_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a)
        *a = (struct zlan_combine_args){
            .base = a->base, .norm = norm, .len = len, .acclen = acclen
        };
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlan_combine, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, part, STARPU_R, in, STARPU_W, out,
                                TILA_TASK_OPTIONS(t, "zlan_combine", len), 0);
    return tila_task_submitted(t, rc);
}

/* ---- *value = the norm -------------------------------------------------------------- */

struct zlan_result_args {
    tila_cl_base_t base;
    tila_norm_t norm;
    double *value; /**< the caller's variable on the rank that runs the task */
};

static void zlan_result_cpu(void *buffers[], void *cl_arg)
{
    const struct zlan_result_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    *a->value = tila_core_zlan_value(a->norm, tila_cl_vector(buffers[0]));
}

struct starpu_codelet tila_cl_zlan_result = {
    .name = "zlan_result",
    .cpu_funcs = { zlan_result_cpu },
    .nbuffers = 1,
    .modes = { STARPU_R },
};

int tila_insert_zlan_result(const tila_task_t *t, tila_norm_t norm, starpu_data_handle_t acc,
                            double *value)
{
    struct zlan_result_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a) *a = (struct zlan_result_args){ .base = a->base, .norm = norm, .value = value };
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlan_result, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, acc,
                                TILA_TASK_OPTIONS(t, "zlan_result", 0), 0);
    return tila_task_submitted(t, rc);
}
