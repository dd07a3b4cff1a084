#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tools/check-floors.py [SRCDIR]: what the include paths cannot refuse (docs/CONTRIBUTING.md).

Two rules, one line each (PASS or FAIL, then the offences, file:line), exit 1 if one fails:

 - prototypes: no tila_* function is declared by hand outside the library.  A declaration
   (a return type, the name, its parameters, ';') of a tila_* function in the programs and
   the drop-in layers (tests/, bench/, examples/, perfmodels/, dropin/, lapack/,
   scalapack/) is refused unless those folders also define the function (their own
   helpers, tila_test_*, tila_layer_*): the library's functions are declared by its
   headers, so a prototype written by hand is one that no header checks against the
   definition.
 - include paths: the library's sources include headers by their bare name, and no
   program includes a library header by a path: "dir/x.h" or "../x.h" would reach past the
   include paths that draw the floors (Makefile.am).

 - outside libraries: each floor reaches only its own outside libraries, which its include
   paths cannot refuse (a system header is found anywhere): BLAS and LAPACK (cblas.h,
   lapacke.h, f77blas.h, a Fortran routine's name with its underscore) from the CPU kernels
   and the drop-in layers alone; cuBLAS and cuSOLVER's calls from the CUDA kernels (the
   runtime makes their handles, codelets pass them on); no StarPU nor MPI in the kernels;
   no CUDA header in a driver.

Run by tests/run-tests.sh (make check) with FLOORS_CHECK set.
"""
import os
import re
import sys

PROGRAMS = ["tests", "bench", "examples", "perfmodels", "dropin", "lapack", "scalapack"]
LIBRARY = ["include", "runtime", "kernels", "codelets", "drivers", "dropin", "lapack",
           "scalapack"]
SUFFIXES = (".c", ".h", ".cu")

# Comments, string and character literals (kept as blanks, newlines kept for line numbers).
LEXEMES = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# A preprocessor line, with its continuations.
DIRECTIVE = re.compile(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*")
TYPE_WORD = (r"(?:extern|static|inline|const|volatile|unsigned|signed|long|short|int|void|"
             r"double|float|char|_Bool|bool|size_t|struct\s+\w+|enum\s+\w+|union\s+\w+|\w+_t|\*)")
# A declaration statement: type words, then the tila_* name, its parameters, ';'.
PROTOTYPE = re.compile(r"(?:^|(?<=[;{}]))\s*((?:%s\s*)+)\b(tila_\w+)\s*\(([^;{}]*)\)\s*;"
                       % TYPE_WORD)
DEFINITION = re.compile(r"\b(tila_\w+)\s*\([^;{}]*\)\s*\{")
PATH_INCLUDE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]*/[^"]*)"')


SYSTEM_INCLUDE = re.compile(r"(?m)^[ \t]*#[ \t]*include[ \t]*<([^>]*)>")
BLAS_HEADERS = r"(?:cblas|lapacke\w*|f77blas|openblas_config)\.h"
# The calls a floor may not make: BLAS and LAPACK in C or Fortran (dgemm_, dpotrf_), and
# cuBLAS's and cuSOLVER's routines (their types and handles may pass through).
BLAS_CALLS = r"\b(?:cblas_\w+|LAPACKE_\w+|[sdcz][a-z][a-z0-9]{2,5}_)\s*\("
CUDA_LIBRARY_CALLS = r"\b(?:cublas|cusolver)[A-Z]\w*\s*\("
RUNTIME_CALLS = r"\b(?:starpu|MPI)_\w+\s*\("
# floor: (headers it may not include, calls it may not make)
OUTSIDE = {
    "include": (BLAS_HEADERS + r"|cu\w*\.h|cuda\w*\.h", BLAS_CALLS + "|" + CUDA_LIBRARY_CALLS),
    "runtime": (BLAS_HEADERS, BLAS_CALLS),
    "codelets": (BLAS_HEADERS + r"|cublas\w*\.h|cusolver\w*\.h",
                 BLAS_CALLS + "|" + CUDA_LIBRARY_CALLS),
    "drivers": (BLAS_HEADERS + r"|cu\w*\.h|cuda\w*\.h|cuComplex\.h",
                BLAS_CALLS + "|" + CUDA_LIBRARY_CALLS + r"|\bcuda[A-Z]\w*\s*\("),
    "kernels": (r"starpu\w*\.h|mpi\.h", RUNTIME_CALLS),
}


def outside_offences(top):
    """Each (file, line, what) where a floor of OUTSIDE includes or calls what it may not."""
    found = []
    for floor, (headers, calls) in OUTSIDE.items():
        header_re, call_re = re.compile(r"(?:%s)$" % headers), re.compile(calls)
        for path in sources(top, [floor]):
            text, code = code_of(path)
            # includes from the text with comments and strings blanked, calls from the code
            # (preprocessor lines blanked too)
            bare = LEXEMES.sub(blank, text)
            for mo in SYSTEM_INCLUDE.finditer(bare):
                if header_re.match(mo.group(1).split("/")[-1]):
                    found.append((os.path.relpath(path, top), bare.count("\n", 0, mo.start()) + 1,
                                  "<%s>" % mo.group(1)))
            for mo in call_re.finditer(code):
                found.append((os.path.relpath(path, top), code.count("\n", 0, mo.start()) + 1,
                              mo.group(0).rstrip("( \t")))
    return found


def blank(mo):
    return re.sub(r"[^\n]", " ", mo.group(0))


def own(name, defined):
    """Whether the programs define `name`, or its z-source does (tila_test_dcuda_blas is
    tools/genprec.py's copy of tila_test_zcuda_blas)."""
    return name in defined or any(
        name[:i] + "z" + name[i + 1:] in defined for i, ch in enumerate(name) if ch in "sdc")


def reaches_library(top, path, header):
    """Whether a program's "dir/x.h" is a library header (from the file's folder, or from
    the top, which automake's default include paths hold)."""
    for base in (os.path.dirname(path), top):
        found = os.path.normpath(os.path.join(base, header))
        if os.path.isfile(found):
            return os.path.relpath(found, top).split(os.sep)[0] in LIBRARY
    return False


def sources(top, folders):
    for d in folders:
        for root, dirs, files in os.walk(os.path.join(top, d)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SUFFIXES):
                    yield os.path.join(root, name)


def code_of(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return text, DIRECTIVE.sub(blank, LEXEMES.sub(blank, text))


RULES = (
    ("prototypes", "a tila_* function declared by hand (include its header)", PROGRAMS),
    ("include-paths", "a header included by a path (use its bare name)", LIBRARY + PROGRAMS[:4]),
    ("outside-libraries", "an outside library a floor may not reach (docs/CONTRIBUTING.md, "
     "Layout)", list(OUTSIDE)),
)


def offences(top):
    """Each rule's offences in the tree at top: {rule: [(file, line, what)]}."""
    rel = lambda p: os.path.relpath(p, top)  # noqa: E731
    defined, declared = set(), []
    for path in sources(top, PROGRAMS):
        _, code = code_of(path)
        defined.update(DEFINITION.findall(code))
        for mo in PROTOTYPE.finditer(code):
            line = code.count("\n", 0, mo.start(2)) + 1
            declared.append((rel(path), line, mo.group(2)))
    paths = []
    for path in sorted(set(sources(top, LIBRARY + PROGRAMS))):
        text, _ = code_of(path)
        for mo in PATH_INCLUDE.finditer(text):
            if rel(path).split(os.sep)[0] in LIBRARY or reaches_library(top, path, mo.group(1)):
                paths.append((rel(path), text.count("\n", 0, mo.start()) + 1, mo.group(1)))
    return {"prototypes": [d for d in declared if not own(d[2], defined)],
            "include-paths": paths, "outside-libraries": outside_offences(top)}


# --planted: a tree of one file per floor, each holding what a rule must refuse (and, in
# comments and strings, what it must not), so that a rule that stops seeing is a failure.
PLANTED = {
    "runtime/task.c": '#include "tila_runtime.h"\nvoid f(void) { cblas_dgemm(0); }\n'
                      '/* dgemm_( in a comment */ const char *s = "LAPACKE_dpotrf(";\n',
    "codelets/codelet_zgemm.c": "void g(double *a) { dpotrf_(\"L\", a); cublasDgemm(0); "
                                "cudaMemsetAsync(a, 0, 8, 0); }\n",
    "drivers/zgemm.c": "#include <cblas.h>\n#include <stdlib.h>\nvoid h(void) { cudaFree(0); }\n",
    "kernels/cpu/core_zgemm.c": "#include <starpu.h>\n#include <cblas.h>\n"
                                "void k(void) { cblas_dgemm(0); MPI_Barrier(0); }\n",
    "include/tila.h": "#include <mpi.h>\n#include <starpu.h>\n",
    "tests/t.c": '#include "runtime/tila_runtime.h"\nint tila_zgemm(int n);\n'
                 "int tila_test_x(int n);\nint tila_test_x(int n) { return n; }\n",
}
PLANTED_WANT = {
    "prototypes": ["tests/t.c:2: tila_zgemm"],
    "include-paths": ["tests/t.c:1: runtime/tila_runtime.h"],
    "outside-libraries": ["runtime/task.c:2: cblas_dgemm", "codelets/codelet_zgemm.c:1: dpotrf_",
                          "codelets/codelet_zgemm.c:1: cublasDgemm", "drivers/zgemm.c:1: <cblas.h>",
                          "drivers/zgemm.c:3: cudaFree", "kernels/cpu/core_zgemm.c:1: <starpu.h>",
                          "kernels/cpu/core_zgemm.c:3: MPI_Barrier"],
}


def planted():
    import tempfile
    with tempfile.TemporaryDirectory() as top:
        for name, text in PLANTED.items():
            os.makedirs(os.path.join(top, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(top, name), "w") as f:
                f.write(text)
        # the header the test reaches by a path
        os.makedirs(os.path.join(top, "runtime"), exist_ok=True)
        open(os.path.join(top, "runtime", "tila_runtime.h"), "w").close()
        got = offences(top)
    failed = 0
    for rule, _, _ in RULES:
        found = sorted("%s:%d: %s" % o for o in got[rule])
        ok = found == sorted(PLANTED_WANT[rule])
        failed |= not ok
        print("%s floors planted %s: %s" % ("PASS" if ok else "FAIL", rule,
                                           "; ".join(found) or "nothing found"))
    return failed


def main():
    if sys.argv[1:2] == ["--planted"]:
        return planted()
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    failed = 0
    for (rule, what, where), found in zip(RULES, offences(top).values()):
        if found:
            failed = 1
            print("FAIL floors %s %d: %s" % (rule, len(found), what))
            for f, line, name in found:
                print("  %s:%d: %s" % (f, line, name))
        else:
            print("PASS floors %s: none in %s" % (rule, ", ".join(where)))
    return failed


if __name__ == "__main__":
    sys.exit(main())
