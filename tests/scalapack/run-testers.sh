#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ScaLAPACK's own test programs, unchanged (Debian's scalapack-mpi-test), with
# libtila_scalapack preloaded and TILA_SCALAPACK_MIN_N=0 so that Tila takes every size:
#  - x[sdcz]llt (Cholesky: p?potrf, p?potrs and the p?lansy / p?lanhe of its checks) with
#    ScaLAPACK's stock LLT.dat (upper, with condition estimation and iterative refinement;
#    blocks of 2 to 5: Tila works on copies in its own tiles, and at 4 ranks once more with
#    TILA_SCALAPACK_MIN_NB=1, in place), and with
#    tests/scalapack/LLT-wide.dat (lower, 6 grids of 1, 2 and 4 ranks, odd sizes, no
#    iterative refinement; TILA_SCALAPACK_MIN_NB=1 so that Tila works in place);
#  - x[sdcz]qr and x[sdcz]ls (p?geqrf; p?gels, whose overdetermined problems run on Tila and
#    whose others are ScaLAPACK's p?gels calling Tila's p?geqrf and p?ormqr / p?unmqr) with
#    the stock QR.dat and LS.dat, as LLT.dat; x[dz]qr with tests/scalapack/QR-wide.dat (QR
#    and LQ) and x[dz]ls with tests/scalapack/LS-wide.dat (6 grids, odd sizes), in place;
#  - PBLAS/[sdcz]pb3tst (p?gemm, p?trsm) with the stock P?BLAS3TST.dat, in place, 2 and 4 ranks.
# at those of 1, 2 and 4 ranks (RANKS) where one of the input's grids spans every rank
# (grids of fewer ranks go to ScaLAPACK).  A run passes when the tester reaches its end, no
# residual check failed, and the exit summary that TILA_VERBOSE prints shows calls that
# Tila took.
# Prints one "PASS|FAIL|SKIP scalapack-tester ..." line per run, then
# "N passed, N failed, N skipped".  With a second argument, a list of programs:
# tests/scalapack/test-layer (column-major grids, offsets, errors) and test-guard (ranks
# whose settings differ, the program's own work between calls, no memory for a copy), each
# with its own PASS/FAIL lines, at the same rank counts.  With SCALAPACK_PLAIN (a plain
# ScaLAPACK program, bench/tila-bench-offsets) and 2 ranks among RANKS: which MPI_Test
# StarPU-MPI calls in a program that preloads the layer.
# Usage: run-testers.sh PATH/TO/libtila_scalapack.so ["PATH/TO/test-layer PATH/TO/test-guard"]
set -u
lib=${1:?usage: run-testers.sh PATH/TO/libtila_scalapack.so}
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
testers=${SCALAPACK_TESTERS:-/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests}
stock=${SCALAPACK_TEST_DATA:-/usr/share/scalapack}
here=$(cd "$(dirname "$0")" && pwd)
ranks=${RANKS:-1 2 4}
limit=${TILA_TEST_TIMEOUT:-900}
opts="--oversubscribe"
[ "$(id -u)" = 0 ] && opts="$opts --allow-run-as-root"
export STARPU_HOME="${TMPDIR:-/tmp}/tila-tests-starpu-home"
export STARPU_SILENT=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export TILA_SCALAPACK_MIN_N=0 TILA_VERBOSE=1
passed=0 failed=0 skipped=0

# run TESTER DATFILE NAME-IN-CWD LABEL SPANS MIN_NB [RANKS [ROUTINES]]: one tester at every
# rank count (of RANKS if given) at which one of the file's grids spans every rank (SPANS):
# at the others every call would be ScaLAPACK's (grids of fewer ranks), which proves nothing
# about the library.  Each of ROUTINES (names as ScaLAPACK prints them) must also show calls
# that Tila took.  A tester or input that is missing fails: the dependencies install them.
run() {
    tester=$1 dat=$2 name=$3 label=$4 spans=$5 minnb=$6 at=${7:-$ranks} must=${8:-}
    if [ ! -x "$testers/$tester" ] || [ ! -f "$dat" ]; then
        echo "FAIL scalapack-tester $tester $label (no $testers/$tester or $dat)"
        failed=$((failed + 1))
        return
    fi
    for np in $at; do
        case " $ranks " in *" $np "*) ;; *) continue ;; esac
        case " $spans " in *" $np "*) ;; *) continue ;; esac
        dir=$(mktemp -d)
        cp "$dat" "$dir/$name"
        (cd "$dir" && TILA_SCALAPACK_MIN_NB=$minnb LD_PRELOAD="$lib" \
            timeout "$limit" mpiexec $opts -np "$np" "$testers/$tester" >out 2>err)
        rc=$?
        case $tester in
        */*) # PBLAS: "|  PDGEMM  TOTAL  PASSED  FAILED  SKIPPED" per routine
            end="End of Tests."
            ok=$(awk '$1 == "|" && NF == 6 { s += $4 } END { print s + 0 }' "$dir/out")
            bad=$(awk '$1 == "|" && NF == 6 { s += $5 } END { print s + 0 }' "$dir/out") ;;
        *)
            end="END OF TESTS"
            ok=$(sed -n 's/^ *\([0-9]*\) tests completed and passed.*/\1/p' "$dir/out" | head -n 1)
            bad=$(sed -n 's/^ *\([0-9]*\) tests completed and failed.*/\1/p' "$dir/out" |
                head -n 1) ;;
        esac
        tila=$(grep 'call(s)' "$dir/err" | grep -o '[0-9]* Tila,' |
            awk '{ s += $1 } END { print s + 0 }')
        why=
        [ "$rc" -eq 0 ] || why="exit status $rc"
        grep -q "$end" "$dir/out" || why="${why:+$why, }no $end"
        [ "${ok:-0}" -gt 0 ] || why="${why:+$why, }no test passed"
        [ "${bad:-1}" -eq 0 ] || why="${why:+$why, }${bad:-?} failed residual checks"
        [ "$tila" -gt 0 ] || why="${why:+$why, }no call went through Tila"
        for r in $must; do
            grep -q "^\[tila\] $r: .* Tila," "$dir/err" ||
                why="${why:+$why, }no $r call went through Tila"
        done
        line="scalapack-tester $tester $label np=$np passed=${ok:-0} failed=${bad:-?}"
        line="$line tila-calls=$tila"
        if [ -z "$why" ]; then
            echo "PASS $line"
            passed=$((passed + 1))
        else
            echo "FAIL $line ($why)"
            tail -n 20 "$dir/out" "$dir/err" >&2
            failed=$((failed + 1))
        fi
        rm -rf "$dir"
    done
}

# Each program of the second argument (its own PASS/FAIL lines: scalapack-layer,
# scalapack-guard) at every rank count.
for prog in ${2:-}; do
    for np in $ranks; do
        timeout "$limit" mpiexec $opts -np "$np" "$prog" >"$prog.out.$np" 2>"$prog.err.$np"
        rc=$?
        sed -n "s/^\(PASS\|FAIL\|SKIP\) scalapack-layer /\1 scalapack-layer np=$np /p" \
            "$prog.out.$np"
        grep -E '^(PASS|FAIL|SKIP) scalapack-guard ' "$prog.out.$np"
        p=$(grep -c '^PASS ' "$prog.out.$np"); f=$(grep -c '^FAIL ' "$prog.out.$np")
        s=$(grep -c '^SKIP ' "$prog.out.$np")
        passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            echo "FAIL $(basename "$prog") np=$np exit status $rc"
            tail -n 20 "$prog.err.$np" >&2
            failed=$((failed + 1))
        fi
        rm -f "$prog.out.$np" "$prog.err.$np"
    done
done
# The stock file: on copies (its blocks of 2-5 are below the default TILA_SCALAPACK_MIN_NB)
# at every rank count, and in place at 4 ranks; at 2 ranks none of its grids spans the run.
for p in s d c z; do
    run x${p}llt "$stock/LLT.dat" LLT.dat stock "1 4" 64
    run x${p}llt "$stock/LLT.dat" LLT.dat "stock in-place" "4" 1 4
    run x${p}llt "$here/LLT-wide.dat" LLT.dat wide "1 2 4" 1
done
# QR (p?geqrf through Tila, its reflectors and TAU checked by ScaLAPACK's p?geqrrv) and least
# squares (p?gels through Tila, or ScaLAPACK's on Tila's p?geqrf and p?ormqr / p?unmqr),
# stock files as above.
for p in s d c z; do
    P=$(echo $p | tr a-z A-Z)
    case $p in s | d) q="P${P}GELS P${P}GEQRF P${P}ORMQR" ;;
    *) q="P${P}GELS P${P}GEQRF P${P}UNMQR" ;;
    esac
    for t in qr ls; do
        f=$(echo $t | tr a-z A-Z).dat
        [ $t = qr ] && must="P${P}GEQRF" || must=$q
        run x$p$t "$stock/$f" $f stock "1 4" 64 "$ranks" "$must"
        run x$p$t "$stock/$f" $f "stock in-place" "4" 1 4 "$must"
    done
done
for p in d z; do
    P=$(echo $p | tr a-z A-Z)
    run x${p}qr "$here/QR-wide.dat" QR.dat wide "1 2 4" 1
    [ $p = d ] && q=P${P}ORMQR || q=P${P}UNMQR
    run x${p}ls "$here/LS-wide.dat" LS.dat wide "1 2 4" 1 "$ranks" "P${P}GELS $q"
done
# PBLAS level 3 (p?gemm, p?trsm through Tila; the tester also checks the error exits, which
# the layer leaves to PBLAS), stock files, in place; its grids need 2 or 4 ranks.
for p in s d c z; do
    f=P$(echo $p | tr a-z A-Z)BLAS3TST.dat
    run PBLAS/${p}pb3tst "$stock/PBLAS/$f" $f stock "2 4" 1 "2 4"
done
# In a program that preloads the layer, StarPU-MPI's MPI_Test must be the layer's (libtila's
# naps of its progress thread), not the MPI library's, which the program's symbol search
# finds before libtila (dropin/mpi.c; before that, pdgeqrf at 2 ranks ran at 0.70x
# ScaLAPACK's speed): the dynamic linker's bindings in a run of SCALAPACK_PLAIN (a plain
# ScaLAPACK program that runs `geqrf N NB IA REPS`: bench/tila-bench-offsets) at 2 ranks.
case " $ranks " in
*" 2 "*)
    if [ -z "${SCALAPACK_PLAIN:-}" ]; then
        echo "SKIP scalapack-layer np=2 StarPU-MPI's MPI_Test: no SCALAPACK_PLAIN program"
        skipped=$((skipped + 1))
    else
        dir=$(mktemp -d)
        TILA_SCALAPACK_MIN_N=0 LD_PRELOAD="$lib" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$dir/ld" \
            timeout "$limit" mpiexec $opts -x LD_DEBUG -x LD_DEBUG_OUTPUT -np 2 \
            "$SCALAPACK_PLAIN" geqrf 512 256 1 1 >"$dir/out" 2>"$dir/err"
        to=$(cat "$dir"/ld.* 2>/dev/null |
            grep "binding file [^ ]*libstarpumpi[^ ]* .*symbol .MPI_Test'" |
            sed 's/.* to \([^ ]*\) .*/\1/' | sort -u | tr '\n' ' ')
        case "$to" in
        *libtila_scalapack*)
            echo "PASS scalapack-layer np=2 StarPU-MPI's MPI_Test binds to $to(Tila's naps)"
            passed=$((passed + 1)) ;;
        *)
            echo "FAIL scalapack-layer np=2 StarPU-MPI's MPI_Test binds to ${to:-nothing seen}, not the layer's"
            failed=$((failed + 1)) ;;
        esac
        rm -rf "$dir"
    fi ;;
esac
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
