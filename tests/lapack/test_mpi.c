/**
 * @file test_mpi.c
 * @brief libtila_lapack linked in front of LAPACK, in a program that starts MPI itself at
 *        a level below MPI_THREAD_MULTIPLE and has work of its own between the calls.
 *
 * What it proves (one line each: PASS|FAIL lapack-mpi ...): under a program calling
 * MPI_Init_thread(MPI_THREAD_FUNNELED) (argument "funneled") or MPI_Init ("init"), Tila
 * starts and takes dpotrf and dlange (their path read back from the library,
 * tila_lapack_calls) with LAPACK's results (dpotrf within 30 n eps of LAPACK's, dlange
 * within n eps); MPI provides at least what the program asked for; the program's own
 * single-threaded work after Tila's calls runs beside Tila's threads taking at most a
 * hundredth of a core (its time against its time before Tila started reported, host_work.h);
 * the exit summary is printed (TILA_VERBOSE=1, checked by the script that runs it); the
 * program's own MPI_Test calls (a message to itself) are counted on stderr ("test-mpi:
 * MPI_Test N"), for a profiling tool loaded after the layer to see them all (the script).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE /* dladdr */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "../host_work.h"
#include "../real_routine.h"

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t len);
double dlange_(const char *norm, const int *m, const int *n, const double *a, const int *lda,
               double *work, size_t len);
/* libtila_lapack: calls of a routine that took a path so far (0: Tila). */
long tila_lapack_calls(const char *symbol, int path);

static int failures;

static void report(int ok, const char *what, double value)
{
    failures += !ok;
    printf("%s lapack-mpi %s %.3g\n", ok ? "PASS" : "FAIL", what, value);
    fflush(stdout);
}

static void *real(const char *symbol) { return real_lapack_routine("test_mpi", symbol); }

int main(int argc, char **argv)
{
    int funneled = argc > 1 && !strcmp(argv[1], "funneled"), provided = MPI_THREAD_SINGLE;
    if (funneled)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Query_thread(&provided);
    report(provided >= (funneled ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE),
           funneled ? "MPI_Init_thread(FUNNELED): provided level" : "MPI_Init: provided level",
           provided);
    setenv("TILA_LAPACK_MIN_N", "0", 1);

    long reps = host_reps();
    host_before_t before;
    host_before(reps, &before);

    int n = 300, lda = 301, info1, info2;
    double *a = malloc(sizeof(double) * lda * n), *b = malloc(sizeof(double) * lda * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++)
            a[j * lda + i] = i == j ? 2.0 * n : 0.5 * sin(0.37 * (i + j) + 0.11 * abs(i - j));
    memcpy(b, a, sizeof(double) * lda * n);
    double work[301];
    typeof(dlange_) *rlange = real("dlange_");
    typeof(dpotrf_) *rpotrf = real("dpotrf_");
    double t = dlange_("F", &n, &n, a, &lda, work, 1), r = rlange("F", &n, &n, a, &lda, work, 1);
    report(tila_lapack_calls("dlange_", 0) == 1 && fabs(t - r) <= n * DBL_EPSILON * r,
           "dlange F n=300 on Tila, relative error", fabs(t - r) / r);
    dpotrf_("L", &n, a, &lda, &info1, 1);
    rpotrf("L", &n, b, &lda, &info2, 1);
    double e = 0, big = 0;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            e = fmax(e, fabs(a[j * lda + i] - b[j * lda + i]));
            big = fmax(big, fabs(b[j * lda + i]));
        }
    report(tila_lapack_calls("dpotrf_", 0) == 1 && info1 == 0 && info2 == 0 &&
               e <= 30 * n * DBL_EPSILON * big,
           "dpotrf L n=300 on Tila, error against LAPACK", e / big);

    /* The program's own MPI_Test calls, which a profiling tool loaded after the layer must
     * see (run-testers.sh counts them there): a message to itself, tested until it came,
     * then tested 10 times more. */
    int sent = 42, got = 0, flag = 0;
    long tests = 0;
    MPI_Request req;
    MPI_Irecv(&got, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &req);
    MPI_Send(&sent, 1, MPI_INT, 0, 7, MPI_COMM_SELF);
    while (!flag) {
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        tests++;
    }
    for (int k = 0; k < 10; k++, tests++)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    report(got == 42, "the program's MPI_Test calls (their count)", (double)tests);
    fprintf(stderr, "test-mpi: MPI_Test %ld\n", tests);

    host_cost_t cost = host_cost(reps, &before);
    char what[200];
    snprintf(what, sizeof what,
             "the program's own work after Tila's calls (%.3fx its time before Tila started): "
             "the share of a core Tila's threads took meanwhile (at most 0.01)",
             cost.slowdown);
    report(cost.share <= 0.01, what, cost.share);
    free(a);
    free(b);
    MPI_Finalize();
    return failures ? 1 : 0;
}
