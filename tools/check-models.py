#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check-models: flag a node's performance models whose regression and history disagree.

  tools/check-models.py [NODE ...] [--all] [--models DIR] [--threshold 0.25] [--quiet]
                        [--known FILE|none] [--nl]

A StarPU performance model file (format 45: MODELS/codelets/45/<symbol>.<node>) holds, for
each worker architecture (a combination: cpu0, cuda0, ...), a regression fitted to every
sample it was calibrated on (a size^b, and a size^b + c when StarPU fitted one), and a
history: per task footprint, the data size and the mean of its samples.  StarPU times a
task of a regression-based codelet (Tila's BLAS-3 kernels and potrf) by the regression
wherever it is valid (at least STARPU_CALIBRATE_MINIMUM = 10 samples, sizes 0.9-1.1x those
fitted), never by the history; a simulation does the same.  Tila's codelets are
STARPU_REGRESSION_BASED (a size^b, perfmodels/README.md): that is the fit compared; --nl
adds the a size^b + c ones that older files hold but StarPU never reads for them.  So where both exist, the regression's
prediction at a history entry's size should be that entry's mean: a regression fitted on
outliers (first, cold calls) or on a size law the kernel does not follow says otherwise.

For each node (the suffix of the file names; --all: every node in MODELS), prints one row
per history entry that a valid regression times: codelet, architecture, size (bytes), the
entry's samples and mean, the regression's prediction, and their ratio.  The verdict is
"ok" when the ratio lies within 1 / (1 + threshold) .. 1 + threshold, else "DISAGREE",
or "known" when a line of the known disagreements (--known, by default
perfmodels/reference/check-models-known.txt) names it, with its reason.  Entries outside
the regression's range (StarPU does not use it there) and regressions without history are
counted, not compared.  Exits 1 when a comparison disagrees or a known line of a node
checked explains nothing any more, 2 when a node has no model file, else 0.
"""
import argparse
import fnmatch
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
CALIBRATE_MINIMUM = 10   # StarPU's STARPU_CALIBRATE_MINIMUM default
ENTRY = re.compile(r"^[0-9a-f]{8}\t")
KNOWN = os.path.join(TOP, "perfmodels", "reference", "check-models-known.txt")


def number(text):
    try:
        return float(text)
    except ValueError:
        return float("nan")


def parse(path):
    """The file's per-architecture models: [{arch, reg: {...}, nl: (a, b, c), entries: [...]}]."""
    models = []
    lines = open(path).read().split("\n")
    cur = None
    for i, line in enumerate(lines):
        m = re.match(r"^# Model for (\S+)", line)
        if m:
            cur = {"arch": m.group(1), "reg": None, "nl": None, "entries": []}
            models.append(cur)
        elif cur is None:
            continue
        elif line.startswith("# sumlnx"):
            f = lines[i + 1].split()
            cur["reg"] = {"sumlnx": number(f[0]), "sumlnx2": number(f[1]), "sumlny": number(f[2]),
                          "sumlnxlny": number(f[3]), "alpha": number(f[4]), "beta": number(f[5]),
                          "n": int(f[6]), "minx": int(f[7]), "maxx": int(f[8])}
        elif re.match(r"^# a\s+b\s+c", line):
            cur["nl"] = tuple(number(x) for x in lines[i + 1].split()[:3])
        elif ENTRY.match(line):
            f = line.split()
            cur["entries"].append({"footprint": f[0], "size": int(f[1]), "flops": number(f[2]),
                                   "mean": number(f[3]), "dev": number(f[4]), "n": int(f[7])})
    return models


def valid(reg):
    """StarPU's VALID_REGRESSION: enough samples over a wide enough range."""
    return reg["n"] >= CALIBRATE_MINIMUM and reg["minx"] < 9 * reg["maxx"] / 10


def predictors(model, with_nl):
    """The regressions StarPU could time this architecture's tasks with: (name, function)."""
    reg, out = model["reg"], []
    if reg is None or not valid(reg):
        return out
    if not (math.isnan(reg["alpha"]) or math.isnan(reg["beta"])):
        out.append(("a*s^b", lambda s, r=reg: r["alpha"] * s ** r["beta"]))
    nl = model["nl"]
    if with_nl and nl and not any(math.isnan(x) for x in nl):
        out.append(("a*s^b+c", lambda s, p=nl: p[0] * s ** p[1] + p[2]))
    return out


def nodes_in(models_dir):
    folder = os.path.join(models_dir, "codelets", "45")
    return sorted({f.split(".", 1)[1] for f in os.listdir(folder) if "." in f})


# Square tiles in a BLAS-3 or potrf task as Tila's models count its size (the bytes of that
# many square tiles of the task's flops: tila_cl_blas3_size, codelets/tila_codelet.h), so
# that a known disagreement can name the tasks by their tile edge.
NTILES = {"gemm": 3, "syrk": 2, "trmm": 2, "trsm_left": 2, "trsm_right": 2, "potrf": 1}


def tile_edge(codelet, size):
    kernel = re.sub(r"^tila_[sdcz]", "", codelet).replace("herk", "syrk")
    k = NTILES.get(kernel)
    return math.sqrt(size / (8.0 * k)) if k else None


def load_known(path):
    """Known disagreements: lines 'NODE CODELET ARCH TASKS WHY...' (NODE, CODELET and ARCH
    shell patterns; TASKS '*', 'edge<E' (tasks of square tiles below edge E) or a comma
    list of sizes in bytes); '#' starts a comment."""
    known = []
    for number_, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        f = line.split(None, 4)
        if len(f) < 5:
            sys.exit("check-models: %s:%d: expected NODE CODELET ARCH TASKS WHY" % (path, number_))
        known.append({"node": f[0], "codelet": f[1], "arch": f[2], "tasks": f[3], "why": f[4],
                      "where": "%s:%d" % (os.path.basename(path), number_), "used": False})
    return known


def known_match(k, node, codelet, arch, size):
    if not (fnmatch.fnmatchcase(node, k["node"]) and fnmatch.fnmatchcase(codelet, k["codelet"])
            and fnmatch.fnmatchcase(arch, k["arch"])):
        return False
    if k["tasks"] == "*":
        return True
    if k["tasks"].startswith("edge<"):
        edge = tile_edge(codelet, size)
        return edge is not None and edge < float(k["tasks"][5:])
    return str(size) in k["tasks"].split(",")


def check_node(node, models_dir, threshold, quiet, with_nl=False, known=()):
    """Rows compared, rows disagreeing (known ones apart), known ones, entries out of range,
    regressions without history."""
    folder = os.path.join(models_dir, "codelets", "45")
    files = sorted(f for f in os.listdir(folder) if f.endswith("." + node))
    if not files:
        return None
    compared, bad, explained, outside, bare = 0, 0, 0, 0, 0
    rows = []
    for f in files:
        codelet = f[: -len(node) - 1]
        for model in parse(os.path.join(folder, f)):
            preds = predictors(model, with_nl)
            if not preds:
                continue
            if not [e for e in model["entries"] if e["n"] > 0 and e["mean"] > 0]:
                bare += 1
                continue
            reg = model["reg"]
            for e in model["entries"]:
                if e["n"] <= 0 or not e["mean"] > 0:
                    continue
                if not reg["minx"] * 0.9 <= e["size"] <= reg["maxx"] * 1.1:
                    outside += 1
                    continue
                for name, predict in preds:
                    p = predict(e["size"])
                    ratio = p / e["mean"]
                    verdict = "ok"
                    if not 1 / (1 + threshold) <= ratio <= 1 + threshold:
                        why = [k for k in known
                               if known_match(k, node, codelet, model["arch"], e["size"])]
                        for k in why:
                            k["used"] = True
                        verdict = "known (%s)" % why[0]["where"] if why else "DISAGREE"
                    compared += 1
                    bad += verdict == "DISAGREE"
                    explained += verdict.startswith("known")
                    rows.append((codelet, model["arch"], name, e["size"], e["n"], e["mean"], p,
                                 ratio, verdict, reg["n"]))
    print("# node %s: %d comparison(s), %d disagree by more than %.0f %% (and %d known), %d "
          "history entr%s outside the regressions' ranges, %d regression(s) without history"
          % (node, compared, bad, 100 * threshold, explained, outside,
             "y" if outside == 1 else "ies", bare))
    if rows and (not quiet or bad):
        print("%-22s %-12s %-8s %12s %4s %12s %12s %7s  %s" % (
            "codelet", "arch", "fit", "size(B)", "n", "history(us)", "fit(us)", "fit/his",
            "verdict (fit samples)"))
        for r in rows:
            if quiet and r[8] != "DISAGREE":
                continue
            print("%-22s %-12s %-8s %12d %4d %12.1f %12.1f %7.2f  %s (%d)" % r)
    return compared, bad, explained, outside, bare


def main():
    ap = argparse.ArgumentParser(prog="check-models", description=__doc__.split("\n")[0])
    ap.add_argument("nodes", nargs="*", help="node names (the model files' suffix)")
    ap.add_argument("--all", action="store_true", help="every node in MODELS")
    ap.add_argument("--models", default=os.path.join(TOP, "perfmodels", "reference", "sampling"))
    ap.add_argument("--threshold", type=float, default=0.25,
                    help="largest disagreement allowed, either way (0.25: a ratio within "
                         "0.8-1.25)")
    ap.add_argument("--known", default=KNOWN,
                    help="known disagreements, each with its reason (default %(default)s; "
                         "'none': none)")
    ap.add_argument("--quiet", action="store_true", help="print the disagreeing rows only")
    ap.add_argument("--nl", action="store_true",
                    help="also compare the a size^b + c fits (STARPU_NL_REGRESSION_BASED, "
                         "which Tila's codelets no longer use: files calibrated before "
                         "session 16 still hold them)")
    args = ap.parse_args()
    nodes = nodes_in(args.models) if args.all else args.nodes
    if not nodes:
        ap.error("name a node, or --all")
    known = load_known(args.known) if args.known != "none" and os.path.exists(args.known) else []
    status, disagreed = 0, False
    for node in nodes:
        res = check_node(node, args.models, args.threshold, args.quiet, args.nl, known)
        if res is None:
            print("check-models: no model file for node '%s' in %s"
                  % (node, os.path.join(args.models, "codelets", "45")), file=sys.stderr)
            status = 2
        elif res[1]:
            disagreed = True
            status = status or 1
    stale = [k for k in known if not k["used"]
             and any(fnmatch.fnmatchcase(node, k["node"]) for node in nodes)]
    for k in stale:
        print("check-models: %s: no disagreement of %s %s %s %s left: remove the line"
              % (k["where"], k["node"], k["codelet"], k["arch"], k["tasks"]), file=sys.stderr)
    if stale:
        status = status or 1
    if disagreed:
        print("check-models: regressions and histories disagree (above): StarPU and the "
              "simulator time these tasks by the regression; refit it on its history "
              "(tools/sim-node-model.py --refit NODE), recalibrate, or explain it in %s"
              % os.path.relpath(args.known if args.known != "none" else KNOWN),
              file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
