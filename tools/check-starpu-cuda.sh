#!/usr/bin/env bash
# Smoke test of a CUDA-enabled StarPU install (see build-starpu-cuda.sh):
# compile + link a tiny program via pkg-config starpu-1.3 starpumpi-1.3 and
# run starpu_init (ncuda=0: works on machines without a GPU) / starpu_shutdown.
# Usage: tools/check-starpu-cuda.sh PREFIX
set -euo pipefail
PREFIX=${1:?usage: $0 PREFIX}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/t.c" <<'EOF'
#include <stdio.h>
#include <starpu.h>
#include <starpu_mpi.h>
#ifndef STARPU_USE_CUDA
#error "this StarPU was built without CUDA"
#endif
int main(int argc, char **argv)
{
	struct starpu_conf conf;
	(void) argv;
	if (argc > 99) starpu_mpi_shutdown(); /* never runs; forces linking libstarpumpi */
	starpu_conf_init(&conf);
	conf.ncuda = 0;
	int ret = starpu_init(&conf);
	if (ret != 0) { fprintf(stderr, "starpu_init failed: %d\n", ret); return 1; }
	printf("starpu_init OK (STARPU_USE_CUDA, %u CPU workers, %u CUDA workers)\n",
	       starpu_cpu_worker_get_count(), starpu_cuda_worker_get_count());
	starpu_shutdown();
	return 0;
}
EOF
CC=$(command -v mpicc || command -v cc)
# -Wno-deprecated-declarations: starpu.h pulls in CUDA 13's cusparse.h.
# shellcheck disable=SC2046
"$CC" -Wno-deprecated-declarations "$tmp/t.c" -o "$tmp/t" $(pkg-config --cflags --libs starpu-1.3 starpumpi-1.3)
export LD_LIBRARY_PATH="$PREFIX/lib:$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Debian's own libstarpu (same soname) must not be picked up instead.  ldd's output is
# read whole first: `ldd | grep -q` under pipefail fails when grep stops reading early.
libs=$(ldd "$tmp/t")
printf '%s\n' "$libs" | grep "libstarpu-1.3.so.* => $PREFIX/lib/" >/dev/null ||
	{ printf '%s\n' "$libs" | grep starpu; echo "check: not linked against $PREFIX/lib" >&2; exit 1; }
STARPU_NCUDA=0 STARPU_HOME="$tmp" STARPU_SILENT=1 "$tmp/t"
echo "check-starpu-cuda: OK ($PREFIX)"
