#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tila's precision generator: writes the c, d or s file of a z-source.

Usage: genprec.py PREC INPUT OUTPUT

A z-source carries the tag `@precisions normal z -> c d s` (or a subset of the
targets, e.g. `z -> c` for Hermitian-only routines).  The generator applies an
ordered table of word-boundary substitutions and heads the result with an
`@generated` line.  In a z-file, `double` is the real type of the precision and
complex-only code sits under `#if defined(COMPLEX)`.

A mixed-precision source (double complex with its single complex partner: zcposv)
carries `@precisions mixed zc -> ds` and becomes its d file (double with single).
Its single-precision names are first renamed by MIXED (below, explicit: a c-prefix
rule would also take tila_check_ and tila_cl_), then the z -> d rules apply.
"""
import os
import re
import sys

PRECS = "zcds"

# Routine stems that change name in real arithmetic (Hermitian -> symmetric,
# unitary -> orthogonal).  Applied to identifiers of the form <prefix>z<stem>.
REAL_STEMS = {
    "herk": "syrk", "her2k": "syr2k", "hemm": "symm", "lanhe": "lansy",
    "plghe": "plgsy", "unmqr": "ormqr", "ungqr": "orgqr", "unmlq": "ormlq",
    "gemqrt": "gemqrt", "tpmqrt": "tpmqrt", "unhr": "orhr",
}

# Prefixes after which the precision letter of a routine name follows.
ROUTINE_PREFIX = (r"tila_core_|tila_cuda_|tila_cl_|tila_insert_|tila_test_|tila_check_|"
                  r"tila_bench_|tila_calibrate_|tila_|LAPACKE_|cblas_|codelet_|core_|cuda_|test_|bench_")

# Library prefixes glued to a routine name (cublasZgemm): (z, c, d, s).
GLUED = [
    ("cublasZ", "cublasC", "cublasD", "cublasS"),
    ("cusolverDnZ", "cusolverDnC", "cusolverDnD", "cusolverDnS"),
]

# Plain word substitutions, in order: (z, c, d, s).
WORDS = [
    ("tila_complex64_t", "tila_complex32_t", "double", "float"),
    ("cuDoubleComplex", "cuFloatComplex", "double", "float"),
    ("make_cuDoubleComplex", "make_cuFloatComplex", "", ""),
    ("TILA_COMPLEX64", "TILA_COMPLEX32", "TILA_REAL64", "TILA_REAL32"),
    ("MPI_C_DOUBLE_COMPLEX", "MPI_C_FLOAT_COMPLEX", "MPI_DOUBLE", "MPI_FLOAT"),
    ("double", "float", "double", "float"),
    ("DBL_EPSILON", "FLT_EPSILON", "DBL_EPSILON", "FLT_EPSILON"),
    ("DBL_MIN", "FLT_MIN", "DBL_MIN", "FLT_MIN"),
    ("DBL_MAX", "FLT_MAX", "DBL_MAX", "FLT_MAX"),
    ("MPI_DOUBLE", "MPI_FLOAT", "MPI_DOUBLE", "MPI_FLOAT"),
    ("cabs", "cabsf", "fabs", "fabsf"),
    ("creal", "crealf", "creal", "crealf"),
    ("fabs", "fabsf", "fabs", "fabsf"),
    ("sqrt", "sqrtf", "sqrt", "sqrtf"),
    ("cimag", "cimagf", "cimag", "cimagf"),
    ("frexp", "frexpf", "frexp", "frexpf"),
    ("ldexp", "ldexpf", "ldexp", "ldexpf"),
    ("cuCabs", "cuCabsf", "fabs", "fabsf"),
    ("cuCreal", "cuCrealf", "cuCreal", "cuCrealf"),
    ("cuCimag", "cuCimagf", "cuCimag", "cuCimagf"),
    ("cuCdiv", "cuCdivf", "cuCdiv", "cuCdivf"),
    ("_mm_max_pd", "_mm_max_ps", "_mm_max_pd", "_mm_max_ps"),
    ("cblas_izamax", "cblas_icamax", "cblas_idamax", "cblas_isamax"),
    ("CblasConjTrans", "CblasConjTrans", "CblasTrans", "CblasTrans"),
    ("CUBLAS_OP_C", "CUBLAS_OP_C", "CUBLAS_OP_T", "CUBLAS_OP_T"),
    ("PRECISION_z", "PRECISION_c", "PRECISION_d", "PRECISION_s"),
    ("CUDA_C_64F", "CUDA_C_32F", "CUDA_R_64F", "CUDA_R_32F"),
]


# A mixed source's names of the pair and of its single-precision partner, z/c -> d/s,
# matched where no letter or digit precedes or follows the stem (tila_insert_zlag2c).
MIXED = [
    ("zcposv", "dsposv"), ("ZCPOSV", "DSPOSV"), ("zlag2c", "dlag2s"), ("clag2z", "slag2d"),
    ("zlat2c", "dlat2s"), ("zc.h", "ds.h"), ("ZC_H", "DS_H"),
    ("tila_cpotrf_async", "tila_spotrf_async"), ("tila_cpotrs_async", "tila_spotrs_async"),
    ("tila_complex32_t", "float"), ("cuFloatComplex", "float"),
    ("TILA_COMPLEX32", "TILA_REAL32"),
    # The low-precision updates of the mixed solve's factorization (zcgemm_lp).
    ("zcgemm_lp", "dsgemm_lp"), ("tila_core_cgemm_lp", "tila_core_sgemm_lp"),
    ("tila_core_cherk_lp", "tila_core_ssyrk_lp"), ("tila_cuda_cgemm_lp", "tila_cuda_sgemm_lp"),
    ("tila_cuda_cherk_lp", "tila_cuda_ssyrk_lp"), ("tila_cl_cgemm_lp", "tila_cl_sgemm_lp"),
    ("tila_cl_cherk_lp", "tila_cl_ssyrk_lp"), ("tila_insert_cgemm_lp", "tila_insert_sgemm_lp"),
    ("tila_insert_cherk_lp", "tila_insert_ssyrk_lp"), ("tila_cgemm_lp", "tila_sgemm_lp"),
    ("tila_cherk_lp", "tila_ssyrk_lp"), ("cgemm_lp", "sgemm_lp"), ("cherk_lp", "ssyrk_lp"),
    ("cblas_cgemm", "cblas_sgemm"), ("cblas_cherk", "cblas_ssyrk"), ("CUDA_C_32F", "CUDA_R_32F"),
    ("tila_cpotrf_submit", "tila_spotrf_submit"), ("tila_cpotrf_updates_t", "tila_spotrf_updates_t"),
    ("drivers_c.h", "drivers_s.h"), ("codelets_c.h", "codelets_s.h"),
    ("tila_insert_clascal", "tila_insert_slascal"), ("tila_insert_claset", "tila_insert_slaset"),
    ("tila_insert_cgeadd", "tila_insert_sgeadd"),
    # The refinement's correction in one task (zcpotrs): single precision's tile kernels.
    ("zcpotrs", "dspotrs"), ("core_c.h", "core_s.h"), ("cuda_c.h", "cuda_s.h"),
    ("tila_core_ctrsm", "tila_core_strsm"), ("tila_core_cgemm", "tila_core_sgemm"),
    ("tila_cuda_ctrsm", "tila_cuda_strsm"), ("tila_cuda_cgemm", "tila_cuda_sgemm"),
    # Conversions between the two: a cast in real (their one argument, in parentheses).
    ("cuComplexFloatToDouble", ""), ("cuComplexDoubleToFloat", ""),
]


def convert_mixed(text):
    """The zc -> ds renames of a mixed source, before convert(text, "d")."""
    for zc, ds in MIXED:
        text = re.sub(r"(?<![A-Za-z0-9])%s(?![a-z0-9])" % re.escape(zc), ds, text)
    return text


def convert(text, prec):
    k = PRECS.index(prec)
    letter = prec
    real = prec in "ds"
    # <prefix>z<stem>, in identifiers and in strings (perfmodel symbols).
    text = re.sub(r"\b(" + ROUTINE_PREFIX + r")z([a-z0-9]+)(?![a-z0-9])",
                  lambda mo: mo.group(1) + letter +
                  (REAL_STEMS.get(mo.group(2), mo.group(2)) if real else mo.group(2)),
                  text)
    # Headers named after the precision (tila_z.h -> tila_d.h) and their guards.
    text = re.sub(r"\b(\w+)_z\.h\b", r"\1_%s.h" % letter, text)
    text = re.sub(r"\b(\w+)_Z_H\b", r"\1_%s_H" % letter.upper(), text)
    # A z-source starts with "#define COMPLEX"; complex-only code sits under
    # "#if defined(COMPLEX)", which real precisions then leave out.
    if real:
        text = re.sub(r"^#define COMPLEX\b", "#define REAL", text, flags=re.M)
    # ScaLAPACK's Fortran entry points (pzpotrf_) and the names it prints (PZPOTRF).
    def stem(name):
        return REAL_STEMS.get(name, name) if real else name
    text = re.sub(r"\bpz([a-z0-9]+)_(?![a-z0-9_])",
                  lambda mo: "p" + letter + stem(mo.group(1)) + "_", text)
    text = re.sub(r"\bPZ([A-Z0-9]+)\b",
                  lambda mo: "P" + letter.upper() + stem(mo.group(1).lower()).upper(), text)
    # LAPACK's Fortran entry points (zpotrf_, in libtila_lapack).
    text = re.sub(r"\bz([a-z0-9]+)_(?![a-z0-9_])",
                  lambda mo: letter + stem(mo.group(1)) + "_", text)
    for row in GLUED:
        text = re.sub(r"\b%s([a-z0-9]+)" % row[0],
                      lambda mo, to=row[k]: to + (REAL_STEMS.get(mo.group(1), mo.group(1))
                                                  if real else mo.group(1)),
                      text)
    for row in WORDS:
        text = re.sub(r"\b%s\b" % re.escape(row[0]), row[k], text)
    return text


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in "cds" or len(sys.argv[1]) != 1:
        sys.exit("usage: genprec.py {c|d|s} INPUT OUTPUT")
    prec, src, dst = sys.argv[1:]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    tag = re.search(r"@precisions\s+normal\s+z\s*->\s*([cds ]+)", text)
    mixed = re.search(r"@precisions\s+mixed\s+zc\s*->\s*ds\b", text)
    if not tag and not mixed:
        sys.exit("%s: no '@precisions normal z -> ...' or 'mixed zc -> ds' tag" % src)
    if mixed:
        if prec != "d":
            sys.exit("%s: a mixed zc source has one target, d (ds)" % src)
        tag, out = mixed, convert(convert_mixed(text), "d")
    elif prec not in tag.group(1).split():
        sys.exit("%s: precision %s is not among its targets" % (src, prec))
    else:
        out = convert(text, prec)
    name = os.path.basename(src)
    out = out.replace(tag.group(0).rstrip(),
                      "@generated %s from %s, DO NOT EDIT" % (prec, name), 1)
    tmp = dst + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(out)
    os.replace(tmp, dst)


if __name__ == "__main__":
    main()
