#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Usage: tools/quickstart.sh demo|test
# Installs the dependencies, configures and builds Tila in _build/, then runs the
# main demo (the Cholesky example on 4 MPI ranks) or the whole test suite.
set -e
cd "$(dirname "$0")/.."
what=${1:?usage: tools/quickstart.sh demo|test}
sh tools/install-deps.sh
if [ ! -f _build/Makefile ]; then
    ./autogen.sh >/dev/null
    mkdir -p _build
    (cd _build && ../configure --disable-static ${TILA_CONFIGURE_FLAGS:-} >/dev/null)
fi
make -C _build -j"$(nproc)" >/dev/null
case $what in
    demo)
        make -C _build -j"$(nproc)" examples/cholesky >/dev/null
        sh tools/mpirun-env.sh 4 _build/examples/cholesky --n 8192 --nb 320 --p 2 --q 2 --check ;;
    test)
        make -C _build --no-print-directory check ;;
    *)
        echo "usage: tools/quickstart.sh demo|test" >&2
        exit 2 ;;
esac
