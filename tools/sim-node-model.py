#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sim-node-model: a node description for simulation from documented rates, for a GPU node
that no session has calibrated yet (model, not calibrated).

  tools/sim-node-model.py [--name h100x4-model] [--cpu-from epyc-avx512] [--gpus 4]
                          [--cores 64] [--models DIR] [--fit-tiles 768,1024,1536,2048]
                          [--tiles LIST] [--range LO:HI] [--rates CSV]
                          [--hybrid B:s:b[,b...] ...] [--ib 32]
  tools/sim-node-model.py --refit NODE [--models DIR]
  tools/sim-node-model.py --norm-batch NODE,...|all [--models DIR]

Writes into DIR (default perfmodels/reference/sampling) what StarPU's calibration would
write for the node NAME: the bus files (bus/NAME.{config,affinity,bandwidth,latency,
platform.v4.xml}) and one model file per codelet (codelets/45/tila_d*.NAME), so that
bench/tila-sim --node NAME simulates it.  Double precision only, like the calibration
it starts from.

- CPU workers: the per-core models of a calibrated node description (--cpu-from), copied;
  the regressions (a size^b) of the BLAS-3 kernels and potrf are allowed up to 2048
  tiles, an extrapolation of the fit past the largest tile calibrated (1024).
- CUDA workers (one H100 SXM5 each): each task lasts LAUNCH plus its work at a rate
  derived from NVIDIA's H100 datasheet (FP64 tensor core 67 TFLOP/s, HBM3 3.35 TB/s,
  NVLink 900 GB/s both ways together, PCIe 5 x16 128 GB/s both ways together) and the
  assumed fractions in KERNELS below.  A compute kernel on a tile of edge b (b^3 = flops/2)
  runs at PEAK * fraction * b / (b + b_half); a memory-bound one moves its tiles' bytes at
  HBM * HBM_FRACTION.  The history-based kernels (QR, copies, norms) get an entry for each
  tile shape of the CPU calibration, the regression-based ones a fit of a size^b over the
  tiles --fit-tiles (768 to 2048 by default; StarPU times a regression within 0.9-1.1x the
  sizes it was fitted on, so tasks on other tiles cannot be timed on the GPUs).
- --tiles adds, for the history kernels whose buffers are known (LAYOUTS), entries for
  square tiles of those edges that no calibration ran: the GPUs' from the model, the CPUs'
  extrapolated from the largest calibrated tile (its time scaled by bytes for a memory-bound
  kernel, by flops for a compute one), each under the footprint StarPU computes for such a
  task (checked against the calibrated entries first).  With --fit-tiles 4096,...,16384
  this describes the same node for simulations in large tiles (far fewer tasks to simulate).
- --rates (a GPU of the kind measured kernel by kernel: tila-cuda-rates' rows, 1024- and
  2048-tiles): each GPU kernel's work is the model's times the measured over the model's
  at the tiles measured, a power of the task's flops (bytes) through those two points and
  extended past them, never faster than the measured dgemm (device read); LAUNCH stays.
  Session 34's H100 put cuBLAS's dtrsm at 4-10x, cuSOLVER-based QR kernels at 2-15x and
  the memory-bound kernels at 1.6-3.7x the model's time, dgemm within 8 %.
- --hybrid (repeatable): history entries for the flat tree's QR kernels (geqrt, tsqrt,
  ormqr, tsmqr) on Song and Dongarra's tiling of top-level tiles B cut into s - 1 slices
  of b and one of the rest, every combination of those edges, with inner blocks --ib: the
  CPUs' scaled by flops from the largest calibrated tile, the GPUs' from the model.
- The norms' batch task (tila_dlange_tiles) gets c + a bytes, fitted on the node's per-tile
  lange entries (one launch, then the per-tile kernel's read rate), for the new node and,
  with --norm-batch NODE,... (or all), for nodes already in --models.
- --refit NODE writes no node: it fits the regressions of a calibrated node again, in
  place, on their histories' per-size means (StarPU keeps a regression-based model's
  history for the last process that calibrated it, while the regression accumulates
  every sample of every round, first calls included), so that the two agree
  (tools/check-models.py).  A history of one size keeps the old fit's time at the other
  end of the calibrated range.  The history, the sample count and the range stay the
  calibration's; a refitted node refits to itself.
- Buses: each GPU on its own PCIe 5 x16 link to the host, every pair of GPUs on NVLink
  (through NVSwitch: direct copies between GPUs).

Every number here is a model, not a measurement: replace the node by a calibration
(tila-calibrate with STARPU_HOSTNAME) as soon as a GPU node has run one (issue 16).
"""
import argparse
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

PEAK = 67e12          # FP64 tensor core, flop/s (H100 SXM5 datasheet)
HBM = 3.35e12         # HBM3, bytes/s
HBM_FRACTION = 0.85   # share of HBM a streaming kernel reaches (assumed)
LAUNCH = 5e-6         # kernel launch and StarPU's CUDA driver, s per task (assumed)
PCIE = 64e9 * 0.85    # PCIe 5 x16, one way, at 85 % (assumed)
PCIE_LAT = 8e-6
NVLINK = 450e9 * 0.85 # NVLink 4, one way, at 85 % (assumed)
NVLINK_LAT = 5e-6
GPU_MEM = 80 << 30
# kernel -> (fraction of PEAK on large tiles, b_half), assumed; None: memory-bound.
KERNELS = {
    "gemm": (0.80, 256), "syrk": (0.70, 256), "trmm": (0.70, 256),
    "trsm_left": (0.60, 384), "trsm_right": (0.60, 384),
    "potrf": (0.10, 2048),
    "geqrt": (0.05, 1024), "geqrt_col": (0.05, 1024), "larft_col": (0.05, 1024),
    "tsqrt": (0.05, 1024), "ttqrt": (0.05, 1024),
    "ormqr": (0.50, 512), "tsmqr": (0.50, 512), "ttmqr": (0.50, 512),
    "geadd": None, "lacpy": None, "lange": None, "lansy_offdiag": None, "lascal": None,
    "laset": None, "plrnt": None, "plgsy": None,
}
MARK = "model, not calibrated"
# Default tiles the GPU regressions are fitted on: a size^b cannot follow LAUNCH + work over
# a wide range (256 to 2048: 27 % off at 2048); over these the fit is within FIT_ERROR of the
# model, and over 4096 to 16384 too.
FIT_TILES = (768, 1024, 1536, 2048)
FIT_ERROR = 0.06


def qr_ib(b):
    """The inner block size of the calibration (perfmodels/calibrate.h) and of tila-bench's
    and tila-sim's auto on a square matrix."""
    return min(b, max(32, b // 4 // 8 * 8))


# The buffers of a history kernel's task on a square tile of edge b, one list a variant:
# ("m", rows, cols) a StarPU matrix, ("v", n) a vector, of doubles.  QR: T is ib x b, the
# scratch ib * b (codelets/tila_codelet.h); the PANEL scheme's kernels (geqrt_col,
# larft_col), one entry a column height, are left out.
LAYOUTS = {
    "lange": lambda b: [[("m", b, b), ("v", 1)],    # max norm: the tile's largest |a|
                        [("m", b, b), ("v", 2)],    # Frobenius: scale, sum of squares
                        [("m", b, b), ("v", b)]],   # one / infinity: column or row sums
    "lansy_offdiag": lambda b: [[("m", b, b), ("v", b), ("v", b)]],
    "geqrt": lambda b: [[("m", b, b), ("m", qr_ib(b), b), ("v", qr_ib(b) * b)]],
    "ormqr": lambda b: [[("m", b, b), ("m", qr_ib(b), b), ("m", b, b), ("v", qr_ib(b) * b)]],
}
LAYOUTS["tsqrt"] = LAYOUTS["ttqrt"] = lambda b: [
    [("m", b, b), ("m", b, b), ("m", qr_ib(b), b), ("v", qr_ib(b) * b)]]
LAYOUTS["tsmqr"] = LAYOUTS["ttmqr"] = lambda b: [
    [("m", b, b), ("m", b, b), ("m", b, b), ("m", qr_ib(b), b), ("v", qr_ib(b) * b)]]
INTERFACE_ID = {"m": 0, "v": 2}  # STARPU_MATRIX_INTERFACE_ID, STARPU_VECTOR_INTERFACE_ID


def model_work(kernel, size, flops):
    """A task's work on one GPU under the model: seconds, and what they scale with (its
    flops, or its bytes for a memory-bound kernel)."""
    rate = KERNELS[kernel]
    if rate is None or flops <= 0:
        return size / (HBM * HBM_FRACTION), size
    b = (flops / 2) ** (1 / 3)
    return flops / (PEAK * rate[0] * b / (b + rate[1])), flops


# --rates: the kernel tila-cuda-rates timed for each kernel of the model (the same call,
# or the nearest: trsm_left as trsm_right, the triangle-triangle QR kernels as tpqrt /
# tpmqrt, PANEL's as geqrt, the norms as lange M, the copies and scalings as lacpy, the
# generators and laset as plrnt).  trmm has no measurement and keeps the model.
MEASURED_AS = {
    "gemm": "gemm", "syrk": "syrk", "trsm_left": "trsm", "trsm_right": "trsm", "potrf": "potrf",
    "geqrt": "geqrt", "geqrt_col": "geqrt", "larft_col": "geqrt", "tsqrt": "tpqrt",
    "ttqrt": "tpqrt", "ormqr": "ormqr", "tsmqr": "tpmqrt", "ttmqr": "tpmqrt",
    "lange": "lange", "lansy_offdiag": "lange", "geadd": "lacpy", "lacpy": "lacpy",
    "lascal": "lacpy", "plrnt": "plrnt", "plgsy": "plrnt", "laset": "plrnt",
}
CORRECTION = {}  # kernel -> [(flops or bytes, measured / model work)], by size


def load_rates(path):
    """Each kernel's measured time over the model's, at each tile tila-cuda-rates timed
    (double precision; the norms' max norm)."""
    import csv
    points = {}
    for r in csv.DictReader(open(path)):
        if r["prec"] != "d" or (r["routine"] == "lange" and r["variant"] != "M"):
            continue
        nb, rate = int(r["nb"]), float(r["rate"]) * 1e9
        if r["unit"] == "GB/s":  # the tile read (or written) at that rate
            x = 8.0 * nb * nb
            seconds = x / rate
        else:  # the call's flops at that rate in its time
            seconds = float(r["seconds"])
            x = rate * seconds
        points.setdefault(r["routine"], []).append((x, seconds))
    for kernel, name in MEASURED_AS.items():
        if name in points:
            pts = []
            for x, seconds in sorted(points[name]):
                work, _ = model_work(kernel, x, x if KERNELS[kernel] else 0)
                pts.append((x, seconds / work))
            CORRECTION[kernel] = pts


def correction(kernel, x):
    """measured / model work for a task of x flops (bytes): a power of x through the two
    nearest tiles measured, extended past them (the measured rates of 1024- and 2048-tiles
    are such a power of the model's; a correction held flat outside them would put a kink
    in the curve the regressions are fitted to).  One tile measured: its ratio."""
    pts = CORRECTION.get(kernel)
    if not pts:
        return 1.0
    if len(pts) == 1:
        return pts[0][1]
    k = 0
    while k + 2 < len(pts) and x > pts[k + 1][0]:
        k += 1
    (x0, c0), (x1, c1) = pts[k], pts[k + 1]
    t = math.log(x / x0) / math.log(x1 / x0)
    return math.exp((1 - t) * math.log(c0) + t * math.log(c1))


HBM_READ = 2.776e12  # --rates: cuBLAS's dasum of a whole 20000^2 matrix (session 34)


def gpu_seconds(kernel, size, flops):
    """A task's time on one CUDA worker under the model (with --rates, its work corrected
    by the kernel's measured rate alone on one tile, and no faster than the measured dgemm
    (flops) or device read (bytes): the power extended past the tiles measured would
    otherwise pass them)."""
    work, x = model_work(kernel, size, flops)
    if not CORRECTION:
        return LAUNCH + work
    work *= correction(kernel, x)
    if KERNELS[kernel] and flops > 0:
        fastest = model_work("gemm", flops, flops)[0] * correction("gemm", flops)
    else:
        fastest = size / HBM_READ
    return LAUNCH + max(work, fastest)


def fmt(x):
    return "%-15s" % ("%e" % x)


def crc32c(value, crc):
    """StarPU's starpu_hash_crc32c_be: CRC-32C (0x1EDC6F41, MSB first) of a uint32's bytes
    in this machine's (little-endian) order, from crc."""
    for byte in value.to_bytes(4, "little"):
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ (0x1EDC6F41 if crc & 0x80000000 else 0)) & 0xFFFFFFFF
    return crc


def footprint(buffers):
    """A task's footprint and data size as StarPU 1.3 computes them (starpu_task_data_footprint:
    each handle's interface footprint hashed with its interface id, chained from 0)."""
    fp, size = 0, 0
    for buf in buffers:
        dims = buf[1:] if buf[0] == "m" else (buf[1], 0)
        fp = crc32c(crc32c(crc32c(dims[0], dims[1]), INTERFACE_ID[buf[0]]), fp)
        size += 8 * buf[1] * (buf[2] if buf[0] == "m" else 1)
    return "%08x" % fp, size


def entry_line(fp, size, flops, mean):
    return "\t".join([fp, "%-15d" % size, fmt(flops), fmt(mean), fmt(0.0), fmt(100 * mean),
                      fmt(100 * mean * mean), "100"])


def history(block):
    """A combination's lines, and its history entries by footprint (their fields)."""
    lines = block.split("\n")
    return lines, {l.split()[0]: l.split() for l in lines if re.match(r"^[0-9a-f]{8}\t", l)}


def calibrated_base(kernel, have):
    """The largest square tile whose LAYOUTS variants all have entries in `have` (their
    sizes checked): what new entries are extrapolated from."""
    largest = math.isqrt(max(int(e[1]) for e in have.values()) // 8)
    base = next((b for b in range(largest, 0, -1)
                 if all(footprint(v)[0] in have for v in LAYOUTS[kernel](b))), None)
    assert base, "%s: no calibrated tile matches LAYOUTS" % kernel
    for variant in LAYOUTS[kernel](base):
        fp, size = footprint(variant)
        assert int(have[fp][1]) == size, "%s: footprint %s has size %s, not %d" % (
            kernel, fp, have[fp][1], size)
    return base


def with_entries(lines, new):
    """The combination `lines` with the entry lines `new` first in its history."""
    at = next(i for i, l in enumerate(lines) if l.startswith("# hash"))
    count = next(i for i, l in enumerate(lines) if l == "# number of entries") + 1
    lines[count] = str(int(lines[count]) + len(new))
    return "\n".join(lines[:at + 1] + new + lines[at + 1:])


def add_tiles(block, kernel, tiles):
    """The CPU combination `block` with entries for square tiles `tiles` of a LAYOUTS kernel,
    extrapolated from the largest calibrated tile whose variants it finds (and checks)."""
    lines, have = history(block)
    base = calibrated_base(kernel, have)
    power = 2 if KERNELS[kernel] is None else 3
    new = []
    for b in tiles:
        for variant, ref in zip(LAYOUTS[kernel](b), LAYOUTS[kernel](base)):
            fp, size = footprint(variant)
            if fp in have:
                continue
            old = have[footprint(ref)[0]]
            scale = (b / base) ** power
            new.append(entry_line(fp, size, float(old[2]) * scale, float(old[3]) * scale))
    return with_entries(lines, new)


# --hybrid: the flat tree's QR kernels on Song and Dongarra's tiling (rows and columns
# both: top-level tiles of B cut into s - 1 slices of b and one of B - (s - 1) b), with
# inner blocks ib: each kernel's buffers in its codelet's order for tiles of any of those
# edges, and its flops (LAPACK's counts, those of tila-cuda-rates).  The walk's scratch is
# ib times the widest tile (tila_qr_scratch_elems without CUDA, as the simulation builds).
QR_FLOPS = {"geqrt": lambda m, n, k: 4.0 / 3 * k ** 3, "tsqrt": lambda m, n, k: 2.0 * m * k * k,
            "ormqr": lambda m, n, k: 2.0 * k * k * n, "tsmqr": lambda m, n, k: 4.0 * m * n * k}


def hybrid_shapes(B, s, bs, ib):
    """kernel -> [(buffers, flops)] for every edge b of bs."""
    out = {k: [] for k in QR_FLOPS}
    for b in bs:
        edges = sorted({b, B - (s - 1) * b})
        work = ("v", ib * max(edges))
        for k in edges:
            out["geqrt"].append(([("m", k, k), ("m", ib, k), work], QR_FLOPS["geqrt"](k, k, k)))
            for x in edges:  # x: the rows of a tile below, or the columns of one beside
                out["tsqrt"].append(([("m", k, k), ("m", x, k), ("m", ib, k), work],
                                     QR_FLOPS["tsqrt"](x, k, k)))
                out["ormqr"].append(([("m", k, k), ("m", ib, k), ("m", k, x), work],
                                     QR_FLOPS["ormqr"](k, x, k)))
                for m in edges:
                    out["tsmqr"].append(([("m", k, x), ("m", m, x), ("m", m, k), ("m", ib, k),
                                          work], QR_FLOPS["tsmqr"](m, x, k)))
    return out


def add_shapes(block, kernel, shapes):
    """The CPU combination `block` with entries for the tasks `shapes` ([(buffers, flops)]),
    scaled by flops from the largest calibrated square tile (as add_tiles finds it)."""
    lines, have = history(block)
    base = calibrated_base(kernel, have)
    ref = have[footprint(LAYOUTS[kernel](base)[0])[0]]
    per_flop = float(ref[3]) / QR_FLOPS[kernel](base, base, base)
    new, seen = [], set(have)
    for buffers, flops in shapes:
        fp, size = footprint(buffers)
        if fp in seen:
            continue
        seen.add(fp)
        new.append(entry_line(fp, size, flops, per_flop * flops))
    return with_entries(lines, new)


def split_combs(text):
    """The file's header (to its number of combinations) and its combinations' blocks."""
    parts = re.split(r"(?m)^(?=####################\n# COMB_\d+\n)", text)
    return parts[0], parts[1:]


def regression_lines(kernel, entries, abc_header, fit_tiles):
    """A regression's two lines and the a b c ones: a size^b through the model's times on
    fit_tiles, scaled from the largest tile of the history `entries` (a 1024-tile)."""
    big = max(entries, key=lambda e: int(e[1]))
    s0, f0 = float(big[1]), float(big[2])
    pts = [(s0 * (nb / 1024.0) ** 2, f0 * (nb / 1024.0) ** 3) for nb in fit_tiles]
    xs = [math.log(size) for size, _ in pts]
    ys = [math.log(gpu_seconds(kernel, size, flops) * 1e6) for size, flops in pts]
    n = len(pts)
    sx, sy, sxx, sxy = sum(xs), sum(ys), sum(x * x for x in xs), sum(x * y for x, y in zip(xs, ys))
    beta = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    alpha = math.exp((sy - beta * sx) / n)
    worst = max(abs(math.exp(y) / (alpha * math.exp(x) ** beta) - 1) for x, y in zip(xs, ys))
    assert worst < FIT_ERROR, "%s: the fit is %.0f %% off the model" % (kernel, 100 * worst)
    return ["\t".join([fmt(sx), fmt(sxx), fmt(sy), fmt(sxy), fmt(alpha), fmt(beta), "100",
                       "%-15d" % int(pts[0][0]), "%-15d" % int(pts[-1][0])]),
            abc_header, "\t".join([fmt(alpha), fmt(beta), fmt(0.0)])]


def cuda_comb(block, kernel, gpu, fit_tiles):
    """The CPU combination `block` of a model file made into the one of CUDA device `gpu`
    under the model (StarPU keeps one per device unless STARPU_PERF_MODEL_HOMOGENEOUS_CUDA)."""
    lines = block.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line == "# COMB_0":
            line = "# COMB_%d" % (gpu + 1)
        elif line.startswith("# device type") or line.startswith("# device id"):
            out += [line, "1" if "type" in line else str(gpu)]
            i += 2
            continue
        elif line.startswith("# Model for cpu0_impl0"):
            line = "# Model for cuda%d_impl0 (Comb%d)" % (gpu, gpu + 1)
        elif line.startswith("# sumlnx") and KERNELS.get(kernel) and lines[i + 1].split()[6] != "0":
            entries = [l.split() for l in lines if re.match(r"^[0-9a-f]{8}\t", l)]
            out += [line] + regression_lines(kernel, entries, lines[i + 2], fit_tiles)
            i += 4
            continue
        elif re.match(r"^[0-9a-f]{8}\t", line):
            e = line.split()
            line = entry_line(e[0], int(e[1]), float(e[2]),
                              gpu_seconds(kernel, float(e[1]), float(e[2])) * 1e6)
        out.append(line)
        i += 1
    return "\n".join(out)


def map_regressions(block, fix):
    """`block` with fix(fields) applied to the line of each regression fitted (after its
    "... minx maxx" header; fields 7 and 8 its minx and maxx)."""
    def one(m):
        f = m.group(0).split("\t")
        if f[6].strip() != "0":
            fix(f)
        return "\t".join(f)
    return re.sub(r"(?m)(?<=maxx\n)[^\n]+", one, block)


def extend_cpu_range(block, max_nb):
    """The CPU regression allowed up to max_nb tiles (from the 1024 ones calibrated)."""
    def widen(f):
        if max_nb > 1024:
            f[8] = "%-15d" % int(int(f[8]) * (max_nb / 1024.0) ** 2)
    return map_regressions(block, widen)


# Tiles in a BLAS-3 task as Tila's models count its size (codelets/tila_codelet.h,
# tila_cl_blas3_size: the bytes of that many square tiles of the task's flops).
NTILES = {"gemm": 3, "syrk": 2, "trmm": 2, "trsm_left": 2, "trsm_right": 2, "potrf": 1}


def set_range(block, kernel, lo, hi):
    """Every regression of `block` allowed from lo to hi (the edges of square tasks)."""
    def widen(f):
        f[7] = "%-15d" % (NTILES[kernel] * 8 * lo * lo)
        f[8] = "%-15d" % (NTILES[kernel] * 8 * hi * hi)
    return map_regressions(block, widen)


def write_models(src, dst, cpu_from, name, fit_tiles, tiles, gpus, span=None, shapes=None):
    for f in sorted(os.listdir(src)):
        m = re.match(r"^tila_d(\w+)\.%s$" % re.escape(cpu_from), f)
        if not m or m.group(1) not in KERNELS:
            continue
        with open(os.path.join(src, f)) as fin:
            head, combs = split_combs(fin.read())
        cpu = extend_cpu_range(combs[0].rstrip("\n"), max(fit_tiles))
        if tiles and m.group(1) in LAYOUTS:
            cpu = add_tiles(cpu, m.group(1), tiles)
        if shapes and m.group(1) in shapes:
            cpu = add_shapes(cpu, m.group(1), shapes[m.group(1)])
        head = re.sub(r"(?m)(?<=# number of combinations\n)\d+", str(1 + gpus), head)
        blocks = [cpu] + [cuda_comb(cpu, m.group(1), g, fit_tiles) for g in range(gpus)]
        if span and m.group(1) in NTILES:
            blocks = [set_range(b, m.group(1), *span) for b in blocks]
        with open(os.path.join(dst, "tila_d%s.%s" % (m.group(1), name)), "w") as fout:
            fout.write(head + "".join(b + "\n" for b in blocks))


# The norms' batch task (tila_zlange_tiles: a rank's tiles of one GPU in one task) has a
# non-linear regression model on its bytes, time = c + a bytes (StarPU's a size^b + c with
# b = 1): one launch, then the tiles read at the per-tile kernel's rate.
# The device read (cuBLAS's dasum of a whole matrix) bounds the batch's rate on a GPU:
# H100 session 34 (HBM_READ), H200 session 38 (bench/results/gpu/h200-s38-run1).
DEVICE_READ = {"h200": 3.902e12}


def norm_batch_text(lange_text, node):
    """The model file of tila_dlange_tiles from the node's tila_dlange file: each of its
    combinations (the CPUs, each GPU) with its history entries (one tile of each norm and
    shape) replaced by c + a size fitted on them by least squares, valid from 1 MB to 10 TB.
    On a GPU a is at least 1 / the device read (a measured node's entries are one or two
    tile sizes of launch-bound times, whose fit can be faster than the memory, or fall
    with the size); c is then the entries' median time less that read."""
    read = DEVICE_READ.get(node.split("-")[0], HBM_READ) / 1e6  # bytes a microsecond
    head, combs = split_combs(lange_text)
    blocks = []
    for block in combs:
        lines = block.rstrip("\n").split("\n")
        entries = [l.split() for l in lines if ENTRY.match(l)]
        if len(entries) < 2:
            raise SystemExit("sim-node-model: a tila_dlange combination with %d entries" %
                             len(entries))
        xs = [float(e[1]) for e in entries]
        ys = [float(e[3]) for e in entries]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        c = my - a * mx
        gpu = any(l.startswith("# Model for cuda") for l in lines)
        if gpu and a < 1 / read:
            a = 1 / read
            rest = sorted(y - a * x for x, y in zip(xs, ys))
            c = rest[n // 2] if n % 2 else (rest[n // 2 - 1] + rest[n // 2]) / 2
        c = max(c, 0.0)
        i = next(k for k, l in enumerate(lines) if l == "# number of entries")
        out = lines[:i] + ["# number of entries", "0",
                           "# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx"
                           "\t\tmaxx",
                           "\t".join([fmt(0.0)] * 4 + [fmt(float("nan"))] * 2 +
                                     ["100", "%-15d" % 1000000, "%-15d" % 10000000000000]),
                           "# a\t\tb\t\tc", "\t".join([fmt(a), fmt(1.0), fmt(c)]),
                           "# not multiple-regression-base", "0",
                           "# hash\t\tsize\t\tflops\t\tmean (us)\tdev (us)\tsum\t\tsum2\t\tn"]
        blocks.append("\n".join(out) + "\n")
    return head + "".join(blocks)


def write_norm_batch(codelets, node):
    """codelets/tila_dlange_tiles.NODE from codelets/tila_dlange.NODE (norm_batch_text)."""
    with open(os.path.join(codelets, "tila_dlange.%s" % node)) as fin:
        text = norm_batch_text(fin.read(), node)
    with open(os.path.join(codelets, "tila_dlange_tiles.%s" % node), "w") as fout:
        fout.write(text)


# --refit: a calibrated node's regressions fitted again on their histories.
ENTRY = re.compile(r"^[0-9a-f]{8}\t")


def refit_line(line, entries):
    """The regression line `line` (sums, alpha, beta, n, minx, maxx) fitted again on the
    history `entries` (their fields) that it times: a size^b by least squares on the log of
    each size's mean (its entries' means weighted by their samples), each size weighted by
    its share of the history's samples.  A history of one size says nothing of the slope:
    the old regression's times at the ends of its range (minx, maxx: the smallest and the
    largest task calibrated) that the history lacks count as sizes of as many samples as
    the history's.  The sums are those of the regression's n samples so weighted (StarPU's
    formulas give alpha and beta back from them); n, minx and maxx are unchanged, so
    StarPU's validity and range stay the calibration's.  A one-size fit already through its
    history's mean is kept as it is (a refitted node refits to itself, to the digit).  No
    history in the range (or no regression): None."""
    f = line.split("\t")
    n, minx, maxx = int(f[6]), int(f[7]), int(f[8])
    alpha, beta = float(f[4]), float(f[5])
    if n == 0 or math.isnan(alpha) or math.isnan(beta):
        return None
    sizes = {}
    for e in entries:
        size, mean, count = int(e[1]), float(e[3]), int(e[7])
        if count > 0 and mean > 0 and minx * 0.9 <= size <= maxx * 1.1:
            s = sizes.setdefault(size, [0.0, 0])
            s[0] += mean * count
            s[1] += count
    if not sizes:
        return None
    if len(sizes) == 1:
        ((size, (t, count)),) = sizes.items()
        if abs(alpha * size ** beta * count / t - 1) < 1e-5:
            return line  # through the history's mean already: refitted before
        for x in (minx, maxx):
            if x not in sizes:
                sizes[x] = [alpha * x ** beta * count, count]
    if len(sizes) == 1:
        return None
    total = sum(c for _, c in sizes.values())
    pts = [(math.log(size), math.log(t / c), n * c / total) for size, (t, c) in sorted(sizes.items())]
    sx = sum(w * x for x, _, w in pts)
    sxx = sum(w * x * x for x, _, w in pts)
    sy = sum(w * y for _, y, w in pts)
    sxy = sum(w * x * y for x, y, w in pts)
    beta = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    alpha = math.exp((sy - beta * sx) / n)
    return "\t".join([fmt(sx), fmt(sxx), fmt(sy), fmt(sxy), fmt(alpha), fmt(beta), str(n),
                      "%-15d" % minx, "%-15d" % maxx])


def refit_text(text):
    """A model file's text with each regression refitted on its history (refit_line), and
    for each one refitted: (architecture, sizes, old and new times at each size)."""
    lines = text.split("\n")
    impls, arch = [], None  # [architecture, index of the regression line, entries]
    for i, line in enumerate(lines):
        if line.startswith("# Model for "):
            arch = line.split()[3]
        elif line.startswith("# sumlnx"):
            impls.append([arch, i + 1, []])
        elif ENTRY.match(line) and impls:
            impls[-1][2].append(line.split())
    done = []
    for arch, at, entries in impls:
        new = refit_line(lines[at], entries)
        if new is None:
            continue
        old_f, new_f = lines[at].split("\t"), new.split("\t")
        sizes = sorted({int(e[1]) for e in entries})
        done.append((arch, [(size, float(old_f[4]) * size ** float(old_f[5]),
                             float(new_f[4]) * size ** float(new_f[5]),
                             [float(e[3]) for e in entries if int(e[1]) == size and int(e[7])])
                            for size in sizes]))
        lines[at] = new
    return "\n".join(lines), done


def refit_node(codelets, node):
    """Every model file of `node` in `codelets` with its regressions refitted (refit_text),
    in place; a table of what changed."""
    files = sorted(f for f in os.listdir(codelets) if f.endswith("." + node))
    if not files:
        raise SystemExit("sim-node-model: no model file of node '%s' in %s" % (node, codelets))
    for f in files:
        path = os.path.join(codelets, f)
        with open(path) as fin:
            text = fin.read()
        new, done = refit_text(text)
        if new != text:
            with open(path, "w") as fout:
                fout.write(new)
        for arch, rows in done:
            for size, old, fit, means in rows:
                print("sim-node-model: %-24s %-12s size %10d: history %s, fit %.1f -> %.1f us"
                      % (f, arch, size, "/".join("%.1f us" % m for m in means) or "none",
                         old, fit))


def matrix(values, gpus):
    """A bus matrix file: node 0 is RAM, 1..gpus the GPUs, nan past them (16 x 16)."""
    rows = ["# " + "".join("to %d\t\t" % j for j in range(16))]
    for i in range(16):
        rows.append("\t".join("%e" % values(i, j) if i <= gpus and j <= gpus else "nan"
                              for j in range(16)))
    return "\n".join(rows) + "\n"


def write_bus(dst, name, cores, gpus):
    def bw(i, j):  # MB/s, as StarPU writes it
        return 0.0 if i == j else (NVLINK if i and j else PCIE) / 1e6

    def lat(i, j):  # us
        return 0.0 if i == j else (NVLINK_LAT if i and j else PCIE_LAT) * 1e6

    files = {
        "config": "# Current configuration\n%d # Number of CPUs\n1 # Number of NUMA nodes\n"
                  "%d # Number of CUDA devices\n0 # Number of OpenCL devices\n"
                  "0 # Number of MIC devices\n0 # Number of MPI devices\n" % (cores, gpus),
        "affinity": "# GPU\tNUMA0\t\n" + "".join("%d\t0\t\n" % g for g in range(gpus)),
        "bandwidth": matrix(bw, gpus),
        "latency": matrix(lat, gpus),
    }
    hosts = "".join('   <host id="CPU%d" speed="2000000000f"/>\n' % c for c in range(cores))
    hosts += "".join('   <host id="CUDA%d" speed="2000000000f">\n     <prop id="memsize" value="%d"/>\n'
                     '     <prop id="memcpy_peer" value="1"/>\n   </host>\n' % (g, GPU_MEM)
                     for g in range(gpus))
    links = "".join('   <link id="RAM-CUDA%d" bandwidth="%fBps" latency="%fs"/>\n'
                    '   <link id="CUDA%d-RAM" bandwidth="%fBps" latency="%fs"/>\n'
                    % (g, PCIE, PCIE_LAT, g, PCIE, PCIE_LAT) for g in range(gpus))
    links += "".join('   <link id="CUDA%d-CUDA%d" bandwidth="%fBps" latency="%fs"/>\n'
                     % (g, h, NVLINK, NVLINK_LAT) for g in range(gpus) for h in range(gpus) if g != h)
    routes = "".join('   <route src="RAM" dst="CUDA%d" symmetrical="NO"><link_ctn id="RAM-CUDA%d"/>'
                     '<link_ctn id="Host"/></route>\n'
                     '   <route src="CUDA%d" dst="RAM" symmetrical="NO"><link_ctn id="CUDA%d-RAM"/>'
                     '<link_ctn id="Host"/></route>\n' % (g, g, g, g) for g in range(gpus))
    routes += "".join('   <route src="CUDA%d" dst="CUDA%d" symmetrical="NO"><link_ctn id="CUDA%d-CUDA%d"/>'
                      '</route>\n' % (g, h, g, h) for g in range(gpus) for h in range(gpus) if g != h)
    files["platform.v4.xml"] = (
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM 'http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd'>\n"
        " <platform version=\"4\">\n"
        " <!-- tila: %s (tools/sim-node-model.py: %d x H100 SXM5 from NVIDIA's datasheet) -->\n"
        " <config id=\"General\">\n"
        "   <prop id=\"network/TCP-gamma\" value=\"-1\"></prop>\n"
        "   <prop id=\"network/latency-factor\" value=\"1\"></prop>\n"
        "   <prop id=\"network/bandwidth-factor\" value=\"1\"></prop>\n"
        "   <prop id=\"network/crosstraffic\" value=\"0\"></prop>\n"
        "   <prop id=\"network/weight-S\" value=\"0.0\"></prop>\n"
        " </config>\n"
        " <AS  id=\"AS0\"  routing=\"Full\">\n"
        "   <host id=\"MAIN\" speed=\"1f\"/>\n%s\n"
        "   <host id=\"RAM\" speed=\"1f\"/>\n\n"
        "   <link id=\"Host\" bandwidth=\"%fBps\" latency=\"0.000000s\"/>\n\n%s\n%s"
        " </AS>\n"
        " </platform>\n" % (MARK, gpus, hosts, gpus * PCIE, links, routes))
    for ext, text in files.items():
        with open(os.path.join(dst, "%s.%s" % (name, ext)), "w") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(prog="sim-node-model", description=__doc__.split("\n")[0])
    ap.add_argument("--name", default="h100x4-model")
    ap.add_argument("--cpu-from", default="epyc-avx512")
    ap.add_argument("--gpus", type=int, default=4)
    ap.add_argument("--cores", type=int, default=64)
    ap.add_argument("--models", default=os.path.join(TOP, "perfmodels", "reference", "sampling"))
    tile_list = lambda text: [int(x) for x in text.split(",") if x]
    ap.add_argument("--fit-tiles", type=tile_list, default=list(FIT_TILES),
                    help="tiles the GPU regressions are fitted on")
    ap.add_argument("--tiles", type=tile_list, default=[],
                    help="square tiles to add to the history kernels of LAYOUTS")
    ap.add_argument("--range", type=lambda t: [int(x) for x in t.split(":")], default=None,
                    metavar="LO:HI", help="edges of the square tasks (of a task's flops) "
                    "for which the CPU and GPU regressions may be used")
    ap.add_argument("--rates", default=None, metavar="CSV",
                    help="tila-cuda-rates' CSV (BENCH.md's columns) from a GPU of the "
                    "node's kind: each kernel's work in the model scaled to the "
                    "measured rate alone on one tile (bench/results/gpu/h100-s34-run1/rates.csv)")
    ap.add_argument("--hybrid", action="append", default=[], metavar="B:s:b[,b...]",
                    help="history entries for the flat tree's QR kernels (geqrt, tsqrt, "
                    "ormqr, tsmqr) on the tilings of tila_hybrid_t B, s and each b (repeatable)")
    ap.add_argument("--ib", type=int, default=32, help="--hybrid's inner block size")
    ap.add_argument("--refit", metavar="NODE",
                    help="instead of writing a node: refit the regressions of the calibrated "
                    "node NODE in --models on their histories' per-size means, in place "
                    "(a regression fitted on cold first calls then agrees with the history: "
                    "tools/check-models.py)")
    ap.add_argument("--norm-batch", metavar="NODE,...",
                    help="instead of writing a node: the norms' batch model "
                    "(tila_dlange_tiles.NODE) of each node NODE in --models from its "
                    "tila_dlange model (norm_batch_text); 'all': every node that has one")
    args = ap.parse_args()
    if args.norm_batch:
        codelets = os.path.join(args.models, "codelets", "45")
        nodes = args.norm_batch.split(",")
        if nodes == ["all"]:
            nodes = sorted(f[len("tila_dlange."):] for f in os.listdir(codelets)
                           if f.startswith("tila_dlange."))
        for node in nodes:
            write_norm_batch(codelets, node)
        print("sim-node-model: the norms' batch model of %s in %s" % (", ".join(nodes), codelets))
        return
    if args.refit:
        refit_node(os.path.join(args.models, "codelets", "45"), args.refit)
        print("sim-node-model: refitted node '%s' in %s" % (args.refit, args.models))
        return
    shapes = {}
    for spec in args.hybrid:
        B, s, bs = spec.split(":")
        for kernel, tasks in hybrid_shapes(int(B), int(s), [int(b) for b in bs.split(",")],
                                           args.ib).items():
            shapes.setdefault(kernel, []).extend(tasks)
    if args.rates:
        load_rates(args.rates)
        for kernel in sorted(CORRECTION):
            print("sim-node-model: %-14s measured / model work %s" % (kernel, ", ".join(
                "%.2f at %.3g" % (c, x) for x, c in CORRECTION[kernel])))
    write_bus(os.path.join(args.models, "bus"), args.name, args.cores, args.gpus)
    codelets = os.path.join(args.models, "codelets", "45")
    write_models(codelets, codelets, args.cpu_from, args.name, args.fit_tiles, args.tiles,
                 args.gpus, args.range, shapes)
    write_norm_batch(codelets, args.name)
    print("sim-node-model: wrote node '%s' (%s) into %s" % (args.name, MARK, args.models))


if __name__ == "__main__":
    main()
