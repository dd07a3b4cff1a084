#!/usr/bin/env bash
# Smoke test of a StarPU built for SimGrid (see build-starpu-simgrid.sh): two simulated
# ranks of this machine's node description (perfmodels/reference, host "vm") on a
# two-node cluster; a task on rank 1 reads a vector that rank 0 owns (a StarPU-MPI
# transfer over SMPI), runs for real (STARPU_CODELET_SIMGRID_EXECUTE), and its result
# comes back to rank 0, which checks it.  Prints the simulated time.
# Usage: tools/check-starpu-simgrid.sh PREFIX
set -euo pipefail
PREFIX=${1:?usage: $0 PREFIX}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/t.c" <<'EOF'
#include <stdio.h>
#include <starpu.h>
#include <starpu_mpi.h>
#ifndef STARPU_SIMGRID
#error "this StarPU was built without SimGrid"
#endif
enum { N = 1000 };
static void sum_cpu(void *buffers[], void *arg)
{
    (void)arg;
    const double *x = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]);
    double *s = (double *)STARPU_VECTOR_GET_PTR(buffers[1]);
    s[0] = 0;
    for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); i++) s[0] += x[i];
}
static double sum_cost(struct starpu_task *t, unsigned nimpl) { (void)t; (void)nimpl; return 250; }
static struct starpu_perfmodel sum_model = { .type = STARPU_COMMON, .cost_function = sum_cost,
                                             .symbol = "check_sum" };
static struct starpu_codelet sum_cl = { .cpu_funcs = { sum_cpu }, .nbuffers = 2,
                                        .modes = { STARPU_R, STARPU_W }, .model = &sum_model,
                                        .flags = STARPU_CODELET_SIMGRID_EXECUTE };
int main(int argc, char **argv)
{
    static double x[N], s[1];
    int rank, size;
    if (starpu_mpi_init_conf(&argc, &argv, 1, MPI_COMM_WORLD, NULL)) return 1;
    starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank);
    starpu_mpi_comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) return 2;
    for (int i = 0; i < N; i++) x[i] = i + 1;
    starpu_data_handle_t hx, hs;
    starpu_vector_data_register(&hx, rank == 0 ? STARPU_MAIN_RAM : -1,
                                rank == 0 ? (uintptr_t)x : 0, N, sizeof(double));
    starpu_vector_data_register(&hs, rank == 1 ? STARPU_MAIN_RAM : -1,
                                rank == 1 ? (uintptr_t)s : 0, 1, sizeof(double));
    starpu_mpi_data_register(hx, 1, 0);
    starpu_mpi_data_register(hs, 2, 1);
    double t0 = starpu_timing_now();
    starpu_mpi_task_insert(MPI_COMM_WORLD, &sum_cl, STARPU_R, hx, STARPU_W, hs, 0);
    starpu_mpi_get_data_on_node(MPI_COMM_WORLD, hs, 0);
    starpu_task_wait_for_all();
    double t1 = starpu_timing_now();
    int ok = 1;
    if (rank == 0) {
        starpu_data_acquire(hs, STARPU_R);
        double *v = (double *)starpu_data_get_local_ptr(hs);
        ok = v[0] == N * (N + 1.0) / 2;
        printf("simulated: sum %.0f (%s), %.1f us of simulated time, %u CPU workers a rank\n",
               v[0], ok ? "ok" : "WRONG", t1 - t0, starpu_cpu_worker_get_count());
        starpu_data_release(hs);
    }
    starpu_data_unregister(hx);
    starpu_data_unregister(hs);
    starpu_mpi_shutdown();
    return ok ? 0 : 1;
}
EOF
mkdir -p "$tmp/sampling"
cp -r "$HERE/../perfmodels/reference/sampling/bus" "$tmp/sampling/"
L=$PREFIX/lib
# smpicc links a shared object that SMPI loads once per rank: StarPU goes in whole, from
# its archives (Debian's own shared StarPU would win a plain -lstarpu-1.3).
smpicc -O2 -w -I"$PREFIX/include/starpu/1.3" "$tmp/t.c" -o "$tmp/t" \
    "$L/libstarpumpi-1.3.a" "$L/libstarpu-1.3.a" -lhwloc -lblas -lstdc++ -lrt -lpthread
cat > "$tmp/cluster.xml" <<'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="check" prefix="node" suffix="" radical="0-1" speed="1Gf" bw="25GBps" lat="1us"/>
</platform>
EOF
printf 'node0\nnode1\n' > "$tmp/hosts"
rc=0
(cd "$tmp" && STARPU_PERF_MODEL_DIR="$tmp/sampling" STARPU_HOSTNAME=vm STARPU_SILENT=1 \
    timeout 120 "$PREFIX/bin/starpu_smpirun" -platform cluster.xml -hostfile hosts -np 2 \
    ./t --log=root.thres:warning) > "$tmp/log" 2>&1 || rc=$?
if [[ $rc -ne 0 ]] || ! grep -q '^simulated: .*(ok)' "$tmp/log"; then
    tail -n 30 "$tmp/log"
    echo "check-starpu-simgrid: the simulated run failed (exit $rc)"
    exit 1
fi
grep '^simulated: ' "$tmp/log"
