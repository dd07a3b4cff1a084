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


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    rel = lambda p: os.path.relpath(p, top)  # noqa: E731
    defined, declared = set(), []
    for path in sources(top, PROGRAMS):
        _, code = code_of(path)
        defined.update(DEFINITION.findall(code))
        for mo in PROTOTYPE.finditer(code):
            line = code.count("\n", 0, mo.start(2)) + 1
            declared.append((rel(path), line, mo.group(2)))
    bad = [d for d in declared if not own(d[2], defined)]
    paths = []
    for path in sorted(set(sources(top, LIBRARY + PROGRAMS))):
        text, _ = code_of(path)
        for mo in PATH_INCLUDE.finditer(text):
            if rel(path).split(os.sep)[0] in LIBRARY or reaches_library(top, path, mo.group(1)):
                paths.append((rel(path), text.count("\n", 0, mo.start()) + 1, mo.group(1)))

    failed = 0
    for rule, offences, what in (
            ("prototypes", bad, "a tila_* function declared by hand (include its header)"),
            ("include-paths", paths, "a header included by a path (use its bare name)")):
        if offences:
            failed = 1
            print("FAIL floors %s %d: %s" % (rule, len(offences), what))
            for f, line, name in offences:
                print("  %s:%d: %s" % (f, line, name))
        else:
            print("PASS floors %s: none in %s" % (
                rule, ", ".join(PROGRAMS if rule == "prototypes" else LIBRARY + PROGRAMS[:4])))
    return failed


if __name__ == "__main__":
    sys.exit(main())
