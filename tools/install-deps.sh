#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install what Tila needs to build, test and benchmark on Debian bookworm (as root,
# or through sudo).  Does nothing when everything is there already.
set -e
pkgs="build-essential autoconf automake libtool pkg-config python3 libstarpu-dev
libstarpumpi-1.3-3 starpu-tools libopenmpi-dev openmpi-bin libopenblas-dev liblapacke-dev
libscalapack-openmpi-dev scalapack-mpi-test scalapack-test-common liblapack-test libhwloc-dev
gnuplot-nox gfortran python3-numpy valgrind libopenblas0-openmp"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
echo "install-deps: installing$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
