#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""potrf-link-bound: what the network lets a tiled Cholesky reach on P x Q nodes.

  tools/potrf-link-bound.py --n N --nb NB --p P --q Q [--gpus 4] [--rate 41.9e12]
                            [--bw 25e9] [--elt 8]

Tila's potrf (lower, 2D block-cyclic) updates tile (m, n) at step k with panel tiles
(m, k) and (n, k), so at step k a node of process row r and column c needs every panel
tile of a row m = r mod P or m = c mod Q below the diagonal, and receives those it does
not own, through its one link of --bw bytes/s.  Its share of the step's work is the
step's GEMM-sized updates, (nt - k - 1)(nt - k) / 2 tiles of 2 nb^3 flops over P Q nodes of
--gpus GPUs at --rate flop/s each (the one-node rate a GPU: docs/SIMULATION.md's tables).

Prints, in seconds: the work; the receives of the busiest node summed over steps; the sum
over steps of the larger of the two (each step's receives hidden behind its own work, no
step overlapping the next: the efficiency at most work / that); and the sum of both (no
overlap at all).  A simulated run between the last two has overlapped part of each step.
"""
import argparse


def bound(n, nb, p, q, gpus, rate, bw, elt):
    nt = n // nb
    tile = nb * nb * elt
    gemm = 2.0 * nb**3 / rate
    work = recv = hidden = serial = 0.0
    for k in range(nt):
        rest = range(k + 1, nt)
        w = (nt - k - 1) * (nt - k) / 2 / (p * q) * gemm / gpus
        most = 0
        for r in range(p):
            for c in range(q):
                need = {m for m in rest if m % p == r} | {m for m in rest if m % q == c}
                # a panel tile (m, k) lives on process (m mod P, k mod Q)
                most = max(most, sum(1 for m in need if not (m % p == r and k % q == c)))
        t = most * tile / bw
        work += w
        recv += t
        hidden += max(w, t)
        serial += w + t
    return work, recv, hidden, serial


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--nb", type=int, required=True)
    ap.add_argument("--p", type=int, required=True)
    ap.add_argument("--q", type=int, required=True)
    ap.add_argument("--gpus", type=int, default=4)
    ap.add_argument("--rate", type=float, default=41.9e12, help="flop/s a GPU (one node's)")
    ap.add_argument("--bw", type=float, default=25e9, help="bytes/s a node's link")
    ap.add_argument("--elt", type=int, default=8, help="bytes an element")
    a = ap.parse_args()
    work, recv, hidden, serial = bound(a.n, a.nb, a.p, a.q, a.gpus, a.rate, a.bw, a.elt)
    print("n=%d nb=%d %dx%d: work %.1f s, busiest node's receives %.1f s, "
          "each step hidden %.1f s (efficiency <= %.2f), nothing hidden %.1f s (%.2f)"
          % (a.n, a.nb, a.p, a.q, work, recv, hidden, work / hidden, serial, work / serial))


if __name__ == "__main__":
    main()
