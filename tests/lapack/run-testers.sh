#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# LAPACK's own test programs, unchanged (Debian's liblapack-test: xlintst[sdcz]), with
# libtila_lapack preloaded, TILA_LAPACK_MIN_N=0 so that Tila takes every size and
# TILA_LAPACK_NB=8 so that the stock sizes (up to 50) span several tiles with ragged edges:
# the PO (?potrf, ?potrs, ?posv), QR (?geqrf, ?ormqr / ?unmqr, ?orgqr / ?ungqr), LS
# (?gels) and TR paths of the stock ?test.in (its sizes, block sizes and threshold; error
# exits on).  Their residual checks call ?lange, ?lansy, ?lanhe and (TR) ?lantr, which go
# through Tila too.
# A run passes when the tester reaches its end, every path reports that its tests passed
# the threshold and its error exits, and the exit summary that TILA_VERBOSE prints shows
# calls that Tila took for each routine of the paths.
# Prints one "PASS|FAIL|SKIP lapack-tester ..." line per precision, then
# "N passed, N failed, N skipped".  With a second argument, tests/lapack/test-mpi (a
# program of its own MPI: MPI_Init, then MPI_Init_thread(FUNNELED)) first, its own
# PASS/FAIL lines and one for the exit summary it must print; then test-mpi with a
# profiling tool preloaded after the layer, and tests/lapack/test-host (beside test-mpi) in
# a host's situations (each described where it runs).  Then tests/lapack/test_f08.f90
# (`use mpi_f08`, FUNNELED), built with mpif90, the library preloaded; and NumPy's Cholesky
# and QR (tests/lapack/numpy_app.py), plain and preloaded.  Last, the mixed-precision
# testers xlintstds and xlintstzc (DSPOSV, ZCPOSV) on their stock input.
# Usage: run-testers.sh PATH/TO/libtila_lapack.so [PATH/TO/test-mpi]
set -u
lib=${1:?usage: run-testers.sh PATH/TO/libtila_lapack.so}
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
testers=${LAPACK_TESTERS:-/usr/lib/x86_64-linux-gnu/lapack}
limit=${TILA_TEST_TIMEOUT:-900}
export STARPU_HOME="${TMPDIR:-/tmp}/tila-tests-starpu-home"
export STARPU_SILENT=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export TILA_LAPACK_MIN_N=0 TILA_LAPACK_NB=${TILA_LAPACK_NB:-8} TILA_VERBOSE=1
passed=0 failed=0 skipped=0

if [ -n "${2:-}" ]; then
    for how in init funneled; do
        out=$(mktemp) err=$(mktemp)
        timeout "$limit" "$2" "$how" >"$out" 2>"$err"
        rc=$?
        cat "$out"
        if grep -q '^\[tila\] DPOTRF: 1 call(s)' "$err"; then
            echo "PASS lapack-mpi $how: the exit summary"
        else
            echo "FAIL lapack-mpi $how: no exit summary"
            tail -n 20 "$err"
        fi
        p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out")
        grep -q '^\[tila\] DPOTRF: 1 call(s)' "$err" && p=$((p + 1)) || f=$((f + 1))
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && echo "FAIL lapack-mpi $how: exit status $rc" &&
            f=1
        passed=$((passed + p)); failed=$((failed + f))
        rm -f "$out" "$err"
    done
fi

here=$(cd "$(dirname "$0")" && pwd)
opts="--oversubscribe"
[ "$(id -u)" = 0 ] && opts="$opts --allow-run-as-root"

# A profiling tool loaded after the layer (tests/lapack/prof_mpi.c, built here with mpicc,
# preloaded after it) sees the program's MPI_Init and each of its MPI_Test calls, and MPI
# still starts at MPI_THREAD_MULTIPLE (Tila takes dpotrf in test-mpi).
if [ -n "${2:-}" ]; then
    dir=$(mktemp -d)
    if mpicc -shared -fPIC -O1 "$here/prof_mpi.c" -o "$dir/libprof.so" >"$dir/build" 2>&1; then
        timeout "$limit" env LD_PRELOAD="$lib $dir/libprof.so" "$2" init >"$dir/out" 2>"$dir/err"
        rc=$?
        own=$(sed -n 's/^test-mpi: MPI_Test \([0-9]*\)$/\1/p' "$dir/err")
        seen=$(sed -n 's/^prof-mpi: .*MPI_Test \([0-9]*\) (main thread).*/\1/p' "$dir/err")
        inits=$(sed -n 's/^prof-mpi: MPI_Init \([0-9]*\) .*/\1/p' "$dir/err")
        p=0 f=0
        if [ "$rc" -eq 0 ] && ! grep -q '^FAIL ' "$dir/out"; then
            echo "PASS lapack-prof: test-mpi with a profiling tool after the layer"; p=$((p + 1))
        else
            echo "FAIL lapack-prof: test-mpi with a profiling tool after the layer (status $rc)"
            f=$((f + 1)); grep '^FAIL ' "$dir/out"; tail -n 20 "$dir/err"
        fi
        # the main thread's: the program's, and Tila's own there (its collectives)
        if [ -n "$own" ] && [ "${seen:-0}" -ge "$own" ]; then
            echo "PASS lapack-prof: the tool saw the program's $own MPI_Test calls ($seen on its thread)"
            p=$((p + 1))
        else
            echo "FAIL lapack-prof: the tool saw ${seen:-no} of the program's ${own:-?} MPI_Test calls"
            f=$((f + 1))
        fi
        if [ "${inits:-0}" -eq 1 ]; then
            echo "PASS lapack-prof: the tool saw the program's MPI_Init"; p=$((p + 1))
        else
            echo "FAIL lapack-prof: the tool saw ${inits:-no} MPI_Init call(s), not 1"; f=$((f + 1))
        fi
    else
        echo "FAIL lapack-prof: mpicc could not build tests/lapack/prof_mpi.c"
        tail -n 20 "$dir/build"
        p=0 f=1
    fi
    passed=$((passed + p)); failed=$((failed + f))
    rm -rf "$dir"
fi

# tests/lapack/test-host (beside test-mpi): a plain LAPACK program, the library preloaded,
# in a host's situations: started by mpirun -np 2 as independent runs (each process its own
# answer, LAPACK's; then only the first process calling), its own signal handlers, fork(),
# a StarPU home where nothing can be written (a file where StarPU's folder would be), no
# memory for dgeqrf's TAU gather, no real routine behind the layer, and (where OpenBLAS's OpenMP build is installed) the
# program's OpenMP thread count.  Each run's PASS/FAIL lines; a run that fails without one
# (a crash, a hang, an abort) fails with its status.
# counted NAME NOTE COMMAND...: COMMAND's output, its PASS and FAIL lines counted; a run
# that fails without a FAIL line fails as "NAME: exit status N" and NOTE; its stderr stays
# in $err for the caller.
counted() {
    name=$1 note=$2
    shift 2
    out=$(mktemp) err=$(mktemp)
    "$@" >"$out" 2>"$err"
    rc=$?
    cat "$out"
    p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exit status $rc$note"; f=1
    fi
    [ "$f" -eq 0 ] || tail -n 20 "$err"
    passed=$((passed + p)); failed=$((failed + f))
    rm -f "$out"
}
host_test() {
    label=$1
    shift
    counted "lapack-host $label" "" "$@"
}
hostprog=${2:+$(dirname "$2")/test-host}
if [ -n "$hostprog" ] && [ -x "$hostprog" ]; then
    short=$((limit < 300 ? limit : 300))
    for how in alone alone-one; do
        host_test "$how" timeout "$short" mpiexec $opts -np 2 -x LD_PRELOAD="$lib" \
            "$hostprog" "$how"
        rm -f "$err"
    done
    for how in signals fork nomem; do
        host_test "$how" timeout "$short" env LD_PRELOAD="$lib" "$hostprog" "$how"
        rm -f "$err"
    done
    # No real routine behind the layer for two of them: errors returned, no abort.
    host_test noreal timeout "$short" env TILA_TEST_NO_REAL=dgeqrf_,dlange_ LD_PRELOAD="$lib" \
        "$hostprog" noreal
    rm -f "$err"
    # Nothing writable where StarPU would write: one line says where its files went.
    dir=$(mktemp -d)
    : >"$dir/file"
    host_test home timeout "$short" env -u XDG_CACHE_HOME -u STARPU_PERF_MODEL_DIR \
        STARPU_HOME="$dir/file" TMPDIR="$dir" LD_PRELOAD="$lib" "$hostprog" home
    said=$(grep -c 'StarPU cannot write under' "$err")
    if [ "$said" -eq 1 ] && [ -n "$(ls "$dir/tila-starpu-$(id -u)/bus" 2>/dev/null)" ]; then
        echo "PASS lapack-host home: one line says where StarPU's files went, and they are there"
        passed=$((passed + 1))
    else
        echo "FAIL lapack-host home: $said line(s) on where StarPU's files went," \
            "$(ls "$dir/tila-starpu-$(id -u)/bus" 2>/dev/null | wc -l) file(s) there"
        failed=$((failed + 1))
    fi
    rm -rf "$dir" "$err"
    omp=${OPENBLAS_OPENMP_DIR:-/usr/lib/x86_64-linux-gnu/openblas-openmp}
    if [ -e "$omp/libopenblas.so.0" ]; then
        host_test omp timeout "$short" env LD_LIBRARY_PATH="$omp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            LD_PRELOAD="$lib" "$hostprog" omp
    else
        echo "SKIP lapack-host omp: no OpenMP build of OpenBLAS ($omp, libopenblas0-openmp)"
        skipped=$((skipped + 1))
    fi
    rm -f "$err"
elif [ -n "${2:-}" ]; then
    echo "FAIL lapack-host: no $hostprog"
    failed=$((failed + 1))
fi

# tests/lapack/test-nb (beside test-mpi): dgeqrf with TILA_LAPACK_NB at and far past the
# order (n = 1024; 40000 once made it wait for ever), Tila's R and TAU against LAPACK's.
nbprog=${2:+$(dirname "$2")/test-nb}
if [ -n "$nbprog" ] && [ -x "$nbprog" ]; then
    counted lapack-nb " (124: a hang)" timeout "$((limit < 300 ? limit : 300))" \
        env LD_PRELOAD="$lib" "$nbprog"
    rm -f "$err"
elif [ -n "${2:-}" ]; then
    echo "FAIL lapack-nb: no $nbprog"
    failed=$((failed + 1))
fi

# The same start from Fortran (`use mpi_f08`), built here with the MPI library's own
# compiler wrapper, the library preloaded.
dir=$(mktemp -d)
if mpif90 -O1 "$here/test_f08.f90" -o "$dir/test-f08" -llapack >"$dir/build" 2>&1; then
    (cd "$dir" && LD_PRELOAD="$lib" timeout "$limit" ./test-f08 >out 2>err)
    rc=$?
    cat "$dir/out"
    p=$(grep -c '^PASS ' "$dir/out"); f=$(grep -c '^FAIL ' "$dir/out")
    if [ "$rc" -ne 0 ] || [ "$p" -ne 1 ]; then
        echo "FAIL lapack-f08: exit status $rc"; f=$((f + 1)); tail -n 20 "$dir/err"
    fi
    if grep -q '^\[tila\] DPOTRF: 1 call(s); 1 Tila' "$dir/err"; then
        echo "PASS lapack-f08: Tila took DPOTRF"; p=$((p + 1))
    else
        echo "FAIL lapack-f08: Tila did not take DPOTRF"; f=$((f + 1)); tail -n 20 "$dir/err"
    fi
else
    echo "FAIL lapack-f08: mpif90 could not build tests/lapack/test_f08.f90"
    tail -n 20 "$dir/build"
    p=0 f=1
fi
passed=$((passed + p)); failed=$((failed + f))
rm -rf "$dir"

# A real LAPACK application, unchanged: NumPy's Cholesky and QR (dpotrf; dgeqrf, dorgqr) on
# the system's LAPACK, run plain and then with the library preloaded (TILA_LAPACK_MIN_N=0,
# order 600): the same answers within 30 n eps, and Tila took the calls.
py=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d)
if "$py" -c 'import numpy' 2>/dev/null; then
    (cd "$dir" && timeout "$limit" "$py" "$here/numpy_app.py" 600 --save plain.npz >plain 2>&1 &&
        LD_PRELOAD="$lib" timeout "$limit" "$py" "$here/numpy_app.py" 600 --against plain.npz \
            >out 2>err)
    rc=$?
    grep -E '^(PASS|FAIL) ' "$dir/out"
    p=$(grep -c '^PASS ' "$dir/out"); f=$(grep -c '^FAIL ' "$dir/out")
    for r in DPOTRF DGEQRF DORGQR; do
        if grep -q "^\[tila\] $r: .* Tila," "$dir/err"; then
            echo "PASS lapack-numpy: Tila took $r"; p=$((p + 1))
        else
            echo "FAIL lapack-numpy: Tila did not take $r"; f=$((f + 1))
        fi
    done
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL lapack-numpy: exit status $rc"; f=1; tail -n 20 "$dir/err" "$dir/plain"
    fi
else
    echo "FAIL lapack-numpy: $py has no numpy (tools/install-deps.sh installs python3-numpy)"
    p=0 f=1
fi
passed=$((passed + p)); failed=$((failed + f))
rm -rf "$dir"

# A tester's verdict: PASS LINE, or FAIL LINE (why) with the end of its stderr; $dir goes.
report() {
    if [ -z "$why" ]; then
        echo "PASS $1"
        passed=$((passed + 1))
    else
        echo "FAIL $1 ($why)"
        failed=$((failed + 1))
        tail -n 20 "$dir/err"
    fi
    rm -rf "$dir"
}

for p in s d c z; do
    P=$(echo "$p" | tr sdcz SDCZ)
    if [ ! -x "$testers/xlintst$p" ] || [ ! -f "$testers/${p}test.in" ]; then
        echo "FAIL lapack-tester xlintst$p (no $testers/xlintst$p or ${p}test.in)"
        failed=$((failed + 1))
        continue
    fi
    dir=$(mktemp -d)
    # The stock file's 16 lines of sizes and switches, then the four paths, all types.
    { head -n 16 "$testers/${p}test.in"; printf '%sPO\n%sQR\n%sLS\n%sTR\n' "$P" "$P" "$P" "$P"; } \
        >"$dir/in"
    # The same input without the library first: LAPACK's own verdict (Debian's LAPACK fails
    # 104 of xlintsts's STR tests, in SLATRS3, by itself).
    (cd "$dir" && timeout "$limit" "$testers/xlintst$p" <in >plain 2>/dev/null)
    (cd "$dir" && LD_PRELOAD="$lib" timeout "$limit" "$testers/xlintst$p" <in >out 2>err)
    rc=$?
    tests=$(sed -n 's/.*passed the threshold (\( *[0-9]*\) tests run).*/\1/p' "$dir/out" |
        awk '{ s += $1 } END { print s + 0 }')
    paths=$(grep -c 'passed the threshold\|failed to pass the threshold' "$dir/out")
    exits=$(grep -c 'passed the tests of the error exits' "$dir/out")
    why=
    [ "$rc" -eq 0 ] || why="exit status $rc"
    grep -q 'End of tests' "$dir/out" || why="${why:+$why, }no End of tests"
    # PO routines and drivers, QR routines, LS drivers, TR routines: five paths, five error
    # exits, and every failure (a path's count, each failed test's name) LAPACK's own.
    [ "$paths" -eq 5 ] && [ "$exits" -eq 5 ] ||
        why="${why:+$why, }$paths of 5 paths reported, $exits of 5 error exits"
    verdict() { grep -i 'fail\|test(' "$1" | sed 's/=.*//'; }
    [ "$(verdict "$dir/out")" = "$(verdict "$dir/plain")" ] ||
        why="${why:+$why, }$(verdict "$dir/out" | head -n 1) (not so in LAPACK alone)"
    known=$(grep -c 'failed to pass' "$dir/plain")
    tila=0
    case $p in s | d) routines="POTRF POTRS POSV GEQRF ORMQR ORGQR GELS LANGE LANTR" ;;
    *) routines="POTRF POTRS POSV GEQRF UNMQR UNGQR GELS LANGE LANHE LANTR" ;;
    esac
    for r in $routines; do
        n=$(grep "^\[tila\] $P$r: .*call(s)" "$dir/err" | grep -o '[0-9]* Tila,' |
            awk '{ s += $1 } END { print s + 0 }')
        [ "$n" -gt 0 ] || why="${why:+$why, }no $P$r call went through Tila"
        tila=$((tila + n))
    done
    line="lapack-tester xlintst$p PO,QR,LS,TR tests=$tests tila-calls=$tila nb=$TILA_LAPACK_NB"
    [ "$known" -eq 0 ] || line="$line (paths failing in LAPACK alone too: $known)"
    report "$line"
done
# The mixed-precision testers (xlintstds: DSGESV and DSPOSV; xlintstzc: ZCGESV and ZCPOSV),
# on their stock input: LAPACK's verdict unchanged by the library, and the Cholesky ones
# (xSPOSV, xCPOSV) taken by Tila; xSGESV and xCGESV, not Tila's, go to LAPACK.
for p in ds zc; do
    P=$(echo "$p" | tr dszc DSZC)
    if [ ! -x "$testers/xlintst$p" ] || [ ! -f "$testers/${p}test.in" ]; then
        echo "FAIL lapack-tester xlintst$p (no $testers/xlintst$p or ${p}test.in)"
        failed=$((failed + 1))
        continue
    fi
    dir=$(mktemp -d)
    (cd "$dir" && timeout "$limit" "$testers/xlintst$p" <"$testers/${p}test.in" >plain 2>/dev/null)
    (cd "$dir" && LD_PRELOAD="$lib" timeout "$limit" "$testers/xlintst$p" <"$testers/${p}test.in" \
        >out 2>err)
    rc=$?
    tests=$(sed -n 's/.*passed the threshold (\( *[0-9]*\) tests run).*/\1/p' "$dir/out" |
        awk '{ s += $1 } END { print s + 0 }')
    why=
    [ "$rc" -eq 0 ] || why="exit status $rc"
    grep -q 'End of tests' "$dir/out" || why="${why:+$why, }no End of tests"
    [ "$(grep -c 'passed the threshold' "$dir/out")" -eq 2 ] ||
        why="${why:+$why, }not both drivers passed the threshold"
    verdict() { grep -i 'fail\|test(' "$1" | sed 's/=.*//'; }
    [ "$(verdict "$dir/out")" = "$(verdict "$dir/plain")" ] ||
        why="${why:+$why, }$(verdict "$dir/out" | head -n 1) (not so in LAPACK alone)"
    r=$(echo "$P" | cut -c1-2)POSV
    n=$(grep "^\[tila\] $r: .*call(s)" "$dir/err" | grep -o '[0-9]* Tila,' |
        awk '{ s += $1 } END { print s + 0 }')
    [ "$n" -gt 0 ] || why="${why:+$why, }no $r call went through Tila"
    report "lapack-tester xlintst$p ${r} tests=$tests tila-calls=$n nb=$TILA_LAPACK_NB"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
