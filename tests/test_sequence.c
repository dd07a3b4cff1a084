/**
 * @file test_sequence.c
 * @brief Sequences: waiting for one group of tasks only; async calls chained in one.
 *
 * What it proves: tila_sequence_wait returns while a user's unrelated task is still
 * running (the user's task spins until the main thread, after the wait, releases
 * it: a global wait would never return), and several async calls submitted into one
 * sequence, then waited on once, give the same result as the synchronous calls.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tila_test.h"

static int released;

/* Spins until released (or 30 s); records whether it was released. */
static void spin_cpu(void *buffers[], void *arg)
{
    (void)buffers;
    int *was_released = arg;
    for (int i = 0; i < 30000 && !__atomic_load_n(&released, __ATOMIC_ACQUIRE); i++)
        usleep(1000);
    *was_released = __atomic_load_n(&released, __ATOMIC_ACQUIRE);
}

static struct starpu_codelet spin_cl = {
    .cpu_funcs = { spin_cpu },
    .nbuffers = 0,
    .name = "user_spin",
};

static void wait_is_local(void)
{
    int workers = (int)starpu_cpu_worker_get_count(), min;
    MPI_Allreduce(&workers, &min, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (min < 2) {
        tila_test_report("SKIP", "sequence", '-', 0,
                         "wait-with-unrelated-task-running "
                         "(needs 2 CPU workers per rank, have %d)",
                         min);
        return;
    }
    int was_released = -1;
    __atomic_store_n(&released, 0, __ATOMIC_RELEASE);
    struct starpu_task *task = starpu_task_create();
    task->cl = &spin_cl;
    task->cl_arg = &was_released;
    task->detach = 0;
    if (starpu_task_submit(task) != 0) {
        tila_test_report("FAIL", "sequence", '-', 0, "cannot submit the user's task");
        return;
    }

    tila_desc_t *A;
    tila_sequence_t *seq;
    tila_request_t req = TILA_REQUEST_INITIALIZER;
    tila_test_desc_create(&A, TILA_REAL64, 40, 40, 8, 8, NULL);
    tila_sequence_create(&seq);
    int rc = tila_dplrnt_async(A, 7, seq, &req);
    int status = tila_sequence_wait(seq);
    int still_running = !__atomic_load_n(&released, __ATOMIC_ACQUIRE) && was_released == -1;
    __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
    int waited = starpu_task_wait(task);
    tila_sequence_destroy(&seq);
    tila_desc_destroy(&A);
    int ok = waited == 0 && rc == 0 && status == 0 && req.status == 0 && still_running &&
             was_released == 1,
        all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    tila_test_check(all, "sequence", '-', 0, "wait returns while an unrelated task runs");
}

/* plrnt, plrnt, gemm in one sequence vs the same three synchronous calls. */
static void chained(void)
{
    tila_desc_t *A, *B, *C, *D;
    tila_sequence_t *seq;
    tila_request_t r[3] = { TILA_REQUEST_INITIALIZER, TILA_REQUEST_INITIALIZER,
                            TILA_REQUEST_INITIALIZER };
    const int n = 30, nb = 7;
    tila_test_desc_create(&A, TILA_REAL64, n, n, nb, nb, NULL);
    tila_test_desc_create(&B, TILA_REAL64, n, n, nb, nb, NULL);
    tila_test_desc_create(&C, TILA_REAL64, n, n, nb, nb, NULL);
    tila_test_desc_create(&D, TILA_REAL64, n, n, nb, nb, NULL);
    tila_sequence_create(&seq);
    int rc = tila_dplrnt_async(A, 1, seq, &r[0]);
    rc |= tila_dplrnt_async(B, 2, seq, &r[1]);
    rc |= tila_dgemm_async(TILA_NOTRANS, TILA_TRANS, 1, A, B, 0, C, seq, &r[2]);
    int status = tila_sequence_wait(seq);
    tila_sequence_destroy(&seq);
    tila_dplrnt(A, 1);
    tila_dplrnt(B, 2);
    tila_dgemm(TILA_NOTRANS, TILA_TRANS, 1, A, B, 0, D);
    double *c = malloc(sizeof(double) * n * n), *d = malloc(sizeof(double) * n * n);
    tila_desc_gather(C, 0, c, n);
    tila_desc_gather(D, 0, d, n);
    int ok = rc == 0 && status == 0 && r[0].status == 0 && r[2].status == 0;
    if (tila_comm_rank() == 0) ok &= !memcmp(c, d, sizeof(double) * n * n);
    tila_test_check(ok, "sequence", '-', 0, "plrnt+plrnt+gemm in one sequence = sync calls");
    free(c);
    free(d);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&C);
    tila_desc_destroy(&D);
}

/*
 * Norms beside a failing call: the norms' first keys cross in the allreduce that agrees on
 * the status, so a sequence whose potrf fails (a negative diagonal: info 1) must still
 * agree on info, leave the norms' values alone and release them; so must a sequence
 * destroyed without a wait; the next norm is then the one a sequence of its own gives.
 */
static void norms_beside_failure(void)
{
    tila_desc_t *A, *B;
    tila_sequence_t *seq;
    tila_request_t r[3] = { TILA_REQUEST_INITIALIZER, TILA_REQUEST_INITIALIZER,
                            TILA_REQUEST_INITIALIZER };
    tila_test_desc_create(&A, TILA_REAL64, 20, 20, 6, 6, NULL);
    tila_test_desc_create(&B, TILA_REAL64, 23, 17, 6, 6, NULL);
    tila_dlaset(TILA_GENERAL, 0, -1, A);
    tila_dplrnt(B, 3);
    double want[2], v[2] = { -1, -1 }, after[2];
    int rc = tila_dlange(TILA_NORM_ONE, B, &want[0]) | tila_dlange(TILA_NORM_FRO, B, &want[1]);
    tila_sequence_create(&seq);
    rc |= tila_dpotrf_async(TILA_LOWER, A, seq, &r[0]);
    rc |= tila_dlange_async(TILA_NORM_ONE, B, &v[0], seq, &r[1]);
    rc |= tila_dlange_async(TILA_NORM_FRO, B, &v[1], seq, &r[2]);
    int status = tila_sequence_wait(seq);
    tila_sequence_destroy(&seq);
    tila_sequence_create(&seq);
    rc |= tila_dlange_async(TILA_NORM_ONE, B, &after[0], seq, &r[1]);
    tila_sequence_destroy(&seq);
    rc |= tila_dlange(TILA_NORM_ONE, B, &after[0]) | tila_dlange(TILA_NORM_FRO, B, &after[1]);
    int ok = rc == 0 && status == 1 && r[0].status == 1 && v[0] == -1 && v[1] == -1 &&
             after[0] == want[0] && after[1] == want[1] && want[0] > 0,
        all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    tila_test_check(all, "sequence", '-', 0,
                    "norms beside a failing potrf, and destroyed without a wait (info %d)", status);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
}

void tila_test_sequence(const tila_test_opts_t *o)
{
    (void)o;
    wait_is_local();
    chained();
    norms_beside_failure();
}
