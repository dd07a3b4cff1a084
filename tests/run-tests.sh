#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run tila-tests at 1, 2 and 4 MPI ranks (RANKS="1 2 4" by default) and add up the
# results.  Prints every configuration's line, then "N passed, N failed".
# Exit 0 only when nothing failed and every run finished.
set -u
prog=${1:?usage: run-tests.sh PATH/TO/tila-tests [ARGS...]}
shift
ranks=${RANKS:-1 2 4}
limit=${TILA_TEST_TIMEOUT:-900}
mpiexec=${MPIEXEC:-mpiexec}
opts="--oversubscribe"
[ "$(id -u)" = 0 ] && opts="$opts --allow-run-as-root"
# Tests never write perfmodels outside their own folder; OpenBLAS single-threaded
# inside StarPU workers; no core binding so ranks sharing the cores do not pile up.
export STARPU_HOME="${TMPDIR:-/tmp}/tila-tests-starpu-home"
export STARPU_SILENT=1 OPENBLAS_NUM_THREADS=1 STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
passed=0 failed=0 skipped=0 broken=0
log=$(mktemp)
for np in $ranks; do
    # Two workers per rank when the machine has room, else one.
    ncpu=$(( $(nproc) / np )); [ "$ncpu" -lt 1 ] && ncpu=1; [ "$ncpu" -lt 2 ] && [ "$np" = 1 ] && ncpu=2
    echo "== tila-tests at $np rank(s), STARPU_NCPU=$ncpu"
    STARPU_NCPU=$ncpu timeout "$limit" "$mpiexec" $opts -np "$np" "$prog" "$@" >"$log" 2>"$log.err"
    rc=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$log" | sed "s/^/[np=$np] /"
    p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
        if [ "$f" -eq 0 ]; then
            echo "run at $np rank(s) ended with status $rc (crash or timeout); its stderr:"
            tail -n 30 "$log.err"
            broken=$((broken + 1))
            failed=$((failed + 1))
        fi
    fi
done
rm -f "$log" "$log.err"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
