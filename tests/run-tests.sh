#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run tila-tests at 1, 2 and 4 MPI ranks (RANKS="1 2 4" by default) and add up the
# results; with KERNEL_TESTS=PATH/TO/tila-kernel-tests, the tile-kernel tests first (one
# process, no MPI); with CALIBRATE=PATH/TO/tila-calibrate, its convergence on small
# tiles; with SCALAPACK_LAYER=PATH/TO/libtila_scalapack.so, ScaLAPACK's own
# testers through it, and with LAPACK_LAYER=PATH/TO/libtila_lapack.so, LAPACK's, last.
# Prints every configuration's line, then "N passed, N failed, N skipped".
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
# Every FAIL line and broken run, repeated above the totals: CI shows only the end.
fails=$(mktemp)
# Add up one run's lines in $log (prefix $1); $2 is its exit status.
count() {
    grep -E '^(PASS|FAIL|SKIP) ' "$log" | sed "s/^/[$1] /"
    grep -E '^FAIL ' "$log" | sed "s/^/[$1] /" >>"$fails"
    p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    # 77 (nothing ran: no worker, every test skipped) fails too: a configuration that
    # ran nothing must not vanish from the totals.
    if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$1 ended with status $2 (crash, timeout, or 77: nothing ran); its stderr:"
        # Its own last word, not Open MPI's frame around it.
        word=$(grep -v -i -E '^-*$|^ *$|primary job|non-zero|mpiexec|mpirun|process name' \
            "$log.err" | grep -v -i -E 'exit code|per user-direction|the job|first process' |
            tail -n 1)
        echo "[$1] ended with status $2: ${word:-no message}" >>"$fails"
        tail -n 30 "$log.err"
        broken=$((broken + 1))
        failed=$((failed + 1))
    fi
}
# With FLOORS_CHECK=PATH/TO/check-floors.py: no tila_* prototype written by hand outside
# the library, no header included by a path in it, no outside library a floor may not
# reach (what the include paths cannot refuse); then the same rules on planted offences.
if [ -n "${FLOORS_CHECK:-}" ]; then
    echo "== tools/check-floors.py (prototypes from headers, headers by their bare name, outside libraries)"
    python3 "$FLOORS_CHECK" "$(dirname "$FLOORS_CHECK")/.." >"$log" 2>"$log.err"
    rc=$?
    python3 "$FLOORS_CHECK" --planted >>"$log" 2>>"$log.err" || rc=1
    count floors $rc
    grep -v -E '^(PASS|FAIL|SKIP) ' "$log"
fi
if [ -n "${KERNEL_TESTS:-}" ]; then
    echo "== tila-kernel-tests (tile kernels against LAPACKE, no StarPU)"
    timeout "$limit" "$KERNEL_TESTS" >"$log" 2>"$log.err"
    count kernels $?
fi
# With NODE_TEST=PATH/TO/tila-node-test: how a rank shares its node, case by case.
if [ -n "${NODE_TEST:-}" ]; then
    echo "== tila-node-test (CPU workers from the cpuset, quota, masks and ranks)"
    timeout "$limit" "$NODE_TEST" >"$log" 2>"$log.err"
    count node $?
fi
# With LIFECYCLE_TEST=PATH/TO/tila-lifecycle-test: tila_init / tila_finalize three times in
# a program of its own MPI, the environment and OpenBLAS's threads as before (OpenBLAS's
# own count: OPENBLAS_NUM_THREADS unset), at each rank count.
# STARPU_SILENT unset, and STARPU_HOME new: at each rank count each rank sees another
# number of CPUs, and StarPU would say that it recalibrates; nothing of StarPU's may show.
if [ -n "${LIFECYCLE_TEST:-}" ]; then
    home=$(mktemp -d)
    for np in $ranks; do
        echo "== tila-lifecycle-test at $np rank(s)"
        env -u OPENBLAS_NUM_THREADS -u STARPU_WORKERS_NOBIND -u STARPU_MPI_NOBIND \
            -u STARPU_SILENT STARPU_HOME="$home" \
            timeout "$limit" "$mpiexec" $opts -np "$np" "$LIFECYCLE_TEST" >"$log" 2>"$log.err"
        st=$?
        if grep -q '\[starpu\]' "$log" "$log.err"; then
            echo "FAIL lifecycle np=$np: StarPU printed: $(grep -h '\[starpu\]' "$log" "$log.err" |
                head -n 1)" >>"$log"
        else
            echo "PASS lifecycle np=$np: no message of StarPU's" >>"$log"
        fi
        count "lifecycle np=$np" $st
    done
    rm -rf "$home"
fi
# With QUIET_TEST=PATH/TO/tila-quiet-test: a program that calls Tila's API directly, without
# tila_pause, gets its cores back between calls (Tila's threads take at most 0.01 of a
# core while it works), at each rank count with tila_init's own choice of workers; and,
# where valgrind is installed, its short run at 2 ranks under memcheck: no error whose
# first frames are Tila's code (a system call given uninitialised arguments).
if [ -n "${QUIET_TEST:-}" ]; then
    for np in $ranks; do
        echo "== tila-quiet-test at $np rank(s)"
        env -u STARPU_NCPU timeout "$limit" "$mpiexec" $opts -np "$np" "$QUIET_TEST" \
            >"$log" 2>"$log.err"
        count "quiet np=$np" $?
    done
    if command -v valgrind >/dev/null; then
        echo "== tila-quiet-test --brief at 2 ranks under valgrind"
        dir=$(mktemp -d)
        env -u STARPU_NCPU timeout "$limit" "$mpiexec" $opts -np 2 valgrind --trace-children=yes \
            --fullpath-after= --log-file="$dir/vg.%p" "$QUIET_TEST" --brief >"$log" 2>"$log.err"
        st=$?
        # each error's "at" frame and the frame after it: one of Tila's functions or sources
        ours=$(awk '/^==[0-9]+== [A-Z]/ { msg = $0; n = 0; next }
                    /^==[0-9]+==    (at|by) / && n < 2 { n++
                        if (($0 ~ /: tila_/ || $0 ~ /\/(runtime|codelets|drivers|layers|gen)\//) &&
                            $0 !~ /\/(opal|ompi|orte|pmix)\//) print msg }' \
            "$dir"/vg.* | sort -u)
        if [ "$st" -eq 0 ] && [ -z "$ours" ]; then
            echo "PASS valgrind: no error in Tila's code at 2 ranks" >"$log"
        else
            echo "FAIL valgrind (status $st): ${ours:-see $log.err}" | head -n 3 >"$log"
        fi
        count "valgrind np=2" "$st"
        rm -rf "$dir"
    else
        echo "SKIP valgrind: not installed" >"$log"
        count valgrind 0
    fi
fi
# With STUCK_TEST=PATH/TO/tila-stuck-test: issue 58's QR that hung (tall and skinny, PANEL
# tree, tiles far wider than the matrix, StarPU counting 1 GB for the node) in a loop under
# competing load, and a call that can no longer finish (a task whose scratch StarPU can
# never allocate, one whose tag is never released) failing with TILA_ERR_STUCK on every
# rank, at each rank count with tila_init's own choice of workers.
if [ -n "${STUCK_TEST:-}" ]; then
    for np in $ranks; do
        for mode in "" "--stuck fetch" "--stuck deps"; do
            echo "== tila-stuck-test $mode at $np rank(s)"
            # shellcheck disable=SC2086
            env -u STARPU_NCPU timeout "$limit" "$mpiexec" $opts -np "$np" "$STUCK_TEST" $mode \
                >"$log" 2>"$log.err"
            count "stuck${mode:+ $mode} np=$np" $?
        done
    done
fi
# tila-calibrate, with CALIBRATE=PATH/TO/tila-calibrate: on two small tiles every model,
# per-size history or regression fit, reaches its samples (the QR column kernels get one
# a round: 5-13 rounds here, and an entry StarPU flushed for a deviation starts over: the
# smallest LARFT_COL (87 us) sometimes needed more than 20 on 2 busy cores), and the PANEL
# kernel has one entry a column height and tile size: 1-4 from a square matrix, 5-6 from
# single columns.
if [ -n "${CALIBRATE:-}" ]; then
    echo "== tila-calibrate (tiles 64 and 128, double, 5 samples, columns of 1-6 tiles)"
    home=$(mktemp -d)
    timeout "$limit" "$CALIBRATE" --sizes 64,128 --prec d --samples 5 --rounds 40 \
        --panel-tiles 6 --home "$home" >"$log.out" 2>"$log.err"
    st=$?
    heights=$(grep -c '^tila_dgeqrt_col ' "$log.out")
    if [ "$st" -eq 0 ] && [ "$heights" -ne 12 ]; then
        echo "tila_dgeqrt_col has $heights entries, not 12 (6 heights x 2 tiles)" >>"$log.err"
        st=1
    fi
    if [ "$st" -eq 0 ]; then echo "PASS calibrate converges" >"$log"
    else echo "FAIL calibrate (status $st): $(tail -n 1 "$log.err")" >"$log"; fi
    count calibrate "$st"
    rm -rf "$home" "$log.out"
fi
# With TRACE_BENCH=PATH/TO/tila-bench-run and TRACE_REPORT=PATH/TO/tila-trace: the per-task
# trace (TILA_TRACE) of one warm dpotrf of 10 x 10 tiles (its panels by trsm: 220 tasks),
# through the report, at each rank count (tests/trace_check.py says what is checked).
if [ -n "${TRACE_BENCH:-}" ] && [ -x "$TRACE_BENCH" ]; then
    for np in $ranks; do
        echo "== TILA_TRACE of tila-bench-run potrf at $np rank(s)"
        dir=$(mktemp -d)
        : >"$log"
        TILA_TRACE="$dir/trace" TILA_POTRF_TRSM=trsm timeout "$limit" "$mpiexec" $opts -np "$np" \
            "$TRACE_BENCH" potrf \
            tila --n 2000 --nb 200 --warmup 1 --reps 1 >"$dir/out" 2>"$log.err" &&
            python3 "$TRACE_REPORT" "$dir/trace" --window "rep 1" --json >"$dir/report.json" \
                2>>"$log.err" &&
            python3 "$(dirname "$0")/trace_check.py" "$dir/report.json" "$np" >"$log" 2>>"$log.err"
        st=$?
        grep -q '^[PF][AI][SI][SL] ' "$log" 2>/dev/null || echo "FAIL trace np=$np: no report" >"$log"
        count "trace np=$np" "$st"
        rm -rf "$dir"
    done
fi
for np in $ranks; do
    # Two workers per rank when the machine has room; else tila_init's own choice: one
    # worker, and where ranks outnumber the CPUs the progress thread's for short tasks.
    ncpu=$(( $(nproc) / np )); [ "$ncpu" -lt 2 ] && [ "$np" = 1 ] && ncpu=2
    if [ "$ncpu" -ge 2 ]; then
        echo "== tila-tests at $np rank(s), STARPU_NCPU=$ncpu"
        ncpu_env="STARPU_NCPU=$ncpu"
    else
        echo "== tila-tests at $np rank(s), STARPU_NCPU unset"
        ncpu_env="-u STARPU_NCPU"
    fi
    env $ncpu_env timeout "$limit" "$mpiexec" $opts -np "$np" "$prog" "$@" >"$log" 2>"$log.err"
    count "np=$np" $?
    # The same suites with every matrix in tiles of random sizes (1 to 3 nb rows or
    # columns, nb each case's tile size): tila_desc_create_tiled under every routine.
    echo "== tila-tests at $np rank(s), tiles of random sizes"
    env $ncpu_env timeout "$limit" "$mpiexec" $opts -np "$np" "$prog" --tiles random "$@" \
        >"$log" 2>"$log.err"
    count "np=$np random tiles" $?
done
# Ranks whose environments differ, as on nodes launched without the same variables: at 4
# ranks, ranks 0-1 without the progress worker and with panel tiles down relay trees
# (TILA_BCAST=tree, which rank 0's choice makes every rank's: trees from 3 readers, which
# 4 ranks reach on a 4 x 1 or 1 x 4 grid and random mappings), ranks 2-3 with tila_init's
# own choice (on 2 cores: the progress worker) and no TILA_BCAST.  Every rank must still
# name every tile with the same tag.
# (Not TILA_IDLE_NAP=0 as well: 2 ranks polling without naps on 2 shared cores leave the
# other 2 a few percent of a core, minutes for these suites.)
case " $ranks " in
*" 4 "*)
    echo "== tila-tests at 4 ranks, ranks 0-1 with TILA_PROGRESS_WORKER=0"
    if [ $# -gt 0 ]; then args="$*"; else args="potrf gels lange gemm"; fi
    # shellcheck disable=SC2086
    env -u STARPU_NCPU timeout "$limit" "$mpiexec" $opts -np 2 -x TILA_PROGRESS_WORKER=0 \
        -x TILA_BCAST=tree "$prog" $args : -np 2 "$prog" $args >"$log" 2>"$log.err"
    count "np=4 mixed" $?
    # Unequal load, as on nodes of different sizes: ranks 0-2 bound to CPU 0, rank 3
    # alone on CPU 1 (an Open MPI rankfile).
    if [ "$(nproc)" -ge 2 ]; then
        echo "== tila-tests at 4 ranks, ranks 0-2 on CPU 0 and rank 3 on CPU 1 (a rankfile)"
        rankfile=$(mktemp)
        host=$(hostname)
        printf 'rank 0=%s slot=0\nrank 1=%s slot=0\nrank 2=%s slot=0\nrank 3=%s slot=1\n' \
            "$host" "$host" "$host" "$host" >"$rankfile"
        # shellcheck disable=SC2086
        env -u STARPU_NCPU -u STARPU_WORKERS_NOBIND timeout "$limit" "$mpiexec" $opts \
            --rankfile "$rankfile" -np 4 \
            "$prog" $args >"$log" 2>"$log.err"
        count "np=4 unequal" $?
        rm -f "$rankfile"
    fi
    ;;
esac
# ScaLAPACK's own testers, unchanged, with SCALAPACK_LAYER=PATH/TO/libtila_scalapack.so
# preloaded, and the programs of SCALAPACK_LAYER_TEST (tests/scalapack/test-layer,
# test-guard), at the same rank counts.
if [ -n "${SCALAPACK_LAYER:-}" ]; then
    echo "== ScaLAPACK's testers through libtila_scalapack"
    RANKS=$ranks sh "$(dirname "$0")/scalapack/run-testers.sh" "$SCALAPACK_LAYER" \
        "${SCALAPACK_LAYER_TEST:-}" >"$log" 2>"$log.err"
    count scalapack $?
fi
# LAPACK's own testers, unchanged, with LAPACK_LAYER=PATH/TO/libtila_lapack.so preloaded
# (one process), after LAPACK_LAYER_TEST (tests/lapack/test-mpi).
if [ -n "${LAPACK_LAYER:-}" ]; then
    echo "== LAPACK's testers through libtila_lapack"
    sh "$(dirname "$0")/lapack/run-testers.sh" "$LAPACK_LAYER" "${LAPACK_LAYER_TEST:-}" \
        >"$log" 2>"$log.err"
    count lapack $?
fi
if [ -s "$fails" ]; then
    echo "== what failed (repeated from above)"
    cat "$fails"
fi
rm -f "$log" "$log.err" "$fails"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
