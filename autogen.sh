#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Regenerate gen.am (the c/d/s files made from the z-sources) and the build system.
set -e
cd "$(dirname "$0")"
python3 tools/genmk.py .
autoreconf -fi
