# SPDX-License-Identifier: BSD-3-Clause
"""A real LAPACK application, unchanged: NumPy (Debian's, on the system LAPACK) factoring a
matrix by Cholesky (numpy.linalg.cholesky: dpotrf) and QR (numpy.linalg.qr: dgeqrf, then
dorgqr), with libtila_lapack preloaded or not.  Prints one line per result: its time, a
checksum of the result, and its residual against the input scaled by n eps; with --save
FILE also the results (.npy), with --against FILE compares them with another run's:
PASS|FAIL lapack-numpy lines, within 30 n eps relative to the largest entry, and checks
that no process runs beside the program (MPI, which Tila starts in a program without MPI
of its own, must not fork a daemon).

Usage: python3 numpy_app.py N [--save FILE | --against FILE]
"""
import os
import sys
import time

import numpy as np


def children():
    """The names of this process's child processes."""
    names = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:]
        if int(rest.split()[1]) == os.getpid():
            names.append(name)
    return names


def main():
    n = int(sys.argv[1])
    eps = np.finfo(float).eps
    rng = np.random.default_rng(7)
    a = rng.standard_normal((n, n))
    s = a @ a.T + n * np.eye(n)
    t0 = time.perf_counter()
    lower = np.linalg.cholesky(s)
    t1 = time.perf_counter()
    q, r = np.linalg.qr(a)
    t2 = time.perf_counter()
    chol_res = np.abs(lower @ lower.T - s).max() / (n * eps * np.abs(s).max())
    qr_res = np.abs(q @ r - a).max() / (n * eps * np.abs(a).max())
    print(f"cholesky n={n} seconds={t1 - t0:.4f} residual/(n eps)={chol_res:.3f}")
    print(f"qr n={n} seconds={t2 - t1:.4f} residual/(n eps)={qr_res:.3f}")
    ok = chol_res < 30 and qr_res < 30
    if len(sys.argv) > 3 and sys.argv[2] == "--save":
        np.savez(sys.argv[3], lower=lower, q=q, r=r)
    if len(sys.argv) > 3 and sys.argv[2] == "--against":
        other = np.load(sys.argv[3])
        for name, mine in (("lower", lower), ("q", q), ("r", r)):
            theirs = other[name]
            err = np.abs(mine - theirs).max() / (n * eps * np.abs(theirs).max())
            good = err < 30
            ok = ok and good
            print(f"{'PASS' if good else 'FAIL'} lapack-numpy {name} n={n} against LAPACK's: "
                  f"{err:.3f} n eps")
    if len(sys.argv) > 3 and sys.argv[2] == "--against":
        kids = children()
        print(f"{'PASS' if not kids else 'FAIL'} lapack-numpy: no process beside the program "
              f"({', '.join(kids) or 'none'})")
        ok = ok and not kids
    print(f"{'PASS' if ok else 'FAIL'} lapack-numpy residuals n={n}: cholesky {chol_res:.3f}, "
          f"qr {qr_res:.3f} n eps")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
